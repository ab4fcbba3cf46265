use super::*;
use crate::api::{days_from_civil, Time};
use crate::cron::parser::parse_standard;
use crate::cron::tz::load_location;

const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// robfig's `getTime`: `Mon Jan 2 15:04[:05] 2006` (in UTC, robfig's `time.Local` on CI),
/// `2006-01-02T15:04:05-0700` (a fixed zone), optionally prefixed with `TZ=<zone> ` (the time is
/// then in that zone). Returns the instant and the Go location it carries.
fn get_time(value: &str) -> (Time, Location) {
    if value.is_empty() {
        return (Time::ZERO, Location::Utc);
    }
    let (mut loc, value) = match value.strip_prefix("TZ=") {
        Some(rest) => {
            let (z, v) = rest.split_once(' ').unwrap();
            (Some(load_location(z).unwrap()), v)
        }
        None => (None, value),
    };
    let parts: Vec<&str> = value.split_whitespace().collect();
    if parts.len() == 5 {
        // Mon Jul 9 15:00 2012
        let month = MONTH_NAMES.iter().position(|m| *m == parts[1]).unwrap() as u32 + 1;
        let day: u32 = parts[2].parse().unwrap();
        let hms: Vec<i64> = parts[3].split(':').map(|x| x.parse().unwrap()).collect();
        let year: i64 = parts[4].parse().unwrap();
        let secs = days_from_civil(year, month, day) * 86_400
            + hms[0] * 3600
            + hms[1] * 60
            + hms.get(2).copied().unwrap_or(0);
        return (Time::from_unix_secs(secs), Location::Utc);
    }
    // 2012-03-11T00:00:00-0500
    let (dt, off) = value.split_at(19);
    let sign = if off.starts_with('-') { -1 } else { 1 };
    let off_secs =
        sign * (off[1..3].parse::<i64>().unwrap() * 3600 + off[3..5].parse::<i64>().unwrap() * 60);
    let t =
        Time::parse_rfc3339(&format!("{dt}Z")).unwrap() - crate::api::Duration::from_secs(off_secs);
    let loc = loc.take().unwrap_or(Location::Fixed(off_secs));
    (t, loc)
}

// Port of TestActivation (robfig/cron spec_test.go).
#[test]
fn test_activation() {
    let cases: &[(&str, &str, bool)] = &[
        ("Mon Jul 9 15:00 2012", "0/15 * * * *", true),
        ("Mon Jul 9 15:45 2012", "0/15 * * * *", true),
        ("Mon Jul 9 15:40 2012", "0/15 * * * *", false),
        ("Mon Jul 9 15:05 2012", "5/15 * * * *", true),
        ("Mon Jul 9 15:20 2012", "5/15 * * * *", true),
        ("Mon Jul 9 15:50 2012", "5/15 * * * *", true),
        ("Sun Jul 15 15:00 2012", "0/15 * * Jul *", true),
        ("Sun Jul 15 15:00 2012", "0/15 * * Jun *", false),
        ("Sun Jul 15 08:30 2012", "30 08 ? Jul Sun", true),
        ("Sun Jul 15 08:30 2012", "30 08 15 Jul ?", true),
        ("Mon Jul 16 08:30 2012", "30 08 ? Jul Sun", false),
        ("Mon Jul 16 08:30 2012", "30 08 15 Jul ?", false),
        ("Mon Jul 9 15:00 2012", "@hourly", true),
        ("Mon Jul 9 15:04 2012", "@hourly", false),
        ("Mon Jul 9 15:00 2012", "@daily", false),
        ("Mon Jul 9 00:00 2012", "@daily", true),
        ("Mon Jul 9 00:00 2012", "@weekly", false),
        ("Sun Jul 8 00:00 2012", "@weekly", true),
        ("Sun Jul 8 01:00 2012", "@weekly", false),
        ("Sun Jul 8 00:00 2012", "@monthly", false),
        ("Sun Jul 1 00:00 2012", "@monthly", true),
        // Both DOM and DOW restricted: either one.
        ("Sun Jul 15 00:00 2012", "* * 1,15 * Sun", true),
        ("Fri Jun 15 00:00 2012", "* * 1,15 * Sun", true),
        ("Wed Aug 1 00:00 2012", "* * 1,15 * Sun", true),
        ("Sun Jul 15 00:00 2012", "* * */10 * Sun", true),
        // One of them a star: both.
        ("Sun Jul 15 00:00 2012", "* * * * Mon", false),
        ("Mon Jul 9 00:00 2012", "* * 1,15 * *", false),
        ("Sun Jul 15 00:00 2012", "* * 1,15 * *", true),
        ("Sun Jul 15 00:00 2012", "* * */2 * Sun", true),
    ];
    for (time, spec, expected) in cases {
        let sched = parse_standard(spec).unwrap();
        let (t, _) = get_time(time);
        let actual = sched.next(t - crate::api::Duration::from_secs(1));
        assert_eq!(actual == t, *expected, "{spec} on {time}: got {actual}");
    }
}

