//! "Explain scale-down": the deletion order with the deciding rule per adjacent pair, from pure
//! inputs and from a store.

mod replicaset_support;

use kubeplay::api::{ContainerStatus, Duration, Object, Pod, PodCondition, Reason, Time};
use kubeplay::controllers::controller_utils::{
    ActivePodsWithRanks, RuleMode, ScaleDownGates, POD_DELETION_COST_ANNOTATION,
};
use kubeplay::controllers::replicaset::{explain_scale_down, ExplainScaleDown};
use kubeplay::store::apiserver::ApiServer;
use replicaset_support::*;

fn now() -> Time {
    t0() + Duration::from_mins(60 * 24 * 30)
}

fn running(name: &str, uid: &str, node: &str, ready_ago: Option<Duration>) -> Pod {
    let rs = new_replica_set("web", 1, &[("app", "web")]);
    let mut p = new_pod(name, &rs, "Running", true);
    p.metadata.uid = uid.into();
    p.spec_mut().node_name = node.into();
    p.status.conditions = vec![PodCondition {
        type_: "Ready".into(),
        status: "True".into(),
        last_transition_time: ready_ago.map(|d| now() - d),
        ..Default::default()
    }];
    p
}

fn cost(mut p: Pod, c: &str) -> Pod {
    p.metadata
        .annotations
        .insert(POD_DELETION_COST_ANNOTATION.into(), c.into());
    p
}

#[test]
fn deletion_cost_rank_and_log_bucket_rules_are_named() {
    let hours = |h: i64| Some(Duration::from_mins(60 * h));
    // a: cost -5, alone on node-2 (rank 1); b, c, d, e: cost 0. c and d share node-1 with
    // another related pod (rank 3); b and e share node-3 (rank 2). b was ready 5 h ago and e
    // 8 h ago: both in log2 bucket 44, so the UID decides (e's UID sorts first).
    let a = cost(running("a", "uid-a", "node-2", hours(1)), "-5");
    let b = running("b", "uid-x", "node-3", hours(5));
    let c = running("c", "uid-c", "node-1", hours(1));
    let d = running("d", "uid-d", "node-1", hours(2));
    let e = running("e", "uid-b", "node-3", hours(8));
    let other = running("other", "uid-o", "node-1", hours(1));
    let pods = vec![&a, &b, &c, &d, &e];
    let mut related = pods.clone();
    related.push(&other);
    let x = explain_scale_down(&pods, &related, 2, now(), ScaleDownGates::default());
    assert_eq!(x.delete_count, 3);
    let order: Vec<&str> = x.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(order, vec!["a", "c", "d", "e", "b"]);
    let deleted: Vec<&str> = x
        .pods
        .iter()
        .filter(|p| p.delete)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(deleted, vec!["a", "c", "d"]);
    let texts: Vec<&str> = x.comparisons.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts[0], "rule 4 pod-deletion-cost: -5 < 0");
    assert_eq!(
        texts[1],
        "rule 6 ready time (log2 bucket): bucket 41 < 42 (ready 60m ago vs 120m ago)"
    );
    assert_eq!(
        texts[2],
        "rule 5 rank (pods of the same owner on the node): 3 > 2"
    );
    assert_eq!(
        texts[3],
        "rule 6 ready time (log2 bucket): bucket 44 for both (ready 8h ago vs 5h ago), tie: uid uid-b < uid-x"
    );
    assert_eq!(x.comparisons[3].mode, RuleMode::UidTie);
    assert!(x.comparisons.iter().all(|c| c.consistent));

    // Without LogarithmicScaleDown the older ready time is kept longer: b (5 h) goes before e.
    let off = ScaleDownGates {
        pod_deletion_cost: true,
        logarithmic_scale_down: false,
    };
    let y = explain_scale_down(&pods, &related, 2, now(), off);
    let order: Vec<&str> = y.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(order, vec!["a", "c", "d", "b", "e"]);
    assert_eq!(
        y.comparisons[3].text,
        "rule 6 ready time: ready 5h ago before 8h ago"
    );
    // Without PodDeletionCost, a is no longer first.
    let z = explain_scale_down(
        &pods,
        &related,
        2,
        now(),
        ScaleDownGates {
            pod_deletion_cost: false,
            logarithmic_scale_down: true,
        },
    );
    assert_eq!(z.pods[0].name, "c");
}

