//! Ports of upstream's node lifecycle integration tests (test/integration/node/lifecycle_test.go):
//! the node lifecycle controller (and, where the row starts it, the taint eviction controller)
//! against an API server, with nodes and pods written by the test and no kubelet.
//!
//! Only the rows with the separate taint eviction controller enabled are ported: kubeplay
//! evicts through the taint eviction controller only (SeparateTaintEvictionController's
//! behaviour); the "disabled" rows exercise the node lifecycle controller's built-in taint
//! manager, which kubeplay does not model. Upstream's node monitor grace period is 1 s and its
//! eviction QPS 100; kubeplay runs the defaults (50 s, 0.1 node/s per zone with a burst of
//! 1), which does not matter here: one node per test is unhealthy and it is tainted by the
//! first pass.

use kubeplay::api::{Duration, Node, Object, Pod, Resource, Time};
use kubeplay::controllers::node_lifecycle::new_node_lifecycle_controller;
use kubeplay::controllers::taint_eviction::new_taint_eviction_controller;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::world::World;
use serde_json::{json, Value};

const NS: &str = "default";

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn new_sim(taint_eviction: bool) -> Simulation {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    s.add_loop(new_node_lifecycle_controller());
    if taint_eviction {
        s.add_loop(new_taint_eviction_controller());
    }
    s
}

fn load(sim: &mut Simulation, v: Value) {
    sim.api.load(Object::from_value(v).unwrap()).unwrap();
}

/// Creates a pod as the API server admits it: through DefaultTolerationSeconds, which upstream's
/// TestTaintBasedEvictions puts in its admission chain.
fn create_admitted_pod(sim: &mut Simulation, v: Value) {
    let mut p: Pod = serde_json::from_value(v).unwrap();
    kubeplay::admission::default_toleration_seconds(&mut p);
    sim.api.load(p.into_object()).unwrap();
}

fn get_pod(sim: &Simulation, name: &str) -> Pod {
    sim.api.store.get::<Pod>(NS, name).cloned().unwrap()
}

fn get_node(sim: &Simulation, name: &str) -> Node {
    sim.api.store.get::<Node>("", name).cloned().unwrap()
}

fn run_for(sim: &mut Simulation, secs: i64) {
    let t = sim.now() + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

/// `testutils.PodIsGettingEvicted`: the pod has a deletion timestamp.
fn is_getting_evicted(p: &Pod) -> bool {
    p.metadata.deletion_timestamp.is_some()
}

/// `testutils.GetTolerationSeconds`: the tolerationSeconds of the not-ready NoExecute
/// `Exists` toleration.
fn not_ready_toleration_seconds(p: &Pod) -> Option<i64> {
    p.spec
        .tolerations
        .iter()
        .find(|t| {
            t.key == "node.kubernetes.io/not-ready"
                && t.effect == "NoExecute"
                && t.operator == "Exists"
        })
        .and_then(|t| t.toleration_seconds)
}

/// Runs one TestEvictionForNoExecuteTaintAddedByUser row: three Ready nodes excluded from
/// disruption checks, a running pod on testnode-1, then a user's NoExecute taint on that node.
fn eviction_for_user_taint(start_taint_eviction: bool) -> Pod {
    let mut sim = new_sim(start_taint_eviction);
    for i in 0..3 {
        load(
            &mut sim,
            json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": format!("testnode-{i}"),
                             "labels": {"node.kubernetes.io/exclude-disruption": "true"}},
                "status": {"conditions": [{"type": "Ready", "status": "True"}]}
            }),
        );
    }
    load(
        &mut sim,
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "testpod", "namespace": NS},
            "spec": {"nodeName": "testnode-1",
                     "containers": [{"name": "container", "image": "registry.k8s.io/pause:3.10"}]},
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}
        }),
    );
    sim.settle().unwrap();
    // testutils.AddTaintToNode.
    let mut n = get_node(&sim, "testnode-1");
    n.spec.taints.push(kubeplay::api::Taint {
        key: "CustomTaintByUser".into(),
        value: String::new(),
        effect: "NoExecute".into(),
        time_added: None,
    });
    sim.api.update(n.into_object()).unwrap();
    // Upstream polls for 20 s.
    run_for(&mut sim, 20);
    get_pod(&sim, "testpod")
}

