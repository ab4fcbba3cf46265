//! PodTopologySpread's filter end to end: a Deployment whose pods carry a DoNotSchedule
//! hostname constraint (maxSkew 1, `matchLabelKeys: [pod-template-hash]`) on two nodes, one of
//! them tainted NoSchedule. With the default `nodeTaintsPolicy: Ignore` the tainted node is
//! still a domain with no matching pod, so the global minimum stays 0 and the untainted node
//! takes a single replica; the other three stay Pending with the filter's reason. With
//! `nodeTaintsPolicy: Honor` the tainted node is not a domain and all four replicas land on the
//! untainted node. Removing the taint lets the pending replicas spread.

use kubeplay::api::{Node, Pod, Resource};
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

fn sim(taints_policy: Option<&str>) -> Simulation {
    let policy = taints_policy
        .map(|p| format!(", nodeTaintsPolicy: {p}"))
        .unwrap_or_default();
    let text = format!(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes:\n  - {{name: node-a}}\n  - {{name: node-b, taints: [{{key: dedicated, value: gpu, effect: NoSchedule}}]}}\nobjects:\n  - {{apiVersion: apps/v1, kind: Deployment, metadata: {{name: web}}, spec: {{replicas: 4, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{topologySpreadConstraints: [{{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {{matchLabels: {{app: web}}}}, matchLabelKeys: [pod-template-hash]{policy}}}], containers: [{{name: c, image: nginx:1}}]}}}}}}}}\n"
    );
    let mut s = Scenario::parse(&text).unwrap().build().unwrap();
    s.settle().unwrap();
    s
}

fn web_pods(s: &Simulation) -> Vec<Pod> {
    s.api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .cloned()
        .collect()
}

fn placement(s: &Simulation) -> (usize, usize, usize) {
    let pods = web_pods(s);
    let on = |n: &str| pods.iter().filter(|p| p.spec.node_name == n).count();
    let pending = pods.iter().filter(|p| p.spec.node_name.is_empty()).count();
    (on("node-a"), on("node-b"), pending)
}

const WANT: &str = "0/2 nodes are available: 1 node(s) didn't match pod topology spread \
constraints, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 \
nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not \
helpful for scheduling.";

#[test]
fn tainted_node_still_counts_as_a_domain_by_default() {
    let mut s = sim(None);
    assert_eq!(placement(&s), (1, 0, 3));
    for p in web_pods(&s).iter().filter(|p| p.spec.node_name.is_empty()) {
        assert_eq!(p.status.phase, "Pending");
        let c = p.condition("PodScheduled").unwrap();
        assert_eq!(
            (c.status.as_str(), c.reason.as_str(), c.message.as_str()),
            ("False", "Unschedulable", WANT)
        );
        let events: Vec<String> = s
            .api
            .events
            .iter()
            .filter(|e| {
                e.kind == "Pod" && e.name == p.metadata.name && e.reason == "FailedScheduling"
            })
            .map(|e| e.message.clone())
            .collect();
        assert!(!events.is_empty(), "{}", p.metadata.name);
        assert!(events.iter().all(|m| m == WANT), "{events:?}");
    }
    // Removing the taint wakes the pending replicas; they spread 2/2.
    let mut b = s.api.store.get::<Node>("", "node-b").cloned().unwrap();
    b.spec.taints.clear();
    s.api.update(b.into_object()).unwrap();
    s.settle().unwrap();
    let now = s.now() + kubeplay::api::Duration::from_secs(30);
    s.run_until(now).unwrap();
    assert_eq!(placement(&s), (2, 2, 0));
}

#[test]
fn honoring_taints_leaves_the_tainted_node_out() {
    let s = sim(Some("Honor"));
    assert_eq!(placement(&s), (4, 0, 0));
    assert!(!s.api.events.iter().any(|e| e.reason == "FailedScheduling"));
}
