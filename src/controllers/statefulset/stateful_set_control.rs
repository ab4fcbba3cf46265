//! `defaultStatefulSetControl` (`pkg/controller/statefulset/stateful_set_control.go`): one sync
//! of a StatefulSet — revisions, the monotonic (OrderedReady) or burst (Parallel) creation and
//! deletion of pods, the rolling update, status and history truncation.
//!
//! Concrete example (OrderedReady, 3 replicas, nothing created yet): the first sync creates
//! `web-0` and stops; the next syncs wait while `web-0` is Pending (creating its missing claims)
//! and then not Running and Ready; once it is, `web-1` is created, and so on. Scaling to 1
//! condemns `web-2` and `web-1`: `web-2` is deleted first, and `web-1` only once `web-2` is gone
//! — and only if every remaining replica is healthy (or `web-1` is itself the first unhealthy
//! pod).

use super::stateful_pod_control::{
    aggregate_errors, claims_match_retention_policy, create_missing_persistent_volume_claims,
    create_stateful_pod, delete_stateful_pod, pod_claim_is_stale,
    update_pod_claim_for_retention_policy, update_stateful_pod,
};
use super::stateful_set_utils::{
    allows_burst, apply_revision, cmp_descending_ordinal, complete_rolling_update, get_ordinal,
    get_pod_revision, get_start_ordinal, get_stateful_set_max_unavailable, identity_matches,
    inconsistent_status, is_created, is_failed, is_pending, is_running_and_available,
    is_running_and_ready, is_succeeded, is_terminating, is_unavailable, new_revision,
    new_versioned_stateful_set_pod, pod_in_ordinal_range, set_matches_revision, storage_matches,
};
use crate::api::{
    ApiError, ControllerRevision, Object, Pod, Selector, StatefulSet, StatefulSetStatus, Time,
    ON_DELETE_STRATEGY,
};
use crate::controllers::history::{
    create_controller_revision, delete_controller_revision, equal_revision, find_equal_revisions,
    list_controller_revisions, next_revision, sort_controller_revisions,
    update_controller_revision,
};
use crate::controllers::Ctx;
use std::collections::BTreeSet;

/// `MaxBatchSize`: the most pods a burst batch touches at once.
pub const MAX_BATCH_SIZE: usize = 500;

/// The outcome of `updateStatefulSet`: a status (when one could be computed) and an error.
pub type StatusAndError = (Option<StatefulSetStatus>, Option<ApiError>);

/// The simulator's limit on `spec.replicas` of one StatefulSet (the sync keeps a slot per
/// ordinal, as upstream's does); a larger set's sync fails with an error instead.
pub const MAX_SIMULATED_STATEFUL_SET_REPLICAS: usize = 100_000;

/// `slowStartBatch` of the StatefulSet controller: batches of 1, 2, 4, ... capped at
/// [`MAX_BATCH_SIZE`], `f(k)` for k = 0.. in order; after a batch with errors the rest is
/// skipped. Returns the successes and the aggregated errors of the failing batch.
pub fn slow_start_batch(
    initial_batch_size: usize,
    remaining: usize,
    mut f: impl FnMut(usize) -> Result<bool, ApiError>,
) -> (usize, Option<ApiError>) {
    let mut successes = 0;
    let mut j = 0;
    let mut remaining = remaining;
    let mut batch = remaining.min(initial_batch_size);
    while batch > 0 {
        let mut errs = vec![];
        for _ in 0..batch {
            if let Err(e) = f(j) {
                errs.push(e);
            }
            j += 1;
        }
        successes += batch - errs.len();
        if !errs.is_empty() {
            return (successes, aggregate_errors(errs));
        }
        remaining -= batch;
        batch = (2 * batch).min(remaining).min(MAX_BATCH_SIZE);
    }
    (successes, None)
}

/// `runForAll`: monotonic — in order, stop at the first "exit" or error; burst — all of them
/// in slow-start batches. Returns (should exit, error).
pub fn run_for_all(
    n: usize,
    mut f: impl FnMut(usize) -> Result<bool, ApiError>,
    monotonic: bool,
) -> (bool, Option<ApiError>) {
    if monotonic {
        for i in 0..n {
            match f(i) {
                Ok(false) => {}
                Ok(true) => return (true, None),
                Err(e) => return (true, Some(e)),
            }
        }
    } else if let (_, Some(e)) = slow_start_batch(1, n, f) {
        return (true, Some(e));
    }
    (false, None)
}

