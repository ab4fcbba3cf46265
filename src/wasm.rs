//! The JavaScript boundary: a `Simulation` handle for the page. The only module that knows about JS.
//!
//! Shaped like ruff's `crates/ruff_wasm/src/lib.rs`: one stateful handle, results out through
//! `serde_wasm_bindgen`, one error-conversion helper ([`into_error`]), camelCase `js_name`s and
//! TypeScript types in a `typescript_custom_section`.
//!
//! ```js
//! import init, { Simulation } from "../pkg/kubeplay.js";
//! await init();
//! const sim = new Simulation(scenarioYaml); // throws Error("objects[0] (web): ...")
//! sim.runFor(60);
//! const snap = sim.snapshot();              // { time, nodes: [...], pods: [...], ... }
//! const fresh = sim.events(seen);           // events since index `seen`
//! ```

use crate::api::Duration;
use crate::scenario::Scenario;
use crate::trace::{Snapshot, TraceEvent};
use js_sys::Error;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// TypeScript declarations of what `snapshot()` and `events()` return (`crate::trace`'s
/// `Snapshot` and `TraceEvent` as serialised). `tests/web.rs` checks the field lists against
/// real values, so this cannot drift silently from `src/trace.rs`.
pub const TYPESCRIPT_TYPES: &str = r#"
export interface NodeView {
    name: string;
    /** Status of the Ready condition: "True", "False" or "Unknown". */
    ready: string;
    unschedulable: boolean;
    /** The node's kubelet has been failed by the scenario. */
    down: boolean;
    labels: Record<string, string>;
    /** "key=value:Effect" (or "key:Effect"). */
    taints: string[];
    cpuMilli: number;
    memoryBytes: number;
    podsCapacity: number;
    cpuRequestedMilli: number;
    memoryRequestedBytes: number;
}

export interface PodView {
    uid: string;
    namespace: string;
    name: string;
    /** Empty while unscheduled. */
    node: string;
    phase: string;
    ready: boolean;
    terminating: boolean;
    /** Waiting/terminated reason of the first container that has one (CrashLoopBackOff). */
    reason: string;
    restarts: number;
    ownerKind: string;
    ownerName: string;
    ownerUid: string;
    /** pod-template-hash or controller-revision-hash label. */
    revision: string;
    deletionCost: string;
}

export interface WorkloadView {
    kind: string;
    namespace: string;
    name: string;
    uid: string;
    desired: number;
    current: number;
    ready: number;
    available: number;
}

export interface Snapshot {
    /** Seconds since the scenario started. */
    time: number;
    /** RFC 3339 wall-clock time of the simulation. */
    now: string;
    nodes: NodeView[];
    pods: PodView[];
    workloads: WorkloadView[];
    controllerManagerRunning: boolean;
    eventCount: number;
}

export interface EventsSince {
    events: TraceEvent[];
    /** Pass this as the next cursor. */
    next: number;
    /** The cursor was past the end (the simulation was rewound): `events` starts from 0. */
    reset: boolean;
}

export interface BuiltinScenario {
    name: string;
    description: string;
    yaml: string;
}

export interface ReplicaSetRollout {
    name: string;
    uid: string;
    /** deployment.kubernetes.io/revision, 0 when absent. */
    revision: number;
    hash: string;
    /** spec.replicas */
    desired: number;
    /** status.replicas, readyReplicas, availableReplicas */
    replicas: number;
    ready: number;
    available: number;
    /** This is the ReplicaSet of the Deployment's current template. */
    isNew: boolean;
}

export interface DeploymentRollout {
    namespace: string;
    name: string;
    uid: string;
    desired: number;
    strategy: string;
    /** Resolved against `desired` (RollingUpdate only; 0 otherwise). */
    maxSurge: number;
    maxUnavailable: number;
    paused: boolean;
    /** The Progressing condition as "Status/Reason" (`True/NewReplicaSetAvailable`,
     * `False/ProgressDeadlineExceeded`), "" when absent. */
    progressing: string;
    replicaSets: ReplicaSetRollout[];
}

export interface ExplainedPod {
    position: number;
    name: string;
    uid: string;
    node: string;
    phase: string;
    ready: boolean;
    readySince?: string;
    created?: string;
    deletionCost: number;
    deletionCostAnnotation?: string;
    rank: number;
    restarts: number;
    sidecarRestarts: number;
    delete: boolean;
}

export interface PairExplanation {
    first: string;
    second: string;
    /** 1-8, or 0 when no rule distinguishes the pods. */
    rule: number;
    ruleName: string;
    mode: string;
    detail: string;
    consistent: boolean;
    text: string;
}

export interface ScaleDownExplanation {
    owner?: string;
    now: string;
    gates: Record<string, boolean>;
    activePods: number;
    replicas: number;
    deleteCount: number;
    burstLimited: boolean;
    sorted: boolean;
    pods: ExplainedPod[];
    comparisons: PairExplanation[];
}

export interface TimelineLogEntry {
    /** Seconds since the scenario started. */
    time: number;
    /** `kubectl get rs`, `node node-2 fails`, ... */
    action: string;
    output: string;
    ok: boolean;
}

