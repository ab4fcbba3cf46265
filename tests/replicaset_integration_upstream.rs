//! Ports of upstream's ReplicaSet integration tests
//! (test/integration/replicaset/replicaset_test.go): an API server with only the ReplicaSet
//! controller running (upstream's `rmSetup`), so pods stay unscheduled and the tests write pod
//! status themselves. Upstream polls for up to 60 s; here the simulation settles.
//!
//! Fixtures follow upstream's `newRS` (selector and template labels `foo=bar`, container
//! `fake-name`/`fakeimage`) and `newMatchingPod` (labels `foo=bar`, phase Running).

use kubeplay::api::{
    Container, ContainerStatus, LabelSelector, Object, ObjectMeta, OwnerReference, Pod,
    PodCondition, ReplicaSet, ReplicationController, Time,
};
use kubeplay::controllers::replicaset::ReplicaSetController;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;
use kubeplay::world::World;

const NS: &str = "default";

fn t0() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn sim_with(gates: FeatureGates) -> Simulation {
    let mut s = Simulation::new(3, t0(), gates, World::default());
    s.add_loop(Box::new(ReplicaSetController::new()));
    s
}

fn sim() -> Simulation {
    sim_with(FeatureGates::default())
}

fn label_map() -> Vec<(String, String)> {
    vec![("foo".into(), "bar".into())]
}

/// `newRS(name, namespace, replicas)`.
fn new_rs(name: &str, replicas: i32) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = name.into();
    rs.metadata.namespace = NS.into();
    rs.spec.replicas = Some(replicas);
    let labels: kubeplay::api::Labels = label_map().into_iter().collect();
    rs.spec.selector = Some(LabelSelector::from_labels(&labels));
    rs.spec.template_mut().metadata.labels = labels.into();
    rs.spec.template_mut().spec_mut().containers = vec![Container {
        name: "fake-name".into(),
        image: "fakeimage".into(),
        ..Default::default()
    }];
    rs
}

/// `newMatchingPod(podName, namespace)`.
fn new_matching_pod(name: &str) -> Pod {
    let mut p = Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: NS.into(),
            labels: label_map()
                .into_iter()
                .collect::<kubeplay::api::Labels>()
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
    p.status.phase = "Running".into();
    p
}

fn create_rs(s: &mut Simulation, rs: ReplicaSet) -> ReplicaSet {
    match s.api.create(Object::ReplicaSet(rs)).unwrap() {
        Object::ReplicaSet(rs) => rs,
        o => panic!("{o:?}"),
    }
}

fn create_pod(s: &mut Simulation, p: Pod) -> Pod {
    // The pod's status is written as given (upstream's create keeps a Running phase the
    // client sets).
    let status = p.status.clone();
    let created = match s.api.create(Object::Pod(p)).unwrap() {
        Object::Pod(p) => p,
        o => panic!("{o:?}"),
    };
    if created.status.phase != status.phase {
        let mut p = created.clone();
        p.status = status;
        return match s.api.update_status(Object::Pod(p)).unwrap() {
            Object::Pod(p) => p,
            o => panic!("{o:?}"),
        };
    }
    created
}

fn get_rs(s: &Simulation, name: &str) -> ReplicaSet {
    s.api.store.get::<ReplicaSet>(NS, name).unwrap().clone()
}

fn get_pod(s: &Simulation, name: &str) -> Option<Pod> {
    s.api.store.get::<Pod>(NS, name).cloned()
}

/// `getPods(podClient, labelMap())`: the pods labelled `foo=bar`, in name order.
fn get_pods(s: &Simulation) -> Vec<Pod> {
    let mut pods: Vec<Pod> = s
        .api
        .store
        .list::<Pod>(Some(NS))
        .filter(|p| p.metadata.labels.get("foo").map(String::as_str) == Some("bar"))
        .cloned()
        .collect();
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    pods
}

fn update_rs(s: &mut Simulation, name: &str, f: impl FnOnce(&mut ReplicaSet)) -> ReplicaSet {
    let mut rs = get_rs(s, name);
    f(&mut rs);
    match s.api.update(Object::ReplicaSet(rs)).unwrap() {
        Object::ReplicaSet(rs) => rs,
        o => panic!("{o:?}"),
    }
}

fn update_pod(s: &mut Simulation, name: &str, f: impl FnOnce(&mut Pod)) {
    let mut p = get_pod(s, name).unwrap();
    f(&mut p);
    s.api.update(Object::Pod(p)).unwrap();
}

fn update_pod_status(s: &mut Simulation, name: &str, f: impl FnOnce(&mut Pod)) {
    let mut p = get_pod(s, name).unwrap();
    f(&mut p);
    s.api.update_status(Object::Pod(p)).unwrap();
}

