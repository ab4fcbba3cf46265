//! `default-scheduler`: kube-scheduler's default profile (filter, score, bind, preempt) as a control loop.
//!
//! Filters, in upstream's plugin order (the first failing plugin decides a node's reasons):
//! NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector + required node affinity),
//! NodePorts (host ports of containers and sidecars; `0.0.0.0` conflicts with any IP),
//! NodeResourcesFit (`pods`, `cpu`, `memory`, `ephemeral-storage`, extended resources; requests
//! include `spec.overhead`), PodTopologySpread (DoNotSchedule constraints: skew against the
//! global minimum over the domains of the nodes that pass `nodeAffinityPolicy` /
//! `nodeTaintsPolicy`, `minDomains`; a node without the
//! topology label is unresolvable; `matchLabelKeys` ANDed into the selector) and
//! InterPodAffinity (existing pods' required anti-affinity, the pod's required affinity —
//! unresolvable — and anti-affinity; namespaces / namespaceSelector; `matchLabelKeys` /
//! `mismatchLabelKeys` merged into the selector when the pod is created).
//!
//! Scores, weighted as the default profile: TaintToleration ×3 (PreferNoSchedule), NodeAffinity
//! ×2 (preferred terms), NodeResourcesFit ×1 (LeastAllocated on cpu+memory with non-zero
//! defaults), PodTopologySpread ×2 (the pod's ScheduleAnyway constraints, with `matchLabelKeys`
//! and the node inclusion policies, or the system defaults: hostname maxSkew 3, zone maxSkew 5,
//! over the pods selected by the pod's Services and controller), InterPodAffinity ×2 (preferred
//! terms of the pod and of existing pods, existing pods' required affinity at
//! hardPodAffinityWeight 1, min–max normalised), NodeResourcesBalancedAllocation ×1 (skipped
//! for best-effort pods) and ImageLocality ×1 (`node.status.images`, see [`image_locality`]).
//!
//! Deviations, documented: upstream picks uniformly at random among the nodes with the highest
//! score (reservoir sampling in `selectHost`); kubeplay takes the first by node name so runs are
//! reproducible. Volume plugins are not modelled (they score 0 / never filter). kube-apiserver merges a spread constraint's `matchLabelKeys` into its stored
//! `labelSelector` at creation (`src/api/defaults.rs`); the scheduler merges them again, which
//! selects the same pods. Namespaces are
//! implicit: each carries only `kubernetes.io/metadata.name`. Terminal pods (Succeeded/Failed) do
//! not count against a node's resources.
//!
//! An unschedulable pod keeps `PodScheduled=False reason Unschedulable` and gets a
//! `Warning FailedScheduling` event with `FitError.Error()`'s message, including the
//! DynamicResources post-filter (`no new claims to deallocate`, DRA is GA and on in 1.34) and the
//! DefaultPreemption dry run. It is retried when a node is added or changes so that the pod now
//! passes the filters there, when an assigned pod is deleted, when an assigned pod changes so
//! that it helps the pod's topology spread or pod affinity (the plugins' queueing hints), and at
//! least every 5 minutes (`podMaxInUnschedulablePodsDuration`), honouring the per-pod back-off
//! (1 s doubling to 10 s).

use crate::api::{
    ApiError, Duration, LabelSelector, Labels, Node, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, Object, Pod, PodDisruptionBudget, Resource, Selector, Taint, Time,
    Toleration,
};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::sort::CollectBTreeMap as _;
use crate::store::apiserver::DeleteOptions;
use crate::store::{Change, Store};
use pod_topology_spread::{NodeInclusionPolicy, PreFilterState};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

pub mod image_locality;
pub mod interpod_affinity;
pub mod node_ports;
pub mod pod_topology_spread;

pub const SCHEDULER_NAME: &str = "default-scheduler";
/// `framework.MaxNodeScore`.
pub const MAX_NODE_SCORE: i64 = 100;
/// `schedutil.DefaultMilliCPURequest` (0.1 core) used for scoring pods without a cpu request.
pub const DEFAULT_MILLI_CPU_REQUEST: i128 = 100;
/// `schedutil.DefaultMemoryRequest` (200 MiB) used for scoring pods without a memory request.
pub const DEFAULT_MEMORY_REQUEST: i128 = 200 * 1024 * 1024;
/// `podInitialBackoffDuration`.
pub const POD_INITIAL_BACKOFF: Duration = Duration::from_secs(1);
/// `podMaxBackoffDuration`.
pub const POD_MAX_BACKOFF: Duration = Duration::from_secs(10);
/// `podMaxInUnschedulablePodsDuration`.
pub const POD_MAX_IN_UNSCHEDULABLE: Duration = Duration::from_mins(5);

pub const TAINT_NODE_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
pub const LABEL_ZONE: &str = "topology.kubernetes.io/zone";

pub const ERR_REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// Since 1.34.2 (kubernetes#134740, cherry-picked as #135023) the taint key and value are no
/// longer printed; 1.34.0–1.34.1 said `node(s) had untolerated taint {key: value}`.
pub const ERR_REASON_UNTOLERATED_TAINT: &str = "node(s) had untolerated taint(s)";
pub const ERR_REASON_NODE_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";
/// NodeAffinity's `errReasonConflict`: every required term names a disjoint set of nodes.
pub const ERR_REASON_NODE_AFFINITY_CONFLICT: &str = "pod affinity terms conflict";
pub const PREEMPTION_NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
pub const NO_PREEMPTION_VICTIMS: &str = "No preemption victims found for incoming pod";
/// The DynamicResources plugin's PostFilter answer for a pod without resource claims.
pub const DRA_NO_CLAIMS: &str = "no new claims to deallocate";

// ---------------------------------------------------------------------------------------------
// Taints and tolerations (k8s.io/component-helpers/scheduling/corev1, pkg/apis/core/v1/helper)
// ---------------------------------------------------------------------------------------------

/// `TolerationsTolerateTaint`: some toleration tolerates the taint.
pub fn tolerations_tolerate_taint(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| t.tolerates(taint))
}

/// `FindMatchingUntoleratedTaint`: the first taint passing `filter` that no toleration tolerates.
pub fn find_matching_untolerated_taint<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    filter: impl Fn(&Taint) -> bool,
) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| filter(t))
        .find(|t| !tolerations_tolerate_taint(tolerations, t))
}

/// `GetMatchingTolerations`: whether every taint is tolerated, and for each taint the first
/// toleration that tolerates it.
pub fn get_matching_tolerations(
    taints: &[Taint],
    tolerations: &[Toleration],
) -> (bool, Vec<Toleration>) {
    if taints.is_empty() {
        return (true, vec![]);
    }
    let mut used = vec![];
    for taint in taints {
        match tolerations.iter().find(|t| t.tolerates(taint)) {
            Some(t) => used.push(t.clone()),
            None => return (false, vec![]),
        }
    }
    (true, used)
}

/// `helper.DoNotScheduleTaintsFilterFunc`: NoSchedule and NoExecute taints.
pub fn do_not_schedule_taint(t: &Taint) -> bool {
    t.effect == "NoSchedule" || t.effect == "NoExecute"
}

// ---------------------------------------------------------------------------------------------
// Node affinity (k8s.io/component-helpers/scheduling/corev1/nodeaffinity)
// ---------------------------------------------------------------------------------------------

/// One `NodeSelectorRequirement` against a node's labels: In, NotIn, Exists, DoesNotExist, Gt,
/// Lt. A malformed requirement matches nothing, as upstream's parse error
/// (`labels.NewRequirement`) does: a key that is not a qualified name, a value that is not a
/// valid label value, In/NotIn without values, Gt/Lt without exactly one integer, values for
/// Exists/DoesNotExist.
pub fn node_selector_requirement_matches(r: &NodeSelectorRequirement, labels: &Labels) -> bool {
    if !crate::api::validation::names::is_qualified_name(&r.key).is_empty() {
        return false;
    }
    let v = labels.get(&r.key);
    let valid = || r.values.iter().all(|x| is_valid_label_value(x));
    match r.operator.as_str() {
        "In" => !r.values.is_empty() && valid() && v.is_some_and(|v| r.values.contains(v)),
        "NotIn" => !r.values.is_empty() && valid() && v.is_none_or(|v| !r.values.contains(v)),
        "Exists" => r.values.is_empty() && v.is_some(),
        "DoesNotExist" => r.values.is_empty() && v.is_none(),
        "Gt" | "Lt" => {
            if r.values.len() != 1 || !valid() {
                return false;
            }
            let Ok(want) = r.values[0].parse::<i64>() else {
                return false;
            };
            let Some(Ok(have)) = v.map(|v| v.parse::<i64>()) else {
                return false;
            };
            if r.operator == "Gt" {
                have > want
            } else {
                have < want
            }
        }
        _ => false,
    }
}

/// `validation.IsValidLabelValue`: at most 63 characters, alphanumerics with `-`, `_`, `.` inside.
pub fn is_valid_label_value(v: &str) -> bool {
    if v.is_empty() {
        return true;
    }
    let b = v.as_bytes();
    v.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `matchFields`: In/NotIn against the node's fields, which are only `metadata.name`
/// (`extractNodeFields`; a missing field reads as empty, as `fields.Set.Get` does).
/// `nodeSelectorRequirementsAsFieldSelector` takes exactly one value for In and NotIn (a
/// one-term field selector); any other count or operator is a parse error and the term matches
/// nothing. (API validation admits only the `metadata.name` key.)
fn field_requirement_matches(r: &NodeSelectorRequirement, node: &Node) -> bool {
    let [value] = r.values.as_slice() else {
        return false;
    };
    let field = if r.key == "metadata.name" {
        node.metadata.name.as_str()
    } else {
        ""
    };
    match r.operator.as_str() {
        "In" => field == value,
        "NotIn" => field != value,
        _ => false,
    }
}

/// A term: all expressions and fields ANDed. An empty term matches nothing.
pub fn node_selector_term_matches(term: &NodeSelectorTerm, node: &Node) -> bool {
    if term.match_expressions.is_empty() && term.match_fields.is_empty() {
        return false;
    }
    term.match_expressions
        .iter()
        .all(|r| node_selector_requirement_matches(r, &node.metadata.labels))
        && term
            .match_fields
            .iter()
            .all(|r| field_requirement_matches(r, node))
}

/// A `NodeSelector`: terms ORed.
pub fn node_selector_matches(sel: &NodeSelector, node: &Node) -> bool {
    sel.node_selector_terms
        .iter()
        .any(|t| node_selector_term_matches(t, node))
}

/// `GetRequiredNodeAffinity(pod).Match(node)`: `spec.nodeSelector` and the required node
/// affinity both match.
pub fn pod_matches_node_affinity(pod: &Pod, node: &Node) -> bool {
    if !Selector::from_map(&pod.spec.node_selector).matches(&node.metadata.labels) {
        return false;
    }
    match pod.spec.required_node_affinity() {
        Some(sel) => node_selector_matches(sel, node),
        None => true,
    }
}

/// `v1.PreferredSchedulingTerm` (read from the pod's node affinity).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreferredSchedulingTerm {
    #[serde(default)]
    pub weight: i64,
    #[serde(default)]
    pub preference: NodeSelectorTerm,
}

fn preferred_terms(pod: &Pod) -> Vec<PreferredSchedulingTerm> {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| {
            na.extra
                .get("preferredDuringSchedulingIgnoredDuringExecution")
                .cloned()
        })
        .and_then(|v| crate::api::value_de::from_value(v).ok())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Resources (pkg/api/v1/resource PodRequests, framework.NodeInfo)
// ---------------------------------------------------------------------------------------------

/// A pod's or node's cpu (millicores), memory and ephemeral-storage (bytes) and other
/// resources (their `Value()`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    pub milli_cpu: i128,
    pub memory: i128,
    pub ephemeral_storage: i128,
    pub scalar: BTreeMap<String, i128>,
}

thread_local! {
    /// Parsed quantities by their string (parsing is pure, so the cache is exact).
    static QUANTITY_CACHE: std::cell::RefCell<std::collections::HashMap<String, Option<i128>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// `q.milli_value().ok()`, memoised per quantity string.
fn milli_of(q: &crate::api::Quantity) -> Option<i128> {
    QUANTITY_CACHE.with(|c| {
        if let Some(v) = c.borrow().get(q.0.as_str()) {
            return *v;
        }
        let v = q.milli_value().ok();
        let mut c = c.borrow_mut();
        if c.len() > 100_000 {
            c.clear();
        }
        c.insert(q.0.clone(), v);
        v
    })
}

fn value_of(milli: i128) -> i128 {
    // Quantity.Value() rounds up.
    (milli + 999).div_euclid(1000)
}

/// `schedutil.IsScalarResourceName`: what `framework.Resource.Add` keeps besides cpu, memory,
/// pods and ephemeral-storage — extended resources (a `/` in the name, not
/// `kubernetes.io/`-prefixed, not `requests.`-prefixed, `requests.<name>` a qualified name),
/// hugepages, `kubernetes.io/`-prefixed native resources and attachable volumes. Other names
/// (such as a bare `foo`, or `pods` in a request) are ignored.
pub fn is_scalar_resource_name(k: &str) -> bool {
    if k.starts_with("hugepages-") || k.starts_with("attachable-volumes-") {
        return true;
    }
    if k.contains("kubernetes.io/") {
        return true; // IsPrefixedNativeResource
    }
    // IsExtendedResourceName: not native (native: no '/', or kubernetes.io-prefixed).
    k.contains('/')
        && !k.starts_with("requests.")
        && crate::api::validation::names::is_qualified_name(&format!("requests.{k}")).is_empty()
}

/// `IsSupportedPodLevelResource`: cpu, memory and hugepages.
fn is_supported_pod_level_resource(k: &str) -> bool {
    k == "cpu" || k == "memory" || k.starts_with("hugepages-")
}

/// `spec.overhead` (set by RuntimeClass admission), which `PodRequests` adds to the requests.
fn pod_overhead(pod: &Pod) -> Option<&serde_json::Map<String, serde_json::Value>> {
    pod.spec.extra.get("overhead").and_then(|v| v.as_object())
}

/// `resource.PodRequests`: regular containers summed, sidecars added, init containers as a
/// maximum, then pod-level requests (`spec.resources`) over that aggregate, then
/// `spec.overhead` added. With `non_missing`, a container without a cpu/memory request counts
/// as 100m / 200Mi (`NonMissingContainerRequests`, as the resource-allocation scorers'
/// `calculatePodResourceRequest` computes the incoming pod's request).
pub fn pod_requests(pod: &Pod, non_missing: bool) -> Resources {
    pod_requests_with(pod, non_missing, false)
}

/// The non-zero requests a pod adds to its node's `NonZeroRequested` (`calculateResource` in
/// pkg/scheduler/framework/types.go): `NonMissingContainerRequests` as
/// `getNonMissingContainerRequests` builds it. Without pod-level requests, as
/// [`pod_requests`] with `non_missing`; with them, only a resource that no container, the pod
/// level nor the overhead requests is defaulted.
pub fn node_info_non_zero_requests(pod: &Pod) -> Resources {
    pod_requests_with(pod, true, true)
}

fn pod_requests_with(pod: &Pod, non_missing: bool, node_info: bool) -> Resources {
    // IsPodLevelRequestsSet: some supported resource requested at the pod level.
    let pod_level_set = pod.spec.resources.as_ref().is_some_and(|r| {
        r.requests
            .keys()
            .any(|k| is_supported_pod_level_resource(k))
    });
    let (default_cpu, default_memory) = if !non_missing {
        (false, false)
    } else if !pod_level_set || !node_info {
        (true, true)
    } else {
        let requested = |key: &str| {
            let in_container = |c: &crate::api::Container| {
                c.resources
                    .as_ref()
                    .is_some_and(|r| r.requests.contains_key(key))
            };
            pod.spec.containers.iter().any(in_container)
                || pod.spec.init_containers.iter().any(in_container)
                || pod
                    .spec
                    .resources
                    .as_ref()
                    .is_some_and(|r| r.requests.contains_key(key))
                || pod_overhead(pod).is_some_and(|o| o.contains_key(key))
        };
        (!requested("cpu"), !requested("memory"))
    };
    let container = |c: &crate::api::Container| -> BTreeMap<String, i128> {
        let mut m = BTreeMap::new();
        // Requests only, as upstream: API defaulting (`SetDefaults_Pod`) has already copied
        // limits to missing requests of a stored pod.
        if let Some(r) = &c.resources {
            for (k, q) in &r.requests {
                if let Some(v) = milli_of(q) {
                    m.insert(k.clone(), v);
                }
            }
        }
        if default_cpu {
            m.entry("cpu".into()).or_insert(DEFAULT_MILLI_CPU_REQUEST);
        }
        if default_memory {
            m.entry("memory".into())
                .or_insert(DEFAULT_MEMORY_REQUEST * 1000);
        }
        m
    };
    let add = |a: &mut BTreeMap<String, i128>, b: &BTreeMap<String, i128>| {
        for (k, v) in b {
            *a.entry(k.clone()).or_insert(0) += v;
        }
    };
    let mut sum = BTreeMap::new();
    for c in &pod.spec.containers {
        add(&mut sum, &container(c));
    }
    let mut sidecars = BTreeMap::new();
    let mut init_max: BTreeMap<String, i128> = BTreeMap::new();
    for c in &pod.spec.init_containers {
        let req = container(c);
        if c.restart_policy.as_deref() == Some("Always") {
            add(&mut sidecars, &req);
            add(&mut sum, &req);
        } else {
            let mut with_sidecars = sidecars.clone();
            add(&mut with_sidecars, &req);
            for (k, v) in with_sidecars {
                let e = init_max.entry(k).or_insert(0);
                *e = (*e).max(v);
            }
        }
    }
    for (k, v) in init_max {
        let e = sum.entry(k).or_insert(0);
        *e = (*e).max(v);
    }
    // PodLevelResources: pod-level requests of the supported resources (cpu, memory,
    // hugepages-*) replace the containers' aggregate. The API server drops `spec.resources`
    // when the gate is off, so a stored pod carries it only with the gate on.
    if let Some(r) = pod.spec.resources.as_ref().filter(|_| pod_level_set) {
        for (k, q) in &r.requests {
            if is_supported_pod_level_resource(k) {
                if let Some(v) = milli_of(q) {
                    sum.insert(k.clone(), v);
                }
            }
        }
    }
    // Overhead is added on top (PodResourcesOptions.ExcludeOverhead is false).
    if let Some(o) = pod_overhead(pod) {
        for (k, v) in o {
            if let Some(v) = v
                .as_str()
                .and_then(|q| milli_of(&crate::api::Quantity(q.to_string())))
            {
                *sum.entry(k.clone()).or_insert(0) += v;
            }
        }
    }
    let mut r = Resources::default();
    for (k, v) in sum {
        match k.as_str() {
            "cpu" => r.milli_cpu = v,
            "memory" => r.memory = value_of(v),
            "ephemeral-storage" => r.ephemeral_storage = value_of(v),
            _ if is_scalar_resource_name(&k) => {
                r.scalar.insert(k, value_of(v));
            }
            _ => {}
        }
    }
    r
}

/// What the scheduler cache knows of a node: allocatable, the pods on it and their requests.
#[derive(Clone, Debug, Default)]
pub struct NodeInfo<'a> {
    pub name: String,
    pub allocatable: Resources,
    pub allowed_pods: i128,
    pub requested: Resources,
    pub non_zero_requested: Resources,
    /// The pods counted on the node (borrowed from the store: building a NodeInfo clones none).
    /// Empty in the scheduler's cached aggregates, which keep only [`NodeInfo::num_pods`].
    pub pods: Vec<&'a Pod>,
    /// How many pods are counted on the node.
    pub num_pods: usize,
    /// `UsedPorts`: the host ports of the pods counted on the node (kept in the cached
    /// aggregates too).
    pub used_ports: node_ports::HostPortInfo,
}

