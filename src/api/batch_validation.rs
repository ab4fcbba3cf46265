//! Job and CronJob validation (`pkg/apis/batch/validation/validation.go`) with upstream's field
//! paths and messages, and the REST strategies' options (`pkg/registry/batch/job/strategy.go`).
//!
//! Generic object-meta and pod-template checks come from [`crate::api::validation`].

use super::batch::{
    CronJob, CronJobSpec, Job, JobSpec, JobTemplateSpec, PodFailurePolicyOnExitCodesRequirement,
    PodFailurePolicyOnPodConditionsPattern, PodFailurePolicyRule, SuccessPolicyRule,
    CONTROLLER_UID_LABEL, INDEXED_COMPLETION, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL,
    LEGACY_JOB_NAME_LABEL, NON_INDEXED_COMPLETION,
};
use super::errors::FieldError;
use super::meta::Labels;
use super::object::Object;
use super::validation::meta::{
    invalid_selector, label_selector_as_selector, validate_label_selector_with_options,
    validate_nonnegative_field, validate_object_meta, validate_object_meta_update, FIELD_IMMUTABLE,
};
use super::validation::names::{
    is_dns1123_label, is_dns1123_subdomain, is_qualified_name, name_is_dns_subdomain, regex_error,
};
use super::validation::pod::{validate_pod_template_spec, PodValidationOptions};
use serde_json::Value;
use std::collections::BTreeSet;

const MAX_PARALLELISM_FOR_INDEXED_JOB: i32 = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB: i32 = 100_000;
const COMPLETIONS_SOFT_LIMIT: i32 = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS: i32 = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS: i32 = 10_000;
const MAX_POD_FAILURE_POLICY_RULES: usize = 20;
const MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES: usize = 255;
const MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS: usize = 20;
const MAX_MANAGED_BY_LENGTH: usize = 63;
const MAX_JOB_SUCCESS_POLICY_SUCCEEDED_INDEXES_LIMIT: usize = 64 * 1024;
const MAX_SUCCESS_POLICY_RULE: usize = 20;
/// `DNS1035LabelMaxLength - 11`: the CronJob controller appends `-<minutes since epoch>`.
pub const MAX_CRON_JOB_NAME_LENGTH: usize = 52;

const SUPPORTED_ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
const SUPPORTED_OPERATORS: [&str; 2] = ["In", "NotIn"];
const SUPPORTED_STATUSES: [&str; 3] = ["False", "True", "Unknown"];

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Go's `%q` of a `[]string`: `["a" "b"]`.
fn go_quoted_list(items: &[&str]) -> String {
    let q: Vec<String> = items.iter().map(|s| crate::api::go_quote(s)).collect();
    format!("[{}]", q.join(" "))
}

fn labels_value(l: &Labels) -> Value {
    if l.is_empty() {
        Value::Null
    } else {
        to_value(l)
    }
}

/// `JobValidationOptions` (the parts kubeplay models).
#[derive(Clone, Copy, Debug, Default)]
pub struct JobValidationOptions {
    /// Require the `batch.kubernetes.io/` selector labels too.
    pub require_prefixed_labels: bool,
    /// Node affinity, node selector, tolerations, labels, annotations and scheduling gates of the
    /// template may change (suspended Jobs that never started).
    pub allow_mutable_scheduling_directives: bool,
    /// ElasticIndexedJob (GA): completions of an Indexed Job may change with parallelism.
    pub allow_elastic_indexed_jobs: bool,
    /// `PodValidationOptions.AllowInvalidLabelValueInSelector`: the old Job's selector already
    /// has a value that is not a valid label value, so the selector's values are not checked.
    pub allow_invalid_label_value_in_selector: bool,
}

/// `metav1validation.LabelSelectorHasInvalidLabelValue`: a matchExpressions value that is not a
/// valid label value.
pub fn label_selector_has_invalid_label_value(sel: Option<&crate::api::LabelSelector>) -> bool {
    sel.and_then(|s| s.match_expressions.as_ref())
        .is_some_and(|exprs| {
            exprs.iter().any(|e| {
                e.values
                    .iter()
                    .flatten()
                    .any(|v| !super::validation::names::is_valid_label_value(v).is_empty())
            })
        })
}

/// `validationOptionsForJob`.
pub fn validation_options_for_job(old: Option<&Job>) -> JobValidationOptions {
    let mut o = JobValidationOptions {
        require_prefixed_labels: true,
        allow_mutable_scheduling_directives: false,
        allow_elastic_indexed_jobs: true,
        allow_invalid_label_value_in_selector: false,
    };
    if let Some(old) = old {
        // `validationOptionsForJob` (pkg/registry/batch/job/strategy.go): a Job stored with an
        // invalid selector value stays updatable.
        o.allow_invalid_label_value_in_selector =
            label_selector_has_invalid_label_value(old.spec.selector.as_ref());
        o.allow_mutable_scheduling_directives =
            old.spec.suspend == Some(true) && old.status.start_time.is_none();
        let l = &old.spec.template.metadata.labels;
        o.require_prefixed_labels =
            l.contains_key(JOB_NAME_LABEL) && l.contains_key(CONTROLLER_UID_LABEL);
    }
    o
}

/// `ValidateHasLabel`.
fn validate_has_label(labels: &Labels, path: &str, key: &str, expected: &str) -> Vec<FieldError> {
    let p = || format!("{path}.labels[{key}]");
    match labels.get(key) {
        None => vec![FieldError::required(p(), format!("must be '{expected}'"))],
        Some(v) if v != expected => vec![FieldError::invalid(
            p(),
            labels_value(labels),
            format!("must be '{expected}'"),
        )],
        Some(_) => vec![],
    }
}

/// `validateGeneratedSelector`.
pub fn validate_generated_selector(j: &Job, validate_batch_labels: bool) -> Vec<FieldError> {
    let mut errs = vec![];
    if j.spec.manual_selector == Some(true) {
        return errs;
    }
    let Some(sel) = &j.spec.selector else {
        return errs;
    };
    if j.metadata.uid.is_empty() {
        errs.push(FieldError::required("metadata.uid", ""));
    }
    let labels = &j.spec.template.metadata.labels;
    let path = "spec.template.metadata";
    let (uid, name) = (j.metadata.uid.as_str(), j.metadata.name.as_str());
    errs.extend(validate_has_label(
        labels,
        path,
        LEGACY_CONTROLLER_UID_LABEL,
        uid,
    ));
    errs.extend(validate_has_label(
        labels,
        path,
        LEGACY_JOB_NAME_LABEL,
        name,
    ));
    let mut expected = Labels::new();
    if validate_batch_labels {
        errs.extend(validate_has_label(labels, path, CONTROLLER_UID_LABEL, uid));
        errs.extend(validate_has_label(labels, path, JOB_NAME_LABEL, name));
        expected.insert(CONTROLLER_UID_LABEL.into(), uid.into());
        expected.insert(JOB_NAME_LABEL.into(), name.into());
    }
    expected.insert(LEGACY_CONTROLLER_UID_LABEL.into(), uid.into());
    expected.insert(LEGACY_JOB_NAME_LABEL.into(), name.into());
    if let Ok(s) = sel.to_selector() {
        if !s.matches(&expected) {
            errs.push(invalid_selector(
                "spec.selector",
                sel,
                "`selector` not auto-generated",
            ));
        }
    }
    errs
}

