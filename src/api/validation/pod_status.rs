//! `ValidatePodStatusUpdate` (pkg/apis/core/validation/validation.go): what a status write may
//! change, for the status fields kubeplay models. Resource-claim statuses, container users and
//! allocated-resources statuses are kept verbatim and not checked. The API server runs it on
//! every `pods/status` write (`podStatusStrategy.ValidateUpdate`).

use super::ip::{ip_is_ipv6, is_valid_ip_for_legacy_field};
use super::meta::{validate_object_meta_update, FIELD_IMMUTABLE};
use super::names::{is_qualified_name, name_is_dns_subdomain};
use super::pod::{validate_pod_specific_annotation_updates, PodValidationOptions};
use super::{child, idx};
use crate::api::core::{Container, ContainerStatus, Pod};
use crate::api::errors::FieldError;
use serde_json::{Map, Value};
use std::sync::Arc;

/// `ValidateContainerStateTransition`: unless the pod restarts containers, a terminated
/// container (one that succeeded, under `OnFailure`) may not leave the terminated state.
/// Errors carry the old status's index.
pub fn validate_container_state_transition(
    new: &[ContainerStatus],
    old: &[ContainerStatus],
    path: &str,
    restart_policy: &str,
) -> Vec<FieldError> {
    transition(new, old, path, restart_policy, &[])
}

/// `ValidateInitContainerStateTransition`: as [`validate_container_state_transition`], with
/// restartable (sidecar) init containers allowed to restart.
pub fn validate_init_container_state_transition(
    new: &[ContainerStatus],
    old: &[ContainerStatus],
    path: &str,
    restart_policy: &str,
    init_containers: &[Container],
) -> Vec<FieldError> {
    transition(new, old, path, restart_policy, init_containers)
}

fn terminated(s: &ContainerStatus) -> Option<&crate::api::core::ContainerStateTerminated> {
    s.state.as_ref().and_then(|st| st.terminated.as_ref())
}

fn transition(
    new: &[ContainerStatus],
    old: &[ContainerStatus],
    path: &str,
    restart_policy: &str,
    init_containers: &[Container],
) -> Vec<FieldError> {
    let mut errs = vec![];
    if restart_policy == "Always" {
        return errs;
    }
    for (i, o) in old.iter().enumerate() {
        let Some(t) = terminated(o) else {
            continue;
        };
        if t.exit_code != 0 && restart_policy == "OnFailure" {
            continue;
        }
        let restartable = init_containers
            .iter()
            .find(|c| c.name == o.name)
            .is_some_and(|c| c.restart_policy.as_deref() == Some("Always"));
        if restartable {
            continue;
        }
        for n in new {
            if n.name == o.name && terminated(n).is_none() {
                errs.push(FieldError::forbidden(
                    child(&idx(path, i), "state"),
                    "may not be transitioned to non-terminated state",
                ));
            }
        }
    }
    errs
}

/// Condition types the kubelet sets besides the system ones, all valid qualified names.
pub(crate) const KUBELET_CONDITION_TYPES: [&str; 2] =
    ["ContainersReady", "PodReadyToStartContainers"];

/// `validatePodConditions`: custom condition types are qualified names (upstream reports them
/// under `metadata.conditions[i].Type`, kept as is).
fn validate_pod_conditions(pod: &Pod, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    for (i, c) in pod.status.conditions.iter().enumerate() {
        if matches!(c.type_.as_str(), "PodScheduled" | "Ready" | "Initialized") {
            continue;
        }
        // The other condition types the kubelet writes on every status: qualified names
        // (checked by a test), so `is_qualified_name` would report nothing.
        if KUBELET_CONDITION_TYPES.contains(&c.type_.as_str()) {
            continue;
        }
        // The path is built only for an error (status writes are frequent).
        let msgs = is_qualified_name(&c.type_);
        if !msgs.is_empty() {
            let p = child(&idx(path, i), "Type");
            for m in msgs {
                errs.push(FieldError::invalid(p.as_str(), c.type_.as_str(), m));
            }
        }
    }
    errs
}

fn extra_statuses(pod: &Pod, key: &str) -> Vec<ContainerStatus> {
    pod.status
        .extra
        .get(key)
        .and_then(|v| crate::api::value_de::from_value(v.clone()).ok())
        .unwrap_or_default()
}

