//! The in-memory object store: objects by (kind, namespace, name), indexes and the watch stream.
//!
//! The store is deliberately dumb: it keeps objects, indexes and a change log. API semantics
//! (defaulting, validation, resourceVersion, graceful deletion) live in [`apiserver`].

pub mod apiserver;
pub mod eviction;

use crate::api::{Object, Resource};
use crate::sort::CollectBTreeMap as _;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Identifies one object: (kind, namespace, name). Cluster-scoped objects have an empty namespace.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectRef {
    pub kind: &'static str,
    pub namespace: String,
    pub name: String,
}

impl ObjectRef {
    pub fn new(kind: &'static str, namespace: &str, name: &str) -> Self {
        ObjectRef {
            kind,
            namespace: namespace.into(),
            name: name.into(),
        }
    }
    pub fn of(o: &Object) -> Self {
        ObjectRef::new(o.kind(), &o.meta().namespace, &o.meta().name)
    }
    /// `namespace/name` (the work-queue key).
    pub fn key(&self) -> String {
        if self.namespace.is_empty() {
            self.name.clone()
        } else {
            format!("{}/{}", self.namespace, self.name)
        }
    }
}

/// An [`ObjectRef`] seen as its three parts, so the object map can be searched with borrowed
/// strings (`Store::get` builds no key). Orders exactly as `ObjectRef`'s derived `Ord`.
trait RefParts {
    fn parts(&self) -> (&str, &str, &str);
}

impl RefParts for ObjectRef {
    fn parts(&self) -> (&str, &str, &str) {
        (self.kind, &self.namespace, &self.name)
    }
}

impl RefParts for (&str, &str, &str) {
    fn parts(&self) -> (&str, &str, &str) {
        *self
    }
}

impl<'a> std::borrow::Borrow<dyn RefParts + 'a> for ObjectRef {
    fn borrow(&self) -> &(dyn RefParts + 'a) {
        self
    }
}

impl PartialEq for dyn RefParts + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn RefParts + '_ {}

impl PartialOrd for dyn RefParts + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for dyn RefParts + '_ {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.parts().cmp(&other.parts())
    }
}

/// What a watch delivers: the object before and after (`None` for add/delete). The objects are
/// shared with the store (an informer's cache hands out the same pointers), never copied.
#[derive(Clone, Debug)]
pub struct Change {
    pub old: Option<Arc<Object>>,
    pub new: Option<Arc<Object>>,
}

impl Change {
    /// A change from owned objects (tests and synthetic events).
    pub fn of(old: Option<Object>, new: Option<Object>) -> Self {
        Change {
            old: old.map(Arc::new),
            new: new.map(Arc::new),
        }
    }
    /// The object before the change (`None` for an add).
    pub fn old_obj(&self) -> Option<&Object> {
        self.old.as_deref()
    }
    /// The object after the change (`None` for a delete).
    pub fn new_obj(&self) -> Option<&Object> {
        self.new.as_deref()
    }
    pub fn kind(&self) -> &'static str {
        self.new
            .as_deref()
            .or(self.old.as_deref())
            .map(Object::kind)
            .unwrap_or("")
    }
    /// The current object, or the last state of a deleted one.
    pub fn object(&self) -> &Object {
        self.new
            .as_deref()
            .or(self.old.as_deref())
            .expect("a change has an object")
    }
}

/// A pod shared with the store (an informer cache's pointer): derefs to the pod, clones cheaply.
#[derive(Clone, Debug)]
pub struct SharedPod(Arc<Object>);

impl SharedPod {
    /// `Some` when the object is a pod.
    pub fn new(o: Arc<Object>) -> Option<Self> {
        matches!(&*o, Object::Pod(_)).then_some(SharedPod(o))
    }
    /// A pod that is not in any store (tests).
    pub fn owned(p: crate::api::Pod) -> Self {
        SharedPod(Arc::new(Object::Pod(p)))
    }
    /// The shared object.
    pub fn object(&self) -> &Arc<Object> {
        &self.0
    }
}

impl std::ops::Deref for SharedPod {
    type Target = crate::api::Pod;
    fn deref(&self) -> &crate::api::Pod {
        match &*self.0 {
            Object::Pod(p) => p,
            _ => unreachable!("SharedPod holds a pod by construction"),
        }
    }
}

