//! TestControllerV2SyncCronJob rows (`pkg/controller/cronjob/cronjob_controllerv2_test.go`) that
//! need a failing client, injected into the simulated API server ([`ApiServer::inject_fault`]).

use super::*;

// Port of TestControllerV2SyncCronJob "still active, is time, get job failed, R": with the
// Replace policy the still-active Job is read back (`jobControl.GetJob`) before it is deleted;
// when that GET fails the sync records a FailedGet warning and stops: no Job is deleted or
// created, the status is not updated, the Job stays active and the CronJob is not requeued for
// its next schedule (the error sends it back through the rate limiter).
#[test]
fn controller_v2_sync_cron_job_get_job_failed() {
    let now = just_after_the_hour();
    let mut api = ApiServer::new(1, now);
    let mut cj = cron_job();
    cj.spec.concurrency_policy = "Replace".into();
    cj.spec.suspend = Some(false);
    cj.spec.schedule = ON_THE_HOUR.into();
    cj.metadata.creation_timestamp = Some(just_before_the_prior_hour());
    cj.status.last_schedule_time = Some(just_after_the_prior_hour());
    let mut job = get_job_from_template2(&cj, just_after_the_prior_hour(), true).unwrap();
    job.metadata.uid = "1234".into();
    job.metadata.creation_timestamp = Some(just_after_the_prior_hour());
    cj.status.active = vec![get_ref(&job)];
    api.store.put(job.into_object());
    cj.metadata.resource_version = "1".into();
    api.store.put(cj.into_object());
    api.inject_fault(
        "get",
        "Job",
        None,
        ApiError::bad_request("request is invalid"),
    );
    let gates = FeatureGates::default();
    let mut queue = WorkQueue::new();
    let mut world = World::default();
    let mut actions: Vec<Action> = vec![];
    let mut ctl = CronJobController::new();
    let res = {
        let mut ctx = Ctx {
            api: &mut api,
            gates: &gates,
            queue: &mut queue,
            world: &mut world,
            actions: &mut actions,
            component: COMPONENT,
        };
        ctl.sync_key("snazzycats/mycronjob", &mut ctx)
    };
    assert!(res.is_err(), "the GET error is returned");
    let count = |verb: &str, kind: &str| {
        actions
            .iter()
            .filter(|a| a.verb == verb && a.kind == kind)
            .count()
    };
    assert_eq!(count("create", "Job"), 0, "create");
    assert_eq!(count("delete", "Job"), 0, "delete");
    assert_eq!(count("update-status", "CronJob"), 0, "status update");
    let stored = api.store.get::<CronJob>("snazzycats", "mycronjob").unwrap();
    assert_eq!(stored.status.active.len(), 1, "active");
    let warnings: Vec<(&str, &str)> = api
        .events
        .iter()
        .filter(|e| e.type_ == "Warning")
        .map(|e| (e.reason.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        vec![("FailedGet", "Get job: request is invalid")],
        "warnings"
    );
    assert_eq!(queue.next_due(), None, "requeue");
}
