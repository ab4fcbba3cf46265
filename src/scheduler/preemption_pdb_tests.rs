//! PodDisruptionBudgets in DefaultPreemption: ports of the upstream rows that
//! `preemption_tests.rs` left out for want of PDBs, run through [`schedule_pod`] with the PDBs
//! in the store. Each row checks the picked node and its victims and, through the dry run's
//! candidate list, every candidate's victims and `NumPDBViolations`.

use super::preemption_tests::{
    self, node, HIGH, LARGE, LOW, MEDIUM, MID, ONE_POD, VERY_HIGH, VERY_LARGE,
};
use super::*;
use crate::api::LabelSelector;

/// `st.MakePod().Name(name).UID(name).Namespace("default").Priority(prio).Node(node)
/// .Req(req).Label(..)`: `preemption_tests`' pod with labels.
fn pod(name: &str, prio: i32, node: &str, req: &[(&str, &str)], labels: &[(&str, &str)]) -> Pod {
    let mut p = preemption_tests::pod(name, prio, node, req);
    for (k, v) in labels {
        p.metadata.labels.insert(k.to_string(), v.to_string());
    }
    p
}

/// A PDB in `ns` selecting `match_labels`, with `status.disruptionsAllowed` and
/// `status.disruptedPods` as given (what the disruption controller would have computed).
fn pdb_in(
    ns: &str,
    name: &str,
    match_labels: &[(&str, &str)],
    allowed: i32,
    disrupted: &[&str],
) -> PodDisruptionBudget {
    let mut b = PodDisruptionBudget::default();
    b.metadata.name = name.into();
    b.metadata.namespace = ns.into();
    let labels: Labels = match_labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    b.spec.selector = Some(LabelSelector::from_labels(&labels));
    b.status.disruptions_allowed = allowed;
    for d in disrupted {
        b.status
            .disrupted_pods
            .insert(d.to_string(), Time::from_unix_secs(0));
    }
    b
}

fn pdb(
    name: &str,
    match_labels: &[(&str, &str)],
    allowed: i32,
    disrupted: &[&str],
) -> PodDisruptionBudget {
    pdb_in("default", name, match_labels, allowed, disrupted)
}

pub(super) fn store_of(nodes: Vec<Node>, pods: Vec<Pod>, pdbs: Vec<PodDisruptionBudget>) -> Store {
    let mut s = Store::new();
    for n in nodes {
        s.put(Object::Node(n));
    }
    for p in pods {
        s.put(Object::Pod(p));
    }
    for b in pdbs {
        s.put(Object::PodDisruptionBudget(b));
    }
    s
}

/// A candidate as the upstream tables write it: node, victim names (sorted), PDB violations.
type Cand = (String, Vec<String>, usize);

fn cand(node: &str, victims: &[&str], violations: usize) -> Cand {
    (
        node.to_string(),
        victims.iter().map(|s| s.to_string()).collect(),
        violations,
    )
}

