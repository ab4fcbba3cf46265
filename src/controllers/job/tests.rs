//! Controller-level ports of `pkg/controller/job/job_controller_test.go`, against the simulated
//! API server: the recorded client calls stand in for upstream's fake pod control.
#![allow(clippy::type_complexity)]

use super::*;
use crate::api::batch::{JobSpec, JobStatus};
use crate::api::{Container, LabelSelector, Labels, PodCondition};
use crate::controllers::Action;
use crate::store::apiserver::ApiServer;
use crate::world::World;

fn ts(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}

struct Fixture {
    api: ApiServer,
    gates: FeatureGates,
    queue: WorkQueue,
    world: World,
    actions: Vec<Action>,
    seq: u32,
}

impl Fixture {
    /// The gates of upstream's test rows: the batch gates under test off unless a row turns
    /// them on (JobBackoffLimitPerIndex and PodIndexLabel keep their defaults).
    fn new(pod_replacement_policy: bool, success_policy: bool, managed_by: bool) -> Self {
        let mut gates = FeatureGates::default();
        gates.set("JobPodReplacementPolicy", pod_replacement_policy);
        gates.set("JobSuccessPolicy", success_policy);
        gates.set("JobManagedBy", managed_by);
        // Upstream's fake client validates nothing; the simulated API server keeps the 1.35
        // defaults but follows the row's JobManagedBy, so that a row emulating a release where
        // the controller writes Failed / Complete directly (no FailureTarget /
        // SuccessCriteriaMet first) is not refused by the JobManagedBy status rules.
        let mut api_gates = FeatureGates::default();
        api_gates.set("JobManagedBy", managed_by);
        Fixture {
            api: ApiServer::with_gates(3, ts("2025-01-01T00:00:00Z"), api_gates),
            gates,
            queue: WorkQueue::new(),
            world: World::default(),
            actions: vec![],
            seq: 0,
        }
    }

    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component: COMPONENT,
        }
    }

    /// `newJob(parallelism, completions, backoffLimit, completionMode)`: a manual `foo=bar`
    /// selector; `completions < 0` means none.
    fn job(
        &mut self,
        parallelism: i32,
        completions: i32,
        backoff_limit: i32,
        indexed: bool,
    ) -> Job {
        let labels: Labels = [("foo".to_string(), "bar".to_string())].into();
        Job {
            metadata: crate::api::ObjectMeta {
                name: "foobar".into(),
                namespace: "default".into(),
                uid: "job-uid".into(),
                ..Default::default()
            },
            spec: (JobSpec {
                parallelism: Some(parallelism),
                completions: (completions >= 0).then_some(completions),
                backoff_limit: Some(backoff_limit),
                completion_mode: Some(if indexed { "Indexed" } else { "NonIndexed" }.into()),
                manual_selector: Some(true),
                selector: Some(LabelSelector::from_labels(&labels)),
                template: std::sync::Arc::new(crate::api::PodTemplateSpec {
                    metadata: crate::api::ObjectMeta {
                        labels: labels.into(),
                        ..Default::default()
                    },
                    spec: std::sync::Arc::new(crate::api::PodSpec {
                        restart_policy: "Never".into(),
                        containers: vec![Container {
                            name: "c".into(),
                            image: "foo/bar".into(),
                            ..Default::default()
                        }],
                        ..Default::default()
                    }),
                }),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        }
    }

    fn load_job(&mut self, j: Job) {
        self.api.load(j.into_object()).expect("job loads");
    }

    /// A pod of the Job with the tracking finalizer, in a phase, optionally ready, terminating or
    /// carrying an index.
    fn pod(&mut self, job: &Job, phase: &str, ready: bool, terminating: bool, index: Option<&str>) {
        self.seq += 1;
        let mut p = crate::controllers::controller_utils::get_pod_from_template(
            &job.spec.template,
            &job.metadata,
            Some(&new_controller_ref(&job.metadata, "batch/v1", "Job")),
        );
        p.metadata.name = format!("pod-{:03}", self.seq);
        p.metadata.generate_name.clear();
        p.metadata.uid = format!("pod-uid-{:03}", self.seq);
        p.metadata.finalizers = vec![JOB_TRACKING_FINALIZER.into()].into();
        // Upstream's fixture pods have a zero creation time: their failures are long past.
        p.metadata.creation_timestamp = Some(ts("2024-01-01T00:00:00Z"));
        p.spec_mut().node_name = "node-1".into();
        p.status.phase = phase.into();
        if ready {
            p.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: "True".into(),
                ..Default::default()
            });
        }
        if terminating {
            p.metadata.deletion_timestamp = Some(self.api.now);
            p.metadata.deletion_grace_period_seconds = Some(30);
        }
        if let Some(ix) = index {
            p.metadata
                .annotations
                .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.into());
        }
        self.api.load(p.into_object()).expect("pod loads");
    }

    fn count(&self, verb: &str, kind: &str) -> usize {
        self.actions
            .iter()
            .filter(|a| a.verb == verb && a.kind == kind)
            .count()
    }

    fn job_status(&self) -> JobStatus {
        self.api
            .store
            .get::<Job>("default", "foobar")
            .expect("job")
            .status
            .clone()
            .into_inner()
    }
}

