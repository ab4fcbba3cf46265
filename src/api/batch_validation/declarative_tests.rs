//! Port of `TestValidateJob` in pkg/apis/batch/validation/declarative/job_test.go (kubernetes/
//! kubernetes): the same rows as the TestValidateJob table of validation_test.go, but each error
//! row lists *every* error native validation returns (`apivalidation.ExpectedErrorList`), compared
//! as upstream's `CompareErrorLists` compares them for native errors: per field path, by type
//! (the expected detail is empty in `NativeErrors()`, so only type and field count). Entries with
//! a `NativeSkipReason` are not native errors and are left out.
//!
//! Upstream's Jobs are not defaulted: the spec fields defaulting would set (completions,
//! parallelism, backoffLimit, completionMode, podReplacementPolicy) are cleared here.

use super::*;
use crate::api::batch::{PodFailurePolicy, SuccessPolicy};
use crate::api::{Container, FieldErrorType, LabelSelector, Labels, Object};

fn labels(v: &[(&str, &str)]) -> Labels {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// `validJobObjectMeta` with upstream's generated selector (`getValidGeneratedSelector`: the two
/// controller-uid and the two job-name labels) and `getValidPodTemplateSpecForGenerated` (an init
/// container "def", restartPolicy OnFailure), not defaulted at the Job level.
fn base() -> Job {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "myjob", "namespace": "default", "uid": "1a2b3c"},
        "spec": {"template": {"spec": {"restartPolicy": "OnFailure",
            "containers": [{"name": "abc", "image": "image"}],
            "initContainers": [{"name": "def", "image": "image"}]}}}
    });
    let mut o = Object::from_value(v).unwrap();
    crate::api::defaults::default_object(&mut o);
    let Object::Job(mut j) = o else {
        unreachable!()
    };
    let generated = labels(&[
        ("batch.kubernetes.io/controller-uid", "1a2b3c"),
        ("controller-uid", "1a2b3c"),
        ("batch.kubernetes.io/job-name", "myjob"),
        ("job-name", "myjob"),
    ]);
    j.spec.selector = Some(LabelSelector::from_labels(&generated));
    j.spec.template_mut().metadata.labels = generated.into();
    j.spec.completions = None;
    j.spec.parallelism = None;
    j.spec.backoff_limit = None;
    j.spec.completion_mode = None;
    j.spec.pod_replacement_policy = None;
    j.spec.manual_selector = None;
    j.spec.suspend = None;
    j
}

/// `validPodTemplateSpecForGeneratedRestartPolicyNever`.
fn never(j: &mut Job) {
    j.spec.template_mut().spec_mut().restart_policy = "Never".into();
}

/// `getValidPodTemplateSpecForManual` with the given labels and restartPolicy (no init
/// container), under the manual `a=b` selector.
fn manual(j: &mut Job, template_labels: &[(&str, &str)], restart: &str) {
    j.spec.selector = Some(LabelSelector::from_labels(&labels(&[("a", "b")])));
    j.spec.manual_selector = Some(true);
    let t = j.spec.template_mut();
    t.metadata.labels = labels(template_labels).into();
    let s = t.spec_mut();
    s.restart_policy = restart.into();
    s.init_containers.clear();
}

fn indexed(j: &mut Job, completions: Option<i32>) {
    j.spec.completion_mode = Some("Indexed".into());
    j.spec.completions = completions;
}

fn exit_rule(
    action: &str,
    container: Option<&str>,
    op: &str,
    values: &[i32],
) -> PodFailurePolicyRule {
    PodFailurePolicyRule {
        action: action.into(),
        on_exit_codes: Some(PodFailurePolicyOnExitCodesRequirement {
            container_name: container.map(String::from),
            operator: op.into(),
            values: values.to_vec(),
        }),
        on_pod_conditions: vec![],
    }
}

fn cond_rule(action: &str, patterns: &[(&str, &str)]) -> PodFailurePolicyRule {
    PodFailurePolicyRule {
        action: action.into(),
        on_exit_codes: None,
        on_pod_conditions: patterns
            .iter()
            .map(|(t, s)| PodFailurePolicyOnPodConditionsPattern {
                type_: t.to_string(),
                status: s.to_string(),
            })
            .collect(),
    }
}

