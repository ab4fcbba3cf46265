//! Pod generation tracking (PodObservedGenerationTracking, GA and locked on in 1.35): the
//! kubelet reports the pod generation it acted on in `status.observedGeneration` and on every
//! condition it owns (`CalculatePodStatusObservedGeneration`,
//! `CalculatePodConditionObservedGeneration`, pkg/api/v1/pod/util.go); the scheduler, the
//! taint manager and PodGC stamp the conditions they write; the status strategy keeps stored
//! values a writer leaves out (`preserveOldObservedGeneration`,
//! pkg/registry/core/pod/strategy.go).

use kubeplay::api::{Duration, Object, Pod, PodCondition, PodStatus};
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::preserve_old_observed_generation;

fn build(name: &str) -> Simulation {
    let mut s = Scenario::parse(builtin::get(name).expect("builtin")).expect("parses");
    s.timeline.clear();
    s.build().expect("builds")
}

fn at(sim: &mut Simulation, secs: i64) {
    let t = sim.start + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

fn running_pod(sim: &Simulation) -> Pod {
    sim.api
        .store
        .list::<Pod>(Some("default"))
        .find(|p| p.status.phase == "Running")
        .cloned()
        .expect("a running pod")
}

#[test]
fn the_kubelet_reports_the_generation_on_the_status_and_its_conditions() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let p = running_pod(&sim);
    assert_eq!(p.metadata.generation, 1);
    assert_eq!(p.status.observed_generation, 1);
    // The kubelet's conditions, in mergePodStatus order (PodScheduled last), each stamped.
    let types: Vec<(&str, i64)> = p
        .status
        .conditions
        .iter()
        .map(|c| (c.type_.as_str(), c.observed_generation))
        .collect();
    assert_eq!(
        types,
        [
            ("PodReadyToStartContainers", 1),
            ("Initialized", 1),
            ("Ready", 1),
            ("ContainersReady", 1),
            ("PodScheduled", 1),
        ]
    );
    // Serialised as the API does.
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["status"]["observedGeneration"], 1);
    assert_eq!(json["status"]["conditions"][0]["observedGeneration"], 1);
}

#[test]
fn a_spec_change_is_observed_by_the_kubelet_at_its_next_sync() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let mut p = running_pod(&sim);
    let name = p.metadata.name.clone();
    // activeDeadlineSeconds may be set on a running pod: a spec change, generation 2.
    p.spec_mut().active_deadline_seconds = Some(3600);
    let Object::Pod(updated) = sim.api.update(Object::Pod(p)).unwrap() else {
        panic!("a pod")
    };
    assert_eq!(updated.metadata.generation, 2);
    // The status still says 1 until the kubelet has synced the new spec.
    assert_eq!(updated.status.observed_generation, 1);
    at(&mut sim, 61);
    let after = sim.api.store.get::<Pod>("default", &name).unwrap();
    assert_eq!(after.status.observed_generation, 2);
    assert!(after
        .status
        .conditions
        .iter()
        .all(|c| c.observed_generation == 2));
}

#[test]
fn unschedulable_pods_carry_the_generation_on_pod_scheduled() {
    let mut sim = build("deployment-rollback");
    at(&mut sim, 5);
    let mut p = sim
        .api
        .store
        .list::<Pod>(Some("default"))
        .next()
        .cloned()
        .unwrap();
    // A fresh pod that no node can take (an impossible node selector).
    p.metadata = kubeplay::api::ObjectMeta {
        name: "nowhere".into(),
        namespace: "default".into(),
        ..Default::default()
    };
    p.spec_mut().node_name.clear();
    p.spec_mut().node_selector = [("disk".to_string(), "none".to_string())].into();
    p.status = PodStatus::default().into();
    sim.api.create(Object::Pod(p)).unwrap();
    at(&mut sim, 10);
    let p = sim.api.store.get::<Pod>("default", "nowhere").unwrap();
    let c = p.condition("PodScheduled").expect("PodScheduled");
    assert_eq!(
        (c.status.as_str(), c.reason.as_str()),
        ("False", "Unschedulable")
    );
    assert_eq!(c.observed_generation, 1);
    // No kubelet has reported on it.
    assert_eq!(p.status.observed_generation, 0);
}

fn cond(t: &str, g: i64) -> PodCondition {
    PodCondition {
        type_: t.into(),
        status: "True".into(),
        observed_generation: g,
        ..Default::default()
    }
}

#[test]
fn status_writes_that_leave_observed_generation_out_keep_the_stored_values() {
    let old = PodStatus {
        observed_generation: 3,
        conditions: vec![cond("Ready", 3), cond("Custom", 2), cond("Custom", 1)],
        ..Default::default()
    };
    // A writer that does not know the field (an older client) sends zeros.
    let mut new = PodStatus {
        conditions: vec![
            cond("Custom", 0),
            cond("Ready", 4),
            cond("Custom", 0),
            cond("Fresh", 0),
        ],
        ..Default::default()
    };
    preserve_old_observed_generation(&mut new, &old);
    assert_eq!(new.observed_generation, 3);
    let got: Vec<(&str, i64)> = new
        .conditions
        .iter()
        .map(|c| (c.type_.as_str(), c.observed_generation))
        .collect();
    // Repeated types pair up in order; a value that is set wins; a new type stays 0.
    assert_eq!(
        got,
        [("Custom", 2), ("Ready", 4), ("Custom", 1), ("Fresh", 0)]
    );
    // Through the API: a status write with the field cleared keeps it.
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let mut p = running_pod(&sim);
    let name = p.metadata.name.clone();
    p.status.observed_generation = 0;
    for c in &mut p.status.conditions {
        c.observed_generation = 0;
    }
    sim.api.update_status(Object::Pod(p)).unwrap();
    let stored = sim.api.store.get::<Pod>("default", &name).unwrap();
    assert_eq!(stored.status.observed_generation, 1);
    assert!(stored
        .status
        .conditions
        .iter()
        .all(|c| c.observed_generation == 1));
}
