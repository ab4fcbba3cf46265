//! Audit of the node lifecycle controller's `tryUpdateNodeHealth` boundary cases
//! (pkg/controller/nodelifecycle/node_lifecycle_controller.go) beyond the ported tables, on the
//! harness of the upstream test ports.

use super::*;

fn conditions(h: &Harness, name: &str) -> Vec<(String, String, String)> {
    h.node(name)
        .status
        .conditions
        .iter()
        .map(|c| (c.type_.clone(), c.status.clone(), c.reason.clone()))
        .collect()
}

// upstream: tryUpdateNodeHealth. A node without a Ready condition is probed from its
// creationTimestamp with `nodeStartupGracePeriod` (1 min, not the 50 s monitor grace period),
// and its conditions turn Unknown only once `now.After(probeTimestamp + gracePeriod)`.
#[test]
fn never_posted_node_gets_the_startup_grace_period() {
    let fake_now = "2015-01-01T12:00:00Z";
    let mut h = Harness::new(fake_now);
    h.load(node("node0", fake_now, json!({}), vec![]));
    h.fail("node0");
    h.run_until_secs(59);
    assert!(h.node("node0").status.conditions.is_empty());
    assert_eq!(h.status_updates("Node"), 0);
    h.run_until_secs(65);
    let want: Vec<(String, String, String)> =
        ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"]
            .iter()
            .map(|t| {
                (
                    t.to_string(),
                    "Unknown".into(),
                    "NodeStatusNeverUpdated".into(),
                )
            })
            .collect();
    assert_eq!(conditions(&h, "node0"), want);
    let ready = h.node("node0").condition("Ready").cloned().unwrap();
    assert_eq!(ready.last_heartbeat_time, Some(ts(fake_now)));
    let t = ready.last_transition_time.unwrap();
    assert!(t > h.at(60) - Duration(1) && t <= h.at(65), "{t:?}");
}

// upstream: TestMonitorNodeHealthUpdateStatus, first row ("Node created long time ago, without
// status: Unknown status posted from node controller"): the probe is the creation timestamp,
// long past, so the very first pass (fakeNow) posts the never-updated conditions.
#[test]
fn never_posted_node_created_long_ago_is_unknown_at_the_first_pass() {
    let fake_now = "2015-01-01T12:00:00Z";
    let mut h = Harness::new(fake_now);
    h.load(node("node0", "2012-01-01T00:00:00Z", json!({}), vec![]));
    h.fail("node0");
    h.run_until_secs(1);
    let ready = h.node("node0").condition("Ready").cloned().unwrap();
    assert_eq!(ready.reason, "NodeStatusNeverUpdated");
    assert_eq!(ready.message, "Kubelet never posted node status.");
    assert_eq!(ready.last_transition_time, Some(ts(fake_now)));
}

// upstream: tryUpdateNodeHealth ("Missing timestamp for Node. Assuming now as a timestamp"): a
// restarted kube-controller-manager has no health data, so a node whose kubelet stopped before
// the restart gets a full grace period counted from the restart.
#[test]
fn restarted_controller_counts_the_grace_period_from_its_first_look() {
    let fake_now = "2015-01-01T12:00:00Z";
    let mut h = Harness::new(fake_now);
    h.load_all(vec![
        node(
            "node0",
            "2012-01-01T00:00:00Z",
            json!({}),
            vec![ready("True", fake_now)],
        ),
        node(
            "node1",
            "2012-01-01T00:00:00Z",
            json!({}),
            vec![ready("True", fake_now)],
        ),
    ]);
    h.fail("node0");
    h.run_until_secs(10);
    h.sim.set_controller_manager(false);
    h.run_until_secs(30);
    h.sim.set_controller_manager(true);
    h.sim.settle().unwrap();
    h.run_until_secs(79);
    assert_eq!(h.node("node0").condition("Ready").unwrap().status, "True");
    h.run_until_secs(85);
    let ready = h.node("node0").condition("Ready").cloned().unwrap();
    assert_eq!(
        (ready.status.as_str(), ready.reason.as_str()),
        ("Unknown", "NodeStatusUnknown")
    );
}

// upstream: tryUpdateNodeHealth writes the node status only when the Ready condition changed
// (`!apiequality.Semantic.DeepEqual(currentReadyCondition, &observedReadyCondition)`): with
// Ready already Unknown, a MemoryPressure=False the kubelet left stays as it is, and nothing is
// written.
#[test]
fn no_status_update_when_ready_is_already_unknown() {
    let fake_now = "2015-01-01T12:00:00Z";
    let mut h = Harness::new(fake_now);
    h.load(node(
        "node0",
        "2012-01-01T00:00:00Z",
        json!({}),
        vec![
            ready("Unknown", fake_now),
            json!({"type": "MemoryPressure", "status": "False",
                   "lastHeartbeatTime": fake_now, "lastTransitionTime": fake_now}),
        ],
    ));
    let before = h.node("node0").status;
    h.fail("node0");
    h.run_until_secs(3600);
    assert_eq!(h.node("node0").status, before);
    assert_eq!(h.status_updates("Node"), 0);
}