/// A typed object shared with the store: derefs to `T`, clones cheaply. Read through it; copy
/// (`(*shared).clone()`) only to write.
#[derive(Debug)]
pub struct Shared<T: Resource>(Arc<Object>, std::marker::PhantomData<fn() -> T>);

impl<T: Resource> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone(), std::marker::PhantomData)
    }
}

impl<T: Resource> Shared<T> {
    /// `Some` when the object is a `T`.
    pub fn new(o: Arc<Object>) -> Option<Self> {
        T::from_object(&o)
            .is_some()
            .then_some(Shared(o, std::marker::PhantomData))
    }
    /// The shared object.
    pub fn object(&self) -> &Arc<Object> {
        &self.0
    }
}

impl<T: Resource> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        T::from_object(&self.0).expect("Shared<T> holds a T by construction")
    }
}

/// Pods by name. Most label values are carried by one pod only (a Job's
/// `controller-uid`/`job-name` labels, a StatefulSet pod's name label): such a set holds the
/// pod itself (its name is read from the object), not a map with a copy of the name.
#[derive(Clone, Debug)]
enum PodSet {
    One(Arc<Object>),
    Many(BTreeMap<String, Arc<Object>>),
}

impl PodSet {
    fn len(&self) -> usize {
        match self {
            PodSet::One(_) => 1,
            PodSet::Many(m) => m.len(),
        }
    }

    /// (name, pod) in name order.
    fn iter(&self) -> impl Iterator<Item = (&str, &Arc<Object>)> {
        let (one, many) = match self {
            PodSet::One(o) => (Some((o.meta().name.as_str(), o)), None),
            PodSet::Many(m) => (None, Some(m.iter().map(|(k, v)| (k.as_str(), v)))),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }

    fn values(&self) -> impl Iterator<Item = &Arc<Object>> {
        self.iter().map(|(_, o)| o)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Arc<Object>> {
        match self {
            PodSet::One(o) => (o.meta().name == name).then_some(o),
            PodSet::Many(m) => m.get_mut(name),
        }
    }

    /// Adds or replaces the pod named `name` (`o`'s name).
    fn insert(&mut self, name: &str, o: Arc<Object>) {
        match self {
            PodSet::One(first) if first.meta().name == name => *first = o,
            PodSet::One(first) => {
                let mut m = BTreeMap::new();
                m.insert(first.meta().name.clone(), first.clone());
                m.insert(name.to_owned(), o);
                *self = PodSet::Many(m);
            }
            PodSet::Many(m) => match m.get_mut(name) {
                Some(slot) => *slot = o,
                None => {
                    m.insert(name.to_owned(), o);
                }
            },
        }
    }

    /// Removes the pod named `name`; whether the set is empty afterwards.
    fn remove(&mut self, name: &str) -> bool {
        match self {
            PodSet::One(o) => o.meta().name == name,
            PodSet::Many(m) => {
                m.remove(name);
                m.is_empty()
            }
        }
    }
}

/// `map.entry(key.to_owned()).or_default()` that copies the key only when it is new.
fn get_or_insert<'m, V: Default>(map: &'m mut BTreeMap<String, V>, key: &str) -> &'m mut V {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), V::default());
    }
    map.get_mut(key).expect("inserted above")
}
/// namespace → label key → label value → pods (nested so lookups by `&str` never allocate).
type LabelIndex = BTreeMap<String, BTreeMap<String, BTreeMap<String, PodSet>>>;

/// Objects, indexes and the pending watch events.
#[derive(Clone, Debug, Default)]
pub struct Store {
    objects: BTreeMap<ObjectRef, Arc<Object>>,
    by_uid: BTreeMap<String, ObjectRef>,
    /// owner uid → dependents.
    by_owner: BTreeMap<String, BTreeSet<ObjectRef>>,
    /// Objects without a controller reference (no ownerReference with `controller: true`).
    uncontrolled: BTreeSet<ObjectRef>,
    /// node name → pods bound to it ("" = unscheduled).
    pods_by_node: BTreeMap<String, BTreeSet<ObjectRef>>,
    /// namespace → label key → label value → pods carrying that label, by name.
    pods_by_label: LabelIndex,
    changes: Vec<Change>,
}

impl Store {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    pub fn get_ref(&self, r: &ObjectRef) -> Option<&Object> {
        self.objects.get(r).map(|o| &**o)
    }

