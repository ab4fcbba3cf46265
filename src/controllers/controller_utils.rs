//! Shared controller helpers: `pkg/controller/controller_utils.go` and `pkg/api/v1/pod/util.go`.
//!
//! Pod predicates (ready, available, active, terminating), the two deletion orderings
//! (`ActivePods` and the ReplicaSet's 8-rule `ActivePodsWithRanks`), ReplicaSet sorts,
//! controller expectations on the virtual clock, `slowStartBatch` and pods from templates.
//!
//! # Determinism
//! Go's `sort.Sort` is unstable, and upstream feeds it pods in informer-cache (map) order, so
//! equivalent pods come out in an unspecified order. kubeplay instead lists pods in
//! (namespace, name) order and sorts them with [`merge_sort_by_less`], a stable bottom-up merge
//! sort driven by the very same `less` function: pods that `less` considers equivalent keep
//! their input (name) order. The merge sort never panics, even when `less` is not transitive —
//! which does happen upstream: the UID tie-break inside a log2 bucket (rules 6 and 8 of
//! [`ActivePodsWithRanks`]) can form a cycle with rule 7 (restarts) or with a tie. Its runs of
//! 12 are insertion-sorted as Go's pdqsort sorts short slices, so for up to 12 pods the order
//! is exactly upstream's `sort.Sort` on the same input, cycles included.

use crate::api::{
    Duration, LabelSelector, ObjectMeta, OwnerReference, Pod, PodCondition, PodTemplateSpec,
    ReplicaSet, Selector, Time,
};
use crate::features::FeatureGates;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// `ExpectationsTimeout`: expectations older than this are considered satisfied, so a controller
/// that missed a watch event wakes up anyway.
pub const EXPECTATIONS_TIMEOUT: Duration = Duration::from_mins(5);

/// `SlowStartInitialBatchSize`.
pub const SLOW_START_INITIAL_BATCH_SIZE: usize = 1;

/// The annotation users set to steer scale-down (`core.PodDeletionCost`).
pub const POD_DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";

/// Event and condition reasons of `RealPodControl`.
pub const FAILED_CREATE_POD_REASON: &str = "FailedCreate";
pub const SUCCESSFUL_CREATE_POD_REASON: &str = "SuccessfulCreate";
pub const FAILED_DELETE_POD_REASON: &str = "FailedDelete";
pub const SUCCESSFUL_DELETE_POD_REASON: &str = "SuccessfulDelete";

// ---------------------------------------------------------------------------------------------
// pkg/api/v1/pod/util.go
// ---------------------------------------------------------------------------------------------

/// `GetPodReadyCondition`: the first condition of type `Ready`, if any.
pub fn get_pod_ready_condition(pod: &Pod) -> Option<&PodCondition> {
    pod.status.conditions.iter().find(|c| c.type_ == "Ready")
}

/// `IsPodReady`: the Ready condition is `True` (the phase is not looked at).
pub fn is_pod_ready(pod: &Pod) -> bool {
    get_pod_ready_condition(pod).is_some_and(|c| c.status == "True")
}

/// `IsPodAvailable`: ready, and either `min_ready_seconds == 0` or the Ready condition's
/// `lastTransitionTime + minReadySeconds <= now`.
///
/// Kubernetes 1.34 compares with `<=` (kubernetes#132122); ALGORITHMS.md §1.1 still describes the
/// older "strictly before". Upstream wins: on the virtual clock a pod is available exactly at
/// `lastTransitionTime + minReadySeconds`.
pub fn is_pod_available(pod: &Pod, min_ready_seconds: i32, now: Time) -> bool {
    if !is_pod_ready(pod) {
        return false;
    }
    if min_ready_seconds == 0 {
        return true;
    }
    match get_pod_ready_condition(pod).and_then(|c| c.last_transition_time) {
        Some(t) if !t.is_zero() => t + Duration::from_secs(i64::from(min_ready_seconds)) <= now,
        _ => false,
    }
}

/// `podReadyTime`: when the pod became ready (the first `Ready=True` condition's
/// `lastTransitionTime`), or the zero time when it is not ready or the time is unset.
pub fn pod_ready_time(pod: &Pod) -> Time {
    if is_pod_ready(pod) {
        for c in &pod.status.conditions {
            if c.type_ == "Ready" && c.status == "True" {
                return c.last_transition_time.unwrap_or(Time::ZERO);
            }
        }
    }
    Time::ZERO
}

/// `IsPodTerminal`: phase `Succeeded` or `Failed`.
pub fn is_pod_terminal(pod: &Pod) -> bool {
    pod.status.phase == "Succeeded" || pod.status.phase == "Failed"
}

/// The `conditionType`s of `spec.readinessGates`, in order (kept verbatim in the spec's extra
/// fields).
pub fn pod_readiness_gate_types(pod: &Pod) -> Vec<String> {
    pod.spec
        .extra
        .get("readinessGates")
        .and_then(serde_json::Value::as_array)
        .map(|gates| {
            gates
                .iter()
                .map(|g| {
                    g.get("conditionType")
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `IsPodReadinessGateConditionTrue`: the status's first condition of that type is `True`
/// (a missing condition is not).
pub fn is_pod_readiness_gate_condition_true(
    condition_type: &str,
    conditions: &[PodCondition],
) -> bool {
    conditions
        .iter()
        .find(|c| c.type_ == condition_type)
        .is_some_and(|c| c.status == "True")
}

/// `ArePodReadinessGatesTrue`: every readiness gate of the spec has a `True` condition in the
/// status (vacuously true without gates).
pub fn are_pod_readiness_gates_true(pod: &Pod) -> bool {
    pod_readiness_gate_types(pod)
        .iter()
        .all(|t| is_pod_readiness_gate_condition_true(t, &pod.status.conditions))
}

/// `IsPodActive`: not terminal and not being deleted.
pub fn is_pod_active(pod: &Pod) -> bool {
    !is_pod_terminal(pod) && pod.metadata.deletion_timestamp.is_none()
}

/// `IsPodTerminating`: not terminal but being deleted.
pub fn is_pod_terminating(pod: &Pod) -> bool {
    !is_pod_terminal(pod) && pod.metadata.deletion_timestamp.is_some()
}

/// `FilterActivePods`: the active pods, in input order.
pub fn filter_active_pods<'a>(pods: impl IntoIterator<Item = &'a Pod>) -> Vec<&'a Pod> {
    pods.into_iter().filter(|p| is_pod_active(p)).collect()
}

/// `FilterTerminatingPods`: the terminating pods, in input order.
pub fn filter_terminating_pods<'a>(pods: impl IntoIterator<Item = &'a Pod>) -> Vec<&'a Pod> {
    pods.into_iter().filter(|p| is_pod_terminating(p)).collect()
}

/// `CountTerminatingPods`.
pub fn count_terminating_pods<'a>(pods: impl IntoIterator<Item = &'a Pod>) -> i32 {
    pods.into_iter().filter(|p| is_pod_terminating(p)).count() as i32
}

/// `FilterClaimedPods`: pods controlled by `owner_uid` whose labels match `selector`.
pub fn filter_claimed_pods<'a>(
    owner_uid: &str,
    selector: &Selector,
    pods: impl IntoIterator<Item = &'a Pod>,
) -> Vec<&'a Pod> {
    pods.into_iter()
        .filter(|p| {
            p.metadata
                .controller_ref()
                .is_some_and(|r| r.uid == owner_uid)
                && selector.matches(&p.metadata.labels)
        })
        .collect()
}

/// `PodKey`: `namespace/name`, the key UID-tracking expectations record.
pub fn pod_key(pod: &Pod) -> String {
    format!("{}/{}", pod.metadata.namespace, pod.metadata.name)
}

/// `podPhaseToOrdinal`: Pending 0, Unknown 1, Running 2; every other phase (including "",
/// Succeeded and Failed) is 0, as a missing Go map key is.
pub fn phase_ordinal(phase: &str) -> u8 {
    match phase {
        "Unknown" => 1,
        "Running" => 2,
        _ => 0,
    }
}

/// `maxContainerRestarts`: (max restartCount over regular containers, max over sidecar init
/// containers — init containers with `restartPolicy: Always`).
pub fn max_container_restarts(pod: &Pod) -> (i32, i32) {
    let regular = pod
        .status
        .container_statuses
        .iter()
        .map(|c| c.restart_count)
        .fold(0, i32::max);
    let sidecars: BTreeSet<&str> = pod
        .spec
        .init_containers
        .iter()
        .filter(|c| c.restart_policy.as_deref() == Some("Always"))
        .map(|c| c.name.as_str())
        .collect();
    let sidecar = pod
        .status
        .init_container_statuses
        .iter()
        .filter(|c| sidecars.contains(c.name.as_str()))
        .map(|c| c.restart_count)
        .fold(0, i32::max);
    (regular, sidecar)
}

/// `compareMaxContainerRestarts` on precomputed counts: `Some(true)` when `a` restarted more,
/// `Some(false)` when `b` did, `None` when equal. Regular containers first, then sidecars.
pub fn compare_restarts(a: (i32, i32), b: (i32, i32)) -> Option<bool> {
    if a.0 != b.0 {
        return Some(a.0 > b.0);
    }
    if a.1 != b.1 {
        return Some(a.1 > b.1);
    }
    None
}

