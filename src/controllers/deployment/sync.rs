//! Scaling, new-ReplicaSet creation, revisions, cleanup and status (`sync.go`).

use super::util::{self, *};
use super::{controller_ref, event, internal, update_deployment_status, update_replica_set};
use crate::api::{ApiError, Deployment, DeploymentStatus, Object, ReplicaSet, Resource, Time};
use crate::controllers::into_owned;
use crate::controllers::Ctx;
use crate::features::FeatureGates;
use crate::store::apiserver::DeleteOptions;

/// `maxRevHistoryLengthInChars`: the revision-history annotation is kept under ~100 entries.
pub const MAX_REV_HISTORY_LENGTH_IN_CHARS: usize = 2000;

/// `old + new` as upstream's `append(oldRSs, newRS)` (a nil new RS is skipped by every helper).
pub(crate) fn all_rss(old: &[ReplicaSet], new: Option<&ReplicaSet>) -> Vec<ReplicaSet> {
    let mut v = old.to_vec();
    v.extend(new.cloned());
    v
}

/// `syncStatusOnly`: only updates the status (used while the deployment is being deleted).
///
/// # Errors
/// See [`get_all_replica_sets_and_sync_revision`] and [`sync_deployment_status`].
pub fn sync_status_only(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
) -> Result<(), ApiError> {
    let (new_rs, old_rss) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, false)?;
    let all = all_rss(&old_rss, new_rs.as_ref());
    sync_deployment_status(ctx, &all, new_rs.as_ref(), d)
}

/// `sync`: reconciles a paused deployment or a scaling event: scale (proportionally), clean up
/// old ReplicaSets when paused, write status (no progress estimation).
///
/// # Errors
/// The first failed write.
pub fn sync(ctx: &mut Ctx, d: &mut Deployment, rs_list: &mut [ReplicaSet]) -> Result<(), ApiError> {
    let (new_rs, mut old_rss) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, false)?;
    scale(ctx, d, new_rs.as_ref(), &mut old_rss)?;
    // Clean up the deployment when it's paused and no rollback is in flight.
    if d.spec.paused && super::rollback::get_rollback_to(d).is_none() {
        cleanup_deployment(ctx, &old_rss, d)?;
    }
    let all = all_rss(&old_rss, new_rs.as_ref());
    sync_deployment_status(ctx, &all, new_rs.as_ref(), d)
}

/// `checkPausedConditions`: with a progress deadline, a paused deployment gets
/// `Progressing=Unknown DeploymentPaused` and a resumed one `Progressing=Unknown
/// DeploymentResumed`, unless it has already timed out.
///
/// # Errors
/// The status write.
pub fn check_paused_conditions(ctx: &mut Ctx, d: &mut Deployment) -> Result<(), ApiError> {
    if !has_progress_deadline(d) {
        return Ok(());
    }
    let cond = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING);
    if cond.is_some_and(|c| c.reason == TIMED_OUT_REASON) {
        // If we have reported lack of progress, do not overwrite it with a paused condition.
        return Ok(());
    }
    let paused_cond_exists = cond.is_some_and(|c| c.reason == PAUSED_DEPLOY_REASON);
    let now = ctx.now();
    let c = if d.spec.paused && !paused_cond_exists {
        new_deployment_condition(
            DEPLOYMENT_PROGRESSING,
            CONDITION_UNKNOWN,
            PAUSED_DEPLOY_REASON,
            "Deployment is paused",
            now,
        )
    } else if !d.spec.paused && paused_cond_exists {
        new_deployment_condition(
            DEPLOYMENT_PROGRESSING,
            CONDITION_UNKNOWN,
            RESUMED_DEPLOY_REASON,
            "Deployment is resumed",
            now,
        )
    } else {
        return Ok(());
    };
    set_deployment_condition(&mut d.status, c);
    update_deployment_status(ctx, d).map(|_| ())
}

/// `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when `create_if_not_existed`)
/// with its revision raised above every old one, and all old ReplicaSets (creation order).
///
/// # Errors
/// See [`get_new_replica_set`].
pub fn get_all_replica_sets_and_sync_revision(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
    create_if_not_existed: bool,
) -> Result<(Option<ReplicaSet>, Vec<ReplicaSet>), ApiError> {
    let (_, all_old) = find_old_replica_sets(d, rs_list);
    let new_rs = get_new_replica_set(ctx, d, rs_list, &all_old, create_if_not_existed)?;
    Ok((new_rs, all_old))
}

