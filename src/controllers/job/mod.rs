//! The Job controller (`pkg/controller/job/job_controller.go`): pods for Jobs, counted through
//! the `batch.kubernetes.io/job-tracking` finalizer, with back-off, pod failure policy, Indexed
//! Jobs, success policy, deadlines, suspension and the delayed terminal conditions.
//!
//! * [`backoff_utils`] — the 10 s → 10 min pod failure back-off.
//! * [`indexed_job_utils`] — completion indexes and index intervals.
//! * [`pod_failure_policy`] — `matchPodFailurePolicy`.
//! * [`success_policy`] — `matchSuccessPolicy`.
//! * [`tracking_utils`] — finalizer-removal expectations.
//!
//! One sync ([`JobController::sync_job`]) follows upstream's `syncJob`: count pods (finished pods
//! go to `status.uncountedTerminatedPods`, lose their finalizer, then reach `succeeded` /
//! `failed`), decide whether the Job failed (pod failure policy `FailJob`, backoffLimit,
//! activeDeadlineSeconds, failed indexes) or succeeded (completions, success policy), otherwise
//! create or delete pods (`manageJob`), and write the status. With JobManagedBy /
//! JobPodReplacementPolicy (both on in 1.34) a failing Job first gets `FailureTarget` and a
//! succeeding one `SuccessCriteriaMet`; `Failed` / `Complete` follow once no pod is terminating.

pub mod backoff_utils;
pub mod indexed_job_utils;
pub mod pod_failure_policy;
pub mod success_policy;
pub mod tracking_utils;

use crate::api::batch::{
    Job, JobCondition, UncountedTerminatedPods, JOB_COMPLETE, JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_FAILED, JOB_FAILURE_TARGET, JOB_REASON_BACKOFF_LIMIT_EXCEEDED,
    JOB_REASON_COMPLETIONS_REACHED, JOB_REASON_DEADLINE_EXCEEDED, JOB_REASON_FAILED_INDEXES,
    JOB_REASON_MAX_FAILED_INDEXES_EXCEEDED, JOB_REASON_POD_FAILURE_POLICY,
    JOB_REASON_SUCCESS_POLICY, JOB_SUCCESS_CRITERIA_MET, JOB_SUSPENDED, JOB_TRACKING_FINALIZER,
    NON_INDEXED_COMPLETION,
};
use crate::api::{ApiError, Duration, Object, Pod, Resource, Selector, Time};
use crate::controllers::controller_utils::{
    is_pod_active, is_pod_ready, is_pod_terminating, new_controller_ref, sort_active_pods,
    sort_by_less, ControllerExpectations, SLOW_START_INITIAL_BATCH_SIZE,
};
use crate::controllers::{Controller, Ctx};
use crate::features::FeatureGates;
use crate::queue::WorkQueue;
use crate::sort::CollectBTreeMap as _;
use crate::store::apiserver::DeleteOptions;
use crate::store::{Change, SharedPod, Store};
use backoff_utils::{
    get_remaining_time_per_index, BackoffRecord, BackoffStore, DEFAULT_JOB_POD_FAILURE_BACKOFF,
    MAX_JOB_POD_FAILURE_BACKOFF,
};
use indexed_job_utils::{
    add_completion_index_env_variables, add_index_failure_count_annotation,
    append_duplicated_index_pods_for_removal, calculate_failed_indexes,
    calculate_succeeded_indexes, first_pending_indexes, get_completion_index,
    get_pods_with_delayed_deletion_per_index, has_job_tracking_finalizer,
    pod_generate_name_with_index, OrderedIntervals, UNKNOWN_COMPLETION_INDEX,
};
use pod_failure_policy::match_pod_failure_policy;
use std::collections::{BTreeMap, BTreeSet};
use tracking_utils::UidTrackingExpectations;

/// The component name events are reported from.
pub const COMPONENT: &str = "job-controller";
/// `syncJobBatchPeriod`: pod events and status updates are batched for a second.
pub const SYNC_JOB_BATCH_PERIOD: Duration = Duration::from_secs(1);
/// `DefaultJobApiBackOff` and `MaxJobApiBackOff`: the job and orphan-pod queues retry a failed
/// sync after `workqueue.NewTypedItemExponentialFailureRateLimiter(DefaultJobApiBackOff,
/// MaxJobApiBackOff)` (1 s doubling, capped at a minute), not the default controller limiter.
pub const DEFAULT_JOB_API_BACK_OFF: Duration = Duration::from_secs(1);
/// `MaxJobApiBackOff`.
pub const MAX_JOB_API_BACK_OFF: Duration = Duration::from_secs(60);
/// `MaxUncountedPods`.
pub const MAX_UNCOUNTED_PODS: usize = 500;
/// `MaxPodCreateDeletePerSync`.
pub const MAX_POD_CREATE_DELETE_PER_SYNC: usize = 500;
/// `batch.JobControllerName`: the value of `spec.managedBy` this controller owns.
pub const JOB_CONTROLLER_NAME: &str = "kubernetes.io/job-controller";
/// Queue keys of orphan pods whose tracking finalizer must be removed (upstream's `orphanQueue`).
pub const ORPHAN_PREFIX: &str = "orphan:";

/// The feature gates the Job controller reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobGates {
    pub pod_replacement_policy: bool,
    pub managed_by: bool,
    pub backoff_limit_per_index: bool,
    pub success_policy: bool,
    pub pod_index_label: bool,
}

impl Default for JobGates {
    /// Kubernetes 1.34: all on.
    fn default() -> Self {
        JobGates {
            pod_replacement_policy: true,
            managed_by: true,
            backoff_limit_per_index: true,
            success_policy: true,
            pod_index_label: true,
        }
    }
}

