//! Rows of `pkg/controller/job/job_controller_test.go` tables that need a failing API client
//! (upstream's `FakePodControl{Err: ...}` or an `updateStatusHandler` returning an error), with
//! the failures injected into the simulated API server ([`ApiServer::inject_fault`]).

use super::*;
use serde_json::json;

/// One `trackJobStatusAndRemoveFinalizers` call over the non-indexed Job and pods of `s`, with
/// every `verb` request on `kind` failing. Returns the call's result, the status updates that
/// reached the API and the pod patches (finalizer removals) attempted.
fn track_with_fault(
    s: &Sync,
    verb: &'static str,
    kind: &'static str,
) -> (Result<(), ApiError>, Vec<JobStatus>, usize, usize) {
    let (mut f, _) = s.build();
    let g = JobGates::from_gates(&f.gates);
    let mut job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    if job.status.uncounted_terminated_pods.is_none() {
        job.status.uncounted_terminated_pods = Some(Default::default());
    }
    let mut pods: Vec<Pod> = f.api.store.list::<Pod>(Some("default")).cloned().collect();
    pods.sort_by_key(|p| {
        p.metadata
            .name
            .trim_start_matches("mypod-")
            .parse::<usize>()
            .unwrap_or(usize::MAX)
    });
    let uncounted = job.status.uncounted_terminated_pods.clone().unwrap();
    let mut jc = SyncJobCtx {
        active_pods: pods
            .iter()
            .filter(|p| is_pod_active(p))
            .cloned()
            .map(SharedPod::owned)
            .collect(),
        ready: 0,
        uncounted_succeeded: uncounted.succeeded.iter().cloned().collect(),
        uncounted_failed: uncounted.failed.iter().cloned().collect(),
        expected_rm_finalizers: BTreeSet::new(),
        terminating: Some(pods.iter().filter(|p| is_pod_terminating(p)).count() as i32),
        finished_condition: None,
        succeeded: job.status.succeeded,
        failed: job.status.failed,
        prev_succeeded_indexes: OrderedIntervals::default(),
        succeeded_indexes: OrderedIntervals::default(),
        failed_indexes: None,
        new_backoff_record: BackoffRecord {
            key: "default/foobar".into(),
            failures_after_last_success: 0,
            last_failure_time: None,
        },
        pods_with_delayed_deletion_per_index: BTreeMap::new(),
        job: job.clone(),
        pods: pods.iter().cloned().map(SharedPod::owned).collect(),
    };
    f.api
        .inject_fault(verb, kind, None, ApiError::internal_error("mock error"));
    f.api.store.take_changes();
    let mut ctl = JobController::new();
    let mut ctx = f.ctx();
    let res =
        ctl.track_job_status_and_remove_finalizers(&mut ctx, &mut jc, false, "default/foobar", &g);
    let updates: Vec<JobStatus> = f
        .api
        .store
        .take_changes()
        .into_iter()
        .filter_map(|c| match c.new_obj() {
            Some(Object::Job(j)) => Some(comparable((*j.status).clone())),
            _ => None,
        })
        .collect();
    (
        res,
        updates,
        f.count("update-status", "Job"),
        f.count("update", "Pod"),
    )
}

// Port of the TestTrackJobStatusAndRemoveFinalizers rows (pkg/controller/job/job_controller_test.go)
// with injected errors: "status update error" (the first status update, recording the finished
// pods as uncounted, fails: no finalizer is removed and the error is returned), "pod patch
// errors" and "pod patch errors with partial success" (the uncounted pods are recorded, every
// finalizer removal is attempted and fails, the error is returned and no second update counts
// them). Upstream's status handler also records the failed update's content; here a failed
// update never reaches the store, so it is counted among the attempted requests instead.
#[test]
fn track_job_status_and_remove_finalizers_with_errors() {
    let base = Track::default().s;
    let two = Sync {
        pods: vec![
            tpod("a", "Succeeded", true, false, None),
            tpod("b", "Failed", true, false, None),
        ],
        ..Track::default().s
    };

    let (res, updates, status_calls, rm) = track_with_fault(&two, "update-status", "Job");
    let name = "status update error";
    assert!(res.is_err(), "{name}: want the mock error");
    assert_eq!(status_calls, 1, "{name}: status updates attempted");
    assert!(updates.is_empty(), "{name}: {updates:?}");
    assert_eq!(rm, 0, "{name}: finalizers removed");

    let (res, updates, status_calls, rm) = track_with_fault(&two, "update", "Pod");
    let name = "pod patch errors";
    assert!(res.is_err(), "{name}: want the mock error");
    assert_eq!(status_calls, 1, "{name}: status updates attempted");
    assert_eq!(
        updates,
        vec![want_status(
            json!({"uncountedTerminatedPods": {"succeeded": ["a"], "failed": ["b"]}})
        )],
        "{name}: status updates"
    );
    assert_eq!(rm, 2, "{name}: finalizers removed");

    let partial = Sync {
        status: json!({"uncountedTerminatedPods": {"succeeded": ["a"], "failed": ["b"]}}),
        pods: vec![
            tpod("a", "Succeeded", false, false, None),
            tpod("c", "Succeeded", true, false, None),
            tpod("d", "Failed", true, false, None),
        ],
        ..base
    };
    let (res, updates, status_calls, rm) = track_with_fault(&partial, "update", "Pod");
    let name = "pod patch errors with partial success";
    assert!(res.is_err(), "{name}: want the mock error");
    assert_eq!(status_calls, 1, "{name}: status updates attempted");
    assert_eq!(
        updates,
        vec![want_status(json!({
            "uncountedTerminatedPods": {"succeeded": ["c"], "failed": ["d"]},
            "succeeded": 1,
            "failed": 1
        }))],
        "{name}: status updates"
    );
    assert_eq!(rm, 2, "{name}: finalizers removed");
}
