//! Further ports of `pkg/controller/job/job_controller_test.go` tables (one `syncJob` call each,
//! checked field by field as upstream checks them).

use super::*;

mod edge_rows;
mod fault_rows;

/// (type, status, reason, message) of each condition, in order.
fn conds(s: &JobStatus) -> Vec<(String, String, String, String)> {
    s.conditions
        .iter()
        .map(|c| {
            (
                c.type_.clone(),
                c.status.clone(),
                c.reason.clone(),
                c.message.clone(),
            )
        })
        .collect()
}

fn c4(t: &str, s: &str, r: &str, m: &str) -> (String, String, String, String) {
    (t.into(), s.into(), r.into(), m.into())
}

const DEADLINE_MSG: &str = "Job was active longer than specified deadline";
const BACKOFF_MSG: &str = "Job has reached the specified backoff limit";

// Port of TestSyncJobPastDeadline (pkg/controller/job/job_controller_test.go). The table runs
// with JobPodReplacementPolicy and JobManagedBy off unless a row turns one on; JobSuccessPolicy
// keeps its 1.34 default (on).
#[test]
fn sync_job_past_deadline() {
    struct R {
        parallelism: i32,
        completions: i32,
        active_deadline_seconds: i64,
        start_time: i64,
        backoff_limit: i32,
        suspend: bool,
        active: usize,
        succeeded: usize,
        failed: usize,
        exp_deletions: usize,
        exp_active: i32,
        exp_succeeded: i32,
        exp_failed: i32,
        exp_conditions: Vec<(String, String, String, String)>,
        prp: bool,
        managed_by: bool,
    }
    let base = R {
        parallelism: 1,
        completions: 1,
        active_deadline_seconds: 10,
        start_time: 15,
        backoff_limit: 6,
        suspend: false,
        active: 0,
        succeeded: 0,
        failed: 0,
        exp_deletions: 0,
        exp_active: 0,
        exp_succeeded: 0,
        exp_failed: 0,
        exp_conditions: vec![],
        prp: false,
        managed_by: false,
    };
    let rows: Vec<(&str, R)> = vec![
        (
            "activeDeadlineSeconds less than single pod execution",
            R {
                active: 1,
                exp_deletions: 1,
                exp_failed: 1,
                exp_conditions: vec![c4("Failed", "True", "DeadlineExceeded", DEADLINE_MSG)],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds bigger than single pod execution",
            R {
                completions: 2,
                active: 1,
                succeeded: 1,
                exp_deletions: 1,
                exp_succeeded: 1,
                exp_failed: 1,
                exp_conditions: vec![c4("Failed", "True", "DeadlineExceeded", DEADLINE_MSG)],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds times-out before any pod starts",
            R {
                start_time: 10,
                exp_conditions: vec![c4("Failed", "True", "DeadlineExceeded", DEADLINE_MSG)],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds with backofflimit reach",
            R {
                active_deadline_seconds: 1,
                start_time: 10,
                backoff_limit: 0,
                failed: 1,
                exp_failed: 1,
                exp_conditions: vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds is not triggered when Job is suspended",
            R {
                suspend: true,
                completions: 2,
                exp_conditions: vec![c4("Suspended", "True", "JobSuspended", "Job suspended")],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds exceeded; JobPodReplacementPolicy enabled",
            R {
                prp: true,
                completions: 2,
                active: 1,
                succeeded: 1,
                exp_deletions: 1,
                exp_succeeded: 1,
                exp_failed: 1,
                exp_conditions: vec![c4(
                    "FailureTarget",
                    "True",
                    "DeadlineExceeded",
                    DEADLINE_MSG,
                )],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds exceeded; JobManagedBy enabled",
            R {
                managed_by: true,
                completions: 2,
                active: 1,
                succeeded: 1,
                exp_deletions: 1,
                exp_succeeded: 1,
                exp_failed: 1,
                exp_conditions: vec![c4(
                    "FailureTarget",
                    "True",
                    "DeadlineExceeded",
                    DEADLINE_MSG,
                )],
                ..base
            },
        ),
        (
            "activeDeadlineSeconds exceeded and backofflimit reached; JobManagedBy enabled",
            R {
                managed_by: true,
                active_deadline_seconds: 1,
                start_time: 10,
                backoff_limit: 0,
                failed: 1,
                exp_failed: 1,
                exp_conditions: vec![
                    c4("FailureTarget", "True", "BackoffLimitExceeded", BACKOFF_MSG),
                    c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG),
                ],
                ..base
            },
        ),
    ];
    for (name, r) in rows {
        let mut f = Fixture::new(r.prp, true, r.managed_by);
        let mut job = f.job(r.parallelism, r.completions, r.backoff_limit, false);
        job.spec.active_deadline_seconds = Some(r.active_deadline_seconds);
        job.spec.suspend = Some(r.suspend);
        job.status.start_time = Some(Time::from_unix_secs(f.api.now.unix_secs() - r.start_time));
        f.load_job(job);
        let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
        for _ in 0..r.active {
            f.pod(&job, "Running", false, false, None);
        }
        for _ in 0..r.succeeded {
            f.pod(&job, "Succeeded", false, false, None);
        }
        for _ in 0..r.failed {
            f.pod(&job, "Failed", false, false, None);
        }
        let mut ctl = JobController::new();
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(f.count("create", "Pod"), 0, "{name}: creations");
        assert_eq!(
            f.count("delete", "Pod"),
            r.exp_deletions,
            "{name}: deletions"
        );
        let s = f.job_status();
        assert_eq!(s.active, r.exp_active, "{name}: active");
        assert_eq!(s.succeeded, r.exp_succeeded, "{name}: succeeded");
        assert_eq!(s.failed, r.exp_failed, "{name}: failed");
        assert!(s.start_time.is_some(), "{name}: startTime");
        assert_eq!(conds(&s), r.exp_conditions, "{name}: conditions");
    }
}

/// One `syncJob` of a Job built by `newJob(parallelism, completions, backoffLimit)` with `spec`
/// merged into its spec (JSON), over `pods` (JSON pod statuses/metadata) named `mypod-<i>`, with
/// the tracking finalizer and, for Indexed Jobs, index `i` unless the pod names its own.
struct Sync {
    parallelism: i32,
    completions: i32,
    backoff_limit: i32,
    indexed: bool,
    spec: serde_json::Value,
    status: serde_json::Value,
    pods: Vec<serde_json::Value>,
    prp: bool,
    success_policy: bool,
    managed_by: bool,
    backoff_limit_per_index: bool,
    /// Indexed Jobs: do not give pods without an index annotation their position as index.
    no_auto_index: bool,
}

impl Default for Sync {
    fn default() -> Self {
        Sync {
            parallelism: 1,
            completions: 1,
            backoff_limit: 6,
            indexed: false,
            spec: serde_json::json!({}),
            status: serde_json::json!({}),
            pods: vec![],
            prp: false,
            success_policy: true,
            managed_by: false,
            backoff_limit_per_index: true,
            no_auto_index: false,
        }
    }
}

fn merge(a: &mut serde_json::Value, b: &serde_json::Value) {
    match (a, b) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k.clone()).or_insert(serde_json::Value::Null), v);
            }
        }
        (a, b) => *a = b.clone(),
    }
}

impl Sync {
    fn build(&self) -> (Fixture, Job) {
        let mut f = Fixture::new(self.prp, self.success_policy, self.managed_by);
        f.gates
            .set("JobBackoffLimitPerIndex", self.backoff_limit_per_index);
        let job = f.job(
            self.parallelism,
            self.completions,
            self.backoff_limit,
            self.indexed,
        );
        let mut job = job;
        // Upstream's template container has no name (its fixture skips validation).
        job.spec.template_mut().spec_mut().containers[0].name = "main-container".into();
        let mut v = serde_json::to_value(&job).unwrap();
        merge(&mut v["spec"], &self.spec);
        merge(&mut v["status"], &self.status);
        let mut job: Job = serde_json::from_value(v).expect("job json");
        // Upstream's fixture Jobs may finish without a startTime as its fake clientset does not
        // validate; the API server's status strategy (JobManagedBy on) refuses a finished Job
        // without one. syncJob sets it on the first sync of an unsuspended Job; the fixtures of a
        // suspended Job get one as if it had run before being suspended (kept on suspension).
        if job.status.start_time.is_none() {
            job.status.start_time = Some(f.api.now);
        }
        f.load_job(job);
        let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
        for (i, p) in self.pods.iter().enumerate() {
            let mut p: Pod = serde_json::from_value(p.clone()).expect("pod json");
            let deleting = p.metadata.deletion_timestamp.take().is_some();
            let mut base = crate::controllers::controller_utils::get_pod_from_template(
                &job.spec.template,
                &job.metadata,
                Some(&new_controller_ref(&job.metadata, "batch/v1", "Job")),
            );
            base.metadata.name = if p.metadata.name.is_empty() {
                format!("mypod-{i}")
            } else {
                p.metadata.name.clone()
            };
            base.metadata.generate_name.clear();
            base.metadata.uid = if p.metadata.uid.is_empty() {
                format!("mypod-{i}")
            } else {
                p.metadata.uid.clone()
            };
            if p.metadata.annotations.remove(NO_FINALIZER).is_none() {
                base.metadata.finalizers = vec![JOB_TRACKING_FINALIZER.into()].into();
            }
            base.metadata.creation_timestamp = Some(ts("2024-01-01T00:00:00Z"));
            base.metadata.annotations.extend(p.metadata.annotations);
            if self.indexed
                && !self.no_auto_index
                && !base
                    .metadata
                    .annotations
                    .contains_key(JOB_COMPLETION_INDEX_ANNOTATION)
            {
                base.metadata
                    .annotations
                    .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), i.to_string());
            }
            if deleting {
                // As upstream's fixtures: deleted now, no grace period recorded.
                base.metadata.deletion_timestamp = Some(f.api.now);
            }
            base.spec_mut().node_name = "node-1".into();
            base.status = p.status;
            f.api.load(base.into_object()).expect("pod loads");
        }
        (f, job)
    }

    fn run(&self, name: &str) -> (Fixture, JobStatus) {
        let (mut f, _) = self.build();
        let mut ctl = JobController::new();
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let s = f.job_status();
        (f, s)
    }
}

/// A test-only annotation: the pod is built without the tracking finalizer.
const NO_FINALIZER: &str = "test/no-tracking-finalizer";

