//! Ports of upstream's Job controller integration tests (test/integration/job/job_test.go) on
//! a simulated cluster: the API server and the Job controller (plus the garbage collector where
//! a test needs it), with no scheduler and no kubelet, as upstream's integration tests run.
//! Pod outcomes are written through the API server's status update, as upstream's helpers
//! (`setJobPodsPhase`, `setJobPhaseForIndex`, `updateJobPodsStatus`) do.
//!
//! Upstream shortens the pod failure back-off to 100 ms (`fastPodFailureBackoff`); here virtual
//! time simply runs past the default 10 s back-off. Metric assertions (`validateCounterMetric`,
//! `validateTerminatedPodsTrackingFinalizerMetric`) are not modelled and are left out, as are
//! the controller-restart rows (they need a second controller over a live API server).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::type_complexity)]

use kubeplay::api::batch::{
    Job, JOB_COMPLETION_INDEX_ANNOTATION, JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_TRACKING_FINALIZER,
};
use kubeplay::api::{Duration, Object, Pod, PodStatus, Time};
use kubeplay::controllers::garbagecollector::GarbageCollector;
use kubeplay::controllers::job::new_job_controller;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;
use kubeplay::world::World;
use serde_json::{json, Value};

const NS: &str = "ns";

/// `setup` + `startJobControllerAndWaitForCaches`: an API server with the Job controller (and
/// the garbage collector, as kube-controller-manager would run next to it).
fn setup(gates: FeatureGates) -> Simulation {
    let mut sim = Simulation::new(
        7,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        gates,
        World::default(),
    );
    sim.add_loop(new_job_controller());
    sim.add_loop(Box::new(GarbageCollector::new()));
    sim
}

fn default_sim() -> Simulation {
    setup(FeatureGates::default())
}

fn gates(on: &[(&str, bool)]) -> FeatureGates {
    let mut g = FeatureGates::default();
    for (n, v) in on {
        g.set(n, *v);
    }
    g
}

/// Lets the controllers run: long enough for the batched sync and the default pod failure
/// back-off (10 s, doubling) of the few failures a test makes.
fn wait(sim: &mut Simulation) {
    sim.run_for(Duration::from_secs(90)).unwrap();
}

/// `wait.PollUntilContextTimeout` over virtual time: `check` holds now, or after one of the next
/// scheduled events within two minutes (upstream polls until the state matches).
fn poll(sim: &mut Simulation, what: &str, check: impl Fn(&Simulation) -> Result<(), String>) {
    let deadline = sim.now() + Duration::from_secs(120);
    loop {
        sim.settle().unwrap();
        let err = match check(sim) {
            Ok(()) => return,
            Err(e) => e,
        };
        match sim.next_event_time() {
            Some(t) if t <= deadline => {
                sim.next_event().unwrap();
            }
            _ => panic!("{what}: {err}"),
        }
    }
}

/// `createJobWithDefaults`: name `test-job`, a `foo`/`bar` container when the template has
/// none, and `restartPolicy: Never` when unset.
fn create_job(sim: &mut Simulation, spec: Value) -> Job {
    create_named_job(sim, "test-job", json!({}), spec)
}

fn create_named_job(sim: &mut Simulation, name: &str, meta: Value, mut spec: Value) -> Job {
    let tmpl = spec
        .as_object_mut()
        .unwrap()
        .entry("template")
        .or_insert_with(|| json!({}));
    let tspec = tmpl
        .as_object_mut()
        .unwrap()
        .entry("spec")
        .or_insert_with(|| json!({}));
    let ts = tspec.as_object_mut().unwrap();
    if !ts.contains_key("containers") {
        ts.insert(
            "containers".into(),
            json!([{"name": "foo", "image": "bar"}]),
        );
    }
    ts.entry("restartPolicy").or_insert_with(|| json!("Never"));
    let mut metadata = json!({"name": name, "namespace": NS});
    if let Value::Object(m) = meta {
        for (k, v) in m {
            metadata[k] = v;
        }
    }
    let o = sim
        .api
        .create(
            Object::from_value(json!({
                "apiVersion": "batch/v1", "kind": "Job",
                "metadata": metadata,
                "spec": spec,
            }))
            .unwrap(),
        )
        .expect("create job");
    let Object::Job(j) = o else { unreachable!() };
    sim.settle().unwrap();
    j
}

fn get_job(sim: &Simulation, name: &str) -> Job {
    sim.api
        .store
        .get::<Job>(NS, name)
        .unwrap_or_else(|| panic!("job {name}"))
        .clone()
}

fn job_pods(sim: &Simulation, job: &Job) -> Vec<Pod> {
    sim.api
        .store
        .list::<Pod>(Some(NS))
        .filter(|p| {
            p.metadata
                .owner_references
                .iter()
                .any(|r| r.uid == job.metadata.uid)
        })
        .cloned()
        .collect()
}

/// Upstream's "active" pods in its validators: controlled by the Job, phase Pending or Running
/// (being deleted or not).
fn is_active(p: &Pod) -> bool {
    p.status.phase == "Pending" || p.status.phase == "Running" || p.status.phase.is_empty()
}

fn has_tracking_finalizer(p: &Pod) -> bool {
    p.metadata
        .finalizers
        .iter()
        .any(|f| f == JOB_TRACKING_FINALIZER)
}

/// `startJobControllerAndWaitForCaches` after a `cancel()`: kube-controller-manager restarts,
/// forgetting its in-memory state (expectations, back-off records) and re-listing.
fn restart_controller(sim: &mut Simulation) {
    sim.set_controller_manager(false);
    sim.set_controller_manager(true);
    sim.settle().unwrap();
}

fn pod_index(p: &Pod) -> Option<i32> {
    p.metadata
        .annotations
        .get(JOB_COMPLETION_INDEX_ANNOTATION)
        .and_then(|s| s.parse().ok())
}

#[derive(Debug, Default, Clone, PartialEq)]
struct PodsByStatus {
    active: i32,
    ready: Option<i32>,
    failed: i32,
    succeeded: i32,
    terminating: Option<i32>,
}

fn by_status(active: i32, succeeded: i32, failed: i32, terminating: Option<i32>) -> PodsByStatus {
    PodsByStatus {
        active,
        ready: Some(0),
        failed,
        succeeded,
        terminating,
    }
}

/// `validateJobPodsStatus`: the Job's counters, and as many active pods as it reports.
fn validate_job_pods_status(sim: &mut Simulation, job: &Job, want: PodsByStatus) {
    let name = job.metadata.name.clone();
    let job = job.clone();
    poll(sim, "validateJobPodsStatus", move |sim| {
        let j = get_job(sim, &name);
        let got = PodsByStatus {
            active: j.status.active,
            ready: j.status.ready,
            failed: j.status.failed,
            succeeded: j.status.succeeded,
            terminating: j.status.terminating,
        };
        if got != want {
            return Err(format!("got {got:?}, want {want:?}"));
        }
        let active: Vec<Pod> = job_pods(sim, &job).into_iter().filter(is_active).collect();
        if active.len() as i32 != want.active {
            return Err(format!(
                "{} active pods, want {}",
                active.len(),
                want.active
            ));
        }
        // "Active pod %s doesn't have tracking finalizer".
        if let Some(p) = active.iter().find(|p| !has_tracking_finalizer(p)) {
            return Err(format!(
                "active pod {} has no tracking finalizer",
                p.metadata.name
            ));
        }
        Ok(())
    });
}

/// `validateIndexedJobPods`: the active pods' indexes and the Job's completed/failed indexes.
fn validate_indexed_job_pods(
    sim: &mut Simulation,
    job: &Job,
    active: &[i32],
    completed: &str,
    failed: Option<&str>,
) {
    let job = job.clone();
    poll(sim, "validateIndexedJobPods", move |sim| {
        let j = get_job(sim, &job.metadata.name);
        let active_pods: Vec<Pod> = job_pods(sim, &job).into_iter().filter(is_active).collect();
        for p in &active_pods {
            // The index label matches the annotation; the hostname is `<job>-<index>`.
            let label = p
                .metadata
                .labels
                .get(JOB_COMPLETION_INDEX_ANNOTATION)
                .and_then(|s| s.parse::<i32>().ok());
            if label != pod_index(p) {
                return Err(format!("pod {}: label index {label:?}", p.metadata.name));
            }
            let want_host = format!("{}-{}", job.metadata.name, label.unwrap_or(-1));
            if p.spec.hostname != want_host {
                return Err(format!(
                    "pod {}: hostname {}",
                    p.metadata.name, p.spec.hostname
                ));
            }
        }
        let mut got: Vec<i32> = active_pods.iter().filter_map(pod_index).collect();
        got.sort();
        let g = (
            j.status.completed_indexes.as_str(),
            j.status.failed_indexes.as_deref(),
            got.as_slice(),
        );
        if g != (completed, failed, active) {
            return Err(format!("got {g:?}, want {:?}", (completed, failed, active)));
        }
        Ok(())
    });
}

fn update_pod_status(sim: &mut Simulation, mut p: Pod, status: Value) {
    p.status = serde_json::from_value::<PodStatus>(status)
        .expect("pod status")
        .into();
    sim.api
        .update_status(Object::Pod(p))
        .expect("update status");
}

/// `updateJobPodsStatus`/`setJobPodsPhase`: the first `cnt` active pods (by name) get `status`.
fn set_job_pods_status(sim: &mut Simulation, job: &Job, status: Value, cnt: usize) {
    let mut pods: Vec<Pod> = job_pods(sim, job).into_iter().filter(is_active).collect();
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    assert!(pods.len() >= cnt, "only {} active pods", pods.len());
    for p in pods.into_iter().take(cnt) {
        update_pod_status(sim, p, status.clone());
    }
    sim.settle().unwrap();
}

/// The status `setJobPodsPhase`/`setJobPhaseForIndex` write: the phase, and for a terminal one
/// a terminated container finished now.
fn phase_status(sim: &Simulation, phase: &str) -> Value {
    if phase == "Failed" || phase == "Succeeded" {
        json!({"phase": phase, "containerStatuses": [{"name": "", "image": "", "imageID": "",
            "ready": false, "restartCount": 0,
            "state": {"terminated": {"exitCode": 0, "finishedAt": sim.now()}}}]})
    } else {
        json!({"phase": phase})
    }
}

