//! InterPodAffinity through the simulation: a ReplicaSet whose pods repel each other per node.

use kubeplay::api::{Duration, Object, Pod, Time};
use kubeplay::controllers::replicaset::ReplicaSetController;
use kubeplay::features::FeatureGates;
use kubeplay::kubelet::new_kubelet;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::Simulation;
use kubeplay::world::World;
use serde_json::{json, Value};

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn sim() -> Simulation {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    s.add_loop(new_scheduler());
    s.add_loop(new_kubelet());
    s.add_loop(Box::new(ReplicaSetController::new()));
    s
}

fn node(name: &str, zone: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {
            "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone}},
        "status": {"capacity": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                   "allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}
    })
}

fn replica_set(name: &str, replicas: i32, affinity: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"affinity": affinity,
                         "containers": [{"name": "app", "image": "nginx"}]}
            }
        }
    })
}

fn pods(s: &Simulation) -> Vec<Pod> {
    s.api.store.list::<Pod>(Some("default")).cloned().collect()
}

fn events(s: &Simulation, name: &str, reason: &str) -> Vec<String> {
    s.api
        .events
        .iter()
        .filter(|e| e.kind == "Pod" && e.name == name && e.reason == reason)
        .map(|e| e.message.clone())
        .collect()
}

#[test]
fn required_anti_affinity_on_hostname_leaves_the_third_replica_pending() {
    let mut s = sim();
    for n in ["node-a", "node-b"] {
        s.api
            .load(Object::from_value(node(n, "z1")).unwrap())
            .unwrap();
    }
    let anti = json!({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}
    ]}});
    s.api
        .create(Object::from_value(replica_set("web", 3, anti)).unwrap())
        .unwrap();
    // Long enough for the kubelet to start the bound pods (the pending one is retried at 5 min).
    s.run_until(start() + Duration::from_secs(60)).unwrap();
    let ps = pods(&s);
    assert_eq!(ps.len(), 3);
    let mut nodes: Vec<&str> = ps
        .iter()
        .filter(|p| !p.spec.node_name.is_empty())
        .map(|p| p.spec.node_name.as_str())
        .collect();
    nodes.sort();
    assert_eq!(nodes, vec!["node-a", "node-b"]);
    let running = ps.iter().filter(|p| p.status.phase == "Running").count();
    assert_eq!(running, 2);
    let pending: Vec<&Pod> = ps.iter().filter(|p| p.spec.node_name.is_empty()).collect();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].status.phase, "Pending");
    let want = "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. \
no new claims to deallocate, preemption: 0/2 nodes are available: \
2 No preemption victims found for incoming pod.";
    let c = pending[0].condition("PodScheduled").unwrap();
    assert_eq!(
        (c.status.as_str(), c.reason.as_str()),
        ("False", "Unschedulable")
    );
    assert_eq!(c.message, want);
    assert_eq!(
        events(&s, &pending[0].metadata.name, "FailedScheduling"),
        vec![want.to_string()]
    );
    // A third node lets it schedule there.
    s.api
        .load(Object::from_value(node("node-c", "z1")).unwrap())
        .unwrap();
    s.settle().unwrap();
    let p = s
        .api
        .store
        .get::<Pod>("default", &pending[0].metadata.name)
        .unwrap();
    assert_eq!(p.spec.node_name, "node-c");
}

#[test]
fn required_affinity_follows_the_first_pod_and_preferred_anti_affinity_spreads() {
    let mut s = sim();
    for (n, z) in [("node-a", "z1"), ("node-b", "z2"), ("node-c", "z2")] {
        s.api.load(Object::from_value(node(n, z)).unwrap()).unwrap();
    }
    // A cache in z2 (pinned to node-b); the app requires a cache pod in its zone and prefers
    // not to share a node with another app pod.
    s.api
        .load(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "cache", "namespace": "default", "labels": {"app": "cache"}},
                "spec": {"nodeName": "node-b", "containers": [{"name": "c", "image": "redis"}]}
            }))
            .unwrap(),
        )
        .unwrap();
    let affinity = json!({
        "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "cache"}},
             "topologyKey": "topology.kubernetes.io/zone"}]},
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": {
                "labelSelector": {"matchLabels": {"app": "app"}},
                "topologyKey": "kubernetes.io/hostname"}}]}
    });
    s.api
        .create(Object::from_value(replica_set("app", 2, affinity)).unwrap())
        .unwrap();
    s.settle().unwrap();
    let mut on: Vec<String> = pods(&s)
        .iter()
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("app"))
        .map(|p| p.spec.node_name.clone())
        .collect();
    on.sort();
    // Both in z2 (node-a is UnschedulableAndUnresolvable), one per node.
    assert_eq!(on, vec!["node-b", "node-c"]);
}

