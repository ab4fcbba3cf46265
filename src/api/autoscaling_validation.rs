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

/// A field of an untyped metric source (`pods`, `object`, `external`, `containerResource`).
fn str_at<'a>(v: &'a serde_json::Value, path: &[&str]) -> &'a str {
    let mut cur = Some(v);
    for p in path {
        cur = cur.and_then(|c| c.get(*p));
    }
    cur.and_then(|c| c.as_str()).unwrap_or("")
}

/// The `target` of an untyped metric source.
fn target_of(v: &serde_json::Value) -> MetricTarget {
    v.get("target")
        .cloned()
        .and_then(|t| crate::api::value_de::from_value(t).ok())
        .unwrap_or_default()
}

/// `validateMetricIdentifier`.
fn validate_metric_identifier(v: &serde_json::Value, path: &str) -> Vec<FieldError> {
    let name = str_at(v, &["name"]);
    if name.is_empty() {
        return vec![FieldError::required(
            format!("{path}.name"),
            "must specify a metric name",
        )];
    }
    is_valid_path_segment_name(name)
        .into_iter()
        .map(|m| FieldError::invalid(format!("{path}.name"), name, m))
        .collect()
}

/// `validateObjectSource`.
fn validate_object_source(v: &serde_json::Value, path: &str) -> Vec<FieldError> {
    let described = CrossVersionObjectReference {
        kind: str_at(v, &["describedObject", "kind"]).into(),
        name: str_at(v, &["describedObject", "name"]).into(),
        api_version: str_at(v, &["describedObject", "apiVersion"]).into(),
    };
    let mut errs =
        validate_cross_version_object_reference(&described, &format!("{path}.describedObject"));
    errs.extend(validate_metric_identifier(
        v.get("metric").unwrap_or(&serde_json::Value::Null),
        &format!("{path}.metric"),
    ));
    let t = target_of(v);
    errs.extend(validate_metric_target(&t, &format!("{path}.target")));
    if t.value.is_none() && t.average_value.is_none() {
        errs.push(FieldError::required(
            format!("{path}.target.averageValue"),
            "must set either a target value or averageValue",
        ));
    }
    errs
}

/// `validateExternalSource`.
fn validate_external_source(v: &serde_json::Value, path: &str) -> Vec<FieldError> {
    let mut errs = validate_metric_identifier(
        v.get("metric").unwrap_or(&serde_json::Value::Null),
        &format!("{path}.metric"),
    );
    let t = target_of(v);
    errs.extend(validate_metric_target(&t, &format!("{path}.target")));
    if t.value.is_none() && t.average_value.is_none() {
        errs.push(FieldError::required(
            format!("{path}.target.averageValue"),
            "must set either a target value for metric or a per-pod target",
        ));
    }
    if t.value.is_some() && t.average_value.is_some() {
        errs.push(FieldError::forbidden(
            format!("{path}.target.value"),
            "may not set both a target value for metric and a per-pod target",
        ));
    }
    errs
}

/// `validatePodsSource`.
fn validate_pods_source(v: &serde_json::Value, path: &str) -> Vec<FieldError> {
    let mut errs = validate_metric_identifier(
        v.get("metric").unwrap_or(&serde_json::Value::Null),
        &format!("{path}.metric"),
    );
    let t = target_of(v);
    errs.extend(validate_metric_target(&t, &format!("{path}.target")));
    if t.average_value.is_none() {
        errs.push(FieldError::required(
            format!("{path}.target.averageValue"),
            "must specify a positive target averageValue",
        ));
    }
    errs
}

/// The utilization/raw-value checks shared by `validateResourceSource` and
/// `validateContainerResourceSource`.
fn validate_utilization_target(t: &MetricTarget, path: &str) -> Vec<FieldError> {
    let mut errs = validate_metric_target(t, &format!("{path}.target"));
    if t.average_utilization.is_none() && t.average_value.is_none() {
        errs.push(FieldError::required(
            format!("{path}.target.averageUtilization"),
            "must set either a target raw value or a target utilization",
        ));
    }
    if t.average_utilization.is_some() && t.average_value.is_some() {
        errs.push(FieldError::forbidden(
            format!("{path}.target.averageValue"),
            "may not set both a target raw value and a target utilization",
        ));
    }
    errs
}