fn set_job_pods_phase(sim: &mut Simulation, job: &Job, phase: &str, cnt: usize) {
    let st = phase_status(sim, phase);
    set_job_pods_status(sim, job, st, cnt);
}

/// `setJobPhaseForIndex`: the active pod of index `ix` gets `phase`.
fn set_job_phase_for_index(sim: &mut Simulation, job: &Job, phase: &str, ix: i32) {
    let st = phase_status(sim, phase);
    set_job_status_for_index(sim, job, st, ix);
}

fn set_job_status_for_index(sim: &mut Simulation, job: &Job, status: Value, ix: i32) {
    let p = active_pod_for_index(sim, job, ix);
    update_pod_status(sim, p, status);
    sim.settle().unwrap();
}

fn active_pod_for_index(sim: &Simulation, job: &Job, ix: i32) -> Pod {
    job_pods(sim, job)
        .into_iter()
        .find(|p| is_active(p) && pod_index(p) == Some(ix))
        .unwrap_or_else(|| panic!("no active pod for index {ix}"))
}

fn index_failure_count(p: &Pod) -> i32 {
    p.metadata
        .annotations
        .get(JOB_INDEX_FAILURE_COUNT_ANNOTATION)
        .map(|s| s.parse().unwrap())
        .unwrap_or(0)
}

/// `validateJobCondition`: the Job has a True condition of the type.
fn has_condition(j: &Job, t: &str) -> bool {
    j.status
        .conditions
        .iter()
        .any(|c| c.type_ == t && c.status == "True")
}

fn validate_job_condition(sim: &mut Simulation, job: &Job, t: &str) {
    let name = job.metadata.name.clone();
    poll(sim, "validateJobCondition", move |sim| {
        let j = get_job(sim, &name);
        if has_condition(&j, t) {
            Ok(())
        } else {
            Err(format!("want {t}: {:?}", j.status.conditions))
        }
    });
}

/// `validateJobComplete`/`validateJobFailed`.
fn validate_job_complete(sim: &mut Simulation, job: &Job) {
    validate_job_condition(sim, job, "Complete");
    let j = get_job(sim, &job.metadata.name);
    assert!(j.status.completion_time.is_some());
}

fn validate_job_failed(sim: &mut Simulation, job: &Job) {
    validate_job_condition(sim, job, "Failed");
}

/// `validateFinishedPodsNoFinalizer`: no finished pod keeps the tracking finalizer.
fn validate_finished_pods_no_finalizer(sim: &Simulation, job: &Job) {
    for p in job_pods(sim, job) {
        if p.status.phase == "Succeeded" || p.status.phase == "Failed" {
            assert!(
                !p.metadata
                    .finalizers
                    .iter()
                    .any(|f| f == JOB_TRACKING_FINALIZER),
                "pod {} keeps the tracking finalizer",
                p.metadata.name
            );
        }
    }
}

/// `validateNoOrphanPodsWithFinalizers`.
fn validate_no_orphan_pods_with_finalizers(sim: &Simulation) {
    for p in sim.api.store.list::<Pod>(Some(NS)) {
        assert!(
            !p.metadata
                .finalizers
                .iter()
                .any(|f| f == JOB_TRACKING_FINALIZER),
            "pod {} keeps the tracking finalizer",
            p.metadata.name
        );
    }
}

/// The Job's conditions as (type, status, reason).
fn conditions(sim: &Simulation, job: &Job) -> Vec<(String, String, String)> {
    get_job(sim, &job.metadata.name)
        .status
        .conditions
        .iter()
        .map(|c| (c.type_.clone(), c.status.clone(), c.reason.clone()))
        .collect()
}

fn conds(v: &[(&str, &str)]) -> Vec<(String, String, String)> {
    v.iter()
        .map(|(t, r)| (t.to_string(), "True".to_string(), r.to_string()))
        .collect()
}

fn exit_status(code: i32) -> Value {
    json!({"phase": "Failed", "containerStatuses": [{
        "name": "main-container", "image": "foo", "imageID": "",
        "ready": false, "restartCount": 0,
        "state": {"terminated": {"exitCode": code}}}]})
}

fn main_container_template() -> Value {
    json!({"spec": {"containers": [{"name": "main-container", "image": "foo",
        "imagePullPolicy": "IfNotPresent",
        "terminationMessagePolicy": "FallbackToLogsOnError"}]}})
}

fn job_events(sim: &Simulation, name: &str) -> Vec<(String, String)> {
    sim.api
        .events
        .iter()
        .filter(|e| e.kind == "Job" && e.name == name)
        .map(|e| (e.reason.to_string(), e.message.clone()))
        .collect()
}

// ---------------------------------------------------------------------------------------------

/// TestJobPodFailurePolicy: each rule of the pod failure policy applied to one failed pod.
#[test]
fn job_pod_failure_policy() {
    let policy = json!({"rules": [
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
        {"action": "Count", "onExitCodes": {"operator": "In", "values": [10]}},
        {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [5, 6, 7]}},
    ]});
    let ignore_status = json!({"phase": "Failed",
        "conditions": [{"type": "DisruptionTarget", "status": "True"}]});
    let no_rule_status = json!({"phase": "Failed", "containerStatuses": [{
        "name": "", "image": "", "imageID": "", "ready": false, "restartCount": 0,
        "state": {"terminated": {"exitCode": 0}}}]});
    let windows_policy = json!({"rules": [
        {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [-1073741510, 137]}},
    ]});
    // (name, policy, pod status, want active, want failed, want condition)
    let rows: Vec<(&str, Value, Value, i32, i32, &str)> = vec![
        (
            "FailJob rule on exit codes; job terminated",
            policy.clone(),
            exit_status(5),
            0,
            1,
            "Failed",
        ),
        (
            "Ignore rule on pod conditions; pod failure not counted",
            policy.clone(),
            ignore_status,
            1,
            0,
            "Complete",
        ),
        (
            "Count rule on exit codes; pod failure counted",
            policy.clone(),
            exit_status(10),
            1,
            1,
            "Complete",
        ),
        (
            "non-matching any configured rule; pod failure counted",
            policy.clone(),
            no_rule_status,
            1,
            1,
            "Complete",
        ),
        (
            "FailJob rule on a negative exit code",
            windows_policy,
            exit_status(-1073741510),
            0,
            1,
            "Failed",
        ),
    ];
    for (name, policy, status, want_active, want_failed, want_cond) in rows {
        let mut sim = default_sim();
        let job = create_job(
            &mut sim,
            json!({"template": main_container_template(), "podFailurePolicy": policy}),
        );
        validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
        set_job_pods_status(&mut sim, &job, status, 1);
        validate_job_pods_status(
            &mut sim,
            &job,
            by_status(want_active, 0, want_failed, Some(0)),
        );
        if want_cond == "Complete" {
            set_job_pods_phase(&mut sim, &job, "Succeeded", 1);
        }
        validate_job_condition(&mut sim, &job, want_cond);
        if want_cond == "Failed" {
            let c = conditions(&sim, &job);
            assert_eq!(
                c,
                conds(&[
                    ("FailureTarget", "PodFailurePolicy"),
                    ("Failed", "PodFailurePolicy")
                ]),
                "{name}"
            );
            assert!(
                job_events(&sim, "test-job")
                    .iter()
                    .any(|(r, m)| r == "PodFailurePolicy" && m.contains("matching FailJob rule")),
                "{name}: the Warning event"
            );
            let msg = &get_job(&sim, "test-job").status.conditions[1].message;
            assert!(
                msg.starts_with("Container main-container for pod ns/test-job-")
                    && msg.contains("failed with exit code")
                    && msg.contains("matching FailJob rule at index"),
                "{name}: {msg}"
            );
        }
        validate_finished_pods_no_finalizer(&sim, &job);
    }
}

/// TestJobPodFailurePolicyWithFailedPodDeletedDuringControllerRestart, without the restart:
/// the pod matching the FailJob rule loses its finalizer, is deleted (as PodGC would), and the
/// Job still ends Failed by the policy.
#[test]
fn job_pod_failure_policy_with_failed_pod_deleted() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 3, "completions": 3, "template": main_container_template(),
               "podFailurePolicy": {"rules": [
                   {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [5]}}]}}),
    );
    sim.run_for(Duration::from_secs(2)).unwrap();
    validate_job_pods_status(&mut sim, &job, by_status(3, 0, 0, Some(0)));
    let mut pods: Vec<Pod> = job_pods(&sim, &job);
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let failed = pods[1].clone();
    update_pod_status(&mut sim, failed.clone(), exit_status(5));
    wait(&mut sim);
    if let Ok(p) = sim.api.get::<Pod>(NS, &failed.metadata.name) {
        assert!(p.metadata.finalizers.is_empty());
        sim.api
            .delete(
                "Pod",
                NS,
                &failed.metadata.name,
                &DeleteOptions {
                    grace_period_seconds: Some(0),
                    ..Default::default()
                },
            )
            .unwrap();
    }
    wait(&mut sim);
    validate_job_failed(&mut sim, &job);
    validate_no_orphan_pods_with_finalizers(&sim);
}

