//! The Node table: `printNode` (STATUS from the Ready condition plus `SchedulingDisabled`,
//! ROLES from `node-role.kubernetes.io/*` and `kubernetes.io/role` labels).

use super::{translate_timestamp_since, PrintOptions};
use crate::api::{Node, Object};
use crate::kubectl::table::Column;
use serde_json::Value;
use std::collections::BTreeSet;

pub const COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Status"),
    Column::std("Roles"),
    Column::std("Age"),
    Column::std("Version"),
    Column::wide("Internal-IP"),
    Column::wide("External-IP"),
    Column::wide("OS-Image"),
    Column::wide("Kernel-Version"),
    Column::wide("Container-Runtime"),
];

const LABEL_NODE_ROLE_PREFIX: &str = "node-role.kubernetes.io/";
const NODE_LABEL_ROLE: &str = "kubernetes.io/role";

pub fn row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    match o {
        Object::Node(n) => node_row(n, opts),
        _ => vec![],
    }
}

/// `findNodeRoles`: sorted, de-duplicated roles.
pub fn find_node_roles(n: &Node) -> Vec<String> {
    let mut roles = BTreeSet::new();
    for (k, v) in &n.metadata.labels {
        if let Some(role) = k.strip_prefix(LABEL_NODE_ROLE_PREFIX) {
            if !role.is_empty() {
                roles.insert(role.to_string());
            }
        } else if k == NODE_LABEL_ROLE && !v.is_empty() {
            roles.insert(v.clone());
        }
    }
    roles.into_iter().collect()
}

/// The STATUS cell: `Ready`, `NotReady`, `Unknown`, with `,SchedulingDisabled` when cordoned.
pub fn node_status(n: &Node) -> String {
    // Upstream builds a map by condition type, so the last Ready condition wins.
    let mut status = vec![];
    if let Some(c) = n
        .status
        .conditions
        .iter()
        .rev()
        .find(|c| c.type_ == "Ready")
    {
        status.push(if c.status == "True" {
            "Ready".to_string()
        } else {
            "NotReady".to_string()
        });
    }
    if status.is_empty() {
        status.push("Unknown".into());
    }
    if n.spec.unschedulable {
        status.push("SchedulingDisabled".into());
    }
    status.join(",")
}

