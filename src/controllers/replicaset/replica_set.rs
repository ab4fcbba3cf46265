//! The ReplicaSet controller (`pkg/controller/replicaset/replica_set.go`); the same code runs
//! ReplicationControllers, as upstream does through `pkg/controller/replication`.
//!
//! Flow: informer handlers ([`ReplicaSetController::add_pod`], `update_pod`, `delete_pod`, and
//! the owner handlers) turn watch events into keys and keep the expectations;
//! [`ReplicaSetController::sync_replica_set`] claims pods, creates or deletes the difference
//! ([`ReplicaSetController::manage_replicas`]) and writes the status.

use super::replica_set_utils::{
    calculate_status, calculate_status_from_counts, pod_counts_of, update_replica_set_status,
};
use crate::api::{
    ApiError, Duration, Object, OwnerReference, Pod, PodTemplateSpec, Reason, ReplicaSet,
    ReplicationController, Selector, Time,
};
use crate::controllers::controller_utils::{
    after_or_zero, compare_restarts, filter_active_pods, filter_claimed_pods,
    filter_terminating_pods, find_min_next_pod_availability_check, get_pod_from_template,
    get_pod_ready_condition, is_pod_active, is_pod_ready, is_pod_terminating,
    label_selector_as_selector, log2_bucket, max_container_restarts, merge_sort_values_by_less,
    new_controller_ref, phase_ordinal, pod_deletion_cost, pod_key, slow_start_batch,
    ActivePodsWithRanks, ScaleDownGates, UidTrackingControllerExpectations,
    FAILED_CREATE_POD_REASON, FAILED_DELETE_POD_REASON, SLOW_START_INITIAL_BATCH_SIZE,
    SUCCESSFUL_CREATE_POD_REASON, SUCCESSFUL_DELETE_POD_REASON,
};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::apiserver::DeleteOptions;
use crate::store::{Change, Store};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// `BurstReplicas`: a ReplicaSet creates or deletes at most this many pods per sync, then sleeps
/// until the watch events for them arrive.
pub const BURST_REPLICAS: usize = 500;

/// Which API kind an instance of the controller manages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwnerKind {
    ReplicaSet,
    ReplicationController,
}

impl OwnerKind {
    pub fn kind(self) -> &'static str {
        match self {
            OwnerKind::ReplicaSet => "ReplicaSet",
            OwnerKind::ReplicationController => "ReplicationController",
        }
    }

    pub fn api_version(self) -> &'static str {
        match self {
            OwnerKind::ReplicaSet => "apps/v1",
            OwnerKind::ReplicationController => "v1",
        }
    }

    /// The events' source component.
    pub fn component(self) -> &'static str {
        match self {
            OwnerKind::ReplicaSet => "replicaset-controller",
            OwnerKind::ReplicationController => "replication-controller",
        }
    }

    /// The owner as a ReplicaSet, if `o` is of this kind (`replication/conversion.go` for RCs).
    pub fn view(self, o: &Object) -> Option<ReplicaSet> {
        match (self, o) {
            (OwnerKind::ReplicaSet, Object::ReplicaSet(rs)) => Some(rs.clone()),
            (OwnerKind::ReplicationController, Object::ReplicationController(rc)) => {
                Some(rc.to_replica_set())
            }
            _ => None,
        }
    }

    /// The owner as a ReplicaSet view borrowed from `o` when it is a ReplicaSet (no copy), or
    /// converted from a ReplicationController.
    pub fn view_cow(self, o: &Object) -> Option<Cow<'_, ReplicaSet>> {
        match (self, o) {
            (OwnerKind::ReplicaSet, Object::ReplicaSet(rs)) => Some(Cow::Borrowed(rs)),
            (OwnerKind::ReplicationController, Object::ReplicationController(rc)) => {
                Some(Cow::Owned(rc.to_replica_set()))
            }
            _ => None,
        }
    }

    /// The stored owner itself (shared with the store, not copied), if it is of this kind.
    pub fn get_shared(self, store: &Store, namespace: &str, name: &str) -> Option<Arc<Object>> {
        store
            .get_arc_by_parts(self.kind(), namespace, name)
            .filter(|o| o.kind() == self.kind())
    }

    /// The stored owner and its ReplicaSet view.
    pub fn get(self, store: &Store, namespace: &str, name: &str) -> Option<(Object, ReplicaSet)> {
        let o = match self {
            OwnerKind::ReplicaSet => store
                .get::<ReplicaSet>(namespace, name)
                .map(|x| Object::ReplicaSet(x.clone())),
            OwnerKind::ReplicationController => store
                .get::<ReplicationController>(namespace, name)
                .map(|x| Object::ReplicationController(x.clone())),
        }?;
        let view = self.view(&o)?;
        Some((o, view))
    }

    /// Every owner of this kind (in `namespace`, or everywhere), as ReplicaSet views, in
    /// (namespace, name) order.
    pub fn list(self, store: &Store, namespace: Option<&str>) -> Vec<ReplicaSet> {
        store
            .list_kind(self.kind(), namespace)
            .filter_map(|o| self.view(o))
            .collect()
    }
}

/// An error that is not an API status (pod control's own messages).
pub(crate) fn internal_error(message: impl Into<String>) -> ApiError {
    ApiError {
        reason: Reason::InternalError,
        message: message.into(),
        causes: vec![],
        kind: String::new(),
        name: String::new(),
    }
}

