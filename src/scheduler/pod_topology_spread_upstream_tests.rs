//! More rows of TestPreFilterState
//! (pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go), in the compact form
//! of the parent module (`pod_topology_spread_tests.rs`).

use super::*;
use crate::api::Toleration;

type Want = Vec<(Vec<(&'static str, i64)>, (i64, i64))>;

fn check_state(name: &str, p: &Pod, nodes: &[&str], pods: &[&str], want: Want) {
    let w = world(nodes, pods);
    let s = pre_filter(&w, p).expect("constraints");
    assert_eq!(s.constraints.len(), want.len(), "{name}");
    for (i, (nums, paths)) in want.into_iter().enumerate() {
        // TpKeyToDomainsNum is the number of topology values counted.
        assert_eq!(
            s.tp_value_to_match_num[i].len(),
            nums.len(),
            "{name} [{i}] domains"
        );
        assert_eq!(match_nums(&s, i), nums, "{name} [{i}]");
        assert_eq!(min_paths(&s, i), paths, "{name} [{i}]");
    }
}

// Ported from TestPreFilterState (filtering_test.go): the rows after "different labelSelectors
// - simple version" that pod_topology_spread_tests.rs does not cover (the default-constraints
// rows need PodTopologySpreadArgs.defaultConstraints, which kubeplay does not configure; the
// "feature gate disabled" row is the gate-off twin of "NodeAffinityPolicy honored…").
#[test]
fn pre_filter_state_more_rows() {
    let aby = [
        "node-a zone=zone1 node=node-a",
        "node-b zone=zone1 node=node-b",
        "node-y zone=zone2 node=node-y",
    ];
    let foo_pods = [SPREAD_2_1_0_3.to_vec(), vec!["p-y4@node-y foo"]].concat();
    let zone_node_foo = || {
        incoming(
            "foo",
            vec![hard(1, "zone", Some("foo")), hard(1, "node", Some("foo"))],
        )
    };
    check_state(
        "different labelSelectors - complex pods",
        &incoming(
            "foo bar",
            vec![hard(1, "zone", Some("foo")), hard(1, "node", Some("bar"))],
        ),
        &aby,
        &[
            "p-a1@node-a foo",
            "p-a2@node-a foo bar",
            "p-b1@node-b foo",
            "p-y1@node-y foo",
            "p-y2@node-y foo bar",
            "p-y3@node-y foo",
            "p-y4@node-y foo bar",
        ],
        vec![
            (vec![("zone1", 3), ("zone2", 4)], (3, 4)),
            (vec![("node-a", 1), ("node-b", 0), ("node-y", 2)], (0, 1)),
        ],
    );
    check_state(
        "two spreadConstraints, and with podAffinity",
        &with_affinity(zone_node_foo(), "node", "NotIn", &["node-x"]),
        &ZONED,
        &foo_pods,
        vec![
            (vec![("zone1", 3), ("zone2", 4)], (3, 4)),
            (vec![("node-a", 2), ("node-b", 1), ("node-y", 4)], (1, 2)),
        ],
    );
    check_state(
        "TpKeyToDomainsNum is calculated when MinDomains is enabled",
        &zone_node_foo(),
        &ZONED,
        &foo_pods,
        vec![
            (vec![("zone1", 3), ("zone2", 4)], (3, 4)),
            (
                vec![("node-a", 2), ("node-b", 1), ("node-x", 0), ("node-y", 4)],
                (0, 1),
            ),
        ],
    );
    let policy_nodes = [
        "node-a node=node-a foo",
        "node-b node=node-b foo",
        "node-c node=node-c bar",
    ];
    let policy_pods = [
        "p-a@node-a bar",
        "p-b@node-b bar",
        "p-c@node-b bar",
        "p-d@node-c",
    ];
    check_state(
        "NodeAffinityPolicy honored with labelSelectors",
        &with_node_selector(incoming("foo", vec![hard(1, "node", Some("bar"))]), "foo"),
        &policy_nodes,
        &policy_pods,
        vec![(vec![("node-a", 1), ("node-b", 2)], (1, 2))],
    );
    check_state(
        "NodeAffinityPolicy ignored with labelSelectors",
        &with_node_selector(
            incoming(
                "foo",
                vec![with(
                    hard(1, "node", Some("bar")),
                    "nodeAffinityPolicy",
                    json!("Ignore"),
                )],
            ),
            "foo",
        ),
        &policy_nodes,
        &policy_pods,
        vec![(vec![("node-a", 1), ("node-b", 2), ("node-c", 0)], (0, 1))],
    );
}

// Ported from TestPreFilterState (filtering_test.go): the NodeAffinityPolicy-with-nodeAffinity,
// NodeTaintsPolicy and "two node inclusion Constraints" rows (the NodeInclusionPolicy gate is
// GA and on; its "feature gate disabled" twins are left out).
#[test]
fn pre_filter_state_node_inclusion_policy_rows() {
    let policy_pods = [
        "p-a@node-a bar",
        "p-b@node-b bar",
        "p-c@node-b bar",
        "p-d@node-c",
    ];
    let bar_node = |policy: Option<(&str, &str)>| {
        let c = hard(1, "node", Some("bar"));
        let c = match policy {
            Some((field, v)) => with(c, field, json!(v)),
            None => c,
        };
        incoming("foo", vec![c])
    };
    check_state(
        "NodeAffinityPolicy ignored with nodeAffinity",
        &with_affinity(
            bar_node(Some(("nodeAffinityPolicy", "Ignore"))),
            "foo",
            "In",
            &[""],
        ),
        &[
            "node-a node=node-a foo",
            "node-b node=node-b foo",
            "node-c node=node-c bar",
        ],
        &policy_pods,
        vec![(vec![("node-a", 1), ("node-b", 2), ("node-c", 0)], (0, 1))],
    );
    let tainted = [
        "node-a node=node-a",
        "node-b node=node-b",
        "node-c node=node-c taint bar",
    ];
    check_state(
        "NodeTaintsPolicy ignored",
        &bar_node(None),
        &tainted,
        &policy_pods,
        vec![(vec![("node-a", 1), ("node-b", 2), ("node-c", 0)], (0, 1))],
    );
    check_state(
        "NodeTaintsPolicy honored",
        &bar_node(Some(("nodeTaintsPolicy", "Honor"))),
        &tainted,
        &policy_pods,
        vec![(vec![("node-a", 1), ("node-b", 2)], (1, 2))],
    );
    let mut tolerating = bar_node(Some(("nodeTaintsPolicy", "Honor")));
    tolerating.spec_mut().tolerations.push(Toleration {
        key: "node.kubernetes.io/unschedulable".into(),
        operator: "Exists".into(),
        effect: "NoSchedule".into(),
        ..Default::default()
    });
    check_state(
        "NodeTaintsPolicy honored with tolerated taints",
        &tolerating,
        &tainted,
        &policy_pods,
        vec![(vec![("node-a", 1), ("node-b", 2), ("node-c", 0)], (0, 1))],
    );
    let three_pods = ["p-b1@node-b foo", "p-b2@node-b foo", "p-x1@node-x foo"];
    check_state(
        "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
        &with_node_selector(
            incoming(
                "foo",
                vec![
                    hard(1, "zone", Some("foo")),
                    with(
                        hard(1, "node", Some("foo")),
                        "nodeAffinityPolicy",
                        json!("Ignore"),
                    ),
                ],
            ),
            "foo",
        ),
        &[
            "node-a zone=zone1 node=node-a foo",
            "node-b zone=zone1 node=node-b",
            "node-x zone=zone2 node=node-x foo",
        ],
        &three_pods,
        vec![
            (vec![("zone1", 0), ("zone2", 1)], (0, 1)),
            (vec![("node-a", 0), ("node-b", 2), ("node-x", 1)], (0, 1)),
        ],
    );
    check_state(
        "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
        &incoming(
            "foo",
            vec![
                with(
                    hard(1, "zone", Some("foo")),
                    "nodeTaintsPolicy",
                    json!("Honor"),
                ),
                hard(1, "node", Some("foo")),
            ],
        ),
        &[
            "node-a zone=zone1 node=node-a foo",
            "node-b zone=zone1 node=node-b taint",
            "node-x zone=zone2 node=node-x foo",
        ],
        &three_pods,
        vec![
            (vec![("zone1", 0), ("zone2", 1)], (0, 1)),
            (vec![("node-a", 0), ("node-b", 2), ("node-x", 1)], (0, 1)),
        ],
    );
    check_state(
        "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
        &with_node_selector(
            incoming(
                "foo",
                vec![hard(1, "zone", Some("foo")), hard(1, "node", Some("foo"))],
            ),
            "foo",
        ),
        &[
            "node-a zone=zone1 node=node-a",
            "node-b zone=zone1 node=node-b foo taint",
            "node-x zone=zone2 node=node-x foo",
            "node-y zone=zone2 node=node-y",
        ],
        &[
            "p-a1@node-a foo",
            "p-a2@node-a foo",
            "p-x1@node-x foo",
            "p-y1@node-y foo",
        ],
        vec![
            (vec![("zone1", 0), ("zone2", 1)], (0, 1)),
            (vec![("node-b", 0), ("node-x", 1)], (0, 1)),
        ],
    );
}

// Ported from TestPreFilterStateAddPod (filtering_test.go): the two-constraint rows and the
// NodeInclusionPolicy-enabled rows after the four in pod_topology_spread_tests.rs. Match
// numbers per topology value and the critical paths' numbers after AddPod.
#[test]
fn pre_filter_state_add_pod_more_rows() {
    let zone_node = |node_sel: &str| {
        incoming(
            "foo bar",
            vec![
                hard(1, "zone", Some("foo")),
                hard(1, "node", Some(node_sel)),
            ],
        )
    };
    let abx = [
        "node-a zone=zone1 node=node-a",
        "node-b zone=zone1 node=node-b",
        "node-x zone=zone2 node=node-x",
    ];
    let ax = [
        "node-a zone=zone1 node=node-a",
        "node-x zone=zone2 node=node-x",
    ];
    type AddRow<'a> = (
        &'static str,
        Pod,
        &'a [&'static str],
        Vec<&'static str>,
        &'static str,
        usize,
        Want,
    );
    let rows: Vec<AddRow> = vec![
        (
            "node a and x both impact topologyKeyToMinPodsMap on zone and node",
            zone_node("foo"),
            &ax,
            vec![],
            "p-a1@node-a foo",
            0,
            vec![
                (vec![("zone1", 1), ("zone2", 0)], (0, 1)),
                (vec![("node-a", 1), ("node-x", 0)], (0, 1)),
            ],
        ),
        (
            "only node a impacts topologyKeyToMinPodsMap on zone and node",
            zone_node("foo"),
            &ax,
            vec!["p-x1@node-x foo"],
            "p-a1@node-a foo",
            0,
            vec![
                (vec![("zone1", 1), ("zone2", 1)], (1, 1)),
                (vec![("node-a", 1), ("node-x", 1)], (1, 1)),
            ],
        ),
        (
            "node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone",
            zone_node("foo"),
            &abx,
            vec!["p-b1@node-b foo", "p-b2@node-b foo", "p-x1@node-x foo"],
            "p-a1@node-a foo",
            0,
            vec![
                (vec![("zone1", 3), ("zone2", 1)], (1, 3)),
                (vec![("node-a", 1), ("node-b", 2), ("node-x", 1)], (1, 1)),
            ],
        ),
        (
            "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone",
            zone_node("bar"),
            &abx,
            vec!["p-b1@node-b foo bar", "p-x1@node-x foo bar", "p-x2@node-x bar"],
            "p-a1@node-a foo",
            0,
            vec![
                (vec![("zone1", 2), ("zone2", 1)], (1, 2)),
                (vec![("node-a", 0), ("node-b", 1), ("node-x", 2)], (0, 1)),
            ],
        ),
        (
            "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and node",
            zone_node("bar"),
            &abx,
            vec!["p-b1@node-b bar", "p-x1@node-x foo bar", "p-x2@node-x bar"],
            "p-a1@node-a foo bar",
            0,
            vec![
                (vec![("zone1", 1), ("zone2", 1)], (1, 1)),
                (vec![("node-a", 1), ("node-b", 1), ("node-x", 2)], (1, 1)),
            ],
        ),
    ];
    for (name, preemptor, nodes, existing, added, idx, want) in rows {
        let s = after_update(&preemptor, nodes, &existing, added, idx, 1);
        for (i, (nums, paths)) in want.into_iter().enumerate() {
            assert_eq!(match_nums(&s, i), nums, "{name} [{i}]");
            assert_eq!(min_paths(&s, i), paths, "{name} [{i}]");
        }
    }

    // The NodeInclusionPolicy rows: one zone constraint, two nodes; node-a is labelled foo=bar.
    let policy_nodes = [
        "node-a zone=zone1 node=node-a foo=bar",
        "node-b zone=zone2 node=node-b foo",
    ];
    let zone_foo = || incoming("foo", vec![hard(1, "zone", Some("foo"))]);
    // "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled":
    // node-a is outside the preemptor's node affinity, so adding a pod there changes nothing.
    let s = after_update(
        &with_affinity(zone_foo(), "foo", "NotIn", &["bar"]),
        &policy_nodes,
        &["p-a2@node-a foo zone=zone1", "p-b1@node-b foo zone=zone2"],
        "p-a1@node-a foo zone=zone1",
        0,
        1,
    );
    assert_eq!(match_nums(&s, 0), vec![("zone2", 1)]);
    assert_eq!(s.critical_paths[0].0[0].match_num, 1);
    assert_eq!(s.critical_paths[0].0[0].topology_value, "zone2");
    let b_rows = [
        (
            "add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled",
            "p-b1@node-b foo zone=zone2",
            vec![("zone1", 1), ("zone2", 2)],
            (1, 2),
        ),
        (
            "add a label selector not matched pod when with NodeInclusionPolicy enabled",
            "p-b1@node-b zone=zone2",
            vec![("zone1", 1), ("zone2", 1)],
            (1, 1),
        ),
    ];
    for (name, added, nums, paths) in b_rows {
        let s = after_update(
            &zone_foo(),
            &policy_nodes,
            &["p-a1@node-a foo zone=zone1", "p-b2@node-b foo zone=zone2"],
            added,
            1,
            1,
        );
        assert_eq!(match_nums(&s, 0), nums, "{name}");
        assert_eq!(min_paths(&s, 0), paths, "{name}");
    }
}

