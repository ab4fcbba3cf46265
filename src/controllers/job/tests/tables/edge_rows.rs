//! Hand-derived edge cases of `syncJob` (pkg/controller/job/job_controller.go), one sync each,
//! with the expectations read off upstream's code paths (cited per test), not off kubeplay's
//! output.

use super::*;
use serde_json::json;

fn job_events(f: &Fixture) -> Vec<(String, String, String)> {
    f.api
        .events
        .iter()
        .filter(|e| e.kind == "Job" && e.name == "foobar")
        .map(|e| (e.type_.to_string(), e.reason.to_string(), e.message.clone()))
        .collect()
}

fn ev(t: &str, r: &str, m: &str) -> (String, String, String) {
    (t.into(), r.into(), m.into())
}

fn without_finalizer(mut v: serde_json::Value) -> serde_json::Value {
    v["metadata"]["annotations"][NO_FINALIZER] = json!("");
    v
}

const REACHED: &str = "Reached expected number of succeeded pods";

// upstream: manageJob (job_controller.go): parallelism 0 gives wantActive 0 (min of
// completions-succeeded and parallelism), so nothing is created or deleted; the Job is neither
// complete (succeeded < completions) nor suspended, so no condition is written
// (ensureJobConditionStatus does not add a False Suspended condition to an empty list).
#[test]
fn parallelism_zero_creates_nothing() {
    for indexed in [false, true] {
        let s = Sync {
            parallelism: 0,
            completions: 5,
            indexed,
            ..Default::default()
        };
        let (f, st) = s.run("parallelism 0");
        assert_eq!(f.count("create", "Pod"), 0, "indexed={indexed}");
        assert_eq!(f.count("delete", "Pod"), 0, "indexed={indexed}");
        assert_eq!(st.active, 0);
        assert_eq!(st.succeeded, 0);
        assert_eq!(st.failed, 0);
        assert!(st.conditions.is_empty(), "{:?}", conds(&st));
        assert!(
            st.start_time.is_some(),
            "startTime is set on the first sync"
        );
        assert!(job_events(&f).is_empty(), "{:?}", job_events(&f));
    }
}

// upstream: manageJob deletes `active - wantActive` pods when the succeeded pods already reach
// completions (wantActive = completions - succeeded = 0); syncJob then sees active == 0 and
// succeeded >= completions: complete. Without JobPodReplacementPolicy and JobManagedBy the
// terminal condition is not delayed (delayTerminalCondition), so Complete is written in this very
// sync with newSuccessCondition's CompletionsReached reason (JobSuccessPolicy on), and
// recordJobFinished emits Normal/Completed "Job completed". trackJobStatusAndRemoveFinalizers
// counts the pod that was still running as failed ("when the job is considered finished, every
// non-terminated pod is considered failed", as the finished condition is not
// SuccessCriteriaMet) and removes its finalizer.
#[test]
fn completions_reached_while_a_pod_is_still_active() {
    let s = Sync {
        parallelism: 2,
        completions: 2,
        pods: vec![
            json!({"status": {"phase": "Succeeded"}}),
            json!({"status": {"phase": "Succeeded"}}),
            json!({"status": {"phase": "Running"}}),
        ],
        ..Default::default()
    };
    let (f, st) = s.run("completions reached");
    assert_eq!(
        f.count("delete", "Pod"),
        1,
        "the extra active pod is deleted"
    );
    assert_eq!(f.count("create", "Pod"), 0);
    assert_eq!(st.active, 0);
    assert_eq!(st.succeeded, 2);
    assert_eq!(st.failed, 1, "the deleted running pod counts as failed");
    assert_eq!(
        st.terminating, None,
        "not tracked with JobPodReplacementPolicy off"
    );
    assert_eq!(
        conds(&st),
        vec![c4("Complete", "True", "CompletionsReached", REACHED)]
    );
    assert!(st.completion_time.is_some());
    assert_eq!(
        st.uncounted_terminated_pods.unwrap_or_default(),
        Default::default()
    );
    // RealPodControl.DeletePod's event, then recordJobFinished's.
    assert_eq!(
        job_events(&f),
        vec![
            ev("Normal", "SuccessfulDelete", "Deleted pod: mypod-2"),
            ev("Normal", "Completed", "Job completed"),
        ]
    );
}