/// `getNewReplicaSet`: finds the ReplicaSet whose template matches the deployment and syncs its
/// annotations (revision = max old revision + 1, copied annotations) and minReadySeconds, and the
/// deployment's revision annotation; or creates it: name `<deployment>-<hash>`, the
/// `pod-template-hash` label on template and selector, replicas from [`new_rs_new_replicas`].
/// A name collision with a ReplicaSet that is not ours bumps `status.collisionCount` so the next
/// sync hashes differently.
///
/// # Errors
/// Writes that fail; a create failure also sets `Progressing=False ReplicaSetCreateError` and
/// emits a `ReplicaSetCreateError` warning.
pub fn get_new_replica_set(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
    old_rss: &[ReplicaSet],
    create_if_not_existed: bool,
) -> Result<Option<ReplicaSet>, ApiError> {
    let existing = find_new_replica_set(d, rs_list);
    let new_revision = max_revision(old_rss).wrapping_add(1).to_string();
    let now = ctx.now();

    if let Some(existing) = existing {
        let mut rs_copy = existing;
        let annotations_updated = set_new_replica_set_annotations(
            d,
            &mut rs_copy,
            &new_revision,
            true,
            MAX_REV_HISTORY_LENGTH_IN_CHARS,
        );
        let min_ready_needs_update = rs_copy.spec.min_ready_seconds != d.spec.min_ready_seconds;
        if annotations_updated || min_ready_needs_update {
            rs_copy.spec.min_ready_seconds = d.spec.min_ready_seconds;
            return update_replica_set(ctx, rs_copy).map(Some);
        }
        // Use the revision in the existing new RS's annotation, since it was set before.
        let rev = rs_copy
            .metadata
            .annotations
            .get(REVISION_ANNOTATION)
            .cloned()
            .unwrap_or_default();
        let mut needs_update = set_deployment_revision(d, &rev);
        // If no other Progressing condition has been recorded and we need to estimate the
        // progress of this deployment, take into account the first time we noticed the new RS.
        if has_progress_deadline(d)
            && get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).is_none()
        {
            let msg = format!("Found new replica set {:?}", rs_copy.metadata.name);
            let c = new_deployment_condition(
                DEPLOYMENT_PROGRESSING,
                CONDITION_TRUE,
                FOUND_NEW_RS_REASON,
                &msg,
                now,
            );
            set_deployment_condition(&mut d.status, c);
            needs_update = true;
        }
        if needs_update {
            update_deployment_status(ctx, d)?;
        }
        return Ok(Some(rs_copy));
    }

    if !create_if_not_existed {
        return Ok(None);
    }

    // The new ReplicaSet does not exist: create one.
    let mut template = crate::api::PodTemplateSpec::clone(&d.spec.template);
    let hash = compute_hash(&template, d.status.collision_count);
    template
        .metadata
        .labels
        .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), hash.clone());
    // labelsutil.CloneSelectorAndAddLabel
    let mut selector = d.spec.selector.clone().unwrap_or_default();
    selector
        .match_labels
        .get_or_insert_with(Default::default)
        .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), hash.clone());

    let mut new_rs = ReplicaSet::default();
    new_rs.metadata.name = generate_replica_set_name(&d.metadata.name, &hash);
    new_rs.metadata.namespace = d.metadata.namespace.clone();
    new_rs.metadata.owner_references = vec![controller_ref(d)].into();
    new_rs.metadata.labels = template.metadata.labels.clone();
    new_rs.spec.replicas = Some(0);
    new_rs.spec.min_ready_seconds = d.spec.min_ready_seconds;
    new_rs.spec.selector = Some(selector);
    new_rs.spec.template = std::sync::Arc::new(template);

    let all = all_rss(old_rss, Some(&new_rs));
    let new_replicas = new_rs_new_replicas(d, &all, &new_rs).map_err(internal)?;
    new_rs.spec.replicas = Some(new_replicas);
    set_new_replica_set_annotations(
        d,
        &mut new_rs,
        &new_revision,
        false,
        MAX_REV_HISTORY_LENGTH_IN_CHARS,
    );

    let name = new_rs.metadata.name.clone();
    let mut already_exists = false;
    let created = match ctx.create(Object::ReplicaSet(new_rs)).map(into_owned) {
        Ok(Object::ReplicaSet(rs)) => rs,
        Ok(_) => return Err(internal("unexpected kind")),
        // We may end up hitting this due to a slow cache or a fast resync of the Deployment.
        Err(e) if e.is_already_exists() => {
            already_exists = true;
            let rs = ctx
                .store()
                .get::<ReplicaSet>(&d.metadata.namespace, &name)
                .cloned()
                .ok_or_else(|| ApiError::not_found(&ReplicaSet::qualified_resource(), &name))?;
            // Ours and the same template: it is the new ReplicaSet. Otherwise a hash collision:
            // bump collisionCount and retry the creation in the next sync.
            let ours = rs
                .metadata
                .controller_ref()
                .is_some_and(|r| r.uid == d.metadata.uid);
            if ours && equal_ignore_hash(&d.spec.template, &rs.spec.template) {
                rs
            } else {
                // `*d.Status.CollisionCount++`: int32, wrapping as Go's does (validation then rejects it).
                d.status.collision_count =
                    Some(d.status.collision_count.unwrap_or(0).wrapping_add(1));
                let _ = update_deployment_status(ctx, d);
                return Err(e);
            }
        }
        Err(e) => {
            let msg = format!("Failed to create new replica set {name:?}: {e}");
            if has_progress_deadline(d) {
                let c = new_deployment_condition(
                    DEPLOYMENT_PROGRESSING,
                    CONDITION_FALSE,
                    FAILED_RS_CREATE_REASON,
                    &msg,
                    now,
                );
                set_deployment_condition(&mut d.status, c);
                // We don't care about this error: we have a bigger issue to report.
                let _ = update_deployment_status(ctx, d);
            }
            event(ctx, d, "Warning", FAILED_RS_CREATE_REASON, &msg);
            return Err(e);
        }
    };
    if !already_exists && new_replicas > 0 {
        let msg = format!(
            "Scaled up replica set {} from 0 to {new_replicas}",
            created.metadata.name
        );
        event(ctx, d, "Normal", "ScalingReplicaSet", &msg);
    }

    let mut needs_update = set_deployment_revision(d, &new_revision);
    if !already_exists && has_progress_deadline(d) {
        let msg = format!("Created new replica set {:?}", created.metadata.name);
        let c = new_deployment_condition(
            DEPLOYMENT_PROGRESSING,
            CONDITION_TRUE,
            NEW_REPLICA_SET_REASON,
            &msg,
            now,
        );
        set_deployment_condition(&mut d.status, c);
        needs_update = true;
    }
    if needs_update {
        update_deployment_status(ctx, d)?;
    }
    Ok(Some(created))
}

