//! Ports of the Job controller's upstream unit tests that need a failing API client
//! (`controller.FakePodControl{Err: ...}`, an `updateStatusHandler` returning an error): the
//! failures are injected into the simulated API server ([`ApiServer::inject_fault`]).

use super::*;

fn fake_error() -> ApiError {
    ApiError::internal_error("fake error")
}

/// A Job of `newJob(parallelism, completions, backoffLimit, NonIndexed)` with `active` running,
/// `succeeded` and `failed` pods, synced once with every pod create, patch and delete failing.
/// Returns the fixture and the sync's result.
fn sync_with_pod_control_error(
    parallelism: i32,
    completions: i32,
    active: usize,
    succeeded: usize,
    failed: usize,
) -> (Fixture, Result<(), ApiError>) {
    let mut f = Fixture::new(false, false, false);
    let job = f.job(parallelism, completions, 6, false);
    f.load_job(job);
    let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    for _ in 0..active {
        f.pod(&job, "Running", false, false, None);
    }
    for _ in 0..succeeded {
        f.pod(&job, "Succeeded", false, false, None);
    }
    for _ in 0..failed {
        f.pod(&job, "Failed", false, false, None);
    }
    for verb in ["create", "update", "delete"] {
        f.api.inject_fault(verb, "Pod", None, fake_error());
    }
    f.api.store.take_changes();
    let mut ctl = JobController::new();
    let mut ctx = f.ctx();
    let res = ctl.sync_job("default/foobar", &mut ctx);
    (f, res)
}

// Port of the TestControllerSyncJob rows (pkg/controller/job/job_controller_test.go) with a
// `podControllerError`: the pod control fails every call, so finalizers are not removed, the
// finished pods are not counted and the sync returns the error (for a requeue). Upstream's fake
// pod control records the template, patch or pod name before failing, as our recorded actions
// do before the request reaches the API.
#[test]
fn controller_sync_job_with_controller_error() {
    // (name, parallelism, completions, active, succeeded, failed,
    //  want creations, deletions, patches, active, succeeded, failed)
    let rows: Vec<(
        &str,
        i32,
        i32,
        usize,
        usize,
        usize,
        usize,
        usize,
        usize,
        i32,
        i32,
        i32,
    )> = vec![
        (
            "too few active pods, with controller error",
            2,
            5,
            1,
            1,
            0,
            1,
            0,
            1,
            1,
            0,
            0,
        ),
        (
            "too many active pods, with controller error",
            2,
            5,
            3,
            0,
            0,
            0,
            0,
            1,
            3,
            0,
            0,
        ),
        (
            "only new failed pod with controller error",
            2,
            5,
            1,
            0,
            1,
            1,
            0,
            1,
            1,
            0,
            0,
        ),
    ];
    for (name, par, comp, act, succ, fail, creations, deletions, patches, w_act, w_succ, w_fail) in
        rows
    {
        let (f, res) = sync_with_pod_control_error(par, comp, act, succ, fail);
        assert!(
            res.is_err(),
            "{name}: syncing jobs expected to return error on podControl exception"
        );
        assert_eq!(f.count("create", "Pod"), creations, "{name}: creations");
        assert_eq!(f.count("delete", "Pod"), deletions, "{name}: deletions");
        assert_eq!(f.count("update", "Pod"), patches, "{name}: pod patches");
        let s = f.job_status();
        assert_eq!(s.active, w_act, "{name}: active");
        assert_eq!(s.ready, Some(0), "{name}: ready");
        assert_eq!(s.succeeded, w_succ, "{name}: succeeded");
        assert_eq!(s.failed, w_fail, "{name}: failed");
        assert!(s.start_time.is_some(), "{name}: startTime");
        assert!(s.conditions.is_empty(), "{name}: conditions");
    }
}

