//! Ports of upstream's garbage collector integration tests
//! (test/integration/garbagecollector/garbage_collector_test.go): ReplicationControllers and
//! pods in one namespace, only the garbage collector running (upstream's `setup` starts an API
//! server with no other controllers), the API server's delete options deciding the propagation.
//!
//! Upstream's `newPod` points each owner reference at a v1 ReplicationController; the pods are
//! unscheduled, so a delete removes them at once unless a finalizer (`x/y`, which no controller
//! handles) keeps them. Upstream polls for up to 30–300 s; here the simulation settles.

use kubeplay::api::{
    Container, Object, ObjectMeta, OwnerReference, Pod, PodTemplateSpec, ReplicationController,
    Time,
};
use kubeplay::controllers::garbagecollector::GarbageCollector;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::{DeleteOptions, Propagation, FINALIZER_ORPHAN};
use kubeplay::store::ObjectRef;
use kubeplay::world::World;

const NS: &str = "gc-test";
const TO_BE_DELETED_RC: &str = "test.rc.1";
const REMAINING_RC: &str = "test.rc.2";
const GARBAGE_COLLECTED_POD: &str = "test.pod.1";
const INDEPENDENT_POD: &str = "test.pod.2";
const ONE_VALID_OWNER_POD: &str = "test.pod.3";

fn new_sim() -> Simulation {
    let mut s = Simulation::new(
        3,
        Time::from_unix_secs(1_700_000_000),
        FeatureGates::default(),
        World::default(),
    );
    s.add_loop(Box::new(GarbageCollector::new()));
    s
}

/// `newOwnerRC`: a v1 ReplicationController (its uid given here, assigned by the API server
/// upstream).
fn new_owner_rc(name: &str, uid: &str, finalizers: &[&str]) -> Object {
    let mut rc = ReplicationController {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: NS.into(),
            uid: uid.into(),
            finalizers: finalizers
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .into(),
            ..Default::default()
        },
        ..Default::default()
    };
    rc.spec.selector = [("name".to_string(), "test".to_string())].into();
    let mut template = PodTemplateSpec::default();
    template.metadata.labels = rc.spec.selector.clone().into();
    template.spec_mut().containers = vec![Container {
        name: "fake-name".into(),
        image: "fakeimage".into(),
        ..Default::default()
    }];
    rc.spec.template = Some(template);
    Object::ReplicationController(rc)
}

/// An owner reference as the upstream tests write it: uid and name, `newPod` filling in
/// kind ReplicationController and apiVersion v1.
fn rc_ref(name: &str, uid: &str, block: Option<bool>) -> OwnerReference {
    OwnerReference {
        api_version: "v1".into(),
        kind: "ReplicationController".into(),
        name: name.into(),
        uid: uid.into(),
        controller: None,
        block_owner_deletion: block,
    }
}

/// `newPod`.
fn new_pod(name: &str, uid: &str, owners: Vec<OwnerReference>, finalizers: &[&str]) -> Object {
    let mut p = Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: NS.into(),
            uid: uid.into(),
            owner_references: owners.into(),
            finalizers: finalizers
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .into(),
            ..Default::default()
        },
        ..Default::default()
    };
    p.spec_mut().containers = vec![Container {
        name: "fake-name".into(),
        image: "fakeimage".into(),
        ..Default::default()
    }];
    Object::Pod(p)
}

fn create(sim: &mut Simulation, o: Object) {
    sim.api.load(o).expect("create");
}

fn delete(sim: &mut Simulation, kind: &'static str, name: &str, propagation: Option<Propagation>) {
    sim.api
        .delete(
            kind,
            NS,
            name,
            &DeleteOptions {
                propagation,
                ..Default::default()
            },
        )
        .expect("delete");
}

fn get<'a>(sim: &'a Simulation, kind: &'static str, name: &str) -> Option<&'a Object> {
    sim.api.store.get_ref(&ObjectRef::new(kind, NS, name))
}

fn names(sim: &Simulation, kind: &'static str) -> Vec<String> {
    let mut v: Vec<String> = sim
        .api
        .store
        .list_kind(kind, Some(NS))
        .map(|o| o.meta().name.clone())
        .collect();
    v.sort();
    v
}

fn owner_names(sim: &Simulation, pod: &str) -> Vec<String> {
    get(sim, "Pod", pod)
        .expect("pod exists")
        .meta()
        .owner_references
        .iter()
        .map(|r| r.name.clone())
        .collect()
}