impl JobGates {
    pub fn from_gates(g: &FeatureGates) -> Self {
        JobGates {
            pod_replacement_policy: g.enabled("JobPodReplacementPolicy"),
            managed_by: g.enabled("JobManagedBy"),
            backoff_limit_per_index: g.enabled("JobBackoffLimitPerIndex"),
            success_policy: g.enabled("JobSuccessPolicy"),
            pod_index_label: g.enabled("PodIndexLabel"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

/// `onlyReplaceFailedPods`: podReplacementPolicy `Failed` (with the gate), or any pod failure
/// policy — terminating pods are then not replaced until they fail.
pub fn only_replace_failed_pods(job: &Job, g: &JobGates) -> bool {
    (g.pod_replacement_policy && job.spec.pod_replacement_policy.as_deref() == Some("Failed"))
        || job.spec.pod_failure_policy.is_some()
}

/// `trackTerminatingPods`.
pub fn track_terminating_pods(job: &Job, g: &JobGates) -> bool {
    g.pod_replacement_policy || g.managed_by || job.spec.pod_failure_policy.is_some()
}

/// `delayTerminalCondition`: `FailureTarget` / `SuccessCriteriaMet` come first.
pub fn delay_terminal_condition(g: &JobGates) -> bool {
    g.managed_by || g.pod_replacement_policy
}

/// `isPodFailed`: phase Failed; or, unless only failed pods are replaced, being deleted without
/// having succeeded (orphans that never reach a terminal phase).
pub fn is_pod_failed(p: &Pod, job: &Job, g: &JobGates) -> bool {
    if p.status.phase == "Failed" {
        return true;
    }
    if only_replace_failed_pods(job, g) {
        return false;
    }
    p.metadata.deletion_timestamp.is_some() && p.status.phase != "Succeeded"
}

/// `newCondition`.
pub fn new_condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: Time,
) -> JobCondition {
    JobCondition {
        type_: type_.into(),
        status: status.into(),
        last_probe_time: Some(now),
        last_transition_time: Some(now),
        reason: reason.into(),
        message: message.into(),
    }
}

/// `ensureJobConditionStatus`: replaces a condition of the type when status, reason or message
/// differ; appends a new one unless its status would be `False`. Returns whether anything changed.
pub fn ensure_job_condition_status(
    list: &mut Vec<JobCondition>,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: Time,
) -> bool {
    if let Some(c) = list.iter_mut().find(|c| c.type_ == type_) {
        if c.status != status || c.reason != reason || c.message != message {
            *c = new_condition(type_, status, reason, message, now);
            return true;
        }
        return false;
    }
    if status != "False" {
        list.push(new_condition(type_, status, reason, message, now));
        return true;
    }
    false
}

fn find_condition<'a>(list: &'a [JobCondition], t: &str) -> Option<&'a JobCondition> {
    list.iter().find(|c| c.type_ == t)
}

/// `hasSuccessCriteriaMetCondition` (success_policy.go): read when JobSuccessPolicy is on or the
/// terminal condition is delayed (JobManagedBy / JobPodReplacementPolicy), since the interim
/// `SuccessCriteriaMet` is then written without a success policy too.
pub fn has_success_criteria_met_condition(job: &Job, g: &JobGates) -> Option<JobCondition> {
    if !(g.success_policy || delay_terminal_condition(g)) {
        return None;
    }
    find_condition(&job.status.conditions, JOB_SUCCESS_CRITERIA_MET)
        .filter(|c| c.status == "True")
        .cloned()
}

/// `isSuccessCriteriaMetCondition`: as [`has_success_criteria_met_condition`], JobSuccessPolicy
/// or a delayed terminal condition.
pub fn is_success_criteria_met_condition(c: Option<&JobCondition>, g: &JobGates) -> bool {
    (g.success_policy || delay_terminal_condition(g))
        && c.is_some_and(|c| c.type_ == JOB_SUCCESS_CRITERIA_MET && c.status == "True")
}

/// `pastBackoffLimitOnFailure` (restartPolicy OnFailure): the container restarts of pending and
/// running pods reach backoffLimit (any restart when it is 0).
pub fn past_backoff_limit_on_failure(job: &Job, pods: &[&Pod]) -> bool {
    if job.spec.template.spec.restart_policy != "OnFailure" {
        return false;
    }
    let mut result = 0i32;
    for p in pods {
        if p.status.phase == "Running" || p.status.phase == "Pending" {
            for s in p
                .status
                .init_container_statuses
                .iter()
                .chain(p.status.container_statuses.iter())
            {
                result = result.wrapping_add(s.restart_count);
            }
        }
    }
    let limit = job.spec.backoff_limit.unwrap_or(6);
    if limit == 0 {
        return result > 0;
    }
    result >= limit
}

/// `pastActiveDeadline`: never while suspended.
pub fn past_active_deadline(job: &Job, now: Time) -> bool {
    let (Some(ads), Some(start)) = (job.spec.active_deadline_seconds, job.status.start_time) else {
        return false;
    };
    if job.is_suspended() {
        return false;
    }
    now - start >= Duration::from_secs(ads)
}

/// `managedByExternalController`: `spec.managedBy` naming another controller (JobManagedBy).
pub fn managed_by_external_controller(job: &Job, g: &JobGates) -> Option<String> {
    if !g.managed_by {
        return None;
    }
    job.spec
        .managed_by
        .clone()
        .filter(|m| m != JOB_CONTROLLER_NAME)
}

/// `getFailJobMessage`: the message of the first failed pod matching a `FailJob` rule.
pub fn get_fail_job_message(job: &Job, pods: &[&Pod], g: &JobGates) -> Option<String> {
    let policy = job.spec.pod_failure_policy.as_ref()?;
    pods.iter()
        .filter(|p| is_pod_failed(p, job, g))
        .find_map(|p| {
            match_pod_failure_policy(Some(policy), p, g.backoff_limit_per_index).fail_job_message
        })
}

/// `activePodsForRemoval`: for Indexed Jobs, pods with duplicate, missing or out-of-range indexes
/// first; then, to reach `rm_at_least`, the remaining pods in `ActivePods` order.
pub fn active_pods_for_removal<'a>(
    job: &Job,
    pods: &[&'a Pod],
    rm_at_least: usize,
) -> Vec<&'a Pod> {
    let (mut rm, mut left) = if job.is_indexed() {
        append_duplicated_index_pods_for_removal(pods, i64::from(job.spec.completions.unwrap_or(0)))
    } else {
        (vec![], pods.to_vec())
    };
    if rm.len() < rm_at_least {
        sort_active_pods(&mut left);
        let need = (rm_at_least - rm.len()).min(left.len());
        rm.extend(left[..need].iter().copied());
    }
    rm
}

/// Truncates the times of a status to whole seconds, as the API server stores `metav1.Time`.
fn truncate_status_times(s: &mut crate::api::batch::JobStatus) {
    let tr = |t: &mut Option<Time>| {
        if let Some(v) = t {
            *v = v.trunc_secs();
        }
    };
    tr(&mut s.start_time);
    tr(&mut s.completion_time);
    for c in s.conditions.iter_mut() {
        tr(&mut c.last_probe_time);
        tr(&mut c.last_transition_time);
    }
}

fn split_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

fn internal(message: impl Into<String>) -> ApiError {
    ApiError {
        reason: crate::api::Reason::InternalError,
        message: message.into(),
        causes: vec![],
        kind: String::new(),
        name: String::new(),
    }
}

fn wrap(prefix: &str, e: ApiError) -> ApiError {
    ApiError {
        message: format!("{prefix}: {}", e.message),
        ..e
    }
}

// ---------------------------------------------------------------------------------------------
// The controller
// ---------------------------------------------------------------------------------------------

/// Everything one `syncJob` computes (`syncJobCtx`).
struct SyncJobCtx {
    job: Job,
    pods: Vec<SharedPod>,
    finished_condition: Option<JobCondition>,
    active_pods: Vec<SharedPod>,
    succeeded: i32,
    failed: i32,
    prev_succeeded_indexes: OrderedIntervals,
    succeeded_indexes: OrderedIntervals,
    failed_indexes: Option<OrderedIntervals>,
    new_backoff_record: BackoffRecord,
    expected_rm_finalizers: BTreeSet<String>,
    uncounted_succeeded: BTreeSet<String>,
    uncounted_failed: BTreeSet<String>,
    pods_with_delayed_deletion_per_index: BTreeMap<i64, Pod>,
    terminating: Option<i32>,
    ready: i32,
}

/// The Job controller: expectations, finalizer expectations and back-off records per Job.
#[derive(Default)]
pub struct JobController {
    pub expectations: ControllerExpectations,
    pub finalizer_expectations: UidTrackingExpectations,
    pub backoff_store: BackoffStore,
    /// Scratch space for a Job's `namespace/name` while `watch` queues it (no allocation per
    /// event once the buffer has grown).
    key_buf: String,
}

impl JobController {
    pub fn new() -> Self {
        Self::default()
    }