#[derive(Default, Clone)]
struct Row {
    parallelism: i32,
    completions: i32,
    backoff_limit: i32,
    deleting: bool,
    indexed: bool,
    pod_replacement_policy: Option<&'static str>,
    pod_failure_policy: bool,
    backoff_record: Option<(i32, bool)>,
    pending: usize,
    active: usize,
    ready: usize,
    succeeded: usize,
    failed: usize,
    terminating: usize,
    with_indexes: Vec<(&'static str, &'static str)>,
    fake_expectation_at_creation: i64,
    // expectations
    creations: usize,
    deletions: usize,
    exp_active: i32,
    exp_ready: Option<i32>,
    exp_succeeded: i32,
    exp_completed: &'static str,
    exp_failed: i32,
    exp_terminating: Option<i32>,
    exp_conditions: Vec<(&'static str, &'static str, &'static str)>,
    exp_created_indexes: Vec<&'static str>,
    patches: usize,
    // gates
    prp_gate: bool,
    // Added with the later rows of the upstream table.
    suspend: bool,
    was_suspended: bool,
    /// `initialStatus`: active, succeeded, failed and conditions (type, status, reason, message).
    initial_status: Option<(
        i32,
        i32,
        i32,
        Vec<(&'static str, &'static str, &'static str, &'static str)>,
    )>,
    sp_gate: bool,
    mb_gate: bool,
}

fn run(name: &str, r: Row) {
    let mut f = Fixture::new(r.prp_gate, r.sp_gate, r.mb_gate);
    let mut job = f.job(r.parallelism, r.completions, r.backoff_limit, r.indexed);
    job.spec.suspend = Some(r.suspend);
    if let Some((active, succeeded, failed, conds)) = &r.initial_status {
        job.status.start_time = Some(f.api.now);
        job.status.active = *active;
        job.status.succeeded = *succeeded;
        job.status.failed = *failed;
        for (t, st, reason, msg) in conds {
            job.status
                .conditions
                .push(new_condition(t, st, reason, msg, f.api.now));
        }
    }
    if r.was_suspended {
        job.status.conditions.push(new_condition(
            "Suspended",
            "True",
            "JobSuspended",
            "Job suspended",
            f.api.now,
        ));
    }
    job.spec.pod_replacement_policy = r.pod_replacement_policy.map(String::from);
    if r.pod_failure_policy {
        job.spec.pod_failure_policy = Some(crate::api::batch::PodFailurePolicy::default());
    }
    if r.deleting {
        job.metadata.deletion_timestamp = Some(f.api.now);
        job.metadata.finalizers = vec!["kubeplay.dev/test".into()].into();
    }
    let mut ctl = JobController::new();
    let key = "default/foobar";
    if let Some((n, recent)) = r.backoff_record {
        ctl.backoff_store.update_backoff_record(BackoffRecord {
            key: key.into(),
            failures_after_last_success: n,
            last_failure_time: Some(if recent { f.api.now } else { Time::ZERO }),
        });
        job.status.start_time = Some(f.api.now);
    }
    f.load_job(job.clone());
    let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    for _ in 0..r.pending {
        f.pod(&job, "Pending", false, false, None);
    }
    for i in 0..r.active {
        f.pod(&job, "Running", i < r.ready, false, None);
    }
    for _ in 0..r.succeeded {
        f.pod(&job, "Succeeded", false, false, None);
    }
    for _ in 0..r.failed {
        f.pod(&job, "Failed", false, false, None);
    }
    for _ in 0..r.terminating {
        f.pod(&job, "Running", false, true, None);
    }
    for (ix, phase) in &r.with_indexes {
        f.pod(&job, phase, false, false, Some(ix));
    }
    if r.fake_expectation_at_creation > 0 {
        let now = f.api.now;
        ctl.expectations
            .expect_creations(key, r.fake_expectation_at_creation, now);
    } else if r.fake_expectation_at_creation < 0 {
        let now = f.api.now;
        ctl.expectations
            .expect_deletions(key, -r.fake_expectation_at_creation, now);
    }
    f.api.store.take_changes();
    let mut ctx = f.ctx();
    let _ = ctl.sync_job(key, &mut ctx);
    assert_eq!(f.count("create", "Pod"), r.creations, "{name}: creations");
    assert_eq!(f.count("delete", "Pod"), r.deletions, "{name}: deletions");
    assert_eq!(f.count("update", "Pod"), r.patches, "{name}: pod patches");
    let s = f.job_status();
    assert_eq!(s.active, r.exp_active, "{name}: active");
    assert_eq!(s.ready, r.exp_ready, "{name}: ready");
    assert_eq!(s.succeeded, r.exp_succeeded, "{name}: succeeded");
    assert_eq!(
        s.completed_indexes, r.exp_completed,
        "{name}: completedIndexes"
    );
    assert_eq!(s.failed, r.exp_failed, "{name}: failed");
    assert_eq!(s.terminating, r.exp_terminating, "{name}: terminating");
    assert_eq!(s.start_time.is_none(), r.suspend, "{name}: startTime");
    let conds: Vec<(&str, &str, &str)> = s
        .conditions
        .iter()
        .map(|c| (c.type_.as_str(), c.status.as_str(), c.reason.as_str()))
        .collect();
    assert_eq!(conds, r.exp_conditions, "{name}: conditions");
    if !r.exp_created_indexes.is_empty() {
        let mut created: Vec<String> = f
            .api
            .store
            .list::<Pod>(Some("default"))
            .filter(|p| p.metadata.name.starts_with("foobar-"))
            .map(|p| p.metadata.annotations[JOB_COMPLETION_INDEX_ANNOTATION].clone())
            .collect();
        created.sort();
        assert_eq!(created, r.exp_created_indexes, "{name}: created indexes");
    }
}

// Port of TestControllerSyncJob (rows that do not need an injected pod-control error, which are
// in `tests/fault_tests.rs`, or a pod limit). Upstream's rows run with JobPodReplacementPolicy, JobSuccessPolicy and JobManagedBy
// off unless the row turns one on.
#[test]
fn controller_sync_job() {
    let base = Row {
        backoff_limit: 6,
        exp_ready: Some(0),
        ..Default::default()
    };
    let rows: Vec<(&str, Row)> = vec![
        (
            "job start",
            Row {
                parallelism: 2,
                completions: 5,
                creations: 2,
                exp_active: 2,
                ..base.clone()
            },
        ),
        (
            "WQ job start",
            Row {
                parallelism: 2,
                completions: -1,
                creations: 2,
                exp_active: 2,
                ..base.clone()
            },
        ),
        (
            "pending pods",
            Row {
                parallelism: 2,
                completions: 5,
                pending: 2,
                exp_active: 2,
                ..base.clone()
            },
        ),
        (
            "correct # of pods",
            Row {
                parallelism: 3,
                completions: 5,
                active: 3,
                ready: 2,
                exp_active: 3,
                exp_ready: Some(2),
                ..base.clone()
            },
        ),
        (
            "WQ job: correct # of pods",
            Row {
                parallelism: 2,
                completions: -1,
                active: 2,
                exp_active: 2,
                ..base.clone()
            },
        ),
        (
            "too few active pods",
            Row {
                parallelism: 2,
                completions: 5,
                active: 1,
                succeeded: 1,
                creations: 1,
                exp_active: 2,
                exp_succeeded: 1,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "WQ job: recreate pods when failed",
            Row {
                parallelism: 1,
                completions: -1,
                active: 1,
                failed: 1,
                pod_replacement_policy: Some("Failed"),
                prp_gate: true,
                terminating: 1,
                exp_terminating: Some(1),
                patches: 1,
                exp_failed: 1,
                exp_active: 1,
                ..base.clone()
            },
        ),
        (
            "WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy",
            Row {
                parallelism: 1,
                completions: 1,
                active: 1,
                failed: 1,
                prp_gate: true,
                exp_terminating: Some(1),
                terminating: 1,
                exp_active: 1,
                patches: 2,
                exp_failed: 2,
                ..base.clone()
            },
        ),
        (
            "WQ job: recreate pods when terminating or failed",
            Row {
                parallelism: 1,
                completions: -1,
                active: 1,
                failed: 1,
                pod_replacement_policy: Some("TerminatingOrFailed"),
                prp_gate: true,
                terminating: 1,
                exp_terminating: Some(1),
                exp_active: 1,
                patches: 2,
                exp_failed: 2,
                ..base.clone()
            },
        ),
        (
            "more terminating pods than parallelism",
            Row {
                parallelism: 1,
                completions: 1,
                active: 2,
                terminating: 4,
                pod_replacement_policy: Some("Failed"),
                prp_gate: true,
                exp_terminating: Some(5),
                exp_active: 1,
                deletions: 1,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "more terminating pods than parallelism; PodFailurePolicy used",
            Row {
                parallelism: 1,
                completions: 1,
                active: 2,
                terminating: 4,
                pod_failure_policy: true,
                pod_replacement_policy: Some("Failed"),
                exp_terminating: None,
                exp_active: 1,
                deletions: 1,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "too few active pods and active back-off",
            Row {
                parallelism: 1,
                completions: 1,
                backoff_record: Some((1, true)),
                ..base.clone()
            },
        ),
        (
            "too few active pods and no back-offs",
            Row {
                parallelism: 1,
                completions: 1,
                backoff_record: Some((0, true)),
                creations: 1,
                exp_active: 1,
                ..base.clone()
            },
        ),
        (
            "too few active pods with a dynamic job",
            Row {
                parallelism: 2,
                completions: -1,
                active: 1,
                creations: 1,
                exp_active: 2,
                ..base.clone()
            },
        ),
        (
            "too many active pods",
            Row {
                parallelism: 2,
                completions: 5,
                active: 3,
                deletions: 1,
                exp_active: 2,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "too many active pods; PodReplacementPolicy enabled",
            Row {
                parallelism: 2,
                completions: 5,
                active: 3,
                prp_gate: true,
                deletions: 1,
                exp_active: 2,
                patches: 1,
                exp_terminating: Some(1),
                ..base.clone()
            },
        ),
        (
            "count ready pods when too many active pods",
            Row {
                parallelism: 2,
                completions: 5,
                active: 3,
                ready: 3,
                deletions: 1,
                exp_active: 2,
                patches: 1,
                exp_ready: Some(2),
                ..base.clone()
            },
        ),
        (
            "failed + succeed pods: reset backoff delay",
            Row {
                parallelism: 2,
                completions: 5,
                active: 1,
                succeeded: 1,
                failed: 1,
                creations: 1,
                exp_active: 2,
                exp_succeeded: 1,
                exp_failed: 1,
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "new failed pod",
            Row {
                parallelism: 2,
                completions: 5,
                active: 1,
                failed: 1,
                creations: 1,
                exp_active: 2,
                exp_failed: 1,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "job finish",
            Row {
                parallelism: 2,
                completions: 5,
                succeeded: 5,
                exp_succeeded: 5,
                exp_conditions: vec![("Complete", "True", "")],
                patches: 5,
                ..base.clone()
            },
        ),
        (
            "WQ job finishing",
            Row {
                parallelism: 2,
                completions: -1,
                active: 1,
                succeeded: 1,
                exp_active: 1,
                exp_succeeded: 1,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "WQ job all finished",
            Row {
                parallelism: 2,
                completions: -1,
                succeeded: 2,
                exp_succeeded: 2,
                exp_conditions: vec![("Complete", "True", "")],
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "WQ job all finished despite one failure",
            Row {
                parallelism: 2,
                completions: -1,
                succeeded: 1,
                failed: 1,
                exp_succeeded: 1,
                exp_failed: 1,
                exp_conditions: vec![("Complete", "True", "")],
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "more active pods than parallelism",
            Row {
                parallelism: 2,
                completions: 5,
                active: 10,
                deletions: 8,
                exp_active: 2,
                patches: 8,
                ..base.clone()
            },
        ),
        (
            "more active pods than remaining completions",
            Row {
                parallelism: 3,
                completions: 4,
                active: 3,
                succeeded: 2,
                deletions: 1,
                exp_active: 2,
                exp_succeeded: 2,
                patches: 3,
                ..base.clone()
            },
        ),
        (
            "status change",
            Row {
                parallelism: 2,
                completions: 5,
                active: 2,
                succeeded: 2,
                exp_active: 2,
                exp_succeeded: 2,
                patches: 2,
                ..base.clone()
            },
        ),
        (
            "deleting job",
            Row {
                parallelism: 2,
                completions: 5,
                deleting: true,
                pending: 1,
                active: 1,
                succeeded: 1,
                exp_active: 2,
                exp_succeeded: 1,
                patches: 3,
                ..base.clone()
            },
        ),
        (
            "too many job failures",
            Row {
                parallelism: 2,
                completions: 5,
                backoff_limit: 0,
                deleting: true,
                failed: 1,
                exp_failed: 1,
                exp_conditions: vec![("Failed", "True", "BackoffLimitExceeded")],
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "job failures, unsatisfied expectations",
            Row {
                parallelism: 2,
                completions: 5,
                backoff_limit: 0,
                deleting: true,
                failed: 1,
                fake_expectation_at_creation: 1,
                exp_failed: 1,
                patches: 1,
                ..base.clone()
            },
        ),
        (
            "indexed job start",
            Row {
                parallelism: 2,
                completions: 5,
                indexed: true,
                creations: 2,
                exp_active: 2,
                exp_created_indexes: vec!["0", "1"],
                ..base.clone()
            },
        ),
        (
            "indexed job completed",
            Row {
                parallelism: 2,
                completions: 3,
                indexed: true,
                with_indexes: vec![
                    ("0", "Succeeded"),
                    ("1", "Failed"),
                    ("1", "Succeeded"),
                    ("2", "Succeeded"),
                ],
                exp_succeeded: 3,
                exp_failed: 1,
                exp_completed: "0-2",
                exp_conditions: vec![("Complete", "True", "")],
                patches: 4,
                ..base.clone()
            },
        ),
    ];
    for (name, r) in rows {
        run(name, r);
    }
}

/// The 1.34 defaults (JobPodReplacementPolicy, JobManagedBy, JobSuccessPolicy on): a finished
/// Job first gets the interim condition; `Complete` / `Failed` follow in the same sync only when
/// no pod is left terminating.
#[test]
fn delayed_terminal_conditions_with_default_gates() {
    let mut f = Fixture::new(true, true, true);
    let job = f.job(2, 2, 6, false);
    f.load_job(job);
    let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    f.pod(&job, "Succeeded", false, false, None);
    f.pod(&job, "Succeeded", false, false, None);
    let mut ctl = JobController::new();
    let mut ctx = f.ctx();
    ctl.sync_job("default/foobar", &mut ctx).unwrap();
    let s = f.job_status();
    let conds: Vec<(&str, &str, &str, &str)> = s
        .conditions
        .iter()
        .map(|c| {
            (
                c.type_.as_str(),
                c.status.as_str(),
                c.reason.as_str(),
                c.message.as_str(),
            )
        })
        .collect();
    assert_eq!(
        conds,
        [
            (
                "SuccessCriteriaMet",
                "True",
                "CompletionsReached",
                "Reached expected number of succeeded pods"
            ),
            (
                "Complete",
                "True",
                "CompletionsReached",
                "Reached expected number of succeeded pods"
            ),
        ]
    );
    assert_eq!(s.completion_time, Some(f.api.now));
    assert_eq!(s.terminating, Some(0));
    assert_eq!(s.uncounted_terminated_pods, Some(Default::default()));
    let ev: Vec<(&str, &str)> = f
        .api
        .events
        .iter()
        .map(|e| (e.reason.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(ev, [("Completed", "Job completed")]);

    // A failing Job with a running pod: FailureTarget now, the pod is deleted; Failed waits for
    // the pod to be gone (it is terminating).
    let mut f = Fixture::new(true, true, true);
    let job = f.job(2, 2, 0, false);
    f.load_job(job);
    let job = f.api.store.get::<Job>("default", "foobar").unwrap().clone();
    f.pod(&job, "Failed", false, false, None);
    f.pod(&job, "Running", false, false, None);
    let mut ctl = JobController::new();
    let mut ctx = f.ctx();
    ctl.sync_job("default/foobar", &mut ctx).unwrap();
    let s = f.job_status();
    let types: Vec<&str> = s.conditions.iter().map(|c| c.type_.as_str()).collect();
    assert_eq!(types, ["FailureTarget"]);
    assert_eq!(s.conditions[0].reason, "BackoffLimitExceeded");
    assert_eq!(s.terminating, Some(1));
    assert_eq!(f.count("delete", "Pod"), 1);
}

/// activeDeadlineSeconds: past the deadline the Job fails with DeadlineExceeded; before it, the
/// key is requeued for the deadline; a suspended Job never passes it.
#[test]
fn active_deadline() {
    let mut job = Job::default();
    job.spec.active_deadline_seconds = Some(10);
    job.status.start_time = Some(ts("2025-01-01T00:00:00Z"));
    assert!(!past_active_deadline(&job, ts("2025-01-01T00:00:09Z")));
    assert!(past_active_deadline(&job, ts("2025-01-01T00:00:10Z")));
    job.spec.suspend = Some(true);
    assert!(!past_active_deadline(&job, ts("2025-01-01T00:01:00Z")));
}

/// `pastBackoffLimitOnFailure` (restartPolicy OnFailure): restarts of running and pending pods.
#[test]
fn past_backoff_limit_on_failure_counts_restarts() {
    let mut job = Job::default();
    job.spec.template_mut().spec_mut().restart_policy = "OnFailure".into();
    job.spec.backoff_limit = Some(2);
    let pod = |phase: &str, restarts: i32| {
        let mut p = Pod::default();
        p.status.phase = phase.into();
        p.status.container_statuses = vec![crate::api::ContainerStatus {
            restart_count: restarts,
            ..Default::default()
        }];
        p
    };
    let a = pod("Running", 1);
    let b = pod("Pending", 1);
    let c = pod("Failed", 5);
    assert!(past_backoff_limit_on_failure(&job, &[&a, &b]));
    assert!(!past_backoff_limit_on_failure(&job, &[&a, &c]));
    job.spec.backoff_limit = Some(0);
    assert!(past_backoff_limit_on_failure(&job, &[&a]));
    job.spec.template_mut().spec_mut().restart_policy = "Never".into();
    assert!(!past_backoff_limit_on_failure(&job, &[&a, &b]));
}

/// `ensureJobConditionStatus`: a False condition is never added, only updated.
#[test]
fn ensure_job_condition_status_rules() {
    let now = ts("2025-01-01T00:00:00Z");
    let mut list = vec![];
    assert!(!ensure_job_condition_status(
        &mut list,
        "Suspended",
        "False",
        "JobResumed",
        "Job resumed",
        now
    ));
    assert!(list.is_empty());
    assert!(ensure_job_condition_status(
        &mut list,
        "Suspended",
        "True",
        "JobSuspended",
        "Job suspended",
        now
    ));
    assert!(!ensure_job_condition_status(
        &mut list,
        "Suspended",
        "True",
        "JobSuspended",
        "Job suspended",
        now
    ));
    assert!(ensure_job_condition_status(
        &mut list,
        "Suspended",
        "False",
        "JobResumed",
        "Job resumed",
        now
    ));
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].status, "False");
}

mod fault_tests;
mod handlers;
mod lookups;
mod tables;
#[cfg(test)]
mod upstream_tests3;
#[cfg(test)]
mod upstream_tests4;

// Port of TestEnsureJobConditions (pkg/controller/job/job_controller_test.go): a condition is
// replaced when its status, reason or message differ, appended when new unless it would be
// False, and left alone (no update) when it already says the same.
#[test]
fn test_ensure_job_conditions() {
    let t0 = ts("2025-01-01T00:00:00Z");
    let t1 = ts("2025-01-01T00:01:00Z");
    let c = |status: &str, reason: &str| new_condition("Suspended", status, reason, "", t0);
    // (name, have, want status, want reason, expected list, expected update)
    let rows: Vec<(&str, Vec<JobCondition>, &str, &str, Vec<JobCondition>, bool)> = vec![
        (
            "append true condition",
            vec![],
            "True",
            "foo",
            vec![c("True", "foo")],
            true,
        ),
        (
            "append false condition",
            vec![],
            "False",
            "foo",
            vec![],
            false,
        ),
        (
            "update true condition reason",
            vec![c("True", "foo")],
            "True",
            "bar",
            vec![c("True", "bar")],
            true,
        ),
        (
            "update true condition status",
            vec![c("True", "foo")],
            "False",
            "foo",
            vec![c("False", "foo")],
            true,
        ),
        (
            "update false condition status",
            vec![c("False", "foo")],
            "True",
            "foo",
            vec![c("True", "foo")],
            true,
        ),
        (
            "condition already exists",
            vec![c("True", "foo")],
            "True",
            "foo",
            vec![c("True", "foo")],
            false,
        ),
    ];
    for (name, have, status, reason, want, want_update) in rows {
        let mut got = have.clone();
        let updated = ensure_job_condition_status(&mut got, "Suspended", status, reason, "", t1);
        assert_eq!(updated, want_update, "{name}: isUpdated");
        assert_eq!(got.len(), want.len(), "{name}: list length");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(
                (&g.type_, &g.status, &g.reason, &g.message),
                (&w.type_, &w.status, &w.reason, &w.message),
                "{name}"
            );
            // A changed condition is stamped with the sync's time; an unchanged one keeps its own.
            let want_time = if want_update { t1 } else { t0 };
            assert_eq!(
                g.last_transition_time,
                Some(want_time),
                "{name}: transition time"
            );
        }
    }
}