/// TestSuccessPolicy: the Job meets its success policy before all indexes finish.
#[test]
fn success_policy() {
    struct Term {
        index: i32,
        phase: &'static str,
        active: i32,
        failed: i32,
        succeeded: i32,
        active_indexes: &'static [i32],
        completed: &'static str,
        failed_indexes: Option<&'static str>,
        terminating: i32,
    }
    // (name, success policy gate, spec, terminations, wanted conditions)
    let rows: Vec<(&str, bool, Value, Vec<Term>, Vec<&str>)> = vec![
        (
            "all indexes succeeded; JobSuccessPolicy is enabled",
            true,
            json!({"parallelism": 1, "completions": 1, "completionMode": "Indexed",
                   "successPolicy": {"rules": [{"succeededIndexes": "0"}]}}),
            vec![Term {
                index: 0,
                phase: "Succeeded",
                active: 0,
                failed: 0,
                succeeded: 1,
                active_indexes: &[],
                completed: "0",
                failed_indexes: None,
                terminating: 0,
            }],
            vec!["SuccessCriteriaMet", "Complete"],
        ),
        (
            "all indexes succeeded; JobSuccessPolicy is disabled",
            false,
            json!({"parallelism": 1, "completions": 1, "completionMode": "Indexed",
                   "successPolicy": {"rules": [{"succeededIndexes": "0"}]}}),
            vec![Term {
                index: 0,
                phase: "Succeeded",
                active: 0,
                failed: 0,
                succeeded: 1,
                active_indexes: &[],
                completed: "0",
                failed_indexes: None,
                terminating: 0,
            }],
            vec!["Complete"],
        ),
        (
            // The upstream row checks the jobs_finished_total metric's reason label
            // (CompletionsReached); kubeplay has no metrics, so the conditions' reason is checked
            // below instead.
            "job without successPolicy; incremented the jobs_finished_total metric with CompletionsReached reason",
            true,
            json!({"parallelism": 1, "completions": 1, "completionMode": "Indexed"}),
            vec![Term {
                index: 0,
                phase: "Succeeded",
                active: 0,
                failed: 0,
                succeeded: 1,
                active_indexes: &[],
                completed: "0",
                failed_indexes: None,
                terminating: 0,
            }],
            vec!["SuccessCriteriaMet", "Complete"],
        ),
        (
            "succeededIndexes; SuccessCriteriaMet and Complete with an index pending",
            true,
            json!({"parallelism": 2, "completions": 2, "completionMode": "Indexed",
                   "successPolicy": {"rules": [{"succeededIndexes": "1"}]}}),
            vec![
                Term {
                    index: 0,
                    phase: "Pending",
                    active: 2,
                    failed: 0,
                    succeeded: 0,
                    active_indexes: &[0, 1],
                    completed: "",
                    failed_indexes: None,
                    terminating: 0,
                },
                Term {
                    index: 1,
                    phase: "Succeeded",
                    active: 0,
                    failed: 0,
                    succeeded: 1,
                    active_indexes: &[],
                    completed: "1",
                    failed_indexes: None,
                    terminating: 1,
                },
            ],
            vec!["SuccessCriteriaMet", "Complete"],
        ),
        (
            "succeededCount; SuccessCriteriaMet and Complete with an index pending",
            true,
            json!({"parallelism": 2, "completions": 2, "completionMode": "Indexed",
                   "successPolicy": {"rules": [{"succeededCount": 1}]}}),
            vec![
                Term {
                    index: 0,
                    phase: "Pending",
                    active: 2,
                    failed: 0,
                    succeeded: 0,
                    active_indexes: &[0, 1],
                    completed: "",
                    failed_indexes: None,
                    terminating: 0,
                },
                Term {
                    index: 1,
                    phase: "Succeeded",
                    active: 0,
                    failed: 0,
                    succeeded: 1,
                    active_indexes: &[],
                    completed: "1",
                    failed_indexes: None,
                    terminating: 1,
                },
            ],
            vec!["SuccessCriteriaMet", "Complete"],
        ),
        (
            "successPolicy and backoffLimitPerIndex; Failed once an index fails",
            true,
            json!({"parallelism": 2, "completions": 2, "completionMode": "Indexed",
                   "backoffLimitPerIndex": 0,
                   "successPolicy": {"rules": [{"succeededCount": 1}]}}),
            vec![
                Term {
                    index: 0,
                    phase: "Failed",
                    active: 1,
                    failed: 1,
                    succeeded: 0,
                    active_indexes: &[1],
                    completed: "",
                    failed_indexes: Some("0"),
                    terminating: 0,
                },
                Term {
                    index: 1,
                    phase: "Succeeded",
                    active: 0,
                    failed: 1,
                    succeeded: 1,
                    active_indexes: &[],
                    completed: "1",
                    failed_indexes: Some("0"),
                    terminating: 0,
                },
            ],
            vec!["Failed"],
        ),
    ];
    for (name, sp, spec, terms, want) in rows {
        let mut sim = setup(gates(&[("JobSuccessPolicy", sp)]));
        let mut spec = spec;
        spec["template"] = main_container_template();
        let par = spec["parallelism"].as_i64().unwrap() as i32;
        let job = create_job(&mut sim, spec);
        validate_job_pods_status(&mut sim, &job, by_status(par, 0, 0, Some(0)));
        for t in terms {
            set_job_phase_for_index(&mut sim, &job, t.phase, t.index);
            validate_job_pods_status(
                &mut sim,
                &job,
                by_status(t.active, t.succeeded, t.failed, Some(t.terminating)),
            );
            validate_indexed_job_pods(
                &mut sim,
                &job,
                t.active_indexes,
                t.completed,
                t.failed_indexes,
            );
        }
        for c in &want {
            validate_job_condition(&mut sim, &job, c);
        }
        let j = get_job(&sim, "test-job");
        assert_eq!(
            j.status.completion_time.is_some(),
            want.contains(&"Complete"),
            "{name}: completionTime"
        );
        if name.starts_with("job without successPolicy") {
            // newSuccessCondition: CompletionsReached while JobSuccessPolicy is on.
            let reasons: Vec<(&str, &str)> = j
                .status
                .conditions
                .iter()
                .map(|c| (c.type_.as_str(), c.reason.as_str()))
                .collect();
            assert_eq!(
                reasons,
                vec![
                    ("SuccessCriteriaMet", "CompletionsReached"),
                    ("Complete", "CompletionsReached")
                ],
                "{name}"
            );
        }
        validate_finished_pods_no_finalizer(&sim, &job);
    }
}

/// `validateJobStatus`: counters, completed indexes and conditions (type, status, reason).
#[allow(clippy::too_many_arguments)]
fn validate_job_status(
    sim: &mut Simulation,
    job: &Job,
    failed: i32,
    succeeded: i32,
    terminating: Option<i32>,
    completed: &str,
    want_conds: &[(&str, &str)],
) {
    let name = job.metadata.name.clone();
    let want = (
        failed,
        succeeded,
        Some(0),
        terminating,
        completed.to_string(),
        conds(want_conds),
    );
    poll(sim, "validateJobStatus", move |sim| {
        let j = get_job(sim, &name);
        let got = (
            j.status.failed,
            j.status.succeeded,
            j.status.ready,
            j.status.terminating,
            j.status.completed_indexes.clone(),
            j.status
                .conditions
                .iter()
                .map(|c| (c.type_.clone(), c.status.clone(), c.reason.clone()))
                .collect::<Vec<_>>(),
        );
        if got != want {
            return Err(format!("got {got:?}, want {want:?}"));
        }
        Ok(())
    });
}

fn update_job(sim: &mut Simulation, name: &str, f: impl FnOnce(&mut Job)) {
    let mut j = get_job(sim, name);
    f(&mut j);
    sim.api.update(Object::Job(j)).expect("update job");
    sim.settle().unwrap();
}

/// TestDelayTerminalPhaseCondition: the Failed / Complete condition waits for the pods (held
/// by a test finalizer) to be terminal when JobPodReplacementPolicy or JobManagedBy is on; the
/// interim FailureTarget / SuccessCriteriaMet comes first.
#[test]
fn delay_terminal_phase_condition() {
    const BLOCK: &str = "fake.example.com/blockDeletion";
    // (name, managedBy, podReplacementPolicy, successPolicy, scale down (else fail one pod),
    //  interim (terminating, conditions), terminal (terminating, conditions))
    type Conds = &'static [(&'static str, &'static str)];
    let rows: Vec<(
        &str,
        bool,
        bool,
        bool,
        bool,
        Option<(Option<i32>, Conds)>,
        (Option<i32>, Conds),
    )> = vec![
        (
            "backoff limit exceeded; JobPodReplacementPolicy and JobManagedBy disabled",
            false,
            false,
            true,
            false,
            None,
            (None, &[("Failed", "BackoffLimitExceeded")]),
        ),
        (
            "backoff limit exceeded; JobPodReplacementPolicy enabled",
            false,
            true,
            true,
            false,
            Some((Some(1), &[("FailureTarget", "BackoffLimitExceeded")])),
            (
                Some(0),
                &[
                    ("FailureTarget", "BackoffLimitExceeded"),
                    ("Failed", "BackoffLimitExceeded"),
                ],
            ),
        ),
        (
            "backoff limit exceeded; JobManagedBy enabled",
            true,
            false,
            true,
            false,
            Some((None, &[("FailureTarget", "BackoffLimitExceeded")])),
            (
                None,
                &[
                    ("FailureTarget", "BackoffLimitExceeded"),
                    ("Failed", "BackoffLimitExceeded"),
                ],
            ),
        ),
        (
            "scale down to meet completions; JobPodReplacementPolicy and JobManagedBy disabled",
            false,
            false,
            false,
            true,
            None,
            (None, &[("Complete", "")]),
        ),
        (
            "scale down to meet completions; JobPodReplacementPolicy enabled",
            false,
            true,
            false,
            true,
            Some((Some(1), &[("SuccessCriteriaMet", "")])),
            (Some(0), &[("SuccessCriteriaMet", ""), ("Complete", "")]),
        ),
        (
            "scale down to meet completions; JobManagedBy enabled",
            true,
            false,
            false,
            true,
            Some((None, &[("SuccessCriteriaMet", "")])),
            (None, &[("SuccessCriteriaMet", ""), ("Complete", "")]),
        ),
        (
            "scale down to meet completions; JobManagedBy and JobSuccessPolicy enabled",
            true,
            false,
            true,
            true,
            Some((None, &[("SuccessCriteriaMet", "CompletionsReached")])),
            (
                None,
                &[
                    ("SuccessCriteriaMet", "CompletionsReached"),
                    ("Complete", "CompletionsReached"),
                ],
            ),
        ),
        (
            "scale down to meet completions; JobPodReplacementPolicy and JobSuccessPolicy enabled",
            false,
            true,
            true,
            true,
            Some((Some(1), &[("SuccessCriteriaMet", "CompletionsReached")])),
            (
                Some(0),
                &[
                    ("SuccessCriteriaMet", "CompletionsReached"),
                    ("Complete", "CompletionsReached"),
                ],
            ),
        ),
    ];
    for (name, managed_by, replacement, success, scale_down, interim, terminal) in rows {
        let mut sim = setup(gates(&[
            ("JobManagedBy", managed_by),
            ("JobPodReplacementPolicy", replacement),
            ("JobSuccessPolicy", success),
            ("ElasticIndexedJob", true),
        ]));
        let mut tmpl = main_container_template();
        tmpl["metadata"] = json!({"finalizers": [BLOCK]});
        let spec = if scale_down {
            json!({"parallelism": 2, "completions": 2, "completionMode": "Indexed",
                   "template": tmpl})
        } else {
            json!({"parallelism": 2, "completions": 2, "backoffLimit": 0, "template": tmpl})
        };
        let job = create_job(&mut sim, spec);
        validate_job_pods_status(&mut sim, &job, by_status(2, 0, 0, replacement.then_some(0)));
        if scale_down {
            set_job_phase_for_index(&mut sim, &job, "Succeeded", 0);
            update_job(&mut sim, "test-job", |j| {
                let s = &mut *j.spec;
                s.parallelism = Some(1);
                s.completions = Some(1);
            });
        } else {
            set_job_pods_phase(&mut sim, &job, "Failed", 1);
        }
        let (failed, succeeded, completed) = if scale_down { (0, 1, "0") } else { (2, 0, "") };
        if let Some((term, c)) = interim {
            validate_job_status(&mut sim, &job, failed, succeeded, term, completed, c);
            // The remaining pods reach a terminal phase, as the kubelet would make them.
            let n = job_pods(&sim, &job)
                .iter()
                .filter(|p| p.status.phase == "Pending" || p.status.phase == "Running")
                .count();
            let mut pods: Vec<Pod> = job_pods(&sim, &job)
                .into_iter()
                .filter(|p| p.status.phase == "Pending" || p.status.phase == "Running")
                .collect();
            pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
            assert!(n > 0, "{name}");
            for p in pods {
                update_pod_status(&mut sim, p, json!({"phase": "Succeeded"}));
            }
            sim.settle().unwrap();
        }
        let (term, c) = terminal;
        validate_job_status(&mut sim, &job, failed, succeeded, term, completed, c);
    }
}

