//! Ports of upstream DefaultPreemption tests, run through [`schedule_pod`] (kubeplay computes
//! the filter statuses itself, so each row's nodes and pods are set up to give the statuses the
//! upstream row passes in). The rows that depend on PodDisruptionBudgets are ported in
//! `preemption_pdb_tests.rs`; here they are left out or kept without their PDBs where the
//! outcome is the same (said per row).

use super::*;
use crate::api::{Container, Quantity, ResourceRequirements};
use crate::test_fixtures::taint;

const NEG: i32 = -100;
pub(super) const LOW: i32 = 0;
pub(super) const MID: i32 = 100;
pub(super) const HIGH: i32 = 1000;
pub(super) const VERY_HIGH: i32 = 10000;

pub(super) const SMALL: &[(&str, &str)] = &[("cpu", "100m"), ("memory", "100")];
pub(super) const MEDIUM: &[(&str, &str)] = &[("cpu", "200m"), ("memory", "200")];
pub(super) const LARGE: &[(&str, &str)] = &[("cpu", "300m"), ("memory", "300")];
pub(super) const VERY_LARGE: &[(&str, &str)] = &[("cpu", "500m"), ("memory", "500")];
pub(super) const ONE_POD: &[(&str, &str)] = &[("pods", "1")];
/// Upstream's `nodeRes` is 200m CPU, and the "Insufficient cpu" rows hand the plugin an
/// Unschedulable status for it. kubeplay runs the real filter, which (like upstream's
/// NodeResourcesFit) calls a request above the node's allocatable UnschedulableAndUnresolvable,
/// so those rows use a 400m node with 200m taken by a pod of the incoming pod's priority: still
/// "Insufficient cpu", and still not helped by removing the lower-priority pod.
const NODE_RES: &[(&str, &str)] = &[("cpu", "400m"), ("memory", "400")];

/// Upstream's `onePodRes` node for the rows where the pod requests CPU: with no CPU at all the
/// filter would call the node UnschedulableAndUnresolvable (see `NODE_RES`).
const ONE_POD_CPU: &[(&str, &str)] = &[("pods", "1"), ("cpu", "400m"), ("memory", "400")];

/// The 200m CPU pod of the incoming pod's priority on a `NODE_RES` node.
fn busy(node: &str) -> Pod {
    pod(&format!("busy-{node}"), HIGH, node, &[("cpu", "200m")])
}

/// `st.MakeNode().Name(name).Capacity(res)`.
pub(super) fn node(name: &str, res: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    for (k, v) in res {
        n.status
            .capacity
            .insert(k.to_string(), Quantity(v.to_string()));
        n.status
            .allocatable
            .insert(k.to_string(), Quantity(v.to_string()));
    }
    // `st.MakeNode().Capacity(..)` adds 32 pods unless the map has a pods entry.
    if !res.iter().any(|(k, _)| *k == "pods") {
        for m in [&mut n.status.capacity, &mut n.status.allocatable] {
            m.insert("pods".into(), Quantity("32".into()));
        }
    }
    n
}

/// `st.MakePod().Name(name).UID(name).Namespace("default").Priority(prio).Node(node).Req(req)`.
pub(super) fn pod(name: &str, prio: i32, node: &str, req: &[(&str, &str)]) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.uid = name.into();
    p.metadata.namespace = "default".into();
    p.spec_mut().priority = Some(prio);
    p.spec_mut().node_name = node.into();
    let mut r = ResourceRequirements::default();
    for (k, v) in req {
        r.requests.insert(k.to_string(), Quantity(v.to_string()));
    }
    p.spec_mut().containers.push(Container {
        name: "c".into(),
        resources: Some(r),
        ..Default::default()
    });
    p
}

/// `.StartTime(t)`.
fn started(mut p: Pod, secs: i64) -> Pod {
    p.status.start_time = Some(Time::from_unix_secs(secs));
    p
}

fn store_of(nodes: Vec<Node>, pods: Vec<Pod>) -> Store {
    let mut s = Store::new();
    for n in nodes {
        s.put(Object::Node(n));
    }
    for p in pods {
        s.put(Object::Pod(p));
    }
    s
}

