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
        let sim = Scenario::parse(scenario)
            .and_then(|s| s.build())
            .map_err(into_error)?;
        Ok(WasmSimulation { sim })
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
        let until = self.sim.start + seconds_to_duration(seconds)?;
        self.sim.run_until(until).map_err(into_error)
    }

    /// Advances virtual time by `seconds`.
    ///
    /// # Errors
    /// A negative or non-finite duration, or a livelock.
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, seconds: f64) -> Result<(), Error> {
        let d = seconds_to_duration(seconds)?;
        self.sim.run_for(d).map_err(into_error)
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
        let t = self.sim.next_event().map_err(into_error)?;
        Ok(t.map(|t| (t - self.sim.start).as_secs_f64()))
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

    /// Runs a kubectl command line (with or without the leading `kubectl`) and returns what
    /// kubectl prints.
    ///
    /// # Errors
    /// Throws an `Error` with kubectl's error text.
    pub fn kubectl(&mut self, cmd: &str) -> Result<String, Error> {
        let cmd = cmd.trim();
        let cmd = cmd.strip_prefix("kubectl ").unwrap_or(cmd);
        crate::kubectl::execute(&mut self.sim, cmd).map_err(into_error)
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
