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
fn orphan_pods_created_by_rc_if_orphan_dependents_is_nil() {
    let mut sim = sim_with_rc();
    delete_rc(&mut sim, None);
    assert_eq!(pods(&sim).len(), 2, "expect 2 pods");
}

/// A simulation with the RC and garbage collector controllers and an RC `name` with
/// `replicas` pods labelled `label=name` (`newOwnerRC(f, name, replicas, labels)`), its pods
/// created ("waitForReplicas").
fn sim_with_rcs(rcs: &[(&str, i32)]) -> Simulation {
    let mut s = Simulation::new(
        5,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        FeatureGates::default(),
        World::default(),
    );
    s.add_loop(Box::new(ReplicaSetController::new_replication_controller()));
    s.add_loop(Box::new(GarbageCollector::new()));
    for (name, replicas) in rcs {
        s.api
            .create(
                Object::from_value(json!({
                    "apiVersion": "v1", "kind": "ReplicationController",
                    "metadata": {"name": name, "namespace": NS},
                    "spec": {"replicas": replicas, "selector": {"gctest": name},
                             "template": {"metadata": {"labels": {"gctest": name}},
                                          "spec": {"containers": [{"name": "nginx",
                                                                    "image": "nginx"}]}}}
                }))
                .unwrap(),
            )
            .unwrap();
    }
    s.settle().unwrap();
    for (name, replicas) in rcs {
        let rc = s
            .api
            .store
            .get::<ReplicationController>(NS, name)
            .cloned()
            .unwrap();
        assert_eq!(rc.status.replicas, *replicas, "{name}: waitForReplicas");
    }
    s
}

fn rc_uid(sim: &Simulation, name: &str) -> String {
    sim.api
        .store
        .get::<ReplicationController>(NS, name)
        .unwrap()
        .metadata
        .uid
        .clone()
}

fn foreground_delete(sim: &mut Simulation, kind: &'static str, name: &str, uid: String) {
    sim.api
        .delete(
            kind,
            NS,
            name,
            &DeleteOptions {
                propagation: Some(Propagation::Foreground),
                uid: Some(uid),
                ..Default::default()
            },
        )
        .unwrap();
}

// upstream: "Garbage collector should keep the rc around until all its pods are deleted if the
// deleteOptions says so" (conformance): deleted in the foreground, the RC goes once its pods
// are gone, and no pod is left. (Upstream sizes the RC to the cluster, 10 to 100 pods; 10
// here.)
#[test]
fn keep_the_rc_around_until_all_its_pods_are_deleted() {
    let mut sim = sim_with_rcs(&[(RC, 10)]);
    let uid = rc_uid(&sim, RC);
    foreground_delete(&mut sim, "ReplicationController", RC, uid);
    // The RC carries the foregroundDeletion finalizer while its pods go.
    let rc = sim.api.store.get::<ReplicationController>(NS, RC).cloned();
    assert!(rc.is_some_and(|r| r.metadata.deletion_timestamp.is_some()));
    sim.settle().unwrap();
    let t = sim.now() + Duration::from_secs(30);
    sim.run_until(t).unwrap();
    assert!(sim.api.store.get::<ReplicationController>(NS, RC).is_none());
    assert!(pods(&sim).is_empty(), "expected no pods");
}

