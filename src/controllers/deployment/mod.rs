//! The Deployment controller (`pkg/controller/deployment/deployment_controller.go`).
//!
//! One reconcile ([`sync_deployment`]) claims the deployment's ReplicaSets, then either only
//! writes status (being deleted), scales proportionally (paused or a scaling event, `sync.rs`),
//! performs a legacy rollback (`rollback.rs`), or rolls out (`rolling.rs` / `recreate.rs`). Progress
//! conditions and the progress-deadline requeue live in `progress.rs`; pure maths in `util.rs`.
//!
//! As upstream, the controller keeps the Deployment it read at the start of the sync and writes
//! it back without refreshing its resourceVersion; a second write in one sync therefore fails
//! with a Conflict and the key is retried (rate limited), exactly as kube-controller-manager logs
//! "the object has been modified" during rollouts.

pub mod progress;
pub mod recreate;
pub mod rollback;
pub mod rolling;
pub mod sync;
pub mod util;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod apps_ports;

#[cfg(test)]
mod rs_index_tests;

use crate::api::{
    ApiError, Deployment, LabelSelector, Object, OwnerReference, Pod, ReplicaSet, Resource, Time,
};
use crate::controllers::into_owned;
use crate::controllers::{Action, Controller, Ctx};
use crate::queue::WorkQueue;
use crate::sort::CollectBTreeMap as _;
use crate::store::{Change, Store};
use std::collections::BTreeMap;

/// The component name events are reported from.
pub const COMPONENT: &str = "deployment-controller";

/// `maxRetries`: a failing key is retried with back-off this many times, then dropped.
pub const MAX_RETRIES: u32 = 15;

/// Pods of the deployment grouped by the uid of the ReplicaSet controlling them (every claimed
/// ReplicaSet has an entry, possibly empty).
pub type PodMap = BTreeMap<String, Vec<Pod>>;

/// The Deployment controller. It keeps no state between syncs (no expectations).
#[derive(Debug, Default)]
pub struct DeploymentController;

impl DeploymentController {
    pub fn new() -> Self {
        DeploymentController
    }
}

/// An error that is not an API error (an invalid selector, an unknown strategy, ...), as a
/// `StatusError` so it can travel the same way.
pub(crate) fn internal(msg: impl Into<String>) -> ApiError {
    ApiError {
        reason: crate::api::Reason::InternalError,
        message: msg.into(),
        causes: vec![],
        kind: String::new(),
        name: String::new(),
    }
}

/// `recorder.Eventf(d, type, reason, message)`.
pub(crate) fn event(ctx: &mut Ctx, d: &Deployment, type_: &str, reason: &str, message: &str) {
    ctx.event(&Object::Deployment(d.clone()), type_, reason, message);
}

/// `Deployments(ns).UpdateStatus(d)`.
pub(crate) fn update_deployment_status(
    ctx: &mut Ctx,
    d: &Deployment,
) -> Result<Deployment, ApiError> {
    match into_owned(ctx.update_status(Object::Deployment(d.clone()))?) {
        Object::Deployment(d) => Ok(d),
        _ => Err(internal("unexpected kind")),
    }
}

/// `Deployments(ns).Update(d)`.
pub(crate) fn update_deployment(ctx: &mut Ctx, d: &Deployment) -> Result<Deployment, ApiError> {
    match into_owned(ctx.update(Object::Deployment(d.clone()))?) {
        Object::Deployment(d) => Ok(d),
        _ => Err(internal("unexpected kind")),
    }
}

/// `ReplicaSets(ns).Update(rs)`.
pub(crate) fn update_replica_set(ctx: &mut Ctx, rs: ReplicaSet) -> Result<ReplicaSet, ApiError> {
    match into_owned(ctx.update(Object::ReplicaSet(rs))?) {
        Object::ReplicaSet(rs) => Ok(rs),
        _ => Err(internal("unexpected kind")),
    }
}

