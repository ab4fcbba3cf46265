//! `autoscaling/v2.HorizontalPodAutoscaler`, the conversion from `autoscaling/v1`, and the v2
//! defaults (`pkg/apis/autoscaling/v2/defaults.go`).

use super::core::Quantity;
use super::meta::ObjectMeta;
use super::time::Time;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `autoscaling.DefaultCPUUtilization`: the target when an HPA names no metric.
pub const DEFAULT_CPU_UTILIZATION: i32 = 80;

/// `autoscaling/v2.HorizontalPodAutoscaler`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscaler {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: HorizontalPodAutoscalerSpec,
    #[serde(default)]
    pub status: HorizontalPodAutoscalerStatus,
}

/// `CrossVersionObjectReference`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrossVersionObjectReference {
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerSpec {
    #[serde(default)]
    pub scale_target_ref: CrossVersionObjectReference,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_replicas: Option<i32>,
    #[serde(default)]
    pub max_replicas: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behavior: Option<HorizontalPodAutoscalerBehavior>,
}

/// `MetricSpec`. Only `Resource` metrics have a source in kubeplay; the other source types are
/// kept as written (the controller reports them as unavailable).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricSpec {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<ResourceMetricSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_resource: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pods: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceMetricSource {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub target: MetricTarget,
}

/// `MetricTarget`: `Utilization` (`averageUtilization`), `AverageValue` or `Value`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricTarget {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Quantity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_value: Option<Quantity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_utilization: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerBehavior {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_up: Option<HpaScalingRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_down: Option<HpaScalingRules>,
}

/// `HPAScalingRules`. `policies` is an `Option` so an explicit empty list (invalid) differs
/// from an absent one (defaulted).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HpaScalingRules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stabilization_window_seconds: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub select_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policies: Option<Vec<HpaScalingPolicy>>,
    /// The usage-ratio tolerance for this direction (HPAConfigurableTolerance, beta and on by
    /// default since 1.35); unset = the controller's `--horizontal-pod-autoscaler-tolerance`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<Quantity>,
}

/// `HPAScalingPolicy`: `Pods` or `Percent`, `value` per `periodSeconds`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HpaScalingPolicy {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub value: i32,
    #[serde(default)]
    pub period_seconds: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_scale_time: Option<Time>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub current_replicas: i32,
    #[serde(default)]
    pub desired_replicas: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub current_metrics: Vec<MetricStatus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<HorizontalPodAutoscalerCondition>,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricStatus {
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<ResourceMetricStatus>,
    /// The statuses of the other source types, kept as written (kubeplay's controller reports
    /// only `Resource` metrics; these are printed by `kubectl get` / `describe`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_resource: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pods: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceMetricStatus {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub current: MetricValueStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricValueStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Quantity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_value: Option<Quantity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_utilization: Option<i32>,
}

/// `HorizontalPodAutoscalerCondition` (`AbleToScale`, `ScalingActive`, `ScalingLimited`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

pub const ABLE_TO_SCALE: &str = "AbleToScale";
pub const SCALING_ACTIVE: &str = "ScalingActive";
pub const SCALING_LIMITED: &str = "ScalingLimited";

/// `autoscaling/v1`'s API version.
pub const AUTOSCALING_V1: &str = "autoscaling/v1";

/// Whether `apiVersion` is another served version of `kind` that decoding converts
/// (`autoscaling/v1` HorizontalPodAutoscalers).
pub fn is_served_alias(kind: &str, api_version: &str) -> bool {
    kind == "HorizontalPodAutoscaler" && api_version == AUTOSCALING_V1
}

