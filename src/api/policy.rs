//! `policy/v1.PodDisruptionBudget` and its validation (`ValidatePodDisruptionBudget`,
//! `ValidatePodDisruptionBudgetSpec`, `ValidatePodDisruptionBudgetStatusUpdate` in
//! pkg/apis/policy/validation/validation.go) with the REST strategy's options
//! (pkg/registry/policy/poddisruptionbudget/strategy.go).

use super::deployment_validation::{
    is_not_more_than_100_percent, validate_positive_int_or_percent,
};
use super::errors::{go_json, FieldError};
use super::intstr::IntOrString;
use super::meta::{LabelSelector, ObjectMeta};
use super::time::Time;
use super::validation::conditions::{validate_conditions, Condition};
use super::validation::meta::{
    validate_label_selector_with_options, validate_object_meta, validate_object_meta_update,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// `policy/v1.IfHealthyBudget`.
pub const IF_HEALTHY_BUDGET: &str = "IfHealthyBudget";
/// `policy/v1.AlwaysAllow`.
pub const ALWAYS_ALLOW: &str = "AlwaysAllow";
/// `policy/v1.DisruptionAllowedCondition`.
pub const DISRUPTION_ALLOWED_CONDITION: &str = "DisruptionAllowed";
/// `policy/v1.SyncFailedReason`.
pub const SYNC_FAILED_REASON: &str = "SyncFailed";
/// `policy/v1.SufficientPodsReason`.
pub const SUFFICIENT_PODS_REASON: &str = "SufficientPods";
/// `policy/v1.InsufficientPodsReason`.
pub const INSUFFICIENT_PODS_REASON: &str = "InsufficientPods";

/// `policy/v1.PodDisruptionBudget`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PodDisruptionBudgetSpec,
    #[serde(default)]
    pub status: PodDisruptionBudgetStatus,
}

/// `policy/v1.PodDisruptionBudgetSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudgetSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unhealthy_pod_eviction_policy: Option<String>,
}

/// `policy/v1.PodDisruptionBudgetStatus`: the four counters are always serialized (no
/// `omitempty` in the v1 JSON tags).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudgetStatus {
    #[serde(default, skip_serializing_if = "crate::api::meta::is_zero_i64")]
    pub observed_generation: i64,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub disrupted_pods: BTreeMap<String, Time>,
    #[serde(default)]
    pub disruptions_allowed: i32,
    #[serde(default)]
    pub current_healthy: i32,
    #[serde(default)]
    pub desired_healthy: i32,
    #[serde(default)]
    pub expected_pods: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `PodDisruptionBudgetValidationOptions`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PodDisruptionBudgetValidationOptions {
    pub allow_invalid_label_value_in_selector: bool,
}

/// The internal `policy.PodDisruptionBudgetSpec` as `field.Error` prints it when it is the bad
/// value: `json.Marshal` of the internal type, whose fields carry no JSON tags (Go field names in
/// declaration order; the selector is a `metav1.LabelSelector` with its tags).
fn internal_spec_json(spec: &PodDisruptionBudgetSpec) -> String {
    let ios = |v: &Option<IntOrString>| {
        v.clone()
            .map_or_else(|| "null".to_string(), |v| go_json(&Value::from(v)))
    };
    let selector = spec.selector.as_ref().map_or_else(
        || "null".to_string(),
        |s| go_json(&serde_json::to_value(s).unwrap_or(Value::Null)),
    );
    let policy = spec
        .unhealthy_pod_eviction_policy
        .as_ref()
        .map_or_else(|| "null".to_string(), |p| go_json(&Value::from(p.as_str())));
    format!(
        "{{\"MinAvailable\":{},\"Selector\":{},\"MaxUnavailable\":{},\"UnhealthyPodEvictionPolicy\":{}}}",
        ios(&spec.min_available),
        selector,
        ios(&spec.max_unavailable),
        policy
    )
}

