//! Ports of the queueing-hint tables of
//! `pkg/scheduler/framework/plugins/podtopologyspread/plugin_test.go`, all rows, against
//! [`is_schedulable_after_node_change`] / [`is_schedulable_after_pod_change`] (`true` is
//! `Queue`, `false` `QueueSkip`). `fooSelector` / `barSelector` are `<key> Exists` selectors.
use super::*;
use crate::api::{Node, Pod, Taint, Toleration};
use serde_json::{json, Value};

/// `st.MakeNode().Name("node-a").Label(k, v)…` with optional NoSchedule taints `key=value`.
fn node(labels: &[(&str, &str)], taints: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = "node-a".into();
    for (k, v) in labels {
        n.metadata.labels.insert(k.to_string(), v.to_string());
    }
    for (k, v) in taints {
        n.spec.taints.push(Taint {
            key: k.to_string(),
            value: v.to_string(),
            effect: "NoSchedule".into(),
            time_added: None,
        });
    }
    n
}

/// `st.MakePod().UID(uid).Node(node).Label(k, v)…`.
fn pod(uid: &str, node: &str, labels: &[(&str, &str)]) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = uid.into();
    p.metadata.namespace = "default".into();
    p.metadata.uid = uid.into();
    p.spec_mut().node_name = node.into();
    for (k, v) in labels {
        p.metadata.labels.insert(k.to_string(), v.to_string());
    }
    p
}

/// `SpreadConstraint(1, key, DoNotSchedule, <sel> Exists, nil, nil, nodeTaintsPolicy, nil)`.
fn hard(key: &str, sel: &str, taints_policy: Option<&str>) -> Value {
    let mut c = json!({"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchExpressions": [{"key": sel, "operator": "Exists"}]}});
    if let Some(p) = taints_policy {
        c["nodeTaintsPolicy"] = json!(p);
    }
    c
}

/// The pod `p` (label `foo`) with the given constraints.
fn target(labels: &[(&str, &str)], constraints: Vec<Value>) -> Pod {
    let mut p = pod("p", "", labels);
    p.spec_mut().extra.insert(
        "topologySpreadConstraints".into(),
        Value::Array(constraints),
    );
    p
}

