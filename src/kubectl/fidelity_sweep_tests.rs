//! Upstream-fidelity sweep of kubectl output: ports of tables not yet cited elsewhere.

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

fn put(sim: &mut Simulation, v: Value) {
    let o = Object::from_value(v).unwrap();
    sim.api.store.put(o);
}

fn node_with_pod(sim: &mut Simulation, pod_spec: Value) -> String {
    put(
        sim,
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "bar", "uid": "uid"},
            "status": {"capacity": {"cpu": "8", "memory": "24Gi"},
                "allocatable": {"cpu": "4", "memory": "12Gi"}}}),
    );
    let mut spec = pod_spec;
    spec["nodeName"] = json!("bar");
    put(
        sim,
        json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "pod-with-pod-level-resources", "namespace": "foo"},
            "spec": spec, "status": {"phase": "Running"}}),
    );
    execute(sim, "describe node bar").unwrap()
}

// upstream: TestDescribeNodeWithPodLevelResources (staging/src/k8s.io/kubectl/pkg/describe/
// describe_test.go): pod-level requests/limits (cpu 2/4, memory 4Gi/8Gi) replace the
// containers' aggregate (`resourcehelper.PodRequests`/`PodLimits` with
// SkipPodLevelResources false) in the per-pod row and in "Allocated resources".
#[test]
fn describe_node_with_pod_level_resources() {
    let mut sim = sim();
    let out = node_with_pod(
        &mut sim,
        json!({"resources": {"requests": {"cpu": "2", "memory": "4Gi"},
                "limits": {"cpu": "4", "memory": "8Gi"}},
            "containers": [{"name": "container-1", "image": "image:latest"},
                {"name": "container-2", "image": "image:latest"}]}),
    );
    assert!(
        out.contains(
            "pod-with-pod-level-resources    2 (50%)       4 (100%)    4Gi (33%)        8Gi (66%)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests   Limits
  --------           --------   ------
  cpu                2 (50%)    4 (100%)
  memory             4Gi (33%)  8Gi (66%)
  ephemeral-storage  0 (0%)     0 (0%)"
        ),
        "{out}"
    );
}

// upstream: AggregateContainerRequests (k8s.io/component-helpers/resource/helpers.go), as
// TestPodResourceRequests' "restartable init container" rows compute it: a regular init
// container runs alongside the sidecars started before it, so its request counts together
// with theirs (sidecar 1 + init 2 = 3 > sidecar 1 + container 1 = 2).
#[test]
fn describe_node_init_container_counts_earlier_sidecars() {
    let mut sim = sim();
    let res = |cpu: &str| json!({"requests": {"cpu": cpu}, "limits": {"cpu": cpu}});
    let out = node_with_pod(
        &mut sim,
        json!({"initContainers": [
                {"name": "sidecar", "image": "i", "restartPolicy": "Always", "resources": res("1")},
                {"name": "init", "image": "i", "resources": res("2")}],
            "containers": [{"name": "c", "image": "i", "resources": res("1")}]}),
    );
    let allocated = out.split("Allocated resources:").nth(1).unwrap_or_default();
    let cpu = allocated
        .lines()
        .find(|l| l.trim_start().starts_with("cpu "))
        .unwrap_or_default();
    assert_eq!(
        cpu.split_whitespace().collect::<Vec<_>>(),
        ["cpu", "3", "(75%)", "3", "(75%)"],
        "{out}"
    );
}

// upstream: TestGetValidateLabelColumnsWithCustomColumns (staging/src/k8s.io/kubectl/pkg/cmd/
// get/get_test.go), and the --show-labels check of the same `GetOptions.Validate`, which names
// the whole --output value.
#[test]
fn get_validate_label_columns_with_custom_columns() {
    let mut sim = sim();
    let err = execute(
        &mut sim,
        "get pods -L app -o custom-columns=NAME:.metadata.name",
    )
    .unwrap_err();
    assert!(
        err.contains("--label-columns option cannot be used"),
        "{err}"
    );
    assert_eq!(
        err,
        "error: --label-columns option cannot be used with custom-columns=NAME:.metadata.name printer"
    );
    // -L with wide output is fine.
    assert!(execute(&mut sim, "get pods -L app -o wide").is_ok());
    assert_eq!(
        execute(&mut sim, "get pods --show-labels -o jsonpath={.items}").unwrap_err(),
        "error: --show-labels option cannot be used with jsonpath={.items} printer"
    );
}