/// TestBackoffLimitPerIndex_DelayedPodDeletion: the failed pod of an index stays (with its
/// finalizer) until the replacement exists, which carries the bumped failure count.
#[test]
fn backoff_limit_per_index_delayed_pod_deletion() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 1, "completions": 1, "backoffLimitPerIndex": 1,
               "completionMode": "Indexed"}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0], "", Some(""));
    set_job_phase_for_index(&mut sim, &job, "Failed", 0);
    let failed = job_pods(&sim, &job)
        .into_iter()
        .find(|p| p.status.phase == "Failed")
        .unwrap();
    sim.api
        .delete("Pod", NS, &failed.metadata.name, &DeleteOptions::default())
        .unwrap();
    sim.settle().unwrap();
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 1, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0], "", Some(""));
    let replacement = active_pod_for_index(&sim, &job, 0);
    assert_eq!(index_failure_count(&replacement), 1);
    set_job_phase_for_index(&mut sim, &job, "Succeeded", 0);
    validate_job_pods_status(&mut sim, &job, by_status(0, 1, 1, Some(0)));
    validate_job_complete(&mut sim, &job);
}

/// TestBackoffLimitPerIndex_JobPodsCreatedWithExponentialBackoff: each index's replacements
/// come after its own exponential back-off (10 s, then 20 s).
#[test]
fn backoff_limit_per_index_exponential_backoff() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 2, "completions": 2, "backoffLimitPerIndex": 2,
               "completionMode": "Indexed"}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(2, 0, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 1], "", Some(""));
    let steps: [(&str, i32, PodsByStatus, &[i32], &str); 6] = [
        ("Failed", 0, by_status(2, 0, 1, Some(0)), &[0, 1], ""),
        ("Failed", 0, by_status(2, 0, 2, Some(0)), &[0, 1], ""),
        ("Failed", 1, by_status(2, 0, 3, Some(0)), &[0, 1], ""),
        ("Succeeded", 0, by_status(1, 1, 3, Some(0)), &[1], "0"),
        ("Failed", 1, by_status(1, 1, 4, Some(0)), &[1], "0"),
        ("Succeeded", 1, by_status(0, 2, 4, Some(0)), &[], "0,1"),
    ];
    for (phase, ix, want, active, completed) in steps {
        set_job_phase_for_index(&mut sim, &job, phase, ix);
        validate_job_pods_status(&mut sim, &job, want);
        validate_indexed_job_pods(&mut sim, &job, active, completed, Some(""));
    }
    validate_job_complete(&mut sim, &job);
    for ix in 0..2 {
        let pods: Vec<Pod> = job_pods(&sim, &job)
            .into_iter()
            .filter(|p| pod_index(p) == Some(ix))
            .collect();
        assert_eq!(pods.len(), 3, "index {ix}");
        validate_exponential_backoff_delay(&pods);
    }
}

/// `setJobPodsReady`: the first `cnt` active pods (by name) get a True Ready condition.
fn set_job_pods_ready(sim: &mut Simulation, job: &Job, cnt: usize) {
    let mut pods: Vec<Pod> = job_pods(sim, job).into_iter().filter(is_active).collect();
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    for mut p in pods.into_iter().take(cnt) {
        let mut st = (*p.status).clone();
        let mut v = serde_json::to_value(&st).unwrap();
        let conds = v
            .as_object_mut()
            .unwrap()
            .entry("conditions")
            .or_insert_with(|| json!([]));
        conds
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "Ready", "status": "True"}));
        st = serde_json::from_value(v).unwrap();
        p.status = st.into();
        sim.api.update_status(Object::Pod(p)).unwrap();
    }
    sim.settle().unwrap();
}

