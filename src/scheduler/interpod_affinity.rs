//! The InterPodAffinity plugin (`pkg/scheduler/framework/plugins/interpodaffinity`): PreFilter,
//! Filter (with the AddPod/RemovePod extensions used for nominated pods and preemption),
//! PreScore, Score and NormalizeScore, and the term parsing of `framework.PodInfo`
//! (`AffinityTerm`, `WeightedAffinityTerm`).
//!
//! Pod affinity lives in `spec.affinity.podAffinity` / `podAntiAffinity`, kept verbatim in
//! [`crate::api::Affinity::extra`]; `matchLabelKeys` / `mismatchLabelKeys` are merged into the
//! label selector by the API server when the pod is created (`mutatePodAffinity`, see
//! [`mutate_pod_affinity`](crate::api::validation::affinity::mutate_pod_affinity)), so the scheduler reads the label selector only, as upstream does.
//!
//! Namespaces are not API objects in kubeplay: the namespace lister the plugin needs for
//! `namespaceSelector` is a map from namespace name to labels ([`NamespaceLabels`]); the
//! scheduler passes every namespace its pods live in, with the one label the API server always
//! sets, `kubernetes.io/metadata.name: <name>` ([`implicit_namespaces`]).

use super::{Code, NodeInfo, Status, MAX_NODE_SCORE};
use crate::api::{LabelSelector, Labels, Node, Pod, PodSpec, Requirement, Selector};
use serde::Deserialize;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::Arc;

/// The plugin's name.
pub const NAME: &str = "InterPodAffinity";
/// `ErrReasonExistingAntiAffinityRulesNotMatch`.
pub const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";
/// `ErrReasonAffinityRulesNotMatch`.
pub const ERR_REASON_AFFINITY_RULES_NOT_MATCH: &str = "node(s) didn't match pod affinity rules";
/// `ErrReasonAntiAffinityRulesNotMatch`.
pub const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH: &str =
    "node(s) didn't match pod anti-affinity rules";
/// `InterPodAffinityArgs.HardPodAffinityWeight` default.
pub const DEFAULT_HARD_POD_AFFINITY_WEIGHT: i64 = 1;
/// The weight of the plugin's score in the default profile.
pub const SCORE_WEIGHT: i64 = 2;
/// `v1.LabelMetadataName`, set on every namespace by the API server.
pub const LABEL_METADATA_NAME: &str = "kubernetes.io/metadata.name";

/// What the plugin's namespace lister returns: namespace name → labels.
pub type NamespaceLabels = BTreeMap<String, Labels>;

/// `topologyPair` → count (`topologyToMatchedTermCount`); entries never hold 0.
pub type TopologyCounts = BTreeMap<(String, String), i64>;

// ---------------------------------------------------------------------------------------------
// API shapes (read from `Affinity::extra`)
// ---------------------------------------------------------------------------------------------

/// `v1.PodAffinityTerm`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodAffinityTerm {
    #[serde(default)]
    pub label_selector: Option<LabelSelector>,
    #[serde(default)]
    pub namespaces: Option<Vec<String>>,
    #[serde(default)]
    pub topology_key: String,
    #[serde(default)]
    pub namespace_selector: Option<LabelSelector>,
    #[serde(default)]
    pub match_label_keys: Option<Vec<String>>,
    #[serde(default)]
    pub mismatch_label_keys: Option<Vec<String>>,
}

/// `v1.WeightedPodAffinityTerm`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm {
    #[serde(default)]
    pub weight: i32,
    #[serde(default)]
    pub pod_affinity_term: PodAffinityTerm,
}

/// `v1.PodAffinity` / `v1.PodAntiAffinity` (same shape).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodAffinitySpec {
    #[serde(default)]
    pub required_during_scheduling_ignored_during_execution: Option<Vec<PodAffinityTerm>>,
    #[serde(default)]
    pub preferred_during_scheduling_ignored_during_execution: Option<Vec<WeightedPodAffinityTerm>>,
}

