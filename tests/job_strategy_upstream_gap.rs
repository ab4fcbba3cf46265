//! Ports of the Job REST strategy tests not covered elsewhere
//! (`pkg/registry/batch/job/strategy_test.go`, repo kubernetes/kubernetes):
//! `TestJobStrategy_ValidateUpdate_MutableSchedulingDirectives`,
//! `TestJobStrategy_ValidateUpdate_MutablePodResources` and
//! `TestJobStrategy_GarbageCollectionPolicy`.
//!
//! The strategy's `ValidateUpdate` is [`validate_job_update`]; upstream compares errors by type and
//! field only (`ignoreErrValueDetail`), and so do these ports.
//!
//! Feature gates: MutableSchedulingDirectivesForSuspendedJobs and
//! MutablePodResourcesForSuspendedJobs are alpha and off by default in 1.35 (kubeplay models the
//! 1.35 defaults and has neither gate), so only the rows with the gate disabled are ported.

use kubeplay::api::batch::{Job, JobCondition};
use kubeplay::api::batch_validation::validate_job_update;
use kubeplay::api::errors::FieldErrorType::{self, Invalid};
use kubeplay::api::{Object, Time};
use kubeplay::store::apiserver::{ApiServer, DeleteOptions, Propagation, FINALIZER_ORPHAN};
use serde_json::json;

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

/// `podtest.MakePodSpec(podtest.SetRestartPolicy(api.RestartPolicyOnFailure))` with the
/// selector's labels: the `job` of every row, before `f` sets its suspend flag and status.
fn job(f: impl FnOnce(&mut Job)) -> Job {
    let mut j: Job = serde_json::from_value(json!({
        "metadata": {"name": "myjob", "namespace": "default", "resourceVersion": "0"},
        "spec": {
            "selector": {"matchLabels": {"a": "b"}},
            "manualSelector": true,
            "parallelism": 1,
            "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"restartPolicy": "OnFailure",
                    "containers": [{"name": "ctr", "image": "image"}]}
            }
        }
    }))
    .unwrap();
    kubeplay::api::defaults::default_pod_spec(j.spec.template_mut().spec_mut());
    f(&mut j);
    j
}

fn suspended_condition(status: &str) -> JobCondition {
    JobCondition {
        type_: "Suspended".into(),
        status: status.into(),
        ..Default::default()
    }
}

fn errors(new: &Job, old: &Job) -> Vec<(FieldErrorType, String)> {
    validate_job_update(new, old)
        .into_iter()
        .map(|e| (e.type_, e.field))
        .collect()
}

fn set_node_selector(j: &mut Job) {
    j.spec.template_mut().spec_mut().node_selector =
        [("key".to_string(), "value".to_string())].into();
}

// Port of TestJobStrategy_ValidateUpdate_MutableSchedulingDirectives
// (pkg/registry/batch/job/strategy_test.go), the rows with the gate disabled.
#[test]
fn job_strategy_validate_update_mutable_scheduling_directives() {
    type Row = (&'static str, Job, Vec<(FieldErrorType, &'static str)>);
    let rows: Vec<Row> = vec![
        (
            "feature gate disabled - scheduling directives update allowed for suspended job never started",
            job(|j| {
                j.spec.suspend = Some(true);
                j.status.conditions = vec![suspended_condition("True")];
            }),
            vec![],
        ),
        (
            "feature gate disabled - scheduling directives update rejected for unsuspended Job",
            job(|j| {
                j.spec.suspend = Some(true);
                j.status.active = 1;
                j.status.start_time = Some(now());
            }),
            vec![(Invalid, "spec.template")],
        ),
        (
            "feature gate disabled - scheduling directives update rejected for suspended Job which was running in the past",
            job(|j| {
                j.spec.suspend = Some(true);
                j.status.start_time = Some(now());
                j.status.conditions = vec![suspended_condition("True")];
            }),
            vec![(Invalid, "spec.template")],
        ),
    ];
    for (name, old, want) in rows {
        let mut new = old.clone();
        set_node_selector(&mut new);
        let want: Vec<(FieldErrorType, String)> =
            want.into_iter().map(|(t, f)| (t, f.to_string())).collect();
        assert_eq!(errors(&new, &old), want, "{name}");
    }
}

