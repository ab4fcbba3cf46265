//! The Deployment controller lists its ReplicaSets through the store's owner index and its set of
//! uncontrolled objects (`Store::controlled_by_or_uncontrolled`) instead of walking every
//! ReplicaSet of the namespace. These tests compare that list with the walk (upstream's
//! `rsLister.ReplicaSets(ns).List` filtered as `getReplicaSetsForDeployment` claims) on every
//! sync of a busy run, and the incrementally kept set with a recomputation.

use crate::api::{Deployment, Object, OwnerReference, ReplicaSet};
use crate::scenario::Scenario;
use crate::store::{ObjectRef, Store};
use std::cell::Cell;

thread_local! {
    static VERIFY: Cell<bool> = const { Cell::new(false) };
    static CHECKS: Cell<u64> = const { Cell::new(0) };
}

/// Called by `get_replica_sets_for_deployment` (tests only): the list equals the walk over the
/// namespace's ReplicaSets without those another owner controls, in the same order.
pub(super) fn verify_rs_list(store: &Store, d: &Deployment, rs_list: &[ReplicaSet]) {
    if !VERIFY.with(Cell::get) {
        return;
    }
    CHECKS.with(|c| c.set(c.get() + 1));
    let id = |rs: &ReplicaSet| {
        (
            rs.metadata.name.clone(),
            rs.metadata.uid.clone(),
            rs.metadata.resource_version.clone(),
        )
    };
    let walk: Vec<_> = store
        .list::<ReplicaSet>(Some(&d.metadata.namespace))
        .filter(|rs| {
            rs.metadata
                .controller_ref()
                .is_none_or(|r| r.uid == d.metadata.uid)
        })
        .map(id)
        .collect();
    let got: Vec<_> = rs_list.iter().map(id).collect();
    assert_eq!(got, walk, "ReplicaSets of deployment {}", d.metadata.name);
}

/// Rolling updates, a ReplicaSet orphaned by `--cascade=orphan` and adopted again by the
/// re-applied Deployment, a matching orphan ReplicaSet adopted by a Deployment, scaling, and a
/// Deployment deleted with its ReplicaSets.
const BUSY: &str = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
seed: 5
nodes:
  - {count: 6, namePrefix: n-, capacity: {cpu: "4", memory: 8Gi, pods: "20"}}
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 12
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: "nginx:1.0"}]}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api}
    spec:
      replicas: 8
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec: {containers: [{name: c, image: "nginx:1.0"}]}
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: stray, labels: {app: web}}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web, stray: "yes"}}
      template:
        metadata: {labels: {app: web, stray: "yes"}}
        spec: {containers: [{name: c, image: "nginx:0.9"}]}
timeline:
- at: 30s
  kubectl: set image deployment/web c=nginx:2.0
- at: 1m
  kubectl: delete deployment api --cascade=orphan
- at: 1m30s
  apply: |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api}
    spec:
      replicas: 8
      selector: {matchLabels: {app: api}}
      template:
        metadata: {labels: {app: api}}
        spec: {containers: [{name: c, image: "nginx:1.0"}]}
- at: 2m
  kubectl: set image deployment/api c=nginx:2.0
- at: 2m30s
  kubectl: scale deployment/web --replicas=5
- at: 3m
  kubectl: delete deployment web
duration: 5m
"#;

