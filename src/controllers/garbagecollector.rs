//! The garbage collector (`pkg/controller/garbagecollector`): an owner→dependents graph built from watch events, and the workers that collect orphaned dependents, drive foreground deletion and orphan dependents.
//!
//! The structure follows upstream closely:
//!
//! * **GraphBuilder** (`graph_builder.go`): every watch event becomes a [`GraphEvent`] processed by
//!   [`GarbageCollector::process_graph_changes`], which maintains `uidToNode` — one [`Node`] per
//!   object, plus *virtual* nodes for owners that have not been observed — and enqueues work:
//!   an owner's deletion enqueues its dependents, a new reference to an unknown owner enqueues the
//!   virtual owner, `foregroundDeletion` / `orphan` transitions enqueue the owner.
//! * **attemptToDelete** (`garbagecollector.go`): [`GarbageCollector::attempt_to_delete_item`]
//!   classifies a dependent's owner references into solid / dangling /
//!   waitingForDependentsDeletion ([`GarbageCollector::classify_references`]) and deletes it when
//!   no owner is solid, removes dangling references when one is, and finishes foreground deletion
//!   ([`GarbageCollector::process_deleting_dependents_item`]).
//! * **attemptToOrphan**: [`GarbageCollector::orphan_dependents`] removes the owner's reference
//!   from every dependent, then the `orphan` finalizer is removed.
//!
//! Both upstream queues and the graph-changes queue share this controller's one work queue,
//! distinguished by key prefix. Informer events are applied to the graph synchronously in
//! [`Controller::watch`] (the sim delivers them before any reconcile); *virtual* delete events,
//! which upstream queues on `graphChanges` from a worker, wait in a FIFO that is drained by the
//! `graphChanges` key or before the next informer event — the order upstream's single graph
//! goroutine would see them in. Upstream queues node pointers; here an observed node is queued
//! by uid and a virtual node by its identity, so a stale virtual item is recognised where
//! upstream recognises a replaced pointer. Dependents are visited in uid order (upstream: map
//! order).
//!
//! Deviations, all forced by the simulation: the API is atomic, so the delete's resourceVersion
//! precondition and `retry.RetryOnConflict` never matter; patches are applied as updates and
//! recorded as `patch` actions; the `OwnerRefInvalidNamespace` warning, emitted by the graph
//! builder (which cannot reach the API from a watch handler here), is recorded at this
//! controller's next reconcile, at the same virtual instant. Kinds kubeplay does not serve
//! (Deployment, Job, ...) and apiVersions it does not serve are REST-mapping errors, exactly as
//! upstream treats kinds its API server does not serve: such references are never considered
//! dangling, and the item is retried with back-off.

use crate::api::{
    kind_info, ApiError, EventRecord, Object, ObjectMeta, OwnerReference, Reason, Shared,
    SharedStr, Time, KINDS,
};
use crate::controllers::{Action, Controller, Ctx};
use crate::queue::WorkQueue;
use crate::sort::CollectBTreeMap as _;
use crate::store::apiserver::{DeleteOptions, Propagation, FINALIZER_FOREGROUND, FINALIZER_ORPHAN};
use crate::store::{Change, ObjectRef, Store};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::sync::Arc;

/// The component name (`garbage-collector-controller`), also the events' source.
pub const NAME: &str = "garbage-collector-controller";

/// `NewReferenceCache(500)` in `NewDependencyGraphBuilder`.
pub const ABSENT_OWNER_CACHE_SIZE: usize = 500;

/// Work-queue key prefix of the `attemptToDelete` queue.
pub const ATTEMPT_TO_DELETE: &str = "attemptToDelete/";
/// Work-queue key prefix of the `attemptToOrphan` queue.
pub const ATTEMPT_TO_ORPHAN: &str = "attemptToOrphan/";
/// Work-queue key that drains the pending virtual graph changes.
pub const GRAPH_CHANGES: &str = "graphChanges";

const OBSERVED_PREFIX: &str = "uid/";
const VIRTUAL_PREFIX: &str = "virtual/";

/// `objectReference`: an owner reference's coordinates plus the namespace (the identity of a node).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    pub namespace: String,
}

impl ObjectReference {
    /// `makeID(apiVersion, kind, namespace, name, uid)` of the upstream tests.
    pub fn new(api_version: &str, kind: &str, namespace: &str, name: &str, uid: &str) -> Self {
        ObjectReference {
            api_version: api_version.into(),
            kind: kind.into(),
            name: name.into(),
            uid: uid.into(),
            namespace: namespace.into(),
        }
    }

    /// The identity an owner reference gives its owner, seen from a dependent in `namespace`.
    pub fn from_owner(r: &OwnerReference, namespace: &str) -> Self {
        ObjectReference {
            api_version: r.api_version.clone(),
            kind: r.kind.clone(),
            name: r.name.clone(),
            uid: r.uid.clone(),
            namespace: namespace.into(),
        }
    }

    /// The identity of a stored object.
    pub fn of(o: &Object) -> Self {
        let m = o.meta();
        ObjectReference {
            api_version: api_version_of(o.kind()).into(),
            kind: o.kind().into(),
            name: m.name.clone(),
            uid: m.uid.clone(),
            namespace: m.namespace.clone(),
        }
    }

    /// `ownerReferenceCoordinates`: the reference without `controller` / `blockOwnerDeletion`.
    pub fn owner_reference(&self) -> OwnerReference {
        OwnerReference {
            api_version: self.api_version.clone(),
            kind: self.kind.clone(),
            name: self.name.clone(),
            uid: self.uid.clone(),
            controller: None,
            block_owner_deletion: None,
        }
    }
}

impl fmt::Display for ObjectReference {
    /// `objectReference.String()`: `[v1/Pod, namespace: ns1, name: p, uid: 1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}/{}, namespace: {}, name: {}, uid: {}]",
            self.api_version, self.kind, self.namespace, self.name, self.uid
        )
    }
}

fn api_version_of(kind: &str) -> &'static str {
    kind_info(kind).map(|(a, ..)| a).unwrap_or("")
}

/// `ownerReferenceCoordinates(ref)`.
pub fn owner_reference_coordinates(r: &OwnerReference) -> OwnerReference {
    OwnerReference {
        api_version: r.api_version.clone(),
        kind: r.kind.clone(),
        name: r.name.clone(),
        uid: r.uid.clone(),
        controller: None,
        block_owner_deletion: None,
    }
}

/// `ownerReferenceMatchesCoordinates`: uid, name, kind and apiVersion are equal.
pub fn owner_reference_matches_coordinates(a: &OwnerReference, b: &OwnerReference) -> bool {
    a.uid == b.uid && a.name == b.name && a.kind == b.kind && a.api_version == b.api_version
}

/// [`owner_reference_matches_coordinates`] of `ownerReferenceCoordinates(identity)` and `r`,
/// without building the coordinates.
fn identity_matches_owner_coordinates(identity: &ObjectReference, r: &OwnerReference) -> bool {
    r.uid == identity.uid
        && r.name == identity.name
        && r.kind == identity.kind
        && r.api_version == identity.api_version
}

/// `referenceLessThan`: kind, then apiVersion, then namespace, then name, then uid.
pub fn reference_less_than(a: &ObjectReference, b: &ObjectReference) -> bool {
    (&a.kind, &a.api_version, &a.namespace, &a.name, &a.uid)
        < (&b.kind, &b.api_version, &b.namespace, &b.name, &b.uid)
}

/// `node`: one object (or a virtual owner) in the dependency graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub identity: ObjectReference,
    /// UIDs of the nodes that have this node as an owner.
    pub dependents: BTreeSet<String>,
    /// Being deleted with the `foregroundDeletion` finalizer.
    pub deleting_dependents: bool,
    /// Has a deletionTimestamp (a one-way trip).
    pub being_deleted: bool,
    /// Constructed from an owner reference, never observed through a watch event.
    pub is_virtual: bool,
    /// The ownerReferences last observed (shared with the observed metadata).
    pub owners: Shared<Vec<OwnerReference>>,
}

impl Node {
    fn new(identity: ObjectReference) -> Self {
        Node {
            identity,
            dependents: BTreeSet::new(),
            deleting_dependents: false,
            being_deleted: false,
            is_virtual: false,
            owners: vec![].into(),
        }
    }

    /// Whether `dependent` blocks this node's deletion: one of its ownerReferences names this
    /// node with `blockOwnerDeletion: true` (the test of `blockingDependents`).
    pub fn is_blocked_by(&self, dependent: &Node) -> bool {
        dependent
            .owners
            .iter()
            .any(|o| o.uid == self.identity.uid && o.block_owner_deletion == Some(true))
    }
}

/// `ReferenceCache`: the LRU of owners known to be absent (`absentOwnerCache`).
#[derive(Clone, Debug)]
pub struct ReferenceCache {
    max: usize,
    tick: u64,
    /// The cached references, each shared with its `by_tick` entry (one copy per reference).
    by_ref: BTreeMap<Arc<ObjectReference>, u64>,
    by_tick: BTreeMap<u64, Arc<ObjectReference>>,
}

