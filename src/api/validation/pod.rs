//! Pod, PodSpec, PodTemplateSpec and container validation (`pkg/apis/core/validation`), for the
//! fields kubeplay models. Fields kept verbatim in `extra` maps are checked where their rule is
//! simple (`dnsPolicy`, `imagePullPolicy`, `terminationMessagePolicy`, probes on init
//! containers, `schedulingGates`, `ephemeralContainers` (validateEphemeralContainers), `hostNetwork`, `serviceAccountName`,
//! `priorityClassName`; `dnsConfig`, `readinessGates`, `hostAliases`, `runtimeClassName`,
//! `preemptionPolicy`, `overhead`, `os` and containers' `resizePolicy` by
//! [`super::pod_spec_more`]); pod (anti-)affinity and `topologySpreadConstraints` are validated in
//! full by [`super::affinity`]; volumes, volume mounts and devices, env, envFrom, probes and
//! lifecycle hooks by [`super::pod_volumes_env`]. Security contexts are validated in part, by
//! [`super::pod_spec_more`].

use super::meta::{
    validate_annotations, validate_label_name, validate_labels, validate_object_meta,
    validate_object_meta_update,
};
use super::names::{
    inclusive_range_error, is_dns1123_label, is_qualified_name, is_valid_label_value,
    is_valid_port_name, is_valid_port_num, name_is_dns_subdomain,
};
use super::pod_volumes_env::PodVolumesCtx;
use super::quantity::parse_quantity;
use super::{child, idx, key};
use crate::api::core::{
    Affinity, Container, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
    Pod, PodSpec, PodTemplateSpec, ResourceRequirements, Toleration,
};
use crate::api::errors::{go_json, write_go_json_string, FieldError};
use crate::features::FeatureGates;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// `core.PodDeletionCost`.
pub const POD_DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";
/// `core.MirrorPodAnnotationKey`.
pub const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";
const APPARMOR_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";
const SECCOMP_POD_ANNOTATION: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";

/// `PodValidationOptions` (the parts kubeplay uses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodValidationOptions {
    /// Kept for objects that already carry an invalid pod-deletion-cost (updates only).
    pub allow_invalid_pod_deletion_cost: bool,
    /// The PodSpec belongs to a Pod, not to a template.
    pub resource_is_pod: bool,
    /// The old object already had a value in required node affinity that is not a valid label
    /// value (`AllowInvalidLabelValueInRequiredNodeAffinity`, updates only).
    pub allow_invalid_label_value_in_required_node_affinity: bool,
    /// The pod (anti-)affinity and topology spread options (updates only).
    pub affinity: super::affinity::AffinityValidationOptions,
    /// The old spec already sets `securityContext.seLinuxChangePolicy`, so any valid policy is
    /// allowed (`useOnlyRecursiveSELinuxChangePolicy` false; updates only). Otherwise only
    /// `Recursive` is: SELinuxMount is beta and off by default.
    pub allow_any_se_linux_change_policy: bool,
}

/// A verbatim field as text: borrowed when it is a string (the usual case), printed otherwise.
fn extra_str<'a>(m: &'a Map<String, Value>, k: &str) -> Option<std::borrow::Cow<'a, str>> {
    match m.get(k)? {
        Value::Null => None,
        Value::String(s) => Some(std::borrow::Cow::Borrowed(s)),
        other => Some(std::borrow::Cow::Owned(other.to_string())),
    }
}

fn extra_bool(m: &Map<String, Value>, k: &str) -> bool {
    m.get(k).and_then(Value::as_bool).unwrap_or(false)
}

/// `helper.GetDeletionCostFromPodAnnotations`: a base-10 int32 whose first character is `-`, a
/// non-zero digit, or exactly `"0"` (no `+`, no leading zeros).
pub fn deletion_cost_valid(value: &str) -> bool {
    let b = value.as_bytes();
    let first_ok = match b.first() {
        None => false,
        Some(b'-') => true,
        Some(b'0') => value == "0",
        Some(c) => (b'1'..=b'9').contains(c),
    };
    first_ok && value.parse::<i64>().is_ok_and(|v| i32::try_from(v).is_ok())
}

/// `ValidateSeccompProfile` for the deprecated annotations.
fn validate_seccomp_profile(p: &str, path: &str) -> Vec<FieldError> {
    if matches!(p, "runtime/default" | "docker/default" | "unconfined") {
        return vec![];
    }
    if let Some(rest) = p.strip_prefix("localhost/") {
        return validate_local_descending_path(rest, path);
    }
    vec![FieldError::invalid(
        path,
        p,
        "must be a valid seccomp profile",
    )]
}

/// `validateLocalDescendingPath`.
fn validate_local_descending_path(target: &str, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    if target.starts_with('/') {
        errs.push(FieldError::invalid(path, target, "must be a relative path"));
    }
    if target.split('/').any(|s| s == "..") {
        errs.push(FieldError::invalid(path, target, "must not contain '..'"));
    }
    errs
}

fn pod_spec_has_container(spec: &PodSpec, name: &str) -> bool {
    spec.containers
        .iter()
        .chain(spec.init_containers.iter())
        .any(|c| c.name == name)
        || spec
            .extra
            .get("ephemeralContainers")
            .and_then(Value::as_array)
            .is_some_and(|a| {
                a.iter()
                    .any(|c| c.get("name").and_then(Value::as_str) == Some(name))
            })
}

