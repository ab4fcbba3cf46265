//! Ports of pkg/controller/replicaset/replica_set_test.go: the controller driven by hand, one
//! sync at a time, asserting on the recorded client calls, expectations, queue and status.

mod replicaset_support;

use kubeplay::api::{Object, Pod, ReplicaSet, ReplicationController};
use kubeplay::controllers::controller_utils::{pod_key, ScaleDownGates};
use kubeplay::controllers::replicaset::replica_set::{
    get_indirectly_related_pods, get_pod_replica_sets, get_replica_sets_with_same_controller,
};
use kubeplay::controllers::replicaset::{
    get_pod_keys, get_pods_to_delete, OwnerKind, ReplicaSetController,
};
use kubeplay::controllers::Controller;
use kubeplay::store::apiserver::DeleteOptions;
use replicaset_support::*;

fn names(pods: &[&Pod]) -> Vec<String> {
    pods.iter().map(|p| p.metadata.name.clone()).collect()
}

// Port of TestSyncReplicaSetDoesNothing: 2 running pods, 2 replicas → no pod calls.
#[test]
fn sync_replica_set_does_nothing() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    for i in 0..2 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Running", true));
    }
    h.sync(&key(&rs)).unwrap();
    assert_eq!(h.pod_actions("create"), 0);
    assert_eq!(h.pod_actions("delete"), 0);
    assert_eq!(h.pod_actions("update"), 0);
    let status = h.rs("foobar").status;
    assert_eq!(
        (
            status.replicas,
            status.ready_replicas,
            status.available_replicas
        ),
        (2, 2, 2)
    );
    assert_eq!(status.observed_generation, 1);
}

// Port of TestDeleteFinalStateUnknown: the last known state of a deleted pod wakes its owner.
#[test]
fn delete_final_state_unknown() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    h.load(rs.clone());
    h.drop_changes();
    let pod = new_pod("pod0", &rs, "Running", true); // never stored: a tombstone
    let change = kubeplay::store::Change::of(Some(Object::Pod(pod)), None);

    h.ctrl.watch(&change, &h.api.store, &mut h.queue, h.api.now);
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
}

// Port of TestSyncReplicaSetCreateFailures: 100 replicas but only 10 creations succeed; slow
// start stops after the failing batch (at most 1+2+4+8 calls).
#[test]
fn sync_replica_set_create_failures() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 100, &[("foo", "bar")]);
    h.load(rs.clone());
    h.block_creates("foobar-", 10, 20);
    let res = h.sync(&key(&rs));
    let err = res.expect_err("the failed batch is reported");
    // Every generated name collides: `NewGenerateNameConflict` (AlreadyExists), naming the
    // last candidate.
    assert!(
        err.message.starts_with("pods \"foobar-")
            && err.message.ends_with(
                "already exists, the server was not able to generate a unique name for the object"
            ),
        "{}",
        err.message
    );
    let created: Vec<Pod> = h
        .pods()
        .into_iter()
        .filter(|p| p.metadata.generate_name == "foobar-")
        .collect();
    assert_eq!(created.len(), 10);
    // Batches 1, 2, 4, then 8 of which 3 succeed: every call of the failing batch runs.
    assert_eq!(h.pod_actions("create"), 15);
    // Expectations: 100 expected, 90 never attempted or failed → 10 still awaited.
    let exp = h.ctrl.expectations.get_expectations(&key(&rs)).unwrap();
    assert_eq!(exp.get_expectations(), (10, 0));
    // Events and the ReplicaFailure condition.
    let ok = h
        .api
        .events
        .iter()
        .filter(|e| e.reason == "SuccessfulCreate")
        .count();
    let failed: Vec<_> = h
        .api
        .events
        .iter()
        .filter(|e| e.reason == "FailedCreate")
        .collect();
    assert_eq!((ok, failed.len()), (10, 5));
    assert_eq!(failed[0].type_, "Warning");
    assert_eq!(failed[0].source, "replicaset-controller");
    assert!(
        failed[0]
            .message
            .starts_with("Error creating: pods \"foobar-"),
        "{}",
        failed[0].message
    );
    let first_ok = h
        .api
        .events
        .iter()
        .find(|e| e.reason == "SuccessfulCreate")
        .unwrap();
    assert!(created
        .iter()
        .any(|p| first_ok.message == format!("Created pod: {}", p.metadata.name)));
    let status = h.rs("foobar").status;
    assert_eq!(
        status.replicas, 0,
        "status counts the pods listed at the start of the sync"
    );
    let cond = &status.conditions[0];
    assert_eq!(
        (
            cond.type_.as_str(),
            cond.status.as_str(),
            cond.reason.as_str()
        ),
        ("ReplicaFailure", "True", "FailedCreate")
    );
    assert_eq!(cond.message, err.message);
}

// Port of TestSyncReplicaSetDormancy: expectations keep a ReplicaSet asleep until the creation
// is observed; a failed creation lowers them so the next sync retries.
#[test]
fn sync_replica_set_dormancy() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    h.load(new_pod("pod0", &rs, "Running", true));
    let k = key(&rs);

    // Creates a replica and sets expectations.
    h.sync(&k).unwrap();
    assert_eq!(h.pod_actions("create"), 1);
    // The informer never saw that pod: remove it silently.
    let created = h
        .pods()
        .into_iter()
        .find(|p| p.metadata.name != "pod0")
        .unwrap();
    h.api.store.remove(&kubeplay::store::ObjectRef::new(
        "Pod",
        NS,
        &created.metadata.name,
    ));
    h.drop_changes();

    // Expectations prevent another creation.
    h.actions.clear();
    h.sync(&k).unwrap();
    assert_eq!(h.pod_actions("create"), 0);

    // Lowering expectations allows a sync that creates a replica; make that creation fail.
    h.ctrl.expectations.creation_observed(&k);
    h.block_creates("foobar-", 0, 1);
    h.actions.clear();
    assert!(h.sync(&k).is_err());
    assert_eq!(h.pod_actions("create"), 1);
    assert_eq!(h.ctrl.expectations.get_expectations(&k).unwrap().add, 0);

    // The failed creation lowered the expectations: the next sync creates again.
    h.actions.clear();
    h.sync(&k).unwrap();
    assert_eq!(h.pod_actions("create"), 1);
    assert_eq!(h.ctrl.expectations.get_expectations(&k).unwrap().add, 1);
    // The failure condition is removed once manageReplicas succeeds.
    assert!(h.rs("foobar").status.conditions.is_empty());
}