// upstream: "Garbage collector should not delete dependents that have both valid owner and
// owner that's waiting for dependents to be deleted" (conformance): half of rc1's pods also
// get rc2 as an owner; rc1 deleted in the foreground goes, those pods stay, not terminating,
// with rc2 as their only owner. (10 replicas here, see above.)
#[test]
fn do_not_delete_dependents_with_a_valid_owner_and_a_waiting_owner() {
    let rc1 = "simpletest-rc-to-be-deleted";
    let rc2 = "simpletest-rc-to-stay";
    let replicas = 10;
    let half = replicas / 2;
    let mut sim = sim_with_rcs(&[(rc1, replicas), (rc2, 0)]);
    let rc2_uid = rc_uid(&sim, rc2);
    let mut names: Vec<String> = pods(&sim).iter().map(|p| p.metadata.name.clone()).collect();
    names.sort();
    for name in names.iter().take(half as usize) {
        // The strategic merge patch adding rc2's reference (merged by uid).
        let mut p = sim.api.store.get::<Pod>(NS, name).cloned().unwrap();
        let mut refs: Vec<_> = p.metadata.owner_references.iter().cloned().collect();
        refs.push(kubeplay::api::OwnerReference {
            api_version: "v1".into(),
            kind: "ReplicationController".into(),
            name: rc2.into(),
            uid: rc2_uid.clone(),
            controller: None,
            block_owner_deletion: None,
        });
        p.metadata.owner_references = refs.into();
        sim.api.update(Object::Pod(p)).unwrap();
    }
    sim.settle().unwrap();
    let uid = rc_uid(&sim, rc1);
    foreground_delete(&mut sim, "ReplicationController", rc1, uid);
    sim.settle().unwrap();
    let t = sim.now() + Duration::from_secs(90);
    sim.run_until(t).unwrap();
    assert!(sim
        .api
        .store
        .get::<ReplicationController>(NS, rc1)
        .is_none());
    let remaining = pods(&sim);
    assert_eq!(remaining.len(), half as usize);
    for p in remaining {
        assert!(
            p.metadata.deletion_timestamp.is_none(),
            "{}",
            p.metadata.name
        );
        assert_eq!(p.metadata.owner_references.len(), 1, "{}", p.metadata.name);
        assert_eq!(p.metadata.owner_references[0].name, rc2);
    }
}

// upstream: "Garbage collector should not be blocked by dependency circle" (conformance):
// pod1 is owned by pod3, pod2 by pod1 and pod3 by pod2 (controller, blockOwnerDeletion);
// deleting pod1 in the foreground deletes all three.
#[test]
fn not_blocked_by_dependency_circle() {
    let mut sim = sim_with_rcs(&[]);
    let mut uids = std::collections::BTreeMap::new();
    for name in ["pod1", "pod2", "pod3"] {
        // newGCPod.
        let p = sim
            .api
            .create(
                Object::from_value(json!({
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": name, "namespace": NS},
                    "spec": {"terminationGracePeriodSeconds": 30,
                             "containers": [{"name": "nginx", "image": "nginx"}]}
                }))
                .unwrap(),
            )
            .unwrap();
        uids.insert(name, p.meta().uid.clone());
    }
    for (pod, owner) in [("pod1", "pod3"), ("pod2", "pod1"), ("pod3", "pod2")] {
        let mut p = sim.api.store.get::<Pod>(NS, pod).cloned().unwrap();
        p.metadata.owner_references = vec![kubeplay::api::OwnerReference {
            api_version: "v1".into(),
            kind: "Pod".into(),
            name: owner.into(),
            uid: uids[owner].clone(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        }]
        .into();
        sim.api.update(Object::Pod(p)).unwrap();
    }
    sim.settle().unwrap();
    foreground_delete(&mut sim, "Pod", "pod1", uids["pod1"].clone());
    sim.settle().unwrap();
    let t = sim.now() + Duration::from_secs(90);
    sim.run_until(t).unwrap();
    assert!(
        pods(&sim).is_empty(),
        "failed to wait for all pods to be deleted"
    );
}

/// The deployment, ReplicaSet and garbage collector controllers with `newOwnerDeployment`'s
/// two-replica Deployment, after it has created its ReplicaSet and pods.
fn sim_with_deployment() -> (Simulation, String) {
    let mut s = Simulation::new(
        5,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        FeatureGates::default(),
        World::default(),
    );
    s.add_loop(Box::new(
        kubeplay::controllers::deployment::DeploymentController::new(),
    ));
    s.add_loop(Box::new(ReplicaSetController::new()));
    s.add_loop(Box::new(GarbageCollector::new()));
    let d = s
        .api
        .create(
            Object::from_value(json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "simpletest.deployment", "namespace": NS},
                "spec": {"replicas": 2, "selector": {"matchLabels": {"gctest": "delete_rs"}},
                         "template": {"metadata": {"labels": {"gctest": "delete_rs"}},
                                      "spec": {"containers": [{"name": "nginx",
                                                                "image": "nginx"}]}}}
            }))
            .unwrap(),
        )
        .unwrap();
    s.settle().unwrap();
    let rss: Vec<_> = s
        .api
        .store
        .list::<kubeplay::api::ReplicaSet>(Some(NS))
        .cloned()
        .collect();
    assert_eq!(rss.len(), 1, "the Deployment created its ReplicaSet");
    assert_eq!(rss[0].status.replicas, 2);
    (s, d.meta().uid.clone())
}