/// `ValidatePodSpecificAnnotations`: mirror pods need a node, the pod-deletion-cost must be an
/// int32, the deprecated seccomp and AppArmor annotations must name valid profiles.
pub fn validate_pod_specific_annotations(
    annotations: &BTreeMap<String, String>,
    spec: &PodSpec,
    path: &str,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if let Some(v) = annotations.get(MIRROR_POD_ANNOTATION) {
        if spec.node_name.is_empty() {
            errs.push(FieldError::invalid(
                key(path, MIRROR_POD_ANNOTATION),
                v.as_str(),
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if !opts.allow_invalid_pod_deletion_cost {
        if let Some(v) = annotations.get(POD_DELETION_COST) {
            if !deletion_cost_valid(v) {
                errs.push(FieldError::invalid(
                    key(path, POD_DELETION_COST),
                    v.as_str(),
                    "must be a 32bit integer",
                ));
            }
        }
    }
    if let Some(p) = annotations.get(SECCOMP_POD_ANNOTATION) {
        errs.extend(validate_seccomp_profile(
            p,
            &child(path, SECCOMP_POD_ANNOTATION),
        ));
    }
    for (k, p) in annotations {
        if k.starts_with(SECCOMP_CONTAINER_PREFIX) {
            errs.extend(validate_seccomp_profile(p, &child(path, k)));
        }
    }
    for (k, p) in annotations {
        let Some(container) = k.strip_prefix(APPARMOR_PREFIX) else {
            continue;
        };
        if !pod_spec_has_container(spec, container) {
            errs.push(FieldError::invalid(
                key(path, k),
                container,
                "container not found",
            ));
        }
        if !(p.is_empty()
            || p == "runtime/default"
            || p == "unconfined"
            || p.starts_with("localhost/"))
        {
            errs.push(FieldError::invalid(
                key(path, k),
                p.as_str(),
                format!(
                    "invalid AppArmor profile name: {}",
                    crate::api::errors::go_quote(p)
                ),
            ));
        }
    }
    errs
}

/// `validateTaintEffect`.
pub fn validate_taint_effect(effect: &str, allow_empty: bool, path: &str) -> Vec<FieldError> {
    if !allow_empty && effect.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    match effect {
        "NoSchedule" | "PreferNoSchedule" | "NoExecute" => vec![],
        e => vec![FieldError::not_supported(
            path,
            e,
            &["NoSchedule", "PreferNoSchedule", "NoExecute"],
        )],
    }
}

/// `ValidateTolerations`.
pub fn validate_tolerations(tolerations: &[Toleration], path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    for (i, t) in tolerations.iter().enumerate() {
        // The path is printed only for an error: most tolerations are valid.
        let p = || idx(path, i);
        if !t.key.is_empty() && !validate_label_name(&t.key, "").is_empty() {
            errs.extend(validate_label_name(&t.key, &child(&p(), "key")));
        }
        if t.key.is_empty() && t.operator != "Exists" {
            errs.push(FieldError::invalid(
                child(&p(), "operator"),
                t.operator.as_str(),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if t.toleration_seconds.is_some() && t.effect != "NoExecute" {
            errs.push(FieldError::invalid(
                child(&p(), "effect"),
                t.effect.as_str(),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match t.operator.as_str() {
            "Equal" | "" => {
                let msgs = is_valid_label_value(&t.value);
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(
                        child(&p(), "operator"),
                        t.value.as_str(),
                        msgs.join(";"),
                    ));
                }
            }
            // The bad value is the toleration's value since kubernetes#128119 (1.32); it was the
            // whole toleration before.
            "Exists" => {
                if !t.value.is_empty() {
                    errs.push(FieldError::invalid(
                        child(&p(), "operator"),
                        t.value.as_str(),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            op => errs.push(FieldError::not_supported(
                child(&p(), "operator"),
                op,
                &["Equal", "Exists"],
            )),
        }
        if !t.effect.is_empty() && !validate_taint_effect(&t.effect, true, "").is_empty() {
            errs.extend(validate_taint_effect(
                &t.effect,
                true,
                &child(&p(), "effect"),
            ));
        }
    }
    errs
}

/// `ValidateNodeSelectorRequirement`: the operator/values rules, the key as a label name and,
/// unless the old object already broke that rule, every value as a label value.
fn validate_node_selector_requirement(
    r: &NodeSelectorRequirement,
    allow_invalid_label_value: bool,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.is_empty() {
                errs.push(FieldError::required(
                    child(path, "values"),
                    "must be specified when `operator` is 'In' or 'NotIn'",
                ));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !r.values.is_empty() {
                errs.push(FieldError::forbidden(
                    child(path, "values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        "Gt" | "Lt" => {
            if r.values.len() != 1 {
                errs.push(FieldError::required(
                    child(path, "values"),
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                ));
            }
        }
        op => errs.push(FieldError::invalid(
            child(path, "operator"),
            op,
            "not a valid selector operator",
        )),
    }
    errs.extend(validate_label_name(&r.key, &child(path, "key")));
    if !allow_invalid_label_value {
        let values = child(path, "values");
        for (i, v) in r.values.iter().enumerate() {
            for m in is_valid_label_value(v) {
                errs.push(FieldError::invalid(idx(&values, i), v.as_str(), m));
            }
        }
    }
    errs
}

/// Whether a required node affinity term holds a value that is not a valid label value
/// (`hasInvalidLabelValueInRequiredNodeAffinity`, which sets
/// [`PodValidationOptions::allow_invalid_label_value_in_required_node_affinity`] on update).
pub fn has_invalid_label_value_in_required_node_affinity(spec: &PodSpec) -> bool {
    spec.affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .is_some_and(|ns| {
            ns.node_selector_terms.iter().any(|t| {
                t.match_expressions
                    .iter()
                    .flat_map(|r| r.values.iter())
                    .any(|v| !is_valid_label_value(v).is_empty())
            })
        })
}

/// `ValidateNodeFieldSelectorRequirement` (only `metadata.name` is selectable).
fn validate_node_field_selector_requirement(
    r: &NodeSelectorRequirement,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.len() != 1 {
                errs.push(FieldError::required(
                    child(path, "values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                ));
            }
        }
        op => errs.push(FieldError::invalid(
            child(path, "operator"),
            op,
            "not a valid selector operator",
        )),
    }
    if r.key != "metadata.name" {
        errs.push(FieldError::invalid(
            child(path, "key"),
            r.key.as_str(),
            "not a valid field selector key",
        ));
    } else {
        for (i, v) in r.values.iter().enumerate() {
            for m in name_is_dns_subdomain(v, false) {
                errs.push(FieldError::invalid(
                    idx(&child(path, "values"), i),
                    v.as_str(),
                    m,
                ));
            }
        }
    }
    errs
}

/// `ValidatePreferredSchedulingTerms` (preferred node affinity, kept as JSON): weight in 1–100,
/// then the preference as a node selector term with strict label values. A value of the wrong
/// JSON shape is an `Invalid` field error.
pub fn validate_preferred_scheduling_terms(terms: Option<&Value>, path: &str) -> Vec<FieldError> {
    let Some(terms) = terms else {
        return vec![];
    };
    let Some(items) = terms.as_array() else {
        return vec![FieldError::invalid(path, terms.clone(), "must be a list")];
    };
    let mut errs = vec![];
    for (i, t) in items.iter().enumerate() {
        let p = idx(path, i);
        let weight = t.get("weight").unwrap_or(&Value::Null);
        match weight.as_i64().filter(|w| i32::try_from(*w).is_ok()) {
            Some(w) if (1..=100).contains(&w) => {}
            Some(w) => errs.push(FieldError::invalid(
                child(&p, "weight"),
                w,
                "must be in the range 1-100",
            )),
            None if weight.is_null() => errs.push(FieldError::invalid(
                child(&p, "weight"),
                0,
                "must be in the range 1-100",
            )),
            None => errs.push(FieldError::invalid(
                child(&p, "weight"),
                weight.clone(),
                "must be a 32-bit integer",
            )),
        }
        let pp = child(&p, "preference");
        let pref = t.get("preference").cloned().unwrap_or(Value::Null);
        let term = if pref.is_null() {
            NodeSelectorTerm::default()
        } else {
            match crate::api::value_de::from_value::<NodeSelectorTerm>(pref.clone()) {
                Ok(term) => term,
                Err(_) => {
                    errs.push(FieldError::invalid(
                        pp.as_str(),
                        pref,
                        "must be a node selector term",
                    ));
                    continue;
                }
            }
        };
        for (j, r) in term.match_expressions.iter().enumerate() {
            errs.extend(validate_node_selector_requirement(
                r,
                false,
                &idx(&child(&pp, "matchExpressions"), j),
            ));
        }
        for (j, r) in term.match_fields.iter().enumerate() {
            errs.extend(validate_node_field_selector_requirement(
                r,
                &idx(&child(&pp, "matchFields"), j),
            ));
        }
    }
    errs
}

/// `ValidateNodeSelector` (required node affinity).
pub fn validate_node_selector(
    ns: &NodeSelector,
    allow_invalid_label_value: bool,
    path: &str,
) -> Vec<FieldError> {
    let terms = child(path, "nodeSelectorTerms");
    if ns.node_selector_terms.is_empty() {
        return vec![FieldError::required(
            terms,
            "must have at least one node selector term",
        )];
    }
    let mut errs = vec![];
    for (i, t) in ns.node_selector_terms.iter().enumerate() {
        let tp = idx(&terms, i);
        for (j, r) in t.match_expressions.iter().enumerate() {
            errs.extend(validate_node_selector_requirement(
                r,
                allow_invalid_label_value,
                &idx(&child(&tp, "matchExpressions"), j),
            ));
        }
        for (j, r) in t.match_fields.iter().enumerate() {
            errs.extend(validate_node_field_selector_requirement(
                r,
                &idx(&child(&tp, "matchFields"), j),
            ));
        }
    }
    errs
}

const STANDARD_CONTAINER_RESOURCES: [&str; 3] = ["cpu", "memory", "ephemeral-storage"];
const STANDARD_RESOURCES: [&str; 26] = [
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
    "storage",
    "count/pods",
    "count/services",
    "count/replicationcontrollers",
    "count/secrets",
    "count/configmaps",
    "count/persistentvolumeclaims",
];

fn is_hugepage_resource(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `helper.IsNativeResource`: unprefixed or in the `kubernetes.io/` domain.
fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `helper.IsExtendedResourceName`.
fn is_extended_resource_name(name: &str) -> bool {
    if is_native_resource(name) || name.starts_with("requests.") {
        return false;
    }
    is_qualified_name(&format!("requests.{name}")).is_empty()
}

/// `validateResourceName`: a qualified name; without a `/`, a standard resource.
fn validate_resource_name(name: &str, path: &str) -> Vec<FieldError> {
    let errs: Vec<FieldError> = is_qualified_name(name)
        .into_iter()
        .map(|m| FieldError::invalid(path, name, m))
        .collect();
    if !errs.is_empty() {
        return errs;
    }
    let standard = STANDARD_RESOURCES.contains(&name)
        || is_hugepage_resource(name)
        || name.starts_with("requests.hugepages-")
        || name.starts_with("limits.hugepages-");
    if !name.contains('/') && !standard {
        return vec![FieldError::invalid(
            path,
            name,
            "must be a standard resource type or fully qualified",
        )];
    }
    errs
}

/// `validateContainerResourceName`.
pub(crate) fn validate_container_resource_name(name: &str, path: &str) -> Vec<FieldError> {
    // Upstream goes on to the container check even after validateResourceName's errors.
    let mut errs = validate_resource_name(name, path);
    if !name.contains('/') {
        if !(STANDARD_CONTAINER_RESOURCES.contains(&name) || is_hugepage_resource(name)) {
            errs.push(FieldError::invalid(
                path,
                name,
                "must be a standard resource for containers",
            ));
        }
    } else if !is_native_resource(name) && !is_extended_resource_name(name) {
        errs.push(FieldError::invalid(
            path,
            name,
            "doesn't follow extended resource name standard",
        ));
    }
    errs
}

/// The detail `validateResourceQuantityHugePageValue` gives a hugepages limit that is not a
/// whole number of pages (`<quantity> is not positive integer multiple of <resource>`).
pub(crate) const HUGE_PAGES_NOT_MULTIPLE: &str = " is not positive integer multiple of ";

/// `helper.IsHugePageResourceValueDivisible`: the page size is the quantity after `hugepages-`
/// in the resource name (a positive whole number of bytes, else nothing divides), and the
/// quantity's `Value()` (rounded up to a whole number) must be a multiple of it.
pub(crate) fn is_huge_page_resource_value_divisible(
    name: &str,
    q: &super::quantity::ParsedQuantity,
) -> bool {
    let Some(size) = name
        .strip_prefix("hugepages-")
        .and_then(|s| parse_quantity(s).ok())
    else {
        return false;
    };
    if size.nanos <= 0 || size.milli_value() % 1000 != 0 {
        return false;
    }
    let unit = 1_000_000_000i128;
    let page = size.nanos / unit;
    let value = q.nanos.div_euclid(unit) + i128::from(q.nanos.rem_euclid(unit) != 0);
    value % page == 0
}

/// `validateResourceQuantityHugePageValue`: a hugepages limit or request that is not a positive
/// integer multiple of its page size is Invalid. The ratchet (`AllowIndivisibleHugePagesValues`,
/// set when the old pod spec already uses such a value) is [`ratchet_indivisible_huge_pages`].
fn validate_huge_page_value(
    name: &str,
    q: &super::quantity::ParsedQuantity,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    if !is_huge_page_resource_value_divisible(name, q) {
        let text = q.canonical();
        errs.push(FieldError::invalid(
            path,
            text.clone(),
            format!("{text}{HUGE_PAGES_NOT_MULTIPLE}{name}"),
        ));
    }
}

/// `integerResources` (pkg/apis/core/helper): resources counted in whole units.
const INTEGER_RESOURCES: [&str; 9] = [
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// `helper.IsIntegerResourceName`: the object-count resources and extended resources.
pub(crate) fn is_integer_resource_name(name: &str) -> bool {
    INTEGER_RESOURCES.contains(&name) || is_extended_resource_name(name)
}

/// `usesIndivisibleHugePagesValues` (pkg/api/pod/util.go): a container or init container has a
/// hugepages limit or request, or the pod an overhead, that is not a whole number of pages.
pub(crate) fn uses_indivisible_huge_pages_values(spec: &PodSpec) -> bool {
    let indivisible = |name: &str, raw: &str| {
        is_hugepage_resource(name)
            && parse_quantity(raw.trim())
                .is_ok_and(|q| !is_huge_page_resource_value_divisible(name, &q))
    };
    let container_uses = |c: &Container| {
        c.resources.as_ref().is_some_and(|r| {
            r.limits
                .iter()
                .chain(r.requests.iter())
                .any(|(n, q)| indivisible(n, &q.0))
        })
    };
    spec.containers.iter().any(container_uses)
        || spec.init_containers.iter().any(container_uses)
        || spec
            .extra
            .get("overhead")
            .and_then(Value::as_object)
            .is_some_and(|m| {
                m.iter()
                    .any(|(n, v)| v.as_str().is_some_and(|raw| indivisible(n, raw)))
            })
}

/// `PodValidationOptions.AllowIndivisibleHugePagesValues` on update: when the old pod spec
/// (of the pod, or of the workload's template, as `GetValidationOptionsFromPodTemplate` derives
/// it) already uses an indivisible hugepages value, the new one may too, so those errors are
/// dropped (the option affects nothing else).
pub(crate) fn ratchet_indivisible_huge_pages(errs: &mut Vec<FieldError>, old: &PodSpec) {
    if uses_indivisible_huge_pages_values(old) {
        errs.retain(|e| {
            !(e.detail.contains(HUGE_PAGES_NOT_MULTIPLE)
                && (e.field.contains(".limits[hugepages-")
                    || e.field.contains(".requests[hugepages-")))
        });
    }
}

/// `ValidateContainerResourceRequirements` (`validateResourceRequirements` with
/// `validateContainerResourceName`): names, non-negative (and, for integer resources, whole)
/// quantities, hugepages values, requests at most limits (equal for resources that cannot be
/// overcommitted), hugepages only with cpu or memory. A quantity that does not parse is reported
/// with the parser's message (the real API server rejects it while decoding, before validation).
pub fn validate_resource_requirements(r: &ResourceRequirements, path: &str) -> Vec<FieldError> {
    validate_resource_requirements_with(r, validate_container_resource_name, path)
}

/// `validatePodResourceName`: `validateResourceName` (a qualified name; without a `/`, a
/// standard resource), then a resource pod-level resources support (`cpu`, `memory`,
/// `hugepages-*`).
pub(crate) fn validate_pod_resource_name(name: &str, path: &str) -> Vec<FieldError> {
    let mut errs = validate_resource_name(name, path);
    if !errs.is_empty() {
        return errs;
    }
    if !(name == "cpu" || name == "memory" || is_hugepage_resource(name)) {
        errs.push(FieldError::not_supported(
            path,
            name,
            &["cpu", "hugepages-", "memory"],
        ));
    }
    errs
}

/// `validatePodResourceRequirements` on pod-level `resources`: the container rules with
/// [`validate_pod_resource_name`], and the hugepages rules.
pub(crate) fn validate_pod_resource_requirements(
    r: &ResourceRequirements,
    path: &str,
) -> Vec<FieldError> {
    validate_resource_requirements_with(r, validate_pod_resource_name, path)
}

fn validate_resource_requirements_with(
    r: &ResourceRequirements,
    name_fn: fn(&str, &str) -> Vec<FieldError>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let lim_path = child(path, "limits");
    let req_path = child(path, "requests");
    let parse = |name: &str, raw: &str, p: &str, errs: &mut Vec<FieldError>| match parse_quantity(
        raw.trim(),
    ) {
        Ok(q) => {
            if q.nanos < 0 {
                errs.push(FieldError::invalid(
                    p,
                    q.canonical(),
                    super::meta::IS_NEGATIVE,
                ));
            }
            if is_integer_resource_name(name) && q.milli_value() % 1000 != 0 {
                errs.push(FieldError::invalid(p, q.canonical(), "must be an integer"));
            }
            Some(q)
        }
        Err(m) => {
            errs.push(FieldError::invalid(p, raw, m));
            None
        }
    };
    // Upstream checks each hugepages value right after the resource's other checks, and refuses
    // hugepages without cpu or memory at the end.
    let mut huge_pages = false;
    let mut limits = BTreeMap::new();
    for (name, q) in &r.limits {
        let p = key(&lim_path, name);
        errs.extend(name_fn(name, &p));
        let v = parse(name, &q.0, &p, &mut errs);
        if is_hugepage_resource(name) {
            huge_pages = true;
            if let Some(v) = &v {
                validate_huge_page_value(name, v, &p, &mut errs);
            }
        }
        if let Some(v) = v {
            limits.insert(name.clone(), v);
        }
    }
    for (name, q) in &r.requests {
        let p = key(&req_path, name);
        errs.extend(name_fn(name, &p));
        let huge = is_hugepage_resource(name);
        huge_pages |= huge;
        let Some(req) = parse(name, &q.0, &p, &mut errs) else {
            continue;
        };
        let overcommit = is_native_resource(name) && !is_hugepage_resource(name);
        match limits.get(name) {
            Some(lim) => {
                if req.nanos != lim.nanos && !overcommit {
                    errs.push(FieldError::invalid(
                        req_path.as_str(),
                        req.canonical(),
                        format!("must be equal to {name} limit of {}", lim.canonical()),
                    ));
                } else if req.nanos > lim.nanos {
                    errs.push(FieldError::invalid(
                        req_path.as_str(),
                        req.canonical(),
                        format!(
                            "must be less than or equal to {name} limit of {}",
                            lim.canonical()
                        ),
                    ));
                }
            }
            None if !overcommit && !r.limits.contains_key(name) => {
                errs.push(FieldError::required(
                    lim_path.as_str(),
                    "Limit must be set for non overcommitable resources",
                ));
            }
            None => {}
        }
        if huge {
            validate_huge_page_value(name, &req, &p, &mut errs);
        }
    }
    let cpu_or_memory = r
        .limits
        .keys()
        .chain(r.requests.keys())
        .any(|n| n == "cpu" || n == "memory");
    if huge_pages && !cpu_or_memory {
        errs.push(FieldError::forbidden(
            path,
            "HugePages require cpu or memory",
        ));
    }
    errs
}

/// `validateContainerPorts`.
fn validate_container_ports(c: &Container, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let mut names = BTreeSet::new();
    for (i, port) in c.ports.iter().enumerate() {
        let p = idx(path, i);
        if let Some(name) = port.name.as_deref().filter(|n| !n.is_empty()) {
            let msgs = is_valid_port_name(name);
            if !msgs.is_empty() {
                for m in msgs {
                    errs.push(FieldError::invalid(child(&p, "name"), name, m));
                }
            } else if !names.insert(name.to_string()) {
                errs.push(FieldError::duplicate(child(&p, "name"), name));
            }
        }
        if port.container_port == 0 {
            errs.push(FieldError::required(child(&p, "containerPort"), ""));
        } else {
            for m in is_valid_port_num(i64::from(port.container_port)) {
                errs.push(FieldError::invalid(
                    child(&p, "containerPort"),
                    port.container_port,
                    m,
                ));
            }
        }
        let host_port = port
            .extra
            .get("hostPort")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if host_port != 0 {
            for m in is_valid_port_num(host_port) {
                errs.push(FieldError::invalid(child(&p, "hostPort"), host_port, m));
            }
        }
        match port.protocol.as_deref().unwrap_or("") {
            "" => errs.push(FieldError::required(child(&p, "protocol"), "")),
            "TCP" | "UDP" | "SCTP" => {}
            other => errs.push(FieldError::not_supported(
                child(&p, "protocol"),
                other,
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
    errs
}

/// `validateContainerCommon`: name, image, terminationMessagePolicy, ports, env, envFrom,
/// volumeMounts, volumeDevices, imagePullPolicy, resources.
fn validate_container_common(
    c: &Container,
    ctx: &PodVolumesCtx<'_>,
    pod_restart_policy: &str,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let name_path = child(path, "name");
    if c.name.is_empty() {
        errs.push(FieldError::required(name_path, ""));
    } else {
        for m in is_dns1123_label(&c.name) {
            errs.push(FieldError::invalid(name_path.as_str(), c.name.as_str(), m));
        }
    }
    if c.image.is_empty() {
        errs.push(FieldError::required(child(path, "image"), ""));
    }
    match extra_str(&c.extra, "terminationMessagePolicy").as_deref() {
        Some("File") | Some("FallbackToLogsOnError") => {}
        None | Some("") => errs.push(FieldError::required(
            child(path, "terminationMessagePolicy"),
            "",
        )),
        Some(other) => errs.push(FieldError::not_supported(
            child(path, "terminationMessagePolicy"),
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    errs.extend(validate_container_ports(c, &child(path, "ports")));
    super::pod_volumes_env::validate_container_env_and_mounts(&mut errs, c, ctx, path);
    match extra_str(&c.extra, "imagePullPolicy").as_deref() {
        Some("Always") | Some("IfNotPresent") | Some("Never") => {}
        None | Some("") => errs.push(FieldError::required(child(path, "imagePullPolicy"), "")),
        Some(other) => errs.push(FieldError::not_supported(
            child(path, "imagePullPolicy"),
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
    if let Some(r) = &c.resources {
        errs.extend(validate_container_resource_requirements(
            r,
            &child(path, "resources"),
        ));
    }
    super::pod_spec_more::validate_resize_policy(
        &mut errs,
        c,
        pod_restart_policy,
        &child(path, "resizePolicy"),
    );
    super::pod_spec_more::validate_container_security_context(&mut errs, c, ctx.host_users, path);
    errs
}

/// `ValidateContainerResourceRequirements`: [`validate_resource_requirements`].
pub(crate) fn validate_container_resource_requirements(
    r: &ResourceRequirements,
    path: &str,
) -> Vec<FieldError> {
    validate_resource_requirements(r, path)
}

/// `AccumulateUniqueHostPorts`.
fn check_host_port_conflicts(
    containers: &[(usize, &Container)],
    path: &str,
    seen: &mut BTreeSet<String>,
) -> Vec<FieldError> {
    let mut errs = vec![];
    for (ci, c) in containers {
        for (pi, port) in c.ports.iter().enumerate() {
            let hp = port
                .extra
                .get("hostPort")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let host_ip = port
                .extra
                .get("hostIP")
                .and_then(Value::as_str)
                .unwrap_or("");
            let s = format!("{}/{host_ip}/{hp}", port.protocol.as_deref().unwrap_or(""));
            if !seen.insert(s.clone()) {
                errs.push(FieldError::duplicate(
                    child(&idx(&child(&idx(path, *ci), "ports"), pi), "hostPort"),
                    s,
                ));
            }
        }
    }
    errs
}

/// `validateContainers`.
fn validate_containers(
    containers: &[Container],
    ctx: &PodVolumesCtx<'_>,
    pod_restart_policy: &str,
    path: &str,
) -> Vec<FieldError> {
    if containers.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let mut errs = vec![];
    let mut names = BTreeSet::new();
    for (i, c) in containers.iter().enumerate() {
        let p = idx(path, i);
        errs.extend(validate_container_common(c, ctx, pod_restart_policy, &p));
        if !names.insert(c.name.clone()) {
            errs.push(FieldError::duplicate(child(&p, "name"), c.name.as_str()));
        }
        super::pod_volumes_env::validate_probes_and_lifecycle(&mut errs, c, ctx.grace_period, &p);
        if c.restart_policy.is_some() {
            errs.push(FieldError::forbidden(
                child(&p, "restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    let all: Vec<(usize, &Container)> = containers.iter().enumerate().collect();
    errs.extend(check_host_port_conflicts(&all, path, &mut BTreeSet::new()));
    errs
}

/// `validateInitContainers`.
fn validate_init_containers(
    inits: &[Container],
    regular: &[Container],
    ctx: &PodVolumesCtx<'_>,
    pod_restart_policy: &str,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let mut names: BTreeSet<String> = regular.iter().map(|c| c.name.clone()).collect();
    for (i, c) in inits.iter().enumerate() {
        let p = idx(path, i);
        errs.extend(validate_container_common(c, ctx, pod_restart_policy, &p));
        let mut restart_always = false;
        if let Some(rp) = &c.restart_policy {
            if rp == "Always" {
                restart_always = true;
            } else {
                errs.push(FieldError::not_supported(
                    child(&p, "restartPolicy"),
                    rp.as_str(),
                    &["Always"],
                ));
            }
        }
        if names.contains(&c.name) {
            errs.push(FieldError::duplicate(child(&p, "name"), c.name.as_str()));
        } else if !c.name.is_empty() {
            names.insert(c.name.clone());
        }
        errs.extend(check_host_port_conflicts(
            &[(i, c)],
            path,
            &mut BTreeSet::new(),
        ));
        if restart_always {
            super::pod_volumes_env::validate_probes_and_lifecycle(
                &mut errs,
                c,
                ctx.grace_period,
                &p,
            );
        } else {
            for f in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if c.extra.get(f).is_some_and(|v| !v.is_null()) {
                    errs.push(FieldError::forbidden(
                        child(&p, f),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
    }
    errs
}

/// `ValidatePodSpec` for a template (no pod name).
pub fn validate_pod_spec(
    spec: &PodSpec,
    path: &str,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    validate_pod_spec_with_name(spec, None, path, opts)
}

/// `ValidatePodSpec`; `pod_name` is the pod's `metadata.name` (upstream's `podMeta`, which the
/// ephemeral-volume claim-name rules need), `None` for templates.
pub fn validate_pod_spec_with_name(
    spec: &PodSpec,
    pod_name: Option<&str>,
    path: &str,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if spec.termination_grace_period_seconds.is_none() {
        errs.push(FieldError::required(
            child(path, "terminationGracePeriodSeconds"),
            "",
        ));
    }
    let volumes = spec.extra.get("volumes").filter(|v| !v.is_null());
    let (volumes, volume_errs) = match volumes {
        None => (Vec::new(), Vec::new()),
        Some(v) => super::pod_volumes_env::validate_volumes(
            Some(v),
            pod_name,
            &child(path, "volumes"),
            opts.resource_is_pod,
        ),
    };
    errs.extend(volume_errs);
    let ctx = PodVolumesCtx {
        volumes,
        grace_period: spec.termination_grace_period_seconds,
        host_users: super::pod_spec_more::host_users(spec),
    };
    errs.extend(validate_containers(
        &spec.containers,
        &ctx,
        &spec.restart_policy,
        &child(path, "containers"),
    ));
    errs.extend(validate_init_containers(
        &spec.init_containers,
        &spec.containers,
        &ctx,
        &spec.restart_policy,
        &child(path, "initContainers"),
    ));
    validate_ephemeral_containers(spec, &ctx, &child(path, "ephemeralContainers"), &mut errs);
    // Pod-level `resources` (PodLevelResources), validatePodResources: the supported resource
    // names, the quantities, requests ≤ limits and the hugepages rules
    // (validatePodResourceRequirements), then the containers' totals within the pod's
    // (validatePodResourceConsistency).
    if let Some(r) = &spec.resources {
        let rp = child(path, "resources");
        errs.extend(validate_pod_resource_requirements(r, &rp));
        errs.extend(super::pod_resources::validate_pod_resource_consistency(
            spec, &rp,
        ));
    }
    // validatePodHostNetworkDeps
    if extra_bool(&spec.extra, "hostNetwork") {
        for (i, c) in spec.containers.iter().enumerate() {
            for (j, port) in c.ports.iter().enumerate() {
                let hp = port
                    .extra
                    .get("hostPort")
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                if (opts.resource_is_pod || hp != 0) && hp != i64::from(port.container_port) {
                    errs.push(FieldError::invalid(
                        child(
                            &idx(&child(&idx(&child(path, "containers"), i), "ports"), j),
                            "hostPort",
                        ),
                        hp,
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }
    match spec.restart_policy.as_str() {
        "Always" | "OnFailure" | "Never" => {}
        "" => errs.push(FieldError::required(child(path, "restartPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            child(path, "restartPolicy"),
            other,
            &["Always", "OnFailure", "Never"],
        )),
    }
    match extra_str(&spec.extra, "dnsPolicy").as_deref() {
        Some("ClusterFirstWithHostNet") | Some("ClusterFirst") | Some("Default") | Some("None") => {
        }
        None | Some("") => errs.push(FieldError::required(child(path, "dnsPolicy"), "")),
        Some(other) => errs.push(FieldError::not_supported(
            child(path, "dnsPolicy"),
            other,
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )),
    }
    if !spec.node_selector.is_empty() {
        errs.extend(validate_labels(
            &spec.node_selector,
            &child(path, "nodeSelector"),
        ));
    }
    super::pod_spec_more::validate_pod_security_context(
        &mut errs,
        spec,
        path,
        opts.allow_any_se_linux_change_policy,
    );
    if let Some(required) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
    {
        errs.extend(validate_node_selector(
            required,
            opts.allow_invalid_label_value_in_required_node_affinity,
            &child(
                &child(&child(path, "affinity"), "nodeAffinity"),
                "requiredDuringSchedulingIgnoredDuringExecution",
            ),
        ));
    }
    // validateNodeAffinity: ValidatePreferredSchedulingTerms after the required terms.
    if let Some(na) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
    {
        errs.extend(validate_preferred_scheduling_terms(
            na.extra
                .get("preferredDuringSchedulingIgnoredDuringExecution")
                .filter(|v| !v.is_null()),
            &child(
                &child(&child(path, "affinity"), "nodeAffinity"),
                "preferredDuringSchedulingIgnoredDuringExecution",
            ),
        ));
    }
    // validateAffinity: podAffinity and podAntiAffinity after nodeAffinity.
    if let Some(a) = spec.affinity.as_ref() {
        errs.extend(super::affinity::validate_pod_affinities(
            &a.extra,
            opts.affinity,
            &child(path, "affinity"),
        ));
    }
    super::pod_spec_more::validate_pod_dns_config(&mut errs, spec, &child(path, "dnsConfig"));
    super::pod_spec_more::validate_readiness_gates(&mut errs, spec, &child(path, "readinessGates"));
    if let Some(gates) = spec.extra.get("schedulingGates").and_then(Value::as_array) {
        let mut seen = BTreeSet::new();
        for (i, g) in gates.iter().enumerate() {
            let name = g.get("name").and_then(Value::as_str).unwrap_or("");
            let p = idx(&child(path, "schedulingGates"), i);
            for m in is_qualified_name(name) {
                errs.push(FieldError::invalid(p.as_str(), name, m));
            }
            if !seen.insert(name.to_string()) {
                errs.push(FieldError::duplicate(p.as_str(), name));
            }
        }
    }
    if let Some(tsc) = spec.extra.get("topologySpreadConstraints") {
        errs.extend(super::affinity::validate_topology_spread_constraints(
            Some(tsc),
            &child(path, "topologySpreadConstraints"),
            opts.affinity,
        ));
    }
    super::pod_spec_more::validate_host_users(&mut errs, spec, path);
    if let Some(sa) = extra_str(&spec.extra, "serviceAccountName").filter(|s| !s.is_empty()) {
        for m in name_is_dns_subdomain(&sa, false) {
            errs.push(FieldError::invalid(
                child(path, "serviceAccountName"),
                &*sa,
                m,
            ));
        }
    }
    if !spec.node_name.is_empty() {
        for m in name_is_dns_subdomain(&spec.node_name, false) {
            errs.push(FieldError::invalid(
                child(path, "nodeName"),
                spec.node_name.as_str(),
                m,
            ));
        }
    }
    if let Some(v) = spec.active_deadline_seconds {
        if !(1..=i64::from(i32::MAX)).contains(&v) {
            errs.push(FieldError::invalid(
                child(path, "activeDeadlineSeconds"),
                v,
                inclusive_range_error(1, i64::from(i32::MAX)),
            ));
        }
    }
    if !spec.hostname.is_empty() {
        for m in is_dns1123_label(&spec.hostname) {
            errs.push(FieldError::invalid(
                child(path, "hostname"),
                spec.hostname.as_str(),
                m,
            ));
        }
    }
    if !spec.subdomain.is_empty() {
        for m in is_dns1123_label(&spec.subdomain) {
            errs.push(FieldError::invalid(
                child(path, "subdomain"),
                spec.subdomain.as_str(),
                m,
            ));
        }
    }
    if !spec.tolerations.is_empty() {
        errs.extend(validate_tolerations(
            &spec.tolerations,
            &child(path, "tolerations"),
        ));
    }
    super::pod_spec_more::validate_host_aliases(&mut errs, spec, &child(path, "hostAliases"));
    if let Some(pc) = extra_str(&spec.extra, "priorityClassName").filter(|s| !s.is_empty()) {
        for m in name_is_dns_subdomain(&pc, false) {
            errs.push(FieldError::invalid(
                child(path, "priorityClassName"),
                &*pc,
                m,
            ));
        }
    }
    super::pod_spec_more::validate_runtime_class_name(
        &mut errs,
        spec,
        &child(path, "runtimeClassName"),
    );
    super::pod_spec_more::validate_preemption_policy(
        &mut errs,
        spec,
        &child(path, "preemptionPolicy"),
    );
    super::pod_spec_more::validate_overhead(&mut errs, spec, &child(path, "overhead"));
    super::pod_spec_more::validate_os(&mut errs, spec, path);
    errs
}

/// The `EphemeralContainerCommon` fields `validateEphemeralContainers` forbids (those not in
/// `allowedEphemeralContainerFields`), in the struct's field order, by JSON name.
const EPHEMERAL_FORBIDDEN_FIELDS: [&str; 9] = [
    "ports",
    "resources",
    "resizePolicy",
    "restartPolicy",
    "restartPolicyRules",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
];

/// Whether a verbatim field differs from its Go zero value: a list (even empty: JSON decoding
/// makes a non-nil slice), a non-null scalar or pointer, or `resources` with any list set.
fn ephemeral_field_set(v: &Value, k: &str) -> bool {
    match v {
        Value::Null => false,
        Value::Object(m) if k == "resources" => m.values().any(|x| !x.is_null()),
        _ => true,
    }
}

/// `validateEphemeralContainers`: each one gets `validateContainerCommon` and
/// `validateContainerOnlyForPod`; names unique across all containers; `targetContainerName` an
/// existing regular or init container; only the allowed fields set; no volume-mount sub-paths.
fn validate_ephemeral_containers(
    spec: &PodSpec,
    ctx: &PodVolumesCtx<'_>,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let Some(list) = spec
        .extra
        .get("ephemeralContainers")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    else {
        return;
    };
    let other: BTreeSet<&str> = spec
        .containers
        .iter()
        .chain(&spec.init_containers)
        .map(|c| c.name.as_str())
        .collect();
    let mut all: BTreeSet<String> = other.iter().map(|s| s.to_string()).collect();
    for (i, raw) in list.iter().enumerate() {
        let p = idx(path, i);
        let Ok(c) = crate::api::value_de::from_value::<Container>(raw.clone()) else {
            continue;
        };
        errs.extend(validate_container_common(&c, ctx, &spec.restart_policy, &p));
        if c.image.trim() != c.image {
            errs.push(FieldError::invalid(
                child(&p, "image"),
                c.image.as_str(),
                "must not have leading or trailing whitespace",
            ));
        }
        if !all.insert(c.name.clone()) {
            errs.push(FieldError::duplicate(child(&p, "name"), c.name.as_str()));
        }
        let target = raw
            .get("targetContainerName")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !target.is_empty() && !other.contains(target) {
            errs.push(FieldError::not_found(
                child(&p, "targetContainerName"),
                target,
            ));
        }
        for f in EPHEMERAL_FORBIDDEN_FIELDS {
            if raw.get(f).is_some_and(|v| ephemeral_field_set(v, f)) {
                errs.push(FieldError::forbidden(
                    child(&p, f),
                    "cannot be set for an Ephemeral Container",
                ));
            }
        }
        if let Some(mounts) = raw.get("volumeMounts").and_then(Value::as_array) {
            for (j, m) in mounts.iter().enumerate() {
                for f in ["subPath", "subPathExpr"] {
                    if m.get(f)
                        .and_then(Value::as_str)
                        .is_some_and(|s| !s.is_empty())
                    {
                        errs.push(FieldError::forbidden(
                            child(&idx(&child(&p, "volumeMounts"), j), f),
                            "cannot be set for an Ephemeral Container",
                        ));
                    }
                }
            }
        }
    }
}

/// `validateContainersOnlyForPod`: a pod's images may not carry surrounding whitespace.
fn validate_containers_only_for_pod(containers: &[Container], path: &str) -> Vec<FieldError> {
    containers
        .iter()
        .enumerate()
        .filter(|(_, c)| c.image.trim() != c.image)
        .map(|(i, c)| {
            FieldError::invalid(
                child(&idx(path, i), "image"),
                c.image.as_str(),
                "must not have leading or trailing whitespace",
            )
        })
        .collect()
}

/// Whether the pod sets `securityContext.seLinuxChangePolicy` (an old pod that does may keep or
/// change any policy on update).
pub(crate) fn sets_se_linux_change_policy(spec: &PodSpec) -> bool {
    spec.extra
        .get("securityContext")
        .and_then(|sc| sc.get("seLinuxChangePolicy"))
        .is_some_and(|v| !v.is_null())
}

/// A spec that [`validate_pod_spec_with_name`] found valid, with the options and the pod name
/// it was checked with (the name only when the spec has an `ephemeral` volume: nothing else
/// reads it).
type ValidSpec = (Arc<PodSpec>, PodValidationOptions, Option<String>);

thread_local! {
    /// The last few specs found valid. Holding the `Arc` keeps its contents fixed (a shared
    /// `Arc` is copied before any write) and its address unique, so pointer equality means
    /// "the same spec".
    static VALID_SPECS: std::cell::RefCell<Vec<ValidSpec>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`validate_pod_spec_with_name`] for a shared spec, remembering the last few valid ones: a
/// CronJob's template spec is shared by every Job and pod made from it, and each create
/// validates it again (as the API server does). Validation reads only the spec, the options
/// and (for `ephemeral` volumes) the pod's name, so an earlier pass with the same three gives
/// the same empty answer.
pub(crate) fn validate_shared_pod_spec(
    spec: &Arc<PodSpec>,
    pod_name: Option<&str>,
    path: &str,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    let has_ephemeral = spec
        .extra
        .get("volumes")
        .and_then(Value::as_array)
        .is_some_and(|vs| vs.iter().any(|v| v.get("ephemeral").is_some()));
    let name = pod_name.filter(|_| has_ephemeral);
    let seen = VALID_SPECS.with_borrow(|memo| {
        memo.iter()
            .any(|(s, o, n)| Arc::ptr_eq(s, spec) && *o == opts && n.as_deref() == name)
    });
    if seen {
        return vec![];
    }
    let errs = validate_pod_spec_with_name(spec, pod_name, path, opts);
    if errs.is_empty() {
        VALID_SPECS.with_borrow_mut(|memo| {
            if memo.len() == 8 {
                memo.remove(0);
            }
            memo.push((spec.clone(), opts, name.map(str::to_owned)));
        });
    }
    errs
}

/// `validatePodMetadataAndSpec`.
pub(crate) fn validate_pod_metadata_and_spec(
    pod: &Pod,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&pod.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_pod_specific_annotations(
        &pod.metadata.annotations,
        &pod.spec,
        "metadata.annotations",
        opts,
    ));
    errs.extend(validate_shared_pod_spec(
        &pod.spec,
        Some(&pod.metadata.name),
        "spec",
        opts,
    ));
    errs.extend(validate_containers_only_for_pod(
        &pod.spec.containers,
        "spec.containers",
    ));
    errs.extend(validate_containers_only_for_pod(
        &pod.spec.init_containers,
        "spec.initContainers",
    ));
    errs
}

fn has_scheduling_gates(spec: &PodSpec) -> bool {
    spec.extra
        .get("schedulingGates")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// `ValidatePodCreate` with the feature gates at their 1.35 defaults.
pub fn validate_pod_create(pod: &Pod) -> Vec<FieldError> {
    validate_pod_create_gated(pod, &FeatureGates::default())
}

/// `ValidatePodCreate` with the options `GetValidationOptionsFromPodSpecAndMeta` derives from the
/// API server's feature gates.
pub fn validate_pod_create_gated(pod: &Pod, gates: &FeatureGates) -> Vec<FieldError> {
    let opts = PodValidationOptions {
        resource_is_pod: true,
        affinity: super::affinity::AffinityValidationOptions::from_gates(gates),
        ..Default::default()
    };
    let mut errs = validate_pod_metadata_and_spec(pod, opts);
    if pod
        .spec
        .extra
        .get("ephemeralContainers")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        errs.push(FieldError::forbidden(
            "spec.ephemeralContainers",
            "cannot be set on create",
        ));
    }
    if !pod.spec.node_name.is_empty() && has_scheduling_gates(&pod.spec) {
        errs.push(FieldError::forbidden(
            "spec.nodeName",
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    super::pod_spec_more::validate_security_annotations_match_on_create(
        &mut errs,
        &pod.metadata.annotations,
        &pod.spec,
    );
    errs
}

/// `ValidatePodTemplateSpec`: template labels and annotations (reported on `<path>.labels` and
/// `<path>.annotations`, as upstream), pod-specific annotations, the pod spec, deprecated
/// seccomp / AppArmor annotations that agree with the profile fields, no ephemeral containers.
pub fn validate_pod_template_spec(
    t: &PodTemplateSpec,
    path: &str,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    let mut errs = validate_labels(&t.metadata.labels, &child(path, "labels"));
    errs.extend(validate_annotations(
        &t.metadata.annotations,
        &child(path, "annotations"),
    ));
    errs.extend(validate_pod_specific_annotations(
        &t.metadata.annotations,
        &t.spec,
        &child(path, "annotations"),
        opts,
    ));
    errs.extend(validate_shared_pod_spec(
        &t.spec,
        None,
        &child(path, "spec"),
        opts,
    ));
    // validateSeccompAnnotationsAndFields and validateAppArmorAnnotationsAndFieldsMatchOnCreate.
    super::pod_spec_more::validate_security_annotations_match_at(
        &mut errs,
        &t.metadata.annotations,
        &t.spec,
        &child(path, "spec"),
    );
    if t.spec
        .extra
        .get("ephemeralContainers")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        errs.push(FieldError::forbidden(
            child(&child(path, "spec"), "ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// The fields a regular pod update may change, as the Forbidden error lists them (1.34, with
/// resizes going through the `resize` subresource).
pub const UPDATABLE_POD_SPEC_FIELDS: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidateContainerUpdates`: same number of containers, images still set. Returns `true` to
/// stop when the counts differ.
fn validate_container_updates(
    new: &[Container],
    old: &[Container],
    path: &str,
    errs: &mut Vec<FieldError>,
) -> bool {
    if new.len() != old.len() {
        errs.push(FieldError::forbidden(
            path,
            "pod updates may not add or remove containers",
        ));
        return true;
    }
    for (i, c) in new.iter().enumerate() {
        if c.image.is_empty() {
            errs.push(FieldError::required(child(&idx(path, i), "image"), ""));
        }
        if c.image.trim() != c.image {
            errs.push(FieldError::invalid(
                child(&idx(path, i), "image"),
                c.image.as_str(),
                "must not have leading or trailing whitespace",
            ));
        }
    }
    false
}

/// The Go field name of a PodSpec JSON key, for the update diff.
fn go_field_name(json_key: &str) -> String {
    match json_key {
        "dnsPolicy" => "DNSPolicy".into(),
        "dnsConfig" => "DNSConfig".into(),
        "os" => "OS".into(),
        "hostPID" => "HostPID".into(),
        "hostIPC" => "HostIPC".into(),
        k => {
            let mut c = k.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        }
    }
}

/// A compact stand-in for upstream's `cmp.Diff(oldPod.Spec, mungedPodSpec)` (go-cmp output is
/// deliberately unstable, so only its shape is reproduced): one `-`/`+` pair per changed field.
pub fn pod_spec_diff(old: &Value, new: &Value) -> String {
    let empty = Map::new();
    let o = old.as_object().unwrap_or(&empty);
    let n = new.as_object().unwrap_or(&empty);
    let keys: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
    let mut lines = vec!["  core.PodSpec{".to_string()];
    let mut same = 0;
    for k in keys {
        let (a, b) = (o.get(k), n.get(k));
        if a == b {
            same += 1;
            continue;
        }
        if same > 0 {
            lines.push(format!("  \t... // {same} identical fields"));
            same = 0;
        }
        let f = go_field_name(k);
        let show = |v: Option<&Value>| v.map(go_json).unwrap_or_else(|| "nil".into());
        lines.push(format!("- \t{f}: {},", show(a)));
        lines.push(format!("+ \t{f}: {},", show(b)));
    }
    if same > 0 {
        lines.push(format!("  \t... // {same} identical fields"));
    }
    lines.push("  }".into());
    lines.join("\n")
}

/// Internal `[]core.NodeSelectorTerm` (or one term) as Go's `json.Marshal` prints it: Go field
/// names, empty lists as `null`.
fn node_selector_terms_go_json(terms: &[NodeSelectorTerm]) -> String {
    fn reqs(rs: &[NodeSelectorRequirement], out: &mut String) {
        if rs.is_empty() {
            out.push_str("null");
            return;
        }
        out.push('[');
        for (i, r) in rs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"Key\":");
            write_go_json_string(&r.key, out);
            out.push_str(",\"Operator\":");
            write_go_json_string(&r.operator, out);
            out.push_str(",\"Values\":");
            if r.values.is_empty() {
                out.push_str("null");
            } else {
                out.push('[');
                for (j, v) in r.values.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    write_go_json_string(v, out);
                }
                out.push(']');
            }
            out.push('}');
        }
        out.push(']');
    }
    let mut out = String::new();
    for (i, t) in terms.iter().enumerate() {
        out.push(if i == 0 { '[' } else { ',' });
        out.push_str("{\"MatchExpressions\":");
        reqs(&t.match_expressions, &mut out);
        out.push_str(",\"MatchFields\":");
        reqs(&t.match_fields, &mut out);
        out.push('}');
    }
    if terms.is_empty() {
        out.push_str("null");
    } else {
        out.push(']');
    }
    out
}

/// `validateNodeSelectorTermHasOnlyAdditions`: an empty old term stays empty; otherwise the
/// old matchExpressions and matchFields must be prefixes of the new ones.
fn node_selector_term_has_only_additions(new: &NodeSelectorTerm, old: &NodeSelectorTerm) -> bool {
    if old.match_expressions.is_empty()
        && old.match_fields.is_empty()
        && (!new.match_expressions.is_empty() || !new.match_fields.is_empty())
    {
        return false;
    }
    new.match_expressions.starts_with(&old.match_expressions)
        && new.match_fields.starts_with(&old.match_fields)
}

/// `validateNodeAffinityMutation`: for a gated pod, the required node selector terms may only
/// gain requirements (no term added or removed, nothing changed or deleted); anything may be set
/// when there were no required terms.
fn validate_node_affinity_mutation(
    path: &str,
    new: Option<&NodeAffinity>,
    old: Option<&NodeAffinity>,
) -> Vec<FieldError> {
    let Some(old_ns) = old.and_then(|n| {
        n.required_during_scheduling_ignored_during_execution
            .as_ref()
    }) else {
        return vec![];
    };
    let old_terms = &old_ns.node_selector_terms;
    let new_terms: &[NodeSelectorTerm] = new
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .map_or(&[], |ns| ns.node_selector_terms.as_slice());
    let terms_path = child(
        &child(path, "requiredDuringSchedulingIgnoredDuringExecution"),
        "nodeSelectorTerms",
    );
    if !old_terms.is_empty() && old_terms.len() != new_terms.len() {
        return vec![FieldError::invalid(
            terms_path.as_str(),
            serde_json::to_value(new_terms).unwrap_or_default(),
            "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
        )
        .with_value_text(node_selector_terms_go_json(new_terms))];
    }
    let mut errs = vec![];
    for (i, (o, n)) in old_terms.iter().zip(new_terms).enumerate() {
        if !node_selector_term_has_only_additions(n, o) {
            let one = node_selector_terms_go_json(std::slice::from_ref(n));
            errs.push(
                FieldError::invalid(
                    idx(&terms_path, i),
                    serde_json::to_value(n).unwrap_or_default(),
                    "only additions are allowed (no mutations or deletions)",
                )
                .with_value_text(&one[1..one.len() - 1]),
            );
        }
    }
    errs
}

/// The pod (anti-)affinity and topology spread parts of `GetValidationOptionsFromPodSpecAndMeta`
/// for an update: the gates' options, and what the old spec already violated stays allowed.
pub fn affinity_options_for_update(
    old: &PodSpec,
    gates: &FeatureGates,
) -> super::affinity::AffinityValidationOptions {
    use super::affinity as a;
    let tsc = old.extra.get("topologySpreadConstraints");
    let mut opts = a::AffinityValidationOptions::from_gates(gates);
    opts.allow_invalid_label_value_in_selector = old
        .affinity
        .as_ref()
        .is_some_and(|af| a::has_invalid_label_value_in_affinity_selector(&af.extra));
    opts.allow_invalid_topology_spread_constraint_label_selector =
        a::has_invalid_topology_spread_constraint_label_selector(tsc);
    if opts.allow_match_label_keys_in_pod_topology_spread {
        if opts.allow_match_label_keys_in_pod_topology_spread_selector_merge {
            opts.old_pod_violates_match_label_keys_validation =
                a::has_invalid_topology_spread_constraint_match_label_keys(tsc);
        } else {
            opts.old_pod_violates_legacy_match_label_keys_validation =
                a::has_legacy_invalid_topology_spread_constraint_match_label_keys(tsc);
        }
    }
    opts
}

/// `ValidatePodSpecificAnnotationUpdates`: AppArmor and mirror-pod annotations may not be
/// added, changed or removed; the new annotations must be valid pod annotations.
pub fn validate_pod_specific_annotation_updates(
    new: &Pod,
    old: &Pod,
    path: &str,
    opts: PodValidationOptions,
) -> Vec<FieldError> {
    let mut errs = vec![];
    for (k, ov) in &old.metadata.annotations {
        if new.metadata.annotations.get(k) == Some(ov) {
            continue;
        }
        if k.starts_with(APPARMOR_PREFIX) {
            errs.push(FieldError::forbidden(
                key(path, k),
                "may not remove or update AppArmor annotations",
            ));
        }
        if k == MIRROR_POD_ANNOTATION {
            errs.push(FieldError::forbidden(
                key(path, k),
                "may not remove or update mirror pod annotation",
            ));
        }
    }
    for k in new.metadata.annotations.keys() {
        if old.metadata.annotations.contains_key(k) {
            continue;
        }
        if k.starts_with(APPARMOR_PREFIX) {
            errs.push(FieldError::forbidden(
                key(path, k),
                "may not add AppArmor annotations",
            ));
        }
        if k == MIRROR_POD_ANNOTATION {
            errs.push(FieldError::forbidden(
                key(path, k),
                "may not add mirror pod annotation",
            ));
        }
    }
    errs.extend(validate_pod_specific_annotations(
        &new.metadata.annotations,
        &new.spec,
        path,
        opts,
    ));
    errs
}

/// `ValidatePodUpdate`: the new pod must be valid, and only images, a shortened
/// activeDeadlineSeconds, added tolerations, removed scheduling gates (and, while gated, added
/// nodeSelector entries and added required node affinity requirements) may change.
///
/// kubeplay has no `pods/binding` subresource: setting `spec.nodeName` on an unbound pod is
/// accepted here as the binding (upstream's update would refuse it); changing it afterwards is not.
pub fn validate_pod_update(new: &Pod, old: &Pod) -> Vec<FieldError> {
    validate_pod_update_gated(new, old, &FeatureGates::default())
}

/// [`validate_pod_update`] with the options derived from the API server's feature gates.
/// `ValidatePodUpdate`: the checks below, then `AllowIndivisibleHugePagesValues` from the stored object
/// ([`crate::api::validation::pod::ratchet_indivisible_huge_pages`]).
pub fn validate_pod_update_gated(new: &Pod, old: &Pod, gates: &FeatureGates) -> Vec<FieldError> {
    let mut errs = validate_pod_update_gated_before_ratchet(new, old, gates);
    crate::api::validation::pod::ratchet_indivisible_huge_pages(&mut errs, &old.spec);
    errs
}

fn validate_pod_update_gated_before_ratchet(
    new: &Pod,
    old: &Pod,
    gates: &FeatureGates,
) -> Vec<FieldError> {
    let opts = PodValidationOptions {
        allow_invalid_pod_deletion_cost: old
            .metadata
            .annotations
            .get(POD_DELETION_COST)
            .is_some_and(|v| !deletion_cost_valid(v)),
        resource_is_pod: true,
        allow_invalid_label_value_in_required_node_affinity:
            has_invalid_label_value_in_required_node_affinity(&old.spec),
        affinity: affinity_options_for_update(&old.spec, gates),
        allow_any_se_linux_change_policy: sets_se_linux_change_policy(&old.spec),
    };
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    let spec_unchanged = Arc::ptr_eq(&new.spec, &old.spec) || new.spec == old.spec;
    if spec_unchanged {
        // validatePodMetadataAndSpec with the spec part skipped: the stored spec passed the same
        // checks when it was written (options on update are never stricter than on create), and
        // spec validation reads nothing but the spec and those options — so it cannot fail now.
        // Most pod updates (finalizers, labels, annotations) take this path.
        // The same holds for metadata maps still shared with the stored version.
        errs.extend(super::meta::validate_object_meta_since(
            &new.metadata,
            Some(&old.metadata),
            true,
            name_is_dns_subdomain,
            "metadata",
        ));
        errs.extend(validate_pod_specific_annotations(
            &new.metadata.annotations,
            &new.spec,
            "metadata.annotations",
            opts,
        ));
    } else {
        errs.extend(validate_pod_metadata_and_spec(new, opts));
    }
    errs.extend(validate_pod_specific_annotation_updates(
        new,
        old,
        "metadata.annotations",
        opts,
    ));

    if validate_container_updates(
        &new.spec.containers,
        &old.spec.containers,
        "spec.containers",
        &mut errs,
    ) || validate_container_updates(
        &new.spec.init_containers,
        &old.spec.init_containers,
        "spec.initContainers",
        &mut errs,
    ) {
        return errs;
    }
    match (
        new.spec.active_deadline_seconds,
        old.spec.active_deadline_seconds,
    ) {
        (Some(n), old_ads) => {
            if n < 0 || n > i64::from(i32::MAX) {
                errs.push(FieldError::invalid(
                    "spec.activeDeadlineSeconds",
                    n,
                    inclusive_range_error(0, i64::from(i32::MAX)),
                ));
                return errs;
            }
            if old_ads.is_some_and(|o| o < n) {
                errs.push(FieldError::invalid(
                    "spec.activeDeadlineSeconds",
                    n,
                    "must be less than or equal to previous value",
                ));
                return errs;
            }
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            "spec.activeDeadlineSeconds",
            Value::Null,
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }
    if spec_unchanged {
        // Tolerations and scheduling gates are the stored ones: nothing added or changed, and
        // they passed `validate_tolerations` when stored. The spec comparisons below are moot.
        return errs;
    }
    // validateOnlyAddedTolerations
    let mut tol_errs = vec![];
    for o in &old.spec.tolerations {
        let found = new.spec.tolerations.iter().any(|n| {
            Toleration {
                toleration_seconds: n.toleration_seconds,
                ..o.clone()
            } == *n
        });
        if !found {
            tol_errs.push(FieldError::forbidden(
                "spec.tolerations",
                "existing toleration can not be modified except its tolerationSeconds",
            ));
            break;
        }
    }
    if tol_errs.is_empty() {
        tol_errs.extend(validate_tolerations(
            &new.spec.tolerations,
            "spec.tolerations",
        ));
    }
    errs.extend(tol_errs);
    // validateOnlyDeletedSchedulingGates
    let gate_names = |s: &PodSpec| -> Vec<String> {
        s.extra
            .get("schedulingGates")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|g| {
                        g.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let old_gates: BTreeSet<String> = gate_names(&old.spec).into_iter().collect();
    for (i, g) in gate_names(&new.spec).iter().enumerate() {
        if !old_gates.contains(g) {
            errs.push(FieldError::forbidden(
                child(&idx("spec.schedulingGates", i), "name"),
                format!("only deletion is allowed, but found new scheduling gate '{g}'"),
            ));
        }
    }

    let new_v = serde_json::to_value(&new.spec).unwrap_or_default();
    let old_v = serde_json::to_value(&old.spec).unwrap_or_default();
    if new_v == old_v {
        return errs;
    }
    let old_qos = if old.status.qos_class.is_empty() {
        crate::api::defaults::qos_class(&old.spec)
    } else {
        old.status.qos_class.as_str()
    };
    if old_qos != crate::api::defaults::qos_class(&new.spec) {
        errs.push(FieldError::invalid(
            "metadata",
            new.status.qos_class.as_str(),
            "Pod QoS is immutable",
        ));
    }
    let mut munged = PodSpec::clone(&new.spec);
    for (c, o) in munged.containers.iter_mut().zip(&old.spec.containers) {
        c.image = o.image.clone();
    }
    for (c, o) in munged
        .init_containers
        .iter_mut()
        .zip(&old.spec.init_containers)
    {
        c.image = o.image.clone();
    }
    munged.active_deadline_seconds = old.spec.active_deadline_seconds;
    match old.spec.extra.get("schedulingGates") {
        Some(v) => {
            munged.extra.insert("schedulingGates".into(), v.clone());
        }
        None => {
            munged.extra.remove("schedulingGates");
        }
    }
    munged.tolerations = old.spec.tolerations.clone();
    if old
        .spec
        .termination_grace_period_seconds
        .is_some_and(|g| g < 0)
        && munged.termination_grace_period_seconds == Some(1)
    {
        munged.termination_grace_period_seconds = old.spec.termination_grace_period_seconds;
    }
    // kubeplay's stand-in for pods/binding.
    if old.spec.node_name.is_empty() {
        munged.node_name.clear();
    }
    if has_scheduling_gates(&old.spec) && munged.node_selector != old.spec.node_selector {
        let mutated = old
            .spec
            .node_selector
            .iter()
            .any(|(k, v)| munged.node_selector.get(k) != Some(v));
        if mutated {
            errs.push(FieldError::invalid(
                "spec.nodeSelector",
                serde_json::to_value(&munged.node_selector).unwrap_or_default(),
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
            ));
        }
        munged.node_selector = old.spec.node_selector.clone();
    }
    if has_scheduling_gates(&old.spec) {
        // Validate node affinity mutations, then munge the node affinity back to the old one.
        let old_na = old
            .spec
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref());
        let munged_na = munged
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref());
        if old_na != munged_na {
            errs.extend(validate_node_affinity_mutation(
                "spec.affinity.nodeAffinity",
                munged_na,
                old_na,
            ));
            let old_na = old_na.cloned();
            let has_pod_affinity = |a: &Affinity| {
                ["podAffinity", "podAntiAffinity"]
                    .iter()
                    .any(|k| a.extra.get(*k).is_some_and(|v| !v.is_null()))
            };
            match munged.affinity.as_mut() {
                None if old_na.is_none() => {}
                None => {
                    munged.affinity = Some(Affinity {
                        node_affinity: old_na,
                        ..Default::default()
                    });
                }
                Some(a) if old.spec.affinity.is_none() && !has_pod_affinity(a) => {
                    munged.affinity = None;
                }
                Some(a) => a.node_affinity = old_na,
            }
        }
    }
    let munged_v = serde_json::to_value(&munged).unwrap_or_default();
    if munged_v != old_v {
        errs.push(FieldError::forbidden(
            "spec",
            format!(
                "pod updates may not change fields other than {UPDATABLE_POD_SPEC_FIELDS}\n{}",
                pod_spec_diff(&old_v, &munged_v)
            ),
        ));
    }
    errs
}
