//! Cron schedules as Kubernetes evaluates them: a port of robfig/cron v3's standard parser and
//! `Next`, IANA time zones, and a pure schedule preview (next fire times and an English
//! description) for lessons and the browser.
//!
//! * [`parse_standard`] — `cron.ParseStandard`: five fields (minute, hour, day of month, month,
//!   day of week), names (`JAN`, `MON`), `*`, `?`, ranges, steps, lists, the macros `@yearly`,
//!   `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`, and `@every <Go
//!   duration>` (robfig's standard parser accepts it, so the API server does too). Day-of-week 7,
//!   `L`, `W` and `#` are errors, as upstream.
//! * [`Schedule::next`] — `Next(t)` with the five-year search limit; day-of-month and day-of-week
//!   combine with OR only when both are restricted (neither carries the star bit).
//! * [`tz`] — `spec.timeZone` / `TZ=` zones: DST gaps are skipped, repeated hours fire twice, as
//!   robfig does with Go's `time` package.
//! * [`preview`] and [`describe`] — "next N runs" and "At 00:00 on day-of-month 13 or on Friday".

pub mod parser;
pub mod spec;
pub mod tz;
pub mod tzdata;

pub use parser::{parse_standard, Parser};
pub use spec::{Schedule, SpecSchedule};
pub use tz::{load_location, Location};

use crate::api::Time;

/// The next `n` activation times of `schedule` strictly after `after`, evaluated in `local` for
/// schedules without their own zone. Stops early when the schedule has no further activation.
pub fn preview(schedule: &Schedule, after: Time, n: usize, local: &Location) -> Vec<Time> {
    let mut out = Vec::with_capacity(n);
    let mut t = after;
    for _ in 0..n {
        t = schedule.next_in(t, local);
        if t.is_zero() {
            break;
        }
        out.push(t);
    }
    out
}

