//! Pod (anti-)affinity and topology spread constraint validation, ported from
//! `pkg/apis/core/validation/validation.go` (Kubernetes 1.34): `validateAffinity`'s pod parts
//! (`validatePodAffinity`, `validatePodAntiAffinity`, `validatePodAffinityTerms`,
//! `validateWeightedPodAffinityTerms`, `validatePodAffinityTerm`,
//! `ValidatePodAffinityTermSelector`, `validateMatchLabelKeysAndMismatchLabelKeys`) and
//! `validateTopologySpreadConstraints` with its helpers.
//!
//! The fields are kept as JSON (`Affinity::extra`, `PodSpec::extra`), so a value of the wrong
//! JSON type (which the real API server would refuse to decode) is reported as an `Invalid`
//! field error at its path instead of being skipped; nothing here panics on user input.
//!
//! Both pod-affinity `matchLabelKeys`/`mismatchLabelKeys` and (with
//! `MatchLabelKeysInPodTopologySpreadSelectorMerge`, beta and on since 1.34) topology spread
//! `matchLabelKeys` are merged into the label selectors by `PrepareForCreate` before this runs.
//! Upstream accepts the merged `In`/`NotIn` requirements because
//! `validateMatchLabelKeysAndMismatchLabelKeys` only flags a `matchExpressions` key that was
//! already seen earlier in the selector (in `matchLabels` or an earlier expression): the merged
//! requirement alone passes, a key the user also wrote in the selector is reported.

use super::meta::validate_label_name;
use super::names::name_is_dns_label;
use super::{child, idx};
use crate::api::errors::FieldError;
use crate::api::meta::LabelSelector;
use crate::api::Pod;
use crate::features::FeatureGates;
use crate::sort::CollectBTreeMap as _;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The parts of `PodValidationOptions` these checks read. The default is a create with the
/// feature gates at their 1.35 defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AffinityValidationOptions {
    /// `AllowMatchLabelKeysInPodTopologySpread`: the `MatchLabelKeysInPodTopologySpread` gate
    /// (beta, on by default).
    pub allow_match_label_keys_in_pod_topology_spread: bool,
    /// `AllowMatchLabelKeysInPodTopologySpreadSelectorMerge`: the
    /// `MatchLabelKeysInPodTopologySpreadSelectorMerge` gate (beta, on by default since 1.34).
    pub allow_match_label_keys_in_pod_topology_spread_selector_merge: bool,
    /// `AllowInvalidLabelValueInSelector`: the old pod already had an affinity selector value
    /// that is not a valid label value (updates only).
    pub allow_invalid_label_value_in_selector: bool,
    /// `AllowInvalidTopologySpreadConstraintLabelSelector` (updates only).
    pub allow_invalid_topology_spread_constraint_label_selector: bool,
    /// `OldPodViolatesMatchLabelKeysValidation`: the old pod's constraints fail the
    /// merged-selector rule, so the legacy rule is applied instead (updates only).
    pub old_pod_violates_match_label_keys_validation: bool,
    /// `OldPodViolatesLegacyMatchLabelKeysValidation` (updates with the merge gate off).
    pub old_pod_violates_legacy_match_label_keys_validation: bool,
}

impl Default for AffinityValidationOptions {
    fn default() -> Self {
        Self::from_gates(&FeatureGates::default())
    }
}

impl AffinityValidationOptions {
    /// The gate-derived options of `GetValidationOptionsFromPodSpecAndMeta` for a create.
    pub fn from_gates(gates: &FeatureGates) -> Self {
        AffinityValidationOptions {
            allow_match_label_keys_in_pod_topology_spread: gates
                .enabled("MatchLabelKeysInPodTopologySpread"),
            allow_match_label_keys_in_pod_topology_spread_selector_merge: gates
                .enabled("MatchLabelKeysInPodTopologySpreadSelectorMerge"),
            allow_invalid_label_value_in_selector: false,
            allow_invalid_topology_spread_constraint_label_selector: false,
            old_pod_violates_match_label_keys_validation: false,
            old_pod_violates_legacy_match_label_keys_validation: false,
        }
    }
}

