//! Port of `TestStatusStrategy_ValidateUpdate` (pkg/registry/batch/job/strategy_test.go): the
//! Job status transition rules of `ValidateJobUpdateStatus` with the options of
//! `getStatusValidationOptions`. Errors are compared by type and field, as upstream ignores
//! value and detail (`ignoreErrValueDetail`).
//!
//! Rows with JobManagedBy on (the 1.35 default) go through the API server's status hook
//! ([`validate_status_update`]); rows that turn JobManagedBy off compute the options with the
//! row's gates and run the same rules.
//!
//! The startTime rows expect `Invalid` as upstream does since the fix of
//! kubernetes/kubernetes#134521 (PR #134769, in 1.35), which changed them from `Required`.
//!
//! Not ported: "incoming resource version on update should not be mutated" (the request's
//! resourceVersion is the API server's optimistic-concurrency check, not a status rule).

use crate::api::batch::{
    Job, JobCondition, JobSpec, JobStatus, SuccessPolicy, SuccessPolicyRule,
    UncountedTerminatedPods,
};
use crate::api::batch_validation::{
    job_status_validation_options, validate_job_status_rules, validate_job_status_update_rules,
};
use crate::api::errors::FieldErrorType::{self, Invalid, Required};
use crate::api::validation::status::{validate_status, validate_status_update};
use crate::api::{Duration, Object, Time};

fn now() -> Time {
    Time::parse_rfc3339("2025-03-01T10:00:00Z").unwrap()
}

fn now_plus_minute() -> Time {
    now() + Duration::from_secs(60)
}

fn cond(t: &str) -> JobCondition {
    JobCondition {
        type_: t.into(),
        status: "True".into(),
        ..Default::default()
    }
}

/// `validObjectMeta`: name, namespace and resourceVersion only.
fn job(spec: JobSpec, status: JobStatus) -> Job {
    let mut j = Job::default();
    j.metadata.name = "myjob".into();
    j.metadata.namespace = "default".into();
    j.metadata.resource_version = "10".into();
    j.spec = spec.into();
    j.status = status.into();
    j
}

fn indexed(completions: i32) -> JobSpec {
    JobSpec {
        completions: Some(completions),
        completion_mode: Some("Indexed".into()),
        ..Default::default()
    }
}

fn non_indexed(completions: i32) -> JobSpec {
    JobSpec {
        completions: Some(completions),
        completion_mode: Some("NonIndexed".into()),
        ..Default::default()
    }
}

/// `validSuccessPolicy`: succeededIndexes "0-2".
fn with_success_policy(mut s: JobSpec) -> JobSpec {
    s.success_policy = Some(SuccessPolicy {
        rules: vec![SuccessPolicyRule {
            succeeded_indexes: Some("0-2".into()),
            ..Default::default()
        }],
    });
    s
}

fn conds(types: &[&str]) -> Vec<JobCondition> {
    types.iter().map(|t| cond(t)).collect()
}