/// `verifyRemainingObjects`: (Deployments, ReplicaSets, Pods) left in the namespace.
fn remaining(sim: &Simulation) -> (usize, usize, usize) {
    (
        sim.api
            .store
            .list::<kubeplay::api::Deployment>(Some(NS))
            .count(),
        sim.api
            .store
            .list::<kubeplay::api::ReplicaSet>(Some(NS))
            .count(),
        pods(sim).len(),
    )
}

fn delete_deployment(sim: &mut Simulation, uid: String, propagation: Propagation) {
    sim.api
        .delete(
            "Deployment",
            NS,
            "simpletest.deployment",
            &DeleteOptions {
                propagation: Some(propagation),
                uid: Some(uid),
                ..Default::default()
            },
        )
        .unwrap();
    sim.settle().unwrap();
    let t = sim.now() + Duration::from_secs(60);
    sim.run_until(t).unwrap();
}

// upstream: "Garbage collector should delete RS created by deployment when not orphaning"
// (conformance): deleted with background propagation, the Deployment's ReplicaSet and pods go.
#[test]
fn delete_rs_created_by_deployment_when_not_orphaning() {
    let (mut sim, uid) = sim_with_deployment();
    delete_deployment(&mut sim, uid, Propagation::Background);
    assert_eq!(remaining(&sim), (0, 0, 0));
}

// upstream: "Garbage collector should orphan RS created by deployment when
// deleteOptions.PropagationPolicy is Orphan" (conformance): the ReplicaSet and its two pods
// remain, the ReplicaSet without a controller reference.
#[test]
fn orphan_rs_created_by_deployment_when_propagation_is_orphan() {
    let (mut sim, uid) = sim_with_deployment();
    delete_deployment(&mut sim, uid, Propagation::Orphan);
    assert_eq!(remaining(&sim), (0, 1, 2));
    for rs in sim.api.store.list::<kubeplay::api::ReplicaSet>(Some(NS)) {
        assert!(
            !rs.metadata
                .owner_references
                .iter()
                .any(|r| r.controller == Some(true)),
            "Found ReplicaSet with non nil ownerRef {}",
            rs.metadata.name
        );
    }
}

// upstream: "Garbage collector should delete jobs and pods created by cronjob": a CronJob
// running every minute creates a Job (and its pod); deleted with background propagation, it
// leaves no CronJob, Job or pod behind within a minute.
#[test]
fn delete_jobs_and_pods_created_by_cronjob() {
    let mut sim = Simulation::new(
        5,
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap(),
        FeatureGates::default(),
        World::default(),
    );
    sim.add_loop(kubeplay::controllers::cronjob::new_cron_job_controller());
    sim.add_loop(kubeplay::controllers::job::new_job_controller());
    sim.add_loop(Box::new(GarbageCollector::new()));
    // newCronJob("simple", "*/1 * * * ?").
    sim.api
        .create(
            Object::from_value(json!({
                "apiVersion": "batch/v1", "kind": "CronJob",
                "metadata": {"name": "simple", "namespace": NS},
                "spec": {"schedule": "*/1 * * * ?",
                         "jobTemplate": {"spec": {"template": {"spec": {
                             "restartPolicy": "OnFailure",
                             "containers": [{"name": "c", "image": "busybox",
                                             "args": ["sleep", "300"]}]}}}}}
            }))
            .unwrap(),
        )
        .unwrap();
    // "Wait for the CronJob to create new Job" (2 minutes).
    let t = sim.now() + Duration::from_secs(120);
    sim.run_until(t).unwrap();
    let jobs = sim
        .api
        .store
        .list::<kubeplay::api::batch::Job>(Some(NS))
        .count();
    assert!(jobs > 0, "the CronJob created some Jobs");
    assert!(!pods(&sim).is_empty(), "the Jobs created pods");
    sim.api
        .delete(
            "CronJob",
            NS,
            "simple",
            &DeleteOptions {
                propagation: Some(Propagation::Background),
                ..Default::default()
            },
        )
        .unwrap();
    let t = sim.now() + Duration::from_secs(60);
    sim.run_until(t).unwrap();
    let cronjobs = sim
        .api
        .store
        .list::<kubeplay::api::batch::CronJob>(Some(NS))
        .count();
    let jobs = sim
        .api
        .store
        .list::<kubeplay::api::batch::Job>(Some(NS))
        .count();
    assert_eq!((cronjobs, jobs, pods(&sim).len()), (0, 0, 0));
}
