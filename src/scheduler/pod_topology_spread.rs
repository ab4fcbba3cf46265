//! PodTopologySpread: the constraint model shared by Filter and Score, and the Filter
//! (`whenUnsatisfiable: DoNotSchedule`), after upstream
//! `pkg/scheduler/framework/plugins/podtopologyspread/` (`common.go`, `filtering.go`,
//! `plugin.go`).
//!
//! - [`filter_topology_spread_constraints`] parses a pod's constraints of one action, ANDing
//!   the values of `matchLabelKeys` taken from the pod's own labels into the selector
//!   (`MatchLabelKeysInPodTopologySpread`, on by default). Since 1.34 kube-apiserver also merges
//!   them into `labelSelector` when the pod is created
//!   (`MatchLabelKeysInPodTopologySpreadSelectorMerge`, done in `src/api/defaults.rs`); the
//!   scheduler still merges, and an
//!   `In` requirement on the same key and value added twice selects the same pods.
//! - [`PreFilterState`] counts, per constraint and topology value, the pods matching the
//!   constraint's selector on the nodes that have every constraint's topology key and pass the
//!   constraint's node inclusion policies (`nodeAffinityPolicy`, default Honor:
//!   nodeSelector + required node affinity; `nodeTaintsPolicy`, default Ignore: untolerated
//!   NoSchedule/NoExecute taints), and keeps the two smallest counts (`criticalPaths`).
//! - [`PreFilterState::filter`] rejects a node without a constraint's topology key
//!   (UnschedulableAndUnresolvable, [`ERR_REASON_NODE_LABEL_NOT_MATCH`]) and a node where
//!   `matchNum + selfMatchNum - minMatchNum > maxSkew` (Unschedulable,
//!   [`ERR_REASON_CONSTRAINTS_NOT_MATCH`]); the global minimum is 0 while fewer domains than
//!   `minDomains` exist.
//! - [`PreFilterState::update_with_pod`] is `AddPod` / `RemovePod` (nominated pods, preemption
//!   victims).
//!
//! Deviation: a `labelSelector` that does not parse (upstream: PreFilter error) selects nothing.

use super::{
    do_not_schedule_taint, find_matching_untolerated_taint, pod_matches_node_affinity, Code, Status,
};
use crate::api::{LabelSelector, Labels, Node, Pod, Requirement, Selector};
use crate::sort::CollectBTreeMap as _;
use crate::store::Store;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Plugin name, as it appears in statuses.
pub const NAME: &str = "PodTopologySpread";
/// `ErrReasonConstraintsNotMatch`.
pub const ERR_REASON_CONSTRAINTS_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints";
/// `ErrReasonNodeLabelNotMatch`.
pub const ERR_REASON_NODE_LABEL_NOT_MATCH: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
/// `v1.DoNotSchedule`.
pub const DO_NOT_SCHEDULE: &str = "DoNotSchedule";
/// `v1.ScheduleAnyway`.
pub const SCHEDULE_ANYWAY: &str = "ScheduleAnyway";

/// `v1.NodeInclusionPolicy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeInclusionPolicy {
    Honor,
    Ignore,
}

impl NodeInclusionPolicy {
    fn parse(s: Option<&str>, default: NodeInclusionPolicy) -> NodeInclusionPolicy {
        match s {
            Some("Honor") => NodeInclusionPolicy::Honor,
            Some("Ignore") => NodeInclusionPolicy::Ignore,
            _ => default,
        }
    }
}

/// `topologySpreadConstraint`: a constraint with its selector parsed (and `matchLabelKeys`
/// merged) and its optional fields defaulted.
#[derive(Clone, Debug, PartialEq)]
pub struct TopologySpreadConstraint {
    pub max_skew: i32,
    pub topology_key: String,
    pub selector: Selector,
    /// `minDomains`, 1 when unset.
    pub min_domains: i32,
    /// `nodeAffinityPolicy`, Honor when unset.
    pub node_affinity_policy: NodeInclusionPolicy,
    /// `nodeTaintsPolicy`, Ignore when unset.
    pub node_taints_policy: NodeInclusionPolicy,
}

impl TopologySpreadConstraint {
    /// A constraint with the default minDomains and inclusion policies.
    pub fn new(max_skew: i32, topology_key: &str, selector: Selector) -> Self {
        TopologySpreadConstraint {
            max_skew,
            topology_key: topology_key.to_string(),
            selector,
            min_domains: 1,
            node_affinity_policy: NodeInclusionPolicy::Honor,
            node_taints_policy: NodeInclusionPolicy::Ignore,
        }
    }