fn pfp(j: &mut Job, rules: Vec<PodFailurePolicyRule>) {
    never(j);
    j.spec.pod_failure_policy = Some(PodFailurePolicy { rules });
}

/// An Indexed Job of 5 completions, restartPolicy Never, with the given successPolicy rules.
fn sp(j: &mut Job, rules: Vec<SuccessPolicyRule>) {
    never(j);
    indexed(j, Some(5));
    j.spec.success_policy = Some(SuccessPolicy { rules });
}

fn sp_rule(indexes: Option<&str>, count: Option<i32>) -> SuccessPolicyRule {
    SuccessPolicyRule {
        succeeded_indexes: indexes.map(String::from),
        succeeded_count: count,
    }
}

fn type_name(t: &FieldErrorType) -> &'static str {
    match t {
        FieldErrorType::Required => "Required",
        FieldErrorType::Invalid => "Invalid",
        FieldErrorType::Unsupported(_) => "NotSupported",
        FieldErrorType::Forbidden => "Forbidden",
        FieldErrorType::Duplicate => "Duplicate",
        FieldErrorType::TooLong(_) => "TooLong",
        FieldErrorType::TooMany(_) => "TooMany",
        FieldErrorType::NotFound => "NotFound",
        FieldErrorType::Internal => "Internal",
    }
}

const PREFIXED: JobValidationOptions = JobValidationOptions {
    require_prefixed_labels: true,
    allow_mutable_scheduling_directives: false,
    allow_elastic_indexed_jobs: false,
    allow_invalid_label_value_in_selector: false,
};

const NO_OPTS: JobValidationOptions = JobValidationOptions {
    require_prefixed_labels: false,
    allow_mutable_scheduling_directives: false,
    allow_elastic_indexed_jobs: false,
    allow_invalid_label_value_in_selector: false,
};

type Mutate = Box<dyn Fn(&mut Job)>;

/// (row name, options, the change to the base Job, the expected (field, type) list).
type ErrorRow = (
    &'static str,
    JobValidationOptions,
    Mutate,
    Vec<(&'static str, &'static str)>,
);

