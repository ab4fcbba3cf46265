//! Rollbacks: the controller's legacy `deprecated.deployment.rollback.to` path (`rollback.go`)
//! and the pure computation behind `kubectl rollout undo` (kubectl's `DeploymentRollbacker`).

use super::sync::{all_rss, get_all_replica_sets_and_sync_revision};
use super::util::*;
use super::{event, update_deployment};
use crate::api::{ApiError, Deployment, ReplicaSet};
use crate::controllers::Ctx;
use crate::sort::CollectBTreeMap as _;

/// `getRollbackTo`: the revision requested by the legacy annotation (0 = the previous one);
/// `None` when absent or not an integer.
pub fn get_rollback_to(d: &Deployment) -> Option<i64> {
    let v = d.metadata.annotations.get(DEPRECATED_ROLLBACK_TO)?;
    if v.is_empty() {
        return None;
    }
    v.parse::<i64>().ok()
}

/// `setRollbackTo`: sets or (with `None`) removes the legacy annotation.
pub fn set_rollback_to(d: &mut Deployment, revision: Option<i64>) {
    match revision {
        None => {
            d.metadata.annotations.remove(DEPRECATED_ROLLBACK_TO);
        }
        Some(r) => {
            d.metadata
                .annotations
                .insert(DEPRECATED_ROLLBACK_TO.into(), r.to_string());
        }
    }
}

/// `rollback`: rolls the deployment back to the requested revision (0 = the last one before the
/// current) by copying that ReplicaSet's template; in any case clears the rollback annotation.
///
/// Events: `DeploymentRollback "Rolled back deployment \"<name>\" to revision <n>"`,
/// `DeploymentRollbackRevisionNotFound "Unable to find last revision."` /
/// `"Unable to find the revision to rollback to."`, and
/// `DeploymentRollbackTemplateUnchanged "The rollback revision contains the same template as
/// current deployment \"<name>\""`.
///
/// # Errors
/// The writes.
pub fn rollback(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs_list: &mut [ReplicaSet],
) -> Result<(), ApiError> {
    let (new_rs, all_old) = get_all_replica_sets_and_sync_revision(ctx, d, rs_list, true)?;
    let all = all_rss(&all_old, new_rs.as_ref());
    let mut to = get_rollback_to(d).unwrap_or(0);
    // If rollback revision is 0, rollback to the last revision.
    if to == 0 {
        to = last_revision(&all);
        if to == 0 {
            // If we still can't find the last revision, give up the rollback.
            event(
                ctx,
                d,
                "Warning",
                ROLLBACK_REVISION_NOT_FOUND,
                "Unable to find last revision.",
            );
            return update_deployment_and_clear_rollback_to(ctx, d);
        }
    }
    for rs in &all {
        let Ok(v) = revision(&rs.metadata) else {
            continue;
        };
        if v == to {
            // Rollback by copying podTemplate.Spec from the replica set; the revision number
            // is bumped by the next getAllReplicaSetsAndSyncRevision. No-op if the template is
            // already the deployment's.
            let performed = rollback_to_template(ctx, d, rs);
            if matches!(performed, Ok(true)) {
                let msg = format!(
                    "Rolled back deployment {:?} to revision {to}",
                    d.metadata.name
                );
                event(ctx, d, "Normal", ROLLBACK_DONE, &msg);
            }
            return performed.map(|_| ());
        }
    }
    event(
        ctx,
        d,
        "Warning",
        ROLLBACK_REVISION_NOT_FOUND,
        "Unable to find the revision to rollback to.",
    );
    update_deployment_and_clear_rollback_to(ctx, d)
}

/// `rollbackToTemplate`: takes the ReplicaSet's template (and its annotations, so the
/// change-cause follows) when different; always clears the rollback request. True when the
/// template changed.
///
/// # Errors
/// The deployment update.
pub fn rollback_to_template(
    ctx: &mut Ctx,
    d: &mut Deployment,
    rs: &ReplicaSet,
) -> Result<bool, ApiError> {
    let performed = if !equal_ignore_hash(&d.spec.template, &rs.spec.template) {
        set_from_replica_set_template(d, &rs.spec.template);
        // Set the RS's annotations back on the deployment, otherwise the deployment's current
        // annotations (those of the current new RS) would be copied onto the RS rolled back to.
        set_deployment_annotations_to(d, rs);
        true
    } else {
        let msg = format!(
            "The rollback revision contains the same template as current deployment {:?}",
            d.metadata.name
        );
        event(ctx, d, "Warning", ROLLBACK_TEMPLATE_UNCHANGED, &msg);
        false
    };
    update_deployment_and_clear_rollback_to(ctx, d)?;
    Ok(performed)
}

