//! StatefulSet ordinal arithmetic checked against upstream source
//! (pkg/controller/statefulset/stateful_set_utils.go): `getEndOrdinal` and
//! `newVersionedStatefulSetPod` compute in Go's 64-bit `int`, so large `ordinals.start`,
//! replicas or partitions neither overflow nor panic.

use super::stateful_set_utils::*;
use crate::api::{Pod, RollingUpdateStatefulSetStrategy, StatefulSet, StatefulSetOrdinals};
use crate::features::FeatureGates;

fn set(start: i32, replicas: i32) -> StatefulSet {
    let mut s = StatefulSet::default();
    s.metadata.name = "web".into();
    s.metadata.namespace = "default".into();
    s.spec.replicas = Some(replicas);
    s.spec.ordinals = Some(StatefulSetOrdinals { start });
    s.spec.update_strategy.type_ = "RollingUpdate".into();
    s
}

fn pod(name: &str) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p
}

#[test]
fn ordinal_range_near_max_int32() {
    let gates = FeatureGates::default();
    let s = set(i32::MAX - 1, 5);
    assert_eq!(get_end_ordinal(&s, &gates), i64::from(i32::MAX) + 3);
    assert!(pod_in_ordinal_range(
        &pod(&format!("web-{}", i32::MAX)),
        &s,
        &gates
    ));
    assert!(!pod_in_ordinal_range(&pod("web-0"), &s, &gates));
    // replicas 0: the range is empty (end = start - 1).
    let empty = set(3, 0);
    assert_eq!(get_end_ordinal(&empty, &gates), 2);
    assert!(!pod_in_ordinal_range(&pod("web-3"), &empty, &gates));
}

#[test]
fn versioned_pod_with_a_partition_beyond_the_ordinals() {
    let gates = FeatureGates::default();
    let mut current = set(i32::MAX - 1, 2);
    current.spec.update_strategy.rolling_update = Some(RollingUpdateStatefulSetStrategy {
        partition: Some(i32::MAX),
        ..Default::default()
    });
    let update = current.clone();
    // ordinal < start + partition (in int64): every pod stays at the current revision.
    let p = new_versioned_stateful_set_pod(&current, &update, "cur", "upd", i32::MAX, &gates);
    assert_eq!(get_pod_revision(&p), "cur");
    // Partition 0 with the same start: the update revision.
    current.spec.update_strategy.rolling_update = Some(RollingUpdateStatefulSetStrategy {
        partition: Some(0),
        ..Default::default()
    });
    let p = new_versioned_stateful_set_pod(&current, &update, "cur", "upd", i32::MAX, &gates);
    assert_eq!(get_pod_revision(&p), "upd");
}