/// The nominated node and victim names, or the PostFilter (`preemption: …`) message.
fn post_filter(p: &Pod, store: &Store) -> Result<(String, Vec<String>), String> {
    match schedule_pod(p, store) {
        Outcome::Unschedulable {
            preempt: Some((node, victims)),
            ..
        } => Ok((
            node,
            victims.iter().map(|v| v.metadata.name.clone()).collect(),
        )),
        Outcome::Unschedulable { message, .. } => Err(message
            .split_once("preemption: ")
            .map(|(_, m)| format!("preemption: {m}"))
            .unwrap_or(message)),
        other => panic!("expected Unschedulable, got {other:?}"),
    }
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// upstream: TestPostFilter (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// Left out: "preemption should respect absent NodeToStatusReader entry …" (kubeplay always has
// a status for each filtered node), "preemption result filtered out by extenders" (no
// extenders), the two TestPlugin rows (no AddPod/RemovePod error injection), the SchedulingGroup
// / workload-aware rows (PodGroups not modelled). "preemption should respect
// filteredNodesStatuses" gets its UnschedulableAndUnresolvable status from an untolerated
// NoSchedule taint instead of a hand-made status; the "no enough CPU" rows use `NODE_RES` (see
// there). "pod can be made schedulable on
// minHighestPriority node" is kept without its PDBs (with them in `preemption_pdb_tests.rs`):
// node2 wins on the lowest highest-priority victim (mid < high) either way.
#[test]
fn post_filter_rows() {
    // "pod with higher priority can be made schedulable"
    let s = store_of(
        vec![node("node1", ONE_POD)],
        vec![pod("p1", LOW, "node1", &[])],
    );
    assert_eq!(
        post_filter(&pod("p", HIGH, "", &[]), &s),
        Ok(("node1".into(), names(&["p1"])))
    );
    // "pod with tied priority is still unschedulable"
    assert_eq!(
        post_filter(&pod("p", LOW, "", &[]), &s),
        Err(
            "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
                .into()
        )
    );
    // "preemption should respect filteredNodesStatuses"
    let mut tainted = node("node1", ONE_POD);
    tainted.spec.taints = vec![taint("k", "v", "NoSchedule")];
    let s2 = store_of(vec![tainted], vec![pod("p1", LOW, "node1", &[])]);
    assert_eq!(
        post_filter(&pod("p", HIGH, "", &[]), &s2),
        Err(
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
                .into()
        )
    );
    // "pod can be made schedulable on one node"
    let s = store_of(
        vec![node("node1", ONE_POD), node("node2", ONE_POD)],
        vec![pod("p1", HIGH, "node1", &[]), pod("p2", LOW, "node2", &[])],
    );
    assert_eq!(
        post_filter(&pod("p", MID, "", &[]), &s),
        Ok(("node2".into(), names(&["p2"])))
    );
    // "pod can be made schedulable on minHighestPriority node" (without the PDBs)
    let s = store_of(
        vec![node("node1", ONE_POD), node("node2", ONE_POD)],
        vec![
            pod("p1", HIGH, "node1", &[]),
            pod("p2", LOW, "node1", &[]),
            pod("p3", MID, "node2", &[]),
        ],
    );
    assert_eq!(
        post_filter(&pod("p", VERY_HIGH, "", &[]), &s),
        Ok(("node2".into(), names(&["p3"])))
    );
    // "no candidate nodes found, no enough resource after removing low priority pods"
    let s = store_of(
        vec![node("node1", NODE_RES), node("node2", NODE_RES)],
        vec![
            pod("p1", LOW, "node1", &[]),
            pod("p2", LOW, "node2", &[]),
            busy("node1"),
            busy("node2"),
        ],
    );
    assert_eq!(
        post_filter(&pod("p", HIGH, "", LARGE), &s),
        Err("preemption: 0/2 nodes are available: 2 Insufficient cpu.".into())
    );
    // "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU
    // resource"
    let s = store_of(
        vec![
            node("node1", ONE_POD_CPU),
            node("node2", NODE_RES),
            node("node3", ONE_POD_CPU),
        ],
        vec![
            pod("p1", HIGH, "node1", &[]),
            pod("p2", LOW, "node2", &[]),
            busy("node2"),
            pod("p3", HIGH, "node3", &[]),
        ],
    );
    assert_eq!(
        post_filter(&pod("p", HIGH, "", LARGE), &s),
        Err(
            "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims \
             found for incoming pod."
                .into()
        )
    );
    // "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2
    // nodes don't have enough CPU resource": node3 and node4 are made unresolvable with an
    // untolerated taint (upstream: node3 has no status, node4 UnschedulableAndUnresolvable).
    let mut n3 = node("node3", NODE_RES);
    n3.spec.taints = vec![taint("k", "v", "NoSchedule")];
    let mut n4 = node("node4", NODE_RES);
    n4.spec.taints = vec![taint("k", "v", "NoSchedule")];
    let s = store_of(
        vec![node("node1", NODE_RES), node("node2", NODE_RES), n3, n4],
        vec![
            pod("p1", LOW, "node1", &[]),
            pod("p2", LOW, "node2", &[]),
            busy("node1"),
            busy("node2"),
        ],
    );
    assert_eq!(
        post_filter(&pod("p", HIGH, "", LARGE), &s),
        Err(
            "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not \
             helpful for scheduling."
                .into()
        )
    );
}

/// Nodes named `names`, each with `veryLargeRes` capacity (the DryRunPreemption and
/// SelectBestCandidate fixtures).
fn very_large_nodes(names: &[&str]) -> Vec<Node> {
    names.iter().map(|n| node(n, VERY_LARGE)).collect()
}

/// The candidate's node and its victims sorted by name (upstream sorts them before comparing).
fn sorted(r: Result<(String, Vec<String>), String>) -> Result<(String, Vec<String>), String> {
    r.map(|(n, mut v)| {
        v.sort();
        (n, v)
    })
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// These rows check the candidate `preempt` picks (with the victims on that node) rather than the
// whole candidate list (`dry_run_preemption`'s own rows are in `preemption_dry_run_tests.rs`);
// rows with several equal candidates get the first node by name. Left out: the FalseFilter / TrueFilter / MatchFilter /
// fake-filter-code rows (test-only filter plugins), the PDB rows (in `preemption_pdb_tests.rs`), the
// MinCandidateNodesPercentage / Absolute rows (in `preemption_dry_run_tests.rs`).
// "pod with anti-affinity is preempted" and "preemption to resolve pod topology spread filter
// failure" are in `dry_run_preemption_affinity_and_spread`.
#[test]
fn dry_run_preemption() {
    type Row = (
        &'static str,
        Pod,
        Vec<Pod>,
        Option<(&'static str, Vec<&'static str>)>,
    );
    let rows: Vec<Row> =
        vec![
        (
            "a pod that fits on both nodes when lower priority pods are preempted",
            pod("p", HIGH, "", LARGE),
            vec![pod("p1", MID, "node1", LARGE), pod("p2", MID, "node2", LARGE)],
            Some(("node1", vec!["p1"])),
        ),
        (
            "a pod that would fit on the nodes, but other pods running are higher priority, no \
             preemption would happen",
            pod("p", LOW, "", LARGE),
            vec![pod("p1", MID, "node1", LARGE), pod("p2", MID, "node2", LARGE)],
            None,
        ),
        (
            "medium priority pod is preempted, but lower priority one stays as it is small",
            pod("p", HIGH, "", LARGE),
            vec![
                pod("p1.1", LOW, "node1", SMALL),
                pod("p1.2", MID, "node1", LARGE),
                pod("p2", MID, "node2", LARGE),
            ],
            Some(("node1", vec!["p1.2"])),
        ),
        (
            "mixed priority pods are preempted",
            pod("p", HIGH, "", LARGE),
            vec![
                pod("p1.1", MID, "node1", SMALL),
                pod("p1.2", LOW, "node1", SMALL),
                pod("p1.3", MID, "node1", MEDIUM),
                pod("p1.4", HIGH, "node1", SMALL),
                pod("p2", HIGH, "node2", LARGE),
            ],
            Some(("node1", vec!["p1.2", "p1.3"])),
        ),
        (
            "mixed priority pods are preempted, pick later StartTime one when priorities are \
             equal",
            pod("p", HIGH, "", LARGE),
            vec![
                started(pod("p1.1", LOW, "node1", SMALL), 5),
                started(pod("p1.2", LOW, "node1", SMALL), 4),
                started(pod("p1.3", MID, "node1", MEDIUM), 3),
                started(pod("p1.4", HIGH, "node1", SMALL), 2),
                started(pod("p2", HIGH, "node2", LARGE), 1),
            ],
            Some(("node1", vec!["p1.1", "p1.3"])),
        ),
    ];
    for (name, p, pods, want) in rows {
        let s = store_of(very_large_nodes(&["node1", "node2"]), pods);
        let got = sorted(post_filter(&p, &s));
        match want {
            Some((n, v)) => assert_eq!(got, Ok((n.to_string(), names(&v))), "{name}"),
            None => assert!(got.is_err(), "{name}: {got:?}"),
        }
    }
}

// upstream: TestSelectBestCandidate (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// All rows; "expected" lists any acceptable node (kubeplay breaks a full tie by node name).
#[test]
fn select_best_candidate() {
    let e = |name: &str, prio: i32, node: &str, req: &[(&str, &str)], t: i64| {
        started(pod(name, prio, node, req), t)
    };
    type Row = (
        &'static str,
        Vec<&'static str>,
        Pod,
        Vec<Pod>,
        Vec<&'static str>,
    );
    let n12 = vec!["node1", "node2"];
    let n123 = vec!["node1", "node2", "node3"];
    let rows: Vec<Row> = vec![
        (
            "a pod that fits on both nodes when lower priority pods are preempted",
            n12.clone(),
            pod("p", HIGH, "", LARGE),
            vec![
                e("p1", MID, "node1", LARGE, 0),
                e("p2", MID, "node2", LARGE, 0),
            ],
            vec!["node1", "node2"],
        ),
        (
            "node with min highest priority pod is picked",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", MEDIUM, 0),
                e("p1.2", MID, "node1", LARGE, 0),
                e("p2.1", MID, "node2", MEDIUM, 0),
                e("p2.2", LOW, "node2", MEDIUM, 0),
                e("p3.1", LOW, "node3", MEDIUM, 0),
                e("p3.2", LOW, "node3", MEDIUM, 0),
            ],
            vec!["node3"],
        ),
        (
            "when highest priorities are the same, minimum sum of priorities is picked",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", MEDIUM, 0),
                e("p1.2", MID, "node1", LARGE, 0),
                e("p2.1", MID, "node2", LARGE, 0),
                e("p2.2", LOW, "node2", MEDIUM, 0),
                e("p3.1", MID, "node3", MEDIUM, 0),
                e("p3.2", MID, "node3", MEDIUM, 0),
            ],
            vec!["node2"],
        ),
        (
            "when highest priority and sum are the same, minimum number of pods is picked",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", SMALL, 0),
                e("p1.2", NEG, "node1", SMALL, 0),
                e("p1.3", MID, "node1", SMALL, 0),
                e("p1.4", NEG, "node1", SMALL, 0),
                e("p2.1", MID, "node2", LARGE, 0),
                e("p2.2", NEG, "node2", MEDIUM, 0),
                e("p3.1", MID, "node3", MEDIUM, 0),
                e("p3.2", NEG, "node3", SMALL, 0),
                e("p3.3", LOW, "node3", SMALL, 0),
            ],
            vec!["node2"],
        ),
        (
            "sum of adjusted priorities is considered",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", SMALL, 0),
                e("p1.2", NEG, "node1", SMALL, 0),
                e("p1.3", NEG, "node1", SMALL, 0),
                e("p2.1", MID, "node2", LARGE, 0),
                e("p2.2", NEG, "node2", MEDIUM, 0),
                e("p3.1", MID, "node3", MEDIUM, 0),
                e("p3.2", NEG, "node3", SMALL, 0),
                e("p3.3", LOW, "node3", SMALL, 0),
            ],
            vec!["node2"],
        ),
        (
            "non-overlapping lowest high priority, sum priorities, and number of pods",
            vec!["node1", "node2", "node3", "node4"],
            pod("p", VERY_HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", SMALL, 0),
                e("p1.2", LOW, "node1", SMALL, 0),
                e("p1.3", LOW, "node1", SMALL, 0),
                e("p2.1", HIGH, "node2", LARGE, 0),
                e("p3.1", MID, "node3", MEDIUM, 0),
                e("p3.2", LOW, "node3", SMALL, 0),
                e("p3.3", LOW, "node3", SMALL, 0),
                e("p3.4", LOW, "node3", MEDIUM, 0),
                e("p4.1", MID, "node4", MEDIUM, 0),
                e("p4.2", MID, "node4", SMALL, 0),
                e("p4.3", MID, "node4", SMALL, 0),
                e("p4.4", NEG, "node4", SMALL, 0),
            ],
            vec!["node1"],
        ),
        (
            "same priority, same number of victims, different start time for each node's pod",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", MEDIUM, 2),
                e("p1.2", MID, "node1", MEDIUM, 2),
                e("p2.1", MID, "node2", MEDIUM, 3),
                e("p2.2", MID, "node2", MEDIUM, 3),
                e("p3.1", MID, "node3", MEDIUM, 1),
                e("p3.2", MID, "node3", MEDIUM, 1),
            ],
            vec!["node2"],
        ),
        (
            "same priority, same number of victims, different start time for all pods",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", MID, "node1", MEDIUM, 4),
                e("p1.2", MID, "node1", MEDIUM, 2),
                e("p2.1", MID, "node2", MEDIUM, 5),
                e("p2.2", MID, "node2", MEDIUM, 1),
                e("p3.1", MID, "node3", MEDIUM, 3),
                e("p3.2", MID, "node3", MEDIUM, 6),
            ],
            vec!["node3"],
        ),
        (
            "different priority, same number of victims, different start time for all pods",
            n123.clone(),
            pod("p", HIGH, "", VERY_LARGE),
            vec![
                e("p1.1", LOW, "node1", MEDIUM, 4),
                e("p1.2", MID, "node1", MEDIUM, 2),
                e("p2.1", MID, "node2", MEDIUM, 6),
                e("p2.2", LOW, "node2", MEDIUM, 1),
                e("p3.1", LOW, "node3", MEDIUM, 3),
                e("p3.2", MID, "node3", MEDIUM, 5),
            ],
            vec!["node2"],
        ),
    ];
    for (name, nodes, p, pods, want) in rows {
        let s = store_of(very_large_nodes(&nodes), pods);
        match post_filter(&p, &s) {
            Ok((n, _)) => assert!(want.contains(&n.as_str()), "{name}: got {n}"),
            Err(m) => panic!("{name}: {m}"),
        }
    }
}