/// `waitRSStable`: status.replicas reaches spec.replicas (and the status is current).
fn wait_rs_stable(s: &mut Simulation, name: &str) {
    s.settle().unwrap();
    let rs = get_rs(s, name);
    assert_eq!(
        rs.status.replicas,
        rs.spec.replicas.unwrap(),
        "{name}: {:?}",
        rs.status
    );
    assert!(rs.status.observed_generation >= rs.metadata.generation);
}

/// `scaleRS`.
fn scale_rs(s: &mut Simulation, name: &str, replicas: i32) {
    update_rs(s, name, |rs| rs.spec.replicas = Some(replicas));
    wait_rs_stable(s, name);
    assert_eq!(get_pods(s).len(), replicas as usize);
}

fn controller_of(p: &Pod) -> Option<&OwnerReference> {
    p.metadata
        .owner_references
        .iter()
        .find(|r| r.controller == Some(true))
}

fn rs_ref(rs: &ReplicaSet, controller: Option<bool>, block: Option<bool>) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".into(),
        kind: "ReplicaSet".into(),
        name: rs.metadata.name.clone(),
        uid: rs.metadata.uid.clone(),
        controller,
        block_owner_deletion: block,
    }
}

/// TestAdoption (test/integration/replicaset/replicaset_test.go): a pre-existing matching
/// pod's owner references after the controller starts.
#[test]
fn test_adoption() {
    type Refs = fn(&ReplicaSet) -> Vec<OwnerReference>;
    let cases: [(&str, Refs, Refs); 4] = [
        (
            "pod refers rs as an owner, not a controller",
            |rs| vec![rs_ref(rs, None, None)],
            |rs| vec![rs_ref(rs, Some(true), Some(true))],
        ),
        (
            "pod doesn't have owner references",
            |_| vec![],
            |rs| vec![rs_ref(rs, Some(true), Some(true))],
        ),
        (
            "pod refers rs as a controller",
            |rs| vec![rs_ref(rs, Some(true), None)],
            |rs| vec![rs_ref(rs, Some(true), None)],
        ),
        (
            "pod refers other rs as the controller, refers the rs as an owner",
            |rs| {
                vec![
                    OwnerReference {
                        api_version: "apps/v1".into(),
                        kind: "ReplicaSet".into(),
                        name: "anotherRS".into(),
                        uid: "1".into(),
                        controller: Some(true),
                        block_owner_deletion: None,
                    },
                    rs_ref(rs, None, None),
                ]
            },
            |rs| {
                vec![
                    OwnerReference {
                        api_version: "apps/v1".into(),
                        kind: "ReplicaSet".into(),
                        name: "anotherRS".into(),
                        uid: "1".into(),
                        controller: Some(true),
                        block_owner_deletion: None,
                    },
                    rs_ref(rs, None, None),
                ]
            },
        ),
    ];
    for (i, (name, existing, expected)) in cases.iter().enumerate() {
        // The controller is not running yet while the RS and the pod are created
        // (runControllerAndInformers after both creates).
        let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
        let rs = create_rs(&mut s, new_rs("rs", 1));
        let mut pod = new_matching_pod(&format!("pod{i}"));
        pod.metadata.owner_references = existing(&rs).into();
        create_pod(&mut s, pod);
        s.add_loop(Box::new(ReplicaSetController::new()));
        s.settle().unwrap();
        let got = get_pod(&s, &format!("pod{i}")).unwrap();
        assert_eq!(
            got.metadata.owner_references.to_vec(),
            expected(&rs),
            "{name}"
        );
    }
}

/// TestRSSelectorImmutability: an apps/v1 ReplicaSet's selector cannot change.
#[test]
fn test_rs_selector_immutability() {
    let mut s = sim();
    create_rs(&mut s, new_rs("rs", 0));
    s.settle().unwrap();
    let mut rs = get_rs(&s, "rs");
    let new_labels: kubeplay::api::Labels = [(
        "changed_name_apps_v1".to_string(),
        "changed_test_apps_v1".to_string(),
    )]
    .into_iter()
    .collect();
    rs.spec.selector = Some(LabelSelector::from_labels(&new_labels));
    rs.spec.template_mut().metadata.labels = new_labels.into();
    let err = s
        .api
        .update(Object::ReplicaSet(rs))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Invalid value") && err.contains("field is immutable"),
        "{err}"
    );
}

