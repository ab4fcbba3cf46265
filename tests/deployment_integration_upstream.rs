//! Ports of upstream's Deployment integration tests
//! (test/integration/deployment/deployment_test.go with the helpers of util.go): the
//! Deployment and ReplicaSet controllers over an API server (upstream's `dcSetup`), no
//! scheduler or kubelet, so the tests mark pods ready themselves (`markAllPodsReady`).
//! Upstream polls for up to a minute; here the simulation settles or runs on its clock.
//!
//! `newDeployment`: selector and template labels `name=test`, container
//! `fake-name`/`fakeimage`, a RollingUpdate strategy left to the defaults (25% / 25%).

use kubeplay::api::{
    Container, Deployment, Duration, LabelSelector, Labels, Object, OwnerReference, Pod,
    PodCondition, ReplicaSet, Time,
};
use kubeplay::controllers::deployment::DeploymentController;
use kubeplay::controllers::replicaset::ReplicaSetController;
use kubeplay::features::FeatureGates;
use kubeplay::sim::Simulation;
use kubeplay::store::apiserver::DeleteOptions;
use kubeplay::world::World;
use std::sync::Arc;

const NS: &str = "default";
const FAKE_IMAGE: &str = "fakeimage";
const REVISION: &str = "deployment.kubernetes.io/revision";

fn t0() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

/// `dcSetup`: both controllers running.
fn dc_setup() -> Simulation {
    let mut s = Simulation::new(3, t0(), FeatureGates::default(), World::default());
    s.add_loop(Box::new(ReplicaSetController::new()));
    s.add_loop(Box::new(DeploymentController::new()));
    s
}

fn test_labels() -> Labels {
    [("name".to_string(), "test".to_string())]
        .into_iter()
        .collect()
}

/// `newDeployment(name, ns, replicas)`.
fn new_deployment(name: &str, replicas: i32) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = name.into();
    d.metadata.namespace = NS.into();
    d.spec.replicas = Some(replicas);
    d.spec.selector = Some(LabelSelector::from_labels(&test_labels()));
    d.spec.strategy.type_ = "RollingUpdate".into();
    d.spec.strategy.rolling_update = Some(Default::default());
    let t = Arc::make_mut(&mut d.spec.template);
    t.metadata.labels = test_labels().into();
    t.spec_mut().containers = vec![Container {
        name: "fake-name".into(),
        image: FAKE_IMAGE.into(),
        ..Default::default()
    }];
    d
}

fn create(s: &mut Simulation, d: Deployment) -> Deployment {
    match s.api.create(Object::Deployment(d)).unwrap() {
        Object::Deployment(d) => d,
        o => panic!("{o:?}"),
    }
}

fn get_d(s: &Simulation, name: &str) -> Deployment {
    s.api.store.get::<Deployment>(NS, name).unwrap().clone()
}

fn update_d(s: &mut Simulation, name: &str, f: impl FnOnce(&mut Deployment)) -> Deployment {
    let mut d = get_d(s, name);
    f(&mut d);
    match s.api.update(Object::Deployment(d)).unwrap() {
        Object::Deployment(d) => d,
        o => panic!("{o:?}"),
    }
}

fn update_rs(s: &mut Simulation, name: &str, f: impl FnOnce(&mut ReplicaSet)) -> ReplicaSet {
    let mut rs = s.api.store.get::<ReplicaSet>(NS, name).unwrap().clone();
    f(&mut rs);
    match s.api.update(Object::ReplicaSet(rs)).unwrap() {
        Object::ReplicaSet(rs) => rs,
        o => panic!("{o:?}"),
    }
}

/// ReplicaSets controlled by the deployment, oldest first.
fn owned_rss(s: &Simulation, d: &Deployment) -> Vec<ReplicaSet> {
    let mut v: Vec<ReplicaSet> = s
        .api
        .store
        .list::<ReplicaSet>(Some(NS))
        .filter(|rs| {
            rs.metadata
                .owner_references
                .iter()
                .any(|r| r.controller == Some(true) && r.uid == d.metadata.uid)
        })
        .cloned()
        .collect();
    v.sort_by_key(|rs| rs.metadata.creation_timestamp);
    v
}

/// `GetNewReplicaSet`: the owned ReplicaSet whose template equals the deployment's (but for
/// the pod-template-hash label).
fn new_rs(s: &Simulation, d: &Deployment) -> Option<ReplicaSet> {
    let mut rss = owned_rss(s, d);
    kubeplay::controllers::deployment::util::find_new_replica_set(d, &mut rss)
}

fn all_pods(s: &Simulation) -> Vec<Pod> {
    s.api.store.list::<Pod>(Some(NS)).cloned().collect()
}

fn is_ready(p: &Pod) -> bool {
    p.status
        .conditions
        .iter()
        .any(|c| c.type_ == "Ready" && c.status == "True")
}

/// `markAllPodsReady`-style: every pod not yet ready becomes Running and Ready (since `since`).
fn mark_pods_ready_since(s: &mut Simulation, since: Time) {
    for mut p in all_pods(s) {
        if is_ready(&p) || p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        p.status.phase = "Running".into();
        p.status.conditions.retain(|c| c.type_ != "Ready");
        p.status.conditions.push(PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(since),
            ..Default::default()
        });
        s.api.update_status(Object::Pod(p)).unwrap();
    }
}

/// `waitForDeploymentStatusValidAndMarkPodsReady`: settle, marking pods ready, until the
/// deployment's status is complete; then its status is checked against the spec.
fn wait_status_valid_and_mark_ready(s: &mut Simulation, name: &str) {
    for _ in 0..50 {
        s.settle().unwrap();
        let now = s.now();
        mark_pods_ready_since(s, now);
        s.settle().unwrap();
        let d = get_d(s, name);
        let r = d.spec.replicas.unwrap();
        let st = &d.status;
        if st.observed_generation >= d.metadata.generation
            && st.updated_replicas == r
            && st.replicas == r
            && st.available_replicas == r
        {
            return;
        }
        s.run_for(Duration::from_secs(1)).unwrap();
    }
    panic!("{name}: status never valid: {:?}", get_d(s, name).status);
}