export interface JournalEntry {
    /** Seconds since the scenario started. */
    at: number;
    cmd: string;
    stdin?: string;
}

export interface HpaMetricView {
    name: string;
    targetUtilization: number | null;
    currentUtilization: number | null;
    targetAverageMilli: number | null;
    currentAverageMilli: number | null;
}

export interface HpaConditionView {
    type: string;
    status: string;
    reason: string;
    message: string;
}

export interface AutoscalerView {
    namespace: string;
    name: string;
    targetKind: string;
    targetName: string;
    minReplicas: number;
    maxReplicas: number;
    /** The target's spec.replicas now; null when its scale cannot be read. */
    targetReplicas: number | null;
    currentReplicas: number;
    desiredReplicas: number;
    /** Seconds since the start. */
    lastScaleTime: number | null;
    scaleDownWindowSeconds: number;
    scaleUpWindowSeconds: number;
    metrics: HpaMetricView[];
    conditions: HpaConditionView[];
    /** Total CPU demand (milli-cores) of the load entry covering the target, now. */
    loadCpuMilli: number | null;
    loadIndex: number | null;
}

export interface TraceEvent {
    /** Seconds since the scenario started. */
    time: number;
    kind: string;
    namespace: string;
    name: string;
    type: "Normal" | "Warning" | string;
    reason: string;
    message: string;
}
export interface ClaimExplanation {
    /** `<template>-<set>-<ordinal>`. */
    name: string;
    exists: boolean;
    /** "Bound", "Pending", or "" when missing. */
    phase: string;
}

export interface SlotExplanation {
    ordinal: number;
    name: string;
    exists: boolean;
    phase: string;
    ready: boolean;
    terminating: boolean;
    /** controller-revision-hash ("" when the pod is missing). */
    revision: string;
    /** "update", "current", "other", or "" when the pod is missing. */
    revisionKind: string;
    /** Above `replicas`: deleted by the scale down. */
    condemned: boolean;
    /** Below the RollingUpdate partition: keeps the current revision. */
    belowPartition: boolean;
    claims: ClaimExplanation[];
    /** What the pod is doing ("Running and Ready", "not created yet", ...). */
    state: string;
    /** The pod this one waits for, "" when none. */
    waitsFor: string;
    /** "web-2 waits for web-1 to be Running and Ready", "" when it does not wait. */
    gate: string;
}

export interface StatefulSetExplanation {
    namespace: string;
    name: string;
    uid: string;
    replicas: number;
    /** "OrderedReady" or "Parallel". */
    podManagementPolicy: string;
    /** "RollingUpdate" or "OnDelete". */
    updateStrategy: string;
    partition: number;
    currentRevision: string;
    updateRevision: string;
    readyReplicas: number;
    currentReplicas: number;
    updatedReplicas: number;
    /** By ascending ordinal. */
    slots: SlotExplanation[];
    /** What the controller does next, in one sentence. */
    summary: string;
}

export interface DaemonPodView {
    name: string;
    phase: string;
    ready: boolean;
    terminating: boolean;
    revision: string;
}

export interface DaemonNodeExplanation {
    node: string;
    /** nodeShouldRunDaemonPod: a daemon pod should be created here. */
    shouldRun: boolean;
    /** nodeShouldRunDaemonPod: a daemon pod already here may stay. */
    shouldContinueRunning: boolean;
    /** The predicate that decided, in words. */
    reason: string;
    /** What did not change the answer (cordoned, tolerated taints). */
    notes: string[];
    pods: DaemonPodView[];
}

export interface DaemonSetExplanation {
    namespace: string;
    name: string;
    uid: string;
    desired: number;
    current: number;
    ready: number;
    updated: number;
    available: number;
    misscheduled: number;
    /** By node name. */
    nodes: DaemonNodeExplanation[];
}

export interface CronJobView {
    namespace: string;
    name: string;
    uid: string;
    schedule: string;
    timeZone: string | null;
    /** "At 00:00 on day-of-month 13 or on Friday", or "invalid schedule: ...". */
    description: string;
    suspend: boolean;
    concurrencyPolicy: string;
    startingDeadlineSeconds: number | null;
    successfulJobsHistoryLimit: number;
    failedJobsHistoryLimit: number;
    /** Times are seconds since the scenario started. */
    created: number | null;
    lastScheduleTime: number | null;
    lastSuccessfulTime: number | null;
    active: string[];
    pastTicks: number[];
    /** What became of each past tick (same order as pastTicks). */
    pastTickInfo: PastTick[];
    nextTicks: number[];
    nextRfc3339: string[];
}

export interface PastTick {
    time: number;
    kind: "run" | "due" | "deadline" | "forbid" | "suspended" | "missed";
    job: string | null;
    reason: string;
}

export interface JobConditionView {
    type: string;
    status: string;
    reason: string;
    message: string;
    time: number | null;
}

