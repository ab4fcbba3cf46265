//! Preemption honours PodDisruptionBudgets: with the disruption controller keeping the budget's
//! status, the scheduler prefers a node whose victims violate no PDB.

use kubeplay::api::{Duration, Object, Pod, PodDisruptionBudget, Time};
use kubeplay::controllers::disruption::new_disruption_controller;
use kubeplay::features::FeatureGates;
use kubeplay::kubelet::new_kubelet;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::Simulation;
use kubeplay::world::World;
use serde_json::{json, Value};

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn at(s: i64) -> Time {
    start() + Duration::from_secs(s)
}

fn load(sim: &mut Simulation, v: Value) -> Object {
    sim.api.load(Object::from_value(v).unwrap()).unwrap()
}

fn node(name: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
        "status": {"capacity": {"cpu": "1", "memory": "8Gi", "pods": "110"},
                   "allocatable": {"cpu": "1", "memory": "8Gi", "pods": "110"}}
    })
}

/// A pod of `priority` requesting a whole node's CPU, on `node` ("" = to be scheduled).
fn pod(name: &str, priority: i32, node: &str, labels: Value) -> Value {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": labels},
        "spec": {"priority": priority, "containers": [{"name": "app", "image": "nginx",
                 "resources": {"requests": {"cpu": "1"}}}]}
    });
    if !node.is_empty() {
        p["spec"]["nodeName"] = json!(node);
    }
    p
}

fn get_pod(sim: &Simulation, name: &str) -> Option<Pod> {
    sim.api.store.get::<Pod>("default", name).cloned()
}

// upstream: TestPDBInPreemption (test/integration/scheduler/preemption/preemption_test.go)
// "A node without any PDB violating pods is preferred for preemption", with the disruption
// controller running: the low-priority pod on n1 is covered by a PDB that allows no
// disruption (minAvailable 1 over its one healthy pod), the mid-priority pod on n2 by none.
// Without PDBs n1 would win (lower highest-priority victim); with them n2 is chosen.
#[test]
fn preemption_prefers_the_node_whose_victims_violate_no_pdb() {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    s.add_loop(new_scheduler());
    s.add_loop(new_kubelet());
    s.add_loop(new_disruption_controller());
    load(&mut s, node("n1"));
    load(&mut s, node("n2"));
    load(&mut s, pod("guarded", 0, "n1", json!({"app": "guarded"})));
    load(&mut s, pod("plain", 100, "n2", json!({"app": "plain"})));
    load(
        &mut s,
        json!({
            "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "guard", "namespace": "default"},
            "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "guarded"}}}
        }),
    );
    s.run_until(at(30)).unwrap();
    let pdb = s
        .api
        .store
        .get::<PodDisruptionBudget>("default", "guard")
        .cloned()
        .unwrap();
    assert_eq!(
        (pdb.status.current_healthy, pdb.status.disruptions_allowed),
        (1, 0)
    );

    load(
        &mut s,
        pod("preemptor", 1000, "", json!({"app": "preemptor"})),
    );
    s.settle().unwrap();
    let plain = get_pod(&s, "plain").unwrap();
    assert!(plain.metadata.deletion_timestamp.is_some());
    assert_eq!(
        plain.condition("DisruptionTarget").unwrap().reason,
        "PreemptionByScheduler"
    );
    let guarded = get_pod(&s, "guarded").unwrap();
    assert!(guarded.metadata.deletion_timestamp.is_none());
    assert!(guarded.condition("DisruptionTarget").is_none());
    let preemptor = get_pod(&s, "preemptor").unwrap();
    assert_eq!(
        preemptor
            .status
            .extra
            .get("nominatedNodeName")
            .and_then(|v| v.as_str()),
        Some("n2")
    );
    // The victim stops; the preemptor is bound where it was nominated.
    s.run_until(at(60)).unwrap();
    assert!(get_pod(&s, "plain").is_none());
    assert_eq!(get_pod(&s, "preemptor").unwrap().spec.node_name, "n2");
    assert!(get_pod(&s, "guarded").is_some());
}
