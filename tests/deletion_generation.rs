//! What a DELETE does to the object before it goes: `rest.BeforeDelete` (graceful pods) and the
//! generic registry's `updateForGracefulDeletionAndFinalizers` / `markAsDeleting` (objects
//! kept by finalizers): deletionTimestamp, deletionGracePeriodSeconds and the generation bump
//! of the first deletion, which a workload controller then reports as observedGeneration.
//! Upstream: staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go and
//! staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go.

use kubeplay::api::{Deployment, Duration, Object, Pod, Time};
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::{DeleteOptions, Propagation, FINALIZER_FOREGROUND};

fn build(name: &str) -> Simulation {
    let mut s = Scenario::parse(builtin::get(name).expect("builtin")).expect("parses");
    s.timeline.clear();
    s.build().expect("builds")
}

fn at(sim: &mut Simulation, secs: i64) {
    let t = sim.start + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

fn first_pod(sim: &Simulation) -> Pod {
    sim.api
        .store
        .list::<Pod>(Some("default"))
        .find(|p| p.metadata.deletion_timestamp.is_none() && !p.spec.node_name.is_empty())
        .cloned()
        .expect("a running pod")
}

fn pod(sim: &Simulation, name: &str) -> Pod {
    sim.api
        .store
        .get::<Pod>("default", name)
        .cloned()
        .expect("pod still there")
}

fn now(sim: &Simulation) -> Time {
    sim.api.now.trunc_secs()
}

fn grace(g: i64) -> DeleteOptions {
    DeleteOptions {
        grace_period_seconds: Some(g),
        ..Default::default()
    }
}

#[test]
fn graceful_pod_deletion_sets_the_deadline_and_bumps_the_generation_once() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let p = first_pod(&sim);
    assert_eq!(p.metadata.generation, 1);
    let t0 = now(&sim);
    sim.api
        .delete(
            "Pod",
            "default",
            &p.metadata.name,
            &DeleteOptions::default(),
        )
        .unwrap();
    let d = pod(&sim, &p.metadata.name);
    // CheckGracefulDelete: the pod's terminationGracePeriodSeconds (defaulted to 30).
    assert_eq!(d.metadata.deletion_grace_period_seconds, Some(30));
    assert_eq!(
        d.metadata.deletion_timestamp,
        Some(t0 + Duration::from_secs(30))
    );
    // "If it's the first graceful deletion ... we need to bump object's Generation".
    assert_eq!(d.metadata.generation, 2);

    // A second DELETE without a shorter grace period is a pending graceful deletion: nothing
    // is written (same resourceVersion, generation not bumped again).
    sim.api
        .delete(
            "Pod",
            "default",
            &p.metadata.name,
            &DeleteOptions::default(),
        )
        .unwrap();
    let again = pod(&sim, &p.metadata.name);
    assert_eq!(again.metadata.resource_version, d.metadata.resource_version);
    assert_eq!(again.metadata.generation, 2);
}

#[test]
fn a_plain_delete_does_not_shorten_a_longer_requested_grace_period() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let p = first_pod(&sim);
    let t0 = now(&sim);
    sim.api
        .delete("Pod", "default", &p.metadata.name, &grace(60))
        .unwrap();
    // Without --grace-period, kubectl sends no gracePeriodSeconds: BeforeDelete finds the
    // deletion pending and changes nothing (the pod's own 30 s does not apply).
    sim.api
        .delete(
            "Pod",
            "default",
            &p.metadata.name,
            &DeleteOptions::default(),
        )
        .unwrap();
    let d = pod(&sim, &p.metadata.name);
    assert_eq!(d.metadata.deletion_grace_period_seconds, Some(60));
    assert_eq!(
        d.metadata.deletion_timestamp,
        Some(t0 + Duration::from_secs(60))
    );
    // A longer one is ignored too.
    sim.api
        .delete("Pod", "default", &p.metadata.name, &grace(90))
        .unwrap();
    assert_eq!(
        pod(&sim, &p.metadata.name)
            .metadata
            .deletion_grace_period_seconds,
        Some(60)
    );
}

#[test]
fn a_shorter_grace_period_counts_from_the_first_request() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let p = first_pod(&sim);
    let t0 = now(&sim);
    sim.api
        .delete("Pod", "default", &p.metadata.name, &grace(120))
        .unwrap();
    // Ten seconds later (the kubelet is still stopping the containers under 120 s).
    sim.api.now = sim.api.now + Duration::from_secs(10);
    sim.api
        .delete("Pod", "default", &p.metadata.name, &grace(40))
        .unwrap();
    let d = pod(&sim, &p.metadata.name);
    // deletionTimestamp − old grace + new grace: t0 + 40 s, not (t0 + 10 s) + 40 s.
    assert_eq!(
        d.metadata.deletion_timestamp,
        Some(t0 + Duration::from_secs(40))
    );
    assert_eq!(d.metadata.deletion_grace_period_seconds, Some(40));
    // Shortening is not a first deletion: no second generation bump.
    assert_eq!(d.metadata.generation, 2);
}

#[test]
fn negative_grace_periods_count_as_one_second() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let p = first_pod(&sim);
    let t0 = now(&sim);
    sim.api
        .delete("Pod", "default", &p.metadata.name, &grace(-5))
        .unwrap();
    let d = pod(&sim, &p.metadata.name);
    assert_eq!(d.metadata.deletion_grace_period_seconds, Some(1));
    assert_eq!(
        d.metadata.deletion_timestamp,
        Some(t0 + Duration::from_secs(1))
    );
}

