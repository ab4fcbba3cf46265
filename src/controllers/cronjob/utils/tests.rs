use super::*;
use crate::cron::parse_standard;

/// `topOfTheHour`: 2016-05-19T10:00:00Z.
fn top() -> Time {
    Time::parse_rfc3339("2016-05-19T10:00:00Z").unwrap()
}

fn after(secs: i64) -> Time {
    top() + Duration::from_secs(secs)
}

const MIN: i64 = 60;
const HOUR: i64 = 3600;

fn cj(created: Time, schedule: &str, last: Option<Time>, sds: Option<i64>) -> CronJob {
    let mut c = CronJob::default();
    c.metadata.name = "mycronjob".into();
    c.metadata.namespace = "default".into();
    c.metadata.uid = "1a2b3c".into();
    c.metadata.creation_timestamp = Some(created);
    c.spec.schedule = schedule.into();
    c.status.last_schedule_time = last;
    c.spec.starting_deadline_seconds = sds;
    c
}

// Port of TestMostRecentScheduleTime (pkg/controller/cronjob/utils_test.go).
#[test]
fn most_recent_schedule_time_table() {
    use MissedSchedules as M;
    #[allow(clippy::type_complexity)]
    let cases: Vec<(
        &str,
        CronJob,
        bool,
        Time,
        Time,
        Option<Time>,
        MissedSchedules,
        bool,
    )> = vec![
        (
            "now before next schedule",
            cj(top(), "0 * * * *", None, None),
            false,
            top() + Duration::from_secs(30),
            top(),
            None,
            M::None,
            false,
        ),
        (
            "now just after next schedule",
            cj(top(), "0 * * * *", None, None),
            false,
            after(61 * MIN),
            top(),
            Some(after(60 * MIN)),
            M::None,
            false,
        ),
        (
            "missed 5 schedules",
            cj(after(10), "0 * * * *", None, None),
            false,
            after(301 * MIN),
            after(10),
            Some(after(300 * MIN)),
            M::Few,
            false,
        ),
        (
            "complex schedule",
            cj(top(), "30 6-16/4 * * 1-5", Some(after(30 * MIN)), None),
            false,
            after(24 * HOUR + 31 * MIN),
            after(30 * MIN),
            Some(after(24 * HOUR + 30 * MIN)),
            M::Few,
            false,
        ),
        (
            "another complex schedule",
            cj(top(), "30 10,11,12 * * 1-5", Some(after(30 * MIN)), None),
            false,
            after(30 * HOUR + 30 * MIN),
            after(30 * MIN),
            None,
            M::Few,
            false,
        ),
        (
            "complex schedule with longer diff between executions",
            cj(top(), "30 6-16/4 * * 1-5", Some(after(30 * MIN)), None),
            false,
            after(96 * HOUR + 31 * MIN),
            after(30 * MIN),
            Some(after(96 * HOUR + 30 * MIN)),
            M::Few,
            false,
        ),
        (
            "complex schedule with shorter diff between executions",
            cj(top(), "30 6-16/4 * * 1-5", None, None),
            false,
            after(24 * HOUR + 31 * MIN),
            top(),
            Some(after(24 * HOUR + 30 * MIN)),
            M::Few,
            false,
        ),
        (
            "@every schedule",
            cj(after(-59 * MIN), "@every 1h", Some(after(MIN)), Some(10)),
            false,
            after(7 * 24 * HOUR),
            after(MIN),
            Some(after(6 * 24 * HOUR + 23 * HOUR + MIN)),
            M::Many,
            false,
        ),
        (
            "rogue cronjob",
            cj(after(10), "59 23 31 2 *", None, None),
            false,
            after(HOUR),
            after(10),
            None,
            M::None,
            true,
        ),
        (
            "earliestTime being CreationTimestamp and LastScheduleTime",
            cj(top(), "0 * * * *", Some(top()), None),
            false,
            after(30),
            top(),
            None,
            M::None,
            false,
        ),
        (
            "earliestTime being LastScheduleTime",
            cj(top(), "*/5 * * * *", Some(after(30 * MIN)), None),
            false,
            after(31 * MIN),
            after(30 * MIN),
            None,
            M::None,
            false,
        ),
        (
            "earliestTime being LastScheduleTime (within StartingDeadlineSeconds)",
            cj(top(), "*/5 * * * *", Some(after(30 * MIN)), Some(60)),
            false,
            after(31 * MIN),
            after(30 * MIN),
            None,
            M::None,
            false,
        ),
        (
            "earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)",
            cj(top(), "*/5 * * * *", Some(after(30 * MIN)), Some(60)),
            true,
            after(32 * MIN),
            after(31 * MIN),
            None,
            M::None,
            false,
        ),
    ];
    for (name, c, include_sds, now, earliest, recent, missed, want_err) in cases {
        let sched = parse_standard(&c.spec.schedule).unwrap();
        match most_recent_schedule_time(&c, now, &sched, include_sds) {
            Err(_) if want_err => {}
            Err((_, e)) => panic!("{name}: unexpected error {e}"),
            Ok(_) if want_err => panic!("{name}: expected an error"),
            Ok(r) => {
                assert_eq!(r.earliest, earliest, "{name}: earliest");
                assert_eq!(r.most_recent, recent, "{name}: most recent");
                assert_eq!(r.missed, missed, "{name}: missed");
            }
        }
    }
}