/// TestBackoffLimitPerIndex: per-index back-off limits, maxFailedIndexes, the global backoff
/// limit and the FailIndex rule of a pod failure policy.
#[test]
fn backoff_limit_per_index() {
    struct Term {
        index: i32,
        status: Value,
        active: i32,
        failed: i32,
        succeeded: i32,
        active_indexes: &'static [i32],
        completed: &'static str,
        failed_indexes: &'static str,
        replacement_failure_count: Option<i32>,
        terminating: i32,
    }
    #[allow(clippy::too_many_arguments)]
    fn t(
        index: i32,
        status: Value,
        (active, failed, succeeded): (i32, i32, i32),
        active_indexes: &'static [i32],
        completed: &'static str,
        failed_indexes: &'static str,
        replacement_failure_count: Option<i32>,
        terminating: i32,
    ) -> Term {
        Term {
            index,
            status,
            active,
            failed,
            succeeded,
            active_indexes,
            completed,
            failed_indexes,
            replacement_failure_count,
            terminating,
        }
    }
    let failed = || json!({"phase": "Failed"});
    let succeeded = || json!({"phase": "Succeeded"});
    let rows: Vec<(&str, Value, Vec<Term>, &str)> = vec![
        (
            "job succeeded",
            json!({"parallelism": 2, "completions": 2, "backoffLimitPerIndex": 1}),
            vec![t(0, failed(), (2, 1, 0), &[0, 1], "", "", Some(1), 0)],
            "Complete",
        ),
        (
            "job index fails due to exceeding backoff limit per index",
            json!({"parallelism": 2, "completions": 2, "backoffLimitPerIndex": 2}),
            vec![
                t(0, failed(), (2, 1, 0), &[0, 1], "", "", Some(1), 0),
                t(0, failed(), (2, 2, 0), &[0, 1], "", "", Some(2), 0),
                t(0, failed(), (1, 3, 0), &[1], "", "0", None, 0),
            ],
            "Failed",
        ),
        (
            "job index fails due to exceeding the global backoff limit first",
            json!({"parallelism": 3, "completions": 3, "backoffLimitPerIndex": 1,
                   "backoffLimit": 2}),
            vec![
                t(0, failed(), (3, 1, 0), &[0, 1, 2], "", "", None, 0),
                t(1, failed(), (3, 2, 0), &[0, 1, 2], "", "", None, 0),
                t(2, failed(), (0, 5, 0), &[], "", "", None, 2),
            ],
            "Failed",
        ),
        (
            "job continues execution after a failed index, the job is marked Failed",
            json!({"parallelism": 2, "completions": 2, "backoffLimitPerIndex": 0}),
            vec![
                t(0, failed(), (1, 1, 0), &[1], "", "0", None, 0),
                t(1, succeeded(), (0, 1, 1), &[], "1", "0", None, 0),
            ],
            "Failed",
        ),
        (
            "job execution terminated early due to exceeding max failed indexes",
            json!({"parallelism": 3, "completions": 3, "backoffLimitPerIndex": 0,
                   "maxFailedIndexes": 1}),
            vec![
                t(0, failed(), (2, 1, 0), &[1, 2], "", "0", None, 0),
                t(1, failed(), (0, 3, 0), &[], "", "0,1", None, 1),
            ],
            "Failed",
        ),
        (
            "pod failure matching pod failure policy rule with FailIndex action",
            json!({"parallelism": 2, "completions": 2, "backoffLimitPerIndex": 1,
                   "podFailurePolicy": {"rules": [
                       {"action": "FailIndex",
                        "onExitCodes": {"operator": "In", "values": [13]}},
                       {"action": "FailIndex",
                        "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]}}),
            vec![
                t(0, exit_status(13), (1, 1, 0), &[1], "", "0", None, 0),
                t(
                    1,
                    json!({"phase": "Failed",
                           "conditions": [{"type": "DisruptionTarget", "status": "True"}]}),
                    (0, 2, 0),
                    &[],
                    "",
                    "0,1",
                    None,
                    0,
                ),
            ],
            "Failed",
        ),
    ];
    for (name, mut spec, terms, want_cond) in rows {
        let mut sim = default_sim();
        spec["completionMode"] = json!("Indexed");
        spec["template"] = main_container_template();
        let par = spec["parallelism"].as_i64().unwrap() as i32;
        let job = create_job(&mut sim, spec);
        validate_job_pods_status(&mut sim, &job, by_status(par, 0, 0, Some(0)));
        let mut remaining = par;
        for term in terms {
            set_job_status_for_index(&mut sim, &job, term.status.clone(), term.index);
            validate_job_pods_status(
                &mut sim,
                &job,
                by_status(
                    term.active,
                    term.succeeded,
                    term.failed,
                    Some(term.terminating),
                ),
            );
            validate_indexed_job_pods(
                &mut sim,
                &job,
                term.active_indexes,
                term.completed,
                Some(term.failed_indexes),
            );
            if let Some(want) = term.replacement_failure_count {
                let r = active_pod_for_index(&sim, &job, term.index);
                assert_eq!(index_failure_count(&r), want, "{name}");
            }
            remaining = term.active;
        }
        if remaining > 0 {
            set_job_pods_phase(&mut sim, &job, "Succeeded", remaining as usize);
        }
        validate_job_condition(&mut sim, &job, want_cond);
        validate_finished_pods_no_finalizer(&sim, &job);
    }
}

/// TestManagedBy: the built-in controller skips Jobs managed by another controller (with the
/// JobManagedBy gate on), leaving their status empty.
#[test]
fn managed_by() {
    const CUSTOM: &str = "example.com/custom-job-controller";
    let rows: Vec<(&str, bool, Value, bool)> = vec![
        ("jobs without the managedBy", true, json!({}), true),
        (
            "the well known value of the managedBy field",
            true,
            json!({"managedBy": "kubernetes.io/job-controller"}),
            true,
        ),
        (
            "an unsuspended with the custom value of managedBy; feature disabled",
            false,
            json!({"managedBy": CUSTOM}),
            true,
        ),
        (
            "does not reconcile an unsuspended with the custom value of managedBy",
            true,
            json!({"suspend": false, "managedBy": CUSTOM}),
            false,
        ),
        (
            "does not reconcile a suspended with the custom value of managedBy",
            true,
            json!({"suspend": true, "managedBy": CUSTOM}),
            false,
        ),
    ];
    for (name, gate, mut spec, reconciled) in rows {
        let mut sim = setup(gates(&[("JobManagedBy", gate)]));
        spec["template"] = json!({"spec": {"containers": [{"name": "main-container",
                                                           "image": "foo"}]}});
        let job = create_job(&mut sim, spec);
        if reconciled {
            validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
        } else {
            wait(&mut sim);
            let j = get_job(&sim, "test-job");
            assert_eq!(
                *j.status,
                kubeplay::api::batch::JobStatus::default(),
                "{name}"
            );
            assert!(job_pods(&sim, &job).is_empty(), "{name}");
        }
    }
}

/// TestManagedBy_RecreatedJob: a sync queued for a deleted Job does not reconcile its
/// recreation under the same name with a custom managedBy.
#[test]
fn managed_by_recreated_job() {
    let mut sim = default_sim();
    let spec = json!({"completions": 1, "parallelism": 1,
        "template": {"spec": {"containers": [{"name": "main-container", "image": "foo"}]}}});
    let job = create_named_job(&mut sim, "custom-job-test", json!({}), spec.clone());
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 1);
    sim.api
        .delete(
            "Job",
            NS,
            "custom-job-test",
            &DeleteOptions {
                propagation: Some(kubeplay::store::apiserver::Propagation::Background),
                ..Default::default()
            },
        )
        .unwrap();
    let mut spec2 = spec;
    spec2["managedBy"] = json!("example.com/custom-job-controller");
    let job2 = create_named_job(&mut sim, "custom-job-test", json!({}), spec2);
    wait(&mut sim);
    let j = get_job(&sim, "custom-job-test");
    assert_eq!(j.metadata.uid, job2.metadata.uid);
    assert_eq!(*j.status, kubeplay::api::batch::JobStatus::default());
}

/// TestManagedBy_UsingReservedJobFinalizers: the built-in controller leaves the tracking
/// finalizer on a pod of a Job managed by another controller.
#[test]
fn managed_by_using_reserved_job_finalizers() {
    let mut sim = default_sim();
    let job = create_named_job(
        &mut sim,
        "custom-job-test",
        json!({}),
        json!({"completions": 1, "parallelism": 1,
               "managedBy": "example.com/custom-job-controller",
               "template": {"spec": {"containers": [{"name": "main-container",
                                                     "image": "foo"}]}}}),
    );
    // The external controller's pod, with the built-in tracking finalizer.
    sim.api
        .create(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"generateName": "pod1", "namespace": NS,
                    "labels": (*job.spec.template.metadata.labels).clone(),
                    "finalizers": [JOB_TRACKING_FINALIZER],
                    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job",
                        "name": "custom-job-test", "uid": job.metadata.uid,
                        "controller": true, "blockOwnerDeletion": true}]},
                "spec": {"restartPolicy": "Never",
                         "containers": [{"name": "main-container", "image": "foo"}]}
            }))
            .unwrap(),
        )
        .unwrap();
    sim.settle().unwrap();
    let pods = job_pods(&sim, &job);
    assert_eq!(pods.len(), 1);
    update_pod_status(&mut sim, pods[0].clone(), json!({"phase": "Succeeded"}));
    update_job_status(&mut sim, "custom-job-test", |j| {
        j.status
            .conditions
            .push(kubeplay::api::batch::JobCondition {
                type_: "SuccessCriteriaMet".into(),
                status: "True".into(),
                ..Default::default()
            });
        j.status.start_time = Some(j.metadata.creation_timestamp.unwrap());
    });
    let p = sim
        .api
        .get::<Pod>(NS, &pods[0].metadata.name)
        .unwrap()
        .clone();
    update_pod_status(
        &mut sim,
        p,
        json!({"phase": "Succeeded", "conditions": [{"type": "CustomCondition",
                                                     "status": "True"}]}),
    );
    wait(&mut sim);
    let p = sim.api.get::<Pod>(NS, &pods[0].metadata.name).unwrap();
    assert_eq!(
        p.metadata.finalizers.to_vec(),
        vec![JOB_TRACKING_FINALIZER.to_string()]
    );
}

fn update_job_status(sim: &mut Simulation, name: &str, f: impl FnOnce(&mut Job)) {
    let mut j = get_job(sim, name);
    f(&mut j);
    sim.api
        .update_status(Object::Job(j))
        .expect("update job status");
    sim.settle().unwrap();
}

/// TestNonParallelJob (without the controller restarts): a failed pod is replaced; none is
/// created once the pod succeeds.
#[test]
fn non_parallel_job() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({}));
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 1, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 1);
    validate_job_complete(&mut sim, &job);
    validate_job_pods_status(&mut sim, &job, by_status(0, 1, 1, Some(0)));
    validate_finished_pods_no_finalizer(&sim, &job);
    assert_eq!(job_pods(&sim, &job).len(), 2);
    let ev = job_events(&sim, "test-job");
    assert_eq!(
        ev.iter().filter(|(r, _)| r == "SuccessfulCreate").count(),
        2,
        "{ev:?}"
    );
    assert!(ev.contains(&("Completed".into(), "Job completed".into())));
}

/// TestParallelJob: ready pods are counted; failed pods are replaced until one succeeds.
#[test]
fn parallel_job() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({"parallelism": 5}));
    let mut want = by_status(5, 0, 0, Some(0));
    validate_job_pods_status(&mut sim, &job, want.clone());
    set_job_pods_ready(&mut sim, &job, 2);
    want.ready = Some(2);
    validate_job_pods_status(&mut sim, &job, want);
    set_job_pods_phase(&mut sim, &job, "Failed", 2);
    validate_job_pods_status(&mut sim, &job, by_status(5, 0, 2, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 1);
    validate_job_pods_status(&mut sim, &job, by_status(4, 1, 2, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 2);
    validate_job_pods_status(&mut sim, &job, by_status(2, 1, 4, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 2);
    validate_job_complete(&mut sim, &job);
    validate_job_pods_status(&mut sim, &job, by_status(0, 3, 4, Some(0)));
    validate_finished_pods_no_finalizer(&sim, &job);
    // validateTerminatedPodsTrackingFinalizerMetric(7): seven pods finished, all created with
    // the finalizer and none keeps it.
    let pods = job_pods(&sim, &job);
    assert_eq!(pods.len(), 7);
}

/// TestParallelJobChangingParallelism: scaling parallelism down (by more than the backoff
/// limit) deletes pods without counting them failed; scaling up creates them again.
#[test]
fn parallel_job_changing_parallelism() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({"backoffLimit": 2, "parallelism": 5}));
    validate_job_pods_status(&mut sim, &job, by_status(5, 0, 0, Some(0)));
    update_job(&mut sim, "test-job", |j| j.spec.parallelism = Some(2));
    validate_job_pods_status(&mut sim, &job, by_status(2, 0, 0, Some(0)));
    update_job(&mut sim, "test-job", |j| j.spec.parallelism = Some(4));
    validate_job_pods_status(&mut sim, &job, by_status(4, 0, 0, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 4);
    validate_job_complete(&mut sim, &job);
    validate_job_pods_status(&mut sim, &job, by_status(0, 4, 0, Some(0)));
    validate_finished_pods_no_finalizer(&sim, &job);
}

/// TestParallelJobWithCompletions (with the default MaxUncountedPods and
/// MaxPodCreateDeletePerSync, which upstream lowers to 10 to force partial updates).
#[test]
fn parallel_job_with_completions() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({"parallelism": 54, "completions": 56}));
    let mut want = by_status(54, 0, 0, Some(0));
    validate_job_pods_status(&mut sim, &job, want.clone());
    set_job_pods_ready(&mut sim, &job, 52);
    want.ready = Some(52);
    validate_job_pods_status(&mut sim, &job, want);
    set_job_pods_phase(&mut sim, &job, "Failed", 2);
    let mut want = by_status(54, 0, 2, Some(0));
    want.ready = Some(50);
    validate_job_pods_status(&mut sim, &job, want);
    set_job_pods_phase(&mut sim, &job, "Succeeded", 53);
    validate_job_pods_status(&mut sim, &job, by_status(3, 53, 2, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 3);
    validate_job_complete(&mut sim, &job);
    validate_job_pods_status(&mut sim, &job, by_status(0, 56, 2, Some(0)));
    validate_finished_pods_no_finalizer(&sim, &job);
}

/// TestIndexedJob: an index that succeeds is not recreated; a failed one is.
#[test]
fn indexed_job() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 3, "completions": 4, "completionMode": "Indexed"}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(3, 0, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 1, 2], "", None);
    set_job_phase_for_index(&mut sim, &job, "Succeeded", 1);
    validate_job_pods_status(&mut sim, &job, by_status(3, 1, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 2, 3], "1", None);
    set_job_phase_for_index(&mut sim, &job, "Failed", 2);
    validate_job_pods_status(&mut sim, &job, by_status(3, 1, 1, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 2, 3], "1", None);
    set_job_pods_phase(&mut sim, &job, "Succeeded", 3);
    validate_job_pods_status(&mut sim, &job, by_status(0, 4, 1, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[], "0-3", None);
    validate_job_complete(&mut sim, &job);
    validate_finished_pods_no_finalizer(&sim, &job);
    // validateTerminatedPodsTrackingFinalizerMetric(5): five pods, all finished.
    assert_eq!(job_pods(&sim, &job).len(), 5);
}

