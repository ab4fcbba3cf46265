//! HorizontalPodAutoscaler validation (`pkg/apis/autoscaling/validation/validation.go`).

use super::autoscaling::{
    CrossVersionObjectReference, HorizontalPodAutoscaler, HorizontalPodAutoscalerBehavior,
    HpaScalingPolicy, HpaScalingRules, MetricSpec, MetricTarget,
};
use super::core::Quantity;
use super::errors::FieldError;
use super::validation::meta::{validate_object_meta, validate_object_meta_update};
use super::validation::names::name_is_dns_subdomain;
use super::validation::quantity::parse_quantity;

/// `MaxPeriodSeconds`.
pub const MAX_PERIOD_SECONDS: i32 = 1800;
/// `MaxStabilizationWindowSeconds`.
pub const MAX_STABILIZATION_WINDOW_SECONDS: i32 = 3600;

/// `path.IsValidPathSegmentName`.
pub fn is_valid_path_segment_name(name: &str) -> Vec<String> {
    let mut out = vec![];
    if name == "." || name == ".." {
        out.push(format!("may not be '{name}'"));
        return out;
    }
    for bad in ["/", "%"] {
        if name.contains(bad) {
            out.push(format!("may not contain '{bad}'"));
        }
    }
    out
}

/// `ValidateCrossVersionObjectReference`.
pub fn validate_cross_version_object_reference(
    r: &CrossVersionObjectReference,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    for (field, v) in [("kind", &r.kind), ("name", &r.name)] {
        if v.is_empty() {
            errs.push(FieldError::required(format!("{path}.{field}"), ""));
        } else {
            for m in is_valid_path_segment_name(v) {
                errs.push(FieldError::invalid(
                    format!("{path}.{field}"),
                    v.as_str(),
                    m,
                ));
            }
        }
    }
    errs
}

fn quantity_sign(q: &Quantity) -> i32 {
    match parse_quantity(&q.0) {
        Ok(p) => p.milli_value().signum() as i32,
        Err(_) => 0,
    }
}

/// `validateMetricTarget`.
pub fn validate_metric_target(mt: &MetricTarget, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    if mt.type_.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.type"),
            "must specify a metric target type",
        ));
    }
    if !["Utilization", "Value", "AverageValue"].contains(&mt.type_.as_str()) {
        errs.push(FieldError::invalid(
            format!("{path}.type"),
            mt.type_.as_str(),
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    if let Some(v) = &mt.value {
        if quantity_sign(v) != 1 {
            errs.push(FieldError::invalid(
                format!("{path}.value"),
                v.0.as_str(),
                "must be positive",
            ));
        }
    }
    if let Some(v) = &mt.average_value {
        if quantity_sign(v) != 1 {
            errs.push(FieldError::invalid(
                format!("{path}.averageValue"),
                v.0.as_str(),
                "must be positive",
            ));
        }
    }
    if let Some(u) = mt.average_utilization {
        if u < 1 {
            errs.push(FieldError::invalid(
                format!("{path}.averageUtilization"),
                u,
                "must be greater than 0",
            ));
        }
    }
    errs
}

const METRIC_SOURCE_TYPES: &[&str] = &[
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];

fn present_sources(spec: &MetricSpec) -> Vec<&'static str> {
    let mut v = vec![];
    if spec.object.is_some() {
        v.push("object");
    }
    if spec.pods.is_some() {
        v.push("pods");
    }
    if spec.resource.is_some() {
        v.push("resource");
    }
    if spec.container_resource.is_some() {
        v.push("containerResource");
    }
    if spec.external.is_some() {
        v.push("external");
    }
    v.sort_unstable();
    v
}

/// `validateMetricSpec` (the `Resource` source in full; other sources only for presence).
pub fn validate_metric_spec(spec: &MetricSpec, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    if spec.type_.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.type"),
            "must specify a metric source type",
        ));
    }
    if !METRIC_SOURCE_TYPES.contains(&spec.type_.as_str()) {
        errs.push(FieldError::not_supported(
            format!("{path}.type"),
            spec.type_.as_str(),
            METRIC_SOURCE_TYPES,
        ));
    }
    let present = present_sources(spec);
    if let Some(r) = &spec.resource {
        if present.len() == 1 {
            let rp = format!("{path}.resource");
            if r.name.is_empty() {
                errs.push(FieldError::required(
                    format!("{rp}.name"),
                    "must specify a resource name",
                ));
            }
            errs.extend(validate_metric_target(&r.target, &format!("{rp}.target")));
            if r.target.average_utilization.is_none() && r.target.average_value.is_none() {
                errs.push(FieldError::required(
                    format!("{rp}.target.averageUtilization"),
                    "must set either a target raw value or a target utilization",
                ));
            }
            if r.target.average_utilization.is_some() && r.target.average_value.is_some() {
                errs.push(FieldError::forbidden(
                    format!("{rp}.target.averageValue"),
                    "may not set both a target raw value and a target utilization",
                ));
            }
        }
    }
    let (expected, missing) = match spec.type_.as_str() {
        "Object" => ("object", spec.object.is_none()),
        "Pods" => ("pods", spec.pods.is_none()),
        "Resource" => ("resource", spec.resource.is_none()),
        "ContainerResource" => ("containerResource", spec.container_resource.is_none()),
        "External" => ("external", spec.external.is_none()),
        _ => {
            // Upstream reports the unsupported type a second time from its switch's default.
            errs.push(FieldError::not_supported(
                format!("{path}.type"),
                spec.type_.as_str(),
                METRIC_SOURCE_TYPES,
            ));
            ("", false)
        }
    };
    if missing {
        errs.push(FieldError::required(
            format!("{path}.{expected}"),
            "must populate information for the given metric source",
        ));
    }
    if present.len() != 1 {
        for t in present.iter().filter(|t| **t != expected) {
            errs.push(FieldError::forbidden(
                format!("{path}.{t}"),
                "must populate the given metric source only",
            ));
        }
    }
    errs
}