/// `metav1.NewControllerRef(d, controllerKind)`.
pub fn controller_ref(d: &Deployment) -> OwnerReference {
    OwnerReference {
        api_version: Deployment::API_VERSION.into(),
        kind: Deployment::KIND.into(),
        name: d.metadata.name.clone(),
        uid: d.metadata.uid.clone(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

fn split_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

/// `resolveControllerRef`: the deployment named by a controller reference, if it still exists
/// with that uid.
pub fn resolve_controller_ref<'a>(
    store: &'a Store,
    namespace: &str,
    r: &OwnerReference,
) -> Option<&'a Deployment> {
    if r.kind != Deployment::KIND {
        return None;
    }
    store
        .get::<Deployment>(namespace, &r.name)
        .filter(|d| d.metadata.uid == r.uid)
}

/// `getDeploymentsForReplicaSet`: deployments whose selector matches an orphan's labels.
fn get_deployments_for_replica_set<'a>(store: &'a Store, rs: &ReplicaSet) -> Vec<&'a Deployment> {
    util::get_deployments_for_replica_set(
        store.list::<Deployment>(Some(&rs.metadata.namespace)),
        rs,
    )
    .unwrap_or_default()
}

/// `getDeploymentForPod`: pod → controlling ReplicaSet → controlling Deployment.
pub fn get_deployment_for_pod<'a>(store: &'a Store, pod: &Pod) -> Option<&'a Deployment> {
    let r = pod.metadata.controller_ref()?;
    if r.kind != ReplicaSet::KIND {
        return None;
    }
    let rs = store
        .get::<ReplicaSet>(&pod.metadata.namespace, &r.name)
        .filter(|rs| rs.metadata.uid == r.uid)?;
    let rr = rs.metadata.controller_ref()?;
    resolve_controller_ref(store, &rs.metadata.namespace, rr)
}

/// `getPodMapForDeployment`: pods matching the deployment's selector, grouped by the claimed
/// ReplicaSet that controls them (pods of other owners are left out; inactive pods are kept).
pub fn get_pod_map_for_deployment(
    store: &Store,
    d: &Deployment,
    rs_list: &[ReplicaSet],
) -> Result<PodMap, ApiError> {
    let selector = match &d.spec.selector {
        None => crate::api::Selector::Nothing,
        Some(s) => s.to_selector().map_err(internal)?,
    };
    let mut map: PodMap = rs_list
        .iter()
        .map(|rs| (rs.metadata.uid.clone(), vec![]))
        .collect_btree_map();
    for pod in store.pods_selector_candidates(&d.metadata.namespace, &selector) {
        if !selector.matches(&pod.metadata.labels) {
            continue;
        }
        if let Some(r) = pod.metadata.controller_ref() {
            if let Some(list) = map.get_mut(&r.uid) {
                list.push(pod.clone());
            }
        }
    }
    Ok(map)
}