fn condition(d: &Deployment, t: &str) -> Option<kubeplay::api::DeploymentCondition> {
    d.status.conditions.iter().find(|c| c.type_ == t).cloned()
}

fn controller_of(meta: &kubeplay::api::ObjectMeta) -> Option<&OwnerReference> {
    meta.owner_references
        .iter()
        .find(|r| r.controller == Some(true))
}

/// TestNewDeployment (test/integration/deployment/deployment_test.go): revision 1, a valid
/// status once pods are ready, annotations copied to the new ReplicaSet except
/// last-applied-configuration, and every pod labelled with the ReplicaSet's hash.
#[test]
fn test_new_deployment() {
    let mut s = dc_setup();
    let name = "test-new-deployment";
    let mut d = new_deployment(name, 20);
    d.spec.min_ready_seconds = 4;
    d.metadata.annotations = [
        ("test".to_string(), "should-copy-to-replica-set".to_string()),
        (
            "kubectl.kubernetes.io/last-applied-configuration".to_string(),
            "should-not-copy-to-replica-set".to_string(),
        ),
    ]
    .into_iter()
    .collect::<std::collections::BTreeMap<_, _>>()
    .into();
    create(&mut s, d);
    s.settle().unwrap();
    let d = get_d(&s, name);
    assert_eq!(
        d.metadata.annotations.get(REVISION).map(String::as_str),
        Some("1")
    );
    assert_eq!(d.spec.template.spec.containers[0].image, FAKE_IMAGE);
    // minReadySeconds 4: ready pods become available four seconds on.
    let now = s.now();
    mark_pods_ready_since(&mut s, now);
    s.settle().unwrap();
    assert_eq!(get_d(&s, name).status.available_replicas, 0);
    s.run_for(Duration::from_secs(5)).unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    let rs = new_rs(&s, &d).expect("a new ReplicaSet");
    assert_eq!(
        rs.metadata.annotations.get("test").map(String::as_str),
        Some("should-copy-to-replica-set")
    );
    assert!(!rs
        .metadata
        .annotations
        .contains_key("kubectl.kubernetes.io/last-applied-configuration"));
    assert_eq!(
        rs.metadata.annotations.get(REVISION).map(String::as_str),
        Some("1")
    );
    // checkDeploymentRevisionAndImage / the pod-template-hash on every pod.
    let hash = rs
        .metadata
        .labels
        .get("pod-template-hash")
        .cloned()
        .unwrap();
    let pods = all_pods(&s);
    assert_eq!(pods.len(), 20);
    for p in &pods {
        assert_eq!(p.metadata.labels.get("pod-template-hash"), Some(&hash));
        assert_eq!(controller_of(&p.metadata).unwrap().uid, rs.metadata.uid);
    }
    let d = get_d(&s, name);
    let avail = condition(&d, "Available").unwrap();
    assert_eq!(
        (avail.status.as_str(), avail.reason.as_str()),
        ("True", "MinimumReplicasAvailable")
    );
    let prog = condition(&d, "Progressing").unwrap();
    assert_eq!(
        (prog.status.as_str(), prog.reason.as_str()),
        ("True", "NewReplicaSetAvailable")
    );
    assert_eq!(
        prog.message,
        format!(
            "ReplicaSet \"{}\" has successfully progressed.",
            rs.metadata.name
        )
    );
}

/// TestPausedDeployment: a paused deployment creates no ReplicaSet; once resumed it rolls out;
/// paused again, a template change starts no rollout and leaves the old template alone.
#[test]
fn test_paused_deployment() {
    let mut s = dc_setup();
    let name = "test-paused-deployment";
    let mut d = new_deployment(name, 1);
    d.spec.paused = true;
    d.spec
        .template_mut()
        .spec_mut()
        .termination_grace_period_seconds = Some(1);
    let d = create(&mut s, d);
    s.settle().unwrap();
    assert!(new_rs(&s, &d).is_none());
    assert!(owned_rss(&s, &d).is_empty());
    let d = update_d(&mut s, name, |d| d.spec.paused = false);
    s.settle().unwrap();
    assert!(get_d(&s, name).status.observed_generation >= d.metadata.generation);
    assert_eq!(
        get_d(&s, name)
            .metadata
            .annotations
            .get(REVISION)
            .map(String::as_str),
        Some("1")
    );
    wait_status_valid_and_mark_ready(&mut s, name);
    assert!(new_rs(&s, &get_d(&s, name)).is_some());
    let d = update_d(&mut s, name, |d| d.spec.paused = true);
    s.settle().unwrap();
    assert!(get_d(&s, name).status.observed_generation >= d.metadata.generation);
    let d = update_d(&mut s, name, |d| {
        d.spec
            .template_mut()
            .spec_mut()
            .termination_grace_period_seconds = Some(0)
    });
    s.settle().unwrap();
    assert!(get_d(&s, name).status.observed_generation >= d.metadata.generation);
    assert!(new_rs(&s, &d).is_none(), "no new ReplicaSet while paused");
    let rss = owned_rss(&s, &d);
    assert_eq!(rss.len(), 1, "an old replica set");
    assert_eq!(
        rss[0].spec.template.spec.termination_grace_period_seconds,
        Some(1)
    );
    // Paused with a template change: Progressing Unknown, DeploymentPaused.
    let prog = condition(&get_d(&s, name), "Progressing").unwrap();
    assert_eq!(
        (prog.status.as_str(), prog.reason.as_str()),
        ("Unknown", "DeploymentPaused")
    );
}

