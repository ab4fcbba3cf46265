//! `timeLeft` / `jobFinishTime` of pkg/controller/ttlafterfinished (ttlafterfinished_controller.go)
//! beyond TestTimeLeft's rows: the exact error texts, the first finished condition winning, and a
//! finish time in the future (clock skew) deferring the cleanup.

use kubeplay::api::batch::{Job, JobCondition};
use kubeplay::api::{Duration, Time};
use kubeplay::controllers::ttlafterfinished::{job_finish_time, needs_cleanup, time_left};

fn t(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}

fn job(conds: &[(&str, &str, Option<Time>)], ttl: Option<i32>) -> Job {
    let mut j = Job::default();
    j.metadata.name = "foobar".into();
    j.metadata.namespace = "default".into();
    j.spec.ttl_seconds_after_finished = ttl;
    for (type_, status, at) in conds {
        j.status.conditions.push(JobCondition {
            type_: (*type_).into(),
            status: (*status).into(),
            last_transition_time: *at,
            ..Default::default()
        });
    }
    j
}

// upstream: getFinishAndExpireTime, `fmt.Errorf("job %s/%s should not be cleaned up", ...)`
// (lower-case since the contextual-logging rewrite of the controller).
#[test]
fn time_left_error_text_for_jobs_not_to_clean_up() {
    let now = t("2025-01-01T00:00:00Z");
    // Unfinished (a SuccessCriteriaMet interim condition does not finish the Job).
    let j = job(&[("SuccessCriteriaMet", "True", Some(now))], Some(0));
    assert!(!needs_cleanup(&j));
    assert_eq!(
        time_left(&j, now).unwrap_err(),
        "job default/foobar should not be cleaned up"
    );
    // Finished but no TTL.
    let j = job(&[("Complete", "True", Some(now))], None);
    assert_eq!(
        time_left(&j, now).unwrap_err(),
        "job default/foobar should not be cleaned up"
    );
    // Complete=False does not finish it either.
    let j = job(&[("Complete", "False", Some(now))], Some(5));
    assert!(!needs_cleanup(&j));
}

// upstream: jobFinishTime walks the conditions in order and takes the first Complete or Failed
// one that is True; a zero transition time is an error.
#[test]
fn job_finish_time_takes_the_first_true_terminal_condition() {
    let a = t("2025-01-01T00:00:00Z");
    let b = t("2025-01-01T00:10:00Z");
    let j = job(
        &[
            ("FailureTarget", "True", Some(a)),
            ("Complete", "False", Some(a)),
            ("Failed", "True", Some(b)),
            ("Complete", "True", Some(a)),
        ],
        Some(0),
    );
    assert_eq!(job_finish_time(&j), Ok(b));
    let j = job(&[("Failed", "True", None)], Some(0));
    assert_eq!(
        job_finish_time(&j).unwrap_err(),
        "unable to find the time when the Job default/foobar finished"
    );
    let j = job(&[], Some(0));
    assert_eq!(
        job_finish_time(&j).unwrap_err(),
        "unable to find the status of the finished Job default/foobar"
    );
}

// upstream: timeLeft only logs a warning for a Job that finished "in the future" (time skew):
// the remaining time runs from the finish time, so the cleanup is deferred by the skew.
#[test]
fn time_left_with_finish_time_in_the_future() {
    let now = t("2025-01-01T00:00:00Z");
    let finish = now + Duration::from_secs(30);
    let j = job(&[("Complete", "True", Some(finish))], Some(10));
    let (left, expire) = time_left(&j, now).unwrap();
    assert_eq!(left, Duration::from_secs(40));
    assert_eq!(expire, finish + Duration::from_secs(10));
    // Long expired: negative time left (processTTL deletes when it is <= 0).
    let j = job(&[("Failed", "True", Some(now))], Some(5));
    let (left, _) = time_left(&j, now + Duration::from_secs(3600)).unwrap();
    assert_eq!(left, Duration::from_secs(5 - 3600));
}