// Port of TestGetReplicaSetsWithSameController.
#[test]
fn get_replica_sets_with_same_controller_table() {
    let mut h = Harness::new(ReplicaSetController::new());
    let some = new_replica_set("rs1", 1, &[("foo", "bar")]);
    let related = new_replica_set("rs2", 1, &[("foo", "baz")]);
    let mut unrelated = new_replica_set("rs3", 1, &[("foo", "quux")]);
    unrelated.metadata.owner_references[0].uid = "456".into();
    let mut pending_deletion = new_replica_set("rs4", 1, &[("foo", "xyzzy")]);
    pending_deletion.metadata.owner_references[0].uid = "789".into();
    pending_deletion.metadata.deletion_timestamp = Some(t0());
    pending_deletion.metadata.finalizers = vec!["example.com/keep".into()].into();
    for r in [&some, &related, &unrelated, &pending_deletion] {
        h.load(r.clone());
    }
    let got = |rs: &ReplicaSet| -> Vec<String> {
        get_replica_sets_with_same_controller(OwnerKind::ReplicaSet, &h.api.store, rs)
            .iter()
            .map(|r| r.metadata.name.clone())
            .collect()
    };
    assert_eq!(got(&pending_deletion), vec!["rs4"]);
    assert_eq!(got(&some), vec!["rs1", "rs2"]);
    let mut orphan = some.clone();
    orphan.metadata.owner_references.clear();
    assert!(
        got(&orphan).is_empty(),
        "no controller: no related ReplicaSets"
    );
}

// Port of TestPodControllerLookup.
#[test]
fn pod_controller_lookup() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut foo = new_replica_set("foo", 1, &[("foo", "bar")]);
    foo.metadata.namespace = "other".into();
    let bar = new_replica_set("bar", 1, &[("foo", "bar")]);
    h.load(foo);
    h.load(bar);
    let mut unlabeled = Pod::default();
    unlabeled.metadata.name = "foo1".into();
    unlabeled.metadata.namespace = NS.into();
    assert!(get_pod_replica_sets(OwnerKind::ReplicaSet, &h.api.store, &unlabeled).is_empty());
    // Matching labels, not namespace; then matching both.
    let mut p = unlabeled.clone();
    p.metadata.labels = labels(&[("foo", "bar")]).into();
    p.metadata.namespace = "ns".into();
    assert!(get_pod_replica_sets(OwnerKind::ReplicaSet, &h.api.store, &p).is_empty());
    p.metadata.namespace = NS.into();
    let got = get_pod_replica_sets(OwnerKind::ReplicaSet, &h.api.store, &p);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].metadata.name, "bar");
}

// Port of TestRelatedPodsLookup.
#[test]
fn related_pods_lookup() {
    let mut h = Harness::new(ReplicaSetController::new());
    let some = new_replica_set("foo1", 1, &[("foo", "bar")]);
    let related = new_replica_set("foo2", 1, &[("foo", "baz")]);
    let mut unrelated = new_replica_set("bar1", 1, &[("foo", "quux")]);
    unrelated.metadata.owner_references[0].uid = "456".into();
    let mut pending = new_replica_set("foo3", 1, &[("foo", "xyzzy")]);
    pending.metadata.owner_references[0].uid = "789".into();
    pending.metadata.deletion_timestamp = Some(t0());
    pending.metadata.finalizers = vec!["example.com/keep".into()].into();
    for r in [&some, &related, &unrelated, &pending] {
        h.load(r.clone());
    }
    h.load(new_pod("pod1", &some, "Running", true));
    h.load(new_pod("pod2", &some, "Running", true));
    h.load(new_pod("pod3", &related, "Running", true));
    h.load(new_pod("pod4", &unrelated, "Running", true));
    h.load(new_pod("pod", &pending, "Running", true));
    let got = |rs: &ReplicaSet| -> Vec<String> {
        let mut v: Vec<String> =
            get_indirectly_related_pods(OwnerKind::ReplicaSet, &h.api.store, rs)
                .iter()
                .map(|p| p.metadata.name.clone())
                .collect();
        v.sort();
        v
    };
    assert_eq!(got(&pending), vec!["pod"]);
    assert_eq!(got(&some), vec!["pod1", "pod2", "pod3"]);
    assert_eq!(got(&unrelated), vec!["pod4"]);
}

// Port of TestUpdatePods: which owners an update of a pod wakes.
#[test]
fn update_pods_enqueues_owners() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs1 = new_replica_set("foobar", 1, &[("foo", "bar")]);
    let rs2 = new_replica_set("barfoo", 1, &[("bar", "foo")]);
    h.load(rs1.clone());
    h.load(rs2.clone());
    h.drop_changes();
    let l1 = labels(&[("foo", "bar")]);
    let l2 = labels(&[("bar", "foo")]);
    let now = h.api.now;
    let mut check = |old: Pod, cur: Pod, want: &[&str]| {
        h.ctrl
            .update_pod(&h.api.store, &mut h.queue, &old, &cur, now);
        let mut got = vec![];
        while let Some(k) = h.queue.pop() {
            got.push(k);
        }
        got.sort();
        let mut want: Vec<String> = want.iter().map(|n| format!("{NS}/{n}")).collect();
        want.sort();
        assert_eq!(got, want);
    };
    let base = |labels: &kubeplay::api::Labels, owner: Option<&ReplicaSet>, rv: &str| {
        let mut p = new_pod("pod0", &rs1, "Running", false);
        p.metadata.labels = labels.clone().into();
        p.metadata.owner_references =
            (owner.map(|o| vec![controller_ref(o)]).unwrap_or_default()).into();
        p.metadata.resource_version = rv.into();
        p
    };
    // case 1: a pod with a ControllerRef: its owner.
    check(
        base(&l1, Some(&rs1), "1"),
        base(&l2, Some(&rs1), "2"),
        &["foobar"],
    );
    // case 2: ControllerRef removed (orphan): the label-matching RS.
    check(
        base(&l2, Some(&rs2), "1"),
        base(&l2, None, "2"),
        &["barfoo"],
    );
    // case 3: ControllerRef removed: the former owner and the label-matching RS.
    check(
        base(&l2, Some(&rs1), "1"),
        base(&l2, None, "2"),
        &["barfoo", "foobar"],
    );
    // case 4: ControllerRef kept, labels changed: the owner.
    check(
        base(&l1, Some(&rs2), "1"),
        base(&l2, Some(&rs2), "2"),
        &["barfoo"],
    );
    // Same resourceVersion: a resync, nothing.
    check(base(&l1, Some(&rs1), "3"), base(&l1, Some(&rs1), "3"), &[]);
}