/// The `n` next runs of a CronJob schedule string (with an optional `spec.timeZone`) after
/// `after`, as RFC 3339 strings in the schedule's zone.
///
/// # Errors
/// The parse error, or `unknown time zone X`.
pub fn preview_strings(
    schedule: &str,
    time_zone: Option<&str>,
    after: Time,
    n: usize,
) -> Result<Vec<String>, String> {
    let loc = match time_zone {
        Some(z) => load_location(z)?,
        None => Location::Utc,
    };
    let s = parse_standard(schedule)?;
    let shown = s.location().cloned().unwrap_or_else(|| loc.clone());
    Ok(preview(&s, after, n, &loc)
        .into_iter()
        .map(|t| shown.rfc3339(t.unix_secs()))
        .collect())
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAY_NAMES: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`.
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[derive(Clone, Copy)]
enum Unit {
    Minute,
    Hour,
    Dom,
    Month,
    Dow,
}

impl Unit {
    fn noun(self) -> &'static str {
        match self {
            Unit::Minute => "minute",
            Unit::Hour => "hour",
            Unit::Dom => "day-of-month",
            Unit::Month => "month",
            Unit::Dow => "day-of-week",
        }
    }
    fn value(self, raw: &str) -> String {
        let names: &[(&str, u32)] = match self {
            Unit::Month => spec::MONTHS.names,
            Unit::Dow => spec::DOW.names,
            _ => &[],
        };
        let lower = raw.to_ascii_lowercase();
        let n = names
            .iter()
            .find(|(k, _)| *k == lower)
            .map(|(_, v)| *v)
            .or_else(|| raw.parse().ok());
        match (self, n) {
            (Unit::Month, Some(m @ 1..=12)) => MONTH_NAMES[m as usize - 1].to_string(),
            (Unit::Dow, Some(d @ 0..=6)) => DAY_NAMES[d as usize].to_string(),
            _ => raw.to_string(),
        }
    }
}

/// One comma-separated item of a field, in words (`every 2nd hour from 6 through 16`).
fn describe_item(item: &str, unit: Unit) -> String {
    let (range, step) = match item.split_once('/') {
        Some((r, "1")) => (r, None),
        Some((r, s)) => (r, Some(s)),
        None => (item, None),
    };
    let every = match step {
        Some(s) => format!(
            "every {} {}",
            s.parse::<u64>().map(ordinal).unwrap_or_else(|_| s.into()),
            unit.noun()
        ),
        None => format!("every {}", unit.noun()),
    };
    if range == "*" || range == "?" {
        return every;
    }
    match range.split_once('-') {
        Some((a, b)) => format!("{every} from {} through {}", unit.value(a), unit.value(b)),
        None if step.is_some() => {
            let max = match unit {
                Unit::Minute => "59",
                Unit::Hour => "23",
                Unit::Dom => "31",
                Unit::Month => "12",
                Unit::Dow => "6",
            };
            format!(
                "{every} from {} through {}",
                unit.value(range),
                unit.value(max)
            )
        }
        None => unit.value(range),
    }
}

fn is_star(f: &str) -> bool {
    f == "*" || f == "?"
}

fn is_single(f: &str) -> bool {
    !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit())
}

/// A field in words: `minute 5`, `every 15th minute`, `day-of-month 1 and 15`.
fn describe_field(field: &str, unit: Unit) -> String {
    let items: Vec<&str> = field.split(',').filter(|s| !s.is_empty()).collect();
    let plain = items
        .iter()
        .all(|i| !i.contains('/') && !i.contains('-') && !is_star(i));
    let words: Vec<String> = items.iter().map(|i| describe_item(i, unit)).collect();
    let joined = match words.len() {
        0 => String::new(),
        1 => words[0].clone(),
        n => format!("{} and {}", words[..n - 1].join(", "), words[n - 1]),
    };
    match unit {
        Unit::Month | Unit::Dow if plain => joined,
        _ if plain => format!("{} {joined}", unit.noun()),
        _ => joined,
    }
}

/// An English description of a CronJob schedule, in the style of crontab.guru:
/// `0 0 13 * 5` → `At 00:00 on day-of-month 13 or on Friday` (robfig ORs a restricted
/// day-of-month with a restricted day-of-week). Macros are described through their expansion;
/// `@every 1h30m` → `Every 1h30m0s`.
///
/// # Errors
/// The parse error of an invalid schedule.
pub fn describe(schedule: &str) -> Result<String, String> {
    parse_standard(schedule)?;
    let mut s = schedule.trim();
    let mut zone = None;
    if s.starts_with("TZ=") || s.starts_with("CRON_TZ=") {
        if let Some((z, rest)) = s.split_once(' ') {
            zone = z.split_once('=').map(|(_, n)| n.to_string());
            s = rest.trim();
        }
    }
    let expanded = match s {
        "@yearly" | "@annually" => "0 0 1 1 *",
        "@monthly" => "0 0 1 * *",
        "@weekly" => "0 0 * * 0",
        "@daily" | "@midnight" => "0 0 * * *",
        "@hourly" => "0 * * * *",
        other => other,
    };
    if let Some(d) = expanded.strip_prefix("@every ") {
        let nanos = parser::parse_go_duration(d)?;
        let secs = if nanos < 1_000_000_000 {
            1
        } else {
            (nanos / 1_000_000_000) as i64
        };
        return Ok(format!("Every {}", go_duration_string(secs)));
    }
    let f: Vec<&str> = expanded.split_whitespace().collect();
    let (min, hour, dom, month, dow) = (f[0], f[1], f[2], f[3], f[4]);
    let mut out = String::from("At ");
    if is_single(min) && is_single(hour) {
        out.push_str(&format!(
            "{:02}:{:02}",
            hour.parse::<u32>().unwrap_or(0),
            min.parse::<u32>().unwrap_or(0)
        ));
    } else {
        out.push_str(&describe_field(min, Unit::Minute));
        if !is_star(hour) {
            out.push_str(" past ");
            out.push_str(&describe_field(hour, Unit::Hour));
        }
    }
    let dom_star = is_star(dom);
    let dow_star = is_star(dow);
    if !dom_star {
        out.push_str(" on ");
        out.push_str(&describe_field(dom, Unit::Dom));
    }
    if !dow_star {
        out.push_str(if dom_star { " on " } else { " or on " });
        out.push_str(&describe_field(dow, Unit::Dow));
    }
    if !is_star(month) {
        out.push_str(" in ");
        out.push_str(&describe_field(month, Unit::Month));
    }
    if let Some(z) = zone {
        out.push_str(&format!(" ({z})"));
    }
    Ok(out)
}

/// Go's `time.Duration.String` for whole seconds (`1h30m0s`, `5m0s`, `45s`).
pub fn go_duration_string(secs: i64) -> String {
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    if h > 0 {
        format!("{h}h{m}m{s}s")
    } else if m > 0 {
        format!("{m}m{s}s")
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod rfc3339_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions() {
        let cases = [
            ("0 0 13 * 5", "At 00:00 on day-of-month 13 or on Friday"),
            ("*/1 * * * *", "At every minute"),
            ("* * * * *", "At every minute"),
            ("*/5 * * * *", "At every 5th minute"),
            ("0 * * * *", "At minute 0"),
            ("@hourly", "At minute 0"),
            ("@daily", "At 00:00"),
            ("@weekly", "At 00:00 on Sunday"),
            ("@yearly", "At 00:00 on day-of-month 1 in January"),
            ("0 9 * * MON-FRI", "At 09:00 on every day-of-week from Monday through Friday"),
            (
                "30 6-16/4 * * 1-5",
                "At minute 30 past every 4th hour from 6 through 16 on every day-of-week from Monday through Friday",
            ),
            ("0 0 1,15 * *", "At 00:00 on day-of-month 1 and 15"),
            ("5 4 * jan,jul *", "At 04:05 in January and July"),
            ("@every 1h30m", "Every 1h30m0s"),
            ("TZ=Europe/Rome 0 8 * * *", "At 08:00 (Europe/Rome)"),
        ];
        for (s, want) in cases {
            assert_eq!(describe(s).unwrap(), want, "{s}");
        }
        assert!(describe("0 0 * * 7").is_err());
    }

    #[test]
    fn previews() {
        let after = Time::parse_rfc3339("2025-06-01T00:00:00Z").unwrap();
        // 0 0 13 * 5: the 13th of any month, or any Friday.
        let got = preview_strings("0 0 13 * 5", None, after, 4).unwrap();
        assert_eq!(
            got,
            [
                "2025-06-06T00:00:00Z",
                "2025-06-13T00:00:00Z",
                "2025-06-20T00:00:00Z",
                "2025-06-27T00:00:00Z"
            ]
        );
        let got = preview_strings("0 8 * * *", Some("Europe/Rome"), after, 2).unwrap();
        assert_eq!(
            got,
            ["2025-06-01T08:00:00+02:00", "2025-06-02T08:00:00+02:00"]
        );
        // Unsatisfiable: nothing within five years.
        assert!(preview_strings("0 0 30 2 *", None, after, 3)
            .unwrap()
            .is_empty());
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
    }
}