export interface JobPodView {
    name: string;
    uid: string;
    /** Completion index, -1 for NonIndexed Jobs. */
    index: number;
    phase: string;
    reason: string;
    terminating: boolean;
    created: number | null;
    finished: number | null;
    exitCode: number | null;
    restarts: number;
    disrupted: boolean;
}

export interface JobView {
    namespace: string;
    name: string;
    uid: string;
    ownerKind: string;
    ownerName: string;
    created: number | null;
    scheduled: number | null;
    startTime: number | null;
    completionTime: number | null;
    /** "Complete", "Failed", "Suspended" or "Running". */
    state: string;
    finished: number | null;
    completions: number | null;
    parallelism: number;
    completionMode: string;
    backoffLimit: number;
    backoffLimitPerIndex: number | null;
    activeDeadlineSeconds: number | null;
    suspend: boolean;
    ttlSecondsAfterFinished: number | null;
    ttlExpires: number | null;
    active: number;
    ready: number;
    succeeded: number;
    failed: number;
    terminating: number;
    completedIndexes: string;
    failedIndexes: string;
    conditions: JobConditionView[];
    podFailurePolicy: string[];
    pods: JobPodView[];
}

export interface BatchView {
    now: number;
    nowRfc3339: string;
    cronJobs: CronJobView[];
    jobs: JobView[];
}

export interface SchedulePreview {
    description: string;
    next: string[];
    /** Empty when the schedule and zone are valid. */
    error: string;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TS_APPEND: &'static str = TYPESCRIPT_TYPES;

#[wasm_bindgen]
extern "C" {
    /// `snapshot()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "Snapshot")]
    pub type JsSnapshot;

    /// `events()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "TraceEvent[]")]
    pub type JsTraceEvents;

    /// `eventsSince()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "EventsSince")]
    pub type JsEventsSince;

    /// `builtinScenarios()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "BuiltinScenario[]")]
    pub type JsBuiltinScenarios;

    /// `explainScaleDown()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "ScaleDownExplanation")]
    pub type JsScaleDownExplanation;

    /// `rollouts()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "DeploymentRollout[]")]
    pub type JsRollouts;

    /// `timelineLog()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "TimelineLogEntry[]")]
    pub type JsTimelineLog;

    /// `autoscalers()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "AutoscalerView[]")]
    pub type JsAutoscalers;

    /// `loadSeries()`'s return type in TypeScript: `[seconds, milliCores]` pairs.
    #[wasm_bindgen(typescript_type = "[number, number][]")]
    pub type JsLoadSeries;

    /// `journal()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "JournalEntry[]")]
    pub type JsJournal;

    /// `statefulSets()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "StatefulSetExplanation[]")]
    pub type JsStatefulSets;

    /// `daemonSets()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "DaemonSetExplanation[]")]
    pub type JsDaemonSets;

    /// `daemonSetNodes()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "DaemonNodeExplanation[]")]
    pub type JsDaemonSetNodes;

    /// `batch()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "BatchView")]
    pub type JsBatchView;

    /// `schedulePreview()`'s return type in TypeScript.
    #[wasm_bindgen(typescript_type = "SchedulePreview")]
    pub type JsSchedulePreview;
}

/// Runs once when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    // Panics show their message and location in the console instead of "unreachable".
    #[cfg(feature = "console_error_panic_hook")]
    console_error_panic_hook::set_once();
}

/// A running simulation: the cluster of one scenario on its virtual clock.
#[wasm_bindgen(js_name = Simulation)]
pub struct WasmSimulation {
    sim: crate::sim::Simulation,
    /// The scenario text the simulation was built from: `seek` rebuilds from it.
    source: String,
    /// Mutating commands the user ran, in time order: `seek` replays them.
    journal: Vec<JournalEntry>,
    /// How many journal entries the current simulation has applied.
    applied: usize,
}

/// One command the user ran, replayed by `seek` at the same virtual time.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct JournalEntry {
    /// Seconds since the scenario started (milliseconds precision).
    pub at: f64,
    pub cmd: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<String>,
}

/// Events since a cursor (see `eventsSince`).
#[derive(Serialize)]
struct EventsSince {
    events: Vec<TraceEvent>,
    next: usize,
    reset: bool,
}

#[derive(Serialize)]
struct TimelineLogEntry<'a> {
    time: f64,
    action: &'a str,
    output: &'a str,
    ok: bool,
}