// upstream: TestValidateJob (pkg/apis/batch/validation/declarative/job_test.go), successCases.
#[test]
fn declarative_validate_job_success_cases() {
    let rows: Vec<(&str, JobValidationOptions, Mutate)> = vec![
        (
            "valid success policy",
            PREFIXED,
            Box::new(|j| {
                never(j);
                indexed(j, Some(10));
                j.spec.success_policy = Some(SuccessPolicy {
                    rules: vec![
                        sp_rule(Some("0,2,4"), Some(1)),
                        sp_rule(Some("1,3,5-9"), None),
                    ],
                });
            }),
        ),
        (
            "valid pod failure policy",
            PREFIXED,
            Box::new(|j| {
                pfp(
                    j,
                    vec![
                        cond_rule("Ignore", &[("DisruptionTarget", "True")]),
                        cond_rule("FailJob", &[("CustomConditionType", "False")]),
                        exit_rule("Count", Some("abc"), "In", &[1, 2, 3]),
                        exit_rule("Ignore", Some("def"), "In", &[4]),
                        exit_rule("FailJob", None, "NotIn", &[5, 6, 7]),
                    ],
                )
            }),
        ),
        (
            "valid pod failure policy with FailIndex",
            NO_OPTS,
            Box::new(|j| {
                indexed(j, Some(2));
                j.spec.backoff_limit_per_index = Some(1);
                j.spec.manual_selector = Some(true);
                pfp(j, vec![exit_rule("FailIndex", None, "In", &[10])]);
            }),
        ),
        (
            "valid manual selector",
            PREFIXED,
            Box::new(|j| {
                j.metadata.annotations.insert("foo".into(), "bar".into());
                manual(j, &[("a", "b")], "OnFailure");
            }),
        ),
        ("valid generated selector", PREFIXED, Box::new(|_| {})),
        (
            "valid pod replacement",
            PREFIXED,
            Box::new(|j| j.spec.pod_replacement_policy = Some("TerminatingOrFailed".into())),
        ),
        (
            "valid pod replacement with failed",
            PREFIXED,
            Box::new(|j| j.spec.pod_replacement_policy = Some("Failed".into())),
        ),
        (
            "valid hostnet",
            PREFIXED,
            Box::new(|j| {
                let s = j.spec.template_mut().spec_mut();
                s.extra.insert("hostNetwork".into(), serde_json::Value::Bool(true));
                let mut c: Container = s.containers[0].clone();
                c.ports = serde_json::from_value(
                    serde_json::json!([{"containerPort": 12345, "protocol": "TCP"}]),
                )
                .unwrap();
                s.containers[0] = c;
            }),
        ),
        (
            "valid NonIndexed completion mode",
            PREFIXED,
            Box::new(|j| j.spec.completion_mode = Some("NonIndexed".into())),
        ),
        (
            "valid Indexed completion mode",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(2));
                j.spec.parallelism = Some(100_000);
            }),
        ),
        (
            "valid parallelism and maxFailedIndexes for high completions when backoffLimitPerIndex is used",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(100_000));
                j.spec.parallelism = Some(100_000);
                j.spec.max_failed_indexes = Some(100_000);
                j.spec.backoff_limit_per_index = Some(1);
            }),
        ),
        (
            "valid parallelism and maxFailedIndexes for unlimited completions when backoffLimitPerIndex is used",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(1_000_000_000));
                j.spec.parallelism = Some(10_000);
                j.spec.max_failed_indexes = Some(10_000);
                j.spec.backoff_limit_per_index = Some(1);
            }),
        ),
        ("valid job tracking annotation", PREFIXED, Box::new(|_| {})),
        ("valid batch labels", PREFIXED, Box::new(|_| {})),
        (
            "do not allow new batch labels",
            NO_OPTS,
            Box::new(|j| {
                j.spec.selector =
                    Some(LabelSelector::from_labels(&labels(&[("controller-uid", "1a2b3c")])));
                j.spec.template_mut().metadata.labels =
                    labels(&[("controller-uid", "1a2b3c"), ("job-name", "myjob")]).into();
            }),
        ),
        (
            "valid managedBy field",
            PREFIXED,
            Box::new(|j| j.spec.managed_by = Some("example.com/foo".into())),
        ),
    ];
    let mut failures = vec![];
    for (name, opts, f) in rows {
        let mut j = base();
        f(&mut j);
        let errs = validate_job(&j, opts);
        if !errs.is_empty() {
            let t: Vec<String> = errs.iter().map(ToString::to_string).collect();
            failures.push(format!("{name}: unexpected errors {t:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// upstream: TestValidateJob (pkg/apis/batch/validation/declarative/job_test.go), errorCases:
// the complete native error list of each row, as (field, type).
#[test]
fn declarative_validate_job_error_lists() {
    let rows: Vec<ErrorRow> = vec![
        (
            "spec.managedBy: Too long: may not be longer than 63",
            PREFIXED,
            Box::new(|j| j.spec.managed_by = Some(format!("example.com/{}", "x".repeat(60)))),
            vec![("spec.managedBy", "TooLong")],
        ),
        (
            "spec.managedBy: Invalid value: \"invalid custom controller name\"",
            PREFIXED,
            Box::new(|j| j.spec.managed_by = Some("invalid custom controller name".into())),
            vec![("spec.managedBy", "Invalid")],
        ),
        (
            "spec.successPolicy: requires indexed completion mode",
            PREFIXED,
            Box::new(|j| {
                never(j);
                j.spec.success_policy = Some(SuccessPolicy { rules: vec![] });
            }),
            // The "at least one rule" error is skipped natively when forbidden.
            vec![("spec.successPolicy", "Invalid")],
        ),
        (
            "spec.successPolicy.rules: Required value",
            PREFIXED,
            Box::new(|j| sp(j, vec![])),
            vec![("spec.successPolicy.rules", "Required")],
        ),
        (
            "spec.successPolicy.rules[0]: Required value",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(None, None)])),
            vec![("spec.successPolicy.rules[0]", "Required")],
        ),
        (
            "spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"invalid-format\"",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(Some("invalid-format"), None)])),
            vec![("spec.successPolicy.rules[0].succeededIndexes", "Invalid")],
        ),
        (
            "spec.successPolicy.rules[0].succeededIndexes: Too long",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(Some(&"1".repeat(65_537)), None)])),
            vec![
                ("spec.successPolicy.rules[0].succeededIndexes", "TooLong"),
                ("spec.successPolicy.rules[0].succeededIndexes", "Invalid"),
            ],
        ),
        (
            "spec.successPolicy.rules[0].succeededCount: must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(None, Some(-1))])),
            vec![("spec.successPolicy.rules[0].succeededCount", "Invalid")],
        ),
        (
            "spec.successPolicy.rules[0].succeededCount: Invalid value: 6",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(None, Some(6))])),
            vec![("spec.successPolicy.rules[0].succeededCount", "Invalid")],
        ),
        (
            "spec.successPolicy.rules[0].succeededCount: Invalid value: 4",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(Some("0-2"), Some(4))])),
            vec![("spec.successPolicy.rules[0].succeededCount", "Invalid")],
        ),
        (
            "spec.successPolicy.rules: Too many: 21",
            PREFIXED,
            Box::new(|j| sp(j, vec![sp_rule(None, Some(5)); 21])),
            vec![("spec.successPolicy.rules", "TooMany")],
        ),
        (
            "spec.podFailurePolicy.rules[0]: one of OnExitCodes and OnPodConditions is required",
            PREFIXED,
            Box::new(|j| pfp(j, vec![cond_rule("FailJob", &[])])),
            vec![("spec.podFailurePolicy.rules[0]", "Invalid")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("FailJob", None, "In", &[11, 11])])),
            vec![("spec.podFailurePolicy.rules[0].onExitCodes.values[1]", "Duplicate")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256",
            PREFIXED,
            Box::new(|j| {
                let values: Vec<i32> = (0..256).collect();
                pfp(j, vec![exit_rule("FailJob", None, "In", &values)])
            }),
            vec![
                ("spec.podFailurePolicy.rules[0].onExitCodes.values", "TooMany"),
                ("spec.podFailurePolicy.rules[0].onExitCodes.values[0]", "Invalid"),
            ],
        ),
        (
            "spec.podFailurePolicy.rules: Too many: 21",
            PREFIXED,
            Box::new(|j| {
                pfp(
                    j,
                    (1..=21)
                        .map(|i| exit_rule("FailJob", None, "In", &[i]))
                        .collect(),
                )
            }),
            vec![("spec.podFailurePolicy.rules", "TooMany")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21",
            PREFIXED,
            Box::new(|j| {
                let types: Vec<String> = (0..21).map(|i| format!("CustomType_{i}")).collect();
                let patterns: Vec<(&str, &str)> =
                    types.iter().map(|t| (t.as_str(), "True")).collect();
                pfp(j, vec![cond_rule("FailJob", &patterns)])
            }),
            vec![("spec.podFailurePolicy.rules[0].onPodConditions", "TooMany")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 13",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("FailJob", None, "In", &[12, 13, 13, 13])])),
            vec![
                ("spec.podFailurePolicy.rules[0].onExitCodes.values[2]", "Duplicate"),
                ("spec.podFailurePolicy.rules[0].onExitCodes.values[3]", "Duplicate"),
            ],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.values: must be ordered",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("FailJob", None, "In", &[19, 11])])),
            vec![("spec.podFailurePolicy.rules[0].onExitCodes.values", "Invalid")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.values: at least one value is required",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("FailJob", None, "In", &[])])),
            vec![("spec.podFailurePolicy.rules[0].onExitCodes.values", "Invalid")],
        ),
        (
            "spec.podFailurePolicy.rules[0].action: Required value",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("", None, "In", &[1, 2, 3])])),
            vec![("spec.podFailurePolicy.rules[0].action", "Required")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("FailJob", None, "", &[1, 2, 3])])),
            vec![("spec.podFailurePolicy.rules[0].onExitCodes.operator", "Required")],
        ),
        (
            "spec.podFailurePolicy.rules[0]: both OnExitCodes and OnPodConditions",
            PREFIXED,
            Box::new(|j| {
                let mut r = exit_rule("FailJob", Some("abc"), "In", &[1, 2, 3]);
                r.on_pod_conditions = cond_rule("", &[("DisruptionTarget", "True")])
                    .on_pod_conditions;
                pfp(j, vec![r])
            }),
            vec![("spec.podFailurePolicy.rules[0]", "Invalid")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: must not be 0 for the In operator",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("Ignore", None, "In", &[1, 0, 2])])),
            vec![
                ("spec.podFailurePolicy.rules[0].onExitCodes.values[1]", "Invalid"),
                ("spec.podFailurePolicy.rules[0].onExitCodes.values", "Invalid"),
            ],
        ),
        (
            "spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: \"xyz\"",
            PREFIXED,
            Box::new(|j| {
                pfp(
                    j,
                    vec![
                        exit_rule("Ignore", Some("abc"), "In", &[1, 2, 3]),
                        exit_rule("FailJob", Some("xyz"), "In", &[5, 6, 7]),
                    ],
                )
            }),
            vec![("spec.podFailurePolicy.rules[1].onExitCodes.containerName", "Invalid")],
        ),
        (
            "spec.podFailurePolicy.rules[0].action: Unsupported value: \"UnknownAction\"",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("UnknownAction", Some("abc"), "In", &[1, 2, 3])])),
            vec![("spec.podFailurePolicy.rules[0].action", "NotSupported")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: \"UnknownOperator\"",
            PREFIXED,
            Box::new(|j| pfp(j, vec![exit_rule("Ignore", None, "UnknownOperator", &[1, 2, 3])])),
            vec![("spec.podFailurePolicy.rules[0].onExitCodes.operator", "NotSupported")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value",
            PREFIXED,
            Box::new(|j| pfp(j, vec![cond_rule("Ignore", &[("DisruptionTarget", "")])])),
            vec![("spec.podFailurePolicy.rules[0].onPodConditions[0].status", "Required")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: \"UnknownStatus\"",
            PREFIXED,
            Box::new(|j| {
                pfp(j, vec![cond_rule("Ignore", &[("DisruptionTarget", "UnknownStatus")])])
            }),
            vec![("spec.podFailurePolicy.rules[0].onPodConditions[0].status", "NotSupported")],
        ),
        (
            "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"\"",
            PREFIXED,
            Box::new(|j| pfp(j, vec![cond_rule("Ignore", &[("", "True")])])),
            vec![
                ("spec.podFailurePolicy.rules[0].onPodConditions[0].type", "Invalid"),
                ("spec.podFailurePolicy.rules[0].onPodConditions[0].type", "Invalid"),
            ],
        ),
        (
            "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Invalid Condition Type\"",
            PREFIXED,
            Box::new(|j| pfp(j, vec![cond_rule("Ignore", &[("Invalid Condition Type", "True")])])),
            vec![("spec.podFailurePolicy.rules[0].onPodConditions[0].type", "Invalid")],
        ),
        (
            "spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\"",
            PREFIXED,
            Box::new(|j| {
                pfp(j, vec![cond_rule("Ignore", &[("DisruptionTarget", "True")])]);
                j.spec.pod_replacement_policy = Some("TerminatingOrFailed".into());
            }),
            vec![("spec.podReplacementPolicy", "NotSupported")],
        ),
        (
            "spec.podReplacementPolicy: Unsupported value: \"\"",
            PREFIXED,
            Box::new(|j| {
                never(j);
                j.spec.pod_replacement_policy = Some(String::new());
            }),
            vec![("spec.podReplacementPolicy", "NotSupported")],
        ),
        (
            "spec.template.spec.restartPolicy: Invalid value: \"OnFailure\"",
            PREFIXED,
            Box::new(|j| {
                j.spec.template_mut().spec_mut().init_containers.clear();
                j.spec.pod_failure_policy = Some(PodFailurePolicy { rules: vec![] });
            }),
            vec![("spec.template.spec.restartPolicy", "Invalid")],
        ),
        (
            "spec.parallelism:must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| j.spec.parallelism = Some(-1)),
            vec![("spec.parallelism", "Invalid")],
        ),
        (
            "spec.backoffLimit:must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| j.spec.backoff_limit = Some(-1)),
            vec![("spec.backoffLimit", "Invalid")],
        ),
        (
            "spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode",
            PREFIXED,
            Box::new(|j| j.spec.backoff_limit_per_index = Some(1)),
            vec![("spec.backoffLimitPerIndex", "Invalid")],
        ),
        (
            "spec.backoffLimitPerIndex:must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| {
                j.spec.backoff_limit_per_index = Some(-1);
                indexed(j, None);
            }),
            vec![
                ("spec.backoffLimitPerIndex", "Invalid"),
                ("spec.completions", "Required"),
            ],
        ),
        (
            "spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(10));
                j.spec.max_failed_indexes = Some(11);
                j.spec.backoff_limit_per_index = Some(1);
            }),
            vec![("spec.maxFailedIndexes", "Invalid")],
        ),
        (
            "spec.maxFailedIndexes: Required value: must be specified when completions is above 100000",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(100_001));
                j.spec.backoff_limit_per_index = Some(1);
            }),
            vec![("spec.maxFailedIndexes", "Required")],
        ),
        (
            "spec.parallelism: Invalid value: 50000",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(100_001));
                j.spec.parallelism = Some(50_000);
                j.spec.backoff_limit_per_index = Some(1);
                j.spec.max_failed_indexes = Some(1);
            }),
            vec![("spec.parallelism", "Invalid")],
        ),
        (
            "spec.maxFailedIndexes: Invalid value: 100001",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(100_001));
                j.spec.backoff_limit_per_index = Some(1);
                j.spec.max_failed_indexes = Some(100_001);
            }),
            vec![
                ("spec.maxFailedIndexes", "Invalid"),
                ("spec.maxFailedIndexes", "Invalid"),
            ],
        ),
        (
            "spec.maxFailedIndexes: Invalid value: 50000",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(100_001));
                j.spec.backoff_limit_per_index = Some(1);
                j.spec.max_failed_indexes = Some(50_000);
            }),
            vec![("spec.maxFailedIndexes", "Invalid")],
        ),
        (
            "spec.maxFailedIndexes:must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(10));
                j.spec.backoff_limit_per_index = Some(1);
                j.spec.max_failed_indexes = Some(-1);
            }),
            vec![("spec.maxFailedIndexes", "Invalid")],
        ),
        (
            "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
            PREFIXED,
            Box::new(|j| {
                indexed(j, None);
                j.spec.max_failed_indexes = Some(1);
            }),
            vec![
                ("spec.backoffLimitPerIndex", "Required"),
                ("spec.completions", "Required"),
            ],
        ),
        (
            "spec.completions:must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| j.spec.completions = Some(-1)),
            vec![("spec.completions", "Invalid")],
        ),
        (
            "spec.activeDeadlineSeconds:must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| j.spec.active_deadline_seconds = Some(-1)),
            vec![("spec.activeDeadlineSeconds", "Invalid")],
        ),
        (
            "spec.selector:Required value",
            PREFIXED,
            Box::new(|j| j.spec.selector = None),
            vec![
                ("spec.selector", "Required"),
                ("spec.template.metadata.labels", "Invalid"),
            ],
        ),
        (
            "spec.template.metadata.labels: {\"y\":\"z\"}: `selector` does not match template `labels`",
            PREFIXED,
            Box::new(|j| manual(j, &[("y", "z")], "OnFailure")),
            vec![("spec.template.metadata.labels", "Invalid")],
        ),
        (
            "spec.template.metadata.labels: {\"controller-uid\":\"4d5e6f\"}: `selector` does not match template `labels`",
            PREFIXED,
            Box::new(|j| manual(j, &[("controller-uid", "4d5e6f")], "OnFailure")),
            vec![("spec.template.metadata.labels", "Invalid")],
        ),
        (
            "spec.template.spec.restartPolicy: Required value",
            PREFIXED,
            Box::new(|j| manual(j, &[("a", "b")], "Always")),
            vec![("spec.template.spec.restartPolicy", "Required")],
        ),
        (
            "spec.template.spec.restartPolicy: Unsupported value",
            PREFIXED,
            Box::new(|j| manual(j, &[("a", "b")], "Invalid")),
            vec![
                ("spec.template.spec.restartPolicy", "NotSupported"),
                ("spec.template.spec.restartPolicy", "NotSupported"),
            ],
        ),
        (
            "spec.ttlSecondsAfterFinished: must be greater than or equal to 0",
            PREFIXED,
            Box::new(|j| j.spec.ttl_seconds_after_finished = Some(-1)),
            vec![("spec.ttlSecondsAfterFinished", "Invalid")],
        ),
        (
            "spec.completions: Required value: when completion mode is Indexed",
            PREFIXED,
            Box::new(|j| indexed(j, None)),
            vec![("spec.completions", "Required")],
        ),
        (
            "spec.parallelism: must be less than or equal to 100000 when completion mode is Indexed",
            PREFIXED,
            Box::new(|j| {
                indexed(j, Some(2));
                j.spec.parallelism = Some(100_001);
            }),
            vec![("spec.parallelism", "Invalid")],
        ),
        (
            "spec.template.metadata.labels[controller-uid]: Required value: must be '1a2b3c'",
            NO_OPTS,
            Box::new(|j| {
                j.spec.selector =
                    Some(LabelSelector::from_labels(&labels(&[("controller-uid", "1a2b3c")])));
                j.spec.template_mut().metadata.labels = labels(&[("job-name", "myjob")]).into();
            }),
            vec![
                ("spec.template.metadata.labels[controller-uid]", "Required"),
                ("spec.template.metadata.labels", "Invalid"),
            ],
        ),
        (
            "metadata.uid: Required value",
            NO_OPTS,
            Box::new(|j| {
                j.metadata.uid.clear();
                j.spec.selector =
                    Some(LabelSelector::from_labels(&labels(&[("controller-uid", "test")])));
                j.spec.template_mut().metadata.labels = labels(&[("job-name", "myjob")]).into();
            }),
            vec![
                ("metadata.uid", "Required"),
                ("spec.selector", "Invalid"),
                ("spec.template.metadata.labels", "Invalid"),
                ("spec.template.metadata.labels[controller-uid]", "Required"),
            ],
        ),
        (
            "spec.selector: `selector` not auto-generated",
            PREFIXED,
            Box::new(|j| {
                j.spec.selector = Some(LabelSelector::from_labels(&labels(&[("a", "b")])));
            }),
            vec![
                ("spec.selector", "Invalid"),
                ("spec.template.metadata.labels", "Invalid"),
            ],
        ),
        (
            "spec.template.metadata.labels[batch.kubernetes.io/controller-uid]: Required value",
            PREFIXED,
            Box::new(|j| {
                j.spec.selector = Some(LabelSelector::from_labels(&labels(&[(
                    "batch.kubernetes.io/controller-uid",
                    "1a2b3c",
                )])));
                j.spec.template_mut().metadata.labels = labels(&[
                    ("batch.kubernetes.io/job-name", "myjob"),
                    ("controller-uid", "1a2b3c"),
                    ("job-name", "myjob"),
                ])
                .into();
            }),
            vec![
                (
                    "spec.template.metadata.labels[batch.kubernetes.io/controller-uid]",
                    "Required",
                ),
                ("spec.template.metadata.labels", "Invalid"),
            ],
        ),
    ];
    let mut failures = vec![];
    for (name, opts, f, want) in rows {
        let mut j = base();
        f(&mut j);
        let errs = validate_job(&j, opts);
        let mut got: Vec<(String, &str)> = errs
            .iter()
            .map(|e| (e.field.clone(), type_name(&e.type_)))
            .collect();
        let mut want: Vec<(String, &str)> = want.iter().map(|(f, t)| (f.to_string(), *t)).collect();
        got.sort();
        want.sort();
        if got != want {
            let t: Vec<String> = errs.iter().map(ToString::to_string).collect();
            failures.push(format!(
                "{name}:\n  want {want:?}\n  got  {got:?}\n  ({t:?})"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