// Port of TestControllerUpdateStatusWithFailure, kubeplay-style: the first status update fails
// (stale resourceVersion → Conflict); the controller re-reads and the retry succeeds.
#[test]
fn update_status_retries_once() {
    use kubeplay::controllers::replicaset::update_replica_set_status;
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    let stored = h.load(rs.clone());
    // Someone else updates the RS after our read.
    let mut newer = stored.clone();
    if let Object::ReplicaSet(r) = &mut newer {
        r.metadata.labels = labels(&[("touched", "yes")]).into();
    }
    h.api.update(newer).unwrap();
    let Object::ReplicaSet(view) = &stored else {
        unreachable!()
    };
    let new_status = kubeplay::api::ReplicaSetStatus {
        replicas: 10,
        ..Default::default()
    };
    let component = "replicaset-controller";
    let mut ctx = kubeplay::controllers::Ctx {
        api: &mut h.api,
        gates: &h.gates,
        queue: &mut h.queue,
        world: &mut h.world,
        actions: &mut h.actions,
        component,
    };
    let updated = update_replica_set_status(&mut ctx, &stored, view, new_status).unwrap();
    assert_eq!(updated.status.replicas, 10);
    assert_eq!(updated.status.observed_generation, 1);
    assert_eq!(updated.metadata.labels, labels(&[("touched", "yes")]));
    let updates = h
        .actions
        .iter()
        .filter(|a| a.verb == "update-status")
        .count();
    assert_eq!(updates, 2);
    // Unchanged status and observed generation: no write at all.
    h.actions.clear();
    let again = h.rs("foobar");
    let mut ctx = kubeplay::controllers::Ctx {
        api: &mut h.api,
        gates: &h.gates,
        queue: &mut h.queue,
        world: &mut h.world,
        actions: &mut h.actions,
        component,
    };
    let st = again.status.clone();
    update_replica_set_status(
        &mut ctx,
        &Object::ReplicaSet(again.clone()),
        &again,
        st.into_inner(),
    )
    .unwrap();
    assert!(h.actions.is_empty());
}

/// Port of doTestControllerBurstReplicas: size up then down in bursts, observing all but one
/// watch event at a time, and check the controller waits for the last one.
fn do_test_controller_burst_replicas(burst: usize, num_replicas: usize) {
    let mut h = Harness::new(ReplicaSetController::new().with_burst_replicas(burst));
    let rs = new_replica_set("foobar", num_replicas as i32, &[("foo", "bar")]);
    h.load(rs.clone());
    h.drop_changes();
    let k = key(&rs);
    let active = |h: &Harness| {
        h.pods()
            .into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .count()
    };
    for replicas in [num_replicas, 0] {
        let mut cur = h.rs("foobar");
        cur.spec.replicas = Some(replicas as i32);
        h.api.update(Object::ReplicaSet(cur)).unwrap();
        h.drop_changes();
        let mut i = 0;
        while i < num_replicas {
            h.actions.clear();
            let before = active(&h);
            h.sync(&k).unwrap();
            let changes = h.api.store.take_changes();
            let pod_changes: Vec<_> = changes.into_iter().filter(|c| c.kind() == "Pod").collect();
            if replicas != 0 {
                let expected = (replicas - before).min(burst);
                assert_eq!(
                    h.pod_actions("create"),
                    expected,
                    "burst {burst}, {num_replicas} replicas"
                );
                assert_eq!(pod_changes.len(), expected);
                // Observe all but one creation: the controller keeps waiting.
                for c in &pod_changes[..expected - 1] {
                    h.ctrl.watch(c, &h.api.store, &mut h.queue, h.api.now);
                }
                let exp = h.ctrl.expectations.get_expectations(&k).unwrap();
                assert_eq!(exp.add, 1, "expectations are wrong {exp:?}");
                h.actions.clear();
                h.sync(&k).unwrap();
                h.drop_changes();
                assert_eq!(h.pod_actions("create"), 0);
                assert_eq!(h.pod_actions("delete"), 0);
                // The last creation wakes it up.
                h.ctrl.watch(
                    &pod_changes[expected - 1],
                    &h.api.store,
                    &mut h.queue,
                    h.api.now,
                );
                i += expected;
            } else {
                let expected = (before - replicas).min(burst);
                assert_eq!(h.pod_actions("delete"), expected);
                let uids = h.ctrl.expectations.get_uids(&k).unwrap().clone();
                assert_eq!(uids.len(), expected);
                for c in &pod_changes[..expected - 1] {
                    h.ctrl.watch(c, &h.api.store, &mut h.queue, h.api.now);
                }
                let exp = h.ctrl.expectations.get_expectations(&k).unwrap();
                assert_eq!(exp.del, 1, "expectations are wrong {exp:?}");
                h.actions.clear();
                h.sync(&k).unwrap();
                h.drop_changes();
                assert_eq!(h.pod_actions("delete"), 0);
                assert_eq!(h.ctrl.expectations.get_uids(&k).unwrap().len(), 1);
                h.ctrl.watch(
                    &pod_changes[expected - 1],
                    &h.api.store,
                    &mut h.queue,
                    h.api.now,
                );
                i += expected;
            }
            assert!(h.ctrl.expectations.satisfied_expectations(&k, h.api.now));
        }
        assert_eq!(active(&h), replicas);
    }
}

// Port of TestControllerBurstReplicas.
#[test]
fn controller_burst_replicas() {
    do_test_controller_burst_replicas(5, 30);
    do_test_controller_burst_replicas(5, 12);
    do_test_controller_burst_replicas(3, 2);
}

// Port of TestDeleteControllerAndExpectations.
#[test]
fn delete_controller_and_expectations() {
    let mut h = Harness::new(ReplicaSetController::new().with_burst_replicas(10));
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    h.load(rs.clone());
    h.drop_changes();
    let k = key(&rs);
    h.sync(&k).unwrap();
    assert_eq!(h.pod_actions("create"), 1);
    assert!(h.ctrl.expectations.get_expectations(&k).is_some());
    h.drop_changes();
    h.api
        .delete("ReplicaSet", NS, "foobar", &DeleteOptions::default())
        .unwrap();
    h.deliver();
    assert!(h.ctrl.expectations.get_expectations(&k).is_none());
    h.actions.clear();
    h.sync(&k).unwrap();
    assert!(h.ctrl.expectations.get_expectations(&k).is_none());
    assert!(h.actions.is_empty(), "{:?}", h.actions);
}

// Port of TestExpectationsOnRecreate: deleting an RS forgets its expectations; a re-created
// RS with the same name starts clean and creates its pods.
#[test]
fn expectations_on_recreate() {
    let mut h = Harness::new(ReplicaSetController::new().with_burst_replicas(100));
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    h.load(rs.clone());
    h.deliver();
    let k = key(&rs);
    assert_eq!(h.drain_queue(), vec![k.clone()]);
    h.sync(&k).unwrap();
    assert_eq!(h.pod_actions("create"), 1);
    assert!(!h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());
    // Drop the pod events and the status update: the RS is deleted before they are observed.
    h.drop_changes();
    h.api
        .delete("ReplicaSet", NS, "foobar", &DeleteOptions::default())
        .unwrap();
    h.deliver();
    assert!(h.ctrl.expectations.get_expectations(&k).is_none());
    assert_eq!(h.drain_queue(), vec![k.clone()]);
    let mut again = rs.clone();
    again.metadata.uid = "uid-foobar-2".into();
    h.load(again);
    h.deliver();
    assert_eq!(h.drain_queue(), vec![k.clone()]);
    h.actions.clear();
    h.sync(&k).unwrap();
    // The old pod belongs to the old UID: the new RS creates its own.
    assert_eq!(h.pod_actions("create"), 1);
    assert!(!h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());
}

