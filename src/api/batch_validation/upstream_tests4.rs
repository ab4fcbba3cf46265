//! Ports of the CronJob REST strategy tests (pkg/registry/batch/cronjob/strategy_test.go),
//! through the API server (create, update and `PUT .../status` run the strategy).
//!
//! Not ported: the GarbageCollectionPolicy part of TestCronJobStrategy (kubeplay serves only
//! batch/v1, whose default is DeleteDependents), TestStrategy_ResetFields /
//! TestCronJobStatusStrategy_ResetFields (server-side apply field sets) and
//! TestCronJobStrategy_WarningsOnCreate / _WarningsOnUpdate (kubeplay returns no warnings).

use crate::api::batch::{CronJob, CronJobSpec, JobSpec, JobTemplateSpec};
use crate::api::{Container, Labels, Object, PodSpec, PodTemplateSpec, Time};
use crate::store::apiserver::ApiServer;
use std::sync::Arc;

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

/// `validPodTemplateSpec`: restartPolicy OnFailure, one container `abc`.
fn template() -> Arc<PodTemplateSpec> {
    Arc::new(PodTemplateSpec {
        spec: Arc::new(PodSpec {
            restart_policy: "OnFailure".into(),
            containers: vec![Container {
                name: "abc".into(),
                image: "image".into(),
                ..Default::default()
            }],
            ..Default::default()
        }),
        ..Default::default()
    })
}

fn cron_job(name: &str, schedule: &str) -> CronJob {
    let mut cj = CronJob::default();
    cj.metadata.name = name.into();
    cj.metadata.namespace = "default".into();
    cj.spec = CronJobSpec {
        schedule: schedule.into(),
        concurrency_policy: "Allow".into(),
        job_template: Box::new(JobTemplateSpec {
            spec: JobSpec {
                template: template(),
                ..Default::default()
            },
            ..Default::default()
        }),
        ..Default::default()
    }
    .into();
    cj
}

fn get(api: &ApiServer, name: &str) -> CronJob {
    api.store.get::<CronJob>("default", name).unwrap().clone()
}

// Upstream: TestCronJobStrategy. Create clears status and sets generation 1 (the "?" day-of-week
// of "* * * * ?" is valid); a label change keeps the generation; a spec change bumps it and
// keeps the stored status; an update to an invalid spec is refused.
#[test]
fn cron_job_strategy() {
    let mut api = ApiServer::new(1, now());
    let mut cj = cron_job("mycronjob", "* * * * ?");
    cj.metadata.generation = 999;
    cj.status.active = vec![crate::api::batch::ObjectReference {
        name: "x".into(),
        ..Default::default()
    }];
    api.create(Object::CronJob(cj))
        .expect("a valid CronJob is created");
    let created = get(&api, "mycronjob");
    assert!(
        created.status.active.is_empty(),
        "CronJob does not allow setting status on create"
    );
    assert_eq!(created.metadata.generation, 1);

    // Non-spec update: the generation stays.
    let mut labelled = created.clone();
    labelled.metadata.labels = Labels::from([("a".to_string(), "true".to_string())]).into();
    api.update(Object::CronJob(labelled)).expect("label update");
    let after_labels = get(&api, "mycronjob");
    assert_eq!(after_labels.metadata.generation, 1);

    // Spec update with a status: the status is the stored one, the generation moves to 2.
    let mut updated = after_labels.clone();
    updated.spec.schedule = "5 5 5 * ?".into();
    updated.status.last_schedule_time = Some(now());
    api.update(Object::CronJob(updated))
        .expect("schedule update");
    let after_spec = get(&api, "mycronjob");
    assert_eq!(after_spec.metadata.generation, 2);
    assert_eq!(
        after_spec.status.last_schedule_time, None,
        "PrepareForUpdate should have preserved prior version status"
    );

    // Upstream's updated object ("bar", schedule only, no job template) fails validation.
    let mut invalid = get(&api, "mycronjob");
    invalid.spec = CronJobSpec {
        schedule: "5 5 5 * ?".into(),
        ..Default::default()
    }
    .into();
    let err = api
        .update(Object::CronJob(invalid))
        .expect_err("Expected a validation error");
    assert!(!err.causes.is_empty(), "{err:?}");
}

// Upstream: TestCronJobStatusStrategy: a status write takes the status and keeps the spec, and
// is valid.
#[test]
fn cron_job_status_strategy() {
    let mut api = ApiServer::new(1, now());
    api.create(Object::CronJob(cron_job("mycronjob", "* * * * ?")))
        .expect("created");
    let mut new = get(&api, "mycronjob");
    new.spec.schedule = "5 5 * * ?".into();
    new.status.last_schedule_time = Some(now());
    api.update_status(Object::CronJob(new))
        .expect("status update is valid");
    let got = get(&api, "mycronjob");
    assert_eq!(
        got.status.last_schedule_time,
        Some(now()),
        "CronJob status updates must allow changes to cronJob status"
    );
    assert_eq!(
        got.spec.schedule, "* * * * ?",
        "CronJob status updates must not allow changes to cronJob spec"
    );
}