/// TestSpecReplicasChange (replicaset_test.go): scaling up, to zero and back follows
/// spec.replicas; a template-only change bumps generation and observedGeneration follows.
#[test]
fn test_spec_replicas_change() {
    let mut s = sim();
    create_rs(&mut s, new_rs("rs", 2));
    wait_rs_stable(&mut s, "rs");
    scale_rs(&mut s, "rs", 3);
    scale_rs(&mut s, "rs", 0);
    scale_rs(&mut s, "rs", 2);
    let old_generation = get_rs(&s, "rs").metadata.generation;
    let updated = update_rs(&mut s, "rs", |rs| {
        rs.spec.template_mut().metadata.annotations =
            [("test".to_string(), "annotation".to_string())]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>()
                .into();
    });
    let saved_generation = updated.metadata.generation;
    assert_ne!(saved_generation, old_generation);
    s.settle().unwrap();
    assert!(get_rs(&s, "rs").status.observed_generation >= saved_generation);
}

/// TestDeletingAndFailedPods: a pod held in deletion by a finalizer and a Failed pod are both
/// replaced, and both remain among the four pods.
#[test]
fn test_deleting_and_failed_pods() {
    let mut s = sim();
    create_rs(&mut s, new_rs("rs", 2));
    wait_rs_stable(&mut s, "rs");
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 2);
    let deleting = pods[0].clone();
    update_pod(&mut s, &deleting.metadata.name, |p| {
        p.metadata.finalizers = vec!["fake.example.com/blockDeletion".to_string()].into();
    });
    s.api
        .delete(
            "Pod",
            NS,
            &deleting.metadata.name,
            &DeleteOptions::default(),
        )
        .unwrap();
    let failed = pods[1].clone();
    update_pod_status(&mut s, &failed.metadata.name, |p| {
        p.status.phase = "Failed".into()
    });
    s.settle().unwrap();
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 4, "{pods:?}");
    assert!(pods.iter().any(|p| p.metadata.uid == deleting.metadata.uid));
    assert!(pods.iter().any(|p| p.metadata.uid == failed.metadata.uid));
    let st = get_rs(&s, "rs").status.clone();
    // Upstream's status: replicas counts active pods only; the terminating one is
    // terminatingReplicas (DeploymentReplicaSetTerminatingReplicas, on by default in 1.35).
    assert_eq!(st.replicas, 2, "{st:?}");
    assert_eq!(st.terminating_replicas, Some(1), "{st:?}");
}

/// TestPodDeletionCost: on scale-down the pod with the lower deletion cost goes first when the
/// gate is on; otherwise the restart count decides (the pod with more restarts goes).
#[test]
fn test_pod_deletion_cost() {
    struct Case {
        name: &'static str,
        costs: &'static [&'static str],
        restarts: [i32; 2],
        enabled: bool,
        remaining: usize,
    }
    let cases = [
        Case {
            name: "enabled-with-different-costs",
            costs: &["1000", "100"],
            restarts: [5, 0],
            enabled: true,
            remaining: 0,
        },
        Case {
            name: "enabled-with-same-costs",
            costs: &["100", "100"],
            restarts: [5, 0],
            enabled: true,
            remaining: 1,
        },
        Case {
            name: "enabled-with-no-costs",
            costs: &[],
            restarts: [5, 0],
            enabled: true,
            remaining: 1,
        },
        Case {
            name: "disabled-with-different-costs",
            costs: &["1000", "100"],
            restarts: [5, 0],
            enabled: false,
            remaining: 1,
        },
    ];
    for tc in cases {
        let mut gates = FeatureGates::default();
        gates.set("PodDeletionCost", tc.enabled);
        let mut s = sim_with(gates);
        create_rs(&mut s, new_rs("rs", 2));
        wait_rs_stable(&mut s, "rs");
        let pods = get_pods(&s);
        assert_eq!(pods.len(), 2, "{}", tc.name);
        let remaining_uid = pods[tc.remaining].metadata.uid.clone();
        for (i, p) in pods.iter().enumerate() {
            if !tc.costs.is_empty() {
                let cost = tc.costs[i].to_string();
                update_pod(&mut s, &p.metadata.name, |p| {
                    p.metadata.annotations = [(
                        "controller.kubernetes.io/pod-deletion-cost".to_string(),
                        cost,
                    )]
                    .into_iter()
                    .collect::<std::collections::BTreeMap<_, _>>()
                    .into();
                });
            }
            let restarts = tc.restarts[i];
            update_pod_status(&mut s, &p.metadata.name, |p| {
                p.status.container_statuses = vec![ContainerStatus {
                    restart_count: restarts,
                    ..Default::default()
                }];
            });
        }
        update_rs(&mut s, "rs", |rs| rs.spec.replicas = Some(1));
        s.settle().unwrap();
        let pods = get_pods(&s);
        assert_eq!(pods.len(), 1, "{}", tc.name);
        assert_eq!(pods[0].metadata.uid, remaining_uid, "{}", tc.name);
    }
}