// Port of TestOverlappingRSs: a pod with a ControllerRef wakes only its owner.
#[test]
fn overlapping_replica_sets() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut all = vec![];
    for j in 1..10 {
        let rs = new_replica_set(&format!("rs{j}"), 1, &[("foo", "bar")]);
        h.load(rs.clone());
        all.push(rs);
    }
    h.drop_changes();
    let rs = &all[3];
    let pod = new_pod("pod0", rs, "Pending", true);
    h.ctrl.add_pod(&h.api.store, &mut h.queue, &pod);
    assert_eq!(h.drain_queue(), vec![key(rs)]);
    // An orphan matching all of them wakes all of them.
    let orphan = new_pod("pod1", rs, "Pending", false);
    h.ctrl.add_pod(&h.api.store, &mut h.queue, &orphan);
    assert_eq!(h.drain_queue().len(), 9);
}

// Port of TestDeletionTimestamp: a deletion is counted once, whether it shows up as a
// deletionTimestamp update or as a delete.
#[test]
fn deletion_timestamp() {
    let mut h = Harness::new(ReplicaSetController::new().with_burst_replicas(10));
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    h.load(rs.clone());
    h.drop_changes();
    let k = key(&rs);
    let now = h.api.now;
    let mut pod = new_pod("pod0", &rs, "Pending", true);
    pod.metadata.deletion_timestamp = Some(now);
    pod.metadata.resource_version = "1".into();
    h.ctrl
        .expectations
        .expect_deletions(&k, &[pod_key(&pod)], now);

    // A pod added with a deletion timestamp decrements deletions, not creations.
    h.ctrl.add_pod(&h.api.store, &mut h.queue, &pod);
    assert_eq!(h.drain_queue(), vec![k.clone()]);
    assert!(h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());

    // An update from no deletion timestamp to one is a deletion.
    let mut old = new_pod("pod0", &rs, "Pending", true);
    old.metadata.resource_version = "2".into();
    h.ctrl
        .expectations
        .expect_deletions(&k, &[pod_key(&pod)], now);
    h.ctrl
        .update_pod(&h.api.store, &mut h.queue, &old, &pod, now);
    assert_eq!(h.drain_queue(), vec![k.clone()]);
    assert!(h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());

    // Another update of an already-counted pod is not a second deletion.
    let mut second = new_pod("secondPod", &rs, "Pending", true);
    second.metadata.labels = pod.metadata.labels.clone();
    h.ctrl
        .expectations
        .expect_deletions(&k, &[pod_key(&second)], now);
    old.metadata.deletion_timestamp = Some(now);
    h.ctrl
        .update_pod(&h.api.store, &mut h.queue, &old, &pod, now);
    assert!(!h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());
    // Nor is its delete event.
    h.ctrl.delete_pod(&h.api.store, &mut h.queue, &pod);
    assert!(!h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());
    // Deleting the second pod fulfils them.
    h.drain_queue();
    h.ctrl.delete_pod(&h.api.store, &mut h.queue, &second);
    assert_eq!(h.drain_queue(), vec![k.clone()]);
    assert!(h
        .ctrl
        .expectations
        .get_expectations(&k)
        .unwrap()
        .fulfilled());
}

// Port of TestDoNotPatchPodWithOtherControlRef: a matching pod controlled by someone else is
// neither adopted nor counted.
#[test]
fn do_not_patch_pod_with_other_controller_ref() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    let mut pod = new_pod("pod", &rs, "Running", true);
    pod.metadata.owner_references[0].uid = "another-uid".into();
    pod.metadata.owner_references[0].name = "AnotherRS".into();
    h.load(pod);
    h.sync(&key(&rs)).unwrap();
    assert_eq!(h.pod_actions("create"), 2);
    assert_eq!(h.pod_actions("update"), 0);
}

// Adoption and release (PodControllerRefManager.ClaimPods): a matching orphan is adopted with a
// controller reference; an owned pod whose labels no longer match is released.
#[test]
fn claim_pods_adopts_orphans_and_releases_mismatches() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    h.load(new_pod("orphan", &rs, "Running", false));
    let mut stray = new_pod("stray", &rs, "Running", true);
    stray.metadata.labels = labels(&[("foo", "other")]).into();
    h.load(stray);
    h.load(new_pod("mine", &rs, "Running", true));
    h.sync(&key(&rs)).unwrap();
    assert_eq!(h.pod_actions("update"), 2);
    assert_eq!(h.pod_actions("create"), 0, "the adopted orphan counts");
    let orphan = h.api.store.get::<Pod>(NS, "orphan").unwrap();
    let r = orphan.metadata.controller_ref().unwrap();
    assert_eq!(
        (r.kind.as_str(), r.api_version.as_str(), r.uid.as_str()),
        ("ReplicaSet", "apps/v1", "uid-foobar")
    );
    assert_eq!(r.block_owner_deletion, Some(true));
    let stray = h.api.store.get::<Pod>(NS, "stray").unwrap();
    assert!(stray.metadata.owner_references.is_empty());
    assert_eq!(h.rs("foobar").status.replicas, 2);
}

// Port of TestDoNotAdoptOrCreateIfBeingDeleted.
#[test]
fn do_not_adopt_or_create_if_being_deleted() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    rs.metadata.deletion_timestamp = Some(t0());
    rs.metadata.finalizers = vec!["foregroundDeletion".into()].into();
    h.load(rs.clone());
    h.load(new_pod("pod1", &rs, "Running", false));
    h.sync(&key(&rs)).unwrap();
    assert_eq!(h.pod_actions("create"), 0);
    assert_eq!(h.pod_actions("update"), 0);
    assert_eq!(h.pod_actions("delete"), 0);
}