impl ReferenceCache {
    /// `NewReferenceCache(maxCacheEntries)`; 0 means unbounded, as groupcache's LRU.
    pub fn new(max: usize) -> Self {
        ReferenceCache {
            max,
            tick: 0,
            by_ref: BTreeMap::new(),
            by_tick: BTreeMap::new(),
        }
    }

    /// Marks `r` most recently used, moving the cached key (no copy) when it is present.
    fn touch(&mut self, r: &ObjectReference) -> bool {
        let Some(t) = self.by_ref.get_mut(r) else {
            return false;
        };
        self.tick += 1;
        let tick = self.tick;
        let old = std::mem::replace(t, tick);
        if let Some(key) = self.by_tick.remove(&old) {
            self.by_tick.insert(tick, key);
        }
        true
    }

    /// `Add`: inserts or refreshes; evicts the least recently used beyond the limit.
    pub fn add(&mut self, r: ObjectReference) {
        if !self.touch(&r) {
            self.tick += 1;
            let r = Arc::new(r);
            self.by_ref.insert(r.clone(), self.tick);
            self.by_tick.insert(self.tick, r);
        }
        while self.max > 0 && self.by_ref.len() > self.max {
            let Some((&t, _)) = self.by_tick.iter().next() else {
                break;
            };
            if let Some(old) = self.by_tick.remove(&t) {
                self.by_ref.remove(&old);
            }
        }
    }

    /// `Has`: a `Get`, so a hit is promoted to most recently used.
    pub fn has(&mut self, r: &ObjectReference) -> bool {
        self.touch(r)
    }

    pub fn len(&self) -> usize {
        self.by_ref.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_ref.is_empty()
    }

    /// The cached references, in order.
    pub fn entries(&self) -> Vec<ObjectReference> {
        self.by_ref.keys().map(|r| (**r).clone()).collect()
    }

    pub fn clear(&mut self) {
        self.by_ref.clear();
        self.by_tick.clear();
    }
}

/// `eventType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    Add,
    Update,
    Delete,
}

/// The metadata the graph builder reads from an object (`metaonly.MetadataOnlyObject`), with
/// the kind as its informer knows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetadataOnlyObject {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    /// Shared with the object's metadata (copy on write).
    pub owner_references: Shared<Vec<OwnerReference>>,
    /// deletionTimestamp is set.
    pub being_deleted: bool,
    pub finalizers: Shared<Vec<String>>,
}

impl MetadataOnlyObject {
    pub fn of(o: &Object) -> Self {
        let m = o.meta();
        MetadataOnlyObject {
            api_version: api_version_of(o.kind()).into(),
            kind: o.kind().into(),
            namespace: m.namespace.clone(),
            name: m.name.clone(),
            uid: m.uid.clone(),
            owner_references: m.owner_references.clone(),
            being_deleted: m.deletion_timestamp.is_some(),
            finalizers: m.finalizers.clone(),
        }
    }

    /// `makeObj(identity, owners...)` of the upstream tests.
    pub fn from_identity(identity: &ObjectReference, owners: &[ObjectReference]) -> Self {
        MetadataOnlyObject {
            api_version: identity.api_version.clone(),
            kind: identity.kind.clone(),
            namespace: identity.namespace.clone(),
            name: identity.name.clone(),
            uid: identity.uid.clone(),
            owner_references: owners
                .iter()
                .map(ObjectReference::owner_reference)
                .collect(),
            being_deleted: false,
            finalizers: vec![].into(),
        }
    }

    fn has_finalizer(&self, f: &str) -> bool {
        self.finalizers.iter().any(|x| x == f)
    }
}

/// `event`: what the graph builder processes.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphEvent {
    /// Constructed by the collector (a virtual delete), not observed from an informer.
    pub is_virtual: bool,
    pub event_type: EventType,
    pub obj: MetadataOnlyObject,
    pub old_obj: Option<MetadataOnlyObject>,
}

impl GraphEvent {
    /// The informer event for a watch change.
    pub fn from_change(c: &Change) -> GraphEvent {
        match (c.old_obj(), c.new_obj()) {
            (old, Some(new)) => GraphEvent {
                is_virtual: false,
                event_type: if old.is_some() {
                    EventType::Update
                } else {
                    EventType::Add
                },
                obj: MetadataOnlyObject::of(new),
                old_obj: old.map(MetadataOnlyObject::of),
            },
            (old, None) => GraphEvent {
                is_virtual: false,
                event_type: EventType::Delete,
                obj: old.map(MetadataOnlyObject::of).unwrap_or_default(),
                old_obj: None,
            },
        }
    }
}

/// `identityFromEvent`.
fn identity_from_event(e: &GraphEvent) -> ObjectReference {
    ObjectReference {
        api_version: e.obj.api_version.clone(),
        kind: e.obj.kind.clone(),
        name: e.obj.name.clone(),
        uid: e.obj.uid.clone(),
        namespace: e.obj.namespace.clone(),
    }
}

/// [`identity_from_event`] that moves the strings out of the event's object (left empty).
fn take_identity(obj: &mut MetadataOnlyObject) -> ObjectReference {
    ObjectReference {
        api_version: std::mem::take(&mut obj.api_version),
        kind: std::mem::take(&mut obj.kind),
        name: std::mem::take(&mut obj.name),
        uid: std::mem::take(&mut obj.uid),
        namespace: std::mem::take(&mut obj.namespace),
    }
}

/// Why an attempt did not complete (upstream's error values).
#[derive(Clone, Debug, PartialEq)]
pub enum GcError {
    /// `enqueuedVirtualDeleteEventErr`: the item is gone; a virtual delete event was queued.
    EnqueuedVirtualDeleteEvent,
    /// `namespacedOwnerOfClusterScopedObjectErr`: will not resolve on retry.
    NamespacedOwnerOfClusterScopedObject,
    /// `restMappingError`: the kind / apiVersion is not served.
    RestMapping { kind: String, api_version: String },
    /// An API call failed.
    Api(ApiError),
    /// Anything else (aggregated orphaning failures).
    Other(String),
}

impl fmt::Display for GcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GcError::EnqueuedVirtualDeleteEvent => write!(f, "enqueued virtual delete event"),
            GcError::NamespacedOwnerOfClusterScopedObject => write!(
                f,
                "cluster-scoped objects cannot refer to namespaced owners"
            ),
            GcError::RestMapping { kind, api_version } => {
                write!(f, "unable to get REST mapping for {api_version}/{kind}.")
            }
            GcError::Api(e) => write!(f, "{}", e.message),
            GcError::Other(s) => write!(f, "{s}"),
        }
    }
}

impl From<ApiError> for GcError {
    fn from(e: ApiError) -> Self {
        GcError::Api(e)
    }
}

impl GcError {
    pub fn is_not_found(&self) -> bool {
        matches!(self, GcError::Api(e) if e.is_not_found())
    }

    fn into_api_error(self) -> ApiError {
        match self {
            GcError::Api(e) => e,
            other => ApiError {
                reason: Reason::InternalError,
                message: other.to_string(),
                causes: vec![],
                kind: String::new(),
                name: String::new(),
            },
        }
    }
}

/// `apiResource`: maps (apiVersion, kind) to a kind kubeplay's API server serves and whether it
/// is namespaced, as the REST mapper would. An empty version means the preferred one.
///
/// # Errors
/// [`GcError::RestMapping`] for a kind or version that is not served.
pub fn api_resource(api_version: &str, kind: &str) -> Result<(&'static str, bool), GcError> {
    let (group, version) = match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    for (k, api, _, g, namespaced) in KINDS {
        if *k == kind && *g == group {
            let served = api.rsplit('/').next().unwrap_or(api);
            if version.is_empty() || version == served {
                return Ok((k, *namespaced));
            }
        }
    }
    Err(GcError::RestMapping {
        kind: kind.into(),
        api_version: api_version.into(),
    })
}

/// `resourceDefaultNamespace`: cluster-scoped resources have no namespace.
pub fn resource_default_namespace(namespaced: bool, default_namespace: &str) -> &str {
    if namespaced {
        default_namespace
    } else {
        ""
    }
}

/// `GroupVersionResource.String()` of a served kind (`/v1, Resource=pods`), as the fake client
/// prints it in upstream's test tables.
fn gvr_string(kind: &str) -> String {
    match kind_info(kind) {
        Some((api, plural, group, _)) => {
            let version = api.rsplit('/').next().unwrap_or(api);
            format!("{group}/{version}, Resource={plural}")
        }
        None => kind.to_string(),
    }
}

fn qualified_resource(kind: &str) -> String {
    match kind_info(kind) {
        Some((_, plural, "", _)) => plural.to_string(),
        Some((_, plural, group, _)) => format!("{plural}.{group}"),
        None => kind.to_string(),
    }
}