/// TestOverlappingRSs: two ReplicaSets with one selector each get their own pods (1 + 2).
#[test]
fn test_overlapping_rss() {
    let mut s = sim();
    for i in 0..2 {
        let name = format!("rs-{}", i + 1);
        create_rs(&mut s, new_rs(&name, i + 1));
        wait_rs_stable(&mut s, &name);
    }
    assert_eq!(get_pods(&s).len(), 3);
    for i in 0..2 {
        let rs = get_rs(&s, &format!("rs-{}", i + 1));
        assert_eq!(rs.status.replicas, rs.spec.replicas.unwrap());
        let owned = get_pods(&s)
            .iter()
            .filter(|p| controller_of(p).map(|r| &r.uid) == Some(&rs.metadata.uid))
            .count();
        assert_eq!(owned as i32, i + 1);
    }
}

/// TestPodOrphaningAndAdoptionWhenLabelsChange: relabelling a pod away releases it (its
/// controller reference removed, a replacement created); relabelling it back re-adopts it,
/// and the now-extra pod is deleted.
#[test]
fn test_pod_orphaning_and_adoption_when_labels_change() {
    let mut s = sim();
    let rs = create_rs(&mut s, new_rs("rs", 1));
    wait_rs_stable(&mut s, "rs");
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 1);
    let name = pods[0].metadata.name.clone();
    assert!(controller_of(&pods[0]).is_some());
    update_pod(&mut s, &name, |p| {
        p.metadata.labels = [("new-foo".to_string(), "new-bar".to_string())]
            .into_iter()
            .collect::<kubeplay::api::Labels>()
            .into();
    });
    s.settle().unwrap();
    let orphan = get_pod(&s, &name).unwrap();
    assert!(controller_of(&orphan).is_none(), "{orphan:?}");
    assert!(orphan.metadata.owner_references.is_empty());
    assert_eq!(get_pods(&s).len(), 1, "a replacement");
    update_pod(&mut s, &name, |p| {
        p.metadata.labels = label_map()
            .into_iter()
            .collect::<kubeplay::api::Labels>()
            .into();
    });
    s.settle().unwrap();
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 1, "{pods:?}");
    assert_eq!(
        controller_of(&pods[0]).map(|r| r.uid.clone()),
        Some(rs.metadata.uid.clone())
    );
}

/// TestGeneralPodAdoption: a pod whose only owner reference is a non-controller one gets the
/// ReplicaSet's controller reference (added next to a foreign owner; replacing the RS's own
/// non-controller reference).
#[test]
fn test_general_pod_adoption() {
    let mut s = sim();
    let rs = create_rs(&mut s, new_rs("rs", 1));
    wait_rs_stable(&mut s, "rs");
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 1);
    let name = pods[0].metadata.name.clone();
    for (owner, expected_refs) in [
        (
            OwnerReference {
                api_version: "apps/v1".into(),
                kind: "StatefulSet".into(),
                name: rs.metadata.name.clone(),
                uid: "b0f5c4a6-0000-4000-8000-000000000001".into(),
                controller: Some(false),
                block_owner_deletion: None,
            },
            2,
        ),
        (rs_ref(&rs, Some(false), None), 1),
    ] {
        update_pod(&mut s, &name, |p| {
            p.metadata.owner_references = vec![owner.clone()].into()
        });
        s.settle().unwrap();
        let p = get_pod(&s, &name).expect("the pod is kept");
        assert_eq!(
            controller_of(&p).map(|r| r.uid.clone()),
            Some(rs.metadata.uid.clone()),
            "{:?}",
            p.metadata.owner_references
        );
        assert_eq!(
            p.metadata.owner_references.len(),
            expected_refs,
            "{:?}",
            p.metadata.owner_references
        );
        assert_eq!(get_pods(&s).len(), 1);
    }
}

/// `setPodsReadyCondition`: Running, Ready=`status` since `since`.
fn set_ready(s: &mut Simulation, name: &str, status: &str, since: Time) {
    update_pod_status(s, name, |p| {
        p.status.phase = "Running".into();
        match p.status.conditions.iter_mut().find(|c| c.type_ == "Ready") {
            Some(c) => {
                c.status = status.into();
                c.last_transition_time = Some(since);
            }
            None => p.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: status.into(),
                last_transition_time: Some(since),
                ..Default::default()
            }),
        }
    });
}