fn wrong_type(path: &str, v: &Value, what: &str) -> FieldError {
    FieldError::invalid(path, v.clone(), format!("must be {what}"))
}

/// A JSON object field: `None` when absent or null, an error when not an object.
fn obj<'a>(
    v: Option<&'a Value>,
    path: &str,
    errs: &mut Vec<FieldError>,
) -> Option<&'a Map<String, Value>> {
    match v {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        Some(other) => {
            errs.push(wrong_type(path, other, "an object"));
            None
        }
    }
}

/// A JSON list field: `None` when absent or null, an error when not a list.
fn list<'a>(v: Option<&'a Value>, path: &str, errs: &mut Vec<FieldError>) -> Option<&'a [Value]> {
    match v {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => Some(a),
        Some(other) => {
            errs.push(wrong_type(path, other, "a list"));
            None
        }
    }
}

/// A string field (`""` when absent or null).
fn string(v: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            errs.push(wrong_type(path, other, "a string"));
            String::new()
        }
    }
}

/// An optional string field.
fn opt_string(v: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) -> Option<String> {
    match v {
        None | Some(Value::Null) => None,
        other => Some(string(other, path, errs)),
    }
}

/// An int32 field: `None` when absent or null, an error when not an integer in range.
fn int32(v: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) -> Option<i64> {
    match v {
        None | Some(Value::Null) => None,
        Some(n) => match n.as_i64().filter(|i| i32::try_from(*i).is_ok()) {
            Some(i) => Some(i),
            None => {
                errs.push(wrong_type(path, n, "a 32-bit integer"));
                None
            }
        },
    }
}

/// A list of strings; elements of another type are reported and skipped.
fn strings(v: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) -> Vec<String> {
    let mut out = vec![];
    for (i, e) in list(v, path, errs).unwrap_or_default().iter().enumerate() {
        match e {
            Value::String(s) => out.push(s.clone()),
            other => errs.push(wrong_type(&idx(path, i), other, "a string")),
        }
    }
    out
}

/// A label selector field: `None` when absent, null or not of the selector's shape (reported).
fn selector(v: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) -> Option<LabelSelector> {
    let m = obj(v, path, errs)?;
    match crate::api::value_de::from_value::<LabelSelector>(Value::Object(m.clone())) {
        Ok(s) => Some(s),
        Err(_) => {
            errs.push(wrong_type(
                path,
                &Value::Object(m.clone()),
                "a label selector",
            ));
            None
        }
    }
}

pub use super::meta::validate_label_selector_with_options;

/// `validateAffinity`'s pod parts: `podAffinity` then `podAntiAffinity` of an affinity's
/// JSON (`Affinity::extra`); `path` is the `affinity` path.
pub fn validate_pod_affinities(
    affinity: &Map<String, Value>,
    opts: AffinityValidationOptions,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    for f in ["podAffinity", "podAntiAffinity"] {
        let p = child(path, f);
        if let Some(a) = obj(affinity.get(f), &p, &mut errs) {
            errs.extend(validate_pod_affinity(
                a,
                opts.allow_invalid_label_value_in_selector,
                &p,
            ));
        }
    }
    errs
}