/// `buildPod().index(ix).phase(phase)` with `indexFailureCount(failures)` when given.
fn ipod(ix: &str, phase: &str, failures: Option<&str>) -> serde_json::Value {
    let mut a = serde_json::Map::new();
    a.insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.into());
    if let Some(n) = failures {
        a.insert(
            crate::api::batch::JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(),
            n.into(),
        );
    }
    serde_json::json!({"metadata": {"annotations": a}, "status": {"phase": phase}})
}

/// `ipod` with the DisruptionTarget=True condition.
fn ipod_disrupted(ix: &str) -> serde_json::Value {
    let mut p = ipod(ix, "Failed", None);
    p["status"]["conditions"] = serde_json::json!([{"type": "DisruptionTarget", "status": "True"}]);
    p
}

/// The status as upstream's tables compare it: without startTime, completionTime, ready and
/// the conditions' times.
fn comparable(mut s: JobStatus) -> JobStatus {
    s.start_time = None;
    s.completion_time = None;
    s.ready = None;
    for c in &mut s.conditions {
        c.last_probe_time = None;
        c.last_transition_time = None;
    }
    s
}

fn want_status(v: serde_json::Value) -> JobStatus {
    serde_json::from_value(v).expect("status json")
}

/// A failed pod whose containers (name, exit code) terminated.
fn failed_with(containers: &[(&str, i32)]) -> serde_json::Value {
    pod_with("Failed", containers)
}

fn pod_with(phase: &str, containers: &[(&str, i32)]) -> serde_json::Value {
    let cs: Vec<serde_json::Value> = containers
        .iter()
        .map(|(n, c)| serde_json::json!({"name": n, "state": {"terminated": {"exitCode": c}}}))
        .collect();
    serde_json::json!({"status": {"phase": phase, "containerStatuses": cs}})
}

fn on_exit_code_rules() -> serde_json::Value {
    serde_json::json!({"rules": [
        {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [1, 2, 3]}},
        {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [5, 6, 7]}},
    ]})
}

const PFP: &str = "PodFailurePolicy";

fn pfp_msg(m: &str) -> Vec<(String, String, String, String)> {
    vec![
        c4("FailureTarget", "True", PFP, m),
        c4("Failed", "True", PFP, m),
    ]
}

// Port of TestSyncJobWithJobPodFailurePolicy (pkg/controller/job/job_controller_test.go). The
// runner sets podReplacementPolicy Failed when a row leaves it unset; JobPodReplacementPolicy and
// JobManagedBy are off unless a row turns them on.
#[test]
fn sync_job_with_job_pod_failure_policy() {
    use serde_json::json;
    struct R {
        s: Sync,
        conditions: Vec<(String, String, String, String)>,
        failed: i32,
        active: i32,
        succeeded: i32,
        terminating: i32,
    }
    let exit_rules = json!({"podFailurePolicy": on_exit_code_rules()});
    let m5 = "Container main-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1";
    let rows: Vec<(&str, R)> = vec![
        (
            "default handling for pod failure if the container matching the exit codes does not match the containerName restriction",
            R {
                s: Sync {
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "Ignore", "onExitCodes": {"containerName": "main-container", "operator": "In", "values": [1, 2, 3]}},
                        {"action": "FailJob", "onExitCodes": {"containerName": "main-container", "operator": "In", "values": [5, 6, 7]}},
                    ]}}),
                    pods: vec![failed_with(&[("monitoring-container", 5), ("main-container", 42)])],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "running pod should not result in job fail based on OnExitCodes",
            R {
                s: Sync {
                    spec: exit_rules.clone(),
                    pods: vec![pod_with("Running", &[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 0,
                terminating: 0,
            },
        ),
        (
            "fail job based on OnExitCodes",
            R {
                s: Sync {
                    spec: exit_rules.clone(),
                    pods: vec![failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: pfp_msg(m5),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "job marked already as failure target with failed pod",
            R {
                s: Sync {
                    spec: exit_rules.clone(),
                    status: json!({"conditions": [{"type": "FailureTarget", "status": "True", "reason": PFP, "message": m5}]}),
                    pods: vec![failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: pfp_msg(m5),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "job marked already as failure target with failed pod, message based on already deleted pod",
            R {
                s: Sync {
                    spec: exit_rules.clone(),
                    status: json!({"conditions": [{"type": "FailureTarget", "status": "True", "reason": PFP, "message": "Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1"}]}),
                    pods: vec![failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: pfp_msg("Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1"),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "fail job with multiple pods",
            R {
                s: Sync {
                    parallelism: 2,
                    completions: 2,
                    spec: exit_rules.clone(),
                    pods: vec![json!({"status": {"phase": "Running"}}), failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: pfp_msg("Container main-container for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 1"),
                active: 0,
                succeeded: 0,
                failed: 2,
                terminating: 0,
            },
        ),
        (
            "fail job with multiple pods; JobManagedBy enabled delays setting terminal condition",
            R {
                s: Sync {
                    managed_by: true,
                    parallelism: 2,
                    completions: 2,
                    spec: exit_rules.clone(),
                    pods: vec![json!({"status": {"phase": "Running"}}), failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: vec![c4("FailureTarget", "True", PFP, "Container main-container for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 1")],
                active: 0,
                succeeded: 0,
                failed: 2,
                // status.terminating is written only with JobPodReplacementPolicy.
                terminating: 0,
            },
        ),
        (
            "fail indexed job based on OnExitCodes",
            R {
                s: Sync {
                    indexed: true,
                    spec: exit_rules.clone(),
                    pods: vec![failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: pfp_msg(m5),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "fail job based on OnExitCodes with NotIn operator",
            R {
                s: Sync {
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "FailJob", "onExitCodes": {"operator": "NotIn", "values": [5, 6, 7]}},
                    ]}}),
                    pods: vec![failed_with(&[("main-container", 42)])],
                    ..Default::default()
                },
                conditions: pfp_msg("Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob rule at index 0"),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "default handling job based on OnExitCodes with NotIn operator",
            R {
                s: Sync {
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "FailJob", "onExitCodes": {"operator": "NotIn", "values": [5, 6, 7]}},
                    ]}}),
                    pods: vec![failed_with(&[("main-container", 5)])],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "fail job based on OnExitCodes for InitContainer",
            R {
                s: Sync {
                    spec: exit_rules.clone(),
                    pods: vec![json!({"status": {"phase": "Failed",
                        "initContainerStatuses": [{"name": "init-container", "state": {"terminated": {"exitCode": 5}}}],
                        "containerStatuses": [{"name": "main-container", "state": {"terminated": {"exitCode": 143}}}]}})],
                    ..Default::default()
                },
                conditions: pfp_msg("Container init-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1"),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "ignore pod failure; both rules are matching, the first is executed only",
            R {
                s: Sync {
                    backoff_limit: 0,
                    spec: exit_rules.clone(),
                    pods: vec![failed_with(&[("container1", 2), ("container2", 6)])],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 0,
                terminating: 0,
            },
        ),
        (
            "ignore pod failure based on OnExitCodes",
            R {
                s: Sync {
                    backoff_limit: 0,
                    spec: exit_rules.clone(),
                    pods: vec![failed_with(&[("", 1)])],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 0,
                terminating: 0,
            },
        ),
        (
            "default job based on OnExitCodes",
            R {
                s: Sync {
                    backoff_limit: 0,
                    spec: exit_rules.clone(),
                    pods: vec![failed_with(&[("", 10)])],
                    ..Default::default()
                },
                conditions: vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)],
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "default job based on OnExitCodes; JobManagedBy enabled triggers adding interim condition",
            R {
                s: Sync {
                    managed_by: true,
                    backoff_limit: 0,
                    spec: exit_rules.clone(),
                    pods: vec![failed_with(&[("", 10)])],
                    ..Default::default()
                },
                conditions: vec![
                    c4("FailureTarget", "True", "BackoffLimitExceeded", BACKOFF_MSG),
                    c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG),
                ],
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "count pod failure based on OnExitCodes; both rules are matching, the first is executed only",
            R {
                s: Sync {
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "Count", "onExitCodes": {"operator": "In", "values": [1, 2]}},
                        {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [2, 3]}},
                    ]}}),
                    pods: vec![failed_with(&[("", 2)])],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "count pod failure based on OnPodConditions; both rules are matching, the first is executed only",
            R {
                s: Sync {
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "Count", "onPodConditions": [{"type": "ResourceLimitExceeded", "status": "True"}]},
                        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                    ]}}),
                    pods: vec![json!({"status": {"phase": "Failed",
                        "conditions": [{"type": "ResourceLimitExceeded", "status": "True"}, {"type": "DisruptionTarget", "status": "True"}],
                        "containerStatuses": [{"name": "", "state": {"terminated": {"exitCode": 0}}}]}})],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "ignore pod failure based on OnPodConditions",
            R {
                s: Sync {
                    backoff_limit: 0,
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                    ]}}),
                    pods: vec![json!({"status": {"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True"}]}})],
                    ..Default::default()
                },
                conditions: vec![],
                active: 1,
                succeeded: 0,
                failed: 0,
                terminating: 0,
            },
        ),
        (
            "ignore pod failure based on OnPodConditions, ignored failures delays pod recreation",
            R {
                s: Sync {
                    backoff_limit: 0,
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                    ]}}),
                    pods: vec![json!({"metadata": {"deletionTimestamp": "2025-01-01T00:00:00Z"},
                        "status": {"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True"}]}})],
                    ..Default::default()
                },
                conditions: vec![],
                active: 0,
                succeeded: 0,
                failed: 0,
                terminating: 0,
            },
        ),
        (
            "fail job based on OnPodConditions",
            R {
                s: Sync {
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                    ]}}),
                    pods: vec![json!({"status": {"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True"}]}})],
                    ..Default::default()
                },
                conditions: pfp_msg("Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0"),
                active: 0,
                succeeded: 0,
                failed: 1,
                terminating: 0,
            },
        ),
        (
            "terminating Pod not considered failed when JobPodFailurePolicy is enabled and used",
            R {
                s: Sync {
                    completions: -1,
                    backoff_limit: 0,
                    spec: json!({"podFailurePolicy": {"rules": [
                        {"action": "Count", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
                    ]}}),
                    pods: vec![json!({"metadata": {"deletionTimestamp": "2025-01-01T00:00:00Z"}})],
                    ..Default::default()
                },
                conditions: vec![],
                active: 0,
                succeeded: 0,
                failed: 0,
                // Upstream compares Deref(terminating, 0) with 0 here, but with a pod failure
                // policy trackTerminatingPods holds and status.terminating is only written with
                // JobPodReplacementPolicy (off in this row).
                terminating: 0,
            },
        ),
    ];
    for (name, mut r) in rows {
        let spec = r.s.spec.as_object_mut().unwrap();
        spec.entry("podReplacementPolicy")
            .or_insert_with(|| json!("Failed"));
        let (_, s) = r.s.run(name);
        assert_eq!(conds(&s), r.conditions, "{name}: conditions");
        assert_eq!(s.active, r.active, "{name}: active");
        assert_eq!(s.succeeded, r.succeeded, "{name}: succeeded");
        assert_eq!(s.failed, r.failed, "{name}: failed");
        assert_eq!(
            s.terminating.unwrap_or(0),
            r.terminating,
            "{name}: terminating"
        );
    }
}