/// `computeReplicaStatus` over the given pods, added into `status` (`updateStatus` resets the
/// counters first).
pub fn update_status(
    status: &mut StatefulSetStatus,
    min_ready_seconds: i32,
    current_revision: &str,
    update_revision: &str,
    now: Time,
    pod_lists: &[&[Pod]],
) {
    status.replicas = 0;
    status.ready_replicas = 0;
    status.available_replicas = 0;
    status.current_replicas = 0;
    status.updated_replicas = 0;
    for list in pod_lists {
        for pod in list.iter() {
            if is_created(pod) {
                status.replicas += 1;
            }
            if is_running_and_ready(pod) {
                status.ready_replicas += 1;
                if is_running_and_available(pod, min_ready_seconds, now) {
                    status.available_replicas += 1;
                }
            }
            if is_created(pod) && !is_terminating(pod) {
                let rev = get_pod_revision(pod);
                if rev == current_revision {
                    status.current_replicas += 1;
                }
                if rev == update_revision {
                    status.updated_replicas += 1;
                }
            }
        }
    }
}

/// `ListRevisions`: the set's (or orphaned, matching) revisions.
pub fn list_revisions(
    ctx: &Ctx,
    set: &StatefulSet,
    selector: &Selector,
) -> Vec<ControllerRevision> {
    list_controller_revisions(ctx.store(), &set.metadata, selector)
}

/// `UpdateStatefulSet`: list and sort the revisions, run [`perform_update`], then truncate the
/// history (also after an error).
///
/// # Errors
/// The sync's error, aggregated with a history truncation error.
pub fn update_stateful_set(
    ctx: &mut Ctx,
    set: &StatefulSet,
    selector: &Selector,
    pods: &[Pod],
) -> Result<StatefulSetStatus, ApiError> {
    let mut revisions = list_revisions(ctx, set, selector);
    sort_controller_revisions(&mut revisions);
    let (current, update, status, err) = perform_update(ctx, set, pods, &revisions);
    let trunc = truncate_history(
        ctx,
        set,
        pods,
        &revisions,
        current.as_ref(),
        update.as_ref(),
    );
    match (err, trunc) {
        (Some(e), Err(t)) => Err(aggregate_errors(vec![e, t]).expect("two errors")),
        (Some(e), Ok(())) => Err(e),
        (None, Err(t)) => Err(t),
        (None, Ok(())) => Ok(status.unwrap_or_default()),
    }
}

/// `performUpdate`: revisions, the update itself, and the status write (even after an error
/// when a status was computed).
pub fn perform_update(
    ctx: &mut Ctx,
    set: &StatefulSet,
    pods: &[Pod],
    revisions: &[ControllerRevision],
) -> (
    Option<ControllerRevision>,
    Option<ControllerRevision>,
    Option<StatefulSetStatus>,
    Option<ApiError>,
) {
    let (current, update, collision_count) = match get_stateful_set_revisions(ctx, set, revisions) {
        Ok(x) => x,
        Err(e) => return (None, None, None, Some(e)),
    };
    let (status, err) =
        update_stateful_set_pods(ctx, set, &current, &update, collision_count, pods);
    let Some(mut status) = status else {
        return (Some(current), Some(update), None, err);
    };
    let status_err = update_stateful_set_status(ctx, set, &mut status).err();
    let err = err.or(status_err);
    (Some(current), Some(update), Some(status), err)
}

/// `truncateHistory`: delete non-live revisions (not current, not update, not used by a pod),
/// oldest first, until at most `revisionHistoryLimit` of them remain.
///
/// # Errors
/// The first deletion error.
pub fn truncate_history(
    ctx: &mut Ctx,
    set: &StatefulSet,
    pods: &[Pod],
    revisions: &[ControllerRevision],
    current: Option<&ControllerRevision>,
    update: Option<&ControllerRevision>,
) -> Result<(), ApiError> {
    let to_delete = revisions_to_truncate(set, pods, revisions, current, update);
    for r in to_delete {
        delete_controller_revision(ctx, r)?;
    }
    Ok(())
}

/// The pure part of [`truncate_history`]: which revisions go.
pub fn revisions_to_truncate<'a>(
    set: &StatefulSet,
    pods: &[Pod],
    revisions: &'a [ControllerRevision],
    current: Option<&ControllerRevision>,
    update: Option<&ControllerRevision>,
) -> Vec<&'a ControllerRevision> {
    let mut live: BTreeSet<&str> = BTreeSet::new();
    if let Some(c) = current {
        live.insert(&c.metadata.name);
    }
    if let Some(u) = update {
        live.insert(&u.metadata.name);
    }
    for p in pods {
        live.insert(get_pod_revision(p));
    }
    let history: Vec<&ControllerRevision> = revisions
        .iter()
        .filter(|r| !live.contains(r.metadata.name.as_str()))
        .collect();
    let limit = set.spec.revision_history_limit.unwrap_or(10);
    if limit < 0 || history.len() <= limit as usize {
        return vec![];
    }
    let n = history.len() - limit as usize;
    history.into_iter().take(n).collect()
}