/// `deletePods`: every pod of the namespace is deleted.
fn delete_pods(sim: &mut Simulation) {
    let names: Vec<String> = sim
        .api
        .store
        .list::<Pod>(Some(NS))
        .map(|p| p.metadata.name.clone())
        .collect();
    for n in names {
        sim.api
            .delete("Pod", NS, &n, &DeleteOptions::default())
            .unwrap();
    }
    sim.settle().unwrap();
}

/// `failTerminatingPods`: pods being deleted get phase Failed.
fn fail_terminating_pods(sim: &mut Simulation) {
    let pods: Vec<Pod> = sim
        .api
        .store
        .list::<Pod>(Some(NS))
        .filter(|p| p.metadata.deletion_timestamp.is_some())
        .cloned()
        .collect();
    for p in pods {
        update_pod_status(sim, p, json!({"phase": "Failed"}));
    }
    sim.settle().unwrap();
}

/// `validateJobsPodsStatusOnly`: only the Job's counters.
fn validate_jobs_pods_status_only(sim: &mut Simulation, job: &Job, want: PodsByStatus) {
    let name = job.metadata.name.clone();
    poll(sim, "validateJobsPodsStatusOnly", move |sim| {
        let j = get_job(sim, &name);
        let got = PodsByStatus {
            active: j.status.active,
            ready: j.status.ready,
            failed: j.status.failed,
            succeeded: j.status.succeeded,
            terminating: j.status.terminating,
        };
        if got != want {
            return Err(format!("got {got:?}, want {want:?}"));
        }
        Ok(())
    });
}

/// TestJobPodReplacementPolicy: pods being deleted (held by a test finalizer) are replaced
/// at once (TerminatingOrFailed) or only once they fail (Failed), and counted as terminating.
#[test]
fn job_pod_replacement_policy() {
    const BLOCK: &str = "fake.example.com/blockDeletion";
    // (name, gate, mode, policy, pod failure policy, after deletion (active, failed,
    //  terminating), after failure, pods created)
    type St = (i32, i32, Option<i32>);
    let rows: Vec<(&str, bool, &str, Option<&str>, bool, St, St, usize)> = vec![
        (
            "feature flag off, recreate terminating pods",
            false,
            "Indexed",
            None,
            false,
            (2, 2, None),
            (2, 2, None),
            4,
        ),
        (
            "IndexedJob, TerminatingOrFailed policy",
            true,
            "Indexed",
            Some("TerminatingOrFailed"),
            false,
            (2, 2, Some(2)),
            (2, 2, Some(0)),
            4,
        ),
        (
            "NonIndexedJob, TerminatingOrFailed policy",
            true,
            "NonIndexed",
            Some("TerminatingOrFailed"),
            false,
            (2, 2, Some(2)),
            (2, 2, Some(0)),
            4,
        ),
        (
            "feature flag false, podFailurePolicy enabled, recreate failed pods",
            false,
            "NonIndexed",
            Some("Failed"),
            true,
            (2, 0, None),
            (2, 0, None),
            2,
        ),
        (
            "IndexedJob, Failed policy",
            true,
            "Indexed",
            Some("Failed"),
            false,
            (0, 0, Some(2)),
            (2, 2, Some(0)),
            4,
        ),
        (
            "NonIndexedJob, Failed policy",
            true,
            "NonIndexed",
            Some("Failed"),
            false,
            (0, 0, Some(2)),
            (2, 2, Some(0)),
            4,
        ),
    ];
    for (name, gate, mode, policy, pfp, after_del, after_fail, created) in rows {
        let mut sim = setup(gates(&[("JobPodReplacementPolicy", gate)]));
        let mut spec = json!({"parallelism": 2, "completions": 2, "completionMode": mode,
            "template": {"metadata": {"finalizers": [BLOCK]}}});
        if let Some(p) = policy {
            spec["podReplacementPolicy"] = json!(p);
        }
        if pfp {
            spec["podFailurePolicy"] = json!({"rules": [{"action": "FailJob",
                "onExitCodes": {"operator": "In", "values": [5]}}]});
        }
        let job = create_job(&mut sim, spec);
        validate_jobs_pods_status_only(&mut sim, &job, by_status(2, 0, 0, gate.then_some(0)));
        delete_pods(&mut sim);
        let st = |(a, f, t): St| PodsByStatus {
            active: a,
            ready: Some(0),
            failed: f,
            succeeded: 0,
            terminating: t,
        };
        validate_jobs_pods_status_only(&mut sim, &job, st(after_del));
        fail_terminating_pods(&mut sim);
        validate_jobs_pods_status_only(&mut sim, &job, st(after_fail));
        let ev = job_events(&sim, "test-job");
        assert_eq!(
            ev.iter().filter(|(r, _)| r == "SuccessfulCreate").count(),
            created,
            "{name}: {ev:?}"
        );
    }
}

/// TestElasticIndexedJob: completions and parallelism of an Indexed Job scaled together.
#[test]
fn elastic_indexed_job() {
    struct Update {
        completions: Option<i32>,
        succeed: &'static [i32],
        fail: &'static [i32],
        succeeded_indexes: &'static str,
        failed: i32,
        remaining: &'static [i32],
        active: i32,
    }
    let u = |completions, succeed, fail, succeeded_indexes, failed, remaining, active| Update {
        completions,
        succeed,
        fail,
        succeeded_indexes,
        failed,
        remaining,
        active,
    };
    let rows: Vec<(&str, Vec<Update>)> = vec![
        (
            "scale up",
            vec![u(Some(4), &[0, 1, 2, 3], &[], "0-3", 0, &[], 0)],
        ),
        (
            "scale down",
            vec![
                u(None, &[1], &[2], "1", 1, &[0, 2], 2),
                u(Some(1), &[0], &[], "0", 1, &[], 0),
            ],
        ),
        (
            "index finishes successfully, scale down, scale up",
            vec![
                u(None, &[2], &[], "2", 0, &[0, 1], 2),
                u(Some(2), &[], &[], "", 0, &[0, 1], 2),
                u(Some(3), &[0, 1, 2], &[], "0-2", 0, &[], 0),
            ],
        ),
        (
            "scale down to 0, verify that the job succeeds",
            vec![u(Some(0), &[], &[], "", 0, &[], 0)],
        ),
    ];
    for (name, updates) in rows {
        let mut sim = default_sim();
        let job = create_job(
            &mut sim,
            json!({"parallelism": 3, "completions": 3, "completionMode": "Indexed"}),
        );
        validate_job_pods_status(&mut sim, &job, by_status(3, 0, 0, Some(0)));
        for up in updates {
            if let Some(c) = up.completions {
                update_job(&mut sim, "test-job", |j| {
                    j.spec.completions = Some(c);
                    j.spec.parallelism = Some(c);
                });
            }
            for &ix in up.succeed {
                set_job_phase_for_index(&mut sim, &job, "Succeeded", ix);
            }
            for &ix in up.fail {
                set_job_phase_for_index(&mut sim, &job, "Failed", ix);
            }
            validate_job_pods_status(
                &mut sim,
                &job,
                by_status(up.active, up.succeed.len() as i32, up.failed, Some(0)),
            );
            validate_indexed_job_pods(&mut sim, &job, up.remaining, up.succeeded_indexes, None);
        }
        validate_job_complete(&mut sim, &job);
        let _ = name;
    }
}

/// TestOrphanPodsFinalizersClearedWithGC: whatever the propagation policy, deleting the Job
/// leaves no pod with the tracking finalizer.
#[test]
fn orphan_pods_finalizers_cleared_with_gc() {
    use kubeplay::store::apiserver::Propagation;
    for policy in [
        Propagation::Orphan,
        Propagation::Background,
        Propagation::Foreground,
    ] {
        let mut sim = default_sim();
        let job = create_job(&mut sim, json!({"parallelism": 2}));
        validate_job_pods_status(&mut sim, &job, by_status(2, 0, 0, Some(0)));
        sim.api
            .delete(
                "Job",
                NS,
                "test-job",
                &DeleteOptions {
                    propagation: Some(policy),
                    ..Default::default()
                },
            )
            .unwrap();
        poll(&mut sim, "validateNoOrphanPodsWithFinalizers", |sim| {
            let with: Vec<String> = sim
                .api
                .store
                .list::<Pod>(Some(NS))
                .filter(|p| {
                    p.metadata
                        .finalizers
                        .iter()
                        .any(|f| f == JOB_TRACKING_FINALIZER)
                })
                .map(|p| p.metadata.name.clone())
                .collect();
            if with.is_empty() {
                Ok(())
            } else {
                Err(format!("{policy:?}: {with:?} keep the finalizer"))
            }
        });
        wait(&mut sim);
        assert!(sim.api.store.get::<Job>(NS, "test-job").is_none());
        let left = sim.api.store.list::<Pod>(Some(NS)).count();
        if matches!(policy, Propagation::Orphan) {
            assert_eq!(left, 2, "orphaned pods stay");
        } else {
            assert_eq!(left, 0, "{policy:?}: pods deleted in cascade");
        }
    }
}

/// TestFinalizersClearedWhenBackoffLimitExceeded: one failure of a 100-pod Job with
/// backoffLimit 0 fails it, and every pod loses its finalizer.
#[test]
fn finalizers_cleared_when_backoff_limit_exceeded() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"completionMode": "Indexed", "completions": 100, "parallelism": 100,
               "backoffLimit": 0}),
    );
    poll(&mut sim, "pods created", |sim| {
        if job_pods(sim, &get_job(sim, "test-job")).is_empty() {
            Err("no pods".into())
        } else {
            Ok(())
        }
    });
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_failed(&mut sim, &job);
    let j = get_job(&sim, "test-job");
    let failed = j
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Failed")
        .unwrap();
    assert_eq!(failed.reason, "BackoffLimitExceeded");
    assert_eq!(
        failed.message,
        "Job has reached the specified backoff limit"
    );
    validate_no_orphan_pods_with_finalizers(&sim);
}