/// `updateDeploymentAndClearRollbackTo`.
///
/// # Errors
/// The deployment update.
pub fn update_deployment_and_clear_rollback_to(
    ctx: &mut Ctx,
    d: &mut Deployment,
) -> Result<(), ApiError> {
    set_rollback_to(d, None);
    update_deployment(ctx, d).map(|_| ())
}

/// What `kubectl rollout undo` does to a deployment.
#[derive(Clone, Debug, PartialEq)]
pub enum UndoResult {
    /// The deployment to write back (template and annotations restored); kubectl prints
    /// `deployment.apps/<name> rolled back`.
    RolledBack(Box<Deployment>),
    /// Nothing to do; kubectl prints `deployment.apps/<name> skipped rollback (current template
    /// already matches revision <n>)`.
    Skipped(String),
}

/// kubectl's `deploymentRevision`: the ReplicaSet of revision `to_revision`, or for 0 the one
/// with the second highest revision.
///
/// # Errors
/// `unable to find specified revision <n> in history` /
/// `no rollout history found for deployment "<name>"`.
pub fn deployment_revision<'a>(
    d: &Deployment,
    rss: &'a [ReplicaSet],
    to_revision: i64,
) -> Result<&'a ReplicaSet, String> {
    let mut latest: (i64, Option<&ReplicaSet>) = (-1, None);
    let mut previous: (i64, Option<&ReplicaSet>) = (-1, None);
    for rs in rss {
        let Ok(v) = revision(&rs.metadata) else {
            continue;
        };
        if to_revision == 0 {
            if latest.0 < v {
                previous = latest;
                latest = (v, Some(rs));
            } else if previous.0 < v {
                previous = (v, Some(rs));
            }
        } else if to_revision == v {
            return Ok(rs);
        }
    }
    if to_revision > 0 {
        return Err(format!(
            "unable to find specified revision {to_revision} in history"
        ));
    }
    previous.1.ok_or_else(|| {
        format!(
            "no rollout history found for deployment {:?}",
            d.metadata.name
        )
    })
}

/// `kubectl rollout undo [--to-revision=N]` (kubectl's `DeploymentRollbacker.Rollback`) as a pure
/// function of the deployment and its ReplicaSets (those controlled by it, as
/// `deploymentutil.GetAllReplicaSets` lists them; the new one included).
///
/// # Errors
/// kubectl's messages: a negative revision, an unknown revision, no history, a paused deployment.
pub fn rollout_undo(
    d: &Deployment,
    rss: &[ReplicaSet],
    to_revision: i64,
) -> Result<UndoResult, String> {
    if to_revision < 0 {
        return Err(format!(
            "unable to find specified revision {to_revision} in history"
        ));
    }
    let rs = deployment_revision(d, rss, to_revision)?;
    if d.spec.paused {
        return Err("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into());
    }
    if equal_ignore_hash(&rs.spec.template, &d.spec.template) {
        return Ok(UndoResult::Skipped(format!(
            "skipped rollback (current template already matches revision {to_revision})"
        )));
    }
    let mut out = d.clone();
    let mut template = crate::api::PodTemplateSpec::clone(&rs.spec.template);
    template
        .metadata
        .labels
        .remove(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY);
    out.spec.template = std::sync::Arc::new(template);
    // Skipped annotations stay as the deployment has them; the rest come from the ReplicaSet.
    let mut annotations: std::collections::BTreeMap<String, String> = d
        .metadata
        .annotations
        .iter()
        .filter(|(k, _)| skip_copy_annotation(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect_btree_map();
    for (k, v) in &rs.metadata.annotations {
        if !skip_copy_annotation(k) {
            annotations.insert(k.clone(), v.clone());
        }
    }
    out.metadata.annotations = annotations.into();
    Ok(UndoResult::RolledBack(Box::new(out)))
}

/// [`rollout_undo`] against a store: the ReplicaSets are those of the deployment's namespace
/// matching its selector and controlled by it.
///
/// # Errors
/// See [`rollout_undo`].
pub fn rollout_undo_in_store(
    store: &crate::store::Store,
    d: &Deployment,
    to_revision: i64,
) -> Result<UndoResult, String> {
    let rss = list_replica_sets(d, store.list::<ReplicaSet>(Some(&d.metadata.namespace)));
    rollout_undo(d, &rss, to_revision)
}
