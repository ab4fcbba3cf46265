//! The StatefulSet controller (`pkg/controller/statefulset/stateful_set.go`): informer handlers,
//! `sync` (adopt orphaned revisions, claim pods, run the control loop) and the
//! minReadySeconds requeues.

use super::stateful_set_control::update_stateful_set;
use super::stateful_set_utils::{is_member_of, CONTROLLER_API_VERSION, CONTROLLER_KIND};
use crate::api::{
    ApiError, ControllerRevision, Duration, Object, OwnerReference, PersistentVolumeClaim, Pod,
    Selector, StatefulSet, Time,
};
use crate::controllers::controller_ref_manager::{
    claim_objects, internal_error, recheck_deletion_timestamp, ClaimOwner,
};
use crate::controllers::controller_utils::{is_pod_ready, label_selector_as_selector};
use crate::controllers::history::{adopt_controller_revision, list_controller_revisions};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::{Change, Store};

/// The component name (`statefulset-controller`), also the events' source.
pub const NAME: &str = "statefulset-controller";

/// The StatefulSet controller. It keeps no expectations: every sync recomputes from the store.
#[derive(Clone, Debug, Default)]
pub struct StatefulSetController;

fn split_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

/// `resolveControllerRef`: the set a controller reference points to, if its uid still matches.
pub fn resolve_controller_ref<'a>(
    store: &'a Store,
    namespace: &str,
    cref: &OwnerReference,
) -> Option<&'a StatefulSet> {
    if cref.kind != CONTROLLER_KIND {
        return None;
    }
    store
        .get::<StatefulSet>(namespace, &cref.name)
        .filter(|s| s.metadata.uid == cref.uid)
}

/// `GetPodStatefulSets` (`getStatefulSetsForPod`): sets in the pod's namespace whose non-empty
/// selector matches the pod's labels.
pub fn get_stateful_sets_for_pod<'a>(store: &'a Store, pod: &Pod) -> Vec<&'a StatefulSet> {
    if pod.metadata.labels.is_empty() {
        return vec![];
    }
    store
        .list::<StatefulSet>(Some(&pod.metadata.namespace))
        .filter(
            |s| match label_selector_as_selector(s.spec.selector.as_ref()) {
                Ok(sel) => !sel.is_empty() && sel.matches(&pod.metadata.labels),
                Err(_) => false,
            },
        )
        .collect()
}

impl StatefulSetController {
    pub fn new() -> Self {
        StatefulSetController
    }