/// `scale`: reconciles a scaling event (or a paused deployment) proportionally.
///
/// 1. Exactly one active ReplicaSet (or none: the newest) → it gets `replicas`.
/// 2. A saturated new ReplicaSet → every active old one goes to 0.
/// 3. RollingUpdate → the difference between `replicas + maxSurge` and the current total is
///    spread over the active ReplicaSets in proportion to their size (largest first; newer first
///    when scaling up, older first when scaling down); leftovers go to the first one.
///
/// Concrete example: 10 → 15 with RSs of 5 (new, max-replicas 10) and 5 (old): each gets
/// round(5 × 15/10) − 5 = 3, capped by what is left: new +3, old +2.
///
/// # Errors
/// The first failed update (the deployment is requeued).
pub fn scale(
    ctx: &mut Ctx,
    d: &Deployment,
    new_rs: Option<&ReplicaSet>,
    old_rss: &mut [ReplicaSet],
) -> Result<(), ApiError> {
    // If there is only one active replica set then we should scale that up to the full count of
    // the deployment. If there is no active replica set, then scale up the newest replica set.
    if let Some(rs) = find_active_or_latest(new_rs, old_rss) {
        if rs.replicas() == d.replicas() {
            return Ok(());
        }
        scale_replica_set_and_record_event(ctx, &rs, d.replicas(), d)?;
        return Ok(());
    }

    // If the new replica set is saturated, old replica sets should be fully scaled down.
    // This case handles replica set adoption during a saturated new replica set.
    if is_saturated(d, new_rs) {
        for old in filter_active_replica_sets(old_rss) {
            scale_replica_set_and_record_event(ctx, &old, 0, d)?;
        }
        return Ok(());
    }

    // There are old replica sets with pods and the new replica set is not saturated: scale all
    // replica sets (new and old) proportionally in case of a rolling deployment.
    if is_rolling_update(d) {
        let mut all = filter_active_replica_sets(&all_rss(old_rss, new_rs));
        let all_replicas = get_replica_count_for_replica_sets(&all);
        let allowed = if d.replicas() > 0 {
            d.replicas().wrapping_add(max_surge(d))
        } else {
            0
        };
        // Replicas to add (or remove, when negative), distributed proportionally (int32
        // arithmetic, wrapping as Go's does).
        let to_add = allowed.wrapping_sub(all_replicas);
        // Larger replica sets first; for equal sizes, newer first when scaling up and older
        // first when scaling down.
        let op = if to_add > 0 {
            crate::sort::sort_by(&mut all, cmp_replica_sets_by_size_newer);
            "up"
        } else if to_add < 0 {
            crate::sort::sort_by(&mut all, cmp_replica_sets_by_size_older);
            "down"
        } else {
            ""
        };
        let mut added = 0;
        let mut sizes: Vec<i32> = Vec::with_capacity(all.len());
        for rs in &all {
            if to_add != 0 {
                let p = get_proportion(Some(rs), d, to_add, added);
                sizes.push(rs.replicas().wrapping_add(p));
                added = added.wrapping_add(p);
            } else {
                sizes.push(rs.replicas());
            }
        }
        for (i, rs) in all.iter().enumerate() {
            // Add/remove any leftovers to the largest replica set.
            if i == 0 && to_add != 0 {
                sizes[0] = sizes[0].wrapping_add(to_add.wrapping_sub(added)).max(0);
            }
            scale_replica_set(ctx, rs, sizes[i], d, op)?;
        }
    }
    Ok(())
}