impl<'a> NodeInfo<'a> {
    pub fn new(node: &Node) -> Self {
        let mut alloc = Resources::default();
        let mut allowed = 0;
        // `SetNode`: `NewResource(node.Status.Allocatable)`. The API server defaults an empty
        // allocatable to the capacity (SetDefaults_NodeStatus); a node built without it is
        // read the same way here.
        let all = if node.status.allocatable.is_empty() {
            &node.status.capacity
        } else {
            &node.status.allocatable
        };
        for (k, q) in all {
            let Some(m) = milli_of(q) else { continue };
            match k.as_str() {
                "cpu" => alloc.milli_cpu = m,
                "memory" => alloc.memory = value_of(m),
                "pods" => allowed = value_of(m),
                "ephemeral-storage" => alloc.ephemeral_storage = value_of(m),
                _ if is_scalar_resource_name(k) => {
                    alloc.scalar.insert(k.clone(), value_of(m));
                }
                _ => {}
            }
        }
        NodeInfo {
            name: node.metadata.name.clone(),
            allocatable: alloc,
            allowed_pods: allowed,
            ..Default::default()
        }
    }

    pub fn add_pod(&mut self, p: &'a Pod) {
        self.add_requests(p);
        self.pods.push(p);
    }

    /// Adds a pod's requests and count without keeping the pod.
    fn add_requests(&mut self, p: &Pod) {
        let r = pod_requests(p, false);
        let nz = node_info_non_zero_requests(p);
        self.num_pods += 1;
        self.requested.milli_cpu += r.milli_cpu;
        self.requested.memory += r.memory;
        self.requested.ephemeral_storage += r.ephemeral_storage;
        for (k, v) in &r.scalar {
            *self.requested.scalar.entry(k.clone()).or_insert(0) += v;
        }
        self.non_zero_requested.milli_cpu += nz.milli_cpu;
        self.non_zero_requested.memory += nz.memory;
        self.used_ports.add_pod(p);
    }

    /// Takes back what [`NodeInfo::add_requests`] added for `p` (`NodeInfo.RemovePod`'s
    /// accounting), when that is exact: a pod with scalar requests or host ports (whose entries
    /// a rebuild would drop, not keep at zero) is not taken back and false is returned, for the
    /// caller to rebuild the aggregates instead.
    fn remove_requests(&mut self, p: &Pod) -> bool {
        if node_ports::has_host_ports(p) {
            return false;
        }
        let r = pod_requests(p, false);
        if !r.scalar.is_empty() {
            return false;
        }
        let nz = node_info_non_zero_requests(p);
        self.num_pods -= 1;
        self.requested.milli_cpu -= r.milli_cpu;
        self.requested.memory -= r.memory;
        self.requested.ephemeral_storage -= r.ephemeral_storage;
        self.non_zero_requested.milli_cpu -= nz.milli_cpu;
        self.non_zero_requested.memory -= nz.memory;
        true
    }

    /// [`NodeInfo::from_store`] without the pods: the aggregates the scheduler caches per node.
    fn aggregates_from_store(node: &Node, store: &Store) -> NodeInfo<'static> {
        let mut ni = NodeInfo::new(node);
        for p in store.pods_on_node(&node.metadata.name) {
            if counts_on_node(p) {
                ni.add_requests(p);
            }
        }
        ni
    }

    /// The node with its assigned, non-terminal pods from the store.
    pub fn from_store(node: &Node, store: &'a Store) -> Self {
        let mut ni = NodeInfo::new(node);
        for p in store.pods_on_node(&node.metadata.name) {
            if counts_on_node(p) {
                ni.add_pod(p);
            }
        }
        ni
    }
}

/// Whether an assigned pod occupies its node in the scheduler's view (not Succeeded/Failed).
fn counts_on_node(p: &Pod) -> bool {
    p.status.phase != "Succeeded" && p.status.phase != "Failed"
}

/// `corev1helpers.PodPriority`.
pub fn pod_priority(p: &Pod) -> i32 {
    p.spec.priority.unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------

/// `fwk.Code` of a rejecting filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Unschedulable,
    UnschedulableAndUnresolvable,
}

/// A filter plugin's rejection of one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: Code,
    pub reasons: Vec<String>,
    pub plugin: &'static str,
}

impl Status {
    fn new(code: Code, plugin: &'static str, reasons: Vec<String>) -> Self {
        Status {
            code,
            reasons,
            plugin,
        }
    }
}

/// NodeUnschedulable Filter: a cordoned node rejects pods that do not tolerate
/// `node.kubernetes.io/unschedulable:NoSchedule`.
pub fn filter_node_unschedulable(pod: &Pod, node: &Node) -> Option<Status> {
    if !node.spec.unschedulable {
        return None;
    }
    let taint = Taint {
        key: TAINT_NODE_UNSCHEDULABLE.into(),
        value: String::new(),
        effect: "NoSchedule".into(),
        time_added: None,
    };
    if tolerations_tolerate_taint(&pod.spec.tolerations, &taint) {
        return None;
    }
    Some(Status::new(
        Code::UnschedulableAndUnresolvable,
        "NodeUnschedulable",
        vec![ERR_REASON_UNSCHEDULABLE.into()],
    ))
}

/// TaintToleration Filter: NoSchedule/NoExecute taints must be tolerated.
pub fn filter_taint_toleration(pod: &Pod, node: &Node) -> Option<Status> {
    find_matching_untolerated_taint(
        &node.spec.taints,
        &pod.spec.tolerations,
        do_not_schedule_taint,
    )
    .map(|_| {
        Status::new(
            Code::UnschedulableAndUnresolvable,
            "TaintToleration",
            vec![ERR_REASON_UNTOLERATED_TAINT.into()],
        )
    })
}

/// NodeAffinity Filter: nodeSelector and required node affinity.
pub fn filter_node_affinity(pod: &Pod, node: &Node) -> Option<Status> {
    if pod_matches_node_affinity(pod, node) {
        None
    } else {
        Some(Status::new(
            Code::UnschedulableAndUnresolvable,
            "NodeAffinity",
            vec![ERR_REASON_NODE_AFFINITY.into()],
        ))
    }
}

/// NodeAffinity PreFilter (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go): the
/// `PreFilterResult` node names of required terms that all carry `metadata.name In`
/// matchFields (intersected within a term, united across terms); `None` when every node is
/// eligible; the UnschedulableAndUnresolvable `errReasonConflict` status when the union is empty.
pub fn node_affinity_pre_filter(pod: &Pod) -> Result<Option<BTreeSet<String>>, Status> {
    let Some(terms) = pod.spec.required_node_affinity() else {
        return Ok(None);
    };
    let mut names: Option<BTreeSet<String>> = None;
    for t in &terms.node_selector_terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for r in &t.match_fields {
            if r.key == "metadata.name" && r.operator == "In" {
                let s: BTreeSet<String> = r.values.iter().cloned().collect();
                term_names = Some(match term_names {
                    None => s,
                    Some(prev) => prev.intersection(&s).cloned().collect(),
                });
            }
        }
        // A term without node-name affinity makes every node eligible (terms are ORed).
        let Some(tn) = term_names else {
            return Ok(None);
        };
        names.get_or_insert_with(BTreeSet::new).extend(tn);
    }
    match names {
        Some(n) if n.is_empty() => Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            "NodeAffinity",
            vec![ERR_REASON_NODE_AFFINITY_CONFLICT.into()],
        )),
        n => Ok(n),
    }
}

/// NodeResourcesFit Filter (`fitsRequest`): "Too many pods", then cpu, memory, ephemeral-storage and extended
/// resources, all reasons kept. A request larger than the node's whole allocatable is
/// UnschedulableAndUnresolvable (preemption cannot help).
pub fn filter_node_resources_fit(pod: &Pod, ni: &NodeInfo) -> Option<Status> {
    filter_node_resources_fit_req(&pod_requests(pod, false), ni)
}

/// A pod's requests, computed once per scheduling attempt (`PreFilter` / `PreScore` state).
struct PodReqs {
    req: Resources,
    non_zero: Resources,
}

impl PodReqs {
    fn of(pod: &Pod) -> Self {
        PodReqs {
            req: pod_requests(pod, false),
            non_zero: pod_requests(pod, true),
        }
    }
}

fn filter_node_resources_fit_req(req: &Resources, ni: &NodeInfo) -> Option<Status> {
    let mut reasons = vec![];
    let mut unresolvable = false;
    if ni.num_pods as i128 + 1 > ni.allowed_pods {
        reasons.push("Too many pods".to_string());
    }
    if req.milli_cpu > 0 && req.milli_cpu > ni.allocatable.milli_cpu - ni.requested.milli_cpu {
        reasons.push("Insufficient cpu".into());
        unresolvable |= req.milli_cpu > ni.allocatable.milli_cpu;
    }
    if req.memory > 0 && req.memory > ni.allocatable.memory - ni.requested.memory {
        reasons.push("Insufficient memory".into());
        unresolvable |= req.memory > ni.allocatable.memory;
    }
    if req.ephemeral_storage > 0
        && req.ephemeral_storage > ni.allocatable.ephemeral_storage - ni.requested.ephemeral_storage
    {
        reasons.push("Insufficient ephemeral-storage".into());
        unresolvable |= req.ephemeral_storage > ni.allocatable.ephemeral_storage;
    }
    for (k, v) in &req.scalar {
        if *v == 0 {
            continue;
        }
        let alloc = ni.allocatable.scalar.get(k).copied().unwrap_or(0);
        let used = ni.requested.scalar.get(k).copied().unwrap_or(0);
        if *v > alloc - used {
            reasons.push(format!("Insufficient {k}"));
            unresolvable |= *v > alloc;
        }
    }
    if reasons.is_empty() {
        return None;
    }
    let code = if unresolvable {
        Code::UnschedulableAndUnresolvable
    } else {
        Code::Unschedulable
    };
    Some(Status::new(code, "NodeResourcesFit", reasons))
}

/// `RunFilterPlugins`: the first rejecting plugin, in the default profile's order, for a pod
/// without DoNotSchedule topology spread constraints (PodTopologySpread needs the cluster: see
/// [`run_filters_in`]).
pub fn run_filters(pod: &Pod, node: &Node, ni: &NodeInfo) -> Option<Status> {
    run_filters_req(
        pod,
        &pod_requests(pod, false),
        &CycleState::of(pod),
        node,
        ni,
    )
}

/// [`run_filters`] with PodTopologySpread's PreFilter state computed over the schedulable
/// nodes of `store`.
pub fn run_filters_in(pod: &Pod, store: &Store, node: &Node, ni: &NodeInfo) -> Option<Status> {
    let cs = if pod_topology_spread::has_topology_spread_constraints(pod) {
        CycleState::new(pod, store, &schedulable_nodes(store))
    } else {
        CycleState::of(pod)
    };
    run_filters_req(pod, &pod_requests(pod, false), &cs, node, ni)
}

/// What the filters precompute once per scheduling cycle (`PreFilter`).
#[derive(Clone, Debug, Default)]
pub struct CycleState {
    /// NodePorts: the pod's host ports.
    pub host_ports: Vec<node_ports::HostPort>,
    /// PodTopologySpread: `None` when the pod has no DoNotSchedule constraint (`Skip`).
    pub spread: Option<PreFilterState>,
}

impl CycleState {
    /// The state of the plugins that need only the pod.
    pub fn of(pod: &Pod) -> Self {
        CycleState {
            host_ports: node_ports::get_container_ports([pod]),
            spread: None,
        }
    }

    /// The full state, PodTopologySpread counting over `nodes` (all nodes of the snapshot).
    pub fn new(pod: &Pod, store: &Store, nodes: &[&Node]) -> Self {
        CycleState {
            spread: PreFilterState::from_store(pod, store, nodes),
            ..CycleState::of(pod)
        }
    }
}

/// The default profile's filters: NodeUnschedulable, (NodeName: kubeplay binds only pods
/// without `nodeName`), TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
/// PodTopologySpread. Pods in `ni` without `nodeName` are nominated pods, which
/// PodTopologySpread adds to its state (`AddPod`) for this node.
fn run_filters_req(
    pod: &Pod,
    req: &Resources,
    cs: &CycleState,
    node: &Node,
    ni: &NodeInfo,
) -> Option<Status> {
    filter_node_unschedulable(pod, node)
        .or_else(|| filter_taint_toleration(pod, node))
        .or_else(|| filter_node_affinity(pod, node))
        .or_else(|| node_ports::filter_node_ports(&cs.host_ports, &ni.used_ports))
        .or_else(|| filter_node_resources_fit_req(req, ni))
        .or_else(|| {
            cs.spread
                .as_ref()
                .and_then(|s| s.filter_with_nominated(pod, node, ni.pods.iter().copied()))
        })
}

/// [`run_filters_req`] followed by InterPodAffinity (the last filter of the default profile
/// that kubeplay models) when its PreFilter did not skip.
fn run_filters_ipa(
    pod: &Pod,
    req: &Resources,
    cs: &CycleState,
    node: &Node,
    ni: &NodeInfo,
    ipa: Option<&interpod_affinity::PreFilterState>,
) -> Option<Status> {
    run_filters_req(pod, req, cs, node, ni)
        .or_else(|| ipa.and_then(|s| interpod_affinity::filter_node(s, node, ni)))
}

/// The histogram part of `FitError.Error()`: `"<count> <reason>"` entries sorted as strings
/// (so `10 ...` sorts before `2 ...`, as in Go), joined by `", "`.
pub fn reasons_histogram<'a>(reasons: impl IntoIterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for r in reasons {
        *counts.entry(r).or_insert(0) += 1;
    }
    let mut v: Vec<String> = counts.iter().map(|(r, n)| format!("{n} {r}")).collect();
    crate::sort::sort(&mut v);
    v.join(", ")
}

/// `FitError.Error()`: `0/N nodes are available: <histogram>.` followed by the post-filter
/// message (`" " + msg`) when there is one.
pub fn fit_error_message(num_nodes: usize, statuses: &[&Status], post_filter: &str) -> String {
    let mut msg = format!("0/{num_nodes} nodes are available:");
    let hist = reasons_histogram(
        statuses
            .iter()
            .flat_map(|s| s.reasons.iter().map(String::as_str)),
    );
    if !hist.is_empty() {
        msg.push_str(&format!(" {hist}."));
    }
    if !post_filter.is_empty() {
        msg.push(' ');
        msg.push_str(post_filter);
    }
    msg
}

// ---------------------------------------------------------------------------------------------
// Scores
// ---------------------------------------------------------------------------------------------

/// `helper.DefaultNormalizeScore`.
pub fn default_normalize_score(max: i64, reverse: bool, scores: &mut [i64]) {
    let max_count = scores.iter().copied().max().unwrap_or(0);
    if max_count == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = max);
        }
        return;
    }
    for s in scores.iter_mut() {
        let mut v = max * *s / max_count;
        if reverse {
            v = max - v;
        }
        *s = v;
    }
}

/// `leastRequestedScore`.
pub fn least_requested_score(requested: i128, capacity: i128) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    ((capacity - requested) * MAX_NODE_SCORE as i128 / capacity) as i64
}

/// NodeResourcesFit Score with the LeastAllocated strategy (cpu and memory, weight 1 each;
/// resources the node does not offer are skipped).
pub fn least_allocated_score(pod: &Pod, ni: &NodeInfo) -> i64 {
    least_allocated_score_req(&pod_requests(pod, true), ni)
}

fn least_allocated_score_req(req: &Resources, ni: &NodeInfo) -> i64 {
    let mut total = 0i64;
    let mut weights = 0i64;
    for (alloc, used) in [
        (
            ni.allocatable.milli_cpu,
            ni.non_zero_requested.milli_cpu + req.milli_cpu,
        ),
        (
            ni.allocatable.memory,
            ni.non_zero_requested.memory + req.memory,
        ),
    ] {
        if alloc == 0 {
            continue;
        }
        total += least_requested_score(used, alloc);
        weights += 1;
    }
    if weights == 0 {
        0
    } else {
        total / weights
    }
}

/// NodeResourcesBalancedAllocation Score (`balancedResourceScorer` with two resources):
/// `(1 - |fcpu - fmem| / 2) * 100` on actual requests. `None` for best-effort pods, whose
/// scoring is skipped (kubernetes#129138).
pub fn balanced_allocation_score(pod: &Pod, ni: &NodeInfo) -> Option<i64> {
    balanced_allocation_score_req(&pod_requests(pod, false), ni)
}

fn balanced_allocation_score_req(req: &Resources, ni: &NodeInfo) -> Option<i64> {
    if req.milli_cpu == 0 && req.memory == 0 {
        return None;
    }
    let mut fractions = vec![];
    for (alloc, used) in [
        (
            ni.allocatable.milli_cpu,
            ni.requested.milli_cpu + req.milli_cpu,
        ),
        (ni.allocatable.memory, ni.requested.memory + req.memory),
    ] {
        if alloc == 0 {
            continue;
        }
        fractions.push((used as f64 / alloc as f64).min(1.0));
    }
    let std = if fractions.len() == 2 {
        ((fractions[0] - fractions[1]) / 2.0).abs()
    } else {
        0.0
    };
    Some(((1.0 - std) * MAX_NODE_SCORE as f64) as i64)
}

/// `PreferredSchedulingTerms.Score` (component-helpers nodeaffinity): the sum of the weights of
/// the preferred terms the node matches. As `NewPreferredSchedulingTerms`, terms of weight 0 and
/// empty terms are left out (an empty preference matches no node, unlike a required term's).
pub fn preferred_scheduling_terms_score(terms: &[PreferredSchedulingTerm], node: &Node) -> i64 {
    terms
        .iter()
        .filter(|t| {
            let empty =
                t.preference.match_expressions.is_empty() && t.preference.match_fields.is_empty();
            t.weight != 0 && !empty && node_selector_term_matches(&t.preference, node)
        })
        .map(|t| t.weight)
        .sum()
}