// upstream: TestEvictionForNoExecuteTaintAddedByUser, "Test eviction for NoExecute taint added
// by user; separate taint eviction controller enabled and started": the pod is evicted and
// carries the DisruptionTarget condition.
#[test]
fn eviction_for_no_execute_taint_added_by_user() {
    let p = eviction_for_user_taint(true);
    assert!(is_getting_evicted(&p), "pod not evicted");
    assert!(
        p.condition("DisruptionTarget").is_some(),
        "no DisruptionTarget condition"
    );
}

// upstream: TestEvictionForNoExecuteTaintAddedByUser, "Test eviction for NoExecute taint added
// by user; separate taint eviction controller enabled but not started": the node lifecycle
// controller alone does not evict.
#[test]
fn no_eviction_for_user_taint_without_the_taint_eviction_controller() {
    let p = eviction_for_user_taint(false);
    assert!(!is_getting_evicted(&p), "unexpected eviction");
    assert!(p.condition("DisruptionTarget").is_none());
}

/// Runs one TestTaintBasedEvictions row (separate taint eviction controller enabled): nodes
/// node-0..2 in region1/zone1 excluded from disruption checks, node-1 with the row's Ready
/// status and the others Ready; the row's pod on node-1 with its not-ready toleration set to
/// `toleration_seconds`. Returns the node's taints (`key:effect`) and the pod after 15 s.
fn taint_based_evictions(
    ready: &str,
    pod_tolerations: Option<Value>,
    toleration_seconds: i64,
) -> (Vec<String>, Option<Pod>) {
    let mut sim = new_sim(true);
    let res = json!({"cpu": "4000m", "memory": "16Gi", "pods": "110"});
    for i in 0..3 {
        let status = if i == 1 { ready } else { "True" };
        load(
            &mut sim,
            json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": format!("node-{i}"),
                             "labels": {"topology.kubernetes.io/region": "region1",
                                        "topology.kubernetes.io/zone": "zone1",
                                        "node.kubernetes.io/exclude-disruption": "true"}},
                "status": {"capacity": res, "allocatable": res,
                           "conditions": [{"type": "Ready", "status": status}]}
            }),
        );
    }
    let with_pod = pod_tolerations.is_some();
    if let Some(mut tolerations) = pod_tolerations {
        if let Some(first) = tolerations.get_mut(0) {
            first["tolerationSeconds"] = json!(toleration_seconds);
        }
        create_admitted_pod(
            &mut sim,
            json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "testpod", "namespace": NS},
                "spec": {"nodeName": "node-1",
                         "containers": [{"name": "container",
                                         "image": "registry.k8s.io/pause:3.10"}],
                         "tolerations": tolerations,
                         "terminationGracePeriodSeconds": 1}
            }),
        );
    }
    sim.settle().unwrap();
    // Upstream: WaitForNodeTaints, then a 15 s poll on the pod.
    run_for(&mut sim, 15);
    let taints = get_node(&sim, "node-1")
        .spec
        .taints
        .iter()
        .map(|t| format!("{}:{}", t.key, t.effect))
        .collect();
    let pod = with_pod.then(|| get_pod(&sim, "testpod"));
    (taints, pod)
}

fn not_ready_exists() -> Value {
    json!([{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}])
}

// upstream: TestTaintBasedEvictions, "Taint based evictions for NodeNotReady and 200
// tolerationseconds; separate taint eviction controller enabled": node-1 gets the not-ready
// NoExecute taint; the pod keeps its own 200 s toleration (DefaultTolerationSeconds does not
// replace it) and is not evicted within the 15 s.
#[test]
fn taint_based_evictions_not_ready_200_toleration_seconds() {
    let (taints, pod) = taint_based_evictions("False", Some(not_ready_exists()), 200);
    assert!(
        taints.contains(&"node.kubernetes.io/not-ready:NoExecute".to_string()),
        "{taints:?}"
    );
    let pod = pod.unwrap();
    assert_eq!(not_ready_toleration_seconds(&pod), Some(200));
    assert!(!is_getting_evicted(&pod));
}

