//! Ports of `pkg/apis/autoscaling/v2/defaults_test.go` (TestHorizontalPodAutoscalerAnnotations)
//! and `pkg/apis/autoscaling/v1/defaults_test.go` (TestSetDefaultHPA), through kubeplay's
//! decode + create path (upstream's codec round trip).

use super::*;
use crate::api::{Object, Time};
use crate::store::apiserver::ApiServer;

fn create(v: serde_json::Value) -> HorizontalPodAutoscaler {
    let mut api = ApiServer::new(1, Time(0));
    let o = Object::from_value(v).expect("decodes");
    match api.create(o).expect("created") {
        Object::HorizontalPodAutoscaler(h) => h,
        other => panic!("not an HPA: {other:?}"),
    }
}

fn hpa_json(
    api_version: &str,
    annotations: serde_json::Value,
    spec: serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": api_version,
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "hpa", "namespace": "default", "annotations": annotations},
        "spec": spec,
    })
}

// Upstream: TestHorizontalPodAutoscalerAnnotations (pkg/apis/autoscaling/v2/defaults_test.go),
// rows "test empty value for Annotations", "test random value for Annotations" and "test empty
// array value for Annotations": an autoscaling/v2 HPA carrying the round-trip annotations
// (conditions, metrics, behavior, current-metrics) comes back without any annotation.
#[test]
fn v2_round_trip_drops_the_conversion_annotations() {
    for (row, value) in [
        ("test empty value for Annotations", ""),
        ("test random value for Annotations", "abc"),
        ("test empty array value for Annotations", "[]"),
    ] {
        let ann = serde_json::json!({
            "autoscaling.alpha.kubernetes.io/conditions": value,
            "autoscaling.alpha.kubernetes.io/metrics": value,
            "autoscaling.alpha.kubernetes.io/behavior": value,
            "autoscaling.alpha.kubernetes.io/current-metrics": value,
        });
        let h = create(hpa_json(
            "autoscaling/v2",
            ann,
            serde_json::json!({"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"},
                "maxReplicas": 3}),
        ));
        assert!(
            h.metadata.annotations.is_empty(),
            "{row}: unexpected annotations: {:?}",
            h.metadata.annotations
        );
    }
    // Other annotations are kept.
    let h = create(hpa_json(
        "autoscaling/v2",
        serde_json::json!({"autoscaling.alpha.kubernetes.io/metrics": "[]", "keep": "me"}),
        serde_json::json!({"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"},
            "maxReplicas": 3}),
    ));
    assert_eq!(
        h.metadata
            .annotations
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect::<Vec<_>>(),
        vec![("keep", "me")]
    );
}

// Upstream: TestSetDefaultHPA (pkg/apis/autoscaling/v1/defaults_test.go), both rows: an
// autoscaling/v1 HPA without minReplicas gets 1; one with minReplicas 3 keeps it.
#[test]
fn v1_set_default_hpa() {
    for (row, min, want) in [
        ("unspecified min replicas, use the default value", None, 1),
        ("set min replicas to 3", Some(3), 3),
    ] {
        let mut spec = serde_json::json!({"scaleTargetRef": {"kind": "ReplicationController", "name": "rc"},
            "maxReplicas": 5});
        if let Some(m) = min {
            spec["minReplicas"] = m.into();
        }
        let h = create(hpa_json("autoscaling/v1", serde_json::json!({}), spec));
        assert_eq!(h.spec.min_replicas, Some(want), "{row}");
    }
}