/// A `status.nodeInfo` field (`kubeletVersion`, `osImage`, ...).
pub fn node_info(n: &Node, field: &str) -> String {
    n.status
        .extra
        .get("nodeInfo")
        .and_then(|i| i.get(field))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// `status.addresses` as (type, address) pairs.
pub fn addresses(n: &Node) -> Vec<(String, String)> {
    n.status
        .extra
        .get("addresses")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| {
                    let f = |k: &str| {
                        x.get(k)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string()
                    };
                    (f("type"), f("address"))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn first_address(n: &Node, ty: &str) -> String {
    addresses(n)
        .into_iter()
        .find(|(t, _)| t == ty)
        .map(|(_, a)| a)
        .unwrap_or_else(|| "<none>".into())
}

fn or_unknown(s: String) -> String {
    if s.is_empty() {
        "<unknown>".into()
    } else {
        s
    }
}

fn node_row(n: &Node, opts: &PrintOptions) -> Vec<String> {
    let roles = find_node_roles(n).join(",");
    let mut cells = vec![
        n.metadata.name.clone(),
        node_status(n),
        if roles.is_empty() {
            "<none>".into()
        } else {
            roles
        },
        translate_timestamp_since(n.metadata.creation_timestamp, opts.now),
        node_info(n, "kubeletVersion"),
    ];
    if opts.wide {
        cells.push(first_address(n, "InternalIP"));
        cells.push(first_address(n, "ExternalIP"));
        cells.push(or_unknown(node_info(n, "osImage")));
        cells.push(or_unknown(node_info(n, "kernelVersion")));
        cells.push(or_unknown(node_info(n, "containerRuntimeVersion")));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{NodeCondition, NodeSpec, ObjectMeta};
    use crate::kubectl::printers::testutil::now;

    fn node(name: &str, unschedulable: bool, conds: &[(&str, &str)]) -> Node {
        Node {
            metadata: ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            spec: NodeSpec {
                unschedulable,
                ..Default::default()
            },
            status: crate::api::NodeStatus {
                conditions: conds
                    .iter()
                    .map(|(t, s)| NodeCondition {
                        type_: t.to_string(),
                        status: s.to_string(),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn cells(n: &Node, wide: bool) -> Vec<String> {
        node_row(n, &PrintOptions { wide, now: now() })
    }

    /// Port of TestPrintNodeStatus (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_node_status() {
        let table = [
            (node("foo1", false, &[("Ready", "True")]), "Ready"),
            (
                node("foo2", true, &[("Ready", "True")]),
                "Ready,SchedulingDisabled",
            ),
            (
                node("foo3", false, &[("Ready", "True"), ("Ready", "True")]),
                "Ready",
            ),
            (node("foo4", false, &[("Ready", "False")]), "NotReady"),
            (
                node("foo5", true, &[("Ready", "False")]),
                "NotReady,SchedulingDisabled",
            ),
            (node("foo6", false, &[("InvalidValue", "True")]), "Unknown"),
            (node("foo7", false, &[("", "")]), "Unknown"),
            (
                node("foo8", true, &[("InvalidValue", "True")]),
                "Unknown,SchedulingDisabled",
            ),
            (
                node("foo9", true, &[("", "")]),
                "Unknown,SchedulingDisabled",
            ),
        ];
        for (n, status) in table {
            assert_eq!(
                cells(&n, false),
                [n.metadata.name.as_str(), status, "<none>", "<unknown>", ""]
            );
        }
    }

    /// Port of TestPrintNodeRole (printers_test.go).
    #[test]
    fn print_node_role() {
        let mut n = node("foo10", false, &[]);
        for (k, v) in [
            ("node-role.kubernetes.io/master", ""),
            ("node-role.kubernetes.io/control-plane", ""),
            ("node-role.kubernetes.io/proxy", ""),
            ("kubernetes.io/role", "node"),
        ] {
            n.metadata.labels.insert(k.into(), v.into());
        }
        assert_eq!(
            cells(&n, false),
            [
                "foo10",
                "Unknown",
                "control-plane,master,node,proxy",
                "<unknown>",
                ""
            ]
        );
    }

    /// Port of TestPrintNodeExternalIP / TestPrintNodeInternalIP / TestPrintNodeOSImage
    /// (printers_test.go).
    #[test]
    fn print_node_wide() {
        let mut n = node("foo3", false, &[]);
        n.status.extra.insert(
            "addresses".into(),
            serde_json::json!([
                {"type": "ExternalIP", "address": "2.2.2.2"},
                {"type": "InternalIP", "address": "3.3.3.3"},
                {"type": "ExternalIP", "address": "4.4.4.4"}
            ]),
        );
        assert_eq!(
            cells(&n, true),
            [
                "foo3",
                "Unknown",
                "<none>",
                "<unknown>",
                "",
                "3.3.3.3",
                "2.2.2.2",
                "<unknown>",
                "<unknown>",
                "<unknown>"
            ]
        );
        let mut n = node("foo1", false, &[]);
        n.status.extra.insert(
            "nodeInfo".into(),
            serde_json::json!({"osImage": "fake-os-image", "kubeletVersion": "v1.34.0"}),
        );
        assert_eq!(
            cells(&n, true),
            [
                "foo1",
                "Unknown",
                "<none>",
                "<unknown>",
                "v1.34.0",
                "<none>",
                "<none>",
                "fake-os-image",
                "<unknown>",
                "<unknown>"
            ]
        );
    }

    fn node_info_ext(name: &str, info: serde_json::Value) -> Node {
        let mut n = node(name, false, &[]);
        n.status.extra.insert("nodeInfo".into(), info);
        n.status.extra.insert(
            "addresses".into(),
            serde_json::json!([{"type": "ExternalIP", "address": "1.1.1.1"}]),
        );
        n
    }

    // Upstream: TestPrintNodeKernelVersion (pkg/printers/internalversion/printers_test.go),
    // both rows.
    #[test]
    fn print_node_kernel_version() {
        let n = node_info_ext(
            "foo1",
            serde_json::json!({"kernelVersion": "fake-kernel-version"}),
        );
        assert_eq!(
            cells(&n, true),
            [
                "foo1",
                "Unknown",
                "<none>",
                "<unknown>",
                "",
                "<none>",
                "1.1.1.1",
                "<unknown>",
                "fake-kernel-version",
                "<unknown>"
            ]
        );
        let n = node_info_ext("foo2", serde_json::json!({"osImage": "fake-os-image"}));
        assert_eq!(
            cells(&n, true),
            [
                "foo2",
                "Unknown",
                "<none>",
                "<unknown>",
                "",
                "<none>",
                "1.1.1.1",
                "fake-os-image",
                "<unknown>",
                "<unknown>"
            ]
        );
    }

    // Upstream: TestPrintNodeContainerRuntimeVersion (printers_test.go), both rows.
    #[test]
    fn print_node_container_runtime_version() {
        let n = node_info_ext(
            "foo1",
            serde_json::json!({"containerRuntimeVersion": "foo://1.2.3"}),
        );
        assert_eq!(
            cells(&n, true),
            [
                "foo1",
                "Unknown",
                "<none>",
                "<unknown>",
                "",
                "<none>",
                "1.1.1.1",
                "<unknown>",
                "<unknown>",
                "foo://1.2.3"
            ]
        );
        let n = node_info_ext("foo2", serde_json::json!({}));
        assert_eq!(
            cells(&n, true),
            [
                "foo2",
                "Unknown",
                "<none>",
                "<unknown>",
                "",
                "<none>",
                "1.1.1.1",
                "<unknown>",
                "<unknown>",
                "<unknown>"
            ]
        );
    }

    // Upstream: TestPrintNodeName (printers_test.go), both rows.
    #[test]
    fn print_node_name() {
        for name in ["127.0.0.1", ""] {
            assert_eq!(
                cells(&node(name, false, &[]), false),
                [name, "Unknown", "<none>", "<unknown>", ""]
            );
        }
    }
}