// upstream: TestTaintBasedEvictions, "Taint based evictions for NodeNotReady with no pod
// tolerations; separate taint eviction controller enabled": DefaultTolerationSeconds gives the
// pod a 300 s not-ready toleration.
#[test]
fn taint_based_evictions_not_ready_no_pod_tolerations() {
    let (taints, pod) = taint_based_evictions("False", Some(json!([])), 300);
    assert!(
        taints.contains(&"node.kubernetes.io/not-ready:NoExecute".to_string()),
        "{taints:?}"
    );
    let pod = pod.unwrap();
    assert_eq!(not_ready_toleration_seconds(&pod), Some(300));
    assert!(!is_getting_evicted(&pod));
}

// upstream: TestTaintBasedEvictions, "Taint based evictions for NodeNotReady and 0
// tolerationseconds; separate taint eviction controller enabled": the pod is evicted as soon
// as the taint lands and, with no kubelet, stays Terminating.
#[test]
fn taint_based_evictions_not_ready_0_toleration_seconds() {
    let (taints, pod) = taint_based_evictions("False", Some(not_ready_exists()), 0);
    assert!(
        taints.contains(&"node.kubernetes.io/not-ready:NoExecute".to_string()),
        "{taints:?}"
    );
    assert!(is_getting_evicted(&pod.unwrap()), "pod not terminating");
}

// upstream: TestTaintBasedEvictions, "Taint based evictions for NodeUnreachable; separate taint
// eviction controller enabled": a node whose Ready is Unknown gets the unreachable NoExecute
// taint (no pod in this row).
#[test]
fn taint_based_evictions_unreachable() {
    let (taints, _) = taint_based_evictions("Unknown", None, 0);
    assert!(
        taints.contains(&"node.kubernetes.io/unreachable:NoExecute".to_string()),
        "{taints:?}"
    );
}

/// A TestTaintNodeByCondition pod: `newPod(ns, name, requests, limits)` with the case's
/// tolerations (all `Exists`/NoSchedule on a condition taint key).
fn qos_pod(name: &str, qos: &str, tolerations: &[&str]) -> Value {
    let res = json!({"cpu": "100m", "memory": "100Mi"});
    let resources = match qos {
        "burstable" => json!({"requests": res}),
        "guaranteed" => json!({"requests": res, "limits": res}),
        _ => json!({}),
    };
    let tolerations: Vec<Value> = tolerations
        .iter()
        .map(|k| {
            json!({"key": format!("node.kubernetes.io/{k}"), "operator": "Exists",
                        "effect": "NoSchedule"})
        })
        .collect();
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"containers": [{"name": "container", "image": "registry.k8s.io/pause:3.10",
                                 "resources": resources}],
                 "tolerations": tolerations}
    })
}