/// NodeAffinity PreScore + Score + NormalizeScore: per node the summed weights of the pod's
/// preferred terms it matches, scaled so the best node gets 100. `None` when the pod has no
/// preferred terms (PreScore returns Skip).
pub fn node_affinity_scores<'n>(
    pod: &Pod,
    nodes: impl IntoIterator<Item = &'n Node>,
) -> Option<Vec<i64>> {
    let terms = preferred_terms(pod);
    if terms.is_empty() {
        return None;
    }
    let mut scores: Vec<i64> = nodes
        .into_iter()
        .map(|node| preferred_scheduling_terms_score(&terms, node))
        .collect();
    default_normalize_score(MAX_NODE_SCORE, false, &mut scores);
    Some(scores)
}

/// TaintToleration Score (before normalization): intolerable PreferNoSchedule taints, counting
/// only tolerations with effect PreferNoSchedule or empty.
pub fn count_intolerable_prefer_no_schedule(pod: &Pod, node: &Node) -> i64 {
    let tols: Vec<Toleration> = pod
        .spec
        .tolerations
        .iter()
        .filter(|t| t.effect.is_empty() || t.effect == "PreferNoSchedule")
        .cloned()
        .collect();
    node.spec
        .taints
        .iter()
        .filter(|t| t.effect == "PreferNoSchedule")
        .filter(|t| !tolerations_tolerate_taint(&tols, t))
        .count() as i64
}

/// A topology spread constraint with its selector parsed (see [`pod_topology_spread`]).
pub use pod_topology_spread::TopologySpreadConstraint as SpreadConstraint;

fn json_selector_map(v: &serde_json::Value) -> Labels {
    v.as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// `helper.DefaultSelector`: the selectors of the Services selecting the pod, merged, plus the
/// selector of the pod's controller (ReplicationController, ReplicaSet or StatefulSet).
pub fn default_selector(pod: &Pod, store: &Store) -> Selector {
    let ns = pod.metadata.namespace.as_str();
    let mut set = Labels::new();
    for svc in store.list_kind("Service", Some(ns)) {
        let v = serde_json::to_value(svc).unwrap_or_default();
        let sel = json_selector_map(&v["spec"]["selector"]);
        if !sel.is_empty() && Selector::from_map(&sel).matches(&pod.metadata.labels) {
            set.extend(sel);
        }
    }
    let mut reqs = match Selector::from_map(&set) {
        Selector::Requirements(r) => r,
        Selector::Nothing => vec![],
    };
    if let Some(owner) = pod.metadata.controller_ref() {
        let extra = match owner.kind.as_str() {
            "ReplicationController" => store
                .get::<crate::api::ReplicationController>(ns, &owner.name)
                .map(|rc| {
                    let mut merged = set.clone();
                    merged.extend(rc.spec.selector.clone());
                    Selector::from_map(&merged)
                }),
            "ReplicaSet" => store
                .get::<crate::api::ReplicaSet>(ns, &owner.name)
                .and_then(|rs| rs.spec.selector.as_ref())
                .and_then(|s| s.to_selector().ok()),
            "StatefulSet" => store
                .get_ref(&crate::store::ObjectRef::new(
                    "StatefulSet",
                    ns,
                    &owner.name,
                ))
                .and_then(|o| {
                    let v = serde_json::to_value(o).ok()?;
                    let sel: LabelSelector =
                        crate::api::value_de::from_value(v["spec"]["selector"].clone()).ok()?;
                    sel.to_selector().ok()
                }),
            _ => None,
        };
        match (owner.kind.as_str(), extra) {
            ("ReplicationController", Some(Selector::Requirements(r))) => reqs = r,
            (_, Some(Selector::Requirements(r))) => reqs.extend(r),
            _ => {}
        }
    }
    Selector::Requirements(reqs)
}

/// The soft constraints PodTopologySpread scores with: the pod's `ScheduleAnyway` constraints,
/// or (none given) the system defaults over [`default_selector`] — empty when the pod has no
/// Service or controller. The bool tells whether the constraints are the system defaults.
pub fn spread_constraints(pod: &Pod, store: &Store) -> (Vec<SpreadConstraint>, bool) {
    if pod_topology_spread::has_topology_spread_constraints(pod) {
        let cs = pod_topology_spread::filter_topology_spread_constraints(
            pod,
            pod_topology_spread::SCHEDULE_ANYWAY,
        );
        return (cs, false);
    }
    let sel = default_selector(pod, store);
    if sel.is_empty() {
        return (vec![], true);
    }
    (
        vec![
            SpreadConstraint::new(3, LABEL_HOSTNAME, sel.clone()),
            SpreadConstraint::new(5, LABEL_ZONE, sel),
        ],
        true,
    )
}

/// `countPodsMatchSelector`: pods of the namespace on the node matching the selector, not
/// terminating.
fn count_pods_match_selector(pods: &[&Pod], sel: &Selector, ns: &str) -> i64 {
    if sel.is_empty() {
        return 0;
    }
    pods.iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && p.metadata.namespace == ns)
        .filter(|p| sel.matches(&p.metadata.labels))
        .count() as i64
}

/// PodTopologySpread PreScore + Score + NormalizeScore over the feasible nodes (`filtered`, in
/// the same order as the result), counting pods over all nodes that pass each constraint's
/// node inclusion policies. `None` when the plugin skips (no constraints).
pub fn topology_spread_scores(
    pod: &Pod,
    constraints: &[SpreadConstraint],
    system_defaulted: bool,
    filtered: &[(&Node, &NodeInfo)],
    all: &[(&Node, &NodeInfo)],
) -> Option<Vec<i64>> {
    let count = |i: usize, _: usize, ni: &NodeInfo| {
        count_pods_match_selector(&ni.pods, &constraints[i].selector, &pod.metadata.namespace)
    };
    topology_spread_scores_with(
        pod,
        constraints,
        system_defaulted,
        filtered,
        all,
        &count,
        None,
    )
}

/// The topology values of a node for the system default constraints' keys (hostname and
/// zone labels), looked up once when the scheduler caches the node.
#[derive(Clone, Debug, Default)]
struct NodeTopology {
    hostname: Option<String>,
    zone: Option<String>,
}

impl NodeTopology {
    fn of(node: &Node) -> Self {
        NodeTopology {
            hostname: node.metadata.labels.get(LABEL_HOSTNAME).cloned(),
            zone: node.metadata.labels.get(LABEL_ZONE).cloned(),
        }
    }
}

/// What the scheduler's cached path knows of the snapshot, by a node's position in `all`.
struct Indexed<'a> {
    /// The position in `all` of each feasible node.
    feasible_pos: &'a [usize],
    /// Each node's cached topology values.
    topology: &'a [&'a NodeTopology],
    /// The positions in `all` of the nodes with pods matching some constraint, ascending.
    counted: &'a [usize],
}

/// [`topology_spread_scores`] with the per-node count of pods matching constraint `i` given by
/// `count(i, position in all, node_info)` (the position is `usize::MAX` without `indexed`).
fn topology_spread_scores_with<'a>(
    pod: &Pod,
    constraints: &[SpreadConstraint],
    system_defaulted: bool,
    filtered: &[(&'a Node, &NodeInfo)],
    all: &[(&'a Node, &NodeInfo)],
    count: &dyn Fn(usize, usize, &NodeInfo) -> i64,
    indexed: Option<&Indexed<'a>>,
) -> Option<Vec<i64>> {
    if constraints.is_empty() {
        return None;
    }
    let require_all = !system_defaulted;
    let k = constraints.len();
    let hostname: Vec<bool> = constraints
        .iter()
        .map(|c| c.topology_key == LABEL_HOSTNAME)
        .collect();
    let zone: Vec<bool> = constraints
        .iter()
        .map(|c| c.topology_key == LABEL_ZONE)
        .collect();
    // Each node's value for each constraint's topology key (`None`: label missing), looked
    // up once (`k` per node, row-major); the hostname and zone values from the scheduler's
    // cache when it has them (`p`: the node's position in `all`).
    let values_of = |n: &'a Node, p: Option<usize>, out: &mut Vec<Option<&'a str>>| {
        let topo = indexed.zip(p).map(|(ix, p)| ix.topology[p]);
        out.extend(constraints.iter().enumerate().map(|(i, c)| match topo {
            Some(t) if hostname[i] => t.hostname.as_deref(),
            Some(t) if zone[i] => t.zone.as_deref(),
            _ => n.metadata.labels.get(&c.topology_key).map(String::as_str),
        }));
    };
    let feasible_pos = |j: usize| indexed.map(|ix| ix.feasible_pos[j]);
    let mut filtered_values: Vec<Option<&str>> = Vec::with_capacity(filtered.len() * k);
    for (j, (n, _)) in filtered.iter().enumerate() {
        values_of(n, feasible_pos(j), &mut filtered_values);
    }
    // Ignored feasible nodes (a label missing), by position in `filtered`.
    let ignored: Vec<bool> = filtered_values
        .chunks(k)
        .map(|vs| require_all && vs.iter().any(Option::is_none))
        .collect();
    let num_ignored = ignored.iter().filter(|x| **x).count();
    let mut counts: Vec<BTreeMap<&str, i64>> = vec![BTreeMap::new(); k];
    for (vs, _) in filtered_values
        .chunks(k)
        .zip(&ignored)
        .filter(|(_, ig)| !**ig)
    {
        for (i, v) in vs.iter().enumerate() {
            if hostname[i] {
                continue;
            }
            counts[i].entry(v.unwrap_or("")).or_insert(0);
        }
    }
    let weights: Vec<f64> = constraints
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let sz = if c.topology_key == LABEL_HOSTNAME {
                filtered.len() - num_ignored
            } else {
                counts[i].len()
            };
            ((sz + 2) as f64).ln()
        })
        .collect();
    // A zonal constraint's per-value counts are read only for feasible, not ignored nodes that
    // carry its topology key; when none does (e.g. nodes without zone labels under the system
    // default constraints), adding them up would change no score, so the visit is skipped.
    let zonal = (0..k).any(|i| {
        !hostname[i]
            && filtered_values
                .chunks(k)
                .zip(&ignored)
                .any(|(vs, ig)| !*ig && vs[i].is_some())
    });
    let honor_affinity = constraints
        .iter()
        .any(|c| c.node_affinity_policy == NodeInclusionPolicy::Honor);
    let honor_taints = constraints
        .iter()
        .any(|c| c.node_taints_policy == NodeInclusionPolicy::Honor);
    // Only nodes with matching pods add to a topology value: when the caller knows them, visit
    // just those (by position in `all`) instead of every node.
    let visit: Vec<usize> = match indexed {
        _ if !zonal => vec![],
        Some(ix) => ix.counted.to_vec(),
        None => (0..all.len()).collect(),
    };
    let mut vs: Vec<Option<&str>> = Vec::with_capacity(k);
    for p in visit {
        let (n, ni) = all[p];
        vs.clear();
        values_of(n, indexed.map(|_| p), &mut vs);
        if require_all && vs.iter().any(Option::is_none) {
            continue;
        }
        // `matchNodeInclusionPolicies`, each evaluated once per node.
        let affinity_ok = !honor_affinity || pod_matches_node_affinity(pod, n);
        let taints_ok = !honor_taints
            || find_matching_untolerated_taint(
                &n.spec.taints,
                &pod.spec.tolerations,
                do_not_schedule_taint,
            )
            .is_none();
        for (i, c) in constraints.iter().enumerate() {
            if hostname[i] {
                continue;
            }
            if (c.node_affinity_policy == NodeInclusionPolicy::Honor && !affinity_ok)
                || (c.node_taints_policy == NodeInclusionPolicy::Honor && !taints_ok)
            {
                continue;
            }
            if let Some(cnt) = counts[i].get_mut(vs[i].unwrap_or("")) {
                *cnt += count(i, p, ni);
            }
        }
    }
    let mut raw: Vec<Option<i64>> = Vec::with_capacity(filtered.len());
    for (j, (((_, ni), vs), ig)) in filtered
        .iter()
        .zip(filtered_values.chunks(k))
        .zip(&ignored)
        .enumerate()
    {
        if *ig {
            raw.push(None);
            continue;
        }
        let mut score = 0f64;
        for (i, c) in constraints.iter().enumerate() {
            if let Some(v) = vs[i] {
                let cnt = if hostname[i] {
                    count(i, feasible_pos(j).unwrap_or(usize::MAX), ni)
                } else {
                    counts[i].get(v).copied().unwrap_or(0)
                };
                score += cnt as f64 * weights[i] + (c.max_skew - 1) as f64;
            }
        }
        raw.push(Some(score.round() as i64));
    }
    let min = raw.iter().flatten().copied().min().unwrap_or(0);
    let max = raw.iter().flatten().copied().max().unwrap_or(0);
    Some(
        raw.into_iter()
            .map(|s| match s {
                None => 0,
                Some(_) if max == 0 => MAX_NODE_SCORE,
                Some(s) => MAX_NODE_SCORE * (max + min - s) / max,
            })
            .collect(),
    )
}

/// The default profile's weighted score of every feasible node (same order as `feasible`).
pub fn score_nodes(
    pod: &Pod,
    store: &Store,
    feasible: &[(&Node, &NodeInfo)],
    all: &[(&Node, &NodeInfo)],
) -> Vec<i64> {
    score_nodes_with(pod, store, feasible, all, &PodReqs::of(pod), None)
}

/// The scheduler's cached snapshot for [`score_nodes_with`], by a node's position in `all`.
struct CachedSnapshot<'a> {
    /// The position in `all` of each feasible node.
    feasible_pos: &'a [usize],
    /// Each node's cached topology values.
    topology: &'a [&'a NodeTopology],
    /// Whether some node lists images (`status.images`); without, ImageLocality scores 0.
    any_images: bool,
}

/// [`score_nodes`] with the pod's requests precomputed. With `cached`, the node infos carry no
/// pods (the scheduler's cached aggregates) and PodTopologySpread counts the matching pods per
/// node from the store's label index instead; both count the same pods when no pod is
/// nominated to a node.
fn score_nodes_with<'a>(
    pod: &Pod,
    store: &Store,
    feasible: &[(&'a Node, &NodeInfo)],
    all: &[(&'a Node, &NodeInfo)],
    reqs: &PodReqs,
    cached: Option<&CachedSnapshot<'a>>,
) -> Vec<i64> {
    let counts_from_index = cached.is_some();
    let n = feasible.len();
    let mut total = vec![0i64; n];
    // TaintToleration, weight 3.
    let mut tt: Vec<i64> = feasible
        .iter()
        .map(|(node, _)| count_intolerable_prefer_no_schedule(pod, node))
        .collect();
    default_normalize_score(MAX_NODE_SCORE, true, &mut tt);
    // NodeAffinity, weight 2 (skipped without preferred terms).
    let na = node_affinity_scores(pod, feasible.iter().map(|(node, _)| *node))
        .unwrap_or_else(|| vec![0; n]);
    // PodTopologySpread, weight 2.
    let (constraints, defaulted) = spread_constraints(pod, store);
    let pts = if let Some(cs) = cached {
        let ns = pod.metadata.namespace.as_str();
        // Matching pods per node, by the node's position in `all` (in name order).
        let mut per_node: Vec<Vec<i64>> = Vec::with_capacity(constraints.len());
        // Constraint `i` counts with `per_node[slot[i]]`.
        let mut slot: Vec<usize> = Vec::with_capacity(constraints.len());
        let mut counted: Vec<usize> = vec![];
        for (i, c) in constraints.iter().enumerate() {
            // The system defaults share one selector: count once.
            if i > 0 && constraints[i - 1].selector == c.selector {
                slot.push(per_node.len() - 1);
                continue;
            }
            slot.push(per_node.len());
            let mut counts = vec![0i64; all.len()];
            pod_topology_spread::count_pods_match_selector_by_node_with(
                store,
                &c.selector,
                ns,
                |node_name| {
                    if let Ok(p) =
                        all.binary_search_by(|(n, _)| n.metadata.name.as_str().cmp(node_name))
                    {
                        if counts[p] == 0 {
                            counted.push(p);
                        }
                        counts[p] += 1;
                    }
                },
            );
            per_node.push(counts);
        }
        counted.sort_unstable();
        counted.dedup();
        let count =
            |i: usize, p: usize, _: &NodeInfo| per_node[slot[i]].get(p).copied().unwrap_or(0);
        let ix = Indexed {
            feasible_pos: cs.feasible_pos,
            topology: cs.topology,
            counted: &counted,
        };
        topology_spread_scores_with(
            pod,
            &constraints,
            defaulted,
            feasible,
            all,
            &count,
            Some(&ix),
        )
    } else {
        topology_spread_scores(pod, &constraints, defaulted, feasible, all)
    }
    .unwrap_or_else(|| vec![0; n]);
    // InterPodAffinity, weight 2. The cached aggregates carry no pods: the scheduler uses them
    // only when no pod (incoming or assigned) has pod affinity, where PreScore skips.
    let ipa = if counts_from_index || !interpod_affinity::involved(pod, all) {
        None
    } else {
        let namespaces = interpod_affinity::implicit_namespaces(
            all.iter()
                .flat_map(|(_, ni)| ni.pods.iter().copied())
                .chain([pod]),
        );
        let nodes: Vec<&Node> = feasible.iter().map(|(node, _)| *node).collect();
        interpod_affinity::scores(
            pod,
            &nodes,
            all,
            &namespaces,
            interpod_affinity::DEFAULT_HARD_POD_AFFINITY_WEIGHT,
        )
    }
    .unwrap_or_else(|| vec![0; n]);
    // ImageLocality, weight 1: image spread counted over every node of the snapshot.
    let images = cached.is_none_or(|cs| cs.any_images);
    let states = images
        .then(|| image_locality::image_states(all.iter().map(|(node, _)| *node)))
        .flatten();
    let il: Vec<i64> = match states {
        None => vec![0; n],
        Some(states) if cached.is_some() => {
            let pos = cached.map_or(&[][..], |cs| cs.feasible_pos);
            pos.iter()
                .map(|&p| {
                    states
                        .get(p)
                        .map_or(0, |st| image_locality::score(pod, st, all.len()))
                })
                .collect()
        }
        Some(states) => {
            let by_name: BTreeMap<&str, &image_locality::ImageStates> = all
                .iter()
                .map(|(m, _)| m.metadata.name.as_str())
                .zip(&states)
                .collect_btree_map();
            feasible
                .iter()
                .map(|(node, _)| {
                    by_name
                        .get(node.metadata.name.as_str())
                        .map_or(0, |st| image_locality::score(pod, st, all.len()))
                })
                .collect()
        }
    };
    for i in 0..n {
        let ni = feasible[i].1;
        total[i] = 3 * tt[i]
            + 2 * na[i]
            + least_allocated_score_req(&reqs.non_zero, ni)
            + 2 * pts[i]
            + balanced_allocation_score_req(&reqs.req, ni).unwrap_or(0)
            + interpod_affinity::SCORE_WEIGHT * ipa[i]
            + il[i];
    }
    total
}

// ---------------------------------------------------------------------------------------------
// One scheduling cycle
// ---------------------------------------------------------------------------------------------

/// The result of one scheduling attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Bind to this node.
    Bind(String),
    /// No node fits: the FailedScheduling message, and victims to preempt (with the node they
    /// free) if the DefaultPreemption plugin found a candidate.
    Unschedulable {
        message: String,
        preempt: Option<(String, Vec<Pod>)>,
        /// `UnschedulablePlugins`: the filter plugins that rejected some node.
        plugins: BTreeSet<&'static str>,
    },
}

/// Nodes the scheduler considers: existing nodes not being deleted, by name.
fn schedulable_nodes(store: &Store) -> Vec<&Node> {
    store
        .list::<Node>(None)
        .filter(|n| n.metadata.deletion_timestamp.is_none())
        .collect()
}

/// NodeInfo for each node, with the pods nominated to it that have at least the incoming pod's
/// priority added (`RunFilterPluginsWithNominatedPods`).
fn node_infos<'a>(pod: &Pod, store: &'a Store, nodes: &[&Node]) -> Vec<NodeInfo<'a>> {
    // Unscheduled pods from the node index (same (namespace, name) order as a full list).
    let nominated: Vec<&Pod> = store
        .pods_on_node("")
        .filter(|p| p.spec.node_name.is_empty() && p.metadata.uid != pod.metadata.uid)
        .filter(|p| pod_priority(p) >= pod_priority(pod))
        .filter(|p| nominated_node(p).is_some())
        .collect();
    nodes
        .iter()
        .map(|n| {
            let mut ni = NodeInfo::from_store(n, store);
            for p in &nominated {
                if nominated_node(p) == Some(n.metadata.name.as_str()) {
                    ni.add_pod(p);
                }
            }
            ni
        })
        .collect()
}

