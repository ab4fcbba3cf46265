//! Node lifecycle controller (`node-controller`, pkg/controller/nodelifecycle): node health, condition taints, rate-limited NoExecute tainting, zone disruption.
//!
//! A node whose kubelet is down ([`World::nodes_down`](crate::world::World)) gets, when the
//! node monitor grace period (`--node-monitor-grace-period`, 50 s since 1.32) has passed, every
//! condition set to `Unknown` (`NodeStatusUnknown`, "Kubelet stopped posting node status."),
//! the event `Normal NodeNotReady "Node <n> status is now: NodeNotReady"`, its pods marked
//! `Ready=False` (`Warning NodeNotReady "Node is not ready"`), the
//! `node.kubernetes.io/unreachable:NoSchedule` taint at once (doNoScheduleTaintingPass) and, one
//! node monitor period (5 s) later — the monitor pass that observes `Unknown` — the
//! `node.kubernetes.io/unreachable:NoExecute` taint through the zone's rate-limited tainter
//! (0.1 node/s, burst 1; 0 in a partially disrupted small zone; all NoExecute taints removed and
//! evictions stopped when every zone is fully disrupted; when some zone recovers, every node is
//! looked at again one monitor period later and the ones still not Ready are queued again).
//! When the kubelet posts `Ready=True` again the taints are removed. A node's processing pass
//! also keeps the beta OS/arch labels equal to the stable ones (`reconcileNodeLabels`).
//!
//! Modelling choices: health is evaluated per node when something can change (a node event, the
//! end of a grace period, the next 5 s monitor pass after a Ready transition) rather than by a
//! 5 s ticker, and the grace period counts from the moment the kubelet went down (upstream:
//! from the last lease renewal seen, which is up to 10 s earlier, detected at the next 5 s
//! pass) or, when later, from this controller's first look at the node (a restarted
//! controller has no health data); a node that never posted a Ready condition gets the startup
//! grace period (60 s) from its creation.

use crate::api::{ApiError, Duration, Node, NodeCondition, Object, Pod, Resource, Taint, Time};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::{Change, Store};
use std::collections::{BTreeMap, BTreeSet};

pub const COMPONENT: &str = "node-controller";
/// `--node-monitor-grace-period` (50 s since Kubernetes 1.32, kubernetes#126287).
pub const NODE_MONITOR_GRACE_PERIOD: Duration = Duration::from_secs(50);
/// `--node-startup-grace-period`: the grace period of a node that never posted a Ready
/// condition.
pub const NODE_STARTUP_GRACE_PERIOD: Duration = Duration::from_secs(60);
/// `--node-monitor-period`.
pub const NODE_MONITOR_PERIOD: Duration = Duration::from_secs(5);
/// `--node-eviction-rate` (nodes per second tainted per zone when healthy).
pub const NODE_EVICTION_RATE: f64 = 0.1;
/// `--secondary-node-eviction-rate`.
pub const SECONDARY_NODE_EVICTION_RATE: f64 = 0.01;
/// `--large-cluster-size-threshold`.
pub const LARGE_CLUSTER_THRESHOLD: usize = 50;
/// `--unhealthy-zone-threshold`.
pub const UNHEALTHY_ZONE_THRESHOLD: f64 = 0.55;

pub const TAINT_NOT_READY: &str = "node.kubernetes.io/not-ready";
pub const TAINT_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
pub const TAINT_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
pub const LABEL_EXCLUDE_DISRUPTION: &str = "node.kubernetes.io/exclude-disruption";

/// `labelReconcileInfo`: (stable label, beta label kept equal to it; `ensureSecondaryExists`).
const LABEL_RECONCILE_INFO: [(&str, &str); 2] = [
    ("kubernetes.io/os", "beta.kubernetes.io/os"),
    ("kubernetes.io/arch", "beta.kubernetes.io/arch"),
];

/// `ZoneState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneState {
    Initial,
    Normal,
    FullDisruption,
    PartialDisruption,
}

/// `ComputeZoneState` over the zone's Ready statuses (`None` = no Ready condition): fully
/// disrupted when none is Ready, partially when more than 2 and at least 55 % are not.
pub fn compute_zone_state(ready: &[Option<&str>]) -> (usize, ZoneState) {
    let ready_n = ready.iter().filter(|s| **s == Some("True")).count();
    let not_ready = ready.len() - ready_n;
    if ready_n == 0 && not_ready > 0 {
        (not_ready, ZoneState::FullDisruption)
    } else if not_ready > 2 && not_ready as f64 / ready.len() as f64 >= UNHEALTHY_ZONE_THRESHOLD {
        (not_ready, ZoneState::PartialDisruption)
    } else {
        (not_ready, ZoneState::Normal)
    }
}