// Port of TestNext. The two America/Sao_Paulo rows (2018) are left out: Brazil abolished DST
// in 2019 and kubeplay only knows each zone's current rule (see tz.rs).
#[test]
fn test_next() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "Mon Jul 9 14:45 2012",
            "0 0/15 * * * *",
            "Mon Jul 9 15:00 2012",
        ),
        (
            "Mon Jul 9 14:59 2012",
            "0 0/15 * * * *",
            "Mon Jul 9 15:00 2012",
        ),
        (
            "Mon Jul 9 14:59:59 2012",
            "0 0/15 * * * *",
            "Mon Jul 9 15:00 2012",
        ),
        (
            "Mon Jul 9 15:45 2012",
            "0 20-35/15 * * * *",
            "Mon Jul 9 16:20 2012",
        ),
        (
            "Mon Jul 9 23:46 2012",
            "0 */15 * * * *",
            "Tue Jul 10 00:00 2012",
        ),
        (
            "Mon Jul 9 23:45 2012",
            "0 20-35/15 * * * *",
            "Tue Jul 10 00:20 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            "15/35 20-35/15 * * * *",
            "Tue Jul 10 00:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            "15/35 20-35/15 1/2 * * *",
            "Tue Jul 10 01:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            "15/35 20-35/15 10-12 * * *",
            "Tue Jul 10 10:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            "15/35 20-35/15 1/2 */2 * *",
            "Thu Jul 11 01:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            "15/35 20-35/15 * 9-20 * *",
            "Wed Jul 10 00:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            "15/35 20-35/15 * 9-20 Jul *",
            "Wed Jul 10 00:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35 2012",
            "0 0 0 9 Apr-Oct ?",
            "Thu Aug 9 00:00 2012",
        ),
        (
            "Mon Jul 9 23:35 2012",
            "0 0 0 */5 Apr,Aug,Oct Mon",
            "Tue Aug 1 00:00 2012",
        ),
        (
            "Mon Jul 9 23:35 2012",
            "0 0 0 */5 Oct Mon",
            "Mon Oct 1 00:00 2012",
        ),
        (
            "Mon Jul 9 23:35 2012",
            "0 0 0 * Feb Mon",
            "Mon Feb 4 00:00 2013",
        ),
        (
            "Mon Jul 9 23:35 2012",
            "0 0 0 * Feb Mon/2",
            "Fri Feb 1 00:00 2013",
        ),
        (
            "Mon Dec 31 23:59:45 2012",
            "0 * * * * *",
            "Tue Jan 1 00:00:00 2013",
        ),
        (
            "Mon Jul 9 23:35 2012",
            "0 0 0 29 Feb ?",
            "Mon Feb 29 00:00 2016",
        ),
        // Daylight saving time 2am EST (-5) -> 3am EDT (-4).
        (
            "2012-03-11T00:00:00-0500",
            "TZ=America/New_York 0 30 2 11 Mar ?",
            "2013-03-11T02:30:00-0400",
        ),
        (
            "2012-03-11T00:00:00-0500",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T01:00:00-0500",
        ),
        (
            "2012-03-11T01:00:00-0500",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T03:00:00-0400",
        ),
        (
            "2012-03-11T03:00:00-0400",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T04:00:00-0400",
        ),
        (
            "2012-03-11T04:00:00-0400",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T05:00:00-0400",
        ),
        (
            "2012-03-11T00:00:00-0500",
            "CRON_TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T01:00:00-0500",
        ),
        (
            "2012-03-11T01:00:00-0500",
            "CRON_TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T03:00:00-0400",
        ),
        (
            "2012-03-11T03:00:00-0400",
            "CRON_TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T04:00:00-0400",
        ),
        (
            "2012-03-11T04:00:00-0400",
            "CRON_TZ=America/New_York 0 0 * * * ?",
            "2012-03-11T05:00:00-0400",
        ),
        (
            "2012-03-11T00:00:00-0500",
            "TZ=America/New_York 0 0 1 * * ?",
            "2012-03-11T01:00:00-0500",
        ),
        (
            "2012-03-11T01:00:00-0500",
            "TZ=America/New_York 0 0 1 * * ?",
            "2012-03-12T01:00:00-0400",
        ),
        // 2am nightly job (skipped on the spring-forward day).
        (
            "2012-03-11T00:00:00-0500",
            "TZ=America/New_York 0 0 2 * * ?",
            "2012-03-12T02:00:00-0400",
        ),
        // Daylight saving time 2am EDT (-4) => 1am EST (-5).
        (
            "2012-11-04T00:00:00-0400",
            "TZ=America/New_York 0 30 2 04 Nov ?",
            "2012-11-04T02:30:00-0500",
        ),
        (
            "2012-11-04T01:45:00-0400",
            "TZ=America/New_York 0 30 1 04 Nov ?",
            "2012-11-04T01:30:00-0500",
        ),
        (
            "2012-11-04T00:00:00-0400",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-11-04T01:00:00-0400",
        ),
        (
            "2012-11-04T01:00:00-0400",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-11-04T01:00:00-0500",
        ),
        (
            "2012-11-04T01:00:00-0500",
            "TZ=America/New_York 0 0 * * * ?",
            "2012-11-04T02:00:00-0500",
        ),
        // 1am nightly job (runs twice).
        (
            "2012-11-04T00:00:00-0400",
            "TZ=America/New_York 0 0 1 * * ?",
            "2012-11-04T01:00:00-0400",
        ),
        (
            "2012-11-04T01:00:00-0400",
            "TZ=America/New_York 0 0 1 * * ?",
            "2012-11-04T01:00:00-0500",
        ),
        (
            "2012-11-04T01:00:00-0500",
            "TZ=America/New_York 0 0 1 * * ?",
            "2012-11-05T01:00:00-0500",
        ),
        (
            "2012-11-04T00:00:00-0400",
            "TZ=America/New_York 0 0 2 * * ?",
            "2012-11-04T02:00:00-0500",
        ),
        (
            "2012-11-04T02:00:00-0500",
            "TZ=America/New_York 0 0 2 * * ?",
            "2012-11-05T02:00:00-0500",
        ),
        (
            "2012-11-04T00:00:00-0400",
            "TZ=America/New_York 0 0 3 * * ?",
            "2012-11-04T03:00:00-0500",
        ),
        (
            "2012-11-04T03:00:00-0500",
            "TZ=America/New_York 0 0 3 * * ?",
            "2012-11-05T03:00:00-0500",
        ),
        // Schedules without a zone, evaluated in the zone of the given time.
        (
            "TZ=America/New_York 2012-11-04T00:00:00-0400",
            "0 0 * * * ?",
            "2012-11-04T01:00:00-0400",
        ),
        (
            "TZ=America/New_York 2012-11-04T01:00:00-0400",
            "0 0 * * * ?",
            "2012-11-04T01:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T01:00:00-0500",
            "0 0 * * * ?",
            "2012-11-04T02:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T00:00:00-0400",
            "0 0 1 * * ?",
            "2012-11-04T01:00:00-0400",
        ),
        (
            "TZ=America/New_York 2012-11-04T01:00:00-0400",
            "0 0 1 * * ?",
            "2012-11-04T01:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T01:00:00-0500",
            "0 0 1 * * ?",
            "2012-11-05T01:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T00:00:00-0400",
            "0 0 2 * * ?",
            "2012-11-04T02:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T02:00:00-0500",
            "0 0 2 * * ?",
            "2012-11-05T02:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T00:00:00-0400",
            "0 0 3 * * ?",
            "2012-11-04T03:00:00-0500",
        ),
        (
            "TZ=America/New_York 2012-11-04T03:00:00-0500",
            "0 0 3 * * ?",
            "2012-11-05T03:00:00-0500",
        ),
        // Unsatisfiable.
        ("Mon Jul 9 23:35 2012", "0 0 0 30 Feb ?", ""),
        ("Mon Jul 9 23:35 2012", "0 0 0 31 Apr ?", ""),
        // Monthly job.
        (
            "TZ=America/New_York 2012-11-04T00:00:00-0400",
            "0 0 3 3 * ?",
            "2012-12-03T03:00:00-0500",
        ),
    ];
    let parser = crate::cron::parser::tests::second_parser();
    for (time, spec, expected) in cases {
        let sched = parser.parse(spec).unwrap();
        let (t, loc) = get_time(time);
        let actual = sched.next_in(t, &loc);
        let (want, _) = get_time(expected);
        assert_eq!(actual, want, "{time}, {spec:?}: want {want}, got {actual}");
    }
}