#[test]
fn required_anti_affinity_is_resolved_by_preempting_the_lower_priority_pod() {
    let mut s = sim();
    s.api
        .load(Object::from_value(node("node-a", "z1")).unwrap())
        .unwrap();
    s.api
        .load(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "batch", "namespace": "default", "labels": {"app": "batch"}},
                "spec": {"nodeName": "node-a", "priority": 0,
                         "containers": [{"name": "c", "image": "busybox"}]}
            }))
            .unwrap(),
        )
        .unwrap();
    s.api
        .create(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
                "spec": {"priority": 1000,
                         "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                             {"labelSelector": {"matchLabels": {"app": "batch"}},
                              "topologyKey": "kubernetes.io/hostname"}]}},
                         "containers": [{"name": "c", "image": "nginx"}]}
            }))
            .unwrap(),
        )
        .unwrap();
    s.run_until(start() + Duration::from_secs(120)).unwrap();
    let want = "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules.";
    assert_eq!(
        events(&s, "web", "FailedScheduling"),
        vec![want.to_string()]
    );
    assert_eq!(events(&s, "batch", "Preempted").len(), 1);
    assert!(s.api.store.get::<Pod>("default", "batch").is_none());
    let web = s.api.store.get::<Pod>("default", "web").unwrap();
    assert_eq!(web.spec.node_name, "node-a");
}

fn plain_pod(name: &str, app: &str, extra_spec: Value) -> Value {
    let mut spec = json!({"containers": [{"name": "c", "image": "nginx"}]});
    for (k, v) in extra_spec.as_object().unwrap() {
        spec[k] = v.clone();
    }
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": app}},
        "spec": spec
    })
}

fn event_secs(s: &Simulation, name: &str, reason: &str) -> Vec<i64> {
    s.api
        .events
        .iter()
        .filter(|e| e.kind == "Pod" && e.name == name && e.reason == reason)
        .map(|e| (e.time - start()).as_millis() / 1000)
        .collect()
}

#[test]
fn an_existing_pods_anti_affinity_repels_a_pod_without_affinity() {
    let mut s = sim();
    for n in ["node-a", "node-b"] {
        s.api
            .load(Object::from_value(node(n, "z1")).unwrap())
            .unwrap();
    }
    s.settle().unwrap();
    // A loner that wants no "web" pod on its node, scheduled first (to node-a: ties go to the
    // first node by name).
    let anti = json!({"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}});
    s.api
        .create(Object::from_value(plain_pod("loner", "loner", anti)).unwrap())
        .unwrap();
    s.settle().unwrap();
    let loner = s.api.store.get::<Pod>("default", "loner").unwrap();
    assert_eq!(loner.spec.node_name, "node-a");
    // Plain web pods (no affinity of their own) all avoid node-a.
    for i in 0..3 {
        s.api
            .create(Object::from_value(plain_pod(&format!("web-{i}"), "web", json!({}))).unwrap())
            .unwrap();
        s.settle().unwrap();
        let p = s
            .api
            .store
            .get::<Pod>("default", &format!("web-{i}"))
            .unwrap();
        assert_eq!(p.spec.node_name, "node-b", "web-{i}");
    }
    // Without room elsewhere the message names the existing pod's rule.
    let mut b = s
        .api
        .store
        .get::<kubeplay::api::Node>("", "node-b")
        .unwrap()
        .clone();
    b.spec.unschedulable = true;
    s.api.update(Object::Node(b)).unwrap();
    s.api
        .create(Object::from_value(plain_pod("web-x", "web", json!({}))).unwrap())
        .unwrap();
    s.settle().unwrap();
    assert_eq!(
        events(&s, "web-x", "FailedScheduling"),
        vec![
            "0/2 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules, \
1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: \
1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
                .to_string()
        ]
    );
}

#[test]
fn a_pod_waiting_for_its_affinity_target_is_retried_when_the_target_is_bound() {
    let mut s = sim();
    s.api
        .load(Object::from_value(node("node-a", "z1")).unwrap())
        .unwrap();
    s.settle().unwrap();
    let aff = json!({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}});
    s.api
        .create(Object::from_value(plain_pod("app", "app", aff)).unwrap())
        .unwrap();
    s.settle().unwrap();
    assert_eq!(
        events(&s, "app", "FailedScheduling"),
        vec![
            "0/1 nodes are available: 1 node(s) didn't match pod affinity rules. \
no new claims to deallocate, preemption: 0/1 nodes are available: \
1 Preemption is not helpful for scheduling."
                .to_string()
        ]
    );
    s.run_until(start() + Duration::from_secs(20)).unwrap();
    s.api
        .create(Object::from_value(plain_pod("cache", "cache", json!({}))).unwrap())
        .unwrap();
    s.run_until(start() + Duration::from_secs(60)).unwrap();
    // Requeued by the cache pod's binding (after the 1 s back-off), not by the 5-minute flush.
    let t = event_secs(&s, "app", "Scheduled");
    assert_eq!(t.len(), 1);
    assert!(t[0] >= 20 && t[0] <= 22, "{t:?}");
}

// The API server rejects an invalid affinity selector value (validatePodAffinityTerm via
// ValidatePodAffinityTermSelector), so such a pod never reaches the scheduler through kubeplay's
// API; the scheduler's own `parsing pod: ...` rejection (for pods persisted by an older API
// server) is covered by the PreFilter rows in src/scheduler/interpod_affinity_tests.rs.
#[test]
fn an_invalid_affinity_selector_is_rejected_by_the_api_server() {
    let mut s = sim();
    let bad = json!({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchExpressions": [
            {"key": "service", "operator": "In", "values": ["{{.bad-value.}}"]}]},
         "topologyKey": "region"}]}}});
    let err = s
        .api
        .create(Object::from_value(plain_pod("bad", "bad", bad)).unwrap())
        .unwrap_err();
    let want = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[0]: \