// upstream: doNoExecuteTaintingPass → SwapNodeControllerTaint → AddOrUpdateTaintOnNode →
// taintutils.AddOrUpdateTaint (pkg/util/taints/taints.go): a taint with the same key and
// effect that is not deep-equal to the template (here: another value) is replaced by it, with
// the value "" and a fresh timeAdded. node1 (Ready) keeps the zone out of full disruption.
#[test]
fn tainting_pass_replaces_a_same_key_taint_with_another_value() {
    let fake_now = "2015-01-01T12:00:00Z";
    let old = "2012-01-01T00:00:00Z";
    let mut h = Harness::new(fake_now);
    let mut n0 = node("node0", old, json!({}), vec![ready("True", fake_now)]);
    n0["spec"]["taints"] = json!([
        {"key": "node.kubernetes.io/not-ready", "value": "x", "effect": "NoExecute"}
    ]);
    h.load_all(vec![
        n0,
        node("node1", old, json!({}), vec![ready("True", fake_now)]),
    ]);
    h.run_until_secs(1);
    // Ready: markNodeAsReachable removes the NoExecute taint whatever its value (RemoveTaint
    // matches key and effect).
    assert!(!has(&h, "node0", NOT_READY_NO_EXECUTE));
    // Put it back, then the kubelet reports NotReady.
    let mut n = h.node("node0");
    n.spec.taints = vec![Taint {
        key: TAINT_NOT_READY.into(),
        value: "x".into(),
        effect: "NoExecute".into(),
        time_added: None,
    }];
    h.sim.api.update(n.into_object()).unwrap();
    h.sim.settle().unwrap();
    h.run_until_secs(2);
    h.set_conditions("node0", vec![ready("False", fake_now)]);
    h.run_until_secs(30);
    let t: Vec<Taint> = h
        .node("node0")
        .spec
        .taints
        .into_iter()
        .filter(|t| t.effect == "NoExecute")
        .collect();
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(
        (t[0].key.as_str(), t[0].value.as_str()),
        (TAINT_NOT_READY, "")
    );
    assert!(t[0].time_added.is_some());
}

fn tt(key: &str, value: &str, effect: &str) -> Taint {
    Taint {
        key: key.into(),
        value: value.into(),
        effect: effect.into(),
        time_added: None,
    }
}

// upstream: TestAddOrUpdateTaint (pkg/util/taints/taints_test.go). Rows: (name, node taints,
// taint, expected update, expected taints).
#[test]
fn add_or_update_taint_rows() {
    let taint = tt("foo", "bar", "NoSchedule");
    let taint_new = tt("foo_1", "bar_1", "NoSchedule");
    let taint_update_value = tt("foo", "bar_1", "NoSchedule");
    let rows = [
        ("add a new taint", vec![], &taint, true, vec![taint.clone()]),
        (
            "add a unique taint",
            vec![taint.clone()],
            &taint_new,
            true,
            vec![taint.clone(), taint_new.clone()],
        ),
        (
            "add duplicate taint",
            vec![taint.clone()],
            &taint,
            false,
            vec![taint.clone()],
        ),
        (
            "update taint value",
            vec![taint.clone()],
            &taint_update_value,
            true,
            vec![taint_update_value.clone()],
        ),
    ];
    for (name, node, t, update, want) in rows {
        let got = add_or_update_taint(&node, t);
        assert_eq!(got.is_some(), update, "{name}");
        assert_eq!(got.unwrap_or(node), want, "{name}");
    }
}

// upstream: TestRemoveTaint (pkg/util/taints/taints_test.go).
#[test]
fn remove_taint_rows() {
    let foo = tt("foo", "", "NoSchedule");
    let rows = [
        (
            "remove taint unsuccessfully",
            vec![foo.clone()],
            tt("foo_1", "", "NoSchedule"),
            vec![foo.clone()],
            false,
        ),
        (
            "remove taint successfully",
            vec![foo.clone()],
            foo.clone(),
            vec![],
            true,
        ),
        (
            "remove taint from node with no taint",
            vec![],
            foo.clone(),
            vec![],
            false,
        ),
    ];
    for (name, node, t, want, removed) in rows {
        let got = remove_taint(&node, &t);
        assert_eq!(got.is_some(), removed, "{name}");
        assert_eq!(got.unwrap_or(node), want, "{name}");
    }
}