#[test]
fn earlier_rules_phase_scheduling_readiness_restarts() {
    let rs = new_replica_set("web", 1, &[("app", "web")]);
    let unscheduled = new_pod("unscheduled", &rs, "Pending", true);
    let mut pending = new_pod("pending", &rs, "Pending", true);
    pending.spec_mut().node_name = "n".into();
    let mut not_ready = new_pod("not-ready", &rs, "Running", true);
    not_ready.spec_mut().node_name = "n".into();
    not_ready.status.conditions.clear();
    let mut crashy = running("crashy", "u1", "n", None);
    crashy.status.container_statuses = vec![ContainerStatus {
        restart_count: 4,
        ..Default::default()
    }];
    let calm = running("calm", "u2", "n", None);
    let pods = vec![&calm, &crashy, &not_ready, &pending, &unscheduled];
    // replicas 0: every pod goes, and upstream does not sort them.
    let x = explain_scale_down(&pods, &pods, 0, now(), ScaleDownGates::default());
    let order: Vec<&str> = x.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        order,
        vec!["calm", "crashy", "not-ready", "pending", "unscheduled"]
    );
    assert!(!x.sorted);
    assert!(x.pods.iter().all(|p| p.delete));
    let x = explain_scale_down(&pods, &pods, 1, now(), ScaleDownGates::default());
    assert!(x.sorted);
    let order: Vec<&str> = x.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        order,
        vec!["unscheduled", "pending", "not-ready", "crashy", "calm"]
    );
    let texts: Vec<&str> = x.comparisons.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "rule 1 scheduled: unscheduled < scheduled on n",
            "rule 2 phase: Pending (0) < Running (2)",
            "rule 3 readiness: not ready < ready",
            "rule 7 container restarts: 4 > 0",
        ]
    );
    let text = x.render_text();
    assert!(
        text.contains("5 active pods, scale to 1 -> delete 4"),
        "{text}"
    );
    assert!(text.contains("before pending: rule 1 scheduled"), "{text}");
    let json = serde_json::to_value(&x).unwrap();
    assert_eq!(json["deleteCount"], 4);
    assert_eq!(json["comparisons"][0]["ruleName"], "scheduled");
    assert_eq!(json["pods"][0]["delete"], true);
    assert_eq!(json["gates"]["logarithmicScaleDown"], true);
}

// The log2-bucket UID tie-break makes `less` non-transitive: a has more restarts than b (same
// ready time, rule 7), c shares their bucket with another ready time (rule 6, UID). a<b, b<c
// and c<a. The sort must not panic, and the explanation says where the order is not sorted.
#[test]
fn non_transitive_rules_do_not_panic() {
    let hours = |h: i64| Some(Duration::from_mins(60 * h));
    let mut a = running("a", "uid-2", "n", hours(5));
    a.status.container_statuses = vec![ContainerStatus {
        restart_count: 3,
        ..Default::default()
    }];
    let b = running("b", "uid-0", "n", hours(5));
    let c = running("c", "uid-1", "n", hours(8));
    let s = ActivePodsWithRanks::new(vec![&a, &b, &c], vec![], now(), ScaleDownGates::default());
    assert!(s.less(0, 1) && s.less(1, 2) && s.less(2, 0), "a cycle");
    for pods in [vec![&a, &b, &c], vec![&c, &b, &a], vec![&b, &a, &c]] {
        let x = explain_scale_down(&pods, &pods, 1, now(), ScaleDownGates::default());
        assert_eq!(x.pods.len(), 3);
        for cmp in x.comparisons.iter().filter(|c| !c.consistent) {
            assert!(cmp.detail.contains("not transitive"), "{}", cmp.detail);
        }
    }
}

#[test]
fn explain_from_a_store() {
    let mut api = ApiServer::new(1, now());
    let rs = new_replica_set("web", 3, &[("app", "web")]);
    api.load(Object::ReplicaSet(rs.clone())).unwrap();
    for (i, c) in ["10", "-1", "x"].iter().enumerate() {
        let p = cost(running(&format!("web-{i}"), &format!("u{i}"), "n", None), c);
        // The API server rejects an invalid cost; put it in the store directly to show that
        // the controller still reads it as 0 (as upstream's helper does).
        api.store.put(Object::Pod(p));
    }
    // Not claimed: another owner's pod, and a terminated one.
    let mut foreign = running("foreign", "uf", "n", None);
    foreign.metadata.owner_references[0].uid = "someone-else".into();
    api.load(Object::Pod(foreign)).unwrap();
    let mut done = running("done", "ud", "n", None);
    done.status.phase = "Succeeded".into();
    api.load(Object::Pod(done)).unwrap();

    let x = api
        .store
        .explain_scale_down("rs", NS, "web", 1, now(), ScaleDownGates::default())
        .unwrap();
    assert_eq!(x.owner.as_deref(), Some("ReplicaSet default/web"));
    assert_eq!(x.active_pods, 3);
    let order: Vec<(&str, bool)> = x.pods.iter().map(|p| (p.name.as_str(), p.delete)).collect();
    assert_eq!(
        order,
        vec![("web-1", true), ("web-2", true), ("web-0", false)]
    );
    assert_eq!(
        x.pods[1].deletion_cost, 0,
        "an invalid annotation counts as 0"
    );
    assert!(x.render_text().contains("(\"x\" invalid)"));

    let err = api
        .store
        .explain_scale_down(
            "replicaset",
            NS,
            "missing",
            1,
            now(),
            ScaleDownGates::default(),
        )
        .unwrap_err();
    assert_eq!(err.message, "replicasets.apps \"missing\" not found");
    let err = api
        .store
        .explain_scale_down("pods", NS, "web", 1, now(), ScaleDownGates::default())
        .unwrap_err();
    assert_eq!(err.reason, Reason::BadRequest);
}