fn affinity_field<'a>(pod: &'a Pod, field: &str) -> Option<&'a Value> {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|a| a.extra.get(field))
        .filter(|v| !v.is_null())
}

/// `spec.affinity.podAffinity` (`"podAffinity"`) or `podAntiAffinity`, when set. A value that
/// does not have the API shape (which the API server would reject) reads as unset.
pub fn pod_affinity_spec(pod: &Pod, field: &str) -> Option<PodAffinitySpec> {
    affinity_field(pod, field)
        .and_then(|v| crate::api::value_de::from_value::<PodAffinitySpec>(v.clone()).ok())
}

/// Whether the pod sets `podAffinity` or `podAntiAffinity` (`NodeInfo.PodsWithAffinity`).
pub fn has_pod_affinity(pod: &Pod) -> bool {
    affinity_field(pod, "podAffinity").is_some() || affinity_field(pod, "podAntiAffinity").is_some()
}

// ---------------------------------------------------------------------------------------------
// framework.AffinityTerm / PodInfo
// ---------------------------------------------------------------------------------------------

/// `framework.AffinityTerm`: a parsed `PodAffinityTerm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffinityTerm {
    pub namespaces: BTreeSet<String>,
    pub selector: Selector,
    pub topology_key: String,
    pub namespace_selector: Selector,
}

/// `framework.WeightedAffinityTerm`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedAffinityTerm {
    pub term: AffinityTerm,
    pub weight: i32,
}

impl AffinityTerm {
    /// `AffinityTerm.Matches`: the pod's namespace is listed or its namespace's labels match
    /// the namespace selector, and the pod's labels match the selector. `ns_labels` `None` is
    /// Go's nil set (an empty selector still matches it).
    pub fn matches(&self, pod: &Pod, ns_labels: Option<&Labels>) -> bool {
        let empty = Labels::new();
        if self.namespaces.contains(&pod.metadata.namespace)
            || self.namespace_selector.matches(ns_labels.unwrap_or(&empty))
        {
            self.selector.matches(&pod.metadata.labels)
        } else {
            false
        }
    }

    /// `mergeAffinityTermNamespacesIfNotEmpty`: a namespace selector with requirements is
    /// replaced by the namespaces it selects (then matches nothing itself). An empty selector
    /// (all namespaces) and a nil one (nothing) are kept.
    fn merge_namespaces(&mut self, namespaces: &NamespaceLabels) {
        if self.namespace_selector.is_empty() || self.namespace_selector == Selector::Nothing {
            return;
        }
        for (name, labels) in namespaces {
            if self.namespace_selector.matches(labels) {
                self.namespaces.insert(name.clone());
            }
        }
        self.namespace_selector = Selector::Nothing;
    }
}

/// The affinity terms of `framework.PodInfo`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodAffinityInfo {
    pub required_affinity: Vec<AffinityTerm>,
    pub required_anti_affinity: Vec<AffinityTerm>,
    pub preferred_affinity: Vec<WeightedAffinityTerm>,
    pub preferred_anti_affinity: Vec<WeightedAffinityTerm>,
}

/// `labels.NewRequirement`'s value check (`ValidateLabelValue`): one field error, the
/// problems joined by `; `.
fn label_value_errors(key: &str, index: usize, v: &str) -> Vec<String> {
    let problems = crate::api::validation::names::is_valid_label_value(v);
    if problems.is_empty() {
        return vec![];
    }
    vec![format!(
        "values[{index}][{key}]: Invalid value: {v:?}: {}",
        problems.join("; ")
    )]
}

/// Go's `%#v` of a `[]string`: `[]string(nil)` when empty (`LabelSelectorAsSelector` passes
/// a nil slice), else `[]string{"a", "b"}`.
fn go_string_slice(vals: &[String]) -> String {
    if vals.is_empty() {
        return "[]string(nil)".into();
    }
    let items: Vec<String> = vals.iter().map(|v| format!("{v:?}")).collect();
    format!("[]string{{{}}}", items.join(", "))
}

/// `utilerrors.NewAggregate(errs).Error()`.
fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        _ => format!("[{}]", errs.join(", ")),
    }
}