// Ported from TestPreFilterStateRemovePod (filtering_test.go): the rows before the
// NodeInclusionPolicy ones in pod_topology_spread_tests.rs.
#[test]
fn pre_filter_state_remove_pod_more_rows() {
    let zone = || incoming("foo", vec![hard(1, "zone", Some("foo"))]);
    let abx = [
        "node-a zone=zone1 node=node-a",
        "node-b zone=zone1 node=node-b",
        "node-x zone=zone2 node=node-x",
    ];
    let abxy = [abx.to_vec(), vec!["node-y zone=zone2 node=node-y"]].concat();
    let one_each = [
        "p-a1@node-a foo",
        "p-b1@node-b foo",
        "p-x1@node-x foo",
        "p-y1@node-y foo",
    ];
    type RemoveRow = (
        &'static str,
        Pod,
        Vec<&'static str>,
        Vec<&'static str>,
        &'static str,
        usize,
        Want,
    );
    let rows: Vec<RemoveRow> = vec![
        (
            "one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged",
            zone(),
            abx.to_vec(),
            vec!["p-a1@node-a foo", "p-b1@node-b foo", "p-x1@node-x foo"],
            "p-a1@node-a foo",
            0,
            vec![(vec![("zone1", 1), ("zone2", 1)], (1, 1))],
        ),
        (
            "one spreadConstraint on node, topologyKeyToMinPodsMap changed",
            zone(),
            abxy.clone(),
            one_each.to_vec(),
            "p-a1@node-a foo",
            0,
            vec![(vec![("zone1", 1), ("zone2", 2)], (1, 2))],
        ),
        (
            "delete an irrelevant pod won't help",
            zone(),
            abxy.clone(),
            [vec!["p-a0@node-a bar"], one_each.to_vec()].concat(),
            "p-a0@node-a bar",
            0,
            vec![(vec![("zone1", 2), ("zone2", 2)], (2, 2))],
        ),
        (
            "delete a non-existing pod won't help",
            zone(),
            abxy.clone(),
            one_each.to_vec(),
            "p-a0@node-a bar",
            0,
            vec![(vec![("zone1", 2), ("zone2", 2)], (2, 2))],
        ),
        (
            "two spreadConstraints",
            incoming(
                "foo",
                vec![hard(1, "zone", Some("foo")), hard(1, "node", Some("foo"))],
            ),
            abx.to_vec(),
            vec![
                "p-a1@node-a foo",
                "p-a2@node-a foo",
                "p-b1@node-b foo",
                "p-x1@node-x foo",
                "p-x2@node-x foo",
            ],
            "p-x1@node-x foo",
            2,
            vec![
                (vec![("zone1", 3), ("zone2", 1)], (1, 3)),
                (vec![("node-a", 2), ("node-b", 1), ("node-x", 1)], (1, 1)),
            ],
        ),
    ];
    for (name, preemptor, nodes, existing, removed, idx, want) in rows {
        let s = after_update(&preemptor, &nodes, &existing, removed, idx, -1);
        for (i, (nums, paths)) in want.into_iter().enumerate() {
            assert_eq!(match_nums(&s, i), nums, "{name} [{i}]");
            assert_eq!(min_paths(&s, i), paths, "{name} [{i}]");
        }
    }
}