/// `status.nominatedNodeName`.
pub fn nominated_node(p: &Pod) -> Option<&str> {
    p.status
        .extra
        .get("nominatedNodeName")
        .and_then(|v| v.as_str())
        .filter(|s| !s.is_empty())
}

/// `minFeasibleNodesToFind` (pkg/scheduler/schedule_one.go).
pub const MIN_FEASIBLE_NODES_TO_FIND: i32 = 100;
/// `minFeasibleNodesPercentageToFind`.
pub const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i32 = 5;

/// `numFeasibleNodesToFind`: how many feasible nodes the scheduler looks for before it stops
/// filtering. `percentage_of_nodes_to_score` 0 is the default (adaptive: 50 % minus one point per
/// 125 nodes, at least 5 %); clusters under 100 nodes are always searched whole, and at least
/// 100 nodes are looked for.
///
/// Concrete example: 1,000 nodes, default → 50 − 1000/125 = 42 % → 420 nodes.
pub fn num_feasible_nodes_to_find(percentage_of_nodes_to_score: i32, num_all_nodes: i32) -> i32 {
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return num_all_nodes;
    }
    let mut percentage = percentage_of_nodes_to_score;
    if percentage == 0 {
        percentage = (50 - num_all_nodes / 125).max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    let num_nodes = num_all_nodes * percentage / 100;
    num_nodes.max(MIN_FEASIBLE_NODES_TO_FIND)
}

/// Runs filters and scores for a pod against the store (`schedulePod` + the PostFilter plugins),
/// examining nodes from the first in name order.
pub fn schedule_pod(pod: &Pod, store: &Store) -> Outcome {
    schedule_pod_from(pod, store, 0).0
}

/// [`schedule_pod`] starting at node `start` (the scheduler's `nextStartNodeIndex`), and the
/// number of nodes it examined (`processedNodes`): the filters stop once
/// [`num_feasible_nodes_to_find`] nodes passed them, so in clusters of 100 nodes or more every
/// pod sees the nodes from where the previous one stopped.
pub fn schedule_pod_from(pod: &Pod, store: &Store, start: usize) -> (Outcome, usize) {
    let (outcome, processed, _) = schedule_pod_with(pod, store, start, &mut |_| 0);
    (outcome, processed)
}

/// [`schedule_pod_from`] with `rand` giving the preemption dry run's random offset
/// ([`get_offset_and_num_candidates`]; [`schedule_pod_from`] starts at the first potential
/// node), and whether the pod's `nominatedNodeName` is to be cleared (the PostFilter found no
/// preemption candidate: `NewPostFilterResultWithNominatedNode("")`).
fn schedule_pod_with(
    pod: &Pod,
    store: &Store,
    start: usize,
    rand: &mut dyn FnMut(usize) -> usize,
) -> (Outcome, usize, bool) {
    let nodes = schedulable_nodes(store);
    let infos = node_infos(pod, store, &nodes);
    if nodes.is_empty() {
        // ErrNoNodesAvailable: no PostFilter, and the nominated node is cleared
        // (`clearNominatedNode`).
        return (
            Outcome::Unschedulable {
                message: "no nodes available to schedule pods".into(),
                preempt: None,
                plugins: BTreeSet::new(),
            },
            0,
            true,
        );
    }
    let req = pod_requests(pod, false);
    let cs = CycleState::new(pod, store, &nodes);
    let mut feasible = vec![];
    let mut statuses: BTreeMap<String, Status> = BTreeMap::new();
    let mut processed = 0;
    let all: Vec<(&Node, &NodeInfo)> = nodes.iter().copied().zip(infos.iter()).collect();
    // A rejecting PreFilter: every node gets its status; the filters do not run.
    let mut reject = |st: Status| {
        let statuses: BTreeMap<String, Status> = nodes
            .iter()
            .map(|n| (n.metadata.name.clone(), st.clone()))
            .collect_btree_map();
        let (post, clear) = post_filter_message(preempt(
            pod, store, &nodes, &infos, &statuses, &cs, None, rand,
        ));
        let mut message = format!(
            "0/{} nodes are available: {}.",
            nodes.len(),
            st.reasons.join(", ")
        );
        if !post.is_empty() {
            message.push(' ');
            message.push_str(&post);
        }
        (
            Outcome::Unschedulable {
                message,
                preempt: None,
                plugins: [st.plugin].into_iter().collect(),
            },
            0,
            clear,
        )
    };
    // PreFilter of NodeAffinity (first in the default profile; an UnschedulableAndUnresolvable
    // status ends PreFilter), then of InterPodAffinity (the other modelled plugins need no
    // PreFilter state).
    let names = match node_affinity_pre_filter(pod) {
        Ok(names) => names,
        Err(st) => return reject(st),
    };
    let prefilter = if interpod_affinity::involved(pod, &all) {
        let namespaces = interpod_affinity::implicit_namespaces(
            infos
                .iter()
                .flat_map(|ni| ni.pods.iter().copied())
                .chain([pod]),
        );
        interpod_affinity::pre_filter(pod, &all, &namespaces)
    } else {
        interpod_affinity::PreFilter::Skip
    };
    let ipa = match prefilter {
        interpod_affinity::PreFilter::Skip => None,
        interpod_affinity::PreFilter::Run(s) => Some(*s),
        interpod_affinity::PreFilter::Reject(st) => return reject(st),
    };
    // evaluateNominatedNode (findNodesThatFitPod): the node nominated by an earlier preemption
    // is tried first; when it passes the filters it is the only feasible node, taken without
    // scoring and without advancing the start index.
    let nominated =
        nominated_node(pod).and_then(|nnn| nodes.iter().position(|n| n.metadata.name == nnn));
    if let Some(k) = nominated {
        if run_filters_ipa(pod, &req, &cs, nodes[k], &infos[k], ipa.as_ref()).is_none() {
            return (Outcome::Bind(nodes[k].metadata.name.clone()), 0, false);
        }
    }
    // findNodesThatFitPod: a PreFilterResult limits the filters to the named nodes that exist
    // (here in node order; upstream in set order), walked from the start index.
    let sub: Vec<usize> = (0..nodes.len())
        .filter(|&k| {
            names
                .as_ref()
                .is_none_or(|s| s.contains(&nodes[k].metadata.name))
        })
        .collect();
    let to_find = num_feasible_nodes_to_find(0, sub.len() as i32) as usize;
    for i in 0..sub.len() {
        if feasible.len() >= to_find {
            break;
        }
        let k = sub[(start + i) % sub.len()];
        let (n, ni) = (nodes[k], &infos[k]);
        processed += 1;
        match run_filters_ipa(pod, &req, &cs, n, ni, ipa.as_ref()) {
            None => feasible.push((n, ni)),
            Some(s) => {
                statuses.insert(n.metadata.name.clone(), s);
            }
        }
    }
    if !feasible.is_empty() {
        let scores = score_nodes(pod, store, &feasible, &all);
        // Highest score; ties to the node examined first (upstream: uniformly random among the
        // best).
        let mut best = 0;
        for i in 1..feasible.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        return (
            Outcome::Bind(feasible[best].0.metadata.name.clone()),
            processed,
            false,
        );
    }
    // The nodes left out by the PreFilterResult share the absent-nodes status
    // (`SetAbsentNodesStatus`), which also counts in the FitError and for preemption; they
    // were not processed.
    if let Some(set) = &names {
        let absent = Status::new(
            Code::UnschedulableAndUnresolvable,
            "NodeAffinity",
            vec!["node(s) didn't satisfy plugin(s) [NodeAffinity]".into()],
        );
        for n in nodes.iter().filter(|n| !set.contains(&n.metadata.name)) {
            statuses.insert(n.metadata.name.clone(), absent.clone());
        }
    }
    let result = preempt(
        pod,
        store,
        &nodes,
        &infos,
        &statuses,
        &cs,
        ipa.as_ref(),
        rand,
    );
    let (post, clear, preempt) = match result {
        // A successful PostFilter leaves no post-filter message.
        PreemptResult::Candidate(node, victims) => (String::new(), false, Some((node, victims))),
        other => {
            let (post, clear) = post_filter_message(other);
            (post, clear, None)
        }
    };
    let st: Vec<&Status> = statuses.values().collect();
    (
        Outcome::Unschedulable {
            message: fit_error_message(nodes.len(), &st, &post),
            preempt,
            plugins: statuses.values().map(|s| s.plugin).collect(),
        },
        processed,
        clear,
    )
}

/// `RunPostFilterPlugins`' message (the FitError's `PostFilterMsg`) for DynamicResources (no
/// claims: Unschedulable) followed by DefaultPreemption, and whether the pod's nominated node
/// is cleared. The Unschedulable answers are merged (`no new claims to deallocate,
/// preemption: …`); an Error from DefaultPreemption stands alone.
fn post_filter_message(result: PreemptResult) -> (String, bool) {
    match result {
        PreemptResult::NotEligible(msg) => (format!("{DRA_NO_CLAIMS}, preemption: {msg}"), false),
        PreemptResult::NoCandidates(msg) => (format!("{DRA_NO_CLAIMS}, preemption: {msg}"), true),
        PreemptResult::Error(msg) => (format!("preemption: {msg}"), false),
        PreemptResult::Candidate(..) => (String::new(), false),
    }
}

/// The scheduler cache's entry for a node: the aggregates (a [`NodeInfo`] without pods), the
/// node's topology values for the default spreading keys, and whether it lists images.
#[derive(Clone, Debug, Default)]
struct CachedNode {
    info: NodeInfo<'static>,
    topology: NodeTopology,
    has_images: bool,
}

impl CachedNode {
    fn from_store(node: &Node, store: &Store) -> Self {
        CachedNode {
            info: NodeInfo::aggregates_from_store(node, store),
            topology: NodeTopology::of(node),
            has_images: image_locality::has_images(node),
        }
    }

    /// Re-reads what the entry takes from the node object itself (allocatable, topology
    /// values, images), keeping the pods' aggregates: what [`CachedNode::from_store`] would
    /// build after a change to the node alone.
    fn set_node(&mut self, node: &Node) {
        let fresh = NodeInfo::new(node);
        self.info.name = fresh.name;
        self.info.allocatable = fresh.allocatable;
        self.info.allowed_pods = fresh.allowed_pods;
        self.topology = NodeTopology::of(node);
        self.has_images = image_locality::has_images(node);
    }
}

/// Keeps the scheduler cache's entries current for one change (`cache.updatePod` and friends):
/// a node change re-reads the node's own fields (a deleted node's entry is dropped); a pod
/// change takes the old pod's requests off its node and adds the new pod's. A pod counts on
/// a node while it is assigned and not terminal, and what it adds depends on its spec only, so
/// an update that keeps the node, whether the pod counts and the spec (a status update) leaves
/// the entries as they are. Where taking a pod back is not exact (scalar resources, host
/// ports) the node's entry is dropped, to be rebuilt from the store when next needed.
///
/// Exact as long as every entry was built from a store whose changes have all been applied
/// here (the scheduler builds entries in `sync` only, after the changes are delivered).
fn update_node_cache(cache: &mut BTreeMap<String, CachedNode>, change: &Change) {
    fn counted(o: Option<&Object>) -> Option<&Pod> {
        match o {
            Some(Object::Pod(p)) if !p.spec.node_name.is_empty() && counts_on_node(p) => Some(p),
            _ => None,
        }
    }
    match (change.old_obj(), change.new_obj()) {
        (_, Some(Object::Node(n))) => {
            if let Some(e) = cache.get_mut(&n.metadata.name) {
                e.set_node(n);
            }
        }
        (Some(Object::Node(n)), None) => {
            cache.remove(&n.metadata.name);
        }
        (old, new) => match (counted(old), counted(new)) {
            (Some(o), Some(p))
                if o.spec.node_name == p.spec.node_name
                    && (std::sync::Arc::ptr_eq(&o.spec, &p.spec) || o.spec == p.spec) => {}
            (o, p) => {
                if let Some(o) = o {
                    if let Some(e) = cache.get_mut(&o.spec.node_name) {
                        if !e.info.remove_requests(o) {
                            cache.remove(&o.spec.node_name);
                        }
                    }
                }
                if let Some(p) = p {
                    if let Some(e) = cache.get_mut(&p.spec.node_name) {
                        e.info.add_requests(p);
                    }
                }
            }
        },
    }
}

/// [`schedule_pod`] with the per-node aggregates cached across attempts (the scheduler cache's
/// NodeInfo): `cache` holds [`CachedNode`]s, keyed by node name; the scheduler drops a node's
/// entry whenever the node or a pod on it changes. With `exact` (a pod is nominated to a node,
/// or InterPodAffinity needs the pods), or when no node fits (preemption needs the pods), this
/// falls back to [`schedule_pod`]; the outcome is the same either way.
#[cfg(test)]
fn schedule_pod_cached(
    pod: &Pod,
    store: &Store,
    cache: &mut BTreeMap<String, CachedNode>,
    exact: bool,
    start: usize,
) -> (Outcome, usize) {
    let (outcome, processed, _, _) =
        schedule_pod_cached_counted(pod, store, cache, exact, start, &mut |_| 0);
    (outcome, processed)
}

/// The cached scheduling path (`schedule_pod_cached`), also returning the number of nodes of
/// the snapshot and whether the pod's nominated node is to be cleared (`rand` and the flag as
/// in [`schedule_pod_with`]).
fn schedule_pod_cached_counted(
    pod: &Pod,
    store: &Store,
    cache: &mut BTreeMap<String, CachedNode>,
    exact: bool,
    start: usize,
    rand: &mut dyn FnMut(usize) -> usize,
) -> (Outcome, usize, usize, bool) {
    let nodes = schedulable_nodes(store);
    let num_nodes = nodes.len();
    let mut fallback = |start| {
        let (outcome, processed, clear) = schedule_pod_with(pod, store, start, rand);
        (outcome, processed, num_nodes, clear)
    };
    if exact || nodes.is_empty() || nominated_node(pod).is_some() {
        return fallback(start);
    }
    // Nodes and cache entries are both in name order: walk them in step.
    let missing: Vec<&Node> = {
        let mut cached = cache.keys().peekable();
        let mut missing = vec![];
        for n in &nodes {
            while cached.next_if(|k| **k < n.metadata.name).is_some() {}
            if cached.next_if(|k| **k == n.metadata.name).is_none() {
                missing.push(*n);
            }
        }
        missing
    };
    for n in missing {
        cache.insert(n.metadata.name.clone(), CachedNode::from_store(n, store));
    }
    let reqs = PodReqs::of(pod);
    let cs = CycleState::new(pod, store, &nodes);
    // The snapshot: each node with its cache entry, in name order; a node's position here is
    // its index for the per-node data below.
    let mut all: Vec<(&Node, &NodeInfo)> = Vec::with_capacity(nodes.len());
    let mut topology: Vec<&NodeTopology> = Vec::with_capacity(nodes.len());
    let mut any_images = false;
    {
        let mut cached = cache.iter().peekable();
        for n in &nodes {
            while cached.next_if(|(k, _)| **k < n.metadata.name).is_some() {}
            if let Some((_, c)) = cached.next_if(|(k, _)| **k == n.metadata.name) {
                all.push((*n, &c.info));
                topology.push(&c.topology);
                any_images |= c.has_images;
            }
        }
    }
    // NodeAffinity's PreFilterResult, as in `schedule_pod_from` (a conflict takes that path).
    let Ok(names) = node_affinity_pre_filter(pod) else {
        return fallback(start);
    };
    let sub: Vec<usize> = match &names {
        None => (0..all.len()).collect(),
        Some(s) => (0..all.len())
            .filter(|&k| s.contains(&all[k].0.metadata.name))
            .collect(),
    };
    let to_find = num_feasible_nodes_to_find(0, sub.len() as i32) as usize;
    let mut feasible: Vec<(&Node, &NodeInfo)> = Vec::with_capacity(to_find.min(sub.len()));
    let mut feasible_pos: Vec<usize> = Vec::with_capacity(to_find.min(sub.len()));
    let mut processed = 0;
    for i in 0..sub.len() {
        if feasible.len() >= to_find {
            break;
        }
        let p = sub[(start + i) % sub.len()];
        let (n, ni) = all[p];
        processed += 1;
        if run_filters_req(pod, &reqs.req, &cs, n, ni).is_none() {
            feasible.push((n, ni));
            feasible_pos.push(p);
        }
    }
    if feasible.is_empty() || all.len() != nodes.len() {
        return fallback(start);
    }
    let snapshot = CachedSnapshot {
        feasible_pos: &feasible_pos,
        topology: &topology,
        any_images,
    };
    let scores = score_nodes_with(pod, store, &feasible, &all, &reqs, Some(&snapshot));
    let mut best = 0;
    for i in 1..feasible.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    (
        Outcome::Bind(feasible[best].0.metadata.name.clone()),
        processed,
        num_nodes,
        false,
    )
}