    /// `resolveControllerRef`.
    fn resolve_controller_ref<'a>(
        store: &'a Store,
        namespace: &str,
        r: &crate::api::OwnerReference,
    ) -> Option<&'a Job> {
        if r.kind != "Job" {
            return None;
        }
        store
            .get::<Job>(namespace, &r.name)
            .filter(|j| j.metadata.uid == r.uid)
    }

    /// `getPodJobs`: Jobs whose selector matches the pod.
    fn get_pod_jobs<'a>(store: &'a Store, pod: &Pod) -> Vec<&'a Job> {
        store
            .list::<Job>(Some(&pod.metadata.namespace))
            .filter(|j| {
                j.spec
                    .selector
                    .as_ref()
                    .and_then(|s| s.to_selector().ok())
                    .is_some_and(|s: Selector| !s.is_empty() && s.matches(&pod.metadata.labels))
            })
            .collect()
    }

    fn enqueue_batched(queue: &mut WorkQueue, key: &str, now: Time) {
        queue.add_after(key, SYNC_JOB_BATCH_PERIOD, now);
    }

    fn enqueue_orphan(queue: &mut WorkQueue, pod: &Pod) {
        queue.add_prefixed(ORPHAN_PREFIX, &pod.metadata.key());
    }

    /// `addPod`.
    fn add_pod(&mut self, store: &Store, queue: &mut WorkQueue, pod: &Pod, now: Time) {
        if pod.metadata.deletion_timestamp.is_some() {
            self.delete_pod(store, queue, pod, false, now);
            return;
        }
        if let Some(r) = pod.metadata.controller_ref() {
            let Some(job) = Self::resolve_controller_ref(store, &pod.metadata.namespace, r) else {
                return;
            };
            job.metadata.write_key(&mut self.key_buf);
            let key = self.key_buf.as_str();
            self.expectations.creation_observed(key);
            Self::enqueue_batched(queue, key, now);
            return;
        }
        if has_job_tracking_finalizer(pod) {
            Self::enqueue_orphan(queue, pod);
        }
        for j in Self::get_pod_jobs(store, pod) {
            Self::enqueue_batched(queue, &j.metadata.key(), now);
        }
    }

    /// `updatePod`.
    fn update_pod(
        &mut self,
        store: &Store,
        queue: &mut WorkQueue,
        old: &Pod,
        cur: &Pod,
        now: Time,
    ) {
        if cur.metadata.resource_version == old.metadata.resource_version {
            return;
        }
        if cur.metadata.deletion_timestamp.is_some() {
            self.delete_pod(store, queue, cur, false, now);
            return;
        }
        let finalizer_removed = !has_job_tracking_finalizer(cur);
        let cur_ref = cur.metadata.controller_ref();
        let old_ref = old.metadata.controller_ref();
        let ref_changed = cur_ref != old_ref;
        if ref_changed {
            if let Some(or) = old_ref {
                if let Some(job) = Self::resolve_controller_ref(store, &old.metadata.namespace, or)
                {
                    job.metadata.write_key(&mut self.key_buf);
                    let key = self.key_buf.as_str();
                    if finalizer_removed {
                        self.finalizer_expectations
                            .finalizer_removal_observed(key, &cur.metadata.uid);
                    }
                    Self::enqueue_batched(queue, key, now);
                }
            }
        }
        if let Some(cr) = cur_ref {
            let Some(job) = Self::resolve_controller_ref(store, &cur.metadata.namespace, cr) else {
                return;
            };
            job.metadata.write_key(&mut self.key_buf);
            let key = self.key_buf.as_str();
            if finalizer_removed {
                self.finalizer_expectations
                    .finalizer_removal_observed(key, &cur.metadata.uid);
            }
            Self::enqueue_batched(queue, key, now);
            return;
        }
        if has_job_tracking_finalizer(cur) {
            Self::enqueue_orphan(queue, cur);
        }
        if cur.metadata.labels != old.metadata.labels || ref_changed {
            for j in Self::get_pod_jobs(store, cur) {
                Self::enqueue_batched(queue, &j.metadata.key(), now);
            }
        }
    }

    /// `deletePod` (`final` for the real deletion, not a deletionTimestamp update).
    fn delete_pod(
        &mut self,
        store: &Store,
        queue: &mut WorkQueue,
        pod: &Pod,
        final_: bool,
        now: Time,
    ) {
        let has_finalizer = has_job_tracking_finalizer(pod);
        let Some(r) = pod.metadata.controller_ref() else {
            if has_finalizer {
                Self::enqueue_orphan(queue, pod);
            }
            return;
        };
        let job = Self::resolve_controller_ref(store, &pod.metadata.namespace, r);
        let Some(job) = job.filter(|j| !j.is_finished()) else {
            if has_finalizer {
                Self::enqueue_orphan(queue, pod);
            }
            return;
        };
        job.metadata.write_key(&mut self.key_buf);
        let key = self.key_buf.as_str();
        self.expectations.deletion_observed(key);
        if final_ || !has_finalizer {
            self.finalizer_expectations
                .finalizer_removal_observed(key, &pod.metadata.uid);
        }
        Self::enqueue_batched(queue, key, now);
    }

    /// `updateJob`.
    fn update_job(
        &mut self,
        store: &Store,
        queue: &mut WorkQueue,
        old: &Job,
        cur: &Job,
        now: Time,
    ) {
        cur.metadata.write_key(&mut self.key_buf);
        let key = self.key_buf.as_str();
        if cur.metadata.generation == old.metadata.generation {
            Self::enqueue_batched(queue, key, now);
        } else {
            queue.add(key);
        }
        if cur.is_finished() {
            Self::cleanup_pod_finalizers(store, queue, cur);
        }
        if let (Some(start), Some(ads)) = (cur.status.start_time, cur.spec.active_deadline_seconds)
        {
            if old.spec.active_deadline_seconds != Some(ads) {
                let passed = now - start;
                queue.add_after(key, Duration(Duration::from_secs(ads).0 - passed.0), now);
            }
        }
    }

    /// `cleanupPodFinalizers`: orphan-queue the Job's pods that still carry the finalizer.
    fn cleanup_pod_finalizers(store: &Store, queue: &mut WorkQueue, job: &Job) {
        let Some(sel) = job
            .spec
            .selector
            .as_ref()
            .and_then(|s| s.to_selector().ok())
        else {
            return;
        };
        for p in store.list::<Pod>(Some(&job.metadata.namespace)) {
            if sel.matches(&p.metadata.labels)
                && p.metadata
                    .controller_ref()
                    .is_some_and(|r| r.uid == job.metadata.uid)
                && has_job_tracking_finalizer(p)
            {
                Self::enqueue_orphan(queue, p);
            }
        }
    }

    /// `syncOrphanPod`: removes the tracking finalizer of a pod whose Job is gone or finished.
    fn sync_orphan_pod(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = split_key(key);
        let Some(pod) = ctx.store().get::<Pod>(ns, name).cloned() else {
            return Ok(());
        };
        if let Some(r) = pod.metadata.controller_ref() {
            if r.kind != "Job" || r.api_version != "batch/v1" {
                return Ok(());
            }
            let g = JobGates::from_gates(ctx.gates);
            if let Some(job) = Self::resolve_controller_ref(ctx.store(), ns, r) {
                if managed_by_external_controller(job, &g).is_some() || !job.is_finished() {
                    return Ok(());
                }
            }
        }
        match remove_tracking_finalizer(ctx, &pod) {
            Err(e) if !e.is_not_found() => Err(e),
            _ => Ok(()),
        }
    }

    /// `getPodsForJob`: the namespace's pods, claimed (`ClaimPods` with the tracking finalizer):
    /// owned pods that match are kept, owned pods that no longer match are released, matching
    /// orphans are adopted (ownerReference and finalizer added) unless the Job is being deleted.
    fn get_pods_for_job(&mut self, ctx: &mut Ctx, job: &Job) -> Result<Vec<SharedPod>, ApiError> {
        let sel = crate::controllers::controller_utils::label_selector_as_selector(
            job.spec.selector.as_ref(),
        )
        .map_err(|e| internal(format!("couldn't convert Job selector: {e}")))?;
        // The label and owner indexes give every pod that could matter (owned by this Job or
        // matched by its selector), in name order as the namespace list would.
        let all =
            ctx.store()
                .pods_for_owner_shared(&job.metadata.namespace, &job.metadata.uid, &sel);
        let mut claimed = vec![];
        let mut errs = vec![];
        for p in all {
            let matches = sel.matches(&p.metadata.labels);
            match p.metadata.controller_ref() {
                Some(r) if r.uid == job.metadata.uid => {
                    if matches {
                        claimed.push(p);
                    } else if job.metadata.deletion_timestamp.is_none() {
                        // ReleasePod: the ownerReference and the tracking finalizer go.
                        let mut upd = Pod::clone(&p);
                        upd.metadata
                            .owner_references
                            .retain(|o| o.uid != job.metadata.uid);
                        upd.metadata
                            .finalizers
                            .retain(|f| f != JOB_TRACKING_FINALIZER);
                        upd.metadata.resource_version.clear();
                        if let Err(e) = ctx.update(upd.into_object()) {
                            if !e.is_not_found() {
                                errs.push(e);
                            }
                        }
                    }
                }
                Some(_) => {}
                None => {
                    if !matches
                        || job.metadata.deletion_timestamp.is_some()
                        || p.metadata.deletion_timestamp.is_some()
                    {
                        continue;
                    }
                    let mut upd = Pod::clone(&p);
                    upd.metadata.owner_references.push(new_controller_ref(
                        &job.metadata,
                        "batch/v1",
                        "Job",
                    ));
                    if !upd.metadata.has_finalizer(JOB_TRACKING_FINALIZER) {
                        upd.metadata.finalizers.push(JOB_TRACKING_FINALIZER.into());
                    }
                    upd.metadata.resource_version.clear();
                    match ctx.update(upd.into_object()) {
                        Ok(adopted) => claimed.extend(SharedPod::new(adopted)),
                        Err(e) if e.is_not_found() => {}
                        Err(e) => errs.push(e),
                    }
                }
            }
        }
        match errs.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(claimed),
        }
    }

    /// `syncJob`.
    ///
    /// # Errors
    /// An API error of a pod creation/deletion, a finalizer removal or the status update (the
    /// key is retried with back-off).
    pub fn sync_job(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = split_key(key);
        let g = JobGates::from_gates(ctx.gates);
        let now = ctx.now();
        let Some(shared) = ctx.store().get::<Job>(ns, name) else {
            self.expectations.delete_expectations(key);
            self.finalizer_expectations.delete_expectations(key);
            self.backoff_store.remove_backoff_record(key);
            return Ok(());
        };
        if managed_by_external_controller(shared, &g).is_some() {
            return Ok(());
        }
        let mut job = shared.clone();
        if job.is_finished() {
            self.backoff_store.remove_backoff_record(key);
            return Ok(());
        }
        if let Some(m) = &job.spec.completion_mode {
            if m != NON_INDEXED_COMPLETION && m != "Indexed" {
                ctx.event_on(
                    &job,
                    "Warning",
                    "UnknownCompletionMode",
                    "Skipped Job sync because completion mode is unknown",
                );
                return Ok(());
            }
        }
        if job.status.uncounted_terminated_pods.is_none() {
            job.status.uncounted_terminated_pods = Some(UncountedTerminatedPods::default());
        }
        let satisfied = self.expectations.satisfied_expectations(key, now);
        let pods = self.get_pods_for_job(ctx, &job)?;
        let uncounted = job
            .status
            .uncounted_terminated_pods
            .clone()
            .unwrap_or_default();
        let mut jc = SyncJobCtx {
            active_pods: pods.iter().filter(|p| is_pod_active(p)).cloned().collect(),
            ready: 0,
            uncounted_succeeded: uncounted.succeeded.iter().cloned().collect(),
            uncounted_failed: uncounted.failed.iter().cloned().collect(),
            expected_rm_finalizers: self.finalizer_expectations.get_expected_uids(key),
            terminating: None,
            finished_condition: None,
            succeeded: 0,
            failed: 0,
            prev_succeeded_indexes: OrderedIntervals::default(),
            succeeded_indexes: OrderedIntervals::default(),
            failed_indexes: None,
            new_backoff_record: BackoffRecord {
                key: key.into(),
                failures_after_last_success: 0,
                last_failure_time: None,
            },
            pods_with_delayed_deletion_per_index: BTreeMap::new(),
            job,
            pods,
        };
        jc.ready = jc.active_pods.iter().filter(|p| is_pod_ready(p)).count() as i32;
        if track_terminating_pods(&jc.job, &g) {
            jc.terminating = Some(jc.pods.iter().filter(|p| is_pod_terminating(p)).count() as i32);
        }
        let mut active = jc.active_pods.len() as i32;
        let (new_succeeded, new_failed) = get_new_finished_pods(&jc, &g);
        // int32 sums, as upstream (the status counters are only validated as non-negative).
        jc.succeeded = jc
            .job
            .status
            .succeeded
            .wrapping_add(new_succeeded.len() as i32)
            .wrapping_add(jc.uncounted_succeeded.len() as i32);
        let new_failed_pods: Vec<&Pod> = new_failed.iter().map(|i| &*jc.pods[*i]).collect();
        jc.failed = jc
            .job
            .status
            .failed
            .wrapping_add(non_ignored_failed_pods_count(&jc.job, &new_failed_pods, &g) as i32)
            .wrapping_add(jc.uncounted_failed.len() as i32);

        if jc.job.status.start_time.is_none() && !jc.job.is_suspended() {
            jc.job.status.start_time = Some(now);
        }
        {
            let ns: Vec<&Pod> = new_succeeded.iter().map(|i| &*jc.pods[*i]).collect();
            let nf: Vec<&Pod> = new_failed.iter().map(|i| &*jc.pods[*i]).collect();
            jc.new_backoff_record = self.backoff_store.new_backoff_record(key, &ns, &nf);
        }

        let mut manage_job_err = None;
        let exceeds_backoff_limit = jc.failed > jc.job.spec.backoff_limit.unwrap_or(6);
        jc.finished_condition = has_success_criteria_met_condition(&jc.job, &g);
        let pod_refs: Vec<&Pod> = jc.pods.iter().map(|p| &**p).collect();
        if jc.finished_condition.is_none() {
            let ft = find_condition(&jc.job.status.conditions, JOB_FAILURE_TARGET)
                .filter(|c| c.status == "True")
                .cloned();
            if let Some(ft) = ft {
                jc.finished_condition = Some(new_condition(
                    JOB_FAILED,
                    "True",
                    &ft.reason,
                    &ft.message,
                    now,
                ));
            } else if let Some(msg) = get_fail_job_message(&jc.job, &pod_refs, &g) {
                jc.finished_condition = Some(new_condition(
                    JOB_FAILURE_TARGET,
                    "True",
                    JOB_REASON_POD_FAILURE_POLICY,
                    &msg,
                    now,
                ));
            }
        }
        if jc.finished_condition.is_none() {
            if exceeds_backoff_limit || past_backoff_limit_on_failure(&jc.job, &pod_refs) {
                jc.finished_condition = Some(new_failure_condition(
                    &g,
                    JOB_REASON_BACKOFF_LIMIT_EXCEEDED,
                    "Job has reached the specified backoff limit",
                    now,
                ));
            } else if past_active_deadline(&jc.job, now) {
                jc.finished_condition = Some(new_failure_condition(
                    &g,
                    JOB_REASON_DEADLINE_EXCEEDED,
                    "Job was active longer than specified deadline",
                    now,
                ));
            } else if let (Some(ads), false) =
                (jc.job.spec.active_deadline_seconds, jc.job.is_suspended())
            {
                let start = jc.job.status.start_time.unwrap_or(now);
                let d = Duration(Duration::from_secs(ads).0 - (now - start).0);
                ctx.requeue_after(key, d);
            }
        }
        if jc.job.is_indexed() {
            let completions = i64::from(jc.job.spec.completions.unwrap_or(0));
            let (prev, cur) = calculate_succeeded_indexes(&jc.job, &pod_refs);
            jc.prev_succeeded_indexes = prev;
            jc.succeeded_indexes = cur;
            jc.succeeded = jc.succeeded_indexes.total() as i32;
            if g.backoff_limit_per_index && jc.job.spec.backoff_limit_per_index.is_some() {
                let failed_indexes = calculate_failed_indexes(&jc.job, &pod_refs, &g);
                if jc.finished_condition.is_none() {
                    if jc
                        .job
                        .spec
                        .max_failed_indexes
                        .is_some_and(|m| failed_indexes.total() > i64::from(m))
                    {
                        jc.finished_condition = Some(new_failure_condition(
                            &g,
                            JOB_REASON_MAX_FAILED_INDEXES_EXCEEDED,
                            "Job has exceeded the specified maximal number of failed indexes",
                            now,
                        ));
                    } else if failed_indexes.total() > 0
                        && failed_indexes.total() + jc.succeeded_indexes.total() >= completions
                    {
                        jc.finished_condition = Some(new_failure_condition(
                            &g,
                            JOB_REASON_FAILED_INDEXES,
                            "Job has failed indexes",
                            now,
                        ));
                    }
                }
                jc.failed_indexes = Some(failed_indexes);
                let valid = get_valid_pods(&jc, &BTreeSet::new());
                let active_refs: Vec<&Pod> = jc.active_pods.iter().map(|p| &**p).collect();
                let delayed = get_pods_with_delayed_deletion_per_index(
                    &jc.job,
                    &valid,
                    &active_refs,
                    &jc.succeeded_indexes,
                    jc.failed_indexes.as_ref(),
                    &g,
                );
                jc.pods_with_delayed_deletion_per_index = delayed
                    .into_iter()
                    .map(|(k, p)| (k, p.clone()))
                    .collect_btree_map();
            }
            if jc.finished_condition.is_none() {
                if let Some(msg) = success_policy::match_success_policy(
                    jc.job.spec.success_policy.as_ref(),
                    completions,
                    &jc.succeeded_indexes,
                    g.success_policy,
                ) {
                    jc.finished_condition = Some(new_condition(
                        JOB_SUCCESS_CRITERIA_MET,
                        "True",
                        JOB_REASON_SUCCESS_POLICY,
                        &msg,
                        now,
                    ));
                }
            }
        }
        drop(pod_refs);

        let mut suspend_cond_changed = false;
        if jc.finished_condition.is_some() {
            let active_pods = jc.active_pods.clone();
            let (deleted_ready, deleted, err) = delete_active_pods(ctx, &jc.job, &active_pods);
            if deleted != active || !satisfied {
                // Pods may remain (or be unseen yet): not finished in this sync.
                jc.finished_condition = None;
            }
            active -= deleted;
            if let Some(t) = jc.terminating.as_mut() {
                *t += deleted;
            }
            jc.ready -= deleted_ready;
            manage_job_err = err;
        } else {
            let mut manage_job_called = false;
            if satisfied && jc.job.metadata.deletion_timestamp.is_none() {
                let (a, err) = self.manage_job(ctx, &mut jc, key, &g);
                active = a;
                manage_job_err = err;
                manage_job_called = true;
            }
            let complete = match jc.job.spec.completions {
                None => jc.succeeded > 0 && active == 0,
                Some(c) => jc.succeeded >= c && active == 0,
            };
            if complete {
                jc.finished_condition = Some(new_success_condition(&g, now));
            } else if manage_job_called {
                if jc.job.is_suspended() {
                    if ensure_job_condition_status(
                        &mut jc.job.status.conditions,
                        JOB_SUSPENDED,
                        "True",
                        "JobSuspended",
                        "Job suspended",
                        now,
                    ) {
                        suspend_cond_changed = true;
                        ctx.event_on(&jc.job, "Normal", "Suspended", "Job suspended");
                    }
                } else if ensure_job_condition_status(
                    &mut jc.job.status.conditions,
                    JOB_SUSPENDED,
                    "False",
                    "JobResumed",
                    "Job resumed",
                    now,
                ) {
                    suspend_cond_changed = true;
                    ctx.event_on(&jc.job, "Normal", "Resumed", "Job resumed");
                    // ActiveDeadlineSeconds counts continuous activity: a resumed Job starts over.
                    jc.job.status.start_time = Some(now);
                }
            }
        }

        let terminating = if g.pod_replacement_policy {
            jc.terminating
        } else {
            None
        };
        let needs_status_update = suspend_cond_changed
            || active != jc.job.status.active
            || Some(jc.ready) != jc.job.status.ready
            || jc.job.status.terminating != terminating;
        jc.job.status.active = active;
        jc.job.status.ready = Some(jc.ready);
        jc.job.status.terminating = terminating;
        self.track_job_status_and_remove_finalizers(ctx, &mut jc, needs_status_update, key, &g)
            .map_err(|e| wrap("tracking status", e))?;
        match manage_job_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// `manageJob`: creates or deletes pods to match the wanted number of active pods. Returns
    /// the new active count and the first error.
    fn manage_job(
        &mut self,
        ctx: &mut Ctx,
        jc: &mut SyncJobCtx,
        key: &str,
        g: &JobGates,
    ) -> (i32, Option<ApiError>) {
        let now = ctx.now();
        let job = &jc.job;
        let mut active = jc.active_pods.len() as i32;
        let parallelism = job.spec.parallelism.unwrap_or(1);
        let active_refs: Vec<&Pod> = jc.active_pods.iter().map(|p| &**p).collect();

        if job.is_suspended() {
            let to_delete = active_pods_for_removal(job, &active_refs, active as usize);
            self.expectations
                .expect_deletions(key, to_delete.len() as i64, now);
            let (removed_ready, removed, err) = self.delete_job_pods(ctx, job, key, &to_delete);
            active -= removed;
            if let Some(t) = jc.terminating.as_mut() {
                *t += removed;
            }
            jc.ready -= removed_ready;
            return (active, err);
        }

        let want_active = match job.spec.completions {
            None => {
                if jc.succeeded > 0 {
                    active
                } else {
                    parallelism
                }
            }
            Some(c) => c.wrapping_sub(jc.succeeded).min(parallelism).max(0),
        };
        let rm_at_least = (active - want_active).max(0) as usize;
        let mut to_delete = active_pods_for_removal(job, &active_refs, rm_at_least);
        to_delete.truncate(MAX_POD_CREATE_DELETE_PER_SYNC);
        if !to_delete.is_empty() {
            self.expectations
                .expect_deletions(key, to_delete.len() as i64, now);
            let (removed_ready, removed, err) = self.delete_job_pods(ctx, job, key, &to_delete);
            active -= removed;
            if let Some(t) = jc.terminating.as_mut() {
                *t += removed;
            }
            jc.ready -= removed_ready;
            // Never create and delete in the same sync; deletion wins.
            return (active, err);
        }

        let terminating = if only_replace_failed_pods(job, g) {
            jc.terminating.unwrap_or(0)
        } else {
            0
        };
        let mut diff = want_active - terminating - active;
        if diff <= 0 {
            return (active, None);
        }
        let has_blpi = g.backoff_limit_per_index && job.spec.backoff_limit_per_index.is_some();
        let remaining = if has_blpi {
            Duration::ZERO
        } else {
            jc.new_backoff_record.get_remaining_time(
                now,
                DEFAULT_JOB_POD_FAILURE_BACKOFF,
                MAX_JOB_POD_FAILURE_BACKOFF,
            )
        };
        if remaining.0 > 0 {
            enqueue_with_delay(ctx, key, remaining);
            // No pod is created or deleted: the real active count (upstream manageJob after
            // kubernetes/kubernetes#139428, PR #139457, in the 1.35 patch releases via #139751;
            // returning 0 made status.active < status.ready, which the API server refuses).
            return (active, None);
        }
        diff = diff.min(MAX_POD_CREATE_DELETE_PER_SYNC as i32);
        let mut indexes: Vec<i64> = vec![];
        if job.is_indexed() {
            let completions = i64::from(job.spec.completions.unwrap_or(0));
            let terminating_pods: Vec<&Pod> = jc
                .pods
                .iter()
                .map(|p| &**p)
                .filter(|p| is_pod_terminating(p))
                .collect();
            indexes = first_pending_indexes(
                &active_refs,
                only_replace_failed_pods(job, g).then_some(&terminating_pods[..]),
                &jc.succeeded_indexes,
                jc.failed_indexes.as_ref(),
                diff as usize,
                completions,
            );
            if has_blpi {
                let (now_indexes, rem) = get_pod_creation_info_for_independent_indexes(
                    now,
                    &indexes,
                    &jc.pods_with_delayed_deletion_per_index,
                );
                if rem.0 > 0 {
                    enqueue_with_delay(ctx, key, rem);
                    // The real active count, as the global back-off above (PR #139457).
                    return (active, None);
                }
                indexes = now_indexes;
            }
            diff = indexes.len() as i32;
        }
        self.expectations
            .expect_creations(key, i64::from(diff), now);
        active += diff;
        let mut template = crate::api::PodTemplateSpec::clone(&job.spec.template);
        if job.is_indexed() {
            add_completion_index_env_variables(&mut template, g.pod_index_label);
        }
        if !template
            .metadata
            .finalizers
            .iter()
            .any(|f| f == JOB_TRACKING_FINALIZER)
        {
            template
                .metadata
                .finalizers
                .push(JOB_TRACKING_FINALIZER.into());
        }
        let owner: &Job = job;
        let controller_ref = new_controller_ref(&job.metadata, "batch/v1", "Job");
        let mut errs: Vec<ApiError> = vec![];
        let mut queue_of_indexes = indexes.into_iter();
        let mut batch = diff.min(SLOW_START_INITIAL_BATCH_SIZE as i32);
        while diff > 0 {
            let error_count = errs.len();
            for _ in 0..batch {
                let ix = queue_of_indexes.next().unwrap_or(UNKNOWN_COMPLETION_INDEX);
                let mut t = template.clone();
                let mut generate_name = String::new();
                if ix != UNKNOWN_COMPLETION_INDEX {
                    t.metadata
                        .annotations
                        .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.to_string());
                    if g.pod_index_label {
                        t.metadata
                            .labels
                            .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.to_string());
                    }
                    t.spec_mut().hostname = format!("{}-{ix}", job.metadata.name);
                    generate_name = pod_generate_name_with_index(&job.metadata.name, ix);
                    if has_blpi {
                        add_index_failure_count_annotation(
                            &mut t,
                            job,
                            jc.pods_with_delayed_deletion_per_index.get(&ix),
                            g,
                        );
                    }
                }
                if let Err(e) =
                    create_pods_with_generate_name(ctx, &t, owner, &controller_ref, &generate_name)
                {
                    self.expectations.creation_observed(key);
                    active -= 1;
                    errs.push(e);
                }
            }
            let skipped = diff - batch;
            if errs.len() > error_count && skipped > 0 {
                active -= skipped;
                for _ in 0..skipped {
                    self.expectations.creation_observed(key);
                }
                break;
            }
            diff -= batch;
            batch = (2 * batch).min(diff);
        }
        (active, errs.into_iter().next())
    }

    /// `deleteJobPods`: removes the tracking finalizer, then deletes. Returns (ready pods
    /// deleted, pods deleted, first error).
    fn delete_job_pods(
        &mut self,
        ctx: &mut Ctx,
        job: &Job,
        key: &str,
        pods: &[&Pod],
    ) -> (i32, i32, Option<ApiError>) {
        let mut successful = pods.len() as i32;
        let mut deleted_ready = 0;
        let mut first_err = None;
        let owner: &Job = job;
        for p in pods {
            let mut fail = |this: &mut Self, e: ApiError, successful: &mut i32| {
                this.expectations.deletion_observed(key);
                if !e.is_not_found() {
                    *successful -= 1;
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            };
            if has_job_tracking_finalizer(p) {
                if let Err(e) = remove_tracking_finalizer(ctx, p) {
                    fail(
                        self,
                        wrap("removing completion finalizer", e),
                        &mut successful,
                    );
                    continue;
                }
            }
            if let Err(e) = delete_pod(ctx, owner, &p.metadata.namespace, &p.metadata.name) {
                fail(self, e, &mut successful);
            }
            if is_pod_ready(p) {
                deleted_ready += 1;
            }
        }
        (deleted_ready, successful, first_err)
    }

    /// `trackJobStatusAndRemoveFinalizers`: records newly finished pods in
    /// `uncountedTerminatedPods`, removes their finalizers, moves them into the counters, adds the
    /// interim and final conditions and writes the status.
    fn track_job_status_and_remove_finalizers(
        &mut self,
        ctx: &mut Ctx,
        jc: &mut SyncJobCtx,
        mut needs_flush: bool,
        key: &str,
        g: &JobGates,
    ) -> Result<(), ApiError> {
        let now = ctx.now();
        let is_indexed = jc.job.is_indexed();
        let completions = i64::from(jc.job.spec.completions.unwrap_or(0));
        if is_indexed {
            sort_by_less(&mut jc.pods, |a, b| {
                get_completion_index(a) < get_completion_index(b)
            });
        }
        let mut uids_with_finalizer: BTreeSet<String> = jc
            .pods
            .iter()
            .filter(|p| {
                has_job_tracking_finalizer(p)
                    && !jc.expected_rm_finalizers.contains(&p.metadata.uid)
            })
            .map(|p| p.metadata.uid.clone())
            .collect();
        let mut old_counters = jc.job.status.clone();
        if clean_uncounted_pods_without_finalizers(&mut jc.job.status, &uids_with_finalizer) {
            needs_flush = true;
        }
        let mut pods_to_remove: Vec<SharedPod> = vec![];
        let mut new_succeeded_indexes: Vec<i64> = vec![];
        let mut reached_max = false;
        let pods = jc.pods.clone();
        for pod in &pods {
            let uid = &pod.metadata.uid;
            if !has_job_tracking_finalizer(pod) || jc.expected_rm_finalizers.contains(uid) {
                continue;
            }
            let consider_failed = is_pod_failed(pod, &jc.job, g);
            if !can_remove_finalizer(jc, pod, consider_failed, g) {
                continue;
            }
            pods_to_remove.push(pod.clone());
            let uncounted = jc
                .job
                .status
                .uncounted_terminated_pods
                .get_or_insert_with(Default::default);
            if pod.status.phase == "Succeeded" && !jc.uncounted_failed.contains(uid) {
                if is_indexed {
                    let ix = get_completion_index(pod);
                    if ix != UNKNOWN_COMPLETION_INDEX
                        && ix < completions
                        && !jc.prev_succeeded_indexes.has(ix)
                    {
                        new_succeeded_indexes.push(ix);
                        needs_flush = true;
                    }
                } else if !jc.uncounted_succeeded.contains(uid) {
                    needs_flush = true;
                    uncounted.succeeded.push(uid.clone());
                }
            } else if consider_failed
                || (jc.finished_condition.is_some()
                    && !is_success_criteria_met_condition(jc.finished_condition.as_ref(), g))
            {
                let ix = get_completion_index(pod);
                if !jc.uncounted_failed.contains(uid)
                    && (!is_indexed || (ix != UNKNOWN_COMPLETION_INDEX && ix < completions))
                {
                    let counted = jc.job.spec.pod_failure_policy.is_none()
                        || match_pod_failure_policy(
                            jc.job.spec.pod_failure_policy.as_ref(),
                            pod,
                            g.backoff_limit_per_index,
                        )
                        .count_failed;
                    if counted {
                        needs_flush = true;
                        uncounted.failed.push(uid.clone());
                    }
                }
            }
            let u = jc.job.status.uncounted_terminated_pods.as_ref();
            let n =
                new_succeeded_indexes.len() + u.map_or(0, |u| u.succeeded.len() + u.failed.len());
            if n >= MAX_UNCOUNTED_PODS {
                reached_max = true;
                break;
            }
        }
        if is_indexed {
            jc.succeeded_indexes = jc
                .succeeded_indexes
                .with_ordered_indexes(&new_succeeded_indexes);
            let s = jc.succeeded_indexes.to_string();
            if s != jc.job.status.completed_indexes {
                needs_flush = true;
            }
            jc.job.status.succeeded = jc.succeeded_indexes.total() as i32;
            jc.job.status.completed_indexes = s;
            let failed_str = jc.failed_indexes.as_ref().map(ToString::to_string);
            if jc.job.status.failed_indexes != failed_str {
                jc.job.status.failed_indexes = failed_str;
                needs_flush = true;
            }
        }
        if let Some(fc) = jc.finished_condition.clone() {
            if fc.type_ == JOB_FAILURE_TARGET {
                jc.job.status.conditions.push(fc.clone());
                needs_flush = true;
                jc.finished_condition = Some(new_condition(
                    JOB_FAILED,
                    "True",
                    &fc.reason,
                    &fc.message,
                    now,
                ));
            }
        }
        if is_success_criteria_met_condition(jc.finished_condition.as_ref(), g) {
            let fc = jc.finished_condition.clone().expect("checked");
            if has_success_criteria_met_condition(&jc.job, g).is_none() {
                jc.job.status.conditions.push(fc.clone());
                needs_flush = true;
            }
            jc.finished_condition = Some(new_condition(
                JOB_COMPLETE,
                "True",
                &fc.reason,
                &fc.message,
                now,
            ));
        }
        needs_flush = self.flush_uncounted_and_remove_finalizers(
            ctx,
            jc,
            &pods_to_remove,
            &mut uids_with_finalizer,
            &mut old_counters,
            needs_flush,
            key,
        )?;
        let job_finished = !reached_max && enact_job_finished(jc, g, now);
        if job_finished {
            needs_flush = true;
        }
        if needs_flush {
            update_job_status(ctx, &mut jc.job)
                .map_err(|e| wrap("removing uncounted pods from status", e))?;
            if job_finished {
                record_job_finished(ctx, &jc.job, jc.finished_condition.as_ref());
            }
        }
        Ok(())
    }

    /// `flushUncountedAndRemoveFinalizers`.
    #[allow(clippy::too_many_arguments)]
    fn flush_uncounted_and_remove_finalizers(
        &mut self,
        ctx: &mut Ctx,
        jc: &mut SyncJobCtx,
        pods_to_remove: &[SharedPod],
        uids_with_finalizer: &mut BTreeSet<String>,
        old_counters: &mut crate::api::batch::JobStatus,
        mut needs_flush: bool,
        key: &str,
    ) -> Result<bool, ApiError> {
        if needs_flush {
            update_job_status(ctx, &mut jc.job)
                .map_err(|e| wrap("adding uncounted pods to status", e))?;
            self.backoff_store
                .update_backoff_record(jc.new_backoff_record.clone());
            *old_counters = (*jc.job.status).clone();
            needs_flush = false;
        }
        let mut rm_err = None;
        if !pods_to_remove.is_empty() {
            let uids: Vec<String> = pods_to_remove
                .iter()
                .map(|p| p.metadata.uid.clone())
                .collect();
            self.finalizer_expectations
                .expect_finalizers_removed(key, &uids);
            for p in pods_to_remove {
                match remove_tracking_finalizer(ctx, p) {
                    Ok(()) => {
                        uids_with_finalizer.remove(&p.metadata.uid);
                    }
                    Err(e) => {
                        self.finalizer_expectations
                            .finalizer_removal_observed(key, &p.metadata.uid);
                        if e.is_not_found() {
                            uids_with_finalizer.remove(&p.metadata.uid);
                        } else if rm_err.is_none() {
                            rm_err = Some(e);
                        }
                    }
                }
            }
        }
        if clean_uncounted_pods_without_finalizers(&mut jc.job.status, uids_with_finalizer) {
            needs_flush = true;
        }
        if let Some(e) = rm_err {
            if needs_flush {
                update_job_status(ctx, &mut jc.job)
                    .map_err(|e| wrap("removing uncounted pods from status", e))?;
            }
            return Err(e);
        }
        Ok(needs_flush)
    }
}