// upstream: TestCascadingDeletion. A pod owned only by the deleted RC is collected; a pod with
// a second, live owner and a pod without owners are not. Deleted with
// `OrphanDependents: false` (background propagation).
#[test]
fn cascading_deletion() {
    let mut sim = new_sim();
    create(&mut sim, new_owner_rc(TO_BE_DELETED_RC, "rc-1", &[]));
    create(&mut sim, new_owner_rc(REMAINING_RC, "rc-2", &[]));
    create(
        &mut sim,
        new_pod(
            GARBAGE_COLLECTED_POD,
            "pod-1",
            vec![rc_ref(TO_BE_DELETED_RC, "rc-1", None)],
            &[],
        ),
    );
    create(
        &mut sim,
        new_pod(
            ONE_VALID_OWNER_POD,
            "pod-3",
            vec![
                rc_ref(TO_BE_DELETED_RC, "rc-1", None),
                rc_ref(REMAINING_RC, "rc-2", None),
            ],
            &[],
        ),
    );
    create(&mut sim, new_pod(INDEPENDENT_POD, "pod-2", vec![], &[]));
    sim.settle().unwrap();
    assert_eq!(names(&sim, "Pod").len(), 3);

    delete(
        &mut sim,
        "ReplicationController",
        TO_BE_DELETED_RC,
        Some(Propagation::Background),
    );
    sim.settle().unwrap();
    let gc = sim.controller::<GarbageCollector>().unwrap();
    assert!(!gc.graph_has_uid("rc-1"), "the deleted RC left the graph");
    assert!(get(&sim, "Pod", GARBAGE_COLLECTED_POD).is_none());
    assert!(get(&sim, "Pod", INDEPENDENT_POD).is_some());
    assert!(get(&sim, "Pod", ONE_VALID_OWNER_POD).is_some());
}

// upstream: TestCreateWithNonExistentOwner: a pod created with an owner reference to an RC that
// does not exist is collected.
#[test]
fn create_with_non_existent_owner() {
    let mut sim = new_sim();
    create(
        &mut sim,
        new_pod(
            GARBAGE_COLLECTED_POD,
            "pod-1",
            vec![rc_ref(TO_BE_DELETED_RC, "doesn't matter", None)],
            &[],
        ),
    );
    sim.settle().unwrap();
    assert!(get(&sim, "Pod", GARBAGE_COLLECTED_POD).is_none());
}

// upstream: TestOrphaning: the RC deleted with orphan options goes; its three pods stay, with
// no owner references left.
#[test]
fn orphaning() {
    let mut sim = new_sim();
    create(&mut sim, new_owner_rc(TO_BE_DELETED_RC, "rc-1", &[]));
    for i in 0..3 {
        create(
            &mut sim,
            new_pod(
                &format!("{GARBAGE_COLLECTED_POD}{i}"),
                &format!("pod-{i}"),
                vec![rc_ref(TO_BE_DELETED_RC, "rc-1", None)],
                &[],
            ),
        );
    }
    sim.settle().unwrap();
    let gc = sim.controller::<GarbageCollector>().unwrap();
    assert!((0..3).all(|i| gc.graph_has_uid(&format!("pod-{i}"))));

    delete(
        &mut sim,
        "ReplicationController",
        TO_BE_DELETED_RC,
        Some(Propagation::Orphan),
    );
    sim.settle().unwrap();
    assert!(names(&sim, "ReplicationController").is_empty());
    let pods = names(&sim, "Pod");
    assert_eq!(pods.len(), 3);
    for p in pods {
        assert!(owner_names(&sim, &p).is_empty(), "{p} still has owners");
    }
}

// upstream: TestSolidOwnerDoesNotBlockWaitingOwner: the pod blocks the foreground deletion of
// one RC and has a second, live owner; the RC goes and the pod keeps only the live owner.
#[test]
fn solid_owner_does_not_block_waiting_owner() {
    let mut sim = new_sim();
    create(&mut sim, new_owner_rc(TO_BE_DELETED_RC, "rc-1", &[]));
    create(&mut sim, new_owner_rc(REMAINING_RC, "rc-2", &[]));
    create(
        &mut sim,
        new_pod(
            "pod",
            "pod-1",
            vec![
                rc_ref(TO_BE_DELETED_RC, "rc-1", Some(true)),
                rc_ref(REMAINING_RC, "rc-2", None),
            ],
            &[],
        ),
    );
    sim.settle().unwrap();
    delete(
        &mut sim,
        "ReplicationController",
        TO_BE_DELETED_RC,
        Some(Propagation::Foreground),
    );
    sim.settle().unwrap();
    assert!(get(&sim, "ReplicationController", TO_BE_DELETED_RC).is_none());
    assert_eq!(owner_names(&sim, "pod"), [REMAINING_RC]);
}