/// `.PreemptionPolicy(policy)`.
fn with_policy(mut p: Pod, policy: &str) -> Pod {
    p.spec_mut()
        .extra
        .insert("preemptionPolicy".into(), policy.into());
    p
}

/// `.NominatedNodeName(node)`.
fn nominated_to(mut p: Pod, node: &str) -> Pod {
    p.status
        .extra
        .insert("nominatedNodeName".into(), node.into());
    p
}

/// `.Terminating()`, optionally with the DisruptionTarget condition the scheduler sets on its
/// victims (`.Condition(DisruptionTarget, True, PreemptionByScheduler)`).
fn terminating(mut p: Pod, by_preemption: bool) -> Pod {
    p.metadata.deletion_timestamp = Some(Time::from_unix_secs(10));
    if by_preemption {
        p.set_condition(
            "DisruptionTarget",
            "True",
            "PreemptionByScheduler",
            "",
            Time::from_unix_secs(10),
        );
    }
    p
}

// upstream: TestPodEligibleToPreemptOthers (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// Eligibility is checked inside PostFilter here, so each row runs a full scheduling attempt and
// looks for the "not eligible" message. The nominated node's status comes from the filters:
// an untolerated taint makes it UnschedulableAndUnresolvable ("Pod with nominated node"), a
// full node makes it Unschedulable.
#[test]
fn pod_eligible_to_preempt_others() {
    const NOT_ELIGIBLE_TERMINATING: &str =
        "preemption: not eligible due to a terminating pod on the nominated node.";
    // "Pod with nominated node": the nominated node is UnschedulableAndUnresolvable, so the
    // terminating pod there does not matter (given the DisruptionTarget condition here, which
    // upstream's row leaves out, so that the status check is what decides); preemption runs
    // and finds the node not helpful.
    let mut tainted = node("node1", ONE_POD);
    tainted.spec.taints = vec![taint("k", "v", "NoSchedule")];
    let s = store_of(
        vec![tainted],
        vec![terminating(pod("p1", LOW, "node1", &[]), true)],
    );
    let p = nominated_to(pod("p_with_nominated_node", HIGH, "", &[]), "node1");
    assert_eq!(
        post_filter(&p, &s),
        Err(
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
                .into()
        )
    );
    // "Pod without nominated node"
    let s = store_of(
        vec![node("node1", ONE_POD)],
        vec![pod("p1", LOW, "node1", &[])],
    );
    assert_eq!(
        post_filter(&pod("p_without_nominated_node", HIGH, "", &[]), &s),
        Ok(("node1".into(), names(&["p1"])))
    );
    // "Pod with 'PreemptNever' preemption policy"
    let p = with_policy(pod("p_with_preempt_never_policy", HIGH, "", &[]), "Never");
    assert_eq!(
        post_filter(&p, &s),
        Err("preemption: not eligible due to preemptionPolicy=Never.".into())
    );
    // "preemption victim pod terminating, as indicated by the dedicated DisruptionTarget
    // condition"
    let s = store_of(
        vec![node("node1", ONE_POD)],
        vec![terminating(pod("p1", LOW, "node1", &[]), true)],
    );
    let p = nominated_to(pod("p_with_nominated_node", HIGH, "", &[]), "node1");
    assert_eq!(post_filter(&p, &s), Err(NOT_ELIGIBLE_TERMINATING.into()));
    // "non-victim Pods terminating": no DisruptionTarget condition, so the pod is eligible.
    let s = store_of(
        vec![node("node1", ONE_POD)],
        vec![terminating(pod("p1", LOW, "node1", &[]), false)],
    );
    assert_ne!(post_filter(&p, &s), Err(NOT_ELIGIBLE_TERMINATING.into()));
}

