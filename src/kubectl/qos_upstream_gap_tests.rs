//! Port of TestGetPodQOS (`staging/src/k8s.io/kubectl/pkg/util/qos/qos_test.go`, release-1.35)
//! through `kubectl describe pod`'s `QoS Class:` line: the status' class when set, else the
//! class computed from the containers' requests and limits.

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use serde_json::{json, Value};

fn qos_of(status_class: &str, containers: Value) -> String {
    let mut s = sim();
    let mut p = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default", "uid": "uid-p", "resourceVersion": "1"},
        "spec": {"containers": containers},
        "status": {}});
    if !status_class.is_empty() {
        p["status"]["qosClass"] = json!(status_class);
    }
    s.api.store.put(Object::from_value(p).unwrap());
    let out = execute(&mut s, "describe pod p").unwrap();
    out.lines()
        .find_map(|l| l.strip_prefix("QoS Class:"))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("no QoS Class line: {out}"))
}

fn c(name: &str, req_cpu: &str, lim_cpu: &str) -> Value {
    json!({"name": name, "image": "i", "resources": {
        "requests": {"cpu": req_cpu, "memory": "1Gi"},
        "limits": {"cpu": lim_cpu, "memory": "1Gi"}}})
}

#[test]
fn get_pod_qos() {
    let bare = json!([{"name": "container1", "image": "i"}]);
    // "guaranteed/burstable/besteffort pod with status": the status wins.
    for class in ["Guaranteed", "Burstable", "BestEffort"] {
        assert_eq!(qos_of(class, bare.clone()), class);
    }
    // "guaranteed pod without status"
    assert_eq!(qos_of("", json!([c("container1", "1", "1")])), "Guaranteed");
    // "guaranteed pod with two containers"
    assert_eq!(
        qos_of(
            "",
            json!([c("container1", "1", "1"), c("container2", "1", "1")])
        ),
        "Guaranteed"
    );
    // "burstable pod without status"
    assert_eq!(
        qos_of("", json!([c("container1", "100m", "1")])),
        "Burstable"
    );
    // "burstable pod with two containers"
    assert_eq!(
        qos_of(
            "",
            json!([c("container1", "1", "1"), c("container2", "100m", "1")])
        ),
        "Burstable"
    );
    // "besteffort pod without status"
    assert_eq!(qos_of("", bare), "BestEffort");
}
