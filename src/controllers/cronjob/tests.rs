//! Port of `TestControllerV2SyncCronJob` (`pkg/controller/cronjob/cronjob_controllerv2_test.go`)
//! against the simulated API server.
#![allow(clippy::type_complexity)]

use super::utils::{get_job_from_template2, get_ref, NEXT_SCHEDULE_DELTA};
use super::*;
use crate::api::batch::JobCondition;
use crate::controllers::Action;
use crate::features::FeatureGates;
use crate::store::apiserver::ApiServer;
use crate::world::World;

fn ts(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}
fn just_before_the_prior_hour() -> Time {
    ts("2016-05-19T08:59:00Z")
}
fn just_after_the_prior_hour() -> Time {
    ts("2016-05-19T09:01:00Z")
}
fn just_before_the_hour() -> Time {
    ts("2016-05-19T09:59:00Z")
}
fn just_after_the_hour() -> Time {
    ts("2016-05-19T10:01:00Z")
}
fn week_after_the_hour() -> Time {
    ts("2016-05-26T10:00:00Z")
}
/// 10:01 on the wall clock of New York (EDT in May).
fn just_after_the_hour_in_new_york() -> Time {
    ts("2016-05-19T10:01:00-04:00")
}

const ON_THE_HOUR: &str = "0 * * * ?";
const ERROR_SCHEDULE: &str = "obvious error schedule";
const SHORT_DEAD: i64 = 15;
const MEDIUM_DEAD: i64 = 2 * 60 * 60;
const LONG_DEAD: i64 = 1_000_000;

#[derive(Clone, Default)]
struct Row {
    policy: &'static str,
    suspend: bool,
    schedule: &'static str,
    time_zone: Option<&'static str>,
    deadline: Option<i64>,
    ran_previously: bool,
    still_active: bool,
    job_creation_time: Option<Time>,
    now: Option<Time>,
    expect_create: bool,
    expect_delete: bool,
    expect_active: usize,
    expected_warnings: usize,
    expect_requeue_after: Option<Duration>,
    expect_update_status: bool,
    /// `cronjobCreationTime` / `lastScheduleTime` overrides of the newer upstream rows.
    cronjob_creation_time: Option<Time>,
    last_schedule_time: Option<Time>,
}

fn cron_job() -> CronJob {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "mycronjob", "namespace": "snazzycats", "uid": "1a2b3c"},
        "spec": {"schedule": "* * * * ?", "concurrencyPolicy": "Allow",
          "jobTemplate": {"metadata": {"labels": {"a": "b"}, "annotations": {"x": "y"}},
            "spec": {"activeDeadlineSeconds": 1, "template": {"metadata": {"labels": {"foo": "bar"}},
              "spec": {"restartPolicy": "OnFailure", "containers": [{"name": "c", "image": "foo/bar"}]}}}}}
    });
    let Object::CronJob(c) = Object::from_value(v).unwrap() else {
        unreachable!()
    };
    c
}

fn run(name: &str, r: Row) {
    let now = r.now.expect("now");
    let mut api = ApiServer::new(1, now);
    let mut cj = cron_job();
    cj.spec.concurrency_policy = r.policy.into();
    cj.spec.suspend = Some(r.suspend);
    cj.spec.schedule = r.schedule.into();
    cj.spec.time_zone = r.time_zone.map(String::from);
    cj.spec.starting_deadline_seconds = r.deadline;
    if r.ran_previously {
        cj.metadata.creation_timestamp = Some(
            r.cronjob_creation_time
                .unwrap_or(just_before_the_prior_hour()),
        );
        cj.status.last_schedule_time =
            Some(r.last_schedule_time.unwrap_or(just_after_the_prior_hour()));
        let mut job = get_job_from_template2(&cj, r.job_creation_time.unwrap(), true).unwrap();
        job.metadata.uid = "1234".into();
        job.metadata.creation_timestamp = r.job_creation_time;
        if r.still_active {
            cj.status.active = vec![get_ref(&job)];
        } else {
            job.status.completion_time = job
                .metadata
                .creation_timestamp
                .map(|t| t + Duration::from_secs(10));
            job.status.conditions.push(JobCondition {
                type_: "Complete".into(),
                status: "True".into(),
                ..Default::default()
            });
        }
        api.store.put(job.into_object());
    } else {
        cj.metadata.creation_timestamp =
            Some(r.cronjob_creation_time.unwrap_or(just_before_the_hour()));
    }
    cj.metadata.resource_version = "1".into();
    // Put as an informer shows it (invalid schedules and zones included).
    api.store.put(cj.clone().into_object());
    let gates = FeatureGates::default();
    let mut queue = WorkQueue::new();
    let mut world = World::default();
    let mut actions: Vec<Action> = vec![];
    let mut ctl = CronJobController::new();
    let mut ctx = Ctx {
        api: &mut api,
        gates: &gates,
        queue: &mut queue,
        world: &mut world,
        actions: &mut actions,
        component: COMPONENT,
    };
    let _ = ctl.sync_key("snazzycats/mycronjob", &mut ctx);
    let count = |verb: &str, kind: &str| {
        actions
            .iter()
            .filter(|a| a.verb == verb && a.kind == kind)
            .count()
    };
    assert_eq!(
        count("create", "Job"),
        usize::from(r.expect_create),
        "{name}: create"
    );
    assert_eq!(
        count("delete", "Job"),
        usize::from(r.expect_delete),
        "{name}: delete"
    );
    assert_eq!(
        count("update-status", "CronJob") > 0,
        r.expect_update_status,
        "{name}: status update"
    );
    let stored = api.store.get::<CronJob>("snazzycats", "mycronjob").unwrap();
    let active = if r.expect_update_status {
        stored.status.active.len()
    } else {
        cj.status.active.len()
    };
    assert_eq!(active, r.expect_active, "{name}: active");
    let warnings = api.events.iter().filter(|e| e.type_ == "Warning").count();
    assert_eq!(
        warnings, r.expected_warnings,
        "{name}: warnings {:?}",
        api.events
    );
    if r.ran_previously && !r.still_active {
        // Upstream checks lastSuccessfulTime = the finished Job's completion time.
        assert_eq!(
            stored.status.last_successful_time,
            r.job_creation_time.map(|t| t + Duration::from_secs(10)),
            "{name}: lastSuccessfulTime"
        );
    }
    let requeue = queue.next_due().map(|t| t - now);
    assert_eq!(requeue, r.expect_requeue_after, "{name}: requeue");
}

