//! Ports of `pkg/controller/statefulset/stateful_set_status_updater_test.go`:
//! `updateStatefulSetStatus` writing a set's status through kubeplay's API server (upstream
//! drives `realStatefulSetStatusUpdater` against a fake clientset with reactors). As in
//! `pod_control_tests.rs`, a failure upstream injects with a reactor ("API server down") is
//! produced by a real API error on the same path: here, a set missing from the store.

use super::stateful_set_control::update_stateful_set_status;
use super::tests::new_stateful_set;
use crate::api::{Object, StatefulSet, StatefulSetStatus};

use super::pod_control_tests::Env;

/// The set-level helpers these tests add to the pod-control tests' environment.
impl Env {
    /// `newStatefulSet(3)` in the store, as the informer would hold it.
    fn load_set(&mut self) -> StatefulSet {
        match self
            .api
            .load(Object::StatefulSet(new_stateful_set(3)))
            .unwrap()
        {
            Object::StatefulSet(s) => s,
            o => panic!("not a StatefulSet: {o:?}"),
        }
    }

    fn stored(&self) -> StatefulSet {
        self.api
            .store
            .get::<StatefulSet>("default", "foo")
            .cloned()
            .expect("stored set")
    }
}

fn status(observed_generation: i64, replicas: i32) -> StatefulSetStatus {
    StatefulSetStatus {
        observed_generation,
        replicas,
        ..Default::default()
    }
}

// Upstream: TestStatefulSetUpdaterUpdatesSetStatus: a successful write returns no error and the
// set's status carries the new replicas.
#[test]
fn updater_updates_set_status() {
    let mut env = Env::new();
    let set = env.load_set();
    let mut st = status(1, 2);
    update_stateful_set_status(&mut env.ctx(), &set, &mut st)
        .expect("Error returned on successful status update");
    assert_eq!(env.stored().status.replicas, 2);
}

// Upstream: TestStatefulSetStatusUpdaterUpdatesObservedGeneration: the written status carries
// observedGeneration 3.
#[test]
fn updater_updates_observed_generation() {
    let mut env = Env::new();
    let set = env.load_set();
    let mut st = status(3, 2);
    update_stateful_set_status(&mut env.ctx(), &set, &mut st)
        .expect("Error returned on successful status update");
    assert_eq!(
        env.stored().status.observed_generation,
        3,
        "expected observedGeneration to be synced with generation"
    );
}

// Upstream: TestStatefulSetStatusUpdaterUpdateReplicasFailure: a failed write is returned as an
// error (here the set is not in the store, so the write fails with NotFound).
#[test]
fn updater_update_replicas_failure() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let mut st = status(3, 2);
    assert!(
        update_stateful_set_status(&mut env.ctx(), &set, &mut st).is_err(),
        "Failed update did not return error"
    );
}

// Upstream: TestStatefulSetStatusUpdaterGetAvailableReplicas writes availableReplicas 3 with
// replicas 2 and expects it kept; upstream's fake clientset takes any status, but a real API
// server refuses it (ValidateStatefulSetStatus: availableReplicas "cannot be greater than
// status.replicas"), so here the write fails and the stored status is unchanged.
#[test]
fn updater_available_replicas_beyond_replicas_is_refused_by_the_api_server() {
    let mut env = Env::new();
    let set = env.load_set();
    let mut st = StatefulSetStatus {
        available_replicas: 3,
        ..status(1, 2)
    };
    let err = update_stateful_set_status(&mut env.ctx(), &set, &mut st).unwrap_err();
    assert!(
        err.causes
            .iter()
            .any(|c| c.field == "status.availableReplicas"),
        "{err:?}"
    );
    assert_eq!(env.stored().status.available_replicas, 0);
}

// Not ported:
// - TestStatefulSetStatusUpdaterUpdateReplicasConflict /
//   TestStatefulSetStatusUpdaterUpdateReplicasConflictFailure: the retry on an
//   update Conflict; kubeplay's controller writes carry no resourceVersion, so a status write
//   never conflicts.
// - TestStatefulSetUpdaterUpdateExceedDeadline: request contexts and deadlines are not modelled.