// upstream: the same sync with JobPodReplacementPolicy and JobManagedBy on (their 1.35
// defaults): the deleted pod is counted as terminating (manageJob adds the removed pods to
// terminating), so enactJobFinished holds Complete back and only the interim
// SuccessCriteriaMet condition (CompletionsReached) is written; no Completed event yet. With a
// SuccessCriteriaMet finished condition the running pod is not counted as failed.
#[test]
fn completions_reached_while_a_pod_is_still_active_delayed() {
    let s = Sync {
        parallelism: 2,
        completions: 2,
        prp: true,
        managed_by: true,
        pods: vec![
            json!({"status": {"phase": "Succeeded"}}),
            json!({"status": {"phase": "Succeeded"}}),
            json!({"status": {"phase": "Running"}}),
        ],
        ..Default::default()
    };
    let (f, st) = s.run("completions reached, delayed");
    assert_eq!(f.count("delete", "Pod"), 1);
    assert_eq!(st.active, 0);
    assert_eq!(st.succeeded, 2);
    assert_eq!(st.failed, 0);
    assert_eq!(st.terminating, Some(1));
    assert_eq!(
        conds(&st),
        vec![c4(
            "SuccessCriteriaMet",
            "True",
            "CompletionsReached",
            REACHED
        )]
    );
    assert!(st.completion_time.is_none());
    assert!(!job_events(&f).iter().any(|e| e.1 == "Completed"));
}

// upstream: matchPodFailurePolicy (pod_failure_policy.go) only returns a FailIndex match while
// JobBackoffLimitPerIndex is on; otherwise the `case FailIndex` falls through and the next rule
// is tried.
#[test]
fn fail_index_rule_skipped_without_backoff_limit_per_index_gate() {
    use crate::controllers::job::pod_failure_policy::{
        match_pod_failure_policy, PodFailurePolicyAction,
    };
    let policy: crate::api::batch::PodFailurePolicy = serde_json::from_value(json!({"rules": [
        {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [3]}},
        {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [3]}},
    ]}))
    .unwrap();
    let mut pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": "p", "namespace": "default"},
        "status": {"phase": "Failed", "containerStatuses": [
            {"name": "main", "state": {"terminated": {"exitCode": 3}}}]}
    }))
    .unwrap();
    let on = match_pod_failure_policy(Some(&policy), &pod, true);
    assert_eq!(on.action, Some(PodFailurePolicyAction::FailIndex));
    assert!(on.count_failed);
    assert_eq!(on.fail_job_message, None);
    let off = match_pod_failure_policy(Some(&policy), &pod, false);
    assert_eq!(off.action, Some(PodFailurePolicyAction::FailJob));
    assert_eq!(
        off.fail_job_message.as_deref(),
        Some("Container main for pod default/p failed with exit code 3 matching FailJob rule at index 1")
    );
    // Only a FailIndex rule: with the gate off nothing matches, the failure is counted.
    pod.status.container_statuses[0].name = "other".into();
    let only: crate::api::batch::PodFailurePolicy = serde_json::from_value(json!({"rules": [
        {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [3]}},
    ]}))
    .unwrap();
    let off = match_pod_failure_policy(Some(&only), &pod, false);
    assert_eq!(off.action, None);
    assert!(off.count_failed);
}

// upstream: a FailIndex match on an Indexed Job without backoffLimitPerIndex (validation refuses
// it, the informer copy here is not validated) is an ordinary counted failure:
// hasBackoffLimitPerIndex is false, so no failedIndexes and no per-index accounting; the index is
// recreated by manageJob.
#[test]
fn fail_index_match_without_backoff_limit_per_index_is_a_counted_failure() {
    let s = Sync {
        parallelism: 2,
        completions: 2,
        indexed: true,
        spec: json!({"backoffLimitPerIndex": 1, "podFailurePolicy": {"rules": [
            {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [3]}}]}}),
        pods: vec![
            json!({"status": {"phase": "Failed", "containerStatuses": [
                {"name": "main-container", "state": {"terminated": {"exitCode": 3}}}]}}),
            json!({"status": {"phase": "Running"}}),
        ],
        ..Default::default()
    };
    // Built valid, then backoffLimitPerIndex is dropped from the stored copy (as an informer
    // cache entry, unvalidated).
    let (mut f, _) = s.build();
    let mut job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    job.spec.backoff_limit_per_index = None;
    f.api.store.put(job.into_object());
    let mut ctl = JobController::new();
    {
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx).unwrap();
    }
    let st = f.job_status();
    assert_eq!(st.failed, 1);
    assert_eq!(st.failed_indexes, None);
    assert_eq!(st.active, 2);
    assert_eq!(f.count("create", "Pod"), 1, "index 0 is recreated");
    assert!(st.conditions.is_empty(), "{:?}", conds(&st));
}