type Want = Vec<(FieldErrorType, &'static str)>;

struct Row {
    name: &'static str,
    /// JobManagedBy (on in 1.35) and JobPodReplacementPolicy, as the row sets them.
    managed_by: bool,
    pod_replacement_policy: bool,
    old: Job,
    new: Job,
    want: Want,
}

fn run(r: Row) {
    let got = if r.managed_by {
        validate_status_update(&Object::Job(r.new.clone()), &Object::Job(r.old.clone()))
    } else {
        let opts = job_status_validation_options(&r.new, &r.old, false, r.pod_replacement_policy);
        let mut e = validate_status(&Object::Job(r.new.clone()));
        e.extend(validate_job_status_rules(&r.new, opts));
        e.extend(validate_job_status_update_rules(&r.new, &r.old, opts));
        e
    };
    let got: Vec<(FieldErrorType, String)> = got.into_iter().map(|e| (e.type_, e.field)).collect();
    let want: Vec<(FieldErrorType, String)> = r
        .want
        .into_iter()
        .map(|(t, f)| (t, f.to_string()))
        .collect();
    assert_eq!(got, want, "{}", r.name);
}

fn mb(name: &'static str, old: Job, new: Job, want: Want) -> Row {
    Row {
        name,
        managed_by: true,
        pod_replacement_policy: false,
        old,
        new,
        want,
    }
}

/// A row with JobManagedBy and JobPodReplacementPolicy off (upstream's `enableJobSuccessPolicy`
/// rows leave both at false).
fn gates_off(name: &'static str, old: Job, new: Job, want: Want) -> Row {
    Row {
        name,
        managed_by: false,
        pod_replacement_policy: false,
        old,
        new,
        want,
    }
}

fn st(f: impl FnOnce(&mut JobStatus)) -> JobStatus {
    let mut s = JobStatus::default();
    f(&mut s);
    s
}

// Upstream: TestStatusStrategy_ValidateUpdate, the rows with JobManagedBy enabled.
#[test]
fn status_strategy_validate_update_managed_by() {
    let d = JobSpec::default;
    let e = || job(d(), JobStatus::default());
    let complete_and = |extra: &[&str]| {
        let mut c = vec!["Complete"];
        c.extend_from_slice(extra);
        st(|s| {
            s.start_time = Some(now());
            s.completion_time = Some(now());
            s.conditions = conds(&c);
        })
    };
    let uncounted = |failed: &[&str], succeeded: &[&str]| {
        Some(UncountedTerminatedPods {
            failed: failed.iter().map(|s| s.to_string()).collect(),
            succeeded: succeeded.iter().map(|s| s.to_string()).collect(),
        })
    };
    let rows = vec![
        mb(
            "invalid addition of both Failed=True and Complete=True",
            e(),
            job(d(), complete_and(&["Failed"])),
            // Complete with Failed, Failed without FailureTarget, Complete without
            // SuccessCriteriaMet.
            vec![
                (Invalid, "status.conditions"),
                (Invalid, "status.conditions"),
                (Invalid, "status.conditions"),
            ],
        ),
        mb(
            "completionTime can be removed to fix still running job",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                }),
            ),
            job(d(), st(|s| s.start_time = Some(now()))),
            vec![],
        ),
        mb(
            "invalid attempt to transition to Failed=True without startTime",
            job(d(), st(|s| s.conditions = conds(&["FailureTarget"]))),
            job(d(), st(|s| s.conditions = conds(&["FailureTarget", "Failed"]))),
            vec![(Required, "status.startTime")],
        ),
        mb(
            "invalid attempt to transition to Complete=True without startTime",
            job(d(), st(|s| s.conditions = conds(&["SuccessCriteriaMet"]))),
            job(
                d(),
                st(|s| {
                    s.completion_time = Some(now());
                    s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
                }),
            ),
            vec![(Required, "status.startTime")],
        ),
        mb(
            "invalid attempt to transition to Complete=True with active > 0",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.active = 1;
                    s.conditions = conds(&["SuccessCriteriaMet"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.active = 1;
                    s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
                }),
            ),
            vec![(Invalid, "status.active")],
        ),
        mb(
            "transition to Failed condition with terminating>0 and ready>0",
            e(),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.conditions = conds(&["Failed"]);
                    s.terminating = Some(1);
                    s.ready = Some(1);
                }),
            ),
            // The stored table (JobSuccessPolicy era) expects no error; since then
            // RejectFinishedJobWithTerminatingPods and RejectMoreReadyThanActivePods are set
            // in default configurations (kubernetes/kubernetes#139428, PR #139457), so a
            // current API server refuses both counters of this write, and (since 1.31,
            // kubernetes/kubernetes#125510) a Failed=True condition without FailureTarget=True.
            // Newer upstream tables replace the row with "invalid attempt to transition to
            // Failed=True with terminating > 0" (upstream_tests5.rs).
            vec![
                (Invalid, "status.conditions"),
                (Invalid, "status.terminating"),
                (Invalid, "status.ready"),
            ],
        ),
        mb(
            "invalid attempt to transition to Failed=True with uncountedTerminatedPods.Failed>0",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&["a"], &[]);
                    s.conditions = conds(&["FailureTarget"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&["a"], &[]);
                    s.conditions = conds(&["FailureTarget", "Failed"]);
                }),
            ),
            vec![(Invalid, "status.uncountedTerminatedPods")],
        ),
        mb(
            "invalid attempt to update uncountedTerminatedPods.Succeeded for Complete job",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&["a"], &[]);
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&["b"], &[]);
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            vec![(Invalid, "status.uncountedTerminatedPods")],
        ),
        mb(
            "non-empty uncountedTerminatedPods for complete job, unrelated update",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&["a"], &[]);
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&["a"], &[]);
                    s.conditions = conds(&["Complete", "CustomJobCondition"]);
                }),
            ),
            vec![],
        ),
        mb(
            "invalid attempt to transition to Complete=True with uncountedTerminatedPods.Succeeded>0",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&[], &["a"]);
                    s.conditions = conds(&["SuccessCriteriaMet"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.uncounted_terminated_pods = uncounted(&[], &["a"]);
                    s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
                }),
            ),
            vec![(Invalid, "status.uncountedTerminatedPods")],
        ),
        mb(
            "invalid addition Complete=True without setting CompletionTime",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.conditions = conds(&["SuccessCriteriaMet"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
                }),
            ),
            vec![(Required, "status.completionTime")],
        ),
        mb(
            "invalid attempt to remove completionTime",
            job(
                d(),
                st(|s| {
                    s.completion_time = Some(now());
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now());
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            vec![(Required, "status.completionTime")],
        ),
        mb(
            "verify startTime can be cleared for suspended job",
            job(
                JobSpec {
                    suspend: Some(true),
                    ..d()
                },
                st(|s| s.start_time = Some(now())),
            ),
            job(
                JobSpec {
                    suspend: Some(true),
                    ..d()
                },
                JobStatus::default(),
            ),
            vec![],
        ),
        mb(
            "verify startTime cannot be removed for unsuspended job",
            job(d(), st(|s| s.start_time = Some(now()))),
            job(d(), JobStatus::default()),
            vec![(Invalid, "status.startTime")],
        ),
        mb(
            "verify startTime cannot be updated for unsuspended job",
            job(d(), st(|s| s.start_time = Some(now()))),
            job(d(), st(|s| s.start_time = Some(now_plus_minute()))),
            vec![(Invalid, "status.startTime")],
        ),
        mb(
            "invalid attempt to set completionTime before startTime",
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now_plus_minute());
                    s.conditions = conds(&["SuccessCriteriaMet"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.start_time = Some(now_plus_minute());
                    s.completion_time = Some(now());
                    s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
                }),
            ),
            vec![(Invalid, "status.completionTime")],
        ),
        mb(
            "invalid attempt to modify completionTime",
            job(
                d(),
                st(|s| {
                    s.completion_time = Some(now());
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            job(
                d(),
                st(|s| {
                    s.completion_time = Some(now_plus_minute());
                    s.start_time = Some(now());
                    s.conditions = conds(&["Complete"]);
                }),
            ),
            vec![(Invalid, "status.completionTime")],
        ),
        mb(
            "invalid removal of terminal condition Failed=True",
            job(d(), st(|s| s.conditions = conds(&["Failed"]))),
            e(),
            vec![(Invalid, "status.conditions")],
        ),
        mb(
            "invalid removal of terminal condition Complete=True",
            job(d(), st(|s| s.conditions = conds(&["Complete"]))),
            e(),
            vec![(Invalid, "status.conditions")],
        ),
        mb(
            "invalid removal of terminal condition FailureTarget=True",
            job(d(), st(|s| s.conditions = conds(&["FailureTarget"]))),
            e(),
            vec![(Invalid, "status.conditions")],
        ),
        mb(
            "invalid addition of FailureTarget=True when Complete=True",
            job(d(), complete_and(&[])),
            job(d(), complete_and(&["FailureTarget"])),
            vec![(Invalid, "status.conditions")],
        ),
        mb(
            "invalid attempt setting of CompletionTime when there is no Complete condition",
            e(),
            job(d(), st(|s| s.completion_time = Some(now()))),
            vec![(Invalid, "status.completionTime")],
        ),
        mb(
            "invalid CompletionTime when there is no Complete condition, but allowed",
            job(d(), st(|s| s.completion_time = Some(now()))),
            job(
                d(),
                st(|s| {
                    s.completion_time = Some(now());
                    s.active = 1;
                }),
            ),
            vec![],
        ),
        mb(
            "invalid attempt setting CompletedIndexes when non-indexed completion mode is used",
            job(non_indexed(5), JobStatus::default()),
            job(
                non_indexed(5),
                st(|s| {
                    s.start_time = Some(now());
                    s.completed_indexes = "0".into();
                }),
            ),
            vec![(Invalid, "status.completedIndexes")],
        ),
        mb(
            "invalid because CompletedIndexes set when non-indexed completion mode is used; but allowed",
            job(non_indexed(5), st(|s| s.completed_indexes = "0".into())),
            job(
                non_indexed(5),
                st(|s| {
                    s.completed_indexes = "0".into();
                    s.active = 1;
                }),
            ),
            vec![],
        ),
        mb(
            "invalid attempt setting FailedIndexes when not backoffLimitPerIndex",
            job(indexed(5), JobStatus::default()),
            job(indexed(5), st(|s| s.failed_indexes = Some("0".into()))),
            vec![(Invalid, "status.failedIndexes")],
        ),
        mb(
            "invalid attempt to decrease the failed counter",
            job(
                JobSpec {
                    completions: Some(5),
                    ..d()
                },
                st(|s| s.failed = 3),
            ),
            job(
                JobSpec {
                    completions: Some(5),
                    ..d()
                },
                st(|s| s.failed = 1),
            ),
            vec![(Invalid, "status.failed")],
        ),
        mb(
            "invalid attempt to decrease the succeeded counter",
            job(
                JobSpec {
                    completions: Some(5),
                    ..d()
                },
                st(|s| s.succeeded = 3),
            ),
            job(
                JobSpec {
                    completions: Some(5),
                    ..d()
                },
                st(|s| s.succeeded = 1),
            ),
            vec![(Invalid, "status.succeeded")],
        ),
        mb(
            "invalid attempt to set bad format for CompletedIndexes",
            job(indexed(5), JobStatus::default()),
            job(
                indexed(5),
                st(|s| s.completed_indexes = "invalid format".into()),
            ),
            vec![(Invalid, "status.completedIndexes")],
        ),
        mb(
            "invalid format for CompletedIndexes, but allowed",
            job(
                indexed(5),
                st(|s| s.completed_indexes = "invalid format".into()),
            ),
            job(
                indexed(5),
                st(|s| {
                    s.completed_indexes = "invalid format".into();
                    s.active = 1;
                }),
            ),
            vec![],
        ),
        mb(
            "invalid attempt to set bad format for FailedIndexes",
            job(
                JobSpec {
                    backoff_limit_per_index: Some(1),
                    ..indexed(5)
                },
                JobStatus::default(),
            ),
            job(
                JobSpec {
                    backoff_limit_per_index: Some(1),
                    ..indexed(5)
                },
                st(|s| s.failed_indexes = Some("invalid format".into())),
            ),
            vec![(Invalid, "status.failedIndexes")],
        ),
        mb(
            "invalid format for FailedIndexes, but allowed",
            job(
                JobSpec {
                    backoff_limit_per_index: Some(1),
                    ..indexed(5)
                },
                st(|s| s.failed_indexes = Some("invalid format".into())),
            ),
            job(
                JobSpec {
                    backoff_limit_per_index: Some(1),
                    ..indexed(5)
                },
                st(|s| {
                    s.failed_indexes = Some("invalid format".into());
                    s.active = 1;
                }),
            ),
            vec![],
        ),
        mb(
            "more ready pods than active, but allowed",
            job(
                JobSpec {
                    completions: Some(5),
                    ..d()
                },
                st(|s| {
                    s.active = 1;
                    s.ready = Some(2);
                }),
            ),
            job(
                JobSpec {
                    completions: Some(5),
                    ..d()
                },
                st(|s| {
                    s.active = 1;
                    s.ready = Some(2);
                    s.succeeded = 1;
                }),
            ),
            vec![],
        ),
        mb(
            "invalid addition of both FailureTarget=True and Complete=True",
            e(),
            job(d(), complete_and(&["FailureTarget"])),
            // Complete with FailureTarget, and Complete without SuccessCriteriaMet.
            vec![(Invalid, "status.conditions"), (Invalid, "status.conditions")],
        ),
        mb(
            "invalid failedIndexes, which overlap with completedIndexes",
            job(
                indexed(5),
                st(|s| {
                    s.failed_indexes = Some("0,2".into());
                    s.completed_indexes = "3-4".into();
                }),
            ),
            job(
                indexed(5),
                st(|s| {
                    s.failed_indexes = Some("0,2".into());
                    s.completed_indexes = "2-4".into();
                }),
            ),
            vec![(Invalid, "status.failedIndexes")],
        ),
        mb(
            "failedIndexes overlap with completedIndexes, unrelated field change",
            job(
                indexed(5),
                st(|s| {
                    s.failed_indexes = Some("0,2".into());
                    s.completed_indexes = "2-4".into();
                }),
            ),
            job(
                indexed(5),
                st(|s| {
                    s.failed_indexes = Some("0,2".into());
                    s.completed_indexes = "2-4".into();
                    s.active = 1;
                }),
            ),
            vec![],
        ),
        mb(
            "valid addition of SuccessCriteriaMet when JobManagedBy is enabled",
            e(),
            job(d(), st(|s| s.conditions = conds(&["SuccessCriteriaMet"]))),
            vec![],
        ),
    ];
    for r in rows {
        run(r);
    }
}

// Upstream: TestStatusStrategy_ValidateUpdate, the rows that run with JobManagedBy disabled
// (the SuccessCriteriaMet rules hold whatever the gates).
#[test]
fn status_strategy_validate_update_gates_off() {
    let sp10 = || with_success_policy(indexed(10));
    let with = |spec: JobSpec, c: &[&str]| job(spec, st(|s| s.conditions = conds(c)));
    let rows = vec![
        gates_off(
            "invalid addition of both Failed=True and Complete=True; allowed because feature gate disabled",
            job(JobSpec::default(), JobStatus::default()),
            job(
                JobSpec::default(),
                st(|s| {
                    s.start_time = Some(now());
                    s.completion_time = Some(now());
                    s.conditions = conds(&["Complete", "Failed"]);
                }),
            ),
            vec![],
        ),
        gates_off(
            "invalid addition of SuccessCriteriaMet for NonIndexed Job",
            with(with_success_policy(JobSpec::default()), &[]),
            with(
                with_success_policy(JobSpec::default()),
                &["SuccessCriteriaMet"],
            ),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "valid update of Job if SuccessCriteriaMet already present for NonIndexed Jobs; JobSuccessPolicy enabled, while JobManagedBy and JobPodReplacementPolicy disabled",
            with(JobSpec::default(), &["SuccessCriteriaMet"]),
            with(JobSpec::default(), &["SuccessCriteriaMet", "Complete"]),
            vec![],
        ),
        gates_off(
            "invalid addition of SuccessCriteriaMet for Job with Failed",
            with(sp10(), &["Failed"]),
            with(sp10(), &["Failed", "SuccessCriteriaMet"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid addition of Failed for Job with SuccessCriteriaMet",
            with(sp10(), &["SuccessCriteriaMet"]),
            with(sp10(), &["SuccessCriteriaMet", "Failed"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid addition of SuccessCriteriaMet for Job with FailureTarget",
            with(sp10(), &["FailureTarget"]),
            with(sp10(), &["FailureTarget", "SuccessCriteriaMet"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid addition of FailureTarget for Job with SuccessCriteriaMet",
            with(sp10(), &["SuccessCriteriaMet"]),
            with(sp10(), &["SuccessCriteriaMet", "FailureTarget"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid addition of SuccessCriteriaMet for Job with Complete",
            with(sp10(), &["Complete"]),
            with(sp10(), &["Complete", "SuccessCriteriaMet"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "valid addition of Complete for Job with SuccessCriteriaMet",
            with(sp10(), &["SuccessCriteriaMet"]),
            with(sp10(), &["SuccessCriteriaMet", "Complete"]),
            vec![],
        ),
        gates_off(
            "invalid addition of SuccessCriteriaMet for Job without SuccessPolicy",
            with(indexed(10), &[]),
            with(indexed(10), &["SuccessCriteriaMet"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid addition of Complete for Job with SuccessPolicy unless SuccessCriteriaMet",
            with(sp10(), &[]),
            with(sp10(), &["Complete"]),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid disabling of SuccessCriteriaMet for Job",
            with(sp10(), &["SuccessCriteriaMet"]),
            job(
                sp10(),
                st(|s| {
                    s.conditions = vec![JobCondition {
                        status: "False".into(),
                        ..cond("Complete")
                    }]
                }),
            ),
            vec![(Invalid, "status.conditions")],
        ),
        gates_off(
            "invalid removing of SuccessCriteriaMet for Job",
            with(sp10(), &["SuccessCriteriaMet"]),
            with(sp10(), &[]),
            vec![(Invalid, "status.conditions")],
        ),
        Row {
            pod_replacement_policy: true,
            ..gates_off(
                "valid addition of SuccessCriteriaMet when JobPodReplacementPolicy is enabled",
                job(JobSpec::default(), JobStatus::default()),
                with(JobSpec::default(), &["SuccessCriteriaMet"]),
                vec![],
            )
        },
    ];
    for r in rows {
        run(r);
    }
}

// Upstream: TestStatusStrategy_ValidateUpdate, row "invalid removal of terminal condition
// Complete=True", through the API server's `PUT .../status`: the write is refused as Invalid
// and the stored status is kept.
fn remove_complete_through_the_api_server(
    gates: crate::features::FeatureGates,
) -> (
    Result<Object, crate::api::ApiError>,
    crate::store::apiserver::ApiServer,
) {
    use crate::store::apiserver::ApiServer;
    let mut api = ApiServer::with_gates(1, now(), gates);
    let mut j = job(
        JobSpec {
            manual_selector: Some(true),
            ..Default::default()
        },
        JobStatus::default(),
    );
    j.metadata.resource_version.clear();
    let labels: crate::api::Labels = [("a".to_string(), "b".to_string())].into();
    j.spec.selector = Some(crate::api::LabelSelector::from_labels(&labels));
    let t = j.spec.template_mut();
    t.metadata.labels = labels.into();
    let ps = t.spec_mut();
    ps.restart_policy = "OnFailure".into();
    ps.containers = vec![crate::api::Container {
        name: "abc".into(),
        image: "image".into(),
        ..Default::default()
    }];
    j.status = st(|s| {
        s.start_time = Some(now());
        s.completion_time = Some(now());
        s.conditions = conds(&["SuccessCriteriaMet", "Complete"]);
    })
    .into();
    api.load(Object::Job(j)).expect("job loads");
    let mut stored = api.store.get::<Job>("default", "myjob").unwrap().clone();
    stored.status.conditions.retain(|c| c.type_ != "Complete");
    stored.status.completion_time = None;
    (api.update_status(Object::Job(stored)), api)
}

#[test]
fn status_update_through_the_api_server_rejects_removing_complete() {
    let (res, api) = remove_complete_through_the_api_server(Default::default());
    let err = res.expect_err("removing Complete=True is refused");
    let fields: Vec<(FieldErrorType, String)> = err
        .causes
        .iter()
        .map(|c| (c.type_.clone(), c.field.clone()))
        .collect();
    assert_eq!(
        fields,
        vec![(Invalid, "status.conditions".to_string())],
        "{err:?}"
    );
    assert!(api
        .store
        .get::<Job>("default", "myjob")
        .unwrap()
        .condition_true("Complete"));
}

// The same write with the scenario's JobManagedBy gate off: `getStatusValidationOptions` sets no
// transition rule, and the API server's status check follows the scenario's gates.
#[test]
fn status_update_follows_the_scenario_gates() {
    let mut gates = crate::features::FeatureGates::default();
    gates.set("JobManagedBy", false);
    let (res, api) = remove_complete_through_the_api_server(gates);
    res.expect("accepted without the gate");
    assert!(!api
        .store
        .get::<Job>("default", "myjob")
        .unwrap()
        .condition_true("Complete"));
}

// Upstream: TestStatusStrategy_ValidateUpdate, row "verify startTime can be updated when resuming
// job (JobSuspended: True -> False)" added by PR #134769 (kubernetes/kubernetes#134521): the Job
// controller resets startTime when it resumes a started Job, in the same write that turns the
// Suspended condition off; that write is accepted. (The row's body is not in the stored
// sources; this one follows its name.) The second case keeps the Suspended condition True.
#[test]
fn status_update_accepts_the_start_time_reset_on_resume() {
    let suspended = |status: &str| JobCondition {
        status: status.into(),
        ..cond("Suspended")
    };
    let old = job(
        JobSpec::default(),
        st(|s| {
            s.start_time = Some(now());
            s.conditions = vec![suspended("True")];
        }),
    );
    let new = job(
        JobSpec {
            suspend: Some(false),
            ..Default::default()
        },
        st(|s| {
            s.start_time = Some(now_plus_minute());
            s.conditions = vec![suspended("False")];
        }),
    );
    run(mb(
        "resuming a started Job resets startTime",
        old.clone(),
        new.clone(),
        vec![],
    ));
    // Still suspended in the new status: the reset is refused.
    let mut still = new;
    still.status.conditions = vec![suspended("True")];
    run(mb(
        "startTime changed while the Suspended condition stays",
        old,
        still,
        vec![(Invalid, "status.startTime")],
    ));
}

// Upstream: TestValidateJobUpdateStatus, rows "immutable startTime for unsuspended job: with
// non-nil startTime" and "... with nil startTime" (added by PR #134769): only
// RejectStartTimeUpdateForUnsuspendedJob set; the error is Invalid with upstream's detail.
#[test]
fn validate_job_update_status_immutable_start_time() {
    use crate::api::batch_validation::JobStatusValidationOptions;
    let opts = JobStatusValidationOptions {
        reject_start_time_update_for_unsuspended_job: true,
        ..Default::default()
    };
    let spec = || JobSpec {
        suspend: Some(false),
        ..Default::default()
    };
    let old = job(
        spec(),
        st(|s| {
            s.start_time = Some(now());
            s.active = 1;
        }),
    );
    for (name, start) in [
        (
            "with non-nil startTime",
            Some(now() + Duration::from_secs(1)),
        ),
        ("with nil startTime", None),
    ] {
        let new = job(
            spec(),
            st(|s| {
                s.start_time = start;
                s.active = 1;
            }),
        );
        let mut errs = validate_job_status_rules(&new, opts);
        errs.extend(validate_job_status_update_rules(&new, &old, opts));
        let got: Vec<(FieldErrorType, String, String)> = errs
            .into_iter()
            .map(|e| (e.type_, e.field, e.detail))
            .collect();
        assert_eq!(
            got,
            vec![(
                Invalid,
                "status.startTime".to_string(),
                "field is immutable for unsuspended job once set".to_string()
            )],
            "immutable startTime for unsuspended job: {name}"
        );
    }
}

// kubernetes/kubernetes#139428 (fixed by PR #139457): with JobManagedBy a status write that
// leaves more ready than active pods is refused with "cannot set more ready pods than active"
// when `ready` or `active` changes; a write that touches neither keeps an old object's
// inconsistency (the strategy's "fall back for objects that already violate the rule").
#[test]
fn more_ready_than_active_is_refused_when_the_counters_change() {
    let old = job(
        JobSpec::default(),
        st(|s| {
            s.start_time = Some(now());
            s.active = 2;
            s.ready = Some(1);
        }),
    );
    let check = |new: &Job| {
        let opts = job_status_validation_options(new, &old, true, true);
        let mut e = validate_job_status_rules(new, opts);
        e.extend(validate_job_status_update_rules(new, &old, opts));
        e.into_iter()
            .map(|e| (e.field, e.detail))
            .collect::<Vec<_>>()
    };
    let mut backoff = old.clone();
    backoff.status.active = 0;
    assert_eq!(
        check(&backoff),
        vec![(
            "status.ready".to_string(),
            "cannot set more ready pods than active".to_string()
        )]
    );
    let mut fine = old.clone();
    fine.status.active = 1;
    assert_eq!(check(&fine), vec![]);
    // Already inconsistent and neither counter changes: not re-checked.
    let mut bad_old = old.clone();
    bad_old.status.active = 0;
    let mut other = bad_old.clone();
    other.status.succeeded = 1;
    let opts = job_status_validation_options(&other, &bad_old, true, true);
    assert!(validate_job_status_rules(&other, opts).is_empty());
}
