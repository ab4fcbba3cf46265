//! What the CLI and the page show: the event trace, a render snapshot, the JSON run document.

use crate::api::{EventRecord, Object, Pod, Resource};

use crate::sim::Simulation;
use serde::Serialize;

/// One event as `kubeplay run --output json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEvent {
    /// Seconds since the scenario started (fractional for sub-second steps).
    pub time: f64,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub reason: String,
    pub message: String,
}

impl TraceEvent {
    pub fn from_record(sim: &Simulation, e: &EventRecord) -> Self {
        TraceEvent {
            time: (e.time - sim.start).as_secs_f64(),
            kind: e.kind.to_string(),
            namespace: e.namespace.to_string(),
            name: e.name.to_string(),
            type_: e.type_.to_string(),
            reason: e.reason.to_string(),
            message: e.message.clone(),
        }
    }
}

/// `{"events": [...], "objects": [...]}`: the whole run, for `kubeplay run --output json`.
#[derive(Clone, Debug, Serialize)]
pub struct RunDocument {
    pub events: Vec<TraceEvent>,
    pub objects: Vec<Object>,
}

impl RunDocument {
    pub fn of(sim: &Simulation) -> Self {
        RunDocument {
            events: sim
                .api
                .events
                .iter()
                .map(|e| TraceEvent::from_record(sim, e))
                .collect(),
            objects: sim.api.store.all().cloned().collect(),
        }
    }
}

/// A pod as the page draws it. `uid` is stable across the pod's life.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodView {
    pub uid: String,
    pub namespace: String,
    pub name: String,
    pub node: String,
    pub phase: String,
    pub ready: bool,
    pub terminating: bool,
    /// Waiting/terminated reason of the first container that has one (`CrashLoopBackOff`).
    pub reason: String,
    pub restarts: i32,
    pub owner_kind: String,
    pub owner_name: String,
    pub owner_uid: String,
    /// `pod-template-hash` or `controller-revision-hash` label, when present.
    pub revision: String,
    pub deletion_cost: String,
}

/// A node as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeView {
    pub name: String,
    pub ready: String,
    pub unschedulable: bool,
    pub down: bool,
    pub labels: std::collections::BTreeMap<String, String>,
    pub taints: Vec<String>,
    pub cpu_milli: i64,
    pub memory_bytes: i64,
    pub pods_capacity: i64,
    pub cpu_requested_milli: i64,
    pub memory_requested_bytes: i64,
}

/// A workload (ReplicaSet, ReplicationController, ...) summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadView {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub desired: i32,
    pub current: i32,
    pub ready: i32,
    pub available: i32,
}

/// Everything the page needs to draw one frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// Seconds since the scenario started.
    pub time: f64,
    /// RFC 3339 wall-clock time of the simulation.
    pub now: String,
    pub nodes: Vec<NodeView>,
    pub pods: Vec<PodView>,
    pub workloads: Vec<WorkloadView>,
    pub controller_manager_running: bool,
    pub event_count: usize,
}

fn pod_view(p: &Pod) -> PodView {
    let owner = p.metadata.controller_ref();
    let reason = p
        .status
        .container_statuses
        .iter()
        .find_map(|c| {
            let s = c.state.as_ref()?;
            s.waiting
                .as_ref()
                .map(|w| w.reason.clone())
                .or_else(|| s.terminated.as_ref().map(|t| t.reason.clone()))
        })
        .unwrap_or_default();
    PodView {
        uid: p.metadata.uid.clone(),
        namespace: p.metadata.namespace.clone(),
        name: p.metadata.name.clone(),
        node: p.spec.node_name.clone(),
        phase: p.status.phase.clone(),
        ready: is_pod_ready(p),
        terminating: p.metadata.deletion_timestamp.is_some(),
        reason,
        restarts: p
            .status
            .container_statuses
            .iter()
            .map(|c| c.restart_count)
            .max()
            .unwrap_or(0),
        owner_kind: owner.map(|o| o.kind.clone()).unwrap_or_default(),
        owner_name: owner.map(|o| o.name.clone()).unwrap_or_default(),
        owner_uid: owner.map(|o| o.uid.clone()).unwrap_or_default(),
        revision: p
            .metadata
            .labels
            .get("pod-template-hash")
            .or_else(|| p.metadata.labels.get("controller-revision-hash"))
            .cloned()
            .unwrap_or_default(),
        deletion_cost: p
            .metadata
            .annotations
            .get("controller.kubernetes.io/pod-deletion-cost")
            .cloned()
            .unwrap_or_default(),
    }
}