// upstream: pastActiveDeadline returns false for a suspended Job, and syncJob only requeues for
// the deadline when the Job is not suspended; manageJob deletes every active pod of a suspended
// Job and syncJob sets Suspended=True (JobSuspended, "Job suspended") with a Normal/Suspended
// event.
#[test]
fn active_deadline_with_suspended_job_deletes_pods_without_failing() {
    let s = Sync {
        parallelism: 2,
        completions: 2,
        spec: json!({"suspend": true, "activeDeadlineSeconds": 10}),
        pods: vec![
            json!({"status": {"phase": "Running"}}),
            json!({"status": {"phase": "Running"}}),
        ],
        ..Default::default()
    };
    // Started 15 s before the sync: the deadline (10 s) would have passed.
    let (mut f, _) = s.build();
    let mut job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    job.status.start_time = Some(f.api.now - Duration::from_secs(15));
    f.api.store.put(job.into_object());
    let mut ctl = JobController::new();
    {
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx).unwrap();
    }
    let st = f.job_status();
    assert_eq!(f.count("delete", "Pod"), 2);
    assert_eq!(st.active, 0);
    assert_eq!(
        conds(&st),
        vec![c4("Suspended", "True", "JobSuspended", "Job suspended")]
    );
    assert!(job_events(&f).contains(&ev("Normal", "Suspended", "Job suspended")));
    assert!(!job_events(&f).iter().any(|e| e.1 == "DeadlineExceeded"));
    assert_eq!(
        f.queue.next_due(),
        None,
        "no deadline requeue while suspended"
    );
}

// upstream: an Ignore rule on DisruptionTarget: the disrupted pod's failure is not counted
// (nonIgnoredFailedPodsCount) and it does not go to uncountedTerminatedPods, but its finalizer
// is removed; another failed pod is counted and exceeds backoffLimit 0, so the Job fails with
// BackoffLimitExceeded (not delayed with JobPodReplacementPolicy and JobManagedBy off) and a
// Warning event with the condition's reason and message.
#[test]
fn ignore_rule_on_disruption_target_with_another_counted_failure() {
    let s = Sync {
        parallelism: 2,
        completions: 2,
        backoff_limit: 0,
        spec: json!({"podFailurePolicy": {"rules": [
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]}}),
        pods: vec![
            json!({"status": {"phase": "Failed",
                "conditions": [{"type": "DisruptionTarget", "status": "True"}]}}),
            json!({"status": {"phase": "Failed"}}),
        ],
        ..Default::default()
    };
    let (f, st) = s.run("Ignore on DisruptionTarget");
    assert_eq!(st.failed, 1);
    assert_eq!(st.active, 0);
    assert_eq!(f.count("create", "Pod"), 0);
    assert_eq!(
        conds(&st),
        vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)]
    );
    assert_eq!(
        st.uncounted_terminated_pods.unwrap_or_default(),
        Default::default()
    );
    for p in f.api.store.list::<Pod>(Some("default")) {
        assert!(
            !p.metadata
                .finalizers
                .iter()
                .any(|x| x == JOB_TRACKING_FINALIZER),
            "{} keeps the tracking finalizer",
            p.metadata.name
        );
    }
    assert!(job_events(&f).contains(&ev("Warning", "BackoffLimitExceeded", BACKOFF_MSG)));
}

// upstream: getValidPodsWithFilter skips pods without the tracking finalizer (they are counted
// already or in uncountedTerminatedPods), so a failed pod without it adds nothing to
// status.failed; it is not active, so manageJob creates a replacement. A Running pod being
// deleted without the finalizer is not active either (FilterActivePods) and, with
// JobPodReplacementPolicy on, is counted as terminating and held against creations only under
// podReplacementPolicy Failed.
#[test]
fn pods_without_the_tracking_finalizer_are_not_counted() {
    let s = Sync {
        pods: vec![without_finalizer(json!({"status": {"phase": "Failed"}}))],
        ..Default::default()
    };
    let (f, st) = s.run("failed pod without finalizer");
    assert_eq!(st.failed, 0);
    assert_eq!(st.active, 1);
    assert_eq!(f.count("create", "Pod"), 1);
    assert!(st.conditions.is_empty());
    // RealPodControl.CreatePods: Normal/SuccessfulCreate "Created pod: <name>".
    let evs = job_events(&f);
    assert_eq!(evs.len(), 1, "{evs:?}");
    assert_eq!(
        (evs[0].0.as_str(), evs[0].1.as_str()),
        ("Normal", "SuccessfulCreate")
    );
    assert!(evs[0].2.starts_with("Created pod: foobar-"), "{evs:?}");

    for (policy, creations) in [("TerminatingOrFailed", 1), ("Failed", 0)] {
        let s = Sync {
            prp: true,
            spec: json!({"podReplacementPolicy": policy}),
            pods: vec![without_finalizer(json!({
                "metadata": {"deletionTimestamp": "2025-01-01T00:00:00Z"},
                "status": {"phase": "Running"}}))],
            ..Default::default()
        };
        let (f, st) = s.run(policy);
        assert_eq!(st.failed, 0, "{policy}");
        assert_eq!(st.terminating, Some(1), "{policy}");
        assert_eq!(st.active, creations, "{policy}");
        assert_eq!(f.count("create", "Pod"), creations as usize, "{policy}");
    }
}