/// `getStatefulSetRevisions`: the current and update revisions and the collision count. The
/// update revision is the last revision when it equals the set's template, an older equal
/// revision renumbered to the next revision (a rollback), or a newly created one.
///
/// # Errors
/// Creating or renumbering the revision failed.
pub fn get_stateful_set_revisions(
    ctx: &mut Ctx,
    set: &StatefulSet,
    revisions: &[ControllerRevision],
) -> Result<(ControllerRevision, ControllerRevision, i32), ApiError> {
    let mut collision_count = set.status.collision_count.unwrap_or(0);
    let candidate = new_revision(set, next_revision(revisions), collision_count);
    let mut equal = find_equal_revisions(revisions, &candidate);
    // StatefulSetSemanticRevisionComparison: with no byte-equal revision, one that still
    // describes the set (written by an older release, or before a field was defaulted) counts as
    // equal, so an upgrade does not roll every pod.
    if equal.is_empty() && ctx.gates.enabled("StatefulSetSemanticRevisionComparison") {
        equal = revisions
            .iter()
            .filter(|r| set_matches_revision(set, r))
            .collect();
    }
    let update = match (equal.last(), revisions.last()) {
        (Some(eq), Some(last)) if equal_revision(last, eq) => last.clone(),
        (Some(eq), _) => update_controller_revision(ctx, eq, candidate.revision)?,
        (None, _) => {
            create_controller_revision(ctx, &set.metadata, &candidate, &mut collision_count)?
        }
    };
    let current = revisions
        .iter()
        .find(|r| r.metadata.name == set.status.current_revision)
        .cloned()
        .unwrap_or_else(|| update.clone());
    Ok((current, update, collision_count))
}

/// `processReplica` for `replicas[i]`. Returns whether the monotonic walk must stop.
#[allow(clippy::too_many_arguments)]
fn process_replica(
    ctx: &mut Ctx,
    set: &StatefulSet,
    update_set: &StatefulSet,
    monotonic: bool,
    replicas: &[Pod],
    i: usize,
    now: Time,
) -> Result<bool, ApiError> {
    let pod = &replicas[i];
    // Failed or Succeeded (an evicted or otherwise stopped pod): delete it; the replacement is
    // created on a later sync, once the old pod is gone from the API. Since Kubernetes 1.30
    // (kubernetes#123809) no RecreatingFailedPod / RecreatingTerminatedPod event is emitted, only
    // the SuccessfulDelete of the pod control.
    if is_failed(pod) || is_succeeded(pod) {
        if pod.metadata.deletion_timestamp.is_none() {
            delete_stateful_pod(ctx, set, pod)?;
        }
        return Ok(true);
    }
    if !is_created(pod) {
        if pod_claim_is_stale(ctx, set, pod) {
            return Ok(true); // a stale claim: no more work this round
        }
        create_stateful_pod(ctx, set, pod)?;
        if monotonic {
            return Ok(true);
        }
    }
    if is_pending(pod) {
        create_missing_persistent_volume_claims(ctx, set, pod)?;
    }
    if is_terminating(pod) && monotonic {
        return Ok(true); // waiting for the pod to terminate
    }
    if !is_running_and_ready(pod) && monotonic {
        return Ok(true); // waiting for the pod to be Running and Ready
    }
    if !is_running_and_available(pod, set.spec.min_ready_seconds, now) && monotonic {
        return Ok(true); // waiting for the pod to be Available
    }
    // Enforce the invariants. An error is expected while the pod is being updated, so it counts
    // as a match.
    let retention_match = claims_match_retention_policy(ctx, update_set, pod).unwrap_or(true);
    if identity_matches(set, pod) && storage_matches(set, pod) && retention_match {
        return Ok(false);
    }
    update_stateful_pod(ctx, update_set, pod)?;
    Ok(false)
}