/// Converts an `autoscaling/v1` HorizontalPodAutoscaler (JSON) to `autoscaling/v2`:
/// `targetCPUUtilizationPercentage` becomes a `Resource` metric on `cpu` with an
/// `averageUtilization` target, `currentCPUUtilizationPercentage` a current metric
/// (`Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec`).
/// Anything else passes through unchanged.
pub fn convert_v1_to_v2(mut v: Value) -> Value {
    if let Some(obj) = v.as_object_mut() {
        obj.insert("apiVersion".into(), Value::String("autoscaling/v2".into()));
        if let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) {
            if let Some(t) = spec.remove("targetCPUUtilizationPercentage") {
                if !t.is_null() {
                    spec.insert(
                        "metrics".into(),
                        serde_json::json!([{"type": "Resource", "resource": {"name": "cpu",
                            "target": {"type": "Utilization", "averageUtilization": t}}}]),
                    );
                }
            }
        }
        if let Some(status) = obj.get_mut("status").and_then(Value::as_object_mut) {
            if let Some(c) = status.remove("currentCPUUtilizationPercentage") {
                if !c.is_null() {
                    status.insert(
                        "currentMetrics".into(),
                        serde_json::json!([{"type": "Resource", "resource": {"name": "cpu",
                            "current": {"averageUtilization": c}}}]),
                    );
                }
            }
        }
    }
    v
}

/// `GenerateHPAScaleUpRules`' defaults: no stabilization, `Max` of 4 pods or 100 % per 15 s.
pub fn default_scale_up_rules() -> HpaScalingRules {
    HpaScalingRules {
        stabilization_window_seconds: Some(0),
        select_policy: Some("Max".into()),
        policies: Some(vec![
            HpaScalingPolicy {
                type_: "Pods".into(),
                value: 4,
                period_seconds: 15,
            },
            HpaScalingPolicy {
                type_: "Percent".into(),
                value: 100,
                period_seconds: 15,
            },
        ]),
        tolerance: None,
    }
}

/// `GenerateHPAScaleDownRules`' defaults: 100 % per 15 s, `Max`; the stabilization window is
/// left unset (the controller fills in its `--horizontal-pod-autoscaler-downscale-stabilization`).
pub fn default_scale_down_rules() -> HpaScalingRules {
    HpaScalingRules {
        stabilization_window_seconds: None,
        select_policy: Some("Max".into()),
        policies: Some(vec![HpaScalingPolicy {
            type_: "Percent".into(),
            value: 100,
            period_seconds: 15,
        }]),
        tolerance: None,
    }
}

/// `copyHPAScalingRules`: the set fields of `from` over the defaults.
pub fn copy_hpa_scaling_rules(
    from: Option<&HpaScalingRules>,
    to: HpaScalingRules,
) -> HpaScalingRules {
    let mut to = to;
    if let Some(f) = from {
        if f.select_policy.is_some() {
            to.select_policy = f.select_policy.clone();
        }
        if f.stabilization_window_seconds.is_some() {
            to.stabilization_window_seconds = f.stabilization_window_seconds;
        }
        if f.policies.is_some() {
            to.policies = f.policies.clone();
        }
        if f.tolerance.is_some() {
            to.tolerance = f.tolerance.clone();
        }
    }
    to
}

/// The annotations older API versions use to round-trip fields they lack
/// (`autoscaling.MetricSpecsAnnotation`, `BehaviorSpecsAnnotation`, `MetricStatusesAnnotation`,
/// `HorizontalPodAutoscalerConditionsAnnotation`).
pub const ROUND_TRIP_ANNOTATIONS: [&str; 4] = [
    "autoscaling.alpha.kubernetes.io/metrics",
    "autoscaling.alpha.kubernetes.io/behavior",
    "autoscaling.alpha.kubernetes.io/current-metrics",
    "autoscaling.alpha.kubernetes.io/conditions",
];

/// `autoscaling.DropRoundTripHorizontalPodAutoscalerAnnotations`, as the autoscaling/v2
/// conversion applies it (`Convert_v2_HorizontalPodAutoscaler_To_autoscaling_...` and back):
/// "v2 round-trips to internal without any serialized annotations", so an autoscaling/v2 HPA
/// written with them is stored without them. The map is only copied when one is present.
pub fn drop_round_trip_annotations(h: &mut HorizontalPodAutoscaler) {
    if ROUND_TRIP_ANNOTATIONS
        .iter()
        .any(|k| h.metadata.annotations.contains_key(*k))
    {
        for k in ROUND_TRIP_ANNOTATIONS {
            h.metadata.annotations.remove(k);
        }
    }
}