    /// `matchNodeInclusionPolicies`: whether `node` counts for this constraint of `pod`.
    pub fn match_node_inclusion_policies(&self, pod: &Pod, node: &Node) -> bool {
        if self.node_affinity_policy == NodeInclusionPolicy::Honor
            && !pod_matches_node_affinity(pod, node)
        {
            return false;
        }
        if self.node_taints_policy == NodeInclusionPolicy::Honor
            && find_matching_untolerated_taint(
                &node.spec.taints,
                &pod.spec.tolerations,
                do_not_schedule_taint,
            )
            .is_some()
        {
            return false;
        }
        true
    }
}

/// `v1.TopologySpreadConstraint` as stored in the pod spec's untyped fields.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConstraintSpec {
    #[serde(default)]
    max_skew: i32,
    #[serde(default)]
    topology_key: String,
    #[serde(default)]
    when_unsatisfiable: String,
    #[serde(default)]
    label_selector: Option<LabelSelector>,
    #[serde(default)]
    match_label_keys: Option<Vec<String>>,
    #[serde(default)]
    min_domains: Option<i32>,
    #[serde(default)]
    node_affinity_policy: Option<String>,
    #[serde(default)]
    node_taints_policy: Option<String>,
}

fn constraint_specs(pod: &Pod) -> Vec<ConstraintSpec> {
    pod.spec
        .extra
        .get("topologySpreadConstraints")
        .cloned()
        .and_then(|v| crate::api::value_de::from_value(v).ok())
        .unwrap_or_default()
}

/// Whether the pod spec lists any `topologySpreadConstraints` (`len(...) > 0`): then the
/// system default constraints do not apply.
pub fn has_topology_spread_constraints(pod: &Pod) -> bool {
    pod.spec
        .extra
        .get("topologySpreadConstraints")
        .and_then(|v| v.as_array())
        .is_some_and(|a| !a.is_empty())
}

/// `mergeLabelSetWithSelector`: `SelectorFromSet(match_labels)` with the requirements of
/// `selector` added; a selector that selects nothing stays so.
pub fn merge_label_set_with_selector(match_labels: &Labels, selector: Selector) -> Selector {
    match selector {
        Selector::Nothing => Selector::Nothing,
        Selector::Requirements(rs) => {
            let mut merged: Vec<Requirement> = match_labels
                .iter()
                .map(|(k, v)| Requirement::In(k.clone(), vec![v.clone()]))
                .collect();
            merged.extend(rs);
            Selector::Requirements(merged)
        }
    }
}

/// `filterTopologySpreadConstraints` over the pod's own constraints: those with
/// `whenUnsatisfiable == action`, the selector ANDed with the pod's values of `matchLabelKeys`
/// (keys the pod lacks are left out), minDomains and the inclusion policies defaulted.
pub fn filter_topology_spread_constraints(
    pod: &Pod,
    action: &str,
) -> Vec<TopologySpreadConstraint> {
    constraint_specs(pod)
        .into_iter()
        .filter(|c| c.when_unsatisfiable == action)
        .map(|c| {
            // `LabelSelectorAsSelector`: nil selects nothing.
            let mut selector = c
                .label_selector
                .as_ref()
                .and_then(|s| s.to_selector().ok())
                .unwrap_or(Selector::Nothing);
            let keys = c.match_label_keys.unwrap_or_default();
            if !keys.is_empty() {
                let match_labels: Labels = keys
                    .iter()
                    .filter_map(|k| pod.metadata.labels.get(k).map(|v| (k.clone(), v.clone())))
                    .collect_btree_map();
                if !match_labels.is_empty() {
                    selector = merge_label_set_with_selector(&match_labels, selector);
                }
            }
            TopologySpreadConstraint {
                max_skew: c.max_skew,
                topology_key: c.topology_key,
                selector,
                min_domains: c.min_domains.unwrap_or(1),
                node_affinity_policy: NodeInclusionPolicy::parse(
                    c.node_affinity_policy.as_deref(),
                    NodeInclusionPolicy::Honor,
                ),
                node_taints_policy: NodeInclusionPolicy::parse(
                    c.node_taints_policy.as_deref(),
                    NodeInclusionPolicy::Ignore,
                ),
            }
        })
        .collect()
}

/// The Filter's constraints (`getConstraints(pod)` for DoNotSchedule): the pod's own
/// DoNotSchedule constraints. The system defaults are all ScheduleAnyway, so a pod without
/// constraints has none.
pub fn filter_constraints(pod: &Pod) -> Vec<TopologySpreadConstraint> {
    filter_topology_spread_constraints(pod, DO_NOT_SCHEDULE)
}

