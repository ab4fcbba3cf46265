//! The DaemonSet controller (`pkg/controller/daemon/daemon_controller.go`): which nodes should
//! run a daemon pod ([`node_should_run_daemon_pod`]), what to create and delete per node
//! ([`DaemonSetsController::pods_should_be_on_node`]), slow-start creation with expectations and
//! `burstReplicas`, and the status.
//!
//! Daemon pods are not bound by the controller: each is pinned to its node with a required node
//! affinity on `metadata.name` and the scheduler binds it.

use super::util::{
    add_or_update_daemon_pod_tolerations, allows_surge, create_pod_template, get_target_node_name,
    get_template_generation, is_pod_updated, replace_daemon_set_pod_node_name_node_affinity,
    DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY,
};
use crate::api::{
    ApiError, DaemonSet, Duration, LabelSelector, Node, Object, OwnerReference, Pod, Time,
};
use crate::controllers::controller_ref_manager::{aggregate, claim_objects, ClaimOwner};
use crate::controllers::controller_utils::{
    is_pod_available, is_pod_ready, is_pod_terminal, label_selector_as_selector,
    new_controller_ref, ControllerExpectations, SLOW_START_INITIAL_BATCH_SIZE,
};
use crate::controllers::replicaset::replica_set::{create_pods, delete_pod};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::scheduler::{find_matching_untolerated_taint, pod_matches_node_affinity};
use crate::store::{Change, Store};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The component name (`daemonset-controller`), also the events' source.
pub const NAME: &str = "daemonset-controller";
/// `BurstReplicas`: at most this many creations and deletions per sync.
pub const BURST_REPLICAS: usize = 250;
/// `StatusUpdateRetries`.
pub const STATUS_UPDATE_RETRIES: usize = 1;
/// The failed-pods back-off of kube-controller-manager: `flowcontrol.NewBackOff(1s, 15m)`.
pub const FAILED_PODS_BACKOFF_INITIAL: Duration = Duration::from_secs(1);
pub const FAILED_PODS_BACKOFF_MAX: Duration = Duration::from_mins(15);

/// Event reasons.
pub const SELECTING_ALL_REASON: &str = "SelectingAll";
pub const FAILED_PLACEMENT_REASON: &str = "FailedPlacement";
pub const FAILED_DAEMON_POD_REASON: &str = "FailedDaemonPod";
pub const SUCCEEDED_DAEMON_POD_REASON: &str = "SucceededDaemonPod";

pub const CONTROLLER_API_VERSION: &str = "apps/v1";
pub const CONTROLLER_KIND: &str = "DaemonSet";

/// `flowcontrol.Backoff` on the virtual clock: per key, a delay that starts at `initial` and
/// doubles up to `max`, forgotten after `2 × max` without an update.
#[derive(Clone, Debug)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
    entries: BTreeMap<String, (Duration, Time)>,
}

impl Backoff {
    pub fn new(initial: Duration, max: Duration) -> Self {
        Backoff {
            initial,
            max,
            entries: BTreeMap::new(),
        }
    }

    /// `Get`: the key's current delay (zero when unknown).
    pub fn get(&self, key: &str) -> Duration {
        self.entries.get(key).map_or(Duration::ZERO, |(d, _)| *d)
    }

    /// `Next`: start at `initial`, or double (capped) — restarting when the entry expired.
    pub fn next(&mut self, key: &str, now: Time) {
        let (initial, max) = (self.initial, self.max);
        let e = self.entries.get(key).copied();
        let d = match e {
            Some((d, last)) if now - last <= Duration(2 * max.0) => Duration((d.0 * 2).min(max.0)),
            _ => initial,
        };
        self.entries.insert(key.to_string(), (d, now));
    }

    /// `IsInBackOffSinceUpdate`: less than the delay has passed since the last `next`.
    pub fn is_in_back_off_since_update(&self, key: &str, now: Time) -> bool {
        match self.entries.get(key) {
            None => false,
            Some((d, last)) => now - *last < *d,
        }
    }

    /// `GC`: forget entries idle for more than `2 × max`.
    pub fn gc(&mut self, now: Time) {
        let max = self.max;
        self.entries
            .retain(|_, (_, last)| now - *last <= Duration(2 * max.0));
    }
}