/// `getReplicaSetsForDeployment`: every ReplicaSet of the namespace, claimed through the
/// controller-ref manager — owned and matching are kept, owned but no longer matching are released,
/// matching orphans are adopted (after re-checking that the deployment is not being deleted).
/// Adoption and release are recorded as `patch` actions, as the upstream client does.
///
/// # Errors
/// An invalid selector, or the first adopt/release failure (the sync is retried).
pub fn get_replica_sets_for_deployment(
    ctx: &mut Ctx,
    d: &Deployment,
) -> Result<Vec<ReplicaSet>, ApiError> {
    // The namespace's ReplicaSets in name order, without those controlled by another owner
    // (they are skipped below and not cloned): found through the store's owner index and its
    // set of uncontrolled objects rather than by walking every ReplicaSet of the namespace.
    let rs_list: Vec<ReplicaSet> = ctx
        .store()
        .controlled_by_or_uncontrolled(ReplicaSet::KIND, &d.metadata.namespace, &d.metadata.uid)
        .into_iter()
        .filter_map(ReplicaSet::from_object)
        .cloned()
        .collect();
    #[cfg(test)]
    rs_index_tests::verify_rs_list(ctx.store(), d, &rs_list);
    let selector = match &d.spec.selector {
        None => crate::api::Selector::Nothing,
        Some(s) => s.to_selector().map_err(|e| {
            internal(format!(
                "deployment {}/{} has invalid label selector: {e}",
                d.metadata.namespace, d.metadata.name
            ))
        })?,
    };
    let mut claimed = vec![];
    let mut errs = vec![];
    for rs in rs_list {
        let matches = selector.matches(&rs.metadata.labels);
        match rs.metadata.controller_ref() {
            Some(r) if r.uid != d.metadata.uid => {} // owned by someone else
            Some(_) if matches => claimed.push(rs),
            Some(_) => {
                if d.metadata.deletion_timestamp.is_some() {
                    continue;
                }
                if let Err(e) = release_replica_set(ctx, d, &rs) {
                    if !e.is_not_found() {
                        errs.push(e);
                    }
                }
            }
            None => {
                if d.metadata.deletion_timestamp.is_some()
                    || !matches
                    || rs.metadata.deletion_timestamp.is_some()
                    || rs.metadata.namespace != d.metadata.namespace
                {
                    continue;
                }
                match adopt_replica_set(ctx, d, &rs) {
                    Ok(()) => claimed.push(rs),
                    Err(e) if e.is_not_found() => {}
                    Err(e) => errs.push(e),
                }
            }
        }
    }
    // `ClaimReplicaSets` claims every ReplicaSet and returns `utilerrors.NewAggregate(errlist)`.
    match crate::controllers::controller_ref_manager::aggregate(errs) {
        Some(e) => Err(e),
        None => Ok(claimed),
    }
}

fn record_patch(ctx: &mut Ctx, rs: &ReplicaSet) {
    ctx.actions.push(Action {
        verb: "patch",
        kind: ReplicaSet::KIND,
        namespace: rs.metadata.namespace.clone(),
        name: rs.metadata.name.clone(),
        replicas: None,
    });
}

/// `AdoptReplicaSet`: `RecheckDeletionTimestamp` on a fresh read of the deployment (its failure
/// wrapped as `can't adopt ReplicaSet ns/name (uid): ...`, which is no longer a NotFound), then a
/// patch adding the controller reference (with a uid precondition on the ReplicaSet).
fn adopt_replica_set(ctx: &mut Ctx, d: &Deployment, rs: &ReplicaSet) -> Result<(), ApiError> {
    use crate::controllers::controller_ref_manager::{recheck_deletion_timestamp, ClaimOwner};
    let nothing = crate::api::Selector::Nothing; // the recheck reads no selector
    let owner = ClaimOwner {
        meta: &d.metadata,
        api_version: "apps/v1",
        kind: Deployment::KIND,
        selector: &nothing,
    };
    if let Err(e) = recheck_deletion_timestamp(ctx, &owner) {
        let m = &rs.metadata;
        return Err(internal(format!(
            "can't adopt ReplicaSet {}/{} ({}): {e}",
            m.namespace, m.name, m.uid
        )));
    }
    record_patch(ctx, rs);
    let mut cur = ctx
        .store()
        .get::<ReplicaSet>(&rs.metadata.namespace, &rs.metadata.name)
        .cloned()
        .filter(|c| c.metadata.uid == rs.metadata.uid)
        .ok_or_else(|| ApiError::not_found(&ReplicaSet::qualified_resource(), &rs.metadata.name))?;
    // Strategic merge on ownerReferences (merge key uid).
    let r = controller_ref(d);
    cur.metadata.owner_references.retain(|o| o.uid != r.uid);
    cur.metadata.owner_references.push(r);
    ctx.api.update(Object::ReplicaSet(cur)).map(|_| ())
}