/// TestScalePausedDeployment: a paused deployment still scales its new ReplicaSet.
#[test]
fn test_scale_paused_deployment() {
    let mut s = dc_setup();
    let name = "test-scale-paused-deployment";
    let mut d = new_deployment(name, 1);
    d.spec
        .template_mut()
        .spec_mut()
        .termination_grace_period_seconds = Some(1);
    create(&mut s, d);
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    update_d(&mut s, name, |d| d.spec.paused = true);
    s.settle().unwrap();
    let d = update_d(&mut s, name, |d| d.spec.replicas = Some(10));
    s.settle().unwrap();
    assert!(get_d(&s, name).status.observed_generation >= d.metadata.generation);
    let rs = new_rs(&s, &d).unwrap();
    assert_eq!(rs.spec.replicas, Some(10));
    wait_status_valid_and_mark_ready(&mut s, name);
}

/// TestDeploymentHashCollision: the new ReplicaSet's template changed behind the controller's
/// back is a hash collision: collisionCount becomes 1 and revision 2 rolls out.
#[test]
fn test_deployment_hash_collision() {
    let mut s = dc_setup();
    let name = "test-hash-collision-deployment";
    create(&mut s, new_deployment(name, 1));
    s.settle().unwrap();
    let d = get_d(&s, name);
    let rs = new_rs(&s, &d).unwrap();
    update_rs(&mut s, &rs.metadata.name, |rs| {
        rs.spec
            .template_mut()
            .spec_mut()
            .termination_grace_period_seconds = Some(5)
    });
    s.settle().unwrap();
    let d = get_d(&s, name);
    assert_eq!(d.status.collision_count, Some(1));
    assert_eq!(
        d.metadata.annotations.get(REVISION).map(String::as_str),
        Some("2")
    );
    let new = new_rs(&s, &d).unwrap();
    assert_ne!(new.metadata.name, rs.metadata.name);
    assert_eq!(
        new.metadata.annotations.get(REVISION).map(String::as_str),
        Some("2")
    );
}

/// TestFailedDeployment: pods that never become ready exceed progressDeadlineSeconds
/// (Progressing False, ProgressDeadlineExceeded); once they are ready the rollout completes
/// (Progressing True, NewReplicaSetAvailable).
#[test]
fn test_failed_deployment() {
    let mut s = dc_setup();
    let name = "progress-check";
    let mut d = new_deployment(name, 1);
    d.spec.progress_deadline_seconds = Some(1);
    create(&mut s, d);
    s.settle().unwrap();
    s.run_for(Duration::from_secs(5)).unwrap();
    let d = get_d(&s, name);
    let prog = condition(&d, "Progressing").unwrap();
    assert_eq!(
        (prog.status.as_str(), prog.reason.as_str()),
        ("False", "ProgressDeadlineExceeded"),
        "{:?}",
        d.status
    );
    let rs = new_rs(&s, &d).unwrap();
    assert_eq!(
        prog.message,
        format!(
            "ReplicaSet \"{}\" has timed out progressing.",
            rs.metadata.name
        )
    );
    wait_status_valid_and_mark_ready(&mut s, name);
    let prog = condition(&get_d(&s, name), "Progressing").unwrap();
    assert_eq!(
        (prog.status.as_str(), prog.reason.as_str()),
        ("True", "NewReplicaSetAvailable")
    );
}

/// TestOverlappingDeployments: two deployments with one selector each keep to their own
/// ReplicaSets and pods.
#[test]
fn test_overlapping_deployments() {
    let mut s = dc_setup();
    let names = ["first-deployment", "second-deployment"];
    let replicas = [1, 2];
    for (n, r) in names.iter().zip(replicas) {
        create(&mut s, new_deployment(n, r));
        s.settle().unwrap();
        wait_status_valid_and_mark_ready(&mut s, n);
    }
    for (n, r) in names.iter().zip(replicas) {
        let d = get_d(&s, n);
        let rss = owned_rss(&s, &d);
        assert_eq!(rss.len(), 1, "{n}");
        assert_eq!(rss[0].spec.replicas, Some(r));
        let owned = all_pods(&s)
            .into_iter()
            .filter(|p| controller_of(&p.metadata).map(|c| &c.uid) == Some(&rss[0].metadata.uid))
            .count();
        assert_eq!(owned as i32, r, "{n}");
    }
    assert_eq!(all_pods(&s).len(), 3);
}

/// TestSpecReplicasChange (deployment_test.go): scaling is followed; a template annotation
/// change without a replicas change still bumps observedGeneration.
#[test]
fn test_spec_replicas_change() {
    let mut s = dc_setup();
    let name = "deployment";
    let mut d = new_deployment(name, 2);
    d.spec.strategy.type_ = "Recreate".into();
    d.spec.strategy.rolling_update = None;
    create(&mut s, d);
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    for r in [3, 0, 2] {
        update_d(&mut s, name, |d| d.spec.replicas = Some(r));
        s.settle().unwrap();
        let d = get_d(&s, name);
        assert_eq!(new_rs(&s, &d).unwrap().spec.replicas, Some(r));
        wait_status_valid_and_mark_ready(&mut s, name);
    }
    let before = get_d(&s, name).metadata.generation;
    let d = update_d(&mut s, name, |d| {
        Arc::make_mut(&mut d.spec.template).metadata.annotations =
            [("test".to_string(), "annotation".to_string())]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>()
                .into();
    });
    assert_ne!(d.metadata.generation, before);
    s.settle().unwrap();
    assert!(get_d(&s, name).status.observed_generation >= d.metadata.generation);
}