#[derive(Serialize)]
struct BuiltinScenario {
    name: &'static str,
    description: String,
    yaml: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReplicaSetRollout {
    name: String,
    uid: String,
    revision: i64,
    hash: String,
    desired: i32,
    replicas: i32,
    ready: i32,
    available: i32,
    is_new: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeploymentRollout {
    namespace: String,
    name: String,
    uid: String,
    desired: i32,
    strategy: String,
    max_surge: i32,
    max_unavailable: i32,
    paused: bool,
    progressing: String,
    replica_sets: Vec<ReplicaSetRollout>,
}

/// Commands that only read: not journaled, so `seek` need not replay them.
fn is_read_only(cmd: &str) -> bool {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    match words.first().copied() {
        Some(
            "get" | "describe" | "events" | "explain" | "version" | "api-resources" | "logs"
            | "top",
        ) => true,
        Some("rollout") => matches!(words.get(1).copied(), Some("history" | "status")),
        None => true,
        _ => false,
    }
}

/// The built-in scenarios (`scenarios/*.yaml`), in lesson order, with their descriptions.
///
/// # Errors
/// Only if serialisation fails (it should not).
#[wasm_bindgen(js_name = builtinScenarios)]
pub fn builtin_scenarios() -> Result<JsBuiltinScenarios, Error> {
    let list: Vec<BuiltinScenario> = crate::scenario::builtin::BUILTIN
        .iter()
        .map(|(name, yaml)| BuiltinScenario {
            name,
            description: Scenario::parse(yaml)
                .map(|s| s.metadata.description)
                .unwrap_or_default(),
            yaml,
        })
        .collect();
    Ok(to_js(&list)?.unchecked_into())
}

/// Imports `kubectl get nodes,pods,rs,deploy,sts,ds,jobs,cronjobs,controllerrevisions,pvc -A
/// -o yaml` output (or JSON, or several YAML documents) as a frozen what-if scenario: its YAML,
/// with skipped items listed in `# warning:` comments at the top.
///
/// # Errors
/// Throws an `Error` naming the offending item (`items[3] (Pod default/web-1): ...`).
#[wasm_bindgen(js_name = importCluster)]
pub fn import_cluster(text: &str) -> Result<String, Error> {
    use crate::interop::import;
    import::import_to_yaml(text, &import::ImportOptions::default()).map_err(into_error)
}

#[wasm_bindgen(js_class = Simulation)]
impl WasmSimulation {
    /// Builds a simulation from scenario text: a kubeplay `Scenario` or plain manifests, in YAML
    /// or JSON.
    ///
    /// # Errors
    /// Throws an `Error` naming where the scenario is wrong (`line 3, column 5: ...`,
    /// `objects[0] (web): ...`).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str) -> Result<WasmSimulation, Error> {
        let sim = build(scenario)?;
        Ok(WasmSimulation {
            sim,
            source: scenario.to_string(),
            journal: vec![],
            applied: 0,
        })
    }

    /// The scenario text this simulation was built from.
    pub fn source(&self) -> String {
        self.source.clone()
    }

    /// How long the scenario runs by default, in seconds (`duration`, or 10 minutes past the
    /// last timeline action).
    pub fn duration(&self) -> f64 {
        Scenario::parse(&self.source)
            .and_then(|s| s.default_duration())
            .map(|d| d.as_secs_f64())
            .unwrap_or(600.0)
    }

    /// Seconds since the scenario started.
    pub fn time(&self) -> f64 {
        self.sim.elapsed().as_secs_f64()
    }

    /// Advances virtual time to `seconds` after the start (no-op when already past it).
    ///
    /// # Errors
    /// A negative or non-finite time, or a livelock.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&mut self, seconds: f64) -> Result<(), Error> {
        let until = seconds_to_duration(seconds)?;
        self.advance_to(until)
    }