/// `validateLabelKey` (`labels.NewRequirement`): a qualified name.
fn label_key_errors(key: &str) -> Vec<String> {
    let errs = crate::api::validation::names::is_qualified_name(key);
    if errs.is_empty() {
        vec![]
    } else {
        vec![format!("key: Invalid value: {key:?}: {}", errs.join("; "))]
    }
}

/// `metav1.LabelSelectorAsSelector`: nil → matches nothing; `{}` → everything; the first
/// invalid requirement is the error (`labels.NewRequirement`'s key and value checks).
pub fn label_selector_as_selector(ls: Option<&LabelSelector>) -> Result<Selector, String> {
    let Some(ls) = ls else {
        return Ok(Selector::Nothing);
    };
    let mut reqs = vec![];
    for (k, v) in ls.match_labels.iter().flatten() {
        let mut errs = label_key_errors(k);
        errs.extend(label_value_errors(k, 0, v));
        if !errs.is_empty() {
            return Err(aggregate(&errs));
        }
        reqs.push(Requirement::In(k.clone(), vec![v.clone()]));
    }
    for e in ls.match_expressions.iter().flatten() {
        let vals = e.values.clone().unwrap_or_default();
        let mut errs = label_key_errors(&e.key);
        let r = match e.operator.as_str() {
            "In" | "NotIn" => {
                if vals.is_empty() {
                    errs.push(
                        "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"
                            .into(),
                    );
                }
                errs.extend(
                    vals.iter()
                        .enumerate()
                        .flat_map(|(i, v)| label_value_errors(&e.key, i, v)),
                );
                if !errs.is_empty() {
                    return Err(aggregate(&errs));
                }
                if e.operator == "In" {
                    Requirement::In(e.key.clone(), vals)
                } else {
                    Requirement::NotIn(e.key.clone(), vals)
                }
            }
            "Exists" | "DoesNotExist" => {
                if !vals.is_empty() {
                    errs.push(format!(
                        "values: Invalid value: {}: values set must be empty for exists and does not exist",
                        go_string_slice(&vals)
                    ));
                }
                errs.extend(
                    vals.iter()
                        .enumerate()
                        .flat_map(|(i, v)| label_value_errors(&e.key, i, v)),
                );
                if !errs.is_empty() {
                    return Err(aggregate(&errs));
                }
                if e.operator == "Exists" {
                    Requirement::Exists(e.key.clone())
                } else {
                    Requirement::DoesNotExist(e.key.clone())
                }
            }
            op => return Err(format!("{op:?} is not a valid label selector operator")),
        };
        reqs.push(r);
    }
    Ok(Selector::Requirements(reqs))
}

/// `newAffinityTerm`: namespaces default to the pod's own when neither `namespaces` nor
/// `namespaceSelector` is given.
pub fn new_affinity_term(pod: &Pod, t: &PodAffinityTerm) -> Result<AffinityTerm, String> {
    let selector = label_selector_as_selector(t.label_selector.as_ref())?;
    let listed = t.namespaces.clone().unwrap_or_default();
    let namespaces: BTreeSet<String> = if listed.is_empty() && t.namespace_selector.is_none() {
        [pod.metadata.namespace.clone()].into()
    } else {
        listed.into_iter().collect()
    };
    let namespace_selector = label_selector_as_selector(t.namespace_selector.as_ref())?;
    Ok(AffinityTerm {
        namespaces,
        selector,
        topology_key: t.topology_key.clone(),
        namespace_selector,
    })
}

fn affinity_terms(pod: &Pod, terms: &[PodAffinityTerm]) -> Result<Vec<AffinityTerm>, String> {
    terms.iter().map(|t| new_affinity_term(pod, t)).collect()
}

fn weighted_terms(
    pod: &Pod,
    terms: &[WeightedPodAffinityTerm],
) -> Result<Vec<WeightedAffinityTerm>, String> {
    terms
        .iter()
        .map(|w| {
            Ok(WeightedAffinityTerm {
                term: new_affinity_term(pod, &w.pod_affinity_term)?,
                weight: w.weight,
            })
        })
        .collect()
}