/// `nodetopology.GetZoneKey`: `region:\0:zone`, or "" without either label. The deprecated
/// `failure-domain.beta.kubernetes.io` labels take precedence when present (even if empty);
/// the GA `topology.kubernetes.io` ones are the fallback.
pub fn zone_key(n: &Node) -> String {
    let l = &n.metadata.labels;
    let region = l
        .get("failure-domain.beta.kubernetes.io/region")
        .or_else(|| l.get("topology.kubernetes.io/region"))
        .cloned()
        .unwrap_or_default();
    let zone = l
        .get("failure-domain.beta.kubernetes.io/zone")
        .or_else(|| l.get("topology.kubernetes.io/zone"))
        .cloned()
        .unwrap_or_default();
    if region.is_empty() && zone.is_empty() {
        String::new()
    } else {
        format!("{region}:\x00:{zone}")
    }
}

/// The eviction (tainting) rate of a zone in a state: `HealthyQPSFunc` / `ReducedQPSFunc`.
pub fn zone_qps(state: ZoneState, zone_size: usize) -> f64 {
    match state {
        ZoneState::PartialDisruption if zone_size > LARGE_CLUSTER_THRESHOLD => {
            SECONDARY_NODE_EVICTION_RATE
        }
        ZoneState::PartialDisruption => 0.0,
        _ => NODE_EVICTION_RATE,
    }
}

/// The NoSchedule taints a node's conditions and `spec.unschedulable` call for
/// (`nodeConditionToTaintKeyStatusMap`).
pub fn condition_taints(n: &Node) -> Vec<(&'static str, &'static str)> {
    let mut out = vec![];
    for c in &n.status.conditions {
        let key = match (c.type_.as_str(), c.status.as_str()) {
            ("Ready", "False") => TAINT_NOT_READY,
            ("Ready", "Unknown") => TAINT_UNREACHABLE,
            ("MemoryPressure", "True") => "node.kubernetes.io/memory-pressure",
            ("DiskPressure", "True") => "node.kubernetes.io/disk-pressure",
            ("NetworkUnavailable", "True") => "node.kubernetes.io/network-unavailable",
            ("PIDPressure", "True") => "node.kubernetes.io/pid-pressure",
            _ => continue,
        };
        out.push((key, "NoSchedule"));
    }
    if n.spec.unschedulable {
        out.push((TAINT_UNSCHEDULABLE, "NoSchedule"));
    }
    out
}

fn is_condition_taint_key(k: &str) -> bool {
    matches!(
        k,
        TAINT_NOT_READY
            | TAINT_UNREACHABLE
            | TAINT_UNSCHEDULABLE
            | "node.kubernetes.io/memory-pressure"
            | "node.kubernetes.io/disk-pressure"
            | "node.kubernetes.io/network-unavailable"
            | "node.kubernetes.io/pid-pressure"
    )
}

/// `isNodeExcludedFromDisruptionChecks`: the node carries the exclude-disruption label.
pub fn is_node_excluded_from_disruption_checks(n: &Node) -> bool {
    n.metadata.labels.contains_key(LABEL_EXCLUDE_DISRUPTION)
}

/// `Taint.MatchTaint`: same key and effect.
fn match_taint(a: &Taint, b: &Taint) -> bool {
    a.key == b.key && a.effect == b.effect
}

/// `taintutils.AddOrUpdateTaint` on a node's taints: `None` when a taint deep-equal to `taint`
/// is there already; otherwise the taints with every same key/effect taint replaced by it in
/// place, or with it appended.
pub fn add_or_update_taint(taints: &[Taint], taint: &Taint) -> Option<Vec<Taint>> {
    let mut out = Vec::with_capacity(taints.len() + 1);
    let mut updated = false;
    for t in taints {
        if match_taint(taint, t) {
            if taint == t {
                return None;
            }
            out.push(taint.clone());
            updated = true;
        } else {
            out.push(t.clone());
        }
    }
    if !updated {
        out.push(taint.clone());
    }
    Some(out)
}

/// `taintutils.DeleteTaint`: the taints without those matching `taint` (key and effect), and
/// whether one was there.
pub fn delete_taint(taints: &[Taint], taint: &Taint) -> (Vec<Taint>, bool) {
    let out: Vec<Taint> = taints
        .iter()
        .filter(|t| !match_taint(taint, t))
        .cloned()
        .collect();
    let deleted = out.len() != taints.len();
    (out, deleted)
}

/// `taintutils.RemoveTaint` on a node's taints: `None` when no taint matches.
pub fn remove_taint(taints: &[Taint], taint: &Taint) -> Option<Vec<Taint>> {
    match delete_taint(taints, taint) {
        (out, true) => Some(out),
        (_, false) => None,
    }
}

fn has_taint(n: &Node, key: &str, effect: &str) -> bool {
    n.spec
        .taints
        .iter()
        .any(|t| t.key == key && t.effect == effect)
}

fn ready_status(n: &Node) -> Option<String> {
    n.condition("Ready").map(|c| c.status.clone())
}