// Port of TestGetPodsToDelete.
#[test]
fn get_pods_to_delete_table() {
    let rs = new_replica_set("foobar", 1, &[("name", "foo")]);
    let now = t0();
    let unscheduled_pending = new_pod("unscheduled-pending-pod", &rs, "Pending", true);
    let mut scheduled_pending = new_pod("scheduled-pending-pod", &rs, "Pending", true);
    scheduled_pending.spec_mut().node_name = "fake-node".into();
    let mut not_ready = new_pod("scheduled-running-not-ready-pod", &rs, "Running", true);
    not_ready.spec_mut().node_name = "fake-node".into();
    not_ready.status.conditions[0].status = "False".into();
    let mut ready1 = new_pod(
        "scheduled-running-ready-pod-on-node-1",
        &rs,
        "Running",
        true,
    );
    ready1.spec_mut().node_name = "fake-node-1".into();
    let mut ready2 = new_pod(
        "scheduled-running-ready-pod-on-node-2",
        &rs,
        "Running",
        true,
    );
    ready2.spec_mut().node_name = "fake-node-2".into();

    // (name, pods, related (None = pods), diff, expected)
    type Case<'a> = (
        &'a str,
        Vec<&'a Pod>,
        Option<Vec<&'a Pod>>,
        usize,
        Vec<&'a Pod>,
    );
    let cases: Vec<Case> = vec![
        ("len(pods) = 0", vec![], None, 0, vec![]),
        (
            "diff = len(pods)",
            vec![&not_ready, &ready1],
            None,
            2,
            vec![&not_ready, &ready1],
        ),
        (
            "diff < len(pods)",
            vec![&ready1, &not_ready],
            None,
            1,
            vec![&not_ready],
        ),
        (
            "various pod phases and conditions, diff = len(pods)",
            vec![
                &ready1,
                &ready1,
                &ready2,
                &not_ready,
                &scheduled_pending,
                &unscheduled_pending,
            ],
            None,
            6,
            vec![
                &ready1,
                &ready1,
                &ready2,
                &not_ready,
                &scheduled_pending,
                &unscheduled_pending,
            ],
        ),
        (
            "various pod phases and conditions, diff = len(pods), relatedPods empty",
            vec![
                &ready1,
                &ready1,
                &ready2,
                &not_ready,
                &scheduled_pending,
                &unscheduled_pending,
            ],
            Some(vec![]),
            6,
            vec![
                &ready1,
                &ready1,
                &ready2,
                &not_ready,
                &scheduled_pending,
                &unscheduled_pending,
            ],
        ),
        (
            "scheduled vs unscheduled, diff < len(pods)",
            vec![&scheduled_pending, &unscheduled_pending],
            None,
            1,
            vec![&unscheduled_pending],
        ),
        (
            "ready vs not-ready, diff < len(pods)",
            vec![&ready1, &not_ready, &not_ready],
            None,
            2,
            vec![&not_ready, &not_ready],
        ),
        (
            "ready and colocated with another ready pod vs not colocated, diff < len(pods)",
            vec![&ready1, &ready2],
            Some(vec![&ready1, &ready2, &ready2]),
            1,
            vec![&ready2],
        ),
        (
            "pending vs running, diff < len(pods)",
            vec![&scheduled_pending, &not_ready],
            None,
            1,
            vec![&scheduled_pending],
        ),
        (
            "various pod phases and conditions, diff < len(pods)",
            vec![
                &ready1,
                &ready2,
                &not_ready,
                &scheduled_pending,
                &unscheduled_pending,
            ],
            None,
            3,
            vec![&unscheduled_pending, &scheduled_pending, &not_ready],
        ),
    ];
    for (name, pods, related, diff, want) in cases {
        let related = related.unwrap_or_else(|| pods.clone());
        let got = get_pods_to_delete(&pods, &related, diff, now, ScaleDownGates::default());
        assert_eq!(names(&got), names(&want), "{name}");
    }
}

// The related-pod ranking (getPodsRankedByRelatedPodsOnSameNode, the example of seed 001):
// node-1 runs app, db, db; node-2 runs app, app → the app pod on node-1 has rank 3, the two on
// node-2 rank 2, so with everything else equal the node-1 pod goes first. Inactive related pods
// do not count.
#[test]
fn related_pods_rank_by_node() {
    let app = new_replica_set("app", 3, &[("app", "app")]);
    let db = new_replica_set("db", 2, &[("app", "db")]);
    let on = |name: &str, rs: &ReplicaSet, node: &str| {
        let mut p = new_pod(name, rs, "Running", true);
        p.spec_mut().node_name = node.into();
        p
    };
    let a1 = on("app-1", &app, "node-1");
    let a2 = on("app-2", &app, "node-2");
    let a3 = on("app-3", &app, "node-2");
    let d1 = on("db-1", &db, "node-1");
    let d2 = on("db-2", &db, "node-1");
    let mut dead = on("db-dead", &db, "node-2");
    dead.status.phase = "Failed".into();
    let pods = vec![&a2, &a3, &a1];
    let related = vec![&a1, &a2, &a3, &d1, &d2, &dead];
    let ranked = kubeplay::controllers::replicaset::get_pods_ranked_by_related_pods_on_same_node(
        &pods,
        &related,
        t0(),
        ScaleDownGates::default(),
    );
    assert_eq!(ranked.rank, vec![2, 2, 3]);
    let got = get_pods_to_delete(&pods, &related, 1, t0(), ScaleDownGates::default());
    assert_eq!(names(&got), vec!["app-1"]);
    // Without the db pods (a standalone ReplicaSet has no related pods: ranks all 0), the
    // stable order keeps the input order.
    let got = get_pods_to_delete(&pods, &[], 1, t0(), ScaleDownGates::default());
    assert_eq!(names(&got), vec!["app-2"]);
}

// Port of TestGetPodKeys.
#[test]
fn pod_keys() {
    let rs = new_replica_set("foobar", 1, &[("name", "foo")]);
    let p1 = new_pod("pod1", &rs, "Running", true);
    let p2 = new_pod("pod2", &rs, "Running", true);
    assert!(get_pod_keys(&[]).is_empty());
    assert_eq!(
        get_pod_keys(&[&p1, &p2]),
        vec!["default/pod1", "default/pod2"]
    );
}

// Scale-down through a sync: pod-deletion-cost picks the victims, events say which.
#[test]
fn scale_down_deletes_cheapest_pods_with_events() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("web", 2, &[("app", "web")]);
    h.load(rs.clone());
    for (i, cost) in ["5", "-5", "0", "100"].iter().enumerate() {
        let mut p = new_pod(&format!("web-{i}"), &rs, "Running", true);
        p.spec_mut().node_name = format!("node-{i}");
        p.metadata.annotations.insert(
            "controller.kubernetes.io/pod-deletion-cost".into(),
            cost.to_string(),
        );
        h.load(p);
    }
    h.sync(&key(&rs)).unwrap();
    let deleted: Vec<String> = h
        .actions
        .iter()
        .filter(|a| a.verb == "delete")
        .map(|a| a.name.clone())
        .collect();
    assert_eq!(deleted, vec!["web-1", "web-2"]);
    let msgs: Vec<&str> = h
        .api
        .events
        .iter()
        .filter(|e| e.reason == "SuccessfulDelete")
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(msgs, vec!["Deleted pod: web-1", "Deleted pod: web-2"]);
    // Scheduled pods terminate gracefully: they are being deleted, not gone.
    let p = h.api.store.get::<Pod>(NS, "web-1").unwrap();
    assert!(p.metadata.deletion_timestamp.is_some());
    let k = key(&rs);
    assert_eq!(h.ctrl.expectations.get_expectations(&k).unwrap().del, 2);
    // The deletionTimestamp updates count as the deletions: expectations are met at once.
    h.deliver();
    assert!(h.ctrl.expectations.satisfied_expectations(&k, h.api.now));
    // With PodDeletionCost off, the annotation is ignored: ranks and times tie, input order.
    let mut h2 = Harness::new(ReplicaSetController::new());
    h2.gates.set("PodDeletionCost", false);
    h2.load(rs.clone());
    for i in 0..4 {
        let mut p = new_pod(&format!("web-{i}"), &rs, "Running", true);
        p.spec_mut().node_name = format!("node-{i}");
        p.metadata.annotations.insert(
            "controller.kubernetes.io/pod-deletion-cost".into(),
            ["5", "-5", "0", "100"][i].to_string(),
        );
        h2.load(p);
    }
    h2.sync(&key(&rs)).unwrap();
    let deleted: Vec<String> = h2
        .actions
        .iter()
        .filter(|a| a.verb == "delete")
        .map(|a| a.name.clone())
        .collect();
    assert_eq!(deleted, vec!["web-0", "web-1"]);
}