/// `referencesDiffs`: owner references added, removed and changed (by uid) from `old` to `new`.
pub fn references_diffs(
    old: &[OwnerReference],
    new: &[OwnerReference],
) -> (
    Vec<OwnerReference>,
    Vec<OwnerReference>,
    Vec<(OwnerReference, OwnerReference)>,
) {
    let old_by_uid: BTreeMap<&str, &OwnerReference> =
        old.iter().map(|r| (r.uid.as_str(), r)).collect_btree_map();
    let mut old_uids: BTreeSet<&str> = old_by_uid.keys().copied().collect();
    let (mut added, mut changed) = (vec![], vec![]);
    for value in new {
        let uid = value.uid.as_str();
        if old_uids.contains(uid) {
            let o = old_by_uid[uid];
            if o != value {
                changed.push((o.clone(), value.clone()));
            }
            old_uids.remove(uid);
        } else {
            added.push(value.clone());
        }
    }
    let removed = old_uids.iter().map(|u| old_by_uid[u].clone()).collect();
    (added, removed, changed)
}

/// `deletionStartsWithFinalizer`: the object starts being deleted with `finalizer`.
pub fn deletion_starts_with_finalizer(
    old: Option<&MetadataOnlyObject>,
    new: &MetadataOnlyObject,
    finalizer: &str,
) -> bool {
    if !new.being_deleted || !new.has_finalizer(finalizer) {
        return false;
    }
    match old {
        None => true,
        Some(o) => !o.being_deleted || !o.has_finalizer(finalizer),
    }
}

/// `partitionDependents`: dependents whose reference to `owner.uid` matches the owner's
/// coordinates, and those with one that does not (a dependent can be in both).
pub fn partition_dependents(
    dependents: &[Node],
    owner: &ObjectReference,
) -> (Vec<Node>, Vec<Node>) {
    let owner_is_namespaced = !owner.namespace.is_empty();
    let coords = owner.owner_reference();
    let (mut matching, mut nonmatching) = (vec![], vec![]);
    for dep in dependents {
        let (mut found_match, mut found_mismatch) = (false, false);
        if owner_is_namespaced && owner.namespace != dep.identity.namespace {
            found_mismatch = true;
        } else {
            for r in dep.owners.iter().filter(|r| r.uid == owner.uid) {
                if owner_reference_matches_coordinates(r, &coords) {
                    found_match = true;
                } else {
                    found_mismatch = true;
                }
            }
        }
        if found_match {
            matching.push(dep.clone());
        }
        if found_mismatch {
            nonmatching.push(dep.clone());
        }
    }
    (matching, nonmatching)
}

/// `getAlternateOwnerIdentity`: another identity the dependents give the absent owner's uid —
/// the first following `verified_absent` in [`reference_less_than`] order, else the first.
pub fn get_alternate_owner_identity(
    deps: &[Node],
    verified_absent: &ObjectReference,
) -> Option<ObjectReference> {
    let absent_is_cluster_scoped = verified_absent.namespace.is_empty();
    let absent_coords = verified_absent.owner_reference();
    let mut seen: BTreeSet<ObjectReference> = BTreeSet::new();
    seen.insert(verified_absent.clone());
    let mut first: Option<ObjectReference> = None;
    let mut first_following: Option<ObjectReference> = None;
    for dep in deps {
        for r in dep.owners.iter().filter(|r| r.uid == verified_absent.uid) {
            if owner_reference_matches_coordinates(r, &absent_coords)
                && (absent_is_cluster_scoped || verified_absent.namespace == dep.identity.namespace)
            {
                continue;
            }
            let mut alt = ObjectReference::from_owner(r, &dep.identity.namespace);
            if absent_is_cluster_scoped
                && alt.api_version == verified_absent.api_version
                && alt.kind == verified_absent.kind
            {
                alt.namespace.clear();
            }
            if !seen.insert(alt.clone()) {
                continue;
            }
            if first.as_ref().is_none_or(|f| reference_less_than(&alt, f)) {
                first = Some(alt.clone());
            }
            if reference_less_than(verified_absent, &alt)
                && first_following
                    .as_ref()
                    .is_none_or(|f| reference_less_than(&alt, f))
            {
                first_following = Some(alt);
            }
        }
    }
    first_following.or(first)
}

/// The effect of `GenerateDeleteOwnerRefStrategicMergeBytes` (`$patch: delete` by uid): drops
/// every owner reference whose uid is listed.
pub fn delete_owner_refs(refs: &mut Vec<OwnerReference>, owner_uids: &[String]) {
    refs.retain(|r| !owner_uids.contains(&r.uid));
}

/// The effect of `unblockOwnerReferencesStrategicMergePatch`: every reference the node's owners
/// list as blocking is merged (by uid) with `blockOwnerDeletion: false`.
pub fn unblock_owner_references(refs: &mut Vec<OwnerReference>, node_owners: &[OwnerReference]) {
    for owner in node_owners
        .iter()
        .filter(|o| o.block_owner_deletion == Some(true))
    {
        let mut merged = false;
        for r in refs.iter_mut().filter(|r| r.uid == owner.uid) {
            r.block_owner_deletion = Some(false);
            merged = true;
        }
        if !merged {
            // A strategic merge patch adds list items it cannot merge with.
            let mut r = owner.clone();
            r.block_owner_deletion = Some(false);
            refs.push(r);
        }
    }
}

/// The key of a queued `attemptToDelete` item. A virtual node is queued under its identity, so a
/// stale virtual item can be told apart once the real object has been observed (upstream
/// queues node pointers).
fn delete_key(n: &Node) -> String {
    delete_key_of(&n.identity, n.is_virtual)
}

/// [`delete_key`] from a node's identity and virtual flag.
fn delete_key_of(i: &ObjectReference, is_virtual: bool) -> String {
    if is_virtual {
        let parts = [&i.api_version, &i.kind, &i.namespace, &i.name, &i.uid];
        format!(
            "{ATTEMPT_TO_DELETE}{VIRTUAL_PREFIX}{}",
            serde_json::to_string(&parts).unwrap_or_default()
        )
    } else {
        [ATTEMPT_TO_DELETE, OBSERVED_PREFIX, &i.uid].concat()
    }
}

/// What a queue key of this controller stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueuedItem {
    /// An `attemptToDelete` item: a node by uid, or a virtual node by its identity.
    AttemptToDelete {
        uid: String,
        virtual_identity: Option<ObjectReference>,
    },
    AttemptToOrphan {
        uid: String,
    },
    GraphChanges,
}

/// Decodes a queue key; `None` for a key this controller never produces.
pub fn parse_key(key: &str) -> Option<QueuedItem> {
    if key == GRAPH_CHANGES {
        return Some(QueuedItem::GraphChanges);
    }
    if let Some(uid) = key.strip_prefix(ATTEMPT_TO_ORPHAN) {
        return Some(QueuedItem::AttemptToOrphan { uid: uid.into() });
    }
    let rest = key.strip_prefix(ATTEMPT_TO_DELETE)?;
    if let Some(uid) = rest.strip_prefix(OBSERVED_PREFIX) {
        return Some(QueuedItem::AttemptToDelete {
            uid: uid.into(),
            virtual_identity: None,
        });
    }
    let json = rest.strip_prefix(VIRTUAL_PREFIX)?;
    let [api_version, kind, namespace, name, uid]: [String; 5] = serde_json::from_str(json).ok()?;
    Some(QueuedItem::AttemptToDelete {
        uid: uid.clone(),
        virtual_identity: Some(ObjectReference {
            api_version,
            kind,
            name,
            uid,
            namespace,
        }),
    })
}

/// The garbage collector: the dependency graph builder and the attemptToDelete /
/// attemptToOrphan workers.
#[derive(Clone, Debug)]
pub struct GarbageCollector {
    uid_to_node: BTreeMap<String, Node>,
    absent_owner_cache: ReferenceCache,
    absent_owner_cache_size: usize,
    /// Virtual delete events waiting for the graph builder (upstream's `graphChanges`).
    graph_changes: VecDeque<GraphEvent>,
    /// Events emitted by the graph builder, recorded at the next reconcile.
    pending_events: Vec<EventRecord>,
    /// Owners queued for orphaning.
    orphan_pending: BTreeSet<String>,
    /// An owner queued for orphaning that left the graph before it was processed: its node and
    /// dependents as they were (upstream's worker still holds the node pointer).
    orphan_snapshots: BTreeMap<String, Box<(Node, Vec<Node>)>>,
    /// When `Some`, every API call this controller makes is appended, in the fake client's
    /// format (`get /v1, Resource=pods ns=ns1 name=p`) — for tests.
    pub client_log: Option<Vec<String>>,
}

impl Default for GarbageCollector {
    fn default() -> Self {
        Self::new()
    }
}

impl GarbageCollector {
    pub fn new() -> Self {
        Self::with_absent_owner_cache_size(ABSENT_OWNER_CACHE_SIZE)
    }

    /// A collector whose absentOwnerCache holds `size` entries.
    pub fn with_absent_owner_cache_size(size: usize) -> Self {
        GarbageCollector {
            uid_to_node: BTreeMap::new(),
            absent_owner_cache: ReferenceCache::new(size),
            absent_owner_cache_size: size,
            graph_changes: VecDeque::new(),
            pending_events: vec![],
            orphan_pending: BTreeSet::new(),
            orphan_snapshots: BTreeMap::new(),
            client_log: None,
        }
    }

    // ----- inspection -------------------------------------------------------------------

    /// `GraphHasUID`.
    pub fn graph_has_uid(&self, uid: &str) -> bool {
        self.uid_to_node.contains_key(uid)
    }