/// `validatePodAffinity` / `validatePodAntiAffinity` (the same checks): required terms, then
/// preferred weighted terms.
pub fn validate_pod_affinity(
    a: &Map<String, Value>,
    allow_invalid_label_value_in_selector: bool,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let rp = child(path, "requiredDuringSchedulingIgnoredDuringExecution");
    if let Some(terms) = list(
        a.get("requiredDuringSchedulingIgnoredDuringExecution"),
        &rp,
        &mut errs,
    ) {
        errs.extend(validate_pod_affinity_terms(
            terms,
            allow_invalid_label_value_in_selector,
            &rp,
        ));
    }
    let pp = child(path, "preferredDuringSchedulingIgnoredDuringExecution");
    if let Some(terms) = list(
        a.get("preferredDuringSchedulingIgnoredDuringExecution"),
        &pp,
        &mut errs,
    ) {
        errs.extend(validate_weighted_pod_affinity_terms(
            terms,
            allow_invalid_label_value_in_selector,
            &pp,
        ));
    }
    errs
}

/// `validatePodAffinityTerms`.
pub fn validate_pod_affinity_terms(
    terms: &[Value],
    allow_invalid_label_value_in_selector: bool,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    for (i, t) in terms.iter().enumerate() {
        let p = idx(path, i);
        let empty = Map::new();
        let t = obj(Some(t), &p, &mut errs).unwrap_or(&empty);
        errs.extend(validate_pod_affinity_term(
            t,
            allow_invalid_label_value_in_selector,
            &p,
        ));
    }
    errs
}

/// `validateWeightedPodAffinityTerms`: weight in 1–100, then the term.
pub fn validate_weighted_pod_affinity_terms(
    terms: &[Value],
    allow_invalid_label_value_in_selector: bool,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let empty = Map::new();
    for (j, w) in terms.iter().enumerate() {
        let p = idx(path, j);
        let w = obj(Some(w), &p, &mut errs).unwrap_or(&empty);
        let wp = child(&p, "weight");
        let weight = int32(w.get("weight"), &wp, &mut errs).unwrap_or(0);
        if weight <= 0 || weight > 100 {
            errs.push(FieldError::invalid(
                wp.as_str(),
                weight,
                "must be in the range 1-100",
            ));
        }
        let tp = child(&p, "podAffinityTerm");
        let t = obj(w.get("podAffinityTerm"), &tp, &mut errs).unwrap_or(&empty);
        errs.extend(validate_pod_affinity_term(
            t,
            allow_invalid_label_value_in_selector,
            &tp,
        ));
    }
    errs
}

/// `validatePodAffinityTerm`: the selectors (`ValidatePodAffinityTermSelector`), namespaces as
/// DNS labels (reported at upstream's `namespace` path), matchLabelKeys/mismatchLabelKeys,
/// and the topology key (required, and a qualified name).
pub fn validate_pod_affinity_term(
    t: &Map<String, Value>,
    allow_invalid_label_value_in_selector: bool,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let lsp = child(path, "labelSelector");
    let label_selector = selector(t.get("labelSelector"), &lsp, &mut errs);
    let nsp = child(path, "namespaceSelector");
    let namespace_selector = selector(t.get("namespaceSelector"), &nsp, &mut errs);
    // ValidatePodAffinityTermSelector
    errs.extend(validate_label_selector_with_options(
        label_selector.as_ref(),
        allow_invalid_label_value_in_selector,
        &lsp,
    ));
    errs.extend(validate_label_selector_with_options(
        namespace_selector.as_ref(),
        allow_invalid_label_value_in_selector,
        &nsp,
    ));
    for name in strings(t.get("namespaces"), &child(path, "namespaces"), &mut errs) {
        for m in name_is_dns_label(&name, false) {
            errs.push(FieldError::invalid(
                child(path, "namespace"),
                name.as_str(),
                m,
            ));
        }
    }
    let match_keys = strings(
        t.get("matchLabelKeys"),
        &child(path, "matchLabelKeys"),
        &mut errs,
    );
    let mismatch_keys = strings(
        t.get("mismatchLabelKeys"),
        &child(path, "mismatchLabelKeys"),
        &mut errs,
    );
    errs.extend(validate_match_label_keys_and_mismatch_label_keys(
        path,
        &match_keys,
        &mismatch_keys,
        label_selector.as_ref(),
    ));
    let tkp = child(path, "topologyKey");
    let topology_key = string(t.get("topologyKey"), &tkp, &mut errs);
    if topology_key.is_empty() {
        errs.push(FieldError::required(tkp.as_str(), "can not be empty"));
    }
    errs.extend(validate_label_name(&topology_key, &tkp));
    errs
}

