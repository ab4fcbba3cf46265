//! `kubectl create cronjob` against upstream's pkg/cmd/create/create_cronjob_test.go
//! (staging/src/k8s.io/kubectl): `createCronJob`'s object and the required flags.

use super::super::execute;
use super::super::testutil::sim;
use crate::api::CronJob;

// Upstream: TestCreateCronJob (create_cronjob_test.go): the object for an image, a schedule,
// a restart policy and a command.
#[test]
fn create_cron_job_builds_upstreams_object() {
    let mut sim = sim();
    let out = execute(
        &mut sim,
        "create cronjob hello --image=busybox --schedule='*/1 * * * *' -- date",
    )
    .unwrap();
    assert_eq!(out, "cronjob.batch/hello created");
    let cj = sim
        .api
        .store
        .get::<CronJob>("default", "hello")
        .unwrap()
        .clone();
    assert_eq!(cj.spec.schedule, "*/1 * * * *");
    assert_eq!(cj.spec.job_template.metadata.name, "hello");
    let v = serde_json::to_value(&cj.spec.job_template.spec).unwrap();
    let c = &v["template"]["spec"]["containers"][0];
    assert_eq!(c["name"], "hello");
    assert_eq!(c["image"], "busybox");
    assert_eq!(c["command"], serde_json::json!(["date"]));
    assert_eq!(v["template"]["spec"]["restartPolicy"], "OnFailure");

    execute(
        &mut sim,
        "create cronjob never --image=busybox --schedule=@hourly --restart=Never",
    )
    .unwrap();
    let cj = sim
        .api
        .store
        .get::<CronJob>("default", "never")
        .unwrap()
        .clone();
    let v = serde_json::to_value(&cj.spec.job_template.spec).unwrap();
    assert_eq!(v["template"]["spec"]["restartPolicy"], "Never");
}

// Upstream: `MarkFlagRequired("image")` / `("schedule")` (cobra's message), and the server's
// validation of the schedule and the restart policy.
#[test]
fn create_cron_job_errors() {
    let mut sim = sim();
    assert_eq!(
        execute(&mut sim, "create cronjob hello").unwrap_err(),
        "error: required flag(s) \"image\", \"schedule\" not set"
    );
    assert_eq!(
        execute(&mut sim, "create cronjob hello --image=busybox").unwrap_err(),
        "error: required flag(s) \"schedule\" not set"
    );
    let e = execute(
        &mut sim,
        "create cronjob bad --image=busybox --schedule='61 * * * *'",
    )
    .unwrap_err();
    assert!(
        e.starts_with("error: failed to create cronjob: CronJob.batch \"bad\" is invalid: spec.schedule: Invalid value: \"61 * * * *\""),
        "{e}"
    );
    let e = execute(
        &mut sim,
        "create cronjob bad --image=busybox --schedule=@daily --restart=Always",
    )
    .unwrap_err();
    assert!(
        e.contains("spec.jobTemplate.spec.template.spec.restartPolicy"),
        "{e}"
    );
}