// Port of TestSyncJobUpdateRequeue (pkg/controller/job/job_controller_test.go): a failed status
// update (a generic error or a conflict) fails the sync, which processNextWorkItem requeues
// through the job queue's rate limiter (`DefaultJobApiBackOff`, 1 s, where upstream's test
// shortens it); a successful sync is not requeued.
#[test]
fn sync_job_update_requeue() {
    let rows: Vec<(&str, Option<ApiError>)> = vec![
        ("no error", None),
        (
            "generic error",
            Some(ApiError::internal_error("update error")),
        ),
        (
            "conflict error",
            Some(ApiError::conflict("jobs.batch", "foobar", "conflict")),
        ),
    ];
    for (name, err) in rows {
        let mut f = Fixture::new(false, false, false);
        let job = f.job(2, 2, 6, false);
        f.load_job(job);
        let want_requeue = err.is_some();
        if let Some(e) = err {
            f.api.inject_fault("update-status", "Job", None, e);
        }
        let mut ctl = JobController::new();
        let mut queue = ctl.new_queue();
        let key = "default/foobar";
        let now = f.api.now;
        let res = {
            let mut ctx = f.ctx();
            ctl.sync_job(key, &mut ctx)
        };
        assert_eq!(res.is_err(), want_requeue, "{name}: sync result {res:?}");
        // processNextWorkItem: Forget on success, AddRateLimited on error.
        match res {
            Ok(()) => queue.forget(key),
            Err(_) => queue.add_rate_limited(key, now),
        }
        assert!(!queue.has_ready(), "{name}: nothing is requeued at once");
        queue.promote_due(now + DEFAULT_JOB_API_BACK_OFF - Duration::from_millis(1));
        assert!(
            !queue.has_ready(),
            "{name}: requeued before the API back-off"
        );
        queue.promote_due(now + DEFAULT_JOB_API_BACK_OFF);
        assert_eq!(
            queue.len(),
            usize::from(want_requeue),
            "{name}: queue length"
        );
    }
}

// Port of TestJobApiBackoffReset (pkg/controller/job/job_controller_test.go) on the simulated
// cluster: a pod-creation error fails the sync and the key is retried once, after the API
// back-off (1 s; never sooner), where the creation succeeds. (Upstream's check that the success
// empties the queue is `WorkQueue::forget`, covered by `queue/rate_limit_tests.rs`.)
#[test]
fn job_api_backoff_reset() {
    use crate::sim::Simulation;
    let t0 = ts("2025-01-01T00:00:00Z");
    let mut sim = Simulation::new(3, t0, FeatureGates::default(), World::default());
    sim.add_loop(new_job_controller());
    let mut f = Fixture::new(false, false, false);
    let mut job = f.job(1, 1, 2, false);
    job.metadata.uid.clear();
    sim.api.create(job.into_object()).expect("job is created");
    let pods = |sim: &Simulation| sim.api.store.list::<Pod>(Some("default")).count();
    sim.api.inject_fault(
        "create",
        "Pod",
        Some(1),
        ApiError::internal_error("Controller error"),
    );
    sim.run_until(t0 + Duration::from_millis(999)).unwrap();
    assert_eq!(
        pods(&sim),
        0,
        "the failed creation is not retried before 1s"
    );
    sim.run_until(t0 + DEFAULT_JOB_API_BACK_OFF).unwrap();
    assert_eq!(pods(&sim), 1, "the retry after 1s creates the pod");
    assert_eq!(
        sim.actions
            .iter()
            .filter(|a| a.verb == "create" && a.kind == "Pod")
            .count(),
        2,
        "one failed and one successful creation"
    );
}

// Port of the first part of TestFinalizersRemovedExpectations (job_controller_test.go; the rest
// is in `handlers.rs`): while every pod patch fails, the sync fails and leaves no expectation of
// removed finalizers (each failed removal is observed at once); once the client works again, the
// sync expects the removal of all four finished pods' finalizers.
#[test]
fn finalizers_removed_expectations_with_client_failures() {
    let mut f = Fixture::new(false, false, false);
    let job = f.job(2, 2, 6, false);
    f.load_job(job);
    let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    for phase in ["Succeeded", "Succeeded", "Failed", "Failed"] {
        f.pod(&job, phase, false, false, None);
    }
    let uids: BTreeSet<String> = f
        .api
        .store
        .list::<Pod>(Some("default"))
        .map(|p| p.metadata.uid.clone())
        .collect();
    f.api.inject_fault(
        "update",
        "Pod",
        None,
        ApiError::internal_error("fake pod controller error"),
    );
    let key = "default/foobar";
    let mut ctl = JobController::new();
    let res = {
        let mut ctx = f.ctx();
        ctl.sync_job(key, &mut ctx)
    };
    assert!(res.is_err(), "missing error as the pod patches fail");
    assert!(
        ctl.finalizer_expectations.get_expected_uids(key).is_empty(),
        "unwanted expectations for removed finalizers after a sync with client failures"
    );
    f.api.faults.clear();
    {
        let mut ctx = f.ctx();
        ctl.sync_job(key, &mut ctx).expect("sync");
    }
    assert_eq!(
        ctl.finalizer_expectations.get_expected_uids(key),
        uids,
        "expectations for removed finalizers after syncJob"
    );
}