/// TestDeploymentAvailableCondition: with minReadySeconds 3600 ready pods are not available
/// (Available False, MinimumReplicasUnavailable); lowering minReadySeconds makes them
/// available (Available True, MinimumReplicasAvailable).
#[test]
fn test_deployment_available_condition() {
    let mut s = dc_setup();
    let name = "deployment";
    let mut d = new_deployment(name, 10);
    d.spec.min_ready_seconds = 3600;
    d.spec.progress_deadline_seconds = Some(7200);
    create(&mut s, d);
    s.settle().unwrap();
    let d = get_d(&s, name);
    let avail = condition(&d, "Available").unwrap();
    assert_eq!(
        (avail.status.as_str(), avail.reason.as_str()),
        ("False", "MinimumReplicasUnavailable")
    );
    // checkDeploymentStatusReplicasFields(10, 10, 0, 0, 10).
    assert_eq!(
        (
            d.status.replicas,
            d.status.updated_replicas,
            d.status.ready_replicas,
            d.status.available_replicas,
            d.status.unavailable_replicas
        ),
        (10, 10, 0, 0, 10),
        "{:?}",
        d.status
    );
    assert_eq!(
        avail.message,
        "Deployment does not have minimum availability."
    );
    assert_eq!(d.status.available_replicas, 0);
    let now = s.now();
    mark_pods_ready_since(&mut s, now);
    s.settle().unwrap();
    let d = get_d(&s, name);
    assert_eq!(
        (
            d.status.replicas,
            d.status.updated_replicas,
            d.status.ready_replicas,
            d.status.available_replicas,
            d.status.unavailable_replicas
        ),
        (10, 10, 10, 0, 10),
        "{:?}",
        d.status
    );
    assert_eq!(condition(&d, "Available").unwrap().status, "False");
    update_d(&mut s, name, |d| d.spec.min_ready_seconds = 1);
    s.settle().unwrap();
    s.run_for(Duration::from_secs(2)).unwrap();
    let d = get_d(&s, name);
    let avail = condition(&d, "Available").unwrap();
    assert_eq!(
        (avail.status.as_str(), avail.reason.as_str()),
        ("True", "MinimumReplicasAvailable"),
        "{:?}",
        d.status
    );
    assert_eq!(avail.message, "Deployment has minimum availability.");
    assert_eq!(
        (d.status.available_replicas, d.status.unavailable_replicas),
        (10, 0)
    );
}

/// TestGeneralReplicaSetAdoption: a ReplicaSet whose only owner reference is not a controller
/// reference is adopted (next to a foreign owner; replacing the deployment's own non-controller
/// reference).
#[test]
fn test_general_replica_set_adoption() {
    let mut s = dc_setup();
    let name = "test-adopt-replicaset";
    create(&mut s, new_deployment(name, 1));
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    let d = get_d(&s, name);
    let rs = new_rs(&s, &d).unwrap();
    for (owner, expected) in [
        (
            OwnerReference {
                api_version: "apps/v1".into(),
                kind: "StatefulSet".into(),
                name: d.metadata.name.clone(),
                uid: "0f5e0a36-0000-4000-8000-000000000001".into(),
                controller: Some(false),
                block_owner_deletion: None,
            },
            2,
        ),
        (
            OwnerReference {
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                name: d.metadata.name.clone(),
                uid: d.metadata.uid.clone(),
                controller: Some(false),
                block_owner_deletion: None,
            },
            1,
        ),
    ] {
        update_rs(&mut s, &rs.metadata.name, |rs| {
            rs.metadata.owner_references = vec![owner.clone()].into()
        });
        s.settle().unwrap();
        let got = s
            .api
            .store
            .get::<ReplicaSet>(NS, &rs.metadata.name)
            .unwrap()
            .clone();
        assert_eq!(
            controller_of(&got.metadata).map(|r| r.uid.clone()),
            Some(d.metadata.uid.clone()),
            "{:?}",
            got.metadata.owner_references
        );
        assert_eq!(got.metadata.owner_references.len(), expected);
    }
}

/// TestDeploymentScaleSubresource: kubectl scale reads and writes spec.replicas.
#[test]
fn test_deployment_scale_subresource() {
    let mut s = dc_setup();
    let name = "deployment";
    create(&mut s, new_deployment(name, 2));
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    for r in [3, 0] {
        // GetScale: the Scale's spec.replicas is the deployment's.
        let current = get_d(&s, name).spec.replicas.unwrap();
        let scale = kubeplay::kubectl::execute(
            &mut s,
            &format!("get deployment {name} --subresource=scale -o json"),
        )
        .unwrap();
        let scale: serde_json::Value = serde_json::from_str(&scale).unwrap();
        assert_eq!(scale["kind"], "Scale");
        assert_eq!(scale["apiVersion"], "autoscaling/v1");
        assert_eq!(scale["spec"]["replicas"], current);
        assert_eq!(scale["status"]["replicas"], current);
        assert_eq!(scale["status"]["selector"], "name=test");
        // UpdateScale.
        kubeplay::kubectl::execute(
            &mut s,
            &format!(
                "patch deployment {name} --subresource=scale --type=merge -p '{{\"spec\":{{\"replicas\":{r}}}}}'"
            ),
        )
        .unwrap();
        assert_eq!(get_d(&s, name).spec.replicas, Some(r));
        wait_status_valid_and_mark_ready(&mut s, name);
        assert_eq!(all_pods(&s).len(), r as usize);
    }
    // The scale table: the server's scale columns; spec.replicas 0 is omitted in the Scale.
    let out = kubeplay::kubectl::execute(&mut s, &format!("get deploy {name} --subresource=scale"))
        .unwrap();
    let lines: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], ["NAME", "DESIRED", "AVAILABLE", "AGE"]);
    assert_eq!(&lines[1][..3], [name, "0", "0"]);
    let err = kubeplay::kubectl::execute(&mut s, &format!("get deploy {name} --subresource=x"))
        .unwrap_err();
    assert_eq!(
        err,
        r#"error: invalid subresource value: "x". Must be one of [status scale]"#
    );
}