/// `nodeLabelsMatchSpreadConstraints`: the node has every constraint's topology key.
pub fn node_labels_match_spread_constraints(
    labels: &Labels,
    constraints: &[TopologySpreadConstraint],
) -> bool {
    constraints
        .iter()
        .all(|c| labels.contains_key(&c.topology_key))
}

/// `countPodsMatchSelector` over a node's pods: pods of namespace `ns`, not terminating,
/// matching the selector; an empty selector counts nothing.
pub fn count_pods_match_selector<'p>(
    pods: impl IntoIterator<Item = &'p Pod>,
    selector: &Selector,
    ns: &str,
) -> i64 {
    if selector.is_empty() {
        return 0;
    }
    pods.into_iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none() && p.metadata.namespace == ns)
        .filter(|p| selector.matches(&p.metadata.labels))
        .count() as i64
}

/// [`count_pods_match_selector`] for every node at once from the store's label index: the
/// assigned, non-terminal, non-terminating pods of `ns` matching `selector`, counted by node
/// name. The same pods as counting each node's NodeInfo pods (without nominated pods).
pub fn count_pods_match_selector_by_node<'s>(
    store: &'s Store,
    selector: &Selector,
    ns: &str,
) -> BTreeMap<&'s str, i64> {
    let mut m: BTreeMap<&str, i64> = BTreeMap::new();
    count_pods_match_selector_by_node_with(store, selector, ns, |node| {
        *m.entry(node).or_insert(0) += 1;
    });
    m
}

/// [`count_pods_match_selector_by_node`] calling `add(node_name)` once per counted pod.
pub fn count_pods_match_selector_by_node_with<'s>(
    store: &'s Store,
    selector: &Selector,
    ns: &str,
    mut add: impl FnMut(&'s str),
) {
    if selector.is_empty() {
        return;
    }
    for p in store.pods_selector_candidates(ns, selector) {
        if !p.spec.node_name.is_empty()
            && p.metadata.namespace == ns
            && super::counts_on_node(p)
            && p.metadata.deletion_timestamp.is_none()
            && selector.matches(&p.metadata.labels)
        {
            add(p.spec.node_name.as_str());
        }
    }
}

/// One entry of `criticalPaths`: a topology value and its number of matching pods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticalPath {
    pub topology_value: String,
    pub match_num: i64,
}

/// `criticalPaths`: the two topology values with the fewest matching pods (`[0]` always holds
/// the minimum; `[1]` is at least `[0]` but not necessarily the second minimum after updates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticalPaths(pub [CriticalPath; 2]);

impl Default for CriticalPaths {
    /// `newCriticalPaths`: both entries at `math.MaxInt32`.
    fn default() -> Self {
        let p = CriticalPath {
            topology_value: String::new(),
            match_num: i32::MAX as i64,
        };
        CriticalPaths([p.clone(), p])
    }
}

impl CriticalPaths {
    /// `criticalPaths.update`.
    pub fn update(&mut self, tp_val: &str, num: i64) {
        let p = &mut self.0;
        let i = if tp_val == p[0].topology_value {
            Some(0)
        } else if tp_val == p[1].topology_value {
            Some(1)
        } else {
            None
        };
        match i {
            Some(i) => {
                p[i].match_num = num;
                if p[0].match_num > p[1].match_num {
                    p.swap(0, 1);
                }
            }
            None => {
                if num < p[0].match_num {
                    p[1] = p[0].clone();
                    p[0] = CriticalPath {
                        topology_value: tp_val.to_string(),
                        match_num: num,
                    };
                } else if num < p[1].match_num {
                    p[1] = CriticalPath {
                        topology_value: tp_val.to_string(),
                        match_num: num,
                    };
                }
            }
        }
    }
}

/// `preFilterState`: the pod's DoNotSchedule constraints, the matching pods per constraint and
/// topology value, and the critical paths.
#[derive(Clone, Debug, PartialEq)]
pub struct PreFilterState {
    pub constraints: Vec<TopologySpreadConstraint>,
    /// `CriticalPaths`, by constraint index.
    pub critical_paths: Vec<CriticalPaths>,
    /// `TpValueToMatchNum`, by constraint index.
    pub tp_value_to_match_num: Vec<BTreeMap<String, i64>>,
}

