//! `kubectl create job` against upstream's pkg/cmd/create/create_job_test.go (repo
//! kubernetes/kubernetes, staging/src/k8s.io/kubectl): its Validate, createJob and
//! createJobFromCronJob cases, run through the command.

use super::create_job::job_from_cron_job;
use super::execute;
use super::testutil::sim;
use crate::api::{CronJob, Job, Object};
use serde_json::json;

fn cron_job() -> CronJob {
    let o = Object::from_value(json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "xyz", "namespace": "default", "uid": "uid-xyz"},
        "spec": {"schedule": "*/1 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
            "containers": [{"name": "c", "image": "test-image"}], "restartPolicy": "Never"}}}}},
    }))
    .unwrap();
    let Object::CronJob(cj) = o else {
        unreachable!()
    };
    cj
}

fn stored_job(sim: &crate::sim::Simulation, name: &str) -> Job {
    sim.api.store.get::<Job>("default", name).unwrap().clone()
}

// Upstream: TestCreateJobValidation (pkg/cmd/create/create_job_test.go): "empty flags",
// "both image and from specified" and "from and command specified" (`Validate`).
#[test]
fn create_job_validation() {
    let mut sim = sim();
    sim.api.store.put(Object::CronJob(cron_job()));
    for (cmd, want) in [
        (
            "create job test-job",
            "error: either --image or --from must be specified",
        ),
        (
            "create job test-job --image=my-image --from=cronjob/xyz",
            "error: either --image or --from must be specified",
        ),
        (
            "create job test-job --from=cronjob/xyz -- test command",
            "error: cannot specify --from and command",
        ),
    ] {
        assert_eq!(execute(&mut sim, cmd).unwrap_err(), want, "{cmd}");
    }
    assert!(sim.api.store.get::<Job>("default", "test-job").is_none());
}

// Upstream: TestCreateJob (pkg/cmd/create/create_job_test.go), "just image" and "image and
// command": one container named after the Job with the image (and the command after `--`),
// restartPolicy Never.
#[test]
fn create_job_with_image() {
    let mut sim = sim();
    assert_eq!(
        execute(&mut sim, "create job test-job --image=busybox"),
        Ok("job.batch/test-job created".into())
    );
    assert_eq!(
        execute(&mut sim, "create job with-cmd --image=busybox -- date"),
        Ok("job.batch/with-cmd created".into())
    );
    for (name, command) in [("test-job", None), ("with-cmd", Some(json!(["date"])))] {
        let j = stored_job(&sim, name);
        let spec = &j.spec.template.spec;
        assert_eq!(spec.restart_policy, "Never");
        assert_eq!(spec.containers.len(), 1);
        let c = &spec.containers[0];
        assert_eq!((c.name.as_str(), c.image.as_str()), (name, "busybox"));
        assert_eq!(c.extra.get("command"), command.as_ref(), "{name}");
    }
}

// Upstream: TestCreateJobFromCronJob (pkg/cmd/create/create_job_test.go), "from CronJob": the
// instantiate annotation, a controller reference without blockOwnerDeletion, the job
// template's spec.
#[test]
fn create_job_from_cron_job_object() {
    let cj = cron_job();
    let j = job_from_cron_job("test-job", "default", &cj);
    assert_eq!(
        (j.api_version.as_str(), j.kind.as_str()),
        ("batch/v1", "Job")
    );
    assert_eq!(j.metadata.name, "test-job");
    let ann: Vec<(&str, &str)> = j
        .metadata
        .annotations
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(ann, [("cronjob.kubernetes.io/instantiate", "manual")]);
    let r = &j.metadata.owner_references[..];
    assert_eq!(r.len(), 1);
    assert_eq!(
        (
            r[0].api_version.as_str(),
            r[0].kind.as_str(),
            r[0].name.as_str()
        ),
        ("batch/v1", "CronJob", "xyz")
    );
    assert_eq!(
        (
            r[0].uid.as_str(),
            r[0].controller,
            r[0].block_owner_deletion
        ),
        ("uid-xyz", Some(true), None)
    );
    assert_eq!(*j.spec, cj.spec.job_template.spec);
}

// TestCreateJob's "image and command" Job as `--dry-run=client -o yaml` prints the typed object
// (its container's `resources` struct marshals as `{}`).
#[test]
fn create_job_with_image_dry_run_yaml() {
    let mut sim = sim();
    let out = execute(
        &mut sim,
        "create job test-job --image=busybox --dry-run=client -o yaml -- date",
    )
    .unwrap();
    assert!(
        out.contains("      containers:\n      - command:\n        - date\n        image: busybox\n        name: test-job\n        resources: {}\n      restartPolicy: Never\n"),
        "{out}"
    );
    assert!(sim.api.store.get::<Job>("default", "test-job").is_none());
}

// create_job.go's `NameFromCommandArgs` (the arguments before `--` are the name), `Run`'s
// "failed to create job: %v" and "unknown object type %T" errors.
#[test]
fn create_job_errors() {
    let mut sim = sim();
    sim.api.store.put(Object::CronJob(cron_job()));
    assert_eq!(
        execute(&mut sim, "create job a b --image=busybox").unwrap_err(),
        "error: exactly one NAME is required, got 2\nSee 'kubectl create job -h' for help and examples"
    );
    assert_eq!(
        execute(&mut sim, "create job test-job --from=cronjob/xyz"),
        Ok("job.batch/test-job created".into())
    );
    assert_eq!(
        execute(&mut sim, "create job test-job --image=busybox").unwrap_err(),
        "error: failed to create job: jobs.batch \"test-job\" already exists"
    );
    sim.api.store.put(Object::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {
            "metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}},
    })).unwrap());
    assert_eq!(
        execute(&mut sim, "create job other --from=deployment/web").unwrap_err(),
        "error: unknown object type *v1.Deployment"
    );
}