/// `ValidateJob`.
pub fn validate_job(j: &Job, opts: JobValidationOptions) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&j.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_generated_selector(j, opts.require_prefixed_labels));
    errs.extend(validate_job_spec_with_options(
        &j.spec,
        "spec",
        opts.allow_invalid_label_value_in_selector,
    ));
    if j.spec.completion_mode.as_deref() == Some(INDEXED_COMPLETION) {
        if let Some(c) = j.spec.completions.filter(|c| *c > 0) {
            let host = format!("{}-{}", j.metadata.name, c - 1);
            if !is_dns1123_label(&host).is_empty() {
                errs.push(FieldError::invalid(
                    "metadata.name",
                    j.metadata.name.as_str(),
                    format!("will not able to create pod with invalid DNS label: {host}"),
                ));
            }
        }
    }
    errs
}

/// `ValidateJobSpec`: the spec, the selector, and the template labels matching it.
pub fn validate_job_spec(spec: &JobSpec, path: &str) -> Vec<FieldError> {
    validate_job_spec_with_options(spec, path, false)
}

/// [`validate_job_spec`] with `AllowInvalidLabelValueInSelector`.
pub fn validate_job_spec_with_options(
    spec: &JobSpec,
    path: &str,
    allow_invalid_label_value_in_selector: bool,
) -> Vec<FieldError> {
    let mut errs = validate_job_spec_inner(spec, path);
    match &spec.selector {
        None => errs.push(FieldError::required(format!("{path}.selector"), "")),
        Some(sel) => errs.extend(validate_label_selector_with_options(
            Some(sel),
            allow_invalid_label_value_in_selector,
            &format!("{path}.selector"),
        )),
    }
    // Upstream checks the match even without a selector: `LabelSelectorAsSelector(nil)` is
    // `labels.Nothing()`, which matches no labels.
    if let Ok(sel) = label_selector_as_selector(spec.selector.as_ref()) {
        if !sel.matches(&spec.template.metadata.labels) {
            errs.push(FieldError::invalid(
                format!("{path}.template.metadata.labels"),
                labels_value(&spec.template.metadata.labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    errs
}

/// `IsDomainPrefixedPath`.
fn is_domain_prefixed_path(path: &str, v: &str) -> Vec<FieldError> {
    if v.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let Some((host, rest)) = v
        .split_once('/')
        .filter(|(h, r)| !h.is_empty() && !r.is_empty())
    else {
        return vec![FieldError::invalid(
            path,
            v,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        )];
    };
    let mut errs: Vec<FieldError> = is_dns1123_subdomain(host)
        .into_iter()
        .map(|m| FieldError::invalid(path, host, m))
        .collect();
    let ok = rest
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c));
    if !ok {
        errs.push(FieldError::invalid(
            path,
            rest,
            regex_error(
                "must be a valid path",
                "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+",
                &[],
            ),
        ));
    }
    errs
}

/// `validateJobSpec` (shared with Job templates).
fn validate_job_spec_inner(spec: &JobSpec, path: &str) -> Vec<FieldError> {
    let p = |c: &str| crate::api::validation::child(path, c);
    let mut errs = vec![];
    // The path is built only for a negative value (the common case allocates nothing).
    let nonneg = |v: Option<i64>, c: &str, errs: &mut Vec<FieldError>| {
        if let Some(v) = v.filter(|v| *v < 0) {
            errs.extend(validate_nonnegative_field(v, &p(c)));
        }
    };
    nonneg(spec.parallelism.map(i64::from), "parallelism", &mut errs);
    nonneg(spec.completions.map(i64::from), "completions", &mut errs);
    nonneg(
        spec.active_deadline_seconds,
        "activeDeadlineSeconds",
        &mut errs,
    );
    nonneg(spec.backoff_limit.map(i64::from), "backoffLimit", &mut errs);
    nonneg(
        spec.ttl_seconds_after_finished.map(i64::from),
        "ttlSecondsAfterFinished",
        &mut errs,
    );
    nonneg(
        spec.backoff_limit_per_index.map(i64::from),
        "backoffLimitPerIndex",
        &mut errs,
    );
    if let Some(m) = spec.max_failed_indexes {
        errs.extend(validate_nonnegative_field(
            i64::from(m),
            &p("maxFailedIndexes"),
        ));
        if spec.backoff_limit_per_index.is_none() {
            errs.push(FieldError::required(
                p("backoffLimitPerIndex"),
                "when maxFailedIndexes is specified",
            ));
        }
    }
    if let Some(m) = &spec.managed_by {
        errs.extend(is_domain_prefixed_path(&p("managedBy"), m));
        if m.len() > MAX_MANAGED_BY_LENGTH {
            // Upstream calls field.TooLongMaxLength, which since apimachinery 1.32 is a
            // deprecated alias of field.TooLong: "may not be more than 63 bytes".
            errs.push(FieldError::too_long(p("managedBy"), MAX_MANAGED_BY_LENGTH));
        }
    }
    if let Some(mode) = &spec.completion_mode {
        if mode != NON_INDEXED_COMPLETION && mode != INDEXED_COMPLETION {
            errs.push(FieldError::not_supported(
                p("completionMode"),
                mode.as_str(),
                &[NON_INDEXED_COMPLETION, INDEXED_COMPLETION],
            ));
        }
        if mode == INDEXED_COMPLETION {
            if spec.completions.is_none() {
                errs.push(FieldError::required(
                    p("completions"),
                    "when completion mode is Indexed",
                ));
            }
            if let Some(par) = spec
                .parallelism
                .filter(|v| *v > MAX_PARALLELISM_FOR_INDEXED_JOB)
            {
                errs.push(FieldError::invalid(
                    p("parallelism"),
                    par,
                    format!(
                        "must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed"
                    ),
                ));
            }
            if let (Some(c), Some(m)) = (spec.completions, spec.max_failed_indexes) {
                if m > c {
                    errs.push(FieldError::invalid(
                        p("maxFailedIndexes"),
                        m,
                        "must be less than or equal to completions",
                    ));
                }
            }
            if let Some(m) = spec
                .max_failed_indexes
                .filter(|m| *m > MAX_FAILED_INDEXES_FOR_INDEXED_JOB)
            {
                errs.push(FieldError::invalid(
                    p("maxFailedIndexes"),
                    m,
                    format!("must be less than or equal to {MAX_FAILED_INDEXES_FOR_INDEXED_JOB}"),
                ));
            }
            if spec.completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT)
                && spec.backoff_limit_per_index.is_some()
            {
                if spec.max_failed_indexes.is_none() {
                    errs.push(FieldError::required(
                        p("maxFailedIndexes"),
                        format!(
                            "must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"
                        ),
                    ));
                }
                if let Some(par) = spec
                    .parallelism
                    .filter(|v| *v > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS)
                {
                    errs.push(FieldError::invalid(
                        p("parallelism"),
                        par,
                        format!("must be less than or equal to {PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"),
                    ));
                }
                if let Some(m) = spec
                    .max_failed_indexes
                    .filter(|m| *m > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS)
                {
                    errs.push(FieldError::invalid(
                        p("maxFailedIndexes"),
                        m,
                        format!("must be less than or equal to {MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"),
                    ));
                }
            }
        }
    }
    if spec
        .completion_mode
        .as_deref()
        .unwrap_or(NON_INDEXED_COMPLETION)
        == NON_INDEXED_COMPLETION
    {
        if let Some(b) = spec.backoff_limit_per_index {
            errs.push(FieldError::invalid(
                p("backoffLimitPerIndex"),
                b,
                "requires indexed completion mode",
            ));
        }
        if let Some(m) = spec.max_failed_indexes {
            errs.push(FieldError::invalid(
                p("maxFailedIndexes"),
                m,
                "requires indexed completion mode",
            ));
        }
    }
    if let Some(pfp) = &spec.pod_failure_policy {
        let rules_path = p("podFailurePolicy.rules");
        if pfp.rules.len() > MAX_POD_FAILURE_POLICY_RULES {
            errs.push(FieldError::too_many(
                rules_path.as_str(),
                pfp.rules.len(),
                MAX_POD_FAILURE_POLICY_RULES,
            ));
        }
        let names: BTreeSet<&str> = spec
            .template
            .spec
            .containers
            .iter()
            .chain(spec.template.spec.init_containers.iter())
            .map(|c| c.name.as_str())
            .collect();
        for (i, r) in pfp.rules.iter().enumerate() {
            errs.extend(validate_pod_failure_policy_rule(
                spec,
                r,
                &format!("{rules_path}[{i}]"),
                &names,
            ));
        }
    }
    if let Some(sp) = &spec.success_policy {
        if spec
            .completion_mode
            .as_deref()
            .unwrap_or(NON_INDEXED_COMPLETION)
            != INDEXED_COMPLETION
        {
            errs.push(FieldError::invalid(
                p("successPolicy"),
                to_value(sp),
                "requires indexed completion mode",
            ));
        } else {
            let rules_path = p("successPolicy.rules");
            if sp.rules.is_empty() {
                errs.push(FieldError::required(
                    rules_path.as_str(),
                    "at least one rules must be specified when the successPolicy is specified",
                ));
            }
            if sp.rules.len() > MAX_SUCCESS_POLICY_RULE {
                errs.push(FieldError::too_many(
                    rules_path.as_str(),
                    sp.rules.len(),
                    MAX_SUCCESS_POLICY_RULE,
                ));
            }
            for (i, r) in sp.rules.iter().enumerate() {
                errs.extend(validate_success_policy_rule(
                    spec,
                    r,
                    &format!("{rules_path}[{i}]"),
                ));
            }
        }
    }
    if let Some(rp) = &spec.pod_replacement_policy {
        if spec.pod_failure_policy.is_some() {
            if rp != "Failed" {
                errs.push(FieldError::not_supported(
                    p("podReplacementPolicy"),
                    rp.as_str(),
                    &["Failed"],
                ));
            }
        } else if rp != "Failed" && rp != "TerminatingOrFailed" {
            errs.push(FieldError::not_supported(
                p("podReplacementPolicy"),
                rp.as_str(),
                &["Failed", "TerminatingOrFailed"],
            ));
        }
    }
    errs.extend(validate_pod_template_spec(
        &spec.template,
        &p("template"),
        PodValidationOptions::default(),
    ));
    let rp = spec.template.spec.restart_policy.as_str();
    let rp_path = || p("template.spec.restartPolicy");
    if rp == "Always" || rp.is_empty() {
        errs.push(FieldError::required(
            rp_path(),
            "valid values: \"OnFailure\", \"Never\"",
        ));
    } else if rp != "OnFailure" && rp != "Never" {
        errs.push(FieldError::not_supported(
            rp_path(),
            rp,
            &["OnFailure", "Never"],
        ));
    } else if spec.pod_failure_policy.is_some() && rp != "Never" {
        errs.push(FieldError::invalid(
            rp_path(),
            rp,
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
    errs
}

/// `validatePodFailurePolicyRule`.
fn validate_pod_failure_policy_rule(
    spec: &JobSpec,
    r: &PodFailurePolicyRule,
    path: &str,
    names: &BTreeSet<&str>,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let action_path = format!("{path}.action");
    if r.action.is_empty() {
        errs.push(FieldError::required(
            action_path,
            format!("valid values: {}", go_quoted_list(&SUPPORTED_ACTIONS)),
        ));
    } else if r.action == "FailIndex" {
        if spec.backoff_limit_per_index.is_none() {
            errs.push(FieldError::invalid(
                action_path,
                r.action.as_str(),
                "requires the backoffLimitPerIndex to be set",
            ));
        }
    } else if !SUPPORTED_ACTIONS.contains(&r.action.as_str()) {
        errs.push(FieldError::not_supported(
            action_path,
            r.action.as_str(),
            &SUPPORTED_ACTIONS,
        ));
    }
    if let Some(ec) = &r.on_exit_codes {
        errs.extend(validate_on_exit_codes(
            ec,
            &format!("{path}.onExitCodes"),
            names,
        ));
    }
    if !r.on_pod_conditions.is_empty() {
        errs.extend(validate_on_pod_conditions(
            &r.on_pod_conditions,
            &format!("{path}.onPodConditions"),
        ));
    }
    if r.on_exit_codes.is_some() && !r.on_pod_conditions.is_empty() {
        errs.push(FieldError::invalid_omit_value(
            path,
            "specifying both OnExitCodes and OnPodConditions is not supported",
        ));
    }
    if r.on_exit_codes.is_none() && r.on_pod_conditions.is_empty() {
        errs.push(FieldError::invalid_omit_value(
            path,
            "specifying one of OnExitCodes and OnPodConditions is required",
        ));
    }
    errs
}

fn validate_on_pod_conditions(
    pats: &[PodFailurePolicyOnPodConditionsPattern],
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if pats.len() > MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS {
        errs.push(FieldError::too_many(
            path,
            pats.len(),
            MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS,
        ));
    }
    for (j, pat) in pats.iter().enumerate() {
        let pp = format!("{path}[{j}]");
        for m in is_qualified_name(&pat.type_) {
            errs.push(FieldError::invalid(
                format!("{pp}.type"),
                pat.type_.as_str(),
                m,
            ));
        }
        let sp = format!("{pp}.status");
        if pat.status.is_empty() {
            errs.push(FieldError::required(
                sp,
                format!("valid values: {}", go_quoted_list(&SUPPORTED_STATUSES)),
            ));
        } else if !SUPPORTED_STATUSES.contains(&pat.status.as_str()) {
            errs.push(FieldError::not_supported(
                sp,
                pat.status.as_str(),
                &SUPPORTED_STATUSES,
            ));
        }
    }
    errs
}

fn validate_on_exit_codes(
    ec: &PodFailurePolicyOnExitCodesRequirement,
    path: &str,
    names: &BTreeSet<&str>,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let op_path = format!("{path}.operator");
    if ec.operator.is_empty() {
        errs.push(FieldError::required(
            op_path,
            format!("valid values: {}", go_quoted_list(&SUPPORTED_OPERATORS)),
        ));
    } else if !SUPPORTED_OPERATORS.contains(&ec.operator.as_str()) {
        errs.push(FieldError::not_supported(
            op_path,
            ec.operator.as_str(),
            &SUPPORTED_OPERATORS,
        ));
    }
    if let Some(c) = &ec.container_name {
        if !names.contains(c.as_str()) {
            errs.push(FieldError::invalid(
                format!("{path}.containerName"),
                c.as_str(),
                "must be one of the container or initContainer names in the pod template",
            ));
        }
    }
    let vp = format!("{path}.values");
    if ec.values.is_empty() {
        errs.push(FieldError::invalid(
            vp.as_str(),
            Value::Null,
            "at least one value is required",
        ));
    } else if ec.values.len() > MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES {
        errs.push(FieldError::too_many(
            vp.as_str(),
            ec.values.len(),
            MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES,
        ));
    }
    let mut ordered = true;
    let mut seen = BTreeSet::new();
    for (j, v) in ec.values.iter().enumerate() {
        let p = format!("{vp}[{j}]");
        if ec.operator == "In" && *v == 0 {
            errs.push(FieldError::invalid(
                p.as_str(),
                *v,
                "must not be 0 for the In operator",
            ));
        }
        if !seen.insert(*v) {
            errs.push(FieldError::duplicate(p.as_str(), *v));
        }
        if j > 0 && ec.values[j - 1] > *v {
            ordered = false;
        }
    }
    if !ordered {
        errs.push(FieldError::invalid(
            vp,
            to_value(&ec.values),
            "must be ordered",
        ));
    }
    errs
}

/// `validateSuccessPolicyRule`.
fn validate_success_policy_rule(
    spec: &JobSpec,
    r: &SuccessPolicyRule,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if r.succeeded_count.is_none() && r.succeeded_indexes.is_none() {
        errs.push(FieldError::required(
            path,
            "at least one of succeededCount or succeededIndexes must be specified",
        ));
    }
    let completions = spec.completions.unwrap_or(0);
    let mut total = 0;
    if let Some(si) = &r.succeeded_indexes {
        let p = format!("{path}.succeededIndexes");
        if si.len() > MAX_JOB_SUCCESS_POLICY_SUCCEEDED_INDEXES_LIMIT {
            errs.push(FieldError::too_long(
                p.as_str(),
                MAX_JOB_SUCCESS_POLICY_SUCCEEDED_INDEXES_LIMIT,
            ));
        }
        match validate_indexes_format(si, completions) {
            Ok(t) => total = t,
            Err(e) => errs.push(FieldError::invalid(
                p,
                si.as_str(),
                format!("error parsing succeededIndexes: {e}"),
            )),
        }
    }
    if let Some(c) = r.succeeded_count {
        let p = format!("{path}.succeededCount");
        errs.extend(validate_nonnegative_field(i64::from(c), &p));
        if c > completions {
            errs.push(FieldError::invalid(
                p.as_str(),
                c,
                format!("must be less than or equal to {completions} (the number of specified completions)"),
            ));
        }
        if r.succeeded_indexes.is_some() && c > total {
            errs.push(FieldError::invalid(
                p.as_str(),
                c,
                format!("must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"),
            ));
        }
    }
    errs
}

/// Go's `strconv.Atoi` for the index parsers (no sign handling beyond `+`/`-`).
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `parseIndexInterval`.
///
/// # Errors
/// Upstream's messages (`too large index: "5"`, `non-increasing order, previous: 3, current: 1`).
pub fn parse_index_interval(s: &str, completions: i32) -> Result<(i32, i32), String> {
    let limits: Vec<&str> = s.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            crate::api::go_quote(s)
        ));
    }
    let bad = |x: &str| {
        format!(
            "cannot convert string to integer for index: {}",
            crate::api::go_quote(x)
        )
    };
    let x = atoi(limits[0]).ok_or_else(|| bad(limits[0]))?;
    if x >= i64::from(completions) {
        return Err(format!(
            "too large index: {}",
            crate::api::go_quote(limits[0])
        ));
    }
    if limits.len() > 1 {
        let y = atoi(limits[1]).ok_or_else(|| bad(limits[1]))?;
        if y >= i64::from(completions) {
            return Err(format!(
                "too large index: {}",
                crate::api::go_quote(limits[1])
            ));
        }
        if x >= y {
            return Err(format!("non-increasing order, previous: {x}, current: {y}"));
        }
        return Ok((x as i32, y as i32));
    }
    Ok((x as i32, x as i32))
}

/// `validateIndexesFormat`: returns the number of indexes.
///
/// # Errors
/// The first bad interval's message.
pub fn validate_indexes_format(s: &str, completions: i32) -> Result<i32, String> {
    if s.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i32> = None;
    let mut total = 0;
    for iv in s.split(',') {
        let (x, y) = parse_index_interval(iv, completions)?;
        if let Some(l) = last {
            if l >= x {
                return Err(format!("non-increasing order, previous: {l}, current: {x}"));
            }
        }
        total += y - x + 1;
        last = Some(y);
    }
    Ok(total)
}

/// `ValidateJobTemplateSpec`: the job spec; the selector is generated, so it may not be set.
pub fn validate_job_template_spec(t: &JobTemplateSpec, path: &str) -> Vec<FieldError> {
    let mut errs = validate_job_spec_inner(&t.spec, &format!("{path}.spec"));
    if let Some(sel) = &t.spec.selector {
        errs.push(invalid_selector(
            &format!("{path}.spec.selector"),
            sel,
            "`selector` will be auto-generated",
        ));
    }
    if t.spec.manual_selector == Some(true) {
        errs.push(FieldError::not_supported(
            format!("{path}.spec.manualSelector"),
            true,
            &["nil", "false"],
        ));
    }
    errs
}

/// The template with the scheduling directives taken from `new` (for suspended, never-started
/// Jobs).
fn with_scheduling_directives(
    old: &crate::api::PodTemplateSpec,
    new: &crate::api::PodTemplateSpec,
) -> crate::api::PodTemplateSpec {
    let mut t = old.clone();
    t.spec_mut().affinity = new.spec.affinity.clone();
    t.spec_mut().node_selector = new.spec.node_selector.clone();
    t.spec_mut().tolerations = new.spec.tolerations.clone();
    t.metadata.annotations = new.metadata.annotations.clone();
    t.metadata.labels = new.metadata.labels.clone();
    match new.spec.extra.get("schedulingGates") {
        Some(g) => {
            t.spec_mut()
                .extra
                .insert("schedulingGates".into(), g.clone());
        }
        None => {
            t.spec_mut().extra.remove("schedulingGates");
        }
    }
    t
}

/// `ValidateJobSpecUpdate`.
pub fn validate_job_spec_update(
    new: &JobSpec,
    old: &JobSpec,
    opts: JobValidationOptions,
) -> Vec<FieldError> {
    let mut errs =
        validate_job_spec_with_options(new, "spec", opts.allow_invalid_label_value_in_selector);
    // validateCompletions
    let indexed = new.completion_mode.as_deref() == Some(INDEXED_COMPLETION);
    if !opts.allow_elastic_indexed_jobs || !indexed {
        if new.completions != old.completions {
            errs.push(FieldError::invalid(
                "spec.completions",
                to_value(&new.completions),
                FIELD_IMMUTABLE,
            ));
        }
    } else if new.completions != old.completions {
        if let Some(c) = new.completions {
            if Some(c) != new.parallelism {
                errs.push(FieldError::invalid(
                    "spec.completions",
                    c,
                    "can only be modified in tandem with spec.parallelism",
                ));
            }
        }
    }
    if new.selector != old.selector {
        let e = match &new.selector {
            Some(s) => invalid_selector("spec.selector", s, FIELD_IMMUTABLE),
            None => FieldError::invalid("spec.selector", Value::Null, FIELD_IMMUTABLE),
        };
        errs.push(e);
    }
    let old_t = if opts.allow_mutable_scheduling_directives {
        with_scheduling_directives(&old.template, &new.template)
    } else {
        crate::api::core::PodTemplateSpec::clone(&old.template.clone())
    };
    if new.template != std::sync::Arc::new(old_t) {
        errs.push(FieldError::invalid(
            "spec.template",
            to_value(&new.template),
            FIELD_IMMUTABLE,
        ));
    }
    let imm = |a: Value, b: Value, f: &str, errs: &mut Vec<FieldError>| {
        if a != b {
            errs.push(FieldError::invalid(format!("spec.{f}"), a, FIELD_IMMUTABLE));
        }
    };
    imm(
        to_value(&new.completion_mode),
        to_value(&old.completion_mode),
        "completionMode",
        &mut errs,
    );
    imm(
        to_value(&new.pod_failure_policy),
        to_value(&old.pod_failure_policy),
        "podFailurePolicy",
        &mut errs,
    );
    imm(
        to_value(&new.backoff_limit_per_index),
        to_value(&old.backoff_limit_per_index),
        "backoffLimitPerIndex",
        &mut errs,
    );
    imm(
        to_value(&new.managed_by),
        to_value(&old.managed_by),
        "managedBy",
        &mut errs,
    );
    imm(
        to_value(&new.success_policy),
        to_value(&old.success_policy),
        "successPolicy",
        &mut errs,
    );
    errs
}

/// The Job strategy's `ValidateUpdate`: `ValidateJob` then `ValidateJobUpdate`.
pub fn validate_job_update(new: &Job, old: &Job) -> Vec<FieldError> {
    let opts = validation_options_for_job(Some(old));
    let mut errs = validate_job(new, opts);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        "metadata",
    ));
    errs.extend(validate_job_spec_update(&new.spec, &old.spec, opts));
    // `AllowIndivisibleHugePagesValues` from the stored template (`validationOptionsForJob`).
    crate::api::validation::pod::ratchet_indivisible_huge_pages(&mut errs, &old.spec.template.spec);
    errs
}

