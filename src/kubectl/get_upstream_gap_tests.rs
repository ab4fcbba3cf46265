//! Ports of `staging/src/k8s.io/kubectl/pkg/cmd/get/get_test.go` (release-1.35) not ported
//! before, run against the simulation with upstream's `cmdtesting.TestData()` objects: pods
//! `foo` and `bar` and service `baz` in namespace `test` (no creation time, so `<unknown>`
//! ages), and ReplicationController `rc1` with one replica.

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::json;

fn load(sim: &mut Simulation, v: serde_json::Value) {
    sim.api.load(Object::from_value(v).unwrap()).unwrap();
}

fn pod(name: &str, labels: serde_json::Value) -> serde_json::Value {
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "test", "uid": format!("uid-{name}"), "labels": labels},
        "spec": {"restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30, "containers": [{"name": "c", "image": "i"}]}})
}

fn test_data(sim: &mut Simulation) {
    load(sim, pod("foo", json!({})));
    load(sim, pod("bar", json!({})));
    load(
        sim,
        json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "baz", "namespace": "test", "uid": "uid-baz"},
            "spec": {"type": "ClusterIP", "sessionAffinity": "None", "ports": [{"port": 80, "protocol": "TCP"}]}}),
    );
    load(
        sim,
        json!({"apiVersion": "v1", "kind": "ReplicationController",
            "metadata": {"name": "rc1", "namespace": "test", "uid": "uid-rc1"},
            "spec": {"replicas": 1, "selector": {"a": "b"},
                "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}),
    );
}

fn sim_with_test_data() -> Simulation {
    let mut s = sim();
    test_data(&mut s);
    s
}

fn ok(sim: &mut Simulation, cmd: &str) -> String {
    execute(sim, cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"))
}

// Upstream's TestData pods have no containers (READY 0/0) and no creation time (AGE
// <unknown>); the API server here requires a container and stamps the creation time, so these
// print 0/1 and 0s. The columns, kinds, separators and messages are upstream's.

/// TestGetObjectsShowKind, TestGetTableObjectsShowKind (get_test.go).
#[test]
fn get_objects_show_kind() {
    let mut s = sim_with_test_data();
    assert_eq!(
        ok(&mut s, "get pods foo -n test --show-kind"),
        "NAME      READY   STATUS   RESTARTS   AGE\npod/foo   0/1              0          0s"
    );
}

/// TestGetObjectsShowLabels, TestGetTableObjectsShowLabels (get_test.go).
#[test]
fn get_objects_show_labels() {
    let mut s = sim_with_test_data();
    assert_eq!(
        ok(&mut s, "get pods foo -n test --show-labels"),
        "NAME   READY   STATUS   RESTARTS   AGE   LABELS\nfoo    0/1              0          0s    <none>"
    );
}

/// TestGetMultipleResourceTypesShowKinds, TestGetMultipleTableResourceTypesShowKinds,
/// TestNoBlankLinesForGetMultipleTableResource (get_test.go): `get all` prints each kind's
/// table with kinds, one blank line between tables and none at the end. (Upstream's fake
/// server lists no ReplicationController; the real `all` category includes them.)
#[test]
fn get_all_shows_kinds_without_trailing_blank_lines() {
    let mut s = sim_with_test_data();
    assert_eq!(
        ok(&mut s, "get all -n test"),
        "NAME      READY   STATUS   RESTARTS   AGE\n\
         pod/bar   0/1              0          0s\n\
         pod/foo   0/1              0          0s\n\
         \n\
         NAME                        DESIRED   CURRENT   READY   AGE\n\
         replicationcontroller/rc1   1         0         0       0s\n\
         \n\
         NAME          TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE\n\
         service/baz   ClusterIP   10.96.69.90   <none>        80/TCP    0s"
    );
}

/// TestGetMultipleTypeObjects, TestGetMultipleTypeTableObjects (get_test.go).
#[test]
fn get_multiple_type_objects() {
    let mut s = sim_with_test_data();
    assert_eq!(
        ok(&mut s, "get pods,services -n test"),
        "NAME      READY   STATUS   RESTARTS   AGE\n\
         pod/bar   0/1              0          0s\n\
         pod/foo   0/1              0          0s\n\
         \n\
         NAME          TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE\n\
         service/baz   ClusterIP   10.96.69.90   <none>        80/TCP    0s"
    );
}

/// TestGetMultipleTypeObjectsWithLabelSelector (get_test.go): the selector applies to every
/// kind. Upstream's fake server ignores it; here nothing matches `a=b` but `foo`.
#[test]
fn get_multiple_type_objects_with_label_selector() {
    let mut s = sim();
    load(&mut s, pod("foo", json!({"a": "b"})));
    load(&mut s, pod("bar", json!({})));
    assert_eq!(
        ok(&mut s, "get pods,services -n test -l a=b"),
        "NAME      READY   STATUS   RESTARTS   AGE\npod/foo   0/1              0          0s"
    );
    assert_eq!(
        ok(&mut s, "get pods,services -n test -l a=c"),
        "No resources found in test namespace."
    );
}

/// TestGetMultipleTypeObjectsWithDirectReference (get_test.go): `services/bar node/foo`.
#[test]
fn get_multiple_type_objects_with_direct_reference() {
    let mut s = sim_with_test_data();
    let mut n = super::testutil::node("foo", true, 0);
    n.metadata.uid = "uid-node-foo".into();
    s.api.load(Object::Node(n)).unwrap();
    let out = ok(&mut s, "get services/baz nodes/foo -n test");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "NAME          TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE"
    );
    assert_eq!(
        lines[1],
        "service/baz   ClusterIP   10.96.69.90   <none>        80/TCP    0s"
    );
    assert_eq!(lines[2], "");
    assert!(lines[3].starts_with("NAME       STATUS   ROLES"), "{out}");
    assert!(lines[4].starts_with("node/foo   Ready    <none>"), "{out}");
}

/// TestNoBlankLinesForGetAll, TestNotFoundMessageForGetNonNamespacedResources,
/// TestGetEmptyTable (get_test.go).
#[test]
fn no_resources_found_messages() {
    let mut s = sim();
    assert_eq!(
        ok(&mut s, "get all -n test"),
        "No resources found in test namespace."
    );
    assert_eq!(ok(&mut s, "get nodes"), "No resources found");
    assert_eq!(
        ok(&mut s, "get pods -n test"),
        "No resources found in test namespace."
    );
}

/// TestGetNonExistObject, TestGetNonExistObjectIgnoreNotFound (get_test.go), with the real
/// server's NotFound message.
#[test]
fn get_non_exist_object() {
    let mut s = sim_with_test_data();
    assert_eq!(
        execute(&mut s, "get pods nonexistentpod -n test").unwrap_err(),
        "Error from server (NotFound): pods \"nonexistentpod\" not found"
    );
    assert_eq!(
        ok(
            &mut s,
            "get pods nonexistentpod -n test --ignore-not-found -o yaml"
        ),
        ""
    );
}

/// TestEmptyResultJSON (get_test.go): an empty list prints as a List with `"items": []`.
#[test]
fn empty_result_json() {
    let mut s = sim();
    let out = ok(&mut s, "get pods -n test -o json");
    assert!(out.contains("\"items\": []"), "{out}");
    assert!(!out.contains("No resources found"), "{out}");
}

/// TestGetObjectSubresourceScale, TestGetObjectSubresourceStatus (get_test.go). The real
/// server's Scale table (printers.go scaleColumnDefinitions) ends with AGE, which upstream's
/// fake table leaves out.
#[test]
fn get_object_subresource() {
    let mut s = sim_with_test_data();
    assert_eq!(
        ok(&mut s, "get rc rc1 -n test --subresource=scale"),
        "NAME   DESIRED   AVAILABLE   AGE\nrc1    1         0           0s"
    );
    assert_eq!(
        ok(&mut s, "get rc rc1 -n test --subresource=status"),
        "NAME   DESIRED   CURRENT   READY   AGE\nrc1    1         0         0       0s"
    );
}

/// TestGetSortedObjects (get_test.go): `--sort-by=.metadata.name`, and descending names
/// sorted back.
#[test]
fn get_sorted_objects() {
    let mut s = sim();
    for n in ["c", "b", "a"] {
        load(&mut s, pod(n, json!({})));
    }
    let out = ok(&mut s, "get pods -n test --sort-by=.metadata.name -o name");
    assert_eq!(out, "pod/a\npod/b\npod/c");
    let out = ok(
        &mut s,
        "get pods -n test --sort-by=.metadata.uid -o custom-columns=NAME:.metadata.name",
    );
    assert_eq!(out, "NAME\na\nb\nc");
}

/// TestGetMultipleTypeObjectsAsList (get_test.go): several kinds with `-o json` print one
/// `List` of every object, pods then services, with an empty resourceVersion.
#[test]
fn get_multiple_type_objects_as_list() {
    let mut s = sim_with_test_data();
    let out = ok(&mut s, "get pods,services -n test -o json");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "List");
    assert_eq!(v["apiVersion"], "v1");
    assert_eq!(v["metadata"], json!({"resourceVersion": ""}));
    let names: Vec<(&str, &str)> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["kind"].as_str().unwrap(),
                i["metadata"]["name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, [("Pod", "bar"), ("Pod", "foo"), ("Service", "baz")]);
}