/// `framework.NewPodInfo`'s term parsing: the four term lists and, when a selector is invalid,
/// the aggregated error (that list is then empty, the others are kept).
pub fn parse_pod(pod: &Pod) -> (PodAffinityInfo, Option<String>) {
    let aff = pod_affinity_spec(pod, "podAffinity").unwrap_or_default();
    let anti = pod_affinity_spec(pod, "podAntiAffinity").unwrap_or_default();
    let mut errs = vec![];
    let mut info = PodAffinityInfo::default();
    let req = |s: &PodAffinitySpec| {
        s.required_during_scheduling_ignored_during_execution
            .clone()
            .unwrap_or_default()
    };
    let pref = |s: &PodAffinitySpec| {
        s.preferred_during_scheduling_ignored_during_execution
            .clone()
            .unwrap_or_default()
    };
    match affinity_terms(pod, &req(&aff)) {
        Ok(t) => info.required_affinity = t,
        Err(e) => errs.push(format!("requiredAffinityTerms: {e}")),
    }
    match affinity_terms(pod, &req(&anti)) {
        Ok(t) => info.required_anti_affinity = t,
        Err(e) => errs.push(format!("requiredAntiAffinityTerms: {e}")),
    }
    match weighted_terms(pod, &pref(&aff)) {
        Ok(t) => info.preferred_affinity = t,
        Err(e) => errs.push(format!("preferredAffinityTerms: {e}")),
    }
    match weighted_terms(pod, &pref(&anti)) {
        Ok(t) => info.preferred_anti_affinity = t,
        Err(e) => errs.push(format!("preferredAntiAffinityTerms: {e}")),
    }
    let err = (!errs.is_empty()).then(|| aggregate(&errs));
    (info, err)
}

/// Whether the plugin has anything to do for `pod`: it or an assigned pod of the snapshot sets
/// pod (anti-)affinity. Otherwise PreFilter and PreScore both skip.
pub fn involved(pod: &Pod, all: &[(&Node, &NodeInfo)]) -> bool {
    has_pod_affinity(pod) || all.iter().any(|(_, ni)| assigned(ni).any(has_pod_affinity))
}

type ParsedTerms = Rc<(PodAffinityInfo, Option<String>)>;
type TermCache = HashMap<(usize, String), (Arc<PodSpec>, ParsedTerms)>;

/// Entries kept in the term cache before it is emptied.
const TERM_CACHE_CAPACITY: usize = 4096;

thread_local! {
    /// [`parse_pod`] results by pod spec (the `Arc` is kept, so its address is not reused while
    /// cached) and namespace: the scheduler's NodeInfo keeps each pod's parsed terms
    /// (`PodInfo`), and pods of one template share their spec.
    static TERM_CACHE: RefCell<TermCache> = RefCell::new(HashMap::new());
}

/// [`parse_pod`], memoized per pod spec and namespace (lookups only: nothing depends on the
/// map's order).
pub fn parse_pod_cached(pod: &Pod) -> ParsedTerms {
    let key = (
        Arc::as_ptr(&pod.spec) as usize,
        pod.metadata.namespace.clone(),
    );
    TERM_CACHE.with(|c| {
        if let Some((spec, parsed)) = c.borrow().get(&key) {
            if Arc::ptr_eq(spec, &pod.spec) {
                return parsed.clone();
            }
        }
        let parsed = Rc::new(parse_pod(pod));
        let mut c = c.borrow_mut();
        if c.len() >= TERM_CACHE_CAPACITY {
            c.clear();
        }
        c.insert(key, (pod.spec.clone(), parsed.clone()));
        parsed
    })
}

/// The namespace lister kubeplay's scheduler uses: every namespace of the given pods, labelled
/// `kubernetes.io/metadata.name: <name>` (kubeplay has no Namespace objects).
pub fn implicit_namespaces<'a>(pods: impl IntoIterator<Item = &'a Pod>) -> NamespaceLabels {
    let mut m = NamespaceLabels::new();
    for p in pods {
        let ns = &p.metadata.namespace;
        if !m.contains_key(ns) {
            m.insert(
                ns.clone(),
                [(LABEL_METADATA_NAME.to_string(), ns.clone())].into(),
            );
        }
    }
    m
}