/// `NewPod`: the pod a DaemonSet would run on `node_name` (template, namespace, node name and
/// the daemon tolerations).
pub fn new_pod(ds: &DaemonSet, node_name: &str) -> Pod {
    let mut pod = Pod {
        metadata: ds.spec.template.metadata.clone(),
        spec: ds.spec.template.spec.clone(),
        ..Default::default()
    };
    pod.metadata.namespace = ds.metadata.namespace.clone();
    pod.spec_mut().node_name = node_name.into();
    add_or_update_daemon_pod_tolerations(pod.spec_mut());
    pod
}

/// `predicates`: (fits node name, fits node affinity — nodeSelector and required affinity —,
/// fits taints — every NoSchedule/NoExecute taint tolerated).
pub fn predicates(pod: &Pod, node: &Node) -> (bool, bool, bool) {
    let fits_node_name = pod.spec.node_name.is_empty() || pod.spec.node_name == node.metadata.name;
    let fits_node_affinity = pod_matches_node_affinity(pod, node);
    let fits_taints =
        find_matching_untolerated_taint(&node.spec.taints, &pod.spec.tolerations, |t| {
            t.effect == "NoExecute" || t.effect == "NoSchedule"
        })
        .is_none();
    (fits_node_name, fits_node_affinity, fits_taints)
}

/// `NodeShouldRunDaemonPod` → (should run, should continue running):
/// * a template `nodeName` for another node, or nodeSelector / required node affinity not
///   matching → (false, false);
/// * an untolerated NoSchedule or NoExecute taint → (false, no untolerated NoExecute taint);
/// * otherwise (true, true).
///
/// The node's `spec.unschedulable` is ignored (daemon pods tolerate the unschedulable taint), so
/// are resources and host ports (the scheduler's business).
pub fn node_should_run_daemon_pod(node: &Node, ds: &DaemonSet) -> (bool, bool) {
    let pod = new_pod(ds, &node.metadata.name);
    let tnn = &ds.spec.template.spec.node_name;
    if !(tnn.is_empty() || *tnn == node.metadata.name) {
        return (false, false);
    }
    let (fits_node_name, fits_node_affinity, fits_taints) = predicates(&pod, node);
    if !fits_node_name || !fits_node_affinity {
        return (false, false);
    }
    if !fits_taints {
        let untolerated_no_execute =
            find_matching_untolerated_taint(&node.spec.taints, &pod.spec.tolerations, |t| {
                t.effect == "NoExecute"
            })
            .is_some();
        return (false, !untolerated_no_execute);
    }
    (true, true)
}

/// `podByCreationTimestampAndPhase.Less`: scheduled pods first, then older first, then by name.
pub fn cmp_pod_by_creation_timestamp_and_phase(a: &Pod, b: &Pod) -> Ordering {
    let sa = !a.spec.node_name.is_empty();
    let sb = !b.spec.node_name.is_empty();
    if sa != sb {
        return if sa {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    let ta = a.metadata.creation_timestamp.unwrap_or(Time::ZERO);
    let tb = b.metadata.creation_timestamp.unwrap_or(Time::ZERO);
    ta.cmp(&tb)
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// `failedPodsBackoffKey`: `<ds uid>/<observedGeneration>/<node>`.
pub fn failed_pods_backoff_key(ds: &DaemonSet, node_name: &str) -> String {
    format!(
        "{}/{}/{node_name}",
        ds.metadata.uid, ds.status.observed_generation
    )
}

/// `getUnscheduledPodsWithoutNode`: unscheduled pods whose target node does not exist (the pod
/// GC cannot see them, so the DaemonSet deletes them).
pub fn get_unscheduled_pods_without_node(
    nodes: &[Node],
    node_to_daemon_pods: &BTreeMap<String, Vec<Pod>>,
) -> Vec<String> {
    let mut out = vec![];
    for (n, pods) in node_to_daemon_pods {
        if nodes.iter().any(|x| x.metadata.name == *n) {
            continue;
        }
        for p in pods {
            if p.spec.node_name.is_empty() {
                out.push(p.metadata.name.clone());
            }
        }
    }
    out
}

/// `resolveControllerRef`.
pub fn resolve_controller_ref<'a>(
    store: &'a Store,
    namespace: &str,
    cref: &OwnerReference,
) -> Option<&'a DaemonSet> {
    if cref.kind != CONTROLLER_KIND {
        return None;
    }
    store
        .get::<DaemonSet>(namespace, &cref.name)
        .filter(|d| d.metadata.uid == cref.uid)
}

/// `GetPodDaemonSets` / `GetHistoryDaemonSets`: DaemonSets in the namespace whose non-empty
/// selector matches the labels.
pub fn get_daemon_sets_for_labels<'a>(
    store: &'a Store,
    namespace: &str,
    labels: &crate::api::Labels,
) -> Vec<&'a DaemonSet> {
    if labels.is_empty() {
        return vec![];
    }
    store
        .list::<DaemonSet>(Some(namespace))
        .filter(
            |d| match label_selector_as_selector(d.spec.selector.as_ref()) {
                Ok(sel) => !sel.is_empty() && sel.matches(labels),
                Err(_) => false,
            },
        )
        .collect()
}

