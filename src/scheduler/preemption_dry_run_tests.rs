//! DefaultPreemption's candidate search, called directly: [`dry_run_preemption`] with the
//! offset and candidate count of `GetOffsetAndNumCandidates`, [`calculate_num_candidates`],
//! the 1.35 handling of a node that needs no victim, the nominated-node clearing of
//! `Preempt` / `prepareCandidate`, and the seeded offset in the scheduler.

use super::preemption_pdb_tests::store_of;
use super::preemption_tests::{node, pod, HIGH, LARGE, LOW, MID, SMALL, VERY_HIGH, VERY_LARGE};
use super::*;
use crate::api::LabelSelector;

/// The inputs `preempt` hands the dry run, built from the store: the nodes whose filter status
/// for `p` is Unschedulable (`all`: every node, as upstream's TestDryRunPreemption passes the
/// whole snapshot), the cycle state and the PDBs.
fn dry_run_in(p: &Pod, store: &Store, all: bool, offset: usize, num: Option<usize>) -> DryRun {
    let nodes = schedulable_nodes(store);
    let infos = node_infos(p, store, &nodes);
    let cs = CycleState::new(p, store, &nodes);
    let req = pod_requests(p, false);
    let potential: Vec<(&Node, &NodeInfo)> = nodes
        .iter()
        .zip(infos.iter())
        .filter(|(n, ni)| {
            all || run_filters_req(p, &req, &cs, n, ni)
                .is_some_and(|s| s.code == Code::Unschedulable)
        })
        .map(|(n, ni)| (*n, ni))
        .collect();
    let pdbs = get_pod_disruption_budgets(store);
    let num = num.unwrap_or_else(|| {
        usize::try_from(calculate_num_candidates(potential.len() as i32)).unwrap_or(0)
    });
    dry_run_preemption(p, &potential, &cs, None, &pdbs, offset, num)
}

/// The dry run `preempt` runs for `p` (potential nodes from the filters, default candidate
/// count), from the first potential node.
pub(super) fn dry_run_all(p: &Pod, store: &Store) -> DryRun {
    dry_run_in(p, store, false, 0, None)
}

/// Candidates as upstream's tables compare them: sorted by node, victims by name.
fn sorted_candidates(d: &DryRun) -> Vec<(String, Vec<String>, usize)> {
    let mut out: Vec<(String, Vec<String>, usize)> = d
        .candidates
        .iter()
        .map(|c| {
            let mut v: Vec<String> = c.victims.iter().map(|p| p.metadata.name.clone()).collect();
            v.sort();
            (c.name.clone(), v, c.num_pdb_violations)
        })
        .collect();
    out.sort();
    out
}

fn cand(node: &str, victims: &[&str], violations: usize) -> (String, Vec<String>, usize) {
    (
        node.into(),
        victims.iter().map(|s| s.to_string()).collect(),
        violations,
    )
}

fn nodes(names: &[&str]) -> Vec<Node> {
    names.iter().map(|n| node(n, VERY_LARGE)).collect()
}

const FIVE: &[&str] = &["node1", "node2", "node3", "node4", "node5"];

/// Upstream's rows use `DefaultPreemptionArgs{MinCandidateNodesPercentage: 40,
/// MinCandidateNodesAbsolute: 1}` over 5 nodes.
fn num_40_percent(abs: i32) -> Option<usize> {
    usize::try_from(calculate_num_candidates_with(5, 40, abs)).ok()
}

