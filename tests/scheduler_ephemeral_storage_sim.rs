//! NodeResourcesFit's ephemeral-storage check end to end (fitsRequest in
//! pkg/scheduler/framework/plugins/noderesources/fit.go): scenario nodes offer 100Gi of
//! ephemeral storage; requests beyond what is left keep a pod Pending with
//! "Insufficient ephemeral-storage".

use kubeplay::api::Pod;
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

fn pod(s: &Simulation, name: &str) -> Pod {
    s.api
        .store
        .get::<Pod>("default", name)
        .expect("pod exists")
        .clone()
}

fn scenario(pods: &[(&str, &str)]) -> Simulation {
    let mut text = String::from(
        "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{name: node-1}]\nobjects:\n",
    );
    for (name, storage) in pods {
        text.push_str(&format!(
            "  - {{apiVersion: v1, kind: Pod, metadata: {{name: {name}}}, spec: {{containers: [{{name: c, image: nginx:1, resources: {{requests: {{ephemeral-storage: {storage}}}}}}}]}}}}\n"
        ));
    }
    let mut s = Scenario::parse(&text).unwrap().build().unwrap();
    s.settle().unwrap();
    s
}

fn pending_message(s: &Simulation, name: &str) -> String {
    let p = pod(s, name);
    assert!(p.spec.node_name.is_empty(), "{name} should be pending");
    let c = p.condition("PodScheduled").expect("PodScheduled");
    assert_eq!(c.reason, "Unschedulable");
    c.message.clone()
}

#[test]
fn request_above_node_ephemeral_storage_is_unresolvable() {
    let s = scenario(&[("big", "200Gi")]);
    assert_eq!(
        pending_message(&s, "big"),
        "0/1 nodes are available: 1 Insufficient ephemeral-storage. no new claims to \
deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    );
}

#[test]
fn used_ephemeral_storage_counts_against_the_node() {
    let s = scenario(&[("a", "60Gi"), ("b", "60Gi"), ("c", "40Gi")]);
    let placed: Vec<String> = ["a", "b", "c"]
        .iter()
        .filter(|n| !pod(&s, n).spec.node_name.is_empty())
        .map(|n| n.to_string())
        .collect();
    // 100Gi: one 60Gi pod and the 40Gi pod fit together, the other 60Gi pod does not.
    assert_eq!(placed.len(), 2, "{placed:?}");
    assert!(placed.contains(&"c".to_string()), "{placed:?}");
    let pending = if placed.contains(&"a".to_string()) {
        "b"
    } else {
        "a"
    };
    assert_eq!(
        pending_message(&s, pending),
        "0/1 nodes are available: 1 Insufficient ephemeral-storage. no new claims to \
deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming \
pod."
    );
}