/// `validateContainerResourceSource` (the resource name through core/v1's
/// `ValidateContainerResourceName`, whose `ResourceName` value prints unquoted).
fn validate_container_resource_source(v: &serde_json::Value, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let name = str_at(v, &["name"]);
    if name.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.name"),
            "must specify a resource name",
        ));
    } else {
        errs.extend(
            super::validation::pod::validate_container_resource_name(name, &format!("{path}.name"))
                .into_iter()
                .map(|e| e.with_value_text(name)),
        );
    }
    let container = str_at(v, &["container"]);
    if container.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.container"),
            "must specify a container",
        ));
    } else {
        for m in super::validation::names::is_dns1123_label(container) {
            errs.push(FieldError::invalid(
                format!("{path}.container"),
                container,
                m,
            ));
        }
    }
    errs.extend(validate_utilization_target(&target_of(v), path));
    errs
}

/// `validateMetricSpec`: the type, then the first populated source (in upstream's order:
/// object, external, pods, resource, containerResource), then that the type's source — and only
/// it — is populated.
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
    let mut present: Vec<&'static str> = vec![];
    if let Some(o) = &spec.object {
        present.push("object");
        errs.extend(validate_object_source(o, &format!("{path}.object")));
    }
    if let Some(e) = &spec.external {
        present.push("external");
        if present.len() == 1 {
            errs.extend(validate_external_source(e, &format!("{path}.external")));
        }
    }
    if let Some(p) = &spec.pods {
        present.push("pods");
        if present.len() == 1 {
            errs.extend(validate_pods_source(p, &format!("{path}.pods")));
        }
    }
    if let Some(r) = &spec.resource {
        present.push("resource");
        if present.len() == 1 {
            let rp = format!("{path}.resource");
            if r.name.is_empty() {
                errs.push(FieldError::required(
                    format!("{rp}.name"),
                    "must specify a resource name",
                ));
            }
            errs.extend(validate_utilization_target(&r.target, &rp));
        }
    }
    if let Some(c) = &spec.container_resource {
        present.push("containerResource");
        if present.len() == 1 {
            errs.extend(validate_container_resource_source(
                c,
                &format!("{path}.containerResource"),
            ));
        }
    }
    let (expected, missing) = match spec.type_.as_str() {
        "Object" => ("object", spec.object.is_none()),
        "Pods" => ("pods", spec.pods.is_none()),
        "Resource" => ("resource", spec.resource.is_none()),
        // HPAContainerMetrics is GA (locked on): the gate-off wording is gone.
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
        // Upstream ranges over a set (in no fixed order); kubeplay sorts.
        present.sort_unstable();
        for t in present.iter().filter(|t| **t != expected) {
            errs.push(FieldError::forbidden(
                format!("{path}.{t}"),
                "must populate the given metric source only",
            ));
        }
    }
    errs
}

