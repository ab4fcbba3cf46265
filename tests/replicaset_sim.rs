//! The ReplicaSet controller inside a `Simulation`: bursts of 500, graceful deletion,
//! minReadySeconds on the virtual clock, and ReplicaSets next to ReplicationControllers.
//! (No scheduler or kubelet runs here: tests bind pods and write their status themselves.)

mod replicaset_support;

use kubeplay::api::{Duration, Object, Pod, PodCondition, ReplicaSet, ReplicationController, Time};
use kubeplay::controllers::replicaset::ReplicaSetController;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;
use kubeplay::world::World;
use replicaset_support::*;

fn sim() -> Simulation {
    let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
    s.add_loop(Box::new(ReplicaSetController::new()));
    s
}

fn rs_status(s: &Simulation, name: &str) -> kubeplay::api::ReplicaSetStatus {
    s.api
        .store
        .get::<ReplicaSet>(NS, name)
        .unwrap()
        .status
        .clone()
        .into_inner()
}

fn set_replicas(s: &mut Simulation, name: &str, n: i32) {
    let mut rs = s.api.store.get::<ReplicaSet>(NS, name).unwrap().clone();
    rs.spec.replicas = Some(n);
    s.api.update(Object::ReplicaSet(rs)).unwrap();
}

/// Runs syncs until idle, returning the number of pod calls with `verb` made by each sync.
fn per_sync(s: &mut Simulation, verb: &str) -> Vec<usize> {
    let mut out = vec![];
    loop {
        let before = s.actions.len();
        if !s.step().unwrap() {
            break;
        }
        let n = s.actions[before..]
            .iter()
            .filter(|a| a.kind == "Pod" && a.verb == verb)
            .count();
        if n > 0 {
            out.push(n);
        }
    }
    out
}

// burstReplicas = 500: 0 → 1200 creates 500, 500 and 200 pods in three syncs, each waiting for
// the watch events of the previous burst; 1200 → 0 deletes in the same bursts.
#[test]
fn scale_0_to_1200_in_bursts_of_500() {
    let mut s = sim();
    s.api
        .load(Object::ReplicaSet(new_replica_set(
            "big",
            0,
            &[("app", "big")],
        )))
        .unwrap();
    s.settle().unwrap();
    set_replicas(&mut s, "big", 1200);
    let creates = per_sync(&mut s, "create");
    assert_eq!(creates, vec![500, 500, 200]);
    assert!(creates.iter().all(|&n| n <= 500));
    assert_eq!(s.api.store.list::<Pod>(Some(NS)).count(), 1200);
    let st = rs_status(&s, "big");
    assert_eq!(
        (st.replicas, st.fully_labeled_replicas, st.ready_replicas),
        (1200, 1200, 0)
    );
    assert_eq!(
        s.api
            .events
            .iter()
            .filter(|e| e.reason == "SuccessfulCreate")
            .count(),
        1200
    );

    set_replicas(&mut s, "big", 0);
    let deletes = per_sync(&mut s, "delete");
    assert_eq!(deletes, vec![500, 500, 200]);
    assert_eq!(s.api.store.list::<Pod>(Some(NS)).count(), 0);
    assert_eq!(rs_status(&s, "big").replicas, 0);
}

// A scheduled pod deleted by a user terminates gracefully; the ReplicaSet replaces it at once
// (the deletionTimestamp update is the deletion), not when the pod is finally gone.
#[test]
fn replacement_created_while_pod_terminates() {
    let mut s = sim();
    s.api
        .load(Object::ReplicaSet(new_replica_set(
            "web",
            2,
            &[("app", "web")],
        )))
        .unwrap();
    s.settle().unwrap();
    let pods: Vec<Pod> = s.api.store.list::<Pod>(Some(NS)).cloned().collect();
    assert_eq!(pods.len(), 2);
    for mut p in pods.clone() {
        p.spec_mut().node_name = "node-1".into();
        s.api.update(Object::Pod(p)).unwrap();
    }
    s.settle().unwrap();
    let victim = &pods[0].metadata.name;
    s.api
        .delete("Pod", NS, victim, &DeleteOptions::default())
        .unwrap();
    s.settle().unwrap();
    let all: Vec<Pod> = s.api.store.list::<Pod>(Some(NS)).cloned().collect();
    assert_eq!(all.len(), 3, "the victim is still terminating");
    assert_eq!(
        all.iter()
            .filter(|p| p.metadata.deletion_timestamp.is_some())
            .count(),
        1
    );
    let st = rs_status(&s, "web");
    assert_eq!(st.replicas, 2);
}

fn make_ready(s: &mut Simulation, at: Time) {
    let pods: Vec<Pod> = s.api.store.list::<Pod>(Some(NS)).cloned().collect();
    for mut p in pods {
        p.status.phase = "Running".into();
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(at.trunc_secs()),
            ..Default::default()
        }];
        s.api.update_status(Object::Pod(p)).unwrap();
    }
}