/// `processCondemned` for `condemned[i]` (descending ordinals). Returns whether to stop.
fn process_condemned(
    ctx: &mut Ctx,
    set: &StatefulSet,
    first_unavailable: Option<&str>,
    monotonic: bool,
    condemned: &[Pod],
    i: usize,
    now: Time,
) -> Result<bool, ApiError> {
    let pod = &condemned[i];
    if is_terminating(pod) {
        // Monotonic: block until the terminating pod is gone.
        return Ok(monotonic);
    }
    let is_first = first_unavailable == Some(pod.metadata.name.as_str());
    if !is_running_and_ready(pod) && monotonic && !is_first {
        return Ok(true); // waiting for the first unhealthy pod to be Running and Ready
    }
    if !is_running_and_available(pod, set.spec.min_ready_seconds, now) && monotonic && !is_first {
        return Ok(true); // waiting for the first unhealthy pod to be Available
    }
    delete_stateful_pod(ctx, set, pod)?;
    Ok(true)
}

/// `updateStatefulSet`: create, update and delete pods toward the target state, then the
/// rolling update. Returns the status to record and the error that stopped the sync.
pub fn update_stateful_set_pods(
    ctx: &mut Ctx,
    set: &StatefulSet,
    current_revision: &ControllerRevision,
    update_revision: &ControllerRevision,
    collision_count: i32,
    pods: &[Pod],
) -> StatusAndError {
    let gates = ctx.gates.clone();
    let now = ctx.now();
    let current_set = apply_revision(set, current_revision);
    let update_set = apply_revision(set, update_revision);
    let cur_name = current_revision.metadata.name.as_str();
    let upd_name = update_revision.metadata.name.as_str();
    let mrs = set.spec.min_ready_seconds;

    let mut status = StatefulSetStatus {
        observed_generation: set.metadata.generation,
        current_revision: cur_name.into(),
        update_revision: upd_name.into(),
        collision_count: Some(collision_count),
        ..Default::default()
    };
    update_status(&mut status, mrs, cur_name, upd_name, now, &[pods]);

    let start = get_start_ordinal(set, &gates);
    let replica_count = set.replicas().max(0) as usize;
    if replica_count > MAX_SIMULATED_STATEFUL_SET_REPLICAS {
        // Upstream allocates (and fills) a slot per ordinal too and would exhaust the
        // controller manager's memory; the simulation refuses the sync instead of aborting.
        return (
            Some(status),
            Some(crate::controllers::controller_ref_manager::internal_error(
                format!(
                    "kubeplay simulates at most {MAX_SIMULATED_STATEFUL_SET_REPLICAS} replicas per StatefulSet; spec.replicas is {}",
                    set.replicas()
                ),
            )),
        );
    }
    let mut slots: Vec<Option<Pod>> = vec![None; replica_count];
    let mut condemned: Vec<Pod> = vec![];
    for pod in pods {
        if pod_in_ordinal_range(pod, set, &gates) {
            slots[(get_ordinal(pod) - start) as usize] = Some(pod.clone());
        } else if get_ordinal(pod) >= 0 {
            condemned.push(pod.clone());
        }
        // An unparseable ordinal (−1): the pod is ignored.
    }
    let replicas: Vec<Pod> = slots
        .into_iter()
        .enumerate()
        .map(|(idx, p)| {
            p.unwrap_or_else(|| {
                new_versioned_stateful_set_pod(
                    &current_set,
                    &update_set,
                    cur_name,
                    upd_name,
                    start + idx as i32,
                    &gates,
                )
            })
        })
        .collect();
    crate::sort::sort_by(&mut condemned, cmp_descending_ordinal);

    // The first unavailable pod: among the replicas by ascending ordinal, else among the
    // condemned from the lowest ordinal.
    let mut first_unavailable: Option<String> = None;
    for p in replicas.iter().chain(condemned.iter().rev()) {
        if is_unavailable(p, mrs, now) && first_unavailable.is_none() {
            first_unavailable = Some(p.metadata.name.clone());
        }
    }

    if set.metadata.deletion_timestamp.is_some() {
        return (Some(status), None);
    }
    let monotonic = !allows_burst(set);

    let finish = |status: &mut StatefulSetStatus, replicas: &[Pod], condemned: &[Pod]| {
        update_status(status, mrs, cur_name, upd_name, now, &[replicas, condemned]);
    };

    // Living replicas, in ordinal order.
    let (exit, err) = run_for_all(
        replicas.len(),
        |i| process_replica(ctx, set, &update_set, monotonic, &replicas, i, now),
        monotonic,
    );
    if exit || err.is_some() {
        finish(&mut status, &replicas, &condemned);
        return (Some(status), err);
    }

    // Fix the claims of condemned pods for the retention policy before deleting them.
    let (exit, err) = run_for_all(
        condemned.len(),
        |i| {
            if !claims_match_retention_policy(ctx, &update_set, &condemned[i])? {
                update_pod_claim_for_retention_policy(ctx, &update_set, &condemned[i])?;
            }
            Ok(false)
        },
        monotonic,
    );
    if exit || err.is_some() {
        finish(&mut status, &replicas, &condemned);
        return (Some(status), err);
    }

    // Scale down, highest ordinal first. Scaling takes precedence over updates.
    let fu = first_unavailable.clone();
    let (exit, err) = run_for_all(
        condemned.len(),
        |i| process_condemned(ctx, set, fu.as_deref(), monotonic, &condemned, i, now),
        monotonic,
    );
    if exit || err.is_some() {
        finish(&mut status, &replicas, &condemned);
        return (Some(status), err);
    }

    finish(&mut status, &replicas, &condemned);

    if set.spec.update_strategy.type_ == ON_DELETE_STRATEGY {
        return (Some(status), None);
    }
    if gates.enabled("MaxUnavailableStatefulSet") {
        return update_stateful_set_after_invariant_established(
            ctx, set, &replicas, upd_name, status, now,
        );
    }

    // Delete the highest-ordinal pod not at the update revision, one per sync, waiting for
    // unavailable pods on the way down to the partition.
    let update_min = set
        .spec
        .update_strategy
        .rolling_update
        .as_ref()
        .map_or(0, |ru| ru.partition.unwrap_or(0));
    let mut target = replicas.len() as i64 - 1;
    while target >= i64::from(update_min) && target >= 0 {
        let pod = &replicas[target as usize];
        if get_pod_revision(pod) != upd_name && !is_terminating(pod) {
            let err = match delete_stateful_pod(ctx, set, pod) {
                Err(e) if !e.is_not_found() => Some(e),
                _ => None,
            };
            status.current_replicas -= 1;
            return (Some(status), err);
        }
        if is_unavailable(pod, mrs, now) {
            return (Some(status), None); // waiting for the pod to update
        }
        target -= 1;
    }
    (Some(status), None)
}