/// TestReadyAndAvailableReplicas: with minReadySeconds 3600, a not-ready pod, a pod ready
/// now and one ready for two hours count 3 replicas, 2 ready, 1 available.
#[test]
fn test_ready_and_available_replicas() {
    let mut s = sim();
    let mut rs = new_rs("rs", 3);
    rs.spec.min_ready_seconds = 3600;
    create_rs(&mut s, rs);
    wait_rs_stable(&mut s, "rs");
    assert_eq!(get_rs(&s, "rs").status.available_replicas, 0);
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 3);
    let now = s.now();
    set_ready(&mut s, &pods[0].metadata.name, "False", now);
    set_ready(&mut s, &pods[1].metadata.name, "True", now);
    set_ready(
        &mut s,
        &pods[2].metadata.name,
        "True",
        now - kubeplay::api::Duration::from_secs(120 * 60),
    );
    s.settle().unwrap();
    let st = get_rs(&s, "rs").status.clone();
    assert_eq!(
        (st.replicas, st.ready_replicas, st.available_replicas),
        (3, 2, 1),
        "{st:?}"
    );
}

/// TestRSScaleSubresource: the scale subresource (kubectl scale) reads and writes
/// spec.replicas: up to 3, down to 0.
#[test]
fn test_rs_scale_subresource() {
    let mut s = sim();
    create_rs(&mut s, new_rs("rs", 1));
    wait_rs_stable(&mut s, "rs");
    for replicas in [3, 0] {
        let current = get_rs(&s, "rs").spec.replicas.unwrap();
        // `--current-replicas` is the scale subresource's read compared with spec.replicas.
        kubeplay::kubectl::execute(
            &mut s,
            &format!("scale rs rs --current-replicas={current} --replicas={replicas}"),
        )
        .unwrap();
        assert_eq!(get_rs(&s, "rs").spec.replicas, Some(replicas));
        wait_rs_stable(&mut s, "rs");
        assert_eq!(get_pods(&s).len(), replicas as usize);
    }
}

/// TestExtraPodsAdoptionAndDeletion: of three matching orphans a 2-replica ReplicaSet adopts
/// them and deletes one.
#[test]
fn test_extra_pods_adoption_and_deletion() {
    let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
    let rs = create_rs(&mut s, new_rs("rs", 2));
    for i in 0..3 {
        create_pod(&mut s, new_matching_pod(&format!("pod-{}", i + 1)));
    }
    s.add_loop(Box::new(ReplicaSetController::new()));
    wait_rs_stable(&mut s, "rs");
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 2, "{pods:?}");
    for p in &pods {
        assert_eq!(controller_of(p).unwrap().uid, rs.metadata.uid);
        assert!(p.metadata.name.starts_with("pod-"), "no pod was created");
    }
}

/// TestFullyLabeledReplicas: template labels gain extra keys (the selector unchanged); only
/// the pod carrying all of them is fully labeled.
#[test]
fn test_fully_labeled_replicas() {
    let mut s = sim();
    create_rs(&mut s, new_rs("rs", 2));
    wait_rs_stable(&mut s, "rs");
    let extra: kubeplay::api::Labels = [
        ("foo".to_string(), "bar".to_string()),
        ("extraKey".to_string(), "extraValue".to_string()),
    ]
    .into_iter()
    .collect();
    update_rs(&mut s, "rs", |rs| {
        rs.spec.template_mut().metadata.labels = extra.clone().into()
    });
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 2);
    update_pod(&mut s, &pods[0].metadata.name, |p| {
        p.metadata.labels = extra.clone().into()
    });
    s.settle().unwrap();
    let st = get_rs(&s, "rs").status.clone();
    assert_eq!((st.replicas, st.fully_labeled_replicas), (2, 1), "{st:?}");
}

/// TestReplicaSetsAppsV1DefaultGCPolicy: deleting an apps/v1 ReplicaSet adds no finalizer of
/// its own (the default propagation is background): only the user's stays.
#[test]
fn test_replica_sets_apps_v1_default_gc_policy() {
    let mut s = sim();
    let mut rs = new_rs("rs", 2);
    rs.metadata.finalizers = vec!["kube.io/dummy-finalizer".to_string()].into();
    create_rs(&mut s, rs);
    wait_rs_stable(&mut s, "rs");
    assert_eq!(get_pods(&s).len(), 2);
    s.api
        .delete("ReplicaSet", NS, "rs", &DeleteOptions::default())
        .unwrap();
    s.settle().unwrap();
    let rs = get_rs(&s, "rs");
    assert!(rs.metadata.deletion_timestamp.is_some());
    assert_eq!(
        rs.metadata.finalizers.to_vec(),
        vec!["kube.io/dummy-finalizer".to_string()]
    );
    update_rs(&mut s, "rs", |rs| {
        rs.metadata.finalizers = Vec::<String>::new().into()
    });
    assert!(s.api.store.get::<ReplicaSet>(NS, "rs").is_none());
}

// ReplicationController ports (test/integration/replicationcontroller/
// replicationcontroller_test.go) share the scenario shapes above with the RC kind.