// upstream: TestPreempt (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// The nominated node and the victims (prepareCandidate's deletions are covered by the
// controller tests). Left out: the extender rows (no extenders). "preemption for topology
// spread constraints" is in `preempt_for_topology_spread_constraints`.
#[test]
fn preempt_rows() {
    let pods = || {
        vec![
            pod("p1.1", LOW, "node1", SMALL),
            pod("p1.2", LOW, "node1", SMALL),
            pod("p2.1", HIGH, "node2", LARGE),
            pod("p3.1", MID, "node3", MEDIUM),
        ]
    };
    let s = store_of(very_large_nodes(&["node1", "node2", "node3"]), pods());
    // "basic preemption logic"
    let p = with_policy(pod("p", HIGH, "", VERY_LARGE), "PreemptLowerPriority");
    assert_eq!(
        sorted(post_filter(&p, &s)),
        Ok(("node1".into(), names(&["p1.1", "p1.2"])))
    );
    // "no preempting in pod"
    let p = with_policy(pod("p", HIGH, "", VERY_LARGE), "Never");
    assert_eq!(
        post_filter(&p, &s),
        Err("preemption: not eligible due to preemptionPolicy=Never.".into())
    );
    // "PreemptionPolicy is nil"
    let p = pod("p", HIGH, "", VERY_LARGE);
    assert_eq!(
        sorted(post_filter(&p, &s)),
        Ok(("node1".into(), names(&["p1.1", "p1.2"])))
    );
}