/// `scaleReplicaSetAndRecordEvent`: no-op when the size is already right.
///
/// # Errors
/// The update.
pub fn scale_replica_set_and_record_event(
    ctx: &mut Ctx,
    rs: &ReplicaSet,
    new_scale: i32,
    d: &Deployment,
) -> Result<(bool, ReplicaSet), ApiError> {
    if rs.replicas() == new_scale {
        return Ok((false, rs.clone()));
    }
    let op = if rs.replicas() < new_scale {
        "up"
    } else {
        "down"
    };
    scale_replica_set(ctx, rs, new_scale, d, op)
}

/// `scaleReplicaSet`: updates the size and the desired/max-replicas annotations when either is
/// stale. Only a size change counts as scaled and emits
/// `ScalingReplicaSet "Scaled <up|down> replica set <name> from <old> to <new>"`.
///
/// # Errors
/// The update.
pub fn scale_replica_set(
    ctx: &mut Ctx,
    rs: &ReplicaSet,
    new_scale: i32,
    d: &Deployment,
    op: &str,
) -> Result<(bool, ReplicaSet), ApiError> {
    let size_needs_update = rs.replicas() != new_scale;
    let max = d.replicas().wrapping_add(max_surge(d));
    let annotations_need_update = replicas_annotations_need_update(rs, d.replicas(), max);
    if !size_needs_update && !annotations_need_update {
        return Ok((false, rs.clone()));
    }
    let old_scale = rs.replicas();
    let mut copy = rs.clone();
    copy.spec.replicas = Some(new_scale);
    set_replicas_annotations(&mut copy, d.replicas(), max);
    let updated = update_replica_set(ctx, copy)?;
    if size_needs_update {
        let msg = format!(
            "Scaled {op} replica set {} from {old_scale} to {new_scale}",
            updated.metadata.name
        );
        event(ctx, d, "Normal", "ScalingReplicaSet", &msg);
    }
    Ok((size_needs_update, updated))
}