// Port of TestNextScheduleTime.
#[test]
fn next_schedule_time_cases() {
    let sched = parse_standard("0 * * * ?").unwrap();
    let t1 = top();
    let t2 = after(HOUR);
    // Case 1: no known start times, and none needed yet.
    let c = cj(t1 - Duration::from_mins(10), "0 * * * ?", None, None);
    assert_eq!(
        next_schedule_time(&c, t1 - Duration::from_mins(7), &sched).0,
        None
    );
    // Case 2: no known start times, and one needed.
    assert_eq!(
        next_schedule_time(&c, t1 + Duration::from_secs(2), &sched).0,
        Some(t1)
    );
    // Case 3: known LastScheduleTime, no start needed.
    let c = cj(t1 - Duration::from_mins(10), "0 * * * ?", Some(t1), None);
    assert_eq!(
        next_schedule_time(&c, t1 + Duration::from_mins(2), &sched).0,
        None
    );
    // Case 4: known LastScheduleTime, a start needed.
    assert_eq!(
        next_schedule_time(&c, t2 + Duration::from_mins(5), &sched).0,
        Some(t2)
    );
    // Case 5: known LastScheduleTime, two starts needed.
    let c = cj(
        t1 - Duration::from_secs(2 * HOUR),
        "0 * * * ?",
        Some(t1 - Duration::from_secs(HOUR)),
        None,
    );
    assert_eq!(
        next_schedule_time(&c, t2 + Duration::from_mins(5), &sched).0,
        Some(t2)
    );
    // Case 6: now is way way ahead of last start time, and there is no deadline.
    let now = t2 + Duration::from_secs(10 * 24 * HOUR);
    let (t, too_many, _) = next_schedule_time(&c, now, &sched);
    assert!(t.is_some());
    assert!(too_many, "more than 100 missed");
    // Case 7: now is way way ahead of last start time, but there is a short deadline.
    let mut c7 = c.clone();
    c7.spec.starting_deadline_seconds = Some(2 * HOUR);
    let (t, too_many, _) = next_schedule_time(&c7, now, &sched);
    assert!(t.is_some());
    assert!(!too_many);
    // Case 8: the error of mostRecentScheduleTime is returned.
    let c = cj(t1 + Duration::from_secs(10), "59 23 31 2 *", None, None);
    let rogue = parse_standard("59 23 31 2 *").unwrap();
    let (t, _, err) = next_schedule_time(&c, after(HOUR), &rogue);
    assert_eq!(t, None);
    assert_eq!(
        err.as_deref(),
        Some("time difference between two schedules is less than 1 second")
    );
}