// Port of TestNextWithTz: schedules without a zone follow the zone of the time given.
#[test]
fn test_next_with_tz() {
    for (time, spec, expected) in [
        (
            "2016-01-03T13:09:03+0530",
            "14 14 * * *",
            "2016-01-03T14:14:00+0530",
        ),
        (
            "2016-01-03T04:09:03+0530",
            "14 14 * * ?",
            "2016-01-03T14:14:00+0530",
        ),
        (
            "2016-01-03T14:09:03+0530",
            "14 14 * * *",
            "2016-01-03T14:14:00+0530",
        ),
        (
            "2016-01-03T14:00:00+0530",
            "14 14 * * ?",
            "2016-01-03T14:14:00+0530",
        ),
    ] {
        let sched = parse_standard(spec).unwrap();
        let (t, loc) = get_time(time);
        let (want, _) = get_time(expected);
        assert_eq!(sched.next_in(t, &loc), want, "{time} {spec}");
    }
}

/// The `@every` schedule: `t + d − t.Nanosecond()`.
#[test]
fn constant_delay_next() {
    let s = parse_standard("@every 1h").unwrap();
    let t = Time::parse_rfc3339("2025-01-01T00:00:00.750Z").unwrap();
    assert_eq!(
        s.next(t),
        Time::parse_rfc3339("2025-01-01T01:00:00Z").unwrap()
    );
}

