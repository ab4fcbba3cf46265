//! Ports of upstream's garbage collector e2e specs for ReplicationControllers
//! (test/e2e/apimachinery/garbage_collector.go): the replication controller creates the pods,
//! the RC is deleted with the spec's options and the garbage collector does the rest.
//! Upstream polls (30–60 s); here the simulation settles and runs 30 s more, the spec's "wait
//! for 30 seconds to see if the garbage collector mistakenly deletes the pods".

use kubeplay::api::{Duration, Object, Pod, ReplicationController, Time};
use kubeplay::controllers::garbagecollector::GarbageCollector;
use kubeplay::controllers::replicaset::replica_set::ReplicaSetController;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::{DeleteOptions, Propagation};
use kubeplay::world::World;
use serde_json::json;

const NS: &str = "gc";
const RC: &str = "simpletest.rc";

fn sim_with_rc() -> Simulation {
    let mut s = Simulation::new(
        5,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        FeatureGates::default(),
        World::default(),
    );
    s.add_loop(Box::new(ReplicaSetController::new_replication_controller()));
    s.add_loop(Box::new(GarbageCollector::new()));
    // newOwnerRC(f, name, 2): two replicas of a pod labelled name=gctest.
    s.api
        .create(
            Object::from_value(json!({
                "apiVersion": "v1", "kind": "ReplicationController",
                "metadata": {"name": RC, "namespace": NS},
                "spec": {"replicas": 2, "selector": {"name": "gctest"},
                         "template": {"metadata": {"labels": {"name": "gctest"}},
                                      "spec": {"containers": [{"name": "nginx",
                                                                "image": "nginx"}]}}}
            }))
            .unwrap(),
        )
        .unwrap();
    s.settle().unwrap();
    // "wait for rc to create some pods"
    let rc = s
        .api
        .store
        .get::<ReplicationController>(NS, RC)
        .cloned()
        .unwrap();
    assert_eq!(rc.status.replicas, 2, "rc.Status.Replicas");
    s
}

fn pods(sim: &Simulation) -> Vec<Pod> {
    sim.api.store.list::<Pod>(Some(NS)).cloned().collect()
}

fn delete_rc(sim: &mut Simulation, propagation: Option<Propagation>) {
    let uid = sim
        .api
        .store
        .get::<ReplicationController>(NS, RC)
        .unwrap()
        .metadata
        .uid
        .clone();
    sim.api
        .delete(
            "ReplicationController",
            NS,
            RC,
            &DeleteOptions {
                propagation,
                uid: Some(uid),
                ..Default::default()
            },
        )
        .unwrap();
    sim.settle().unwrap();
    let t = sim.now() + Duration::from_secs(30);
    sim.run_until(t).unwrap();
    assert!(
        sim.api.store.get::<ReplicationController>(NS, RC).is_none(),
        "the rc is deleted"
    );
}

// upstream: "Garbage collector should delete pods created by rc when not orphaning"
// (conformance): deleted with OrphanDependents=false, the RC's pods are collected.
#[test]
fn delete_pods_created_by_rc_when_not_orphaning() {
    let mut sim = sim_with_rc();
    delete_rc(&mut sim, Some(Propagation::Background));
    assert!(pods(&sim).is_empty(), "expect 0 pods");
}

// upstream: "Garbage collector should orphan pods created by rc if delete options say so"
// (conformance): deleted with OrphanDependents=true, the two pods stay, without owner.
#[test]
fn orphan_pods_created_by_rc_if_delete_options_say_so() {
    let mut sim = sim_with_rc();
    delete_rc(&mut sim, Some(Propagation::Orphan));
    let ps = pods(&sim);
    assert_eq!(ps.len(), 2, "expect 2 pods");
    for p in ps {
        assert!(
            p.metadata.owner_references.is_empty(),
            "{}",
            p.metadata.name
        );
    }
}

// upstream: "Garbage collector should orphan pods created by rc if deleteOptions.OrphanDependents
// is nil": empty delete options (only a UID precondition) orphan a v1 RC's pods, the RC
// strategy's default garbage collection policy for core/v1.
#[test]
#[ignore = "the API server's delete (src/store/apiserver.rs, not edited here) does not apply \
            rcStrategy.DefaultGarbageCollectionPolicy (OrphanDependents for core/v1 RCs): with no \
            propagation given the pods are collected"]
fn orphan_pods_created_by_rc_if_orphan_dependents_is_nil() {
    let mut sim = sim_with_rc();
    delete_rc(&mut sim, None);
    assert_eq!(pods(&sim).len(), 2, "expect 2 pods");
}