    /// `addPod`.
    pub fn add_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod) {
        if pod.metadata.deletion_timestamp.is_some() {
            self.delete_pod(store, queue, pod);
            return;
        }
        if let Some(cref) = pod.metadata.controller_ref() {
            if let Some(set) = resolve_controller_ref(store, &pod.metadata.namespace, cref) {
                queue.add_owned(set.metadata.key());
            }
            return;
        }
        for set in get_stateful_sets_for_pod(store, pod) {
            queue.add_owned(set.metadata.key());
        }
    }

    /// `updatePod`.
    pub fn update_pod(
        &mut self,
        store: &Store,
        queue: &mut WorkQueue,
        old: &Pod,
        cur: &Pod,
        now: Time,
    ) {
        if cur.metadata.resource_version == old.metadata.resource_version {
            return;
        }
        let label_changed = cur.metadata.labels != old.metadata.labels;
        let cur_ref = cur.metadata.controller_ref();
        let old_ref = old.metadata.controller_ref();
        let ref_changed = cur_ref != old_ref;
        if ref_changed {
            if let Some(o) = old_ref {
                if let Some(set) = resolve_controller_ref(store, &old.metadata.namespace, o) {
                    queue.add_owned(set.metadata.key());
                }
            }
        }
        if let Some(c) = cur_ref {
            let Some(set) = resolve_controller_ref(store, &cur.metadata.namespace, c) else {
                return;
            };
            queue.add_owned(set.metadata.key());
            if !is_pod_ready(old) && is_pod_ready(cur) && set.spec.min_ready_seconds > 0 {
                // Add a second to avoid milliseconds skew in AddAfter (upstream's comment).
                let d = Duration::from_secs(i64::from(set.spec.min_ready_seconds) + 1);
                queue.add_after(&set.metadata.key(), d, now);
            }
            return;
        }
        if label_changed || ref_changed {
            for set in get_stateful_sets_for_pod(store, cur) {
                queue.add_owned(set.metadata.key());
            }
        }
    }

    /// `deletePod`.
    pub fn delete_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod) {
        if let Some(cref) = pod.metadata.controller_ref() {
            if let Some(set) = resolve_controller_ref(store, &pod.metadata.namespace, cref) {
                queue.add_owned(set.metadata.key());
            }
        }
    }

    /// A claim of one of the set's pods went away. Upstream does not watch claims (its sync
    /// resumes on the next pod event or resync); kubeplay has no periodic resync, so a deleted
    /// stale claim (see `PodClaimIsStale`) wakes the sets whose selector labels it carries.
    fn delete_claim(&mut self, store: &Store, queue: &mut WorkQueue, pvc: &PersistentVolumeClaim) {
        for set in store.list::<StatefulSet>(Some(&pvc.metadata.namespace)) {
            let Ok(sel) = label_selector_as_selector(set.spec.selector.as_ref()) else {
                continue;
            };
            if !sel.is_empty() && sel.matches(&pvc.metadata.labels) {
                queue.add_owned(set.metadata.key());
            }
        }
    }

    /// `adoptOrphanRevisions`: adopt matching revisions that have no controller.
    fn adopt_orphan_revisions(
        &self,
        ctx: &mut Ctx,
        set: &StatefulSet,
        selector: &Selector,
    ) -> Result<(), ApiError> {
        let orphans: Vec<ControllerRevision> =
            list_controller_revisions(ctx.store(), &set.metadata, selector)
                .into_iter()
                .filter(|r| r.metadata.controller_ref().is_none())
                .collect();
        if orphans.is_empty() {
            return Ok(());
        }
        let owner = ClaimOwner {
            meta: &set.metadata,
            api_version: CONTROLLER_API_VERSION,
            kind: CONTROLLER_KIND,
            selector,
        };
        if let Err(e) = recheck_deletion_timestamp(ctx, &owner) {
            return Err(internal_error(format!(
                "can't adopt ControllerRevisions: {e}"
            )));
        }
        for r in &orphans {
            adopt_controller_revision(
                ctx,
                &set.metadata,
                CONTROLLER_API_VERSION,
                CONTROLLER_KIND,
                r,
            )?;
        }
        Ok(())
    }

    /// `getPodsForStatefulSet`: every pod of the namespace, claimed (only pods named after the
    /// set may be adopted or kept).
    fn get_pods_for_stateful_set(
        &self,
        ctx: &mut Ctx,
        set: &StatefulSet,
        selector: &Selector,
    ) -> Result<Vec<Pod>, ApiError> {
        let pods: Vec<Pod> = ctx
            .store()
            .list::<Pod>(Some(&set.metadata.namespace))
            .cloned()
            .collect();
        let owner = ClaimOwner {
            meta: &set.metadata,
            api_version: CONTROLLER_API_VERSION,
            kind: CONTROLLER_KIND,
            selector,
        };
        claim_objects(ctx, &owner, pods, |p: &Pod| is_member_of(set, p))
    }

    /// `sync`: adopt revisions, claim pods, `UpdateStatefulSet`, and requeue after
    /// minReadySeconds while not every replica is available.
    ///
    /// # Errors
    /// Adoption, claim or control-loop errors (the key is retried with back-off).
    pub fn sync_stateful_set(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = split_key(key);
        let Some(set) = ctx.store().get::<StatefulSet>(ns, name).cloned() else {
            return Ok(()); // "StatefulSet has been deleted"
        };
        let Ok(selector) = label_selector_as_selector(set.spec.selector.as_ref()) else {
            return Ok(()); // a non-transient error: not retried
        };
        self.adopt_orphan_revisions(ctx, &set, &selector)?;
        let pods = self.get_pods_for_stateful_set(ctx, &set, &selector)?;
        let status = update_stateful_set(ctx, &set, &selector, &pods)?;
        let mrs = set.spec.min_ready_seconds;
        if mrs > 0 && status.available_replicas != set.replicas() {
            ctx.requeue_after(key, Duration::from_secs(i64::from(mrs)));
        }
        Ok(())
    }
}

impl Controller for StatefulSetController {
    fn name(&self) -> &'static str {
        NAME
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (None, Some(Object::Pod(p))) => self.add_pod(store, queue, p),
            (Some(Object::Pod(o)), Some(Object::Pod(n))) => {
                self.update_pod(store, queue, o, n, now)
            }
            (Some(Object::Pod(p)), None) => self.delete_pod(store, queue, p),
            (_, Some(Object::StatefulSet(s))) | (Some(Object::StatefulSet(s)), None) => {
                queue.add_owned(s.metadata.key());
            }
            (Some(Object::PersistentVolumeClaim(c)), None) => self.delete_claim(store, queue, c),
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        self.sync_stateful_set(key, ctx)
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for s in store.list::<StatefulSet>(None) {
            queue.add_owned(s.metadata.key());
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