impl PreFilterState {
    /// `calPreFilterState` over `all_nodes`, with `count(i, node)` the number of pods on `node`
    /// matching constraint `i` ([`count_pods_match_selector`] over the node's pods). Topology
    /// values are visited in sorted order (upstream: map order, which only decides which of
    /// two tied values a critical path names).
    pub fn new<'n>(
        pod: &Pod,
        constraints: Vec<TopologySpreadConstraint>,
        all_nodes: impl IntoIterator<Item = &'n Node>,
        count: &dyn Fn(usize, &Node) -> i64,
    ) -> Self {
        let mut tp: Vec<BTreeMap<String, i64>> = vec![BTreeMap::new(); constraints.len()];
        for node in all_nodes {
            if !node_labels_match_spread_constraints(&node.metadata.labels, &constraints) {
                continue;
            }
            for (i, c) in constraints.iter().enumerate() {
                if !c.match_node_inclusion_policies(pod, node) {
                    continue;
                }
                let value = node
                    .metadata
                    .labels
                    .get(&c.topology_key)
                    .cloned()
                    .unwrap_or_default();
                *tp[i].entry(value).or_insert(0) += count(i, node);
            }
        }
        let critical_paths = tp
            .iter()
            .map(|m| {
                let mut paths = CriticalPaths::default();
                for (v, n) in m {
                    paths.update(v, *n);
                }
                paths
            })
            .collect();
        PreFilterState {
            constraints,
            critical_paths,
            tp_value_to_match_num: tp,
        }
    }

    /// [`PreFilterState::new`] over `nodes` counting the assigned pods in `store` (through its
    /// label index); `None` when the pod has no DoNotSchedule constraint (PreFilter `Skip`).
    pub fn from_store(pod: &Pod, store: &Store, nodes: &[&Node]) -> Option<Self> {
        let constraints = filter_constraints(pod);
        if constraints.is_empty() {
            return None;
        }
        let ns = pod.metadata.namespace.as_str();
        let counts: Vec<BTreeMap<&str, i64>> = constraints
            .iter()
            .map(|c| count_pods_match_selector_by_node(store, &c.selector, ns))
            .collect();
        let count = |i: usize, n: &Node| {
            counts[i]
                .get(n.metadata.name.as_str())
                .copied()
                .unwrap_or(0)
        };
        Some(Self::new(pod, constraints, nodes.iter().copied(), &count))
    }

    /// `minMatchNum`: the global minimum of constraint `i`, 0 while fewer than `minDomains`
    /// domains are eligible.
    pub fn min_match_num(&self, i: usize) -> i64 {
        let domains = self.tp_value_to_match_num[i].len();
        if (domains as i64) < self.constraints[i].min_domains as i64 {
            return 0;
        }
        self.critical_paths[i].0[0].match_num
    }

    /// `updateWithPod`: `AddPod` (`delta` 1) or `RemovePod` (`delta` -1) of `updated` on
    /// `node` while scheduling `preemptor`.
    pub fn update_with_pod(&mut self, updated: &Pod, preemptor: &Pod, node: &Node, delta: i64) {
        if updated.metadata.namespace != preemptor.metadata.namespace {
            return;
        }
        if !node_labels_match_spread_constraints(&node.metadata.labels, &self.constraints) {
            return;
        }
        for (i, c) in self.constraints.iter().enumerate() {
            if !c.selector.matches(&updated.metadata.labels) {
                continue;
            }
            if !c.match_node_inclusion_policies(preemptor, node) {
                continue;
            }
            let v = node
                .metadata
                .labels
                .get(&c.topology_key)
                .cloned()
                .unwrap_or_default();
            let n = self.tp_value_to_match_num[i].entry(v.clone()).or_insert(0);
            *n += delta;
            let n = *n;
            self.critical_paths[i].update(&v, n);
        }
    }

    /// `Filter`.
    pub fn filter(&self, pod: &Pod, node: &Node) -> Option<Status> {
        for (i, c) in self.constraints.iter().enumerate() {
            let Some(tp_val) = node.metadata.labels.get(&c.topology_key) else {
                return Some(Status::new(
                    Code::UnschedulableAndUnresolvable,
                    NAME,
                    vec![ERR_REASON_NODE_LABEL_NOT_MATCH.into()],
                ));
            };
            let min_match_num = self.min_match_num(i);
            let self_match_num = i64::from(c.selector.matches(&pod.metadata.labels));
            let match_num = self.tp_value_to_match_num[i]
                .get(tp_val)
                .copied()
                .unwrap_or(0);
            let skew = match_num + self_match_num - min_match_num;
            if skew > c.max_skew as i64 {
                return Some(Status::new(
                    Code::Unschedulable,
                    NAME,
                    vec![ERR_REASON_CONSTRAINTS_NOT_MATCH.into()],
                ));
            }
        }
        None
    }

    /// `RunFilterPluginsWithNominatedPods` for this plugin: the pods in `node_pods` not yet
    /// bound (nominated to the node, already filtered by priority) are added to a copy of the
    /// state before filtering. Adding pods never lowers a skew, so the second pass without
    /// them cannot fail where this one passed.
    pub fn filter_with_nominated<'p>(
        &self,
        pod: &Pod,
        node: &Node,
        node_pods: impl IntoIterator<Item = &'p Pod>,
    ) -> Option<Status> {
        let nominated: Vec<&Pod> = node_pods
            .into_iter()
            .filter(|p| p.spec.node_name.is_empty())
            .collect();
        if nominated.is_empty() {
            return self.filter(pod, node);
        }
        let mut s = self.clone();
        for p in nominated {
            s.update_with_pod(p, pod, node, 1);
        }
        s.filter(pod, node)
    }
}

