//! Upstream "apps" tests (ReplicaSet, Deployment, controller_utils) that were not ported yet,
//! against kubeplay's public controllers and helpers.

mod replicaset_support;

use kubeplay::api::{Duration, Pod, Time};
use kubeplay::controllers::replicaset::ReplicaSetController;
use replicaset_support::*;

fn ready_since(mut p: Pod, t: Time) -> Pod {
    p.status.conditions[0].last_transition_time = Some(t);
    p
}

// Port of TestReplicaSetAvailabilityCheck (pkg/controller/replicaset/replica_set_test.go,
// kubernetes#132121): with minReadySeconds 5, three ready pods (ready now, 2 s and 4.3 s ago) and
// a pending one, the status reports 3 ready and 0 available, and the ReplicaSet is requeued for
// the moment the oldest ready pod becomes available (0.7 s), not after minReadySeconds.
#[test]
fn replica_set_availability_check() {
    let mut h = Harness::new(ReplicaSetController::new());
    let mut rs = new_replica_set("foobar", 4, &[("foo", "bar")]);
    rs.spec.min_ready_seconds = 5;
    h.load(rs.clone());
    let now = h.api.now;
    h.load(new_pod("foobar-1", &rs, "Pending", true));
    h.load(ready_since(new_pod("foobar-2", &rs, "Running", true), now));
    h.load(ready_since(
        new_pod("foobar-3", &rs, "Running", true),
        now - Duration::from_secs(2),
    ));
    h.load(ready_since(
        new_pod("foobar-4", &rs, "Running", true),
        now - Duration::from_millis(4300),
    ));
    h.drop_changes();

    h.sync(&key(&rs)).unwrap();

    // Only the ReplicaSet's status is written: no pod is created or deleted.
    assert_eq!((h.pod_actions("create"), h.pod_actions("delete")), (0, 0));
    assert!(
        h.actions.iter().all(|a| a.kind == "ReplicaSet"),
        "{:?}",
        h.actions.iter().map(|a| a.verb).collect::<Vec<_>>()
    );
    let status = h.rs("foobar").status;
    assert_eq!((status.ready_replicas, status.available_replicas), (3, 0));
    // Nothing is due now; the next availability check is due in 0.7 s.
    assert!(h.drain_queue().is_empty());
    assert_eq!(
        h.queue.next_due(),
        Some(now + Duration::from_millis(700)),
        "requeue time"
    );
}
