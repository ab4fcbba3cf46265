//! Indexed Jobs (`pkg/controller/job/indexed_job_utils.go`): completion indexes on pods, ordered
//! index intervals (`0,2-5,7,8`), pending indexes, duplicate-index removal and the per-index
//! failure counting of backoffLimitPerIndex.

use super::backoff_utils::get_finished_time;
use super::pod_failure_policy::{match_pod_failure_policy, PodFailurePolicyAction};
use super::{is_pod_failed, JobGates};
use crate::api::batch::{
    Job, JOB_COMPLETION_INDEX_ANNOTATION, JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION, JOB_TRACKING_FINALIZER,
};
use crate::api::{Pod, PodTemplateSpec};
use crate::controllers::controller_utils::{sort_active_pods, sort_by_less};
use std::collections::{BTreeMap, BTreeSet};

/// `JOB_COMPLETION_INDEX`, the environment variable every container of an Indexed Job gets.
pub const COMPLETION_INDEX_ENV_NAME: &str = "JOB_COMPLETION_INDEX";
/// `unknownCompletionIndex`.
pub const UNKNOWN_COMPLETION_INDEX: i64 = -1;
/// `names.MaxGeneratedNameLength`: 63 minus the 5 random characters.
pub const MAX_GENERATED_NAME_LENGTH: usize = 58;

/// A closed range of indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub first: i64,
    pub last: i64,
}

/// `orderedIntervals`: sorted, non-overlapping, non-adjacent intervals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderedIntervals(pub Vec<Interval>);

impl OrderedIntervals {
    pub fn from_pairs(pairs: &[(i64, i64)]) -> Self {
        OrderedIntervals(
            pairs
                .iter()
                .map(|&(first, last)| Interval { first, last })
                .collect(),
        )
    }

    /// `withOrderedIndexes`: the union with `new_indexes` (given in increasing order).
    pub fn with_ordered_indexes(&self, new_indexes: &[i64]) -> OrderedIntervals {
        let new: Vec<Interval> = new_indexes
            .iter()
            .map(|&i| Interval { first: i, last: i })
            .collect();
        self.merge(&OrderedIntervals(new))
    }

