//! NodePorts end to end: replicas asking for the same host port take one node each; the one
//! left over stays Pending with the plugin's reason, and is scheduled when a node is added.

use kubeplay::api::Pod;
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

fn web_pods(s: &Simulation) -> Vec<Pod> {
    s.api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .cloned()
        .collect()
}

#[test]
fn host_port_replicas_take_one_node_each() {
    let text = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{count: 2, namePrefix: node-}]\nobjects:\n  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 3, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx:1, ports: [{containerPort: 80, hostPort: 8080}]}]}}}}\n";
    let mut s = Scenario::parse(text).unwrap().build().unwrap();
    s.settle().unwrap();
    let pods = web_pods(&s);
    assert_eq!(pods.len(), 3);
    let mut nodes: Vec<&str> = pods
        .iter()
        .map(|p| p.spec.node_name.as_str())
        .filter(|n| !n.is_empty())
        .collect();
    nodes.sort();
    assert_eq!(nodes, vec!["node-1", "node-2"]);
    let want = "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod \
ports. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims \
found for incoming pod.";
    let pending: Vec<&Pod> = pods
        .iter()
        .filter(|p| p.spec.node_name.is_empty())
        .collect();
    assert_eq!(pending.len(), 1);
    let c = pending[0].condition("PodScheduled").unwrap();
    assert_eq!(
        (c.reason.as_str(), c.message.as_str()),
        ("Unschedulable", want)
    );
    assert!(s
        .api
        .events
        .iter()
        .any(|e| e.name == pending[0].metadata.name
            && e.reason == "FailedScheduling"
            && e.message == want));
}