// `calculateNumCandidates` (pkg/scheduler/framework/plugins/defaultpreemption/
// default_preemption.go; upstream has no table test for it): n × pct / 100, at least the
// absolute minimum, at most n. The defaults (10 %, 100) from SetDefaults_DefaultPreemptionArgs.
#[test]
fn calculate_num_candidates_rows() {
    let rows: &[(i32, i32, i32, i32)] = &[
        // (numNodes, percentage, absolute, want)
        (5, 40, 1, 2),
        (5, 40, 2, 2),
        (5, 40, 3, 3),
        (5, 100, 1, 5),
        (3, 10, 100, 3),
        (0, 10, 100, 0),
        (100, 10, 100, 100),
        (500, 10, 100, 100),
        (1000, 10, 100, 100),
        (2000, 10, 100, 200),
        (5000, 10, 100, 500),
        (5000, 0, 0, 0),
    ];
    for &(n, pct, abs, want) in rows {
        assert_eq!(
            calculate_num_candidates_with(n, pct, abs),
            want,
            "{n} {pct} {abs}"
        );
    }
    assert_eq!(calculate_num_candidates(2000), 200);
    assert_eq!(calculate_num_candidates(42), 42);
    // GetOffsetAndNumCandidates: the offset is the random source's draw over the nodes.
    let mut asked = vec![];
    let got = get_offset_and_num_candidates(250, &mut |n| {
        asked.push(n);
        17
    });
    assert_eq!(got, (17, 100));
    assert_eq!(asked, vec![250]);
    let mut rng = crate::rng::Rng::new(4);
    for _ in 0..100 {
        let (o, _) = get_offset_and_num_candidates(5, &mut |n| {
            usize::try_from(rng.below(n as u64)).unwrap()
        });
        assert!(o < 5);
    }
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// The DefaultPreemptionArgs rows, with the offsets upstream's seeded source gives
// (`rand.New(rand.NewSource(4)).Int31n(5)`: 4, then 1, then 3, as the rows' comments say).
#[test]
fn dry_run_preemption_candidate_limits() {
    let p = pod("p", HIGH, "", LARGE);
    // "all nodes are possible candidates, but DefaultPreemptionArgs limits to 2"
    // cycle=0 => offset=4 => node5 (yes), node1 (yes)
    let s = store_of(
        nodes(FIVE),
        (1..=5)
            .map(|i| pod(&format!("p{i}"), MID, &format!("node{i}"), LARGE))
            .collect(),
        vec![],
    );
    let d = dry_run_in(&p, &s, true, 4, num_40_percent(1));
    assert_eq!(
        sorted_candidates(&d),
        vec![cand("node1", &["p1"], 0), cand("node5", &["p5"], 0)]
    );
    // Walk order: node5 first.
    assert_eq!(d.candidates[0].name, "node5");
    // "preemption offset across multiple scheduling cycles and wrap around"
    for (offset, want) in [
        (4, ["node1", "node5"]),
        (1, ["node2", "node3"]),
        (3, ["node4", "node5"]),
    ] {
        let d = dry_run_in(&p, &s, true, offset, num_40_percent(1));
        let got: Vec<String> = sorted_candidates(&d).into_iter().map(|c| c.0).collect();
        assert_eq!(got, want, "offset {offset}");
    }
    // "some nodes are not possible candidates, DefaultPreemptionArgs limits to 2"
    // cycle=0 => offset=4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
    let prio = |i: i32| if i == 2 || i == 5 { VERY_HIGH } else { MID };
    let s = store_of(
        nodes(FIVE),
        (1..=5)
            .map(|i| pod(&format!("p{i}"), prio(i), &format!("node{i}"), LARGE))
            .collect(),
        vec![],
    );
    let d = dry_run_in(&p, &s, true, 4, num_40_percent(1));
    assert_eq!(
        sorted_candidates(&d),
        vec![cand("node1", &["p1"], 0), cand("node3", &["p3"], 0)]
    );
    // node4 was never examined; node5 and node2 have no lower-priority pod.
    let examined: Vec<&str> = d.node_statuses.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(examined, vec!["node5", "node2"]);
    assert!(d
        .node_statuses
        .iter()
        .all(|(_, st)| st.reasons == vec![NO_PREEMPTION_VICTIMS.to_string()]));
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// "preemption looks past numCandidates until a non-PDB violating node is found"
// (MinCandidateNodesPercentage 40, MinCandidateNodesAbsolute 2; offset 4): node5 (yes, pdb),
// node1 (yes, pdb), node2 (no: the violating list is full), node3 (yes) — three candidates
// for a limit of 2. The upstream PDB and pods have no namespace; here both are in "default".
#[test]
fn dry_run_preemption_looks_past_num_candidates() {
    let foo = |mut x: Pod| {
        x.metadata.labels.insert("app".into(), "foo".into());
        x
    };
    let pods = vec![
        foo(pod("p1", MID, "node1", LARGE)),
        foo(pod("p2", MID, "node2", LARGE)),
        pod("p3", MID, "node3", LARGE),
        pod("p4", MID, "node4", LARGE),
        foo(pod("p5", MID, "node5", LARGE)),
    ];
    let mut pdb = PodDisruptionBudget::default();
    pdb.metadata.name = "pdb".into();
    pdb.metadata.namespace = "default".into();
    let labels: Labels = [("app".to_string(), "foo".to_string())]
        .into_iter()
        .collect();
    pdb.spec.selector = Some(LabelSelector::from_labels(&labels));
    pdb.status.disruptions_allowed = 0;
    let s = store_of(nodes(FIVE), pods, vec![pdb]);
    let p = pod("p", HIGH, "", LARGE);
    let d = dry_run_in(&p, &s, true, 4, num_40_percent(2));
    assert_eq!(
        sorted_candidates(&d),
        vec![
            cand("node1", &["p1"], 1),
            cand("node3", &["p3"], 0),
            cand("node5", &["p5"], 1),
        ]
    );
    // The non-violating candidates come first, then the violating ones in walk order.
    let order: Vec<&str> = d.candidates.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(order, vec!["node3", "node5", "node1"]);
    // pickOneNodeForPreemption: fewest PDB violations.
    assert_eq!(
        pick_one_node_for_preemption(&d.candidates).map(|i| d.candidates[i].name.as_str()),
        Some("node3")
    );
}

// upstream: TestDryRunPreemption (pkg/scheduler/framework/preemption/preemption_test.go)
// "no pdb violation" with offset 0 and every node as the limit: both nodes are candidates.
#[test]
fn dry_run_preemption_every_node_without_limit() {
    let s = store_of(
        nodes(&["node1", "node2"]),
        vec![
            pod("p1", MID, "node1", LARGE),
            pod("p2", MID, "node2", LARGE),
        ],
        vec![],
    );
    let p = pod("p", HIGH, "", LARGE);
    let d = dry_run_in(&p, &s, true, 0, Some(2));
    assert_eq!(
        sorted_candidates(&d),
        vec![cand("node1", &["p1"], 0), cand("node2", &["p2"], 0)]
    );
    // The same through `preempt`'s inputs (both nodes Unschedulable).
    assert_eq!(
        sorted_candidates(&dry_run_all(&p, &s)),
        sorted_candidates(&d)
    );
}

// A node that needs no victim (1.35 DryRunPreemption: `status.IsSuccess() && len(pods) == 0`
// becomes the Error "expected at least one victim pod on node %q"; kubernetes#135486 changes
// that only in 1.38). The pod fits node1 with its lower-priority pod present.
#[test]
fn dry_run_preemption_zero_victims_is_an_error() {
    let s = store_of(
        nodes(&["node1", "node2"]),
        vec![
            pod("p1", MID, "node1", SMALL),
            pod("p2", MID, "node2", VERY_LARGE),
        ],
        vec![],
    );
    let p = pod("p", HIGH, "", LARGE);
    let d = dry_run_in(&p, &s, true, 0, Some(2));
    assert_eq!(
        d.errors,
        vec!["expected at least one victim pod on node \"node1\"".to_string()]
    );
    // node2 is still a candidate, and it is the one picked (the error is ignored).
    assert_eq!(sorted_candidates(&d), vec![cand("node2", &["p2"], 0)]);
    // Preempt with no other candidate: the aggregated error is the PostFilter's Error status
    // ("preemption: …"), which stands alone in the FitError (DynamicResources' answer is not
    // merged) and leaves the nominated node as it is.
    let s = store_of(
        nodes(&["node1"]),
        vec![pod("p1", MID, "node1", SMALL)],
        vec![],
    );
    let all = schedulable_nodes(&s);
    let infos = node_infos(&p, &s, &all);
    let cs = CycleState::new(&p, &s, &all);
    let statuses: BTreeMap<String, Status> = [(
        "node1".to_string(),
        Status::new(
            Code::Unschedulable,
            "NodeResourcesFit",
            vec!["Insufficient cpu".into()],
        ),
    )]
    .into_iter()
    .collect();
    let r = preempt(&p, &s, &all, &infos, &statuses, &cs, None, &mut |_| 0);
    assert!(matches!(&r, PreemptResult::Error(m)
        if m == "expected at least one victim pod on node \"node1\""));
    assert_eq!(
        post_filter_message(r),
        (
            "preemption: expected at least one victim pod on node \"node1\"".to_string(),
            false
        )
    );
    // Two such nodes: utilerrors' aggregate, `[a, b]`.
    assert_eq!(
        aggregate_error(&["a".into(), "b".into(), "a".into()]),
        "[a, b]".to_string()
    );
    assert_eq!(aggregate_error(&["a".into(), "a".into()]), "a".to_string());
}

// Evaluator.Preempt: no candidate → `NewPostFilterResultWithNominatedNode("")`, which clears
// the pod's nominated node; not eligible → a nil result, which keeps it.
// upstream: TestPostFilter (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go)
// "pod with tied priority is still unschedulable" (wantResult NominatedNode "") and
// TestPreempt's "no preempting in pod" (want nil).
#[test]
fn no_candidates_clears_the_nominated_node() {
    let s = store_of(
        vec![node("node1", &[("pods", "1")])],
        vec![pod("p1", LOW, "node1", &[])],
        vec![],
    );
    let mut tied = pod("p", LOW, "", &[]);
    tied.status
        .extra
        .insert("nominatedNodeName".into(), "node1".into());
    let (o, _, clear) = schedule_pod_with(&tied, &s, 0, &mut |_| 0);
    assert!(clear);
    assert!(matches!(o, Outcome::Unschedulable { preempt: None, .. }));
    let mut never = pod("p", HIGH, "", &[]);
    never
        .spec_mut()
        .extra
        .insert("preemptionPolicy".into(), "Never".into());
    never
        .status
        .extra
        .insert("nominatedNodeName".into(), "node1".into());
    let (_, _, clear) = schedule_pod_with(&never, &s, 0, &mut |_| 0);
    assert!(!clear);
}

// The scheduler's offset: with more potential nodes than the default limit (100), the dry run
// covers 100 nodes from the offset, so the offset decides which equal candidates exist. 120
// full nodes, each with one lower-priority pod: from offset 7, nodes 7..106 are candidates
// and the tie goes to the first by name (upstream: map order), node-007.
#[test]
fn offset_decides_the_candidates_past_the_limit() {
    let names: Vec<String> = (0..120).map(|i| format!("node-{i:03}")).collect();
    let mut nodes = vec![];
    let mut pods = vec![];
    for n in &names {
        nodes.push(node(n, &[("pods", "1")]));
        pods.push(pod(&format!("v-{n}"), LOW, n, &[]));
    }
    let s = store_of(nodes, pods, vec![]);
    let p = pod("p", HIGH, "", &[]);
    for (offset, want) in [(0, "node-000"), (7, "node-007"), (110, "node-000")] {
        let mut asked = vec![];
        let (o, _, _) = schedule_pod_with(&p, &s, 0, &mut |n| {
            asked.push(n);
            offset
        });
        match o {
            Outcome::Unschedulable {
                preempt: Some((node, _)),
                ..
            } => assert_eq!(node, want, "offset {offset}"),
            other => panic!("expected a preemption, got {other:?}"),
        }
        assert_eq!(asked, vec![120]);
    }
    let d = dry_run_in(&p, &s, false, 7, None);
    assert_eq!(d.candidates.len(), 100);
    assert_eq!(d.candidates[0].name, "node-007");
    assert_eq!(d.candidates[99].name, "node-106");
}

/// A pod created through the API (defaulted, with an image) for the simulation tests.
fn api_pod(name: &str, prio: i32, cpu: &str) -> Pod {
    let mut p = pod(name, prio, "", &[("cpu", cpu)]);
    p.metadata.uid = String::new();
    p.spec_mut().containers[0].image = "nginx".into();
    p
}

/// One TestNominatedNodeCleanUp row through the simulation with the scheduler only (no
/// kubelet: preempted pods stay, terminating, until force-deleted): a node `fake-node` of
/// `cpu`, then each batch of (name, priority, cpu) pods created and run for 5 s of virtual
/// time; returns the simulation.
fn nominated_clean_up_sim(cpu: &str, batches: &[&[(&str, i32, &str)]]) -> crate::sim::Simulation {
    use crate::api::Duration;
    use crate::features::FeatureGates;
    use crate::sim::Simulation;
    use crate::world::World;
    let start = Time::from_unix_secs(1_700_000_000);
    let mut s = Simulation::new(1, start, FeatureGates::default(), World::default());
    s.add_loop(new_scheduler());
    s.api
        .load(Object::Node(node("fake-node", &[("cpu", cpu)])))
        .unwrap();
    let mut t = start;
    for batch in batches {
        for (name, prio, cpu) in batch.iter() {
            s.api
                .create(Object::Pod(api_pod(name, *prio, cpu)))
                .unwrap();
        }
        t = t + Duration::from_secs(5);
        s.run_until(t).unwrap();
    }
    s
}

fn nominated(s: &crate::sim::Simulation, name: &str) -> Option<String> {
    s.api
        .store
        .get::<Pod>("default", name)
        .and_then(|p| nominated_node(p).map(str::to_string))
}

fn bound(s: &crate::sim::Simulation, name: &str) -> String {
    s.api
        .store
        .get::<Pod>("default", name)
        .map(|p| p.spec.node_name.clone())
        .unwrap_or_default()
}

/// Force-deletes a (terminating) pod, or deletes the node, and runs `secs` more seconds.
fn remove_and_run(s: &mut crate::sim::Simulation, pods: &[&str], node: bool, secs: i64) {
    use crate::api::Duration;
    let force = DeleteOptions {
        grace_period_seconds: Some(0),
        ..Default::default()
    };
    for name in pods {
        s.api.delete("Pod", "default", name, &force).unwrap();
    }
    if node {
        s.api.delete("Node", "", "fake-node", &force).unwrap();
    }
    let until = s.api.now + Duration::from_secs(secs);
    s.run_until(until).unwrap();
}

// upstream: TestNominatedNodeCleanUp (test/integration/scheduler/preemption/preemption_test.go)
// "mid-priority pod preempts low-priority pod, followed by a high-priority pod with another
// preemption": the high-priority pod preempts on the same node, and prepareCandidateAsync
// clears the mid-priority pod's nominatedNodeName. Upstream's row asks for 3 CPUs, where
// which low pods become victims depends on the order of pods that have not started (all
// equally important); here it asks for 5, so that every low pod, the one still running
// included, is a victim.
#[test]
fn nominated_node_clean_up_another_preemption() {
    let s = nominated_clean_up_sim(
        "5",
        &[
            &[
                ("low-1", LOW, "1"),
                ("low-2", LOW, "1"),
                ("low-3", LOW, "1"),
                ("low-4", LOW, "1"),
            ],
            &[("medium", MID, "4")],
        ],
    );
    for i in 1..=4 {
        assert_eq!(bound(&s, &format!("low-{i}")), "fake-node");
    }
    assert_eq!(nominated(&s, "medium").as_deref(), Some("fake-node"));
    let mut s = s;
    s.api
        .create(Object::Pod(api_pod("high", HIGH, "5")))
        .unwrap();
    let until = s.api.now + crate::api::Duration::from_millis(1);
    s.run_until(until).unwrap();
    assert_eq!(nominated(&s, "high").as_deref(), Some("fake-node"));
    assert_eq!(nominated(&s, "medium"), None);
    let low1 = s.api.store.get::<Pod>("default", "low-1").unwrap();
    assert!(low1.metadata.deletion_timestamp.is_some());
}

// prepareCandidateAsync (pkg/scheduler/framework/preemption/preemption.go): when every victim
// is already being deleted, nothing is done — no victim call, and the lower-priority
// nominated pods keep their nominatedNodeName — while the preemptor is still nominated.
// low-a started first, so it is reprieved and the high-priority pod's only victim is low-b,
// already terminating from the mid-priority pod's preemption.
#[test]
fn all_victims_terminating_leaves_nominations() {
    use crate::api::Duration;
    use crate::features::FeatureGates;
    use crate::sim::Simulation;
    use crate::world::World;
    let start = Time::from_unix_secs(1_700_000_000);
    let mut s = Simulation::new(1, start, FeatureGates::default(), World::default());
    s.add_loop(new_scheduler());
    s.api
        .load(Object::Node(node("fake-node", &[("cpu", "2")])))
        .unwrap();
    for (name, t) in [("low-a", 1), ("low-b", 2)] {
        let mut low = api_pod(name, LOW, "1");
        low.metadata.uid = format!("{name}-uid");
        low.spec_mut().node_name = "fake-node".into();
        low.status.start_time = Some(Time::from_unix_secs(t));
        s.api.load(Object::Pod(low)).unwrap();
    }
    s.api
        .create(Object::Pod(api_pod("medium", MID, "2")))
        .unwrap();
    s.run_until(start + Duration::from_secs(5)).unwrap();
    assert_eq!(nominated(&s, "medium").as_deref(), Some("fake-node"));
    let preempted = |s: &Simulation| {
        s.api
            .events
            .iter()
            .filter(|e| e.reason == "Preempted")
            .count()
    };
    assert_eq!(preempted(&s), 2);
    s.api
        .create(Object::Pod(api_pod("high", HIGH, "1")))
        .unwrap();
    s.run_until(start + Duration::from_secs(5) + Duration::from_millis(1))
        .unwrap();
    assert_eq!(nominated(&s, "high").as_deref(), Some("fake-node"));
    assert_eq!(nominated(&s, "medium").as_deref(), Some("fake-node"));
    assert_eq!(preempted(&s), 2);
}

// upstream: TestNominatedNodeCleanUp (test/integration/scheduler/preemption/preemption_test.go)
// "mid-priority pod preempts low-priority pod, followed by a high-priority pod without
// additional preemption": the high-priority pod fits beside the terminating victim (the
// lower-priority nominated pod does not count for it); once the victim is gone, the
// mid-priority pod no longer fits and finds no candidate, so its nominated node is cleared.
#[test]
fn nominated_node_clean_up_without_additional_preemption() {
    let mut s = nominated_clean_up_sim(
        "2",
        &[
            &[("low", LOW, "1")],
            &[("medium", MID, "2")],
            &[("high", HIGH, "1")],
        ],
    );
    assert_eq!(bound(&s, "high"), "fake-node");
    assert_eq!(nominated(&s, "medium").as_deref(), Some("fake-node"));
    // kubeplay retries the pod at the 5-minute flush: its Fit hint requeues on an assigned
    // pod's deletion only when the pod then fits (upstream's isSchedulableAfterPodEvent queues
    // on any such deletion, so the retry comes after the back-off).
    remove_and_run(&mut s, &["low"], false, 6 * 60);
    assert_eq!(nominated(&s, "medium"), None);
    assert_eq!(bound(&s, "medium"), "");
}

// upstream: TestNominatedNodeCleanUp (test/integration/scheduler/preemption/preemption_test.go)
// "mid-priority pod preempts low-priority pod, followed by a node deletion": with no node
// left, ErrNoNodesAvailable clears the nominated node (`clearNominatedNode`).
#[test]
fn nominated_node_clean_up_after_node_deletion() {
    let mut s = nominated_clean_up_sim("1", &[&[("low", LOW, "1")], &[("medium", MID, "1")]]);
    assert_eq!(nominated(&s, "medium").as_deref(), Some("fake-node"));
    // Up to podMaxInUnschedulablePodsDuration (5 min) for the retry.
    remove_and_run(&mut s, &["low"], true, 6 * 60);
    assert_eq!(nominated(&s, "medium"), None);
}

// schedulingAlgorithm (pkg/scheduler/schedule_one.go): `ErrNoNodesAvailable` returns
// `clearNominatedNode` without running the PostFilter plugins.
#[test]
fn no_nodes_available_clears_the_nominated_node() {
    let s = store_of(vec![], vec![], vec![]);
    let mut p = pod("p", HIGH, "", &[]);
    p.status
        .extra
        .insert("nominatedNodeName".into(), "gone".into());
    let (o, processed, clear) = schedule_pod_with(&p, &s, 0, &mut |_| 0);
    assert!(clear);
    assert_eq!(processed, 0);
    match o {
        Outcome::Unschedulable {
            message, preempt, ..
        } => {
            assert_eq!(message, "no nodes available to schedule pods");
            assert_eq!(preempt, None);
        }
        other => panic!("expected Unschedulable, got {other:?}"),
    }
}