// Upstream: TestConstantDelayNext (robfig/cron constantdelay_test.go). `Every(d).Next(t)`; the
// times carry milliseconds (`14:45:00.005`), which `get_time` does not read, so they are split
// off here.
#[test]
fn test_constant_delay_next() {
    const MS: i128 = 1_000_000;
    const S: i128 = 1_000 * MS;
    const M: i128 = 60 * S;
    const H: i128 = 60 * M;
    let at = |v: &str| -> Time {
        let mut parts: Vec<&str> = v.split_whitespace().collect();
        let (hms, frac) = parts[3].split_once('.').unwrap_or((parts[3], "0"));
        let frac_ms: i64 = frac.parse().unwrap();
        parts[3] = hms;
        let (t, _) = get_time(&parts.join(" "));
        Time(t.0 + frac_ms)
    };
    let cases: &[(&str, i128, &str)] = &[
        // Simple cases
        ("Mon Jul 9 14:45 2012", 15 * M + 50, "Mon Jul 9 15:00 2012"),
        ("Mon Jul 9 14:59 2012", 15 * M, "Mon Jul 9 15:14 2012"),
        ("Mon Jul 9 14:59:59 2012", 15 * M, "Mon Jul 9 15:14:59 2012"),
        // Wrap around hours
        ("Mon Jul 9 15:45 2012", 35 * M, "Mon Jul 9 16:20 2012"),
        // Wrap around days
        ("Mon Jul 9 23:46 2012", 14 * M, "Tue Jul 10 00:00 2012"),
        ("Mon Jul 9 23:45 2012", 35 * M, "Tue Jul 10 00:20 2012"),
        (
            "Mon Jul 9 23:35:51 2012",
            44 * M + 24 * S,
            "Tue Jul 10 00:20:15 2012",
        ),
        (
            "Mon Jul 9 23:35:51 2012",
            25 * H + 44 * M + 24 * S,
            "Thu Jul 11 01:20:15 2012",
        ),
        // Wrap around months
        (
            "Mon Jul 9 23:35 2012",
            91 * 24 * H + 25 * M,
            "Thu Oct 9 00:00 2012",
        ),
        // Wrap around minute, hour, day, month, and year
        (
            "Mon Dec 31 23:59:45 2012",
            15 * S,
            "Tue Jan 1 00:00:00 2013",
        ),
        // Round to nearest second on the delay
        ("Mon Jul 9 14:45 2012", 15 * M + 50, "Mon Jul 9 15:00 2012"),
        // Round up to 1 second if the duration is less.
        (
            "Mon Jul 9 14:45:00 2012",
            15 * MS,
            "Mon Jul 9 14:45:01 2012",
        ),
        // Round to nearest second when calculating the next time.
        (
            "Mon Jul 9 14:45:00.005 2012",
            15 * M,
            "Mon Jul 9 15:00 2012",
        ),
        // Round to nearest second for both.
        (
            "Mon Jul 9 14:45:00.005 2012",
            15 * M + 50,
            "Mon Jul 9 15:00 2012",
        ),
    ];
    for &(time, delay, expected) in cases {
        assert_eq!(
            Schedule::every(delay).next(at(time)),
            at(expected),
            "{time} {delay}ns"
        );
    }
}

/// Europe/Berlin, 30 March 2025: 02:30 does not exist, so a daily 02:30 job skips that day (the
/// hour loop steps from 01:00 CET to 03:00 CEST and never sees hour 2).
#[test]
fn dst_gap_skips_the_day() {
    let s = parse_standard("TZ=Europe/Berlin 30 2 * * *").unwrap();
    let t = Time::parse_rfc3339("2025-03-29T02:00:00Z").unwrap();
    let first = s.next(t);
    assert_eq!(first, Time::parse_rfc3339("2025-03-31T00:30:00Z").unwrap());
}