/// `utilerrors.NewAggregate(errs).Error()`: one message, or `[m1, m2]` without duplicates.
fn aggregate(errs: Vec<ApiError>) -> Option<ApiError> {
    match errs.len() {
        0 => None,
        1 => errs.into_iter().next(),
        _ => {
            let mut seen = BTreeSet::new();
            let mut msgs = vec![];
            for e in &errs {
                if seen.insert(e.message.clone()) {
                    msgs.push(e.message.clone());
                }
            }
            if msgs.len() == 1 {
                return errs.into_iter().next();
            }
            Some(internal_error(format!("[{}]", msgs.join(", "))))
        }
    }
}

/// Go's `time.Time` `%v` for a UTC instant: `2025-01-01 00:00:00 +0000 UTC`.
fn go_time_string(t: Time) -> String {
    let (y, mo, d, h, mi, s, _) = t.civil();
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} +0000 UTC")
}

fn split_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

/// `RealPodControl.CreatePods`: a pod from the template with a controller reference, and the
/// owner's `SuccessfulCreate` / `FailedCreate` event.
///
/// # Errors
/// `unable to create pods, no labels`, or the API server's error.
pub fn create_pods(
    ctx: &mut Ctx,
    owner: &Object,
    template: &PodTemplateSpec,
    controller_ref: &OwnerReference,
) -> Result<(), ApiError> {
    let pod = get_pod_from_template(template, owner.meta(), Some(controller_ref));
    if pod.metadata.labels.is_empty() {
        return Err(internal_error("unable to create pods, no labels"));
    }
    match ctx.create(Object::Pod(pod)) {
        Ok(created) => {
            let msg = format!("Created pod: {}", created.meta().name);
            ctx.event(owner, "Normal", SUCCESSFUL_CREATE_POD_REASON, &msg);
            Ok(())
        }
        Err(e) => {
            // Upstream skips the event when the namespace is terminating; kubeplay has no
            // namespace lifecycle.
            ctx.event(
                owner,
                "Warning",
                FAILED_CREATE_POD_REASON,
                &format!("Error creating: {e}"),
            );
            Err(e)
        }
    }
}

/// `RealPodControl.DeletePod`: deletes the pod and records `SuccessfulDelete` /
/// `FailedDelete` on the owner. NotFound is returned as is, without an event.
///
/// # Errors
/// NotFound, or `unable to delete pods: <err>`.
pub fn delete_pod(
    ctx: &mut Ctx,
    owner: &Object,
    namespace: &str,
    name: &str,
) -> Result<(), ApiError> {
    match ctx.delete::<Pod>(namespace, name, &DeleteOptions::default()) {
        Ok(_) => {
            ctx.event(
                owner,
                "Normal",
                SUCCESSFUL_DELETE_POD_REASON,
                &format!("Deleted pod: {name}"),
            );
            Ok(())
        }
        Err(e) if e.is_not_found() => Err(e),
        Err(e) => {
            ctx.event(
                owner,
                "Warning",
                FAILED_DELETE_POD_REASON,
                &format!("Error deleting: {e}"),
            );
            Err(internal_error(format!("unable to delete pods: {e}")))
        }
    }
}

/// `getPodsToDelete`: when fewer pods than exist are to go, rank them by related pods on the
/// same node, sort with [`ActivePodsWithRanks`] and take the first `diff`; when all go, the input
/// order is kept (no sorting), as upstream.
pub fn get_pods_to_delete<'a>(
    filtered_pods: &[&'a Pod],
    related_pods: &[&Pod],
    diff: usize,
    now: Time,
    gates: ScaleDownGates,
) -> Vec<&'a Pod> {
    if diff < filtered_pods.len() {
        // The same merge sort as `ActivePodsWithRanks::sort` driven by the same `Less`, on keys
        // computed once per pod (log2 buckets included) without cloning any string.
        let mut pods_on_node: std::collections::HashMap<
            &str,
            i32,
            crate::controllers::controller_utils::WordBuild,
        > = Default::default();
        for p in related_pods {
            if is_pod_active(p) {
                *pods_on_node.entry(p.spec.node_name.as_str()).or_default() += 1;
            }
        }
        let keys: Vec<DeleteKey> = filtered_pods
            .iter()
            .map(|p| {
                let rank = pods_on_node
                    .get(p.spec.node_name.as_str())
                    .copied()
                    .unwrap_or(0);
                DeleteKey::of(p, rank, now, gates)
            })
            .collect();
        let sorted = merge_sort_values_by_less(keys, |a, b| delete_key_less(a, b, now, gates));
        return sorted.into_iter().take(diff).map(|k| k.pod).collect();
    }
    filtered_pods.iter().take(diff).copied().collect()
}

/// One pod's `ActivePodsWithRanks` sort key with its rank and both log2 buckets precomputed
/// (borrowing the pod): [`delete_key_less`] decides exactly as [`decide_rank_order`](crate::controllers::controller_utils::decide_rank_order).
#[derive(Clone, Copy)]
struct DeleteKey<'a> {
    /// Rules 1–5 (assigned, phase, ready, deletion cost when the gate is on, rank) packed so
    /// that comparing the numbers decides exactly as those rules do, in order.
    /// (high, low) words, compared as a pair: 8-byte alignment keeps the key small.
    rules_1_to_5: (u64, u64),
    ready_time: Time,
    ready_bucket: i32,
    restarts: (i32, i32),
    created: Time,
    created_bucket: i32,
    /// The uid's first 8 bytes, big-endian and zero-padded: when they differ they order the
    /// uids as the full comparison does.
    uid_prefix: u64,
    /// The pod, for the full uid when two prefixes tie.
    pod: &'a Pod,
}