// The ReplicationController runs through the same controller: pods owned by a v1
// ReplicationController, events from replication-controller, status on the RC.
#[test]
fn replication_controller_creates_pods() {
    let mut h = Harness::new(ReplicaSetController::new_replication_controller());
    let mut rc = ReplicationController::default();
    rc.metadata.name = "frontend".into();
    rc.metadata.namespace = NS.into();
    rc.spec.replicas = Some(3);
    let mut tpl = kubeplay::api::PodTemplateSpec::default();
    tpl.metadata.labels = labels(&[("app", "frontend")]).into();
    tpl.spec_mut().containers = vec![kubeplay::api::Container {
        name: "php".into(),
        image: "php:8".into(),
        ..Default::default()
    }];
    rc.spec.template = Some(tpl);
    h.load(rc);
    // A ReplicaSet with the same labels is not this controller's business.
    let rs = new_replica_set("frontend-rs", 1, &[("app", "frontend")]);
    h.load(rs);
    h.deliver();
    assert_eq!(h.drain_queue(), vec!["default/frontend".to_string()]);
    h.sync("default/frontend").unwrap();
    assert_eq!(h.pod_actions("create"), 3);
    let pods = h.pods();
    assert_eq!(pods.len(), 3);
    for p in &pods {
        assert!(p.metadata.name.starts_with("frontend-"));
        let r = p.metadata.controller_ref().unwrap();
        assert_eq!(
            (r.kind.as_str(), r.api_version.as_str()),
            ("ReplicationController", "v1")
        );
        assert_eq!(p.metadata.labels, labels(&[("app", "frontend")]));
    }
    let ev = &h.api.events[0];
    assert_eq!(
        (ev.kind.as_str(), ev.reason.as_str(), ev.source.as_str()),
        (
            "ReplicationController",
            "SuccessfulCreate",
            "replication-controller"
        )
    );
    let rc = h
        .api
        .store
        .get::<ReplicationController>(NS, "frontend")
        .unwrap();
    assert_eq!(
        rc.status.replicas, 0,
        "pods listed before they were created"
    );
    assert_eq!(rc.status.observed_generation, 1);
    // The pods' add events are creations observed for the RC.
    h.deliver();
    assert!(h
        .ctrl
        .expectations
        .satisfied_expectations("default/frontend", h.api.now));
    h.drain_queue();
    h.sync("default/frontend").unwrap();
    let rc = h
        .api
        .store
        .get::<ReplicationController>(NS, "frontend")
        .unwrap();
    assert_eq!(
        (rc.status.replicas, rc.status.fully_labeled_replicas),
        (3, 3)
    );
    // The RS ignored by this controller still wants its own pods (it matched nothing owned).
    assert_eq!(h.api.store.list::<Pod>(Some(NS)).count(), 3);
}

// DeploymentReplicaSetTerminatingReplicas (alpha, off by default in 1.34): terminating pods are
// reported only when the gate is on.
#[test]
fn terminating_replicas_gate() {
    for gate in [false, true] {
        let mut h = Harness::new(ReplicaSetController::new());
        h.gates.set("DeploymentReplicaSetTerminatingReplicas", gate);
        let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
        h.load(rs.clone());
        h.load(new_pod("live", &rs, "Running", true));
        let mut dying = new_pod("dying", &rs, "Running", true);
        dying.metadata.deletion_timestamp = Some(t0());
        dying.metadata.finalizers = vec!["example.com/keep".into()].into();
        h.load(dying);
        h.sync(&key(&rs)).unwrap();
        let st = h.rs("foobar").status;
        assert_eq!(st.replicas, 1);
        assert_eq!(st.terminating_replicas, gate.then_some(1));
        assert_eq!(h.pod_actions("create"), 0);
    }
}

// Port of TestDeletePodsAllowsMissing (pkg/controller/controller_utils_test.go): deleting a pod
// that is already gone returns NotFound, and records no event.
#[test]
fn delete_pods_allows_missing() {
    use kubeplay::controllers::replicaset::replica_set::delete_pod;
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    let owner = h.load(rs);
    let mut ctx = kubeplay::controllers::Ctx {
        api: &mut h.api,
        gates: &h.gates,
        queue: &mut h.queue,
        world: &mut h.world,
        actions: &mut h.actions,
        component: "replicaset-controller",
    };
    let err = delete_pod(&mut ctx, &owner, NS, "podName").unwrap_err();
    assert!(err.is_not_found());
    assert_eq!(err.message, "pods \"podName\" not found");
    assert!(h.api.events.is_empty());
}

// Ports of TestWatchControllers and TestWatchPods: an added ReplicaSet, and an update of a pod
// it controls, reach the queue with the ReplicaSet's key.
#[test]
fn watch_controllers_and_pods() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foo", 1, &[("foo", "bar")]);
    h.load(rs.clone());
    h.deliver();
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
    let pod = h.load(new_pod("pod0", &rs, "Running", true));
    h.deliver();
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
    let mut failed = pod.clone();
    if let Object::Pod(p) = &mut failed {
        p.status.phase = "Failed".into();
    }
    h.api.update_status(failed).unwrap();
    h.deliver();
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
    // Resync: every ReplicaSet is listed.
    h.ctrl.resync_all(&h.api.store, &mut h.queue);
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
}

// updatePod: a pod turning ready wakes its owner now and again after minReadySeconds (+1 s
// against clock skew, as upstream).
#[test]
fn pod_becoming_ready_requeues_after_min_ready_seconds() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    rs.spec.min_ready_seconds = 5;
    h.load(rs.clone());
    h.drop_changes();
    let mut old = new_pod("pod0", &rs, "Pending", true);
    old.metadata.resource_version = "1".into();
    let mut cur = new_pod("pod0", &rs, "Running", true);
    cur.metadata.resource_version = "2".into();
    let now = h.api.now;
    h.ctrl
        .update_pod(&h.api.store, &mut h.queue, &old, &cur, now);
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
    assert_eq!(
        h.queue.next_due(),
        Some(now + kubeplay::api::Duration::from_secs(6))
    );
    // Ready → ready (another status change) does not requeue again.
    let mut again = cur.clone();
    again.metadata.resource_version = "3".into();
    let mut q = kubeplay::queue::WorkQueue::new();
    h.ctrl.update_pod(&h.api.store, &mut q, &cur, &again, now);
    assert_eq!(q.next_due(), None);
}

/// `validateSyncReplicaSet(fakePodControl, creates, deletes, patches)`: pod calls recorded by the
/// sync (adoptions and releases are pod updates here).
fn assert_pod_calls(h: &Harness, creates: usize, deletes: usize, patches: usize) {
    assert_eq!(
        (
            h.pod_actions("create"),
            h.pod_actions("delete"),
            h.pod_actions("update")
        ),
        (creates, deletes, patches),
        "(creates, deletes, patches)"
    );
}