/// `newFailureCondition`: `FailureTarget` when terminal conditions are delayed, else `Failed`.
fn new_failure_condition(g: &JobGates, reason: &str, message: &str, now: Time) -> JobCondition {
    let t = if delay_terminal_condition(g) {
        JOB_FAILURE_TARGET
    } else {
        JOB_FAILED
    };
    new_condition(t, "True", reason, message, now)
}

/// `newSuccessCondition`: `SuccessCriteriaMet` (or `Complete`) with reason `CompletionsReached`
/// and "Reached expected number of succeeded pods" (JobSuccessPolicy, 1.31+).
fn new_success_condition(g: &JobGates, now: Time) -> JobCondition {
    let t = if delay_terminal_condition(g) {
        JOB_SUCCESS_CRITERIA_MET
    } else {
        JOB_COMPLETE
    };
    let (reason, message) = if g.success_policy {
        (
            JOB_REASON_COMPLETIONS_REACHED,
            "Reached expected number of succeeded pods",
        )
    } else {
        ("", "")
    };
    new_condition(t, "True", reason, message, now)
}

/// `getValidPodsWithFilter`'s validity test: the pod has the finalizer, is not in `uncounted`,
/// is not expected to lose its finalizer, and (Indexed) has a valid index.
fn is_valid_pod(jc: &SyncJobCtx, p: &Pod, uncounted: &BTreeSet<String>) -> bool {
    let uid = &p.metadata.uid;
    if !has_job_tracking_finalizer(p)
        || uncounted.contains(uid)
        || jc.expected_rm_finalizers.contains(uid)
    {
        return false;
    }
    if jc.job.is_indexed() {
        let ix = get_completion_index(p);
        let completions = i64::from(jc.job.spec.completions.unwrap_or(0));
        if ix == UNKNOWN_COMPLETION_INDEX || ix >= completions {
            return false;
        }
    }
    true
}