Invalid value: \"{{.bad-value.}}\": a valid label must be an empty string or consist of alphanumeric \
characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  \
or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    assert!(
        err.kubectl_message().contains(want),
        "{}",
        err.kubectl_message()
    );
}

#[test]
fn a_node_update_that_keeps_anti_affinity_violated_does_not_retry_the_pod() {
    let mut s = sim();
    for n in ["node-a", "node-b"] {
        s.api
            .load(Object::from_value(node(n, "z1")).unwrap())
            .unwrap();
    }
    let anti = json!({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}
    ]}});
    s.api
        .create(Object::from_value(replica_set("web", 3, anti)).unwrap())
        .unwrap();
    s.run_until(start() + Duration::from_secs(10)).unwrap();
    let pending: Vec<String> = pods(&s)
        .iter()
        .filter(|p| p.spec.node_name.is_empty())
        .map(|p| p.metadata.name.clone())
        .collect();
    assert_eq!(pending.len(), 1);
    // A label that is not the topology key: InterPodAffinity still rejects node-a.
    let mut a = s
        .api
        .store
        .get::<kubeplay::api::Node>("", "node-a")
        .unwrap()
        .clone();
    a.metadata.labels.insert("disk".into(), "ssd".into());
    s.api.update(Object::Node(a)).unwrap();
    s.run_until(start() + Duration::from_secs(60)).unwrap();
    assert_eq!(events(&s, &pending[0], "FailedScheduling").len(), 1);
    // The 5-minute flush retries it.
    s.run_until(start() + Duration::from_secs(301)).unwrap();
    assert_eq!(events(&s, &pending[0], "FailedScheduling").len(), 2);
}

#[test]
fn an_existing_pods_anti_affinity_is_resolved_by_preempting_it() {
    let mut s = sim();
    s.api
        .load(Object::from_value(node("node-a", "z1")).unwrap())
        .unwrap();
    let mut loner = plain_pod(
        "loner",
        "loner",
        json!({"nodeName": "node-a", "priority": 0,
               "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                   {"labelSelector": {"matchLabels": {"app": "web"}},
                    "topologyKey": "kubernetes.io/hostname"}]}}}),
    );
    loner["metadata"]["labels"] = json!({"app": "loner"});
    s.api.load(Object::from_value(loner).unwrap()).unwrap();
    s.api
        .create(Object::from_value(plain_pod("web", "web", json!({"priority": 1000}))).unwrap())
        .unwrap();
    s.run_until(start() + Duration::from_secs(120)).unwrap();
    assert_eq!(
        events(&s, "web", "FailedScheduling"),
        vec![
            "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules."
                .to_string()
        ]
    );
    assert_eq!(events(&s, "loner", "Preempted").len(), 1);
    let web = s.api.store.get::<Pod>("default", "web").unwrap();
    assert_eq!(web.spec.node_name, "node-a");
}
