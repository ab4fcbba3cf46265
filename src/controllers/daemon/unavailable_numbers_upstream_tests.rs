//! `TestGetUnavailableNumbers` (pkg/controller/daemon/update_test.go): the third result of
//! `updatedDesiredNodeCounts`, desiredNumberScheduled, which the row port in tests.rs does not
//! check, plus the error for a malformed maxUnavailable / maxSurge.

use super::daemon_controller::new_pod;
use super::DaemonSetsController;
use crate::api::{DaemonSet, Node, NodeCondition, Pod, Time};
use serde_json::json;
use std::collections::BTreeMap;

fn daemon_set(strategy: serde_json::Value) -> DaemonSet {
    let mut ds: DaemonSet = serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "x", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"name": "simple-daemon", "type": "production"}},
            "template": {
                "metadata": {"labels": {"name": "simple-daemon", "type": "production"}},
                "spec": {"containers": [{"name": "foo-bar", "image": "foo/bar"}]}
            },
            "updateStrategy": strategy
        }
    }))
    .unwrap();
    crate::api::sts_ds_defaults::set_defaults_daemon_set(&mut ds);
    ds
}

fn nodes(n: usize) -> Vec<Node> {
    (0..n)
        .map(|i| {
            let mut node = Node::default();
            node.metadata.name = format!("node-{i}");
            node.status.conditions = vec![NodeCondition {
                type_: "Ready".into(),
                status: "True".into(),
                ..Default::default()
            }];
            node
        })
        .collect()
}

fn unavailable(v: serde_json::Value) -> serde_json::Value {
    json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": v, "maxSurge": 0}})
}

fn surge(v: serde_json::Value) -> serde_json::Value {
    json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": v}})
}

// upstream: TestGetUnavailableNumbers (pkg/controller/daemon/update_test.go), every row with
// (maxSurge, maxUnavailable, desiredNumberScheduled, emptyNodes).
#[test]
fn get_unavailable_numbers_with_desired_number_scheduled() {
    type Row = (
        &'static str,
        usize,
        serde_json::Value,
        Vec<&'static str>,
        (i32, i32, i32),
        usize,
    );
    let rows: Vec<Row> = vec![
        ("No nodes", 0, unavailable(json!(0)), vec![], (0, 0, 0), 0),
        (
            "Two nodes with ready pods",
            2,
            unavailable(json!(1)),
            vec!["node-0", "node-1"],
            (0, 1, 2),
            0,
        ),
        (
            "Two nodes, one node without pods",
            2,
            unavailable(json!(0)),
            vec!["node-0"],
            (0, 1, 2),
            1,
        ),
        (
            "Two nodes, one node without pods, surge",
            2,
            surge(json!(0)),
            vec!["node-0"],
            (0, 1, 2),
            1,
        ),
        (
            "Two nodes with pods, MaxUnavailable in percents",
            2,
            unavailable(json!("50%")),
            vec!["node-0", "node-1"],
            (0, 1, 2),
            0,
        ),
        (
            "Two nodes with pods, MaxUnavailable in percents, surge",
            2,
            surge(json!("50%")),
            vec!["node-0", "node-1"],
            (1, 0, 2),
            0,
        ),
        (
            "Two nodes with pods, MaxUnavailable is 100%, surge",
            2,
            surge(json!("100%")),
            vec!["node-0", "node-1"],
            (2, 0, 2),
            0,
        ),
        (
            "Two nodes with pods, MaxUnavailable in percents, pod terminating",
            3,
            unavailable(json!("50%")),
            vec!["node-0", "node-1"],
            (0, 2, 3),
            1,
        ),
    ];
    let t0 = Time::from_unix_secs(1_735_689_600);
    for (name, n, strategy, pods_on, want, empty) in rows {
        let ds = daemon_set(strategy);
        let mut map: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
        for (i, node) in pods_on.iter().enumerate() {
            let mut p = new_pod(&ds, node);
            p.metadata.name = format!("pod-{i}");
            p.set_condition("Ready", "True", "", "", t0);
            if name.ends_with("pod terminating") && i == 1 {
                p.metadata.deletion_timestamp = Some(t0);
            }
            map.insert(node.to_string(), vec![p]);
        }
        let got = DaemonSetsController::updated_desired_node_counts(&ds, &nodes(n), &mut map)
            .expect(name);
        assert_eq!(got, want, "{name}");
        assert_eq!(
            map.values().filter(|p| p.is_empty()).count(),
            empty,
            "{name}"
        );
    }
}