// Port of TestNextScheduleTimeDuration.
#[test]
fn next_schedule_time_duration_table() {
    let cases = [
        (
            "complex schedule skipping weekend",
            cj(top(), "30 6-16/4 * * 1-5", Some(after(30 * MIN)), None),
            after(24 * HOUR + 31 * MIN),
            3 * HOUR + 59 * MIN,
        ),
        (
            "another complex schedule skipping weekend",
            cj(top(), "30 10,11,12 * * 1-5", Some(after(30 * MIN)), None),
            after(30 * HOUR + 30 * MIN),
            66 * HOUR,
        ),
        (
            "once a week cronjob, missed two runs",
            cj(top(), "0 12 * * 4", Some(after(2 * HOUR)), None),
            after(19 * 24 * HOUR + HOUR + 30 * MIN),
            48 * HOUR + 30 * MIN,
        ),
        (
            "no previous run of a cronjob",
            cj(top(), "0 12 * * 5", None, None),
            after(6 * HOUR),
            20 * HOUR,
        ),
    ];
    for (name, c, now, want) in cases {
        let sched = parse_standard(&c.spec.schedule).unwrap();
        let got = next_schedule_time_duration(&c, now, &sched);
        assert_eq!(
            got,
            Duration::from_secs(want) + NEXT_SCHEDULE_DELTA,
            "{name}"
        );
    }
}

// Port of TestGetJobFromTemplate2.
#[test]
fn get_job_from_template2_table() {
    let scheduled = top();
    let mut c = cj(top(), "* * * * ?", None, None);
    c.metadata.namespace = "snazzycats".into();
    c.spec
        .job_template
        .metadata
        .labels
        .insert("a".into(), "b".into());
    for (tz, annotations, want_count, want_ts) in [
        (Some("UTC"), vec![("x", "y")], 2, "2016-05-19T10:00:00Z"),
        (None, vec![("x", "y")], 2, "2016-05-19T10:00:00Z"),
        (
            Some("Europe/Rome"),
            vec![("x", "y"), ("z", "x")],
            3,
            "2016-05-19T12:00:00+02:00",
        ),
    ] {
        c.spec.time_zone = tz.map(String::from);
        c.spec.job_template.metadata.annotations = annotations
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let j = get_job_from_template2(&c, scheduled, true).unwrap();
        assert!(j.metadata.name.starts_with("mycronjob-"));
        assert_eq!(j.metadata.name, "mycronjob-24394200");
        assert_eq!(j.metadata.labels.len(), 1);
        assert_eq!(j.metadata.annotations.len(), want_count, "{tz:?}");
        assert_eq!(
            j.metadata.annotations[CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION],
            want_ts
        );
        let r = j.metadata.controller_ref().unwrap();
        assert_eq!((r.kind.as_str(), r.uid.as_str()), ("CronJob", "1a2b3c"));
    }
    // Without the CronJobsScheduledAnnotation gate no annotation is added.
    c.spec.time_zone = None;
    c.spec.job_template.metadata.annotations.clear();
    assert!(get_job_from_template2(&c, scheduled, false)
        .unwrap()
        .metadata
        .annotations
        .is_empty());
}

