//! Rollout progress: the Progressing condition, ReplicaFailure, and the progress-deadline
//! requeue (`progress.go`).

use super::sync::calculate_status;
use super::update_deployment_status;
use super::util::*;
use crate::api::{
    ApiError, Deployment, DeploymentCondition, DeploymentStatus, Duration, ReplicaSet,
};
use crate::controllers::Ctx;

/// `syncRolloutStatus`: [`calculate_status`] plus the Progressing condition —
/// `NewReplicaSetAvailable` when complete, `ReplicaSetUpdated` (lastUpdateTime refreshed, the
/// transition time kept while it stays True) on any progress, `ProgressDeadlineExceeded` when the
/// deadline has passed — and the ReplicaFailure condition copied from the ReplicaSets. When
/// nothing changed, [`requeue_stuck_deployment`] schedules the next deadline check.
///
/// # Errors
/// The status write.
pub fn sync_rollout_status(
    ctx: &mut Ctx,
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    d: &mut Deployment,
) -> Result<(), ApiError> {
    let now = ctx.now();
    let new_status = rollout_status(all, new_rs, d, now, ctx.gates);
    if d.status == new_status {
        requeue_stuck_deployment(ctx, d, &new_status);
        return Ok(());
    }
    d.status = new_status.into();
    update_deployment_status(ctx, d).map(|_| ())
}

/// The status [`sync_rollout_status`] would write (pure).
pub fn rollout_status(
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    d: &Deployment,
    now: crate::api::Time,
    gates: &crate::features::FeatureGates,
) -> DeploymentStatus {
    let mut s = calculate_status(all, new_rs, d, now, gates);

    // If there is no progressDeadlineSeconds set, remove any Progressing condition.
    if !has_progress_deadline(d) {
        remove_deployment_condition(&mut s, DEPLOYMENT_PROGRESSING);
    }

    // If there is only one replica set that is active then that means we are not running a new
    // rollout and this is a resync where we don't need to estimate any progress.
    let current = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).cloned();
    let is_complete = s.replicas == s.updated_replicas
        && current
            .as_ref()
            .is_some_and(|c| c.reason == NEW_RS_AVAILABLE_REASON);
    // Check for progress only if there is a progress deadline set and the latest rollout
    // hasn't completed yet.
    if has_progress_deadline(d) && !is_complete {
        let subject = |what: &str| match new_rs {
            Some(rs) => format!("ReplicaSet {:?} {what}", rs.metadata.name),
            None => format!("Deployment {:?} {what}", d.metadata.name),
        };
        if deployment_complete(d, &s) {
            // If the condition already exists, this is a no-op.
            let c = new_deployment_condition(
                DEPLOYMENT_PROGRESSING,
                CONDITION_TRUE,
                NEW_RS_AVAILABLE_REASON,
                &subject("has successfully progressed."),
                now,
            );
            set_deployment_condition(&mut s, c);
        } else if deployment_progressing(d, &s) {
            // Any progress: refresh lastUpdateTime even though the reason is unchanged (this is
            // why it does not go through SetDeploymentCondition's no-op rule), keeping the
            // transition time while the condition stays True.
            let mut c = new_deployment_condition(
                DEPLOYMENT_PROGRESSING,
                CONDITION_TRUE,
                REPLICA_SET_UPDATED_REASON,
                &subject("is progressing."),
                now,
            );
            if let Some(cur) = &current {
                if cur.status == CONDITION_TRUE {
                    c.last_transition_time = cur.last_transition_time;
                }
                remove_deployment_condition(&mut s, DEPLOYMENT_PROGRESSING);
            }
            set_deployment_condition(&mut s, c);
        } else if deployment_timed_out(d, &s, now) {
            let c = new_deployment_condition(
                DEPLOYMENT_PROGRESSING,
                CONDITION_FALSE,
                TIMED_OUT_REASON,
                &subject("has timed out progressing."),
                now,
            );
            set_deployment_condition(&mut s, c);
        }
    }

    // Move failure conditions of all replica sets into deployment conditions. Only one failure
    // condition is kept.
    match get_replica_failures(all, new_rs).into_iter().next() {
        Some(c) => set_deployment_condition(&mut s, c),
        None => remove_deployment_condition(&mut s, DEPLOYMENT_REPLICA_FAILURE),
    }
    s
}

/// `getReplicaFailures`: the ReplicaFailure conditions of the new ReplicaSet, or else of all
/// ReplicaSets, as deployment conditions.
pub fn get_replica_failures(
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
) -> Vec<DeploymentCondition> {
    let of = |rs: &ReplicaSet| -> Vec<DeploymentCondition> {
        rs.status
            .conditions
            .iter()
            .filter(|c| c.type_ == DEPLOYMENT_REPLICA_FAILURE)
            .map(replica_set_to_deployment_condition)
            .collect()
    };
    let from_new = new_rs.map(of).unwrap_or_default();
    if !from_new.is_empty() {
        return from_new;
    }
    all.iter().flat_map(of).collect()
}

/// `requeueStuckDeployment`: when a rollout shows no progress, requeue the deployment for the
/// moment its deadline passes (`lastUpdateTime + progressDeadlineSeconds − now`, plus one second
/// against clock skew), or now (rate limited) when less than a second is left. Returns that wait,
/// `Duration(0)` for "now", or `Duration(-1)` when no check is needed (no deadline, no
/// Progressing condition, complete, or already timed out).
///
/// Concrete example: lastUpdateTime 00:00:00, deadline 600 s, now 00:03:00 → requeued after
/// 7 min + 1 s, returns 7 min.
pub fn requeue_stuck_deployment(
    ctx: &mut Ctx,
    d: &Deployment,
    new_status: &DeploymentStatus,
) -> Duration {
    let Some(cur) = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING) else {
        return Duration(-1);
    };
    if !has_progress_deadline(d) {
        return Duration(-1);
    }
    if deployment_complete(d, new_status) || cur.reason == TIMED_OUT_REASON {
        return Duration(-1);
    }
    let deadline = Duration::from_secs(i64::from(d.spec.progress_deadline_seconds.unwrap_or(0)));
    let from = cur.last_update_time.unwrap_or(crate::api::Time::ZERO);
    let now = ctx.now();
    let after = (from + deadline) - now;
    let key = d.metadata.key();
    if after < Duration::from_secs(1) {
        // Rate limited so we stay on the safe side; the deployment eventually becomes Complete
        // or TimedOut.
        ctx.queue.add_rate_limited(&key, now);
        return Duration(0);
    }
    // Add a second to avoid milliseconds skew in AddAfter (kubernetes#39785).
    ctx.requeue_after(&key, after + Duration::from_secs(1));
    after
}