// upstream: TestDeleteTaint (pkg/util/taints/taints_test.go).
#[test]
fn delete_taint_rows() {
    let foo = tt("foo", "", "NoSchedule");
    let rows = [
        (
            "delete taint with different name",
            vec![foo.clone()],
            tt("foo_1", "", "NoSchedule"),
            vec![foo.clone()],
            false,
        ),
        (
            "delete taint with different effect",
            vec![foo.clone()],
            tt("foo", "", "NoExecute"),
            vec![foo.clone()],
            false,
        ),
        (
            "delete taint successfully",
            vec![foo.clone()],
            foo.clone(),
            vec![],
            true,
        ),
        (
            "delete taint from empty taint array",
            vec![],
            foo.clone(),
            vec![],
            false,
        ),
    ];
    for (name, taints, t, want, deleted) in rows {
        assert_eq!(delete_taint(&taints, &t), (want, deleted), "{name}");
    }
}

// upstream: TestAddOrUpdateTaintOnNode and TestRemoveTaintOffNode
// (pkg/controller/controller_utils_test.go): the taints after adding (each taint in turn, by
// AddOrUpdateTaint) or removing (by RemoveTaint), and whether a write follows (upstream's
// request counts: 3 or 4 with a patch, 1 or 2 without). The "changed node" (conflict retry)
// and "non-exist node" rows need the fake client's injected calls and are not ported.
#[test]
fn add_or_update_taint_on_node_and_remove_taint_off_node_rows() {
    let k = |i: u8, e: &str| tt(&format!("key{i}"), &format!("value{i}"), e);
    let apply = |taints: Vec<Taint>, ops: &[Taint], add: bool| -> (Vec<Taint>, bool) {
        let mut cur = taints.clone();
        for t in ops {
            let next = if add {
                add_or_update_taint(&cur, t)
            } else {
                remove_taint(&cur, t)
            };
            if let Some(n) = next {
                cur = n;
            }
        }
        let written = cur != taints;
        (cur, written)
    };
    type Row = (&'static str, Vec<Taint>, Vec<Taint>, Vec<Taint>, bool);
    let add_rows: Vec<Row> = vec![
        (
            "add one taint on node",
            vec![k(1, "NoSchedule")],
            vec![k(2, "NoExecute")],
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            true,
        ),
        (
            "add multiple taints to node",
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            vec![k(3, "NoSchedule"), k(4, "NoExecute")],
            vec![
                k(1, "NoSchedule"),
                k(2, "NoExecute"),
                k(3, "NoSchedule"),
                k(4, "NoExecute"),
            ],
            true,
        ),
        (
            "add exist taints to node",
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            vec![k(2, "NoExecute")],
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            false,
        ),
        (
            "add taint to node without taints",
            vec![],
            vec![k(3, "NoSchedule")],
            vec![k(3, "NoSchedule")],
            true,
        ),
        (
            "add empty taint list to node without taints",
            vec![],
            vec![],
            vec![],
            false,
        ),
        (
            "add empty taint list to node",
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            vec![],
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            false,
        ),
    ];
    for (name, node, ops, want, write) in add_rows {
        assert_eq!(apply(node, &ops, true), (want, write), "{name}");
    }
    let remove_rows: Vec<Row> = vec![
        (
            "remove one taint from node",
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            vec![k(2, "NoExecute")],
            vec![k(1, "NoSchedule")],
            true,
        ),
        (
            "remove multiple taints from node",
            vec![
                k(1, "NoSchedule"),
                k(2, "NoExecute"),
                k(3, "NoSchedule"),
                k(4, "NoExecute"),
            ],
            vec![k(2, "NoExecute"), k(3, "NoSchedule")],
            vec![k(1, "NoSchedule"), k(4, "NoExecute")],
            true,
        ),
        (
            "remove no-exist taints from node",
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            vec![k(3, "NoSchedule")],
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            false,
        ),
        (
            "remove taint from node without taints",
            vec![],
            vec![k(3, "NoSchedule")],
            vec![],
            false,
        ),
        (
            "remove empty taint list from node without taints",
            vec![],
            vec![],
            vec![],
            false,
        ),
        (
            "remove empty taint list from node",
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            vec![],
            vec![k(1, "NoSchedule"), k(2, "NoExecute")],
            false,
        ),
    ];
    for (name, node, ops, want, write) in remove_rows {
        assert_eq!(apply(node, &ops, false), (want, write), "{name}");
    }
}