// upstream: TestNodesWherePreemptionMightHelp (pkg/scheduler/framework/preemption/preemption_test.go)
// kubeplay skips a node for preemption exactly when its filter status is
// UnschedulableAndUnresolvable, so the rows are checked end to end: the filters have to give
// the codes upstream's rows hand in, and the PostFilter message says which nodes were tried
// ("No preemption victims found …" / the filter reason) and which were not ("Preemption is not
// helpful …"). Each node holds a pod of the incoming pod's priority on its only pod slot, so a
// tried node yields "No preemption victims found for incoming pod". Rows are kept for the
// reasons kubeplay's filters produce (node affinity, taints, node unschedulable, resources,
// plain Unschedulable / UnschedulableAndUnresolvable); the NodeName, volume, DiskConflict,
// unknown-condition and InterPodAffinity / PodTopologySpread reason rows are left out here
// (those plugins' codes are covered by their own filter tests).
#[test]
fn nodes_where_preemption_might_help() {
    // A node with one pod slot, taken by a pod of the incoming pod's priority.
    let full = |name: &str| node(name, ONE_POD);
    let holder = |node: &str| pod(&format!("holder-{node}"), HIGH, node, &[]);
    let mut incoming = pod("p", HIGH, "", &[]);
    incoming
        .spec_mut()
        .node_selector
        .insert("zone".into(), "z".into());
    let labelled = |mut n: Node| {
        n.metadata.labels.insert("zone".into(), "z".into());
        n
    };
    // "No node should be attempted": node affinity, taint, node unschedulable.
    let mut tainted = labelled(full("node2"));
    tainted.spec.taints = vec![taint("k", "v", "NoSchedule")];
    let mut cordoned = labelled(full("node3"));
    cordoned.spec.unschedulable = true;
    let s = store_of(
        vec![full("node1"), tainted, cordoned],
        vec![holder("node1"), holder("node2"), holder("node3")],
    );
    assert_eq!(
        post_filter(&incoming, &s),
        Err(
            "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
                .into()
        )
    );
    // "UnschedulableAndUnresolvable status should be skipped but Unschedulable should be tried"
    // / "Mix of failed predicates works fine": node1 and node3 are only full (Unschedulable),
    // node2 and node4 fail node affinity.
    let s = store_of(
        vec![
            labelled(full("node1")),
            full("node2"),
            labelled(full("node3")),
            full("node4"),
        ],
        vec![
            holder("node1"),
            holder("node2"),
            holder("node3"),
            holder("node4"),
        ],
    );
    assert_eq!(
        post_filter(&incoming, &s),
        Err(
            "preemption: 0/4 nodes are available: 2 No preemption victims found for incoming \
             pod, 2 Preemption is not helpful for scheduling."
                .into()
        )
    );
    // The same with lower-priority holders: the Unschedulable nodes are tried and become
    // candidates, the others are not (node2 wins the tie with node4 by name).
    let low = |node: &str| pod(&format!("low-{node}"), LOW, node, &[]);
    let s = store_of(
        vec![
            full("node1"),
            labelled(full("node2")),
            full("node3"),
            labelled(full("node4")),
        ],
        vec![low("node1"), low("node2"), low("node3"), low("node4")],
    );
    assert_eq!(
        post_filter(&incoming, &s),
        Ok(("node2".into(), names(&["low-node2"])))
    );
}

