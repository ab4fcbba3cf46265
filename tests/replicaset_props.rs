//! Property tests of the scale-down order: the ranked sort against `less`, `getPodsToDelete`
//! and the explanation, for random pod sets and gate settings.

use kubeplay::api::{Container, ContainerStatus, Duration, Pod, PodCondition, Time};
use kubeplay::controllers::controller_utils::{
    slow_start_batch, ActivePodsWithRanks, ScaleDownGates, POD_DELETION_COST_ANNOTATION,
};
use kubeplay::controllers::replicaset::{
    explain_scale_down, get_pods_ranked_by_related_pods_on_same_node, get_pods_to_delete,
};
use proptest::prelude::*;

const NOW: i64 = 1_750_000_000_000;

#[derive(Clone, Debug)]
struct PodGen {
    node: u8,
    phase: u8,
    ready: bool,
    ready_mins: Option<i64>,
    restarts: i32,
    sidecar: i32,
    created_mins: Option<i64>,
    cost: u8,
    uid: u16,
    terminal: bool,
}

fn minutes() -> impl Strategy<Value = Option<i64>> {
    prop_oneof![
        Just(None),
        (0i64..4).prop_map(|x| Some(x * 60)),
        (0i64..60 * 24 * 60).prop_map(Some),
    ]
}

fn pod_gen() -> impl Strategy<Value = PodGen> {
    (
        0u8..4,
        0u8..5,
        any::<bool>(),
        minutes(),
        0i32..3,
        0i32..2,
        minutes(),
        0u8..8,
        any::<u16>(),
        prop::bool::weighted(0.15),
    )
        .prop_map(
            |(
                node,
                phase,
                ready,
                ready_mins,
                restarts,
                sidecar,
                created_mins,
                cost,
                uid,
                terminal,
            )| PodGen {
                node,
                phase,
                ready,
                ready_mins,
                restarts,
                sidecar,
                created_mins,
                cost,
                uid,
                terminal,
            },
        )
}

fn build(i: usize, g: &PodGen) -> Pod {
    let now = Time(NOW);
    let mut p = Pod::default();
    p.metadata.name = format!("p{i:02}");
    p.metadata.namespace = "default".into();
    p.metadata.uid = format!("{:05}-{i}", g.uid);
    if let Some(m) = g.created_mins {
        p.metadata.creation_timestamp = Some((now - Duration::from_mins(m)).trunc_secs());
    }
    let costs = ["", "0", "5", "-5", "+3", "007", "x", "100"];
    if !costs[g.cost as usize].is_empty() {
        p.metadata.annotations.insert(
            POD_DELETION_COST_ANNOTATION.into(),
            costs[g.cost as usize].into(),
        );
    }
    p.spec_mut().node_name = ["", "node-a", "node-b", "node-c"][g.node as usize].into();
    p.status.phase = ["", "Pending", "Unknown", "Running", "Weird"][g.phase as usize].into();
    if g.terminal {
        p.status.phase = "Failed".into();
    }
    if g.ready {
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: g
                .ready_mins
                .map(|m| (now - Duration::from_mins(m)).trunc_secs()),
            ..Default::default()
        }];
    }
    p.status.container_statuses = vec![ContainerStatus {
        name: "c".into(),
        restart_count: g.restarts,
        ..Default::default()
    }];
    if g.sidecar > 0 {
        p.spec_mut().init_containers = vec![Container {
            name: "side".into(),
            restart_policy: Some("Always".into()),
            ..Default::default()
        }];
        p.status.init_container_statuses = vec![ContainerStatus {
            name: "side".into(),
            restart_count: g.sidecar,
            ..Default::default()
        }];
    }
    p
}

/// Brute force: is `less` a strict weak order on this set (irreflexive, transitive, with
/// transitive incomparability)?
fn strict_weak(s: &ActivePodsWithRanks) -> bool {
    let n = s.len();
    let equiv = |a: usize, b: usize| !s.less(a, b) && !s.less(b, a);
    for a in 0..n {
        if s.less(a, a) {
            return false;
        }
        for b in 0..n {
            for c in 0..n {
                if s.less(a, b) && s.less(b, c) && !s.less(a, c) {
                    return false;
                }
                if equiv(a, b) && equiv(b, c) && !equiv(a, c) {
                    return false;
                }
            }
        }
    }
    true
}

