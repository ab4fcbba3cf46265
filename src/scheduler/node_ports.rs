//! NodePorts: a pod's host ports must be free on the node, after upstream
//! `pkg/scheduler/framework/plugins/nodeports/node_ports.go`, `util.GetHostPorts` and
//! `framework.HostPortInfo` (the `UsedPorts` of a NodeInfo).
//!
//! The ports considered are the `hostPort`s (> 0) of the containers and of the restartable
//! init containers (sidecars, `restartPolicy: Always`), which run for the pod's whole life.
//! An empty `hostIP` means `0.0.0.0` and an empty `protocol` means `TCP`; `0.0.0.0` conflicts
//! with the same protocol and port on any IP.

use super::{Code, Status};
use crate::api::{ContainerPort, Pod};
use std::collections::{BTreeMap, BTreeSet};

/// Plugin name, as it appears in statuses.
pub const NAME: &str = "NodePorts";
/// `ErrReason`.
pub const ERR_REASON: &str = "node(s) didn't have free ports for the requested pod ports";
/// `DefaultBindAllHostIP`.
pub const DEFAULT_BIND_ALL_HOST_IP: &str = "0.0.0.0";

/// A host port wanted by a container: `hostIP`, `protocol` (as written) and `hostPort`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HostPort {
    pub host_ip: String,
    pub protocol: String,
    pub host_port: i32,
}

impl HostPort {
    fn of(p: &ContainerPort) -> Option<HostPort> {
        let host_port = p
            .extra
            .get("hostPort")
            .and_then(|v| v.as_i64())
            .and_then(|v| i32::try_from(v).ok())
            .filter(|v| *v > 0)?;
        Some(HostPort {
            host_ip: p
                .extra
                .get("hostIP")
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string(),
            protocol: p.protocol.clone().unwrap_or_default(),
            host_port,
        })
    }
}

/// `util.GetHostPorts` over several pods: the host ports (> 0) of each pod's restartable init
/// containers, then of its containers, in spec order.
pub fn get_container_ports<'p>(pods: impl IntoIterator<Item = &'p Pod>) -> Vec<HostPort> {
    let mut out = vec![];
    for pod in pods {
        let sidecars = pod
            .spec
            .init_containers
            .iter()
            .filter(|c| c.restart_policy.as_deref() == Some("Always"));
        for c in sidecars.chain(pod.spec.containers.iter()) {
            out.extend(c.ports.iter().filter_map(HostPort::of));
        }
    }
    out
}

/// Whether the pod asks for any host port (the plugin's PreFilter returns `Skip` otherwise).
pub fn has_host_ports(pod: &Pod) -> bool {
    let sidecars = pod
        .spec
        .init_containers
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"));
    sidecars
        .chain(pod.spec.containers.iter())
        .any(|c| c.ports.iter().any(|p| HostPort::of(p).is_some()))
}

/// `framework.HostPortInfo`: used (protocol, port) pairs by host IP.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostPortInfo(pub BTreeMap<String, BTreeSet<(String, i32)>>);

/// `HostPortInfo.sanitize`: `0.0.0.0` for an empty IP, `TCP` for an empty protocol.
fn sanitize(ip: &str, protocol: &str) -> (String, String) {
    let ip = if ip.is_empty() {
        DEFAULT_BIND_ALL_HOST_IP
    } else {
        ip
    };
    let protocol = if protocol.is_empty() { "TCP" } else { protocol };
    (ip.to_string(), protocol.to_string())
}

impl HostPortInfo {
    /// `HostPortInfo.Add`; ports ≤ 0 are ignored.
    pub fn add(&mut self, ip: &str, protocol: &str, port: i32) {
        if port <= 0 {
            return;
        }
        let (ip, protocol) = sanitize(ip, protocol);
        self.0.entry(ip).or_default().insert((protocol, port));
    }

    /// `HostPortInfo.Remove`; an IP left without ports is dropped.
    pub fn remove(&mut self, ip: &str, protocol: &str, port: i32) {
        if port <= 0 {
            return;
        }
        let (ip, protocol) = sanitize(ip, protocol);
        if let Some(m) = self.0.get_mut(&ip) {
            m.remove(&(protocol, port));
            if m.is_empty() {
                self.0.remove(&ip);
            }
        }
    }

    /// `HostPortInfo.Len`: the number of (IP, protocol, port) entries.
    pub fn len(&self) -> usize {
        self.0.values().map(BTreeSet::len).sum()
    }

    /// Whether no port is used.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `HostPortInfo.CheckConflict`: `0.0.0.0` conflicts with the pair on any IP; another IP
    /// with the pair on itself or on `0.0.0.0`.
    pub fn check_conflict(&self, ip: &str, protocol: &str, port: i32) -> bool {
        if port <= 0 {
            return false;
        }
        let (ip, protocol) = sanitize(ip, protocol);
        let pp = (protocol, port);
        if ip == DEFAULT_BIND_ALL_HOST_IP {
            return self.0.values().any(|m| m.contains(&pp));
        }
        [DEFAULT_BIND_ALL_HOST_IP, ip.as_str()]
            .iter()
            .any(|k| self.0.get(*k).is_some_and(|m| m.contains(&pp)))
    }

    /// Adds the host ports of a pod placed on the node (`NodeInfo.update`).
    pub fn add_pod(&mut self, pod: &Pod) {
        for p in get_container_ports([pod]) {
            self.add(&p.host_ip, &p.protocol, p.host_port);
        }
    }
}

/// `fitsPorts`: none of the wanted ports conflicts with the used ones.
pub fn fits_ports(want: &[HostPort], used: &HostPortInfo) -> bool {
    !want
        .iter()
        .any(|p| used.check_conflict(&p.host_ip, &p.protocol, p.host_port))
}

/// NodePorts Filter: Unschedulable with [`ERR_REASON`] when a wanted host port is taken. A pod
/// without host ports is never rejected (PreFilter `Skip`).
pub fn filter_node_ports(want: &[HostPort], used: &HostPortInfo) -> Option<Status> {
    if want.is_empty() || fits_ports(want, used) {
        return None;
    }
    Some(Status::new(
        Code::Unschedulable,
        NAME,
        vec![ERR_REASON.into()],
    ))
}

/// `isSchedulableAfterPodDeleted`: whether deleting `deleted` may make `pod`, rejected by this
/// plugin, schedulable: the deleted pod was assigned or nominated and held one of the ports
/// `pod` wants.
pub fn is_schedulable_after_pod_deleted(pod: &Pod, deleted: &Pod) -> bool {
    if deleted.spec.node_name.is_empty() && super::nominated_node(deleted).is_none() {
        return false;
    }
    let ports = get_container_ports([deleted]);
    if ports.is_empty() {
        return false;
    }
    let mut in_use = HostPortInfo::default();
    for p in &ports {
        in_use.add(&p.host_ip, &p.protocol, p.host_port);
    }
    !fits_ports(&get_container_ports([pod]), &in_use)
}

#[cfg(test)]
#[path = "node_ports_tests.rs"]
mod tests;