/// `.Label(key, "")`.
fn labelled_pod(mut p: Pod, key: &str) -> Pod {
    p.metadata.labels.insert(key.into(), "".into());
    p
}

/// `SpreadConstraint(1, key, DoNotSchedule, <foo> Exists, …)` for each key.
fn spread_on_foo(mut p: Pod, keys: &[&str]) -> Pod {
    let cs: Vec<serde_json::Value> = keys
        .iter()
        .map(|k| {
            serde_json::json!({
                "maxSkew": 1,
                "topologyKey": k,
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "Exists"}]},
            })
        })
        .collect();
    p.spec_mut()
        .extra
        .insert("topologySpreadConstraints".into(), cs.into());
    p
}

/// The DryRunPreemption / TestPreempt nodes: `name/zone` gives labels hostname=name, zone=zone.
fn labelled_nodes(specs: &[&str]) -> Vec<Node> {
    specs
        .iter()
        .map(|s| {
            let mut parts = s.split('/');
            let name = parts.next().unwrap_or_default();
            let mut n = node(name, VERY_LARGE);
            n.metadata.labels.insert("hostname".into(), name.into());
            if let Some(z) = parts.next() {
                n.metadata.labels.insert("zone".into(), z.into());
            }
            n
        })
        .collect()
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// "pod with anti-affinity is preempted" and "preemption to resolve pod topology spread filter
// failure" (the selected candidate; upstream lists node-a [pod-a2] and node-b [pod-b1] as the
// candidates, tied on every pickOneNodeForPreemption rule, and kubeplay picks node-a by name).
#[test]
fn dry_run_preemption_affinity_and_spread() {
    // "pod with anti-affinity is preempted"
    let mut anti = labelled_pod(pod("p1.1", LOW, "node1", SMALL), "foo");
    anti.spec_mut().affinity = Some(crate::api::Affinity {
        extra: serde_json::json!({"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{
                "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "Exists"}]},
                "topologyKey": "hostname",
            }],
        }})
        .as_object()
        .cloned()
        .unwrap_or_default(),
        ..Default::default()
    });
    // Upstream's dry run visits node2 too (its fake filter rejects every node); here node2
    // must fail a filter for the pod to reach PostFilter, so its only pod slot is taken (by a
    // pod of the incoming pod's priority, so it is no candidate, as upstream).
    let mut nodes = labelled_nodes(&["node1", "node2"]);
    let n2 = &mut nodes[1].status;
    n2.capacity.insert("pods".into(), Quantity("1".into()));
    n2.allocatable.insert("pods".into(), Quantity("1".into()));
    let s = store_of(
        nodes,
        vec![
            anti,
            pod("p1.2", MID, "node1", SMALL),
            pod("p1.3", HIGH, "node1", SMALL),
            pod("p2", HIGH, "node2", SMALL),
        ],
    );
    let p = labelled_pod(pod("p", HIGH, "", SMALL), "foo");
    assert_eq!(post_filter(&p, &s), Ok(("node1".into(), names(&["p1.1"]))));
    // "preemption to resolve pod topology spread filter failure"
    let foo = |name: &str, prio: i32, node: &str| labelled_pod(pod(name, prio, node, &[]), "foo");
    let s = store_of(
        labelled_nodes(&["node-a/zone1", "node-b/zone1", "node-x/zone2"]),
        vec![
            foo("pod-a1", MID, "node-a"),
            foo("pod-a2", LOW, "node-a"),
            foo("pod-b1", LOW, "node-b"),
            foo("pod-x1", HIGH, "node-x"),
            foo("pod-x2", HIGH, "node-x"),
        ],
    );
    let p = spread_on_foo(
        labelled_pod(pod("p", HIGH, "", &[]), "foo"),
        &["zone", "hostname"],
    );
    assert_eq!(
        post_filter(&p, &s),
        Ok(("node-a".into(), names(&["pod-a2"])))
    );
}