fn extra_str<'a>(pod: &'a Pod, key: &str) -> &'a str {
    pod.status
        .extra
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// `ValidatePodStatusUpdate`: metadata update rules, pod-specific annotation updates, custom
/// condition types, no `nodeName` change, a valid new `nominatedNodeName`, an unchanged
/// `qosClass`, no terminated container restarted against the restart policy (ephemeral
/// containers never restart) and valid pod and host IPs. As upstream, container statuses are
/// not checked against the spec's containers (names, duplicates): its comment says consumers
/// must tolerate such data. No allocation when nothing is wrong (the kubelet writes pod
/// status several times per pod).
pub fn validate_pod_status_update(new: &Pod, old: &Pod) -> Vec<FieldError> {
    // The API server's status path keeps the stored metadata, which was validated when it was
    // stored: the metadata rules (whose paths would be built for every write) only run on a
    // change.
    let mut errs = vec![];
    if new.metadata != old.metadata {
        errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
        errs.extend(validate_pod_specific_annotation_updates(
            new,
            old,
            "metadata.annotations",
            PodValidationOptions::default(),
        ));
    }
    errs.extend(validate_pod_conditions(new, "metadata.conditions"));
    // A status write keeps the stored spec (the same Arc): nothing to compare then.
    if !Arc::ptr_eq(&new.spec, &old.spec) && new.spec.node_name != old.spec.node_name {
        errs.push(FieldError::forbidden(
            "status.nodeName",
            "may not be changed directly",
        ));
    }
    let (nn, on) = (
        extra_str(new, "nominatedNodeName"),
        extra_str(old, "nominatedNodeName"),
    );
    if nn != on && !nn.is_empty() {
        for m in name_is_dns_subdomain(nn, false) {
            errs.push(FieldError::invalid("status.nominatedNodeName", nn, m));
        }
    }
    // Pod QoS is immutable (`ValidateImmutableField`).
    if new.status.qos_class != old.status.qos_class {
        errs.push(FieldError::invalid(
            "status.qosClass",
            new.status.qos_class.as_str(),
            FIELD_IMMUTABLE,
        ));
    }
    errs.extend(validate_container_state_transition(
        &new.status.container_statuses,
        &old.status.container_statuses,
        "status.containerStatuses",
        &old.spec.restart_policy,
    ));
    errs.extend(validate_init_container_state_transition(
        &new.status.init_container_statuses,
        &old.status.init_container_statuses,
        "status.initContainerStatuses",
        &old.spec.restart_policy,
        &old.spec.init_containers,
    ));
    // Only a terminated old status can be refused: decode the verbatim lists only then.
    if old.status.extra.contains_key("ephemeralContainerStatuses") {
        errs.extend(validate_container_state_transition(
            &extra_statuses(new, "ephemeralContainerStatuses"),
            &extra_statuses(old, "ephemeralContainerStatuses"),
            "status.ephemeralContainerStatuses",
            "Never",
        ));
    }
    validate_status_ips(&mut errs, new, old, IpField::Pod);
    validate_status_ips(&mut errs, new, old, IpField::Host);
    errs
}

#[derive(Clone, Copy, PartialEq)]
enum IpField {
    Pod,
    Host,
}

/// A `status.podIPs`/`hostIPs` list as the v1 → internal conversion leaves it: the singular
/// field is authoritative, so a `podIP` that is not `podIPs[0]` (or comes without a list)
/// replaces the list (`Convert_v1_PodStatus_To_core_PodStatus`).
enum Ips<'a> {
    One(&'a str),
    List(&'a [Value]),
}

impl<'a> Ips<'a> {
    fn of(status: &'a crate::api::core::PodStatus, field: IpField) -> Self {
        let (single, key) = match field {
            IpField::Pod => (status.pod_ip.as_str(), "podIPs"),
            IpField::Host => (status.host_ip.as_str(), "hostIPs"),
        };
        let list = ip_list(&status.extra, key);
        if !single.is_empty() && list.first().is_none_or(|v| ip_of(v) != single) {
            Ips::One(single)
        } else {
            Ips::List(list)
        }
    }
    fn len(&self) -> usize {
        match self {
            Ips::One(_) => 1,
            Ips::List(l) => l.len(),
        }
    }
    fn get(&self, i: usize) -> &'a str {
        match self {
            Ips::One(s) => s,
            Ips::List(l) => ip_of(&l[i]),
        }
    }
    fn contains(&self, ip: &str) -> bool {
        (0..self.len()).any(|i| self.get(i) == ip)
    }
    /// The list as Go's JSON rendering of `[]core.PodIP` / `[]core.HostIP`.
    fn to_value(&self) -> Value {
        Value::Array((0..self.len()).map(|i| ip_value(self.get(i))).collect())
    }
}