// minReadySeconds: ready pods become available exactly minReadySeconds after their Ready
// transition (1.34: `<=`), and the controller requeues itself for that instant.
#[test]
fn min_ready_seconds_availability_on_the_clock() {
    let mut s = sim();
    let mut rs = new_replica_set("slow", 2, &[("app", "slow")]);
    rs.spec.min_ready_seconds = 10;
    s.api.load(Object::ReplicaSet(rs)).unwrap();
    s.settle().unwrap();
    s.run_for(Duration::from_secs(5)).unwrap();
    let ready_at = s.now();
    make_ready(&mut s, ready_at);
    s.settle().unwrap();
    let st = rs_status(&s, "slow");
    assert_eq!((st.ready_replicas, st.available_replicas), (2, 0));
    s.run_until(ready_at + Duration::from_secs(10) - Duration(1))
        .unwrap();
    assert_eq!(rs_status(&s, "slow").available_replicas, 0);
    s.run_until(ready_at + Duration::from_secs(10)).unwrap();
    assert_eq!(rs_status(&s, "slow").available_replicas, 2);
    // Nothing else is scheduled afterwards: no requeue once ready == available.
    assert_eq!(s.next_event_time(), None);
}

// A later-ready pod gets its own check: the requeue targets the earliest pending pod.
#[test]
fn min_ready_seconds_staggered_pods() {
    let mut s = sim();
    let mut rs = new_replica_set("stag", 2, &[("app", "stag")]);
    rs.spec.min_ready_seconds = 30;
    s.api.load(Object::ReplicaSet(rs)).unwrap();
    s.settle().unwrap();
    let pods: Vec<Pod> = s.api.store.list::<Pod>(Some(NS)).cloned().collect();
    let mark = |s: &mut Simulation, p: &Pod| {
        let mut p = s
            .api
            .store
            .get::<Pod>(NS, &p.metadata.name)
            .unwrap()
            .clone();
        p.status.phase = "Running".into();
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(s.now().trunc_secs()),
            ..Default::default()
        }];
        s.api.update_status(Object::Pod(p)).unwrap();
    };
    mark(&mut s, &pods[0]);
    s.settle().unwrap();
    s.run_for(Duration::from_secs(10)).unwrap();
    mark(&mut s, &pods[1]);
    s.settle().unwrap();
    s.run_until(t0() + Duration::from_secs(30)).unwrap();
    assert_eq!(rs_status(&s, "stag").available_replicas, 1);
    s.run_until(t0() + Duration::from_secs(40) - Duration(1))
        .unwrap();
    assert_eq!(rs_status(&s, "stag").available_replicas, 1);
    s.run_until(t0() + Duration::from_secs(40)).unwrap();
    assert_eq!(rs_status(&s, "stag").available_replicas, 2);
}

// ReplicaSets and ReplicationControllers run side by side, each in its own loop.
#[test]
fn replica_sets_and_replication_controllers_side_by_side() {
    let mut s = sim();
    s.add_loop(Box::new(ReplicaSetController::new_replication_controller()));
    assert_eq!(
        s.loop_names(),
        vec!["replicaset-controller", "replication-controller"]
    );
    s.api
        .load(Object::ReplicaSet(new_replica_set(
            "rs",
            2,
            &[("app", "rs")],
        )))
        .unwrap();
    let mut rc = ReplicationController::default();
    rc.metadata.name = "rc".into();
    rc.metadata.namespace = NS.into();
    rc.spec.replicas = Some(3);
    let mut tpl = kubeplay::api::PodTemplateSpec::default();
    tpl.metadata.labels = labels(&[("app", "rc")]).into();
    tpl.spec_mut().containers = vec![kubeplay::api::Container {
        name: "c".into(),
        image: "nginx".into(),
        ..Default::default()
    }];
    rc.spec.template = Some(tpl);
    s.api.load(Object::ReplicationController(rc)).unwrap();
    s.settle().unwrap();
    let pods: Vec<Pod> = s.api.store.list::<Pod>(Some(NS)).cloned().collect();
    let owned_by = |kind: &str| {
        pods.iter()
            .filter(|p| p.metadata.controller_ref().is_some_and(|r| r.kind == kind))
            .count()
    };
    assert_eq!(
        (owned_by("ReplicaSet"), owned_by("ReplicationController")),
        (2, 3)
    );
    let rc = s.api.store.get::<ReplicationController>(NS, "rc").unwrap();
    assert_eq!(rc.status.replicas, 3);
    assert_eq!(rs_status(&s, "rs").replicas, 2);
    let sources: std::collections::BTreeSet<(&str, &str)> = s
        .api
        .events
        .iter()
        .map(|e| (e.kind.as_str(), e.source.as_str()))
        .collect();
    assert!(sources.contains(&("ReplicationController", "replication-controller")));
    assert!(sources.contains(&("ReplicaSet", "replicaset-controller")));
}

// A restart of kube-controller-manager forgets expectations and re-lists: nothing is created
// twice.
#[test]
fn controller_manager_restart_is_idempotent() {
    let mut s = sim();
    s.api
        .load(Object::ReplicaSet(new_replica_set(
            "web",
            3,
            &[("app", "web")],
        )))
        .unwrap();
    s.settle().unwrap();
    s.set_controller_manager(false);
    s.set_controller_manager(true);
    s.settle().unwrap();
    assert_eq!(s.api.store.list::<Pod>(Some(NS)).count(), 3);
    assert_eq!(
        s.actions
            .iter()
            .filter(|a| a.kind == "Pod" && a.verb == "create")
            .count(),
        3
    );
}