/// TestReplicaSetOrphaningAndAdoptionWhenLabelsChange: a ReplicaSet relabelled away is
/// released (owner references cleared) and a new one created; relabelled back it is adopted
/// again.
#[test]
fn test_replica_set_orphaning_and_adoption_when_labels_change() {
    let mut s = dc_setup();
    let name = "test-replicaset-orphaning-and-adoption-when-labels-change";
    create(&mut s, new_deployment(name, 1));
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    let d = get_d(&s, name);
    let rs = new_rs(&s, &d).unwrap();
    let mut new_labels: Labels = [("new-name".to_string(), "new-test".to_string())]
        .into_iter()
        .collect();
    update_rs(&mut s, &rs.metadata.name, |rs| {
        rs.metadata.labels = new_labels.clone().into()
    });
    s.settle().unwrap();
    let orphan = s
        .api
        .store
        .get::<ReplicaSet>(NS, &rs.metadata.name)
        .unwrap()
        .clone();
    assert!(orphan.metadata.owner_references.is_empty(), "{orphan:?}");
    // The deployment creates a new ReplicaSet with the same template (another name: the
    // collision count moved on, the orphan holding the hash's name).
    let rss = owned_rss(&s, &d);
    assert_eq!(rss.len(), 1, "{rss:?}");
    assert_ne!(rss[0].metadata.uid, rs.metadata.uid);
    assert_ne!(rss[0].metadata.name, rs.metadata.name);
    assert_eq!(get_d(&s, name).status.collision_count, Some(1));
    // Back to the deployment's labels: adopted again.
    new_labels = (*rs.metadata.labels).clone();
    update_rs(&mut s, &rs.metadata.name, |rs| {
        rs.metadata.labels = new_labels.clone().into()
    });
    s.settle().unwrap();
    let adopted = s
        .api
        .store
        .get::<ReplicaSet>(NS, &rs.metadata.name)
        .unwrap()
        .clone();
    assert_eq!(
        controller_of(&adopted.metadata).map(|r| r.uid.clone()),
        Some(d.metadata.uid.clone())
    );
    // Two ReplicaSets with the deployment's template: the oldest is the new one
    // (FindNewReplicaSet sorts by creation time), so the rollout settles on the original
    // and scales the replacement away.
    wait_status_valid_and_mark_ready(&mut s, name);
    let d = get_d(&s, name);
    assert_eq!(new_rs(&s, &d).unwrap().metadata.uid, rs.metadata.uid);
    for r in owned_rss(&s, &d) {
        let want = if r.metadata.uid == rs.metadata.uid {
            1
        } else {
            0
        };
        assert_eq!(r.spec.replicas, Some(want), "{}", r.metadata.name);
    }
    assert_eq!(all_pods(&s).len(), 1);
}

/// TestTerminatingReplicas (DeploymentReplicaSetTerminatingReplicas, on in 1.35): pods held
/// in termination are counted in status.terminatingReplicas of the ReplicaSet and the
/// Deployment, not in replicas.
#[test]
fn test_terminating_replicas() {
    let mut s = dc_setup();
    let name = "test-terminating-replicas";
    create(&mut s, new_deployment(name, 3));
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    // Hold two pods in termination with a finalizer, then delete them.
    let pods = all_pods(&s);
    for p in pods.iter().take(2) {
        let mut p = p.clone();
        p.metadata.finalizers = vec!["test.k8s.io/finalizer".to_string()].into();
        s.api.update(Object::Pod(p.clone())).unwrap();
        s.api
            .delete("Pod", NS, &p.metadata.name, &DeleteOptions::default())
            .unwrap();
    }
    s.settle().unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    let d = get_d(&s, name);
    assert_eq!(d.status.replicas, 3, "{:?}", d.status);
    assert_eq!(d.status.terminating_replicas, Some(2), "{:?}", d.status);
    let rs = new_rs(&s, &d).unwrap();
    assert_eq!(rs.status.terminating_replicas, Some(2), "{:?}", rs.status);
    // Finalizers removed: the pods go, the count drops to 0.
    for p in pods.iter().take(2) {
        let mut p = s
            .api
            .store
            .get::<Pod>(NS, &p.metadata.name)
            .unwrap()
            .clone();
        p.metadata.finalizers = Vec::<String>::new().into();
        s.api.update(Object::Pod(p)).unwrap();
    }
    s.settle().unwrap();
    let d = get_d(&s, name);
    assert_eq!(d.status.terminating_replicas, Some(0), "{:?}", d.status);
}

fn set_image(s: &mut Simulation, name: &str, image: &str) -> Deployment {
    update_d(s, name, |d| {
        d.spec.template_mut().spec_mut().containers[0].image = image.into()
    })
}

fn desired_annotation(rs: &ReplicaSet) -> Option<i32> {
    rs.metadata
        .annotations
        .get("deployment.kubernetes.io/desired-replicas")
        .and_then(|v| v.parse().ok())
}

fn get_rs(s: &Simulation, name: &str) -> ReplicaSet {
    s.api.store.get::<ReplicaSet>(NS, name).unwrap().clone()
}

fn assert_revision_and_image(s: &Simulation, name: &str, revision: &str, image: &str) {
    let d = get_d(s, name);
    assert_eq!(
        d.metadata.annotations.get(REVISION).map(String::as_str),
        Some(revision)
    );
    let rs = new_rs(s, &d).expect("a new ReplicaSet");
    assert_eq!(
        rs.metadata.annotations.get(REVISION).map(String::as_str),
        Some(revision)
    );
    assert_eq!(rs.spec.template.spec.containers[0].image, image);
}

