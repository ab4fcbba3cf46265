//! Ports of upstream's NoExecuteTaintManager e2e tests (test/e2e/node/taints.go, "NoExecuteTaintManager
//! Single Pod" and "Multiple Pods") on a simulated cluster: scheduler, kubelets, node lifecycle
//! and taint eviction controllers. A pod counts as evicted when it is gone from the API server
//! (upstream's informer sees its delete), the kubelet having stopped it.
//!
//! Upstream waits on wall-clock timers (kubeletPodDeletionDelaySeconds = 60 plus
//! additionalWaitPerDeleteSeconds = 5 per step); here the virtual clock runs for those windows.

use kubeplay::api::{Duration, Node, Object, Pod, Taint, Time};
use kubeplay::controllers::node_lifecycle::new_node_lifecycle_controller;
use kubeplay::controllers::taint_eviction::new_taint_eviction_controller;
use kubeplay::features::FeatureGates;
use kubeplay::kubelet::new_kubelet;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::Simulation;
use kubeplay::world::World;
use serde_json::{json, Value};

const NS: &str = "taint-test";
const KUBELET_POD_DELETION_DELAY_SECONDS: i64 = 60;
const ADDITIONAL_WAIT_PER_DELETE_SECONDS: i64 = 5;
const TAINT_KEY: &str = "kubernetes.io/e2e-evict-taint-key";

fn cluster() -> Simulation {
    let mut s = Simulation::new(
        1,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        FeatureGates::default(),
        World::default(),
    );
    s.add_loop(new_scheduler());
    s.add_loop(new_kubelet());
    s.add_loop(new_node_lifecycle_controller());
    s.add_loop(new_taint_eviction_controller());
    for n in ["node-a", "node-b"] {
        s.api
            .load(
                Object::from_value(json!({
                    "apiVersion": "v1", "kind": "Node",
                    "metadata": {"name": n, "labels": {"kubernetes.io/hostname": n}},
                    "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                               "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
                }))
                .unwrap(),
            )
            .unwrap();
    }
    s.settle().unwrap();
    s
}

/// `createPodForTaintsTest`: a pause pod, tolerating the test taint forever
/// (`toleration_seconds` 0) or for that many seconds when `has_toleration`.
fn pod_for_taints_test(has_toleration: bool, toleration_seconds: i64, name: &str) -> Value {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": NS, "labels": {"group": name}},
        "spec": {"containers": [{"name": "pause", "image": "registry.k8s.io/pause:3.10"}]}
    });
    if has_toleration {
        let mut t = json!({"key": TAINT_KEY, "value": "evictTaintVal", "effect": "NoExecute"});
        if toleration_seconds > 0 {
            t["tolerationSeconds"] = json!(toleration_seconds);
        }
        p["spec"]["tolerations"] = json!([t]);
    }
    p
}

/// `testutils.RunPodAndGetNodeName`: creates the pod, waits for it to run, returns its node.
fn run_pod(sim: &mut Simulation, pod: Value) -> String {
    let name = pod["metadata"]["name"].as_str().unwrap().to_string();
    sim.api.create(Object::from_value(pod).unwrap()).unwrap();
    run_for(sim, 10);
    let p = get_pod(sim, &name).expect("pod exists");
    assert_eq!(p.status.phase, "Running", "{name} not running");
    p.spec.node_name.clone()
}

fn get_pod(sim: &Simulation, name: &str) -> Option<Pod> {
    sim.api.store.get::<Pod>(NS, name).cloned()
}