impl Snapshot {
    pub fn of(sim: &Simulation) -> Self {
        let store = &sim.api.store;
        let nodes = store
            .list::<crate::api::Node>(None)
            .map(|n| {
                let (mut cpu, mut mem) = (0i128, 0i128);
                for p in store.pods_on_node(&n.metadata.name) {
                    if p.status.phase != "Succeeded" && p.status.phase != "Failed" {
                        cpu += p.request_milli("cpu");
                        mem += p.request_milli("memory");
                    }
                }
                NodeView {
                    name: n.metadata.name.clone(),
                    ready: n
                        .condition("Ready")
                        .map(|c| c.status.clone())
                        .unwrap_or_else(|| "Unknown".into()),
                    unschedulable: n.spec.unschedulable,
                    down: sim.world.nodes_down.contains_key(&n.metadata.name),
                    labels: n.metadata.labels.clone().into(),
                    taints: n
                        .spec
                        .taints
                        .iter()
                        .map(|t| {
                            if t.value.is_empty() {
                                format!("{}:{}", t.key, t.effect)
                            } else {
                                format!("{}={}:{}", t.key, t.value, t.effect)
                            }
                        })
                        .collect(),
                    cpu_milli: n.allocatable_milli("cpu").unwrap_or(0) as i64,
                    memory_bytes: (n.allocatable_milli("memory").unwrap_or(0) / 1000) as i64,
                    pods_capacity: (n.allocatable_milli("pods").unwrap_or(0) / 1000) as i64,
                    cpu_requested_milli: cpu as i64,
                    memory_requested_bytes: (mem / 1000) as i64,
                }
            })
            .collect();
        let pods = store.list::<Pod>(None).map(pod_view).collect();
        let mut workloads = vec![];
        for rs in store.list::<crate::api::ReplicaSet>(None) {
            workloads.push(WorkloadView {
                kind: crate::api::ReplicaSet::KIND.into(),
                namespace: rs.metadata.namespace.clone(),
                name: rs.metadata.name.clone(),
                uid: rs.metadata.uid.clone(),
                desired: rs.replicas(),
                current: rs.status.replicas,
                ready: rs.status.ready_replicas,
                available: rs.status.available_replicas,
            });
        }
        for rc in store.list::<crate::api::ReplicationController>(None) {
            workloads.push(WorkloadView {
                kind: crate::api::ReplicationController::KIND.into(),
                namespace: rc.metadata.namespace.clone(),
                name: rc.metadata.name.clone(),
                uid: rc.metadata.uid.clone(),
                desired: rc.replicas(),
                current: rc.status.replicas,
                ready: rc.status.ready_replicas,
                available: rc.status.available_replicas,
            });
        }
        Snapshot {
            time: sim.elapsed().as_secs_f64(),
            now: sim.now().to_rfc3339(),
            nodes,
            pods,
            workloads,
            controller_manager_running: sim.controller_manager_running,
            event_count: sim.api.events.len(),
        }
    }
}

/// `IsPodReady` (the full helper lives in controller_utils; this avoids a dependency cycle).
fn is_pod_ready(p: &Pod) -> bool {
    p.condition("Ready").is_some_and(|c| c.status == "True")
}

fn offset(sim: &Simulation, t: crate::api::Time) -> String {
    let ms = (t - sim.start).as_millis();
    format!("{:>4}.{:03}s", ms / 1000, ms % 1000)
}

/// The human-readable trace (`kubeplay run --output events`): timeline actions with kubectl's
/// output, interleaved in time order with every Event emitted.
pub fn render_trace(sim: &Simulation) -> String {
    let mut lines: Vec<(crate::api::Time, u8, usize, String)> = vec![];
    for (i, e) in sim.api.events.iter().enumerate() {
        lines.push((
            e.time,
            1,
            i,
            format!(
                "{}  {:<7}  {:<22} {}/{}: {}\n",
                offset(sim, e.time),
                e.type_,
                e.reason,
                e.kind,
                e.name,
                e.message
            ),
        ));
    }
    for (i, l) in sim.log.iter().enumerate() {
        let mut s = format!("{}  $ {}\n", offset(sim, l.time), l.action);
        for out in l.output.lines() {
            s.push_str(&format!(
                "{}  {}{}\n",
                " ".repeat(9),
                if l.ok { "" } else { "! " },
                out
            ));
        }
        lines.push((l.time, 0, i, s));
    }
    crate::sort::sort_by_key(&mut lines, |a| (a.0, a.1, a.2));
    lines.into_iter().map(|l| l.3).collect()
}

/// The final `status` of every workload and node (Node status reduced to its conditions), the
/// section after a reviewed trace in tests/traces/ so a trace also pins the end state.
pub fn final_status(sim: &crate::sim::Simulation) -> String {
    let mut out = String::from("--- final status\n");
    for o in sim.api.store.all() {
        if o.kind() == "Pod" || o.kind() == "Event" {
            continue;
        }
        let Ok(v) = serde_json::to_value(o) else {
            continue;
        };
        if let Some(status) = v
            .get("status")
            .filter(|s| s.as_object().is_some_and(|m| !m.is_empty()))
        {
            let status = if o.kind() == "Node" {
                // Node status is long and mostly static; keep what changes.
                serde_json::json!({
                    "conditions": status.get("conditions").cloned().unwrap_or_default()
                        .as_array().cloned().unwrap_or_default().iter()
                        .map(|c| format!("{}={}", c["type"].as_str().unwrap_or(""), c["status"].as_str().unwrap_or("")))
                        .collect::<Vec<_>>(),
                })
            } else {
                status.clone()
            };
            let m = o.meta();
            out.push_str(&format!(
                "{}/{}/{}: {}\n",
                o.kind(),
                m.namespace,
                m.name,
                status
            ));
        }
    }
    out
}
