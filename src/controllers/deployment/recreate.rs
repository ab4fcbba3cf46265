//! The Recreate strategy (`recreate.go`): all old pods go before any new pod is created.

use super::progress::sync_rollout_status;
use super::sync::{
    all_rss, cleanup_deployment, get_all_replica_sets_and_sync_revision,
    scale_replica_set_and_record_event,
};
use super::util::*;
use super::PodMap;
use crate::api::{ApiError, Deployment, ReplicaSet};
use crate::controllers::Ctx;

/// `rolloutRecreate`: scale every old ReplicaSet to 0; wait until no old pod runs; then create
/// the new ReplicaSet (only now, so nothing is scaled up before everything is scaled down) and
/// scale it to `replicas`; clean up when complete; sync the rollout status.
///
/// The alpha DeploymentPodReplacementPolicy path (terminating-pod accounting) is not modelled:
/// its gate is off by default in 1.34.
///
/// # Errors
/// The first failed write.
pub fn rollout_recreate(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
    pod_map: &PodMap,
) -> Result<(), ApiError> {
    // Don't create a new RS if not already existed, so that we avoid scaling up before scaling down.
    let (mut new_rs, mut old_rss) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, false)?;
    let mut all = all_rss(&old_rss, new_rs.as_ref());
    let mut active_old = filter_active_replica_sets(&old_rss);

    // Scale down old replica sets.
    if scale_down_old_replica_sets_for_recreate(ctx, &mut active_old, d)? {
        return sync_rollout_status(ctx, &all, new_rs.as_ref(), d);
    }

    // Do not process a deployment when it has old pods running.
    if old_pods_running(new_rs.as_ref(), &old_rss, pod_map) {
        return sync_rollout_status(ctx, &all, new_rs.as_ref(), d);
    }

    // If we need to create a new RS, create it now.
    if new_rs.is_none() {
        let (n, o) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, true)?;
        new_rs = n;
        old_rss = o;
        all = all_rss(&old_rss, new_rs.as_ref());
    }
    let Some(new) = new_rs.as_ref() else {
        return Err(super::internal("new replica set was not created"));
    };

    // Scale up the new replica set.
    scale_up_new_replica_set_for_recreate(ctx, new, d)?;

    if deployment_complete(d, &d.status) {
        cleanup_deployment(ctx, &old_rss, d)?;
    }

    // Sync deployment status.
    sync_rollout_status(ctx, &all, new_rs.as_ref(), d)
}

/// `scaleDownOldReplicaSetsForRecreate`: every given ReplicaSet to 0 (the slice is updated in
/// place with the results). True when any was scaled.
///
/// # Errors
/// The first failed update.
pub fn scale_down_old_replica_sets_for_recreate(
    ctx: &mut Ctx,
    old_rss: &mut [ReplicaSet],
    d: &Deployment,
) -> Result<bool, ApiError> {
    let mut scaled = false;
    for rs in old_rss.iter_mut() {
        if rs.replicas() == 0 {
            continue; // scaling not required
        }
        let (did, updated) = scale_replica_set_and_record_event(ctx, rs, 0, d)?;
        if did {
            *rs = updated;
            scaled = true;
        }
    }
    Ok(scaled)
}

/// `oldPodsRunning`: an old ReplicaSet still reports pods, or a pod of a ReplicaSet other than
/// the new one is not Succeeded/Failed (Unknown, Pending and Running all count).
pub fn old_pods_running(
    new_rs: Option<&ReplicaSet>,
    old_rss: &[ReplicaSet],
    pod_map: &PodMap,
) -> bool {
    if get_actual_replica_count_for_replica_sets(old_rss) > 0 {
        return true;
    }
    pod_map.iter().any(|(rs_uid, pods)| {
        // Pods of the new ReplicaSet are not old.
        if new_rs.is_some_and(|n| &n.metadata.uid == rs_uid) {
            return false;
        }
        pods.iter()
            .any(|p| !matches!(p.status.phase.as_str(), "Failed" | "Succeeded"))
    })
}

/// `scaleUpNewReplicaSetForRecreate`: the new ReplicaSet to `replicas`.
///
/// # Errors
/// The update.
pub fn scale_up_new_replica_set_for_recreate(
    ctx: &mut Ctx,
    new_rs: &ReplicaSet,
    d: &Deployment,
) -> Result<bool, ApiError> {
    let (scaled, _) = scale_replica_set_and_record_event(ctx, new_rs, d.replicas(), d)?;
    Ok(scaled)
}