/// `validateScalingPolicy`.
pub fn validate_scaling_policy(p: &HpaScalingPolicy, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    if p.type_ != "Pods" && p.type_ != "Percent" {
        errs.push(FieldError::not_supported(
            format!("{path}.type"),
            p.type_.as_str(),
            &["Percent", "Pods"],
        ));
    }
    if p.value <= 0 {
        errs.push(FieldError::invalid(
            format!("{path}.value"),
            p.value,
            "must be greater than zero",
        ));
    }
    if p.period_seconds <= 0 {
        errs.push(FieldError::invalid(
            format!("{path}.periodSeconds"),
            p.period_seconds,
            "must be greater than zero",
        ));
    }
    if p.period_seconds > MAX_PERIOD_SECONDS {
        errs.push(FieldError::invalid(
            format!("{path}.periodSeconds"),
            p.period_seconds,
            format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
        ));
    }
    errs
}

/// `validateScalingRules`.
pub fn validate_scaling_rules(rules: Option<&HpaScalingRules>, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let Some(r) = rules else {
        return errs;
    };
    if let Some(w) = r.stabilization_window_seconds {
        if w < 0 {
            errs.push(FieldError::invalid(
                format!("{path}.stabilizationWindowSeconds"),
                w,
                "must be greater than or equal to zero",
            ));
        }
        if w > MAX_STABILIZATION_WINDOW_SECONDS {
            errs.push(FieldError::invalid(
                format!("{path}.stabilizationWindowSeconds"),
                w,
                format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            ));
        }
    }
    if let Some(s) = &r.select_policy {
        if !["Disabled", "Max", "Min"].contains(&s.as_str()) {
            errs.push(FieldError::not_supported(
                format!("{path}.selectPolicy"),
                s.as_str(),
                &["Disabled", "Max", "Min"],
            ));
        }
    }
    let policies = r.policies.as_deref().unwrap_or_default();
    if policies.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.policies"),
            "must specify at least one Policy",
        ));
    }
    for (i, p) in policies.iter().enumerate() {
        errs.extend(validate_scaling_policy(p, &format!("{path}.policies[{i}]")));
    }
    errs
}

