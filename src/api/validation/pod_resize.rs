//! `ValidatePodResize` (pkg/apis/core/validation/validation.go): what the `resize` subresource
//! checks before a running pod's container requests and limits change in place.
//!
//! kubeplay does not serve the `resize` subresource (kubectl's `--subresource` takes `status`
//! and `scale`), so nothing calls this from the simulated API server yet; it is the validation
//! function alone, as upstream's unit tests exercise it. Behaviour is 1.34+: memory limits may
//! be decreased (and added) whatever the container's memory `resizePolicy` (kubernetes PR
//! #133012 dropped the 1.33 "memory limits cannot be decreased" rule); pods with pod-level
//! resources still cannot be resized (`InPlacePodLevelResourcesVerticalScaling` is alpha, off).

use super::pod::{PodValidationOptions, MIRROR_POD_ANNOTATION};
use super::quantity::parse_quantity;
use super::{child, idx};
use crate::api::core::{Container, Pod, PodSpec, Quantity, ResourceRequirements};
use crate::api::errors::FieldError;
use serde_json::Value;
use std::collections::BTreeMap;

/// `ValidatePodResize`: the new pod is valid; pods with pod-level resources, static pods and
/// Windows pods cannot be resized; the QoS class may not change; the node must report container
/// resources; requests and limits may not be removed; only cpu and memory of regular and
/// sidecar containers may change (other init containers' resources are immutable), and nothing
/// else in the spec may.
pub fn validate_pod_resize(new: &Pod, old: &Pod) -> Vec<FieldError> {
    let opts = PodValidationOptions {
        resource_is_pod: true,
        allow_any_se_linux_change_policy: super::pod::sets_se_linux_change_policy(&old.spec),
        ..Default::default()
    };
    let mut errs =
        super::meta::validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(super::pod::validate_pod_metadata_and_spec(new, opts));

    let pod_level_set = |p: &Pod| {
        p.spec
            .resources
            .as_ref()
            .is_some_and(|r| !r.requests.is_empty() || !r.limits.is_empty())
    };
    if pod_level_set(old) || pod_level_set(new) {
        return vec![FieldError::forbidden(
            "",
            "pods with pod-level resources cannot be resized",
        )];
    }
    if old.metadata.annotations.contains_key(MIRROR_POD_ANNOTATION) {
        return vec![FieldError::forbidden("", "static pods cannot be resized")];
    }
    let os_name = old
        .spec
        .extra
        .get("os")
        .and_then(|o| o.get("name"))
        .and_then(Value::as_str);
    if os_name == Some("windows") {
        return vec![FieldError::forbidden("", "windows pods cannot be resized")];
    }

    // qos.GetPodQOS(old) (the recorded class, else computed) against qos.ComputePodQOS(new).
    let old_qos = if old.status.qos_class.is_empty() {
        compute_pod_qos(&old.spec)
    } else {
        old.status.qos_class.as_str()
    };
    if old_qos != compute_pod_qos(&new.spec) {
        errs.push(FieldError::invalid(
            "spec",
            new.status.qos_class.as_str(),
            "Pod QOS Class may not change as a result of resizing",
        ));
    }
    if !is_pod_resize_request_supported(old) {
        errs.push(FieldError::forbidden(
            "spec",
            "Pod running on node without support for resize",
        ));
    }

    // Removing requests or limits is not supported (sidecars first, then regular containers).
    for (i, oc) in old.spec.init_containers.iter().enumerate() {
        if !is_restartable(oc) {
            continue;
        }
        if let Some(nc) = new.spec.init_containers.get(i) {
            validate_container_resize(
                nc,
                oc,
                &child(&idx("spec.initContainers", i), "resources"),
                &mut errs,
            );
        }
    }
    for (i, oc) in old.spec.containers.iter().enumerate() {
        if let Some(nc) = new.spec.containers.get(i) {
            validate_container_resize(
                nc,
                oc,
                &child(&idx("spec.containers", i), "resources"),
                &mut errs,
            );
        }
    }

    // Only cpu and memory may change for regular and sidecar containers; other init
    // containers' resources are immutable.
    let mut munged: PodSpec = (*new.spec).clone();
    for (i, c) in munged.containers.iter_mut().enumerate() {
        let Some(oc) = old.spec.containers.get(i) else {
            errs.push(FieldError::forbidden(
                "spec",
                "only cpu and memory resources are mutable",
            ));
            continue;
        };
        drop_cpu_memory_resources(c, oc);
        if !containers_equal(c, oc) {
            errs.push(FieldError::forbidden(
                "spec",
                "only cpu and memory resources are mutable",
            ));
        }
    }
    for (i, c) in munged.init_containers.iter_mut().enumerate() {
        let Some(oc) = old.spec.init_containers.get(i) else {
            errs.push(FieldError::forbidden(
                "spec",
                "resources for non-sidecar init containers are immutable",
            ));
            continue;
        };
        if is_restartable(c) {
            drop_cpu_memory_resources(c, oc);
            if !containers_equal(c, oc) {
                errs.push(FieldError::forbidden(
                    "spec",
                    "only cpu and memory resources for sidecar containers are mutable",
                ));
            }
        } else if !containers_equal(c, oc) {
            errs.push(FieldError::forbidden(
                "spec",
                "resources for non-sidecar init containers are immutable",
            ));
        }
    }
    if !errs.is_empty() {
        return errs;
    }
    if !specs_equal(&munged, &old.spec) {
        errs.push(FieldError::forbidden(
            "spec",
            "only cpu and memory resources are mutable",
        ));
    }
    errs
}