/// TestJobPodsCreatedWithExponentialBackoff: the replacement pods of a non-indexed Job come
/// after 10 s, then 20 s.
#[test]
fn job_pods_created_with_exponential_backoff() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({}));
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 1, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 2, Some(0)));
    let pods = job_pods(&sim, &job);
    assert_eq!(pods.len(), 3);
    validate_exponential_backoff_delay(&pods);
}

/// `validateExpotentialBackoffDelay`: pod 2 is created 10 s to 20 s after pod 1 finished, pod 3
/// 20 s to 40 s after pod 2 finished.
fn validate_exponential_backoff_delay(pods: &[Pod]) {
    let mut created: Vec<Time> = pods
        .iter()
        .map(|p| p.metadata.creation_timestamp.unwrap())
        .collect();
    let mut finished: Vec<Time> = pods
        .iter()
        .filter_map(|p| {
            p.status
                .container_statuses
                .first()
                .and_then(|c| c.state.as_ref())
                .and_then(|s| s.terminated.as_ref())
                .and_then(|t| t.finished_at)
        })
        .collect();
    created.sort();
    finished.sort();
    let s = Duration::from_secs;
    let d = created[1] - finished[0];
    assert!(d >= s(10) && d < s(20), "second pod after {d:?}");
    let d = created[2] - finished[1];
    assert!(d >= s(20) && d < s(40), "third pod after {d:?}");
}

/// TestJobPodFailurePolicy, row "pod status matching the configured FailJob rule on exit
/// codes; with controller restart; job terminated".
#[test]
fn job_pod_failure_policy_with_controller_restart() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"template": main_container_template(), "podFailurePolicy": {"rules": [
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
            {"action": "Count", "onExitCodes": {"operator": "In", "values": [10]}},
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [5, 6, 7]}}]}}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    set_job_pods_status(&mut sim, &job, exit_status(5), 1);
    restart_controller(&mut sim);
    validate_job_pods_status(&mut sim, &job, by_status(0, 0, 1, Some(0)));
    validate_job_failed(&mut sim, &job);
    validate_finished_pods_no_finalizer(&sim, &job);
}

/// TestJobPodFailurePolicyWithFailedPodDeletedDuringControllerRestart: the controller stops
/// right after the failed pod lost its finalizer; the pod is deleted (as PodGC would) while it
/// is down; the restarted controller still fails the Job from its FailureTarget condition.
#[test]
fn job_pod_failure_policy_failed_pod_deleted_during_controller_restart() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 3, "completions": 3, "template": main_container_template(),
               "podFailurePolicy": {"rules": [
                   {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [5]}}]}}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(3, 0, 0, Some(0)));
    let mut pods: Vec<Pod> = job_pods(&sim, &job);
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let failed = pods[1].clone();
    update_pod_status(&mut sim, failed.clone(), exit_status(5));
    let name = failed.metadata.name.clone();
    // Wait for the finalizer removal, then stop the controller at once.
    loop {
        let gone = sim
            .api
            .store
            .get::<Pod>(NS, &name)
            .is_none_or(|p| !has_tracking_finalizer(p));
        if gone {
            break;
        }
        assert!(sim.step().unwrap() || sim.next_event().unwrap().is_some());
    }
    sim.set_controller_manager(false);
    let j = get_job(&sim, "test-job");
    assert!(
        has_condition(&j, "FailureTarget"),
        "the interim condition is written before the finalizer goes: {:?}",
        j.status.conditions
    );
    if sim.api.store.get::<Pod>(NS, &name).is_some() {
        sim.api
            .delete(
                "Pod",
                NS,
                &name,
                &DeleteOptions {
                    grace_period_seconds: Some(0),
                    ..Default::default()
                },
            )
            .unwrap();
    }
    sim.set_controller_manager(true);
    validate_job_failed(&mut sim, &job);
    let c = conditions(&sim, &job);
    assert_eq!(
        c,
        conds(&[
            ("FailureTarget", "PodFailurePolicy"),
            ("Failed", "PodFailurePolicy")
        ])
    );
    validate_no_orphan_pods_with_finalizers(&sim);
}

/// TestNonParallelJob with its controller restarts.
#[test]
fn non_parallel_job_with_controller_restarts() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({}));
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    restart_controller(&mut sim);
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 1, Some(0)));
    restart_controller(&mut sim);
    set_job_pods_phase(&mut sim, &job, "Succeeded", 1);
    validate_job_complete(&mut sim, &job);
    validate_job_pods_status(&mut sim, &job, by_status(0, 1, 1, Some(0)));
    validate_finished_pods_no_finalizer(&sim, &job);
}

/// TestJobFailedWithInterrupts: one of ten (scheduled) pods fails with backoffLimit 0 and the
/// rest succeed; after a controller restart the Job is Failed.
#[test]
fn job_failed_with_interrupts() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"completions": 10, "parallelism": 10, "backoffLimit": 0,
               "template": {"spec": {"nodeName": "foo"}}}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(10, 0, 0, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    // The remaining pods succeed, however many are still not terminal.
    let rest: Vec<Pod> = job_pods(&sim, &job).into_iter().filter(is_active).collect();
    assert!(!rest.is_empty());
    for p in rest {
        let st = phase_status(&sim, "Succeeded");
        update_pod_status(&mut sim, p, st);
    }
    restart_controller(&mut sim);
    validate_job_failed(&mut sim, &job);
    let j = get_job(&sim, "test-job");
    assert_eq!(
        j.status
            .conditions
            .iter()
            .find(|c| c.type_ == "Failed")
            .map(|c| c.reason.as_str()),
        Some("BackoffLimitExceeded")
    );
    validate_no_orphan_pods_with_finalizers(&sim);
}

/// TestOrphanPodsFinalizersClearedOnRestart: the Job is deleted while the controller is down;
/// on restart its pods lose the tracking finalizer.
#[test]
fn orphan_pods_finalizers_cleared_on_restart() {
    let mut sim = setup(FeatureGates::default());
    let job = create_job(&mut sim, json!({"parallelism": 1}));
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    sim.set_controller_manager(false);
    sim.api
        .delete("Job", NS, "test-job", &DeleteOptions::default())
        .unwrap();
    sim.set_controller_manager(true);
    poll(&mut sim, "validateNoOrphanPodsWithFinalizers", |sim| {
        if sim
            .api
            .store
            .list::<Pod>(Some(NS))
            .any(has_tracking_finalizer)
        {
            Err("a pod keeps the finalizer".into())
        } else {
            Ok(())
        }
    });
}

/// TestSuspendJob: suspending deletes the active pods (Suspended condition True, reason
/// JobSuspended, event Suspended); resuming recreates them (condition False, JobResumed, event
/// Resumed).
#[test]
fn suspend_job() {
    // (create suspended, create active, update active, update status/reason, event)
    let rows = [
        (false, 2, 0, Some(("True", "JobSuspended")), "Suspended"),
        (true, 0, 2, Some(("False", "JobResumed")), "Resumed"),
    ];
    for (create, create_active, update_active, cond, event) in rows {
        let mut sim = default_sim();
        let job = create_job(
            &mut sim,
            json!({"parallelism": 2, "completions": 4, "suspend": create}),
        );
        validate_job_pods_status(&mut sim, &job, by_status(create_active, 0, 0, Some(0)));
        let j = get_job(&sim, "test-job");
        let susp = j
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "JobSuspended");
        let susp = j
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Suspended")
            .or(susp);
        if create {
            let c = susp.expect("Suspended condition");
            assert_eq!(
                (c.status.as_str(), c.reason.as_str()),
                ("True", "JobSuspended")
            );
            assert!(job_events(&sim, "test-job")
                .iter()
                .any(|(r, _)| r == "Suspended"));
        } else {
            assert!(susp.is_none());
        }
        update_job(&mut sim, "test-job", |j| j.spec.suspend = Some(!create));
        validate_job_pods_status(&mut sim, &job, by_status(update_active, 0, 0, Some(0)));
        let j = get_job(&sim, "test-job");
        let c = j
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Suspended")
            .expect("Suspended condition");
        let (st, reason) = cond.unwrap();
        assert_eq!((c.status.as_str(), c.reason.as_str()), (st, reason));
        assert!(
            job_events(&sim, "test-job").iter().any(|(r, _)| r == event),
            "{event}: {:?}",
            job_events(&sim, "test-job")
        );
    }
}

/// TestSuspendJobControllerRestart: a Job created suspended gets no pods.
#[test]
fn suspend_job_controller_restart() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 2, "completions": 4, "suspend": true}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(0, 0, 0, Some(0)));
    restart_controller(&mut sim);
    validate_job_pods_status(&mut sim, &job, by_status(0, 0, 0, Some(0)));
    assert!(job_pods(&sim, &job).is_empty());
}

/// TestNodeSelectorUpdate: unsuspending and setting the template's nodeSelector in one update
/// is allowed and the pod gets it; changing it again on the running Job is refused.
#[test]
fn node_selector_update() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({"parallelism": 1, "suspend": true}));
    update_job(&mut sim, "test-job", |j| {
        std::sync::Arc::make_mut(&mut j.spec.template).spec = {
            let mut s = (*j.spec.template.spec).clone();
            s.node_selector = [("foo".to_string(), "bar".to_string())].into();
            s.into()
        };
        j.spec.suspend = Some(false);
    });
    poll(&mut sim, "pod created", |sim| {
        if job_pods(sim, &get_job(sim, "test-job")).is_empty() {
            Err("no pod".into())
        } else {
            Ok(())
        }
    });
    let pods = job_pods(&sim, &job);
    assert_eq!(
        pods[0].spec.node_selector.get("foo").map(String::as_str),
        Some("bar")
    );
    let mut j = get_job(&sim, "test-job");
    let mut s = (*j.spec.template.spec).clone();
    s.node_selector = [("foo".to_string(), "baz".to_string())].into();
    std::sync::Arc::make_mut(&mut j.spec.template).spec = s.into();
    let err = sim
        .api
        .update(Object::Job(j))
        .expect_err("immutable template");
    assert!(
        err.to_string().contains("spec.template: Invalid value"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// test/e2e/apps/job.go specs that add behaviour the integration tests do not cover (no kubelet:
// the pods stay Pending, as upstream's `notTerminate` pods stay Running).

/// e2e "should fail when exceeds active deadline": DeadlineExceeded, and the pods go.
#[test]
fn e2e_fails_when_exceeds_active_deadline() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 1, "completions": 1, "backoffLimit": 6,
               "activeDeadlineSeconds": 1}),
    );
    validate_job_failed(&mut sim, &job);
    let j = get_job(&sim, "test-job");
    let failed = j
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Failed")
        .unwrap();
    assert_eq!(failed.reason, "DeadlineExceeded");
    assert_eq!(
        failed.message,
        "Job was active longer than specified deadline"
    );
    let ft = j
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "FailureTarget")
        .expect("interim FailureTarget");
    assert_eq!(ft.reason, "DeadlineExceeded");
    assert_eq!(j.status.active, 0);
    assert_eq!(
        j.status.failed, 1,
        "the deleted active pod counts as failed"
    );
    assert!(job_events(&sim, "test-job")
        .iter()
        .any(|(r, m)| r == "DeadlineExceeded"
            && m == "Job was active longer than specified deadline"));
    validate_no_orphan_pods_with_finalizers(&sim);
}

