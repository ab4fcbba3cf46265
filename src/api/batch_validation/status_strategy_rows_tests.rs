//! Rows of `TestStatusStrategy_ValidateUpdate` (pkg/registry/batch/job/strategy_test.go, repo
//! kubernetes/kubernetes) for RejectFailedJobWithoutFailureTarget and
//! RejectCompleteJobWithoutSuccessCriteriaMet, which `getStatusValidationOptions` turns on with
//! JobManagedBy (GA in 1.35) when "Failed or failedIndexes changed" and "Complete or
//! SuccessCriteriaMet changed". Errors are compared by type and field (upstream ignores value
//! and detail); the rows go through the API server's status hook ([`validate_status_update`]).

use crate::api::batch::{Job, JobCondition, JobSpec, JobStatus};
use crate::api::errors::FieldErrorType::{self, Invalid};
use crate::api::validation::status::validate_status_update;
use crate::api::{Duration, Object, Time};

fn now() -> Time {
    Time::parse_rfc3339("2025-03-01T10:00:00Z").unwrap()
}

fn cond(t: &str, status: &str) -> JobCondition {
    JobCondition {
        type_: t.into(),
        status: status.into(),
        ..Default::default()
    }
}

fn conds(types: &[&str]) -> Vec<JobCondition> {
    types.iter().map(|t| cond(t, "True")).collect()
}

/// `validObjectMeta` with `spec` and a status built by `f`.
fn job(spec: JobSpec, f: impl FnOnce(&mut JobStatus)) -> Job {
    let mut j = Job::default();
    j.metadata.name = "myjob".into();
    j.metadata.namespace = "default".into();
    j.metadata.resource_version = "10".into();
    let mut s = JobStatus::default();
    f(&mut s);
    j.spec = spec.into();
    j.status = s.into();
    j
}

type Row = (&'static str, Job, Job, Vec<(FieldErrorType, &'static str)>);

fn check(rows: Vec<Row>) {
    for (name, old, new, want) in rows {
        let got: Vec<(FieldErrorType, String)> =
            validate_status_update(&Object::Job(new), &Object::Job(old))
                .into_iter()
                .map(|e| (e.type_, e.field))
                .collect();
        let want: Vec<(FieldErrorType, String)> =
            want.into_iter().map(|(t, f)| (t, f.to_string())).collect();
        assert_eq!(got, want, "{name}");
    }
}

// upstream: TestStatusStrategy_ValidateUpdate (pkg/registry/batch/job/strategy_test.go), rows
// "invalid addition of Complete=True without SuccessCriteriaMet=True", "invalid addition of
// Failed=True without FailureTarget=True" and "verify startTime can be updated when resuming
// job (JobSuspended: True -> False)".
#[test]
fn status_strategy_terminal_conditions_need_interim_conditions() {
    let d = JobSpec::default;
    let later = now() + Duration::from_secs(60);
    let rows: Vec<Row> = vec![
        (
            "invalid addition of Complete=True without SuccessCriteriaMet=True",
            job(d(), |_| {}),
            job(d(), |s| {
                s.start_time = Some(now());
                s.completion_time = Some(now());
                s.conditions = conds(&["Complete"]);
            }),
            vec![(Invalid, "status.conditions")],
        ),
        (
            "invalid addition of Failed=True without FailureTarget=True",
            job(d(), |_| {}),
            job(d(), |s| {
                s.start_time = Some(now());
                s.conditions = conds(&["Failed"]);
            }),
            vec![(Invalid, "status.conditions")],
        ),
        (
            "verify startTime can be updated when resuming job (JobSuspended: True -> False)",
            job(d(), |s| {
                s.start_time = Some(now());
                s.conditions = vec![cond("Suspended", "True")];
            }),
            job(d(), move |s| {
                s.start_time = Some(later);
                s.conditions = vec![cond("Suspended", "False")];
            }),
            vec![],
        ),
    ];
    check(rows);
}

