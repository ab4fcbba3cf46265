//! Go's fixed-width integers wrap where Rust's debug builds would panic: the replica and
//! revision sums of the controllers' util packages follow Go (int32 / int64 two's complement),
//! so extreme stored values never abort the simulation.

use kubeplay::api::{ControllerRevision, ReplicaSet};
use kubeplay::controllers::deployment::util::{
    get_actual_replica_count_for_replica_sets, get_available_replica_count_for_replica_sets,
    get_ready_replica_count_for_replica_sets, get_terminating_replica_count_for_replica_sets,
};
use kubeplay::controllers::history::next_revision;

fn rs(replicas: i32) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.status.replicas = replicas;
    rs.status.ready_replicas = replicas;
    rs.status.available_replicas = replicas;
    rs.status.terminating_replicas = Some(replicas);
    rs
}

#[test]
fn replica_sums_wrap_as_int32() {
    let rss = [rs(i32::MAX), rs(1)];
    assert_eq!(get_actual_replica_count_for_replica_sets(&rss), i32::MIN);
    assert_eq!(get_ready_replica_count_for_replica_sets(&rss), i32::MIN);
    assert_eq!(get_available_replica_count_for_replica_sets(&rss), i32::MIN);
    assert_eq!(
        get_terminating_replica_count_for_replica_sets(&rss),
        Some(i32::MIN)
    );
    assert_eq!(
        get_actual_replica_count_for_replica_sets(&[rs(2), rs(3)]),
        5
    );
}

#[test]
fn next_revision_wraps_as_int64() {
    let rev = |revision| ControllerRevision {
        revision,
        ..Default::default()
    };
    assert_eq!(next_revision(&[rev(i64::MAX)]), i64::MIN);
    assert_eq!(next_revision(&[rev(41)]), 42);
    assert_eq!(next_revision(&[]), 1);
}