// upstream: TestTaintNodeByCondition (test/integration/scheduler/taint/taint_test.go): node-1 is
// created with the row's conditions (and spec.unschedulable); the node lifecycle controller
// gives it the condition taints (NoSchedule; the node may carry more, as upstream's
// nodeTainted check allows). With the scheduler running, each row's pods are created and
// must, or must not, be scheduled onto it.
//
// Pod cases not ported: the Burstable and Guaranteed pods of "memory pressure node" (they fit
// through the memory-pressure toleration the PodTolerationRestriction admission plugin adds
// to non-BestEffort pods, which kubeplay does not model), and the pod cases of the rows whose
// node is not Ready (the stored test expects a pod tolerating only the NoSchedule not-ready
// taint to fit, though the NoExecute not-ready taint the controller also adds is, for the
// scheduler's TaintToleration filter, untolerated; that depends on how soon the NoExecute taint
// lands, so only the taints are checked there).
#[test]
fn taint_node_by_condition() {
    type PodCase = (&'static str, &'static [&'static str], bool);
    type Row = (
        &'static str,
        Vec<Value>,
        bool,
        Vec<&'static str>,
        Vec<PodCase>,
    );
    let cond = |t: &str, s: &str| json!({"type": t, "status": s});
    let rows: Vec<Row> = vec![
        (
            "not-ready node",
            vec![cond("Ready", "False")],
            false,
            vec!["not-ready"],
            vec![],
        ),
        (
            "unschedulable node",
            vec![cond("Ready", "True")],
            true,
            vec!["unschedulable"],
            vec![
                ("besteffort", &[], false),
                ("burstable", &[], false),
                ("guaranteed", &[], false),
                ("besteffort", &["unschedulable"], true),
            ],
        ),
        (
            "memory pressure node",
            vec![cond("MemoryPressure", "True"), cond("Ready", "True")],
            false,
            vec!["memory-pressure"],
            vec![
                ("besteffort", &[], false),
                ("besteffort", &["memory-pressure"], true),
                ("besteffort", &["disk-pressure"], false),
            ],
        ),
        (
            "disk pressure node",
            vec![cond("DiskPressure", "True"), cond("Ready", "True")],
            false,
            vec!["disk-pressure"],
            vec![
                ("besteffort", &[], false),
                ("burstable", &[], false),
                ("guaranteed", &[], false),
                ("besteffort", &["disk-pressure"], true),
                ("besteffort", &["memory-pressure"], false),
            ],
        ),
        (
            "network unavailable and node is ready",
            vec![cond("NetworkUnavailable", "True"), cond("Ready", "True")],
            false,
            vec!["network-unavailable"],
            vec![
                ("besteffort", &[], false),
                ("burstable", &[], false),
                ("guaranteed", &[], false),
                ("burstable", &["network-unavailable"], true),
            ],
        ),
        (
            "network unavailable and node is not ready",
            vec![cond("NetworkUnavailable", "True"), cond("Ready", "False")],
            false,
            vec!["network-unavailable", "not-ready"],
            vec![],
        ),
        (
            "pid pressure node",
            vec![cond("PIDPressure", "True"), cond("Ready", "True")],
            false,
            vec!["pid-pressure"],
            vec![
                ("besteffort", &[], false),
                ("burstable", &[], false),
                ("guaranteed", &[], false),
                ("besteffort", &["pid-pressure"], true),
            ],
        ),
        (
            "multi taints on node",
            vec![
                cond("PIDPressure", "True"),
                cond("MemoryPressure", "True"),
                cond("DiskPressure", "True"),
                cond("Ready", "True"),
            ],
            false,
            vec!["disk-pressure", "memory-pressure", "pid-pressure"],
            vec![],
        ),
    ];
    for (name, conditions, unschedulable, expected, pods) in rows {
        let mut sim = new_sim(true);
        sim.add_loop(kubeplay::scheduler::new_scheduler());
        let res = json!({"cpu": "4000m", "memory": "16Gi", "pods": "110"});
        load(
            &mut sim,
            json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": "node-1"},
                "spec": {"unschedulable": unschedulable},
                "status": {"capacity": res, "allocatable": res, "conditions": conditions}
            }),
        );
        sim.settle().unwrap();
        let taints: Vec<String> = get_node(&sim, "node-1")
            .spec
            .taints
            .iter()
            .map(|t| format!("{}:{}", t.key, t.effect))
            .collect();
        for k in &expected {
            let want = format!("node.kubernetes.io/{k}:NoSchedule");
            assert!(taints.contains(&want), "{name}: {want} not in {taints:?}");
        }
        for (i, (qos, tolerations, fits)) in pods.iter().enumerate() {
            let pod_name = format!("{qos}-pod-{i}");
            load(&mut sim, qos_pod(&pod_name, qos, tolerations));
            sim.settle().unwrap();
            let p = get_pod(&sim, &pod_name);
            assert_eq!(
                p.spec.node_name == "node-1",
                *fits,
                "{name}: {pod_name} with tolerations {tolerations:?}"
            );
        }
    }
}