/// `validateTimeZone`.
pub fn validate_time_zone(tz: Option<&str>, path: &str) -> Vec<FieldError> {
    let Some(tz) = tz else {
        return vec![];
    };
    if tz.is_empty() {
        return vec![FieldError::invalid(
            path,
            tz,
            "timeZone must be nil or non-empty string",
        )];
    }
    for part in tz.split('/') {
        let chars_ok = (1..=14).contains(&part.len())
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-_+".contains(c));
        if part == "." || part == ".." || part.starts_with('-') || !chars_ok {
            return vec![FieldError::invalid(
                path,
                tz,
                format!("unknown time zone {tz}"),
            )];
        }
    }
    let mut errs = vec![];
    if tz.eq_ignore_ascii_case("Local") {
        errs.push(FieldError::invalid(
            path,
            tz,
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        ));
    }
    if let Err(e) = crate::cron::load_location(tz) {
        errs.push(FieldError::invalid(path, tz, e));
    }
    errs
}

/// `validateScheduleFormat`.
fn validate_schedule_format(
    schedule: &str,
    allow_tz_in_schedule: bool,
    tz: Option<&str>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if let Err(e) = crate::cron::parse_standard(schedule) {
        errs.push(FieldError::invalid(path, schedule, e));
    }
    let has_tz = schedule.contains("TZ");
    if allow_tz_in_schedule && has_tz && tz.is_some() {
        errs.push(FieldError::invalid(
            path,
            schedule,
            "cannot use both timeZone field and TZ or CRON_TZ in schedule",
        ));
    } else if !allow_tz_in_schedule && has_tz {
        errs.push(FieldError::invalid(
            path,
            schedule,
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
        ));
    }
    errs
}