/// `validateLabelKeys`: keys are label names; forbidden without a label selector.
fn validate_label_keys(
    path: &str,
    keys: &[String],
    sel: Option<&LabelSelector>,
) -> Vec<FieldError> {
    if keys.is_empty() {
        return vec![];
    }
    if sel.is_none() {
        return vec![FieldError::forbidden(
            path,
            "must not be specified when labelSelector is not set",
        )];
    }
    keys.iter()
        .enumerate()
        .flat_map(|(i, k)| validate_label_name(k, &idx(path, i)))
        .collect()
}

/// `validateMatchLabelKeysAndMismatchLabelKeys` (`path` is the term or constraint path):
/// 1. every key is a label name (forbidden without a selector);
/// 2. a `matchExpressions` key that is a `matchLabelKeys` key and was already seen in the
///    selector is reported at upstream's `path[i]` (sic: the index is appended to the term
///    path, not to `matchLabelKeys`); this is what lets the requirement merged at creation
///    through while a key the user also wrote in the selector is caught;
/// 3. a key in both `matchLabelKeys` and `mismatchLabelKeys`.
pub fn validate_match_label_keys_and_mismatch_label_keys(
    path: &str,
    match_label_keys: &[String],
    mismatch_label_keys: &[String],
    sel: Option<&LabelSelector>,
) -> Vec<FieldError> {
    let mut errs = validate_label_keys(&child(path, "matchLabelKeys"), match_label_keys, sel);
    errs.extend(validate_label_keys(
        &child(path, "mismatchLabelKeys"),
        mismatch_label_keys,
        sel,
    ));
    if let Some(sel) = sel {
        let positions: BTreeMap<&str, usize> = match_label_keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect_btree_map();
        let mut seen: BTreeSet<&str> = sel
            .match_labels
            .iter()
            .flat_map(|m| m.keys())
            .map(String::as_str)
            .collect();
        for e in sel.match_expressions.iter().flatten() {
            let k = e.key.as_str();
            if let Some(i) = positions.get(k) {
                if seen.contains(k) {
                    errs.push(FieldError::invalid(
                        idx(path, *i),
                        k,
                        "exists in both matchLabelKeys and labelSelector",
                    ));
                }
            }
            seen.insert(k);
        }
    }
    let mismatch: BTreeSet<&str> = mismatch_label_keys.iter().map(String::as_str).collect();
    for (i, k) in match_label_keys.iter().enumerate() {
        if mismatch.contains(k.as_str()) {
            errs.push(FieldError::invalid(
                idx(&child(path, "matchLabelKeys"), i),
                k.as_str(),
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
    errs
}

/// `validateMatchLabelKeysInTopologySpread` (the rule before the selector merge; `path` is the
/// `matchLabelKeys` path): forbidden without a selector; each key a label name and not in the
/// selector (`matchLabels` or any `matchExpressions` key).
pub fn validate_match_label_keys_in_topology_spread(
    path: &str,
    match_label_keys: &[String],
    sel: Option<&LabelSelector>,
) -> Vec<FieldError> {
    if match_label_keys.is_empty() {
        return vec![];
    }
    let mut errs = vec![];
    let mut keys = BTreeSet::new();
    match sel {
        Some(sel) => {
            keys.extend(sel.match_labels.iter().flat_map(|m| m.keys()).cloned());
            keys.extend(
                sel.match_expressions
                    .iter()
                    .flatten()
                    .map(|e| e.key.clone()),
            );
        }
        None => errs.push(FieldError::forbidden(
            path,
            "must not be specified when labelSelector is not set",
        )),
    }
    for (i, k) in match_label_keys.iter().enumerate() {
        errs.extend(validate_label_name(k, &idx(path, i)));
        if keys.contains(k) {
            errs.push(FieldError::invalid(
                idx(path, i),
                k.as_str(),
                "exists in both matchLabelKeys and labelSelector",
            ));
        }
    }
    errs
}

/// One constraint's fields as read from JSON.
struct Constraint {
    max_skew: i64,
    topology_key: String,
    when_unsatisfiable: String,
    min_domains: Option<i64>,
    node_affinity_policy: Option<String>,
    node_taints_policy: Option<String>,
    match_label_keys: Vec<String>,
    label_selector: Option<LabelSelector>,
}

fn read_constraint(v: &Value, path: &str, errs: &mut Vec<FieldError>) -> Constraint {
    let empty = Map::new();
    let m = obj(Some(v), path, errs).unwrap_or(&empty);
    Constraint {
        max_skew: int32(m.get("maxSkew"), &child(path, "maxSkew"), errs).unwrap_or(0),
        topology_key: string(m.get("topologyKey"), &child(path, "topologyKey"), errs),
        when_unsatisfiable: string(
            m.get("whenUnsatisfiable"),
            &child(path, "whenUnsatisfiable"),
            errs,
        ),
        min_domains: int32(m.get("minDomains"), &child(path, "minDomains"), errs),
        node_affinity_policy: opt_string(
            m.get("nodeAffinityPolicy"),
            &child(path, "nodeAffinityPolicy"),
            errs,
        ),
        node_taints_policy: opt_string(
            m.get("nodeTaintsPolicy"),
            &child(path, "nodeTaintsPolicy"),
            errs,
        ),
        match_label_keys: strings(
            m.get("matchLabelKeys"),
            &child(path, "matchLabelKeys"),
            errs,
        ),
        label_selector: selector(m.get("labelSelector"), &child(path, "labelSelector"), errs),
    }
}

/// `validateNodeInclusionPolicy`.
fn validate_node_inclusion_policy(path: &str, policy: Option<&str>) -> Option<FieldError> {
    match policy {
        None | Some("Honor") | Some("Ignore") => None,
        Some(p) => Some(FieldError::not_supported(path, p, &["Honor", "Ignore"])),
    }
}

/// `validateTopologySpreadConstraints` on `spec.topologySpreadConstraints` (the JSON value;
/// absent or null is valid). Per constraint, in upstream's order: maxSkew > 0, topologyKey
/// required, whenUnsatisfiable supported, no later constraint with the same
/// {topologyKey, whenUnsatisfiable}, minDomains (> 0 and only with DoNotSchedule), the two
/// node inclusion policies, matchLabelKeys (the merged-selector rule with
/// `MatchLabelKeysInPodTopologySpreadSelectorMerge`, else the legacy rule), and the label
/// selector (strict values unless the old pod already had an invalid one).
pub fn validate_topology_spread_constraints(
    constraints: Option<&Value>,
    path: &str,
    opts: AffinityValidationOptions,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let Some(items) = list(constraints, path, &mut errs) else {
        return errs;
    };
    let mut read_errs = vec![];
    let cs: Vec<Constraint> = items
        .iter()
        .enumerate()
        .map(|(i, v)| read_constraint(v, &idx(path, i), &mut read_errs))
        .collect();
    errs.extend(read_errs);
    for (i, c) in cs.iter().enumerate() {
        let p = idx(path, i);
        if c.max_skew <= 0 {
            errs.push(FieldError::invalid(
                child(&p, "maxSkew"),
                c.max_skew,
                "must be greater than zero",
            ));
        }
        if c.topology_key.is_empty() {
            errs.push(FieldError::required(
                child(&p, "topologyKey"),
                "can not be empty",
            ));
        }
        if !matches!(
            c.when_unsatisfiable.as_str(),
            "DoNotSchedule" | "ScheduleAnyway"
        ) {
            errs.push(FieldError::not_supported(
                child(&p, "whenUnsatisfiable"),
                c.when_unsatisfiable.as_str(),
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        // ValidateSpreadConstraintNotRepeat
        if cs[i + 1..].iter().any(|r| {
            r.topology_key == c.topology_key && r.when_unsatisfiable == c.when_unsatisfiable
        }) {
            errs.push(FieldError::duplicate(
                child(&p, "{topologyKey, whenUnsatisfiable}"),
                format!("{{{}, {}}}", c.topology_key, c.when_unsatisfiable),
            ));
        }
        // validateMinDomains
        if let Some(md) = c.min_domains {
            let mp = child(&p, "minDomains");
            if md <= 0 {
                errs.push(FieldError::invalid(
                    mp.as_str(),
                    md,
                    "must be greater than zero",
                ));
            }
            if c.when_unsatisfiable != "DoNotSchedule" {
                errs.push(FieldError::invalid(
                    mp.as_str(),
                    md,
                    format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {}",
                        c.when_unsatisfiable
                    ),
                ));
            }
        }
        errs.extend(validate_node_inclusion_policy(
            &child(&p, "nodeAffinityPolicy"),
            c.node_affinity_policy.as_deref(),
        ));
        errs.extend(validate_node_inclusion_policy(
            &child(&p, "nodeTaintsPolicy"),
            c.node_taints_policy.as_deref(),
        ));
        if opts.allow_match_label_keys_in_pod_topology_spread {
            if opts.allow_match_label_keys_in_pod_topology_spread_selector_merge
                && !opts.old_pod_violates_match_label_keys_validation
            {
                errs.extend(validate_match_label_keys_and_mismatch_label_keys(
                    &p,
                    &c.match_label_keys,
                    &[],
                    c.label_selector.as_ref(),
                ));
            } else if !opts.old_pod_violates_legacy_match_label_keys_validation {
                errs.extend(validate_match_label_keys_in_topology_spread(
                    &child(&p, "matchLabelKeys"),
                    &c.match_label_keys,
                    c.label_selector.as_ref(),
                ));
            }
        }
        if !opts.allow_invalid_topology_spread_constraint_label_selector {
            errs.extend(validate_label_selector_with_options(
                c.label_selector.as_ref(),
                false,
                &child(&p, "labelSelector"),
            ));
        }
    }
    errs
}

/// `hasInvalidLabelValueInAffinitySelector`: whether a pod (anti-)affinity term's label or
/// namespace selector holds a value that is not a valid label value (decides
/// `AllowInvalidLabelValueInSelector` on update).
pub fn has_invalid_label_value_in_affinity_selector(affinity: &Map<String, Value>) -> bool {
    let term_invalid = |t: &Value| {
        let mut ignored = vec![];
        let ls = selector(t.get("labelSelector"), "", &mut ignored);
        let ns = selector(t.get("namespaceSelector"), "", &mut ignored);
        !validate_label_selector_with_options(ls.as_ref(), false, "").is_empty()
            || !validate_label_selector_with_options(ns.as_ref(), false, "").is_empty()
    };
    ["podAffinity", "podAntiAffinity"].iter().any(|f| {
        let Some(a) = affinity.get(*f) else {
            return false;
        };
        let required = a
            .get("requiredDuringSchedulingIgnoredDuringExecution")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let preferred = a
            .get("preferredDuringSchedulingIgnoredDuringExecution")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|w| w.get("podAffinityTerm"));
        required.chain(preferred).any(term_invalid)
    })
}

/// `hasInvalidTopologySpreadConstraintLabelSelector`.
pub fn has_invalid_topology_spread_constraint_label_selector(constraints: Option<&Value>) -> bool {
    constraints
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| {
            let mut ignored = vec![];
            let sel = selector(c.get("labelSelector"), "", &mut ignored);
            !validate_label_selector_with_options(sel.as_ref(), false, "").is_empty()
        })
}

/// `hasInvalidTopologySpreadConstrainMatchLabelKeys`: the old pod's constraints fail the
/// merged-selector matchLabelKeys rule.
pub fn has_invalid_topology_spread_constraint_match_label_keys(
    constraints: Option<&Value>,
) -> bool {
    any_constraint_keys_fail(constraints, |keys, sel| {
        validate_match_label_keys_and_mismatch_label_keys("", keys, &[], sel)
    })
}

/// Whether `check` reports errors for some constraint's `matchLabelKeys` and `labelSelector`
/// (decoded leniently: an old pod's malformed parts count as absent).
fn any_constraint_keys_fail(
    constraints: Option<&Value>,
    check: impl Fn(&[String], Option<&LabelSelector>) -> Vec<FieldError>,
) -> bool {
    constraints
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| {
            let mut ignored = vec![];
            let sel = selector(c.get("labelSelector"), "", &mut ignored);
            let keys = strings(c.get("matchLabelKeys"), "", &mut ignored);
            !check(&keys, sel.as_ref()).is_empty()
        })
}

/// `hasLegacyInvalidTopologySpreadConstrainMatchLabelKeys`: the old pod's constraints fail the
/// legacy (pre-merge) matchLabelKeys rule.
pub fn has_legacy_invalid_topology_spread_constraint_match_label_keys(
    constraints: Option<&Value>,
) -> bool {
    any_constraint_keys_fail(constraints, |keys, sel| {
        validate_match_label_keys_in_topology_spread("", keys, sel)
    })
}

/// `matchLabelKeysInTopologySpreadInUse`: some constraint has a non-empty `matchLabelKeys`.
pub fn match_label_keys_in_topology_spread_in_use(constraints: Option<&Value>) -> bool {
    constraints
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| {
            c.get("matchLabelKeys")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
        })
}

/// `dropDisabledMatchLabelKeysFieldInTopologySpread`: with `MatchLabelKeysInPodTopologySpread`
/// off, `matchLabelKeys` is dropped from every constraint unless the old spec already uses it.
pub fn drop_disabled_match_label_keys_in_topology_spread(
    spec_extra: &mut Map<String, Value>,
    old_spec_extra: Option<&Map<String, Value>>,
    gates: &FeatureGates,
) {
    if gates.enabled("MatchLabelKeysInPodTopologySpread")
        || match_label_keys_in_topology_spread_in_use(
            old_spec_extra.and_then(|o| o.get("topologySpreadConstraints")),
        )
    {
        return;
    }
    let Some(cs) = spec_extra
        .get_mut("topologySpreadConstraints")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for c in cs {
        if let Some(m) = c.as_object_mut() {
            m.remove("matchLabelKeys");
        }
    }
}

/// `mutateTopologySpreadConstraints` (`pkg/registry/core/pod/strategy.go`, with
/// `MatchLabelKeysInPodTopologySpread` and `MatchLabelKeysInPodTopologySpreadSelectorMerge`):
/// at pod creation, `key In (value)` is appended to a constraint's `labelSelector` for each
/// `matchLabelKeys` key the pod has as a label. A constraint without a selector is left alone.
pub fn mutate_topology_spread_constraints(
    spec_extra: &mut Map<String, Value>,
    labels: &BTreeMap<String, String>,
    gates: &FeatureGates,
) {
    if !gates.enabled("MatchLabelKeysInPodTopologySpread")
        || !gates.enabled("MatchLabelKeysInPodTopologySpreadSelectorMerge")
    {
        return;
    }
    let Some(cs) = spec_extra
        .get_mut("topologySpreadConstraints")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for c in cs {
        merge_label_keys_into_selector(c, labels, false);
    }
}

/// The API server's selector merge for one pod affinity term or spread constraint
/// (`applyMatchLabelKeysAndMismatchLabelKeys`, `mutateTopologySpreadConstraints`): for each
/// `matchLabelKeys` key (and, with `mismatch`, each `mismatchLabelKeys` key) the pod carries as a
/// label, `key In (value)` (`NotIn` for mismatch keys) is appended to
/// `labelSelector.matchExpressions`. A term without a selector (which matches nothing) is left
/// alone.
pub fn merge_label_keys_into_selector(
    term: &mut Value,
    labels: &BTreeMap<String, String>,
    mismatch: bool,
) {
    let keys = |name: &str| -> Vec<String> {
        term.get(name)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|k| k.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let matching = keys("matchLabelKeys");
    let mismatching = if mismatch {
        keys("mismatchLabelKeys")
    } else {
        vec![]
    };
    let add: Vec<Value> = [(matching, "In"), (mismatching, "NotIn")]
        .into_iter()
        .flat_map(|(keys, op)| {
            keys.into_iter().filter_map(move |k| {
                let v = labels.get(&k)?;
                Some(serde_json::json!({"key": k, "operator": op, "values": [v]}))
            })
        })
        .collect();
    if add.is_empty() {
        return;
    }
    let Some(sel) = term.get_mut("labelSelector").and_then(Value::as_object_mut) else {
        return;
    };
    let exprs = sel
        .entry("matchExpressions")
        .or_insert_with(|| Value::Array(vec![]));
    if exprs.is_null() {
        *exprs = Value::Array(vec![]);
    }
    if let Some(a) = exprs.as_array_mut() {
        a.extend(add);
    }
}

// ---------------------------------------------------------------------------------------------
// matchLabelKeys / mismatchLabelKeys (pkg/registry/core/pod/strategy.go, MatchLabelKeysInPodAffinity GA)
// ---------------------------------------------------------------------------------------------

/// `mutatePodAffinity` at pod creation: for every pod (anti-)affinity term with a label
/// selector, `key in (value)` for each `matchLabelKeys` key and `key notin (value)` for each
/// `mismatchLabelKeys` key the pod has as a label are appended to `matchExpressions`.
pub fn mutate_pod_affinity(pod: &mut Pod) {
    let labels = pod.metadata.labels.clone();
    let has_keys = |v: &Value| {
        ["podAffinity", "podAntiAffinity"].iter().any(|f| {
            v.get(f).is_some_and(|a| {
                let terms = a
                    .get("requiredDuringSchedulingIgnoredDuringExecution")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .chain(
                        a.get("preferredDuringSchedulingIgnoredDuringExecution")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(|w| w.get("podAffinityTerm")),
                    );
                terms.into_iter().any(|t| {
                    ["matchLabelKeys", "mismatchLabelKeys"].iter().any(|k| {
                        t.get(k)
                            .and_then(Value::as_array)
                            .is_some_and(|a| !a.is_empty())
                    })
                })
            })
        })
    };
    let Some(aff) = pod.spec.affinity.as_ref() else {
        return;
    };
    if !has_keys(&Value::Object(aff.extra.clone())) {
        return;
    }
    let Some(aff) = pod.spec_mut().affinity.as_mut() else {
        return;
    };
    for field in ["podAffinity", "podAntiAffinity"] {
        let Some(a) = aff.extra.get_mut(field) else {
            continue;
        };
        if let Some(req) = a
            .get_mut("requiredDuringSchedulingIgnoredDuringExecution")
            .and_then(Value::as_array_mut)
        {
            for t in req {
                merge_label_keys_into_selector(t, &labels, true);
            }
        }
        if let Some(pref) = a
            .get_mut("preferredDuringSchedulingIgnoredDuringExecution")
            .and_then(Value::as_array_mut)
        {
            for w in pref {
                if let Some(t) = w.get_mut("podAffinityTerm") {
                    merge_label_keys_into_selector(t, &labels, true);
                }
            }
        }
    }
}