fn status_updates(h: &Harness) -> usize {
    h.actions
        .iter()
        .filter(|a| a.kind == "ReplicaSet" && a.verb == "update-status")
        .count()
}

// Port of TestSyncReplicaSetDeletes (pkg/controller/replicaset/replica_set_test.go, before
// 1.9): 2 running pods and a ReplicaSet with 1 replica → one pod delete.
#[test]
fn sync_replica_set_deletes() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 1, &[("foo", "bar")]);
    h.load(rs.clone());
    for i in 0..2 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Running", true));
    }
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 0, 1, 0);
}

// Port of TestSyncReplicaSetCreates (pkg/controller/replicaset/replica_set_test.go, before
// 1.9): a ReplicaSet with 2 replicas and no pods → two creates.
#[test]
fn sync_replica_set_creates() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 2, 0, 0);
}

// Port of TestStatusUpdatesWithoutReplicasChange (pkg/controller/replicaset/replica_set_test.go,
// before 1.9): in steady state no status is written; after a generation bump exactly one
// status update carries the new observedGeneration.
#[test]
fn status_updates_without_replicas_change() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 5, &[("foo", "bar")]);
    rs.status = (kubeplay::api::ReplicaSetStatus {
        replicas: 5,
        ready_replicas: 5,
        available_replicas: 5,
        observed_generation: 1,
        // DeploymentReplicaSetTerminatingReplicas is on by default: part of the steady state.
        terminating_replicas: Some(0),
        ..Default::default()
    })
    .into();
    h.load(rs.clone());
    for i in 0..5 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Running", true));
    }
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 0, 0, 0);
    assert_eq!(status_updates(&h), 0, "no write in steady state");

    // rs.Generation = rs.Generation + 1 (upstream edits the lister's copy).
    let Some(Object::ReplicaSet(mut stored)) = h
        .api
        .store
        .get_ref(&kubeplay::store::ObjectRef::new("ReplicaSet", NS, "foobar"))
        .map(|o| (*o).clone())
    else {
        unreachable!()
    };
    stored.metadata.generation = 2;
    h.api.store.put(Object::ReplicaSet(stored));
    h.actions.clear();
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 0, 0, 0);
    assert_eq!(status_updates(&h), 1);
    let status = h.rs("foobar").status;
    assert_eq!(
        (
            status.replicas,
            status.ready_replicas,
            status.available_replicas,
            status.observed_generation
        ),
        (5, 5, 5, 2)
    );
}

// Port of TestControllerUpdateReplicas (pkg/controller/replicaset/replica_set_test.go, before
// 1.9): status.replicas goes 2 → 4 (the pods listed) although one pod is created, only the
// pods with the template's extra labels are fully labeled, and observedGeneration is written.
#[test]
fn controller_update_replicas() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 5, &[("foo", "bar")]);
    let extra = labels(&[("foo", "bar"), ("extraKey", "extraValue")]);
    rs.spec.template_mut().metadata.labels = extra.clone().into();
    rs.status = (kubeplay::api::ReplicaSetStatus {
        replicas: 2,
        fully_labeled_replicas: 6,
        ready_replicas: 2,
        available_replicas: 2,
        observed_generation: 0,
        ..Default::default()
    })
    .into();
    h.load(rs.clone());
    for i in 0..2 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Running", true));
        // Upstream's "podWithExtraLabel<i>": pod names must be lowercase RFC 1123 here.
        let mut p = new_pod(&format!("pod-with-extra-label{i}"), &rs, "Running", true);
        p.metadata.labels = extra.clone().into();
        h.load(p);
    }
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 1, 0, 0);
    let s = h.rs("foobar").status;
    assert_eq!(
        (
            s.replicas,
            s.fully_labeled_replicas,
            s.ready_replicas,
            s.available_replicas,
            s.observed_generation
        ),
        (4, 2, 4, 4, 1)
    );
}

// Port of TestReadyReplicas (pkg/controller/replicaset/replica_set_test.go, before 1.9).
// Upstream adds 2 pending pods and then 2 running pods under the same names, which replace them
// in the informer; here the stored pending pods turn Running and Ready. ReadyReplicas 0 → 2.
#[test]
fn ready_replicas() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    rs.status = (kubeplay::api::ReplicaSetStatus {
        replicas: 2,
        observed_generation: 1,
        ..Default::default()
    })
    .into();
    h.load(rs.clone());
    for i in 0..2 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Pending", true));
    }
    for i in 0..2 {
        let running = new_pod(&format!("pod{i}"), &rs, "Running", true);
        let mut stored = h
            .api
            .store
            .get::<Pod>(NS, &format!("pod{i}"))
            .unwrap()
            .clone();
        stored.status = running.status;
        h.api.update_status(Object::Pod(stored)).unwrap();
    }
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 0, 0, 0);
    let s = h.rs("foobar").status;
    assert_eq!(
        (
            s.replicas,
            s.ready_replicas,
            s.available_replicas,
            s.observed_generation
        ),
        (2, 2, 2, 1)
    );
}

// Port of TestAvailableReplicas (pkg/controller/replicaset/replica_set_test.go, before 1.9):
// minReadySeconds 15; one pod ready for 20 s, the other ready just now → 2 ready, 1 available.
#[test]
fn available_replicas() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    rs.status = (kubeplay::api::ReplicaSetStatus {
        replicas: 2,
        observed_generation: 1,
        ..Default::default()
    })
    .into();
    rs.spec.min_ready_seconds = 15;
    h.load(rs.clone());
    let now = h.api.now;
    let mut pod = new_pod("pod", &rs, "Running", true);
    pod.status.conditions[0].last_transition_time =
        Some(now - kubeplay::api::Duration::from_secs(20));
    h.load(pod);
    let mut other = new_pod(
        "other-pod", /* upstream's "otherPod" */
        &rs,
        "Running",
        true,
    );
    other.status.conditions[0].last_transition_time = Some(now);
    h.load(other);
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 0, 0, 0);
    let s = h.rs("foobar").status;
    assert_eq!(
        (
            s.replicas,
            s.ready_replicas,
            s.available_replicas,
            s.observed_generation
        ),
        (2, 2, 1, 1)
    );
}

// Port of TestPatchPodWithOtherOwnerRef (pkg/controller/replicaset/replica_set_test.go, before
// 1.9): a matching pod owned (not controlled) by a Job is adopted (1 patch) and 1 pod created.
#[test]
fn patch_pod_with_other_owner_ref() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    let mut pod = new_pod("pod", &rs, "Running", false);
    pod.metadata.owner_references = vec![kubeplay::api::OwnerReference {
        api_version: "batch/v1".into(),
        kind: "Job".into(),
        name: "Job".into(),
        uid: "job-uid".into(),
        controller: None,
        block_owner_deletion: None,
    }]
    .into();
    h.load(pod);
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 1, 0, 1);
    let pod = h.api.store.get::<Pod>(NS, "pod").unwrap();
    let uids: Vec<&str> = pod
        .metadata
        .owner_references
        .iter()
        .map(|r| r.uid.as_str())
        .collect();
    assert_eq!(
        uids,
        vec!["job-uid", "uid-foobar"],
        "the Job reference is kept"
    );
    assert_eq!(pod.metadata.controller_ref().unwrap().uid, "uid-foobar");
}