/// `getValidPodsWithFilter` without a filter.
fn get_valid_pods<'a>(jc: &'a SyncJobCtx, uncounted: &BTreeSet<String>) -> Vec<&'a Pod> {
    jc.pods
        .iter()
        .map(|p| &**p)
        .filter(|p| is_valid_pod(jc, p, uncounted))
        .collect()
}

/// `getNewFinishedPods`: indexes (into `jc.pods`) of pods that succeeded / failed and are not
/// counted yet.
fn get_new_finished_pods(jc: &SyncJobCtx, g: &JobGates) -> (Vec<usize>, Vec<usize>) {
    let succ = (0..jc.pods.len())
        .filter(|&i| {
            let p = &jc.pods[i];
            is_valid_pod(jc, p, &jc.uncounted_succeeded) && p.status.phase == "Succeeded"
        })
        .collect();
    let fail = (0..jc.pods.len())
        .filter(|&i| {
            let p = &jc.pods[i];
            is_valid_pod(jc, p, &jc.uncounted_failed) && is_pod_failed(p, &jc.job, g)
        })
        .collect();
    (succ, fail)
}

/// `nonIgnoredFailedPodsCount`: new failures the pod failure policy does not ignore.
fn non_ignored_failed_pods_count(job: &Job, failed: &[&Pod], g: &JobGates) -> usize {
    match &job.spec.pod_failure_policy {
        None => failed.len(),
        Some(p) => failed
            .iter()
            .filter(|f| {
                match_pod_failure_policy(Some(p), f, g.backoff_limit_per_index).count_failed
            })
            .count(),
    }
}