/// `ValidatePodDisruptionBudgetSpec`.
pub fn validate_pod_disruption_budget_spec(
    spec: &PodDisruptionBudgetSpec,
    opts: PodDisruptionBudgetValidationOptions,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if spec.min_available.is_some() && spec.max_unavailable.is_some() {
        errs.push(
            FieldError::invalid(
                path,
                Value::Null,
                "minAvailable and maxUnavailable cannot be both set",
            )
            .with_value_text(internal_spec_json(spec)),
        );
    }
    for (v, name) in [
        (&spec.min_available, "minAvailable"),
        (&spec.max_unavailable, "maxUnavailable"),
    ] {
        if let Some(v) = v {
            let p = format!("{path}.{name}");
            errs.extend(validate_positive_int_or_percent(v, &p));
            errs.extend(is_not_more_than_100_percent(v, &p));
        }
    }
    errs.extend(validate_label_selector_with_options(
        spec.selector.as_ref(),
        opts.allow_invalid_label_value_in_selector,
        &format!("{path}.selector"),
    ));
    if let Some(p) = &spec.unhealthy_pod_eviction_policy {
        if p != IF_HEALTHY_BUDGET && p != ALWAYS_ALLOW {
            errs.push(FieldError::not_supported(
                format!("{path}.unhealthyPodEvictionPolicy"),
                p.as_str(),
                &[ALWAYS_ALLOW, IF_HEALTHY_BUDGET],
            ));
        }
    }
    errs
}

/// `ValidatePodDisruptionBudget`.
pub fn validate_pod_disruption_budget(
    pdb: &PodDisruptionBudget,
    opts: PodDisruptionBudgetValidationOptions,
) -> Vec<FieldError> {
    validate_pod_disruption_budget_spec(&pdb.spec, opts, "spec")
}

/// `path.ValidatePathSegmentName`, the name rule `rest.BeforeCreate` applies to kinds whose
/// strategy validates no name (the PodDisruptionBudget strategy does not).
fn validate_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return ["/", "%"]
            .iter()
            .filter(|b| name.contains(*b))
            .map(|b| format!("may not contain '{b}'"))
            .collect();
    }
    super::autoscaling_validation::is_valid_path_segment_name(name)
}

/// The strategy's `Validate` (selector values checked strictly), then the common object-meta
/// validation `rest.BeforeCreate` runs after it.
pub fn validate_create(pdb: &PodDisruptionBudget) -> Vec<FieldError> {
    let mut errs = validate_pod_disruption_budget(pdb, Default::default());
    errs.extend(validate_object_meta(
        &pdb.metadata,
        true,
        validate_path_segment_name,
        "metadata",
    ));
    errs
}

/// `hasInvalidLabelValueInLabelSelector` (strategy.go).
pub fn has_invalid_label_value_in_label_selector(pdb: &PodDisruptionBudget) -> bool {
    pdb.spec.selector.as_ref().is_some_and(|s| {
        !validate_label_selector_with_options(Some(s), false, "spec.selector").is_empty()
    })
}

/// The strategy's `ValidateUpdate` (invalid selector values allowed when the old object had
/// one), then `rest.BeforeUpdate`'s object-meta update validation.
pub fn validate_update(new: &PodDisruptionBudget, old: &PodDisruptionBudget) -> Vec<FieldError> {
    let opts = PodDisruptionBudgetValidationOptions {
        allow_invalid_label_value_in_selector: has_invalid_label_value_in_label_selector(old),
    };
    let mut errs = validate_pod_disruption_budget(new, opts);
    errs.extend(validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        "metadata",
    ));
    errs
}

/// `ValidatePodDisruptionBudgetStatusUpdate` for policy/v1 (the status strategy's
/// `ValidateUpdate`).
pub fn validate_pod_disruption_budget_status_update(
    status: &PodDisruptionBudgetStatus,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = validate_conditions(&status.conditions, &format!("{path}.conditions"));
    for (v, name) in [
        (status.disruptions_allowed, "disruptionsAllowed"),
        (status.current_healthy, "currentHealthy"),
        (status.desired_healthy, "desiredHealthy"),
        (status.expected_pods, "expectedPods"),
    ] {
        errs.extend(super::validation::meta::validate_nonnegative_field(
            i64::from(v),
            &format!("{path}.{name}"),
        ));
    }
    errs
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