// upstream: TestNonBlockingOwnerRefDoesNotBlock: pods whose references to the RC do not set
// blockOwnerDeletion (absent, or false) do not hold its foreground deletion; kept by a
// finalizer no controller handles, both pods remain.
#[test]
fn non_blocking_owner_ref_does_not_block() {
    let mut sim = new_sim();
    create(&mut sim, new_owner_rc(TO_BE_DELETED_RC, "rc-1", &[]));
    create(
        &mut sim,
        new_pod(
            "pod1",
            "pod-1",
            vec![rc_ref(TO_BE_DELETED_RC, "rc-1", None)],
            &["x/y"],
        ),
    );
    create(
        &mut sim,
        new_pod(
            "pod2",
            "pod-2",
            vec![rc_ref(TO_BE_DELETED_RC, "rc-1", Some(false))],
            &["x/y"],
        ),
    );
    sim.settle().unwrap();
    delete(
        &mut sim,
        "ReplicationController",
        TO_BE_DELETED_RC,
        Some(Propagation::Foreground),
    );
    sim.settle().unwrap();
    assert!(get(&sim, "ReplicationController", TO_BE_DELETED_RC).is_none());
    assert_eq!(names(&sim, "Pod"), ["pod1", "pod2"]);
}

// upstream: TestBlockingOwnerRefDoesBlock: a pod with blockOwnerDeletion, kept by a finalizer,
// holds the RC's foreground deletion: after 30 s both are still there.
#[test]
fn blocking_owner_ref_does_block() {
    let mut sim = new_sim();
    create(&mut sim, new_owner_rc(TO_BE_DELETED_RC, "rc-1", &[]));
    create(
        &mut sim,
        new_pod(
            "pod",
            "pod-1",
            vec![rc_ref(TO_BE_DELETED_RC, "rc-1", Some(true))],
            &["x/y"],
        ),
    );
    sim.settle().unwrap();
    delete(
        &mut sim,
        "ReplicationController",
        TO_BE_DELETED_RC,
        Some(Propagation::Foreground),
    );
    let t = sim.now() + kubeplay::api::Duration::from_secs(30);
    sim.run_until(t).unwrap();
    assert!(get(&sim, "ReplicationController", TO_BE_DELETED_RC).is_some());
    assert_eq!(names(&sim, "Pod"), ["pod"]);
}

/// `setupRCsPods`: an RC created with `finalizers`, three pods owned by it, then the RC
/// deleted with `options`.
fn setup_rcs_pods(
    sim: &mut Simulation,
    suffix: &str,
    finalizers: &[&str],
    options: Option<Propagation>,
) -> String {
    let rc_name = format!("test.rc.{suffix}");
    let rc_uid = format!("rc-{suffix}");
    create(sim, new_owner_rc(&rc_name, &rc_uid, finalizers));
    for j in 0..3 {
        create(
            sim,
            new_pod(
                &format!("test.pod.{suffix}-{j}"),
                &format!("pod-{suffix}-{j}"),
                vec![rc_ref(&rc_name, &rc_uid, None)],
                &[],
            ),
        );
    }
    // Upstream waits for the collector to see the pods before deleting when they are to be
    // orphaned.
    sim.settle().unwrap();
    delete(sim, "ReplicationController", &rc_name, options);
    rc_uid
}