/// `podLabelsMatchSpreadConstraints`: some constraint's selector matches the labels.
pub fn pod_labels_match_spread_constraints(
    constraints: &[TopologySpreadConstraint],
    labels: &Labels,
) -> bool {
    constraints.iter().any(|c| c.selector.matches(labels))
}

/// `involvedInTopologySpreading`: the pod itself, or an assigned pod of its namespace.
fn involved_in_topology_spreading(incoming: &Pod, pod: &Pod) -> bool {
    incoming.metadata.uid == pod.metadata.uid
        || (!incoming.spec.node_name.is_empty()
            && incoming.metadata.namespace == pod.metadata.namespace)
}

/// `isSchedulableAfterPodChange`: whether adding (`original` None), updating or deleting
/// (`modified` None) a pod may make `pod`, rejected by this plugin, schedulable. A pod that
/// becomes assigned is an add for the scheduler's assigned-pod handlers.
pub fn is_schedulable_after_pod_change(
    pod: &Pod,
    original: Option<&Pod>,
    modified: Option<&Pod>,
) -> bool {
    if modified.is_some_and(|m| !involved_in_topology_spreading(m, pod))
        || original.is_some_and(|o| !involved_in_topology_spreading(o, pod))
    {
        return false;
    }
    let constraints = filter_constraints(pod);
    match (original, modified) {
        (Some(o), Some(m)) => {
            if pod.metadata.uid == m.metadata.uid
                && m.spec.tolerations != o.spec.tolerations
                && constraints
                    .iter()
                    .any(|c| c.node_taints_policy == NodeInclusionPolicy::Honor)
            {
                return true;
            }
            if m.metadata.labels == o.metadata.labels {
                return false;
            }
            constraints.iter().any(|c| {
                c.selector.matches(&o.metadata.labels) != c.selector.matches(&m.metadata.labels)
            })
        }
        (None, Some(m)) => pod_labels_match_spread_constraints(&constraints, &m.metadata.labels),
        (Some(o), None) => pod_labels_match_spread_constraints(&constraints, &o.metadata.labels),
        (None, None) => false,
    }
}

/// `checkTopologyKeyLabelsChanged`.
fn topology_key_labels_changed(
    original: &Labels,
    modified: &Labels,
    constraints: &[TopologySpreadConstraint],
) -> bool {
    constraints
        .iter()
        .any(|c| original.get(&c.topology_key) != modified.get(&c.topology_key))
}

/// `isSchedulableAfterNodeChange`: whether adding (`original` None), updating or deleting
/// (`modified` None) a node may make `pod`, rejected by this plugin, schedulable.
pub fn is_schedulable_after_node_change(
    pod: &Pod,
    original: Option<&Node>,
    modified: Option<&Node>,
) -> bool {
    let constraints = filter_constraints(pod);
    let matching =
        |n: &Node| node_labels_match_spread_constraints(&n.metadata.labels, &constraints);
    match (original, modified) {
        (Some(o), Some(m)) => {
            let (om, mm) = (matching(o), matching(m));
            if om != mm {
                return true;
            }
            mm && (topology_key_labels_changed(
                &o.metadata.labels,
                &m.metadata.labels,
                &constraints,
            ) || o.spec.taints != m.spec.taints)
        }
        (None, Some(m)) => matching(m),
        (Some(o), None) => matching(o),
        (None, None) => false,
    }
}

#[cfg(test)]
#[path = "pod_topology_spread_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "pod_topology_spread_hints_tests.rs"]
mod hints_tests;