impl<'a> DeleteKey<'a> {
    fn of(p: &'a Pod, rank: i32, now: Time, gates: ScaleDownGates) -> Self {
        // `is_pod_ready` and `pod_ready_time` in one scan: when the first Ready condition is
        // True, it is also the first True one `pod_ready_time` reads.
        let ready_condition = get_pod_ready_condition(p).filter(|c| c.status == "True");
        let ready = ready_condition.is_some();
        let ready_time =
            ready_condition.map_or(Time::ZERO, |c| c.last_transition_time.unwrap_or(Time::ZERO));
        let created = p.metadata.creation_timestamp.unwrap_or(Time::ZERO);
        // Smaller is "less" (deleted first): unassigned, lower phase ordinal, not ready, lower
        // cost, higher rank.
        let cost = if gates.pod_deletion_cost {
            pod_deletion_cost(p)
        } else {
            0
        };
        let biased = |v: i32| u128::from((i64::from(v) - i64::from(i32::MIN)) as u32);
        let rules_1_to_5 = (u128::from(!p.spec.node_name.is_empty()) << 73)
            | (u128::from(phase_ordinal(&p.status.phase)) << 65)
            | (u128::from(ready) << 64)
            | (biased(cost) << 32)
            | (0xffff_ffff - biased(rank));
        let mut prefix = [0u8; 8];
        let n = p.metadata.uid.len().min(8);
        prefix[..n].copy_from_slice(&p.metadata.uid.as_bytes()[..n]);
        DeleteKey {
            rules_1_to_5: ((rules_1_to_5 >> 64) as u64, rules_1_to_5 as u64),
            ready_time,
            // A bucket is at most 63 (or −1): it fits.
            ready_bucket: log2_bucket(ready_time, now) as i32,
            restarts: max_container_restarts(p),
            created,
            created_bucket: log2_bucket(created, now) as i32,
            uid_prefix: u64::from_be_bytes(prefix),
            pod: p,
        }
    }

    /// `a.uid < b.uid`, bytewise as Go compares strings.
    fn uid_less(&self, other: &Self) -> bool {
        if self.uid_prefix != other.uid_prefix {
            return self.uid_prefix < other.uid_prefix;
        }
        self.pod.metadata.uid < other.pod.metadata.uid
    }

    /// Rule 3's bit: the pod is Ready.
    fn ready(&self) -> bool {
        self.rules_1_to_5.0 & 1 == 1
    }
}

/// `time_rule` of [`decide_rank_order`](crate::controllers::controller_utils::decide_rank_order) on precomputed buckets.
#[allow(clippy::too_many_arguments)]
#[inline]
fn delete_time_less(
    ta: Time,
    tb: Time,
    bucket_a: i32,
    bucket_b: i32,
    a: &DeleteKey,
    b: &DeleteKey,
    now: Time,
    g: ScaleDownGates,
) -> bool {
    if !g.logarithmic_scale_down || now.is_zero() || ta.is_zero() || tb.is_zero() {
        return after_or_zero(ta, tb);
    }
    match bucket_a - bucket_b {
        0 => a.uid_less(b),
        d => d < 0,
    }
}

/// `ActivePodsWithRanks.Less` on [`DeleteKey`]s: the rules of [`decide_rank_order`](crate::controllers::controller_utils::decide_rank_order), in order.
#[inline]
fn delete_key_less(a: &DeleteKey, b: &DeleteKey, now: Time, gates: ScaleDownGates) -> bool {
    // 1.–5. in one comparison (see `rules_1_to_5`; rule 1, "nodes differ and one is empty",
    // is "exactly one is unassigned").
    if a.rules_1_to_5 != b.rules_1_to_5 {
        return a.rules_1_to_5 < b.rules_1_to_5;
    }
    if a.ready() && b.ready() && a.ready_time != b.ready_time {
        return delete_time_less(
            a.ready_time,
            b.ready_time,
            a.ready_bucket,
            b.ready_bucket,
            a,
            b,
            now,
            gates,
        );
    }
    if let Some(r) = compare_restarts(a.restarts, b.restarts) {
        return r;
    }
    if a.created != b.created {
        return delete_time_less(
            a.created,
            b.created,
            a.created_bucket,
            b.created_bucket,
            a,
            b,
            now,
            gates,
        );
    }
    false
}

/// `getPodsRankedByRelatedPodsOnSameNode`: each pod's rank is the number of **active** related
/// pods on its node (unscheduled pods share the node `""`).
pub fn get_pods_ranked_by_related_pods_on_same_node<'a>(
    pods_to_rank: &[&'a Pod],
    related_pods: &[&Pod],
    now: Time,
    gates: ScaleDownGates,
) -> ActivePodsWithRanks<'a> {
    let mut pods_on_node: BTreeMap<&str, i32> = BTreeMap::new();
    for p in related_pods {
        if is_pod_active(p) {
            *pods_on_node.entry(p.spec.node_name.as_str()).or_default() += 1;
        }
    }
    let ranks = pods_to_rank
        .iter()
        .map(|p| {
            pods_on_node
                .get(p.spec.node_name.as_str())
                .copied()
                .unwrap_or(0)
        })
        .collect();
    ActivePodsWithRanks::new(pods_to_rank.to_vec(), ranks, now, gates)
}