/// `validateCronJobSpec`.
pub fn validate_cron_job_spec(spec: &CronJobSpec, old: Option<&CronJobSpec>) -> Vec<FieldError> {
    let mut errs = vec![];
    if spec.schedule.is_empty() {
        errs.push(FieldError::required("spec.schedule", ""));
    } else {
        let allow = old.is_some_and(|o| o.schedule.contains("TZ"));
        errs.extend(validate_schedule_format(
            &spec.schedule,
            allow,
            spec.time_zone.as_deref(),
            "spec.schedule",
        ));
    }
    if let Some(s) = spec.starting_deadline_seconds {
        errs.extend(validate_nonnegative_field(
            s,
            "spec.startingDeadlineSeconds",
        ));
    }
    if old.is_none_or(|o| o.time_zone != spec.time_zone) {
        errs.extend(validate_time_zone(
            spec.time_zone.as_deref(),
            "spec.timeZone",
        ));
    }
    match spec.concurrency_policy.as_str() {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(FieldError::required("spec.concurrencyPolicy", "")),
        other => errs.push(FieldError::not_supported(
            "spec.concurrencyPolicy",
            other,
            &["Allow", "Forbid", "Replace"],
        )),
    }
    errs.extend(validate_job_template_spec(
        &spec.job_template,
        "spec.jobTemplate",
    ));
    if let Some(l) = spec.successful_jobs_history_limit {
        errs.extend(validate_nonnegative_field(
            i64::from(l),
            "spec.successfulJobsHistoryLimit",
        ));
    }
    if let Some(l) = spec.failed_jobs_history_limit {
        errs.extend(validate_nonnegative_field(
            i64::from(l),
            "spec.failedJobsHistoryLimit",
        ));
    }
    errs
}