/// `updateStatefulSetAfterInvariantEstablished` (MaxUnavailableStatefulSet): delete up to
/// `maxUnavailable − unavailable` outdated pods, highest ordinal first, down to the partition.
pub(super) fn update_stateful_set_after_invariant_established(
    ctx: &mut Ctx,
    set: &StatefulSet,
    replicas: &[Pod],
    update_revision: &str,
    mut status: StatefulSetStatus,
    now: Time,
) -> StatusAndError {
    let mut update_min = 0;
    let mut max_unavailable = 1;
    if let Some(ru) = &set.spec.update_strategy.rolling_update {
        update_min = ru.partition.unwrap_or(0);
        match get_stateful_set_max_unavailable(ru.max_unavailable.as_ref(), set.replicas()) {
            Ok(m) => max_unavailable = m,
            Err(e) => {
                return (
                    Some(status),
                    Some(crate::controllers::controller_ref_manager::internal_error(
                        e,
                    )),
                )
            }
        }
    }
    let mrs = set.spec.min_ready_seconds;
    let unavailable = replicas
        .iter()
        .filter(|p| is_unavailable(p, mrs, now))
        .count() as i32;
    if unavailable > max_unavailable {
        return (Some(status), None);
    }
    let to_delete = max_unavailable - unavailable;
    let mut deleted = 0;
    let mut target = replicas.len() as i64 - 1;
    while target >= i64::from(update_min) && target >= 0 && deleted < to_delete {
        let pod = &replicas[target as usize];
        if get_pod_revision(pod) != update_revision && !is_terminating(pod) {
            if let Err(e) = delete_stateful_pod(ctx, set, pod) {
                if !e.is_not_found() {
                    return (Some(status), Some(e));
                }
            }
            deleted += 1;
            status.current_replicas -= 1;
        }
        target -= 1;
    }
    (Some(status), None)
}

/// `updateStatefulSetStatus`: complete a finished rolling update, and write the status when it
/// differs from the stored one.
///
/// # Errors
/// The status write failed.
pub fn update_stateful_set_status(
    ctx: &mut Ctx,
    set: &StatefulSet,
    status: &mut StatefulSetStatus,
) -> Result<(), ApiError> {
    complete_rolling_update(set, status);
    if !inconsistent_status(set, status) {
        return Ok(());
    }
    let mut fresh = ctx
        .store()
        .get::<StatefulSet>(&set.metadata.namespace, &set.metadata.name)
        .cloned()
        .ok_or_else(|| ApiError::not_found("statefulsets.apps", &set.metadata.name))?;
    fresh.status = status.clone().into();
    fresh.metadata.resource_version.clear();
    ctx.update_status(Object::StatefulSet(fresh)).map(|_| ())
}