// Port of TestJobStrategy_ValidateUpdate_MutablePodResources
// (pkg/registry/batch/job/strategy_test.go), the row with the gate disabled: a suspended Job
// that never started may change its scheduling directives, not its containers' resources.
#[test]
fn job_strategy_validate_update_mutable_pod_resources() {
    let old = job(|j| {
        j.spec.suspend = Some(true);
        j.status.conditions = vec![suspended_condition("True")];
    });
    let mut new = old.clone();
    new.spec.template_mut().spec_mut().containers[0]
        .resources
        .get_or_insert_with(Default::default)
        .requests
        .insert("cpu".into(), serde_json::from_value(json!("200m")).unwrap());
    assert_eq!(
        errors(&new, &old),
        vec![(Invalid, "spec.template".to_string())],
        "feature gate disabled - pod resource updates rejected"
    );
}

// Port of TestJobStrategy_GarbageCollectionPolicy (pkg/registry/batch/job/strategy_test.go), the
// batch/v1 row: a Job deleted without a propagation policy orphans its pods ("for back
// compatibility"). kubeplay serves batch/v1 only, so the rows without request info or with
// another version (DeleteDependents) have no counterpart. An explicit policy still decides.
#[test]
fn job_strategy_garbage_collection_policy() {
    let load = |api: &mut ApiServer| {
        let j = job(|j| j.metadata.resource_version.clear());
        api.load(Object::Job(j)).expect("job loads");
    };
    let finalizers = |o: Object| o.meta().finalizers.clone();

    let mut api = ApiServer::new(1, now());
    load(&mut api);
    let got = api
        .delete("Job", "default", "myjob", &DeleteOptions::default())
        .expect("delete");
    assert_eq!(finalizers(got), vec![FINALIZER_ORPHAN.to_string()]);

    let mut api = ApiServer::new(1, now());
    load(&mut api);
    let opts = DeleteOptions {
        propagation: Some(Propagation::Background),
        ..Default::default()
    };
    api.delete("Job", "default", "myjob", &opts)
        .expect("delete");
    assert!(
        api.store.get::<Job>("default", "myjob").is_none(),
        "background deletion removes the Job at once"
    );
}

// Port of TestCronJobStrategy's DefaultGarbageCollectionPolicy checks
// (pkg/registry/batch/cronjob/strategy_test.go): for batch/v1 (any version but v1beta1) a
// CronJob deleted without a propagation policy deletes its dependents in the background, unlike
// a Job: no orphan finalizer, the CronJob is gone at once.
#[test]
fn cron_job_strategy_garbage_collection_policy() {
    let mut api = ApiServer::new(1, now());
    let cj = json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "mycronjob", "namespace": "default"},
        "spec": {"schedule": "* * * * ?", "concurrencyPolicy": "Allow",
            "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "OnFailure",
                "containers": [{"name": "abc", "image": "image"}]}}}}}
    });
    api.create(Object::from_value(cj).unwrap())
        .expect("valid CronJob");
    let got = api
        .delete("CronJob", "default", "mycronjob", &DeleteOptions::default())
        .expect("delete");
    assert!(
        !got.meta().finalizers.iter().any(|f| f == FINALIZER_ORPHAN),
        "{:?}",
        got.meta().finalizers
    );
    assert!(api
        .store
        .get::<kubeplay::api::batch::CronJob>("default", "mycronjob")
        .is_none());
}

// End to end, the row "valid transition to Complete for suspended Job with completions=0;
// without startTime" of TestStatusStrategy_ValidateUpdate (kubernetes/kubernetes#132144): the
// Job controller completes a suspended Job with `completions: 0` at once, and the API server
// takes that status although the Job never started.
#[test]
fn suspended_job_with_zero_completions_completes() {
    let text = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata:
  name: suspended-zero-completions
objects:
  - apiVersion: batch/v1
    kind: Job
    metadata:
      name: suspended-zero-completions
    spec:
      completions: 0
      suspend: true
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: c
              image: busybox
"#;
    let s = kubeplay::scenario::Scenario::parse(text).expect("parses");
    let mut sim = s.build().expect("builds");
    let end = sim.start + kubeplay::api::Duration::from_secs(60);
    sim.run_until(end).expect("runs");
    let j = sim
        .api
        .store
        .get::<Job>("default", "suspended-zero-completions")
        .expect("job")
        .clone();
    let complete = j
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "Complete" && c.status == "True");
    assert!(complete, "{:?}", j.status);
    assert_eq!(j.status.start_time, None);
    assert!(j.status.completion_time.is_some());
}