#[test]
fn replica_set_lists_equal_the_namespace_walk_through_a_busy_run() {
    VERIFY.with(|v| v.set(true));
    let mut sim = Scenario::parse(BUSY)
        .expect("scenario")
        .build()
        .expect("build");
    let end = sim.start + crate::api::Duration::from_mins(5);
    let mut result = Ok(());
    let mut instants = 0;
    loop {
        if let Err(e) = sim.api.store.check_uncontrolled_index() {
            result = Err(e);
            break;
        }
        instants += 1;
        match sim.next_event() {
            Ok(Some(t)) if t <= end => {}
            Ok(_) => break,
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    VERIFY.with(|v| v.set(false));
    result.expect("run");
    let checks = CHECKS.with(Cell::get);
    assert!(checks > 50, "compared {checks} times");
    assert!(instants > 20, "checked the index at {instants} instants");
    // The orphaned ReplicaSet was adopted again and the stray one adopted by `web`, then
    // deleted with it.
    let rss: Vec<&ReplicaSet> = sim.api.store.list::<ReplicaSet>(Some("default")).collect();
    assert!(rss.iter().all(|rs| rs.metadata.controller_ref().is_some()));
    sim.api
        .store
        .check_uncontrolled_index()
        .expect("at the end");
}

fn rs(name: &str, owner: Option<(&str, bool)>) -> Object {
    let mut r = ReplicaSet::default();
    r.metadata.name = name.into();
    r.metadata.namespace = "default".into();
    r.metadata.uid = format!("u-{name}");
    if let Some((uid, controller)) = owner {
        r.metadata.owner_references = vec![OwnerReference {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            name: "d".into(),
            uid: uid.into(),
            controller: Some(controller),
            block_owner_deletion: Some(true),
        }]
        .into();
    }
    Object::ReplicaSet(r)
}

fn names(store: &Store, owner_uid: &str) -> Vec<String> {
    store
        .controlled_by_or_uncontrolled("ReplicaSet", "default", owner_uid)
        .iter()
        .map(|o| o.meta().name.clone())
        .collect()
}

/// A controller flag flipped under the same owner uid (an index key the owner index alone does
/// not see), adoption, release and removal.
#[test]
fn uncontrolled_index_follows_controller_flag_adoption_and_removal() {
    let mut s = Store::new();
    s.put(rs("b-mine", Some(("u-d", true))));
    s.put(rs("a-orphan", None));
    s.put(rs("c-other", Some(("u-e", true))));
    s.put(rs("d-mine-not-controller", Some(("u-d", false))));
    assert_eq!(
        names(&s, "u-d"),
        ["a-orphan", "b-mine", "d-mine-not-controller"]
    );
    assert_eq!(
        names(&s, "u-e"),
        ["a-orphan", "c-other", "d-mine-not-controller"]
    );
    s.check_uncontrolled_index().expect("initial");

    // The controller flag of b-mine turned off: it is uncontrolled now.
    s.put(rs("b-mine", Some(("u-d", false))));
    s.check_uncontrolled_index().expect("flag off");
    assert_eq!(
        names(&s, "u-e"),
        ["a-orphan", "b-mine", "c-other", "d-mine-not-controller"]
    );
    // ... and on again.
    s.put(rs("b-mine", Some(("u-d", true))));
    s.check_uncontrolled_index().expect("flag on");
    assert_eq!(
        names(&s, "u-e"),
        ["a-orphan", "c-other", "d-mine-not-controller"]
    );

    // Adoption of the orphan by u-e, release of c-other.
    s.put(rs("a-orphan", Some(("u-e", true))));
    s.put(rs("c-other", None));
    s.check_uncontrolled_index().expect("adopt/release");
    assert_eq!(
        names(&s, "u-d"),
        ["b-mine", "c-other", "d-mine-not-controller"]
    );
    assert_eq!(
        names(&s, "u-e"),
        ["a-orphan", "c-other", "d-mine-not-controller"]
    );

    // Removal; other kinds and namespaces are not listed.
    s.remove(&ObjectRef::new("ReplicaSet", "default", "c-other"));
    let mut elsewhere = rs("z-elsewhere", None);
    if let Object::ReplicaSet(r) = &mut elsewhere {
        r.metadata.namespace = "other".into();
    }
    s.put(elsewhere);
    s.check_uncontrolled_index().expect("removal");
    assert_eq!(names(&s, "u-d"), ["b-mine", "d-mine-not-controller"]);
    assert_eq!(names(&s, ""), ["d-mine-not-controller"]);
}