    /// `merge`: the union of two ordered lists.
    pub fn merge(&self, other: &OrderedIntervals) -> OrderedIntervals {
        let mut result: Vec<Interval> = vec![];
        let push = |iv: Interval, result: &mut Vec<Interval>| match result.last_mut() {
            Some(last) if iv.first <= last.last + 1 => {
                if last.last < iv.last {
                    last.last = iv.last;
                }
            }
            _ => result.push(iv),
        };
        let (a, b) = (&self.0, &other.0);
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            if a[i].first < b[j].first {
                push(a[i], &mut result);
                i += 1;
            } else {
                push(b[j], &mut result);
                j += 1;
            }
        }
        for iv in &a[i..] {
            push(*iv, &mut result);
        }
        for iv in &b[j..] {
            push(*iv, &mut result);
        }
        OrderedIntervals(result)
    }

    /// `total`: how many indexes.
    pub fn total(&self) -> i64 {
        self.0.iter().map(|iv| iv.last - iv.first + 1).sum()
    }

    /// `has`: binary search.
    pub fn has(&self, ix: i64) -> bool {
        let (mut lo, mut hi) = (0usize, self.0.len());
        while hi > lo {
            let mid = lo + (hi - lo) / 2;
            if self.0[mid].last >= ix {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        hi < self.0.len() && self.0[hi].first <= ix
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Display for OrderedIntervals {
    /// `a` for singletons, `a,b` for two consecutive indexes, `a-b` for three or more.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (n, v) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}", v.first)?;
            if v.last > v.first {
                if v.last == v.first + 1 {
                    f.write_str(",")?;
                } else {
                    f.write_str("-")?;
                }
                write!(f, "{}", v.last)?;
            }
        }
        Ok(())
    }
}

/// Go's `strconv.Atoi` (optional sign, decimal digits).
fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `parseIndexesFromString`: skips corrupt intervals, stops at the first interval starting at or
/// beyond `completions`, clips the last one, merges adjacent ones.
pub fn parse_indexes_from_string(s: &str, completions: i64) -> OrderedIntervals {
    let mut result: Vec<Interval> = vec![];
    if s.is_empty() {
        return OrderedIntervals(result);
    }
    for part in s.split(',') {
        let limits: Vec<&str> = part.split('-').collect();
        let Some(first) = atoi(limits[0]) else {
            continue;
        };
        if first >= completions {
            break;
        }
        let last = if limits.len() > 1 {
            let Some(l) = atoi(limits[1]) else {
                continue;
            };
            l.min(completions - 1)
        } else {
            first
        };
        match result.last_mut() {
            Some(prev) if prev.last == first - 1 => prev.last = last,
            _ => result.push(Interval { first, last }),
        }
    }
    OrderedIntervals(result)
}

/// `getCompletionIndex`: the index annotation, or −1 when missing, not an integer or negative.
pub fn get_completion_index(pod: &Pod) -> i64 {
    match pod
        .metadata
        .annotations
        .get(JOB_COMPLETION_INDEX_ANNOTATION)
        .and_then(|v| atoi(v))
    {
        Some(i) if i >= 0 => i,
        _ => UNKNOWN_COMPLETION_INDEX,
    }
}

pub(crate) fn has_job_tracking_finalizer(pod: &Pod) -> bool {
    pod.metadata.has_finalizer(JOB_TRACKING_FINALIZER)
}

fn completions(job: &Job) -> i64 {
    i64::from(job.spec.completions.unwrap_or(0))
}

/// `calculateSucceededIndexes`: (indexes from `status.completedIndexes`, those plus the indexes of
/// succeeded pods that still have the tracking finalizer).
pub fn calculate_succeeded_indexes(
    job: &Job,
    pods: &[&Pod],
) -> (OrderedIntervals, OrderedIntervals) {
    let c = completions(job);
    let prev = parse_indexes_from_string(&job.status.completed_indexes, c);
    let new: BTreeSet<i64> = pods
        .iter()
        .filter(|p| p.status.phase == "Succeeded" && has_job_tracking_finalizer(p))
        .map(|p| get_completion_index(p))
        .filter(|ix| *ix != UNKNOWN_COMPLETION_INDEX && *ix < c)
        .collect();
    let v: Vec<i64> = new.into_iter().collect();
    let result = prev.with_ordered_indexes(&v);
    (prev, result)
}

/// `calculateFailedIndexes`: `status.failedIndexes` plus the indexes newly failed.
pub fn calculate_failed_indexes(job: &Job, pods: &[&Pod], g: &JobGates) -> OrderedIntervals {
    let c = completions(job);
    let prev = job
        .status
        .failed_indexes
        .as_deref()
        .map(|s| parse_indexes_from_string(s, c))
        .unwrap_or_default();
    let new: BTreeSet<i64> = pods
        .iter()
        .filter(|p| {
            let ix = get_completion_index(p);
            ix != UNKNOWN_COMPLETION_INDEX
                && ix < c
                && has_job_tracking_finalizer(p)
                && is_index_failed(job, p, g)
        })
        .map(|p| get_completion_index(p))
        .collect();
    let v: Vec<i64> = new.into_iter().collect();
    prev.with_ordered_indexes(&v)
}

/// `isIndexFailed`: the pod matched a `FailIndex` rule, or it is a counted failure and its index
/// already used up `backoffLimitPerIndex`.
pub fn is_index_failed(job: &Job, pod: &Pod, g: &JobGates) -> bool {
    let mut counted = false;
    if is_pod_failed(pod, job, g) {
        if job.spec.pod_failure_policy.is_some() {
            let m = match_pod_failure_policy(
                job.spec.pod_failure_policy.as_ref(),
                pod,
                g.backoff_limit_per_index,
            );
            if m.action == Some(PodFailurePolicyAction::FailIndex) {
                return true;
            }
            counted = m.count_failed;
        } else {
            counted = true;
        }
    }
    counted && get_index_failure_count(pod) >= job.spec.backoff_limit_per_index.unwrap_or(0)
}

/// `getIndexes`.
pub fn get_indexes(pods: &[&Pod]) -> BTreeSet<i64> {
    pods.iter()
        .map(|p| get_completion_index(p))
        .filter(|ix| *ix != UNKNOWN_COMPLETION_INDEX)
        .collect()
}

/// `firstPendingIndexes`: the `count` smallest indexes below `completions` that are not
/// succeeded, active, failed, or (when only failed pods are replaced) terminating.
pub fn first_pending_indexes(
    active_pods: &[&Pod],
    terminating_pods: Option<&[&Pod]>,
    succeeded: &OrderedIntervals,
    failed: Option<&OrderedIntervals>,
    count: usize,
    completions: i64,
) -> Vec<i64> {
    if count == 0 {
        return vec![];
    }
    let active: Vec<i64> = get_indexes(active_pods).into_iter().collect();
    let mut non_pending = succeeded.with_ordered_indexes(&active);
    if let Some(t) = terminating_pods {
        let t: Vec<i64> = get_indexes(t).into_iter().collect();
        non_pending = non_pending.with_ordered_indexes(&t);
    }
    if let Some(f) = failed {
        non_pending = non_pending.merge(f);
    }
    let mut result = vec![];
    let mut candidate = 0i64;
    for iv in &non_pending.0 {
        while candidate < completions && result.len() < count && candidate < iv.first {
            result.push(candidate);
            candidate += 1;
        }
        if candidate < iv.last + 1 {
            candidate = iv.last + 1;
        }
    }
    while candidate < completions && result.len() < count {
        result.push(candidate);
        candidate += 1;
    }
    result
}

/// `appendDuplicatedIndexPodsForRemoval`: sorted by index, pods without a valid index or with an
/// index beyond `completions` are removed; of k pods sharing an index, the first k−1 in
/// `ActivePods` order are removed and the "best" one is kept. Returns (remove, keep).
pub fn append_duplicated_index_pods_for_removal<'a>(
    pods: &[&'a Pod],
    completions: i64,
) -> (Vec<&'a Pod>, Vec<&'a Pod>) {
    let mut pods: Vec<&Pod> = pods.to_vec();
    sort_by_less(&mut pods, |a, b| {
        get_completion_index(a) < get_completion_index(b)
    });
    let (mut rm, mut left) = (vec![], vec![]);
    let mut last_index = UNKNOWN_COMPLETION_INDEX;
    let mut first_repeat = 0;
    let mut looped = 0;
    for (i, p) in pods.iter().enumerate() {
        let ix = get_completion_index(p);
        if ix >= completions {
            rm.extend(pods[i..].iter().copied());
            break;
        }
        if ix != last_index {
            append_pods_with_same_index(&mut rm, &mut left, &pods[first_repeat..i], last_index);
            first_repeat = i;
            last_index = ix;
        }
        looped += 1;
    }
    append_pods_with_same_index(&mut rm, &mut left, &pods[first_repeat..looped], last_index);
    (rm, left)
}

fn append_pods_with_same_index<'a>(
    rm: &mut Vec<&'a Pod>,
    left: &mut Vec<&'a Pod>,
    pods: &[&'a Pod],
    ix: i64,
) {
    if ix == UNKNOWN_COMPLETION_INDEX {
        rm.extend(pods.iter().copied());
        return;
    }
    if pods.len() == 1 {
        left.push(pods[0]);
        return;
    }
    if pods.is_empty() {
        return;
    }
    let mut sorted = pods.to_vec();
    sort_active_pods(&mut sorted);
    let n = sorted.len();
    rm.extend(sorted[..n - 1].iter().copied());
    left.push(sorted[n - 1]);
}

/// `parseInt32` of an annotation: 0 for missing, unparseable, negative or too large values.
fn parse_int32(v: Option<&String>) -> i32 {
    match v.and_then(|s| atoi(s)) {
        Some(n) if (0..=i64::from(i32::MAX)).contains(&n) => n as i32,
        _ => 0,
    }
}

/// `getIndexFailureCount`.
pub fn get_index_failure_count(pod: &Pod) -> i32 {
    parse_int32(
        pod.metadata
            .annotations
            .get(JOB_INDEX_FAILURE_COUNT_ANNOTATION),
    )
}

/// `getIndexAbsoluteFailureCount`: counted plus ignored failures (an `int32` sum: wraps).
pub fn get_index_absolute_failure_count(pod: &Pod) -> i32 {
    get_index_failure_count(pod).wrapping_add(parse_int32(
        pod.metadata
            .annotations
            .get(JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION),
    ))
}

/// `getNewIndexFailureCounts`: the failure counts a replacement of `replaced` starts with.
pub fn get_new_index_failure_counts(job: &Job, replaced: Option<&Pod>, g: &JobGates) -> (i32, i32) {
    let Some(p) = replaced else {
        return (0, 0);
    };
    let mut failures = get_index_failure_count(p);
    let mut ignored = parse_int32(
        p.metadata
            .annotations
            .get(JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION),
    );
    if job.spec.pod_failure_policy.is_some() {
        if match_pod_failure_policy(
            job.spec.pod_failure_policy.as_ref(),
            p,
            g.backoff_limit_per_index,
        )
        .count_failed
        {
            failures = failures.wrapping_add(1);
        } else {
            ignored = ignored.wrapping_add(1);
        }
    } else {
        failures = failures.wrapping_add(1);
    }
    (failures, ignored)
}

/// `getPodsWithDelayedDeletionPerIndex`: per pending index, the failed pod whose finalizer is
/// kept until its replacement exists (highest absolute failure count, then latest finish).
/// `valid_pods` are the pods `getValidPodsWithFilter` yields (tracking finalizer, not expected to
/// lose it, valid index).
pub fn get_pods_with_delayed_deletion_per_index<'a>(
    job: &Job,
    valid_pods: &[&'a Pod],
    active_pods: &[&Pod],
    succeeded: &OrderedIntervals,
    failed: Option<&OrderedIntervals>,
    g: &JobGates,
) -> BTreeMap<i64, &'a Pod> {
    let active = get_indexes(active_pods);
    let c = completions(job);
    let mut out: BTreeMap<i64, &Pod> = BTreeMap::new();
    for p in valid_pods {
        if !is_pod_failed(p, job, g) {
            continue;
        }
        let ix = get_completion_index(p);
        if ix == UNKNOWN_COMPLETION_INDEX || ix >= c {
            continue;
        }
        if succeeded.has(ix) || failed.is_some_and(|f| f.has(ix)) || active.contains(&ix) {
            continue;
        }
        match out.get(&ix) {
            Some(last) => {
                if get_index_absolute_failure_count(last) <= get_index_absolute_failure_count(p)
                    && get_finished_time(p) >= get_finished_time(last)
                {
                    out.insert(ix, p);
                }
            }
            None => {
                out.insert(ix, p);
            }
        }
    }
    out
}