/// A zone's `RateLimitedTimedQueue` of nodes to taint, with its token bucket (burst 1).
#[derive(Clone, Debug)]
struct Tainter {
    /// Milliseconds per token; `None` never accepts (qps 0).
    interval: Option<i64>,
    /// When the bucket next holds a token.
    next_token: Time,
    /// The `UniqueQueue`: nodes waiting, in the order added (a node may appear twice, as
    /// upstream's heap allows after `SetRemove`).
    queue: Vec<String>,
    /// Its set: nodes added and not removed. Processing a node leaves it here, so marking a
    /// tainted node again does not queue it again (`TestAddAfterTry`).
    set: BTreeSet<String>,
}

impl Tainter {
    fn new(qps: f64, now: Time) -> Self {
        Tainter {
            interval: (qps > 0.0).then(|| (1000.0 / qps).round() as i64),
            next_token: now,
            queue: vec![],
            set: BTreeSet::new(),
        }
    }
    /// `UniqueQueue.Add`: queued unless already in the set.
    fn add(&mut self, name: &str) -> bool {
        if !self.set.insert(name.to_string()) {
            return false;
        }
        self.queue.push(name.to_string());
        true
    }
    /// `UniqueQueue.Remove`: out of the queue and the set; whether it was in the set.
    fn remove(&mut self, name: &str) -> bool {
        self.queue.retain(|n| n != name);
        self.set.remove(name)
    }
    /// The next node to process if the limiter allows (`Try`'s loop): out of the queue, still
    /// in the set.
    fn next_ready(&mut self, now: Time) -> Option<String> {
        if self.queue.is_empty() || !self.try_accept(now) {
            return None;
        }
        Some(self.queue.remove(0))
    }
    /// `UniqueQueue.SetRemove`: out of the set only.
    fn set_remove(&mut self, name: &str) {
        self.set.remove(name);
    }
    fn try_accept(&mut self, now: Time) -> bool {
        match self.interval {
            Some(i) if now >= self.next_token => {
                self.next_token = now + Duration(i);
                true
            }
            _ => false,
        }
    }
    /// `SwapLimiter`: a new bucket, drained if the old one had no token.
    fn swap(&mut self, qps: f64, now: Time) {
        let new_interval = (qps > 0.0).then(|| (1000.0 / qps).round() as i64);
        if new_interval == self.interval {
            return;
        }
        let had_token = self.interval.is_some() && now >= self.next_token;
        self.interval = new_interval;
        self.next_token = match new_interval {
            Some(i) if !had_token => now + Duration(i),
            _ => now,
        };
    }
}

/// The node lifecycle controller. Keys: `monitor:<node>` (a health pass), `noschedule:<node>`
/// (condition taints), `pod:<ns>/<name>` (a pod assigned to a node), `taint-pass`.
#[derive(Default)]
pub struct NodeLifecycleController {
    known: BTreeSet<String>,
    zone_states: BTreeMap<String, ZoneState>,
    tainters: BTreeMap<String, Box<Tainter>>,
    /// Probe timestamps reset when the cluster leaves full disruption.
    probe_reset: BTreeMap<String, Time>,
    /// When this controller (process) first looked at each node: `tryUpdateNodeHealth` starts a
    /// node it has no health data for at `nc.now()` ("Missing timestamp for Node. Assuming now
    /// as a timestamp"), so a restarted controller gives a silent node a full grace period.
    first_seen: BTreeMap<String, Time>,
}

/// A boxed node lifecycle controller.
pub fn new_node_lifecycle_controller() -> Box<dyn Controller> {
    Box::new(NodeLifecycleController::default())
}

impl NodeLifecycleController {
    fn tainter(&mut self, zone: &str, now: Time) -> &mut Tainter {
        self.tainters
            .entry(zone.to_string())
            .or_insert_with(|| Box::new(Tainter::new(NODE_EVICTION_RATE, now)))
    }

    /// Adds and removes taints on the stored node (fresh copy), setting `timeAdded` on new ones
    /// (`SwapNodeControllerTaint`).
    fn swap_taints(
        ctx: &mut Ctx,
        node: &str,
        add: &[(&str, &str)],
        remove: &[(&str, &str)],
    ) -> Result<bool, ApiError> {
        let Some(mut n) = ctx.store().get::<Node>("", node).cloned() else {
            return Ok(false);
        };
        let before = n.spec.taints.clone();
        let now = ctx.now().trunc_secs();
        // AddOrUpdateTaintOnNode (a same key/effect taint is replaced in place: upstream's
        // template, stamped with `metav1.Now()`, is never deep-equal to a stored one), then
        // RemoveTaintOffNode; one write here where upstream makes two.
        for (k, e) in add {
            let taint = Taint {
                key: k.to_string(),
                value: String::new(),
                effect: e.to_string(),
                time_added: Some(now),
            };
            if let Some(t) = add_or_update_taint(&n.spec.taints, &taint) {
                n.spec.taints = t;
            }
        }
        for (k, e) in remove {
            let taint = Taint {
                key: k.to_string(),
                effect: e.to_string(),
                ..Default::default()
            };
            if let Some(t) = remove_taint(&n.spec.taints, &taint) {
                n.spec.taints = t;
            }
        }
        if n.spec.taints == before {
            return Ok(false);
        }
        ctx.update(n.into_object())?;
        Ok(true)
    }