fn new_rc(name: &str, replicas: i32) -> ReplicationController {
    let mut rc = ReplicationController::default();
    rc.metadata.name = name.into();
    rc.metadata.namespace = NS.into();
    rc.spec.replicas = Some(replicas);
    rc.spec.selector = label_map().into_iter().collect();
    let mut template = kubeplay::api::PodTemplateSpec::default();
    template.metadata.labels = label_map()
        .into_iter()
        .collect::<kubeplay::api::Labels>()
        .into();
    template.spec_mut().containers = vec![Container {
        name: "fake-name".into(),
        image: "fakeimage".into(),
        ..Default::default()
    }];
    rc.spec.template = Some(template);
    rc
}

fn get_rc(s: &Simulation, name: &str) -> ReplicationController {
    s.api
        .store
        .get::<ReplicationController>(NS, name)
        .unwrap()
        .clone()
}

fn rc_sim() -> Simulation {
    let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
    s.add_loop(Box::new(ReplicaSetController::new_replication_controller()));
    s
}

fn create_rc(s: &mut Simulation, rc: ReplicationController) -> ReplicationController {
    match s.api.create(Object::ReplicationController(rc)).unwrap() {
        Object::ReplicationController(rc) => rc,
        o => panic!("{o:?}"),
    }
}

fn update_rc(s: &mut Simulation, name: &str, f: impl FnOnce(&mut ReplicationController)) {
    let mut rc = get_rc(s, name);
    f(&mut rc);
    s.api.update(Object::ReplicationController(rc)).unwrap();
}

fn wait_rc_stable(s: &mut Simulation, name: &str) {
    s.settle().unwrap();
    let rc = get_rc(s, name);
    assert_eq!(
        rc.status.replicas,
        rc.spec.replicas.unwrap(),
        "{:?}",
        rc.status
    );
    assert!(rc.status.observed_generation >= rc.metadata.generation);
}

/// TestAdoption (test/integration/replicationcontroller/replicationcontroller_test.go): the
/// same four owner-reference shapes, with `v1` ReplicationController references.
#[test]
fn test_rc_adoption() {
    let rc_ref = |rc: &ReplicationController, controller, block| OwnerReference {
        api_version: "v1".into(),
        kind: "ReplicationController".into(),
        name: rc.metadata.name.clone(),
        uid: rc.metadata.uid.clone(),
        controller,
        block_owner_deletion: block,
    };
    let other = OwnerReference {
        api_version: "v1".into(),
        kind: "ReplicationController".into(),
        name: "anotherRC".into(),
        uid: "1".into(),
        controller: Some(true),
        block_owner_deletion: None,
    };
    for i in 0..4 {
        let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
        let rc = create_rc(&mut s, new_rc("rc", 1));
        let (existing, expected) = match i {
            0 => (
                vec![rc_ref(&rc, None, None)],
                vec![rc_ref(&rc, Some(true), Some(true))],
            ),
            1 => (vec![], vec![rc_ref(&rc, Some(true), Some(true))]),
            2 => (
                vec![rc_ref(&rc, Some(true), None)],
                vec![rc_ref(&rc, Some(true), None)],
            ),
            _ => (
                vec![other.clone(), rc_ref(&rc, None, None)],
                vec![other.clone(), rc_ref(&rc, None, None)],
            ),
        };
        let mut pod = new_matching_pod(&format!("pod{i}"));
        pod.metadata.owner_references = existing.into();
        create_pod(&mut s, pod);
        s.add_loop(Box::new(ReplicaSetController::new_replication_controller()));
        s.settle().unwrap();
        let got = get_pod(&s, &format!("pod{i}")).unwrap();
        assert_eq!(got.metadata.owner_references.to_vec(), expected, "case {i}");
    }
}

/// TestSpecReplicasChange (replicationcontroller_test.go).
#[test]
fn test_rc_spec_replicas_change() {
    let mut s = rc_sim();
    create_rc(&mut s, new_rc("rc", 2));
    wait_rc_stable(&mut s, "rc");
    for r in [3, 0, 2] {
        update_rc(&mut s, "rc", |rc| rc.spec.replicas = Some(r));
        wait_rc_stable(&mut s, "rc");
        assert_eq!(get_pods(&s).len(), r as usize);
    }
    let before = get_rc(&s, "rc").metadata.generation;
    update_rc(&mut s, "rc", |rc| {
        rc.spec.template.as_mut().unwrap().metadata.annotations =
            [("test".to_string(), "annotation".to_string())]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>()
                .into();
    });
    let rc = get_rc(&s, "rc");
    assert_ne!(rc.metadata.generation, before);
    s.settle().unwrap();
    assert!(get_rc(&s, "rc").status.observed_generation >= rc.metadata.generation);
}

