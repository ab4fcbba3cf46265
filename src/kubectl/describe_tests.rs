//! Ports of `staging/src/k8s.io/kubectl/pkg/describe/describe_test.go` (repo
//! kubernetes/kubernetes; also kubernetes/kubectl `pkg/describe/describe_test.go`) for the
//! kinds kubeplay models, other than TestDescribeDeployment (ported in `describe.rs`).
//!
//! Upstream builds each object into a fake clientset without API defaulting; these tests put
//! the same objects, decoded from JSON, straight into the store and run `kubectl describe`.

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

fn put(sim: &mut Simulation, v: Value) {
    let o = Object::from_value(v).unwrap();
    sim.api.store.put(o);
}

fn describe(sim: &mut Simulation, args: &str) -> String {
    execute(sim, &format!("describe {args}")).unwrap()
}

fn assert_contains_all(out: &str, wants: &[&str]) {
    for want in wants {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
}

// Upstream: TestDescribePodNode.
#[test]
fn describe_pod_node() {
    let mut sim = sim();
    put(
        &mut sim,
        json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "bar", "namespace": "foo"},
            "spec": {"nodeName": "all-in-one"},
            "status": {"hostIP": "127.0.0.1", "nominatedNodeName": "nodeA"}}),
    );
    let out = describe(&mut sim, "pod bar -n foo");
    assert_contains_all(&out, &["all-in-one/127.0.0.1", "nodeA"]);
}

// Upstream: TestDescribePodTolerations.
#[test]
fn describe_pod_tolerations() {
    let mut sim = sim();
    put(
        &mut sim,
        json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "bar", "namespace": "foo"},
        "spec": {"tolerations": [
            {"operator": "Exists"},
            {"effect": "NoSchedule", "operator": "Exists"},
            {"key": "key0", "operator": "Exists"},
            {"key": "key1", "value": "value1"},
            {"key": "key2", "operator": "Equal", "value": "value2", "effect": "NoSchedule"},
            {"key": "key3", "value": "value3", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "key4", "effect": "NoExecute", "tolerationSeconds": 60}
        ]}}),
    );
    let out = describe(&mut sim, "pod bar -n foo");
    assert_contains_all(
        &out,
        &[
            "  op=Exists\n",
            ":NoSchedule op=Exists\n",
            "key0 op=Exists\n",
            "key1=value1\n",
            "key2=value2:NoSchedule\n",
            "key3=value3:NoExecute for 300s\n",
            "key4:NoExecute for 60s\n",
            "Tolerations:",
        ],
    );
}

// Upstream: TestDescribePodPriority. Upstream's pod has no namespace; ours lives in
// "default" (kubectl cannot address the empty namespace).
#[test]
fn describe_pod_priority() {
    let mut sim = sim();
    put(
        &mut sim,
        json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "bar", "namespace": "default"},
            "spec": {"priorityClassName": "high-priority", "priority": 1000}}),
    );
    let out = describe(&mut sim, "pod bar");
    assert_contains_all(&out, &["high-priority", "1000"]);
}