/// `canRemoveFinalizer`.
fn can_remove_finalizer(jc: &SyncJobCtx, pod: &Pod, consider_failed: bool, g: &JobGates) -> bool {
    if jc.job.metadata.deletion_timestamp.is_some()
        || jc.finished_condition.is_some()
        || pod.status.phase == "Succeeded"
    {
        return true;
    }
    if !consider_failed {
        return false;
    }
    if g.backoff_limit_per_index && jc.job.spec.backoff_limit_per_index.is_some() {
        let ix = get_completion_index(pod);
        if ix != UNKNOWN_COMPLETION_INDEX {
            if let Some(p) = jc.pods_with_delayed_deletion_per_index.get(&ix) {
                if p.metadata.uid == pod.metadata.uid {
                    return false;
                }
            }
        }
    }
    true
}

/// `cleanUncountedPodsWithoutFinalizers`: uncounted UIDs whose finalizer is gone move into the
/// counters.
fn clean_uncounted_pods_without_finalizers(
    status: &mut crate::api::batch::JobStatus,
    with_finalizer: &BTreeSet<String>,
) -> bool {
    let mut updated = false;
    let u = status
        .uncounted_terminated_pods
        .get_or_insert_with(Default::default);
    let keep: Vec<String> = u
        .succeeded
        .iter()
        .filter(|x| with_finalizer.contains(*x))
        .cloned()
        .collect();
    if keep.len() != u.succeeded.len() {
        updated = true;
        status.succeeded = status
            .succeeded
            .wrapping_add((u.succeeded.len() - keep.len()) as i32);
        u.succeeded = keep;
    }
    let keep: Vec<String> = u
        .failed
        .iter()
        .filter(|x| with_finalizer.contains(*x))
        .cloned()
        .collect();
    if keep.len() != u.failed.len() {
        updated = true;
        status.failed = status
            .failed
            .wrapping_add((u.failed.len() - keep.len()) as i32);
        u.failed = keep;
    }
    updated
}