fn d(h: i64, m: i64) -> Option<Duration> {
    Some(Duration::from_secs(h * 3600 + m * 60) + NEXT_SCHEDULE_DELTA)
}

#[test]
fn controller_v2_sync_cron_job() {
    let base = Row {
        schedule: ON_THE_HOUR,
        job_creation_time: Some(just_after_the_prior_hour()),
        ..Default::default()
    };
    let never_not_time = |p: &'static str| Row {
        policy: p,
        now: Some(just_before_the_hour()),
        expect_requeue_after: d(0, 1),
        ..base.clone()
    };
    let never_is_time = |p: &'static str| Row {
        policy: p,
        now: Some(just_after_the_hour()),
        expect_create: true,
        expect_active: 1,
        expect_requeue_after: d(0, 59),
        expect_update_status: true,
        ..base.clone()
    };
    let prev_done = |p: &'static str, now: Time| Row {
        policy: p,
        ran_previously: true,
        now: Some(now),
        expect_update_status: true,
        ..base.clone()
    };
    let rows: Vec<(&str, Row)> = vec![
        (
            "never ran, not valid schedule, A",
            Row {
                policy: "Allow",
                schedule: ERROR_SCHEDULE,
                now: Some(just_before_the_hour()),
                expected_warnings: 1,
                ..base.clone()
            },
        ),
        (
            "never ran, not valid schedule, F",
            Row {
                policy: "Forbid",
                schedule: ERROR_SCHEDULE,
                now: Some(just_before_the_hour()),
                expected_warnings: 1,
                ..base.clone()
            },
        ),
        (
            "never ran, not valid time zone",
            Row {
                policy: "Allow",
                time_zone: Some("bad-time-zone"),
                now: Some(just_before_the_hour()),
                expected_warnings: 1,
                ..base.clone()
            },
        ),
        ("never ran, not time, A", never_not_time("Allow")),
        ("never ran, not time, F", never_not_time("Forbid")),
        ("never ran, not time, R", never_not_time("Replace")),
        (
            "never ran, not time in zone",
            Row {
                time_zone: Some("America/New_York"),
                ..never_not_time("Allow")
            },
        ),
        ("never ran, is time, A", never_is_time("Allow")),
        ("never ran, is time, F", never_is_time("Forbid")),
        ("never ran, is time, R", never_is_time("Replace")),
        (
            "never ran, is time in zone",
            Row {
                time_zone: Some("America/New_York"),
                now: Some(just_after_the_hour_in_new_york()),
                ..never_is_time("Allow")
            },
        ),
        (
            "never ran, is time in zone, but TZ is also set in schedule",
            Row {
                schedule: "TZ=UTC 0 * * * ?",
                time_zone: Some("America/New_York"),
                now: Some(just_after_the_hour_in_new_york()),
                expected_warnings: 1,
                ..never_is_time("Allow")
            },
        ),
        (
            "never ran, is time, suspended",
            Row {
                policy: "Allow",
                suspend: true,
                now: Some(just_after_the_hour()),
                ..base.clone()
            },
        ),
        (
            "never ran, is time, past deadline",
            Row {
                policy: "Allow",
                deadline: Some(SHORT_DEAD),
                now: Some(just_after_the_hour() + Duration::from_mins(SHORT_DEAD + 1)),
                expect_requeue_after: d(0, 59 - (SHORT_DEAD + 1)),
                ..base.clone()
            },
        ),
        (
            "never ran, is time, not past deadline",
            Row {
                deadline: Some(LONG_DEAD),
                ..never_is_time("Allow")
            },
        ),
        (
            "prev ran but done, not time, A",
            Row {
                expect_requeue_after: d(0, 1),
                ..prev_done("Allow", just_before_the_hour())
            },
        ),
        (
            "prev ran but done, not time, F",
            Row {
                expect_requeue_after: d(0, 1),
                ..prev_done("Forbid", just_before_the_hour())
            },
        ),
        (
            "prev ran but done, not time, R",
            Row {
                expect_requeue_after: d(0, 1),
                ..prev_done("Replace", just_before_the_hour())
            },
        ),
        (
            "prev ran but done, is time, A",
            Row {
                expect_create: true,
                expect_active: 1,
                expect_requeue_after: d(0, 59),
                ..prev_done("Allow", just_after_the_hour())
            },
        ),
        (
            "prev ran but done, is time, F",
            Row {
                expect_create: true,
                expect_active: 1,
                expect_requeue_after: d(0, 59),
                ..prev_done("Forbid", just_after_the_hour())
            },
        ),
        (
            "prev ran but done, is time, R",
            Row {
                expect_create: true,
                expect_active: 1,
                expect_requeue_after: d(0, 59),
                ..prev_done("Replace", just_after_the_hour())
            },
        ),
        (
            "prev ran but done, is time, suspended",
            Row {
                suspend: true,
                ..prev_done("Allow", just_after_the_hour())
            },
        ),
        (
            "prev ran but done, is time, past deadline",
            Row {
                deadline: Some(SHORT_DEAD),
                expect_requeue_after: d(0, 59),
                ..prev_done("Allow", just_after_the_hour())
            },
        ),
        (
            "prev ran but done, is time, not past deadline",
            Row {
                deadline: Some(LONG_DEAD),
                expect_create: true,
                expect_active: 1,
                expect_requeue_after: d(0, 59),
                ..prev_done("Allow", just_after_the_hour())
            },
        ),
        (
            "still active, not time, A",
            Row {
                policy: "Allow",
                ran_previously: true,
                still_active: true,
                now: Some(just_before_the_hour()),
                expect_active: 1,
                expect_requeue_after: d(0, 1),
                ..base.clone()
            },
        ),
        (
            "still active, is time, A",
            Row {
                policy: "Allow",
                ran_previously: true,
                still_active: true,
                now: Some(just_after_the_hour()),
                expect_create: true,
                expect_active: 2,
                expect_requeue_after: d(0, 59),
                expect_update_status: true,
                ..base.clone()
            },
        ),
        (
            "still active, is time, F",
            Row {
                policy: "Forbid",
                ran_previously: true,
                still_active: true,
                now: Some(just_after_the_hour()),
                expect_active: 1,
                expect_requeue_after: d(0, 59),
                ..base.clone()
            },
        ),
        (
            "still active, is time, R",
            Row {
                policy: "Replace",
                ran_previously: true,
                still_active: true,
                now: Some(just_after_the_hour()),
                expect_create: true,
                expect_delete: true,
                expect_active: 1,
                expect_requeue_after: d(0, 59),
                expect_update_status: true,
                ..base.clone()
            },
        ),
        (
            "prev ran but done, long overdue, not past deadline, A",
            Row {
                deadline: Some(LONG_DEAD),
                expect_create: true,
                expect_active: 1,
                expected_warnings: 1,
                expect_requeue_after: d(1, 0),
                ..prev_done("Allow", week_after_the_hour())
            },
        ),
        (
            "prev ran but done, long overdue, past medium deadline, A",
            Row {
                deadline: Some(MEDIUM_DEAD),
                expect_create: true,
                expect_active: 1,
                expect_requeue_after: d(1, 0),
                ..prev_done("Allow", week_after_the_hour())
            },
        ),
        (
            "prev ran but done, long overdue, past short deadline, A",
            Row {
                deadline: Some(SHORT_DEAD),
                expect_create: true,
                expect_active: 1,
                expect_requeue_after: d(1, 0),
                ..prev_done("Allow", week_after_the_hour())
            },
        ),
    ];
    for (name, r) in rows {
        run(name, r);
    }
}

/// `formatSchedule`: a loadable `spec.timeZone` becomes a `TZ=` prefix; an unknown one is ignored.
#[test]
fn format_schedule_prefixes_the_zone() {
    let mut cj = cron_job();
    cj.spec.schedule = "0 * * * *".into();
    assert_eq!(format_schedule(&cj, None), "0 * * * *");
    cj.spec.time_zone = Some("Europe/Rome".into());
    assert_eq!(format_schedule(&cj, None), "TZ=Europe/Rome 0 * * * *");
    cj.spec.time_zone = Some("Nowhere/Land".into());
    assert_eq!(format_schedule(&cj, None), "0 * * * *");
}

mod fault_rows;
mod tables;