/// `validateBehavior`.
pub fn validate_behavior(
    b: Option<&HorizontalPodAutoscalerBehavior>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if let Some(b) = b {
        errs.extend(validate_scaling_rules(
            b.scale_up.as_ref(),
            &format!("{path}.scaleUp"),
        ));
        errs.extend(validate_scaling_rules(
            b.scale_down.as_ref(),
            &format!("{path}.scaleDown"),
        ));
    }
    errs
}

/// `ValidateHorizontalPodAutoscaler` (`minReplicas` must be at least 1: the `HPAScaleToZero`
/// gate is alpha and off).
pub fn validate_horizontal_pod_autoscaler(h: &HorizontalPodAutoscaler) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&h.metadata, true, name_is_dns_subdomain, "metadata");
    let s = &h.spec;
    let min_lower_bound = 1;
    if let Some(m) = s.min_replicas {
        if m < min_lower_bound {
            errs.push(FieldError::invalid(
                "spec.minReplicas",
                m,
                format!("must be greater than or equal to {min_lower_bound}"),
            ));
        }
    }
    if s.max_replicas < 1 {
        errs.push(FieldError::invalid(
            "spec.maxReplicas",
            s.max_replicas,
            "must be greater than 0",
        ));
    }
    if let Some(m) = s.min_replicas {
        if s.max_replicas < m {
            errs.push(FieldError::invalid(
                "spec.maxReplicas",
                s.max_replicas,
                "must be greater than or equal to `minReplicas`",
            ));
        }
    }
    errs.extend(validate_cross_version_object_reference(
        &s.scale_target_ref,
        "spec.scaleTargetRef",
    ));
    for (i, m) in s.metrics.iter().enumerate() {
        errs.extend(validate_metric_spec(m, &format!("spec.metrics[{i}]")));
    }
    errs.extend(validate_behavior(s.behavior.as_ref(), "spec.behavior"));
    errs
}