    /// Advances virtual time by `seconds`.
    ///
    /// # Errors
    /// A negative or non-finite duration, or a livelock.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, seconds: f64) -> Result<(), Error> {
        let d = seconds_to_duration(seconds)?;
        self.advance_to(self.sim.elapsed() + d)
    }

    /// Runs one reconcile of one control loop, if any is due now. Returns whether one ran.
    ///
    /// # Errors
    /// A livelock.
    pub fn step(&mut self) -> Result<bool, Error> {
        self.sim.step().map_err(into_error)
    }

    /// Runs until the next scheduled event (and everything at that instant). Returns the new
    /// time in seconds, or `undefined` when nothing is scheduled.
    ///
    /// # Errors
    /// A livelock.
    #[wasm_bindgen(js_name = nextEvent)]
    pub fn next_event(&mut self) -> Result<Option<f64>, Error> {
        if let Some(e) = self.journal.get(self.applied) {
            let at = seconds_to_duration(e.at)?;
            let sim_next = self.sim.next_event_time().map(|t| t - self.sim.start);
            if sim_next.is_none_or(|t| at <= t) {
                self.advance_to(at)?;
                return Ok(Some(self.time()));
            }
        }
        let t = self.sim.next_event().map_err(into_error)?;
        Ok(t.map(|t| (t - self.sim.start).as_secs_f64()))
    }

    /// When the next thing is due (a control loop's timer, a timeline action or a journaled
    /// command), in seconds since the start, without running it; `undefined` when nothing is.
    /// Meaningful once the present instant has settled (after any `runUntil`/`seek`/...): work
    /// already due now is not a future event.
    #[wasm_bindgen(js_name = peekNextEvent)]
    pub fn peek_next_event(&self) -> Option<f64> {
        let sim_next = self
            .sim
            .next_event_time()
            .map(|t| (t - self.sim.start).as_secs_f64());
        let journal_next = self.journal.get(self.applied).map(|e| e.at);
        match (sim_next, journal_next) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Moves to `seconds` after the start, backwards too: a rewind rebuilds the simulation from
    /// the scenario text and replays the user's journaled commands up to that time, so the
    /// result is the state a forward run would have reached (the simulation is deterministic).
    ///
    /// # Errors
    /// A negative or non-finite time, or a livelock.
    pub fn seek(&mut self, seconds: f64) -> Result<(), Error> {
        let to = seconds_to_duration(seconds)?;
        if to < self.sim.elapsed() {
            self.sim = build(&self.source)?;
            self.applied = 0;
        }
        self.advance_to(to)
    }

    /// The mutating commands the user ran, with their times (what `seek` replays).
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    pub fn journal(&self) -> Result<JsJournal, Error> {
        Ok(to_js(&self.journal)?.unchecked_into())
    }

    /// Replaces the journal (from a share link), then rewinds to 0 and replays to the present
    /// time.
    ///
    /// # Errors
    /// A journal that is not a list of `{at, cmd, stdin?}`, or a livelock.
    #[wasm_bindgen(js_name = setJournal)]
    pub fn set_journal(&mut self, journal: JsValue) -> Result<(), Error> {
        let mut entries: Vec<JournalEntry> =
            serde_wasm_bindgen::from_value(journal).map_err(into_error)?;
        for e in &entries {
            seconds_to_duration(e.at)?;
        }
        crate::sort::sort_by(&mut entries, |a, b| a.at.total_cmp(&b.at));
        let now = self.time();
        self.journal = entries;
        self.sim = build(&self.source)?;
        self.applied = 0;
        self.advance_to(seconds_to_duration(now)?)
    }

    /// What the page draws: nodes, pods and workloads now.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    pub fn snapshot(&self) -> Result<JsSnapshot, Error> {
        Ok(to_js(&Snapshot::of(&self.sim))?.unchecked_into())
    }

    /// The events recorded since index `cursor` (pass the number already seen; 0 for all).
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    pub fn events(&self, cursor: usize) -> Result<JsTraceEvents, Error> {
        let all = &self.sim.api.events;
        let fresh: Vec<TraceEvent> = all[cursor.min(all.len())..]
            .iter()
            .map(|e| TraceEvent::from_record(&self.sim, e))
            .collect();
        Ok(to_js(&fresh)?.unchecked_into())
    }

    /// The events recorded since `cursor`, and the cursor to pass next. After a rewind the
    /// cursor may be past the end: then `reset` is true and the events start from 0.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    #[wasm_bindgen(js_name = eventsSince)]
    pub fn events_since(&self, cursor: usize) -> Result<JsEventsSince, Error> {
        let all = &self.sim.api.events;
        let reset = cursor > all.len();
        let from = if reset { 0 } else { cursor };
        let out = EventsSince {
            events: all[from..]
                .iter()
                .map(|e| TraceEvent::from_record(&self.sim, e))
                .collect(),
            next: all.len(),
            reset,
        };
        Ok(to_js(&out)?.unchecked_into())
    }

    /// `eventsSince` as JSON text (`{"events":[...],"next":N,"reset":bool}`, the same values),
    /// keeping only the newest `max` events when more are new (then `reset` is true: the events
    /// do not continue the ones returned before). The page's worker reads events after every
    /// step; a week of fast-forward brings ~100,000, and one `JSON.parse` of this text is several
    /// times cheaper than building each event's object across the wasm boundary field by field.
    #[wasm_bindgen(js_name = eventsSinceJson)]
    pub fn events_since_json(&self, cursor: usize, max: Option<usize>) -> String {
        use std::fmt::Write as _;
        let all = &self.sim.api.events;
        let rewound = cursor > all.len();
        let first = if rewound { 0 } else { cursor };
        let from = max.map_or(first, |m| first.max(all.len().saturating_sub(m)));
        let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut out = String::from("{\"events\":[");
        for (i, e) in all[from..].iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"time\":{},\"kind\":{},\"namespace\":{},\"name\":{},\"type\":{},\"reason\":{},\"message\":{}}}",
                (e.time - self.sim.start).as_secs_f64(),
                json(&e.kind),
                json(&e.namespace),
                json(&e.name),
                json(&e.type_),
                json(&e.reason),
                json(&e.message),
            );
        }
        let _ = write!(
            out,
            "],\"next\":{},\"reset\":{}}}",
            all.len(),
            rewound || from > first
        );
        out
    }

    /// Runs a kubectl command line (with or without the leading `kubectl`) and returns what
    /// kubectl prints. `stdin` is what `-f -` reads. Commands that change the cluster are
    /// journaled (replacing any journaled commands later than now) so `seek` can replay them.
    ///
    /// # Errors
    /// Throws an `Error` with kubectl's error text.
    pub fn kubectl(&mut self, cmd: &str, stdin: Option<String>) -> Result<String, Error> {
        let cmd = cmd.trim();
        let cmd = cmd.strip_prefix("kubectl ").unwrap_or(cmd).trim();
        if !is_read_only(cmd) {
            self.journal.truncate(self.applied);
            self.journal.push(JournalEntry {
                at: self.sim.elapsed().as_secs_f64(),
                cmd: cmd.to_string(),
                stdin: stdin.clone(),
            });
            self.applied += 1;
        }
        let input = crate::kubectl::Input {
            stdin: stdin.as_deref(),
            files: None,
            fs: None,
        };
        crate::kubectl::execute_with(&mut self.sim, cmd, input).map_err(into_error)
    }

    /// What the scenario's timeline did since entry `cursor` (its kubectl commands with their
    /// output, node failures, ...). An empty list when `cursor` is past the end.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    #[wasm_bindgen(js_name = timelineLog)]
    pub fn timeline_log(&self, cursor: usize) -> Result<JsTimelineLog, Error> {
        let log = &self.sim.log;
        let out: Vec<TimelineLogEntry> = log[cursor.min(log.len())..]
            .iter()
            .map(|e| TimelineLogEntry {
                time: (e.time - self.sim.start).as_secs_f64(),
                action: &e.action,
                output: &e.output,
                ok: e.ok,
            })
            .collect();
        Ok(to_js(&out)?.unchecked_into())
    }

    /// `kubectl apply -f -` with `yaml` on standard input; returns kubectl's output.
    ///
    /// # Errors
    /// Throws an `Error` with kubectl's (Kubernetes-format) error text.
    pub fn apply(&mut self, yaml: &str) -> Result<String, Error> {
        self.kubectl("apply -f -", Some(yaml.to_string()))
    }

    /// `kubectl rollout history deployment/<name>`.
    ///
    /// # Errors
    /// Throws an `Error` with kubectl's error text (NotFound, ...).
    #[wasm_bindgen(js_name = rolloutHistory)]
    pub fn rollout_history(&mut self, name: &str) -> Result<String, Error> {
        self.kubectl(&format!("rollout history deployment/{name}"), None)
    }

    /// Which pods the ReplicaSet (or ReplicationController) `kind ns/name` would delete if
    /// scaled to `replicas` now, in order, with the rule deciding each adjacent pair.
    ///
    /// # Errors
    /// NotFound for a missing owner, BadRequest for another kind, in kubectl's wording.
    #[wasm_bindgen(js_name = explainScaleDown)]
    pub fn explain_scale_down(
        &self,
        kind: &str,
        namespace: &str,
        name: &str,
        replicas: i32,
    ) -> Result<JsScaleDownExplanation, Error> {
        let gates =
            crate::controllers::controller_utils::ScaleDownGates::from_gates(self.sim.gates());
        let e = crate::controllers::replicaset::explain::explain_scale_down_in_store(
            &self.sim.api.store,
            kind,
            namespace,
            name,
            replicas,
            self.sim.now(),
            gates,
        )
        .map_err(|e| into_error(e.kubectl_message()))?;
        Ok(to_js(&e)?.unchecked_into())
    }

    /// Every HorizontalPodAutoscaler with its target's replicas, status, conditions and the
    /// synthetic load driving it (what the autoscaling chart samples).
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    pub fn autoscalers(&self) -> Result<JsAutoscalers, Error> {
        let v = crate::controllers::podautoscaler::view::autoscaler_views(&self.sim);
        Ok(to_js(&v)?.unchecked_into())
    }

    /// The CPU demand curve of the scenario's load entry `index` over the whole run:
    /// `[seconds, milliCores]` pairs.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    #[wasm_bindgen(js_name = loadSeries)]
    pub fn load_series(&self, index: usize) -> Result<JsLoadSeries, Error> {
        let until = seconds_to_duration(self.duration().max(self.time()))?;
        let v = crate::controllers::podautoscaler::view::load_series(&self.sim, index, until);
        Ok(to_js(&v)?.unchecked_into())
    }

    /// CronJobs (schedule ticks within `window` seconds before now, the next ten) and Jobs
    /// (pods by index, conditions, TTL) for the CronJob timeline and Job views.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    pub fn batch(&self, window: f64) -> Result<JsBatchView, Error> {
        Ok(to_js(&crate::batch_view::of(&self.sim, window))?.unchecked_into())
    }

    /// A CronJob schedule in words and its next `n` runs after the simulation's now (in
    /// `timeZone`, UTC when empty); a bad schedule or zone is reported in `error`.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    #[wasm_bindgen(js_name = schedulePreview)]
    pub fn schedule_preview(
        &self,
        schedule: &str,
        time_zone: &str,
        n: usize,
    ) -> Result<JsSchedulePreview, Error> {
        let p = crate::batch_view::schedule_preview(schedule, Some(time_zone), self.sim.now(), n);
        Ok(to_js(&p)?.unchecked_into())
    }

    /// Every Deployment with its resolved maxSurge/maxUnavailable and the ReplicaSets it
    /// controls (old and new): what the rollout chart samples.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    pub fn rollouts(&self) -> Result<JsRollouts, Error> {
        use crate::api::{Deployment, ReplicaSet};
        use crate::controllers::deployment::util;
        let store = &self.sim.api.store;
        let out: Vec<DeploymentRollout> = store
            .list::<Deployment>(None)
            .map(|d| {
                let mut rss: Vec<ReplicaSet> = store
                    .list::<ReplicaSet>(Some(&d.metadata.namespace))
                    .filter(|rs| {
                        rs.metadata
                            .controller_ref()
                            .is_some_and(|r| r.uid == d.metadata.uid)
                    })
                    .cloned()
                    .collect();
                let new_uid = util::find_new_replica_set(d, &mut rss)
                    .map(|rs| rs.metadata.uid)
                    .unwrap_or_default();
                let mut replica_sets: Vec<ReplicaSetRollout> = rss
                    .iter()
                    .map(|rs| ReplicaSetRollout {
                        name: rs.metadata.name.clone(),
                        uid: rs.metadata.uid.clone(),
                        revision: util::revision(&rs.metadata).unwrap_or(0),
                        hash: rs
                            .metadata
                            .labels
                            .get("pod-template-hash")
                            .cloned()
                            .unwrap_or_default(),
                        desired: rs.replicas(),
                        replicas: rs.status.replicas,
                        ready: rs.status.ready_replicas,
                        available: rs.status.available_replicas,
                        is_new: rs.metadata.uid == new_uid,
                    })
                    .collect();
                crate::sort::sort_by(&mut replica_sets, |a, b| {
                    a.revision.cmp(&b.revision).then(a.name.cmp(&b.name))
                });
                DeploymentRollout {
                    namespace: d.metadata.namespace.clone(),
                    name: d.metadata.name.clone(),
                    uid: d.metadata.uid.clone(),
                    desired: d.replicas(),
                    strategy: if d.spec.strategy.type_.is_empty() {
                        "RollingUpdate".into()
                    } else {
                        d.spec.strategy.type_.clone()
                    },
                    max_surge: util::max_surge(d),
                    max_unavailable: util::max_unavailable(d),
                    paused: d.spec.paused,
                    progressing: d
                        .status
                        .conditions
                        .iter()
                        .find(|c| c.type_ == "Progressing")
                        .map(|c| format!("{}/{}", c.status, c.reason))
                        .unwrap_or_default(),
                    replica_sets,
                }
            })
            .collect();
        Ok(to_js(&out)?.unchecked_into())
    }

    /// Every StatefulSet with its ordinal slots: pods and claims, the OrderedReady gate (which
    /// pod waits for which), the partition and each pod's revision.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    #[wasm_bindgen(js_name = statefulSets)]
    pub fn stateful_sets(&self) -> Result<JsStatefulSets, Error> {
        let e = crate::controllers::statefulset::explain::explain_stateful_sets_in_store(
            &self.sim.api.store,
            self.sim.now(),
            self.sim.gates(),
        );
        Ok(to_js(&e)?.unchecked_into())
    }

    /// Every DaemonSet with, per node, `nodeShouldRunDaemonPod` and its reason.
    ///
    /// # Errors
    /// Only if serialisation fails (it should not).
    #[wasm_bindgen(js_name = daemonSets)]
    pub fn daemon_sets(&self) -> Result<JsDaemonSets, Error> {
        let e = crate::controllers::daemon::explain::explain_daemon_sets_in_store(
            &self.sim.api.store,
            None,
        );
        Ok(to_js(&e)?.unchecked_into())
    }

    /// Per node (by name), whether the DaemonSet `namespace/name` should run there, should keep
    /// running there, and why.
    ///
    /// # Errors
    /// NotFound in kubectl's wording when there is no such DaemonSet.
    #[wasm_bindgen(js_name = daemonSetNodes)]
    pub fn daemon_set_nodes(&self, namespace: &str, name: &str) -> Result<JsDaemonSetNodes, Error> {
        let e = crate::controllers::daemon::explain::explain_daemon_sets_in_store(
            &self.sim.api.store,
            Some((namespace, name)),
        );
        let Some(ds) = e.into_iter().next() else {
            return Err(into_error(
                crate::api::ApiError::not_found("daemonsets.apps", name).kubectl_message(),
            ));
        };
        Ok(to_js(&ds.nodes)?.unchecked_into())
    }

    /// Every PodDisruptionBudget as JSON text (`JSON.parse` it; plain `serde_json` values keep
    /// the module small): `{items, history}`. Each item is `[object, selector, pods]`: the object
    /// as `kubectl get -o json` prints it, `metav1.FormatLabelSelector` of its selector, and the
    /// pods it matches as `[name, healthy]` (`healthy`: counted in currentHealthy by
    /// `countHealthyPods`). `history` is every write of a budget, oldest first (the last 300), as
    /// `[seconds, namespace, name, generation, status]`: what the eviction API read when it
    /// approved or refused an eviction, also inside a drain's 5 s retries.
    pub fn pdbs(&self) -> String {
        use crate::api::{policy::PodDisruptionBudget, Object, Resource};
        use crate::controllers::disruption::{count_healthy_pods, get_pods_for_pdb};
        use crate::kubectl::output::object_value;
        use serde_json::Value;
        // Written with `format!` and `Value`'s Display (compact JSON): no new serializer code.
        let store = &self.sim.api.store;
        let now = self.sim.now();
        let items: Vec<String> = store
            .list::<PodDisruptionBudget>(None)
            .map(|pdb| {
                let pods: Vec<String> = get_pods_for_pdb(store, pdb)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|p| {
                        let healthy = count_healthy_pods(&[p], &pdb.status.disrupted_pods, now);
                        format!("[{},{healthy}]", Value::from(p.metadata.name.as_str()))
                    })
                    .collect();
                let selector =
                    crate::kubectl::printers::format_label_selector(pdb.spec.selector.as_ref());
                format!(
                    "[{},{},[{}]]",
                    object_value(&pdb.clone().into_object()),
                    Value::from(selector),
                    pods.join(",")
                )
            })
            .collect();
        let start = self.sim.start;
        let history: Vec<String> = self
            .sim
            .controller::<PdbHistory>()
            .map_or(&[][..], |h| {
                &h.versions[h.versions.len().saturating_sub(300)..]
            })
            .iter()
            .filter_map(|(t, o)| {
                let Object::PodDisruptionBudget(p) = &**o else {
                    return None;
                };
                let m = &p.metadata;
                Some(format!(
                    "[{},{},{},{},{}]",
                    (*t - start).as_secs_f64(),
                    Value::from(m.namespace.as_str()),
                    Value::from(m.name.as_str()),
                    m.generation,
                    object_value(o).get("status")?
                ))
            })
            .collect();
        format!(
            "{{\"items\":[{}],\"history\":[{}]}}",
            items.join(","),
            history.join(",")
        )
    }
}