/// The DaemonSet controller.
#[derive(Clone, Debug)]
pub struct DaemonSetsController {
    pub burst_replicas: usize,
    pub expectations: ControllerExpectations,
    pub failed_pods_backoff: Backoff,
}

impl Default for DaemonSetsController {
    fn default() -> Self {
        Self::new()
    }
}

fn split_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

impl DaemonSetsController {
    pub fn new() -> Self {
        DaemonSetsController {
            burst_replicas: BURST_REPLICAS,
            expectations: ControllerExpectations::new(),
            failed_pods_backoff: Backoff::new(FAILED_PODS_BACKOFF_INITIAL, FAILED_PODS_BACKOFF_MAX),
        }
    }

    /// Overrides `burstReplicas` (upstream tests use small values).
    pub fn with_burst_replicas(mut self, n: usize) -> Self {
        self.burst_replicas = n;
        self
    }

    // --- informer handlers -------------------------------------------------------------------

    /// `addPod`: observe a creation for the owner, or wake DaemonSets that may adopt an orphan.
    pub fn add_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod) {
        if pod.metadata.deletion_timestamp.is_some() {
            self.delete_pod(store, queue, pod);
            return;
        }
        if let Some(cref) = pod.metadata.controller_ref() {
            if let Some(ds) = resolve_controller_ref(store, &pod.metadata.namespace, cref) {
                let key = ds.metadata.key();
                self.expectations.creation_observed(&key);
                queue.add(&key);
            }
            return;
        }
        for ds in get_daemon_sets_for_labels(store, &pod.metadata.namespace, &pod.metadata.labels) {
            queue.add_owned(ds.metadata.key());
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
        if cur.metadata.deletion_timestamp.is_some() {
            // Graceful deletion started: count it now so a replacement comes at once.
            self.delete_pod(store, queue, cur);
            return;
        }
        let cur_ref = cur.metadata.controller_ref();
        let old_ref = old.metadata.controller_ref();
        let ref_changed = cur_ref != old_ref;
        if ref_changed {
            if let Some(o) = old_ref {
                if let Some(ds) = resolve_controller_ref(store, &old.metadata.namespace, o) {
                    queue.add_owned(ds.metadata.key());
                }
            }
        }
        if let Some(c) = cur_ref {
            let Some(ds) = resolve_controller_ref(store, &cur.metadata.namespace, c) else {
                return;
            };
            queue.add_owned(ds.metadata.key());
            if !is_pod_ready(old) && is_pod_ready(cur) && ds.spec.min_ready_seconds > 0 {
                // Add a second to avoid milliseconds skew in AddAfter (upstream's comment).
                let d = Duration::from_secs(i64::from(ds.spec.min_ready_seconds) + 1);
                queue.add_after(&ds.metadata.key(), d, now);
            }
            return;
        }
        let label_changed = cur.metadata.labels != old.metadata.labels;
        if label_changed || ref_changed {
            for ds in
                get_daemon_sets_for_labels(store, &cur.metadata.namespace, &cur.metadata.labels)
            {
                queue.add_owned(ds.metadata.key());
            }
        }
    }

    /// `deletePod`: observe the deletion and wake the owner.
    pub fn delete_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod) {
        let Some(cref) = pod.metadata.controller_ref() else {
            return;
        };
        let Some(ds) = resolve_controller_ref(store, &pod.metadata.namespace, cref) else {
            return;
        };
        let key = ds.metadata.key();
        self.expectations.deletion_observed(&key);
        queue.add(&key);
    }

    /// `addNode`: wake every DaemonSet that should run on the new node.
    pub fn add_node(&mut self, store: &Store, queue: &mut WorkQueue, node: &Node) {
        for ds in store.list::<DaemonSet>(None) {
            if node_should_run_daemon_pod(node, ds).0 {
                queue.add_owned(ds.metadata.key());
            }
        }
    }

    /// `updateNode`: when labels or taints changed, wake every DaemonSet whose verdict for the
    /// node changed.
    pub fn update_node(&mut self, store: &Store, queue: &mut WorkQueue, old: &Node, cur: &Node) {
        if old.metadata.labels == cur.metadata.labels && old.spec.taints == cur.spec.taints {
            return; // shouldIgnoreNodeUpdate
        }
        for ds in store.list::<DaemonSet>(None) {
            if node_should_run_daemon_pod(old, ds) != node_should_run_daemon_pod(cur, ds) {
                queue.add_owned(ds.metadata.key());
            }
        }
    }

    /// `addHistory` / `updateHistory` / `deleteHistory`: wake the revision's owner, or the
    /// DaemonSets that may adopt an orphaned revision.
    fn history_changed(
        &mut self,
        store: &Store,
        queue: &mut WorkQueue,
        old: Option<&crate::api::ControllerRevision>,
        cur: Option<&crate::api::ControllerRevision>,
    ) {
        match (old, cur) {
            (None, Some(h)) => {
                if h.metadata.deletion_timestamp.is_some() {
                    return self.history_changed(store, queue, Some(h), None);
                }
                if let Some(c) = h.metadata.controller_ref() {
                    // Observed; upstream does not enqueue its owner.
                    let _ = resolve_controller_ref(store, &h.metadata.namespace, c);
                    return;
                }
                for ds in
                    get_daemon_sets_for_labels(store, &h.metadata.namespace, &h.metadata.labels)
                {
                    queue.add_owned(ds.metadata.key());
                }
            }
            (Some(o), Some(h)) => {
                if o.metadata.resource_version == h.metadata.resource_version {
                    return;
                }
                let cur_ref = h.metadata.controller_ref();
                let old_ref = o.metadata.controller_ref();
                let ref_changed = cur_ref != old_ref;
                if ref_changed {
                    if let Some(r) = old_ref {
                        if let Some(ds) = resolve_controller_ref(store, &o.metadata.namespace, r) {
                            queue.add_owned(ds.metadata.key());
                        }
                    }
                }
                if let Some(r) = cur_ref {
                    if let Some(ds) = resolve_controller_ref(store, &h.metadata.namespace, r) {
                        queue.add_owned(ds.metadata.key());
                    }
                    return;
                }
                if o.metadata.labels != h.metadata.labels || ref_changed {
                    for ds in
                        get_daemon_sets_for_labels(store, &h.metadata.namespace, &h.metadata.labels)
                    {
                        queue.add_owned(ds.metadata.key());
                    }
                }
            }
            (Some(h), None) => {
                if let Some(c) = h.metadata.controller_ref() {
                    if let Some(ds) = resolve_controller_ref(store, &h.metadata.namespace, c) {
                        queue.add_owned(ds.metadata.key());
                    }
                }
            }
            (None, None) => {}
        }
    }

    // --- sync --------------------------------------------------------------------------------

    /// `getDaemonPods`: the namespace's pods, claimed by the DaemonSet.
    ///
    /// # Errors
    /// Adoption/release errors.
    pub fn get_daemon_pods(&self, ctx: &mut Ctx, ds: &DaemonSet) -> Result<Vec<Pod>, ApiError> {
        let selector = label_selector_as_selector(ds.spec.selector.as_ref())
            .map_err(crate::controllers::controller_ref_manager::internal_error)?;
        let pods: Vec<Pod> = ctx
            .store()
            .list::<Pod>(Some(&ds.metadata.namespace))
            .cloned()
            .collect();
        let owner = ClaimOwner {
            meta: &ds.metadata,
            api_version: CONTROLLER_API_VERSION,
            kind: CONTROLLER_KIND,
            selector: &selector,
        };
        claim_objects(ctx, &owner, pods, |_: &Pod| true)
    }

    /// `getNodesToDaemonPods`: claimed pods grouped by target node. Terminal pods already being
    /// deleted are left out unless `include_deleted_terminal`.
    ///
    /// # Errors
    /// Adoption/release errors.
    pub fn get_nodes_to_daemon_pods(
        &self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        include_deleted_terminal: bool,
    ) -> Result<BTreeMap<String, Vec<Pod>>, ApiError> {
        let claimed = self.get_daemon_pods(ctx, ds)?;
        let mut out: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
        for pod in claimed {
            if !include_deleted_terminal
                && is_pod_terminal(&pod)
                && pod.metadata.deletion_timestamp.is_some()
            {
                continue;
            }
            let Ok(node) = get_target_node_name(&pod) else {
                continue;
            };
            out.entry(node).or_default().push(pod);
        }
        Ok(out)
    }

    /// `podsShouldBeOnNode`: the nodes needing a daemon pod and the pods to delete on `node`.
    /// Failed pods are deleted (with a `FailedDaemonPod` warning and per-node back-off),
    /// succeeded ones too (`SucceededDaemonPod`); without surge all but the oldest running pod
    /// go; with surge an old and a new pod may coexist until the new one is available.
    pub fn pods_should_be_on_node(
        &mut self,
        ctx: &mut Ctx,
        node: &Node,
        node_to_daemon_pods: &BTreeMap<String, Vec<Pod>>,
        ds: &DaemonSet,
        hash: &str,
    ) -> (Vec<String>, Vec<String>) {
        let (should_run, should_continue_running) = node_should_run_daemon_pod(node, ds);
        let daemon_pods = node_to_daemon_pods.get(&node.metadata.name);
        let mut needing = vec![];
        let mut to_delete = vec![];
        let now = ctx.now();
        let target = Object::DaemonSet(DaemonSet {
            metadata: ds.metadata.clone(),
            ..Default::default()
        });
        match daemon_pods {
            None if should_run => needing.push(node.metadata.name.clone()),
            pods if should_continue_running => {
                let pods = pods.cloned().unwrap_or_default();
                let mut running: Vec<Pod> = vec![];
                for pod in pods {
                    if pod.metadata.deletion_timestamp.is_some() {
                        continue;
                    }
                    match pod.status.phase.as_str() {
                        "Failed" => {
                            let key = failed_pods_backoff_key(ds, &node.metadata.name);
                            if self
                                .failed_pods_backoff
                                .is_in_back_off_since_update(&key, now)
                            {
                                let delay = self.failed_pods_backoff.get(&key);
                                ctx.requeue_after(&ds.metadata.key(), delay);
                                continue;
                            }
                            self.failed_pods_backoff.next(&key, now);
                            let msg = format!(
                                "Found failed daemon pod {}/{} on node {}, will try to kill it",
                                pod.metadata.namespace, pod.metadata.name, node.metadata.name
                            );
                            ctx.event(&target, "Warning", FAILED_DAEMON_POD_REASON, &msg);
                            to_delete.push(pod.metadata.name.clone());
                        }
                        "Succeeded" => {
                            let msg = format!(
                                "Found succeeded daemon pod {}/{} on node {}, will try to delete it",
                                pod.metadata.namespace, pod.metadata.name, node.metadata.name
                            );
                            ctx.event(&target, "Normal", SUCCEEDED_DAEMON_POD_REASON, &msg);
                            to_delete.push(pod.metadata.name.clone());
                        }
                        _ => running.push(pod),
                    }
                }
                crate::sort::sort_by(&mut running, cmp_pod_by_creation_timestamp_and_phase);
                if !allows_surge(ds) {
                    // Without surge, keep only the oldest.
                    to_delete.extend(running.iter().skip(1).map(|p| p.metadata.name.clone()));
                } else if running.len() <= 1 {
                    if running.is_empty() && should_run {
                        needing.push(node.metadata.name.clone());
                    }
                } else {
                    // Two pods are allowed only while the oldest new pod is not available and
                    // the oldest old pod is ready.
                    let mut oldest_new: Option<&Pod> = None;
                    let mut oldest_old: Option<&Pod> = None;
                    for pod in &running {
                        let is_new = pod
                            .metadata
                            .labels
                            .get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY)
                            .map(String::as_str)
                            == Some(hash);
                        if is_new && oldest_new.is_none() {
                            oldest_new = Some(pod);
                            continue;
                        }
                        if !is_new && oldest_old.is_none() {
                            oldest_old = Some(pod);
                            continue;
                        }
                        to_delete.push(pod.metadata.name.clone());
                    }
                    if let (Some(n), Some(o)) = (oldest_new, oldest_old) {
                        if !is_pod_ready(o) || is_pod_available(n, ds.spec.min_ready_seconds, now) {
                            to_delete.push(o.metadata.name.clone());
                        }
                    }
                }
            }
            Some(pods) if !should_continue_running => {
                for p in pods {
                    if p.metadata.deletion_timestamp.is_none() {
                        to_delete.push(p.metadata.name.clone());
                    }
                }
            }
            _ => {}
        }
        (needing, to_delete)
    }

    /// `manage`: per node, the pods to create and delete; plus unscheduled pods of vanished
    /// nodes; then [`Self::sync_nodes`].
    ///
    /// # Errors
    /// Claim errors, or creation/deletion errors.
    pub fn manage(
        &mut self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        nodes: &[Node],
        hash: &str,
    ) -> Result<(), ApiError> {
        let node_to_daemon_pods = self.get_nodes_to_daemon_pods(ctx, ds, false)?;
        let mut needing = vec![];
        let mut to_delete = vec![];
        for node in nodes {
            let (n, d) = self.pods_should_be_on_node(ctx, node, &node_to_daemon_pods, ds, hash);
            needing.extend(n);
            to_delete.extend(d);
        }
        to_delete.extend(get_unscheduled_pods_without_node(
            nodes,
            &node_to_daemon_pods,
        ));
        self.sync_nodes(ctx, ds, &to_delete, &needing, hash)
    }

    /// `syncNodes`: set expectations, create daemon pods on `nodes_needing` (slow start, at
    /// most `burstReplicas`), delete `pods_to_delete` (at most `burstReplicas`).
    ///
    /// # Errors
    /// The aggregated creation and deletion errors (NotFound on delete excluded).
    pub fn sync_nodes(
        &mut self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        pods_to_delete: &[String],
        nodes_needing: &[String],
        hash: &str,
    ) -> Result<(), ApiError> {
        let key = ds.metadata.key();
        let now = ctx.now();
        let create_diff = nodes_needing.len().min(self.burst_replicas);
        let delete_diff = pods_to_delete.len().min(self.burst_replicas);
        self.expectations
            .set_expectations(&key, create_diff as i64, delete_diff as i64, now);
        let mut errs: Vec<ApiError> = vec![];
        let generation = get_template_generation(ds).unwrap_or(None);
        let template = create_pod_template(&ds.spec.template, generation, hash);
        let owner = Object::DaemonSet(ds.clone());
        let cref = new_controller_ref(&ds.metadata, CONTROLLER_API_VERSION, CONTROLLER_KIND);
        // Slow start: batches of 1, 2, 4, ...; after a batch with an error, the rest is skipped
        // and no longer expected.
        let mut batch = create_diff.min(SLOW_START_INITIAL_BATCH_SIZE);
        let mut pos = 0;
        while create_diff > pos {
            let error_count = errs.len();
            for node in &nodes_needing[pos..pos + batch] {
                let mut t = template.clone();
                t.spec_mut().affinity = Some(replace_daemon_set_pod_node_name_node_affinity(
                    t.spec_mut().affinity.take(),
                    node,
                ));
                if let Err(e) = create_pods(ctx, &owner, &t, &cref) {
                    self.expectations.creation_observed(&key);
                    errs.push(e);
                }
            }
            let skipped = create_diff as i64 - (batch + pos) as i64;
            if error_count < errs.len() && skipped > 0 {
                self.expectations.lower_expectations(&key, skipped, 0);
                break;
            }
            pos += batch;
            batch = (2 * batch).min(create_diff - pos);
        }
        for name in &pods_to_delete[..delete_diff] {
            if let Err(e) = delete_pod(ctx, &owner, &ds.metadata.namespace, name) {
                self.expectations.deletion_observed(&key);
                if !e.is_not_found() {
                    errs.push(e);
                }
            }
        }
        aggregate(errs).map_or(Ok(()), Err)
    }

    /// `updateDaemonSetStatus`: count desired, current, misscheduled, ready, available and
    /// updated daemon pods (the oldest pod of each node counts), write the status if it changed,
    /// and requeue after minReadySeconds while some ready pod is not yet available.
    ///
    /// # Errors
    /// Claim errors or the status write failed.
    pub fn update_daemon_set_status(
        &mut self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        nodes: &[Node],
        hash: &str,
        update_observed_gen: bool,
    ) -> Result<(), ApiError> {
        let node_to_daemon_pods = self.get_nodes_to_daemon_pods(ctx, ds, false)?;
        let now = ctx.now();
        let generation = get_template_generation(ds).unwrap_or(None);
        let (mut desired, mut current, mut misscheduled) = (0, 0, 0);
        let (mut ready, mut updated, mut available) = (0, 0, 0);
        for node in nodes {
            let (should_run, _) = node_should_run_daemon_pod(node, ds);
            let pods = node_to_daemon_pods.get(&node.metadata.name);
            let scheduled = pods.is_some_and(|p| !p.is_empty());
            if should_run {
                desired += 1;
                if !scheduled {
                    continue;
                }
                current += 1;
                let mut pods = pods.cloned().unwrap_or_default();
                crate::sort::sort_by(&mut pods, cmp_pod_by_creation_timestamp_and_phase);
                let pod = &pods[0];
                if is_pod_ready(pod) {
                    ready += 1;
                    if is_pod_available(pod, ds.spec.min_ready_seconds, now) {
                        available += 1;
                    }
                }
                if is_pod_updated(pod, hash, generation) {
                    updated += 1;
                }
            } else if scheduled {
                misscheduled += 1;
            }
        }
        let unavailable = desired - available;
        store_daemon_set_status(
            ctx,
            ds,
            [
                desired,
                current,
                misscheduled,
                ready,
                updated,
                available,
                unavailable,
            ],
            update_observed_gen,
        )?;
        if ds.spec.min_ready_seconds > 0 && ready != available {
            ctx.requeue_after(
                &ds.metadata.key(),
                Duration::from_secs(i64::from(ds.spec.min_ready_seconds)),
            );
        }
        Ok(())
    }

    /// `updateDaemonSet`: manage, then (when expectations are satisfied) the rolling update, then
    /// history cleanup.
    ///
    /// # Errors
    /// The first failing step.
    pub fn update_daemon_set(
        &mut self,
        ctx: &mut Ctx,
        ds: &DaemonSet,
        nodes: &[Node],
        hash: &str,
        key: &str,
        old: &[crate::api::ControllerRevision],
    ) -> Result<(), ApiError> {
        self.manage(ctx, ds, nodes, hash)?;
        if self.expectations.satisfied_expectations(key, ctx.now())
            && ds.spec.update_strategy.type_ == crate::api::ROLLING_UPDATE_STRATEGY
        {
            self.rolling_update(ctx, ds, nodes, hash)?;
        }
        self.cleanup_history(ctx, ds, old).map_err(|e| {
            crate::controllers::controller_ref_manager::internal_error(format!(
                "failed to clean up revisions of DaemonSet: {e}"
            ))
        })
    }

    /// `syncDaemonSet`.
    ///
    /// # Errors
    /// History, manage, rolling-update or status errors (the key is retried with back-off).
    pub fn sync_daemon_set(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = split_key(key);
        let Some(ds) = ctx.store().get::<DaemonSet>(ns, name).cloned() else {
            self.expectations.delete_expectations(key);
            return Ok(());
        };
        let nodes: Vec<Node> = ctx.store().list::<Node>(None).cloned().collect();
        if ds.spec.selector.as_ref() == Some(&LabelSelector::default()) {
            let target = Object::DaemonSet(ds.clone());
            ctx.event(
                &target,
                "Warning",
                SELECTING_ALL_REASON,
                "This daemon set is selecting all pods. A non-empty selector is required.",
            );
            return Ok(());
        }
        if ds.metadata.deletion_timestamp.is_some() {
            return Ok(());
        }
        let (cur, old) = self.construct_history(ctx, &ds).map_err(|e| {
            crate::controllers::controller_ref_manager::internal_error(format!(
                "failed to construct revisions of DaemonSet: {e}"
            ))
        })?;
        let hash = cur
            .metadata
            .labels
            .get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY)
            .cloned()
            .unwrap_or_default();
        if !self.expectations.satisfied_expectations(key, ctx.now()) {
            // Only the status; observedGeneration stays, as this generation was not processed.
            return self.update_daemon_set_status(ctx, &ds, &nodes, &hash, false);
        }
        let err = self
            .update_daemon_set(ctx, &ds, &nodes, &hash, key, &old)
            .err();
        let status_err = self
            .update_daemon_set_status(ctx, &ds, &nodes, &hash, true)
            .err();
        match (err, status_err) {
            (Some(e), _) => Err(e),
            (None, Some(e)) => Err(e),
            (None, None) => Ok(()),
        }
    }
}

