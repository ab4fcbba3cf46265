//! The RollingUpdate strategy (`rolling.go`).

use super::internal;
use super::progress::sync_rollout_status;
use super::sync::{
    all_rss, cleanup_deployment, get_all_replica_sets_and_sync_revision,
    scale_replica_set_and_record_event,
};
use super::util::*;
use crate::api::{ApiError, Deployment, ReplicaSet};
use crate::controllers::Ctx;

/// `rolloutRolling`: create the new ReplicaSet if needed, then either scale it up, or scale old
/// ones down, or (when complete) clean up old ReplicaSets; always sync the rollout status.
///
/// Note (upstream wins over ALGORITHMS.md §3.7): the sync that creates the new ReplicaSet with
/// its surge (3 of 10 at 25%) finds nothing more to scale up and goes on to scale the old
/// ReplicaSet down by `maxScaledDown` (13 − 8 − 3 = 2) in the same reconcile, so a real rollout
/// shows 10/0 → 10/3 → 8/3 → 8/5 → 3/5 → 3/10 → 0/10; the spec's 10/3 → 5/3 → 5/8 → 0/8 → 0/10
/// assumes the new pods became available between the two steps (both are tested).
///
/// # Errors
/// The first failed write.
pub fn rollout_rolling(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
) -> Result<(), ApiError> {
    let (new_rs, old_rss) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, true)?;
    let new_rs = new_rs.ok_or_else(|| internal("new replica set was not created"))?;
    let all = all_rss(&old_rss, Some(&new_rs));

    // Scale up, if we can.
    if reconcile_new_replica_set(ctx, &all, &new_rs, d)? {
        return sync_rollout_status(ctx, &all, Some(&new_rs), d);
    }

    // Scale down, if we can.
    let active_old = filter_active_replica_sets(&old_rss);
    if reconcile_old_replica_sets(ctx, &all, active_old, &new_rs, d)? {
        return sync_rollout_status(ctx, &all, Some(&new_rs), d);
    }

    if deployment_complete(d, &d.status) {
        cleanup_deployment(ctx, &old_rss, d)?;
    }

    sync_rollout_status(ctx, &all, Some(&new_rs), d)
}

/// `reconcileNewReplicaSet`: scale the new ReplicaSet down to `replicas` if it is above, or up to
/// [`new_rs_new_replicas`]. True when it was scaled.
///
/// # Errors
/// An invalid maxSurge or the update.
pub fn reconcile_new_replica_set(
    ctx: &mut Ctx,
    all: &[ReplicaSet],
    new_rs: &ReplicaSet,
    d: &Deployment,
) -> Result<bool, ApiError> {
    if new_rs.replicas() == d.replicas() {
        return Ok(false); // scaling not required
    }
    if new_rs.replicas() > d.replicas() {
        let (scaled, _) = scale_replica_set_and_record_event(ctx, new_rs, d.replicas(), d)?;
        return Ok(scaled);
    }
    let n = new_rs_new_replicas(d, all, new_rs).map_err(internal)?;
    let (scaled, _) = scale_replica_set_and_record_event(ctx, new_rs, n, d)?;
    Ok(scaled)
}

/// How far old ReplicaSets may be scaled down now:
/// `allPods − minAvailable − (spec(newRS) − available(newRS))`. Subtracting the new
/// ReplicaSet's unavailable pods keeps a broken new ReplicaSet from eating the old ones.
///
/// Concrete example (upstream's): 10 replicas, maxUnavailable 2, maxSurge 3. The new RS was scaled
/// to 5 and crashloops; old RS at 8: 13 − 8 − 5 = 0, nothing more is scaled down even when an old
/// pod fails. After `rollout undo` the old RS is the new one with 1 unavailable: 13 − 8 − 1 = 4 of
/// the crashlooping pods can go.
pub fn max_scaled_down(d: &Deployment, all: &[ReplicaSet], new_rs: &ReplicaSet) -> i32 {
    let all_pods = get_replica_count_for_replica_sets(all);
    let min_available = d.replicas() - max_unavailable(d);
    // int32 arithmetic, wrapping as Go's does.
    let new_rs_unavailable = new_rs
        .replicas()
        .wrapping_sub(new_rs.status.available_replicas);
    all_pods
        .wrapping_sub(min_available)
        .wrapping_sub(new_rs_unavailable)
}

