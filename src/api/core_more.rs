//! `core/v1` PersistentVolumeClaim and Service: enough of them for StatefulSets' volume claim
//! templates and headless governing Services, in Kubernetes' JSON shape.
//!
//! Fields kubeplay does not interpret (dataSource, selector, sessionAffinityConfig, ...) are kept
//! in `extra` maps so pasted manifests round-trip unchanged.

use super::core::Quantity;
use super::intstr::IntOrString;
use super::meta::{Labels, ObjectMeta};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// PVC phases.
pub const CLAIM_PENDING: &str = "Pending";
pub const CLAIM_BOUND: &str = "Bound";
pub const CLAIM_LOST: &str = "Lost";

/// `core/v1.PersistentVolumeClaim`. As an element of a StatefulSet's `volumeClaimTemplates`
/// `apiVersion`/`kind` are usually absent; a stored claim always carries them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: PersistentVolumeClaimSpec,
    #[serde(default)]
    pub status: PersistentVolumeClaimStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaimSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    /// `VolumeResourceRequirements` (a struct upstream: always written).
    #[serde(default)]
    pub resources: VolumeResourceRequirements,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub volume_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_class_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_mode: Option<String>,
    /// selector, dataSource, dataSourceRef, volumeAttributesClassName, verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VolumeResourceRequirements {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, Quantity>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<String, Quantity>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaimStatus {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: BTreeMap<String, Quantity>,
    /// conditions, allocatedResources, ... verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `core/v1.Service`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: ServiceSpec,
    #[serde(default)]
    pub status: ServiceStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ServicePort>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: Labels,
    #[serde(
        rename = "clusterIP",
        default,
        skip_serializing_if = "String::is_empty"
    )]
    pub cluster_ip: String,
    #[serde(rename = "clusterIPs", default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub type_: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub session_affinity: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_families: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_family_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_traffic_policy: Option<String>,
    /// externalName, publishNotReadyAddresses, externalTrafficPolicy, ... verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServicePort {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub protocol: String,
    #[serde(default)]
    pub port: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_port: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "crate::api::meta::is_zero_i32")]
    pub node_port: i32,
    /// appProtocol, verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `ServiceStatus`: `loadBalancer` is a struct upstream and always written (`{}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceStatus {
    #[serde(default)]
    pub load_balancer: Map<String, Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl PersistentVolumeClaim {
    pub fn is_bound(&self) -> bool {
        self.status.phase == CLAIM_BOUND
    }
}

impl Service {
    /// A headless Service (`clusterIP: None`), as a StatefulSet's governing Service is.
    pub fn is_headless(&self) -> bool {
        self.spec.cluster_ip == "None"
    }
}