/// `storeDaemonSetStatus`: write the counters (desired, current, misscheduled, ready, updated,
/// available, unavailable) unless they and the observed generation are already current; one
/// retry with a fresh read.
///
/// # Errors
/// The status write failed twice.
pub fn store_daemon_set_status(
    ctx: &mut Ctx,
    ds: &DaemonSet,
    counts: [i32; 7],
    update_observed_gen: bool,
) -> Result<(), ApiError> {
    let [desired, current, misscheduled, ready, updated, available, unavailable] = counts;
    let s = &ds.status;
    if s.desired_number_scheduled == desired
        && s.current_number_scheduled == current
        && s.number_misscheduled == misscheduled
        && s.number_ready == ready
        && s.updated_number_scheduled == updated
        && s.number_available == available
        && s.number_unavailable == unavailable
        && s.observed_generation >= ds.metadata.generation
    {
        return Ok(());
    }
    let mut to_update = ds.clone();
    let mut last_err = None;
    for i in 0..=STATUS_UPDATE_RETRIES {
        if update_observed_gen {
            to_update.status.observed_generation = ds.metadata.generation;
        }
        let st = &mut to_update.status;
        st.desired_number_scheduled = desired;
        st.current_number_scheduled = current;
        st.number_misscheduled = misscheduled;
        st.number_ready = ready;
        st.updated_number_scheduled = updated;
        st.number_available = available;
        st.number_unavailable = unavailable;
        match ctx.update_status(Object::DaemonSet(to_update.clone())) {
            Ok(_) => return Ok(()),
            Err(e) => last_err = Some(e),
        }
        if i >= STATUS_UPDATE_RETRIES {
            break;
        }
        match ctx
            .store()
            .get::<DaemonSet>(&ds.metadata.namespace, &ds.metadata.name)
            .cloned()
        {
            Some(fresh) => to_update = fresh,
            None => return Err(ApiError::not_found("daemonsets.apps", &ds.metadata.name)),
        }
    }
    Err(last_err.expect("an attempt was made"))
}

