//! Port of the 1.35-applicable rows of `TestDeclarativeValidate` and
//! `TestDeclarativeValidateUpdate` (pkg/registry/batch/cronjob/declarative_validation_test.go,
//! kubernetes/kubernetes): `VerifyValidationEquivalence` requires the handwritten validation to
//! return exactly the listed errors, compared here by field and type. The rows about
//! `jobTemplate.spec.scheduling` (GenericWorkload / WorkloadWithJob, 1.36) are not ported: the
//! field is not modelled.

use super::*;
use crate::api::FieldErrorType;
use crate::api::Object;

/// `mkCronJob()`: `validCronjobSpec` (schedule "5 5 * * ?", Allow, Asia/Shanghai, an Indexed
/// job template of 10 completions and parallelism 10) named test-class in test-namespace.
fn mk_cron_job() -> CronJob {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "test-class", "namespace": "test-namespace"},
        "spec": {
            "schedule": "5 5 * * ?",
            "concurrencyPolicy": "Allow",
            "timeZone": "Asia/Shanghai",
            "jobTemplate": {"spec": {
                "completionMode": "Indexed", "completions": 10, "parallelism": 10,
                "template": {"spec": {"restartPolicy": "OnFailure",
                    "containers": [{"name": "ctr", "image": "img"}]}}
            }}
        }
    });
    let mut o = Object::from_value(v).unwrap();
    crate::api::defaults::default_object(&mut o);
    let Object::CronJob(cj) = o else {
        unreachable!()
    };
    cj
}

fn fields(errs: &[FieldError]) -> Vec<(String, String)> {
    errs.iter()
        .map(|e| {
            let t = match &e.type_ {
                FieldErrorType::Required => "Required",
                FieldErrorType::Invalid => "Invalid",
                FieldErrorType::Unsupported(_) => "NotSupported",
                FieldErrorType::Forbidden => "Forbidden",
                FieldErrorType::Duplicate => "Duplicate",
                FieldErrorType::TooLong(_) => "TooLong",
                FieldErrorType::TooMany(_) => "TooMany",
                FieldErrorType::NotFound => "NotFound",
                FieldErrorType::Internal => "Internal",
            };
            (e.field.clone(), t.to_string())
        })
        .collect()
}

fn want(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect()
}

fn tolerate(cj: &mut CronJob, key: &str) {
    let t: crate::api::Toleration =
        serde_json::from_value(serde_json::json!({"key": key, "operator": "Exists"})).unwrap();
    cj.spec
        .job_template
        .spec
        .template_mut()
        .spec_mut()
        .tolerations = vec![t];
}

// upstream: TestDeclarativeValidate (pkg/registry/batch/cronjob/declarative_validation_test.go)
#[test]
fn cron_job_declarative_validate() {
    type Row = (
        &'static str,
        Box<dyn Fn(&mut CronJob)>,
        Vec<(&'static str, &'static str)>,
    );
    let rows: Vec<Row> = vec![
        ("valid", Box::new(|_| {}), vec![]),
        (
            "schedule: empty",
            Box::new(|cj| cj.spec.schedule.clear()),
            vec![("spec.schedule", "Required")],
        ),
        (
            "jobTemplate.spec.maxFailedIndexes set without backoffLimitPerIndex",
            Box::new(|cj| cj.spec.job_template.spec.max_failed_indexes = Some(5)),
            vec![("spec.jobTemplate.spec.backoffLimitPerIndex", "Required")],
        ),
        (
            "jobTemplate.spec.maxFailedIndexes and backoffLimitPerIndex both set",
            Box::new(|cj| {
                let s = &mut cj.spec.job_template.spec;
                s.max_failed_indexes = Some(5);
                s.backoff_limit_per_index = Some(1);
            }),
            vec![],
        ),
        (
            "tolerations: valid key",
            Box::new(|cj| tolerate(cj, "example.com/valid-key")),
            vec![],
        ),
        (
            "tolerations: valid key without prefix",
            Box::new(|cj| tolerate(cj, "simple-key")),
            vec![],
        ),
        (
            "tolerations: invalid key format",
            Box::new(|cj| tolerate(cj, "invalid key")),
            vec![(
                "spec.jobTemplate.spec.template.spec.tolerations[0].key",
                "Invalid",
            )],
        ),
    ];
    let mut failures = vec![];
    for (name, f, w) in rows {
        let mut cj = mk_cron_job();
        f(&mut cj);
        let errs = validate_cron_job_create(&cj);
        if fields(&errs) != want(&w) {
            let t: Vec<String> = errs.iter().map(ToString::to_string).collect();
            failures.push(format!("{name}: want {w:?}, got {t:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// upstream: TestDeclarativeValidateUpdate (pkg/registry/batch/cronjob/declarative_validation_test.go)
#[test]
fn cron_job_declarative_validate_update() {
    let mut old = mk_cron_job();
    old.metadata.resource_version = "1".into();
    let mut same = mk_cron_job();
    same.metadata.resource_version = "2".into();
    let errs = validate_cron_job_update(&same, &old);
    assert!(errs.is_empty(), "valid (no changes): {errs:?}");

    let mut empty = mk_cron_job();
    empty.metadata.resource_version = "2".into();
    empty.spec.schedule.clear();
    let errs = validate_cron_job_update(&empty, &old);
    assert_eq!(
        fields(&errs),
        want(&[("spec.schedule", "Required")]),
        "schedule: updated to empty: {errs:?}"
    );
}