fn gates() -> impl Strategy<Value = ScaleDownGates> {
    (any::<bool>(), any::<bool>()).prop_map(|(a, b)| ScaleDownGates {
        pod_deletion_cost: a,
        logarithmic_scale_down: b,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    // `less` is irreflexive and asymmetric; the sort returns a permutation; whenever `less` is a
    // strict weak order on the set (always, without LogarithmicScaleDown) the sorted order is
    // consistent with it (no later pod is `less` than an earlier one), and sorting is idempotent.
    #[test]
    fn ranked_sort_is_consistent_with_less(
        gens in prop::collection::vec(pod_gen(), 0..10),
        extra in prop::collection::vec(pod_gen(), 0..6),
        g in gates(),
    ) {
        let pods: Vec<Pod> = gens.iter().enumerate().map(|(i, x)| build(i, x)).collect();
        let others: Vec<Pod> = extra.iter().enumerate().map(|(i, x)| build(100 + i, x)).collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let related: Vec<&Pod> = pods.iter().chain(others.iter()).collect();
        let now = Time(NOW);
        let s = get_pods_ranked_by_related_pods_on_same_node(&refs, &related, now, g);
        for i in 0..s.len() {
            prop_assert!(!s.less(i, i));
            for j in 0..s.len() {
                prop_assert!(!(s.less(i, j) && s.less(j, i)), "asymmetry {i} {j}");
            }
        }
        let weak = strict_weak(&s);
        if !g.logarithmic_scale_down {
            prop_assert!(weak, "without log buckets the rules are a strict weak order");
        }
        let mut sorted = s.clone();
        sorted.sort();
        let mut names: Vec<&str> = sorted.pods.iter().map(|p| p.metadata.name.as_str()).collect();
        names.sort_unstable();
        let mut want: Vec<&str> = refs.iter().map(|p| p.metadata.name.as_str()).collect();
        want.sort_unstable();
        prop_assert_eq!(names, want);
        // Ranks travel with their pods.
        for (k, p) in sorted.pods.iter().enumerate() {
            let i = refs.iter().position(|q| std::ptr::eq(*q, *p)).unwrap();
            prop_assert_eq!(sorted.rank[k], s.rank[i]);
        }
        if weak {
            for i in 0..sorted.len() {
                for j in i + 1..sorted.len() {
                    prop_assert!(!sorted.less(j, i), "{} sorted after {}",
                        sorted.pods[j].metadata.name, sorted.pods[i].metadata.name);
                }
            }
            let mut again = sorted.clone();
            again.sort();
            let a: Vec<&str> = again.pods.iter().map(|p| p.metadata.name.as_str()).collect();
            let b: Vec<&str> = sorted.pods.iter().map(|p| p.metadata.name.as_str()).collect();
            prop_assert_eq!(a, b);
        }
    }

    // getPodsToDelete returns exactly n pods, all distinct and all among the input; for n below
    // the count they are the first n of the ranked sort.
    #[test]
    fn get_pods_to_delete_returns_n_of_the_input(
        gens in prop::collection::vec(pod_gen(), 0..12),
        g in gates(),
    ) {
        let pods: Vec<Pod> = gens.iter().enumerate().map(|(i, x)| build(i, x)).collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let now = Time(NOW);
        let mut ranked = get_pods_ranked_by_related_pods_on_same_node(&refs, &refs, now, g);
        ranked.sort();
        for n in 0..=refs.len() {
            let got = get_pods_to_delete(&refs, &refs, n, now, g);
            prop_assert_eq!(got.len(), n);
            for (k, p) in got.iter().enumerate() {
                prop_assert!(refs.iter().any(|q| std::ptr::eq(*q, *p)));
                prop_assert!(!got[..k].iter().any(|q| std::ptr::eq(*q, *p)), "duplicate");
            }
            if n < refs.len() {
                for (a, b) in got.iter().zip(ranked.pods.iter()) {
                    prop_assert!(std::ptr::eq(*a, *b));
                }
            } else {
                for (a, b) in got.iter().zip(refs.iter()) {
                    prop_assert!(std::ptr::eq(*a, *b), "all pods go: input order, unsorted");
                }
            }
        }
    }

    // The explanation agrees with the controller: same pods deleted, and each adjacent pair's
    // rule is the one `decide` reports.
    #[test]
    fn explanation_matches_the_order(
        gens in prop::collection::vec(pod_gen(), 1..10),
        replicas in 0i32..10,
        g in gates(),
    ) {
        let pods: Vec<Pod> = gens.iter().enumerate().map(|(i, x)| build(i, x)).collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let now = Time(NOW);
        let e = explain_scale_down(&refs, &refs, replicas, now, g);
        let surplus = (refs.len() as i32 - replicas).max(0) as usize;
        prop_assert_eq!(e.delete_count, surplus);
        let victims = get_pods_to_delete(&refs, &refs, surplus, now, g);
        let marked: Vec<&str> = e.pods.iter().filter(|p| p.delete).map(|p| p.name.as_str()).collect();
        let want: Vec<&str> = victims.iter().map(|p| p.metadata.name.as_str()).collect();
        prop_assert_eq!(marked, want);
        prop_assert_eq!(e.comparisons.len(), e.pods.len() - 1);
        let mut ranked = get_pods_ranked_by_related_pods_on_same_node(&refs, &refs, now, g);
        if e.sorted {
            ranked.sort();
        }
        let weak = strict_weak(&ranked);
        for (i, c) in e.comparisons.iter().enumerate() {
            let v = ranked.decide(i, i + 1);
            if v.less || !ranked.less(i + 1, i) {
                prop_assert_eq!(c.rule, v.rule);
                prop_assert!(c.consistent);
            } else {
                prop_assert!(!c.consistent);
                prop_assert!(!weak || !e.sorted, "an inconsistent pair needs a non-transitive set");
            }
            let prefix = format!("rule {} ", c.rule);
            let ok = c.text.starts_with(&prefix) || (c.rule == 0 && c.text.starts_with("tie: "));
            prop_assert!(ok, "text {:?}", c.text);
        }
        prop_assert!(!e.render_text().is_empty());
    }

    // slowStartBatch: with the first `ok` calls succeeding, the calls made are the batches
    // 1, 2, 4, ... up to and including the first failing one.
    #[test]
    fn slow_start_batch_counts(count in 0usize..600, ok in 0usize..700) {
        let mut calls = 0usize;
        let (successes, err) = slow_start_batch(count, 1, || {
            calls += 1;
            if calls > ok { Err(()) } else { Ok(()) }
        });
        // Reference: batches of min(2^k, remaining) until one contains a failing call.
        let (mut made, mut remaining, mut batch) = (0usize, count, count.min(1));
        while batch > 0 {
            made += batch;
            if made > ok { break; }
            remaining -= batch;
            batch = (2 * batch).min(remaining);
        }
        prop_assert_eq!(calls, made);
        prop_assert_eq!(successes, made.min(ok));
        prop_assert_eq!(err.is_some(), made > ok);
    }
}