impl WasmSimulation {
    /// Runs to `to` (since the start), applying the journaled commands due on the way.
    fn advance_to(&mut self, to: Duration) -> Result<(), Error> {
        while let Some(e) = self.journal.get(self.applied) {
            let at = seconds_to_duration(e.at)?;
            if at > to {
                break;
            }
            let (cmd, stdin) = (e.cmd.clone(), e.stdin.clone());
            self.sim
                .run_until(self.sim.start + at)
                .map_err(into_error)?;
            // The outcome was shown when the user ran it; a replay reproduces it.
            let input = crate::kubectl::Input {
                stdin: stdin.as_deref(),
                files: None,
                fs: None,
            };
            let _ = crate::kubectl::execute_with(&mut self.sim, &cmd, input);
            self.applied += 1;
        }
        self.sim.run_until(self.sim.start + to).map_err(into_error)
    }
}

/// Parses and builds a scenario, with the [`PdbHistory`] observer.
fn build(text: &str) -> Result<crate::sim::Simulation, Error> {
    let mut sim = Scenario::parse(text)
        .and_then(|s| s.build())
        .map_err(into_error)?;
    // The page never reads the client-call log: keep a long run's memory flat.
    sim.set_record_actions(false);
    sim.add_loop(Box::<PdbHistory>::default());
    Ok(sim)
}