/// `ReleaseReplicaSet`: a patch deleting our owner reference. NotFound and Invalid (no such owner
/// reference / the ReplicaSet was recreated) are ignored.
fn release_replica_set(ctx: &mut Ctx, d: &Deployment, rs: &ReplicaSet) -> Result<(), ApiError> {
    record_patch(ctx, rs);
    let Some(mut cur) = ctx
        .store()
        .get::<ReplicaSet>(&rs.metadata.namespace, &rs.metadata.name)
        .cloned()
        .filter(|c| c.metadata.uid == rs.metadata.uid)
    else {
        return Ok(());
    };
    let before = cur.metadata.owner_references.len();
    cur.metadata
        .owner_references
        .retain(|o| o.uid != d.metadata.uid);
    if cur.metadata.owner_references.len() == before {
        return Ok(());
    }
    match ctx.api.update(Object::ReplicaSet(cur)) {
        Ok(_) => Ok(()),
        Err(e) if e.is_not_found() || e.reason == crate::api::Reason::Invalid => Ok(()),
        Err(e) => Err(e),
    }
}

/// `syncDeployment`: one reconcile of the deployment `namespace/name`.
///
/// # Errors
/// Any API error on the way; the key is retried with back-off.
pub fn sync_deployment(ctx: &mut Ctx, key: &str) -> Result<(), ApiError> {
    let (ns, name) = split_key(key);
    let Some(d) = ctx.store().get::<Deployment>(ns, name).cloned() else {
        return Ok(()); // deleted
    };
    let mut d = d;

    // A selector of `{}` (reflect.DeepEqual with an empty LabelSelector) selects everything.
    if d.spec.selector == Some(LabelSelector::default()) {
        event(
            ctx,
            &d,
            "Warning",
            "SelectingAll",
            "This deployment is selecting all pods. A non-empty selector is required.",
        );
        if d.status.observed_generation < d.metadata.generation {
            d.status.observed_generation = d.metadata.generation;
            let _ = update_deployment_status(ctx, &d);
        }
        return Ok(());
    }

    let mut rs_list = get_replica_sets_for_deployment(ctx, &d)?;

    if d.metadata.deletion_timestamp.is_some() {
        return sync::sync_status_only(ctx, &mut d, &mut rs_list);
    }

    // Update deployment conditions with an Unknown condition when pausing/resuming a deployment,
    // so a resumed deployment does not time out because of the time it spent paused.
    sync::check_paused_conditions(ctx, &mut d)?;

    if d.spec.paused {
        return sync::sync(ctx, &mut d, &mut rs_list);
    }

    // Legacy rollback (`deprecated.deployment.rollback.to`); kept for backward compatibility.
    if rollback::get_rollback_to(&d).is_some() {
        return rollback::rollback(ctx, &mut d, &mut rs_list);
    }

    if sync::is_scaling_event(ctx, &mut d, &mut rs_list)? {
        return sync::sync(ctx, &mut d, &mut rs_list);
    }

    match d.spec.strategy.type_.as_str() {
        util::RECREATE => {
            // List all Pods owned by this Deployment, grouped by their ReplicaSet. This is only
            // used by the Recreate strategy, to wait for old pods to be gone. Built only here:
            // nothing before writes pods, the ReplicaSets' uids are unchanged, and the selector
            // was already validated by `get_replica_sets_for_deployment`.
            let pod_map = get_pod_map_for_deployment(ctx.store(), &d, &rs_list)?;
            recreate::rollout_recreate(ctx, &mut d, &mut rs_list, &pod_map)
        }
        util::ROLLING_UPDATE => rolling::rollout_rolling(ctx, &mut d, &mut rs_list),
        t => Err(internal(format!(
            "unexpected deployment strategy type: {t}"
        ))),
    }
}

fn enqueue(queue: &mut WorkQueue, d: &Deployment) {
    queue.add_owned(d.metadata.key());
}

