//! Ports of `staging/src/k8s.io/kubectl/pkg/cmd/get/sorter_test.go` (release-1.35):
//! TestSortingPrinter and TestRuntimeSortLess, through `kubectl get --sort-by` and
//! `jsonpath::sort_cmp`.

use super::execute;
use super::jsonpath::{eval, relaxed_path, sort_cmp};
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};
use std::cmp::Ordering;

/// `createPodSpecResource`: one container with the given requests (empty strings left out).
fn pod(name: &str, mem_req: &str, cpu_req: &str) -> Value {
    let mut requests = serde_json::Map::new();
    if !mem_req.is_empty() {
        requests.insert("memory".into(), json!(mem_req));
    }
    if !cpu_req.is_empty() {
        requests.insert("cpu".into(), json!(cpu_req));
    }
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}")},
        "spec": {"containers": [{"name": "c", "image": "i", "resources": {"requests": requests}}]}})
}

fn load(sim: &mut Simulation, v: Value) {
    sim.api.load(Object::from_value(v).unwrap()).unwrap();
}

fn names(sim: &mut Simulation, field: &str) -> String {
    execute(sim, &format!("get pods --sort-by={field} -o name")).unwrap()
}

/// TestSortingPrinter "pod-resources-cpu-random-order-with-missing-fields" and its
/// unstructured twin: `[]` is the first container, quantities compare as quantities and the
/// pod without the field sorts first.
#[test]
fn sorting_printer_cpu_quantities() {
    let mut s = sim();
    for (n, cpu) in [("p1", "0.5"), ("p2", "10"), ("p3", "100m"), ("p4", "")] {
        load(&mut s, pod(n, "", cpu));
    }
    assert_eq!(
        names(&mut s, "{.spec.containers[].resources.requests.cpu}"),
        "pod/p4\npod/p3\npod/p1\npod/p2"
    );
}

/// TestSortingPrinter "pod-resources-memory-random-order-with-missing-fields".
#[test]
fn sorting_printer_memory_quantities() {
    let mut s = sim();
    for (n, mem) in [
        ("m1", "128Mi"),
        ("m2", "10Ei"),
        ("m3", "8Ti"),
        ("m4", "64Gi"),
        ("m5", "55Pi"),
        ("m6", "2Ki"),
        ("m7", ""),
    ] {
        load(&mut s, pod(n, mem, ""));
    }
    assert_eq!(
        names(&mut s, "{.spec.containers[].resources.requests.memory}"),
        "pod/m7\npod/m6\npod/m1\npod/m4\npod/m3\npod/m5\npod/m2"
    );
}

/// TestSortingPrinter "in-order-already", "reverse-order", "all-missing-fields" and
/// "model-invalid-fields".
#[test]
fn sorting_printer_names_and_missing_fields() {
    let mut s = sim();
    for n in ["c", "b", "a"] {
        load(&mut s, pod(n, "", ""));
    }
    assert_eq!(names(&mut s, "{.metadata.name}"), "pod/a\npod/b\npod/c");
    assert_eq!(
        execute(&mut s, "get pods --sort-by={.status.availableReplicas}").unwrap_err(),
        "error: couldn't find any field with path \"{.status.availableReplicas}\" in the list of objects"
    );
    assert_eq!(
        execute(&mut s, "get pods --sort-by=.invalid").unwrap_err(),
        "error: couldn't find any field with path \"{.invalid}\" in the list of objects"
    );
}

/// TestSortingPrinter "some-missing-fields", "random-order-numbers" and "empty fields": items
/// without the field first, numbers numerically.
#[test]
fn sorting_printer_some_missing_fields() {
    let items = [
        json!({"status": {"availableReplicas": 2}}),
        json!({"status": {}}),
        json!({"status": {"availableReplicas": 1}}),
    ];
    let path = relaxed_path("{.status.availableReplicas}").unwrap();
    let mut keyed: Vec<(Option<Value>, usize)> = items
        .iter()
        .enumerate()
        .map(|(i, v)| (eval(&path, v).first().map(|x| (*x).clone()), i))
        .collect();
    keyed.sort_by(|a, b| sort_cmp(a.0.as_ref(), b.0.as_ref()));
    let order: Vec<usize> = keyed.iter().map(|k| k.1).collect();
    assert_eq!(order, [1, 2, 0]);
    assert_eq!(
        sort_cmp(Some(&json!(5)), Some(&json!(10))),
        Ordering::Less,
        "random-order-numbers"
    );
    assert_eq!(
        sort_cmp(None, Some(&json!("1970-01-01T00:05:00Z"))),
        Ordering::Less,
        "empty fields"
    );
}

/// TestRuntimeSortLess (sorter_test.go).
#[test]
fn runtime_sort_less() {
    let less = |a: &str, b: &str| sort_cmp(Some(&json!(a)), Some(&json!(b))) == Ordering::Less;
    // name
    assert!(less("b", "c"));
    assert!(!less("c", "a"));
    assert!(!less("b", "a"));
    // cpu: 0.5 < 2, 2 > 10m, 0.5 > 10m
    assert!(less("0.5", "2"));
    assert!(!less("2", "10m"));
    assert!(!less("0.5", "10m"));
    // memory: 1Gi < 1Ti, 1Ti > 1Ki, 1Gi > 1Ki
    assert!(less("1Gi", "1Ti"));
    assert!(!less("1Ti", "1Ki"));
    assert!(!less("1Gi", "1Ki"));
}