// upstream: syncJob fails the Job for maxFailedIndexes only when failedIndexes.total() exceeds
// it (`>`); with exactly maxFailedIndexes failed indexes the Job continues and the failed index
// is not recreated.
#[test]
fn max_failed_indexes_reached_but_not_exceeded() {
    let s = Sync {
        parallelism: 3,
        completions: 3,
        backoff_limit: i32::MAX,
        indexed: true,
        spec: json!({"backoffLimitPerIndex": 0, "maxFailedIndexes": 1}),
        pods: vec![
            ipod("0", "Failed", Some("0")),
            ipod("1", "Running", Some("0")),
            ipod("2", "Running", Some("0")),
        ],
        ..Default::default()
    };
    let (f, st) = s.run("maxFailedIndexes reached");
    assert_eq!(
        comparable(st),
        want_status(json!({
            "active": 2,
            "failed": 1,
            "failedIndexes": "0",
            "uncountedTerminatedPods": {},
        }))
    );
    assert_eq!(f.count("create", "Pod"), 0);
}

// upstream: syncJob computes `complete` after manageJob whether or not the Job is suspended, and
// only writes the Suspended condition when the Job is not complete (`if complete {...} else if
// manageJobCalled {...}`): a suspended Job whose succeeded pods reach completions completes.
#[test]
fn suspended_job_with_completions_reached_completes() {
    let s = Sync {
        parallelism: 1,
        completions: 1,
        spec: json!({"suspend": true}),
        pods: vec![json!({"status": {"phase": "Succeeded"}})],
        ..Default::default()
    };
    let (f, st) = s.run("suspended and complete");
    assert_eq!(st.succeeded, 1);
    assert_eq!(st.active, 0);
    assert_eq!(
        conds(&st),
        vec![c4("Complete", "True", "CompletionsReached", REACHED)]
    );
    assert!(!job_events(&f).iter().any(|e| e.1 == "Suspended"));
    assert!(job_events(&f).contains(&ev("Normal", "Completed", "Job completed")));
}

// upstream: completions 0 (an elastic Indexed Job scaled to 0, or a NonIndexed one): manageJob
// wants no pod and `succeeded >= completions && active == 0` holds at once. Without delayed
// terminal conditions Complete is written directly; with them (JobPodReplacementPolicy on) the
// interim SuccessCriteriaMet is appended and, nothing terminating, Complete follows in the same
// sync (trackJobStatusAndRemoveFinalizers then enactJobFinished), both CompletionsReached.
#[test]
fn zero_completions_complete_at_once() {
    for (indexed, prp, want) in [
        (
            false,
            false,
            vec![c4("Complete", "True", "CompletionsReached", REACHED)],
        ),
        (
            true,
            true,
            vec![
                c4("SuccessCriteriaMet", "True", "CompletionsReached", REACHED),
                c4("Complete", "True", "CompletionsReached", REACHED),
            ],
        ),
    ] {
        let s = Sync {
            parallelism: 0,
            completions: 0,
            indexed,
            prp,
            ..Default::default()
        };
        let (f, st) = s.run("zero completions");
        assert_eq!(f.count("create", "Pod"), 0);
        assert_eq!(st.active, 0);
        assert_eq!(conds(&st), want, "indexed={indexed}");
        assert!(st.completion_time.is_some());
    }
}

// upstream: manageJob for a Job without completions (work queue): once a pod succeeded,
// wantActive is the current active count, so nothing is created for the finished pod; the Job is
// complete only when no pod is active any more.
#[test]
fn work_queue_job_with_a_success_and_an_active_pod() {
    let s = Sync {
        parallelism: 2,
        completions: -1,
        pods: vec![
            json!({"status": {"phase": "Succeeded"}}),
            json!({"status": {"phase": "Running"}}),
        ],
        ..Default::default()
    };
    let (f, st) = s.run("work queue");
    assert_eq!(f.count("create", "Pod"), 0);
    assert_eq!(f.count("delete", "Pod"), 0);
    assert_eq!(st.active, 1);
    assert_eq!(st.succeeded, 1);
    assert!(st.conditions.is_empty(), "{:?}", conds(&st));
}
