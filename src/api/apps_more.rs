//! `apps/v1` StatefulSet, DaemonSet and ControllerRevision in Kubernetes' JSON shape.
//!
//! Zero values are omitted exactly where upstream's `omitempty` tags omit them; fields without
//! `omitempty` (`status.replicas`, `status.availableReplicas` of a StatefulSet, the four
//! required counters of a DaemonSet, `revision` of a ControllerRevision) are always written.

use super::core::PodTemplateSpec;
use super::core_more::PersistentVolumeClaim;
use super::intstr::IntOrString;
use super::meta::{is_zero_i32, is_zero_i64, LabelSelector, ObjectMeta, Shared};
use super::time::Time;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// `OrderedReady` (the default) or `Parallel`.
pub const ORDERED_READY_POD_MANAGEMENT: &str = "OrderedReady";
pub const PARALLEL_POD_MANAGEMENT: &str = "Parallel";
/// Update strategy types shared by StatefulSet and DaemonSet.
pub const ROLLING_UPDATE_STRATEGY: &str = "RollingUpdate";
pub const ON_DELETE_STRATEGY: &str = "OnDelete";
/// PVC retention policy types.
pub const RETAIN_PVC_RETENTION: &str = "Retain";
pub const DELETE_PVC_RETENTION: &str = "Delete";

/// `apps/v1.StatefulSet`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSet {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: Shared<StatefulSetSpec>,
    #[serde(default)]
    pub status: Shared<StatefulSetStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Required by validation; `None` only while an invalid object is being decoded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    /// Shared between versions of the object and with its revisions (copy-on-write through
    /// `template_mut`).
    pub template: Arc<PodTemplateSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_claim_templates: Vec<PersistentVolumeClaim>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pod_management_policy: String,
    /// A struct upstream (never omitted).
    #[serde(default)]
    pub update_strategy: StatefulSetUpdateStrategy,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub min_ready_seconds: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistent_volume_claim_retention_policy:
        Option<StatefulSetPersistentVolumeClaimRetentionPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ordinals: Option<StatefulSetOrdinals>,
}

/// `RollingUpdate` (the default) or `OnDelete`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetUpdateStrategy {
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub type_: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateStatefulSetStrategy>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateStatefulSetStrategy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<i32>,
    /// Honoured only with the MaxUnavailableStatefulSet gate (alpha, off in 1.34).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
}

/// `whenDeleted` / `whenScaled`: `Retain` or `Delete`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetPersistentVolumeClaimRetentionPolicy {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub when_deleted: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub when_scaled: String,
}

/// `spec.ordinals` (StatefulSetStartOrdinal, on by default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetOrdinals {
    /// `json:"start"` without omitempty.
    #[serde(default)]
    pub start: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetStatus {
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub observed_generation: i64,
    #[serde(default)]
    pub replicas: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub ready_replicas: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub current_replicas: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub updated_replicas: i32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub current_revision: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub update_revision: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<WorkloadCondition>,
    #[serde(default)]
    pub available_replicas: i32,
}

/// `StatefulSetCondition` / `DaemonSetCondition` (the same fields).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl StatefulSet {
    /// `*set.Spec.Replicas` (1 when unset, as the API default).
    pub fn replicas(&self) -> i32 {
        self.spec.replicas.unwrap_or(1)
    }
}

/// `apps/v1.DaemonSet`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSet {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: Shared<DaemonSetSpec>,
    #[serde(default)]
    pub status: Shared<DaemonSetStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default)]
    /// Shared between versions of the object and with its revisions (copy-on-write through
    /// `template_mut`).
    pub template: Arc<PodTemplateSpec>,
    /// A struct upstream (never omitted).
    #[serde(default)]
    pub update_strategy: DaemonSetUpdateStrategy,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub min_ready_seconds: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetUpdateStrategy {
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub type_: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateDaemonSet>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateDaemonSet {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetStatus {
    #[serde(default)]
    pub current_number_scheduled: i32,
    #[serde(default)]
    pub number_misscheduled: i32,
    #[serde(default)]
    pub desired_number_scheduled: i32,
    #[serde(default)]
    pub number_ready: i32,
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub observed_generation: i64,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub updated_number_scheduled: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub number_available: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub number_unavailable: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<WorkloadCondition>,
}

/// `apps/v1.ControllerRevision`: an immutable snapshot of a controller's state (`data`, a
/// `RawExtension`) with a revision number.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ControllerRevision {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    #[serde(default)]
    pub revision: i64,
}

impl StatefulSetSpec {
    /// The pod template for writing: copies it first if another version shares it.
    pub fn template_mut(&mut self) -> &mut PodTemplateSpec {
        Arc::make_mut(&mut self.template)
    }
}

impl DaemonSetSpec {
    /// The pod template for writing: copies it first if another version shares it.
    pub fn template_mut(&mut self) -> &mut PodTemplateSpec {
        Arc::make_mut(&mut self.template)
    }
}
