//! Audit of the pod GC's boundary cases against upstream's pkg/controller/podgc/gc_controller.go,
//! beyond the ported tables.

use super::*;
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;
use serde_json::json;

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

// upstream: isPodTerminated ("phase != Pending && phase != Running && phase != Unknown") and
// gcTerminated: a pod whose phase is empty counts as terminated; as the oldest of two
// terminated pods over a threshold of 1 it is collected, and markFailedAndDeletePod first
// moves it to Failed (its phase is neither Succeeded nor Failed), without a condition.
#[test]
fn gc_terminated_counts_an_empty_phase_as_terminated() {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    for (i, (name, phase)) in [("a", ""), ("b", "Succeeded")].iter().enumerate() {
        let mut v = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default",
                         "creationTimestamp": format!("2024-12-01T0{i}:00:00Z")},
            "spec": {"nodeName": "node", "containers": [{"name": "c", "image": "busybox"}]},
            "status": {}
        });
        if !phase.is_empty() {
            v["status"]["phase"] = json!(phase);
        }
        s.api.load(Object::from_value(v).unwrap()).unwrap();
    }
    s.api
        .load(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Node", "metadata": {"name": "node"}
            }))
            .unwrap(),
        )
        .unwrap();
    s.add_loop(Box::new(PodGcController {
        terminated_pod_threshold: 1,
        ..Default::default()
    }));
    s.settle().unwrap();
    let deleted: Vec<String> = s
        .actions
        .iter()
        .filter(|a| a.verb == "delete" && a.kind == "Pod")
        .map(|a| a.name.clone())
        .collect();
    assert_eq!(deleted, ["a"]);
    let patched: Vec<String> = s
        .actions
        .iter()
        .filter(|a| a.verb == "update-status" && a.kind == "Pod")
        .map(|a| a.name.clone())
        .collect();
    assert_eq!(patched, ["a"]);
}