    /// The stored object itself (shared, not copied).
    pub fn get_arc(&self, r: &ObjectRef) -> Option<Arc<Object>> {
        self.objects.get(r).cloned()
    }

    /// [`Store::get_arc`] by kind, namespace and name (no key built).
    pub fn get_arc_by_parts(&self, kind: &str, namespace: &str, name: &str) -> Option<Arc<Object>> {
        self.objects
            .get(&(kind, namespace, name) as &dyn RefParts)
            .cloned()
    }

    /// A typed object by namespace and name.
    pub fn get<T: Resource>(&self, namespace: &str, name: &str) -> Option<&T> {
        let ns = if T::NAMESPACED { namespace } else { "" };
        self.objects
            .get(&(T::KIND, ns, name) as &dyn RefParts)
            .and_then(|o| T::from_object(o))
    }

    /// A typed object by namespace and name, shared with the store (no copy).
    pub fn get_shared<T: Resource>(&self, namespace: &str, name: &str) -> Option<Shared<T>> {
        let ns = if T::NAMESPACED { namespace } else { "" };
        self.objects
            .get(&(T::KIND, ns, name) as &dyn RefParts)
            .and_then(|o| Shared::new(o.clone()))
    }

    pub fn get_by_uid(&self, uid: &str) -> Option<&Object> {
        self.by_uid.get(uid).and_then(|r| self.get_ref(r))
    }