fn ip_list<'a>(extra: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    extra
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn ip_of(v: &Value) -> &str {
    v.get("ip").and_then(Value::as_str).unwrap_or_default()
}

fn ip_value(ip: &str) -> Value {
    let mut m = Map::new();
    m.insert("ip".into(), Value::from(ip));
    Value::Object(m)
}

/// `validatePodIPs` / `validateHostIPs` (new pod, old pod): `hostIPs[0]` equals `hostIP`;
/// every new IP parses (`IsValidIPForLegacyField`, with StrictIPCIDRValidation off as
/// elsewhere in kubeplay), an IP the old status already had being kept as is; more than one
/// IP must be one of each family, without duplicates. `IsDualStackIPStrings`' internal error
/// for an unparseable entry is not modelled (that entry is reported above).
fn validate_status_ips(errs: &mut Vec<FieldError>, new: &Pod, old: &Pod, field: IpField) {
    let ips = Ips::of(&new.status, field);
    if ips.len() == 0 {
        return;
    }
    let path = match field {
        IpField::Pod => "status.podIPs",
        IpField::Host => "status.hostIPs",
    };
    if field == IpField::Host && new.status.host_ip != ips.get(0) {
        errs.push(FieldError::invalid(
            child(&idx(path, 0), "ip"),
            ips.get(0),
            "must be equal to `hostIP`",
        ));
    }
    let old_ips = Ips::of(&old.status, field);
    for i in 0..ips.len() {
        let ip = ips.get(i);
        if !old_ips.contains(ip) {
            errs.extend(is_valid_ip_for_legacy_field(&idx(path, i), ip, false, &[]));
        }
    }
    if ips.len() < 2 {
        return;
    }
    let dup = |errs: &mut Vec<FieldError>| {
        for i in 1..ips.len() {
            let ip = ips.get(i);
            if (0..i).any(|j| ips.get(j) == ip) {
                errs.push(FieldError::duplicate(idx(path, i), ip_value(ip)));
            }
        }
    };
    // validateHostIPs reports duplicates before the family check, validatePodIPs after.
    if field == IpField::Host {
        dup(errs);
    }
    let families: Option<Vec<bool>> = (0..ips.len()).map(|i| ip_is_ipv6(ips.get(i))).collect();
    if let Some(f) = families {
        let dual = f.iter().any(|&v6| v6) && f.iter().any(|&v6| !v6);
        if !dual || ips.len() > 2 {
            errs.push(FieldError::invalid(
                path,
                ips.to_value(),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    if field == IpField::Pod {
        dup(errs);
    }
}

/// `ValidatePodEphemeralContainersUpdate` (the `ephemeralcontainers` subresource): the new pod
/// is valid, static pods take no ephemeral containers, and existing ephemeral containers may
/// be neither removed nor changed (order does not matter). The change diff is a stand-in for
/// go-cmp's output.
pub fn validate_pod_ephemeral_containers_update(new: &Pod, old: &Pod) -> Vec<FieldError> {
    let opts = PodValidationOptions {
        resource_is_pod: true,
        allow_any_se_linux_change_policy: super::pod::sets_se_linux_change_policy(&old.spec),
        ..Default::default()
    };
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(super::pod::validate_pod_metadata_and_spec(new, opts));
    errs.extend(validate_pod_specific_annotation_updates(
        new,
        old,
        "metadata.annotations",
        opts,
    ));
    if old
        .metadata
        .annotations
        .contains_key(super::pod::MIRROR_POD_ANNOTATION)
    {
        return vec![FieldError::forbidden(
            "",
            "static pods do not support ephemeral containers",
        )];
    }
    let list = |p: &Pod| -> Vec<Value> {
        p.spec
            .extra
            .get("ephemeralContainers")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let name_of = |c: &Value| {
        c.get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let new_list = list(new);
    for o in list(old) {
        let name = name_of(&o);
        match new_list.iter().find(|n| name_of(n) == name) {
            None => errs.push(FieldError::forbidden(
                "spec.ephemeralContainers",
                format!(
                    "existing ephemeral containers {} may not be removed\n",
                    crate::api::errors::go_quote(&name)
                ),
            )),
            Some(n) if *n != o => errs.push(FieldError::forbidden(
                "spec.ephemeralContainers",
                format!(
                    "existing ephemeral containers {} may not be changed\n{}",
                    crate::api::errors::go_quote(&name),
                    super::pod::pod_spec_diff(&o, n)
                        .replace("core.PodSpec", "core.EphemeralContainer")
                ),
            )),
            Some(_) => {}
        }
    }
    errs
}