// Port of TestPatchPodWithCorrectOwnerRef (pkg/controller/replicaset/replica_set_test.go,
// before 1.9): a matching pod with a non-controller reference to the ReplicaSet is adopted
// (1 patch, which leaves one reference, now the controller) and 1 pod created.
#[test]
fn patch_pod_with_correct_owner_ref() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    let mut pod = new_pod("pod", &rs, "Running", false);
    let mut r = controller_ref(&rs);
    r.controller = None;
    r.block_owner_deletion = None;
    pod.metadata.owner_references = vec![r].into();
    h.load(pod);
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 1, 0, 1);
    let pod = h.api.store.get::<Pod>(NS, "pod").unwrap();
    assert_eq!(pod.metadata.owner_references.len(), 1);
    assert_eq!(pod.metadata.owner_references[0].controller, Some(true));
}

// Port of TestPatchExtraPodsThenDelete (pkg/controller/replicaset/replica_set_test.go, before
// 1.9): three matching orphans for 2 replicas → 3 adoptions, then 1 delete.
#[test]
fn patch_extra_pods_then_delete() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    for i in 1..=3 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Running", false));
    }
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 0, 1, 3);
}

// Port of TestUpdateLabelsRemoveControllerRef (pkg/controller/replicaset/replica_set_test.go,
// before 1.9): an owned pod whose labels are reset wakes its owner, which releases it (1 patch)
// and creates 2 pods.
#[test]
fn update_labels_remove_controller_ref() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    h.load(rs.clone());
    h.drop_changes();
    let mut pod = new_pod("pod", &rs, "Running", true);
    pod.metadata.resource_version = "1".into();
    let mut updated = pod.clone();
    updated.metadata.labels = Default::default();
    updated.metadata.resource_version = "2".into();
    // The informer updates its store before calling the handler.
    h.load(updated.clone());
    h.drop_changes();
    let now = h.api.now;
    h.ctrl
        .update_pod(&h.api.store, &mut h.queue, &pod, &updated, now);
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 2, 0, 1);
    let pod = h.api.store.get::<Pod>(NS, "pod").unwrap();
    assert!(pod.metadata.owner_references.is_empty());
}

// Port of TestUpdateSelectorControllerRef (pkg/controller/replicaset/replica_set_test.go,
// before 1.9): a selector that no longer matches the owned pods → they are released (2
// patches) and 2 pods created. The selector of an apps/v1 ReplicaSet is immutable through the
// API; like upstream's informer, the new object is put into the store directly.
#[test]
fn update_selector_controller_ref() {
    let mut h = Harness::new(ReplicaSetController::new());
    let rs = new_replica_set("foobar", 2, &[("foo", "bar")]);
    let stored = h.load(rs.clone());
    for i in 0..2 {
        h.load(new_pod(&format!("pod{i}"), &rs, "Running", true));
    }
    let Object::ReplicaSet(old) = stored else {
        unreachable!()
    };
    let mut updated = old.clone();
    updated.spec.selector = Some(kubeplay::api::LabelSelector::from_labels(&labels(&[(
        "foo", "baz",
    )])));
    updated.spec.template_mut().metadata.labels =
        labels(&[("foo", "baz"), ("type", "production")]).into();
    h.api.store.put(Object::ReplicaSet(updated.clone()));
    h.drop_changes();
    h.ctrl.update_rs(&mut h.queue, &old, &updated);
    assert_eq!(h.drain_queue(), vec![key(&rs)]);
    h.sync(&key(&rs)).unwrap();
    assert_pod_calls(&h, 2, 0, 2);
    for i in 0..2 {
        let p = h.api.store.get::<Pod>(NS, &format!("pod{i}")).unwrap();
        assert!(p.metadata.owner_references.is_empty());
    }
}

// Ports of TestGetCondition, TestSetCondition and TestRemoveCondition
// (pkg/controller/replicaset/replica_set_test.go).
#[test]
fn replica_set_conditions() {
    use kubeplay::api::{ReplicaSetCondition, ReplicaSetStatus};
    use kubeplay::controllers::replicaset::replica_set_utils::{
        get_condition, remove_condition, set_condition,
    };
    let cond = |t: &str, reason: &str| ReplicaSetCondition {
        type_: t.into(),
        status: "True".into(),
        reason: reason.into(),
        ..Default::default()
    };
    let image_pull_back_off = || cond("ImagePullBackOff", "NonExistentImage");
    let replica_failure = || cond("ReplicaFailure", "OtherFailure");
    let replica_failure2 = || cond("ReplicaFailure", "AnotherFailure");
    let status = |conds: Vec<ReplicaSetCondition>| ReplicaSetStatus {
        conditions: conds,
        ..Default::default()
    };

    // TestGetCondition: (condition type, exists).
    let example = status(vec![replica_failure()]);
    for (t, exists) in [("ReplicaFailure", true), ("ImagePullBackOff", false)] {
        assert_eq!(get_condition(&example, t).is_some(), exists, "{t}");
    }

    // TestSetCondition: (name, status, condition, expected).
    for (name, mut st, c, want) in [
        (
            "set for the first time",
            status(vec![]),
            replica_failure(),
            status(vec![replica_failure()]),
        ),
        (
            "simple set",
            status(vec![image_pull_back_off()]),
            replica_failure(),
            status(vec![image_pull_back_off(), replica_failure()]),
        ),
        (
            "overwrite",
            status(vec![replica_failure()]),
            replica_failure2(),
            status(vec![replica_failure2()]),
        ),
    ] {
        set_condition(&mut st, c);
        assert_eq!(st, want, "{name}");
    }

    // TestRemoveCondition: (name, status, condition type, expected).
    for (name, mut st, t, want) in [
        (
            "remove from empty status",
            status(vec![]),
            "ReplicaFailure",
            status(vec![]),
        ),
        (
            "simple remove",
            status(vec![replica_failure()]),
            "ReplicaFailure",
            status(vec![]),
        ),
        (
            "doesn't remove anything",
            status(vec![replica_failure()]),
            "ImagePullBackOff",
            status(vec![replica_failure()]),
        ),
    ] {
        remove_condition(&mut st, t);
        assert_eq!(st, want, "{name}");
    }
}

// Not ported from replica_set_test.go, as they need an injected failure or an informer race:
// TestControllerUpdateRequeue (a status update failing with an injected server error),
// TestPatchPodFails (injected patch errors), TestRSSyncExpectations (a pod added to the lister
// from inside the expectations check), TestDoNotAdoptOrCreateIfBeingDeletedRace (the lister and
// a live GET disagreeing about deletionTimestamp; kubeplay has one store).
