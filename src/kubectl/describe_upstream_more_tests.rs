//! `kubectl describe hpa` for every metric source type, against the lines
//! `describeHorizontalPodAutoscalerV2` (staging/src/k8s.io/kubectl/pkg/describe/describe.go,
//! repo kubernetes/kubernetes) writes for them. Upstream's TestDescribeHorizontalPodAutoscaler
//! (describe_test.go) builds these HPAs but only checks that a description is produced; the
//! rows here are its cases, with each Metrics line as upstream's format strings print it
//! (`resource.NewMilliQuantity(n)` written as "nm"). Lines are compared with runs of blanks
//! collapsed, as the tab writer aligns the columns.

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use serde_json::{json, Value};

fn describe_hpa(metrics: Value, current: Value, min: Option<i32>) -> Vec<String> {
    let mut spec = json!({"scaleTargetRef": {"name": "some-rc", "kind": "ReplicationController"},
        "maxReplicas": 10, "metrics": metrics});
    if let Some(m) = min {
        spec["minReplicas"] = json!(m);
    }
    let mut sim = sim();
    sim.api.store.put(
        Object::from_value(json!({
            "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "some-hpa", "namespace": "default"},
            "spec": spec,
            "status": {"currentReplicas": 4, "desiredReplicas": 5, "currentMetrics": current},
        }))
        .unwrap(),
    );
    execute(&mut sim, "describe hpa some-hpa")
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

fn metrics_lines(out: &[String]) -> Vec<String> {
    let start = out.iter().position(|l| l.starts_with("Metrics:")).unwrap() + 1;
    let end = out
        .iter()
        .position(|l| l.starts_with("Min replicas:"))
        .unwrap();
    out[start..end].to_vec()
}

// Upstream: TestDescribeHorizontalPodAutoscaler (pkg/describe/describe_test.go), its
// autoscaling/v2 metric cases, each with the Metrics line of describeHorizontalPodAutoscalerV2.
#[test]
fn describe_hpa_metric_lines() {
    let sel = json!({"matchLabels": {"label": "value"}});
    let avg = json!({"type": "AverageValue", "averageValue": "100m"});
    let val = json!({"type": "Value", "value": "100m"});
    let util = json!({"type": "Utilization", "averageUtilization": 80});
    let util_cur = json!({"averageUtilization": 50, "averageValue": "40m"});
    let external = |target: &Value| {
        json!([{"type": "External", "external": {
            "metric": {"name": "some-external-metric", "selector": sel}, "target": target}}])
    };
    let external_cur = |current: Value| {
        json!([{"type": "External", "external": {
            "metric": {"name": "some-external-metric", "selector": sel}, "current": current}}])
    };
    let pods = json!([{"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"},
        "target": avg}}]);
    let pods_cur = json!([{"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"},
        "current": {"averageValue": "50m"}}}]);
    let object = |target: &Value| {
        json!([{"type": "Object", "object": {
            "describedObject": {"name": "some-service", "kind": "Service"},
            "metric": {"name": "some-service-metric"}, "target": target}}])
    };
    let object_cur = |current: Value| {
        json!([{"type": "Object", "object": {
            "describedObject": {"name": "some-service", "kind": "Service"},
            "metric": {"name": "some-service-metric"}, "current": current}}])
    };
    let resource = |target: &Value| json!([{"type": "Resource", "resource": {"name": "cpu", "target": target}}]);
    let resource_cur = |current: Value| json!([{"type": "Resource", "resource": {"name": "cpu", "current": current}}]);
    let container = |target: &Value| {
        json!([{"type": "ContainerResource", "containerResource": {
            "name": "cpu", "container": "application", "target": target}}])
    };
    let container_cur = |current: Value| {
        json!([{"type": "ContainerResource", "containerResource": {
            "name": "cpu", "container": "application", "current": current}}])
    };
    let none = || json!([]);
    let cases: Vec<(&str, Value, Value, &str)> = vec![
        (
            "external source type, target average value (no current)",
            external(&avg),
            none(),
            "\"some-external-metric\" (target average value): <unknown> / 100m",
        ),
        (
            "external source type, target average value (with current)",
            external(&avg),
            external_cur(json!({"averageValue": "50m"})),
            "\"some-external-metric\" (target average value): 50m / 100m",
        ),
        (
            "external source type, target value (no current)",
            external(&val),
            none(),
            "\"some-external-metric\" (target value): <unknown> / 100m",
        ),
        (
            "external source type, target value (with current)",
            external(&val),
            external_cur(json!({"value": "50m"})),
            "\"some-external-metric\" (target value): 50m / 100m",
        ),
        (
            "pods source type (no current)",
            pods.clone(),
            none(),
            "\"some-pods-metric\" on pods: <unknown> / 100m",
        ),
        (
            "pods source type (with current)",
            pods,
            pods_cur,
            "\"some-pods-metric\" on pods: 50m / 100m",
        ),
        (
            "object source type target average value (no current)",
            object(&avg),
            none(),
            "\"some-service-metric\" on Service/some-service (target average value): <unknown> / 100m",
        ),
        (
            "object source type target average value (with current)",
            object(&avg),
            object_cur(json!({"averageValue": "50m"})),
            "\"some-service-metric\" on Service/some-service (target average value): 50m / 100m",
        ),
        (
            "object source type target value (no current)",
            object(&val),
            none(),
            "\"some-service-metric\" on Service/some-service (target value): <unknown> / 100m",
        ),
        (
            "object source type target value (with current)",
            object(&val),
            object_cur(json!({"value": "50m"})),
            "\"some-service-metric\" on Service/some-service (target value): 50m / 100m",
        ),
        (
            "resource source type, target average value (no current)",
            resource(&avg),
            none(),
            "resource cpu on pods: <unknown> / 100m",
        ),
        (
            "resource source type, target average value (with current)",
            resource(&avg),
            resource_cur(json!({"averageValue": "50m"})),
            "resource cpu on pods: 50m / 100m",
        ),
        (
            "resource source type, target utilization (no current)",
            resource(&util),
            none(),
            "resource cpu on pods (as a percentage of request): <unknown> / 80%",
        ),
        (
            "resource source type, target utilization (with current)",
            resource(&util),
            resource_cur(util_cur.clone()),
            "resource cpu on pods (as a percentage of request): 50% (40m) / 80%",
        ),
        (
            "container resource source type, target average value (no current)",
            container(&avg),
            none(),
            "resource cpu of container \"application\" on pods: <unknown> / 100m",
        ),
        (
            "container resource source type, target average value (with current)",
            container(&avg),
            container_cur(json!({"averageValue": "50m"})),
            "resource cpu of container \"application\" on pods: 50m / 100m",
        ),
        (
            "container resource source type, target utilization (no current)",
            container(&util),
            none(),
            "resource cpu of container \"application\" on pods (as a percentage of request): <unknown> / 80%",
        ),
        (
            "container resource source type, target utilization (with current)",
            container(&util),
            container_cur(util_cur),
            "resource cpu of container \"application\" on pods (as a percentage of request): 50% (40m) / 80%",
        ),
    ];
    for (name, metrics, current, want) in cases {
        let out = describe_hpa(metrics, current, Some(2));
        assert_eq!(metrics_lines(&out), [want], "{name}");
        assert!(out.contains(&"Min replicas: 2".to_string()), "{name}");
    }
    // "minReplicas unset": no metric lines, and `Min replicas: <unset>`.
    let out = describe_hpa(json!([]), json!([]), None);
    assert!(metrics_lines(&out).is_empty());
    assert!(
        out.contains(&"Min replicas: <unset>".to_string()),
        "{out:?}"
    );
}