/// `ValidateCronJobCreate`, including the 52-character name limit.
pub fn validate_cron_job_create(cj: &CronJob) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&cj.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_cron_job_spec(&cj.spec, None));
    if cj.metadata.name.len() > MAX_CRON_JOB_NAME_LENGTH {
        errs.push(FieldError::invalid(
            "metadata.name",
            cj.metadata.name.as_str(),
            "must be no more than 52 characters",
        ));
    }
    errs
}

/// `ValidateCronJobUpdate` (no name-length check, so old long names stay updatable).
pub fn validate_cron_job_update(new: &CronJob, old: &CronJob) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_cron_job_spec(&new.spec, Some(&old.spec)));
    // `AllowIndivisibleHugePagesValues` from the stored job template (the CronJob strategy's
    // `GetValidationOptionsFromPodTemplate`).
    crate::api::validation::pod::ratchet_indivisible_huge_pages(
        &mut errs,
        &old.spec.job_template.spec.template.spec,
    );
    errs
}

/// The hook [`crate::api::validation::validate_object`] calls for batch kinds.
pub fn validate_batch_object(o: &Object, old: Option<&Object>) -> Vec<FieldError> {
    match (o, old) {
        (Object::Job(n), Some(Object::Job(o))) => validate_job_update(n, o),
        (Object::Job(n), _) => validate_job(n, validation_options_for_job(None)),
        (Object::CronJob(n), Some(Object::CronJob(o))) => validate_cron_job_update(n, o),
        (Object::CronJob(n), _) => validate_cron_job_create(n),
        _ => vec![],
    }
}