fn run_for(sim: &mut Simulation, secs: i64) {
    let t = sim.now() + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

/// `e2enode.AddOrUpdateTaintOnNode` with `getTestTaint()`.
fn taint_node(sim: &mut Simulation, node: &str) {
    let mut n = sim.api.store.get::<Node>("", node).cloned().unwrap();
    n.spec.taints.push(Taint {
        key: TAINT_KEY.into(),
        value: "evictTaintVal".into(),
        effect: "NoExecute".into(),
        time_added: Some(sim.now().trunc_secs()),
    });
    sim.api.update(Object::Node(n)).unwrap();
}

/// `e2enode.RemoveTaintOffNode`.
fn untaint_node(sim: &mut Simulation, node: &str) {
    let mut n = sim.api.store.get::<Node>("", node).cloned().unwrap();
    n.spec.taints.retain(|t| t.key != TAINT_KEY);
    sim.api.update(Object::Node(n)).unwrap();
}

// upstream: "NoExecuteTaintManager Single Pod [Serial] evicts pods from tainted nodes".
#[test]
fn evicts_pods_from_tainted_nodes() {
    let mut sim = cluster();
    let name = "taint-eviction-1";
    let node = run_pod(&mut sim, pod_for_taints_test(false, 0, name));
    taint_node(&mut sim, &node);
    run_for(
        &mut sim,
        KUBELET_POD_DELETION_DELAY_SECONDS + ADDITIONAL_WAIT_PER_DELETE_SECONDS,
    );
    assert!(get_pod(&sim, name).is_none(), "Failed to evict Pod");
}

// upstream: "NoExecuteTaintManager Single Pod [Serial] doesn't evict pod with tolerations from
// tainted nodes".
#[test]
fn does_not_evict_pod_with_tolerations_from_tainted_nodes() {
    let mut sim = cluster();
    let name = "taint-eviction-2";
    let node = run_pod(&mut sim, pod_for_taints_test(true, 0, name));
    taint_node(&mut sim, &node);
    run_for(
        &mut sim,
        KUBELET_POD_DELETION_DELAY_SECONDS + ADDITIONAL_WAIT_PER_DELETE_SECONDS,
    );
    assert!(
        get_pod(&sim, name).is_some(),
        "Pod was evicted despite toleration"
    );
}

// upstream: "NoExecuteTaintManager Single Pod [Serial] eventually evict pod with finite
// tolerations from tainted nodes": tolerating for 70 s, the pod survives the first 65 s and is
// gone within the next 65 s.
#[test]
fn eventually_evicts_pod_with_finite_tolerations() {
    let mut sim = cluster();
    let name = "taint-eviction-3";
    let node = run_pod(
        &mut sim,
        pod_for_taints_test(
            true,
            KUBELET_POD_DELETION_DELAY_SECONDS + 2 * ADDITIONAL_WAIT_PER_DELETE_SECONDS,
            name,
        ),
    );
    taint_node(&mut sim, &node);
    let window = KUBELET_POD_DELETION_DELAY_SECONDS + ADDITIONAL_WAIT_PER_DELETE_SECONDS;
    run_for(&mut sim, window);
    assert!(
        get_pod(&sim, name).is_some(),
        "Pod was evicted despite toleration"
    );
    run_for(&mut sim, window);
    assert!(get_pod(&sim, name).is_none(), "Pod wasn't evicted");
}

// upstream: "NoExecuteTaintManager Single Pod [Serial] removing taint cancels eviction"
// (conformance): tolerating for 10 s, the taint is removed before that and the pod survives
// the next 75 s. (Upstream's short wait before the removal is `time.NewTimer(5)`, five
// nanoseconds; here the taint is removed once the controllers have seen it.)
#[test]
fn removing_taint_cancels_eviction() {
    let mut sim = cluster();
    let name = "taint-eviction-4";
    let node = run_pod(
        &mut sim,
        pod_for_taints_test(true, 2 * ADDITIONAL_WAIT_PER_DELETE_SECONDS, name),
    );
    taint_node(&mut sim, &node);
    sim.settle().unwrap();
    assert!(get_pod(&sim, name).is_some());
    untaint_node(&mut sim, &node);
    run_for(
        &mut sim,
        KUBELET_POD_DELETION_DELAY_SECONDS + 3 * ADDITIONAL_WAIT_PER_DELETE_SECONDS,
    );
    let p = get_pod(&sim, name).expect("Pod was evicted despite toleration");
    assert!(p.metadata.deletion_timestamp.is_none());
}

// upstream: "NoExecuteTaintManager Multiple Pods [Serial] only evicts pods without tolerations
// from tainted nodes".
#[test]
fn only_evicts_pods_without_tolerations() {
    let mut sim = cluster();
    let node1 = run_pod(&mut sim, pod_for_taints_test(false, 0, "taint-eviction-a1"));
    let node2 = run_pod(&mut sim, pod_for_taints_test(true, 0, "taint-eviction-a2"));
    taint_node(&mut sim, &node1);
    if node2 != node1 {
        taint_node(&mut sim, &node2);
    }
    run_for(
        &mut sim,
        KUBELET_POD_DELETION_DELAY_SECONDS + ADDITIONAL_WAIT_PER_DELETE_SECONDS,
    );
    assert!(
        get_pod(&sim, "taint-eviction-a1").is_none(),
        "Failed to evict Pod1."
    );
    assert!(
        get_pod(&sim, "taint-eviction-a2").is_some(),
        "Unexpected Pod taint-eviction-a2 gets evicted."
    );
}

// upstream: "NoExecuteTaintManager Multiple Pods [Serial] evicts pods with minTolerationSeconds"
// (conformance): two pods on one node tolerating for 5 s and 25 s are both evicted within
// 60 + 10 * 5 s.
#[test]
fn evicts_pods_with_min_toleration_seconds() {
    let mut sim = cluster();
    let node = run_pod(
        &mut sim,
        pod_for_taints_test(
            true,
            ADDITIONAL_WAIT_PER_DELETE_SECONDS,
            "taint-eviction-b1",
        ),
    );
    let mut pod2 = pod_for_taints_test(
        true,
        5 * ADDITIONAL_WAIT_PER_DELETE_SECONDS,
        "taint-eviction-b2",
    );
    pod2["spec"]["nodeSelector"] = json!({"kubernetes.io/hostname": node});
    assert_eq!(run_pod(&mut sim, pod2), node);
    taint_node(&mut sim, &node);
    run_for(
        &mut sim,
        KUBELET_POD_DELETION_DELAY_SECONDS + 10 * ADDITIONAL_WAIT_PER_DELETE_SECONDS,
    );
    for p in ["taint-eviction-b1", "taint-eviction-b2"] {
        assert!(get_pod(&sim, p).is_none(), "{p} is not evicted");
    }
}
