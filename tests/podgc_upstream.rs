//! Ports of upstream's pod GC integration tests (test/integration/podgc/podgc_test.go): the pod
//! GC controller alone against an API server, pods written by the test, no kubelet.
//!
//! Kubernetes 1.35 has PodDisruptionConditions and JobPodReplacementPolicy on (both GA), so
//! only the rows with those gates enabled are ported. Upstream's setup shortens the orphan
//! quarantine to 1 s (NewPodGCInternal) and polls for 15 s; kubeplay's quarantine is the
//! default 40 s, so the orphan rows run past it.

use kubeplay::api::{Duration, Object, Pod, Time};
use kubeplay::controllers::podgc::{new_pod_gc_controller, QUARANTINE_TIME};
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;
use kubeplay::world::World;
use serde_json::{json, Value};

const NS: &str = "podgc";

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn new_sim() -> Simulation {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    s.add_loop(new_pod_gc_controller());
    s
}

fn load(sim: &mut Simulation, v: Value) {
    sim.api.load(Object::from_value(v).unwrap()).unwrap();
}

fn node(ready: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "node"},
        "status": {"conditions": [{"type": "Ready", "status": ready}]}
    })
}

fn get_pod(sim: &Simulation) -> Option<Pod> {
    sim.api.store.get::<Pod>(NS, "testpod").cloned()
}

fn run_for(sim: &mut Simulation, secs: i64) {
    let t = sim.now() + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

/// The DisruptionTarget condition as (status, reason, message).
fn disruption_target(p: &Pod) -> Option<(String, String, String)> {
    p.condition("DisruptionTarget")
        .map(|c| (c.status.clone(), c.reason.clone(), c.message.clone()))
}

fn pod_gc_condition() -> Option<(String, String, String)> {
    Some((
        "True".into(),
        "DeletionByPodGC".into(),
        "PodGC: node no longer exists".into(),
    ))
}

/// One TestPodGcOrphanedPodsWithFinalizer row: a pod with a finalizer on "node", set to
/// `phase`, then the node deleted. Returns the pod once the orphan quarantine has passed.
fn orphaned_pod_with_finalizer(phase: &str) -> Pod {
    let mut sim = new_sim();
    load(&mut sim, node("True"));
    load(
        &mut sim,
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "testpod", "namespace": NS,
                         "finalizers": ["test.k8s.io/finalizer"]},
            "spec": {"nodeName": "node", "containers": [{"name": "foo", "image": "bar"}]}
        }),
    );
    sim.settle().unwrap();
    let mut p = get_pod(&sim).unwrap();
    p.status.phase = phase.into();
    sim.api.update_status(Object::Pod(p)).unwrap();
    // "we delete the node to orphan the pod"
    sim.api
        .delete("Node", "", "node", &DeleteOptions::default())
        .unwrap();
    sim.settle().unwrap();
    run_for(&mut sim, QUARANTINE_TIME.as_millis() / 1000 + 15);
    let p = get_pod(&sim).expect("kept by its finalizer");
    assert!(
        p.metadata.deletion_timestamp.is_some(),
        "{phase}: pod not terminating"
    );
    p
}

// upstream: TestPodGcOrphanedPodsWithFinalizer, "PodDisruptionConditions and
// PodReplacementPolicy enabled": a Pending orphan is marked Failed with the DisruptionTarget
// condition, then deleted.
#[test]
fn pod_gc_orphaned_pending_pod_with_finalizer() {
    let p = orphaned_pod_with_finalizer("Pending");
    assert_eq!(disruption_target(&p), pod_gc_condition());
    assert_eq!(p.status.phase, "Failed");
}

// upstream: TestPodGcOrphanedPodsWithFinalizer, "PodDisruptionConditions enabled; succeeded
// pod" and "...; failed pod": terminal pods keep their phase and get no DisruptionTarget.
#[test]
fn pod_gc_orphaned_terminal_pods_with_finalizer() {
    for phase in ["Succeeded", "Failed"] {
        let p = orphaned_pod_with_finalizer(phase);
        assert_eq!(disruption_target(&p), None, "{phase}");
        assert_eq!(p.status.phase, phase);
    }
}