impl Controller for DaemonSetsController {
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
            (None, Some(Object::Node(n))) => self.add_node(store, queue, n),
            (Some(Object::Node(o)), Some(Object::Node(n))) => self.update_node(store, queue, o, n),
            (old, new) => {
                let h = |o: Option<&Object>| match o {
                    Some(Object::ControllerRevision(r)) => Some(r.clone()),
                    _ => None,
                };
                let (oh, nh) = (h(old), h(new));
                if oh.is_some() || nh.is_some() {
                    self.history_changed(store, queue, oh.as_ref(), nh.as_ref());
                    return;
                }
                match (old, new) {
                    (Some(Object::DaemonSet(o)), Some(Object::DaemonSet(n))) => {
                        if o.metadata.uid != n.metadata.uid {
                            self.expectations.delete_expectations(&o.metadata.key());
                        }
                        queue.add_owned(n.metadata.key());
                    }
                    (None, Some(Object::DaemonSet(d))) => queue.add_owned(d.metadata.key()),
                    (Some(Object::DaemonSet(d)), None) => {
                        self.expectations.delete_expectations(&d.metadata.key());
                        queue.add_owned(d.metadata.key());
                    }
                    _ => {}
                }
            }
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        // `go wait.Until(dsc.failedPodsBackoff.GC, BackoffGCInterval)`, folded into syncs.
        self.failed_pods_backoff.gc(ctx.now());
        self.sync_daemon_set(key, ctx)
    }

    fn reset(&mut self) {
        self.expectations = ControllerExpectations::new();
        self.failed_pods_backoff =
            Backoff::new(FAILED_PODS_BACKOFF_INITIAL, FAILED_PODS_BACKOFF_MAX);
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for d in store.list::<DaemonSet>(None) {
            queue.add_owned(d.metadata.key());
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
