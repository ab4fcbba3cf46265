//! Fidelity audit of the CronJob time arithmetic (`pkg/controller/cronjob/utils.go`):
//! hand-derived cases the ported tables do not cover.

use super::utils::{
    get_job_from_template2, get_job_name, most_recent_schedule_time, next_schedule_time,
    next_schedule_time_duration, MissedSchedules,
};
use crate::api::batch::CronJob;
use crate::api::{Duration, Time};
use crate::cron::parse_standard;

fn t(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}

fn cj(created: &str, schedule: &str, last: Option<&str>, sds: Option<i64>) -> CronJob {
    let mut c = CronJob::default();
    c.metadata.name = "mycronjob".into();
    c.metadata.namespace = "default".into();
    c.metadata.uid = "1a2b3c".into();
    c.metadata.creation_timestamp = Some(t(created));
    c.spec.schedule = schedule.into();
    c.status.last_schedule_time = last.map(t);
    c.spec.starting_deadline_seconds = sds;
    c
}

// upstream: mostRecentScheduleTime (utils.go). The missed count is estimated from the first
// interval (t2 - t1 = 1 day for "0 0 1,2 * *" from Jan 1): on Feb 15, 45 days after t1, the
// estimate is 46 missed, the search starts at t1 + 44 days = Feb 14, and Next(Feb 14) = Mar 1 is
// after now — the real most recent time (Feb 2) is lost; the schedule counts as "few missed".
#[test]
fn irregular_schedule_loses_the_most_recent_time() {
    // Created Dec 31 noon: t1 = Jan 1, t2 = Jan 2.
    let c = cj("2022-12-31T12:00:00Z", "0 0 1,2 * *", None, None);
    let s = parse_standard("0 0 1,2 * *").unwrap();
    let now = t("2023-02-15T00:00:00Z");
    let r = most_recent_schedule_time(&c, now, &s, true).unwrap();
    assert_eq!(r.most_recent, None);
    assert_eq!(r.missed, MissedSchedules::Few);
    // ... so no Job now, and the requeue aims at Next(now) (Mar 1) plus 100 ms.
    assert_eq!(next_schedule_time(&c, now, &s), (None, false, None));
    assert_eq!(
        next_schedule_time_duration(&c, now, &s),
        (t("2023-03-01T00:00:00Z") + Duration::from_millis(100)) - now
    );
}

// upstream: mostRecentScheduleTime: `now` equal to t1 is not before it, so t1 is due.
#[test]
fn now_equal_to_the_schedule_time_is_due() {
    let c = cj("2023-01-01T00:00:30Z", "* * * * *", None, None);
    let s = parse_standard("* * * * *").unwrap();
    let now = t("2023-01-01T00:01:00Z");
    let r = most_recent_schedule_time(&c, now, &s, true).unwrap();
    assert_eq!(r.most_recent, Some(now));
    assert_eq!(r.missed, MissedSchedules::None);
}

// upstream: mostRecentScheduleTime / nextScheduleTime: 101 missed minutes is "many" (the
// TooManyMissedTimes warning) and the most recent time is still returned; 100 is "few";
// startingDeadlineSeconds moves the earliest time up and the count with it.
#[test]
fn many_missed_boundary_and_starting_deadline() {
    let s = parse_standard("* * * * *").unwrap();
    let c = cj("2023-01-01T00:00:00Z", "* * * * *", None, None);
    // t1 = 00:01, t2 = 00:02. now = 01:41: elapsed 100 min -> 100 + 1 = 101 missed.
    let now = t("2023-01-01T01:41:00Z");
    let r = most_recent_schedule_time(&c, now, &s, true).unwrap();
    assert_eq!(r.missed, MissedSchedules::Many);
    assert_eq!(r.most_recent, Some(now));
    assert_eq!(next_schedule_time(&c, now, &s), (Some(now), true, None));
    // now = 01:40:59: elapsed 99 min 59 s -> 99 + 1 = 100: few.
    let now = t("2023-01-01T01:40:59Z");
    let r = most_recent_schedule_time(&c, now, &s, true).unwrap();
    assert_eq!(r.missed, MissedSchedules::Few);
    assert_eq!(r.most_recent, Some(t("2023-01-01T01:40:00Z")));
    // startingDeadlineSeconds 200: earliest = now - 200 s = 01:37:40; t1 = 01:38, t2 = 01:39,
    // elapsed 3 min -> 4 missed: few, most recent 01:41.
    let c = cj("2023-01-01T00:00:00Z", "* * * * *", None, Some(200));
    let now = t("2023-01-01T01:41:00Z");
    let r = most_recent_schedule_time(&c, now, &s, true).unwrap();
    assert_eq!(r.earliest, t("2023-01-01T01:37:40Z"));
    assert_eq!(r.missed, MissedSchedules::Few);
    assert_eq!(next_schedule_time(&c, now, &s), (Some(now), false, None));
    // Without the deadline (the requeue computation), the creation time counts: many.
    let r = most_recent_schedule_time(&c, now, &s, false).unwrap();
    assert_eq!(r.missed, MissedSchedules::Many);
}

// upstream: mostRecentScheduleTime: an impossible date gives two zero times and the
// "less than 1 second" error; nextScheduleTimeDuration then aims at Next(now) (zero again).
#[test]
fn impossible_schedule_errors() {
    let s = parse_standard("59 23 31 2 *").unwrap();
    let c = cj("2023-01-01T00:00:00Z", "59 23 31 2 *", None, None);
    let now = t("2023-06-01T00:00:00Z");
    let (when, many, err) = next_schedule_time(&c, now, &s);
    assert_eq!((when, many), (None, false));
    assert_eq!(
        err.as_deref(),
        Some("time difference between two schedules is less than 1 second")
    );
}

// upstream: getJobFromTemplate2 / getJobName: the name uses whole minutes since the epoch, the
// scheduled-timestamp annotation is RFC 3339 in spec.timeZone ("Z" for a zero offset, even in a
// named zone such as Europe/London in winter).
#[test]
fn job_name_and_scheduled_annotation() {
    let mut c = cj("2023-01-01T00:00:00Z", "0 9 * * *", None, None);
    let scheduled = t("2023-01-10T09:00:00Z");
    assert_eq!(get_job_name(&c, scheduled), "mycronjob-27889020");
    c.spec.time_zone = Some("Europe/London".into());
    let j = get_job_from_template2(&c, scheduled, true).unwrap();
    assert_eq!(
        j.metadata
            .annotations
            .get("batch.kubernetes.io/cronjob-scheduled-timestamp")
            .map(String::as_str),
        Some("2023-01-10T09:00:00Z")
    );
    c.spec.time_zone = Some("Asia/Kolkata".into());
    let j = get_job_from_template2(&c, scheduled, true).unwrap();
    assert_eq!(
        j.metadata
            .annotations
            .get("batch.kubernetes.io/cronjob-scheduled-timestamp")
            .map(String::as_str),
        Some("2023-01-10T14:30:00+05:30")
    );
    assert_eq!(j.metadata.name, "mycronjob-27889020");
    assert_eq!(j.metadata.owner_references.len(), 1);
    assert_eq!(j.metadata.owner_references[0].kind, "CronJob");
    assert_eq!(j.metadata.owner_references[0].controller, Some(true));
}