    /// All objects of a kind in a namespace (all namespaces when `namespace` is `None`), in
    /// (namespace, name) order.
    pub fn list<'a, T: Resource>(
        &'a self,
        namespace: Option<&str>,
    ) -> impl Iterator<Item = &'a T> + 'a {
        self.list_kind(T::KIND, namespace)
            .filter_map(T::from_object)
    }

    /// Like [`Store::list`] for a kind given by name.
    pub fn list_kind<'a>(
        &'a self,
        kind: &'static str,
        namespace: Option<&str>,
    ) -> Box<dyn Iterator<Item = &'a Object> + 'a> {
        let mut it = self.range_from(kind, namespace.unwrap_or(""));
        match namespace {
            Some(ns) => {
                // The namespace as the map holds it (borrowed for as long as the iterator):
                // no owned copy of `ns` or of the lower bound.
                let Some(ns) = Self::first_namespace(&mut it, kind, ns) else {
                    return Box::new(std::iter::empty());
                };
                Box::new(
                    it.take_while(move |(r, _)| r.kind == kind && r.namespace == ns)
                        .map(|(_, o)| &**o),
                )
            }
            None => Box::new(
                it.take_while(move |(r, _)| r.kind == kind)
                    .map(|(_, o)| &**o),
            ),
        }
    }

    /// The objects from `(kind, namespace, "")` on, in key order (the bound is borrowed).
    fn range_from(
        &self,
        kind: &str,
        namespace: &str,
    ) -> std::iter::Peekable<std::collections::btree_map::Range<'_, ObjectRef, Arc<Object>>> {
        let lo = (kind, namespace, "");
        self.objects
            .range::<dyn RefParts, _>((
                std::ops::Bound::Included(&lo as &dyn RefParts),
                std::ops::Bound::Unbounded,
            ))
            .peekable()
    }

    /// The map's own copy of `ns` when the range starts with an object of `kind` in `ns`.
    fn first_namespace<'a>(
        it: &mut std::iter::Peekable<
            std::collections::btree_map::Range<'a, ObjectRef, Arc<Object>>,
        >,
        kind: &str,
        ns: &str,
    ) -> Option<&'a str> {
        it.peek()
            .map(|&(r, _)| r)
            .filter(|r| r.kind == kind && r.namespace == ns)
            .map(|r| r.namespace.as_str())
    }

    /// [`Store::list_kind`] handing out the stored objects themselves (shared, not copied), for
    /// callers that must keep them while they write through the API.
    pub fn list_kind_shared<'a>(
        &'a self,
        kind: &'static str,
        namespace: Option<&str>,
    ) -> impl Iterator<Item = Arc<Object>> + 'a {
        let mut it = self.range_from(kind, namespace.unwrap_or(""));
        // `(false, _)`: the namespace has no object of the kind, nothing is listed.
        let (any, ns): (bool, Option<&'a str>) = match namespace {
            Some(ns) => match Self::first_namespace(&mut it, kind, ns) {
                Some(ns) => (true, Some(ns)),
                None => (false, None),
            },
            None => (true, None),
        };
        it.take_while(move |(r, _)| any && r.kind == kind && ns.is_none_or(|ns| r.namespace == ns))
            .map(|(_, o)| o.clone())
    }

    /// Every object, in (kind, namespace, name) order.
    pub fn all(&self) -> impl Iterator<Item = &Object> {
        self.objects.values().map(|o| &**o)
    }

    /// Objects whose ownerReferences name `owner_uid`.
    pub fn dependents(&self, owner_uid: &str) -> impl Iterator<Item = &Object> {
        self.by_owner
            .get(owner_uid)
            .into_iter()
            .flatten()
            .filter_map(|r| self.get_ref(r))
    }

    /// The objects of `kind` in `namespace` that have no controller reference, in name order.
    pub fn uncontrolled<'a>(
        &'a self,
        kind: &'static str,
        namespace: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        let lo = (kind, namespace, "");
        self.uncontrolled
            .range::<dyn RefParts, _>((
                std::ops::Bound::Included(&lo as &dyn RefParts),
                std::ops::Bound::Unbounded,
            ))
            .take_while(move |r| r.kind == kind && r.namespace == namespace)
            .filter_map(|r| self.get_ref(r))
    }

    /// The objects of `kind` in `namespace` that are controlled by `owner_uid` or by no one, in
    /// name order: `list_kind(kind, namespace)` without the objects another owner controls,
    /// found through the owner index and [`Store::uncontrolled`] instead of a walk over the
    /// namespace.
    pub fn controlled_by_or_uncontrolled<'a>(
        &'a self,
        kind: &'static str,
        namespace: &'a str,
        owner_uid: &str,
    ) -> Vec<&'a Object> {
        let mut controlled = self
            .by_owner
            .get(owner_uid)
            .into_iter()
            .flatten()
            .filter(|r| r.kind == kind && r.namespace == namespace)
            .filter_map(|r| self.get_ref(r))
            .filter(|o| {
                o.meta()
                    .controller_ref()
                    .is_some_and(|c| c.uid == owner_uid)
            })
            .peekable();
        let mut orphans = self.uncontrolled(kind, namespace).peekable();
        // Both are in name order and disjoint (one has a controller, the other none): merge.
        let mut out = vec![];
        loop {
            let next = match (controlled.peek(), orphans.peek()) {
                (Some(a), Some(b)) => {
                    if a.meta().name < b.meta().name {
                        controlled.next()
                    } else {
                        orphans.next()
                    }
                }
                (Some(_), None) => controlled.next(),
                (None, Some(_)) => orphans.next(),
                (None, None) => break,
            };
            out.extend(next);
        }
        out
    }

    /// Pods bound to a node (`""` for unscheduled pods).
    pub fn pods_on_node(&self, node: &str) -> impl Iterator<Item = &crate::api::Pod> {
        self.pods_by_node
            .get(node)
            .into_iter()
            .flatten()
            .filter_map(|r| self.get_ref(r))
            .filter_map(crate::api::Pod::from_object)
    }

    /// Names of the pods in a namespace with `key=value`.
    pub fn pods_with_label(
        &self,
        namespace: &str,
        key: &str,
        value: &str,
    ) -> impl Iterator<Item = &crate::api::Pod> {
        self.label_set(namespace, key, value)
            .into_iter()
            .flat_map(|m| m.values())
            .filter_map(|o| crate::api::Pod::from_object(o))
    }

    /// Pods of `namespace` that `selector` may match, in name order, each once: a superset
    /// taken from the label index through the selector's most selective `In` requirement (all
    /// pods of the namespace when it has none; none for `Selector::Nothing`). Callers still
    /// test `selector.matches`.
    pub fn pods_selector_candidates<'a>(
        &'a self,
        namespace: &str,
        selector: &crate::api::Selector,
    ) -> Vec<&'a crate::api::Pod> {
        self.pods_selector_candidate_refs(namespace, selector)
            .into_iter()
            .filter_map(|o| crate::api::Pod::from_object(o))
            .collect()
    }

    fn pods_selector_candidate_refs<'a>(
        &'a self,
        namespace: &str,
        selector: &crate::api::Selector,
    ) -> Vec<&'a Arc<Object>> {
        use crate::api::{Requirement, Selector};
        let reqs = match selector {
            Selector::Nothing => return vec![],
            Selector::Requirements(r) => r,
        };
        // The `In` requirement with the fewest candidates.
        let mut best: Option<Vec<&PodSet>> = None;
        let mut best_len = usize::MAX;
        for r in reqs {
            if let Requirement::In(k, vs) = r {
                let sets: Vec<&PodSet> = vs
                    .iter()
                    .filter_map(|v| self.label_set(namespace, k, v))
                    .collect();
                let n = sets.iter().map(|s| s.len()).sum();
                if n < best_len {
                    best_len = n;
                    best = Some(sets);
                }
            }
        }
        let Some(sets) = best else {
            return self
                .range_from("Pod", namespace)
                .take_while(|(r, _)| r.kind == "Pod" && r.namespace == namespace)
                .map(|(_, o)| o)
                .collect();
        };
        if let [one] = sets.as_slice() {
            return one.values().collect();
        }
        let by_name: BTreeMap<&str, &Arc<Object>> =
            sets.into_iter().flat_map(|s| s.iter()).collect_btree_map();
        by_name.into_values().collect()
    }

    /// Pods of `namespace` that matter to an owner: those with an ownerReference to
    /// `owner_uid` plus [`Store::pods_selector_candidates`], in name order, each once. Every
    /// pod of the namespace left out is neither owned by the owner nor matched by `selector`.
    pub fn pods_for_owner<'a>(
        &'a self,
        namespace: &str,
        owner_uid: &str,
        selector: &crate::api::Selector,
    ) -> Vec<&'a crate::api::Pod> {
        self.pods_for_owner_refs(namespace, owner_uid, selector)
            .into_iter()
            .filter_map(|o| crate::api::Pod::from_object(o))
            .collect()
    }

    /// [`Store::pods_for_owner`], shared with the store instead of borrowed from it.
    pub fn pods_for_owner_shared(
        &self,
        namespace: &str,
        owner_uid: &str,
        selector: &crate::api::Selector,
    ) -> Vec<SharedPod> {
        self.pods_for_owner_refs(namespace, owner_uid, selector)
            .into_iter()
            .filter_map(|o| SharedPod::new(o.clone()))
            .collect()
    }

    /// [`Store::pods_for_owner`] as the stored objects (borrowed; every one is a pod).
    pub fn pods_for_owner_arcs<'a>(
        &'a self,
        namespace: &str,
        owner_uid: &str,
        selector: &crate::api::Selector,
    ) -> Vec<&'a Arc<Object>> {
        self.pods_for_owner_refs(namespace, owner_uid, selector)
    }

    fn pods_for_owner_refs<'a>(
        &'a self,
        namespace: &str,
        owner_uid: &str,
        selector: &crate::api::Selector,
    ) -> Vec<&'a Arc<Object>> {
        // The candidates come in name order, each once (see `pods_selector_candidate_refs`).
        let mut pods = self.pods_selector_candidate_refs(namespace, selector);
        if owner_uid.is_empty() {
            return pods;
        }
        let Some(owned) = self.by_owner.get(owner_uid) else {
            return pods;
        };
        // Owned pods are nearly always candidates too (the selector matches its own pods):
        // look one up in the store only when it is not among them. Both lists are in name
        // order (the owner index orders a namespace's pods by name): walk them in step.
        let mut extra: Vec<&Arc<Object>> = vec![];
        let mut i = 0;
        for r in owned
            .iter()
            .filter(|r| r.kind == "Pod" && r.namespace == namespace)
        {
            while pods
                .get(i)
                .is_some_and(|o| o.meta().name.as_str() < r.name.as_str())
            {
                i += 1;
            }
            if pods.get(i).is_some_and(|o| o.meta().name == r.name) {
                i += 1;
            } else if let Some(o) = self.objects.get(r) {
                extra.push(o);
            }
        }
        if !extra.is_empty() {
            pods.extend(extra);
            crate::sort::sort_by(&mut pods, |a, b| a.meta().name.cmp(&b.meta().name));
        }
        pods
    }

    fn label_set(&self, namespace: &str, key: &str, value: &str) -> Option<&PodSet> {
        self.pods_by_label.get(namespace)?.get(key)?.get(value)
    }

    /// Whether replacing `old` by `new` (same kind, namespace and name) leaves every index but
    /// the shared pointers unchanged: same uid, owners, node and labels.
    fn same_index_keys(old: &Object, new: &Object) -> bool {
        let (a, b) = (old.meta(), new.meta());
        a.uid == b.uid
            && a.labels == b.labels
            && a.owner_references.len() == b.owner_references.len()
            && a.owner_references
                .iter()
                .zip(&b.owner_references)
                .all(|(x, y)| x.uid == y.uid && x.controller == y.controller)
            && match (old, new) {
                (Object::Pod(p), Object::Pod(q)) => p.spec.node_name == q.spec.node_name,
                _ => true,
            }
    }

    /// Two versions of a pod that differ in their index keys only by `spec.nodeName`.
    fn same_index_keys_but_node(old: &Object, new: &Object) -> bool {
        let (Object::Pod(p), Object::Pod(q)) = (old, new) else {
            return false;
        };
        let (a, b) = (&p.metadata, &q.metadata);
        p.spec.node_name != q.spec.node_name
            && a.uid == b.uid
            && a.labels == b.labels
            && a.owner_references.len() == b.owner_references.len()
            && a.owner_references
                .iter()
                .zip(&b.owner_references)
                .all(|(x, y)| x.uid == y.uid && x.controller == y.controller)
    }

    /// Points the label index at the new version of a pod whose index keys did not change.
    fn reindex_pod_pointer(&mut self, shared: &Arc<Object>) {
        let m = shared.meta();
        let Some(by_key) = self.pods_by_label.get_mut(&m.namespace) else {
            return;
        };
        for (k, v) in &m.labels {
            if let Some(slot) = by_key
                .get_mut(k)
                .and_then(|by_value| by_value.get_mut(v))
                .and_then(|set| set.get_mut(&m.name))
            {
                *slot = shared.clone();
            }
        }
    }

    fn index(&mut self, r: &ObjectRef, shared: &Arc<Object>, add: bool) {
        let o: &Object = shared;
        let m = o.meta();
        if !m.uid.is_empty() {
            if add {
                self.by_uid.insert(m.uid.clone(), r.clone());
            } else {
                self.by_uid.remove(&m.uid);
            }
        }
        if m.controller_ref().is_none() {
            if add {
                self.uncontrolled.insert(r.clone());
            } else {
                self.uncontrolled.remove(r);
            }
        }
        for owner in &m.owner_references {
            if add {
                get_or_insert(&mut self.by_owner, &owner.uid).insert(r.clone());
            } else if let Some(set) = self.by_owner.get_mut(&owner.uid) {
                set.remove(r);
                if set.is_empty() {
                    self.by_owner.remove(&owner.uid);
                }
            }
        }
        if let Object::Pod(p) = o {
            if add {
                get_or_insert(&mut self.pods_by_node, &p.spec.node_name).insert(r.clone());
            } else if let Some(set) = self.pods_by_node.get_mut(&p.spec.node_name) {
                set.remove(r);
                if set.is_empty() {
                    self.pods_by_node.remove(&p.spec.node_name);
                }
            }
            for (k, v) in &m.labels {
                if add {
                    // Existing levels are found by `&str`: only new keys are copied.
                    let by_key = get_or_insert(&mut self.pods_by_label, &m.namespace);
                    let by_value = get_or_insert(by_key, k);
                    match by_value.get_mut(v.as_str()) {
                        Some(set) => set.insert(&m.name, shared.clone()),
                        None => {
                            by_value.insert(v.clone(), PodSet::One(shared.clone()));
                        }
                    }
                } else if let Some(by_key) = self.pods_by_label.get_mut(&m.namespace) {
                    if let Some(by_value) = by_key.get_mut(k) {
                        if by_value
                            .get_mut(v.as_str())
                            .is_some_and(|set| set.remove(&m.name))
                        {
                            by_value.remove(v.as_str());
                        }
                        if by_value.is_empty() {
                            by_key.remove(k);
                        }
                    }
                    if by_key.is_empty() {
                        self.pods_by_label.remove(&m.namespace);
                    }
                }
            }
        }
    }

    /// Inserts or replaces an object as given (no API semantics) and records the change.
    pub fn put(&mut self, o: Object) {
        self.put_arc(Arc::new(o));
    }

    /// [`Store::put`] of an object already shared; returns nothing, the caller keeps its `Arc`.
    pub fn put_arc(&mut self, o: Arc<Object>) {
        // The replaced version is found by borrowed parts: the owned key is built only for a
        // new object or an index change (not for the usual status write).
        let old = {
            let m = o.meta();
            let parts = (o.kind(), m.namespace.as_str(), m.name.as_str());
            match self.objects.get_mut(&parts as &dyn RefParts) {
                Some(slot) => Some(std::mem::replace(slot, o.clone())),
                None => None,
            }
        };
        match &old {
            Some(old) if Self::same_index_keys(old, &o) => {
                if matches!(&*o, Object::Pod(_)) {
                    self.reindex_pod_pointer(&o);
                }
            }
            // A binding: only the pod's node changed. Move it between the node sets and point
            // the label index at the new version instead of rebuilding every entry.
            Some(old) if Self::same_index_keys_but_node(old, &o) => {
                if let (Object::Pod(p), Object::Pod(q)) = (&**old, &*o) {
                    let r = ObjectRef::of(&o);
                    if let Some(set) = self.pods_by_node.get_mut(&p.spec.node_name) {
                        set.remove(&r);
                        if set.is_empty() {
                            self.pods_by_node.remove(&p.spec.node_name);
                        }
                    }
                    get_or_insert(&mut self.pods_by_node, &q.spec.node_name).insert(r);
                }
                self.reindex_pod_pointer(&o);
            }
            _ => {
                let r = ObjectRef::of(&o);
                if let Some(old) = &old {
                    self.index(&r, old, false);
                }
                self.index(&r, &o, true);
                if old.is_none() {
                    self.objects.insert(r, o.clone());
                }
            }
        }
        self.changes.push(Change { old, new: Some(o) });
    }

    /// Removes an object (no API semantics) and records the change.
    pub fn remove(&mut self, r: &ObjectRef) -> Option<Arc<Object>> {
        let old = self.objects.remove(r)?;
        self.index(r, &old, false);
        self.changes.push(Change {
            old: Some(old.clone()),
            new: None,
        });
        Some(old)
    }

    /// Takes the watch events recorded since the last call, in order.
    pub fn take_changes(&mut self) -> Vec<Change> {
        std::mem::take(&mut self.changes)
    }

    pub fn has_pending_changes(&self) -> bool {
        !self.changes.is_empty()
    }
}