/// `enactJobFinished`: adds `Complete` / `Failed` once nothing is uncounted and (delayed terminal
/// conditions) no pod is terminating.
fn enact_job_finished(jc: &mut SyncJobCtx, g: &JobGates, now: Time) -> bool {
    let Some(fc) = jc.finished_condition.clone() else {
        return false;
    };
    if let Some(u) = &jc.job.status.uncounted_terminated_pods {
        if !u.succeeded.is_empty() || !u.failed.is_empty() {
            return false;
        }
    }
    if delay_terminal_condition(g) && jc.terminating.unwrap_or(0) > 0 {
        return false;
    }
    ensure_job_condition_status(
        &mut jc.job.status.conditions,
        &fc.type_,
        &fc.status,
        &fc.reason,
        &fc.message,
        now,
    );
    if fc.type_ == JOB_COMPLETE {
        jc.job.status.completion_time = find_condition(&jc.job.status.conditions, JOB_COMPLETE)
            .and_then(|c| c.last_transition_time);
    }
    true
}

/// `recordJobFinished`: `Completed "Job completed"` (and `TooManySucceededPods`), or a warning
/// with the failure reason and message.
fn record_job_finished(ctx: &mut Ctx, job: &Job, fc: Option<&JobCondition>) {
    let Some(fc) = fc else { return };
    let o = job;
    if fc.type_ == JOB_COMPLETE {
        if job
            .spec
            .completions
            .is_some_and(|c| job.status.succeeded > c)
        {
            ctx.event(
                o,
                "Warning",
                "TooManySucceededPods",
                "Too many succeeded pods running after completion count reached",
            );
        }
        ctx.event(o, "Normal", "Completed", "Job completed");
    } else {
        ctx.event(o, "Warning", &fc.reason, &fc.message);
    }
}