enum PreemptResult {
    /// `PodEligibleToPreemptOthers` said no: Unschedulable, the nominated node is kept.
    NotEligible(String),
    /// No candidate: Unschedulable with the FitError of the dry run, and the pod's nominated
    /// node is cleared (`NewPostFilterResultWithNominatedNode("")`).
    NoCandidates(String),
    /// The dry run failed and found no candidate (an Error status; the nominated node is
    /// kept): its aggregated error.
    Error(String),
    Candidate(String, Vec<Pod>),
}

/// `podTerminatingByPreemption`.
fn terminating_by_preemption(p: &Pod) -> bool {
    p.metadata.deletion_timestamp.is_some()
        && p.condition("DisruptionTarget")
            .is_some_and(|c| c.status == "True" && c.reason == "PreemptionByScheduler")
}

/// `GetPodStartTime` (pkg/scheduler/util/utils.go): `status.startTime`, or the current time for a
/// pod that has not started (assumed or bound, not yet running), which makes it newer than any
/// started pod. The scheduling cycle has no clock here, so "now" is the latest instant; pods
/// that have not started tie with each other (upstream: successive `time.Now()` calls).
fn start_time(p: &Pod) -> Time {
    p.status.start_time.unwrap_or(Time(i64::MAX))
}

/// `GetEarliestPodStartTime`: the earliest start time among the highest-priority victims.
fn earliest_pod_start_time(victims: &[Pod]) -> Time {
    let highest = victims.iter().map(pod_priority).max().unwrap_or(i32::MIN);
    victims
        .iter()
        .filter(|p| pod_priority(p) == highest)
        .map(start_time)
        .min()
        .unwrap_or(Time::ZERO)
}

/// `MoreImportantPod`: higher priority, then earlier start time.
fn more_important(a: &Pod, b: &Pod) -> std::cmp::Ordering {
    pod_priority(b)
        .cmp(&pod_priority(a))
        .then(start_time(a).cmp(&start_time(b)))
        .then(a.metadata.name.cmp(&b.metadata.name))
}

/// `getPodDisruptionBudgets` (every PDB in the cluster), each with its selector when it can
/// cover a pod: `filterPodsWithPDBViolation` skips a nil, empty or invalid selector.
pub fn get_pod_disruption_budgets(store: &Store) -> Vec<(&PodDisruptionBudget, Selector)> {
    store
        .list::<PodDisruptionBudget>(None)
        .filter_map(|pdb| {
            let sel = pdb.spec.selector.as_ref()?.to_selector().ok()?;
            (!sel.is_empty()).then_some((pdb, sel))
        })
        .collect()
}

/// `filterPodsWithPDBViolation`: splits `pods` (kept in order) into those whose eviction would
/// violate a PDB and the others. Each PDB of the pod's namespace whose selector matches the
/// pod's labels has its `disruptionsAllowed` decremented for the pod, unless the pod is already
/// in its `disruptedPods`; the pod violates when a budget goes below zero.
fn filter_pods_with_pdb_violation<'p>(
    pods: &[&'p Pod],
    pdbs: &[(&PodDisruptionBudget, Selector)],
) -> (Vec<&'p Pod>, Vec<&'p Pod>) {
    let mut allowed: Vec<i64> = pdbs
        .iter()
        .map(|(pdb, _)| i64::from(pdb.status.disruptions_allowed))
        .collect();
    let (mut violating, mut non_violating) = (vec![], vec![]);
    for &pod in pods {
        let mut violated = false;
        // A pod with no labels will not match any PDB.
        if !pod.metadata.labels.is_empty() {
            for ((pdb, sel), left) in pdbs.iter().zip(allowed.iter_mut()) {
                if pdb.metadata.namespace != pod.metadata.namespace
                    || !sel.matches(&pod.metadata.labels)
                    // Already processed by the API server: not counted again.
                    || pdb.status.disrupted_pods.contains_key(&pod.metadata.name)
                {
                    continue;
                }
                *left -= 1;
                if *left < 0 {
                    violated = true;
                }
            }
        }
        if violated {
            violating.push(pod);
        } else {
            non_violating.push(pod);
        }
    }
    (violating, non_violating)
}

/// `DefaultPreemptionArgs.MinCandidateNodesPercentage`'s default (pkg/scheduler/apis/config/v1).
pub const MIN_CANDIDATE_NODES_PERCENTAGE: i32 = 10;
/// `DefaultPreemptionArgs.MinCandidateNodesAbsolute`'s default.
pub const MIN_CANDIDATE_NODES_ABSOLUTE: i32 = 100;

/// `calculateNumCandidates` with explicit `DefaultPreemptionArgs`: how many candidates the dry
/// run must find, `num_nodes × percentage / 100` but at least `absolute`, and never more than
/// `num_nodes`. Example: 5 nodes, 40 %, at least 1 → 2.
pub fn calculate_num_candidates_with(num_nodes: i32, percentage: i32, absolute: i32) -> i32 {
    let n = num_nodes.saturating_mul(percentage) / 100;
    n.max(absolute).min(num_nodes)
}

/// `calculateNumCandidates` with the default arguments (10 %, at least 100): every node in
/// clusters of up to 100 potential nodes, 10 % from 1,000 on.
pub fn calculate_num_candidates(num_nodes: i32) -> i32 {
    calculate_num_candidates_with(
        num_nodes,
        MIN_CANDIDATE_NODES_PERCENTAGE,
        MIN_CANDIDATE_NODES_ABSOLUTE,
    )
}

/// `GetOffsetAndNumCandidates`: a random start among the `num_nodes` potential nodes
/// (upstream `rand.Int31n`; here `rand(n)`, which must return a value in `0..n` — the
/// scheduler draws it from the simulation's seeded random source) and the number of candidates
/// to find. `num_nodes` must be positive, as upstream only calls it with potential nodes.
pub fn get_offset_and_num_candidates(
    num_nodes: usize,
    rand: &mut dyn FnMut(usize) -> usize,
) -> (usize, usize) {
    let n = i32::try_from(num_nodes).unwrap_or(i32::MAX);
    let offset = if num_nodes == 0 {
        0
    } else {
        rand(num_nodes) % num_nodes
    };
    (
        offset,
        usize::try_from(calculate_num_candidates(n)).unwrap_or(0),
    )
}

/// A preemption candidate (`preemption.Candidate`): the node, the pods to evict there (most
/// important first) and how many of them violate a PodDisruptionBudget (`NumPDBViolations`).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub name: String,
    pub victims: Vec<Pod>,
    pub num_pdb_violations: usize,
}

/// What [`dry_run_preemption`] found: the candidates (the non-violating ones first, each group
/// in the order the nodes were examined), the status of every examined node that is no
/// candidate, and the errors (`expected at least one victim pod on node "…"`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DryRun {
    pub candidates: Vec<Candidate>,
    pub node_statuses: Vec<(String, Status)>,
    pub errors: Vec<String>,
}