/// `addIndexFailureCountAnnotation`.
pub fn add_index_failure_count_annotation(
    template: &mut PodTemplateSpec,
    job: &Job,
    replaced: Option<&Pod>,
    g: &JobGates,
) {
    let (failures, ignored) = get_new_index_failure_counts(job, replaced, g);
    let a = &mut template.metadata.annotations;
    a.insert(
        JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(),
        failures.to_string(),
    );
    if ignored > 0 {
        a.insert(
            JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION.into(),
            ignored.to_string(),
        );
    }
}

/// `addCompletionIndexEnvVariables`: `JOB_COMPLETION_INDEX` from the index label (PodIndexLabel)
/// or annotation, on every container and init container that does not set it.
pub fn add_completion_index_env_variables(template: &mut PodTemplateSpec, index_label: bool) {
    let field_path = if index_label {
        format!("metadata.labels['{JOB_COMPLETION_INDEX_ANNOTATION}']")
    } else {
        format!("metadata.annotations['{JOB_COMPLETION_INDEX_ANNOTATION}']")
    };
    let spec = template.spec_mut();
    for c in spec
        .init_containers
        .iter_mut()
        .chain(spec.containers.iter_mut())
    {
        let env = c
            .extra
            .entry("env")
            .or_insert_with(|| serde_json::Value::Array(vec![]));
        if !env.is_array() {
            *env = serde_json::Value::Array(vec![]);
        }
        let arr = env.as_array_mut().expect("array");
        if arr
            .iter()
            .any(|e| e.get("name").and_then(|n| n.as_str()) == Some(COMPLETION_INDEX_ENV_NAME))
        {
            continue;
        }
        arr.push(serde_json::json!({
            "name": COMPLETION_INDEX_ENV_NAME,
            "valueFrom": {"fieldRef": {"fieldPath": field_path}},
        }));
    }
}

/// `podGenerateNameWithIndex`: `<job>-<index>-`, the job name cut so the prefix fits in 58
/// characters.
pub fn pod_generate_name_with_index(job_name: &str, index: i64) -> String {
    let append = format!("-{index}-");
    let prefix = format!("{job_name}{append}");
    if prefix.len() > MAX_GENERATED_NAME_LENGTH {
        let keep = MAX_GENERATED_NAME_LENGTH - append.len();
        return format!("{}{append}", &job_name[..keep.min(job_name.len())]);
    }
    prefix
}

#[cfg(test)]
mod tests;