/// `compareMaxContainerRestarts`.
pub fn compare_max_container_restarts(a: &Pod, b: &Pod) -> Option<bool> {
    compare_restarts(max_container_restarts(a), max_container_restarts(b))
}

/// `afterOrZero`: if either time is zero, whether `t1` is; otherwise whether `t1` is after `t2`.
pub fn after_or_zero(t1: Time, t2: Time) -> bool {
    if t1.is_zero() || t2.is_zero() {
        return t1.is_zero();
    }
    t1 > t2
}

/// `helper.GetDeletionCostFromPodAnnotations`: the pod-deletion-cost annotation as an int32.
/// Missing → `Ok(0)`.
///
/// # Errors
/// `invalid value "x"` for a leading `+`, a leading zero (other than `"0"` itself), or an empty
/// value; the parser's complaint for anything that is not a base-10 int32.
pub fn get_deletion_cost_from_pod_annotations(
    annotations: &BTreeMap<String, String>,
) -> Result<i32, String> {
    let Some(value) = annotations.get(POD_DELETION_COST_ANNOTATION) else {
        return Ok(0);
    };
    let b = value.as_bytes();
    let valid_first_digit = match b.first() {
        None => false,
        Some(b'-') => true,
        Some(b'0') => value == "0",
        Some(c) => (b'1'..=b'9').contains(c),
    };
    if !valid_first_digit {
        return Err(format!("invalid value {value:?}"));
    }
    // strconv.ParseInt(value, 10, 32): digits (after the sign) that do not fit int32 are
    // `value out of range`, anything else that does not parse is `invalid syntax`.
    value.parse::<i32>().map_err(|_| {
        let digits = value.strip_prefix('-').unwrap_or(value);
        let why = if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
            "value out of range"
        } else {
            "invalid syntax"
        };
        format!("strconv.ParseInt: parsing {value:?}: {why}")
    })
}

/// The deletion cost `ActivePodsWithRanks` uses: an invalid or missing annotation counts as 0.
pub fn pod_deletion_cost(pod: &Pod) -> i32 {
    get_deletion_cost_from_pod_annotations(&pod.metadata.annotations).unwrap_or(0)
}

/// Go's `math.Log2`: `frexp`, exact for powers of two, else `ln(frac)/ln 2 + exp`.
fn go_log2(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return x.log2();
    }
    // frexp for positive normal numbers (x >= 1 here: durations in nanoseconds).
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1022;
    let frac = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    if frac == 0.5 {
        return (exp - 1) as f64;
    }
    frac.ln() * (1.0 / std::f64::consts::LN_2) + exp as f64
}

/// The log2 bucket of `t` seen from `now`: `int64(math.Log2(float64(now - t)))` with the
/// difference in nanoseconds, or −1 when `now - t <= 0`.
pub fn log2_bucket(t: Time, now: Time) -> i64 {
    let d_ms = now.0.saturating_sub(t.0);
    if d_ms <= 0 {
        return -1;
    }
    let d_ns = d_ms.saturating_mul(1_000_000);
    go_log2_trunc(d_ns as f64)
}

/// `int64(math.Log2(x))` for `x >= 1`, without the logarithm where the answer is certain.
///
/// With `x = frac · 2^exp` (frac in [0.5, 1)), `math.Log2` is `exp + log2(frac)` with
/// `log2(frac)` in [−1, 0), which truncates to `exp − 1` unless rounding reaches an end of that
/// interval. That can happen only for a frac within about `exp · 2^-52` of 0.5 or 1; a mantissa
/// `m` in [2^33, 2^52 − 2^33] keeps frac at least 2^-20 from both (|log2(frac)| ≥ 1.4 · 2^-20,
/// far above half an ulp of 64), so the answer is exactly `exp − 1`, the unbiased exponent of
/// `x`. Other values take Go's formula.
fn go_log2_trunc(x: f64) -> i64 {
    let bits = x.to_bits();
    let m = bits & ((1u64 << 52) - 1);
    if x >= 1.0 && x.is_finite() && (1u64 << 33..=(1u64 << 52) - (1u64 << 33)).contains(&m) {
        return ((bits >> 52) & 0x7ff) as i64 - 1023;
    }
    go_log2(x) as i64
}

/// `logarithmicRankDiff(t1, t2, now)`: bucket(t1) − bucket(t2).
pub fn logarithmic_rank_diff(t1: Time, t2: Time, now: Time) -> i64 {
    log2_bucket(t1, now) - log2_bucket(t2, now)
}

// ---------------------------------------------------------------------------------------------
// Deterministic sorting
// ---------------------------------------------------------------------------------------------

/// A stable bottom-up merge sort of `0..n` driven by a Go-style `less(i, j)`: returns the
/// permutation. Runs of 12 are insertion-sorted first (for up to 12 elements this is exactly
/// Go's `sort.Sort`); in both steps an element moves ahead of another only when it is
/// strictly `less`, so equivalent elements keep their input order. It never panics, whatever `less`
/// answers (it does not assume transitivity).
pub fn merge_sort_by_less(n: usize, mut less: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    merge_sort_values_by_less((0..n).collect(), |&i, &j| less(i, j))
}

/// The bottom-up merge sort behind [`merge_sort_by_less`], moving the values themselves (better
/// locality for large keys than sorting indices into them): the same merges and the same `less`
/// calls in the same order, so the order is the same, transitive or not.
pub fn merge_sort_values_by_less<T: Copy>(
    mut a: Vec<T>,
    mut less: impl FnMut(&T, &T) -> bool,
) -> Vec<T> {
    /// Runs of this many elements are insertion-sorted before the merges: Go's `sort.Sort`
    /// (pdqsort) sorts up to 12 elements with exactly this insertion sort, so up to 12 the
    /// order is Go's for the same input, whatever `less` answers.
    const RUN: usize = 12;
    let n = a.len();
    // The runs are sorted into `buf` as it is filled, which is also its initialisation.
    let mut buf: Vec<T> = Vec::with_capacity(n);
    for lo in (0..n).step_by(RUN) {
        for (k, &x) in a[lo..(lo + RUN).min(n)].iter().enumerate() {
            let i = lo + k;
            buf.push(x);
            let mut j = i;
            while j > lo && less(&x, &buf[j - 1]) {
                buf[j] = buf[j - 1];
                j -= 1;
            }
            buf[j] = x;
        }
    }
    std::mem::swap(&mut a, &mut buf);
    let mut width = RUN;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            if mid == hi || !less(&a[mid], &a[mid - 1]) {
                // The right run starts no lower than the left ends: already in order.
                buf[lo..hi].copy_from_slice(&a[lo..hi]);
                lo = hi;
                continue;
            }
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                if less(&a[j], &a[i]) {
                    buf[k] = a[j];
                    j += 1;
                } else {
                    buf[k] = a[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&a[i..mid]);
            k += mid - i;
            buf[k..k + (hi - j)].copy_from_slice(&a[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut a, &mut buf);
        width *= 2;
    }
    a
}

/// A small word-at-a-time hasher (a folded multiply per 8 bytes, as rustc-hash's string hash) for maps keyed by short
/// strings that are only looked up, never iterated (so the hash never reaches the output):
/// much cheaper than SipHash, and than byte-at-a-time FNV, on node names.
#[derive(Default)]
pub struct WordHasher(u64);

impl WordHasher {
    const K: u64 = 0xf135_7aea_2e62_a9c5;

    /// A folded multiply (the high and low halves of the 128-bit product xored): every input
    /// bit reaches every output bit, upwards and downwards.
    fn add(&mut self, word: u64) {
        let m = u128::from(self.0 ^ word) * u128::from(Self::K);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
}

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
}

/// `BuildHasher` for [`WordHasher`].
pub type WordBuild = std::hash::BuildHasherDefault<WordHasher>;

/// Reorders `v` by a permutation from [`merge_sort_by_less`].
pub fn apply_permutation<T>(v: &mut Vec<T>, perm: &[usize]) {
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    *v = perm
        .iter()
        .filter_map(|&i| slots.get_mut(i)?.take())
        .collect();
}

/// Sorts `v` stably by a Go-style `less` (see [`merge_sort_by_less`]).
pub fn sort_by_less<T>(v: &mut Vec<T>, mut less: impl FnMut(&T, &T) -> bool) {
    let perm = merge_sort_by_less(v.len(), |i, j| less(&v[i], &v[j]));
    apply_permutation(v, &perm);
}

// ---------------------------------------------------------------------------------------------
// ActivePods
// ---------------------------------------------------------------------------------------------

/// `ActivePods.Less`: whether `a` should be deleted before `b` (Job, DaemonSet and Deployment
/// helpers use this order). Rules, first that distinguishes wins:
/// 1. unscheduled < scheduled; 2. Pending < Unknown < Running; 3. not ready < ready;
/// 4. both ready: ready more recently (or zero ready time) first; 5. more restarts first;
/// 6. created more recently (or zero creation time) first.
pub fn active_pods_less(a: &Pod, b: &Pod) -> bool {
    let (na, nb) = (&a.spec.node_name, &b.spec.node_name);
    if na != nb && (na.is_empty() || nb.is_empty()) {
        return na.is_empty();
    }
    let (pa, pb) = (
        phase_ordinal(&a.status.phase),
        phase_ordinal(&b.status.phase),
    );
    if pa != pb {
        return pa < pb;
    }
    let (ra, rb) = (is_pod_ready(a), is_pod_ready(b));
    if ra != rb {
        return !ra;
    }
    if ra && rb {
        let (ta, tb) = (pod_ready_time(a), pod_ready_time(b));
        if ta != tb {
            return after_or_zero(ta, tb);
        }
    }
    if let Some(r) = compare_max_container_restarts(a, b) {
        return r;
    }
    let (ca, cb) = (creation_time(&a.metadata), creation_time(&b.metadata));
    if ca != cb {
        return after_or_zero(ca, cb);
    }
    false
}

/// `sort.Sort(ActivePods(pods))`, made deterministic (stable merge sort on [`active_pods_less`]).
pub fn sort_active_pods(pods: &mut Vec<&Pod>) {
    sort_by_less(pods, |a, b| active_pods_less(a, b));
}

fn creation_time(m: &ObjectMeta) -> Time {
    m.creation_timestamp.unwrap_or(Time::ZERO)
}

// ---------------------------------------------------------------------------------------------
// ActivePodsWithRanks
// ---------------------------------------------------------------------------------------------

/// The feature gates the ReplicaSet deletion order reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScaleDownGates {
    /// `PodDeletionCost` (rule 4).
    pub pod_deletion_cost: bool,
    /// `LogarithmicScaleDown` (log2 buckets in rules 6 and 8).
    pub logarithmic_scale_down: bool,
}