/// Schedules `p` (expecting preemption): the picked node with its victims in the order
/// preemption returns them, and every dry-run candidate (sorted by node, victims by name), from
/// [`dry_run_preemption`] over the same inputs.
fn preempt_with(p: &Pod, store: &Store) -> ((String, Vec<String>), Vec<Cand>) {
    let picked = match schedule_pod(p, store) {
        Outcome::Unschedulable {
            preempt: Some((node, victims)),
            ..
        } => (
            node,
            victims.iter().map(|v| v.metadata.name.clone()).collect(),
        ),
        other => panic!("expected a preemption, got {other:?}"),
    };
    let mut cands: Vec<Cand> = super::preemption_dry_run_tests::dry_run_all(p, store)
        .candidates
        .iter()
        .map(|c| {
            let mut names: Vec<String> =
                c.victims.iter().map(|p| p.metadata.name.clone()).collect();
            names.sort();
            (c.name.clone(), names, c.num_pdb_violations)
        })
        .collect();
    cands.sort();
    (picked, cands)
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// (formerly TestSelectNodesForPreemption in generic_scheduler_test.go) — the PDB rows. The
// upstream pods and PDBs have no namespace; here both are in "default".
#[test]
fn dry_run_preemption_pdb_rows() {
    let foo = &[("app", "foo")];
    let p = pod("p", HIGH, "", VERY_LARGE, &[]);
    let two = || {
        vec![
            pod("p1.1", MID, "node1", MEDIUM, foo),
            pod("p1.2", MID, "node1", MEDIUM, foo),
        ]
    };
    type Row = (&'static str, Vec<Pod>, PodDisruptionBudget, Cand);
    let rows: Vec<Row> = vec![
        (
            "preemption with violation of same pdb",
            two(),
            pdb("pdb", foo, 1, &[]),
            cand("node1", &["p1.1", "p1.2"], 1),
        ),
        (
            "preemption with violation of the pdb with pod whose eviction was processed, the \
             victim doesn't belong to DisruptedPods",
            two(),
            pdb("pdb", foo, 1, &["p2"]),
            cand("node1", &["p1.1", "p1.2"], 1),
        ),
        (
            "preemption with violation of the pdb with pod whose eviction was processed, the \
             victim belongs to DisruptedPods",
            two(),
            pdb("pdb", foo, 1, &["p1.2"]),
            cand("node1", &["p1.1", "p1.2"], 0),
        ),
        (
            "preemption with violation of the pdb with pod whose eviction was processed, the \
             victim which belongs to DisruptedPods is treated as 'nonViolating'",
            {
                let mut v = two();
                v.push(pod("p1.3", MID, "node1", MEDIUM, foo));
                v
            },
            pdb("pdb", foo, 1, &["p1.3"]),
            cand("node1", &["p1.1", "p1.2", "p1.3"], 1),
        ),
    ];
    for (name, pods, budget, want) in rows {
        let s = store_of(vec![node("node1", VERY_LARGE)], pods, vec![budget]);
        let (picked, cands) = preempt_with(&p, &s);
        assert_eq!(cands, vec![want.clone()], "{name}");
        assert_eq!(picked.0, want.0, "{name}");
    }
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// "preemption looks past numCandidates until a non-PDB violating node is found". kubeplay has
// no candidate limit (MinCandidateNodesPercentage / Absolute): every node is dry-run, so node2
// and node4 are candidates too; each node's victims and violations are upstream's, and the
// pick (SelectCandidate over upstream's node1 / node3 / node5) is node3, which violates none.
#[test]
fn dry_run_preemption_prefers_a_non_violating_node() {
    let foo = &[("app", "foo")];
    let nodes = ["node1", "node2", "node3", "node4", "node5"]
        .iter()
        .map(|n| node(n, VERY_LARGE))
        .collect();
    let s = store_of(
        nodes,
        vec![
            pod("p1", MID, "node1", LARGE, foo),
            pod("p2", MID, "node2", LARGE, foo),
            pod("p3", MID, "node3", LARGE, &[]),
            pod("p4", MID, "node4", LARGE, &[]),
            pod("p5", MID, "node5", LARGE, foo),
        ],
        vec![pdb("pdb", foo, 0, &[])],
    );
    let (picked, cands) = preempt_with(&pod("p", HIGH, "", LARGE, &[]), &s);
    assert_eq!(
        cands,
        vec![
            cand("node1", &["p1"], 1),
            cand("node2", &["p2"], 1),
            cand("node3", &["p3"], 0),
            cand("node4", &["p4"], 0),
            cand("node5", &["p5"], 1),
        ]
    );
    assert_eq!(picked, ("node3".to_string(), names(&["p3"])));
}

// upstream: TestPostFilter (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// "pod can be made schedulable on minHighestPriority node", with its PDBs: a "violating-pdb"
// (minAvailable 100%, so disruptionsAllowed 0) and a "non-violating-pdb" (disruptionsAllowed
// MaxInt32). Both nodes have one PDB violation; node2 wins on the lower highest priority.
#[test]
fn post_filter_min_highest_priority_node_with_pdbs() {
    const KEY: &str = "test.kubernetes.io/is-violating-pdb";
    let violating = &[(KEY, "violating")];
    let non_violating = &[(KEY, "non-violating")];
    let s = store_of(
        vec![node("node1", ONE_POD), node("node2", ONE_POD)],
        vec![
            pod("p1", HIGH, "node1", &[], non_violating),
            pod("p2", LOW, "node1", &[], violating),
            pod("p3", MID, "node2", &[], violating),
        ],
        vec![
            pdb("violating-pdb", violating, 0, &[]),
            pdb("non-violating-pdb", non_violating, i32::MAX, &[]),
        ],
    );
    let (picked, cands) = preempt_with(&pod("p", VERY_HIGH, "", &[], &[]), &s);
    assert_eq!(
        cands,
        vec![cand("node1", &["p1", "p2"], 1), cand("node2", &["p3"], 1)]
    );
    assert_eq!(picked, ("node2".to_string(), names(&["p3"])));
}

/// `mkMinAvailablePDB(name, ns, uid, 2, labels)` once the disruption controller has counted
/// `healthy` ready pods: `disruptionsAllowed = healthy - 2` (never below 0).
fn min_available_two(name: &str, labels: &[(&str, &str)], healthy: i32) -> PodDisruptionBudget {
    pdb(name, labels, (healthy - 2).max(0), &[])
}

// upstream: TestPDBInPreemption (test/integration/scheduler/preemption/preemption_test.go)
// The integration test runs the disruption controller; here each PDB carries the
// `disruptionsAllowed` it computes (minAvailable 2 over `pdbPodNum` healthy pods). Nodes have
// 500m CPU, 500 memory and 32 pods; the existing pods request 100m / 100.
#[test]
fn pdb_in_preemption() {
    let res: &[(&str, &str)] = &[("cpu", "100m"), ("memory", "100")];
    let bar = &[("foo", "bar")];
    let nodes = |n: usize| -> Vec<Node> {
        (1..=n)
            .map(|i| node(&format!("node-{i}"), VERY_LARGE))
            .collect()
    };

    // "A non-PDB violating pod is preempted despite its higher priority": the two low pods
    // violate the PDB, so they are reprieved first and the mid pod is the victim.
    let s = store_of(
        nodes(1),
        vec![
            pod("low-pod1", LOW, "node-1", res, bar),
            pod("low-pod2", LOW, "node-1", res, bar),
            pod("mid-pod3", MID, "node-1", res, &[]),
        ],
        vec![min_available_two("pdb-1", bar, 2)],
    );
    let p = pod(
        "preemptor-pod",
        HIGH,
        "",
        &[("cpu", "300m"), ("memory", "200")],
        &[],
    );
    let (picked, cands) = preempt_with(&p, &s);
    assert_eq!(picked, ("node-1".to_string(), names(&["mid-pod3"])));
    assert_eq!(cands, vec![cand("node-1", &["mid-pod3"], 0)]);

    // "A node without any PDB violating pods is preferred for preemption".
    let s = store_of(
        nodes(2),
        vec![
            pod("low-pod1", LOW, "node-1", res, bar),
            pod("mid-pod2", MID, "node-2", res, &[]),
        ],
        vec![min_available_two("pdb-1", bar, 1)],
    );
    let p = pod(
        "preemptor-pod",
        HIGH,
        "",
        &[("cpu", "500m"), ("memory", "200")],
        &[],
    );
    let (picked, cands) = preempt_with(&p, &s);
    assert_eq!(picked, ("node-2".to_string(), names(&["mid-pod2"])));
    assert_eq!(
        cands,
        vec![
            cand("node-1", &["low-pod1"], 1),
            cand("node-2", &["mid-pod2"], 0)
        ]
    );

    // "A node with fewer PDB violating pods is preferred for preemption": node-2 and node-3
    // violate nothing (pdb-2 allows 3), node-3's victims have the lower priority.
    let foo1 = &[("foo1", "bar")];
    let foo2 = &[("foo2", "bar")];
    let s = store_of(
        nodes(3),
        vec![
            pod("low-pod1", LOW, "node-1", res, foo1),
            pod("mid-pod1", MID, "node-1", res, &[]),
            pod("low-pod2", LOW, "node-2", res, foo2),
            pod("mid-pod2", MID, "node-2", res, foo2),
            pod("low-pod4", LOW, "node-3", res, foo2),
            pod("low-pod5", LOW, "node-3", res, foo2),
            pod("low-pod6", LOW, "node-3", res, foo2),
        ],
        vec![
            min_available_two("pdb-1", foo1, 1),
            min_available_two("pdb-2", foo2, 5),
        ],
    );
    let p = pod(
        "preemptor-pod",
        HIGH,
        "",
        &[("cpu", "500m"), ("memory", "400")],
        &[],
    );
    let (picked, cands) = preempt_with(&p, &s);
    assert_eq!(picked.0, "node-3");
    let mut victims = picked.1;
    victims.sort();
    assert_eq!(victims, names(&["low-pod4", "low-pod5", "low-pod6"]));
    assert_eq!(
        cands,
        vec![
            cand("node-1", &["low-pod1", "mid-pod1"], 1),
            cand("node-2", &["low-pod2", "mid-pod2"], 0),
            cand("node-3", &["low-pod4", "low-pod5", "low-pod6"], 0),
        ]
    );
}

/// The victims come back in order of importance even when both PDB groups have victims
/// (`SelectVictimsOnNode` sorts them again after the two reprieve passes).
#[test]
fn victims_are_sorted_by_importance_after_both_reprieve_passes() {
    let foo = &[("app", "foo")];
    // p-low violates the PDB (0 allowed) and is reprieved first, but nothing fits beside the
    // preemptor: both go, the mid-priority (non-violating) one first.
    let s = store_of(
        vec![node("node1", VERY_LARGE)],
        vec![
            pod("p-low", LOW, "node1", MEDIUM, foo),
            pod("p-mid", MID, "node1", MEDIUM, &[]),
        ],
        vec![pdb("pdb", foo, 0, &[])],
    );
    let (picked, cands) = preempt_with(&pod("p", HIGH, "", VERY_LARGE, &[]), &s);
    assert_eq!(picked, ("node1".to_string(), names(&["p-mid", "p-low"])));
    assert_eq!(cands, vec![cand("node1", &["p-low", "p-mid"], 1)]);
}

/// `filterPodsWithPDBViolation` (default_preemption.go) on its own: the budget is per PDB and
/// decremented per covered pod in the given order; only a PDB of the pod's namespace whose
/// non-empty, valid selector matches counts; a pod without labels, or already in the PDB's
/// `disruptedPods`, is never violating; every matching PDB is decremented (no early exit).
#[test]
fn filter_pods_with_pdb_violation_cases() {
    let foo = &[("app", "foo")];
    let a = pod("a", LOW, "n", &[], foo);
    let b = pod("b", LOW, "n", &[], foo);
    let c = pod("c", LOW, "n", &[], foo);
    let bare = pod("bare", LOW, "n", &[], &[]);
    let mut other_ns = pod("other", LOW, "n", &[], foo);
    other_ns.metadata.namespace = "other".into();
    let split = |pods: &[&Pod], pdbs: Vec<PodDisruptionBudget>| -> (Vec<String>, Vec<String>) {
        let mut s = Store::new();
        for b in pdbs {
            s.put(Object::PodDisruptionBudget(b));
        }
        let list = get_pod_disruption_budgets(&s);
        let (v, n) = filter_pods_with_pdb_violation(pods, &list);
        let n_of = |x: Vec<&Pod>| x.iter().map(|p| p.metadata.name.clone()).collect();
        (n_of(v), n_of(n))
    };
    // The budget runs out after the first pod, in the order given.
    assert_eq!(
        split(&[&a, &b, &c], vec![pdb("p", foo, 1, &[])]),
        (names(&["b", "c"]), names(&["a"]))
    );
    assert_eq!(
        split(&[&c, &b, &a], vec![pdb("p", foo, 2, &[])]),
        (names(&["a"]), names(&["c", "b"]))
    );
    // Already disrupted pods do not use the budget.
    assert_eq!(
        split(&[&a, &b, &c], vec![pdb("p", foo, 1, &["a", "b"])]),
        (names(&[]), names(&["a", "b", "c"]))
    );
    // Another namespace, no labels: not covered.
    assert_eq!(
        split(&[&other_ns, &bare], vec![pdb("p", foo, 0, &[])]),
        (names(&[]), names(&["other", "bare"]))
    );
    assert_eq!(
        split(&[&other_ns], vec![pdb_in("other", "p", foo, 0, &[])]),
        (names(&["other"]), names(&[]))
    );
    // A nil, empty or invalid selector matches nothing.
    let mut nil = pdb("nil", foo, 0, &[]);
    nil.spec.selector = None;
    let mut empty = pdb("empty", foo, 0, &[]);
    empty.spec.selector = Some(LabelSelector::default());
    let mut invalid = pdb("invalid", foo, 0, &[]);
    invalid.spec.selector = Some(
        serde_json::from_value(serde_json::json!({
            "matchExpressions": [{"key": "app", "operator": "Bogus"}]
        }))
        .unwrap(),
    );
    assert_eq!(
        split(&[&a], vec![nil, empty, invalid]),
        (names(&[]), names(&["a"]))
    );
    // Two covering PDBs: both are decremented for each pod, and one running out is enough.
    let two_labels = pod("d", LOW, "n", &[], &[("app", "foo"), ("tier", "web")]);
    let e = pod("e", LOW, "n", &[], &[("app", "foo"), ("tier", "web")]);
    assert_eq!(
        split(
            &[&two_labels, &e],
            vec![
                pdb("wide", foo, 5, &[]),
                pdb("narrow", &[("tier", "web")], 1, &[])
            ]
        ),
        (names(&["e"]), names(&["d"]))
    );
    assert_eq!(
        split(
            &[&two_labels, &e],
            vec![
                pdb("wide", foo, 1, &[]),
                pdb("narrow", &[("tier", "web")], 5, &[])
            ]
        ),
        (names(&["e"]), names(&["d"]))
    );
}