// upstream: TestPreempt (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// "preemption for topology spread constraints".
#[test]
fn preempt_for_topology_spread_constraints() {
    let foo = |name: &str, prio: i32, node: &str| labelled_pod(pod(name, prio, node, &[]), "foo");
    let s = store_of(
        labelled_nodes(&["node-a/zone1", "node-b/zone1", "node-x/zone2"]),
        vec![
            foo("p-a1", HIGH, "node-a"),
            foo("p-a2", HIGH, "node-a"),
            foo("p-b1", LOW, "node-b"),
            foo("p-x1", HIGH, "node-x"),
            foo("p-x2", HIGH, "node-x"),
        ],
    );
    let p = spread_on_foo(
        labelled_pod(pod("p", HIGH, "", &[]), "foo"),
        &["zone", "hostname"],
    );
    assert_eq!(post_filter(&p, &s), Ok(("node-b".into(), names(&["p-b1"]))));
}

// `GetPodStartTime` (pkg/scheduler/util/utils.go) in MoreImportantPod: a pod that has not
// started counts as started now, so a started pod of the same priority is older and more
// important, whatever the unstarted pod's creationTimestamp. Here both low pods must not stay:
// the started one is reprieved first and the unstarted one becomes the victim.
#[test]
fn unstarted_pod_is_less_important_than_a_started_one() {
    let mut unstarted = pod("b-unstarted", LOW, "node1", &[("cpu", "300m")]);
    unstarted.metadata.creation_timestamp = Some(Time::from_unix_secs(50));
    let s = store_of(
        vec![node("node1", &[("cpu", "700m")])],
        vec![
            started(pod("a-started", LOW, "node1", &[("cpu", "300m")]), 100),
            unstarted,
        ],
    );
    assert_eq!(
        post_filter(&pod("p", HIGH, "", &[("cpu", "200m")]), &s),
        Ok(("node1".into(), names(&["b-unstarted"])))
    );
}