impl Default for ScaleDownGates {
    /// Both on, as in Kubernetes 1.34.
    fn default() -> Self {
        ScaleDownGates {
            pod_deletion_cost: true,
            logarithmic_scale_down: true,
        }
    }
}

impl ScaleDownGates {
    pub fn from_gates(g: &FeatureGates) -> Self {
        ScaleDownGates {
            pod_deletion_cost: g.enabled("PodDeletionCost"),
            logarithmic_scale_down: g.enabled("LogarithmicScaleDown"),
        }
    }
}

/// Names of the rules of [`ActivePodsWithRanks`], indexed by rule number (0 = no rule decided).
pub const RANK_RULE_NAMES: [&str; 9] = [
    "equal",
    "scheduled",
    "phase",
    "readiness",
    "pod-deletion-cost",
    "rank (pods of the same owner on the node)",
    "ready time",
    "container restarts",
    "creation time",
];

/// How a time rule (6 or 8) decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RuleMode {
    /// A direct comparison (rules 1–5, 7; `afterOrZero` for 6 and 8 without log buckets).
    Direct,
    /// Rules 6/8 with LogarithmicScaleDown: the log2 buckets differ.
    LogBucket,
    /// Rules 6/8 with LogarithmicScaleDown: same bucket, decided by UID (returned immediately).
    UidTie,
    /// No rule distinguished the pods.
    Equal,
}

/// Which rule of `ActivePodsWithRanks.Less(i, j)` decided, and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// 1–8, or 0 when no rule decided (`Less` returns false).
    pub rule: u8,
    pub mode: RuleMode,
    /// `Less(i, j)`: pod i is preferred for deletion over pod j.
    pub less: bool,
}

/// What the ordering reads from one pod, computed once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankKey {
    pub name: String,
    pub uid: String,
    pub node: String,
    pub phase: String,
    pub phase_ordinal: u8,
    pub ready: bool,
    /// Zero when not ready or unset.
    pub ready_time: Time,
    /// The parsed pod-deletion-cost (invalid or missing: 0), used when the gate is on.
    pub deletion_cost: i32,
    /// (regular containers, sidecar init containers).
    pub restarts: (i32, i32),
    /// Zero when unset.
    pub created: Time,
}

impl RankKey {
    pub fn of(pod: &Pod) -> Self {
        RankKey {
            name: pod.metadata.name.clone(),
            uid: pod.metadata.uid.clone(),
            node: pod.spec.node_name.clone(),
            phase: pod.status.phase.clone(),
            phase_ordinal: phase_ordinal(&pod.status.phase),
            ready: is_pod_ready(pod),
            ready_time: pod_ready_time(pod),
            deletion_cost: pod_deletion_cost(pod),
            restarts: max_container_restarts(pod),
            created: creation_time(&pod.metadata),
        }
    }
}

/// `ActivePodsWithRanks`: pods, a rank per pod (the number of related active pods on the same
/// node) and `now`, sortable so that the pods to delete first come first.
///
/// `Less(i, j)`, first rule that distinguishes the pods wins:
/// 1. unscheduled before scheduled;
/// 2. Pending < Unknown < Running (any other phase counts as Pending);
/// 3. not ready before ready;
/// 4. (PodDeletionCost) lower `controller.kubernetes.io/pod-deletion-cost` first;
/// 5. higher rank first;
/// 6. both ready, different ready times: without LogarithmicScaleDown (or with a zero time)
///    `afterOrZero` — more recently ready first; with it, compare the log2 buckets of
///    `now − readyTime` in nanoseconds, and if the buckets are equal **return `uid_i < uid_j`
///    immediately** (rules 7 and 8 are not consulted);
/// 7. more container restarts first (regular, then sidecar);
/// 8. different creation times: as rule 6 with creation timestamps.
///
/// Otherwise not less.
#[derive(Clone, Debug)]
pub struct ActivePodsWithRanks<'a> {
    pub pods: Vec<&'a Pod>,
    pub rank: Vec<i32>,
    pub now: Time,
    pub gates: ScaleDownGates,
    keys: Vec<RankKey>,
}

impl<'a> ActivePodsWithRanks<'a> {
    /// `rank` is padded with zeros (or truncated) to the number of pods.
    pub fn new(pods: Vec<&'a Pod>, mut rank: Vec<i32>, now: Time, gates: ScaleDownGates) -> Self {
        rank.resize(pods.len(), 0);
        let keys = pods.iter().map(|p| RankKey::of(p)).collect();
        ActivePodsWithRanks {
            pods,
            rank,
            now,
            gates,
            keys,
        }
    }

    pub fn len(&self) -> usize {
        self.pods.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pods.is_empty()
    }

    /// The precomputed sort key of pod `i`.
    pub fn key(&self, i: usize) -> &RankKey {
        &self.keys[i]
    }

    /// `Less(i, j)`.
    pub fn less(&self, i: usize, j: usize) -> bool {
        self.decide(i, j).less
    }

    /// `Less(i, j)` with the rule that decided it.
    pub fn decide(&self, i: usize, j: usize) -> Verdict {
        decide_rank_order(
            &self.keys[i],
            self.rank[i],
            &self.keys[j],
            self.rank[j],
            self.now,
            self.gates,
        )
    }

    /// `sort.Sort(s)`, deterministic: a stable merge sort on [`ActivePodsWithRanks::less`].
    pub fn sort(&mut self) {
        let perm = merge_sort_by_less(self.len(), |i, j| self.less(i, j));
        apply_permutation(&mut self.pods, &perm);
        apply_permutation(&mut self.rank, &perm);
        apply_permutation(&mut self.keys, &perm);
    }
}

fn time_rule(
    rule: u8,
    ta: Time,
    tb: Time,
    ua: &str,
    ub: &str,
    now: Time,
    g: ScaleDownGates,
) -> Verdict {
    if !g.logarithmic_scale_down || now.is_zero() || ta.is_zero() || tb.is_zero() {
        return Verdict {
            rule,
            mode: RuleMode::Direct,
            less: after_or_zero(ta, tb),
        };
    }
    let d = logarithmic_rank_diff(ta, tb, now);
    if d == 0 {
        return Verdict {
            rule,
            mode: RuleMode::UidTie,
            less: ua < ub,
        };
    }
    Verdict {
        rule,
        mode: RuleMode::LogBucket,
        less: d < 0,
    }
}

/// The body of `ActivePodsWithRanks.Less` on precomputed keys; see [`ActivePodsWithRanks`].
pub fn decide_rank_order(
    a: &RankKey,
    rank_a: i32,
    b: &RankKey,
    rank_b: i32,
    now: Time,
    gates: ScaleDownGates,
) -> Verdict {
    let direct = |rule: u8, less: bool| Verdict {
        rule,
        mode: RuleMode::Direct,
        less,
    };
    // 1. Unassigned < assigned.
    if a.node != b.node && (a.node.is_empty() || b.node.is_empty()) {
        return direct(1, a.node.is_empty());
    }
    // 2. PodPending < PodUnknown < PodRunning.
    if a.phase_ordinal != b.phase_ordinal {
        return direct(2, a.phase_ordinal < b.phase_ordinal);
    }
    // 3. Not ready < ready.
    if a.ready != b.ready {
        return direct(3, !a.ready);
    }
    // 4. Lower pod-deletion-cost < higher pod-deletion-cost.
    if gates.pod_deletion_cost && a.deletion_cost != b.deletion_cost {
        return direct(4, a.deletion_cost < b.deletion_cost);
    }
    // 5. Doubled up < not doubled up.
    if rank_a != rank_b {
        return direct(5, rank_a > rank_b);
    }
    // 6. Been ready for empty time < less time < more time.
    if a.ready && b.ready && a.ready_time != b.ready_time {
        return time_rule(6, a.ready_time, b.ready_time, &a.uid, &b.uid, now, gates);
    }
    // 7. Pods with containers with higher restart counts < lower restart counts.
    if let Some(r) = compare_restarts(a.restarts, b.restarts) {
        return direct(7, r);
    }
    // 8. Empty creation time pods < newer pods < older pods.
    if a.created != b.created {
        return time_rule(8, a.created, b.created, &a.uid, &b.uid, now, gates);
    }
    Verdict {
        rule: 0,
        mode: RuleMode::Equal,
        less: false,
    }
}

