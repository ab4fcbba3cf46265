//! Rows of the Node printer tests (pkg/printers/internalversion/printers_test.go) that the
//! earlier ports left out.

use super::node::row;
use super::testutil::now;
use super::PrintOptions;
use crate::api::Object;
use serde_json::{json, Value};

fn node(name: &str, labels: Value, status: Value) -> Object {
    Object::from_value(json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "status": status,
    }))
    .unwrap()
}

fn cells(o: &Object, wide: bool) -> Vec<String> {
    row(o, &PrintOptions { wide, now: now() })
}

fn wide_row(name: &str, internal: &str, external: &str, os: &str, kernel: &str) -> Vec<String> {
    [
        name,
        "Unknown",
        "<none>",
        "<unknown>",
        "",
        internal,
        external,
        os,
        kernel,
        "<unknown>",
    ]
    .map(String::from)
    .to_vec()
}

fn addr(ty: &str, a: &str) -> Value {
    json!({"type": ty, "address": a})
}

// upstream: TestPrintNodeRole (printers_test.go), rows foo9 (no labels) and foo11 (only the
// legacy kubernetes.io/role label).
#[test]
fn print_node_role_rows() {
    let n = node("foo9", json!({}), json!({}));
    assert_eq!(
        cells(&n, false),
        ["foo9", "Unknown", "<none>", "<unknown>", ""]
    );
    let n = node("foo11", json!({"kubernetes.io/role": "node"}), json!({}));
    assert_eq!(
        cells(&n, false),
        ["foo11", "Unknown", "node", "<unknown>", ""]
    );
}

// upstream: TestPrintNodeExternalIP (printers_test.go), rows foo1 and foo2.
#[test]
fn print_node_external_ip_rows() {
    let n = node(
        "foo1",
        json!({}),
        json!({"addresses": [addr("ExternalIP", "1.1.1.1")]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row("foo1", "<none>", "1.1.1.1", "<unknown>", "<unknown>")
    );
    let n = node(
        "foo2",
        json!({}),
        json!({"addresses": [addr("InternalIP", "1.1.1.1")]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row("foo2", "1.1.1.1", "<none>", "<unknown>", "<unknown>")
    );
}

// upstream: TestPrintNodeInternalIP (printers_test.go), all three rows: the first address of
// each type wins.
#[test]
fn print_node_internal_ip_rows() {
    let n = node(
        "foo1",
        json!({}),
        json!({"addresses": [addr("InternalIP", "1.1.1.1")]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row("foo1", "1.1.1.1", "<none>", "<unknown>", "<unknown>")
    );
    let n = node(
        "foo2",
        json!({}),
        json!({"addresses": [addr("ExternalIP", "1.1.1.1")]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row("foo2", "<none>", "1.1.1.1", "<unknown>", "<unknown>")
    );
    let n = node(
        "foo3",
        json!({}),
        json!({"addresses": [
            addr("InternalIP", "2.2.2.2"),
            addr("ExternalIP", "3.3.3.3"),
            addr("InternalIP", "4.4.4.4"),
        ]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row("foo3", "2.2.2.2", "3.3.3.3", "<unknown>", "<unknown>")
    );
}

// upstream: TestPrintNodeOSImage (printers_test.go), both rows as written upstream (an external
// address, no kubeletVersion).
#[test]
fn print_node_os_image_rows() {
    let n = node(
        "foo1",
        json!({}),
        json!({"nodeInfo": {"osImage": "fake-os-image"},
            "addresses": [addr("ExternalIP", "1.1.1.1")]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row("foo1", "<none>", "1.1.1.1", "fake-os-image", "<unknown>")
    );
    let n = node(
        "foo2",
        json!({}),
        json!({"nodeInfo": {"kernelVersion": "fake-kernel-version"},
            "addresses": [addr("ExternalIP", "1.1.1.1")]}),
    );
    assert_eq!(
        cells(&n, true),
        wide_row(
            "foo2",
            "<none>",
            "1.1.1.1",
            "<unknown>",
            "fake-kernel-version"
        )
    );
}
