//! `AllowIndivisibleHugePagesValues` for Jobs and CronJobs (the Job and CronJob strategies
//! derive it from the stored pod template, as the Deployment strategy does: see
//! TestDeploymentStrategyValidateUpdate's two tables, ported for apps).

use crate::api::object::Object;
use serde_json::{json, Value};

fn job_template(hugepages: &str) -> Value {
    let list = json!({"cpu": "1", "hugepages-2Mi": hugepages});
    json!({
        "metadata": {"labels": {"app": "x"}},
        "spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "c", "image": "busybox",
                "resources": {"requests": list.clone(), "limits": list}}]
        }
    })
}

fn job(hugepages: &str) -> Object {
    let mut o = Object::from_value(json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "j", "namespace": "default", "resourceVersion": "1",
            "uid": "u-j"},
        "spec": {"template": job_template(hugepages)}
    }))
    .expect("job JSON");
    crate::api::defaults::default_object(&mut o);
    o
}

fn cron_job(hugepages: &str) -> Object {
    let mut o = Object::from_value(json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "cj", "namespace": "default", "resourceVersion": "1"},
        "spec": {"schedule": "* * * * *",
            "jobTemplate": {"spec": {"template": job_template(hugepages)}}}
    }))
    .expect("cronjob JSON");
    crate::api::defaults::default_object(&mut o);
    o
}

fn hugepage_fields(new: &Object, old: Option<&Object>) -> Vec<String> {
    crate::api::validation::validate_object(new, old)
        .into_iter()
        .filter(|e| e.field.contains("hugepages-"))
        .map(|e| e.field)
        .collect()
}

#[test]
fn job_update_keeps_an_indivisible_hugepages_value_already_stored() {
    let new = job("2.1Mi");
    assert_eq!(hugepage_fields(&new, None).len(), 2, "refused on create");
    assert_eq!(
        hugepage_fields(&new, Some(&job("3Mi"))),
        Vec::<String>::new()
    );
    assert_eq!(
        hugepage_fields(&new, Some(&job("4Mi"))),
        [
            "spec.template.spec.containers[0].resources.limits[hugepages-2Mi]",
            "spec.template.spec.containers[0].resources.requests[hugepages-2Mi]"
        ]
    );
}

#[test]
fn cron_job_update_keeps_an_indivisible_hugepages_value_already_stored() {
    let new = cron_job("2.1Mi");
    assert_eq!(hugepage_fields(&new, None).len(), 2, "refused on create");
    assert_eq!(
        hugepage_fields(&new, Some(&cron_job("3Mi"))),
        Vec::<String>::new()
    );
    assert_eq!(hugepage_fields(&new, Some(&cron_job("4Mi"))).len(), 2);
}