// ---------------------------------------------------------------------------------------------
// ReplicaSet sorts and filters
// ---------------------------------------------------------------------------------------------

/// `ReplicaSetsByCreationTimestamp.Less`: older first; equal timestamps by name.
pub fn replica_sets_by_creation_timestamp_less(a: &ReplicaSet, b: &ReplicaSet) -> bool {
    let (ca, cb) = (creation_time(&a.metadata), creation_time(&b.metadata));
    if ca == cb {
        return a.metadata.name < b.metadata.name;
    }
    ca < cb
}

/// `ReplicaSetsBySizeOlder.Less`: more replicas first; ties older first.
pub fn replica_sets_by_size_older_less(a: &ReplicaSet, b: &ReplicaSet) -> bool {
    if a.replicas() == b.replicas() {
        return replica_sets_by_creation_timestamp_less(a, b);
    }
    a.replicas() > b.replicas()
}

/// `ReplicaSetsBySizeNewer.Less`: more replicas first; ties newer first (the reverse of
/// `ReplicaSetsByCreationTimestamp`, name included).
pub fn replica_sets_by_size_newer_less(a: &ReplicaSet, b: &ReplicaSet) -> bool {
    if a.replicas() == b.replicas() {
        return replica_sets_by_creation_timestamp_less(b, a);
    }
    a.replicas() > b.replicas()
}

/// `sort.Sort(ReplicaSetsByCreationTimestamp(rss))` (a total order: stable sort is exact).
pub fn sort_replica_sets_by_creation_timestamp(rss: &mut Vec<&ReplicaSet>) {
    sort_by_less(rss, |a, b| replica_sets_by_creation_timestamp_less(a, b));
}

/// `sort.Sort(ReplicaSetsBySizeOlder(rss))`.
pub fn sort_replica_sets_by_size_older(rss: &mut Vec<&ReplicaSet>) {
    sort_by_less(rss, |a, b| replica_sets_by_size_older_less(a, b));
}

/// `sort.Sort(ReplicaSetsBySizeNewer(rss))`.
pub fn sort_replica_sets_by_size_newer(rss: &mut Vec<&ReplicaSet>) {
    sort_by_less(rss, |a, b| replica_sets_by_size_newer_less(a, b));
}