/// One TestTerminatingOnOutOfServiceNode row: a Running pod on a NotReady node, deleted with a
/// 300 s grace period, then the node tainted out-of-service. Returns the pod 15 s later.
fn terminating_on_out_of_service_node(with_finalizer: bool) -> Option<Pod> {
    let mut sim = new_sim();
    load(&mut sim, node("False"));
    let mut pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "testpod", "namespace": NS},
        "spec": {"nodeName": "node", "containers": [{"name": "foo", "image": "bar"}]},
        "status": {"phase": "Running"}
    });
    if with_finalizer {
        pod["metadata"]["finalizers"] = json!(["test.k8s.io/finalizer"]);
    }
    load(&mut sim, pod);
    sim.settle().unwrap();
    sim.api
        .delete(
            "Pod",
            NS,
            "testpod",
            &DeleteOptions {
                grace_period_seconds: Some(300),
                ..Default::default()
            },
        )
        .unwrap();
    sim.settle().unwrap();
    assert!(get_pod(&sim).unwrap().metadata.deletion_timestamp.is_some());
    // testutils.AddTaintToNode.
    let mut n = sim
        .api
        .store
        .get::<kubeplay::api::Node>("", "node")
        .cloned()
        .unwrap();
    n.spec.taints.push(kubeplay::api::Taint {
        key: "node.kubernetes.io/out-of-service".into(),
        value: String::new(),
        effect: "NoExecute".into(),
        time_added: None,
    });
    sim.api.update(Object::Node(n)).unwrap();
    run_for(&mut sim, 15);
    get_pod(&sim)
}

// upstream: TestTerminatingOnOutOfServiceNode, "pod has phase changed to Failed when
// PodDisruptionConditions enabled": the terminating pod on the out-of-service node is marked
// Failed (without a DisruptionTarget condition) and force deleted; its finalizer keeps it.
#[test]
fn terminating_on_out_of_service_node_with_finalizer() {
    let p = terminating_on_out_of_service_node(true).expect("kept by its finalizer");
    assert_eq!(p.status.phase, "Failed");
    assert_eq!(disruption_target(&p), None);
}

// upstream: TestTerminatingOnOutOfServiceNode, "pod is getting deleted when no finalizer and
// PodDisruptionConditions enabled": the pod is gone well before its 300 s grace period ends.
#[test]
fn terminating_on_out_of_service_node_without_finalizer() {
    assert!(terminating_on_out_of_service_node(false).is_none());
}

// upstream: TestPodGcForPodsWithDuplicatedFieldKeys (regression test for issues 118261 and
// 113482): an orphan whose container has duplicated env var names, or duplicated container
// ports, is still marked Failed with the DisruptionTarget condition (with a transition time).
#[test]
fn pod_gc_for_pods_with_duplicated_field_keys() {
    let rows = [
        (
            "Orphan pod with duplicated env vars",
            json!({"name": "foo", "image": "bar",
                   "env": [{"name": "XYZ", "value": "1"}, {"name": "XYZ", "value": "2"}]}),
        ),
        (
            "Orphan pod with duplicated ports; scenario from https://issues.k8s.io/113482",
            json!({"name": "foo", "image": "bar",
                   "ports": [{"containerPort": 93, "hostPort": 9376},
                             {"containerPort": 93, "hostPort": 9377}]}),
        ),
    ];
    for (name, container) in rows {
        let mut sim = new_sim();
        load(
            &mut sim,
            json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "testpod", "namespace": NS,
                             "finalizers": ["test.k8s.io/finalizer"]},
                "spec": {"nodeName": "non-existing-node", "containers": [container]}
            }),
        );
        sim.settle().unwrap();
        run_for(&mut sim, QUARANTINE_TIME.as_millis() / 1000 + 15);
        let p = get_pod(&sim).expect("kept by its finalizer");
        assert!(p.metadata.deletion_timestamp.is_some(), "{name}");
        assert_eq!(disruption_target(&p), pod_gc_condition(), "{name}");
        assert!(
            p.condition("DisruptionTarget")
                .unwrap()
                .last_transition_time
                .is_some(),
            "{name}"
        );
        assert_eq!(p.status.phase, "Failed", "{name}");
    }
}

// upstream: "Pod garbage collector [Feature:PodGarbageCollector] [Slow] should handle the
// creation of 1000 pods" (test/e2e/node/pod_gc.go), which needs
// --terminated-pod-gc-threshold=100: 1000 pods that are never scheduled are created and set
// Failed; within 2 minutes exactly 100 remain.
#[test]
fn pod_gc_handles_the_creation_of_1000_pods() {
    let mut sim = Simulation::new(1, start(), FeatureGates::default(), World::default());
    let mut gc = kubeplay::controllers::podgc::PodGcController::default();
    gc.terminated_pod_threshold = 100;
    sim.add_loop(Box::new(gc));
    for i in 0..1000 {
        let name = format!("pod-{i:04}");
        sim.api
            .create(
                Object::from_value(json!({
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": name, "namespace": NS},
                    "spec": {"schedulerName": "please don't schedule my pods",
                             "containers": [{"name": "c", "image": "busybox"}]}
                }))
                .unwrap(),
            )
            .unwrap();
        let mut p = get_pod_named(&sim, &name);
        p.status.phase = "Failed".into();
        sim.api.update_status(Object::Pod(p)).unwrap();
    }
    run_for(&mut sim, 120);
    assert_eq!(sim.api.store.list::<Pod>(Some(NS)).count(), 100);
}

fn get_pod_named(sim: &Simulation, name: &str) -> Pod {
    sim.api.store.get::<Pod>(NS, name).cloned().unwrap()
}
