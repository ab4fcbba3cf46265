//! Ports of `TestJobStrategy_WarningsOnCreate` and `TestJobStrategy_WarningsOnUpdate`
//! (pkg/registry/batch/job/strategy_test.go, repo kubernetes/kubernetes): upstream counts the
//! warnings; the texts asserted here are those of `jobStrategy.WarningsOnCreate` (DNS-label name
//! warning), `job.WarningsForJobSpec` and `pod.GetWarningsForPodTemplate`.

use super::object::Object;
use super::warnings::{warnings_on_create, warnings_on_update};
use crate::features::FeatureGates;
use serde_json::{json, Value};

/// A Job named `name` at `generation`; `spec` is merged over a manual-selector spec with
/// `validPodTemplateSpec` (labels a=b, restartPolicy OnFailure, one container).
fn job(name: &str, generation: i64, spec: Value) -> Object {
    let mut s = json!({
        "selector": {"matchLabels": {"a": "b"}}, "manualSelector": true, "parallelism": 1,
        "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"restartPolicy": "OnFailure",
            "containers": [{"name": "ctr", "image": "image", "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "File"}]}},
    });
    if let (Some(s), Value::Object(extra)) = (s.as_object_mut(), spec) {
        s.extend(extra);
    }
    let mut o = Object::from_value(json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name, "namespace": "default", "resourceVersion": "0"},
        "spec": s,
    }))
    .expect("test Job decodes");
    o.meta_mut().generation = generation;
    o
}

const HIGH: &str = "spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail";

// upstream: TestJobStrategy_WarningsOnUpdate
#[test]
fn job_strategy_warnings_on_update() {
    let g = FeatureGates::default();
    // "generation 0 for both" and "generation 1 for new; force WarningsOnUpdate to check
    // PodTemplate for updates": a valid template gives no warning either way.
    let old = job("myjob", 0, json!({}));
    assert!(warnings_on_update(&job("myjob", 0, json!({})), &old, &g).is_empty());
    assert!(warnings_on_update(&job("myjob", 1, json!({})), &old, &g).is_empty());
    // "force validation failure in pod template": an empty imagePullSecrets name.
    let bad = job(
        "myjob",
        1,
        json!({"template": {"spec": {"imagePullSecrets": [{"name": ""}],
            "containers": [{"name": "ctr", "image": "image"}]}}}),
    );
    assert_eq!(
        warnings_on_update(&bad, &old, &g),
        ["spec.template.spec.imagePullSecrets[0].name: invalid empty name \"\""]
    );
    // The same template without a generation change: WarningsOnUpdate looks at nothing.
    let bad_same_generation = job(
        "myjob",
        0,
        json!({"template": {"spec": {"imagePullSecrets": [{"name": ""}],
            "containers": [{"name": "ctr", "image": "image"}]}}}),
    );
    assert!(warnings_on_update(&bad_same_generation, &old, &g).is_empty());
    // "Invalid transition to high parallelism".
    let indexed = |generation: i64, parallelism: i32| {
        job(
            "myjob2",
            generation,
            json!({"completionMode": "Indexed", "completions": 100_001, "parallelism": parallelism}),
        )
    };
    assert_eq!(
        warnings_on_update(&indexed(1, 10_001), &indexed(0, 10_000), &g),
        [HIGH]
    );
}

// upstream: TestJobStrategy_WarningsOnCreate
#[test]
fn job_strategy_warnings_on_create() {
    let g = FeatureGates::default();
    let non_indexed = json!({"completionMode": "NonIndexed"});
    // "happy path job".
    assert!(warnings_on_create(&job("myjob2", 0, non_indexed.clone()), &g).is_empty());
    // "dns invalid name".
    assert_eq!(
        warnings_on_create(&job("my job2", 0, non_indexed), &g),
        ["metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]"]
    );
    // "high completions and parallelism".
    assert_eq!(
        warnings_on_create(
            &job(
                "myjob2",
                0,
                json!({"completionMode": "Indexed", "parallelism": 100_001, "completions": 100_001})
            ),
            &g
        ),
        [HIGH]
    );
}

/// `validCronjobSpec` (schedule "5 5 * * ?", concurrencyPolicy Allow, an Indexed job template
/// of 10 completions and parallelism 10, restartPolicy OnFailure) with `schedule` and
/// `template_spec` overriding the schedule and the pod spec.
fn cron_job(generation: i64, schedule: &str, template_spec: Value) -> Object {
    let mut o = Object::from_value(json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "mycronjob", "namespace": "default", "resourceVersion": "0"},
        "spec": {"schedule": schedule, "concurrencyPolicy": "Allow",
            "jobTemplate": {"spec": {"completionMode": "Indexed", "completions": 10,
                "parallelism": 10, "template": {"spec": template_spec}}}},
    }))
    .expect("test CronJob decodes");
    o.meta_mut().generation = generation;
    o
}

fn valid_pod_spec() -> Value {
    json!({"restartPolicy": "OnFailure", "containers": [{"name": "abc", "image": "image",
        "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}]})
}

// upstream: TestCronJobStrategy_WarningsOnUpdate (pkg/registry/batch/cronjob/strategy_test.go)
#[test]
fn cron_job_strategy_warnings_on_update() {
    let g = FeatureGates::default();
    let valid = |generation| cron_job(generation, "5 5 * * ?", valid_pod_spec());
    // "generation 0 for both".
    assert!(warnings_on_update(&valid(0), &valid(0), &g).is_empty());
    // "generation 1 for new; force WarningsOnUpdate to check PodTemplate for updates" (the old
    // CronJob is at generation 1, the new one at 0: they differ, the template is checked).
    assert!(warnings_on_update(&valid(0), &valid(1), &g).is_empty());
    // "force validation failure in pod template".
    let bad = cron_job(
        0,
        "5 5 * * ?",
        json!({"imagePullSecrets": [{"name": ""}], "containers": [{"name": "abc", "image": "image"}]}),
    );
    assert_eq!(
        warnings_on_update(&bad, &valid(1), &g),
        ["spec.jobTemplate.spec.template.spec.imagePullSecrets[0].name: invalid empty name \"\""]
    );
    // "timezone invalid failure": `cronjobSpecWithTZinSchedule` (its unknown timeZone is a
    // validation matter; the one warning is the TZ in the schedule).
    let mut tz = cron_job(0, "CRON_TZ=UTC 5 5 * * ?", valid_pod_spec());
    if let Object::CronJob(c) = &mut tz {
        c.spec.time_zone = Some("Asia/DoesNotExist".into());
    }
    assert_eq!(
        warnings_on_update(&tz, &valid(1), &g),
        ["cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"]
    );
}