/// `getPodCreationInfoForIndependentIndexes`: the indexes whose per-index back-off is over, or
/// the shortest remaining back-off when none is.
fn get_pod_creation_info_for_independent_indexes(
    now: Time,
    indexes: &[i64],
    delayed: &BTreeMap<i64, Pod>,
) -> (Vec<i64>, Duration) {
    let mut ready = vec![];
    let mut min: Option<Duration> = None;
    for ix in indexes {
        let r = get_remaining_time_per_index(
            now,
            DEFAULT_JOB_POD_FAILURE_BACKOFF,
            MAX_JOB_POD_FAILURE_BACKOFF,
            delayed.get(ix),
        );
        if r.0 == 0 {
            ready.push(*ix);
        } else if min.is_none_or(|m| r < m) {
            min = Some(r);
        }
    }
    if !ready.is_empty() {
        return (ready, Duration::ZERO);
    }
    (ready, min.unwrap_or(Duration::ZERO))
}

/// `enqueueSyncJobWithDelay`: never sooner than the batch period.
fn enqueue_with_delay(ctx: &mut Ctx, key: &str, d: Duration) {
    ctx.requeue_after(key, d.max(SYNC_JOB_BATCH_PERIOD));
}

/// `UpdateStatus` of the Job; the in-memory Job becomes the stored one (new resourceVersion).
///
/// The working copy is sent as the request (not copied) and replaced by the stored object; on an
/// error it is left empty, so every caller returns the error at once, as upstream's do.
fn update_job_status(ctx: &mut Ctx, job: &mut Job) -> Result<(), ApiError> {
    truncate_status_times(&mut job.status);
    // `job` is overwritten with the stored Job below; until then it holds a copy of an empty
    // Job, which allocates nothing (`Job::default()` allocates its shared maps and lists).
    static EMPTY: std::sync::OnceLock<Job> = std::sync::OnceLock::new();
    let sent = std::mem::replace(job, EMPTY.get_or_init(Job::default).clone());
    match &*ctx.update_status(sent.into_object())? {
        Object::Job(stored) => {
            *job = stored.clone();
            Ok(())
        }
        _ => Err(internal("unexpected object kind")),
    }
}

/// The finalizer-removal patch (`$deleteFromPrimitiveList/finalizers`): no resourceVersion
/// precondition, NotFound reported.
fn remove_tracking_finalizer(ctx: &mut Ctx, pod: &Pod) -> Result<(), ApiError> {
    let Some(cur) = ctx
        .store()
        .get::<Pod>(&pod.metadata.namespace, &pod.metadata.name)
        .filter(|p| p.metadata.uid == pod.metadata.uid)
        .cloned()
    else {
        return Err(ApiError::not_found("pods", &pod.metadata.name));
    };
    if !has_job_tracking_finalizer(&cur) {
        return Ok(());
    }
    let mut upd = cur;
    upd.metadata
        .finalizers
        .retain(|f| f != JOB_TRACKING_FINALIZER);
    upd.metadata.resource_version.clear();
    ctx.update(upd.into_object()).map(|_| ())
}

/// `RealPodControl.CreatePodsWithGenerateName`: `SuccessfulCreate "Created pod: <name>"` or
/// `FailedCreate "Error creating: <err>"` on the Job.
fn create_pods_with_generate_name(
    ctx: &mut Ctx,
    template: &crate::api::PodTemplateSpec,
    owner: &Job,
    controller_ref: &crate::api::OwnerReference,
    generate_name: &str,
) -> Result<(), ApiError> {
    let mut pod = crate::controllers::controller_utils::get_pod_from_template(
        template,
        owner.meta(),
        Some(controller_ref),
    );
    if !generate_name.is_empty() {
        pod.metadata.generate_name = generate_name.to_string();
    }
    if pod.metadata.labels.is_empty() {
        return Err(internal("unable to create pods, no labels"));
    }
    match ctx.create(Object::Pod(pod)) {
        Ok(created) => {
            let msg = format!("Created pod: {}", created.meta().name);
            ctx.event(owner, "Normal", "SuccessfulCreate", &msg);
            Ok(())
        }
        Err(e) => {
            ctx.event(
                owner,
                "Warning",
                "FailedCreate",
                &format!("Error creating: {e}"),
            );
            Err(e)
        }
    }
}

/// `RealPodControl.DeletePod`: `SuccessfulDelete "Deleted pod: <name>"`; NotFound without an
/// event.
fn delete_pod(ctx: &mut Ctx, owner: &Job, ns: &str, name: &str) -> Result<(), ApiError> {
    match ctx.delete::<Pod>(ns, name, &DeleteOptions::default()) {
        Ok(_) => {
            ctx.event(
                owner,
                "Normal",
                "SuccessfulDelete",
                &format!("Deleted pod: {name}"),
            );
            Ok(())
        }
        Err(e) if e.is_not_found() => Err(e),
        Err(e) => {
            ctx.event(
                owner,
                "Warning",
                "FailedDelete",
                &format!("Error deleting: {e}"),
            );
            Err(internal(format!("unable to delete pods: {e}")))
        }
    }
}

/// `deleteActivePods`: deletes (keeping finalizers) every active pod of a finishing Job. Returns
/// (ready pods deleted, pods deleted, first error); NotFound counts as deleted.
fn delete_active_pods(
    ctx: &mut Ctx,
    job: &Job,
    pods: &[SharedPod],
) -> (i32, i32, Option<ApiError>) {
    let owner: &Job = job;
    let mut successful = pods.len() as i32;
    let mut ready = 0;
    let mut first = None;
    for p in pods {
        if let Err(e) = delete_pod(ctx, owner, &job.metadata.namespace, &p.metadata.name) {
            if !e.is_not_found() {
                successful -= 1;
                first.get_or_insert(e);
            }
        }
        if is_pod_ready(p) {
            ready += 1;
        }
    }
    (ready, successful, first)
}

impl Controller for JobController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    /// `NewController`: both queues use the API back-off limiter.
    fn new_queue(&self) -> WorkQueue {
        WorkQueue::with_rate_limit(DEFAULT_JOB_API_BACK_OFF, MAX_JOB_API_BACK_OFF)
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (None, Some(Object::Job(j))) => queue.add_owned(j.metadata.key()),
            (Some(Object::Job(old)), Some(Object::Job(cur))) => {
                self.update_job(store, queue, old, cur, now)
            }
            (Some(Object::Job(j)), None) => {
                queue.add_owned(j.metadata.key());
                Self::cleanup_pod_finalizers(store, queue, j);
            }
            (None, Some(Object::Pod(p))) => self.add_pod(store, queue, p, now),
            (Some(Object::Pod(old)), Some(Object::Pod(cur))) => {
                self.update_pod(store, queue, old, cur, now)
            }
            (Some(Object::Pod(p)), None) => self.delete_pod(store, queue, p, true, now),
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        match key.strip_prefix(ORPHAN_PREFIX) {
            Some(k) => self.sync_orphan_pod(k, ctx),
            None => self.sync_job(key, ctx),
        }
    }

    fn reset(&mut self) {
        *self = JobController::new();
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for j in store.list::<Job>(None) {
            queue.add_owned(j.metadata.key());
        }
        // Orphans with a tracking finalizer (their Job is gone).
        for p in store.list::<Pod>(None) {
            if has_job_tracking_finalizer(p)
                && p.metadata.controller_ref().is_none_or(|r| {
                    Self::resolve_controller_ref(store, &p.metadata.namespace, r).is_none()
                })
            {
                Self::enqueue_orphan(queue, p);
            }
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A boxed Job controller for `Simulation::add_loop`.
pub fn new_job_controller() -> Box<dyn Controller> {
    Box::new(JobController::new())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod upstream_tests2;

#[cfg(test)]
mod audit_tests;
