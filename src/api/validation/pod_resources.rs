//! Pod-level `resources` (`PodLevelResources`, beta and on since 1.34): how the containers'
//! requests and limits must fit inside the pod's (`validatePodResourceConsistency`) and the
//! defaulting that fills the pod's requests and hugepage limits from its containers
//! (`defaultHugePagePodLimits` and `defaultPodRequests` in `SetDefaults_Pod`).

use super::quantity::{parse_quantity, ParsedQuantity};
use super::{child, idx, key};
use crate::api::core::{Container, PodSpec, Quantity};
use crate::api::errors::FieldError;
use crate::sort::CollectBTreeMap as _;
use std::collections::BTreeMap;

fn is_hugepage(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// `resourcehelper.IsSupportedPodLevelResource`: cpu, memory and the hugepages sizes.
fn is_supported_pod_level(name: &str) -> bool {
    name == "cpu" || name == "memory" || is_hugepage(name)
}

fn parsed(list: &BTreeMap<String, Quantity>) -> BTreeMap<String, ParsedQuantity> {
    list.iter()
        .filter_map(|(k, q)| parse_quantity(q.0.trim()).ok().map(|q| (k.clone(), q)))
        .collect_btree_map()
}

fn requests_of(c: &Container) -> BTreeMap<String, ParsedQuantity> {
    c.resources
        .as_ref()
        .map(|r| parsed(&r.requests))
        .unwrap_or_default()
}

fn limits_of(c: &Container) -> BTreeMap<String, ParsedQuantity> {
    c.resources
        .as_ref()
        .map(|r| parsed(&r.limits))
        .unwrap_or_default()
}

/// `addResourceList`.
fn add_list(into: &mut BTreeMap<String, ParsedQuantity>, from: &BTreeMap<String, ParsedQuantity>) {
    for (k, q) in from {
        let sum = match into.get(k) {
            Some(cur) => cur.add(q),
            None => q.clone(),
        };
        into.insert(k.clone(), sum);
    }
}

/// `maxResourceList`.
fn max_list(into: &mut BTreeMap<String, ParsedQuantity>, from: &BTreeMap<String, ParsedQuantity>) {
    for (k, q) in from {
        let bigger = into.get(k).is_none_or(|cur| q.nanos > cur.nanos);
        if bigger {
            into.insert(k.clone(), q.clone());
        }
    }
}

fn is_sidecar(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

/// `resourcehelper.AggregateContainerRequests` / `AggregateContainerLimits`: regular and sidecar
/// containers add up; each regular init container counts with the sidecars started before it,
/// and the pod needs the larger of the two.
fn aggregate(
    spec: &PodSpec,
    of: fn(&Container) -> BTreeMap<String, ParsedQuantity>,
) -> BTreeMap<String, ParsedQuantity> {
    let mut total = BTreeMap::new();
    for c in &spec.containers {
        add_list(&mut total, &of(c));
    }
    let mut sidecars = BTreeMap::new();
    let mut init_max = BTreeMap::new();
    for c in &spec.init_containers {
        let own = of(c);
        let needed = if is_sidecar(c) {
            add_list(&mut total, &own);
            add_list(&mut sidecars, &own);
            sidecars.clone()
        } else {
            let mut tmp = BTreeMap::new();
            add_list(&mut tmp, &own);
            add_list(&mut tmp, &sidecars);
            tmp
        };
        max_list(&mut init_max, &needed);
    }
    max_list(&mut total, &init_max);
    total
}

/// `validatePodResourceConsistency` (with 1.34's skip of resources the pod level does not
/// support): the pod's requests must cover the aggregate container requests, and no regular
/// container may limit more than the pod does. `path` is the pod's `resources` path.
pub fn validate_pod_resource_consistency(spec: &PodSpec, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let Some(pod) = spec.resources.as_ref() else {
        return errs;
    };
    let pod_requests = parsed(&pod.requests);
    let pod_limits = parsed(&pod.limits);
    let req_path = child(path, "requests");
    for (name, ctr) in aggregate(spec, requests_of) {
        if !is_supported_pod_level(&name) {
            continue;
        }
        let pod_req = pod_requests
            .get(&name)
            .cloned()
            .unwrap_or_else(ParsedQuantity::zero);
        if ctr.nanos > pod_req.nanos {
            errs.push(FieldError::invalid(
                key(&req_path, &name),
                pod_req.canonical(),
                format!(
                    "must be greater than or equal to aggregate container requests of {}",
                    ctr.canonical()
                ),
            ));
        }
    }
    let ctr_path = child(path, "containers");
    for (i, c) in spec.containers.iter().enumerate() {
        for (name, lim) in limits_of(c) {
            if !is_supported_pod_level(&name) {
                continue;
            }
            let Some(pod_lim) = pod_limits.get(&name) else {
                continue;
            };
            if lim.nanos > pod_lim.nanos {
                errs.push(FieldError::invalid(
                    child(&key(&idx(&ctr_path, i), &name), "limits"),
                    lim.canonical(),
                    format!(
                        "must be less than or equal to pod limits of {}",
                        pod_lim.canonical()
                    ),
                ));
            }
        }
    }
    errs
}

/// `defaultHugePagePodLimits` then `defaultPodRequests` (pods only, after the containers'
/// requests have defaulted to their limits). A pod with `resources` setting limits or requests
/// gets, for each hugepage size its containers limit, a pod limit of their aggregate when it
/// neither requests nor limits that size; a pod with limits then requests the aggregate container
/// requests of cpu and memory it leaves unset, and each remaining limited resource defaults its
/// request to its limit.
pub fn default_pod_level_resources(spec: &mut PodSpec) {
    let Some(pod) = spec.resources.as_ref() else {
        return;
    };
    if pod.limits.is_empty() && pod.requests.is_empty() {
        return;
    }
    let aggr_limits = aggregate(spec, limits_of);
    let aggr_requests = aggregate(spec, requests_of);
    let Some(pod) = spec.resources.as_mut() else {
        return;
    };
    for (name, q) in &aggr_limits {
        if is_hugepage(name) && !pod.requests.contains_key(name) && !pod.limits.contains_key(name) {
            pod.limits.insert(name.clone(), Quantity(q.canonical()));
        }
    }
    if pod.limits.is_empty() {
        return;
    }
    for (name, q) in &aggr_requests {
        let overcommit = name == "cpu" || name == "memory";
        if overcommit && !pod.requests.contains_key(name) {
            pod.requests.insert(name.clone(), Quantity(q.canonical()));
        }
    }
    for (name, q) in pod.limits.clone() {
        if is_supported_pod_level(&name) && !pod.requests.contains_key(&name) {
            pod.requests.insert(name, q);
        }
    }
}
