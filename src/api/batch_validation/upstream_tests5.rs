//! Rows of `TestStatusStrategy_ValidateUpdate` (pkg/registry/batch/job/strategy_test.go, repo
//! kubernetes/kubernetes) added upstream after the port in `upstream_tests2.rs`: a Job may not
//! become Failed=True while pods are still active or terminating, may not report more ready
//! pods than active ones, and a suspended Job with `completions: 0` may complete without a
//! startTime. JobManagedBy is on (the 1.35 default), so the rows go through the API server's
//! status hook ([`validate_status_update`]); errors are compared by type and field, as upstream
//! ignores value and detail.

use crate::api::batch::{Job, JobCondition, JobSpec, JobStatus};
use crate::api::errors::FieldErrorType::{self, Invalid};
use crate::api::validation::status::validate_status_update;
use crate::api::{Object, Time};

fn now() -> Time {
    Time::parse_rfc3339("2025-03-01T10:00:00Z").unwrap()
}

fn conds(types: &[&str]) -> Vec<JobCondition> {
    types
        .iter()
        .map(|t| JobCondition {
            type_: (*t).into(),
            status: "True".into(),
            ..Default::default()
        })
        .collect()
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

fn errors(new: &Job, old: &Job) -> Vec<(FieldErrorType, String)> {
    validate_status_update(&Object::Job(new.clone()), &Object::Job(old.clone()))
        .into_iter()
        .map(|e| (e.type_, e.field))
        .collect()
}

// Port of TestStatusStrategy_ValidateUpdate (pkg/registry/batch/job/strategy_test.go), rows
// "invalid attempt to transition to Failed=True with terminating > 0", "... with active > 0",
// "invalid attempt to set more ready pods than active" and "valid transition to Complete for
// suspended Job with completions=0; without startTime".
#[test]
fn status_strategy_validate_update_newer_rows() {
    let d = JobSpec::default;
    let failure_target = |extra: fn(&mut JobStatus)| {
        job(d(), move |s| {
            s.start_time = Some(now());
            s.conditions = conds(&["FailureTarget"]);
            extra(s);
        })
    };
    let failed = |extra: fn(&mut JobStatus)| {
        job(d(), move |s| {
            s.start_time = Some(now());
            s.conditions = conds(&["FailureTarget", "Failed"]);
            extra(s);
        })
    };
    let completions_5 = || JobSpec {
        completions: Some(5),
        ..Default::default()
    };
    let suspended_zero = || JobSpec {
        completions: Some(0),
        suspend: Some(true),
        ..Default::default()
    };
    type Row = (&'static str, Job, Job, Vec<(FieldErrorType, &'static str)>);
    let rows: Vec<Row> = vec![
        (
            "invalid attempt to transition to Failed=True with terminating > 0",
            failure_target(|s| s.terminating = Some(1)),
            failed(|s| s.terminating = Some(1)),
            vec![(Invalid, "status.terminating")],
        ),
        (
            "invalid attempt to transition to Failed=True with active > 0",
            failure_target(|s| s.active = 1),
            failed(|s| s.active = 1),
            vec![(Invalid, "status.active")],
        ),
        (
            "invalid attempt to set more ready pods than active",
            job(completions_5(), |_| {}),
            job(completions_5(), |s| {
                s.active = 1;
                s.ready = Some(2);
            }),
            vec![(Invalid, "status.ready")],
        ),
        (
            "valid transition to Complete for suspended Job with completions=0; without startTime",
            job(suspended_zero(), |_| {}),
            job(suspended_zero(), |s| {
                s.completion_time = Some(now());
                s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
            }),
            vec![],
        ),
    ];
    for (name, old, new, want) in rows {
        let want: Vec<(FieldErrorType, String)> =
            want.into_iter().map(|(t, f)| (t, f.to_string())).collect();
        assert_eq!(errors(&new, &old), want, "{name}");
    }
}