/// `waitRSStable`: status.replicas of the ReplicaSet equals its spec.
fn assert_rs_stable(s: &Simulation, name: &str) {
    let rs = get_rs(s, name);
    assert_eq!(
        rs.status.replicas,
        rs.spec.replicas.unwrap(),
        "{name}: {:?}",
        rs.status
    );
}

/// TestScaledRolloutDeployment: scaling in the middle of blocked rollouts (maxSurge 3,
/// maxUnavailable 2) keeps minimum availability and leaves every ReplicaSet annotated with
/// the new desired replica count.
#[test]
fn test_scaled_rollout_deployment() {
    let mut s = dc_setup();
    let name = "test-scaled-rollout-deployment";
    let mut d = new_deployment(name, 10);
    let ru = d.spec.strategy.rolling_update.as_mut().unwrap();
    ru.max_surge = Some(kubeplay::api::IntOrString::Int(3));
    ru.max_unavailable = Some(kubeplay::api::IntOrString::Int(2));
    create(&mut s, d);
    s.settle().unwrap();
    assert_revision_and_image(&s, name, "1", FAKE_IMAGE);
    wait_status_valid_and_mark_ready(&mut s, name);
    let first = new_rs(&s, &get_d(&s, name)).unwrap();

    // A second image, its pods never marked ready: the rollout blocks.
    set_image(&mut s, name, "fakeimage2");
    s.settle().unwrap();
    assert_revision_and_image(&s, name, "2", "fakeimage2");
    let d = get_d(&s, name);
    assert!(d.status.available_replicas >= 8, "{:?}", d.status);
    assert_rs_stable(&s, &first.metadata.name);
    let second = new_rs(&s, &d).unwrap();
    assert_rs_stable(&s, &second.metadata.name);
    assert_eq!(
        (
            get_rs(&s, &first.metadata.name).spec.replicas,
            second.spec.replicas
        ),
        (Some(8), Some(5))
    );

    // Scale to 20 with a third image at once, then complete.
    update_d(&mut s, name, |d| {
        d.spec.replicas = Some(20);
        d.spec.template_mut().spec_mut().containers[0].image = "fakeimage3".into();
    });
    s.settle().unwrap();
    assert_revision_and_image(&s, name, "3", "fakeimage3");
    wait_status_valid_and_mark_ready(&mut s, name);
    let third = new_rs(&s, &get_d(&s, name)).unwrap();
    for rs in [&first, &second, &third] {
        let rs = get_rs(&s, &rs.metadata.name);
        assert_eq!(desired_annotation(&rs), Some(20), "{}", rs.metadata.name);
    }

    // A fourth image, blocked again.
    set_image(&mut s, name, "fakeimage4");
    s.settle().unwrap();
    assert_revision_and_image(&s, name, "4", "fakeimage4");
    let d = get_d(&s, name);
    assert!(d.status.available_replicas >= 18, "{:?}", d.status);
    assert_rs_stable(&s, &third.metadata.name);
    let fourth = new_rs(&s, &d).unwrap();
    assert_rs_stable(&s, &fourth.metadata.name);

    // Scale down to 5 with a fifth image, then complete.
    update_d(&mut s, name, |d| {
        d.spec.replicas = Some(5);
        d.spec.template_mut().spec_mut().containers[0].image = "fakeimage5".into();
    });
    s.settle().unwrap();
    assert_revision_and_image(&s, name, "5", "fakeimage5");
    wait_status_valid_and_mark_ready(&mut s, name);
    let fifth = new_rs(&s, &get_d(&s, name)).unwrap();
    for rs in [&third, &fourth, &fifth] {
        let rs = get_rs(&s, &rs.metadata.name);
        assert_eq!(desired_annotation(&rs), Some(5), "{}", rs.metadata.name);
    }
    // Complete: only the newest ReplicaSet has replicas.
    for rs in owned_rss(&s, &get_d(&s, name)) {
        let want = if rs.metadata.uid == fifth.metadata.uid {
            5
        } else {
            0
        };
        assert_eq!(rs.spec.replicas, Some(want), "{}", rs.metadata.name);
    }
}

/// TestDeploymentRollingUpdate: successive image updates roll out to completion, each
/// revision numbered in turn, old ReplicaSets left at zero replicas and their pods gone; the
/// Deployment records the `ScalingReplicaSet` events of each step.
#[test]
fn test_deployment_rolling_update() {
    let mut s = dc_setup();
    let name = "test-rolling-update-deployment";
    let mut d = new_deployment(name, 20);
    d.spec.min_ready_seconds = 4;
    create(&mut s, d);
    s.settle().unwrap();
    s.run_for(Duration::from_secs(5)).unwrap();
    wait_status_valid_and_mark_ready(&mut s, name);
    for (i, image) in ["fakeimage2", "fakeimage3"].iter().enumerate() {
        set_image(&mut s, name, image);
        for _ in 0..60 {
            wait_status_valid_and_mark_ready(&mut s, name);
            let d = get_d(&s, name);
            if new_rs(&s, &d).unwrap().status.available_replicas == 20 && d.status.replicas == 20 {
                break;
            }
            s.run_for(Duration::from_secs(1)).unwrap();
        }
        assert_revision_and_image(&s, name, &(i + 2).to_string(), image);
        let d = get_d(&s, name);
        let new = new_rs(&s, &d).unwrap();
        for rs in owned_rss(&s, &d) {
            if rs.metadata.uid != new.metadata.uid {
                assert_eq!(rs.spec.replicas, Some(0), "{}", rs.metadata.name);
                assert_eq!(rs.status.replicas, 0, "{}", rs.metadata.name);
            }
        }
        let pods = all_pods(&s);
        assert_eq!(pods.len(), 20);
        assert!(pods.iter().all(|p| p.spec.containers[0].image == *image));
    }
    let scaling = s
        .api
        .events
        .iter()
        .filter(|e| e.reason == "ScalingReplicaSet")
        .count();
    assert!(scaling > 4, "{scaling}");
}