// upstream: TestStressingCascadingDeletion, the collections kubeplay's API server models (see
// `stressing_cascading_deletion` below for the whole test): an RC created with the orphan
// finalizer and deleted with no options (collection 2), one deleted with
// OrphanDependents=true (collection 4) and one with PropagationPolicy=Orphan (collection 5; both
// are `Propagation::Orphan` here). The RCs go, their pods remain without owners, and no RC
// is left in the graph.
#[test]
fn stressing_cascading_deletion_orphaning_collections() {
    let mut sim = new_sim();
    let mut rc_uids = vec![];
    for i in 0..10 {
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection2-{i}"),
            &[FINALIZER_ORPHAN],
            None,
        ));
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection4-{i}"),
            &[],
            Some(Propagation::Orphan),
        ));
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection5-{i}"),
            &[],
            Some(Propagation::Orphan),
        ));
    }
    sim.settle().unwrap();
    assert!(names(&sim, "ReplicationController").is_empty());
    let pods = names(&sim, "Pod");
    assert_eq!(pods.len(), 10 * 3 * 3);
    for p in &pods {
        assert!(owner_names(&sim, p).is_empty(), "{p} still has owners");
    }
    let gc = sim.controller::<GarbageCollector>().unwrap();
    assert!(rc_uids.iter().all(|u| !gc.graph_has_uid(u)));
}

// upstream: TestStressingCascadingDeletion, with its 10 collections of four kinds:
// 1. no finalizers, deleted with no options: v1 ReplicationControllers default to orphaning
//    (rcStrategy.DefaultGarbageCollectionPolicy), so the pods remain;
// 2. created with the orphan finalizer, deleted with no options: the pods remain;
// 3. created with the orphan finalizer, deleted with OrphanDependents=false: the pods go;
// 4. no finalizers, deleted with OrphanDependents=true: the pods remain;
// 5. no finalizers, deleted with PropagationPolicy=Orphan: the pods remain.
// Every RC goes, 120 pods remain, none of collection 3, and no RC is left in the graph.
#[test]
fn stressing_cascading_deletion() {
    let mut sim = new_sim();
    let mut rc_uids = vec![];
    for i in 0..10 {
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection1-{i}"),
            &[],
            None,
        ));
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection2-{i}"),
            &[FINALIZER_ORPHAN],
            None,
        ));
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection3-{i}"),
            &[FINALIZER_ORPHAN],
            Some(Propagation::Background),
        ));
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection4-{i}"),
            &[],
            Some(Propagation::Orphan),
        ));
        rc_uids.push(setup_rcs_pods(
            &mut sim,
            &format!("collection5-{i}"),
            &[],
            Some(Propagation::Orphan),
        ));
    }
    sim.settle().unwrap();
    assert!(names(&sim, "ReplicationController").is_empty());
    let pods = names(&sim, "Pod");
    assert_eq!(pods.len(), 10 * 3 * 4);
    for p in &pods {
        assert!(
            p.contains("collection1-")
                || p.contains("collection2-")
                || p.contains("collection4-")
                || p.contains("collection5-"),
            "unexpected remaining pod {p}"
        );
    }
    let gc = sim.controller::<GarbageCollector>().unwrap();
    assert!(rc_uids.iter().all(|u| !gc.graph_has_uid(u)));
}

fn finalizers(sim: &Simulation, pod: &str) -> Vec<String> {
    get(sim, "Pod", pod)
        .expect("pod exists")
        .meta()
        .finalizers
        .iter()
        .cloned()
        .collect()
}

// upstream: TestDoubleDeletionWithFinalizer. A pod with a finalizer no controller handles is
// deleted in the foreground: the collector removes foregroundDeletion (no dependents) and only
// `x/y` is left; a second foreground delete ends the same way; removing `x/y` lets the pod go.
#[test]
fn double_deletion_with_finalizer() {
    let mut sim = new_sim();
    create(&mut sim, new_pod("lucy", "pod-1", vec![], &["x/y"]));
    sim.settle().unwrap();
    // step 1
    delete(&mut sim, "Pod", "lucy", Some(Propagation::Foreground));
    sim.settle().unwrap();
    assert_eq!(finalizers(&sim, "lucy"), ["x/y"], "step 1");
    // step 2
    delete(&mut sim, "Pod", "lucy", Some(Propagation::Foreground));
    sim.settle().unwrap();
    assert_eq!(finalizers(&sim, "lucy"), ["x/y"], "step 2");
    // step 3: the finalizers removed (upstream: a JSON patch removing /metadata/finalizers).
    let mut p = get(&sim, "Pod", "lucy").unwrap().clone();
    p.meta_mut().finalizers = Vec::<String>::new().into();
    sim.api.update(p).expect("update");
    sim.settle().unwrap();
    assert!(get(&sim, "Pod", "lucy").is_none(), "step 3");
}
