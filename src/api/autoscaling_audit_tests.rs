//! Hand-derived edge cases of pkg/apis/autoscaling/validation/validation.go (repo
//! kubernetes/kubernetes): `validateHorizontalPodAutoscalerSpec` at the int32 bounds,
//! `validateScalingRules` / `validateScalingPolicy` at their limits, `validateMetricTarget`
//! signs, and `ValidateHorizontalPodAutoscalerStatusUpdate` (the HPA status strategy's check).

use super::*;
use crate::api::Object;
use serde_json::{json, Value};

fn hpa(min: Option<i32>, max: i32, behavior: Value) -> HorizontalPodAutoscaler {
    let mut spec = json!({
        "scaleTargetRef": {"kind": "ReplicationController", "name": "myrc"},
        "maxReplicas": max,
        "metrics": [{"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": 70}}}],
    });
    if let Some(m) = min {
        spec["minReplicas"] = m.into();
    }
    if !behavior.is_null() {
        spec["behavior"] = behavior;
    }
    serde_json::from_value(json!({
        "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "myautoscaler", "namespace": "default"},
        "spec": spec,
    }))
    .expect("test HPA decodes")
}

fn errs(h: &HorizontalPodAutoscaler) -> Vec<String> {
    validate_horizontal_pod_autoscaler(h)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn replica_bounds() {
    assert!(errs(&hpa(None, 1, Value::Null)).is_empty());
    assert!(errs(&hpa(Some(1), i32::MAX, Value::Null)).is_empty());
    // maxReplicas 0 below minReplicas 1: both maxReplicas errors, in upstream's order.
    assert_eq!(
        errs(&hpa(Some(1), 0, Value::Null)),
        [
            "spec.maxReplicas: Invalid value: 0: must be greater than 0",
            "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
        ]
    );
    assert_eq!(
        errs(&hpa(Some(i32::MIN), i32::MIN, Value::Null)),
        [
            "spec.minReplicas: Invalid value: -2147483648: must be greater than or equal to 1",
            "spec.maxReplicas: Invalid value: -2147483648: must be greater than 0",
        ]
    );
    assert_eq!(
        errs(&hpa(Some(i32::MAX), 5, Value::Null)),
        ["spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"]
    );
}

#[test]
fn scaling_rules_limits() {
    let rules = |window: i32, period: i32, value: i32| {
        hpa(
            Some(1),
            5,
            json!({"scaleDown": {"stabilizationWindowSeconds": window,
                "policies": [{"type": "Pods", "value": value, "periodSeconds": period}]}}),
        )
    };
    assert!(errs(&rules(0, 1800, 1)).is_empty());
    assert!(errs(&rules(3600, 1, i32::MAX)).is_empty());
    assert_eq!(
        errs(&rules(3601, 1801, 1)),
        [
            "spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600",
            "spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800",
        ]
    );
    assert_eq!(
        errs(&rules(i32::MIN, i32::MIN, i32::MIN)),
        [
            "spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: -2147483648: must be greater than or equal to zero",
            "spec.behavior.scaleDown.policies[0].value: Invalid value: -2147483648: must be greater than zero",
            "spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: -2147483648: must be greater than zero",
        ]
    );
    // An unknown policy type and selectPolicy, on scaleUp (checked before scaleDown).
    let h = hpa(
        Some(1),
        5,
        json!({
            "scaleUp": {"selectPolicy": "Average", "policies": [{"type": "Replicas", "value": 1, "periodSeconds": 1}]},
            "scaleDown": {"policies": []},
        }),
    );
    assert_eq!(
        errs(&h),
        [
            "spec.behavior.scaleUp.selectPolicy: Unsupported value: \"Average\": supported values: \"Disabled\", \"Max\", \"Min\"",
            "spec.behavior.scaleUp.policies[0].type: Unsupported value: \"Replicas\": supported values: \"Percent\", \"Pods\"",
            "spec.behavior.scaleDown.policies: Required value: must specify at least one Policy",
        ]
    );
}

#[test]
fn metric_target_signs() {
    let pods = |avg: &str| {
        let mut h = hpa(Some(1), 5, Value::Null);
        h.spec.metrics = serde_json::from_value(json!([{"type": "Pods", "pods": {
            "metric": {"name": "qps"},
            "target": {"type": "AverageValue", "averageValue": avg}}}]))
        .unwrap();
        validate_horizontal_pod_autoscaler(&h)
            .iter()
            .map(|e| format!("{}: {}", e.field, e.detail))
            .collect::<Vec<_>>()
    };
    // Quantity.Sign(): any positive amount, however small, is positive.
    assert!(pods("1n").is_empty());
    assert!(pods("500m").is_empty());
    for bad in ["0", "-1n", "-1"] {
        assert_eq!(
            pods(bad),
            ["spec.metrics[0].pods.target.averageValue: must be positive"],
            "{bad}"
        );
    }
}

/// `ValidateHorizontalPodAutoscalerStatusUpdate`: currentReplicas and desiredReplicas may not
/// be negative; the status carries no other rule.
#[test]
fn status_update_counters_are_non_negative() {
    let old = Object::HorizontalPodAutoscaler(hpa(Some(1), 5, Value::Null));
    let with = |current: i32, desired: i32| {
        let mut h = hpa(Some(1), 5, Value::Null);
        h.status.current_replicas = current;
        h.status.desired_replicas = desired;
        crate::api::validation::status::validate_status_update(
            &Object::HorizontalPodAutoscaler(h),
            &old,
        )
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
    };
    assert!(with(0, 0).is_empty());
    assert!(with(i32::MAX, 7).is_empty());
    assert_eq!(
        with(-1, i32::MIN),
        [
            "status.currentReplicas: Invalid value: -1: must be greater than or equal to 0",
            "status.desiredReplicas: Invalid value: -2147483648: must be greater than or equal to 0",
        ]
    );
}