/// `SetDefaults_HorizontalPodAutoscaler` (autoscaling/v2): `minReplicas` 1, a CPU utilization
/// target of 80 % when no metric is given, and, when `behavior` is set, its missing rules and
/// fields from the defaults.
pub fn set_defaults_horizontal_pod_autoscaler(h: &mut HorizontalPodAutoscaler) {
    if h.spec.min_replicas.is_none() {
        h.spec.min_replicas = Some(1);
    }
    if h.spec.metrics.is_empty() {
        h.spec.metrics = vec![MetricSpec {
            type_: "Resource".into(),
            resource: Some(ResourceMetricSource {
                name: "cpu".into(),
                target: MetricTarget {
                    type_: "Utilization".into(),
                    average_utilization: Some(DEFAULT_CPU_UTILIZATION),
                    ..Default::default()
                },
            }),
            ..Default::default()
        }];
    }
    if let Some(b) = &mut h.spec.behavior {
        b.scale_up = Some(copy_hpa_scaling_rules(
            b.scale_up.as_ref(),
            default_scale_up_rules(),
        ));
        b.scale_down = Some(copy_hpa_scaling_rules(
            b.scale_down.as_ref(),
            default_scale_down_rules(),
        ));
    }
}

impl HorizontalPodAutoscaler {
    /// The condition of a type, if present.
    pub fn condition(&self, type_: &str) -> Option<&HorizontalPodAutoscalerCondition> {
        self.status.conditions.iter().find(|c| c.type_ == type_)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_target_cpu_becomes_a_resource_metric() {
        let v = serde_json::json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "frontend-scaler"},
            "spec": {"scaleTargetRef": {"kind": "ReplicaSet", "name": "frontend"},
                     "minReplicas": 3, "maxReplicas": 10, "targetCPUUtilizationPercentage": 50}});
        let h: HorizontalPodAutoscaler = serde_json::from_value(convert_v1_to_v2(v)).unwrap();
        assert_eq!(h.api_version, "autoscaling/v2");
        let r = h.spec.metrics[0].resource.as_ref().unwrap();
        assert_eq!(
            (r.name.as_str(), r.target.average_utilization),
            ("cpu", Some(50))
        );
        assert_eq!(r.target.type_, "Utilization");
    }

    // Port of TestHorizontalPodAutoscalerDefaults-style expectations
    // (pkg/apis/autoscaling/v2/defaults_test.go: TestGenerateScaleUpRules / TestGenerateScaleDownRules).
    #[test]
    fn defaults_fill_behavior_fields_one_by_one() {
        let mut h = HorizontalPodAutoscaler::default();
        set_defaults_horizontal_pod_autoscaler(&mut h);
        assert_eq!(h.spec.min_replicas, Some(1));
        assert_eq!(
            h.spec.metrics[0]
                .resource
                .as_ref()
                .unwrap()
                .target
                .average_utilization,
            Some(80)
        );
        assert!(
            h.spec.behavior.is_none(),
            "behavior stays nil when not given"
        );

        h.spec.behavior = Some(HorizontalPodAutoscalerBehavior {
            scale_up: Some(HpaScalingRules {
                stabilization_window_seconds: Some(25),
                ..Default::default()
            }),
            scale_down: Some(HpaScalingRules {
                select_policy: Some("Min".into()),
                ..Default::default()
            }),
        });
        set_defaults_horizontal_pod_autoscaler(&mut h);
        let b = h.spec.behavior.unwrap();
        let up = b.scale_up.unwrap();
        assert_eq!(up.stabilization_window_seconds, Some(25));
        assert_eq!(up.select_policy.as_deref(), Some("Max"));
        assert_eq!(up.policies.unwrap().len(), 2);
        let down = b.scale_down.unwrap();
        assert_eq!(down.stabilization_window_seconds, None);
        assert_eq!(down.select_policy.as_deref(), Some("Min"));
        assert_eq!(down.policies.unwrap()[0].value, 100);
    }
}

#[cfg(test)]
#[path = "autoscaling_upstream_tests3.rs"]
mod upstream_tests3;