    /// `markNodeAsReachable`: removes both NoExecute taints and drops the node from its queue.
    fn mark_reachable(&mut self, ctx: &mut Ctx, node: &Node) -> Result<bool, ApiError> {
        Self::swap_taints(
            ctx,
            &node.metadata.name,
            &[],
            &[
                (TAINT_UNREACHABLE, "NoExecute"),
                (TAINT_NOT_READY, "NoExecute"),
            ],
        )?;
        let zone = zone_key(node);
        let now = ctx.now();
        let t = self.tainter(&zone, now);
        Ok(t.remove(&node.metadata.name))
    }

    /// `doNoScheduleTaintingPass`.
    fn no_schedule_pass(ctx: &mut Ctx, name: &str) -> Result<(), ApiError> {
        let Some(n) = ctx.store().get::<Node>("", name).cloned() else {
            return Ok(());
        };
        let want = condition_taints(&n);
        let have: Vec<(String, String)> = n
            .spec
            .taints
            .iter()
            .filter(|t| t.effect == "NoSchedule" && is_condition_taint_key(&t.key))
            .map(|t| (t.key.clone(), t.effect.clone()))
            .collect();
        let add: Vec<(&str, &str)> = want
            .iter()
            .filter(|(k, e)| !have.iter().any(|(hk, he)| hk == k && he == e))
            .copied()
            .collect();
        let remove: Vec<(&str, &str)> = have
            .iter()
            .filter(|(k, e)| !want.iter().any(|(wk, we)| wk == k && we == e))
            .map(|(k, e)| (k.as_str(), e.as_str()))
            .collect();
        if add.is_empty() && remove.is_empty() {
            return Ok(());
        }
        Self::swap_taints(ctx, name, &add, &remove)?;
        Ok(())
    }

    /// `reconcileNodeLabels` (run after doNoScheduleTaintingPass by the node processing
    /// worker): the beta OS and arch labels follow the stable ones, and are added when missing.
    fn reconcile_node_labels(ctx: &mut Ctx, name: &str) -> Result<(), ApiError> {
        let Some(n) = ctx.store().get::<Node>("", name).cloned() else {
            return Ok(());
        };
        let mut labels = n.metadata.labels.clone();
        for (primary, secondary) in LABEL_RECONCILE_INFO {
            let Some(v) = labels.get(primary).cloned() else {
                continue;
            };
            if labels.get(secondary) != Some(&v) {
                labels.insert(secondary.to_string(), v);
            }
        }
        if labels == n.metadata.labels {
            return Ok(());
        }
        let mut n = n;
        n.metadata.labels = labels;
        ctx.update(n.into_object())?;
        Ok(())
    }

