//! `batch/v1` Job and CronJob in Kubernetes' JSON shape (camelCase, `omitempty` as upstream's
//! Go tags), with the well-known labels, annotations, finalizer, condition types and reasons.

use super::core::PodTemplateSpec;
use super::meta::{is_zero_i32, LabelSelector, ObjectMeta, Shared};
use super::time::Time;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Finalizer the Job controller puts on its pods until they are counted.
pub const JOB_TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";
/// Annotation (and, with PodIndexLabel, label) holding an Indexed Job pod's index.
pub const JOB_COMPLETION_INDEX_ANNOTATION: &str = "batch.kubernetes.io/job-completion-index";
/// Failures counted for the index so far (backoffLimitPerIndex).
pub const JOB_INDEX_FAILURE_COUNT_ANNOTATION: &str = "batch.kubernetes.io/job-index-failure-count";
/// Failures of the index ignored by the pod failure policy.
pub const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION: &str =
    "batch.kubernetes.io/job-index-ignored-failure-count";
/// When the CronJob meant the Job to start (CronJobsScheduledAnnotation).
pub const CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION: &str =
    "batch.kubernetes.io/cronjob-scheduled-timestamp";
pub const CONTROLLER_UID_LABEL: &str = "batch.kubernetes.io/controller-uid";
pub const JOB_NAME_LABEL: &str = "batch.kubernetes.io/job-name";
pub const LEGACY_CONTROLLER_UID_LABEL: &str = "controller-uid";
pub const LEGACY_JOB_NAME_LABEL: &str = "job-name";

/// Job condition types.
pub const JOB_SUSPENDED: &str = "Suspended";
pub const JOB_COMPLETE: &str = "Complete";
pub const JOB_FAILED: &str = "Failed";
pub const JOB_FAILURE_TARGET: &str = "FailureTarget";
pub const JOB_SUCCESS_CRITERIA_MET: &str = "SuccessCriteriaMet";

/// Job condition reasons.
pub const JOB_REASON_POD_FAILURE_POLICY: &str = "PodFailurePolicy";
pub const JOB_REASON_BACKOFF_LIMIT_EXCEEDED: &str = "BackoffLimitExceeded";
pub const JOB_REASON_DEADLINE_EXCEEDED: &str = "DeadlineExceeded";
pub const JOB_REASON_MAX_FAILED_INDEXES_EXCEEDED: &str = "MaxFailedIndexesExceeded";
pub const JOB_REASON_FAILED_INDEXES: &str = "FailedIndexes";
pub const JOB_REASON_SUCCESS_POLICY: &str = "SuccessPolicy";
pub const JOB_REASON_COMPLETIONS_REACHED: &str = "CompletionsReached";

pub const NON_INDEXED_COMPLETION: &str = "NonIndexed";
pub const INDEXED_COMPLETION: &str = "Indexed";

/// `batch/v1.Job`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Copy-on-write, as the metadata's maps: a Job copy shares spec and status until written.
    #[serde(default)]
    pub spec: Shared<JobSpec>,
    #[serde(default)]
    pub status: Shared<JobStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_failure_policy: Option<PodFailurePolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_policy: Option<SuccessPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit_per_index: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_failed_indexes: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manual_selector: Option<bool>,
    /// Shared between versions of the Job (and with the CronJob it came from): status writes
    /// copy a pointer. Write through [`JobSpec::template_mut`].
    #[serde(default)]
    pub template: Arc<PodTemplateSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_seconds_after_finished: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_replacement_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_by: Option<String>,
}

impl JobSpec {
    /// The pod template for writing: copies it first if another version shares it.
    pub fn template_mut(&mut self) -> &mut PodTemplateSpec {
        Arc::make_mut(&mut self.template)
    }
}

/// `PodFailurePolicy`: rules evaluated in order, the first match wins.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicy {
    #[serde(default)]
    pub rules: Vec<PodFailurePolicyRule>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyRule {
    /// `FailJob`, `FailIndex`, `Ignore` or `Count`.
    #[serde(default)]
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_exit_codes: Option<PodFailurePolicyOnExitCodesRequirement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_pod_conditions: Vec<PodFailurePolicyOnPodConditionsPattern>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyOnExitCodesRequirement {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
    /// `In` or `NotIn`.
    #[serde(default)]
    pub operator: String,
    #[serde(default)]
    pub values: Vec<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyOnPodConditionsPattern {
    #[serde(rename = "type", default)]
    pub type_: String,
    /// Defaulted to `True`.
    #[serde(default)]
    pub status: String,
}

/// `SuccessPolicy` (Indexed Jobs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SuccessPolicy {
    #[serde(default)]
    pub rules: Vec<SuccessPolicyRule>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SuccessPolicyRule {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded_indexes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded_count: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<JobCondition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_time: Option<Time>,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub active: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub succeeded: i32,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub failed: i32,
    /// Written by the controller with JobPodReplacementPolicy (a pointer: `0` is shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating: Option<i32>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub completed_indexes: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_indexes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncounted_terminated_pods: Option<UncountedTerminatedPods>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<i32>,
}

/// Pod UIDs that finished but are not yet in the counters (their finalizer is being removed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UncountedTerminatedPods {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub succeeded: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_probe_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// `batch/v1.CronJob`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJob {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Copy-on-write, as the metadata's maps: a CronJob copy shares spec and status until
    /// written.
    #[serde(default)]
    pub spec: Shared<CronJobSpec>,
    #[serde(default)]
    pub status: Shared<CronJobStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    #[serde(default)]
    pub schedule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,
    /// `Allow` (default), `Forbid` or `Replace`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub concurrency_policy: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    #[serde(default)]
    pub job_template: Box<JobTemplateSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_jobs_history_limit: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobTemplateSpec {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: JobSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<ObjectReference>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_successful_time: Option<Time>,
}

/// `core/v1.ObjectReference` (CronJob `status.active`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field_path: String,
}

impl Job {
    /// A condition of the given type, if present.
    pub fn condition(&self, type_: &str) -> Option<&JobCondition> {
        self.status.conditions.iter().find(|c| c.type_ == type_)
    }

    /// Whether a condition of the type has status `True`.
    pub fn condition_true(&self, type_: &str) -> bool {
        self.condition(type_).is_some_and(|c| c.status == "True")
    }

    /// `IsJobFinished`: `Complete` or `Failed` with status `True`.
    pub fn is_finished(&self) -> bool {
        self.status
            .conditions
            .iter()
            .any(|c| (c.type_ == JOB_COMPLETE || c.type_ == JOB_FAILED) && c.status == "True")
    }

    /// `spec.completionMode == Indexed`.
    pub fn is_indexed(&self) -> bool {
        self.spec.completion_mode.as_deref() == Some(INDEXED_COMPLETION)
    }

    /// `spec.suspend == true`.
    pub fn is_suspended(&self) -> bool {
        self.spec.suspend == Some(true)
    }
}

impl CronJob {
    pub fn is_suspended(&self) -> bool {
        self.spec.suspend == Some(true)
    }
}