/// `podMatchesAllAffinityTerms` (the incoming pod's terms have their namespace selector
/// merged, so no namespace labels are needed).
fn pod_matches_all_affinity_terms(terms: &[AffinityTerm], pod: &Pod) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(pod, None))
}

fn update_count(m: &mut TopologyCounts, node: &Node, tk: &str, value: i64) {
    if let Some(tv) = node.metadata.labels.get(tk) {
        let pair = (tk.to_string(), tv.clone());
        let c = m.entry(pair.clone()).or_insert(0);
        *c += value;
        if *c == 0 {
            m.remove(&pair);
        }
    }
}

fn update_with_affinity_terms(
    m: &mut TopologyCounts,
    terms: &[AffinityTerm],
    pod: &Pod,
    node: &Node,
    value: i64,
) {
    if pod_matches_all_affinity_terms(terms, pod) {
        for t in terms {
            update_count(m, node, &t.topology_key, value);
        }
    }
}

fn update_with_anti_affinity_terms(
    m: &mut TopologyCounts,
    terms: &[AffinityTerm],
    pod: &Pod,
    ns_labels: Option<&Labels>,
    node: &Node,
    value: i64,
) {
    for t in terms {
        if t.matches(pod, ns_labels) {
            update_count(m, node, &t.topology_key, value);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PreFilter / Filter
// ---------------------------------------------------------------------------------------------

/// `preFilterState`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PreFilterState {
    /// The incoming pod's terms, namespace selectors merged.
    pub pod_info: PodAffinityInfo,
    /// Whether the incoming pod matches all its own required affinity terms.
    pub pod_matches_own_affinity: bool,
    /// The incoming pod (its labels and namespace are matched by the existing pods' terms).
    pub pod: Pod,
    /// The incoming pod's namespace labels (`None` if the namespace is unknown).
    pub namespace_labels: Option<Labels>,
    pub existing_anti_affinity_counts: TopologyCounts,
    pub affinity_counts: TopologyCounts,
    pub anti_affinity_counts: TopologyCounts,
}

/// The PreFilter outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum PreFilter {
    /// `Skip`: nothing to check (the Filter and the AddPod/RemovePod extensions do not run).
    Skip,
    /// Rejected for every node (`parsing pod: ...`, UnschedulableAndUnresolvable).
    Reject(Status),
    Run(Box<PreFilterState>),
}

/// Pods a NodeInfo holds that are assigned (the snapshot's pods; nominated pods added to a
/// NodeInfo have no node name).
fn assigned<'a, 'p>(ni: &'a NodeInfo<'p>) -> impl Iterator<Item = &'p Pod> + 'a {
    ni.pods
        .iter()
        .copied()
        .filter(|p| !p.spec.node_name.is_empty())
}

/// PreFilter over every node of the snapshot (`all`): counts, per topology pair, the existing
/// pods whose required anti-affinity terms match the pod, and the existing pods matching the
/// pod's required affinity (all terms) and anti-affinity terms.
pub fn pre_filter(
    pod: &Pod,
    all: &[(&Node, &NodeInfo)],
    namespaces: &NamespaceLabels,
) -> PreFilter {
    let parsed = parse_pod_cached(pod);
    let (mut info, err) = (parsed.0.clone(), parsed.1.clone());
    if let Some(e) = err {
        return PreFilter::Reject(Status::new(
            Code::UnschedulableAndUnresolvable,
            NAME,
            vec![format!("parsing pod: {e}")],
        ));
    }
    for t in info
        .required_affinity
        .iter_mut()
        .chain(info.required_anti_affinity.iter_mut())
    {
        t.merge_namespaces(namespaces);
    }
    let mut s = PreFilterState {
        pod: pod.clone(),
        namespace_labels: namespaces.get(&pod.metadata.namespace).cloned(),
        ..Default::default()
    };
    for (node, ni) in all {
        for existing in assigned(ni) {
            if !has_pod_affinity(existing) {
                continue;
            }
            let parsed = parse_pod_cached(existing);
            update_with_anti_affinity_terms(
                &mut s.existing_anti_affinity_counts,
                &parsed.0.required_anti_affinity,
                pod,
                s.namespace_labels.as_ref(),
                node,
                1,
            );
        }
    }
    if !info.required_affinity.is_empty() || !info.required_anti_affinity.is_empty() {
        for (node, ni) in all {
            for existing in assigned(ni) {
                update_with_affinity_terms(
                    &mut s.affinity_counts,
                    &info.required_affinity,
                    existing,
                    node,
                    1,
                );
                update_with_anti_affinity_terms(
                    &mut s.anti_affinity_counts,
                    &info.required_anti_affinity,
                    existing,
                    None,
                    node,
                    1,
                );
            }
        }
    }
    if s.existing_anti_affinity_counts.is_empty()
        && info.required_affinity.is_empty()
        && info.required_anti_affinity.is_empty()
    {
        return PreFilter::Skip;
    }
    s.pod_matches_own_affinity = pod_matches_all_affinity_terms(&info.required_affinity, pod);
    s.pod_info = info;
    PreFilter::Run(Box::new(s))
}

impl PreFilterState {
    /// `updateWithPod` (the AddPod extension with `multiplier` 1, RemovePod with −1): `p` is
    /// added to or removed from `node`.
    pub fn update_with_pod(&mut self, p: &Pod, node: &Node, multiplier: i64) {
        if has_pod_affinity(p) {
            let parsed = parse_pod_cached(p);
            update_with_anti_affinity_terms(
                &mut self.existing_anti_affinity_counts,
                &parsed.0.required_anti_affinity,
                &self.pod,
                self.namespace_labels.as_ref(),
                node,
                multiplier,
            );
        }
        update_with_affinity_terms(
            &mut self.affinity_counts,
            &self.pod_info.required_affinity,
            p,
            node,
            multiplier,
        );
        update_with_anti_affinity_terms(
            &mut self.anti_affinity_counts,
            &self.pod_info.required_anti_affinity,
            p,
            None,
            node,
            multiplier,
        );
    }

    /// `satisfyPodAffinity`: every term's topology key is on the node and some pod matching
    /// all terms is in the node's domain, or no pod in the cluster matches and the pod
    /// matches its own terms.
    pub fn satisfies_pod_affinity(&self, node: &Node) -> bool {
        let mut pods_exist = true;
        for t in &self.pod_info.required_affinity {
            match node.metadata.labels.get(&t.topology_key) {
                Some(v) => {
                    let c = self
                        .affinity_counts
                        .get(&(t.topology_key.clone(), v.clone()))
                        .copied()
                        .unwrap_or(0);
                    if c <= 0 {
                        pods_exist = false;
                    }
                }
                // All topology labels must exist on the node.
                None => return false,
            }
        }
        pods_exist || (self.affinity_counts.is_empty() && self.pod_matches_own_affinity)
    }

    /// `satisfyPodAntiAffinity`: no pod matching a term in the node's domain of that term.
    pub fn satisfies_pod_anti_affinity(&self, node: &Node) -> bool {
        if self.anti_affinity_counts.is_empty() {
            return true;
        }
        !self.pod_info.required_anti_affinity.iter().any(|t| {
            node.metadata.labels.get(&t.topology_key).is_some_and(|v| {
                self.anti_affinity_counts
                    .get(&(t.topology_key.clone(), v.clone()))
                    .is_some_and(|c| *c > 0)
            })
        })
    }

    /// `satisfyExistingPodsAntiAffinity`: no existing pod's anti-affinity term matching the pod
    /// covers any of the node's (label, value) pairs.
    pub fn satisfies_existing_pods_anti_affinity(&self, node: &Node) -> bool {
        if self.existing_anti_affinity_counts.is_empty() {
            return true;
        }
        !node.metadata.labels.iter().any(|(k, v)| {
            self.existing_anti_affinity_counts
                .get(&(k.clone(), v.clone()))
                .is_some_and(|c| *c > 0)
        })
    }

    /// Filter for one node with this state: affinity (UnschedulableAndUnresolvable), then
    /// anti-affinity, then the existing pods' anti-affinity (both Unschedulable).
    pub fn filter(&self, node: &Node) -> Option<Status> {
        let (code, reason) = if !self.satisfies_pod_affinity(node) {
            (
                Code::UnschedulableAndUnresolvable,
                ERR_REASON_AFFINITY_RULES_NOT_MATCH,
            )
        } else if !self.satisfies_pod_anti_affinity(node) {
            (
                Code::Unschedulable,
                ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
            )
        } else if !self.satisfies_existing_pods_anti_affinity(node) {
            (
                Code::Unschedulable,
                ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
            )
        } else {
            return None;
        };
        Some(Status::new(code, NAME, vec![reason.into()]))
    }
}

/// Filter on a node whose NodeInfo may hold nominated pods (pods without a node name, added
/// by `RunFilterPluginsWithNominatedPods`): they are added to a copy of the state (AddPod) and
/// the filter runs with them, then, if that passed, once more without them.
pub fn filter_node(state: &PreFilterState, node: &Node, ni: &NodeInfo) -> Option<Status> {
    let nominated: Vec<&Pod> = ni
        .pods
        .iter()
        .copied()
        .filter(|p| p.spec.node_name.is_empty())
        .collect();
    if nominated.is_empty() {
        return state.filter(node);
    }
    let mut with = state.clone();
    for p in nominated {
        with.update_with_pod(p, node, 1);
    }
    with.filter(node).or_else(|| state.filter(node))
}

/// The queueing hint `isSchedulableAfterPodChange` for an assigned pod added (`original`
/// None), updated or deleted (`modified` None): whether `pod` (unschedulable) may now pass.
/// Unassigned pods never help. An update helps when the pod newly matches all of `pod`'s
/// affinity terms or no longer matches all of its anti-affinity terms; an addition when it
/// matches all affinity terms; a deletion when it matched all anti-affinity terms.
pub fn is_schedulable_after_pod_change(
    pod: &Pod,
    original: Option<&Pod>,
    modified: Option<&Pod>,
) -> bool {
    if modified.is_some_and(|p| p.spec.node_name.is_empty())
        || original.is_some_and(|p| p.spec.node_name.is_empty())
    {
        return false;
    }
    let parsed = parse_pod_cached(pod);
    let (aff, anti) = (
        &parsed.0.required_affinity,
        &parsed.0.required_anti_affinity,
    );
    match (original, modified) {
        (Some(o), Some(m)) => {
            (!pod_matches_all_affinity_terms(aff, o) && pod_matches_all_affinity_terms(aff, m))
                || (pod_matches_all_affinity_terms(anti, o)
                    && !pod_matches_all_affinity_terms(anti, m))
        }
        (None, Some(m)) => pod_matches_all_affinity_terms(aff, m),
        (Some(o), None) => pod_matches_all_affinity_terms(anti, o),
        (None, None) => false,
    }
}

// ---------------------------------------------------------------------------------------------
// PreScore / Score / NormalizeScore
// ---------------------------------------------------------------------------------------------

/// `scoreMap`: topology key → value → score.
pub type ScoreMap = BTreeMap<String, BTreeMap<String, i64>>;

fn process_term(
    m: &mut ScoreMap,
    term: &AffinityTerm,
    weight: i64,
    pod: &Pod,
    ns_labels: Option<&Labels>,
    node: &Node,
    multiplier: i64,
) {
    if term.matches(pod, ns_labels) {
        if let Some(v) = node.metadata.labels.get(&term.topology_key) {
            *m.entry(term.topology_key.clone())
                .or_default()
                .entry(v.clone())
                .or_insert(0) += weight * multiplier;
        }
    }
}

fn process_terms(
    m: &mut ScoreMap,
    terms: &[WeightedAffinityTerm],
    pod: &Pod,
    ns_labels: Option<&Labels>,
    node: &Node,
    multiplier: i64,
) {
    for t in terms {
        process_term(
            m,
            &t.term,
            t.weight as i64,
            pod,
            ns_labels,
            node,
            multiplier,
        );
    }
}

/// PreScore: the topology scores of the pod's preferred (anti-)affinity terms against every
/// existing pod, and of the existing pods' required affinity terms (`hard_weight`) and
/// preferred terms against the pod. `None` is `Skip` (nothing contributed).
pub fn pre_score(
    pod: &Pod,
    all: &[(&Node, &NodeInfo)],
    namespaces: &NamespaceLabels,
    hard_weight: i64,
) -> Option<ScoreMap> {
    let mut info = parse_pod_cached(pod).0.clone();
    let has_constraints = pod_affinity_spec(pod, "podAffinity").is_some_and(|a| {
        a.preferred_during_scheduling_ignored_during_execution
            .is_some_and(|v| !v.is_empty())
    }) || pod_affinity_spec(pod, "podAntiAffinity").is_some_and(|a| {
        a.preferred_during_scheduling_ignored_during_execution
            .is_some_and(|v| !v.is_empty())
    });
    for t in info
        .preferred_affinity
        .iter_mut()
        .chain(info.preferred_anti_affinity.iter_mut())
    {
        t.term.merge_namespaces(namespaces);
    }
    let ns_labels = namespaces.get(&pod.metadata.namespace);
    let mut m = ScoreMap::new();
    for (node, ni) in all {
        if node.metadata.labels.is_empty() {
            continue;
        }
        for existing in assigned(ni) {
            let with_affinity = has_pod_affinity(existing);
            if !has_constraints && !with_affinity {
                continue;
            }
            process_terms(&mut m, &info.preferred_affinity, existing, None, node, 1);
            process_terms(
                &mut m,
                &info.preferred_anti_affinity,
                existing,
                None,
                node,
                -1,
            );
            if !with_affinity {
                continue;
            }
            let parsed = parse_pod_cached(existing);
            let ei = &parsed.0;
            if hard_weight > 0 {
                for t in &ei.required_affinity {
                    process_term(&mut m, t, hard_weight, pod, ns_labels, node, 1);
                }
            }
            process_terms(&mut m, &ei.preferred_affinity, pod, ns_labels, node, 1);
            process_terms(
                &mut m,
                &ei.preferred_anti_affinity,
                pod,
                ns_labels,
                node,
                -1,
            );
        }
    }
    (!m.is_empty()).then_some(m)
}

/// Score: the sum of the topology scores of the node's labels (negative for anti-affinity).
pub fn score(m: &ScoreMap, node: &Node) -> i64 {
    m.iter()
        .filter_map(|(k, vals)| {
            node.metadata
                .labels
                .get(k)
                .map(|v| vals.get(v).copied().unwrap_or(0))
        })
        .sum()
}

/// NormalizeScore: min–max scaling to 0..=100 (all 0 when every score is equal).
pub fn normalize_score(scores: &mut [i64]) {
    let (Some(min), Some(max)) = (scores.iter().copied().min(), scores.iter().copied().max())
    else {
        return;
    };
    let diff = max - min;
    for s in scores.iter_mut() {
        let f = if diff > 0 {
            MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64)
        } else {
            0.0
        };
        *s = f as i64;
    }
}

/// The plugin's normalized scores for `feasible` (PreScore over `all`, Score, NormalizeScore),
/// or `None` when PreScore skips (every node then scores 0).
pub fn scores(
    pod: &Pod,
    feasible: &[&Node],
    all: &[(&Node, &NodeInfo)],
    namespaces: &NamespaceLabels,
    hard_weight: i64,
) -> Option<Vec<i64>> {
    let m = pre_score(pod, all, namespaces, hard_weight)?;
    let mut s: Vec<i64> = feasible.iter().map(|n| score(&m, n)).collect();
    normalize_score(&mut s);
    Some(s)
}