/// `qos.ComputePodQOS` on the spec as given (pod-level resources never reach here): unlike
/// [`crate::api::defaults::qos_class`], missing requests do not count as their limits, so a
/// container with limits only is Burstable, as upstream's unit tests (on undefaulted pods) see
/// it. Stored pods are defaulted (requests from limits), where the two agree.
fn compute_pod_qos(spec: &PodSpec) -> &'static str {
    let nanos = |q: &Quantity| parse_quantity(q.0.trim()).map(|q| q.nanos).unwrap_or(0);
    let mut requests: BTreeMap<&str, i128> = BTreeMap::new();
    let mut limits: BTreeMap<&str, i128> = BTreeMap::new();
    let mut guaranteed = true;
    for c in spec.containers.iter().chain(spec.init_containers.iter()) {
        let r = requirements(c);
        for res in ["cpu", "memory"] {
            if let Some(q) = r.requests.get(res).map(nanos).filter(|q| *q > 0) {
                *requests.entry(res).or_default() += q;
            }
        }
        let mut found = 0;
        for res in ["cpu", "memory"] {
            if let Some(q) = r.limits.get(res).map(nanos).filter(|q| *q > 0) {
                found += 1;
                *limits.entry(res).or_default() += q;
            }
        }
        if found < 2 {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed && requests.iter().any(|(k, v)| limits.get(k) != Some(v)) {
        guaranteed = false;
    }
    if guaranteed && requests.len() == limits.len() {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

fn is_restartable(c: &Container) -> bool {
    c.restart_policy.as_deref() == Some("Always")
}

/// `isPodResizeRequestSupported`: the first running container must report `resources` in its
/// status (a node without in-place resize does not); without running containers, assume yes.
fn is_pod_resize_request_supported(pod: &Pod) -> bool {
    for c in &pod.status.container_statuses {
        if c.state.as_ref().is_some_and(|s| s.running.is_some()) {
            return c.extra.get("resources").is_some_and(|r| !r.is_null());
        }
    }
    true
}

fn requirements(c: &Container) -> ResourceRequirements {
    c.resources.clone().unwrap_or_default()
}

/// `validateContainerResize` (1.34+: only the removal checks remain).
fn validate_container_resize(
    new: &Container,
    old: &Container,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let (n, o) = (requirements(new), requirements(old));
    let removed = |new: &BTreeMap<String, Quantity>, old: &BTreeMap<String, Quantity>| {
        old.len() > new.len() || old.keys().any(|k| !new.contains_key(k))
    };
    if removed(&n.requests, &o.requests) {
        errs.push(FieldError::forbidden(
            child(path, "requests"),
            "resource requests cannot be removed",
        ));
    }
    if removed(&n.limits, &o.limits) {
        errs.push(FieldError::forbidden(
            child(path, "limits"),
            "resource limits cannot be removed",
        ));
    }
}

/// `dropCPUMemoryResourcesFromContainer`: the container's cpu and memory take the old values
/// (absent when the old list lacks them), and a list the old container did not have at all is
/// dropped whole, as upstream does.
fn drop_cpu_memory_resources(c: &mut Container, old: &Container) {
    let o = requirements(old);
    let n = requirements(c);
    let drop = |list: &BTreeMap<String, Quantity>, old_list: &BTreeMap<String, Quantity>| {
        if old_list.is_empty() {
            return BTreeMap::new();
        }
        let mut m = list.clone();
        for r in ["cpu", "memory"] {
            m.remove(r);
            if let Some(q) = old_list.get(r) {
                m.insert(r.to_string(), q.clone());
            }
        }
        m
    };
    c.resources = Some(ResourceRequirements {
        limits: drop(&n.limits, &o.limits),
        requests: drop(&n.requests, &o.requests),
    });
}

/// Quantities compare by value (`apiequality.Semantic`: `1Gi` equals `1073741824`).
fn quantity_eq(a: &Quantity, b: &Quantity) -> bool {
    match (parse_quantity(a.0.trim()), parse_quantity(b.0.trim())) {
        (Ok(x), Ok(y)) => x.nanos == y.nanos,
        _ => a == b,
    }
}

fn lists_equal(a: &BTreeMap<String, Quantity>, b: &BTreeMap<String, Quantity>) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, q)| b.get(k).is_some_and(|p| quantity_eq(q, p)))
}

/// `apiequality.Semantic.DeepEqual` on containers: a missing `resources` equals an empty one.
fn containers_equal(a: &Container, b: &Container) -> bool {
    let (ra, rb) = (requirements(a), requirements(b));
    a.name == b.name
        && a.image == b.image
        && a.restart_policy == b.restart_policy
        && a.ports == b.ports
        && a.extra == b.extra
        && lists_equal(&ra.requests, &rb.requests)
        && lists_equal(&ra.limits, &rb.limits)
}

fn specs_equal(a: &PodSpec, b: &PodSpec) -> bool {
    let mut a2 = a.clone();
    let mut b2 = b.clone();
    let ok = a.containers.len() == b.containers.len()
        && a.init_containers.len() == b.init_containers.len()
        && a.containers
            .iter()
            .zip(&b.containers)
            .all(|(x, y)| containers_equal(x, y))
        && a.init_containers
            .iter()
            .zip(&b.init_containers)
            .all(|(x, y)| containers_equal(x, y));
    a2.containers.clear();
    a2.init_containers.clear();
    b2.containers.clear();
    b2.init_containers.clear();
    ok && a2 == b2
}