/// TestDeletingAndFailedPods (replicationcontroller_test.go).
#[test]
fn test_rc_deleting_and_failed_pods() {
    let mut s = rc_sim();
    create_rc(&mut s, new_rc("rc", 2));
    wait_rc_stable(&mut s, "rc");
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 2);
    update_pod(&mut s, &pods[0].metadata.name, |p| {
        p.metadata.finalizers = vec!["fake.example.com/blockDeletion".to_string()].into();
    });
    s.api
        .delete("Pod", NS, &pods[0].metadata.name, &DeleteOptions::default())
        .unwrap();
    update_pod_status(&mut s, &pods[1].metadata.name, |p| {
        p.status.phase = "Failed".into()
    });
    s.settle().unwrap();
    let now = get_pods(&s);
    assert_eq!(now.len(), 4);
    for p in &pods {
        assert!(now.iter().any(|q| q.metadata.uid == p.metadata.uid));
    }
}

/// TestPodOrphaningAndAdoptionWhenLabelsChange (replicationcontroller_test.go).
#[test]
fn test_rc_pod_orphaning_and_adoption_when_labels_change() {
    let mut s = rc_sim();
    let rc = create_rc(&mut s, new_rc("rc", 1));
    wait_rc_stable(&mut s, "rc");
    let name = get_pods(&s)[0].metadata.name.clone();
    update_pod(&mut s, &name, |p| {
        p.metadata.labels = [("new-foo".to_string(), "new-bar".to_string())]
            .into_iter()
            .collect::<kubeplay::api::Labels>()
            .into();
    });
    s.settle().unwrap();
    assert!(get_pod(&s, &name)
        .unwrap()
        .metadata
        .owner_references
        .is_empty());
    update_pod(&mut s, &name, |p| {
        p.metadata.labels = label_map()
            .into_iter()
            .collect::<kubeplay::api::Labels>()
            .into();
    });
    s.settle().unwrap();
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 1);
    assert_eq!(
        controller_of(&pods[0]).map(|r| r.uid.clone()),
        Some(rc.metadata.uid.clone())
    );
}

/// TestRCScaleSubresource (replicationcontroller_test.go), through kubectl scale.
#[test]
fn test_rc_scale_subresource() {
    let mut s = rc_sim();
    create_rc(&mut s, new_rc("rc", 1));
    wait_rc_stable(&mut s, "rc");
    for r in [3, 0] {
        let current = get_rc(&s, "rc").spec.replicas.unwrap();
        kubeplay::kubectl::execute(
            &mut s,
            &format!("scale rc rc --current-replicas={current} --replicas={r}"),
        )
        .unwrap();
        assert_eq!(get_rc(&s, "rc").spec.replicas, Some(r));
        wait_rc_stable(&mut s, "rc");
    }
}

/// TestExtraPodsAdoptionAndDeletion (replicationcontroller_test.go).
#[test]
fn test_rc_extra_pods_adoption_and_deletion() {
    let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
    let rc = create_rc(&mut s, new_rc("rc", 2));
    for i in 0..3 {
        create_pod(&mut s, new_matching_pod(&format!("pod-{}", i + 1)));
    }
    s.add_loop(Box::new(ReplicaSetController::new_replication_controller()));
    wait_rc_stable(&mut s, "rc");
    let pods = get_pods(&s);
    assert_eq!(pods.len(), 2);
    for p in &pods {
        assert_eq!(controller_of(p).unwrap().uid, rc.metadata.uid);
        assert_eq!(controller_of(p).unwrap().kind, "ReplicationController");
    }
}

/// TestFullyLabeledReplicas (replicationcontroller_test.go).
#[test]
fn test_rc_fully_labeled_replicas() {
    let mut s = rc_sim();
    create_rc(&mut s, new_rc("rc", 2));
    wait_rc_stable(&mut s, "rc");
    let extra: kubeplay::api::Labels = [
        ("foo".to_string(), "bar".to_string()),
        ("extraKey".to_string(), "extraValue".to_string()),
    ]
    .into_iter()
    .collect();
    update_rc(&mut s, "rc", |rc| {
        rc.spec.template.as_mut().unwrap().metadata.labels = extra.clone().into()
    });
    let pods = get_pods(&s);
    update_pod(&mut s, &pods[0].metadata.name, |p| {
        p.metadata.labels = extra.clone().into()
    });
    s.settle().unwrap();
    let st = get_rc(&s, "rc").status.clone();
    assert_eq!((st.replicas, st.fully_labeled_replicas), (2, 1), "{st:?}");
}