// Upstream: TestDescribeHorizontalPodAutoscaler (pkg/describe/describe_test.go), its "scale up
// behavior specified" and "scale down behavior specified" cases, with the lines of
// printDirectionBehavior: the select policy is printed with the policies, `Max` when unset
// (the scale-down rules of the second case have none).
#[test]
fn describe_hpa_behavior_lines() {
    let policies = json!([
        {"type": "Pods", "value": 10, "periodSeconds": 10},
        {"type": "Percent", "value": 10, "periodSeconds": 10}
    ]);
    for (direction, rules) in [
        (
            "Scale Up",
            json!({"scaleUp": {"stabilizationWindowSeconds": 30, "selectPolicy": "Max",
                "policies": policies}}),
        ),
        (
            "Scale Down",
            json!({"scaleDown": {"stabilizationWindowSeconds": 30, "policies": policies}}),
        ),
    ] {
        let mut sim = sim();
        sim.api.store.put(
            Object::from_value(json!({
                "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                "metadata": {"name": "bar", "namespace": "foo"},
                "spec": {"scaleTargetRef": {"name": "behavior-target", "kind": "Deployment"},
                    "minReplicas": 2, "maxReplicas": 10,
                    "metrics": [{"type": "Resource", "resource": {"name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": 80}}}],
                    "behavior": rules},
            }))
            .unwrap(),
        );
        let out: Vec<String> = execute(&mut sim, "describe hpa bar -n foo")
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        let start = out.iter().position(|l| l == "Behavior:").unwrap();
        assert_eq!(
            out[start..start + 8],
            [
                "Behavior:",
                &format!("{direction}:"),
                "Stabilization Window: 30 seconds",
                "Select Policy: Max",
                "Policies:",
                "- Type: Pods Value: 10 Period: 10 seconds",
                "- Type: Percent Value: 10 Period: 10 seconds",
                "Deployment pods: 0 current / 0 desired",
            ],
            "{direction}"
        );
    }
}
