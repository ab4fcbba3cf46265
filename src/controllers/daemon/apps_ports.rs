//! DaemonSet behaviour checked against upstream source (pkg/controller/daemon/update.go).

use super::daemon_controller::DaemonSetsController;
use crate::api::{DaemonSet, Node, Pod, Time};
use std::collections::BTreeMap;

const HASH_LABEL: &str = "controller-revision-hash";

fn node(name: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n
}

fn surge_daemon_set() -> DaemonSet {
    let mut ds = DaemonSet::default();
    ds.metadata.name = "ds".into();
    ds.metadata.namespace = "default".into();
    ds.spec.update_strategy.type_ = "RollingUpdate".into();
    ds.spec.update_strategy.rolling_update = Some(
        serde_json::from_value(serde_json::json!({"maxSurge": 1, "maxUnavailable": 0})).unwrap(),
    );
    ds
}

fn pod(node: &str, hash: &str, available: bool, now: Time) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = format!("{node}-{hash}");
    p.metadata.namespace = "default".into();
    p.metadata.labels.insert(HASH_LABEL.into(), hash.into());
    p.spec_mut().node_name = node.into();
    p.status.phase = "Running".into();
    if available {
        p.set_condition(
            "Ready",
            "True",
            "",
            "",
            now - crate::api::Duration::from_secs(60),
        );
    }
    p
}

// upstream rollingUpdate (update.go), surge branch: for a node holding only an old pod, the
// controller looks the node up with dsc.nodeLister.Get and returns
// `couldn't get node for nodeName %q: %v` when it is gone — the whole pass stops, nothing is
// created or deleted (until pod GC removes the orphaned pod). Without surge no lookup happens.
#[test]
fn surge_rolling_update_fails_on_a_pod_of_a_vanished_node() {
    let now = Time::from_unix_secs(1_700_000_000);
    let ds = surge_daemon_set();
    let nodes = vec![node("node-0")];
    for old_available in [true, false] {
        let mut map: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
        map.insert("node-0".into(), vec![pod("node-0", "old", true, now)]);
        map.insert(
            "node-9".into(),
            vec![pod("node-9", "old", old_available, now)],
        );
        let err = DaemonSetsController::plan_rolling_update(&ds, &nodes, &map, "new", 1, 0, 1, now)
            .unwrap_err();
        assert_eq!(
            err, "couldn't get node for nodeName \"node-9\": node \"node-9\" not found",
            "old pod available: {old_available}"
        );
        // maxSurge 0: the no-surge branch never looks nodes up.
        let plan =
            DaemonSetsController::plan_rolling_update(&ds, &nodes, &map, "new", 0, 1, 1, now)
                .unwrap();
        if old_available {
            assert_eq!(plan.pods_to_delete, ["node-0-old"]);
        } else {
            assert_eq!(plan.pods_to_delete, ["node-9-old"]);
        }
    }
    // A vanished node holding only an up-to-date pod needs no lookup either.
    let mut map: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
    map.insert("node-0".into(), vec![pod("node-0", "old", true, now)]);
    map.insert("node-9".into(), vec![pod("node-9", "new", true, now)]);
    let plan =
        DaemonSetsController::plan_rolling_update(&ds, &nodes, &map, "new", 1, 0, 1, now).unwrap();
    assert_eq!(plan.nodes_to_create, ["node-0"]);
    assert!(plan.pods_to_delete.is_empty());
}