/// `SelectVictimsOnNode` (DefaultPreemption): removes every pod of lower priority than `pod`
/// from the node; if `pod` then passes the filters, reprieves the removed pods from the most
/// important (`MoreImportantPod`), the PDB-violating ones first, keeping each that still lets
/// `pod` fit. Returns the victims (most important first) and how many of them violate a PDB,
/// or the node's status: `No preemption victims found for incoming pod` when no pod has a
/// lower priority, else the filter's rejection with all of them removed. Nominated pods in
/// `ni` (those of at least `pod`'s priority, `RunFilterPluginsWithNominatedPods`) stay.
pub fn select_victims_on_node<'a>(
    pod: &Pod,
    node: &Node,
    ni: &NodeInfo<'a>,
    cs: &CycleState,
    ipa: Option<&interpod_affinity::PreFilterState>,
    pdbs: &[(&PodDisruptionBudget, Selector)],
) -> Result<(Vec<Pod>, usize), Status> {
    let req = pod_requests(pod, false);
    let prio = pod_priority(pod);
    let mut potential: Vec<&Pod> = ni
        .pods
        .iter()
        .copied()
        .filter(|p| pod_priority(p) < prio)
        .collect();
    if potential.is_empty() {
        return Err(Status::new(
            Code::UnschedulableAndUnresolvable,
            "DefaultPreemption",
            vec![NO_PREEMPTION_VICTIMS.into()],
        ));
    }
    let with = |kept: &[&'a Pod]| -> NodeInfo<'a> {
        let mut x = NodeInfo::new(node);
        for p in ni.pods.iter().copied().filter(|p| pod_priority(p) >= prio) {
            x.add_pod(p);
        }
        for p in kept.iter().copied() {
            x.add_pod(p);
        }
        x
    };
    // The cycle state with every potential victim removed (`RemovePod`): PodTopologySpread's
    // counts and InterPodAffinity's.
    let mut state = cs.clone();
    if let Some(s) = state.spread.as_mut() {
        for p in &potential {
            s.update_with_pod(p, pod, node, -1);
        }
    }
    let mut ipa_state = ipa.cloned();
    if let Some(s) = ipa_state.as_mut() {
        for p in &potential {
            s.update_with_pod(p, node, -1);
        }
    }
    if let Some(s) = run_filters_ipa(pod, &req, &state, node, &with(&[]), ipa_state.as_ref()) {
        return Err(s);
    }
    crate::sort::sort_by(&mut potential, |a, b| more_important(a, b));
    // Reprieve the PDB-violating victims first, then the others, each group from the most
    // important pod.
    let (violating, non_violating) = filter_pods_with_pdb_violation(&potential, pdbs);
    let (n_violating, n_non_violating) = (violating.len(), non_violating.len());
    let mut num_violating_victim = 0;
    let mut kept: Vec<&'a Pod> = vec![];
    let mut victims = vec![];
    for (i, p) in violating.into_iter().chain(non_violating).enumerate() {
        kept.push(p);
        if let Some(s) = state.spread.as_mut() {
            s.update_with_pod(p, pod, node, 1);
        }
        if let Some(s) = ipa_state.as_mut() {
            s.update_with_pod(p, node, 1);
        }
        if run_filters_ipa(pod, &req, &state, node, &with(&kept), ipa_state.as_ref()).is_some() {
            if let Some(s) = ipa_state.as_mut() {
                s.update_with_pod(p, node, -1);
            }
            kept.pop();
            victims.push(p.clone());
            if i < n_violating {
                num_violating_victim += 1;
            }
            if let Some(s) = state.spread.as_mut() {
                s.update_with_pod(p, pod, node, -1);
            }
        }
    }
    // Keep the victims in order of importance, high to low.
    if n_violating != 0 && n_non_violating != 0 {
        crate::sort::sort_by(&mut victims, more_important);
    }
    Ok((victims, num_violating_victim))
}

/// `DryRunPreemption` (pkg/scheduler/framework/preemption/preemption.go): runs
/// [`select_victims_on_node`] on the `potential` nodes (those whose filter status is
/// Unschedulable, in snapshot order) in circular order from `offset`, and stops once it has a
/// candidate that violates no PDB and `num_candidates` candidates in all. Each of the two lists
/// (violating, non-violating) keeps at most `num_candidates` entries; a node found while its
/// list is full is dropped (so the walk may look past `num_candidates` nodes until a
/// non-violating candidate turns up). Upstream checks the nodes in parallel (16 workers), so
/// which nodes it looks at past the limit varies; this is its order with parallelism 1.
///
/// A node where the pod fits with no victim at all is no candidate: it is reported as the
/// error `expected at least one victim pod on node "<node>"`. That is the 1.35 behaviour;
/// kubernetes#135486 (1.38) makes such nodes candidates with an empty victim list.
///
/// Pure: the same inputs give the same result. Concrete example: 5 potential nodes each with
/// one lower-priority victim, `offset` 4, `num_candidates` 2 → node5 and node1.
pub fn dry_run_preemption(
    pod: &Pod,
    potential: &[(&Node, &NodeInfo)],
    cs: &CycleState,
    ipa: Option<&interpod_affinity::PreFilterState>,
    pdbs: &[(&PodDisruptionBudget, Selector)],
    offset: usize,
    num_candidates: usize,
) -> DryRun {
    let mut non_violating: Vec<Candidate> = vec![];
    let mut violating: Vec<Candidate> = vec![];
    let mut out = DryRun::default();
    let len = potential.len();
    for i in 0..len {
        let Some((node, ni)) = potential.get((offset + i) % len) else {
            continue;
        };
        let name = &node.metadata.name;
        match select_victims_on_node(pod, node, ni, cs, ipa, pdbs) {
            Ok((victims, num_pdb_violations)) if !victims.is_empty() => {
                let list = if num_pdb_violations == 0 {
                    &mut non_violating
                } else {
                    &mut violating
                };
                if list.len() < num_candidates {
                    list.push(Candidate {
                        name: name.clone(),
                        victims,
                        num_pdb_violations,
                    });
                }
                if !non_violating.is_empty()
                    && non_violating.len() + violating.len() >= num_candidates
                {
                    break;
                }
            }
            Ok(_) => out
                .errors
                .push(format!("expected at least one victim pod on node {name:?}")),
            Err(st) => out.node_statuses.push((name.clone(), st)),
        }
    }
    out.candidates = non_violating;
    out.candidates.extend(violating);
    out
}

/// `pickOneNodeForPreemption` with the default score functions: the candidate with the fewest
/// PDB violations, then the lowest highest-victim priority, the lowest sum of victim priorities
/// (each shifted by 2³¹ so that negative priorities still add up), the fewest victims, and the
/// latest start time among the highest-priority victims (`GetEarliestPodStartTime`, the
/// earliest of them, as late as possible). Upstream breaks a remaining tie by map order
/// (random); kubeplay takes the first node by name. `None` for no candidates.
pub fn pick_one_node_for_preemption(candidates: &[Candidate]) -> Option<usize> {
    let key = |c: &Candidate| {
        let v = &c.victims;
        let highest = v.iter().map(pod_priority).max().unwrap_or(i32::MIN);
        let sum: i64 = v
            .iter()
            .map(|p| i64::from(pod_priority(p)) + i64::from(i32::MAX) + 1)
            .sum();
        (
            c.num_pdb_violations,
            highest,
            sum,
            v.len(),
            std::cmp::Reverse(earliest_pod_start_time(v)),
        )
    };
    (0..candidates.len()).min_by(|&a, &b| {
        key(&candidates[a])
            .cmp(&key(&candidates[b]))
            .then_with(|| candidates[a].name.cmp(&candidates[b].name))
    })
}

/// `utilerrors.NewAggregate(errs).Error()`: one message as is, several (duplicates dropped)
/// as `[a, b]`.
fn aggregate_error(errs: &[String]) -> String {
    let mut seen: Vec<&str> = vec![];
    for e in errs {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    match seen.as_slice() {
        [one] => (*one).to_string(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// `PodEligibleToPreemptOthers`: `Err` with the reason when the pod may not preempt —
/// `preemptionPolicy: Never`, or a lower-priority pod on its nominated node is terminating
/// because of an earlier preemption (unless the filters call that node
/// UnschedulableAndUnresolvable).
fn pod_eligible_to_preempt_others(
    pod: &Pod,
    store: &Store,
    statuses: &BTreeMap<String, Status>,
) -> Result<(), String> {
    if pod
        .spec
        .extra
        .get("preemptionPolicy")
        .and_then(|v| v.as_str())
        == Some("Never")
    {
        return Err("not eligible due to preemptionPolicy=Never.".into());
    }
    if let Some(nom) = nominated_node(pod) {
        let nom_unresolvable = statuses
            .get(nom)
            .is_some_and(|s| s.code == Code::UnschedulableAndUnresolvable);
        if !nom_unresolvable
            && store
                .pods_on_node(nom)
                .any(|p| pod_priority(p) < pod_priority(pod) && terminating_by_preemption(p))
        {
            return Err("not eligible due to a terminating pod on the nominated node.".into());
        }
    }
    Ok(())
}

/// DefaultPreemption PostFilter (`Evaluator.Preempt`): [`pod_eligible_to_preempt_others`],
/// the potential nodes (status Unschedulable; `findCandidates`), [`dry_run_preemption`] from
/// the offset `rand` gives ([`get_offset_and_num_candidates`]), and
/// [`pick_one_node_for_preemption`].
#[allow(clippy::too_many_arguments)] // the scheduling cycle's state, plus the offset's source
fn preempt<'a>(
    pod: &Pod,
    store: &Store,
    nodes: &[&Node],
    infos: &[NodeInfo<'a>],
    statuses: &BTreeMap<String, Status>,
    cs: &CycleState,
    ipa: Option<&interpod_affinity::PreFilterState>,
    rand: &mut dyn FnMut(usize) -> usize,
) -> PreemptResult {
    if let Err(msg) = pod_eligible_to_preempt_others(pod, store, statuses) {
        return PreemptResult::NotEligible(msg);
    }
    let potential: Vec<(&Node, &NodeInfo)> = nodes
        .iter()
        .zip(infos.iter())
        .filter(|(n, _)| {
            statuses
                .get(&n.metadata.name)
                .is_some_and(|s| s.code == Code::Unschedulable)
        })
        .map(|(n, ni)| (*n, ni))
        .collect();
    let not_helpful = Status::new(
        Code::UnschedulableAndUnresolvable,
        "DefaultPreemption",
        vec![PREEMPTION_NOT_HELPFUL.into()],
    );
    let dry_run = if potential.is_empty() {
        DryRun::default()
    } else {
        let pdbs = get_pod_disruption_budgets(store);
        let (offset, num_candidates) = get_offset_and_num_candidates(potential.len(), rand);
        dry_run_preemption(pod, &potential, cs, ipa, &pdbs, offset, num_candidates)
    };
    let Some(best) = pick_one_node_for_preemption(&dry_run.candidates) else {
        if !dry_run.errors.is_empty() {
            return PreemptResult::Error(aggregate_error(&dry_run.errors));
        }
        // The FitError over all nodes: those the dry run did not reject are absent from its
        // statuses and count as "Preemption is not helpful for scheduling".
        let mut st: Vec<&Status> = dry_run.node_statuses.iter().map(|(_, s)| s).collect();
        let absent = nodes.len().saturating_sub(st.len());
        st.extend(std::iter::repeat_n(&not_helpful, absent));
        return PreemptResult::NoCandidates(fit_error_message(nodes.len(), &st, ""));
    };
    let mut candidates = dry_run.candidates;
    let c = candidates.swap_remove(best);
    PreemptResult::Candidate(c.name, c.victims)
}

/// `calculateBackoffDuration` with the default durations: 1 s doubling per attempt, capped at
/// 10 s.
pub fn backoff_duration(attempts: u32) -> Duration {
    backoff_duration_with(POD_INITIAL_BACKOFF, POD_MAX_BACKOFF, attempts)
}

/// `backoffQueue.calculateBackoffDuration`: no back-off before the first attempt, then
/// `initial` doubling per attempt, capped at `max` (compared by subtraction, so it never
/// overflows).
pub fn backoff_duration_with(initial: Duration, max: Duration, attempts: u32) -> Duration {
    if attempts == 0 {
        return Duration::ZERO;
    }
    let mut d = initial;
    for _ in 1..attempts {
        if d.0 > max.0 - d.0 {
            return max;
        }
        d = Duration(d.0 * 2);
    }
    d
}

// ---------------------------------------------------------------------------------------------
// The control loop
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Attempt {
    attempts: u32,
    last: Time,
}

/// kube-scheduler with the default profile. Keys are pod keys (`ns/name`).
#[derive(Default)]
pub struct Scheduler {
    /// Pods that failed to schedule: attempt count and when they were last tried.
    unschedulable: BTreeMap<String, Box<Attempt>>,
    /// Per-node aggregates (requests, pod count, allocatable) by node name, kept current by
    /// `watch` (`update_node_cache`); an entry missing or dropped is rebuilt from the store
    /// when next needed.
    node_cache: BTreeMap<String, CachedNode>,
    /// Keys of the unassigned pods with a `nominatedNodeName` (kept by `watch`).
    nominated: BTreeSet<String>,
    /// Keys of the assigned pods with pod affinity or anti-affinity (kept by `watch`): while
    /// there are none and the incoming pod has none, InterPodAffinity neither filters nor
    /// scores and the cached aggregates suffice.
    affinity_pods: BTreeSet<String>,
    /// Keys in `unschedulable` whose pod has pod affinity or anti-affinity (stale keys are
    /// dropped when next looked at): InterPodAffinity's pod-event hint looks only at them.
    affinity_unschedulable: BTreeSet<String>,
    /// Whether `resync_all` ran, so `watch` has kept the fields above current.
    primed: bool,
    /// `nextStartNodeIndex`: where the next pod's search over the nodes starts.
    next_start_node_index: usize,
    /// Keys of the unschedulable pods that PodTopologySpread rejected on some node, retried on
    /// the plugin's pod and node events.
    spread_rejected: BTreeSet<String>,
    /// The pods waiting to be scheduled whose priority is not 0, with that priority (kept by
    /// `watch` once primed): while none of them is ready, the active queue's PrioritySort order
    /// is its FIFO order.
    prioritized: BTreeMap<String, i32>,
}

/// A boxed scheduler for `Simulation::add_loop`.
pub fn new_scheduler() -> Box<dyn Controller> {
    Box::new(Scheduler::default())
}

fn responsible(p: &Pod) -> bool {
    p.spec.node_name.is_empty()
        && p.metadata.deletion_timestamp.is_none()
        && (p.spec.scheduler_name.is_empty() || p.spec.scheduler_name == SCHEDULER_NAME)
        && p.status.phase != "Succeeded"
        && p.status.phase != "Failed"
}

fn scheduling_gated(p: &Pod) -> bool {
    p.spec
        .extra
        .get("schedulingGates")
        .and_then(|v| v.as_array())
        .is_some_and(|a| !a.is_empty())
}

impl Scheduler {
    /// Requeues an unschedulable pod honouring its back-off.
    fn requeue(&self, key: &str, queue: &mut WorkQueue, now: Time) {
        let due = match self.unschedulable.get(key) {
            Some(a) => a.last + backoff_duration(a.attempts),
            None => now,
        };
        queue.add_after(key, due - now, now);
    }

    /// Queueing hint for a node event: unschedulable pods that now pass every filter there.
    fn on_node_event(&self, node: &Node, store: &Store, queue: &mut WorkQueue, now: Time) {
        if node.metadata.deletion_timestamp.is_some() {
            return;
        }
        for key in self.unschedulable.keys() {
            let Some((ns, name)) = key.split_once('/') else {
                continue;
            };
            let Some(p) = store.get::<Pod>(ns, name) else {
                continue;
            };
            let ni = node_infos(p, store, &[node]).pop().unwrap_or_default();
            if run_filters_in(p, store, node, &ni).is_none()
                && self.passes_interpod_affinity(p, node, store)
            {
                self.requeue(key, queue, now);
            }
        }
    }

    /// Whether the pod passes InterPodAffinity on `node` (PreFilter over every node, then the
    /// filter there); true when the plugin has nothing to check.
    fn passes_interpod_affinity(&self, pod: &Pod, node: &Node, store: &Store) -> bool {
        if self.affinity_pods.is_empty() && !interpod_affinity::has_pod_affinity(pod) {
            return true;
        }
        let nodes = schedulable_nodes(store);
        let infos = node_infos(pod, store, &nodes);
        let all: Vec<(&Node, &NodeInfo)> = nodes.iter().copied().zip(infos.iter()).collect();
        if !interpod_affinity::involved(pod, &all) {
            return true;
        }
        let namespaces = interpod_affinity::implicit_namespaces(
            infos
                .iter()
                .flat_map(|ni| ni.pods.iter().copied())
                .chain([pod]),
        );
        match interpod_affinity::pre_filter(pod, &all, &namespaces) {
            interpod_affinity::PreFilter::Skip => true,
            interpod_affinity::PreFilter::Reject(_) => false,
            interpod_affinity::PreFilter::Run(s) => all
                .iter()
                .find(|(n, _)| n.metadata.name == node.metadata.name)
                .is_none_or(|(n, ni)| interpod_affinity::filter_node(&s, n, ni).is_none()),
        }
    }

    /// InterPodAffinity's queueing hint (`isSchedulableAfterPodChange`) for an assigned pod
    /// that was added (`original` None) or updated: unschedulable pods with pod affinity whose
    /// affinity terms the pod now matches, or whose anti-affinity terms it no longer matches.
    fn on_assigned_pod_change(
        &self,
        original: Option<&Pod>,
        modified: &Pod,
        store: &Store,
        queue: &mut WorkQueue,
        now: Time,
    ) {
        for key in &self.affinity_unschedulable {
            let Some((ns, name)) = key.split_once('/') else {
                continue;
            };
            let Some(p) = store.get::<Pod>(ns, name) else {
                continue;
            };
            if interpod_affinity::is_schedulable_after_pod_change(p, original, Some(modified)) {
                self.requeue(key, queue, now);
            }
        }
    }
}

impl Scheduler {
    /// PodTopologySpread's queueing hints (`isSchedulableAfterPodChange`,
    /// `isSchedulableAfterNodeChange`) for the pods it rejected. Pods are seen as the
    /// scheduler's assigned-pod handlers see them: a pod becoming assigned is an add, one
    /// becoming terminal (no longer counted on its node) a delete.
    fn spread_hints(&self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        if self.spread_rejected.is_empty() {
            return;
        }
        fn assigned(o: Option<&Object>) -> Option<&Pod> {
            match o {
                Some(Object::Pod(p)) if !p.spec.node_name.is_empty() && counts_on_node(p) => {
                    Some(p)
                }
                _ => None,
            }
        }
        fn node(o: Option<&Object>) -> Option<&Node> {
            match o {
                Some(Object::Node(n)) => Some(n),
                _ => None,
            }
        }
        let (old_pod, new_pod) = (assigned(change.old_obj()), assigned(change.new_obj()));
        let (old_node, new_node) = (node(change.old_obj()), node(change.new_obj()));
        if old_pod.is_none() && new_pod.is_none() && old_node.is_none() && new_node.is_none() {
            return;
        }
        for key in &self.spread_rejected {
            let Some((ns, name)) = key.split_once('/') else {
                continue;
            };
            let Some(p) = store.get::<Pod>(ns, name) else {
                continue;
            };
            let queue_it = if old_pod.is_some() || new_pod.is_some() {
                pod_topology_spread::is_schedulable_after_pod_change(p, old_pod, new_pod)
            } else {
                pod_topology_spread::is_schedulable_after_node_change(p, old_node, new_node)
            };
            if queue_it {
                self.requeue(key, queue, now);
            }
        }
    }
}

impl Controller for Scheduler {
    fn name(&self) -> &'static str {
        SCHEDULER_NAME
    }

    fn in_controller_manager(&self) -> bool {
        false
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (_, Some(Object::Pod(p))) if responsible(p) && pod_priority(p) != 0 => {
                self.prioritized.insert(p.metadata.key(), pod_priority(p));
            }
            (_, Some(Object::Pod(p))) | (Some(Object::Pod(p)), None)
                if !self.prioritized.is_empty() =>
            {
                self.prioritized.remove(&p.metadata.key());
            }
            _ => {}
        }
        match (change.old_obj(), change.new_obj()) {
            (_, Some(Object::Pod(p)))
                if p.spec.node_name.is_empty() && nominated_node(p).is_some() =>
            {
                self.nominated.insert(p.metadata.key());
            }
            (_, Some(Object::Pod(p))) | (Some(Object::Pod(p)), None)
                if !self.nominated.is_empty() =>
            {
                self.nominated.remove(&p.metadata.key());
            }
            _ => {}
        }
        self.spread_hints(change, store, queue, now);
        match (change.old_obj(), change.new_obj()) {
            (_, Some(Object::Pod(p)))
                if !p.spec.node_name.is_empty() && interpod_affinity::has_pod_affinity(p) =>
            {
                self.affinity_pods.insert(p.metadata.key());
            }
            (_, Some(Object::Pod(p))) | (Some(Object::Pod(p)), None)
                if !self.affinity_pods.is_empty() =>
            {
                self.affinity_pods.remove(&p.metadata.key());
            }
            _ => {}
        }
        update_node_cache(&mut self.node_cache, change);
        match (change.old_obj(), change.new_obj()) {
            (_, Some(Object::Node(n))) => self.on_node_event(n, store, queue, now),
            (old, Some(Object::Pod(p))) => {
                if responsible(p) {
                    let spec_changed = match old {
                        Some(Object::Pod(o)) => {
                            (!std::sync::Arc::ptr_eq(&o.spec, &p.spec) && o.spec != p.spec)
                                || o.metadata.labels != p.metadata.labels
                        }
                        _ => true,
                    };
                    if spec_changed {
                        let key = p.metadata.key();
                        if self.unschedulable.contains_key(&key) {
                            self.requeue(&key, queue, now);
                        } else {
                            queue.add(&key);
                        }
                    }
                } else {
                    // InterPodAffinity's hint: an assigned pod was added or relabelled.
                    let added_or_relabelled = !p.spec.node_name.is_empty()
                        && match old {
                            Some(Object::Pod(o)) => {
                                o.spec.node_name.is_empty()
                                    || o.metadata.labels != p.metadata.labels
                            }
                            _ => true,
                        };
                    if added_or_relabelled && !self.affinity_unschedulable.is_empty() {
                        let unschedulable = &self.unschedulable;
                        self.affinity_unschedulable
                            .retain(|k| unschedulable.contains_key(k));
                        let original = match old {
                            Some(Object::Pod(o)) if !o.spec.node_name.is_empty() => Some(o),
                            _ => None,
                        };
                        self.on_assigned_pod_change(original, p, store, queue, now);
                    }
                    // An assigned pod that became terminal frees its node.
                    let freed = matches!(old, Some(Object::Pod(o)) if counts_on_node(o))
                        && !counts_on_node(p)
                        && !p.spec.node_name.is_empty();
                    if freed {
                        if let Some(n) = store.get::<Node>("", &p.spec.node_name) {
                            self.on_node_event(n, store, queue, now);
                        }
                    }
                }
            }
            (Some(Object::Pod(p)), None) => {
                if !p.spec.node_name.is_empty() {
                    // Fit's hint: a deleted assigned pod may make room.
                    if let Some(n) = store.get::<Node>("", &p.spec.node_name) {
                        self.on_node_event(n, store, queue, now);
                    }
                } else {
                    queue.add(&p.metadata.key());
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(pod) = ctx.store().get_shared::<Pod>(ns, name) else {
            self.unschedulable.remove(key);
            self.spread_rejected.remove(key);
            return Ok(());
        };
        if !responsible(&pod) {
            self.unschedulable.remove(key);
            self.spread_rejected.remove(key);
            return Ok(());
        }
        let now = ctx.now();
        if scheduling_gated(&pod) {
            // PreEnqueue (SchedulingGates): the pod never enters the active queue.
            let msg = "Scheduling is blocked due to non-empty scheduling gates";
            let c = pod.condition("PodScheduled");
            if c.is_none_or(|c| c.reason != "SchedulingGated") {
                let mut p = Pod::clone(&pod);
                p.set_condition("PodScheduled", "False", "SchedulingGated", msg, now);
                ctx.update_status(p.into_object())?;
            }
            return Ok(());
        }
        let start = self.next_start_node_index;
        // Cache entries built now must not see a change that `watch` has yet to apply (it
        // would count twice): with changes pending, this sync's entries are not kept.
        let pending = ctx.store().has_pending_changes();
        #[cfg(test)]
        if cache_tests::VERIFY_NODE_CACHE.with(|v| v.get()) {
            cache_tests::verify_node_cache(&self.node_cache, ctx.store());
        }
        // The preemption dry run's random offset (`GetOffsetAndNumCandidates`' `rand.Int31n`)
        // comes from the simulation's seeded random source, drawn only when there are
        // potential nodes (as upstream), so a scenario and seed replay the same.
        let api = &mut *ctx.api;
        let (store, rng) = (&api.store, &mut api.rng);
        let mut rand = |n: usize| usize::try_from(rng.below(n as u64)).unwrap_or(0);
        let (outcome, processed, all_nodes, clear_nominated) = if self.primed {
            // Nominated pods count on their nodes, and InterPodAffinity looks at the pods: the
            // exact (uncached) path handles them.
            let exact = self.nominated.iter().any(|k| k != key)
                || !self.affinity_pods.is_empty()
                || interpod_affinity::has_pod_affinity(&pod);
            let r = schedule_pod_cached_counted(
                &pod,
                store,
                &mut self.node_cache,
                exact,
                start,
                &mut rand,
            );
            if pending {
                self.node_cache.clear();
            }
            r
        } else {
            let (outcome, processed, clear) = schedule_pod_with(&pod, store, start, &mut rand);
            (outcome, processed, schedulable_nodes(store).len(), clear)
        };
        // Updated whatever the outcome, so that every node gets its turn.
        if all_nodes > 0 {
            self.next_start_node_index = (start + processed) % all_nodes;
        }
        match outcome {
            Outcome::Bind(node) => {
                ctx.bind(ns, name, &pod.metadata.uid, &node)?;
                self.unschedulable.remove(key);
                self.spread_rejected.remove(key);
                let bound = ctx
                    .store()
                    .get_shared::<Pod>(ns, name)
                    .unwrap_or(pod.clone());
                ctx.event(
                    &*bound,
                    "Normal",
                    "Scheduled",
                    &format!("Successfully assigned {ns}/{name} to {node}"),
                );
            }
            Outcome::Unschedulable {
                message,
                preempt,
                plugins,
            } => {
                if plugins.contains(pod_topology_spread::NAME) {
                    self.spread_rejected.insert(key.to_string());
                } else {
                    self.spread_rejected.remove(key);
                }
                let a = self
                    .unschedulable
                    .entry(key.to_string())
                    .or_insert_with(|| {
                        Box::new(Attempt {
                            attempts: 0,
                            last: now,
                        })
                    });
                a.attempts += 1;
                a.last = now;
                if interpod_affinity::has_pod_affinity(&pod) {
                    self.affinity_unschedulable.insert(key.to_string());
                }
                let mut p = Pod::clone(&pod);
                if let Some((node, victims)) = &preempt {
                    // prepareCandidateAsync (SchedulerAsyncPreemption, on by default since
                    // 1.33): victims already being deleted are skipped, and with none left
                    // nothing is done; else the lower-priority pods nominated to the node are
                    // cleared first, then the victims preempted in order.
                    if victims
                        .iter()
                        .any(|v| v.metadata.deletion_timestamp.is_none())
                    {
                        clear_lower_priority_nominated(ctx, &pod, node);
                        for v in victims {
                            prepare_victim(ctx, v, &pod, node)?;
                        }
                    }
                    p.status
                        .extra
                        .insert("nominatedNodeName".into(), node.clone().into());
                } else if clear_nominated {
                    // The PostFilter found no candidate: `NominatingInfo{"", ModeOverride}`.
                    p.status.extra.remove("nominatedNodeName");
                }
                let generation = p.metadata.generation;
                p.set_condition_observed(
                    "PodScheduled",
                    "False",
                    "Unschedulable",
                    &message,
                    now,
                    generation,
                );
                if p.status != pod.status {
                    ctx.update_status(p.into_object())?;
                }
                ctx.event(&*pod, "Warning", "FailedScheduling", &message);
                // flushUnschedulablePodsLeftover.
                ctx.requeue_after(key, POD_MAX_IN_UNSCHEDULABLE);
            }
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.node_cache.clear();
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        self.node_cache.clear();
        self.nominated = store
            .pods_on_node("")
            .filter(|p| nominated_node(p).is_some())
            .map(|p| p.metadata.key())
            .collect();
        self.affinity_pods = store
            .list::<Pod>(None)
            .filter(|p| !p.spec.node_name.is_empty() && interpod_affinity::has_pod_affinity(p))
            .map(|p| p.metadata.key())
            .collect();
        self.prioritized = store
            .pods_on_node("")
            .filter(|p| responsible(p) && pod_priority(p) != 0)
            .map(|p| (p.metadata.key(), pod_priority(p)))
            .collect_btree_map();
        self.primed = true;
        for p in store.list::<Pod>(None) {
            if responsible(p) {
                queue.add_owned(p.metadata.key());
            }
        }
    }

    /// The active queue's `PrioritySort`: the ready pod with the highest priority, the earliest
    /// queued among equals (upstream's timestamp order).
    fn next_key(&mut self, queue: &mut WorkQueue, store: &Store) -> Option<String> {
        if self.primed {
            // The highest priority among the ready pods that have one; the others count 0.
            let best = self
                .prioritized
                .iter()
                .filter(|(k, _)| queue.is_ready(k))
                .map(|(_, p)| *p)
                .max();
            let prioritized = &self.prioritized;
            let i = match best {
                None => return queue.pop(),
                Some(b) if b > 0 => queue
                    .ready_keys()
                    .position(|k| prioritized.get(k) == Some(&b)),
                // Only negative priorities among them: the first pod of priority 0, else the
                // earliest of the highest negative priority.
                Some(b) => queue
                    .ready_keys()
                    .position(|k| !prioritized.contains_key(k))
                    .or_else(|| {
                        queue
                            .ready_keys()
                            .position(|k| prioritized.get(k) == Some(&b))
                    }),
            };
            return queue.pop_at(i?);
        }
        let mut best: Option<(usize, i32)> = None;
        for (i, key) in queue.ready_keys().enumerate() {
            let (ns, name) = key.split_once('/').unwrap_or(("", key));
            let prio = store.get::<Pod>(ns, name).map_or(0, pod_priority);
            if best.is_none_or(|(_, b)| prio > b) {
                best = Some((i, prio));
            }
        }
        queue.pop_at(best?.0)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `prepareCandidate`'s last step: the pods nominated to `node` with a lower priority than the
/// preemptor may no longer fit there, so their `nominatedNodeName` is cleared
/// (`getLowerPriorityNominatedPods`, `clearNominatedNodeName`). Failures are not critical:
/// upstream logs them and goes on.
fn clear_lower_priority_nominated(ctx: &mut Ctx, preemptor: &Pod, node: &str) {
    let prio = pod_priority(preemptor);
    let lower: Vec<Pod> = ctx
        .store()
        .pods_on_node("")
        .filter(|p| {
            p.spec.node_name.is_empty()
                && p.metadata.uid != preemptor.metadata.uid
                && nominated_node(p) == Some(node)
                && pod_priority(p) < prio
        })
        .cloned()
        .collect();
    for mut p in lower {
        p.status.extra.remove("nominatedNodeName");
        if ctx.update_status(p.into_object()).is_err() {
            // Not critical (upstream: "Cannot clear 'NominatedNodeName' field").
        }
    }
}

/// `prepareCandidate` for one victim: DisruptionTarget condition, delete, `Preempted` event;
/// nothing for a victim already being deleted.
fn prepare_victim(
    ctx: &mut Ctx,
    victim: &Pod,
    preemptor: &Pod,
    node: &str,
) -> Result<(), ApiError> {
    // Graceful deletion has already started: no condition patch, delete call or event
    // (kubernetes#134927, 1.35).
    if victim.metadata.deletion_timestamp.is_some() {
        return Ok(());
    }
    let now = ctx.now();
    let mut v = victim.clone();
    let generation = v.metadata.generation;
    v.set_condition_observed(
        "DisruptionTarget",
        "True",
        "PreemptionByScheduler",
        &format!(
            "{}: preempting to accommodate a higher priority pod",
            if preemptor.spec.scheduler_name.is_empty() {
                SCHEDULER_NAME
            } else {
                &preemptor.spec.scheduler_name
            }
        ),
        now,
        generation,
    );
    let v = match ctx.update_status(v.into_object()) {
        Ok(o) => o,
        Err(e) if e.is_not_found() => return Ok(()),
        Err(e) => return Err(e),
    };
    match ctx.delete::<Pod>(
        &victim.metadata.namespace,
        &victim.metadata.name,
        &DeleteOptions::default(),
    ) {
        Ok(_) => {}
        Err(e) if e.is_not_found() => return Ok(()),
        Err(e) => return Err(e),
    }
    ctx.event(
        &*v,
        "Normal",
        "Preempted",
        &format!("Preempted by pod {} on node {node}", preemptor.metadata.uid),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Affinity, NodeAffinity, Quantity, ResourceRequirements};
    use crate::test_fixtures::{taint, tol};

    fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn term(
        exprs: Vec<NodeSelectorRequirement>,
        fields: Vec<NodeSelectorRequirement>,
    ) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_expressions: exprs,
            match_fields: fields,
        }
    }

    fn pod_with(selector: &[(&str, &str)], terms: Option<Vec<NodeSelectorTerm>>) -> Pod {
        let mut p = Pod::default();
        p.spec_mut().node_selector = selector
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if let Some(t) = terms {
            p.spec_mut().affinity = Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                        node_selector_terms: t,
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            });
        }
        p
    }

    fn node_with(name: &str, labels: &[(&str, &str)]) -> Node {
        let mut n = Node::default();
        n.metadata.name = name.into();
        n.metadata.labels = labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        n
    }

    // Port of TestNodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go).
    #[test]
    fn node_affinity_filter() {
        let fields = |v: &str| req("metadata.name", "In", &[v]);
        type Case<'a> = (&'a str, Pod, Vec<(&'a str, &'a str)>, &'a str, bool);
        let cases: Vec<Case> = vec![
            (
                "missing labels",
                pod_with(&[("foo", "bar")], None),
                vec![],
                "n",
                false,
            ),
            (
                "same labels",
                pod_with(&[("foo", "bar")], None),
                vec![("foo", "bar")],
                "n",
                true,
            ),
            (
                "node labels are superset",
                pod_with(&[("foo", "bar")], None),
                vec![("foo", "bar"), ("baz", "blah")],
                "n",
                true,
            ),
            (
                "node labels are subset",
                pod_with(&[("foo", "bar"), ("baz", "blah")], None),
                vec![("foo", "bar")],
                "n",
                false,
            ),
            (
                "In operator that matches",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![req("foo", "In", &["bar", "value2"])],
                        vec![],
                    )]),
                ),
                vec![("foo", "bar")],
                "n",
                true,
            ),
            (
                "Gt operator that matches",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![req("kernel-version", "Gt", &["0204"])],
                        vec![],
                    )]),
                ),
                vec![("kernel-version", "0206")],
                "n",
                true,
            ),
            (
                "NotIn operator that matches",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![req("mem-type", "NotIn", &["DDR", "DDR2"])],
                        vec![],
                    )]),
                ),
                vec![("mem-type", "DDR3")],
                "n",
                true,
            ),
            (
                "Exists operator that matches",
                pod_with(
                    &[],
                    Some(vec![term(vec![req("GPU", "Exists", &[])], vec![])]),
                ),
                vec![("GPU", "NVIDIA-GRID-K1")],
                "n",
                true,
            ),
            (
                "affinity that doesn't match node's labels",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![req("foo", "In", &["value1", "value2"])],
                        vec![],
                    )]),
                ),
                vec![("foo", "bar")],
                "n",
                false,
            ),
            (
                "empty MatchExpressions matches no objects",
                pod_with(&[], Some(vec![term(vec![], vec![])])),
                vec![("foo", "bar")],
                "n",
                false,
            ),
            (
                "no Affinity",
                pod_with(&[], None),
                vec![("foo", "bar")],
                "n",
                true,
            ),
            (
                "multiple matchExpressions ANDed that match",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![
                            req("GPU", "Exists", &[]),
                            req("GPU", "NotIn", &["AMD", "INTER"]),
                        ],
                        vec![],
                    )]),
                ),
                vec![("GPU", "NVIDIA-GRID-K1")],
                "n",
                true,
            ),
            (
                "multiple matchExpressions ANDed that don't match",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![
                            req("GPU", "Exists", &[]),
                            req("GPU", "In", &["AMD", "INTER"]),
                        ],
                        vec![],
                    )]),
                ),
                vec![("GPU", "NVIDIA-GRID-K1")],
                "n",
                false,
            ),
            (
                "multiple NodeSelectorTerms ORed",
                pod_with(
                    &[],
                    Some(vec![
                        term(vec![req("foo", "In", &["bar", "value2"])], vec![]),
                        term(vec![req("diffkey", "In", &["wrong", "value2"])], vec![]),
                    ]),
                ),
                vec![("foo", "bar")],
                "n",
                true,
            ),
            (
                "affinity and nodeSelector both satisfied",
                pod_with(
                    &[("foo", "bar")],
                    Some(vec![term(vec![req("foo", "Exists", &[])], vec![])]),
                ),
                vec![("foo", "bar")],
                "n",
                true,
            ),
            (
                "affinity matches but nodeSelector is not satisfied",
                pod_with(
                    &[("foo", "bar")],
                    Some(vec![term(vec![req("foo", "Exists", &[])], vec![])]),
                ),
                vec![("foo", "barrrrrr")],
                "n",
                false,
            ),
            (
                "invalid value in Affinity term",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![req("foo", "NotIn", &["invalid value: ___@#$%^"])],
                        vec![],
                    )]),
                ),
                vec![("foo", "bar")],
                "n",
                false,
            ),
            (
                "matchFields In that matches",
                pod_with(&[], Some(vec![term(vec![], vec![fields("node1")])])),
                vec![],
                "node1",
                true,
            ),
            (
                "matchFields In that does not match",
                pod_with(&[], Some(vec![term(vec![], vec![fields("node1")])])),
                vec![],
                "node2",
                false,
            ),
            (
                "two terms: matchFields does not match, but matchExpressions matches",
                pod_with(
                    &[],
                    Some(vec![
                        term(vec![], vec![fields("node1"), fields("node2")]),
                        term(vec![req("foo", "In", &["bar"])], vec![]),
                    ]),
                ),
                vec![("foo", "bar")],
                "node2",
                true,
            ),
            (
                "one term: matchFields does not match, but matchExpressions matches",
                pod_with(
                    &[],
                    Some(vec![term(
                        vec![req("foo", "In", &["bar"])],
                        vec![fields("node1")],
                    )]),
                ),
                vec![("foo", "bar")],
                "node2",
                false,
            ),
        ];
        for (name, pod, labels, node_name, fits) in cases {
            let node = node_with(node_name, &labels);
            let st = filter_node_affinity(&pod, &node);
            assert_eq!(st.is_none(), fits, "{name}");
            if let Some(st) = st {
                assert_eq!(st.code, Code::UnschedulableAndUnresolvable, "{name}");
                assert_eq!(
                    st.reasons,
                    vec![ERR_REASON_NODE_AFFINITY.to_string()],
                    "{name}"
                );
            }
        }
    }

    // Port of TestTaintTolerationFilter (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go).
    #[test]
    fn taint_toleration_filter() {
        let cases: Vec<(&str, Vec<Toleration>, Vec<Taint>, bool)> = vec![
            (
                "A pod having no tolerations can't be scheduled onto a node with nonempty taints",
                vec![],
                vec![taint("dedicated", "user1", "NoSchedule")],
                false,
            ),
            (
                "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
                vec![tol("dedicated", "Equal", "user1", "NoSchedule")],
                vec![taint("dedicated", "user1", "NoSchedule")],
                true,
            ),
            (
                "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
                vec![tol("dedicated", "Equal", "user2", "NoSchedule")],
                vec![taint("dedicated", "user1", "NoSchedule")],
                false,
            ),
            (
                "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node",
                vec![tol("foo", "Exists", "", "NoSchedule")],
                vec![taint("foo", "bar", "NoSchedule")],
                true,
            ),
            (
                "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated",
                vec![
                    tol("dedicated", "Equal", "user2", "NoSchedule"),
                    tol("foo", "Exists", "", "NoSchedule"),
                ],
                vec![
                    taint("dedicated", "user2", "NoSchedule"),
                    taint("foo", "bar", "NoSchedule"),
                ],
                true,
            ),
            (
                "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match",
                vec![tol("foo", "Equal", "bar", "PreferNoSchedule")],
                vec![taint("foo", "bar", "NoSchedule")],
                false,
            ),
            (
                "The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty",
                vec![tol("foo", "Equal", "bar", "")],
                vec![taint("foo", "bar", "NoSchedule")],
                true,
            ),
            (
                "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule",
                vec![tol("dedicated", "Equal", "user2", "NoSchedule")],
                vec![taint("dedicated", "user1", "PreferNoSchedule")],
                true,
            ),
            (
                "The pod has no toleration, but the effect of taint on node is PreferNoSchedule",
                vec![],
                vec![taint("dedicated", "user1", "PreferNoSchedule")],
                true,
            ),
        ];
        for (name, tols, taints, fits) in cases {
            let mut pod = Pod::default();
            pod.spec_mut().tolerations = tols;
            let mut node = Node::default();
            node.spec.taints = taints;
            let st = filter_taint_toleration(&pod, &node);
            assert_eq!(st.is_none(), fits, "{name}");
            if let Some(st) = st {
                assert_eq!(st.reasons, vec![ERR_REASON_UNTOLERATED_TAINT.to_string()]);
                assert_eq!(st.code, Code::UnschedulableAndUnresolvable);
            }
        }
    }

    // Port of TestNodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go).
    #[test]
    fn node_unschedulable_filter() {
        let mut node = Node::default();
        let pod = Pod::default();
        assert!(filter_node_unschedulable(&pod, &node).is_none());
        node.spec.unschedulable = true;
        let st = filter_node_unschedulable(&pod, &node).unwrap();
        assert_eq!(st.reasons, vec![ERR_REASON_UNSCHEDULABLE.to_string()]);
        let mut tolerant = Pod::default();
        tolerant.spec_mut().tolerations =
            vec![tol(TAINT_NODE_UNSCHEDULABLE, "Exists", "", "NoSchedule")];
        assert!(filter_node_unschedulable(&tolerant, &node).is_none());
    }

    fn with_requests(cpu: &str, mem: &str) -> Pod {
        let mut p = Pod::default();
        let mut r = ResourceRequirements::default();
        if !cpu.is_empty() {
            r.requests.insert("cpu".into(), Quantity(cpu.into()));
        }
        if !mem.is_empty() {
            r.requests.insert("memory".into(), Quantity(mem.into()));
        }
        p.spec_mut().containers.push(crate::api::Container {
            name: "c".into(),
            resources: Some(r),
            ..Default::default()
        });
        p
    }

    fn node_alloc(cpu: &str, mem: &str, pods: &str) -> Node {
        let mut n = Node::default();
        for (k, v) in [("cpu", cpu), ("memory", mem), ("pods", pods)] {
            n.status.allocatable.insert(k.into(), Quantity(v.into()));
        }
        n
    }

    // TestEnoughRequests-style rows (pkg/scheduler/framework/plugins/noderesources/fit_test.go):
    // all insufficient resources are reported, pods first, and a request larger than the
    // whole node is unresolvable.
    #[test]
    fn resources_fit() {
        let node = node_alloc("10", "20", "32");
        let mut ni = NodeInfo::new(&node);
        let big = with_requests("5", "19");
        ni.add_pod(&big);
        assert!(filter_node_resources_fit(&with_requests("5", "1"), &ni).is_none());
        let st = filter_node_resources_fit(&with_requests("6", "2"), &ni).unwrap();
        assert_eq!(st.reasons, vec!["Insufficient cpu", "Insufficient memory"]);
        assert_eq!(st.code, Code::Unschedulable);
        let st = filter_node_resources_fit(&with_requests("11", ""), &ni).unwrap();
        assert_eq!(st.code, Code::UnschedulableAndUnresolvable);
        let tiny = node_alloc("10", "20", "1");
        let mut ni = NodeInfo::new(&tiny);
        let empty = Pod::default();
        ni.add_pod(&empty);
        let st = filter_node_resources_fit(&with_requests("1", ""), &ni).unwrap();
        assert_eq!(st.reasons, vec!["Too many pods"]);
        assert_eq!(st.code, Code::Unschedulable);
        // Non-zero defaults for scoring only.
        assert_eq!(pod_requests(&Pod::default(), false), Resources::default());
        let nz = pod_requests(&with_requests("", ""), true);
        assert_eq!((nz.milli_cpu, nz.memory), (100, 200 * 1024 * 1024));
    }

    // PodRequests with pod-level resources (component-helpers `PodRequests`): a supported
    // pod-level request replaces the containers' aggregate; other resources keep it; an
    // unsupported pod-level name is ignored.
    #[test]
    fn pod_level_requests_replace_the_container_aggregate() {
        let mut p = with_requests("100m", "1Gi");
        p.spec_mut().resources = Some(crate::api::ResourceRequirements {
            requests: [
                ("cpu".to_string(), crate::api::Quantity("2".into())),
                (
                    "example.com/gpu".to_string(),
                    crate::api::Quantity("1".into()),
                ),
            ]
            .into_iter()
            .collect(),
            ..Default::default()
        });
        let r = pod_requests(&p, false);
        assert_eq!((r.milli_cpu, r.memory), (2000, 1024 * 1024 * 1024));
        assert!(r.scalar.is_empty(), "{:?}", r.scalar);
        let st = filter_node_resources_fit(&p, &NodeInfo::new(&node_alloc("1", "2Gi", "10")));
        assert_eq!(st.unwrap().reasons, vec!["Insufficient cpu"]);
    }

    // FitError.Error() format (pkg/scheduler/framework/types_test.go TestFitError-style): the
    // histogram is sorted as strings, post-filter message appended after a space.
    #[test]
    fn fit_error_format() {
        let s = |r: &str| Status::new(Code::Unschedulable, "X", vec![r.into()]);
        let a = s("Insufficient cpu");
        let b = s("node(s) had untolerated taint(s)");
        let mut list = vec![&b];
        for _ in 0..10 {
            list.push(&a);
        }
        assert_eq!(
            fit_error_message(11, &list, "preemption: x."),
            "0/11 nodes are available: 1 node(s) had untolerated taint(s), 10 Insufficient cpu. preemption: x."
        );
        assert_eq!(reasons_histogram(["b", "a", "b"]), "1 a, 2 b");
        assert_eq!(
            reasons_histogram(["z"; 10].into_iter().chain(["a"; 2])),
            "10 z, 2 a"
        );
    }

    // Port of TestDefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/normalize_score_test.go).
    #[test]
    fn normalize_scores() {
        let cases: Vec<(bool, Vec<i64>, Vec<i64>)> = vec![
            (false, vec![10, 20, 30, 40, 50], vec![20, 40, 60, 80, 100]),
            (true, vec![10, 20, 30, 40, 50], vec![80, 60, 40, 20, 0]),
            (
                false,
                vec![1000, 10, 20, 30, 40, 50],
                vec![100, 1, 2, 3, 4, 5],
            ),
            (
                true,
                vec![1000, 10, 20, 30, 40, 50],
                vec![0, 99, 98, 97, 96, 95],
            ),
            (false, vec![1, 1, 1, 1], vec![100, 100, 100, 100]),
            (true, vec![1, 1, 1, 1], vec![0, 0, 0, 0]),
            (false, vec![0, 0, 0, 0], vec![0, 0, 0, 0]),
            (true, vec![0, 0, 0, 0], vec![100, 100, 100, 100]),
        ];
        for (reverse, mut scores, want) in cases {
            default_normalize_score(MAX_NODE_SCORE, reverse, &mut scores);
            assert_eq!(scores, want, "reverse={reverse}");
        }
    }

    #[test]
    fn least_allocated_and_balanced() {
        // Port of a TestLeastAllocatedScoringStrategy row: node 4000m / 10000 bytes, pod
        // requesting 3000m / 5000: ((4000-3000)*100/4000 + (10000-5000)*100/10000) / 2 = 37.
        let node = node_alloc("4", "10000", "110");
        let ni = NodeInfo::new(&node);
        assert_eq!(least_allocated_score(&with_requests("3", "5000"), &ni), 37);
        // Balanced: |0.75 - 0.5| / 2 = 0.125 → 87.
        assert_eq!(
            balanced_allocation_score(&with_requests("3", "5000"), &ni),
            Some(87)
        );
        assert_eq!(balanced_allocation_score(&Pod::default(), &ni), None);
        assert_eq!(least_requested_score(5, 4), 0);
    }

    #[test]
    fn scheduling_queue_backoff() {
        let secs: Vec<i64> = (1..=6)
            .map(|a| backoff_duration(a).as_millis() / 1000)
            .collect();
        assert_eq!(secs, vec![1, 2, 4, 8, 10, 10]);
    }

    #[test]
    fn label_values() {
        assert!(is_valid_label_value("bar"));
        assert!(is_valid_label_value(""));
        assert!(is_valid_label_value("a-b_c.d"));
        assert!(!is_valid_label_value("invalid value: ___@#$%^"));
        assert!(!is_valid_label_value("-a"));
        assert!(!is_valid_label_value(&"a".repeat(64)));
    }

    // Port of TestNumFeasibleNodesToFind (pkg/scheduler/schedule_one_test.go).
    #[test]
    fn num_feasible_nodes_to_find_table() {
        // (name, percentageOfNodesToScore (0 = not set), numAllNodes, wantNumNodes)
        let cases = [
            (
                "not set percentageOfNodesToScore and nodes number not more than 50",
                0,
                10,
                10,
            ),
            (
                "set percentageOfNodesToScore and nodes number not more than 50",
                40,
                10,
                10,
            ),
            (
                "not set percentageOfNodesToScore and nodes number more than 50",
                0,
                1000,
                420,
            ),
            (
                "set percentageOfNodesToScore and nodes number more than 50",
                40,
                1000,
                400,
            ),
            (
                "not set percentageOfNodesToScore and nodes number more than 50*125",
                0,
                6000,
                300,
            ),
            (
                "set percentageOfNodesToScore and nodes number more than 50*125",
                40,
                6000,
                2400,
            ),
        ];
        for (name, pct, all, want) in cases {
            assert_eq!(num_feasible_nodes_to_find(pct, all), want, "{name}");
        }
        // Edges: 99 nodes are searched whole; 100 nodes at 5 % still look for 100.
        assert_eq!(num_feasible_nodes_to_find(0, 99), 99);
        assert_eq!(num_feasible_nodes_to_find(5, 100), 100);
        assert_eq!(num_feasible_nodes_to_find(0, 100_000), 5000);
    }

    /// A store with `n` ready nodes (room for 110 pods each), named `node-000`….
    fn store_with_nodes(n: usize) -> Store {
        let mut store = Store::new();
        for i in 0..n {
            let mut node = node_with(&format!("node-{i:03}"), &[]);
            node.status.allocatable = [
                ("cpu".to_string(), Quantity("4".into())),
                ("memory".to_string(), Quantity("8Gi".into())),
                ("pods".to_string(), Quantity("110".into())),
            ]
            .into_iter()
            .collect();
            store.put(Object::Node(node));
        }
        store
    }

    // Port of TestFairEvaluationForNodes (pkg/scheduler/schedule_one_test.go): with 500 nodes
    // (the default adaptive percentage, 50 - 500/125 = 46 %, so 230 nodes to find) every
    // attempt examines 230 nodes and the next one starts where it stopped, wrapping around.
    #[test]
    fn fair_evaluation_for_nodes() {
        let num_all_nodes = 500;
        let store = store_with_nodes(num_all_nodes);
        let to_find = num_feasible_nodes_to_find(0, num_all_nodes as i32) as usize;
        assert_eq!(to_find, 230);
        let mut pod = Pod::default();
        pod.metadata.name = "p".into();
        pod.metadata.namespace = "default".into();
        let mut start = 0;
        for i in 0..2 * (num_all_nodes / to_find + 1) {
            let (outcome, processed) = schedule_pod_from(&pod, &store, start);
            assert_eq!(processed, to_find, "attempt {i}");
            // The chosen node is one of those examined (all score alike: the first one).
            match outcome {
                Outcome::Bind(node) => assert_eq!(node, format!("node-{start:03}"), "attempt {i}"),
                other => panic!("attempt {i}: {other:?}"),
            }
            start = (start + processed) % num_all_nodes;
            assert_eq!(start, (i + 1) * to_find % num_all_nodes, "attempt {i}");
        }
        // Under 100 nodes every node is examined and the start never moves.
        let small = store_with_nodes(40);
        assert_eq!(schedule_pod_from(&pod, &small, 0).1, 40);
    }

    // Port of TestMatchNodeSelectorTerms
    // (staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go; the older
    // pkg/apis/core/v1/helper/helpers_test.go table has the same rows with label/field sets).
    // Rows: (name, terms, node name, node labels, want). Upstream's "nil terms" row also has a
    // nil node; here it is an empty selector against an empty node.
    #[test]
    fn test_match_node_selector_terms() {
        let label_in = || req("label_1", "In", &["label_1_val"]);
        let name_in = || req("metadata.name", "In", &["host_1"]);
        type Row = (
            &'static str,
            Vec<NodeSelectorTerm>,
            &'static str,
            Vec<(&'static str, &'static str)>,
            bool,
        );
        let rows: Vec<Row> = vec![
            ("nil terms", vec![], "", vec![], false),
            (
                "node label matches matchExpressions terms",
                vec![term(vec![label_in()], vec![])],
                "",
                vec![("label_1", "label_1_val")],
                true,
            ),
            (
                "node field matches matchFields terms",
                vec![term(vec![], vec![name_in()])],
                "host_1",
                vec![],
                true,
            ),
            (
                "invalid node field requirement",
                vec![term(
                    vec![],
                    vec![req("metadata.name", "In", &["host_1", "host_2"])],
                )],
                "host_1",
                vec![],
                false,
            ),
            (
                "fieldSelectorTerm with node labels",
                vec![term(vec![], vec![name_in()])],
                "not_host_1",
                vec![("metadata.name", "host_1")],
                false,
            ),
            (
                "labelSelectorTerm with node fields",
                vec![term(vec![req("metadata.name", "In", &["host_1"])], vec![])],
                "host_1",
                vec![],
                false,
            ),
            (
                "labelSelectorTerm and fieldSelectorTerm was set, but only node fields",
                vec![term(vec![label_in()], vec![name_in()])],
                "host_1",
                vec![],
                false,
            ),
            (
                "labelSelectorTerm and fieldSelectorTerm was set, both node fields and labels (both matched)",
                vec![term(vec![label_in()], vec![name_in()])],
                "host_1",
                vec![("label_1", "label_1_val")],
                true,
            ),
            (
                "labelSelectorTerm and fieldSelectorTerm was set, both node fields and labels (one mismatched)",
                vec![term(vec![label_in()], vec![name_in()])],
                "host_1",
                vec![("label_1", "label_1_val-failed")],
                false,
            ),
            (
                "multi-selector was set, both node fields and labels (one mismatched)",
                vec![
                    term(vec![label_in()], vec![]),
                    term(vec![], vec![name_in()]),
                ],
                "host_1",
                vec![("label_1", "label_1_val-failed")],
                true,
            ),
        ];
        for (name, terms, node_name, labels, want) in rows {
            let mut node = Node::default();
            node.metadata.name = node_name.into();
            for (k, v) in labels {
                node.metadata.labels.insert(k.into(), v.into());
            }
            let sel = NodeSelector {
                node_selector_terms: terms,
            };
            let before = sel.clone();
            assert_eq!(node_selector_matches(&sel, &node), want, "{name}");
            // TestMatchNodeSelectorTermsStateless: matching leaves the selector untouched
            // (trivially so here, as it is borrowed immutably).
            assert_eq!(sel, before, "{name}");
        }
    }

    // Port of TestPodPriority (staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go).
    #[test]
    fn test_pod_priority() {
        let mut pod = Pod::default();
        assert_eq!(
            pod_priority(&pod),
            0,
            "no priority resolves to static default 0"
        );
        pod.spec_mut().priority = Some(20);
        assert_eq!(
            pod_priority(&pod),
            20,
            "pod with priority resolves correctly"
        );
    }

    // Port of TestFindMatchingUntoleratedTaint
    // (staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go). Upstream's nil
    // filter (every taint applies) is `|_| true` here.
    #[test]
    fn test_find_matching_untolerated_taint() {
        let exists = |key: &str, effect: &str| Toleration {
            key: key.into(),
            operator: "Exists".into(),
            effect: effect.into(),
            ..Default::default()
        };
        type Filter = fn(&Taint) -> bool;
        let all: Filter = |_| true;
        let none: Filter = |_| false;
        let no_execute: Filter = |t| t.effect == "NoExecute";
        type Row = (&'static str, Vec<Toleration>, Vec<Taint>, Filter, bool);
        let rows: Vec<Row> = vec![
            (
                "empty tolerations tolerate empty taints",
                vec![],
                vec![],
                all,
                true,
            ),
            (
                "non-empty tolerations tolerate empty taints",
                vec![exists("foo", "NoSchedule")],
                vec![],
                all,
                true,
            ),
            (
                "tolerations match all taints",
                vec![exists("foo", "NoSchedule")],
                vec![taint("foo", "", "NoSchedule")],
                all,
                true,
            ),
            (
                "tolerations don't match taints, but no taints apply to the filter",
                vec![exists("foo", "NoSchedule")],
                vec![taint("bar", "", "NoSchedule")],
                none,
                true,
            ),
            (
                "no filterFunc: all taints apply, tolerations don't match, untolerated",
                vec![exists("foo", "NoSchedule")],
                vec![taint("bar", "", "NoSchedule")],
                all,
                false,
            ),
            (
                "tolerations match the taints the filter applies to",
                vec![exists("foo", "NoExecute")],
                vec![
                    taint("foo", "", "NoExecute"),
                    taint("bar", "", "NoSchedule"),
                ],
                no_execute,
                true,
            ),
        ];
        for (desc, tolerations, taints, filter, tolerated) in rows {
            let untolerated = find_matching_untolerated_taint(&taints, &tolerations, filter);
            assert_eq!(untolerated.is_none(), tolerated, "{desc}");
        }
    }

    // Port of TestPodMatchesNodeSelectorAndAffinityTerms
    // (staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go):
    // `GetRequiredNodeAffinity(pod).Match(node)` is `pod_matches_node_affinity`. Rows:
    // (name, pod, node name, node labels, want).
    #[test]
    fn test_pod_matches_node_selector_and_affinity_terms() {
        let expr = |exprs: Vec<NodeSelectorRequirement>| term(exprs, vec![]);
        let name_in = |v: &str| term(vec![], vec![req("metadata.name", "In", &[v])]);
        let affinity_only = |terms: Vec<NodeSelectorTerm>| pod_with(&[], Some(terms));
        let mut nil_required = Pod::default();
        nil_required.spec_mut().affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity::default()),
            ..Default::default()
        });
        type Row = (
            &'static str,
            Pod,
            &'static str,
            Vec<(&'static str, &'static str)>,
            bool,
        );
        let rows: Vec<Row> = vec![
            ("no selector", Pod::default(), "", vec![], true),
            (
                "missing labels",
                pod_with(&[("foo", "bar")], None),
                "",
                vec![],
                false,
            ),
            (
                "same labels",
                pod_with(&[("foo", "bar")], None),
                "",
                vec![("foo", "bar")],
                true,
            ),
            (
                "node labels are superset",
                pod_with(&[("foo", "bar")], None),
                "",
                vec![("foo", "bar"), ("baz", "blah")],
                true,
            ),
            (
                "node labels are subset",
                pod_with(&[("foo", "bar"), ("baz", "blah")], None),
                "",
                vec![("foo", "bar")],
                false,
            ),
            (
                "matchExpressions In matches",
                affinity_only(vec![expr(vec![req("foo", "In", &["bar", "value2"])])]),
                "",
                vec![("foo", "bar")],
                true,
            ),
            (
                "matchExpressions Gt matches",
                affinity_only(vec![expr(vec![req("kernel-version", "Gt", &["0204"])])]),
                "",
                vec![("kernel-version", "0206")],
                true,
            ),
            (
                "matchExpressions NotIn matches",
                affinity_only(vec![expr(vec![req("mem-type", "NotIn", &["DDR", "DDR2"])])]),
                "",
                vec![("mem-type", "DDR3")],
                true,
            ),
            (
                "matchExpressions Exists matches",
                affinity_only(vec![expr(vec![req("GPU", "Exists", &[])])]),
                "",
                vec![("GPU", "NVIDIA-GRID-K1")],
                true,
            ),
            (
                "affinity that doesn't match node's labels",
                affinity_only(vec![expr(vec![req("foo", "In", &["value1", "value2"])])]),
                "",
                vec![("foo", "bar")],
                false,
            ),
            (
                "nil []NodeSelectorTerm in affinity",
                affinity_only(vec![]),
                "",
                vec![("foo", "bar")],
                false,
            ),
            // Upstream's "empty []NodeSelectorTerm" row is the same as the nil one here.
            (
                "empty []NodeSelectorTerm in affinity",
                affinity_only(Vec::new()),
                "",
                vec![("foo", "bar")],
                false,
            ),
            (
                "empty MatchExpressions matches no objects",
                affinity_only(vec![expr(vec![])]),
                "",
                vec![("foo", "bar")],
                false,
            ),
            (
                "no Affinity",
                Pod::default(),
                "",
                vec![("foo", "bar")],
                true,
            ),
            (
                "Affinity but nil NodeSelector",
                nil_required,
                "",
                vec![("foo", "bar")],
                true,
            ),
            (
                "multiple matchExpressions ANDed that match",
                affinity_only(vec![expr(vec![
                    req("GPU", "Exists", &[]),
                    req("GPU", "NotIn", &["AMD", "INTER"]),
                ])]),
                "",
                vec![("GPU", "NVIDIA-GRID-K1")],
                true,
            ),
            (
                "multiple matchExpressions ANDed that don't match",
                affinity_only(vec![expr(vec![
                    req("GPU", "Exists", &[]),
                    req("GPU", "In", &["AMD", "INTER"]),
                ])]),
                "",
                vec![("GPU", "NVIDIA-GRID-K1")],
                false,
            ),
            (
                "multiple NodeSelectorTerms ORed",
                affinity_only(vec![
                    expr(vec![req("foo", "In", &["bar", "value2"])]),
                    expr(vec![req("diffkey", "In", &["wrong", "value2"])]),
                ]),
                "",
                vec![("foo", "bar")],
                true,
            ),
            (
                "Affinity and PodSpec.NodeSelector both satisfied",
                pod_with(
                    &[("foo", "bar")],
                    Some(vec![expr(vec![req("foo", "Exists", &[])])]),
                ),
                "",
                vec![("foo", "bar")],
                true,
            ),
            (
                "Affinity matches but PodSpec.NodeSelector does not",
                pod_with(
                    &[("foo", "bar")],
                    Some(vec![expr(vec![req("foo", "Exists", &[])])]),
                ),
                "",
                vec![("foo", "barrrrrr")],
                false,
            ),
            (
                "invalid value in Affinity term",
                affinity_only(vec![expr(vec![req(
                    "foo",
                    "NotIn",
                    &["invalid value: ___@#$%^"],
                )])]),
                "",
                vec![("foo", "bar")],
                false,
            ),
            (
                "matchFields In matches",
                affinity_only(vec![name_in("node_1")]),
                "node_1",
                vec![],
                true,
            ),
            (
                "matchFields In does not match",
                affinity_only(vec![name_in("node_1")]),
                "node_2",
                vec![],
                false,
            ),
            (
                "two terms: matchFields does not match, but matchExpressions matches",
                affinity_only(vec![
                    name_in("node_1"),
                    expr(vec![req("foo", "In", &["bar"])]),
                ]),
                "node_2",
                vec![("foo", "bar")],
                true,
            ),
            (
                "one term: matchFields does not match, but matchExpressions matches",
                affinity_only(vec![term(
                    vec![req("foo", "In", &["bar"])],
                    vec![req("metadata.name", "In", &["node_1"])],
                )]),
                "node_2",
                vec![("foo", "bar")],
                false,
            ),
            (
                "one term: both matchFields and matchExpressions match",
                affinity_only(vec![term(
                    vec![req("foo", "In", &["bar"])],
                    vec![req("metadata.name", "In", &["node_1"])],
                )]),
                "node_1",
                vec![("foo", "bar")],
                true,
            ),
            (
                "two terms: both matchFields and matchExpressions do not match",
                affinity_only(vec![
                    name_in("node_1"),
                    expr(vec![req("foo", "In", &["not-match-to-bar"])]),
                ]),
                "node_2",
                vec![("foo", "bar")],
                false,
            ),
        ];
        for (name, pod, node_name, labels, want) in rows {
            let node = node_with(node_name, &labels);
            assert_eq!(pod_matches_node_affinity(&pod, &node), want, "{name}");
        }
    }

    // Port of TestNodeSelectorMatch
    // (staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go).
    // Not ported: "nil node" (no nil node here) and "invalid field selector and label selector",
    // which checks NewNodeSelector's parse errors; our matcher has no error path (an invalid
    // requirement simply matches nothing).
    #[test]
    fn test_node_selector_match() {
        let label_in = || req("label_1", "In", &["label_1_val"]);
        let name_in = || req("metadata.name", "In", &["host_1"]);
        type Row = (&'static str, Vec<NodeSelectorTerm>, Node, bool);
        let rows: Vec<Row> = vec![
            (
                "node matches field selector, but not labels",
                vec![term(vec![label_in()], vec![name_in()])],
                node_with("host_1", &[]),
                false,
            ),
            (
                "node matches field selector and label selector",
                vec![term(vec![label_in()], vec![name_in()])],
                node_with("host_1", &[("label_1", "label_1_val")]),
                true,
            ),
            (
                "second term matches",
                vec![
                    term(vec![label_in()], vec![]),
                    term(vec![], vec![name_in()]),
                ],
                node_with("host_1", &[]),
                true,
            ),
        ];
        for (name, terms, node, want) in rows {
            let sel = NodeSelector {
                node_selector_terms: terms,
            };
            assert_eq!(node_selector_matches(&sel, &node), want, "{name}");
        }
    }
}

/// Ports of kube-scheduler plugin score tables (kept apart from the filter tests above).
#[cfg(test)]
#[path = "scheduler_score_tests.rs"]
mod score_tests;

#[cfg(test)]
mod interpod_affinity_tests;

#[cfg(test)]
mod preemption_tests;

#[cfg(test)]
mod preemption_pdb_tests;

#[cfg(test)]
mod preemption_dry_run_tests;

#[cfg(test)]
mod upstream_fit_tests;

#[cfg(test)]
mod upstream_nodeaffinity_tests;

#[cfg(test)]
mod upstream_nodeaffinity_prefilter_tests;

#[cfg(test)]
mod upstream_gap_tests;

#[cfg(test)]
mod upstream_schedule_one_tests;

#[cfg(test)]
mod cache_tests;