    /// `MarkPodsNotReady`: Ready=False on the given pods, with a `NodeNotReady` event each.
    fn mark_pods_not_ready(ctx: &mut Ctx, pods: Vec<Pod>) -> Result<(), ApiError> {
        let now = ctx.now();
        for p in pods {
            let Some(c) = p.condition("Ready") else {
                continue;
            };
            if c.status == "False" {
                continue;
            }
            let (reason, message) = (c.reason.clone(), c.message.clone());
            let mut np = p.clone();
            np.set_condition("Ready", "False", &reason, &message, now);
            match ctx.update_status(np.into_object()) {
                Ok(o) => ctx.event(&*o, "Warning", "NodeNotReady", "Node is not ready"),
                Err(e) if e.is_not_found() => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// `tryUpdateNodeHealth`: at the end of the grace period of a node whose kubelet is down,
    /// every condition becomes Unknown. Returns when to look again if the grace period is
    /// still running.
    fn update_health(&mut self, ctx: &mut Ctx, node: &Node) -> Result<Option<Time>, ApiError> {
        let name = &node.metadata.name;
        let Some(&down) = ctx.world.nodes_down.get(name) else {
            return Ok(None);
        };
        // tryUpdateNodeHealth: a node without a Ready condition is probed from its creation
        // and gets the startup grace period; others from the last sign of life seen (here: the
        // kubelet going down, or this controller's first look at the node).
        let (probe, grace) = match node.condition("Ready") {
            None => (
                node.metadata.creation_timestamp.unwrap_or(down),
                NODE_STARTUP_GRACE_PERIOD,
            ),
            Some(_) => {
                let seen = self.first_seen.get(name).copied().unwrap_or(down);
                (down.max(seen), NODE_MONITOR_GRACE_PERIOD)
            }
        };
        let probe = match self.probe_reset.get(name) {
            Some(&r) if r > probe => r,
            _ => probe,
        };
        let deadline = probe + grace;
        let now = ctx.now();
        if now < deadline {
            return Ok(Some(deadline));
        }
        let mut n = node.clone();
        let ts = now.trunc_secs();
        for t in ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"] {
            match n.status.conditions.iter_mut().find(|c| c.type_ == t) {
                Some(c) => {
                    if c.status != "Unknown" {
                        c.status = "Unknown".into();
                        c.reason = "NodeStatusUnknown".into();
                        c.message = "Kubelet stopped posting node status.".into();
                        c.last_transition_time = Some(ts);
                    }
                }
                None => n.status.conditions.push(NodeCondition {
                    type_: t.into(),
                    status: "Unknown".into(),
                    last_heartbeat_time: node.metadata.creation_timestamp,
                    last_transition_time: Some(ts),
                    reason: "NodeStatusNeverUpdated".into(),
                    message: "Kubelet never posted node status.".into(),
                }),
            }
        }
        // Written only when the Ready condition changed (`!apiequality.Semantic.DeepEqual(
        // currentReadyCondition, &observedReadyCondition)`): with Ready already Unknown, other
        // conditions the kubelet left are not touched.
        if n.condition("Ready") != node.condition("Ready") {
            ctx.update_status(n.into_object())?;
        }
        Ok(None)
    }

    /// One monitor pass for a node (`monitorNodeHealth` for that node, then `handleDisruption`).
    fn monitor(&mut self, ctx: &mut Ctx, name: &str) -> Result<(), ApiError> {
        let now = ctx.now();
        let Some(node) = ctx.store().get::<Node>("", name).cloned() else {
            if self.known.remove(name) {
                let mut gone = Node::default();
                gone.metadata.name = name.to_string();
                ctx.event(
                    &gone.into_object(),
                    "Normal",
                    "RemovingNode",
                    &format!("Node {name} event: Removing Node {name} from Controller"),
                );
            }
            for t in self.tainters.values_mut() {
                t.remove(name);
            }
            ctx.queue.add(DISRUPTION_KEY);
            return Ok(());
        };
        self.first_seen.entry(name.to_string()).or_insert(now);
        if self.known.insert(name.to_string()) {
            ctx.event(
                &node.clone().into_object(),
                "Normal",
                "RegisteredNode",
                &format!("Node {name} event: Registered Node {name} in Controller"),
            );
            self.tainter(&zone_key(&node), now);
            self.mark_reachable(ctx, &node)?;
        }
        let node = ctx.store().get::<Node>("", name).cloned().unwrap_or(node);
        let observed = ready_status(&node);
        if let Some(at) = self.update_health(ctx, &node)? {
            ctx.requeue_after(&format!("monitor:{name}"), at - now);
        }
        let node = ctx.store().get::<Node>("", name).cloned().unwrap_or(node);
        let current = ready_status(&node);
        // tryUpdateNodeHealth: a node that never posted a Ready condition is observed as
        // Unknown (a fake condition), so the pass that writes its Unknown conditions already
        // queues it for the unreachable NoExecute taint.
        let observed = match (observed, &current) {
            (None, Some(_)) => Some("Unknown".to_string()),
            (o, _) => o,
        };
        // processTaintBaseEviction, on the condition observed at the start of the pass.
        match observed.as_deref() {
            Some("False") => {
                if has_taint(&node, TAINT_UNREACHABLE, "NoExecute") {
                    Self::swap_taints(
                        ctx,
                        name,
                        &[(TAINT_NOT_READY, "NoExecute")],
                        &[(TAINT_UNREACHABLE, "NoExecute")],
                    )?;
                } else {
                    self.mark_for_tainting(&node, TAINT_NOT_READY, now);
                }
            }
            Some("Unknown") => {
                if has_taint(&node, TAINT_NOT_READY, "NoExecute") {
                    Self::swap_taints(
                        ctx,
                        name,
                        &[(TAINT_UNREACHABLE, "NoExecute")],
                        &[(TAINT_NOT_READY, "NoExecute")],
                    )?;
                } else {
                    self.mark_for_tainting(&node, TAINT_UNREACHABLE, now);
                }
            }
            Some("True") => {
                self.mark_reachable(ctx, &node)?;
            }
            _ => {}
        }
        if current.as_deref() != Some("True") && observed.as_deref() == Some("True") {
            ctx.event(
                &node.clone().into_object(),
                "Normal",
                "NodeNotReady",
                &format!("Node {name} status is now: NodeNotReady"),
            );
            let pods: Vec<Pod> = ctx.store().pods_on_node(name).cloned().collect();
            Self::mark_pods_not_ready(ctx, pods)?;
        }
        // Upstream runs handleDisruption once after a monitor pass over all nodes; here the key
        // is queued behind the monitor keys due at this instant, so it runs once, after them.
        ctx.queue.add(DISRUPTION_KEY);
        self.taint_pass(ctx)?;
        Ok(())
    }

    /// `markNodeForTainting`.
    fn mark_for_tainting(&mut self, node: &Node, taint: &str, now: Time) {
        let name = node.metadata.name.clone();
        let has = has_taint(node, taint, "NoExecute");
        let t = self.tainter(&zone_key(node), now);
        if !has {
            t.set_remove(&name);
        }
        t.add(&name);
    }

    /// `doNoExecuteTaintingPass`: taints queued nodes as each zone's limiter allows.
    fn taint_pass(&mut self, ctx: &mut Ctx) -> Result<(), ApiError> {
        let now = ctx.now();
        let zones: Vec<String> = self.tainters.keys().cloned().collect();
        let mut retry: Option<Time> = None;
        for z in zones {
            loop {
                let t = self.tainters.get_mut(&z).expect("zone");
                let Some(name) = t.next_ready(now) else {
                    if !t.queue.is_empty() && t.interval.is_some() {
                        retry = Some(retry.map_or(t.next_token, |r: Time| r.min(t.next_token)));
                    }
                    break;
                };
                let Some(n) = ctx.store().get::<Node>("", &name).cloned() else {
                    continue;
                };
                match ready_status(&n).as_deref() {
                    Some("False") => {
                        Self::swap_taints(
                            ctx,
                            &name,
                            &[(TAINT_NOT_READY, "NoExecute")],
                            &[(TAINT_UNREACHABLE, "NoExecute")],
                        )?;
                    }
                    Some("Unknown") => {
                        Self::swap_taints(
                            ctx,
                            &name,
                            &[(TAINT_UNREACHABLE, "NoExecute")],
                            &[(TAINT_NOT_READY, "NoExecute")],
                        )?;
                    }
                    _ => {}
                }
            }
        }
        if let Some(at) = retry {
            ctx.requeue_after("taint-pass", at - now);
        }
        Ok(())
    }

    /// `handleDisruption`: zone states and their limiters; with every zone fully disrupted,
    /// all NoExecute taints are removed and tainting stops.
    fn handle_disruption(&mut self, ctx: &mut Ctx) -> Result<(), ApiError> {
        let now = ctx.now();
        let mut zones: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
        for n in ctx.store().list::<Node>(None) {
            if is_node_excluded_from_disruption_checks(n) {
                continue;
            }
            zones.entry(zone_key(n)).or_default().push(ready_status(n));
        }
        let mut new_states = BTreeMap::new();
        let mut all_full = true;
        for (z, v) in &zones {
            let refs: Vec<Option<&str>> = v.iter().map(|s| s.as_deref()).collect();
            let (_, st) = compute_zone_state(&refs);
            if st != ZoneState::FullDisruption {
                all_full = false;
            }
            new_states.insert(z.clone(), st);
            self.zone_states
                .entry(z.clone())
                .or_insert(ZoneState::Initial);
            self.tainter(z, now);
        }
        self.zone_states.retain(|z, _| zones.contains_key(z));
        // `allWasFullyDisrupted` starts true in upstream's handleDisruption, so with no zone
        // at all (no nodes, or every node excluded from disruption checks) both flags are
        // true and the pass does nothing; it must not enter full-disruption mode, which marks
        // every node reachable (its NoExecute taints removed, its tainting cancelled).
        let all_was_full = self
            .zone_states
            .values()
            .all(|s| *s == ZoneState::FullDisruption);
        if all_full && all_was_full {
            return Ok(());
        }
        let nodes = || -> Vec<Node> { ctx.store().list::<Node>(None).cloned().collect() };
        if all_full {
            for n in &nodes() {
                self.mark_reachable(ctx, n)?;
            }
            for z in zones.keys() {
                self.tainter(z, now).swap(0.0, now);
                self.zone_states
                    .insert(z.clone(), ZoneState::FullDisruption);
            }
            return Ok(());
        }
        if all_was_full {
            for n in &nodes() {
                self.probe_reset.insert(n.metadata.name.clone(), now);
                // Upstream's next 5 s monitor pass looks at every node again and queues the
                // ones still not Ready for tainting (entering full disruption dropped them from
                // the queues); here passes run on change, so schedule that pass.
                ctx.requeue_after(&format!("monitor:{}", n.metadata.name), NODE_MONITOR_PERIOD);
            }
            for (z, st) in &new_states {
                let size = zones[z].len();
                self.tainter(z, now).swap(zone_qps(*st, size), now);
                self.zone_states.insert(z.clone(), *st);
            }
            return Ok(());
        }
        for (z, st) in &new_states {
            if self.zone_states.get(z) == Some(st) {
                continue;
            }
            let size = zones[z].len();
            self.tainter(z, now).swap(zone_qps(*st, size), now);
            self.zone_states.insert(z.clone(), *st);
        }
        Ok(())
    }
}

/// The work-queue key of the once-per-pass `handleDisruption`.
const DISRUPTION_KEY: &str = "disruption";

impl Controller for NodeLifecycleController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (old, Some(Object::Node(n))) => {
                let name = &n.metadata.name;
                queue.add_prefixed("noschedule:", name);
                match old {
                    None => queue.add_prefixed("monitor:", name),
                    // The next monitor pass sees the new Ready condition.
                    Some(Object::Node(o)) if ready_status(o) != ready_status(n) => {
                        queue.add_after(&format!("monitor:{name}"), NODE_MONITOR_PERIOD, now);
                    }
                    _ => {}
                }
            }
            (Some(Object::Node(n)), None) => {
                queue.add_prefixed("monitor:", &n.metadata.name);
            }
            (old, Some(Object::Pod(p))) => {
                let assigned = !p.spec.node_name.is_empty()
                    && !matches!(old, Some(Object::Pod(o)) if o.spec.node_name == p.spec.node_name);
                if assigned {
                    queue.add_prefixed("pod:", &p.metadata.key());
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        if let Some(n) = key.strip_prefix("monitor:") {
            self.monitor(ctx, n)
        } else if let Some(n) = key.strip_prefix("noschedule:") {
            Self::no_schedule_pass(ctx, n)?;
            Self::reconcile_node_labels(ctx, n)
        } else if key == DISRUPTION_KEY {
            self.handle_disruption(ctx)
        } else if key == "taint-pass" {
            self.taint_pass(ctx)
        } else if let Some(k) = key.strip_prefix("pod:") {
            // processPod: a pod assigned to a node that is not Ready is marked NotReady.
            let (ns, name) = k.split_once('/').unwrap_or(("", k));
            let Some(p) = ctx.store().get::<Pod>(ns, name).cloned() else {
                return Ok(());
            };
            if !self.known.contains(&p.spec.node_name) {
                return Ok(());
            }
            let Some(n) = ctx.store().get::<Node>("", &p.spec.node_name) else {
                return Ok(());
            };
            match ready_status(n).as_deref() {
                None | Some("True") => Ok(()),
                _ => Self::mark_pods_not_ready(ctx, vec![p]),
            }
        } else {
            Ok(())
        }
    }

    fn reset(&mut self) {
        *self = NodeLifecycleController::default();
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for n in store.list::<Node>(None) {
            queue.add_prefixed("monitor:", &n.metadata.name);
            queue.add_prefixed("noschedule:", &n.metadata.name);
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Port of the ComputeZoneState expectations in TestMonitorNodeHealthEvictPodsWithDisruption
    // (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): a zone with no Ready
    // node is fully disrupted; more than 2 and at least 55 % not Ready is partial.
    #[test]
    fn zone_states() {
        let t = Some("True");
        let u = Some("Unknown");
        assert_eq!(compute_zone_state(&[u, u]), (2, ZoneState::FullDisruption));
        assert_eq!(compute_zone_state(&[t, u]), (1, ZoneState::Normal));
        assert_eq!(compute_zone_state(&[t, u, u]), (2, ZoneState::Normal));
        assert_eq!(
            compute_zone_state(&[t, u, u, u]),
            (3, ZoneState::PartialDisruption)
        );
        assert_eq!(
            compute_zone_state(&[t, t, t, u, u, u]),
            (3, ZoneState::Normal)
        );
        assert_eq!(compute_zone_state(&[None]), (1, ZoneState::FullDisruption));
        assert_eq!(zone_qps(ZoneState::PartialDisruption, 10), 0.0);
        assert_eq!(
            zone_qps(ZoneState::PartialDisruption, 51),
            SECONDARY_NODE_EVICTION_RATE
        );
        assert_eq!(zone_qps(ZoneState::FullDisruption, 3), NODE_EVICTION_RATE);
    }

    /// `flowcontrol.NewFakeAlwaysRateLimiter()`: a token at every instant.
    fn always() -> Tainter {
        Tainter::new(f64::INFINITY, Time(0))
    }

    fn added(names: &[&str]) -> Tainter {
        let mut t = always();
        for n in names {
            assert!(t.add(n));
        }
        t
    }

    fn set_of(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    // Port of TestAddNode (pkg/controller/nodelifecycle/scheduler/rate_limited_queue_test.go).
    #[test]
    fn rate_limited_queue_add_node() {
        let t = added(&["first", "second", "third"]);
        assert_eq!(t.queue, ["first", "second", "third"]);
        assert_eq!(t.set, set_of(&["first", "second", "third"]));
    }

    // Port of TestDelNode (rate_limited_queue_test.go): removing the first, middle or last.
    #[test]
    fn rate_limited_queue_del_node() {
        for (gone, left) in [
            ("first", ["second", "third"]),
            ("second", ["first", "third"]),
            ("third", ["first", "second"]),
        ] {
            let mut t = added(&["first", "second", "third"]);
            assert!(t.remove(gone));
            assert_eq!(t.queue, left, "{gone}");
            assert_eq!(t.set, set_of(&left), "{gone}");
        }
    }

    // Port of TestTry and TestAddAfterTry (rate_limited_queue_test.go): every queued node is
    // processed; a processed node stays in the set, so adding it again queues nothing until it
    // is removed explicitly.
    #[test]
    fn rate_limited_queue_try_and_add_after_try() {
        let mut t = added(&["first", "second", "third"]);
        t.remove("second");
        let mut processed = BTreeSet::new();
        while let Some(n) = t.next_ready(Time(0)) {
            processed.insert(n);
        }
        assert_eq!(processed, set_of(&["first", "third"]));
        assert!(!t.add("first"));
        assert_eq!(
            t.next_ready(Time(0)),
            None,
            "We shouldn't process the same value if the explicit remove wasn't called."
        );
        assert!(t.remove("first"));
        assert!(t.add("first"));
        assert_eq!(t.next_ready(Time(0)).as_deref(), Some("first"));
    }

    // Port of TestSwapLimiter (rate_limited_queue_test.go): QPS 0 never accepts; 5.5 QPS is a
    // token every 182 ms (burst 1). Beyond upstream's QPS checks: the new bucket starts drained
    // because the old (never) limiter had no token (SwapLimiter's burst-1 rule).
    #[test]
    fn rate_limited_queue_swap_limiter() {
        let mut t = always();
        assert!(t.try_accept(Time(0)));
        t.swap(0.0, Time(0));
        assert_eq!(t.interval, None);
        assert!(!t.try_accept(Time(1_000_000)));
        t.swap(5.5, Time(1_000_000));
        assert_eq!(t.interval, Some(182));
        assert!(!t.try_accept(Time(1_000_181)));
        assert!(t.try_accept(Time(1_000_182)));
        assert!(!t.try_accept(Time(1_000_363)));
        assert!(t.try_accept(Time(1_000_364)));
    }

    // Not ported from rate_limited_queue_test.go: TestUniqueQueueGet and TestClear (the
    // zone's queue has no Get or Clear here; nothing in the controller calls Clear), and
    // TestTryOrdering / TestTryRemovingWhileTry (a Try callback answering "retry after d"
    // re-queues with processAt = now + d; kubeplay's taint pass does not fail a node, so the
    // retry path is not modelled).

    #[test]
    fn token_bucket_burst_one() {
        let mut t = Tainter::new(NODE_EVICTION_RATE, Time(0));
        assert!(t.try_accept(Time(0)));
        assert!(!t.try_accept(Time(9_999)));
        assert!(t.try_accept(Time(10_000)));
        t.swap(0.0, Time(10_000));
        assert!(!t.try_accept(Time(1_000_000)));
    }

    // Port of Test_GetZoneKey (staging/src/k8s.io/component-helpers/node/topology/helpers_test.go).
    #[test]
    fn test_get_zone_key() {
        const BETA_ZONE: &str = "failure-domain.beta.kubernetes.io/zone";
        const BETA_REGION: &str = "failure-domain.beta.kubernetes.io/region";
        const GA_ZONE: &str = "topology.kubernetes.io/zone";
        const GA_REGION: &str = "topology.kubernetes.io/region";
        type Row = (
            &'static str,
            Vec<(&'static str, &'static str)>,
            &'static str,
        );
        let rows: [Row; 5] = [
            ("has no zone or region keys", vec![], ""),
            (
                "has beta zone and region keys",
                vec![(BETA_ZONE, "zone1"), (BETA_REGION, "region1")],
                "region1:\x00:zone1",
            ),
            (
                "has GA zone and region keys",
                vec![(GA_ZONE, "zone1"), (GA_REGION, "region1")],
                "region1:\x00:zone1",
            ),
            (
                "has both beta and GA zone and region keys",
                vec![
                    (GA_ZONE, "zone1"),
                    (GA_REGION, "region1"),
                    (BETA_ZONE, "zone1"),
                    (BETA_REGION, "region1"),
                ],
                "region1:\x00:zone1",
            ),
            (
                "has both beta and GA zone and region keys, beta labels take precedent",
                vec![
                    (GA_ZONE, "zone1"),
                    (GA_REGION, "region1"),
                    (BETA_ZONE, "zone2"),
                    (BETA_REGION, "region2"),
                ],
                "region2:\x00:zone2",
            ),
        ];
        for (name, labels, want) in rows {
            let mut n = Node::default();
            for (k, v) in labels {
                n.metadata.labels.insert(k.into(), v.into());
            }
            assert_eq!(zone_key(&n), want, "{name}");
        }
    }

    #[test]
    fn zone_keys_and_condition_taints() {
        let mut n = Node::default();
        assert_eq!(zone_key(&n), "");
        n.metadata
            .labels
            .insert("topology.kubernetes.io/zone".into(), "a".into());
        assert_eq!(zone_key(&n), ":\x00:a");
        n.spec.unschedulable = true;
        n.status.conditions.push(NodeCondition {
            type_: "Ready".into(),
            status: "Unknown".into(),
            ..Default::default()
        });
        assert_eq!(
            condition_taints(&n),
            vec![
                (TAINT_UNREACHABLE, "NoSchedule"),
                (TAINT_UNSCHEDULABLE, "NoSchedule")
            ]
        );
    }
}

#[cfg(test)]
#[path = "node_lifecycle_tests.rs"]
mod upstream_tests;