/// `JobStatusValidationOptions` (pkg/apis/batch/validation/validation.go): the status rules
/// the status strategy turns on for an update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobStatusValidationOptions {
    pub reject_decreasing_succeeded_counter: bool,
    pub reject_decreasing_failed_counter: bool,
    pub reject_disabling_terminal_condition: bool,
    pub reject_invalid_completed_indexes: bool,
    pub reject_invalid_failed_indexes: bool,
    pub reject_failed_indexes_overlapping_completed: bool,
    pub reject_completed_indexes_for_non_indexed_job: bool,
    pub reject_failed_indexes_for_no_backoff_limit_per_index: bool,
    pub reject_failed_job_without_failure_target: bool,
    pub reject_complete_job_without_success_criteria_met: bool,
    pub reject_finished_job_with_active_pods: bool,
    pub reject_finished_job_without_start_time: bool,
    pub reject_finished_job_with_uncounted_terminated_pods: bool,
    pub reject_start_time_update_for_unsuspended_job: bool,
    pub reject_completion_time_before_start_time: bool,
    pub reject_mutating_completion_time: bool,
    pub reject_complete_job_without_completion_time: bool,
    pub reject_not_complete_job_with_completion_time: bool,
    pub reject_complete_job_with_failed_condition: bool,
    pub reject_complete_job_with_failure_target_condition: bool,
    pub allow_for_success_criteria_met_in_extended_scope: bool,
    pub reject_more_ready_than_active_pods: bool,
    pub reject_finished_job_with_terminating_pods: bool,
}

/// `IsConditionTrue` of the batch validation.
fn job_condition_true(j: &Job, t: &str) -> bool {
    j.status
        .conditions
        .iter()
        .any(|c| c.type_ == t && c.status == "True")
}

/// `getStatusValidationOptions` (pkg/registry/batch/job/strategy.go): with JobManagedBy (GA and
/// locked on in 1.35, kubernetes/kubernetes PR #135080) the transition rules run when the fields
/// they check changed; otherwise only the SuccessCriteriaMet scope is decided.
///
/// The change conditions follow the strategy source of the JobManagedBy-beta era (the stored
/// kubernetes fork dejanzele/kubernetes, the author of the GA promotion), which already has
/// RejectMoreReadyThanActivePods ("ready or active changed") and
/// RejectFinishedJobWithTerminatingPods ("finished or terminating changed"), and
/// RejectFailedJobWithoutFailureTarget ("Failed or failedIndexes changed") and
/// RejectCompleteJobWithoutSuccessCriteriaMet ("Complete or SuccessCriteriaMet changed"), the
/// rules kubernetes/kubernetes#125510 added in 1.31 when the Job controller started writing the
/// FailureTarget / SuccessCriteriaMet interim conditions before the terminal ones.
pub fn job_status_validation_options(
    new: &Job,
    old: &Job,
    job_managed_by: bool,
    job_pod_replacement_policy: bool,
) -> JobStatusValidationOptions {
    use super::batch::{JOB_COMPLETE, JOB_FAILED, JOB_FAILURE_TARGET, JOB_SUCCESS_CRITERIA_MET};
    if job_managed_by {
        let (n, o) = (&new.status, &old.status);
        let is_indexed = new.is_indexed();
        let finished_changed = old.is_finished() != new.is_finished();
        let complete_changed =
            job_condition_true(old, JOB_COMPLETE) != job_condition_true(new, JOB_COMPLETE);
        let failed_changed =
            job_condition_true(old, JOB_FAILED) != job_condition_true(new, JOB_FAILED);
        let failure_target_changed = job_condition_true(old, JOB_FAILURE_TARGET)
            != job_condition_true(new, JOB_FAILURE_TARGET);
        let success_criteria_met_changed = job_condition_true(old, JOB_SUCCESS_CRITERIA_MET)
            != job_condition_true(new, JOB_SUCCESS_CRITERIA_MET);
        let completed_indexes_changed = o.completed_indexes != n.completed_indexes;
        let failed_indexes_changed = o.failed_indexes != n.failed_indexes;
        let active_changed = o.active != n.active;
        let start_time_changed = o.start_time != n.start_time;
        let completion_time_changed = o.completion_time != n.completion_time;
        // `apiequality.Semantic.DeepEqual`: nil and empty lists are equal inside the struct.
        let uncounted_changed = o.uncounted_terminated_pods != n.uncounted_terminated_pods;
        // A suspended Job with `completions: 0` completes without ever starting: no startTime
        // is required then (kubernetes/kubernetes#132144, PR #132614).
        let suspended_zero = new.spec.suspend == Some(true) && new.spec.completions == Some(0);
        return JobStatusValidationOptions {
            // Indexed Jobs with completions == parallelism may be scaled down.
            reject_decreasing_succeeded_counter: !is_indexed
                || new.spec.completions != new.spec.parallelism,
            reject_decreasing_failed_counter: true,
            reject_disabling_terminal_condition: true,
            reject_invalid_completed_indexes: completed_indexes_changed,
            reject_invalid_failed_indexes: failed_indexes_changed,
            reject_completed_indexes_for_non_indexed_job: completed_indexes_changed,
            reject_failed_indexes_for_no_backoff_limit_per_index: failed_indexes_changed,
            reject_failed_indexes_overlapping_completed: failed_indexes_changed
                || completed_indexes_changed,
            reject_failed_job_without_failure_target: failed_changed || failed_indexes_changed,
            reject_complete_job_without_success_criteria_met: complete_changed
                || success_criteria_met_changed,
            reject_finished_job_with_active_pods: finished_changed || active_changed,
            reject_finished_job_without_start_time: (finished_changed || start_time_changed)
                && !suspended_zero,
            reject_finished_job_with_uncounted_terminated_pods: finished_changed
                || uncounted_changed,
            reject_start_time_update_for_unsuspended_job: start_time_changed,
            reject_completion_time_before_start_time: start_time_changed || completion_time_changed,
            reject_mutating_completion_time: true,
            reject_not_complete_job_with_completion_time: complete_changed
                || completion_time_changed,
            reject_complete_job_without_completion_time: complete_changed
                || completion_time_changed,
            reject_complete_job_with_failed_condition: complete_changed || failed_changed,
            reject_complete_job_with_failure_target_condition: complete_changed
                || failure_target_changed,
            allow_for_success_criteria_met_in_extended_scope: true,
            // Enforced in default configurations since 1.31 (JobManagedBy beta), per
            // kubernetes/kubernetes#139428 and PR #139457: a write with more ready than active
            // pods is refused ("cannot set more ready pods than active"), and so is a finished
            // Job still counting terminating pods, when the counters involved change.
            reject_more_ready_than_active_pods: o.ready != n.ready || active_changed,
            reject_finished_job_with_terminating_pods: finished_changed
                || o.terminating != n.terminating,
        };
    }
    JobStatusValidationOptions {
        allow_for_success_criteria_met_in_extended_scope: job_pod_replacement_policy
            || job_condition_true(old, JOB_SUCCESS_CRITERIA_MET),
        ..Default::default()
    }
}