#[test]
fn foreground_deletion_marks_the_deployment_deleting_and_bumps_its_generation() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    let before = sim
        .api
        .store
        .get::<Deployment>("default", "nginx-deployment")
        .cloned()
        .unwrap();
    assert_eq!(before.metadata.generation, 1);
    assert_eq!(before.status.observed_generation, 1);
    let t0 = now(&sim);
    let opts = DeleteOptions {
        propagation: Some(Propagation::Foreground),
        ..Default::default()
    };
    let out = sim
        .api
        .delete("Deployment", "default", "nginx-deployment", &opts)
        .unwrap();
    let Object::Deployment(d) = out else {
        panic!("a Deployment")
    };
    // markAsDeleting: deletionTimestamp now, grace 0, generation + 1, the foreground
    // finalizer from the propagation policy.
    assert_eq!(d.metadata.deletion_timestamp, Some(t0));
    assert_eq!(d.metadata.deletion_grace_period_seconds, Some(0));
    assert_eq!(d.metadata.generation, 2);
    assert!(d
        .metadata
        .finalizers
        .iter()
        .any(|f| f == FINALIZER_FOREGROUND));

    // Deleting it again while the finalizer is pending does not bump it a second time.
    sim.api
        .delete("Deployment", "default", "nginx-deployment", &opts)
        .unwrap();
    let stored = sim
        .api
        .store
        .get::<Deployment>("default", "nginx-deployment")
        .cloned()
        .unwrap();
    assert_eq!(stored.metadata.generation, 2);
    assert_eq!(
        stored.metadata.resource_version,
        d.metadata.resource_version
    );

    // The deployment controller syncs only the status of a Deployment being deleted
    // (syncStatusOnly), which records the new generation. Step once so the controller runs
    // before the garbage collector finishes the foreground deletion.
    let mut seen = None;
    for _ in 0..200 {
        if !sim.step().unwrap() {
            break;
        }
        match sim
            .api
            .store
            .get::<Deployment>("default", "nginx-deployment")
        {
            Some(d) if d.status.observed_generation == 2 => {
                seen = Some(2);
                break;
            }
            Some(_) => {}
            None => break,
        }
    }
    assert_eq!(
        seen,
        Some(2),
        "observedGeneration follows the bumped generation"
    );
}

#[test]
fn objects_without_finalizers_are_removed_at_once() {
    let mut sim = build("nginx-deployment");
    at(&mut sim, 60);
    // Background deletion of an object without finalizers: no update, gone at once.
    let rs = sim
        .api
        .store
        .list::<kubeplay::api::ReplicaSet>(Some("default"))
        .next()
        .cloned()
        .unwrap();
    let opts = DeleteOptions {
        propagation: Some(Propagation::Background),
        ..Default::default()
    };
    sim.api
        .delete("ReplicaSet", "default", &rs.metadata.name, &opts)
        .unwrap();
    assert!(sim
        .api
        .store
        .get::<kubeplay::api::ReplicaSet>("default", &rs.metadata.name)
        .is_none());
}

#[test]
fn only_kinds_whose_strategy_keeps_a_generation_have_one() {
    use kubeplay::api::{ControllerRevision, Node, PersistentVolumeClaim, Service, StatefulSet};
    let mut sim = build("statefulset-web");
    at(&mut sim, 120);
    // The node strategy, the Service, PVC and ControllerRevision strategies never set
    // metadata.generation: it stays 0 (omitted), even after spec changes such as a PVC's
    // volumeName or a node's podCIDR.
    assert!(sim
        .api
        .store
        .list::<Node>(None)
        .all(|n| n.metadata.generation == 0));
    assert!(sim
        .api
        .store
        .list::<Service>(None)
        .all(|s| s.metadata.generation == 0));
    let pvcs: Vec<_> = sim.api.store.list::<PersistentVolumeClaim>(None).collect();
    assert!(!pvcs.is_empty());
    assert!(pvcs.iter().all(|c| c.metadata.generation == 0));
    assert!(sim
        .api
        .store
        .list::<ControllerRevision>(None)
        .all(|r| r.metadata.generation == 0));
    let sts = sim.api.store.get::<StatefulSet>("default", "web").unwrap();
    assert_eq!(sts.metadata.generation, 1);
    let pod = sim.api.store.get::<Pod>("default", "web-0").unwrap();
    assert_eq!(pod.metadata.generation, 1);
    // Nor has a HorizontalPodAutoscaler in 1.35 (HPAGeneration came later, alpha).
    let mut hpa_sim = Scenario::parse(builtin::get("hpa-frontend").unwrap())
        .unwrap()
        .build()
        .unwrap();
    at(&mut hpa_sim, 120);
    let hpas: Vec<_> = hpa_sim
        .api
        .store
        .list::<kubeplay::api::HorizontalPodAutoscaler>(None)
        .cloned()
        .collect();
    assert!(!hpas.is_empty());
    assert!(hpas.iter().all(|h| h.metadata.generation == 0));
    let yaml = serde_json::to_value(sim.api.store.list::<Node>(None).next().unwrap()).unwrap();
    assert!(yaml["metadata"].get("generation").is_none());
}