/// `cleanupDeployment`: keeps the newest `revisionHistoryLimit` old ReplicaSets. The oldest
/// (by revision) beyond the limit are deleted if they are fully scaled down and synced; the others
/// are skipped, not replaced by later candidates.
///
/// # Errors
/// The first failed delete (NotFound is ignored).
pub fn cleanup_deployment(
    ctx: &mut Ctx,
    old_rss: &[ReplicaSet],
    d: &Deployment,
) -> Result<(), ApiError> {
    if !has_revision_history_limit(d) {
        return Ok(());
    }
    // Avoid deleting replica sets that are already being deleted.
    let mut cleanable: Vec<ReplicaSet> = old_rss
        .iter()
        .filter(|rs| rs.metadata.deletion_timestamp.is_none())
        .cloned()
        .collect();
    let diff = cleanable.len() as i64 - i64::from(d.spec.revision_history_limit.unwrap_or(0));
    if diff <= 0 {
        return Ok(());
    }
    crate::sort::sort_by(&mut cleanable, cmp_replica_sets_by_revision);
    let terminating_gate = ctx.gates.enabled("DeploymentReplicaSetTerminatingReplicas");
    for rs in cleanable.iter().take(diff as usize) {
        // Avoid deleting a replica set with non-zero replica counts.
        if rs.status.replicas != 0
            || rs.replicas() != 0
            || rs.metadata.generation > rs.status.observed_generation
            || rs.metadata.deletion_timestamp.is_some()
        {
            continue;
        }
        // With terminating-replica tracking, also wait for terminating pods to be gone.
        if terminating_gate && rs.status.terminating_replicas.unwrap_or(0) != 0 {
            continue;
        }
        match ctx.delete::<ReplicaSet>(
            &rs.metadata.namespace,
            &rs.metadata.name,
            &DeleteOptions::default(),
        ) {
            Ok(_) => {}
            Err(e) if e.is_not_found() => {}
            // Return instead of continuing, on the theory that we may be overloading the API.
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `syncDeploymentStatus`: writes [`calculate_status`] when it differs.
///
/// # Errors
/// The status write.
pub fn sync_deployment_status(
    ctx: &mut Ctx,
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    d: &mut Deployment,
) -> Result<(), ApiError> {
    let new_status = calculate_status(all, new_rs, d, ctx.now(), ctx.gates);
    if d.status == new_status {
        return Ok(());
    }
    d.status = new_status.into();
    update_deployment_status(ctx, d).map(|_| ())
}

/// `calculateStatus`: counts from the ReplicaSets, conditions copied, and
/// `Available=True MinimumReplicasAvailable` when at least `replicas − maxUnavailable` pods are
/// available, else `Available=False MinimumReplicasUnavailable`.
pub fn calculate_status(
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    d: &Deployment,
    now: Time,
    gates: &FeatureGates,
) -> DeploymentStatus {
    let available = get_available_replica_count_for_replica_sets(all);
    let total = get_replica_count_for_replica_sets(all);
    // More available than desired (e.g. while scaling down) is not negative unavailability.
    let unavailable = total.wrapping_sub(available).max(0);
    let mut status = DeploymentStatus {
        observed_generation: d.metadata.generation,
        replicas: get_actual_replica_count_for_replica_sets(all),
        updated_replicas: new_rs.map_or(0, |rs| rs.status.replicas),
        ready_replicas: get_ready_replica_count_for_replica_sets(all),
        available_replicas: available,
        unavailable_replicas: unavailable,
        terminating_replicas: None,
        conditions: d.status.conditions.clone(),
        collision_count: d.status.collision_count,
    };
    if gates.enabled("DeploymentReplicaSetTerminatingReplicas") {
        status.terminating_replicas = get_terminating_replica_count_for_replica_sets(all);
    }
    let c = if available >= d.replicas() - max_unavailable(d) {
        new_deployment_condition(
            DEPLOYMENT_AVAILABLE,
            CONDITION_TRUE,
            MINIMUM_REPLICAS_AVAILABLE,
            "Deployment has minimum availability.",
            now,
        )
    } else {
        new_deployment_condition(
            DEPLOYMENT_AVAILABLE,
            CONDITION_FALSE,
            MINIMUM_REPLICAS_UNAVAILABLE,
            "Deployment does not have minimum availability.",
            now,
        )
    };
    set_deployment_condition(&mut status, c);
    status
}

/// `isScalingEvent`: an active ReplicaSet whose desired-replicas annotation differs from
/// `spec.replicas` means the deployment was scaled.
///
/// # Errors
/// See [`get_all_replica_sets_and_sync_revision`].
pub fn is_scaling_event(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
) -> Result<bool, ApiError> {
    let (new_rs, old_rss) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, false)?;
    let all = all_rss(&old_rss, new_rs.as_ref());
    Ok(filter_active_replica_sets(&all)
        .iter()
        .filter_map(util::get_desired_replicas_annotation)
        .any(|desired| desired != d.replicas()))
}