// Port of TestByJobStartTime.
#[test]
fn by_job_start_time() {
    let now = Time::parse_rfc3339("2018-01-01T02:03:04Z").unwrap();
    let later = Time::parse_rfc3339("2019-01-01T02:03:04Z").unwrap();
    let j = |name: &str, start: Option<Time>| {
        let mut j = Job::default();
        j.metadata.name = name.into();
        j.status.start_time = start;
        j
    };
    let cases = vec![
        (
            "both have nil start times",
            vec![j("b", None), j("a", None)],
            vec!["a", "b"],
        ),
        (
            "only the first has a nil start time",
            vec![j("a", None), j("b", Some(now))],
            vec!["b", "a"],
        ),
        (
            "only the second has a nil start time",
            vec![j("a", Some(now)), j("b", None)],
            vec!["a", "b"],
        ),
        (
            "both have non-nil, equal start time",
            vec![j("b", Some(now)), j("a", Some(now))],
            vec!["a", "b"],
        ),
        (
            "both have non-nil, different start time",
            vec![j("a", Some(later)), j("b", Some(now))],
            vec!["b", "a"],
        ),
    ];
    for (name, mut input, want) in cases {
        crate::controllers::controller_utils::sort_by_less(&mut input, by_job_start_time_less);
        let got: Vec<&str> = input.iter().map(|j| j.metadata.name.as_str()).collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn job_names_and_rfc1123z() {
    let c = cj(top(), "* * * * *", None, None);
    assert_eq!(get_job_name(&c, top()), "mycronjob-24394200");
    assert_eq!(rfc1123z(top()), "Thu, 19 May 2016 10:00:00 +0000");
}

/// (type, status) pairs of Job conditions.
type Conds<'a> = &'a [(&'a str, &'a str)];

fn job_with_conditions(conds: Conds) -> Job {
    let mut j = Job::default();
    j.status.conditions = conds
        .iter()
        .map(|(t, s)| crate::api::batch::JobCondition {
            type_: t.to_string(),
            status: s.to_string(),
            ..Default::default()
        })
        .collect();
    j
}

// Upstream: TestFinishedCondition (pkg/controller/job/util/utils_test.go), every row.
// `FinishedCondition` is `getFinishedStatus` here (the type, or none) and `IsJobFinished` is
// `Job::is_finished`.
#[test]
fn finished_condition_table() {
    let rows: &[(&str, Conds, Option<&str>)] = &[
        ("Job doesn't have any conditions", &[], None),
        (
            "Job is completed and condition is true",
            &[("Complete", "True")],
            Some("Complete"),
        ),
        (
            "Job is completed and condition is false",
            &[("Complete", "False")],
            None,
        ),
        (
            "Job is completed and condition is unknown",
            &[("Complete", "Unknown")],
            None,
        ),
        (
            "Job has multiple conditions, one of them being complete and condition true",
            &[
                ("Suspended", "False"),
                ("Complete", "True"),
                ("Failed", "False"),
            ],
            Some("Complete"),
        ),
        (
            "Job is failed and condition is true",
            &[("Failed", "True")],
            Some("Failed"),
        ),
        (
            "Job is failed and condition is false",
            &[("Failed", "False")],
            None,
        ),
        (
            "Job is failed and condition is unknown",
            &[("Failed", "Unknown")],
            None,
        ),
        (
            "Job has multiple conditions, none of them has condition true",
            &[
                ("Suspended", "False"),
                ("Complete", "False"),
                ("Failed", "False"),
            ],
            None,
        ),
    ];
    for (name, conds, want) in rows {
        let j = job_with_conditions(conds);
        assert_eq!(get_finished_status(&j), *want, "{name}");
        assert_eq!(j.is_finished(), want.is_some(), "{name}");
    }
}

// Upstream: TestIsJobSucceeded (pkg/controller/job/util/utils_test.go), every row.
#[test]
fn is_job_succeeded_table() {
    let rows: &[(&str, Conds, bool)] = &[
        ("job doesn't have any conditions", &[], false),
        (
            "job has Complete=True condition",
            &[("Suspended", "False"), ("Complete", "True")],
            true,
        ),
        (
            "job has Complete=False condition",
            &[("Failed", "True"), ("Complete", "False")],
            false,
        ),
    ];
    for (name, conds, want) in rows {
        assert_eq!(
            is_job_succeeded(&job_with_conditions(conds)),
            *want,
            "{name}"
        );
    }
}