/// e2e "should adopt matching orphans and release non-matching pods": an orphaned pod is
/// re-adopted (controller ref back); a pod whose labels no longer match is released.
#[test]
fn e2e_adopts_matching_orphans_and_releases_non_matching_pods() {
    let mut sim = default_sim();
    let job = create_job(&mut sim, json!({"parallelism": 2, "completions": 4}));
    validate_job_pods_status(&mut sim, &job, by_status(2, 0, 0, Some(0)));
    let j = get_job(&sim, "test-job");
    let mut pods = job_pods(&sim, &job);
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    // Orphan the first pod.
    let mut p = pods[0].clone();
    p.metadata.owner_references = Vec::new().into();
    sim.api.update(Object::Pod(p.clone())).unwrap();
    sim.settle().unwrap();
    poll(&mut sim, "re-adopted", |sim| {
        let p = sim
            .api
            .store
            .get::<Pod>(NS, &pods[0].metadata.name)
            .unwrap();
        match p.metadata.controller_ref() {
            Some(r) if r.uid == j.metadata.uid && r.kind == "Job" => Ok(()),
            other => Err(format!("controller ref {other:?}")),
        }
    });
    // Release the second pod: drop the Job's labels.
    let mut p = sim
        .api
        .store
        .get::<Pod>(NS, &pods[1].metadata.name)
        .unwrap()
        .clone();
    p.metadata.labels = Default::default();
    sim.api.update(Object::Pod(p)).unwrap();
    sim.settle().unwrap();
    poll(&mut sim, "released", |sim| {
        let p = sim
            .api
            .store
            .get::<Pod>(NS, &pods[1].metadata.name)
            .unwrap();
        if p.metadata.controller_ref().is_none() {
            Ok(())
        } else {
            Err("still owned".into())
        }
    });
    // The released pod is replaced.
    validate_job_pods_status(&mut sim, &job, by_status(2, 0, 0, Some(0)));
}

/// e2e "should fail to exceed backoffLimit": backoffLimit 1, every pod fails; the Job fails
/// with BackoffLimitExceeded after backoffLimit+1 pods.
#[test]
fn e2e_fails_to_exceed_backoff_limit() {
    let mut sim = default_sim();
    let job = create_job(
        &mut sim,
        json!({"parallelism": 1, "completions": 1, "backoffLimit": 1}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_pods_status(&mut sim, &job, by_status(1, 0, 1, Some(0)));
    set_job_pods_phase(&mut sim, &job, "Failed", 1);
    validate_job_failed(&mut sim, &job);
    let j = get_job(&sim, "test-job");
    assert_eq!(
        conditions(&sim, &job),
        conds(&[
            ("FailureTarget", "BackoffLimitExceeded"),
            ("Failed", "BackoffLimitExceeded")
        ])
    );
    assert_eq!(j.status.failed, 2);
    assert_eq!(job_pods(&sim, &job).len(), 2);
}

// ---------------------------------------------------------------------------------------------
// Tests that toggle a feature gate mid-test (`Simulation::set_feature_gate`).

/// TestSuccessPolicy_ReEnabling: succeeded indexes counted while JobSuccessPolicy was off
/// still count once it is back on.
#[test]
fn success_policy_re_enabling() {
    let mut sim = setup(gates(&[("JobSuccessPolicy", true)]));
    let job = create_job(
        &mut sim,
        json!({"parallelism": 5, "completions": 5, "completionMode": "Indexed",
               "successPolicy": {"rules": [{"succeededCount": 3}]}}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(5, 0, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 1, 2, 3, 4], "", None);
    set_job_phase_for_index(&mut sim, &job, "Succeeded", 0);
    validate_job_pods_status(&mut sim, &job, by_status(4, 1, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[1, 2, 3, 4], "0", None);
    sim.set_feature_gate("JobSuccessPolicy", false);
    set_job_phase_for_index(&mut sim, &job, "Succeeded", 1);
    validate_job_pods_status(&mut sim, &job, by_status(3, 2, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[2, 3, 4], "0,1", None);
    sim.set_feature_gate("JobSuccessPolicy", true);
    set_job_phase_for_index(&mut sim, &job, "Succeeded", 2);
    validate_job_pods_status(&mut sim, &job, by_status(0, 3, 0, Some(2)));
    validate_indexed_job_pods(&mut sim, &job, &[], "0-2", None);
    validate_job_condition(&mut sim, &job, "SuccessCriteriaMet");
    validate_job_complete(&mut sim, &job);
    validate_finished_pods_no_finalizer(&sim, &job);
    let c = conditions(&sim, &job);
    assert_eq!(
        c,
        conds(&[
            ("SuccessCriteriaMet", "SuccessPolicy"),
            ("Complete", "SuccessPolicy")
        ])
    );
}

/// TestBackoffLimitPerIndex_Reenabling: with JobBackoffLimitPerIndex off the per-index limit
/// is ignored (failedIndexes dropped); back on, failed pods without finalizers are ignored.
#[test]
fn backoff_limit_per_index_reenabling() {
    let mut sim = setup(gates(&[("JobBackoffLimitPerIndex", true)]));
    let job = create_job(
        &mut sim,
        json!({"parallelism": 3, "completions": 3, "backoffLimitPerIndex": 0,
               "completionMode": "Indexed"}),
    );
    validate_job_pods_status(&mut sim, &job, by_status(3, 0, 0, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 1, 2], "", Some(""));
    set_job_phase_for_index(&mut sim, &job, "Failed", 0);
    validate_job_pods_status(&mut sim, &job, by_status(2, 0, 1, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[1, 2], "", Some("0"));
    sim.set_feature_gate("JobBackoffLimitPerIndex", false);
    set_job_phase_for_index(&mut sim, &job, "Failed", 1);
    validate_job_pods_status(&mut sim, &job, by_status(3, 0, 2, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 1, 2], "", None);
    sim.set_feature_gate("JobBackoffLimitPerIndex", true);
    set_job_phase_for_index(&mut sim, &job, "Failed", 2);
    validate_job_pods_status(&mut sim, &job, by_status(2, 0, 3, Some(0)));
    validate_indexed_job_pods(&mut sim, &job, &[0, 1], "", Some("2"));
    set_job_pods_phase(&mut sim, &job, "Succeeded", 2);
    validate_job_failed(&mut sim, &job);
    validate_finished_pods_no_finalizer(&sim, &job);
}

/// TestManagedBy_Reenabling: a Job with a custom managedBy is skipped while JobManagedBy is
/// on, reconciled while it is off, and skipped again once it is back on (controller restarts
/// between).
#[test]
fn managed_by_reenabling() {
    let mut sim = setup(gates(&[("JobManagedBy", true)]));
    let job = create_named_job(
        &mut sim,
        "custom-job-test",
        json!({}),
        json!({"completions": 1, "parallelism": 1,
               "managedBy": "example.com/custom-job-controller",
               "template": {"spec": {"containers": [{"name": "main-container",
                                                     "image": "foo"}]}}}),
    );
    wait(&mut sim);
    assert_eq!(
        *get_job(&sim, "custom-job-test").status,
        kubeplay::api::batch::JobStatus::default()
    );
    sim.set_feature_gate("JobManagedBy", false);
    restart_controller(&mut sim);
    validate_jobs_pods_status_only(&mut sim, &job, by_status(1, 0, 0, Some(0)));
    sim.set_feature_gate("JobManagedBy", true);
    restart_controller(&mut sim);
    set_job_pods_phase(&mut sim, &job, "Succeeded", 1);
    wait(&mut sim);
    validate_jobs_pods_status_only(&mut sim, &job, by_status(1, 0, 0, Some(0)));
}

/// TestJobPodReplacementPolicyFeatureToggling: the Failed replacement policy holds back
/// replacements while on; off, the terminating pods count as failed and are replaced; on
/// again, deleted pods wait once more.
#[test]
fn job_pod_replacement_policy_feature_toggling() {
    let mut sim = setup(gates(&[("JobPodReplacementPolicy", true)]));
    let job = create_job(
        &mut sim,
        json!({"parallelism": 2, "completions": 2, "completionMode": "NonIndexed",
               "podReplacementPolicy": "Failed"}),
    );
    validate_jobs_pods_status_only(&mut sim, &job, by_status(2, 0, 0, Some(0)));
    delete_pods(&mut sim);
    validate_jobs_pods_status_only(&mut sim, &job, by_status(0, 0, 0, Some(2)));
    sim.set_feature_gate("JobPodReplacementPolicy", false);
    restart_controller(&mut sim);
    validate_jobs_pods_status_only(&mut sim, &job, by_status(2, 0, 2, None));
    sim.set_feature_gate("JobPodReplacementPolicy", true);
    restart_controller(&mut sim);
    poll(&mut sim, "waitForPodsToBeActive", |sim| {
        if get_job(sim, "test-job").status.active == 2 {
            Ok(())
        } else {
            Err("not 2 active".into())
        }
    });
    delete_pods(&mut sim);
    validate_jobs_pods_status_only(&mut sim, &job, by_status(0, 0, 2, Some(2)));
}