const MATCHED_0: &str = "Matched rules at index 0";
const COMPLETIONS_MSG: &str = "Reached expected number of succeeded pods";

fn cond(t: &str, r: &str, m: &str) -> serde_json::Value {
    serde_json::json!({"type": t, "status": "True", "reason": r, "message": m})
}

// Port of TestSyncJobWithJobSuccessPolicy (pkg/controller/job/job_controller_test.go): the whole
// status is compared except startTime, completionTime and ready. Gates as each row sets them
// (JobBackoffLimitPerIndex, JobSuccessPolicy, JobPodReplacementPolicy, JobManagedBy off unless
// set).
#[test]
fn sync_job_with_job_success_policy() {
    use serde_json::json;
    let sp01 = json!({"rules": [{"succeededIndexes": "0,1", "succeededCount": 1}]});
    let pfp_dt = json!({"rules": [{"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]});
    let max = i32::MAX;
    let base = || Sync {
        indexed: true,
        backoff_limit: max,
        success_policy: true,
        backoff_limit_per_index: false,
        ..Default::default()
    };
    let dt_msg =
        "Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0";
    let rows: Vec<(&str, Sync, serde_json::Value)> = vec![
        (
            "job with successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet condition if job meets to successPolicy and some indexes fail",
            Sync {
                prp: true,
                parallelism: 3,
                completions: 3,
                spec: json!({"successPolicy": sp01}),
                pods: vec![ipod("0", "Failed", None), ipod("0", "Running", None), ipod("1", "Succeeded", None), ipod("2", "Running", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 2, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy; jobPodReplacementPolicy feature disabled; job has SuccessCriteriaMet condition if job meets to successPolicy and some indexes fail",
            Sync {
                parallelism: 3,
                completions: 3,
                spec: json!({"successPolicy": sp01}),
                pods: vec![ipod("0", "Failed", None), ipod("0", "Running", None), ipod("1", "Succeeded", None), ipod("2", "Running", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0), cond("Complete", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with podFailurePolicy and successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet condition if job meets to successPolicy and doesn't meet to podFailurePolicy",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "podFailurePolicy": pfp_dt}),
                pods: vec![ipod("0", "Failed", None), ipod("0", "Running", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 1, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with podFailurePolicy and successPolicy; jobPodReplacementPolicy feature disabled; job has SuccessCriteriaMet condition if job meets to successPolicy and doesn't meet to podFailurePolicy",
            Sync {
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "podFailurePolicy": pfp_dt}),
                pods: vec![ipod("0", "Failed", None), ipod("0", "Running", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0), cond("Complete", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with backoffLimitPerIndex and successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet condition if job meets to successPolicy and doesn't meet backoffLimitPerIndex",
            Sync {
                prp: true,
                backoff_limit_per_index: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "backoffLimitPerIndex": 2}),
                pods: vec![ipod("0", "Failed", None), ipod("0", "Running", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 1, "completedIndexes": "1", "failedIndexes": "", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy; jobPodReplacementPolicy feature enabled; job has both Complete and SuccessCriteriaMet condition when job meets to successPolicy and all pods have been already removed",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "backoffLimitPerIndex": 2}),
                status: json!({"conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
                pods: vec![ipod("0", "Failed", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0), cond("Complete", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy; jobPodReplacementPolicy feature enabled; job has SuccessCriteriaMet condition when job meets to successPolicy and some pods still are running",
            Sync {
                prp: true,
                parallelism: 3,
                completions: 3,
                spec: json!({"successPolicy": sp01, "backoffLimitPerIndex": 3}),
                status: json!({"conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
                pods: vec![ipod("0", "Failed", None), ipod("1", "Running", None), ipod("1", "Succeeded", None), ipod("2", "Running", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 2, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy; JobManagedBy feature enabled; job has SuccessCriteriaMet condition when job meets to successPolicy and some pods still are running",
            Sync {
                managed_by: true,
                parallelism: 3,
                completions: 3,
                spec: json!({"successPolicy": sp01, "backoffLimitPerIndex": 3}),
                status: json!({"conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
                pods: vec![ipod("0", "Failed", None), ipod("1", "Running", None), ipod("1", "Succeeded", None), ipod("2", "Running", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy and podFailurePolicy; jobPodReplacementPolicy feature enabled; job has a failed condition when job meets to both successPolicy and podFailurePolicy",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "podFailurePolicy": pfp_dt}),
                pods: vec![ipod_disrupted("0"), ipod("0", "Running", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 2, "succeeded": 1, "terminating": 1, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", PFP, dt_msg)]}),
        ),
        (
            "job with successPolicy and backoffLimitPerIndex; jobPodReplacementPolicy feature enabled; job has a failed condition when job meets to both successPolicy and backoffLimitPerIndex",
            Sync {
                prp: true,
                backoff_limit_per_index: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "backoffLimitPerIndex": 1}),
                pods: vec![ipod("0", "Failed", Some("1")), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "failedIndexes": "0", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "FailedIndexes", "Job has failed indexes"), cond("Failed", "FailedIndexes", "Job has failed indexes")]}),
        ),
        (
            "job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job has a failed condition when job meets to both successPolicy and backoffLimit",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                backoff_limit: 1,
                spec: json!({"successPolicy": sp01}),
                pods: vec![ipod("0", "Failed", None), ipod("0", "Failed", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 2, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "BackoffLimitExceeded", BACKOFF_MSG), cond("Failed", "BackoffLimitExceeded", BACKOFF_MSG)]}),
        ),
        (
            "job with successPolicy and podFailurePolicy; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets podFailurePolicy",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": {"rules": [{"succeededCount": 1}]}, "podFailurePolicy": pfp_dt}),
                status: json!({"succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                    "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
                pods: vec![ipod_disrupted("0"), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0), cond("Complete", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy and backoffLimitPerIndex; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meet backoffLimitPerIndex",
            Sync {
                prp: true,
                backoff_limit_per_index: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": {"rules": [{"succeededIndexes": "1"}]}, "backoffLimitPerIndex": 1}),
                status: json!({"succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                    "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
                pods: vec![ipod("0", "Failed", Some("1")), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "failedIndexes": "0", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0), cond("Complete", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy and backoffLimit; jobPodReplacementPolicy feature enabled; job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets backoffLimit",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                backoff_limit: 1,
                spec: json!({"successPolicy": sp01}),
                status: json!({"succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                    "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0)]}),
                pods: vec![ipod("0", "Failed", None), ipod("1", "Succeeded", None)],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "SuccessPolicy", MATCHED_0), cond("Complete", "SuccessPolicy", MATCHED_0)]}),
        ),
        (
            "job with successPolicy and podFailureTarget; jobPodReplacementPolicy feature enabled; job with FailureTarget has never been transitioned to SuccessCriteriaMet even if job meets successPolicy",
            Sync {
                prp: true,
                parallelism: 2,
                completions: 2,
                spec: json!({"successPolicy": sp01, "podFailurePolicy": pfp_dt}),
                status: json!({"failed": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                    "conditions": [cond("FailureTarget", PFP, dt_msg)]}),
                pods: vec![
                    {
                        let mut p = ipod_disrupted("0");
                        p["metadata"]["annotations"][NO_FINALIZER] = json!("");
                        p
                    },
                    ipod("1", "Succeeded", None),
                ],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", PFP, dt_msg), cond("Failed", PFP, dt_msg)]}),
        ),
        (
            "job without successPolicy; jobSuccessPolicy is enabled; job got SuccessCriteriaMet and Completion with CompletionsReached reason conditions",
            Sync {
                managed_by: true,
                spec: json!({}),
                pods: vec![ipod("0", "Succeeded", None)],
                ..base()
            },
            json!({"succeeded": 1, "completedIndexes": "0", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS_MSG), cond("Complete", "CompletionsReached", COMPLETIONS_MSG)]}),
        ),
        (
            "when the JobSuccessPolicy is disabled, the Job never got SuccessCriteriaMet condition even if the Job has the successPolicy field",
            Sync {
                success_policy: false,
                parallelism: 3,
                completions: 3,
                spec: json!({"successPolicy": sp01}),
                pods: vec![ipod("0", "Running", None), ipod("1", "Succeeded", None), ipod("2", "Running", None)],
                ..base()
            },
            json!({"active": 2, "succeeded": 1, "completedIndexes": "1", "uncountedTerminatedPods": {}}),
        ),
    ];
    for (name, s, want) in rows {
        let (_, got) = s.run(name);
        assert_eq!(comparable(got), want_status(want), "{name}");
    }
}

// Port of TestSyncJobWithJobBackoffLimitPerIndex (pkg/controller/job/job_controller_test.go):
// the whole status except startTime, completionTime and ready. JobSuccessPolicy keeps its 1.34
// default (on); the other batch gates as each row sets them.
#[test]
fn sync_job_with_job_backoff_limit_per_index() {
    use serde_json::json;
    let max = i32::MAX;
    let base = || Sync {
        indexed: true,
        parallelism: 2,
        completions: 2,
        backoff_limit: max,
        backoff_limit_per_index: true,
        prp: true,
        spec: json!({"backoffLimitPerIndex": 1}),
        ..Default::default()
    };
    let exit3 = |name: &str| {
        let mut p = ipod("0", "Failed", Some("0"));
        p["status"]["containerStatuses"] =
            json!([{"name": name, "state": {"terminated": {"exitCode": 3}}}]);
        p
    };
    let fi_msg = "Job has failed indexes";
    let mfi_msg = "Job has exceeded the specified maximal number of failed indexes";
    let four = || {
        vec![
            ipod("0", "Failed", Some("1")),
            ipod("1", "Succeeded", Some("0")),
            ipod("2", "Failed", Some("1")),
            ipod("3", "Running", Some("0")),
        ]
    };
    let rows: Vec<(&str, Sync, serde_json::Value)> = vec![
        (
            "successful job after a single failure within index",
            Sync {
                pods: vec![ipod("0", "Failed", Some("0")), ipod("0", "Succeeded", Some("1")), ipod("1", "Succeeded", Some("0"))],
                ..base()
            },
            json!({"failed": 1, "succeeded": 2, "terminating": 0, "completedIndexes": "0,1", "failedIndexes": "", "uncountedTerminatedPods": {},
                "conditions": [cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS_MSG), cond("Complete", "CompletionsReached", COMPLETIONS_MSG)]}),
        ),
        (
            "single failed pod, not counted as the replacement pod creation is delayed",
            Sync {
                pods: vec![ipod("0", "Failed", Some("0"))],
                ..base()
            },
            json!({"active": 2, "terminating": 0, "uncountedTerminatedPods": {}, "failedIndexes": ""}),
        ),
        (
            "single failed pod replaced already",
            Sync {
                pods: vec![ipod("0", "Failed", Some("0")), ipod("0", "Pending", Some("1"))],
                ..base()
            },
            json!({"active": 2, "failed": 1, "terminating": 0, "uncountedTerminatedPods": {}, "failedIndexes": ""}),
        ),
        (
            "single failed index due to exceeding the backoff limit per index, the job continues",
            Sync {
                pods: vec![ipod("0", "Failed", Some("1"))],
                ..base()
            },
            json!({"active": 1, "failed": 1, "failedIndexes": "0", "terminating": 0, "uncountedTerminatedPods": {}}),
        ),
        (
            "single failed index due to FailIndex action, the job continues",
            Sync {
                spec: json!({"backoffLimitPerIndex": 1, "podFailurePolicy": {"rules": [
                    {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [3]}}]}}),
                pods: vec![exit3("")],
                ..base()
            },
            json!({"active": 1, "failed": 1, "failedIndexes": "0", "terminating": 0, "uncountedTerminatedPods": {}}),
        ),
        (
            "job failed index due to FailJob action",
            Sync {
                backoff_limit: 6,
                spec: json!({"backoffLimitPerIndex": 1, "podFailurePolicy": {"rules": [
                    {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [3]}}]}}),
                pods: vec![exit3("x")],
                ..base()
            },
            json!({"active": 0, "failed": 1, "failedIndexes": "", "terminating": 0, "uncountedTerminatedPods": {},
                "conditions": [
                    cond("FailureTarget", PFP, "Container x for pod default/mypod-0 failed with exit code 3 matching FailJob rule at index 0"),
                    cond("Failed", PFP, "Container x for pod default/mypod-0 failed with exit code 3 matching FailJob rule at index 0"),
                ]}),
        ),
        (
            "job pod failure ignored due to matching Ignore action",
            Sync {
                backoff_limit: 6,
                spec: json!({"backoffLimitPerIndex": 1, "podFailurePolicy": {"rules": [
                    {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [3]}}]}}),
                pods: vec![exit3("x")],
                ..base()
            },
            json!({"active": 2, "failed": 0, "failedIndexes": "", "terminating": 0, "uncountedTerminatedPods": {}}),
        ),
        (
            "job failed due to exceeding backoffLimit before backoffLimitPerIndex",
            Sync {
                backoff_limit: 1,
                pods: vec![ipod("0", "Failed", Some("0")), ipod("1", "Failed", Some("0"))],
                ..base()
            },
            json!({"failed": 2, "succeeded": 0, "failedIndexes": "", "terminating": 0, "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "BackoffLimitExceeded", BACKOFF_MSG), cond("Failed", "BackoffLimitExceeded", BACKOFF_MSG)]}),
        ),
        (
            "job failed due to failed indexes",
            Sync {
                pods: vec![ipod("0", "Failed", Some("1")), ipod("1", "Succeeded", Some("0"))],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "terminating": 0, "failedIndexes": "0", "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "FailedIndexes", fi_msg), cond("Failed", "FailedIndexes", fi_msg)]}),
        ),
        (
            "job failed due to exceeding max failed indexes",
            Sync {
                parallelism: 4,
                completions: 4,
                spec: json!({"backoffLimitPerIndex": 1, "maxFailedIndexes": 1}),
                pods: four(),
                ..base()
            },
            json!({"failed": 3, "succeeded": 1, "terminating": 1, "failedIndexes": "0,2", "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "MaxFailedIndexesExceeded", mfi_msg)]}),
        ),
        (
            "job with finished indexes; failedIndexes are cleaned when JobBackoffLimitPerIndex disabled",
            Sync {
                backoff_limit_per_index: false,
                parallelism: 3,
                completions: 3,
                status: json!({"failedIndexes": "0", "completedIndexes": "1"}),
                pods: vec![ipod("2", "Pending", Some("1"))],
                ..base()
            },
            json!({"active": 2, "succeeded": 1, "terminating": 0, "completedIndexes": "1", "uncountedTerminatedPods": {}}),
        ),
        (
            "job failed due to failed indexes; JobPodReplacementPolicy and JobManagedBy disabled",
            Sync {
                prp: false,
                pods: vec![ipod("0", "Failed", Some("1")), ipod("1", "Succeeded", Some("0"))],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "failedIndexes": "0", "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("Failed", "FailedIndexes", fi_msg)]}),
        ),
        (
            "job failed due to failed indexes; JobManagedBy enabled",
            Sync {
                prp: false,
                managed_by: true,
                pods: vec![ipod("0", "Failed", Some("1")), ipod("1", "Succeeded", Some("0"))],
                ..base()
            },
            json!({"failed": 1, "succeeded": 1, "failedIndexes": "0", "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "FailedIndexes", fi_msg), cond("Failed", "FailedIndexes", fi_msg)]}),
        ),
        (
            "job failed due to exceeding max failed indexes; JobPodReplacementPolicy and JobManagedBy disabled",
            Sync {
                prp: false,
                parallelism: 4,
                completions: 4,
                spec: json!({"backoffLimitPerIndex": 1, "maxFailedIndexes": 1}),
                pods: four(),
                ..base()
            },
            json!({"failed": 3, "succeeded": 1, "failedIndexes": "0,2", "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("Failed", "MaxFailedIndexesExceeded", mfi_msg)]}),
        ),
        (
            "job failed due to exceeding max failed indexes; JobManagedBy enabled",
            Sync {
                prp: false,
                managed_by: true,
                parallelism: 4,
                completions: 4,
                spec: json!({"backoffLimitPerIndex": 1, "maxFailedIndexes": 1}),
                pods: four(),
                ..base()
            },
            json!({"failed": 3, "succeeded": 1, "failedIndexes": "0,2", "completedIndexes": "1", "uncountedTerminatedPods": {},
                "conditions": [cond("FailureTarget", "MaxFailedIndexesExceeded", mfi_msg)]}),
        ),
    ];
    for (name, s, want) in rows {
        let (_, got) = s.run(name);
        assert_eq!(comparable(got), want_status(want), "{name}");
    }
}

// Port of TestSingleJobFailedCondition (pkg/controller/job/job_controller_test.go): a Failed=False
// condition past the deadline becomes the one Failed=True condition; no pod is deleted. Run with
// the 1.34 gate defaults (terminal conditions delayed behind FailureTarget) and with
// JobPodReplacementPolicy and JobManagedBy off.
#[test]
fn single_job_failed_condition() {
    for delayed in [true, false] {
        let mut f = Fixture::new(delayed, true, delayed);
        let mut job = f.job(1, 1, 6, false);
        job.spec.active_deadline_seconds = Some(10);
        job.status.start_time = Some(Time::from_unix_secs(f.api.now.unix_secs() - 15));
        job.status.conditions.push(new_condition(
            "Failed",
            "False",
            "DeadlineExceeded",
            DEADLINE_MSG,
            f.api.now,
        ));
        f.load_job(job);
        let mut ctl = JobController::new();
        let mut ctx = f.ctx();
        ctl.sync_job("default/foobar", &mut ctx).unwrap();
        assert_eq!(f.count("delete", "Pod"), 0);
        assert!(f.count("update-status", "Job") >= 1, "status written");
        let s = f.job_status();
        let failed: Vec<_> = s
            .conditions
            .iter()
            .filter(|c| c.type_ == "Failed")
            .collect();
        assert_eq!(failed.len(), 1, "{:?}", s.conditions);
        assert_eq!(failed[0].status, "True");
        assert_eq!(failed[0].reason, "DeadlineExceeded");
    }
}

// Port of TestSyncJobComplete (pkg/controller/job/job_controller_test.go): syncing a complete
// Job changes nothing.
#[test]
fn sync_job_complete() {
    let mut f = Fixture::new(true, true, true);
    let mut job = f.job(1, 1, 6, false);
    job.status
        .conditions
        .push(new_condition("Complete", "True", "", "", f.api.now));
    f.load_job(job);
    let before = f.job_status();
    let mut ctl = JobController::new();
    let mut ctx = f.ctx();
    ctl.sync_job("default/foobar", &mut ctx).unwrap();
    assert_eq!(f.job_status(), before);
    assert_eq!(f.job_status().conditions.len(), 1);
    assert!(f.actions.is_empty(), "{:?}", f.actions);
}

// Port of TestSyncJobDeleted (pkg/controller/job/job_controller_test.go): a Job missing from the
// store is a no-op.
#[test]
fn sync_job_deleted() {
    let mut f = Fixture::new(true, true, true);
    let mut ctl = JobController::new();
    let mut ctx = f.ctx();
    ctl.sync_job("default/foobar", &mut ctx).unwrap();
    assert_eq!(f.count("create", "Pod"), 0);
    assert_eq!(f.count("delete", "Pod"), 0);
}

// Port of TestPastDeadlineJobFinished (pkg/controller/job/job_controller_test.go): with
// activeDeadlineSeconds 1 the Job fails with DeadlineExceeded, never before a second has passed
// since its start time (set by the controller, or given). The clock moves 100 ms per sync.
#[test]
fn past_deadline_job_finished() {
    for set_start_time in [false, true] {
        let mut f = Fixture::new(true, true, true);
        let mut job = f.job(1, 1, 6, false);
        job.spec.active_deadline_seconds = Some(1);
        if set_start_time {
            job.status.start_time = Some(f.api.now);
        }
        f.load_job(job);
        let mut ctl = JobController::new();
        let mut done = false;
        for _ in 0..30 {
            let mut ctx = f.ctx();
            ctl.sync_job("default/foobar", &mut ctx).unwrap();
            let s = f.job_status();
            assert!(s.start_time.is_some(), "startTime is set by the first sync");
            if s.conditions.iter().any(|c| {
                c.type_ == "Failed" && c.status == "True" && c.reason == "DeadlineExceeded"
            }) {
                assert!(
                    f.api.now - s.start_time.unwrap() >= Duration::from_secs(1),
                    "DeadlineExceeded earlier than expected"
                );
                done = true;
                break;
            }
            // The pod the Job created goes away once deleted (kubelet and GC stand-in).
            let deleted: Vec<String> = f
                .api
                .store
                .list::<Pod>(Some("default"))
                .filter(|p| p.metadata.deletion_timestamp.is_some())
                .map(|p| p.metadata.name.clone())
                .collect();
            for n in deleted {
                let mut p = f.api.store.get::<Pod>("default", &n).unwrap().clone();
                p.metadata.finalizers.clear();
                p.status.phase = "Failed".into();
                let _ = f.api.update(p.into_object());
            }
            f.api.now = f.api.now + Duration::from_millis(100);
            // The informer: the controller observes its own writes (expectations).
            for c in f.api.store.take_changes() {
                ctl.watch(&c, &f.api.store, &mut f.queue, f.api.now);
            }
        }
        assert!(
            done,
            "set_start_time={set_start_time}: {:?}",
            f.job_status()
        );
    }
}

// Port of TestJobBackoffForOnFailure (pkg/controller/job/job_controller_test.go): restartPolicy
// OnFailure, container restarts of running/pending pods count against backoffLimit.
// JobPodReplacementPolicy and JobManagedBy off unless a row turns them on.
#[test]
fn job_backoff_for_on_failure() {
    use serde_json::json;
    #[allow(clippy::type_complexity)]
    let rows: Vec<(&str, (i32, i32, i32, bool), (&[i32], &str), (i32, i32, i32), Vec<(String, String, String, String)>, (bool, bool))> = vec![
        ("backoffLimit 0 should have 1 pod active", (1, 1, 0, false), (&[0], "Running"), (1, 0, 0), vec![], (false, false)),
        ("backoffLimit 1 with restartCount 0 should have 1 pod active", (1, 1, 1, false), (&[0], "Running"), (1, 0, 0), vec![], (false, false)),
        ("backoffLimit 1 with restartCount 1 and podRunning should have 0 pod active", (1, 1, 1, false), (&[1], "Running"), (0, 0, 1),
            vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, false)),
        ("backoffLimit 1 with restartCount 1 and podPending should have 0 pod active", (1, 1, 1, false), (&[1], "Pending"), (0, 0, 1),
            vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, false)),
        ("too many job failures with podRunning - single pod", (1, 5, 2, false), (&[2], "Running"), (0, 0, 1),
            vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, false)),
        ("too many job failures with podPending - single pod", (1, 5, 2, false), (&[2], "Pending"), (0, 0, 1),
            vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, false)),
        ("too many job failures with podRunning - multiple pods", (2, 5, 2, false), (&[1, 1], "Running"), (0, 0, 2),
            vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, false)),
        ("too many job failures with podPending - multiple pods", (2, 5, 2, false), (&[1, 1], "Pending"), (0, 0, 2),
            vec![c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, false)),
        ("not enough failures", (2, 5, 3, false), (&[1, 1], "Running"), (2, 0, 0), vec![], (false, false)),
        ("suspending a job", (2, 4, 6, true), (&[1, 1], "Running"), (0, 0, 0),
            vec![c4("Suspended", "True", "JobSuspended", "Job suspended")], (false, false)),
        ("finished job", (2, 4, 6, true), (&[1, 1, 2, 0], "Succeeded"), (0, 4, 0),
            vec![c4("Complete", "True", "CompletionsReached", COMPLETIONS_MSG)], (false, false)),
        ("finished job; JobPodReplacementPolicy enabled", (2, 4, 6, true), (&[1, 1, 2, 0], "Succeeded"), (0, 4, 0),
            vec![c4("SuccessCriteriaMet", "True", "CompletionsReached", COMPLETIONS_MSG), c4("Complete", "True", "CompletionsReached", COMPLETIONS_MSG)], (true, false)),
        ("finished job; JobManagedBy enabled", (2, 4, 6, true), (&[1, 1, 2, 0], "Succeeded"), (0, 4, 0),
            vec![c4("SuccessCriteriaMet", "True", "CompletionsReached", COMPLETIONS_MSG), c4("Complete", "True", "CompletionsReached", COMPLETIONS_MSG)], (false, true)),
        ("too many job failures with podRunning - multiple pods; JobPodReplacementPolicy enabled", (2, 5, 2, false), (&[1, 1], "Running"), (0, 0, 2),
            vec![c4("FailureTarget", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (true, false)),
        ("too many job failures with podRunning - multiple pods; JobManagedBy enabled", (2, 5, 2, false), (&[1, 1], "Running"), (0, 0, 2),
            vec![c4("FailureTarget", "True", "BackoffLimitExceeded", BACKOFF_MSG)], (false, true)),
    ];
    for (
        name,
        (par, comp, bl, suspend),
        (restarts, phase),
        (active, succeeded, failed),
        conditions,
        (prp, mb),
    ) in rows
    {
        let s = Sync {
            parallelism: par,
            completions: comp,
            backoff_limit: bl,
            prp,
            managed_by: mb,
            spec: json!({"suspend": suspend, "template": {"spec": {"restartPolicy": "OnFailure"}}}),
            pods: restarts
                .iter()
                .map(|r| json!({"status": {"phase": phase, "containerStatuses": [{"name": "", "restartCount": r}]}}))
                .collect(),
            ..Default::default()
        };
        let (_, got) = s.run(name);
        assert_eq!(got.active, active, "{name}: active");
        assert_eq!(got.succeeded, succeeded, "{name}: succeeded");
        assert_eq!(got.failed, failed, "{name}: failed");
        assert_eq!(conds(&got), conditions, "{name}: conditions");
    }
}

// Port of TestJobBackoffOnRestartPolicyNever (pkg/controller/job/job_controller_test.go), with the
// gate defaults (JobPodReplacementPolicy and JobManagedBy on in 1.34: FailureTarget first).
#[test]
fn job_backoff_on_restart_policy_never() {
    use serde_json::json;
    let failed_pod = json!({"status": {"phase": "Failed", "containerStatuses": [{"name": "", "state": {"terminated": {"exitCode": 1}}}]}});
    let both = vec![
        c4("FailureTarget", "True", "BackoffLimitExceeded", BACKOFF_MSG),
        c4("Failed", "True", "BackoffLimitExceeded", BACKOFF_MSG),
    ];
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        &str,
        (i32, i32, i32),
        (&str, usize, usize),
        (i32, i32, i32),
        Vec<(String, String, String, String)>,
    )> = vec![
        (
            "not enough failures with backoffLimit 0 - single pod",
            (1, 1, 0),
            ("Running", 1, 0),
            (1, 0, 0),
            vec![],
        ),
        (
            "not enough failures with backoffLimit 1 - single pod",
            (1, 1, 1),
            ("", 0, 1),
            (1, 0, 1),
            vec![],
        ),
        (
            "too many failures with backoffLimit 1 - single pod",
            (1, 1, 1),
            ("", 0, 2),
            (0, 0, 2),
            both.clone(),
        ),
        (
            "not enough failures with backoffLimit 6 - multiple pods",
            (2, 2, 6),
            ("Running", 1, 6),
            (2, 0, 6),
            vec![],
        ),
        (
            "too many failures with backoffLimit 6 - multiple pods",
            (2, 2, 6),
            ("", 0, 7),
            (0, 0, 7),
            both.clone(),
        ),
    ];
    for (
        name,
        (par, comp, bl),
        (phase, active_pods, failed_pods),
        (active, succeeded, failed),
        conditions,
    ) in rows
    {
        let mut pods = vec![failed_pod.clone(); failed_pods];
        pods.extend(vec![json!({"status": {"phase": phase}}); active_pods]);
        let s = Sync {
            parallelism: par,
            completions: comp,
            backoff_limit: bl,
            prp: true,
            managed_by: true,
            pods,
            ..Default::default()
        };
        let (_, got) = s.run(name);
        assert_eq!(got.active, active, "{name}: active");
        assert_eq!(got.succeeded, succeeded, "{name}: succeeded");
        assert_eq!(got.failed, failed, "{name}: failed");
        assert_eq!(conds(&got), conditions, "{name}: conditions");
    }
}

/// `buildPod().uid(uid).phase(phase)`, with the tracking finalizer unless `fin` is false, being
/// deleted when `deleting`, with the completion index `ix` when given.
fn tpod(uid: &str, phase: &str, fin: bool, deleting: bool, ix: Option<&str>) -> serde_json::Value {
    let mut a = serde_json::Map::new();
    if let Some(ix) = ix {
        a.insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.into());
    }
    if !fin {
        a.insert(NO_FINALIZER.into(), "".into());
    }
    let mut p =
        serde_json::json!({"metadata": {"uid": uid, "annotations": a}, "status": {"phase": phase}});
    if deleting {
        p["metadata"]["deletionTimestamp"] = serde_json::json!("2025-01-01T00:00:00Z");
    }
    p
}

struct Track {
    s: Sync,
    deleting: bool,
    finished: Option<&'static str>,
    expected_rm: Vec<&'static str>,
    needs_flush: bool,
    want_rm: usize,
    want: Vec<serde_json::Value>,
    /// The index of the status update that carries completionTime = now, if any.
    want_completion_time: Option<usize>,
}

impl Default for Track {
    fn default() -> Self {
        Track {
            s: Sync {
                completions: -1,
                success_policy: false,
                backoff_limit_per_index: false,
                no_auto_index: true,
                ..Default::default()
            },
            deleting: false,
            finished: None,
            expected_rm: vec![],
            needs_flush: false,
            want_rm: 0,
            want: vec![],
            want_completion_time: None,
        }
    }
}

impl Track {
    fn run(self, name: &str) {
        let (mut f, _) = self.s.build();
        if self.deleting {
            let mut j = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
            j.metadata.deletion_timestamp = Some(f.api.now);
            // A finalizer keeps the deleted Job in the store (as upstream's informer copy).
            j.metadata.finalizers = vec!["kubeplay.dev/test".into()].into();
            f.api.store.put(j.into_object());
        }
        let now = f.api.now;
        let minute_ago = Time::from_unix_secs(now.unix_secs() - 60);
        let g = JobGates::from_gates(&f.gates);
        let mut job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
        if job.status.uncounted_terminated_pods.is_none() {
            job.status.uncounted_terminated_pods = Some(Default::default());
        }
        let mut pods: Vec<Pod> = f.api.store.list::<Pod>(Some("default")).cloned().collect();
        // The row's order (upstream passes its list as is; the store lists by name).
        pods.sort_by_key(|p| {
            p.metadata
                .name
                .trim_start_matches("mypod-")
                .parse::<usize>()
                .unwrap_or(usize::MAX)
        });
        let uncounted = job.status.uncounted_terminated_pods.clone().unwrap();
        let completions = i64::from(job.spec.completions.unwrap_or(0));
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
            expected_rm_finalizers: self.expected_rm.iter().map(|u| u.to_string()).collect(),
            terminating: Some(pods.iter().filter(|p| is_pod_terminating(p)).count() as i32),
            finished_condition: self.finished.map(|t| {
                let at = if t == JOB_SUCCESS_CRITERIA_MET {
                    minute_ago
                } else {
                    now
                };
                new_condition(t, "True", "", "", at)
            }),
            succeeded: job.status.succeeded,
            failed: job.status.failed,
            prev_succeeded_indexes: OrderedIntervals::default(),
            succeeded_indexes: if job.is_indexed() {
                indexed_job_utils::parse_indexes_from_string(
                    &job.status.completed_indexes,
                    completions,
                )
            } else {
                OrderedIntervals::default()
            },
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
        if job.is_indexed()
            && g.backoff_limit_per_index
            && job.spec.backoff_limit_per_index.is_some()
        {
            let refs: Vec<&Pod> = pods.iter().collect();
            jc.failed_indexes = Some(calculate_failed_indexes(&job, &refs, &g));
            let valid = get_valid_pods(&jc, &BTreeSet::new());
            let active_refs: Vec<&Pod> = jc.active_pods.iter().map(|p| &**p).collect();
            let delayed = get_pods_with_delayed_deletion_per_index(
                &job,
                &valid,
                &active_refs,
                &jc.succeeded_indexes,
                jc.failed_indexes.as_ref(),
                &g,
            );
            let delayed: BTreeMap<i64, Pod> =
                delayed.into_iter().map(|(k, p)| (k, p.clone())).collect();
            jc.pods_with_delayed_deletion_per_index = delayed;
        }
        f.api.store.take_changes();
        let mut ctl = JobController::new();
        let mut ctx = f.ctx();
        ctl.track_job_status_and_remove_finalizers(
            &mut ctx,
            &mut jc,
            self.needs_flush,
            "default/foobar",
            &g,
        )
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let updates: Vec<JobStatus> = f
            .api
            .store
            .take_changes()
            .into_iter()
            .filter_map(|c| match c.new_obj() {
                Some(Object::Job(j)) => Some((*j.status).clone()),
                _ => None,
            })
            .collect();
        let rm = f
            .actions
            .iter()
            .filter(|a| a.kind == "Pod" && a.verb == "update")
            .count();
        assert_eq!(rm, self.want_rm, "{name}: finalizers removed");
        for (i, u) in updates.iter().enumerate() {
            assert_eq!(
                u.completion_time.is_some(),
                self.want_completion_time == Some(i),
                "{name}: completionTime in update {i}"
            );
            if self.want_completion_time == Some(i) {
                assert_eq!(u.completion_time, Some(now), "{name}");
            }
        }
        let got: Vec<JobStatus> = updates
            .into_iter()
            .map(|mut s| {
                // The start time is the only field syncJob (not this function) would set.
                s.start_time = None;
                s.completion_time = None;
                for c in &mut s.conditions {
                    c.last_probe_time = None;
                    c.last_transition_time = None;
                }
                s
            })
            .collect();
        let want: Vec<JobStatus> = self.want.into_iter().map(want_status).collect();
        assert_eq!(got, want, "{name}: status updates");
    }
}

// Port of TestTrackJobStatusAndRemoveFinalizers (pkg/controller/job/job_controller_test.go): the
// sequence of status updates (uncounted pods first, then counted once their finalizers are
// gone) and the finalizer removals. The rows with injected API errors ("status update error",
// "pod patch errors", "pod patch errors with partial success") are in `tables/fault_rows.rs`;
// the job_pods_finished metrics are not ported (kubeplay has no metrics). Gates off unless a row
// turns them on, as upstream.
#[test]
fn track_job_status_and_remove_finalizers() {
    use serde_json::json;
    let cond0 = |t: &str| json!({"type": t, "status": "True"});
    let idx = |c: i32| json!({"completionMode": "Indexed", "completions": c});
    let rows: Vec<(&str, Track)> = vec![
        ("no updates", Track::default()),
        (
            "new active",
            Track {
                s: Sync { status: json!({"active": 1}), ..Track::default().s },
                needs_flush: true,
                want: vec![json!({"uncountedTerminatedPods": {}, "active": 1})],
                ..Default::default()
            },
        ),
        (
            "track finished pods",
            Track {
                s: Sync {
                    pods: vec![
                        tpod("a", "Succeeded", true, false, None),
                        tpod("b", "Failed", true, false, None),
                        tpod("c", "Succeeded", true, true, None),
                        tpod("d", "Failed", true, true, None),
                        tpod("e", "Pending", true, true, None),
                        tpod("", "Pending", true, false, None),
                        tpod("", "Running", true, false, None),
                    ],
                    ..Track::default().s
                },
                want_rm: 5,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a", "c"], "failed": ["b", "d", "e"]}}),
                    json!({"uncountedTerminatedPods": {}, "succeeded": 2, "failed": 3}),
                ],
                ..Default::default()
            },
        ),
        (
            "past and new finished pods",
            Track {
                s: Sync {
                    status: json!({"active": 1, "succeeded": 2, "failed": 3,
                        "uncountedTerminatedPods": {"succeeded": ["a", "e"], "failed": ["b", "f"]}}),
                    pods: vec![
                        tpod("e", "Succeeded", false, false, None),
                        tpod("", "Failed", false, false, None),
                        tpod("", "Pending", false, false, None),
                        tpod("a", "Succeeded", true, false, None),
                        tpod("b", "Failed", true, false, None),
                        tpod("c", "Succeeded", true, false, None),
                        tpod("d", "Failed", true, false, None),
                    ],
                    ..Track::default().s
                },
                want_rm: 4,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a", "c"], "failed": ["b", "d"]}, "active": 1, "succeeded": 3, "failed": 4}),
                    json!({"uncountedTerminatedPods": {}, "active": 1, "succeeded": 5, "failed": 6}),
                ],
                ..Default::default()
            },
        ),
        (
            "expecting removed finalizers",
            Track {
                s: Sync {
                    status: json!({"succeeded": 2, "failed": 3,
                        "uncountedTerminatedPods": {"succeeded": ["a", "g"], "failed": ["b", "h"]}}),
                    pods: ["a", "b", "c", "d", "e", "f", "g", "h"]
                        .iter()
                        .enumerate()
                        .map(|(i, u)| tpod(u, if i % 2 == 0 { "Succeeded" } else { "Failed" }, true, false, None))
                        .collect(),
                    ..Track::default().s
                },
                expected_rm: vec!["c", "d", "g", "h"],
                want_rm: 4,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a", "e"], "failed": ["b", "f"]}, "succeeded": 3, "failed": 4}),
                    json!({"uncountedTerminatedPods": {}, "succeeded": 5, "failed": 6}),
                ],
                ..Default::default()
            },
        ),
        (
            "succeeding job by JobSuccessPolicy",
            Track {
                s: Sync {
                    success_policy: true,
                    pods: vec![
                        tpod("a", "Succeeded", true, false, None),
                        tpod("b", "Failed", true, false, None),
                        tpod("c", "Pending", true, false, None),
                    ],
                    ..Track::default().s
                },
                finished: Some(JOB_SUCCESS_CRITERIA_MET),
                want_rm: 3,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a"], "failed": ["b"]}, "conditions": [cond0("SuccessCriteriaMet")]}),
                    json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 1, "conditions": [cond0("SuccessCriteriaMet"), cond0("Complete")]}),
                ],
                want_completion_time: Some(1),
                ..Default::default()
            },
        ),
        (
            "completing job",
            Track {
                s: Sync {
                    pods: vec![
                        tpod("a", "Succeeded", true, false, None),
                        tpod("b", "Failed", true, false, None),
                    ],
                    ..Track::default().s
                },
                finished: Some(JOB_COMPLETE),
                want_rm: 2,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a"], "failed": ["b"]}}),
                    json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 1, "conditions": [cond0("Complete")]}),
                ],
                want_completion_time: Some(1),
                ..Default::default()
            },
        ),
        (
            "failing job",
            Track {
                s: Sync {
                    pods: vec![
                        tpod("a", "Succeeded", true, false, None),
                        tpod("b", "Failed", true, false, None),
                        tpod("c", "Running", true, false, None),
                    ],
                    ..Track::default().s
                },
                finished: Some(JOB_FAILED),
                // Running pod counts as failed.
                want_rm: 3,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a"], "failed": ["b", "c"]}}),
                    json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 2, "conditions": [cond0("Failed")]}),
                ],
                ..Default::default()
            },
        ),
        (
            "deleted job",
            Track {
                s: Sync {
                    status: json!({"active": 1}),
                    pods: vec![
                        tpod("a", "Succeeded", true, false, None),
                        tpod("b", "Failed", true, false, None),
                        tpod("", "Running", true, false, None),
                    ],
                    ..Track::default().s
                },
                deleting: true,
                // Removing finalizer from Running pod, but doesn't count as failed.
                want_rm: 3,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": ["a"], "failed": ["b"]}, "active": 1}),
                    json!({"uncountedTerminatedPods": {}, "active": 1, "succeeded": 1, "failed": 1}),
                ],
                ..Default::default()
            },
        ),
        (
            "indexed job new successful pods",
            Track {
                s: Sync {
                    indexed: true,
                    spec: idx(6),
                    status: json!({"active": 1}),
                    pods: vec![
                        tpod("", "Succeeded", true, false, Some("1")),
                        tpod("", "Succeeded", true, false, Some("3")),
                        tpod("", "Succeeded", true, false, Some("3")),
                        tpod("", "Running", true, false, Some("5")),
                        tpod("", "Succeeded", true, false, None),
                    ],
                    ..Track::default().s
                },
                want_rm: 4,
                want: vec![json!({"active": 1, "succeeded": 2, "completedIndexes": "1,3", "uncountedTerminatedPods": {}})],
                ..Default::default()
            },
        ),
        (
            "indexed job prev successful pods outside current completions index range with no new succeeded pods",
            Track {
                s: Sync {
                    indexed: true,
                    parallelism: 2,
                    spec: json!({"completionMode": "Indexed", "completions": 2, "parallelism": 2}),
                    status: json!({"active": 2, "succeeded": 1, "completedIndexes": "3"}),
                    pods: vec![
                        tpod("", "Running", true, false, Some("0")),
                        tpod("", "Running", true, false, Some("1")),
                    ],
                    ..Track::default().s
                },
                want: vec![json!({"active": 2, "succeeded": 0, "completedIndexes": "", "uncountedTerminatedPods": {}})],
                ..Default::default()
            },
        ),
        (
            "indexed job prev successful pods outside current completions index range with new succeeded pods in range",
            Track {
                s: Sync {
                    indexed: true,
                    parallelism: 2,
                    spec: json!({"completionMode": "Indexed", "completions": 2, "parallelism": 2}),
                    status: json!({"active": 2, "succeeded": 1, "completedIndexes": "3"}),
                    pods: vec![
                        tpod("", "Running", true, false, Some("0")),
                        tpod("", "Succeeded", true, false, Some("1")),
                    ],
                    ..Track::default().s
                },
                want_rm: 1,
                want: vec![json!({"active": 2, "succeeded": 1, "completedIndexes": "1", "uncountedTerminatedPods": {}})],
                ..Default::default()
            },
        ),
        (
            "indexed job new failed pods",
            Track {
                s: Sync {
                    indexed: true,
                    spec: idx(6),
                    status: json!({"active": 1}),
                    pods: vec![
                        tpod("a", "Failed", true, false, Some("1")),
                        tpod("b", "Failed", true, false, Some("3")),
                        tpod("c", "Failed", true, false, Some("3")),
                        tpod("d", "Running", true, false, Some("5")),
                        tpod("", "Failed", true, false, None),
                    ],
                    ..Track::default().s
                },
                want_rm: 4,
                want: vec![
                    json!({"active": 1, "uncountedTerminatedPods": {"failed": ["a", "b", "c"]}}),
                    json!({"active": 1, "failed": 3, "uncountedTerminatedPods": {}}),
                ],
                ..Default::default()
            },
        ),
        (
            "indexed job past and new pods",
            Track {
                s: Sync {
                    indexed: true,
                    spec: idx(7),
                    status: json!({"failed": 2, "succeeded": 5, "completedIndexes": "0-2,4,6,7"}),
                    pods: vec![
                        tpod("", "Succeeded", false, false, Some("0")),
                        tpod("", "Failed", false, false, Some("1")),
                        tpod("", "Succeeded", true, false, Some("1")),
                        tpod("", "Succeeded", true, false, Some("3")),
                        tpod("a", "Failed", true, false, Some("2")),
                        tpod("b", "Failed", true, false, Some("5")),
                    ],
                    ..Track::default().s
                },
                want_rm: 4,
                want: vec![
                    json!({"succeeded": 6, "failed": 2, "completedIndexes": "0-4,6", "uncountedTerminatedPods": {"failed": ["a", "b"]}}),
                    json!({"succeeded": 6, "failed": 4, "completedIndexes": "0-4,6", "uncountedTerminatedPods": {}}),
                ],
                ..Default::default()
            },
        ),
        (
            "too many finished",
            Track {
                s: Sync {
                    status: json!({"uncountedTerminatedPods": {"failed": ["a", "b"]}}),
                    pods: (0..500)
                        .map(|i| tpod(&i.to_string(), "Succeeded", true, false, None))
                        .chain([tpod("b", "Failed", true, false, None)])
                        .collect(),
                    ..Track::default().s
                },
                want_rm: 499,
                want: vec![
                    json!({"uncountedTerminatedPods": {"succeeded": (0..499).map(|i| i.to_string()).collect::<Vec<_>>(), "failed": ["b"]}, "failed": 1}),
                    json!({"uncountedTerminatedPods": {"failed": ["b"]}, "succeeded": 499, "failed": 1}),
                ],
                ..Default::default()
            },
        ),
        (
            "too many indexed finished",
            Track {
                s: Sync {
                    indexed: true,
                    spec: idx(501),
                    pods: (0..501)
                        .map(|i| tpod(&i.to_string(), "Succeeded", true, false, Some(&i.to_string())))
                        .collect(),
                    ..Track::default().s
                },
                want_rm: 500,
                want: vec![json!({"uncountedTerminatedPods": {}, "completedIndexes": "0-499", "succeeded": 500})],
                ..Default::default()
            },
        ),
        (
            "pod flips from failed to succeeded",
            Track {
                s: Sync {
                    completions: 2,
                    parallelism: 2,
                    status: json!({"uncountedTerminatedPods": {"failed": ["a", "b"]}}),
                    pods: vec![
                        tpod("a", "Failed", true, false, None),
                        tpod("b", "Succeeded", true, false, None),
                    ],
                    ..Track::default().s
                },
                finished: Some(JOB_FAILED),
                want_rm: 2,
                want: vec![json!({"uncountedTerminatedPods": {}, "failed": 2, "conditions": [cond0("Failed")]})],
                ..Default::default()
            },
        ),
        (
            "pod is terminal; JobFailed condition is set",
            Track {
                s: Sync {
                    completions: 1,
                    status: json!({"uncountedTerminatedPods": {"failed": ["a"]}}),
                    pods: vec![tpod("a", "Failed", true, false, None)],
                    ..Track::default().s
                },
                finished: Some(JOB_FAILED),
                want_rm: 1,
                want: vec![json!({"uncountedTerminatedPods": {}, "failed": 1, "conditions": [cond0("Failed")]})],
                ..Default::default()
            },
        ),
    ];
    for (name, t) in rows {
        t.run(name);
    }
    // The rows on terminating pods with a FailureTarget / SuccessCriteriaMet condition.
    for (name, prp, mb, sp, target, finished, uncounted, want) in [
        (
            "pod is terminating; counted as failed, but the JobFailed condition is delayed; JobPodReplacementPolicy enabled",
            true, false, false, "FailureTarget", JOB_FAILED, json!({"failed": ["a"]}),
            vec![json!({"uncountedTerminatedPods": {}, "failed": 1, "conditions": [cond0("FailureTarget")]})],
        ),
        (
            "pod is terminating; counted as failed, but the JobFailed condition is delayed; JobManagedBy enabled",
            false, true, false, "FailureTarget", JOB_FAILED, json!({"failed": ["a"]}),
            vec![json!({"uncountedTerminatedPods": {}, "failed": 1, "conditions": [cond0("FailureTarget")]})],
        ),
        (
            "pod is terminating; counted as failed, JobFailed condition is not delayed; JobPodReplacementPolicy and JobManagedBy disabled",
            false, false, false, "FailureTarget", JOB_FAILED, json!({"failed": ["a"]}),
            vec![
                json!({"uncountedTerminatedPods": {}, "failed": 1, "conditions": [cond0("FailureTarget")]}),
                json!({"uncountedTerminatedPods": {}, "failed": 1, "conditions": [cond0("FailureTarget"), cond0("Failed")]}),
            ],
        ),
        (
            "pod is terminating; JobSuccessCriteriaMet, but JobComplete condition is delayed; JobPodReplacementPolicy enabled",
            true, false, false, "SuccessCriteriaMet", JOB_COMPLETE, json!({"failed": ["a"], "succeeded": ["b"]}),
            vec![json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 1, "conditions": [cond0("SuccessCriteriaMet")]})],
        ),
        (
            "pod is terminating; JobSuccessCriteriaMet, but JobComplete condition is delayed; JobManagedBy enabled",
            false, true, false, "SuccessCriteriaMet", JOB_COMPLETE, json!({"failed": ["a"], "succeeded": ["b"]}),
            vec![json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 1, "conditions": [cond0("SuccessCriteriaMet")]})],
        ),
        (
            "pod is terminating; JobSuccessCriteriaMet, JobComplete condition is not delayed; JobPodReplacementPolicy and JobManagedBy disabled",
            false, false, true, "SuccessCriteriaMet", JOB_COMPLETE, json!({"failed": ["a"], "succeeded": ["b"]}),
            vec![
                json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 1, "conditions": [cond0("SuccessCriteriaMet")]}),
                json!({"uncountedTerminatedPods": {}, "succeeded": 1, "failed": 1, "conditions": [cond0("SuccessCriteriaMet"), cond0("Complete")]}),
            ],
        ),
    ] {
        let completion = (finished == JOB_COMPLETE && want.len() == 2).then_some(1);
        Track {
            s: Sync {
                completions: 1,
                prp,
                managed_by: mb,
                success_policy: sp,
                status: json!({"uncountedTerminatedPods": uncounted, "conditions": [cond0(target)]}),
                pods: vec![tpod("a", "Running", false, true, None)],
                ..Track::default().s
            },
            finished: Some(finished),
            want,
            want_completion_time: completion,
            ..Default::default()
        }
        .run(name);
    }
    // The rows with backoffLimitPerIndex (JobBackoffLimitPerIndex on).
    let blpi = |pods: Vec<serde_json::Value>, status: serde_json::Value| Sync {
        indexed: true,
        backoff_limit_per_index: true,
        spec: json!({"completionMode": "Indexed", "completions": 6, "backoffLimitPerIndex": 1}),
        status,
        pods,
        ..Track::default().s
    };
    let with_count = |uid: &str, phase: &str, count: &str| {
        let mut p = tpod(uid, phase, true, false, Some("1"));
        p["metadata"]["annotations"][crate::api::batch::JOB_INDEX_FAILURE_COUNT_ANNOTATION] =
            json!(count);
        p
    };
    Track {
        s: blpi(vec![with_count("a", "Failed", "0")], json!({})),
        want: vec![json!({"uncountedTerminatedPods": {}, "failedIndexes": ""})],
        ..Default::default()
    }
    .run("indexed job with a failed pod with delayed finalizer removal; the pod is not counted");
    Track {
        s: blpi(
            vec![with_count("a1", "Failed", "0"), with_count("a2", "Running", "1")],
            json!({"active": 1}),
        ),
        want_rm: 1,
        want: vec![
            json!({"active": 1, "uncountedTerminatedPods": {"failed": ["a1"]}, "failedIndexes": ""}),
            json!({"active": 1, "failed": 1, "uncountedTerminatedPods": {}, "failedIndexes": ""}),
        ],
        ..Default::default()
    }
    .run("indexed job with a failed pod which is recreated by a running pod; the pod is counted");
    Track {
        s: blpi(vec![with_count("a", "Failed", "1")], json!({})),
        want_rm: 1,
        want: vec![
            json!({"failedIndexes": "1", "uncountedTerminatedPods": {"failed": ["a"]}}),
            json!({"failed": 1, "failedIndexes": "1", "uncountedTerminatedPods": {}}),
        ],
        ..Default::default()
    }
    .run("indexed job with a failed pod for a failed index; the pod is counted");
}

// Port of the rows of TestControllerSyncJob (job_controller_test.go) added upstream after the
// first port ("only new failed pod with controller error", with an injected pod-control error,
// is in `fault_tests.rs`). "limited pods" and "indexed job with podIndexLabel feature disabled" are in
// `upstream_tests4.rs` (names taken in advance stand in for the create limit; the created pods'
// labels and env are compared there).
#[test]
fn controller_sync_job_newer_rows() {
    let base = Row {
        backoff_limit: 6,
        exp_ready: Some(0),
        ..Default::default()
    };
    let bl = |t: &'static str| vec![(t, "True", "BackoffLimitExceeded")];
    let suspended = vec![("Suspended", "True", "JobSuspended")];
    let rows: Vec<(&str, Row)> = vec![
        (
            "no new pod; possible finalizer update of failed pod",
            Row {
                parallelism: 1,
                completions: 1,
                initial_status: Some((1, 0, 1, vec![])),
                active: 1,
                exp_active: 1,
                exp_failed: 1,
                ..base.clone()
            },
        ),
        (
            "indexed job with some pods deleted, podReplacementPolicy Failed",
            Row {
                parallelism: 2,
                completions: 5,
                indexed: true,
                creations: 1,
                exp_active: 1,
                exp_created_indexes: vec!["0"],
                pod_replacement_policy: Some("Failed"),
                prp_gate: true,
                terminating: 1,
                exp_terminating: Some(1),
                ..base.clone()
            },
        ),
        (
            "indexed job with some pods deleted, podReplacementPolicy TerminatingOrFailed",
            Row {
                parallelism: 2,
                completions: 5,
                indexed: true,
                creations: 2,
                exp_active: 2,
                exp_created_indexes: vec!["0", "1"],
                pod_replacement_policy: Some("TerminatingOrFailed"),
                prp_gate: true,
                terminating: 1,
                exp_terminating: Some(1),
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "indexed job failed",
            Row {
                parallelism: 2,
                completions: 3,
                backoff_limit: 0,
                indexed: true,
                with_indexes: vec![("0", "Succeeded"), ("1", "Failed"), ("2", "Running")],
                exp_succeeded: 1,
                exp_failed: 2,
                exp_completed: "0",
                exp_conditions: bl("Failed"),
                patches: 3,
                deletions: 1,
                ..base.clone()
            },
        ),
        (
            "count terminating pods when indexed job fails and PodReplacementPolicy enabled",
            Row {
                parallelism: 2,
                completions: 3,
                backoff_limit: 0,
                indexed: true,
                with_indexes: vec![("0", "Succeeded"), ("1", "Failed"), ("2", "Running")],
                prp_gate: true,
                exp_succeeded: 1,
                exp_failed: 2,
                exp_completed: "0",
                exp_conditions: bl("FailureTarget"),
                patches: 3,
                deletions: 1,
                exp_terminating: Some(1),
                ..base.clone()
            },
        ),
        (
            "count ready pods when job fails",
            Row {
                parallelism: 2,
                completions: 3,
                backoff_limit: 0,
                active: 2,
                ready: 2,
                failed: 1,
                exp_failed: 3,
                exp_conditions: bl("Failed"),
                patches: 3,
                deletions: 2,
                ..base.clone()
            },
        ),
        (
            "indexed job repeated completed index",
            Row {
                parallelism: 2,
                completions: 3,
                indexed: true,
                with_indexes: vec![("0", "Succeeded"), ("1", "Succeeded"), ("1", "Succeeded")],
                creations: 1,
                exp_active: 1,
                exp_succeeded: 2,
                exp_completed: "0,1",
                exp_created_indexes: vec!["2"],
                patches: 3,
                ..base.clone()
            },
        ),
        (
            "indexed job some running and completed pods",
            Row {
                parallelism: 8,
                completions: 20,
                indexed: true,
                with_indexes: vec![
                    ("0", "Running"),
                    ("2", "Succeeded"),
                    ("3", "Pending"),
                    ("4", "Succeeded"),
                    ("5", "Succeeded"),
                    ("7", "Succeeded"),
                    ("8", "Succeeded"),
                    ("9", "Succeeded"),
                ],
                creations: 6,
                exp_active: 8,
                exp_succeeded: 6,
                exp_completed: "2,4,5,7-9",
                exp_created_indexes: vec!["1", "10", "11", "12", "13", "6"],
                patches: 6,
                ..base.clone()
            },
        ),
        (
            "indexed job some failed pods",
            Row {
                parallelism: 3,
                completions: 4,
                indexed: true,
                with_indexes: vec![("0", "Failed"), ("1", "Pending"), ("2", "Failed")],
                creations: 2,
                exp_active: 3,
                exp_failed: 2,
                exp_created_indexes: vec!["0", "2"],
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "indexed job some pods without index",
            Row {
                parallelism: 2,
                completions: 5,
                indexed: true,
                active: 1,
                succeeded: 1,
                failed: 1,
                with_indexes: vec![
                    ("invalid", "Running"),
                    ("invalid", "Succeeded"),
                    ("invalid", "Failed"),
                    ("invalid", "Pending"),
                    ("0", "Succeeded"),
                    ("1", "Running"),
                    ("2", "Running"),
                ],
                deletions: 3,
                exp_active: 2,
                exp_succeeded: 1,
                exp_failed: 0,
                exp_completed: "0",
                patches: 8,
                ..base.clone()
            },
        ),
        (
            "indexed job repeated indexes",
            Row {
                parallelism: 5,
                completions: 5,
                indexed: true,
                succeeded: 1,
                failed: 1,
                with_indexes: vec![
                    ("invalid", "Running"),
                    ("0", "Succeeded"),
                    ("1", "Running"),
                    ("2", "Running"),
                    ("2", "Pending"),
                ],
                deletions: 2,
                exp_active: 2,
                exp_succeeded: 1,
                exp_completed: "0",
                patches: 5,
                ..base.clone()
            },
        ),
        (
            "indexed job with indexes outside of range",
            Row {
                parallelism: 2,
                completions: 5,
                indexed: true,
                with_indexes: vec![
                    ("0", "Succeeded"),
                    ("5", "Running"),
                    ("6", "Succeeded"),
                    ("7", "Pending"),
                    ("8", "Failed"),
                ],
                exp_succeeded: 1,
                deletions: 2,
                exp_completed: "0",
                patches: 5,
                ..base.clone()
            },
        ),
        (
            "suspending a job with satisfied expectations",
            Row {
                suspend: true,
                parallelism: 2,
                active: 2,
                completions: 4,
                deletions: 2,
                exp_conditions: suspended.clone(),
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "suspending a job with satisfied expectations; PodReplacementPolicy enabled",
            Row {
                suspend: true,
                parallelism: 2,
                active: 2,
                completions: 4,
                prp_gate: true,
                deletions: 2,
                exp_conditions: suspended.clone(),
                patches: 2,
                exp_terminating: Some(2),
                ..base.clone()
            },
        ),
        (
            "count ready pods when suspending a job with satisfied expectations",
            Row {
                suspend: true,
                parallelism: 2,
                active: 2,
                ready: 2,
                completions: 4,
                deletions: 2,
                exp_conditions: suspended.clone(),
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "suspending a job with unsatisfied expectations",
            Row {
                suspend: true,
                parallelism: 2,
                active: 3,
                fake_expectation_at_creation: -1,
                completions: 4,
                exp_active: 3,
                ..base.clone()
            },
        ),
        (
            "count ready pods when suspending a job with unsatisfied expectations",
            Row {
                suspend: true,
                parallelism: 2,
                active: 3,
                ready: 3,
                fake_expectation_at_creation: -1,
                completions: 4,
                exp_active: 3,
                exp_ready: Some(3),
                ..base.clone()
            },
        ),
        (
            "suspending a job with unsatisfied expectations; PodReplacementPolicy enabled",
            Row {
                suspend: true,
                parallelism: 2,
                active: 3,
                fake_expectation_at_creation: -1,
                completions: 4,
                prp_gate: true,
                exp_active: 3,
                exp_terminating: Some(0),
                ..base.clone()
            },
        ),
        (
            "resuming a suspended job",
            Row {
                was_suspended: true,
                parallelism: 2,
                completions: 4,
                creations: 2,
                exp_active: 2,
                exp_conditions: vec![("Suspended", "False", "JobResumed")],
                ..base.clone()
            },
        ),
        (
            "suspending a deleted job",
            Row {
                suspend: true,
                deleting: true,
                parallelism: 2,
                active: 2,
                completions: 4,
                exp_active: 2,
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "suspending a deleted job; PodReplacementPolicy enabled",
            Row {
                suspend: true,
                deleting: true,
                parallelism: 2,
                active: 2,
                completions: 4,
                prp_gate: true,
                exp_active: 2,
                patches: 2,
                exp_terminating: Some(0),
                ..base.clone()
            },
        ),
        (
            "FailureTarget=False condition added manually is ignored",
            Row {
                parallelism: 1,
                completions: 1,
                active: 1,
                ready: 1,
                initial_status: Some((
                    1,
                    0,
                    0,
                    vec![(
                        "FailureTarget",
                        "False",
                        "ConditionAddedManually",
                        "Testing",
                    )],
                )),
                exp_active: 1,
                exp_ready: Some(1),
                exp_conditions: vec![("FailureTarget", "False", "ConditionAddedManually")],
                backoff_limit: 0,
                ..base.clone()
            },
        ),
        (
            "SuccessCriteriaMet=False condition added manually is ignored",
            Row {
                sp_gate: true,
                parallelism: 1,
                completions: 1,
                active: 1,
                ready: 1,
                initial_status: Some((
                    1,
                    0,
                    0,
                    vec![(
                        "SuccessCriteriaMet",
                        "False",
                        "ConditionAddedManually",
                        "Testing",
                    )],
                )),
                exp_active: 1,
                exp_ready: Some(1),
                exp_conditions: vec![("SuccessCriteriaMet", "False", "ConditionAddedManually")],
                backoff_limit: 0,
                ..base.clone()
            },
        ),
        (
            "backoff limit exceeded; JobManagedBy enabled",
            Row {
                mb_gate: true,
                parallelism: 2,
                completions: 3,
                backoff_limit: 0,
                indexed: true,
                with_indexes: vec![("0", "Succeeded"), ("1", "Failed"), ("2", "Running")],
                exp_succeeded: 1,
                exp_failed: 2,
                exp_completed: "0",
                exp_conditions: bl("FailureTarget"),
                patches: 3,
                deletions: 1,
                ..base.clone()
            },
        ),
    ];
    for (name, r) in rows {
        super::run(name, r);
    }
}