// upstream: Test_isSchedulableAfterNodeChange
// (pkg/scheduler/framework/plugins/podtopologyspread/plugin_test.go), all 13 rows.
#[test]
fn is_schedulable_after_node_change_rows() {
    let zone = || target(&[], vec![hard("zone", "foo", None)]);
    let zone_node = || {
        target(
            &[],
            vec![hard("zone", "foo", None), hard("node", "foo", None)],
        )
    };
    let n = |labels: &[(&str, &str)]| Some(node(labels, &[]));
    type Row = (&'static str, Pod, Option<Node>, Option<Node>, bool);
    let rows: Vec<Row> =
        vec![
        (
            "node updates label which matches topologyKey",
            zone(),
            n(&[("zone", "zone1")]),
            n(&[("zone", "zone2")]),
            true,
        ),
        (
            "node that doesn't match topologySpreadConstraints updates non-related label",
            zone(),
            n(&[("foo", "bar1")]),
            n(&[("foo", "bar2")]),
            false,
        ),
        (
            "node that match topologySpreadConstraints adds non-related label",
            zone_node(),
            n(&[("zone", "zone1"), ("node", "node1"), ("foo", "bar")]),
            n(&[("zone", "zone1"), ("node", "node1")]),
            false,
        ),
        (
            "create node with non-related labels",
            zone(),
            None,
            n(&[("foo", "bar")]),
            false,
        ),
        (
            "create node with related labels",
            zone(),
            None,
            n(&[("zone", "zone1")]),
            true,
        ),
        (
            "delete node with non-related labels",
            zone(),
            n(&[("foo", "bar")]),
            None,
            false,
        ),
        (
            "delete node with related labels",
            zone(),
            n(&[("zone", "zone1")]),
            None,
            true,
        ),
        (
            "add node with related labels that only match one of topologySpreadConstraints",
            zone_node(),
            None,
            n(&[("zone", "zone1")]),
            false,
        ),
        (
            "add node with related labels that match all topologySpreadConstraints",
            zone_node(),
            None,
            n(&[("zone", "zone1"), ("node", "node1")]),
            true,
        ),
        (
            "update node with related labels that only match one of topologySpreadConstraints",
            zone_node(),
            n(&[("zone", "zone1")]),
            n(&[("zone", "zone1")]),
            false,
        ),
        (
            "update node with related labels that match all topologySpreadConstraints",
            zone_node(),
            n(&[("zone", "zone1"), ("node", "node1")]),
            n(&[("zone", "zone1"), ("node", "node2")]),
            true,
        ),
        (
            "update node with different taints that match all topologySpreadConstraints",
            zone_node(),
            Some(node(&[("zone", "zone1"), ("node", "node1")], &[("aaa", "bbb")])),
            Some(node(&[("zone", "zone1"), ("node", "node1")], &[("ccc", "bbb")])),
            true,
        ),
        (
            "update node with different taints that only match one of topologySpreadConstraints",
            zone_node(),
            Some(node(&[("node", "node1")], &[("aaa", "bbb")])),
            Some(node(&[("node", "node1")], &[("ccc", "bbb")])),
            false,
        ),
    ];
    for (name, p, old, new, want) in rows {
        assert_eq!(
            is_schedulable_after_node_change(&p, old.as_ref(), new.as_ref()),
            want,
            "{name}"
        );
    }
}

// upstream: Test_isSchedulableAfterPodChange
// (pkg/scheduler/framework/plugins/podtopologyspread/plugin_test.go), all 20 rows. The
// enableNodeInclusionPolicyInPodTopologySpread switch of two rows is not modelled: the gate is
// GA and always on in kubeplay (the row with it off has policy Ignore, so it does not matter).
#[test]
fn is_schedulable_after_pod_change_rows() {
    let foo = &[("foo", "")][..];
    let one = || target(foo, vec![hard("zone", "foo", None)]);
    let two = |policy: Option<&str>| {
        target(
            foo,
            vec![hard("zone", "foo", policy), hard("node", "bar", None)],
        )
    };
    let on = |labels: &[(&str, &str)]| Some(pod("p2", "fake-node", labels));
    let off = |labels: &[(&str, &str)]| Some(pod("p2", "", labels));
    let mut other_ns = pod("p2", "fake-node", foo);
    other_ns.metadata.namespace = "fake-namespace".into();
    let own = |labels: &[(&str, &str)]| Some(pod("p", "", labels));
    let mut tolerating = pod("p", "", foo);
    tolerating.spec_mut().tolerations = vec![Toleration {
        key: "node.kubernetes.io/unschedulable".into(),
        operator: "Exists".into(),
        effect: "NoSchedule".into(),
        ..Default::default()
    }];
    type Row = (&'static str, Pod, Option<Pod>, Option<Pod>, bool);
    let rows: Vec<Row> = vec![
        (
            "add pod with labels match topologySpreadConstraints selector",
            one(),
            None,
            on(foo),
            true,
        ),
        ("add un-scheduled pod", one(), None, off(foo), false),
        (
            "update un-scheduled pod",
            one(),
            off(&[("bar", "")]),
            off(foo),
            false,
        ),
        ("delete un-scheduled pod", one(), off(foo), None, false),
        (
            "add pod with different namespace",
            one(),
            None,
            Some(other_ns),
            false,
        ),
        (
            "add pod with labels don't match topologySpreadConstraints selector",
            one(),
            None,
            on(&[("bar", "")]),
            false,
        ),
        (
            "delete pod with labels that match topologySpreadConstraints selector",
            one(),
            on(foo),
            None,
            true,
        ),
        (
            "delete pod with labels that don't match topologySpreadConstraints selector",
            one(),
            on(&[("bar", "")]),
            None,
            false,
        ),
        (
            "update pod's non-related label",
            one(),
            on(&[("foo", ""), ("bar", "bar1")]),
            on(&[("foo", ""), ("bar", "bar2")]),
            false,
        ),
        (
            "add pod's label that matches topologySpreadConstraints selector",
            one(),
            on(&[]),
            on(foo),
            true,
        ),
        (
            "delete pod label that matches topologySpreadConstraints selector",
            one(),
            on(foo),
            on(&[]),
            true,
        ),
        (
            "change pod's label that matches topologySpreadConstraints selector",
            one(),
            on(&[("foo", "foo1")]),
            on(&[("foo", "foo2")]),
            false,
        ),
        (
            "change pod's label that doesn't match topologySpreadConstraints selector",
            one(),
            on(&[("foo", ""), ("bar", "bar1")]),
            on(&[("foo", ""), ("bar", "bar2")]),
            false,
        ),
        (
            "add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints",
            two(None),
            on(foo),
            on(&[("foo", ""), ("bar", "bar2")]),
            true,
        ),
        (
            "change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints",
            two(None),
            on(foo),
            on(&[("foo", ""), ("baz", "")]),
            false,
        ),
        (
            "change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints",
            two(None),
            on(&[("foo", ""), ("bar", "")]),
            on(&[("foo", ""), ("bar", "bar2")]),
            false,
        ),
        (
            "the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new toleration",
            two(Some("Honor")),
            own(foo),
            Some(tolerating.clone()),
            true,
        ),
        (
            "the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new toleration",
            two(Some("Ignore")),
            own(foo),
            Some(tolerating),
            false,
        ),
        (
            "the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of the constraint",
            two(Some("Ignore")),
            own(&[]),
            own(foo),
            true,
        ),
        (
            "the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label",
            two(Some("Ignore")),
            own(&[]),
            own(&[("unrelated", "")]),
            false,
        ),
    ];
    for (name, p, old, new, want) in rows {
        assert_eq!(
            is_schedulable_after_pod_change(&p, old.as_ref(), new.as_ref()),
            want,
            "{name}"
        );
    }
}