/// `getPodKeys`.
pub fn get_pod_keys(pods: &[&Pod]) -> Vec<String> {
    pods.iter().map(|p| pod_key(p)).collect()
}

/// `getReplicaSetsWithSameController` on a store: the owners of `kind` whose controller is
/// `rs`'s controller (including `rs`). None when `rs` has no controller.
pub fn get_replica_sets_with_same_controller(
    kind: OwnerKind,
    store: &Store,
    rs: &ReplicaSet,
) -> Vec<ReplicaSet> {
    let Some(cref) = rs.metadata.controller_ref() else {
        return vec![];
    };
    // The owner index instead of a list of every owner (same (namespace, name) order).
    store
        .dependents(&cref.uid)
        .filter(|o| o.kind() == kind.kind())
        .filter_map(|o| kind.view(o))
        .filter(|r| {
            r.metadata
                .controller_ref()
                .is_some_and(|c| c.uid == cref.uid)
        })
        .collect()
}

/// `getIndirectlyRelatedPods` on a store: every pod matched by the selector of a ReplicaSet that
/// shares `rs`'s controller owner (deduplicated by UID). A ReplicaSet without a controller has
/// no related pods.
pub fn get_indirectly_related_pods(kind: OwnerKind, store: &Store, rs: &ReplicaSet) -> Vec<Pod> {
    let mut seen = BTreeSet::new();
    let mut out = vec![];
    for related in get_replica_sets_with_same_controller(kind, store, rs) {
        let Ok(sel) = label_selector_as_selector(related.spec.selector.as_ref()) else {
            continue; // an invalid selector matches no pods
        };
        for p in store.pods_selector_candidates(&related.metadata.namespace, &sel) {
            if sel.matches(&p.metadata.labels) && seen.insert(p.metadata.uid.clone()) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// `GetPodReplicaSets` / `GetPodControllers`: the owners in the pod's namespace whose non-empty
/// selector matches its labels.
pub fn get_pod_replica_sets(kind: OwnerKind, store: &Store, pod: &Pod) -> Vec<ReplicaSet> {
    if pod.metadata.labels.is_empty() {
        return vec![];
    }
    kind.list(store, Some(&pod.metadata.namespace))
        .into_iter()
        .filter(
            |rs| match label_selector_as_selector(rs.spec.selector.as_ref()) {
                Ok(sel) => {
                    sel != Selector::Nothing && !sel.is_empty() && sel.matches(&pod.metadata.labels)
                }
                Err(_) => false,
            },
        )
        .collect()
}

/// The ReplicaSet controller. One instance per kind: [`ReplicaSetController::new`] for
/// ReplicaSets (`replicaset-controller`), [`ReplicaSetController::new_replication_controller`]
/// for ReplicationControllers (`replication-controller`).
#[derive(Clone, Debug)]
pub struct ReplicaSetController {
    pub owner_kind: OwnerKind,
    pub burst_replicas: usize,
    /// Pod creations and deletions each owner still waits to observe.
    pub expectations: UidTrackingControllerExpectations,
}

impl Default for ReplicaSetController {
    fn default() -> Self {
        Self::new()
    }
}

impl ReplicaSetController {
    /// The controller for ReplicaSets.
    pub fn new() -> Self {
        Self::for_kind(OwnerKind::ReplicaSet)
    }

    /// The controller for ReplicationControllers.
    pub fn new_replication_controller() -> Self {
        Self::for_kind(OwnerKind::ReplicationController)
    }

    pub fn for_kind(owner_kind: OwnerKind) -> Self {
        ReplicaSetController {
            owner_kind,
            burst_replicas: BURST_REPLICAS,
            expectations: UidTrackingControllerExpectations::new(),
        }
    }

    /// Overrides `burstReplicas` (upstream tests use small values).
    pub fn with_burst_replicas(mut self, n: usize) -> Self {
        self.burst_replicas = n;
        self
    }

    /// `resolveControllerRef`: the owner a controller reference points to, if it is of this
    /// kind and its UID still matches.
    pub fn resolve_controller_ref(
        &self,
        store: &Store,
        namespace: &str,
        cref: &OwnerReference,
    ) -> Option<ReplicaSet> {
        self.resolve_controller_ref_view(store, namespace, cref)
            .map(Cow::into_owned)
    }

    /// [`Self::resolve_controller_ref`] borrowing a ReplicaSet from the store (the informer
    /// handlers read only its key and `minReadySeconds`).
    fn resolve_controller_ref_view<'a>(
        &self,
        store: &'a Store,
        namespace: &str,
        cref: &OwnerReference,
    ) -> Option<Cow<'a, ReplicaSet>> {
        if cref.kind != self.owner_kind.kind() {
            return None;
        }
        let found = if self.owner_kind == OwnerKind::ReplicaSet {
            store
                .get::<ReplicaSet>(namespace, &cref.name)
                .map(Cow::Borrowed)
        } else {
            store
                .get::<ReplicationController>(namespace, &cref.name)
                .map(|rc| Cow::Owned(rc.to_replica_set()))
        };
        found.filter(|rs| rs.metadata.uid == cref.uid)
    }

    // --- informer handlers -------------------------------------------------------------------

    /// `addRS`.
    pub fn add_rs(&mut self, queue: &mut WorkQueue, rs: &ReplicaSet) {
        queue.add_owned(rs.metadata.key());
    }

    /// `updateRS`: a changed UID means the old owner was deleted and re-created.
    pub fn update_rs(&mut self, queue: &mut WorkQueue, old: &ReplicaSet, cur: &ReplicaSet) {
        if old.metadata.uid != cur.metadata.uid {
            self.delete_rs(queue, old);
        }
        queue.add_owned(cur.metadata.key());
    }

    /// `deleteRS`: forget its expectations so a re-created owner starts clean.
    pub fn delete_rs(&mut self, queue: &mut WorkQueue, rs: &ReplicaSet) {
        let key = rs.metadata.key();
        self.expectations.delete_expectations(&key);
        queue.add(&key);
    }

    /// `addPod`: observe a creation for the owner, or wake owners that may adopt an orphan.
    pub fn add_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod) {
        if pod.metadata.deletion_timestamp.is_some() {
            // On a restart a pod may show up already being deleted: not a creation.
            self.delete_pod(store, queue, pod);
            return;
        }
        if let Some(cref) = pod.metadata.controller_ref() {
            let Some(rs) = self.resolve_controller_ref_view(store, &pod.metadata.namespace, cref)
            else {
                return;
            };
            let key = rs.metadata.key();
            self.expectations.creation_observed(&key);
            queue.add(&key);
            return;
        }
        // An orphan: sync every matching owner so one may adopt it (no creation observed).
        for rs in get_pod_replica_sets(self.owner_kind, store, pod) {
            queue.add_owned(rs.metadata.key());
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
            return; // a resync, not a change
        }
        let label_changed = cur.metadata.labels != old.metadata.labels;
        if cur.metadata.deletion_timestamp.is_some() {
            // Graceful deletion started: count it now so a replacement is created at once.
            self.delete_pod(store, queue, cur);
            if label_changed {
                self.delete_pod(store, queue, old);
            }
            return;
        }
        let cur_ref = cur.metadata.controller_ref();
        let old_ref = old.metadata.controller_ref();
        let ref_changed = cur_ref != old_ref;
        if ref_changed {
            if let Some(old_ref) = old_ref {
                if let Some(rs) =
                    self.resolve_controller_ref_view(store, &old.metadata.namespace, old_ref)
                {
                    queue.add_owned(rs.metadata.key());
                }
            }
        }
        if let Some(cur_ref) = cur_ref {
            let Some(rs) =
                self.resolve_controller_ref_view(store, &cur.metadata.namespace, cur_ref)
            else {
                return;
            };
            queue.add_owned(rs.metadata.key());
            if !is_pod_ready(old) && is_pod_ready(cur) && rs.spec.min_ready_seconds > 0 {
                // Add a second to avoid milliseconds skew in AddAfter (upstream's comment). On
                // the virtual clock the precise requeue planned by syncReplicaSet (1.34,
                // kubernetes#132121) is earlier and replaces this one in the queue.
                let d = Duration::from_secs(i64::from(rs.spec.min_ready_seconds) + 1);
                queue.add_after(&rs.metadata.key(), d, now);
            }
            return;
        }
        if label_changed || ref_changed {
            for rs in get_pod_replica_sets(self.owner_kind, store, cur) {
                queue.add_owned(rs.metadata.key());
            }
        }
    }

    /// `deletePod`: observe the deletion (once per expected pod key) and wake the owner.
    pub fn delete_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod) {
        let Some(cref) = pod.metadata.controller_ref() else {
            return; // nobody cares about orphans going away
        };
        let Some(rs) = self.resolve_controller_ref_view(store, &pod.metadata.namespace, cref)
        else {
            return;
        };
        let key = rs.metadata.key();
        self.expectations.deletion_observed(&key, &pod_key(pod));
        queue.add(&key);
    }

    // --- sync --------------------------------------------------------------------------------

    /// `syncReplicaSet`: claim pods, create or delete the difference when the expectations are
    /// satisfied, write the status, and plan the next availability check.
    ///
    /// # Errors
    /// An adoption/release failure, a status update failure, or the error of `manageReplicas`
    /// (after the status, with its `ReplicaFailure` condition, has been written).
    pub fn sync_replica_set(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (namespace, name) = split_key(key);
        // The stored owner is shared, not copied; a ReplicaSet is read through it in place.
        let Some(owner) = self.owner_kind.get_shared(ctx.store(), namespace, name) else {
            self.expectations.delete_expectations(key);
            return Ok(());
        };
        let Some(rs) = self.owner_kind.view_cow(&owner) else {
            self.expectations.delete_expectations(key);
            return Ok(());
        };
        let rs: &ReplicaSet = &rs;
        let now = ctx.now();
        let rs_needs_sync = self.expectations.satisfied_expectations(key, now);
        let Ok(selector) = label_selector_as_selector(rs.spec.selector.as_ref()) else {
            return Ok(()); // upstream logs the conversion error and gives up on this key
        };

        if let Some(r) = self.try_fast_sync(key, ctx, &owner, rs, &selector, rs_needs_sync) {
            return r;
        }

        // The pods of the namespace that are owned or matched, so pods that no longer match but
        // are still owned are seen (the others could be neither claimed nor counted).
        let all_pods: Vec<Pod> = ctx
            .store()
            .pods_for_owner(&rs.metadata.namespace, &rs.metadata.uid, &selector)
            .into_iter()
            .cloned()
            .collect();
        let active = filter_active_pods(&all_pods);
        let active = self.claim_pods(ctx, rs, &selector, active)?;

        // DeploymentReplicaSetTerminatingReplicas is reported for ReplicaSets only
        // (`EnableStatusTerminatingReplicas` is off for ReplicationControllers, kubernetes#131822).
        let terminating = (ctx.gates.enabled("DeploymentReplicaSetTerminatingReplicas")
            && self.owner_kind == OwnerKind::ReplicaSet)
            .then(|| {
                filter_claimed_pods(
                    &rs.metadata.uid,
                    &selector,
                    filter_terminating_pods(&all_pods),
                )
            });

        let mut manage_replicas_err = None;
        if rs_needs_sync && rs.metadata.deletion_timestamp.is_none() {
            manage_replicas_err = self.manage_replicas(ctx, &owner, &active, rs).err();
        }

        let new_status = calculate_status(
            rs,
            &active,
            terminating.as_deref(),
            manage_replicas_err.as_ref(),
            now,
        );
        let updated = update_replica_set_status(ctx, &owner, rs, new_status)?;
        if let Some(e) = manage_replicas_err {
            return Err(e);
        }
        // Plan the next availability check (Kubernetes 1.34, kubernetes#132121): as soon as the
        // first ready pod becomes available, falling back to minReadySeconds.
        let mrs = updated.spec.min_ready_seconds;
        if mrs > 0 && updated.status.ready_replicas != updated.status.available_replicas {
            let next = find_min_next_pod_availability_check(active.iter().copied(), mrs, now)
                .unwrap_or(Duration::from_secs(i64::from(mrs)));
            ctx.requeue_after(key, next);
        }
        Ok(())
    }

    /// The common case of [`Self::sync_replica_set`] without cloning any pod: when claiming
    /// would adopt or release nothing and `manageReplicas` would delete nothing, the claimed
    /// pods are only counted (their status is computed before pods are created, from the same
    /// snapshot). Returns `None` (nothing done) when the full path is needed.
    fn try_fast_sync(
        &mut self,
        key: &str,
        ctx: &mut Ctx,
        owner: &Object,
        rs: &ReplicaSet,
        selector: &Selector,
        rs_needs_sync: bool,
    ) -> Option<Result<(), ApiError>> {
        let now = ctx.now();
        let manage = rs_needs_sync && rs.metadata.deletion_timestamp.is_none();
        let with_terminating = ctx.gates.enabled("DeploymentReplicaSetTerminatingReplicas")
            && self.owner_kind == OwnerKind::ReplicaSet;
        // A pod carrying the template's own label map (the usual case: pods are created from
        // the template and share its map) is matched by the selector exactly when the template
        // labels are: decided once per sync instead of once per pod.
        let template_labels = &rs.spec.template.metadata.labels;
        let template_matches = selector.matches(template_labels);
        let matches = |pod: &Pod| {
            if crate::api::meta::Shared::ptr_eq(&pod.metadata.labels, template_labels) {
                template_matches
            } else {
                selector.matches(&pod.metadata.labels)
            }
        };
        let (counts, active_count, active_pods) = {
            let store = ctx.store();
            let mut claimed: Vec<&Arc<Object>> = vec![];
            let mut terminating = 0i32;
            for o in store.pods_for_owner_arcs(&rs.metadata.namespace, &rs.metadata.uid, selector) {
                let Object::Pod(pod) = &**o else { continue };
                if is_pod_active(pod) {
                    // `claim_object`, without side effects or bail out.
                    match pod.metadata.controller_ref() {
                        Some(cref) if cref.uid != rs.metadata.uid => {}
                        Some(_) => {
                            if matches(pod) {
                                claimed.push(o);
                            } else if rs.metadata.deletion_timestamp.is_none() {
                                return None; // would release
                            }
                        }
                        None => {
                            let adoptable = rs.metadata.deletion_timestamp.is_none()
                                && matches(pod)
                                && pod.metadata.deletion_timestamp.is_none()
                                && (rs.metadata.namespace.is_empty()
                                    || rs.metadata.namespace == pod.metadata.namespace);
                            if adoptable {
                                return None; // would adopt
                            }
                        }
                    }
                }
                if with_terminating
                    && is_pod_terminating(pod)
                    && pod
                        .metadata
                        .controller_ref()
                        .is_some_and(|r| r.uid == rs.metadata.uid)
                    && matches(pod)
                {
                    terminating += 1;
                }
            }
            if manage && claimed.len() as i64 > i64::from(rs.replicas()) {
                return None; // would delete
            }
            let counts = pod_counts_of(
                rs,
                claimed.iter().filter_map(|o| match &***o {
                    Object::Pod(p) => Some(p),
                    _ => None,
                }),
                with_terminating.then_some(terminating),
                now,
            );
            // Kept (shared, not copied) only for the availability check below.
            let active_pods: Vec<Arc<Object>> = if rs.spec.min_ready_seconds > 0 {
                claimed.iter().map(|o| Arc::clone(o)).collect()
            } else {
                vec![]
            };
            (counts, claimed.len(), active_pods)
        };
        let mut manage_replicas_err = None;
        if manage {
            let diff = active_count as i64 - i64::from(rs.replicas());
            if diff < 0 {
                manage_replicas_err = self.create_replicas(ctx, owner, rs, diff).err();
            }
        }
        let new_status =
            calculate_status_from_counts(rs, &counts, manage_replicas_err.as_ref(), now);
        let updated = match update_replica_set_status(ctx, owner, rs, new_status) {
            Ok(u) => u,
            Err(e) => return Some(Err(e)),
        };
        if let Some(e) = manage_replicas_err {
            return Some(Err(e));
        }
        let mrs = updated.spec.min_ready_seconds;
        if mrs > 0 && updated.status.ready_replicas != updated.status.available_replicas {
            // The claimed pods are unchanged in the store: this sync only created pods and
            // wrote the owner's status. (A status write keeps the spec, so `mrs > 0` here means
            // they were kept above.)
            let active = active_pods.iter().filter_map(|o| match &**o {
                Object::Pod(p) => Some(p),
                _ => None,
            });
            let next = find_min_next_pod_availability_check(active, mrs, now)
                .unwrap_or(Duration::from_secs(i64::from(mrs)));
            ctx.requeue_after(key, next);
        }
        Some(Ok(()))
    }

    /// `claimPods` (`PodControllerRefManager.ClaimPods`): keeps owned pods that match, adopts
    /// matching orphans (unless the owner is being deleted), releases owned pods that no longer
    /// match. Adoption and release are updates of the pod's ownerReferences.
    ///
    /// # Errors
    /// The aggregated adoption/release errors (the sync is retried).
    pub fn claim_pods<'a>(
        &self,
        ctx: &mut Ctx,
        rs: &ReplicaSet,
        selector: &Selector,
        filtered: Vec<&'a Pod>,
    ) -> Result<Vec<&'a Pod>, ApiError> {
        let mut claimed = vec![];
        let mut errs = vec![];
        // `RecheckDeletionTimestamp`, evaluated at most once per claim (sync.Once upstream).
        let mut can_adopt: Option<Result<(), String>> = None;
        for pod in filtered {
            match self.claim_object(ctx, rs, selector, pod, &mut can_adopt) {
                Ok(true) => claimed.push(pod),
                Ok(false) => {}
                Err(e) => errs.push(e),
            }
        }
        match aggregate(errs) {
            Some(e) => Err(e),
            None => Ok(claimed),
        }
    }

    /// `BaseControllerRefManager.ClaimObject` for one pod.
    fn claim_object(
        &self,
        ctx: &mut Ctx,
        rs: &ReplicaSet,
        selector: &Selector,
        pod: &Pod,
        can_adopt: &mut Option<Result<(), String>>,
    ) -> Result<bool, ApiError> {
        let matches = selector.matches(&pod.metadata.labels);
        if let Some(cref) = pod.metadata.controller_ref() {
            if cref.uid != rs.metadata.uid {
                return Ok(false); // owned by someone else
            }
            if matches {
                return Ok(true);
            }
            if rs.metadata.deletion_timestamp.is_some() {
                return Ok(false);
            }
            return match self.release_pod(ctx, rs, pod) {
                Err(e) if !e.is_not_found() => Err(e),
                _ => Ok(false),
            };
        }
        // An orphan.
        if rs.metadata.deletion_timestamp.is_some() || !matches {
            return Ok(false);
        }
        if pod.metadata.deletion_timestamp.is_some() {
            return Ok(false);
        }
        if !rs.metadata.namespace.is_empty() && rs.metadata.namespace != pod.metadata.namespace {
            return Ok(false);
        }
        match self.adopt_pod(ctx, rs, pod, can_adopt) {
            Ok(()) => Ok(true),
            Err(e) if e.is_not_found() => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// `RecheckDeletionTimestamp` with an uncached read of the owner.
    fn recheck_deletion_timestamp(&self, ctx: &Ctx, rs: &ReplicaSet) -> Result<(), String> {
        let kind = self.owner_kind.kind();
        let fresh =
            match self
                .owner_kind
                .get(ctx.store(), &rs.metadata.namespace, &rs.metadata.name)
            {
                None => {
                    let (_, plural, group, _) =
                        crate::api::kind_info(kind).unwrap_or(("", "", "", true));
                    let resource = if group.is_empty() {
                        plural.to_string()
                    } else {
                        format!("{plural}.{group}")
                    };
                    let e = ApiError::not_found(&resource, &rs.metadata.name);
                    return Err(format!("can't recheck DeletionTimestamp: {e}"));
                }
                Some((_, f)) => f,
            };
        if fresh.metadata.uid != rs.metadata.uid {
            return Err(format!(
                "can't recheck DeletionTimestamp: original {kind} {}/{} is gone: got uid {}, wanted {}",
                rs.metadata.namespace, rs.metadata.name, fresh.metadata.uid, rs.metadata.uid
            ));
        }
        if let Some(t) = fresh.metadata.deletion_timestamp {
            return Err(format!(
                "{}/{} has just been deleted at {}",
                fresh.metadata.namespace,
                fresh.metadata.name,
                go_time_string(t)
            ));
        }
        Ok(())
    }

    /// `PodControllerRefManager.AdoptPod`: add this owner as the pod's controller (a strategic
    /// merge on ownerReferences by UID, with the pod's UID as precondition).
    fn adopt_pod(
        &self,
        ctx: &mut Ctx,
        rs: &ReplicaSet,
        pod: &Pod,
        can_adopt: &mut Option<Result<(), String>>,
    ) -> Result<(), ApiError> {
        if can_adopt.is_none() {
            *can_adopt = Some(self.recheck_deletion_timestamp(ctx, rs));
        }
        if let Some(Err(e)) = can_adopt {
            return Err(internal_error(format!(
                "can't adopt Pod {}/{} ({}): {e}",
                pod.metadata.namespace, pod.metadata.name, pod.metadata.uid
            )));
        }
        let r = new_controller_ref(
            &rs.metadata,
            self.owner_kind.api_version(),
            self.owner_kind.kind(),
        );
        let mut p = pod.clone();
        p.metadata.resource_version.clear(); // a patch has no resourceVersion precondition
        match p
            .metadata
            .owner_references
            .iter_mut()
            .find(|o| o.uid == r.uid)
        {
            Some(existing) => *existing = r,
            None => p.metadata.owner_references.push(r),
        }
        ctx.update(Object::Pod(p)).map(|_| ())
    }

    /// `PodControllerRefManager.ReleasePod`: remove this owner from the pod's ownerReferences.
    /// NotFound and Invalid are ignored, as upstream.
    fn release_pod(&self, ctx: &mut Ctx, rs: &ReplicaSet, pod: &Pod) -> Result<(), ApiError> {
        let mut p = pod.clone();
        p.metadata.resource_version.clear();
        p.metadata
            .owner_references
            .retain(|o| o.uid != rs.metadata.uid);
        match ctx.update(Object::Pod(p)) {
            Ok(_) => Ok(()),
            Err(e) if e.is_not_found() || e.reason == Reason::Invalid => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// `manageReplicas`: create (slow start) or delete (ranked) up to `burstReplicas` pods to
    /// reach `spec.replicas`, recording expectations first.
    ///
    /// # Errors
    /// The first failed creation, or the first deletion error other than NotFound.
    pub fn manage_replicas(
        &mut self,
        ctx: &mut Ctx,
        owner: &Object,
        filtered_pods: &[&Pod],
        rs: &ReplicaSet,
    ) -> Result<(), ApiError> {
        let diff = filtered_pods.len() as i64 - i64::from(rs.replicas());
        let key = rs.metadata.key();
        let now = ctx.now();
        if diff < 0 {
            return self.create_replicas(ctx, owner, rs, diff);
        }
        if diff > 0 {
            let n = (diff as usize).min(self.burst_replicas);
            let related = get_indirectly_related_pods(self.owner_kind, ctx.store(), rs);
            let related_refs: Vec<&Pod> = related.iter().collect();
            let gates = ScaleDownGates::from_gates(ctx.gates);
            let victims: Vec<(String, String)> =
                get_pods_to_delete(filtered_pods, &related_refs, n, now, gates)
                    .iter()
                    .map(|p| (p.metadata.name.clone(), pod_key(p)))
                    .collect();
            let keys: Vec<String> = victims.iter().map(|(_, k)| k.clone()).collect();
            self.expectations.expect_deletions(&key, &keys, now);
            let mut first_err = None;
            for (name, pod_key) in victims {
                if let Err(e) = delete_pod(ctx, owner, &rs.metadata.namespace, &name) {
                    // The informer will not observe this deletion.
                    self.expectations.deletion_observed(&key, &pod_key);
                    if !e.is_not_found() && first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
            return first_err.map_or(Ok(()), Err);
        }
        Ok(())
    }

    /// The creating half of `manageReplicas` for `diff < 0`: expect and create up to
    /// `burstReplicas` pods in slow-start batches.
    fn create_replicas(
        &mut self,
        ctx: &mut Ctx,
        owner: &Object,
        rs: &ReplicaSet,
        diff: i64,
    ) -> Result<(), ApiError> {
        let key = rs.metadata.key();
        let now = ctx.now();
        let n = ((-diff) as usize).min(self.burst_replicas);
        self.expectations.expect_creations(&key, n as i64, now);
        let cref = new_controller_ref(
            &rs.metadata,
            self.owner_kind.api_version(),
            self.owner_kind.kind(),
        );
        let template = &rs.spec.template;
        let (successes, err) = slow_start_batch(n, SLOW_START_INITIAL_BATCH_SIZE, || {
            create_pods(ctx, owner, template, &cref)
        });
        // Pods never attempted or failed will not be observed: lower the expectations.
        for _ in successes..n {
            self.expectations.creation_observed(&key);
        }
        err.map_or(Ok(()), Err)
    }
}

impl Controller for ReplicaSetController {
    fn name(&self) -> &'static str {
        self.owner_kind.component()
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (None, Some(Object::Pod(p))) => self.add_pod(store, queue, p),
            (Some(Object::Pod(o)), Some(Object::Pod(n))) => {
                self.update_pod(store, queue, o, n, now)
            }
            (Some(Object::Pod(p)), None) => self.delete_pod(store, queue, p),
            (old, new) => {
                let k = self.owner_kind;
                let old = old.as_ref().and_then(|o| k.view(o));
                let new = new.as_ref().and_then(|o| k.view(o));
                match (old, new) {
                    (None, Some(n)) => self.add_rs(queue, &n),
                    (Some(o), Some(n)) => self.update_rs(queue, &o, &n),
                    (Some(o), None) => self.delete_rs(queue, &o),
                    (None, None) => {}
                }
            }
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        self.sync_replica_set(key, ctx)
    }

    fn reset(&mut self) {
        self.expectations = UidTrackingControllerExpectations::new();
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for rs in self.owner_kind.list(store, None) {
            queue.add_owned(rs.metadata.key());
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