/// `addReplicaSet`.
fn add_replica_set(store: &Store, queue: &mut WorkQueue, rs: &ReplicaSet) {
    if rs.metadata.deletion_timestamp.is_some() {
        // On a restart of the controller manager, a new ReplicaSet may show up in a state that
        // is already pending deletion: prevent it from being a creation observation.
        delete_replica_set(store, queue, rs);
        return;
    }
    if let Some(r) = rs.metadata.controller_ref() {
        if let Some(d) = resolve_controller_ref(store, &rs.metadata.namespace, r) {
            enqueue(queue, d);
        }
        return;
    }
    // An orphan: wake every matching deployment so one of them can adopt it.
    for d in get_deployments_for_replica_set(store, rs) {
        enqueue(queue, d);
    }
}

/// `updateReplicaSet`.
fn update_replica_set_event(
    store: &Store,
    queue: &mut WorkQueue,
    old: &ReplicaSet,
    cur: &ReplicaSet,
) {
    if cur.metadata.resource_version == old.metadata.resource_version {
        return; // a periodic resync
    }
    let cur_ref = cur.metadata.controller_ref();
    let old_ref = old.metadata.controller_ref();
    let changed = cur_ref != old_ref;
    if changed {
        if let Some(r) = old_ref {
            if let Some(d) = resolve_controller_ref(store, &old.metadata.namespace, r) {
                enqueue(queue, d);
            }
        }
    }
    if let Some(r) = cur_ref {
        if let Some(d) = resolve_controller_ref(store, &cur.metadata.namespace, r) {
            enqueue(queue, d);
        }
        return;
    }
    if cur.metadata.labels != old.metadata.labels || changed {
        for d in get_deployments_for_replica_set(store, cur) {
            enqueue(queue, d);
        }
    }
}

/// `deleteReplicaSet`.
fn delete_replica_set(store: &Store, queue: &mut WorkQueue, rs: &ReplicaSet) {
    if let Some(r) = rs.metadata.controller_ref() {
        if let Some(d) = resolve_controller_ref(store, &rs.metadata.namespace, r) {
            enqueue(queue, d);
        }
    }
}

/// `deletePod`: a Recreate deployment is woken when its last pod is gone.
fn delete_pod(store: &Store, queue: &mut WorkQueue, pod: &Pod) {
    let Some(d) = get_deployment_for_pod(store, pod) else {
        return;
    };
    if d.spec.strategy.type_ != util::RECREATE {
        return;
    }
    let rs_list = util::list_replica_sets(d, store.list::<ReplicaSet>(Some(&d.metadata.namespace)));
    let Ok(map) = get_pod_map_for_deployment(store, d, &rs_list) else {
        return;
    };
    if map.values().map(Vec::len).sum::<usize>() == 0 {
        enqueue(queue, d);
    }
}

impl Controller for DeploymentController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, _now: Time) {
        match (change.old_obj(), change.new_obj()) {
            // addDeployment / updateDeployment / deleteDeployment: enqueue.
            (_, Some(Object::Deployment(d))) | (Some(Object::Deployment(d)), None) => {
                enqueue(queue, d)
            }
            (None, Some(Object::ReplicaSet(rs))) => add_replica_set(store, queue, rs),
            (Some(Object::ReplicaSet(old)), Some(Object::ReplicaSet(cur))) => {
                update_replica_set_event(store, queue, old, cur)
            }
            (Some(Object::ReplicaSet(rs)), None) => delete_replica_set(store, queue, rs),
            (Some(Object::Pod(p)), None) => delete_pod(store, queue, p),
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        match sync_deployment(ctx, key) {
            Ok(()) => Ok(()),
            // handleErr: retry with back-off up to maxRetries, then drop the key.
            Err(e) if ctx.queue.num_requeues(key) < MAX_RETRIES => Err(e),
            Err(_) => {
                ctx.queue.forget(key);
                Ok(())
            }
        }
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for d in store.list::<Deployment>(None) {
            enqueue(queue, d);
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