#[cfg(test)]
impl Store {
    /// Recomputes the set of uncontrolled objects from the objects themselves and compares it
    /// with the incrementally kept one (tests of the owner index).
    pub(crate) fn check_uncontrolled_index(&self) -> Result<(), String> {
        let recomputed: BTreeSet<&ObjectRef> = self
            .objects
            .iter()
            .filter(|(_, o)| o.meta().controller_ref().is_none())
            .map(|(r, _)| r)
            .collect();
        let kept: BTreeSet<&ObjectRef> = self.uncontrolled.iter().collect();
        if recomputed == kept {
            Ok(())
        } else {
            Err(format!(
                "uncontrolled index: missing {:?}, extra {:?}",
                recomputed.difference(&kept).collect::<Vec<_>>(),
                kept.difference(&recomputed).collect::<Vec<_>>()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::meta::ObjectMeta;
    use crate::api::{OwnerReference, Pod, PodSpec};

    fn pod(node: &str, labels: &[(&str, &str)]) -> Pod {
        Pod {
            metadata: ObjectMeta {
                name: "p".into(),
                namespace: "default".into(),
                uid: "u-p".into(),
                labels: labels
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<BTreeMap<_, _>>()
                    .into(),
                owner_references: vec![OwnerReference {
                    uid: "u-rs".into(),
                    kind: "ReplicaSet".into(),
                    name: "rs".into(),
                    ..Default::default()
                }]
                .into(),
                ..Default::default()
            },
            spec: Arc::new(PodSpec {
                node_name: node.into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// Every index answers for the newest version after a binding (only `nodeName` changed),
    /// a relabel and a removal.
    #[test]
    fn indexes_follow_binding_relabel_and_removal() {
        let mut s = Store::new();
        s.put(Object::Pod(pod("", &[("app", "web")])));
        assert_eq!(s.pods_on_node("").count(), 1);

        // Binding.
        s.put(Object::Pod(pod("node-1", &[("app", "web")])));
        assert_eq!(s.pods_on_node("").count(), 0);
        let on_node: Vec<_> = s.pods_on_node("node-1").collect();
        assert_eq!(on_node.len(), 1);
        let by_label: Vec<_> = s.pods_with_label("default", "app", "web").collect();
        assert_eq!(by_label.len(), 1);
        assert_eq!(by_label[0].spec.node_name, "node-1");
        assert_eq!(s.dependents("u-rs").count(), 1);
        assert!(s.get_by_uid("u-p").is_some());

        // Relabel on the same node.
        s.put(Object::Pod(pod("node-1", &[("app", "api")])));
        assert_eq!(s.pods_with_label("default", "app", "web").count(), 0);
        assert_eq!(s.pods_with_label("default", "app", "api").count(), 1);
        assert_eq!(s.pods_on_node("node-1").count(), 1);

        // Moved again (as a rebinding in a test would) and removed.
        s.put(Object::Pod(pod("node-2", &[("app", "api")])));
        assert_eq!(s.pods_on_node("node-1").count(), 0);
        assert_eq!(s.pods_on_node("node-2").count(), 1);
        assert!(!s.pods_by_node.contains_key("node-1"));
        s.remove(&ObjectRef::new("Pod", "default", "p"));
        assert_eq!(s.pods_on_node("node-2").count(), 0);
        assert_eq!(s.pods_with_label("default", "app", "api").count(), 0);
        assert_eq!(s.dependents("u-rs").count(), 0);
        assert!(s.pods_by_node.is_empty() && s.pods_by_label.is_empty() && s.by_owner.is_empty());
    }

    fn named(name: &str, ns: &str, owner: Option<&str>, labels: &[(&str, &str)]) -> Object {
        let mut p = pod("", labels);
        p.metadata.name = name.into();
        p.metadata.namespace = ns.into();
        p.metadata.uid = format!("u-{ns}-{name}");
        if owner.is_none() {
            p.metadata.owner_references = vec![].into();
        }
        Object::Pod(p)
    }

    /// `pods_for_owner`: the selector's candidates plus the owner's pods that no longer match
    /// (a relabelled pod the controller must release), in name order, each once; pods of other
    /// namespaces and other owners' non-matching pods are left out.
    #[test]
    fn pods_for_owner_merges_owned_and_matching_pods_in_name_order() {
        let mut s = Store::new();
        s.put(named(
            "b-owned-match",
            "default",
            Some("u-rs"),
            &[("app", "web")],
        ));
        s.put(named(
            "d-owned-relabelled",
            "default",
            Some("u-rs"),
            &[("app", "x")],
        ));
        s.put(named("a-orphan-match", "default", None, &[("app", "web")]));
        s.put(named("c-orphan-other", "default", None, &[("app", "x")]));
        s.put(named(
            "a-owned-elsewhere",
            "other",
            Some("u-rs"),
            &[("app", "web")],
        ));
        let sel = crate::api::Selector::Requirements(vec![crate::api::Requirement::In(
            "app".into(),
            vec!["web".into()],
        )]);
        let names = |s: &Store, uid: &str| -> Vec<String> {
            s.pods_for_owner("default", uid, &sel)
                .iter()
                .map(|p| p.metadata.name.clone())
                .collect()
        };
        assert_eq!(
            names(&s, "u-rs"),
            ["a-orphan-match", "b-owned-match", "d-owned-relabelled"]
        );
        // No owner uid: the candidates alone.
        assert_eq!(names(&s, ""), ["a-orphan-match", "b-owned-match"]);
        // An owned pod sorting before every candidate.
        s.put(named("0-owned-relabelled", "default", Some("u-rs"), &[]));
        assert_eq!(
            names(&s, "u-rs"),
            [
                "0-owned-relabelled",
                "a-orphan-match",
                "b-owned-match",
                "d-owned-relabelled"
            ]
        );
        // Without an `In` requirement every pod of the namespace is a candidate.
        let exists =
            crate::api::Selector::Requirements(vec![crate::api::Requirement::Exists("app".into())]);
        let all: Vec<String> = s
            .pods_for_owner("default", "u-rs", &exists)
            .iter()
            .map(|p| p.metadata.name.clone())
            .collect();
        assert_eq!(
            all,
            [
                "0-owned-relabelled",
                "a-orphan-match",
                "b-owned-match",
                "c-orphan-other",
                "d-owned-relabelled"
            ]
        );
    }
}

#[cfg(test)]
mod pod_status_api_tests;

#[cfg(test)]
mod label_index_tests;