/// `ValidateHorizontalPodAutoscalerUpdate`: metadata update rules plus the spec.
pub fn validate_horizontal_pod_autoscaler_update(
    new: &HorizontalPodAutoscaler,
    old: &HorizontalPodAutoscaler,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(
        validate_horizontal_pod_autoscaler(new)
            .into_iter()
            .filter(|e| !e.field.starts_with("metadata")),
    );
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::autoscaling::*;

    fn valid() -> HorizontalPodAutoscaler {
        let mut h = HorizontalPodAutoscaler::default();
        h.metadata.name = "myautoscaler".into();
        h.metadata.namespace = "default".into();
        h.spec.scale_target_ref = CrossVersionObjectReference {
            kind: "ReplicationController".into(),
            name: "myrc".into(),
            api_version: String::new(),
        };
        h.spec.min_replicas = Some(1);
        h.spec.max_replicas = 5;
        set_defaults_horizontal_pod_autoscaler(&mut h);
        h
    }

    fn fields(errs: &[FieldError]) -> Vec<String> {
        errs.iter()
            .map(|e| format!("{}: {}", e.field, e.detail))
            .collect()
    }

    // Port of TestValidateScale-adjacent cases from TestValidateHorizontalPodAutoscaler
    // (pkg/apis/autoscaling/validation/validation_test.go): the error table's messages.
    #[test]
    fn invalid_specs_report_upstream_messages() {
        assert!(validate_horizontal_pod_autoscaler(&valid()).is_empty());
        type Mutate = Box<dyn Fn(&mut HorizontalPodAutoscaler)>;
        let cases: Vec<(Mutate, &str)> = vec![
            (
                Box::new(|h| h.spec.scale_target_ref.kind.clear()),
                "spec.scaleTargetRef.kind: ",
            ),
            (
                Box::new(|h| h.spec.scale_target_ref.kind = "..".into()),
                "spec.scaleTargetRef.kind: may not be '..'",
            ),
            (
                Box::new(|h| h.spec.scale_target_ref.name = "my/rc".into()),
                "spec.scaleTargetRef.name: may not contain '/'",
            ),
            (
                Box::new(|h| h.spec.min_replicas = Some(-1)),
                "spec.minReplicas: must be greater than or equal to 1",
            ),
            (
                Box::new(|h| h.spec.max_replicas = 0),
                "spec.maxReplicas: must be greater than 0",
            ),
            (
                Box::new(|h| {
                    h.spec.min_replicas = Some(7);
                }),
                "spec.maxReplicas: must be greater than or equal to `minReplicas`",
            ),
            (
                Box::new(|h| {
                    h.spec.metrics[0]
                        .resource
                        .as_mut()
                        .unwrap()
                        .target
                        .average_utilization = Some(-10)
                }),
                "spec.metrics[0].resource.target.averageUtilization: must be greater than 0",
            ),
            (
                Box::new(|h| {
                    let t = &mut h.spec.metrics[0].resource.as_mut().unwrap().target;
                    t.average_value = Some(Quantity("100m".into()));
                }),
                "spec.metrics[0].resource.target.averageValue: may not set both a target raw value and a target utilization",
            ),
            (
                Box::new(|h| {
                    let t = &mut h.spec.metrics[0].resource.as_mut().unwrap().target;
                    t.average_utilization = None;
                }),
                "spec.metrics[0].resource.target.averageUtilization: must set either a target raw value or a target utilization",
            ),
            (
                Box::new(|h| {
                    h.spec.metrics[0].resource.as_mut().unwrap().name.clear();
                }),
                "spec.metrics[0].resource.name: must specify a resource name",
            ),
            (
                Box::new(|h| {
                    h.spec.metrics[0].type_ = "Pods".into();
                }),
                "spec.metrics[0].pods: must populate information for the given metric source",
            ),
            (
                Box::new(|h| {
                    h.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
                        scale_up: Some(HpaScalingRules {
                            stabilization_window_seconds: Some(3601),
                            ..default_scale_up_rules()
                        }),
                        scale_down: Some(default_scale_down_rules()),
                    })
                }),
                "spec.behavior.scaleUp.stabilizationWindowSeconds: must be less than or equal to 3600",
            ),
            (
                Box::new(|h| {
                    h.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
                        scale_up: Some(default_scale_up_rules()),
                        scale_down: Some(HpaScalingRules {
                            policies: Some(vec![]),
                            ..default_scale_down_rules()
                        }),
                    })
                }),
                "spec.behavior.scaleDown.policies: must specify at least one Policy",
            ),
            (
                Box::new(|h| {
                    h.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
                        scale_up: Some(HpaScalingRules {
                            policies: Some(vec![HpaScalingPolicy {
                                type_: "Pods".into(),
                                value: 1,
                                period_seconds: 1801,
                            }]),
                            ..default_scale_up_rules()
                        }),
                        scale_down: Some(default_scale_down_rules()),
                    })
                }),
                "spec.behavior.scaleUp.policies[0].periodSeconds: must be less than or equal to 1800",
            ),
            (
                Box::new(|h| {
                    h.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
                        scale_up: Some(HpaScalingRules {
                            policies: Some(vec![HpaScalingPolicy {
                                type_: "Pods".into(),
                                value: 0,
                                period_seconds: 15,
                            }]),
                            ..default_scale_up_rules()
                        }),
                        scale_down: Some(default_scale_down_rules()),
                    })
                }),
                "spec.behavior.scaleUp.policies[0].value: must be greater than zero",
            ),
        ];
        for (i, (mutate, want)) in cases.into_iter().enumerate() {
            let mut h = valid();
            mutate(&mut h);
            let got = fields(&validate_horizontal_pod_autoscaler(&h));
            assert!(
                got.iter().any(|g| g == want),
                "case {i}: want {want:?} in {got:?}"
            );
        }
    }

    #[test]
    fn select_policy_and_policy_type_are_enums() {
        let mut h = valid();
        h.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
            scale_up: Some(HpaScalingRules {
                select_policy: Some("Fastest".into()),
                policies: Some(vec![HpaScalingPolicy {
                    type_: "Nodes".into(),
                    value: 1,
                    period_seconds: 15,
                }]),
                ..Default::default()
            }),
            scale_down: None,
        });
        let errs = validate_horizontal_pod_autoscaler(&h);
        let got: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[0].contains("spec.behavior.scaleUp.selectPolicy: Unsupported value: \"Fastest\""),
            "{got:?}"
        );
        assert!(
            got[1].contains("spec.behavior.scaleUp.policies[0].type: Unsupported value: \"Nodes\""),
            "{got:?}"
        );
    }
}