// The change conditions of the two rules in `getStatusValidationOptions`
// (pkg/registry/batch/job/strategy.go): a Job finished before 1.31 without the interim
// condition keeps accepting unrelated status writes; a write that changes failedIndexes, or
// drops SuccessCriteriaMet from a Complete Job, re-runs the rule.
#[test]
fn status_strategy_interim_condition_rules_run_when_their_fields_change() {
    let d = JobSpec::default;
    let indexed_per_index = || JobSpec {
        completions: Some(5),
        completion_mode: Some("Indexed".into()),
        backoff_limit_per_index: Some(1),
        ..Default::default()
    };
    let rows: Vec<Row> = vec![
        (
            "Failed=True without FailureTarget, unrelated update",
            job(d(), |s| {
                s.start_time = Some(now());
                s.conditions = conds(&["Failed"]);
            }),
            job(d(), |s| {
                s.start_time = Some(now());
                s.conditions = conds(&["Failed", "CustomJobCondition"]);
            }),
            vec![],
        ),
        (
            "Complete=True without SuccessCriteriaMet, unrelated update",
            job(d(), |s| {
                s.start_time = Some(now());
                s.completion_time = Some(now());
                s.conditions = conds(&["Complete"]);
            }),
            job(d(), |s| {
                s.start_time = Some(now());
                s.completion_time = Some(now());
                s.conditions = conds(&["Complete", "CustomJobCondition"]);
            }),
            vec![],
        ),
        (
            "Failed=True without FailureTarget, failedIndexes changed",
            job(indexed_per_index(), |s| {
                s.start_time = Some(now());
                s.failed_indexes = Some("0".into());
                s.conditions = conds(&["Failed"]);
            }),
            job(indexed_per_index(), |s| {
                s.start_time = Some(now());
                s.failed_indexes = Some("0,1".into());
                s.conditions = conds(&["Failed"]);
            }),
            vec![(Invalid, "status.conditions")],
        ),
        (
            "SuccessCriteriaMet removed from a Complete Job",
            job(d(), |s| {
                s.start_time = Some(now());
                s.completion_time = Some(now());
                s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
            }),
            job(d(), |s| {
                s.start_time = Some(now());
                s.completion_time = Some(now());
                s.conditions = conds(&["Complete"]);
            }),
            // Complete without SuccessCriteriaMet (validateJobStatus), then "cannot disable
            // the SuccessCriteriaMet=True condition" (ValidateJobStatusUpdate).
            vec![
                (Invalid, "status.conditions"),
                (Invalid, "status.conditions"),
            ],
        ),
        (
            "FailureTarget then Failed, the Job controller's order",
            job(d(), |s| {
                s.start_time = Some(now());
                s.conditions = conds(&["FailureTarget"]);
            }),
            job(d(), |s| {
                s.start_time = Some(now());
                s.conditions = conds(&["FailureTarget", "Failed"]);
            }),
            vec![],
        ),
    ];
    check(rows);
}

// Through the API server's `PUT .../status` (jobStatusStrategy.ValidateUpdate): an external
// controller (spec.managedBy) that writes Failed=True without FailureTarget=True is refused with
// upstream's message (`field.Invalid(status.conditions, field.OmitValueType{}, ...)` prints no
// value), and the stored Job keeps running; with FailureTarget first the write is taken.
#[test]
fn status_write_without_failure_target_is_refused_by_the_api_server() {
    use crate::store::apiserver::ApiServer;
    let mut api = ApiServer::new(1, now());
    let mut j: Job = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "myjob", "namespace": "default"},
        "spec": {
            "managedBy": "example.com/custom-controller",
            "template": {"spec": {"restartPolicy": "Never",
                "containers": [{"name": "c", "image": "image"}]}}
        }
    }))
    .unwrap();
    j.status.start_time = Some(now());
    api.load(Object::Job(j)).expect("job loads");
    let mut failed = api_job(&api);
    failed.status.conditions = conds(&["Failed"]);
    let err = api
        .update_status(Object::Job(failed))
        .expect_err("Failed=True without FailureTarget=True is refused");
    assert_eq!(
        err.message,
        "Job.batch \"myjob\" is invalid: status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition"
    );
    assert!(!api_job(&api).condition_true("Failed"));
    let mut ok = api_job(&api);
    ok.status.conditions = conds(&["FailureTarget", "Failed"]);
    api.update_status(Object::Job(ok))
        .expect("FailureTarget then Failed is taken");
    assert!(api_job(&api).condition_true("Failed"));
}

fn api_job(api: &crate::store::apiserver::ApiServer) -> Job {
    api.store.get::<Job>("default", "myjob").unwrap().clone()
}