// upstream: TestPrepareCandidate (pkg/scheduler/framework/preemption/preemption_test.go)
// "one victim without condition", through the simulation with the scheduler only (no kubelet,
// so the gracefully deleted victim stays visible): the victim gets the DisruptionTarget
// condition, is deleted and gets a Preempted event, and the preemptor is nominated to the node
// (TestPreempt's PostFilterResult). Left out: the API-error rows (fake client reactors) and the
// async-preemption bookkeeping.
/// One TestPrepareCandidate row: `victim1` (optionally already carrying the condition) is
/// preempted.
fn prepare_candidate_row(with_condition: bool) {
    use crate::api::Duration;
    use crate::features::FeatureGates;
    use crate::sim::Simulation;
    use crate::world::World;
    let start = Time::from_unix_secs(1_700_000_000);
    let mut s = Simulation::new(1, start, FeatureGates::default(), World::default());
    s.add_loop(new_scheduler());
    s.api.load(Object::Node(node("node1", VERY_LARGE))).unwrap();
    let with_image = |mut p: Pod| {
        p.spec_mut().containers[0].image = "nginx".into();
        p
    };
    let mut victim = with_image(pod("victim1", MID, "node1", LARGE));
    if with_condition {
        victim.set_condition(
            "DisruptionTarget",
            "True",
            "PreemptionByScheduler",
            "default-scheduler: preempting to accommodate a higher priority pod",
            start,
        );
    }
    s.api.load(Object::Pod(victim)).unwrap();
    s.api
        .create(Object::Pod(with_image(pod("preemptor", HIGH, "", LARGE))))
        .unwrap();
    s.run_until(start + Duration::from_secs(5)).unwrap();
    let victim = s.api.store.get::<Pod>("default", "victim1").unwrap();
    assert!(victim.metadata.deletion_timestamp.is_some());
    let c = victim.condition("DisruptionTarget").unwrap();
    assert_eq!(
        (c.status.as_str(), c.reason.as_str(), c.message.as_str()),
        (
            "True",
            "PreemptionByScheduler",
            "default-scheduler: preempting to accommodate a higher priority pod"
        )
    );
    let preempted: Vec<String> = s
        .api
        .events
        .iter()
        .filter(|e| e.name == "victim1" && e.reason == "Preempted")
        .map(|e| e.message.clone())
        .collect();
    let p = s.api.store.get::<Pod>("default", "preemptor").unwrap();
    // The preemptor's UID (assigned by the API server), as upstream's "Preempted by pod %v on
    // node %v".
    assert_eq!(
        preempted,
        vec![format!("Preempted by pod {} on node node1", p.metadata.uid)]
    );
    assert_eq!(nominated_node(p), Some("node1"));
    assert!(p.spec.node_name.is_empty());
}

#[test]
fn prepare_candidate_one_victim_without_condition() {
    prepare_candidate_row(false);
}

// upstream: TestPrepareCandidate (pkg/scheduler/framework/preemption/preemption_test.go)
// "one victim with same condition": the condition is already there; the victim is still
// deleted.
#[test]
fn prepare_candidate_one_victim_with_same_condition() {
    prepare_candidate_row(true);
}