/// `validateMetrics`: every metric, and — with `minReplicas` 0 — at least one Object or
/// External metric.
pub fn validate_metrics(
    metrics: &[MetricSpec],
    min_replicas: Option<i32>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    for (i, m) in metrics.iter().enumerate() {
        errs.extend(validate_metric_spec(m, &format!("{path}[{i}]")));
    }
    let has_object_or_external = metrics
        .iter()
        .any(|m| m.type_ == "Object" || m.type_ == "External");
    if min_replicas == Some(0) && !has_object_or_external {
        errs.push(FieldError::forbidden(
            path,
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
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
    // HPAConfigurableTolerance (beta, on by default since 1.35): a tolerance may not be
    // negative. With the gate off the API server's strategy drops the field before validation
    // unless the stored object already uses it (see `drop_disabled_fields`), so validation itself
    // does not read the gate.
    if let Some(t) = &r.tolerance {
        match parse_quantity(t.0.trim()) {
            Ok(q) if q.nanos < 0 => errs.push(FieldError::invalid(
                format!("{path}.tolerance"),
                t.0.as_str(),
                "must be greater or equal to zero",
            )),
            Ok(_) => {}
            Err(e) => errs.push(FieldError::invalid(
                format!("{path}.tolerance"),
                t.0.as_str(),
                e,
            )),
        }
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

/// `validateHorizontalPodAutoscalerSpec`.
pub fn validate_horizontal_pod_autoscaler_spec(
    s: &crate::api::autoscaling::HorizontalPodAutoscalerSpec,
    min_replicas_lower_bound: i32,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if let Some(m) = s.min_replicas {
        if m < min_replicas_lower_bound {
            errs.push(FieldError::invalid(
                "spec.minReplicas",
                m,
                format!("must be greater than or equal to {min_replicas_lower_bound}"),
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
    errs.extend(validate_metrics(&s.metrics, s.min_replicas, "spec.metrics"));
    errs.extend(validate_behavior(s.behavior.as_ref(), "spec.behavior"));
    errs
}

/// `validationOptionsForHorizontalPodAutoscaler`'s `MinReplicasLowerBound`
/// (`pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go`): 0 with `HPAScaleToZero`
/// (alpha, off in 1.35) or when the stored object already has `minReplicas: 0`, else 1.
pub fn min_replicas_lower_bound(
    old: Option<&HorizontalPodAutoscaler>,
    gates: &crate::features::FeatureGates,
) -> i32 {
    let old_has_zero_min_replicas = old.is_some_and(|o| o.spec.min_replicas == Some(0));
    if gates.enabled("HPAScaleToZero") || old_has_zero_min_replicas {
        0
    } else {
        1
    }
}

/// `ValidateHorizontalPodAutoscaler` with the gates at their 1.35 defaults: `minReplicas` must
/// be at least 1 (`HPAScaleToZero` is alpha and off).
pub fn validate_horizontal_pod_autoscaler(h: &HorizontalPodAutoscaler) -> Vec<FieldError> {
    validate_horizontal_pod_autoscaler_gated(h, &crate::features::FeatureGates::default())
}

/// `ValidateHorizontalPodAutoscaler` with the options the strategy derives from the gates.
pub fn validate_horizontal_pod_autoscaler_gated(
    h: &HorizontalPodAutoscaler,
    gates: &crate::features::FeatureGates,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&h.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_horizontal_pod_autoscaler_spec(
        &h.spec,
        min_replicas_lower_bound(None, gates),
    ));
    errs
}

/// `ValidateHorizontalPodAutoscalerUpdate`: metadata update rules plus the spec; an HPA that
/// already has `minReplicas: 0` may keep it.
pub fn validate_horizontal_pod_autoscaler_update(
    new: &HorizontalPodAutoscaler,
    old: &HorizontalPodAutoscaler,
) -> Vec<FieldError> {
    validate_horizontal_pod_autoscaler_update_gated(
        new,
        old,
        &crate::features::FeatureGates::default(),
    )
}

/// [`validate_horizontal_pod_autoscaler_update`] with the options derived from the gates.
pub fn validate_horizontal_pod_autoscaler_update_gated(
    new: &HorizontalPodAutoscaler,
    old: &HorizontalPodAutoscaler,
    gates: &crate::features::FeatureGates,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_horizontal_pod_autoscaler_spec(
        &new.spec,
        min_replicas_lower_bound(Some(old), gates),
    ));
    errs
}

/// `toleranceInUse`: a scale-up or scale-down rule sets `tolerance`.
pub fn tolerance_in_use(h: Option<&HorizontalPodAutoscaler>) -> bool {
    h.and_then(|h| h.spec.behavior.as_ref()).is_some_and(|b| {
        [&b.scale_down, &b.scale_up]
            .into_iter()
            .any(|r| r.as_ref().is_some_and(|r| r.tolerance.is_some()))
    })
}

/// `dropDisabledFields` (`horizontalpodautoscaler/strategy.go`, run by `PrepareForCreate` and
/// `PrepareForUpdate`): with `HPAConfigurableTolerance` off, `behavior.scaleUp.tolerance` and
/// `behavior.scaleDown.tolerance` are cleared unless the stored object (`old`) already sets one.
pub fn drop_disabled_fields(
    new: &mut HorizontalPodAutoscaler,
    old: Option<&HorizontalPodAutoscaler>,
    gates: &crate::features::FeatureGates,
) {
    if gates.enabled("HPAConfigurableTolerance") || tolerance_in_use(old) {
        return;
    }
    let Some(b) = new.spec.behavior.as_mut() else {
        return;
    };
    for r in [&mut b.scale_down, &mut b.scale_up].into_iter().flatten() {
        r.tolerance = None;
    }
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

#[cfg(test)]
#[path = "autoscaling_validation_tests.rs"]
mod upstream_tests;

#[cfg(test)]
#[path = "autoscaling_audit_tests.rs"]
mod audit_tests;