    /// The node for a uid.
    pub fn node(&self, uid: &str) -> Option<&Node> {
        self.uid_to_node.get(uid)
    }

    /// Every node, by uid.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.uid_to_node.values()
    }

    pub fn absent_owner_cache(&self) -> &ReferenceCache {
        &self.absent_owner_cache
    }

    /// `absentOwnerCache.Has` (promotes a hit).
    pub fn absent_owner_cache_has(&mut self, r: &ObjectReference) -> bool {
        self.absent_owner_cache.has(r)
    }

    /// Virtual delete events not yet applied to the graph.
    pub fn pending_graph_changes(&self) -> impl Iterator<Item = &GraphEvent> {
        self.graph_changes.iter()
    }

    /// Events emitted by the graph builder and not yet recorded.
    pub fn pending_events(&self) -> &[EventRecord] {
        &self.pending_events
    }

    /// Takes the events emitted by the graph builder and not yet recorded.
    pub fn take_pending_events(&mut self) -> Vec<EventRecord> {
        std::mem::take(&mut self.pending_events)
    }

    /// `verifyGraphInvariants`: every dependent lists the node as an owner and every observed
    /// owner lists the node as a dependent. Returns the violations.
    pub fn verify_graph_invariants(&self) -> Vec<String> {
        let mut errs = vec![];
        for (uid, n) in &self.uid_to_node {
            for d in &n.dependents {
                match self.uid_to_node.get(d) {
                    Some(dn) if dn.owners.iter().any(|o| &o.uid == uid) => {}
                    Some(dn) => errs.push(format!(
                        "node {} has node {} as a dependent, but it's not present in the latter node's owners list",
                        n.identity, dn.identity
                    )),
                    None => errs.push(format!(
                        "node {} has dependent uid {d} which is not in the graph",
                        n.identity
                    )),
                }
            }
            for o in &n.owners {
                if let Some(on) = self.uid_to_node.get(&o.uid) {
                    if !on.dependents.contains(uid) {
                        errs.push(format!(
                            "node {} has node {} as an owner, but it's not present in the latter node's dependents list",
                            n.identity, on.identity
                        ));
                    }
                }
            }
        }
        errs
    }

    // ----- graph builder ----------------------------------------------------------------

    fn enqueue_delete(queue: &mut WorkQueue, n: &Node) {
        queue.add(&delete_key(n));
    }

    fn enqueue_orphan(&mut self, queue: &mut WorkQueue, uid: &str) {
        self.orphan_pending.insert(uid.to_string());
        queue.add(&format!("{ATTEMPT_TO_ORPHAN}{uid}"));
    }

    /// The dependents of a node, as nodes.
    fn get_dependents(&self, uid: &str) -> Vec<Node> {
        self.uid_to_node
            .get(uid)
            .map(|n| {
                n.dependents
                    .iter()
                    .filter_map(|d| self.uid_to_node.get(d).cloned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `enqueueVirtualDeleteEvent`: queues a virtual delete event for the graph builder.
    fn enqueue_virtual_delete_event(&mut self, identity: &ObjectReference, queue: &mut WorkQueue) {
        self.graph_changes.push_back(GraphEvent {
            is_virtual: true,
            event_type: EventType::Delete,
            obj: MetadataOnlyObject::from_identity(identity, &[]),
            old_obj: None,
        });
        queue.add(GRAPH_CHANGES);
    }

    /// Runs `processGraphChanges` over every queued virtual event, in order.
    pub fn process_pending_graph_changes(&mut self, queue: &mut WorkQueue, now: Time) {
        while let Some(e) = self.graph_changes.pop_front() {
            self.process_graph_changes(e, queue, now);
        }
    }

    /// `reportInvalidNamespaceOwnerRef`.
    fn report_invalid_namespace_owner_ref(&mut self, n: &Node, invalid_owner_uid: &str) {
        let Some(r) = n.owners.iter().find(|o| o.uid == invalid_owner_uid) else {
            return;
        };
        let invalid_identity = ObjectReference::from_owner(r, &n.identity.namespace);
        self.pending_events.push(EventRecord {
            time: Time(0),
            kind: n.identity.kind.as_str().into(),
            namespace: n.identity.namespace.as_str().into(),
            name: n.identity.name.as_str().into(),
            uid: n.identity.uid.as_str().into(),
            type_: "Warning".into(),
            reason: "OwnerRefInvalidNamespace".into(),
            message: format!(
                "ownerRef {invalid_identity} does not exist in namespace {:?}",
                n.identity.namespace
            ),
            source: NAME.into(),
            host: SharedStr::default(),
            field_path: SharedStr::default(),
            count: 1,
        });
    }

    /// `addDependentToOwners`: adds `n_uid` to its owners' dependents, creating (and queueing)
    /// virtual nodes for owners not in the graph, and queues `n_uid` when a reference looks
    /// invalid against an observed owner.
    fn add_dependent_to_owners(
        &mut self,
        n_uid: &str,
        owners: &[OwnerReference],
        queue: &mut WorkQueue,
    ) {
        // Only the dependent's namespace is read on the common path; the node itself is looked
        // up again (and copied) only to report or queue it.
        let Some(n_namespace) = self
            .uid_to_node
            .get(n_uid)
            .map(|n| n.identity.namespace.clone())
        else {
            return;
        };
        let mut has_potentially_invalid = false;
        for owner in owners {
            let existed = self.uid_to_node.contains_key(&owner.uid);
            if !existed {
                let mut v = Node::new(ObjectReference::from_owner(owner, &n_namespace));
                v.is_virtual = true;
                self.uid_to_node.insert(owner.uid.clone(), v);
            }
            let Some(owner_node) = self.uid_to_node.get_mut(&owner.uid) else {
                continue;
            };
            if !owner_node.dependents.contains(n_uid) {
                owner_node.dependents.insert(n_uid.to_string());
            }
            // Only the owner's identity and virtual flag are read below (borrowed, no copy).
            let owner_node: &Node = owner_node;
            let (identity, is_virtual) = (&owner_node.identity, owner_node.is_virtual);
            if !existed {
                // The collector will confirm (or not) that this owner exists.
                queue.add(&delete_key_of(identity, is_virtual));
            } else if !has_potentially_invalid {
                let owner_is_namespaced = !identity.namespace.is_empty();
                if owner_is_namespaced && identity.namespace != n_namespace {
                    if !is_virtual {
                        // Observed in another namespace: definitely wrong.
                        if let Some(n) = self.uid_to_node.get(n_uid).cloned() {
                            self.report_invalid_namespace_owner_ref(&n, &owner.uid);
                        }
                    }
                    has_potentially_invalid = true;
                } else if !identity_matches_owner_coordinates(identity, owner) {
                    has_potentially_invalid = true;
                } else if !owner_is_namespaced && identity.namespace != n_namespace && is_virtual {
                    // A virtual cluster-scoped owner not matching the child's namespace could be
                    // a missing namespaced owner referenced by a cluster-scoped child (#98040).
                    has_potentially_invalid = true;
                }
            }
        }
        if has_potentially_invalid {
            if let Some(n) = self.uid_to_node.get(n_uid) {
                Self::enqueue_delete(queue, n);
            }
        }
    }

    /// `insertNode`.
    fn insert_node(&mut self, n: Node, queue: &mut WorkQueue) {
        let uid = n.identity.uid.clone();
        let owners = n.owners.clone();
        self.uid_to_node.insert(uid.clone(), n);
        self.add_dependent_to_owners(&uid, &owners, queue);
    }

    /// `removeDependentFromOwners`.
    fn remove_dependent_from_owners(&mut self, n_uid: &str, owners: &[OwnerReference]) {
        for owner in owners {
            if let Some(on) = self.uid_to_node.get_mut(&owner.uid) {
                on.dependents.remove(n_uid);
            }
        }
    }

    /// `removeNode`.
    fn remove_node(&mut self, uid: &str) -> Option<Node> {
        let n = self.uid_to_node.remove(uid)?;
        self.remove_dependent_from_owners(uid, &n.owners);
        if self.orphan_pending.contains(uid) {
            let deps = n
                .dependents
                .iter()
                .filter_map(|d| self.uid_to_node.get(d).cloned())
                .collect();
            self.orphan_snapshots
                .insert(uid.to_string(), Box::new((n.clone(), deps)));
        }
        Some(n)
    }

    /// `addUnblockedOwnersToDeleteQueue`: a removed blocking reference, or one changed to
    /// non-blocking, may let a foreground owner finish.
    fn add_unblocked_owners_to_delete_queue(
        &self,
        removed: &[OwnerReference],
        changed: &[(OwnerReference, OwnerReference)],
        queue: &mut WorkQueue,
    ) {
        for r in removed {
            if r.block_owner_deletion == Some(true) {
                if let Some(n) = self.uid_to_node.get(&r.uid) {
                    Self::enqueue_delete(queue, n);
                }
            }
        }
        for (old, new) in changed {
            let was_blocked = old.block_owner_deletion == Some(true);
            let is_unblocked = new.block_owner_deletion != Some(true);
            if was_blocked && is_unblocked {
                if let Some(n) = self.uid_to_node.get(&new.uid) {
                    Self::enqueue_delete(queue, n);
                }
            }
        }
    }

    /// `processTransitions`: deletion starting with `orphan` queues the owner for orphaning;
    /// with `foregroundDeletion` marks it and queues it and its dependents.
    fn process_transitions(
        &mut self,
        old: Option<&MetadataOnlyObject>,
        new: &MetadataOnlyObject,
        uid: &str,
        queue: &mut WorkQueue,
    ) {
        if deletion_starts_with_finalizer(old, new, FINALIZER_ORPHAN) {
            self.enqueue_orphan(queue, uid);
            return;
        }
        if deletion_starts_with_finalizer(old, new, FINALIZER_FOREGROUND) {
            let Some(n) = self.uid_to_node.get_mut(uid) else {
                return;
            };
            n.deleting_dependents = true;
            let n = n.clone();
            for dep in self.get_dependents(uid) {
                Self::enqueue_delete(queue, &dep);
            }
            Self::enqueue_delete(queue, &n);
        }
    }

    /// Whether `processGraphChanges` would leave the graph and the queues as they are: an update
    /// of an observed (non-virtual) node that keeps its owner references, its finalizers and
    /// whether it is being deleted (so no reference diff and no deletion transition). Most
    /// updates are status writes of this kind; skipping them skips building the event.
    fn update_changes_nothing(&self, change: &Change) -> bool {
        let (Some(old), Some(new)) = (change.old_obj(), change.new_obj()) else {
            return false;
        };
        let (om, nm) = (old.meta(), new.meta());
        if om.uid != nm.uid
            || om.owner_references != nm.owner_references
            || om.finalizers != nm.finalizers
            || om.deletion_timestamp.is_some() != nm.deletion_timestamp.is_some()
        {
            return false;
        }
        self.uid_to_node.get(&nm.uid).is_some_and(|n| {
            !n.is_virtual
                && n.owners == nm.owner_references
                && (n.being_deleted || nm.deletion_timestamp.is_none())
        })
    }

    /// `processGraphChanges`: applies one event to the graph and queues the work it implies.
    pub fn process_graph_changes(
        &mut self,
        mut event: GraphEvent,
        queue: &mut WorkQueue,
        now: Time,
    ) {
        let uid = event.obj.uid.clone();
        // An informer event for a virtual node: it is observed now.
        // (Only the identity of the node is needed: never copy its dependents.)
        let virtual_identity = self
            .uid_to_node
            .get(&uid)
            .filter(|existing| !event.is_virtual && existing.is_virtual)
            .map(|existing| existing.identity.clone());
        if let Some(existing_identity) = virtual_identity {
            {
                let observed = identity_from_event(&event);
                if observed != existing_identity {
                    let deps = self.get_dependents(&uid);
                    let (_, potentially_invalid) = partition_dependents(&deps, &observed);
                    for dep in &potentially_invalid {
                        if !observed.namespace.is_empty()
                            && dep.identity.namespace != observed.namespace
                        {
                            self.report_invalid_namespace_owner_ref(dep, &observed.uid);
                        }
                        Self::enqueue_delete(queue, dep);
                    }
                    if let Some(n) = self.uid_to_node.get_mut(&uid) {
                        n.identity = observed;
                    }
                }
                if let Some(n) = self.uid_to_node.get_mut(&uid) {
                    n.is_virtual = false;
                }
            }
        }
        let found = self.uid_to_node.contains_key(&uid);
        match event.event_type {
            EventType::Add | EventType::Update if !found => {
                // The event's strings move into the node: only its owners, deletion state and
                // finalizers are read below.
                let mut n = Node::new(take_identity(&mut event.obj));
                n.owners = event.obj.owner_references.clone();
                n.being_deleted = event.obj.being_deleted;
                n.deleting_dependents =
                    event.obj.being_deleted && event.obj.has_finalizer(FINALIZER_FOREGROUND);
                self.insert_node(n, queue);
                // A creation and a deletion may arrive as one event.
                self.process_transitions(event.old_obj.as_ref(), &event.obj, &uid, queue);
            }
            EventType::Add | EventType::Update => {
                let Some(existing) = self.uid_to_node.get_mut(&uid) else {
                    return;
                };
                if !event.is_virtual
                    && (existing.identity.api_version != event.obj.api_version
                        || existing.identity.kind != event.obj.kind)
                {
                    existing.identity.api_version = event.obj.api_version.clone();
                    existing.identity.kind = event.obj.kind.clone();
                }
                let old_owners = existing.owners.clone();
                let (added, removed, changed) =
                    references_diffs(&old_owners, &event.obj.owner_references);
                if !added.is_empty() || !removed.is_empty() || !changed.is_empty() {
                    self.add_unblocked_owners_to_delete_queue(&removed, &changed, queue);
                    if let Some(n) = self.uid_to_node.get_mut(&uid) {
                        n.owners = event.obj.owner_references.clone();
                    }
                    self.add_dependent_to_owners(&uid, &added, queue);
                    self.remove_dependent_from_owners(&uid, &removed);
                }
                if event.obj.being_deleted {
                    if let Some(n) = self.uid_to_node.get_mut(&uid) {
                        n.being_deleted = true;
                    }
                }
                self.process_transitions(event.old_obj.as_ref(), &event.obj, &uid, queue);
            }
            EventType::Delete => {
                let Some((existing_virtual, existing_identity)) = self
                    .uid_to_node
                    .get(&uid)
                    .map(|n| (n.is_virtual, n.identity.clone()))
                else {
                    return; // not in the graph: nothing to do
                };
                let mut remove_existing = true;
                if event.is_virtual {
                    let deleted_identity = identity_from_event(&event);
                    if existing_virtual {
                        // Unsure of our coordinates: do dependents disagree about them?
                        let deps = self.get_dependents(&uid);
                        let (matching, nonmatching) =
                            partition_dependents(&deps, &deleted_identity);
                        if !nonmatching.is_empty() {
                            remove_existing = false;
                            if !matching.is_empty() {
                                self.absent_owner_cache.add(deleted_identity.clone());
                                for dep in &matching {
                                    Self::enqueue_delete(queue, dep);
                                }
                            }
                            if existing_identity == deleted_identity {
                                if let Some(replacement) =
                                    get_alternate_owner_identity(&nonmatching, &deleted_identity)
                                {
                                    if let Some(n) = self.uid_to_node.get_mut(&uid) {
                                        n.identity = replacement;
                                        let key = delete_key(n);
                                        queue.add_rate_limited(&key, now);
                                    }
                                }
                            }
                        }
                    } else if existing_identity != deleted_identity {
                        // Never remove an observed node on a virtual event that disagrees.
                        remove_existing = false;
                        let deps = self.get_dependents(&uid);
                        let (matching, _) = partition_dependents(&deps, &deleted_identity);
                        if !matching.is_empty() {
                            self.absent_owner_cache.add(deleted_identity);
                            for dep in &matching {
                                Self::enqueue_delete(queue, dep);
                            }
                        }
                    }
                }
                if remove_existing {
                    let Some(removed) = self.remove_node(&uid) else {
                        return;
                    };
                    if !removed.dependents.is_empty() {
                        self.absent_owner_cache.add(take_identity(&mut event.obj));
                    }
                    for d in &removed.dependents {
                        if let Some(dep) = self.uid_to_node.get(d) {
                            Self::enqueue_delete(queue, dep);
                        }
                    }
                    for owner in &removed.owners {
                        if let Some(on) = self.uid_to_node.get(&owner.uid) {
                            if on.deleting_dependents {
                                // Let the owner check whether all its dependents are gone.
                                Self::enqueue_delete(queue, on);
                            }
                        }
                    }
                }
            }
        }
    }

    // ----- API access -------------------------------------------------------------------

    fn log_client(&mut self, verb: &str, kind: &str, namespace: &str, name: &str) {
        if let Some(log) = &mut self.client_log {
            let mut s = format!("{verb} {}", gvr_string(kind));
            if !namespace.is_empty() {
                s.push_str(&format!(" ns={namespace}"));
            }
            if !name.is_empty() {
                s.push_str(&format!(" name={name}"));
            }
            log.push(s);
        }
    }

    fn get(
        &mut self,
        kind: &'static str,
        namespace: &str,
        name: &str,
        ctx: &Ctx,
    ) -> Option<Arc<Object>> {
        self.log_client("get", kind, namespace, name);
        // The stored object itself (shared): only its metadata is read.
        ctx.store().get_arc_by_parts(kind, namespace, name)
    }

    /// `getObject`: `Ok(None)` when not found.
    fn get_object(
        &mut self,
        item: &ObjectReference,
        ctx: &Ctx,
    ) -> Result<Option<Arc<Object>>, GcError> {
        let (kind, namespaced) = api_resource(&item.api_version, &item.kind)?;
        let ns = resource_default_namespace(namespaced, &item.namespace);
        if namespaced && ns.is_empty() {
            // Only a cluster-scoped object referring to a namespaced owner gets here.
            return Err(GcError::NamespacedOwnerOfClusterScopedObject);
        }
        Ok(self.get(kind, ns, &item.name, ctx))
    }

    /// `deleteObject` with a uid precondition and the given propagation policy.
    fn delete_object(
        &mut self,
        item: &ObjectReference,
        policy: Propagation,
        ctx: &mut Ctx,
    ) -> Result<(), GcError> {
        let (kind, namespaced) = api_resource(&item.api_version, &item.kind)?;
        let ns = resource_default_namespace(namespaced, &item.namespace).to_string();
        self.log_client("delete", kind, &ns, &item.name);
        let opts = DeleteOptions {
            grace_period_seconds: None,
            propagation: Some(policy),
            uid: Some(item.uid.clone()),
        };
        ctx.delete_kind(kind, &ns, &item.name, &opts)?;
        Ok(())
    }

    /// `patchObject`: applies `mutate` to the live object's metadata. With `uid_precondition`
    /// the patch carries the item's uid, so a different object under the name is a Conflict.
    fn patch_object(
        &mut self,
        item: &ObjectReference,
        uid_precondition: bool,
        mutate: impl FnOnce(&mut ObjectMeta),
        ctx: &mut Ctx,
    ) -> Result<(), GcError> {
        let (kind, namespaced) = api_resource(&item.api_version, &item.kind)?;
        let ns = resource_default_namespace(namespaced, &item.namespace).to_string();
        self.log_client("patch", kind, &ns, &item.name);
        ctx.actions.push(Action {
            verb: "patch",
            kind,
            namespace: ns.clone(),
            name: item.name.clone(),
            replicas: None,
        });
        let Some(mut o) = ctx
            .store()
            .get_ref(&ObjectRef::new(kind, &ns, &item.name))
            .cloned()
        else {
            return Err(ApiError::not_found(&qualified_resource(kind), &item.name).into());
        };
        if uid_precondition {
            o.meta_mut().uid = item.uid.clone();
        }
        mutate(o.meta_mut());
        ctx.api.update(o)?;
        Ok(())
    }

    /// `removeFinalizer`: removes `target` from the object's finalizers (a merge patch carrying
    /// the resourceVersion read). A missing object or finalizer is success.
    fn remove_finalizer(
        &mut self,
        owner: &Node,
        target: &str,
        ctx: &mut Ctx,
    ) -> Result<(), GcError> {
        let Some(o) = self.get_object(&owner.identity, ctx)? else {
            return Ok(());
        };
        if !o.meta().has_finalizer(target) {
            return Ok(());
        }
        let t = target.to_string();
        self.patch_object(
            &owner.identity,
            false,
            |m| m.finalizers.retain(|f| *f != t),
            ctx,
        )
        .map_err(|e| match e {
            GcError::Api(ref a) if a.reason == Reason::Conflict => GcError::Other(format!(
                "updateMaxRetries(4) has reached. The garbage collector will retry later for owner {}",
                owner.identity
            )),
            other => other,
        })
    }

    // ----- attemptToDelete --------------------------------------------------------------

    /// `isDangling`: whether the reference points to an object that does not exist (or exists
    /// under that name with another uid), and the owner when it does exist.
    ///
    /// # Errors
    /// REST mapping errors; [`GcError::NamespacedOwnerOfClusterScopedObject`].
    pub fn is_dangling(
        &mut self,
        reference: &OwnerReference,
        item: &Node,
        ctx: &Ctx,
    ) -> Result<(bool, Option<Arc<Object>>), GcError> {
        // A recorded absent cluster-scoped owner, then a recorded absent namespaced one.
        // (`from_owner` reads only the reference's coordinates.)
        let mut key = ObjectReference::from_owner(reference, "");
        if self.absent_owner_cache.has(&key) {
            return Ok((true, None));
        }
        key.namespace = item.identity.namespace.clone();
        if self.absent_owner_cache.has(&key) {
            return Ok((true, None));
        }
        let (kind, namespaced) = api_resource(&reference.api_version, &reference.kind)?;
        if !namespaced {
            key.namespace.clear();
        }
        if item.identity.namespace.is_empty() && namespaced {
            return Err(GcError::NamespacedOwnerOfClusterScopedObject);
        }
        let ns = resource_default_namespace(namespaced, &item.identity.namespace);
        match self.get(kind, ns, &reference.name, ctx) {
            None => {
                self.absent_owner_cache.add(key);
                Ok((true, None))
            }
            Some(o) if o.meta().uid != reference.uid => {
                self.absent_owner_cache.add(key);
                Ok((true, None))
            }
            Some(o) => Ok((false, Some(o))),
        }
    }

    /// `classifyReferences`: solid (the owner exists and is not waiting for its dependents'
    /// deletion), dangling (the owner does not exist) and waitingForDependentsDeletion (being
    /// deleted with `foregroundDeletion`).
    ///
    /// # Errors
    /// As [`GarbageCollector::is_dangling`].
    #[allow(clippy::type_complexity)]
    pub fn classify_references(
        &mut self,
        item: &Node,
        latest_references: &[OwnerReference],
        ctx: &Ctx,
    ) -> Result<
        (
            Vec<OwnerReference>,
            Vec<OwnerReference>,
            Vec<OwnerReference>,
        ),
        GcError,
    > {
        let (mut solid, mut dangling, mut waiting) = (vec![], vec![], vec![]);
        for r in latest_references {
            let (is_dangling, owner) = self.is_dangling(r, item, ctx)?;
            if is_dangling {
                dangling.push(r.clone());
                continue;
            }
            let waiting_for_dependents = owner.is_some_and(|o| {
                o.meta().deletion_timestamp.is_some()
                    && o.meta().has_finalizer(FINALIZER_FOREGROUND)
            });
            if waiting_for_dependents {
                waiting.push(r.clone());
            } else {
                solid.push(r.clone());
            }
        }
        Ok((solid, dangling, waiting))
    }

    /// `attemptToDeleteItem`: looks up the live object and deletes it iff its uid matches, it
    /// is not blocked on deleting its own dependents, and all its owner references are
    /// dangling (or waiting for their dependents' deletion).
    ///
    /// # Errors
    /// [`GcError::EnqueuedVirtualDeleteEvent`] when the item is gone (a virtual delete event was
    /// queued); API and mapping errors, after which the item is retried.
    pub fn attempt_to_delete_item(&mut self, item: &Node, ctx: &mut Ctx) -> Result<(), GcError> {
        // Being deleted is a one-way trip: wait for the final deletion.
        if item.being_deleted && !item.deleting_dependents {
            return Ok(());
        }
        let latest = match self.get_object(&item.identity, ctx)? {
            Some(o) if o.meta().uid == item.identity.uid => o,
            _ => {
                // Not found, or another object under that name: drop the (virtual) node.
                self.enqueue_virtual_delete_event(&item.identity, ctx.queue);
                return Err(GcError::EnqueuedVirtualDeleteEvent);
            }
        };
        if item.deleting_dependents {
            return self.process_deleting_dependents_item(item, ctx);
        }
        let owner_references = latest.meta().owner_references.clone();
        if owner_references.is_empty() {
            return Ok(()); // no owner: nothing to collect
        }
        let (solid, dangling, waiting) = self.classify_references(item, &owner_references, ctx)?;
        let dependents_len = self
            .uid_to_node
            .get(&item.identity.uid)
            .map_or(item.dependents.len(), |n| n.dependents.len());
        if !solid.is_empty() {
            if dangling.is_empty() && waiting.is_empty() {
                return Ok(());
            }
            // Remove dangling references, and references to owners waiting for their
            // dependents (or those owners would be stuck with foregroundDeletion forever).
            let owner_uids: Vec<String> = dangling
                .iter()
                .chain(waiting.iter())
                .map(|r| r.uid.clone())
                .collect();
            return self.patch_object(
                &item.identity,
                true,
                |m| delete_owner_refs(&mut m.owner_references, &owner_uids),
                ctx,
            );
        }
        let policy = if !waiting.is_empty() && dependents_len != 0 {
            for dep in self.get_dependents(&item.identity.uid) {
                if dep.deleting_dependents {
                    // An owner and a dependent both delete dependents: break a potential
                    // cycle by making this item's references non-blocking first.
                    let owners = item.owners.clone();
                    self.patch_object(
                        &item.identity,
                        true,
                        |m| unblock_owner_references(&mut m.owner_references, &owners),
                        ctx,
                    )?;
                    break;
                }
            }
            // An owner waits for its dependents and this item has dependents of its own: delete
            // it in the foreground too; it is finished in process_deleting_dependents_item.
            Propagation::Foreground
        } else {
            // No solid owner and no owner waiting on it with dependents: collect it, honouring
            // a propagation finalizer already on the object.
            let m = latest.meta();
            if m.has_finalizer(FINALIZER_ORPHAN) {
                Propagation::Orphan
            } else if m.has_finalizer(FINALIZER_FOREGROUND) {
                Propagation::Foreground
            } else {
                Propagation::Background
            }
        };
        match self.delete_object(&item.identity, policy, ctx) {
            Err(e) if e.is_not_found() => {
                self.enqueue_virtual_delete_event(&item.identity, ctx.queue);
                Err(GcError::EnqueuedVirtualDeleteEvent)
            }
            r => r,
        }
    }

    /// `processDeletingDependentsItem`: an owner being deleted in the foreground loses its
    /// `foregroundDeletion` finalizer once no dependent blocks it; until then its blocking
    /// dependents are queued for deletion.
    ///
    /// # Errors
    /// As the finalizer removal.
    pub fn process_deleting_dependents_item(
        &mut self,
        item: &Node,
        ctx: &mut Ctx,
    ) -> Result<(), GcError> {
        let current = self
            .uid_to_node
            .get(&item.identity.uid)
            .cloned()
            .unwrap_or_else(|| item.clone());
        let blocking: Vec<Node> = self
            .get_dependents(&item.identity.uid)
            .into_iter()
            .filter(|d| current.is_blocked_by(d))
            .collect();
        if blocking.is_empty() {
            return self.remove_finalizer(item, FINALIZER_FOREGROUND, ctx);
        }
        for dep in &blocking {
            if !dep.deleting_dependents {
                Self::enqueue_delete(ctx.queue, dep);
            }
        }
        Ok(())
    }

    /// `attemptToDeleteWorker` for one queued item.
    fn attempt_to_delete_worker(
        &mut self,
        uid: &str,
        virtual_identity: Option<ObjectReference>,
        ctx: &mut Ctx,
    ) -> Result<(), ApiError> {
        let Some(graph_node) = self.uid_to_node.get(uid).cloned() else {
            return Ok(()); // no longer in the graph
        };
        let item = match virtual_identity {
            Some(identity) if !graph_node.is_virtual => {
                if graph_node.identity != identity {
                    // The real object was observed under other coordinates: this queued
                    // virtual item is stale.
                    return Ok(());
                }
                graph_node
            }
            Some(identity) => {
                // Still virtual; the queued item may predate an identity replacement. Keep its
                // name and namespace, take apiVersion/kind from the graph.
                let mut n = graph_node;
                n.identity.name = identity.name;
                n.identity.namespace = identity.namespace;
                n
            }
            None => graph_node,
        };
        match self.attempt_to_delete_item(&item, ctx) {
            Err(GcError::EnqueuedVirtualDeleteEvent) => Ok(()),
            Err(GcError::NamespacedOwnerOfClusterScopedObject) => Ok(()),
            Err(e) => Err(e.into_api_error()),
            Ok(()) => {
                let still_virtual = self.uid_to_node.get(uid).is_some_and(|n| n.is_virtual);
                if item.is_virtual && still_virtual {
                    // Not observed through an informer yet: poll (issue 56121).
                    Err(GcError::Other(format!(
                        "item {} hasn't been observed via informer yet",
                        item.identity
                    ))
                    .into_api_error())
                } else {
                    Ok(())
                }
            }
        }
    }

    // ----- attemptToOrphan --------------------------------------------------------------

    /// `orphanDependents`: removes `owner`'s reference from every dependent (uid
    /// precondition; a missing dependent is fine).
    ///
    /// # Errors
    /// The aggregated failures.
    pub fn orphan_dependents(
        &mut self,
        owner: &ObjectReference,
        dependents: &[Node],
        ctx: &mut Ctx,
    ) -> Result<(), GcError> {
        let mut errs = vec![];
        let uids = [owner.uid.clone()];
        for dep in dependents {
            let r = self.patch_object(
                &dep.identity,
                true,
                |m| delete_owner_refs(&mut m.owner_references, &uids),
                ctx,
            );
            match r {
                Err(e) if !e.is_not_found() => {
                    errs.push(format!("orphaning {} failed, {}", dep.identity, e));
                }
                _ => {}
            }
        }
        if errs.is_empty() {
            return Ok(());
        }
        // utilerrors.NewAggregate(...).Error()
        let agg = if errs.len() == 1 {
            errs.remove(0)
        } else {
            format!("[{}]", errs.join(", "))
        };
        Err(GcError::Other(format!(
            "failed to orphan dependents of owner {owner}, got errors: {agg}"
        )))
    }

    /// `attemptToOrphanWorker`: orphans the owner's dependents, then removes `orphan`.
    fn attempt_to_orphan_worker(&mut self, uid: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (owner, dependents) = match self.uid_to_node.get(uid) {
            Some(n) => (n.clone(), self.get_dependents(uid)),
            None => match self.orphan_snapshots.get(uid) {
                Some(snapshot) => (**snapshot).clone(),
                None => {
                    self.orphan_pending.remove(uid);
                    return Ok(());
                }
            },
        };
        let res = self
            .orphan_dependents(&owner.identity, &dependents, ctx)
            .map_err(|e| {
                GcError::Other(format!(
                    "orphanDependents for {} failed with {e}",
                    owner.identity
                ))
            })
            .and_then(|()| {
                self.remove_finalizer(&owner, FINALIZER_ORPHAN, ctx)
                    .map_err(|e| {
                        GcError::Other(format!(
                            "removeOrphanFinalizer for {} failed with {e}",
                            owner.identity
                        ))
                    })
            });
        match res {
            Ok(()) => {
                self.orphan_pending.remove(uid);
                self.orphan_snapshots.remove(uid);
                Ok(())
            }
            Err(e) => Err(e.into_api_error()),
        }
    }

    fn flush_events(&mut self, ctx: &mut Ctx) {
        let now = ctx.now();
        for mut e in self.pending_events.drain(..) {
            e.time = now;
            ctx.api.events.push(e);
        }
    }
}

impl Controller for GarbageCollector {
    fn name(&self) -> &'static str {
        NAME
    }

    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, now: Time) {
        // Virtual events queued before this informer event are processed first.
        self.process_pending_graph_changes(queue, now);
        if self.update_changes_nothing(change) {
            return;
        }
        self.process_graph_changes(GraphEvent::from_change(change), queue, now);
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        self.flush_events(ctx);
        let res = match parse_key(key) {
            Some(QueuedItem::GraphChanges) => {
                let now = ctx.now();
                self.process_pending_graph_changes(ctx.queue, now);
                Ok(())
            }
            Some(QueuedItem::AttemptToDelete {
                uid,
                virtual_identity,
            }) => self.attempt_to_delete_worker(&uid, virtual_identity, ctx),
            Some(QueuedItem::AttemptToOrphan { uid }) => self.attempt_to_orphan_worker(&uid, ctx),
            None => Ok(()),
        };
        self.flush_events(ctx);
        res
    }

    fn reset(&mut self) {
        *self = GarbageCollector {
            client_log: self.client_log.take(),
            ..Self::with_absent_owner_cache_size(self.absent_owner_cache_size)
        };
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        // The monitors' initial list: an add event per object.
        for o in store.all() {
            let change = Change::of(None, Some(o.clone()));
            self.process_graph_changes(GraphEvent::from_change(&change), queue, Time(0));
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oref(uid: &str) -> OwnerReference {
        OwnerReference {
            uid: uid.into(),
            ..Default::default()
        }
    }

    // Port of TestDeleteOwnerRefPatch (pkg/controller/garbagecollector/garbagecollector_test.go).
    #[test]
    fn test_delete_owner_ref_patch() {
        let mut refs = vec![oref("1"), oref("2"), oref("3")];
        delete_owner_refs(&mut refs, &["2".into(), "3".into()]);
        assert_eq!(refs, vec![oref("1")]);
    }

    // Port of TestUnblockOwnerReference (pkg/controller/garbagecollector/garbagecollector_test.go).
    #[test]
    fn test_unblock_owner_reference() {
        let mut original = vec![oref("1"), oref("2"), oref("3")];
        original[0].block_owner_deletion = Some(true);
        original[1].block_owner_deletion = Some(false);
        let node_owners = original.clone();
        let mut expected = original.clone();
        expected[0].block_owner_deletion = Some(false);
        unblock_owner_references(&mut original, &node_owners);
        assert_eq!(original, expected);
    }

    #[test]
    fn references_diffs_by_uid() {
        let mut changed_new = oref("2");
        changed_new.block_owner_deletion = Some(true);
        let (added, removed, changed) =
            references_diffs(&[oref("1"), oref("2")], &[changed_new.clone(), oref("3")]);
        assert_eq!(added, vec![oref("3")]);
        assert_eq!(removed, vec![oref("1")]);
        assert_eq!(changed, vec![(oref("2"), changed_new)]);
    }

    #[test]
    fn reference_cache_is_lru_and_has_promotes() {
        let r = |u: &str| ObjectReference::new("v1", "Pod", "ns", u, u);
        let mut c = ReferenceCache::new(2);
        c.add(r("a"));
        c.add(r("b"));
        assert!(c.has(&r("a"))); // promotes a
        c.add(r("c")); // evicts b
        assert!(c.has(&r("a")));
        assert!(!c.has(&r("b")));
        assert!(c.has(&r("c")));
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn api_resource_maps_served_kinds_only() {
        assert_eq!(api_resource("v1", "Pod").unwrap(), ("Pod", true));
        assert_eq!(api_resource("v1", "Node").unwrap(), ("Node", false));
        assert_eq!(
            api_resource("apps/v1", "ReplicaSet").unwrap(),
            ("ReplicaSet", true)
        );
        let e = api_resource("extensions/v1beta1", "ReplicaSet").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unable to get REST mapping for extensions/v1beta1/ReplicaSet."
        );
        assert_eq!(api_resource("batch/v1", "Job").unwrap(), ("Job", true));
        assert_eq!(
            api_resource("autoscaling/v2", "HorizontalPodAutoscaler").unwrap(),
            ("HorizontalPodAutoscaler", true)
        );
        assert_eq!(
            api_resource("policy/v1", "PodDisruptionBudget").unwrap(),
            ("PodDisruptionBudget", true)
        );
        assert!(api_resource("policy/v1beta1", "PodDisruptionBudget").is_err());
        assert!(api_resource("apps/v1beta2", "ReplicaSet").is_err());
        assert!(api_resource("v1", "ReplicaSet").is_err());
    }

    #[test]
    fn queue_keys_round_trip() {
        let mut n = Node::new(ObjectReference::new("v1", "Pod", "ns|1", "a\"b", "u/1"));
        assert_eq!(
            parse_key(&delete_key(&n)),
            Some(QueuedItem::AttemptToDelete {
                uid: "u/1".into(),
                virtual_identity: None
            })
        );
        n.is_virtual = true;
        assert_eq!(
            parse_key(&delete_key(&n)),
            Some(QueuedItem::AttemptToDelete {
                uid: "u/1".into(),
                virtual_identity: Some(n.identity.clone())
            })
        );
        assert_eq!(parse_key(GRAPH_CHANGES), Some(QueuedItem::GraphChanges));
        assert_eq!(parse_key("attemptToDelete/virtual/[1]"), None);
    }

    #[test]
    fn alternate_owner_identity_prefers_the_following_one() {
        let absent = ObjectReference::new("v1", "Pod", "ns1", "b", "u");
        let dep = |name: &str, owner_name: &str| {
            let mut d = Node::new(ObjectReference::new("v1", "Pod", "ns1", name, name));
            d.owners =
                vec![ObjectReference::new("v1", "Pod", "ns1", owner_name, "u").owner_reference()]
                    .into();
            d
        };
        let deps = [dep("d1", "a"), dep("d2", "c"), dep("d3", "b")];
        assert_eq!(
            get_alternate_owner_identity(&deps, &absent).map(|r| r.name),
            Some("c".to_string())
        );
        assert_eq!(
            get_alternate_owner_identity(&deps[..1], &absent).map(|r| r.name),
            Some("a".to_string())
        );
        assert_eq!(get_alternate_owner_identity(&deps[2..], &absent), None);
    }
    // Upstream: TestGetAlternateOwnerIdentity (pkg/controller/garbagecollector/graph_builder_test.go),
    // every row.
    #[test]
    fn test_get_alternate_owner_identity() {
        let id = ObjectReference::new;
        let ns1child1 = id("v1", "Child", "ns1", "child1", "childuid11");
        let ns1child2 = id("v1", "Child", "ns1", "child2", "childuid12");
        let ns2child1 = id("v1", "Child", "ns2", "child1", "childuid21");
        let clusterchild1 = id("v1", "Child", "", "child1", "childuidc1");

        let nsabsentparentns1 = id("v1", "NSParent", "ns1", "parentname", "parentuid");
        let nsabsentparentns2 = id("v1", "NSParent", "ns2", "parentname", "parentuid");
        let nsabsentparent_version = id("xx", "NSParent", "ns1", "parentname", "parentuid");
        let nsabsentparent_kind = id("v1", "xxxxxxxx", "ns1", "parentname", "parentuid");
        let nsabsentparent_name = id("v1", "NSParent", "ns1", "xxxxxxxxxx", "parentuid");

        let clusterabsentparent = id("v1", "ClusterParent", "", "parentname", "parentuid");
        let clusterabsentparent_version = id("xx", "ClusterParent", "", "parentname", "parentuid");
        let clusterabsentparent_kind = id("v1", "xxxxxxxxxxxxx", "", "parentname", "parentuid");
        let clusterabsentparent_name = id("v1", "ClusterParent", "", "xxxxxxxxxx", "parentuid");
        let clusterabsentparent_ns1_version =
            id("xx", "ClusterParent", "ns1", "parentname", "parentuid");
        let clusterabsentparent_ns1_kind =
            id("v1", "xxxxxxxxxxxxx", "ns1", "parentname", "parentuid");

        let ordered_ns: Vec<ObjectReference> = (1..=5)
            .map(|v| id(&format!("v{v}"), "kind", "ns1", "name", "uid"))
            .collect();
        let ordered_cluster: Vec<ObjectReference> = (1..=5)
            .map(|v| id(&format!("v{v}"), "kind", "", "name", "uid"))
            .collect();

        // makeNode(identity, withOwners(...))
        let node = |identity: &ObjectReference, owners: &[&ObjectReference]| {
            let mut n = Node::new(identity.clone());
            n.owners = owners.iter().map(|o| o.owner_reference()).collect();
            n
        };
        let ns_refs: Vec<&ObjectReference> = ordered_ns.iter().collect();
        let cluster_refs: Vec<&ObjectReference> = ordered_cluster.iter().collect();
        let unrelated = id("v1", "Parent", "ns1", "name", "anotheruid");

        let rows: Vec<(&str, Vec<Node>, &ObjectReference, Option<&ObjectReference>)> = vec![
            (
                "namespaced alternate version",
                vec![
                    node(&ns1child1, &[&nsabsentparentns1]),
                    node(&ns1child2, &[&nsabsentparent_version]),
                ],
                &nsabsentparentns1,
                Some(&nsabsentparent_version),
            ),
            (
                "namespaced alternate kind",
                vec![
                    node(&ns1child1, &[&nsabsentparentns1]),
                    node(&ns1child2, &[&nsabsentparent_kind]),
                ],
                &nsabsentparentns1,
                Some(&nsabsentparent_kind),
            ),
            (
                "namespaced alternate namespace",
                vec![
                    node(&ns1child1, &[&nsabsentparentns1]),
                    node(&ns2child1, &[&nsabsentparentns2]),
                ],
                &nsabsentparentns1,
                Some(&nsabsentparentns2),
            ),
            (
                "namespaced alternate name",
                vec![
                    node(&ns1child1, &[&nsabsentparentns1]),
                    node(&ns1child1, &[&nsabsentparent_name]),
                ],
                &nsabsentparentns1,
                Some(&nsabsentparent_name),
            ),
            (
                "cluster alternate version",
                vec![
                    node(&ns1child1, &[&clusterabsentparent]),
                    node(&ns1child2, &[&clusterabsentparent_version]),
                ],
                &clusterabsentparent,
                Some(&clusterabsentparent_ns1_version),
            ),
            (
                "cluster alternate kind",
                vec![
                    node(&ns1child1, &[&clusterabsentparent]),
                    node(&ns1child2, &[&clusterabsentparent_kind]),
                ],
                &clusterabsentparent,
                Some(&clusterabsentparent_ns1_kind),
            ),
            (
                "cluster alternate namespace",
                vec![
                    node(&ns1child1, &[&clusterabsentparent]),
                    node(&ns2child1, &[&clusterabsentparent]),
                ],
                &clusterabsentparent,
                None,
            ),
            (
                "cluster alternate name",
                vec![
                    node(&ns1child1, &[&clusterabsentparent]),
                    node(&ns1child1, &[&clusterabsentparent_name]),
                ],
                &clusterabsentparent,
                Some(&clusterabsentparent_name),
            ),
            (
                "namespaced ref from namespaced child returns first if absent is sorted last",
                vec![node(&ns1child1, &ns_refs)],
                &ordered_ns[4],
                Some(&ordered_ns[0]),
            ),
            (
                "namespaced ref from namespaced child returns next after absent",
                vec![node(&ns1child1, &ns_refs)],
                &ordered_ns[3],
                Some(&ordered_ns[4]),
            ),
            (
                "cluster ref from cluster child returns first if absent is sorted last",
                vec![node(&clusterchild1, &cluster_refs)],
                &ordered_cluster[4],
                Some(&ordered_cluster[0]),
            ),
            (
                "cluster ref from cluster child returns next after absent",
                vec![node(&clusterchild1, &cluster_refs)],
                &ordered_cluster[3],
                Some(&ordered_cluster[4]),
            ),
            (
                "ignore unrelated",
                vec![node(&ns1child1, &[&clusterabsentparent, &unrelated])],
                &clusterabsentparent,
                None,
            ),
            (
                "ignore matches",
                vec![node(
                    &ns1child1,
                    &[&clusterabsentparent, &clusterabsentparent],
                )],
                &clusterabsentparent,
                None,
            ),
            (
                "collapse duplicates",
                vec![node(
                    &clusterchild1,
                    &[
                        &clusterabsentparent,
                        &clusterabsentparent_kind,
                        &clusterabsentparent_kind,
                    ],
                )],
                &clusterabsentparent,
                Some(&clusterabsentparent_kind),
            ),
        ];
        for (name, deps, absent, expected) in rows {
            assert_eq!(
                get_alternate_owner_identity(&deps, absent).as_ref(),
                expected,
                "{name}"
            );
        }
    }
}