/// `validateFailedIndexesNotOverlapCompleted`: intervals that do not parse are skipped (the
/// format rules report them).
///
/// # Errors
/// `failedIndexes and completedIndexes overlap at index: <i>`.
pub fn validate_failed_indexes_not_overlap_completed(
    completed: &str,
    failed: &str,
    completions: i32,
) -> Result<(), String> {
    if completed.is_empty() || failed.is_empty() {
        return Ok(());
    }
    let c: Vec<&str> = completed.split(',').collect();
    let f: Vec<&str> = failed.split(',').collect();
    let (mut cp, mut fp) = (0, 0);
    let mut cv = parse_index_interval(c[0], completions);
    let mut fv = parse_index_interval(f[0], completions);
    while cp < c.len() && fp < f.len() {
        match (&cv, &fv) {
            (Err(_), _) => {
                cp += 1;
                if cp < c.len() {
                    cv = parse_index_interval(c[cp], completions);
                }
            }
            (_, Err(_)) => {
                fp += 1;
                if fp < f.len() {
                    fv = parse_index_interval(f[fp], completions);
                }
            }
            (Ok((cx, cy)), Ok((fx, fy))) => {
                if cx <= fy && fx <= cy {
                    return Err(format!(
                        "failedIndexes and completedIndexes overlap at index: {}",
                        (*cx).max(*fx)
                    ));
                }
                if cx <= fx {
                    cp += 1;
                    if cp < c.len() {
                        cv = parse_index_interval(c[cp], completions);
                    }
                } else {
                    fp += 1;
                    if fp < f.len() {
                        fv = parse_index_interval(f[fp], completions);
                    }
                }
            }
        }
    }
    Ok(())
}

fn time_value(t: Option<crate::api::Time>) -> Value {
    t.map_or(Value::Null, |t| to_value(&t))
}

