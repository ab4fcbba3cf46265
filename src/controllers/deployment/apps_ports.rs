//! Deployment util arithmetic checked against upstream source
//! (pkg/controller/deployment/util/deployment_util.go): the replica maths is int32 and wraps on
//! overflow as Go's does, instead of panicking.

use super::util::*;
use crate::api::{Deployment, IntOrString, ReplicaSet, RollingUpdateDeployment};

fn deployment(replicas: i32, max_surge: IntOrString) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = "d".into();
    d.spec.replicas = Some(replicas);
    d.spec.strategy.type_ = ROLLING_UPDATE.into();
    d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
        max_surge: Some(max_surge),
        max_unavailable: Some(IntOrString::Int(1)),
    });
    d
}

fn replica_set(name: &str, replicas: i32) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = name.into();
    rs.spec.replicas = Some(replicas);
    rs
}

// getReplicaSetFraction computes `float64(*(rs.Spec.Replicas) * deploymentMaxReplicas)`: the
// product is an int32 and wraps before the division.
#[test]
fn replica_set_fraction_multiplies_in_int32() {
    let d = deployment(50_000, IntOrString::Int(0));
    let mut rs = replica_set("rs", 50_000);
    rs.metadata
        .annotations
        .insert(MAX_REPLICAS_ANNOTATION.into(), "40000".into());
    // int32(50000 * 50000) = 2500000000 - 2^32 = -1794967296; / 40000 = -44874.18...;
    // RoundToInt32 → -44874; minus the 50000 replicas → -94874.
    assert_eq!(get_replica_set_fraction(&rs, &d), -94_874);
    // Without overflow the proportion is the plain one: 500 * 600 / 400 = 750 → +250.
    let d = deployment(600, IntOrString::Int(0));
    let mut rs = replica_set("rs", 500);
    rs.metadata
        .annotations
        .insert(MAX_REPLICAS_ANNOTATION.into(), "400".into());
    assert_eq!(get_replica_set_fraction(&rs, &d), 250);
}

// NewRSNewReplicas: `maxTotalPods := *(deployment.Spec.Replicas) + int32(maxSurge)` wraps for
// MaxInt32 replicas with a 100% surge, so "cannot scale up" and the new RS keeps its size.
#[test]
fn new_rs_new_replicas_at_max_int32() {
    let d = deployment(i32::MAX, IntOrString::String("100%".into()));
    assert_eq!(max_surge(&d), i32::MAX);
    let new_rs = replica_set("new", 3);
    assert_eq!(
        new_rs_new_replicas(&d, std::slice::from_ref(&new_rs), &new_rs),
        Ok(3)
    );
    // GetReplicaCountForReplicaSets sums int32s: wrapping, as Go.
    let big = [replica_set("a", i32::MAX), replica_set("b", 2)];
    assert_eq!(get_replica_count_for_replica_sets(&big), i32::MIN + 1);
}