/// Marks ready (since now) every pod not ready yet whose image is not `bad`.
fn mark_ready_except(s: &mut Simulation, bad: &str) {
    let now = s.now();
    for mut p in all_pods(s) {
        if is_ready(&p)
            || p.metadata.deletion_timestamp.is_some()
            || p.spec.containers[0].image == bad
        {
            continue;
        }
        p.status.phase = "Running".into();
        p.status.conditions.retain(|c| c.type_ != "Ready");
        p.status.conditions.push(PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(now),
            ..Default::default()
        });
        s.api.update_status(Object::Pod(p)).unwrap();
    }
}

/// Runs `secs` seconds, marking pods ready (but those with image `bad`) every second.
fn run_marking(s: &mut Simulation, secs: u64, bad: &str) {
    for _ in 0..secs {
        s.settle().unwrap();
        mark_ready_except(s, bad);
        s.settle().unwrap();
        s.run_for(Duration::from_secs(1)).unwrap();
    }
}

/// testProportionalScalingDeployment (test/e2e/apps/deployment.go): 10 replicas, maxSurge 3,
/// maxUnavailable 2, a rollout to an image that never runs leaves the old ReplicaSet at 8 and
/// the new at 5; scaling the Deployment to 30 mid-rollout spreads the 20 new replicas in
/// proportion: 20 and 13.
#[test]
fn test_proportional_scaling_deployment() {
    let mut s = dc_setup();
    let name = "webserver-deployment";
    let mut d = new_deployment(name, 10);
    let ru = d.spec.strategy.rolling_update.as_mut().unwrap();
    ru.max_surge = Some(kubeplay::api::IntOrString::Int(3));
    ru.max_unavailable = Some(kubeplay::api::IntOrString::Int(2));
    create(&mut s, d);
    run_marking(&mut s, 3, "webserver:404");
    wait_status_valid_and_mark_ready(&mut s, name);
    let first = new_rs(&s, &get_d(&s, name)).unwrap();
    set_image(&mut s, name, "webserver:404");
    run_marking(&mut s, 5, "webserver:404");
    let d = get_d(&s, name);
    let second = new_rs(&s, &d).unwrap();
    assert_eq!(get_rs(&s, &first.metadata.name).spec.replicas, Some(8));
    assert_eq!(second.spec.replicas, Some(5));
    assert_eq!(d.status.available_replicas, 8, "{:?}", d.status);
    update_d(&mut s, name, |d| d.spec.replicas = Some(30));
    s.settle().unwrap();
    let first = get_rs(&s, &first.metadata.name);
    let second = get_rs(&s, &second.metadata.name);
    assert_eq!(first.spec.replicas, Some(20));
    assert_eq!(second.spec.replicas, Some(13));
    for rs in [&first, &second] {
        assert_eq!(desired_annotation(rs), Some(30));
        assert_eq!(
            rs.metadata
                .annotations
                .get("deployment.kubernetes.io/max-replicas")
                .map(String::as_str),
            Some("33")
        );
    }
}

/// testRolloverDeployment (test/e2e/apps/deployment.go): a Deployment adopts a bare
/// ReplicaSet matching its selector; a rollout to a bad image is rolled over by a good one
/// mid-way: the intermediate ReplicaSet goes to zero at once, the adopted one once the new
/// pods are available for minReadySeconds.
#[test]
fn test_rollover_deployment() {
    let mut s = dc_setup();
    // The bare ReplicaSet, its pod running.
    let mut rs = ReplicaSet::default();
    rs.metadata.name = "test-rollover-controller".into();
    rs.metadata.labels = test_labels().into();
    rs.metadata.namespace = NS.into();
    rs.spec.replicas = Some(1);
    rs.spec.selector = Some(LabelSelector::from_labels(&test_labels()));
    rs.spec.template_mut().metadata.labels = test_labels().into();
    rs.spec.template_mut().spec_mut().containers = vec![Container {
        name: "httpd".into(),
        image: "httpd".into(),
        ..Default::default()
    }];
    s.api.create(Object::ReplicaSet(rs)).unwrap();
    run_marking(&mut s, 2, "");
    let name = "test-rollover-deployment";
    let mut d = new_deployment(name, 1);
    d.spec.min_ready_seconds = 10;
    let ru = d.spec.strategy.rolling_update.as_mut().unwrap();
    ru.max_surge = Some(kubeplay::api::IntOrString::Int(1));
    ru.max_unavailable = Some(kubeplay::api::IntOrString::Int(0));
    d.spec.template_mut().spec_mut().containers[0].name = "redis-slave".into();
    d.spec.template_mut().spec_mut().containers[0].image = "redis-slave:bad".into();
    let d = create(&mut s, d);
    run_marking(&mut s, 5, "redis-slave:bad");
    let adopted = get_rs(&s, "test-rollover-controller");
    assert_eq!(
        controller_of(&adopted.metadata).map(|r| r.uid.clone()),
        Some(d.metadata.uid.clone()),
        "the bare ReplicaSet is adopted"
    );
    assert_eq!(adopted.spec.replicas, Some(1));
    let bad = new_rs(&s, &get_d(&s, name)).unwrap();
    assert_eq!(bad.spec.replicas, Some(1));
    assert_eq!(
        get_d(&s, name)
            .metadata
            .annotations
            .get(REVISION)
            .map(String::as_str),
        Some("1")
    );
    // Roll over to a good image.
    update_d(&mut s, name, |d| {
        let c = &mut d.spec.template_mut().spec_mut().containers[0];
        c.name = "agnhost".into();
        c.image = "agnhost".into();
    });
    s.settle().unwrap();
    assert_eq!(
        get_rs(&s, &bad.metadata.name).spec.replicas,
        Some(0),
        "the intermediate ReplicaSet is scaled down at once"
    );
    assert_eq!(
        get_rs(&s, "test-rollover-controller").spec.replicas,
        Some(1)
    );
    run_marking(&mut s, 15, "redis-slave:bad");
    let d = get_d(&s, name);
    assert_eq!(
        d.metadata.annotations.get(REVISION).map(String::as_str),
        Some("2")
    );
    let new = new_rs(&s, &d).unwrap();
    assert_eq!(new.spec.template.spec.containers[0].image, "agnhost");
    assert_eq!(new.status.available_replicas, 1);
    assert_eq!(
        get_rs(&s, "test-rollover-controller").spec.replicas,
        Some(0)
    );
    assert_eq!(get_rs(&s, &bad.metadata.name).spec.replicas, Some(0));
    assert_eq!(d.status.updated_replicas, 1);
    assert_eq!(d.status.available_replicas, 1);
}