/// A passive loop that only watches: it keeps every version of every PodDisruptionBudget written
/// (the last 5,000) with the virtual time it was delivered at, so the page can show what the
/// eviction API read when it refused an eviction (a drain runs its retries inside one command).
/// It enqueues nothing, so the simulation is unchanged; it runs outside kube-controller-manager.
#[derive(Default)]
struct PdbHistory {
    versions: Vec<(crate::api::Time, std::sync::Arc<crate::api::Object>)>,
}

impl crate::controllers::Controller for PdbHistory {
    fn name(&self) -> &'static str {
        "pdb-history"
    }

    fn in_controller_manager(&self) -> bool {
        false
    }

    fn watch(
        &mut self,
        change: &crate::store::Change,
        _store: &crate::store::Store,
        _queue: &mut crate::queue::WorkQueue,
        now: crate::api::Time,
    ) {
        match &change.new {
            Some(o) if matches!(**o, crate::api::Object::PodDisruptionBudget(_)) => {
                if self.versions.len() >= 5000 {
                    self.versions.remove(0);
                }
                self.versions.push((now, o.clone()));
            }
            _ => {}
        }
    }

    fn sync(
        &mut self,
        _key: &str,
        _ctx: &mut crate::controllers::Ctx,
    ) -> Result<(), crate::api::ApiError> {
        Ok(())
    }

    fn resync_all(&mut self, _store: &crate::store::Store, _queue: &mut crate::queue::WorkQueue) {}

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The one error conversion: any displayable error becomes a JS `Error` with its message.
pub(crate) fn into_error<E: std::fmt::Display>(err: E) -> Error {
    Error::new(&err.to_string())
}

/// Serialises to plain JS values: maps become objects, 64-bit integers become numbers.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Error> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(into_error)
}

/// Seconds from JavaScript to a virtual duration (milliseconds, rounded).
fn seconds_to_duration(seconds: f64) -> Result<Duration, Error> {
    // 1e13 s is ~300,000 years: far past any scenario, far below i64 milliseconds.
    if !seconds.is_finite() || !(0.0..=1e13).contains(&seconds) {
        return Err(into_error(format!(
            "invalid time {seconds}: expected a number of seconds between 0 and 1e13"
        )));
    }
    Ok(Duration::from_millis((seconds * 1000.0).round() as i64))
}