/// `FilterActiveReplicaSets`: the non-nil ReplicaSets with `spec.replicas > 0`.
pub fn filter_active_replica_sets<'a, R>(rss: impl IntoIterator<Item = R>) -> Vec<&'a ReplicaSet>
where
    R: Into<Option<&'a ReplicaSet>>,
{
    rss.into_iter()
        .filter_map(Into::into)
        .filter(|rs| rs.replicas() > 0)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// slowStartBatch
// ---------------------------------------------------------------------------------------------

/// `slowStartBatch(count, initialBatchSize, fn)`: calls `f` `count` times in batches of
/// `min(initial, remaining)`, then doubling (`min(2·batch, remaining)`). Every call of a batch
/// runs (upstream runs them concurrently; here in order); after a batch with an error the
/// remaining batches are skipped. Returns the number of successful calls and the first error.
///
/// Concrete example (ALGORITHMS.md §1.4): count 10, the first 5 calls succeed → batches of 1, 2
/// and 4 → 7 calls, 5 successes, the error of call 6.
pub fn slow_start_batch<E>(
    count: usize,
    initial_batch_size: usize,
    mut f: impl FnMut() -> Result<(), E>,
) -> (usize, Option<E>) {
    let mut remaining = count;
    let mut successes = 0;
    let mut batch = remaining.min(initial_batch_size);
    while batch > 0 {
        let mut first_err = None;
        for _ in 0..batch {
            match f() {
                Ok(()) => successes += 1,
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
        }
        if first_err.is_some() {
            return (successes, first_err);
        }
        remaining -= batch;
        batch = (2 * batch).min(remaining);
    }
    (successes, None)
}

// ---------------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------------

/// `ControlleeExpectations`: creations and deletions a controller still waits to observe.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ControlleeExpectations {
    pub add: i64,
    pub del: i64,
    pub key: String,
    pub timestamp: Time,
}

impl ControlleeExpectations {
    /// `Fulfilled`: both counters ≤ 0.
    pub fn fulfilled(&self) -> bool {
        self.add <= 0 && self.del <= 0
    }

    /// `isExpired`: set more than [`EXPECTATIONS_TIMEOUT`] ago.
    pub fn is_expired(&self, now: Time) -> bool {
        now - self.timestamp > EXPECTATIONS_TIMEOUT
    }

    /// `GetExpectations`: (add, del).
    pub fn get_expectations(&self) -> (i64, i64) {
        (self.add, self.del)
    }
}

/// `ControllerExpectations`: per controller key, what it expects to see before its next sync.
#[derive(Clone, Debug, Default)]
pub struct ControllerExpectations {
    store: BTreeMap<String, Box<ControlleeExpectations>>,
}

impl ControllerExpectations {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get_expectations(&self, key: &str) -> Option<&ControlleeExpectations> {
        self.store.get(key).map(|e| &**e)
    }

    /// `SatisfiedExpectations`: true when fulfilled, expired, or never set.
    pub fn satisfied_expectations(&self, key: &str, now: Time) -> bool {
        match self.store.get(key) {
            Some(e) => e.fulfilled() || e.is_expired(now),
            None => true,
        }
    }

    pub fn delete_expectations(&mut self, key: &str) {
        self.store.remove(key);
    }

    /// `SetExpectations`: replaces the record, timestamped `now`.
    pub fn set_expectations(&mut self, key: &str, add: i64, del: i64, now: Time) {
        self.store.insert(
            key.to_string(),
            Box::new(ControlleeExpectations {
                add,
                del,
                key: key.to_string(),
                timestamp: now,
            }),
        );
    }

    pub fn expect_creations(&mut self, key: &str, adds: i64, now: Time) {
        self.set_expectations(key, adds, 0, now);
    }

    pub fn expect_deletions(&mut self, key: &str, dels: i64, now: Time) {
        self.set_expectations(key, 0, dels, now);
    }

    /// `LowerExpectations` (no-op without a record).
    pub fn lower_expectations(&mut self, key: &str, add: i64, del: i64) {
        if let Some(e) = self.store.get_mut(key) {
            e.add -= add;
            e.del -= del;
        }
    }

    /// `RaiseExpectations` (no-op without a record).
    pub fn raise_expectations(&mut self, key: &str, add: i64, del: i64) {
        if let Some(e) = self.store.get_mut(key) {
            e.add += add;
            e.del += del;
        }
    }

    pub fn creation_observed(&mut self, key: &str) {
        self.lower_expectations(key, 1, 0);
    }

    pub fn deletion_observed(&mut self, key: &str) {
        self.lower_expectations(key, 0, 1);
    }
}

/// `UIDTrackingControllerExpectations`: expectations that also remember which pods (by
/// `namespace/name`) a controller deleted, so a graceful deletion is counted once — either when
/// the deletionTimestamp appears or when the pod disappears.
#[derive(Clone, Debug, Default)]
pub struct UidTrackingControllerExpectations {
    pub expectations: ControllerExpectations,
    uid_store: BTreeMap<String, BTreeSet<String>>,
}

impl UidTrackingControllerExpectations {
    pub fn new() -> Self {
        Self::default()
    }

    /// `GetUIDs`: the pod keys still expected to be deleted.
    pub fn get_uids(&self, key: &str) -> Option<&BTreeSet<String>> {
        self.uid_store.get(key)
    }

    /// `ExpectDeletions` with the keys of the pods being deleted (clobbers earlier keys).
    pub fn expect_deletions(&mut self, key: &str, deleted_keys: &[String], now: Time) {
        let set: BTreeSet<String> = deleted_keys.iter().cloned().collect();
        let n = set.len() as i64;
        self.uid_store.insert(key.to_string(), set);
        self.expectations.expect_deletions(key, n, now);
    }

    /// `DeletionObserved`: counts the deletion only if `delete_key` was expected.
    pub fn deletion_observed(&mut self, key: &str, delete_key: &str) {
        if let Some(uids) = self.uid_store.get_mut(key) {
            if uids.remove(delete_key) {
                self.expectations.deletion_observed(key);
            }
        }
    }

    /// `DeleteExpectations`: forgets both the counters and the key set.
    pub fn delete_expectations(&mut self, key: &str) {
        self.expectations.delete_expectations(key);
        self.uid_store.remove(key);
    }

    pub fn get_expectations(&self, key: &str) -> Option<&ControlleeExpectations> {
        self.expectations.get_expectations(key)
    }

    pub fn satisfied_expectations(&self, key: &str, now: Time) -> bool {
        self.expectations.satisfied_expectations(key, now)
    }

    pub fn set_expectations(&mut self, key: &str, add: i64, del: i64, now: Time) {
        self.expectations.set_expectations(key, add, del, now);
    }

    pub fn expect_creations(&mut self, key: &str, adds: i64, now: Time) {
        self.expectations.expect_creations(key, adds, now);
    }

    pub fn creation_observed(&mut self, key: &str) {
        self.expectations.creation_observed(key);
    }

    pub fn lower_expectations(&mut self, key: &str, add: i64, del: i64) {
        self.expectations.lower_expectations(key, add, del);
    }

    pub fn raise_expectations(&mut self, key: &str, add: i64, del: i64) {
        self.expectations.raise_expectations(key, add, del);
    }
}

// ---------------------------------------------------------------------------------------------
// Pods from templates (RealPodControl)
// ---------------------------------------------------------------------------------------------

/// `metav1.NewControllerRef`: `controller: true`, `blockOwnerDeletion: true`.
pub fn new_controller_ref(owner: &ObjectMeta, api_version: &str, kind: &str) -> OwnerReference {
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.into(),
        name: owner.name.clone(),
        uid: owner.uid.clone(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// `getPodsPrefix`: `<name>-`, or the bare name when `ValidatePodName(prefix, true)` rejects
/// the dashed prefix. Validation masks the trailing dash (`maskTrailingDash`), so the string
/// checked is as long as the name: every valid controller name (253 characters included) keeps
/// its dash; the API server cuts `generateName` to 58 characters when it names the pod.
pub fn get_pods_prefix(controller_name: &str) -> String {
    let prefix = format!("{controller_name}-");
    if crate::api::validation::names::name_is_dns_subdomain(&prefix, true).is_empty() {
        prefix
    } else {
        controller_name.to_string()
    }
}

/// `GetPodFromTemplate`: a pod with the template's labels, annotations, finalizers and spec,
/// `generateName: <parent name>-`, in the parent's namespace, with `controller_ref` appended to
/// its ownerReferences.
pub fn get_pod_from_template(
    template: &PodTemplateSpec,
    parent: &ObjectMeta,
    controller_ref: Option<&OwnerReference>,
) -> Pod {
    let mut pod = Pod {
        api_version: "v1".into(),
        kind: "Pod".into(),
        ..Default::default()
    };
    pod.metadata.namespace = parent.namespace.clone();
    pod.metadata.labels = template.metadata.labels.clone();
    pod.metadata.annotations = template.metadata.annotations.clone();
    pod.metadata.finalizers = template.metadata.finalizers.clone();
    pod.metadata.generate_name = get_pods_prefix(&parent.name);
    if let Some(r) = controller_ref {
        pod.metadata.owner_references.push(r.clone());
    }
    pod.spec = template.spec.clone();
    pod
}

/// `metav1.LabelSelectorAsSelector` with upstream's nil handling: no selector selects nothing.
///
/// # Errors
/// The selector's own error (an unknown operator, missing values, ...).
pub fn label_selector_as_selector(sel: Option<&LabelSelector>) -> Result<Selector, String> {
    match sel {
        None => Ok(Selector::Nothing),
        Some(s) => s.to_selector(),
    }
}

// ---------------------------------------------------------------------------------------------
// Availability checks
// ---------------------------------------------------------------------------------------------

/// `nextPodAvailabilityCheck`: how long until a ready pod becomes available, if it is not yet.
pub fn next_pod_availability_check(
    pod: &Pod,
    min_ready_seconds: i32,
    now: Time,
) -> Option<Duration> {
    if !is_pod_ready(pod) || min_ready_seconds <= 0 {
        return None;
    }
    let ltt = get_pod_ready_condition(pod)?.last_transition_time?;
    if ltt.is_zero() {
        return None;
    }
    let next = (ltt + Duration::from_secs(i64::from(min_ready_seconds))) - now;
    (next.0 > 0).then_some(next)
}

/// `findMinNextPodAvailabilitySimpleCheck`: the earliest [`next_pod_availability_check`] among
/// `pods` seen from `now`, with the first pod that has it (later pods with the same duration do
/// not replace it).
pub fn find_min_next_pod_availability_simple_check<'a>(
    pods: impl IntoIterator<Item = &'a Pod>,
    min_ready_seconds: i32,
    now: Time,
) -> Option<(Duration, &'a Pod)> {
    let mut min: Option<(Duration, &'a Pod)> = None;
    for p in pods {
        if let Some(next) = next_pod_availability_check(p, min_ready_seconds, now) {
            if min.is_none_or(|(m, _)| next < m) {
                min = Some((next, p));
            }
        }
    }
    min
}

/// `FindMinNextPodAvailabilityCheck` with upstream's two instants: the pod that becomes
/// available first as of `last_owner_status_evaluation` (when the owner's status was computed)
/// is looked at again from `now` (upstream's `clock.Now()` after the status update); if it
/// became available in between, the check is due immediately (0). Pods that became ready after
/// the evaluation are not considered.
pub fn find_min_next_pod_availability_check_since<'a>(
    pods: impl IntoIterator<Item = &'a Pod>,
    min_ready_seconds: i32,
    last_owner_status_evaluation: Time,
    now: Time,
) -> Option<Duration> {
    let (_, check_pod) = find_min_next_pod_availability_simple_check(
        pods,
        min_ready_seconds,
        last_owner_status_evaluation,
    )?;
    Some(next_pod_availability_check(check_pod, min_ready_seconds, now).unwrap_or(Duration::ZERO))
}

/// `FindMinNextPodAvailabilityCheck` (Kubernetes 1.34, kubernetes#132121): the earliest moment a
/// ready-but-not-yet-available pod becomes available, relative to `now`. On the virtual clock the
/// status evaluation and the "refreshed" clock read are the same instant
/// ([`find_min_next_pod_availability_check_since`] with both at `now`), so upstream's second
/// pass returns the same duration.
pub fn find_min_next_pod_availability_check<'a>(
    pods: impl IntoIterator<Item = &'a Pod>,
    min_ready_seconds: i32,
    now: Time,
) -> Option<Duration> {
    find_min_next_pod_availability_check_since(pods, min_ready_seconds, now, now)
}

#[cfg(test)]
mod upstream_tests2;

#[cfg(test)]
mod apps_ports;

#[cfg(test)]
mod pod_util_upstream_more;

#[cfg(test)]
mod audit_tests;

#[cfg(test)]
mod edge_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ContainerStatus, PodCondition};

    fn t(s: &str) -> Time {
        Time::parse_rfc3339(s).unwrap()
    }

    fn ready_cond(ltt: Option<Time>) -> PodCondition {
        PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: ltt,
            ..Default::default()
        }
    }

    fn named(name: &str, node: &str, phase: &str) -> Pod {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.metadata.namespace = "default".into();
        p.spec_mut().node_name = node.into();
        p.status.phase = phase.into();
        p
    }

    fn restarts(p: &mut Pod, counts: &[i32]) {
        p.status.container_statuses = counts
            .iter()
            .map(|&c| ContainerStatus {
                restart_count: c,
                ..Default::default()
            })
            .collect();
    }

    // Port of TestActivePodFiltering (pkg/controller/controller_utils_test.go).
    #[test]
    fn test_active_pod_filtering() {
        let phases = ["Succeeded", "Failed", "", "", ""];
        let pods: Vec<Pod> = phases
            .iter()
            .enumerate()
            .map(|(i, ph)| named(&format!("pod-{}", i + 1), "", ph))
            .collect();
        let got: Vec<&str> = filter_active_pods(&pods)
            .iter()
            .map(|p| p.metadata.name.as_str())
            .collect();
        assert_eq!(got, vec!["pod-3", "pod-4", "pod-5"]);
    }

    // Port of TestCountTerminatingPods (pkg/controller/controller_utils_test.go).
    #[test]
    fn test_count_terminating_pods() {
        let now = t("2025-01-01T00:00:00Z");
        let mut pods: Vec<Pod> = (0..7)
            .map(|i| named(&format!("pod{i}"), "", "Running"))
            .collect();
        pods[0].status.phase = "Succeeded".into();
        pods[1].status.phase = "Failed".into();
        pods[2].status.phase = "Pending".into();
        pods[2].metadata.deletion_timestamp = Some(now);
        pods[3].metadata.deletion_timestamp = Some(now);
        assert_eq!(count_terminating_pods(&pods), 2);
        assert_eq!(filter_terminating_pods(&pods).len(), 2);
        assert!(!is_pod_active(&pods[3]));
        assert!(is_pod_terminating(&pods[3]));
    }

    // Port of TestSortingActivePods (pkg/controller/controller_utils_test.go): 20 random
    // permutations must all sort to the wanted order.
    #[test]
    fn test_sorting_active_pods() {
        let now = t("2025-06-01T00:00:00Z");
        let then = t("2025-05-01T00:00:00Z");
        let mut pods = vec![
            named("unscheduled", "", "Pending"),
            named("scheduledButPending", "bar", "Pending"),
            named("unknownPhase", "foo", "Unknown"),
            named("runningButNotReady", "foo", "Running"),
        ];
        let mut p = named("runningNoLastTransitionTime", "foo", "Running");
        p.status.conditions = vec![ready_cond(None)];
        restarts(&mut p, &[3, 0]);
        pods.push(p);
        let mut p = named("runningWithLastTransitionTime", "foo", "Running");
        p.status.conditions = vec![ready_cond(Some(now))];
        restarts(&mut p, &[3, 0]);
        pods.push(p);
        let mut p = named("runningLongerTime", "foo", "Running");
        p.status.conditions = vec![ready_cond(Some(then))];
        restarts(&mut p, &[3, 0]);
        pods.push(p);
        let mut p = named("lowerContainerRestartCount", "foo", "Running");
        p.metadata.creation_timestamp = Some(now);
        p.status.conditions = vec![ready_cond(Some(then))];
        restarts(&mut p, &[2, 1]);
        pods.push(p);
        let mut p = named("oldest", "foo", "Running");
        p.metadata.creation_timestamp = Some(then);
        p.status.conditions = vec![ready_cond(Some(then))];
        restarts(&mut p, &[2, 1]);
        pods.push(p);
        let want: Vec<String> = pods.iter().map(|p| p.metadata.name.clone()).collect();

        let mut rng = crate::rng::Rng::new(42);
        for _ in 0..20 {
            let mut shuffled: Vec<&Pod> = pods.iter().collect();
            for i in (1..shuffled.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                shuffled.swap(i, j);
            }
            sort_active_pods(&mut shuffled);
            let got: Vec<String> = shuffled.iter().map(|p| p.metadata.name.clone()).collect();
            assert_eq!(got, want);
        }
    }

    struct RankPodSpec<'s> {
        name: &'s str,
        node: &'s str,
        phase: &'s str,
        ready: bool,
        restarts: i32,
        ready_since: Time,
        created: Time,
        cost: Option<&'s str>,
    }

    fn rank_pod(s: RankPodSpec) -> Pod {
        // Upstream's table pods have no UID: equal UIDs never decide a tie.
        let mut p = named(s.name, s.node, s.phase);
        if !s.created.is_zero() {
            p.metadata.creation_timestamp = Some(s.created);
        }
        if let Some(c) = s.cost {
            p.metadata
                .annotations
                .insert(POD_DELETION_COST_ANNOTATION.into(), c.into());
        }
        if s.ready {
            let ltt = (!s.ready_since.is_zero()).then_some(s.ready_since);
            p.status.conditions = vec![ready_cond(ltt)];
            restarts(&mut p, &[s.restarts]);
        }
        p
    }

    // Port of TestSortingActivePodsWithRanks (pkg/controller/controller_utils_test.go): the
    // equality and inequality tables, with the gates toggled as upstream does.
    #[test]
    fn test_sorting_active_pods_with_ranks() {
        let now = t("2025-06-15T12:00:00Z");
        let then_1_month = t("2025-05-15T12:00:00Z");
        let then_2_hours = now - Duration::from_mins(120);
        let then_5_hours = now - Duration::from_mins(300);
        let then_8_hours = now - Duration::from_mins(480);
        let zero = Time::ZERO;
        let mk = |name, node, phase, ready, restarts, ready_since, created, cost| {
            rank_pod(RankPodSpec {
                name,
                node,
                phase,
                ready,
                restarts,
                ready_since,
                created,
                cost,
            })
        };
        let unscheduled = mk("unscheduled", "", "Pending", false, 0, zero, zero, None);
        let scheduled_pending = mk("pending", "node", "Pending", false, 0, zero, zero, None);
        let unknown_phase = mk(
            "unknown-phase",
            "node",
            "Unknown",
            false,
            0,
            zero,
            zero,
            None,
        );
        let running_not_ready = mk("not-ready", "node", "Running", false, 0, zero, zero, None);
        let ready_no_ltt = mk(
            "ready-no-last-transition-time",
            "node",
            "Running",
            true,
            0,
            zero,
            zero,
            None,
        );
        let ready_now = mk("ready-now", "node", "Running", true, 0, now, now, None);
        let ready_then = mk(
            "ready-then",
            "node",
            "Running",
            true,
            0,
            then_1_month,
            then_1_month,
            None,
        );
        let ready_high_restarts = mk(
            "ready-high-restarts",
            "node",
            "Running",
            true,
            9001,
            now,
            now,
            None,
        );
        let ready_now_created_then = mk(
            "ready-now-created-then",
            "node",
            "Running",
            true,
            0,
            now,
            then_1_month,
            None,
        );
        let low_cost = mk(
            "low-deletion-cost",
            "node",
            "Running",
            true,
            0,
            now,
            then_1_month,
            Some("10"),
        );
        let high_cost = mk(
            "high-deletion-cost",
            "node",
            "Running",
            true,
            0,
            now,
            then_1_month,
            Some("100"),
        );
        let unscheduled_5h = mk(
            "unscheduled-5-hours",
            "",
            "Pending",
            false,
            0,
            then_5_hours,
            then_5_hours,
            None,
        );
        let unscheduled_8h = mk(
            "unscheduled-10-hours",
            "",
            "Pending",
            false,
            0,
            then_8_hours,
            then_8_hours,
            None,
        );
        let ready_2h = mk(
            "ready-2-hours",
            "",
            "Running",
            true,
            0,
            then_2_hours,
            then_1_month,
            None,
        );
        let ready_5h = mk(
            "ready-5-hours",
            "",
            "Running",
            true,
            0,
            then_5_hours,
            then_1_month,
            None,
        );
        let ready_10h = mk(
            "ready-10-hours",
            "",
            "Running",
            true,
            0,
            then_8_hours,
            then_1_month,
            None,
        );

        let gates = ScaleDownGates::default();
        let equality: Vec<(&Pod, &Pod)> = vec![
            (&unscheduled, &unscheduled),
            (&scheduled_pending, &scheduled_pending),
            (&unknown_phase, &unknown_phase),
            (&running_not_ready, &running_not_ready),
            (&ready_now_created_then, &ready_now_created_then),
            (&ready_now, &ready_now),
            (&ready_then, &ready_then),
            (&ready_high_restarts, &ready_high_restarts),
            (&ready_now_created_then, &ready_now_created_then),
            (&unscheduled_5h, &unscheduled_8h),
            (&ready_5h, &ready_10h),
        ];
        for (i, (p1, p2)) in equality.into_iter().enumerate() {
            let s = ActivePodsWithRanks::new(vec![p1, p2], vec![1, 1], now, gates);
            assert!(
                !s.less(0, 1) && !s.less(1, 0),
                "equality test {i}: {} vs {}",
                p1.metadata.name,
                p2.metadata.name
            );
        }

        // (lesser, rank, greater, rank, PodDeletionCost on)
        let inequality: Vec<(&Pod, i32, &Pod, i32, bool)> = vec![
            (&unscheduled, 1, &scheduled_pending, 2, true),
            (&unscheduled, 2, &scheduled_pending, 1, true),
            (&scheduled_pending, 1, &unknown_phase, 2, true),
            (&unknown_phase, 1, &running_not_ready, 2, true),
            (&running_not_ready, 1, &ready_no_ltt, 1, true),
            (&ready_no_ltt, 1, &ready_now, 1, true),
            (&ready_now, 2, &ready_no_ltt, 1, true),
            (&ready_now, 1, &ready_then, 1, true),
            (&ready_now, 2, &ready_then, 1, true),
            (&ready_high_restarts, 1, &ready_now, 1, true),
            (&ready_now, 2, &ready_high_restarts, 1, true),
            (&ready_now, 1, &ready_now_created_then, 1, true),
            (&ready_now_created_then, 2, &ready_now, 1, true),
            (&low_cost, 2, &high_cost, 1, true),
            (&high_cost, 2, &low_cost, 1, false),
            (&ready_2h, 1, &ready_5h, 1, true),
        ];
        for (i, (lesser, lr, greater, gr, pdc)) in inequality.into_iter().enumerate() {
            let g = ScaleDownGates {
                pod_deletion_cost: pdc,
                logarithmic_scale_down: true,
            };
            let s = ActivePodsWithRanks::new(vec![lesser, greater], vec![lr, gr], now, g);
            assert!(
                s.less(0, 1),
                "inequality test {i}: expected {} < {}",
                lesser.metadata.name,
                greater.metadata.name
            );
            assert!(
                !s.less(1, 0),
                "inequality test {i}: {} not < {}",
                greater.metadata.name,
                lesser.metadata.name
            );
        }
    }

    /// The fast path of `go_log2_trunc` agrees with Go's formula: around every power of two
    /// (where rounding decides), across the fast path's edges and on random values.
    #[test]
    fn go_log2_trunc_matches_go_formula() {
        let check = |x: f64| assert_eq!(go_log2_trunc(x), go_log2(x) as i64, "x = {x:e}");
        for k in 0..63u32 {
            let p = 1u64 << k;
            for j in 0..4096u64 {
                check(p.saturating_add(j) as f64);
                check(p.saturating_sub(j).max(1) as f64);
            }
        }
        for e in 0..63u64 {
            for m in [
                1u64 << 33,
                (1 << 33) - 1,
                (1 << 52) - (1 << 33),
                (1 << 52) - (1 << 33) + 1,
            ] {
                check(f64::from_bits(((e + 1023) << 52) | m));
            }
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            check((state >> (state % 60)).max(1) as f64);
        }
    }

    #[test]
    fn log2_buckets_and_uid_tie_break() {
        let now = t("2025-06-15T12:00:00Z");
        // 5 h and 8 h ago: 1.8e13 ns and 2.88e13 ns both lie in [2^44, 2^45).
        assert_eq!(log2_bucket(now - Duration::from_mins(300), now), 44);
        assert_eq!(log2_bucket(now - Duration::from_mins(480), now), 44);
        // 2 h ago: 7.2e12 ns lies in [2^42, 2^43).
        assert_eq!(log2_bucket(now - Duration::from_mins(120), now), 42);
        assert_eq!(log2_bucket(now, now), -1);
        assert_eq!(log2_bucket(now + Duration::from_secs(1), now), -1);
        // Exactly 2^k nanoseconds is bucket k; 1 ms = 1e6 ns is bucket 19.
        assert_eq!(go_log2(1024.0), 10.0);
        assert_eq!(log2_bucket(now - Duration::from_millis(1), now), 19);

        // Same bucket: the UID decides immediately, even though "b" restarted more (rule 7).
        let mut a = named("a", "n", "Running");
        a.metadata.uid = "uid-b".into();
        a.status.conditions = vec![ready_cond(Some(now - Duration::from_mins(300)))];
        let mut b = named("b", "n", "Running");
        b.metadata.uid = "uid-a".into();
        b.status.conditions = vec![ready_cond(Some(now - Duration::from_mins(480)))];
        restarts(&mut b, &[7]);
        let s = ActivePodsWithRanks::new(vec![&a, &b], vec![], now, ScaleDownGates::default());
        let v = s.decide(1, 0);
        assert_eq!((v.rule, v.mode, v.less), (6, RuleMode::UidTie, true));
        // Without LogarithmicScaleDown: afterOrZero, the more recently ready one first.
        let off = ScaleDownGates {
            pod_deletion_cost: true,
            logarithmic_scale_down: false,
        };
        let s = ActivePodsWithRanks::new(vec![&a, &b], vec![], now, off);
        let v = s.decide(0, 1);
        assert_eq!((v.rule, v.mode, v.less), (6, RuleMode::Direct, true));
    }

    #[test]
    fn deletion_cost_parsing() {
        let cases: &[(&str, Result<i32, ()>)] = &[
            ("0", Ok(0)),
            ("10", Ok(10)),
            ("-5", Ok(-5)),
            ("-007", Ok(-7)),
            ("2147483647", Ok(i32::MAX)),
            ("-2147483648", Ok(i32::MIN)),
            ("+10", Err(())),
            ("007", Err(())),
            ("00", Err(())),
            ("", Err(())),
            ("2147483648", Err(())),
            ("1.5", Err(())),
            (" 1", Err(())),
            ("-", Err(())),
            ("abc", Err(())),
        ];
        for (v, want) in cases {
            let mut m = BTreeMap::new();
            m.insert(POD_DELETION_COST_ANNOTATION.to_string(), v.to_string());
            let got = get_deletion_cost_from_pod_annotations(&m).map_err(|_| ());
            assert_eq!(&got, want, "{v:?}");
            let mut p = Pod::default();
            p.metadata.annotations = m.into();
            assert_eq!(pod_deletion_cost(&p), want.unwrap_or(0), "{v:?}");
        }
        assert_eq!(
            get_deletion_cost_from_pod_annotations(&BTreeMap::new()),
            Ok(0)
        );
    }

    #[test]
    fn sidecar_restarts_break_ties() {
        let mut a = named("a", "n", "Running");
        let mut b = named("b", "n", "Running");
        restarts(&mut a, &[2]);
        restarts(&mut b, &[2]);
        b.spec_mut().init_containers = vec![crate::api::Container {
            name: "proxy".into(),
            restart_policy: Some("Always".into()),
            ..Default::default()
        }];
        b.status.init_container_statuses = vec![ContainerStatus {
            name: "proxy".into(),
            restart_count: 4,
            ..Default::default()
        }];
        // A non-sidecar init container with restarts does not count.
        a.spec_mut().init_containers = vec![crate::api::Container {
            name: "setup".into(),
            ..Default::default()
        }];
        a.status.init_container_statuses = vec![ContainerStatus {
            name: "setup".into(),
            restart_count: 9,
            ..Default::default()
        }];
        assert_eq!(max_container_restarts(&a), (2, 0));
        assert_eq!(max_container_restarts(&b), (2, 4));
        assert_eq!(compare_max_container_restarts(&b, &a), Some(true));
        assert!(active_pods_less(&b, &a));
    }

    #[test]
    fn pod_availability_boundaries() {
        let ltt = t("2025-01-01T00:00:00Z");
        let mut p = named("p", "n", "Running");
        p.status.conditions = vec![ready_cond(Some(ltt))];
        assert!(is_pod_available(&p, 0, ltt));
        assert!(!is_pod_available(
            &p,
            10,
            ltt + Duration::from_millis(9_999)
        ));
        // 1.34: available exactly at lastTransitionTime + minReadySeconds.
        assert!(is_pod_available(&p, 10, ltt + Duration::from_secs(10)));
        assert_eq!(
            next_pod_availability_check(&p, 10, ltt + Duration::from_secs(4)),
            Some(Duration::from_secs(6))
        );
        assert_eq!(
            next_pod_availability_check(&p, 10, ltt + Duration::from_secs(10)),
            None
        );
        p.status.conditions = vec![ready_cond(None)];
        assert!(!is_pod_available(&p, 10, ltt + Duration::from_secs(3600)));
        assert!(is_pod_available(&p, 0, ltt));
        assert_eq!(pod_ready_time(&p), Time::ZERO);
    }

    /// `newPod(now, ready, beforeSec)` of pkg/api/v1/pod/util_test.go: a Ready condition (True
    /// or False) that transitioned `before_sec` seconds before `now`.
    fn util_new_pod(now: Time, ready: bool, before_sec: i64) -> Pod {
        let mut p = Pod::default();
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: if ready { "True" } else { "False" }.into(),
            last_transition_time: Some(now - Duration::from_secs(before_sec)),
            ..Default::default()
        }];
        p
    }

    // Port of TestIsPodAvailable (pkg/api/v1/pod/util_test.go). Rows: (ready, beforeSec,
    // minReadySeconds, expected).
    #[test]
    fn test_is_pod_available() {
        let now = t("2025-01-01T00:00:00Z");
        let rows = [
            (false, 0, 0, false),
            (true, 0, 1, false),
            (true, 0, 0, true),
            (true, 51, 50, true),
        ];
        for (i, (ready, before, min_ready, want)) in rows.into_iter().enumerate() {
            let pod = util_new_pod(now, ready, before);
            assert_eq!(is_pod_available(&pod, min_ready, now), want, "tc #{i}");
        }
    }

    // Port of TestIsPodTerminal (pkg/api/v1/pod/util_test.go).
    #[test]
    fn test_is_pod_terminal() {
        let now = t("2025-01-01T00:00:00Z");
        let rows = [
            ("Failed", true),
            ("Succeeded", true),
            ("Unknown", false),
            ("Pending", false),
            ("Running", false),
            ("", false),
        ];
        for (phase, want) in rows {
            let mut pod = util_new_pod(now, true, 0);
            pod.status.phase = phase.into();
            assert_eq!(is_pod_terminal(&pod), want, "{phase:?}");
        }
    }

    // Port of TestControllerExpectations (pkg/controller/controller_utils_test.go). Upstream uses
    // a fake 30 s TTL store; kubeplay expires on the virtual clock after ExpectationsTimeout.
    #[test]
    fn test_controller_expectations() {
        let t0 = t("2009-11-10T23:00:00Z");
        let mut e = ControllerExpectations::new();
        let key = "default/foobar";
        let (adds, dels) = (10, 30);
        e.set_expectations(key, adds, dels, t0);
        for _ in 0..adds + 1 {
            e.creation_observed(key);
        }
        assert!(
            !e.satisfied_expectations(key, t0),
            "still waiting for deletions"
        );
        for _ in 0..dels + 1 {
            e.deletion_observed(key);
        }
        // Expectations have been surpassed.
        let exp = e.get_expectations(key).unwrap();
        assert_eq!(exp.get_expectations(), (-1, -1));
        assert!(e.satisfied_expectations(key, t0));
        // Old expectations are cleared because of the timeout.
        e.set_expectations(key, 1, 2, t0);
        assert_eq!(e.get_expectations(key).unwrap().get_expectations(), (1, 2));
        assert!(!e.satisfied_expectations(key, t0));
        assert!(!e.satisfied_expectations(key, t0 + EXPECTATIONS_TIMEOUT));
        assert!(e.satisfied_expectations(key, t0 + EXPECTATIONS_TIMEOUT + Duration(1)));
        // Never set: satisfied.
        assert!(e.satisfied_expectations("default/other", t0));
        e.raise_expectations(key, 1, 0);
        assert_eq!(e.get_expectations(key).unwrap().get_expectations(), (2, 2));
    }

    // Port of TestUIDExpectations (pkg/controller/controller_utils_test.go).
    #[test]
    fn test_uid_expectations() {
        let now = t("2025-01-01T00:00:00Z");
        let mut uid_exp = UidTrackingControllerExpectations::new();
        for replicas in [2, 1, 0, 5] {
            let rc_key = format!("default/rc-{replicas}");
            let pod_keys: Vec<String> = (0..5)
                .map(|i| format!("default/pod{i}-rc-{replicas}"))
                .collect();
            uid_exp.expect_deletions(&rc_key, &pod_keys, now);
            assert!(!uid_exp.satisfied_expectations(&rc_key, now));
            // An unexpected key is not counted.
            uid_exp.deletion_observed(&rc_key, "default/someone-else");
            assert_eq!(uid_exp.get_expectations(&rc_key).unwrap().del, 5);
            for k in &pod_keys {
                uid_exp.deletion_observed(&rc_key, k);
                // Observing the same key twice counts once.
                uid_exp.deletion_observed(&rc_key, k);
            }
            assert!(uid_exp.satisfied_expectations(&rc_key, now));
            assert_eq!(uid_exp.get_expectations(&rc_key).unwrap().del, 0);
            uid_exp.delete_expectations(&rc_key);
            assert!(uid_exp.get_uids(&rc_key).is_none());
            assert!(uid_exp.get_expectations(&rc_key).is_none());
        }
    }

    // TestSlowStartBatch (pkg/controller/replicaset/replica_set_test.go) lives with the
    // ReplicaSet tests upstream; the helper is here, so is its table.
    #[test]
    fn test_slow_start_batch() {
        // (count, callLimit, successes, error?, calls)
        for (count, limit, successes, err, calls) in [
            (10usize, 0usize, 0usize, true, 1usize),
            (10, 10, 10, false, 10),
            (10, 5, 5, true, 7),
            (0, 0, 0, false, 0),
        ] {
            let mut calls_made = 0;
            let (got, e) = slow_start_batch(count, SLOW_START_INITIAL_BATCH_SIZE, || {
                calls_made += 1;
                if calls_made > limit {
                    Err("fake error")
                } else {
                    Ok(())
                }
            });
            assert_eq!(got, successes);
            assert_eq!(e.is_some(), err);
            assert_eq!(calls_made, calls);
        }
    }

    // Port of TestActiveReplicaSetsFiltering (pkg/controller/controller_utils_test.go).
    #[test]
    fn test_active_replica_sets_filtering() {
        let rs = |name: &str, replicas: i32| {
            let mut r = ReplicaSet::default();
            r.metadata.name = name.into();
            r.spec.replicas = Some(replicas);
            r
        };
        let (zero, foo, bar) = (rs("zero", 0), rs("foo", 1), rs("bar", 2));
        let input: Vec<Option<&ReplicaSet>> = vec![Some(&zero), None, Some(&foo), Some(&bar)];
        let got: Vec<&str> = filter_active_replica_sets(input)
            .iter()
            .map(|r| r.metadata.name.as_str())
            .collect();
        assert_eq!(got, vec!["foo", "bar"]);
    }

    #[test]
    fn replica_set_sorts() {
        let mk = |name: &str, replicas: i32, created: &str| {
            let mut r = ReplicaSet::default();
            r.metadata.name = name.into();
            r.spec.replicas = Some(replicas);
            r.metadata.creation_timestamp = Some(t(created));
            r
        };
        let a = mk("a", 3, "2025-01-02T00:00:00Z");
        let b = mk("b", 3, "2025-01-01T00:00:00Z");
        let c = mk("c", 5, "2025-01-03T00:00:00Z");
        let d = mk("d", 3, "2025-01-01T00:00:00Z");
        let names = |v: &Vec<&ReplicaSet>| -> Vec<String> {
            v.iter().map(|r| r.metadata.name.clone()).collect()
        };
        let mut v = vec![&a, &b, &c, &d];
        sort_replica_sets_by_creation_timestamp(&mut v);
        assert_eq!(names(&v), ["b", "d", "a", "c"]);
        let mut v = vec![&a, &b, &c, &d];
        sort_replica_sets_by_size_older(&mut v);
        assert_eq!(names(&v), ["c", "b", "d", "a"]);
        let mut v = vec![&a, &b, &c, &d];
        sort_replica_sets_by_size_newer(&mut v);
        assert_eq!(names(&v), ["c", "a", "d", "b"]);
    }

    // Port of TestCreatePodsWithGenerateName's pod shape (pkg/controller/controller_utils_test.go).
    #[test]
    fn pod_from_template() {
        let mut tpl = PodTemplateSpec::default();
        tpl.metadata.labels.insert("name".into(), "foo".into());
        tpl.metadata.annotations.insert("a".into(), "b".into());
        tpl.metadata.finalizers = vec!["example.com/keep".into()].into();
        tpl.spec_mut().containers = vec![crate::api::Container {
            name: "c".into(),
            image: "foo/bar".into(),
            ..Default::default()
        }];
        let owner = ObjectMeta {
            name: "foobar".into(),
            namespace: "ns".into(),
            uid: "uid-1".into(),
            ..Default::default()
        };
        let r = new_controller_ref(&owner, "v1", "ReplicationController");
        let pod = get_pod_from_template(&tpl, &owner, Some(&r));
        assert_eq!(pod.metadata.generate_name, "foobar-");
        assert_eq!(pod.metadata.namespace, "ns");
        assert_eq!(pod.metadata.labels, tpl.metadata.labels);
        assert_eq!(pod.metadata.annotations, tpl.metadata.annotations);
        assert_eq!(pod.metadata.finalizers, tpl.metadata.finalizers);
        assert_eq!(pod.spec, tpl.spec);
        let or = &pod.metadata.owner_references[0];
        assert_eq!(
            (
                or.kind.as_str(),
                or.api_version.as_str(),
                or.name.as_str(),
                or.uid.as_str()
            ),
            ("ReplicationController", "v1", "foobar", "uid-1")
        );
        assert_eq!(
            (or.controller, or.block_owner_deletion),
            (Some(true), Some(true))
        );
        // ValidatePodName(prefix, true) masks the trailing dash: 253 characters keep it.
        assert_eq!(
            get_pods_prefix(&"x".repeat(253)),
            format!("{}-", "x".repeat(253))
        );
        assert_eq!(
            get_pods_prefix(&"x".repeat(252)),
            format!("{}-", "x".repeat(252))
        );
    }

    #[test]
    fn merge_sort_is_stable_and_total() {
        let v = [3, 1, 2, 1, 3, 0];
        let perm = merge_sort_by_less(v.len(), |i, j| v[i] < v[j]);
        assert_eq!(perm, vec![5, 1, 3, 2, 0, 4]);
        // A cyclic "less" does not panic and still yields a permutation.
        let perm = merge_sort_by_less(3, |i, j| (i + 1) % 3 == j);
        let mut sorted = perm.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2]);
    }

    /// The value-moving merge sort makes the same decisions as the index one, also for a
    /// `less` that is not transitive (a rock-paper-scissors relation over 0..3, plus ties).
    #[test]
    fn merge_sort_on_values_matches_merge_sort_on_indices() {
        let mut seed = 7u64;
        for n in [0usize, 1, 2, 5, 16, 37, 200] {
            let v: Vec<u64> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 33) % 7
                })
                .collect();
            let cyclic = |a: u64, b: u64| (a % 3 + 1) % 3 == b % 3 || (a % 3 == b % 3 && a < b);
            let perm = merge_sort_by_less(n, |i, j| cyclic(v[i], v[j]));
            let pairs: Vec<(u64, usize)> = v.iter().copied().zip(0..).collect();
            let sorted = merge_sort_values_by_less(pairs, |a, b| cyclic(a.0, b.0));
            let order: Vec<usize> = sorted.iter().map(|p| p.1).collect();
            assert_eq!(order, perm, "n = {n}");
        }
    }

    /// Up to 12 elements the merge sort decides exactly as Go's `sort.Sort`, which sorts such
    /// short slices by insertion (`insertionSortLessFunc` in `sort/zsortfunc.go`): also for
    /// relations that are not transitive, as `ActivePodsWithRanks.Less` can be.
    #[test]
    fn merge_sort_matches_go_insertion_sort_up_to_12() {
        fn go_insertion_sort(n: usize, less: impl Fn(usize, usize) -> bool) -> Vec<usize> {
            let mut d: Vec<usize> = (0..n).collect();
            for i in 1..n {
                let mut j = i;
                while j > 0 && less(d[j], d[j - 1]) {
                    d.swap(j, j - 1);
                    j -= 1;
                }
            }
            d
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..3000 {
            let n = round % 13;
            // A random relation: neither transitive nor asymmetric in general.
            let mut table = [[false; 12]; 12];
            for row in table.iter_mut() {
                for cell in row.iter_mut() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    *cell = state % 3 == 0;
                }
            }
            let less = |i: usize, j: usize| table[i][j];
            let ours = merge_sort_by_less(n, less);
            assert_eq!(ours, go_insertion_sort(n, less), "round {round}");
        }
    }

    #[test]
    fn word_hasher_tells_node_names_apart() {
        use std::hash::{BuildHasher, Hash};
        // Distinct low bits (what hashbrown indexes with) for names that differ only in their
        // last bytes, and for a name and its prefix.
        let names: Vec<String> = (0..1000).map(|i| format!("node-{i}")).collect();
        let low: BTreeSet<u64> = names
            .iter()
            .map(|n| WordBuild::default().hash_one(n.as_str()) & 0xfff)
            .collect();
        assert!(low.len() > 700, "{} distinct of 1000", low.len());
        let (a, b) = (WordBuild::default(), WordBuild::default());
        assert_ne!(a.hash_one("node-1"), b.hash_one("node-10"));
        let mut h = WordHasher::default();
        "x".hash(&mut h);
        assert_ne!(std::hash::Hasher::finish(&h), 0);
    }
}