/// testDeploymentCleanUpPolicy (test/e2e/apps/deployment.go): revisionHistoryLimit 0 deletes
/// the adopted old ReplicaSet once the rollout is complete.
#[test]
fn test_deployment_clean_up_policy() {
    let mut s = dc_setup();
    let mut rs = ReplicaSet::default();
    rs.metadata.name = "test-cleanup-controller".into();
    rs.metadata.labels = test_labels().into();
    rs.metadata.namespace = NS.into();
    rs.spec.replicas = Some(1);
    rs.spec.selector = Some(LabelSelector::from_labels(&test_labels()));
    rs.spec.template_mut().metadata.labels = test_labels().into();
    rs.spec.template_mut().spec_mut().containers = vec![Container {
        name: "httpd".into(),
        image: "httpd".into(),
        ..Default::default()
    }];
    s.api.create(Object::ReplicaSet(rs)).unwrap();
    run_marking(&mut s, 2, "");
    let name = "test-cleanup-deployment";
    let mut d = new_deployment(name, 1);
    d.spec.revision_history_limit = Some(0);
    let d = create(&mut s, d);
    run_marking(&mut s, 5, "");
    let rss = owned_rss(&s, &d);
    assert_eq!(rss.len(), 1, "{rss:?}");
    assert!(s
        .api
        .store
        .get::<ReplicaSet>(NS, "test-cleanup-controller")
        .is_none());
    assert_eq!(all_pods(&s).len(), 1);
}

/// testDeploymentStatus ("should validate Deployment Status endpoints",
/// test/e2e/apps/deployment.go), through `kubectl patch --subresource=status`: a condition
/// patched into the status is stored (strategic merge on `type`, next to the controller's), a
/// spec change in the same patch is ignored by the status subresource, and the controller's
/// next status write keeps the extra condition. An unknown subresource is refused by kubectl.
#[test]
fn test_deployment_status_endpoints() {
    let text = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nnodes: [{count: 2, namePrefix: node-}]\nkubelet:\n  readiness: 2s\nobjects:\n  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: test-deployment-status}, spec: {replicas: 1, selector: {matchLabels: {e2e: testing}}, template: {metadata: {labels: {e2e: testing}}, spec: {containers: [{name: httpd, image: httpd}]}}}}\n";
    let mut s = kubeplay::scenario::Scenario::parse(text)
        .unwrap()
        .build()
        .unwrap();
    s.run_for(Duration::from_secs(30)).unwrap();
    let name = "test-deployment-status";
    let out = kubeplay::kubectl::execute(
        &mut s,
        r#"patch deployment test-deployment-status --subresource=status -p '{"spec":{"replicas":5},"status":{"conditions":[{"type":"StatusPatched","status":"True"}]}}'"#,
    )
    .unwrap();
    assert_eq!(out, "deployment.apps/test-deployment-status patched");
    let d = get_d(&s, name);
    assert_eq!(
        d.spec.replicas,
        Some(1),
        "the status subresource keeps the spec"
    );
    let types: Vec<&str> = d
        .status
        .conditions
        .iter()
        .map(|c| c.type_.as_str())
        .collect();
    assert_eq!(types, ["Available", "Progressing", "StatusPatched"]);
    // A resync (a scale) rewrites the status; the patched condition stays.
    kubeplay::kubectl::execute(
        &mut s,
        "scale deployment test-deployment-status --replicas=2",
    )
    .unwrap();
    s.run_for(Duration::from_secs(30)).unwrap();
    let d = get_d(&s, name);
    assert_eq!(d.status.available_replicas, 2);
    assert!(d
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "StatusPatched" && c.status == "True"));
    let err = kubeplay::kubectl::execute(
        &mut s,
        r#"patch deployment test-deployment-status --subresource=foo -p '{"spec":{}}'"#,
    )
    .unwrap_err();
    assert_eq!(
        err,
        r#"error: invalid subresource value: "foo". Must be one of [status scale]"#
    );
}

/// TestDeploymentSelectorImmutability (deployment_test.go): an apps/v1 Deployment's selector
/// cannot change (`Invalid value ... field is immutable`). The extensions/v1beta1 and
/// apps/v1beta1 halves, where it could, are gone from the API and not modelled.
#[test]
fn test_deployment_selector_immutability() {
    let mut s = dc_setup();
    let name = "test-deployment-selector-immutability";
    create(&mut s, new_deployment(name, 20));
    let mut d = get_d(&s, name);
    let labels: Labels = [(
        "name_apps_v1beta2".to_string(),
        "test_apps_v1beta2".to_string(),
    )]
    .into_iter()
    .collect();
    d.spec.selector = Some(LabelSelector::from_labels(&labels));
    d.spec.template_mut().metadata.labels = labels.into();
    let err = s.api.update(Object::Deployment(d)).unwrap_err().to_string();
    assert!(
        err.contains("Invalid value") && err.contains("field is immutable"),
        "{err}"
    );
}