/// `reconcileOldReplicaSets`: first scale down unhealthy old replicas
/// ([`cleanup_unhealthy_replicas`]), then healthy ones as availability allows
/// ([`scale_down_old_replica_sets_for_rolling_update`]). True when anything was scaled down.
/// Errors of the two helpers are swallowed (reported as "not scaled"), as upstream.
///
/// # Errors
/// None in practice; kept for upstream's signature.
pub fn reconcile_old_replica_sets(
    ctx: &mut Ctx,
    all: &[ReplicaSet],
    old_rss: Vec<ReplicaSet>,
    new_rs: &ReplicaSet,
    d: &Deployment,
) -> Result<bool, ApiError> {
    if get_replica_count_for_replica_sets(&old_rss) == 0 {
        return Ok(false); // can't scale down further
    }
    let max_down = max_scaled_down(d, all, new_rs);
    if max_down <= 0 {
        return Ok(false);
    }
    // Clean up unhealthy replicas first, otherwise unhealthy replicas will block the deployment
    // and cause a timeout (kubernetes#16737).
    let Ok((old_rss, cleaned)) = cleanup_unhealthy_replicas(ctx, old_rss, d, max_down) else {
        return Ok(false);
    };
    // Scale down old replica sets; maxUnavailable is checked to ensure availability.
    let all = all_rss(&old_rss, Some(new_rs));
    let Ok(scaled) = scale_down_old_replica_sets_for_rolling_update(ctx, &all, old_rss, d) else {
        return Ok(false);
    };
    Ok(cleaned + scaled > 0)
}

/// `cleanupUnhealthyReplicas`: oldest first, scale each old ReplicaSet down by its unavailable
/// replicas (`spec − available`), at most `max_cleanup` in total. Returns the (updated) old
/// ReplicaSets and how many replicas were removed.
///
/// # Errors
/// The first failed update.
pub fn cleanup_unhealthy_replicas(
    ctx: &mut Ctx,
    mut old_rss: Vec<ReplicaSet>,
    d: &Deployment,
    max_cleanup: i32,
) -> Result<(Vec<ReplicaSet>, i32), ApiError> {
    crate::sort::sort_by(&mut old_rss, cmp_replica_sets_by_creation_timestamp);
    // The ReplicaSet controller deletes not-ready, unscheduled and pending pods first, so these
    // scale-downs remove the unhealthy replicas and do not reduce availability.
    let mut total = 0;
    for slot in old_rss.iter_mut() {
        if total >= max_cleanup {
            break;
        }
        let target = &*slot;
        let spec = target.replicas();
        let avail = target.status.available_replicas;
        if spec == 0 || spec == avail {
            continue; // nothing to scale down / no unhealthy replicas
        }
        let count = (max_cleanup - total).min(spec - avail);
        let new_count = spec - count;
        if new_count > spec {
            return Err(internal(format!(
                "when cleaning up unhealthy replicas, got invalid request to scale down {}/{} {spec} -> {new_count}",
                target.metadata.namespace, target.metadata.name
            )));
        }
        let (_, updated) = scale_replica_set_and_record_event(ctx, target, new_count, d)?;
        total += count;
        *slot = updated;
    }
    Ok((old_rss, total))
}

/// `scaleDownOldReplicaSetsForRollingUpdate`: scale old ReplicaSets down (oldest first) by
/// `available − minAvailable` in total. Returns how many replicas were removed.
///
/// # Errors
/// The first failed update.
pub fn scale_down_old_replica_sets_for_rolling_update(
    ctx: &mut Ctx,
    all: &[ReplicaSet],
    mut old_rss: Vec<ReplicaSet>,
    d: &Deployment,
) -> Result<i32, ApiError> {
    let min_available = d.replicas() - max_unavailable(d);
    let available = get_available_replica_count_for_replica_sets(all);
    if available <= min_available {
        return Ok(0); // cannot scale down
    }
    crate::sort::sort_by(&mut old_rss, cmp_replica_sets_by_creation_timestamp);
    let budget = available.wrapping_sub(min_available);
    let mut total = 0;
    for target in &old_rss {
        if total >= budget {
            break;
        }
        let spec = target.replicas();
        if spec == 0 {
            continue;
        }
        let count = spec.min(budget - total);
        let new_count = spec - count;
        if new_count > spec {
            return Err(internal(format!(
                "when scaling down old RS, got invalid request to scale down {}/{} {spec} -> {new_count}",
                target.metadata.namespace, target.metadata.name
            )));
        }
        scale_replica_set_and_record_event(ctx, target, new_count, d)?;
        total += count;
    }
    Ok(total)
}