/// testReplicationControllerConditionCheck / testReplicaSetConditionCheck
/// (test/e2e/apps/rc.go, replica_set.go): a controller whose pods are refused at creation
/// surfaces `ReplicaFailure` (reason FailedCreate, the API error as message), and scaling it
/// down to what exists clears the condition. Upstream refuses the pods with a ResourceQuota,
/// which kubeplay does not model; here admission refuses them (a pod overhead without a
/// RuntimeClass), the controller path being the same.
#[test]
fn test_replica_failure_condition_check() {
    for rc_kind in [false, true] {
        let mut s = if rc_kind { rc_sim() } else { sim() };
        let overhead = serde_json::json!({"cpu": "100m"});
        let (kind, status, conds) = if rc_kind {
            let mut rc = new_rc("condition-test", 3);
            rc.spec
                .template
                .as_mut()
                .unwrap()
                .spec_mut()
                .extra
                .insert("overhead".into(), overhead.clone());
            create_rc(&mut s, rc);
            s.settle().unwrap();
            let rc = get_rc(&s, "condition-test");
            let c: Vec<(String, String, String, String)> = rc
                .status
                .conditions
                .iter()
                .map(|c| {
                    (
                        c.type_.clone(),
                        c.status.clone(),
                        c.reason.clone(),
                        c.message.clone(),
                    )
                })
                .collect();
            ("ReplicationController", rc.status.replicas, c)
        } else {
            let mut rs = new_rs("condition-test", 3);
            rs.spec
                .template_mut()
                .spec_mut()
                .extra
                .insert("overhead".into(), overhead.clone());
            create_rs(&mut s, rs);
            s.settle().unwrap();
            let rs = get_rs(&s, "condition-test");
            let c: Vec<(String, String, String, String)> = rs
                .status
                .conditions
                .iter()
                .map(|c| {
                    (
                        c.type_.clone(),
                        c.status.clone(),
                        c.reason.clone(),
                        c.message.clone(),
                    )
                })
                .collect();
            ("ReplicaSet", rs.status.replicas, c)
        };
        assert_eq!(status, 0, "{kind}");
        assert_eq!(conds.len(), 1, "{kind}: {conds:?}");
        let (t, st, reason, message) = &conds[0];
        assert_eq!(
            (t.as_str(), st.as_str(), reason.as_str()),
            ("ReplicaFailure", "True", "FailedCreate"),
            "{kind}"
        );
        assert!(
            message.starts_with("pods \"condition-test-") && message.contains("is forbidden"),
            "{kind}: {message}"
        );
        let failed = s
            .api
            .events
            .iter()
            .filter(|e| e.reason == "FailedCreate" && e.type_ == "Warning")
            .count();
        assert!(failed >= 1, "{kind}");
        // Scaled down to the pods that exist: the condition is removed.
        if rc_kind {
            update_rc(&mut s, "condition-test", |rc| rc.spec.replicas = Some(0));
            s.settle().unwrap();
            assert!(get_rc(&s, "condition-test").status.conditions.is_empty());
        } else {
            update_rs(&mut s, "condition-test", |rs| rs.spec.replicas = Some(0));
            s.settle().unwrap();
            assert!(get_rs(&s, "condition-test").status.conditions.is_empty());
        }
    }
}

/// "should validate Replicaset Status endpoints" (test/e2e/apps/replica_set.go), through
/// `kubectl patch --subresource=status`: a patched condition is stored (spec untouched) and
/// survives the controller's next status write; the Scale (`get --subresource=scale`) reports
/// spec.replicas, status.replicas and the selector.
#[test]
fn test_rs_status_endpoints() {
    let mut s = sim();
    create_rs(&mut s, new_rs("rs", 1));
    wait_rs_stable(&mut s, "rs");
    let out = kubeplay::kubectl::execute(
        &mut s,
        r#"patch rs rs --subresource=status -p '{"spec":{"replicas":3},"status":{"conditions":[{"type":"StatusPatched","status":"True"}]}}'"#,
    )
    .unwrap();
    assert_eq!(out, "replicaset.apps/rs patched");
    let rs = get_rs(&s, "rs");
    assert_eq!(rs.spec.replicas, Some(1));
    assert_eq!(rs.status.conditions.len(), 1);
    assert_eq!(rs.status.conditions[0].type_, "StatusPatched");
    update_rs(&mut s, "rs", |rs| rs.spec.replicas = Some(2));
    wait_rs_stable(&mut s, "rs");
    let rs = get_rs(&s, "rs");
    assert_eq!(rs.status.replicas, 2);
    assert!(rs
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "StatusPatched" && c.status == "True"));
    let scale =
        kubeplay::kubectl::execute(&mut s, "get rs rs --subresource=scale -o json").unwrap();
    let scale: serde_json::Value = serde_json::from_str(&scale).unwrap();
    assert_eq!(scale["spec"]["replicas"], 2);
    assert_eq!(scale["status"]["replicas"], 2);
    assert_eq!(scale["status"]["selector"], "foo=bar");
}