/// The option-gated and SuccessCriteriaMet rules of `validateJobStatus`, in upstream's order
/// (the counter and uncountedTerminatedPods rules that come first are
/// [`crate::api::validation::status::validate_status`]).
pub fn validate_job_status_rules(j: &Job, opts: JobStatusValidationOptions) -> Vec<FieldError> {
    use super::batch::{JOB_COMPLETE, JOB_FAILED, JOB_FAILURE_TARGET, JOB_SUCCESS_CRITERIA_MET};
    let mut e = vec![];
    let s = &j.status;
    let complete = job_condition_true(j, JOB_COMPLETE);
    let failed = job_condition_true(j, JOB_FAILED);
    let failure_target = job_condition_true(j, JOB_FAILURE_TARGET);
    let scm = job_condition_true(j, JOB_SUCCESS_CRITERIA_MET);
    let cond = |d: &str| FieldError::invalid_omit_value("status.conditions", d);
    if opts.reject_complete_job_with_failed_condition && complete && failed {
        e.push(cond("cannot set Complete=True and Failed=true conditions"));
    }
    if opts.reject_complete_job_with_failure_target_condition && complete && failure_target {
        e.push(cond(
            "cannot set Complete=True and FailureTarget=true conditions",
        ));
    }
    if opts.reject_not_complete_job_with_completion_time && s.completion_time.is_some() && !complete
    {
        e.push(FieldError::invalid(
            "status.completionTime",
            time_value(s.completion_time),
            "cannot set completionTime when there is no Complete=True condition",
        ));
    }
    if opts.reject_complete_job_without_completion_time && s.completion_time.is_none() && complete {
        e.push(FieldError::required(
            "status.completionTime",
            "completionTime is required for Complete jobs",
        ));
    }
    if opts.reject_completion_time_before_start_time {
        if let (Some(st), Some(ct)) = (s.start_time, s.completion_time) {
            if ct < st {
                e.push(FieldError::invalid(
                    "status.completionTime",
                    time_value(s.completion_time),
                    "completionTime cannot be set before startTime",
                ));
            }
        }
    }
    if opts.reject_failed_job_without_failure_target && failed && !failure_target {
        e.push(cond(
            "cannot set Failed=True condition without the FailureTarget=true condition",
        ));
    }
    if opts.reject_complete_job_without_success_criteria_met && complete && !scm {
        e.push(cond(
            "cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
        ));
    }
    let finished = j.is_finished();
    if opts.reject_finished_job_with_active_pods && s.active > 0 && finished {
        e.push(FieldError::invalid(
            "status.active",
            s.active,
            "active>0 is invalid for finished job",
        ));
    }
    if opts.reject_finished_job_without_start_time && s.start_time.is_none() && finished {
        e.push(FieldError::required(
            "status.startTime",
            "startTime is required for finished job",
        ));
    }
    if opts.reject_finished_job_with_uncounted_terminated_pods && finished {
        if let Some(u) = &s.uncounted_terminated_pods {
            if u.failed.len() + u.succeeded.len() > 0 {
                e.push(FieldError::invalid(
                    "status.uncountedTerminatedPods",
                    to_value(u),
                    "uncountedTerminatedPods needs to be empty for finished job",
                ));
            }
        }
    }
    if opts.reject_invalid_completed_indexes {
        if let Some(c) = j.spec.completions {
            if let Err(err) = validate_indexes_format(&s.completed_indexes, c) {
                e.push(FieldError::invalid(
                    "status.completedIndexes",
                    s.completed_indexes.as_str(),
                    format!("error parsing completedIndexes: {err}"),
                ));
            }
        }
    }
    if opts.reject_invalid_failed_indexes {
        if let (Some(c), Some(_), Some(fi)) = (
            j.spec.completions,
            j.spec.backoff_limit_per_index,
            &s.failed_indexes,
        ) {
            if let Err(err) = validate_indexes_format(fi, c) {
                e.push(FieldError::invalid(
                    "status.failedIndexes",
                    fi.as_str(),
                    format!("error parsing failedIndexes: {err}"),
                ));
            }
        }
    }
    if opts.reject_completed_indexes_for_non_indexed_job
        && !s.completed_indexes.is_empty()
        && !j.is_indexed()
    {
        e.push(FieldError::invalid(
            "status.completedIndexes",
            s.completed_indexes.as_str(),
            "cannot set non-empty completedIndexes when non-indexed completion mode",
        ));
    }
    if opts.reject_failed_indexes_for_no_backoff_limit_per_index
        && j.spec.backoff_limit_per_index.is_none()
    {
        // Also rejects failedIndexes of NonIndexed Jobs (their backoffLimitPerIndex is nil).
        if let Some(fi) = &s.failed_indexes {
            e.push(FieldError::invalid(
                "status.failedIndexes",
                fi.as_str(),
                "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
            ));
        }
    }
    if opts.reject_failed_indexes_overlapping_completed {
        if let (Some(c), Some(fi)) = (j.spec.completions, &s.failed_indexes) {
            if let Err(err) =
                validate_failed_indexes_not_overlap_completed(&s.completed_indexes, fi, c)
            {
                e.push(FieldError::invalid(
                    "status.failedIndexes",
                    fi.as_str(),
                    err,
                ));
            }
        }
    }
    if opts.reject_finished_job_with_terminating_pods && finished {
        if let Some(t) = s.terminating.filter(|t| *t > 0) {
            e.push(FieldError::invalid(
                "status.terminating",
                t,
                "terminating>0 is invalid for finished job",
            ));
        }
    }
    if opts.reject_more_ready_than_active_pods {
        if let Some(r) = s.ready.filter(|r| *r > s.active) {
            e.push(FieldError::invalid(
                "status.ready",
                r,
                "cannot set more ready pods than active",
            ));
        }
    }
    if !opts.allow_for_success_criteria_met_in_extended_scope && !j.is_indexed() && scm {
        e.push(cond("cannot set SuccessCriteriaMet to NonIndexed Job"));
    }
    if scm && failed {
        e.push(cond(
            "cannot set SuccessCriteriaMet=True and Failed=true conditions",
        ));
    }
    if scm && failure_target {
        e.push(cond(
            "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
        ));
    }
    if !opts.allow_for_success_criteria_met_in_extended_scope
        && j.spec.success_policy.is_none()
        && scm
    {
        e.push(cond(
            "cannot set SuccessCriteriaMet=True for Job without SuccessPolicy",
        ));
    }
    if j.spec.success_policy.is_some() && !scm && complete {
        e.push(cond(
            "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
        ));
    }
    e
}

/// The update rules of `ValidateJobStatusUpdate` after `validateJobStatus`.
pub fn validate_job_status_update_rules(
    new: &Job,
    old: &Job,
    opts: JobStatusValidationOptions,
) -> Vec<FieldError> {
    use super::batch::{JOB_COMPLETE, JOB_FAILED, JOB_FAILURE_TARGET, JOB_SUCCESS_CRITERIA_MET};
    let mut e = vec![];
    if opts.reject_disabling_terminal_condition {
        for t in [JOB_FAILED, JOB_COMPLETE, JOB_FAILURE_TARGET] {
            if job_condition_true(old, t) && !job_condition_true(new, t) {
                e.push(FieldError::invalid_omit_value(
                    "status.conditions",
                    format!("cannot disable the terminal {t}=True condition"),
                ));
            }
        }
    }
    let (n, o) = (&new.status, &old.status);
    if opts.reject_decreasing_failed_counter && n.failed < o.failed {
        e.push(FieldError::invalid(
            "status.failed",
            n.failed,
            "cannot decrease the failed counter",
        ));
    }
    if opts.reject_decreasing_succeeded_counter && n.succeeded < o.succeeded {
        e.push(FieldError::invalid(
            "status.succeeded",
            n.succeeded,
            "cannot decrease the succeeded counter",
        ));
    }
    // Only a set completionTime is checked: clearing it on a Job that is not finished is fine.
    if opts.reject_mutating_completion_time
        && n.completion_time.is_some()
        && o.completion_time.is_some()
        && n.completion_time != o.completion_time
    {
        e.push(FieldError::invalid(
            "status.completionTime",
            time_value(n.completion_time),
            "completionTime cannot be mutated",
        ));
    }
    // nil -> set is the desired transition of an unsuspended Job. So is the reset of a Job
    // being resumed (its Suspended condition turning from True to False in the same write, as
    // syncJob does). Fix of kubernetes/kubernetes#134521 (PR #134769, in 1.35 and the
    // 1.32-1.34 patch releases): resuming a started Job no longer fails its status updates, and
    // the error became `Invalid` ("field is immutable for unsuspended job once set").
    let resuming = job_condition_true(old, super::batch::JOB_SUSPENDED)
        && !job_condition_true(new, super::batch::JOB_SUSPENDED);
    if opts.reject_start_time_update_for_unsuspended_job
        && o.start_time.is_some()
        && o.start_time != n.start_time
        && new.spec.suspend != Some(true)
        && !resuming
    {
        e.push(FieldError::invalid(
            "status.startTime",
            time_value(n.start_time),
            "field is immutable for unsuspended job once set",
        ));
    }
    let old_scm = job_condition_true(old, JOB_SUCCESS_CRITERIA_MET);
    let new_scm = job_condition_true(new, JOB_SUCCESS_CRITERIA_MET);
    if old_scm && !new_scm {
        e.push(FieldError::invalid_omit_value(
            "status.conditions",
            "cannot disable the SuccessCriteriaMet=True condition",
        ));
    }
    if job_condition_true(old, JOB_COMPLETE) && !old_scm && new_scm {
        e.push(FieldError::invalid_omit_value(
            "status.conditions",
            "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
        ));
    }
    e
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod upstream_tests2;

#[cfg(test)]
mod upstream_tests3;

#[cfg(test)]
mod upstream_tests4;

#[cfg(test)]
mod upstream_tests5;

#[cfg(test)]
mod hugepages_tests;

#[cfg(test)]
mod audit_tests;

#[cfg(test)]
mod status_strategy_rows_tests;

#[cfg(test)]
mod declarative_tests;

#[cfg(test)]
mod cronjob_declarative_tests;
