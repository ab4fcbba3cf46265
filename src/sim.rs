//! `Simulation`: the API server, the control loops, the world and the virtual clock, stepped
//! deterministically.
//!
//! One step: deliver pending watch events to every running loop, then let the next loop (in a
//! fixed round-robin order) reconcile one key. When no loop has work now, the clock jumps to the
//! earliest delayed key or timeline action. Same scenario + seed → the same trace.

use crate::api::{ApiError, Duration, Time};
use crate::controllers::{Action, Controller, Ctx};
use crate::features::FeatureGates;
use crate::queue::WorkQueue;
use crate::store::apiserver::ApiServer;
use crate::world::World;

/// Something the scenario does at a point in virtual time.
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineAction {
    /// A kubectl command line (without the leading `kubectl`).
    Kubectl(String),
    /// A kubectl command reading manifests from standard input (`apply -f -` with this text).
    KubectlWithInput(String, String),
    /// The node's kubelet stops (heartbeats and pod updates cease).
    NodeFail(String),
    /// The node's kubelet comes back.
    NodeRecover(String),
    /// kube-controller-manager stops (`false`) or starts (`true`).
    ControllerManager(bool),
}

/// A line of the simulation log: what the scenario did and how it answered.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub time: Time,
    pub action: String,
    pub output: String,
    pub ok: bool,
}

struct Loop {
    ctrl: Box<dyn Controller>,
    queue: WorkQueue,
}

/// Syncs allowed at one instant before the simulation reports a livelock.
pub const MAX_SYNCS_PER_INSTANT: u64 = 2_000_000;

pub struct Simulation {
    pub api: ApiServer,
    /// The scenario's feature gates, read by the controllers; the API server holds the same set
    /// (`api.gates`, given by [`Simulation::new`]). Private so the two cannot drift apart:
    /// read them with [`Simulation::gates`].
    gates: FeatureGates,
    pub world: World,
    loops: Vec<Loop>,
    next_loop: usize,
    /// kube-controller-manager running?
    pub controller_manager_running: bool,
    timeline: Vec<(Time, u64, TimelineAction)>,
    timeline_seq: u64,
    /// Every client call made by any loop, in order (tests assert on slices of it).
    pub actions: Vec<Action>,
    /// Keep [`Simulation::actions`]? On by default; see [`Simulation::set_record_actions`].
    record_actions: bool,
    pub log: Vec<LogEntry>,
    /// When the scenario started (t = 0).
    pub start: Time,
    syncs_this_instant: u64,
    last_instant: Time,
    /// Total reconciles performed.
    pub syncs: u64,
    /// Invariant checking (debug/test mode), see [`Simulation::set_check_invariants`].
    checker: Option<Box<crate::invariants::Checker>>,
    /// The loop reconciling now (`""` outside reconciles), for the checker.
    current_component: &'static str,
}

impl Simulation {
    /// An empty simulation at `start` with no loops; see [`Simulation::with_default_loops`].
    pub fn new(seed: u64, start: Time, gates: FeatureGates, world: World) -> Self {
        Simulation {
            api: ApiServer::with_gates(seed, start, gates.clone()),
            gates,
            world,
            loops: vec![],
            next_loop: 0,
            controller_manager_running: true,
            timeline: vec![],
            timeline_seq: 0,
            actions: vec![],
            record_actions: true,
            log: vec![],
            start,
            syncs_this_instant: 0,
            last_instant: start,
            syncs: 0,
            checker: None,
            current_component: "",
        }
    }

    /// The scenario's feature gates (the controllers' and the API server's).
    pub fn gates(&self) -> &FeatureGates {
        &self.gates
    }

    /// Turns a feature gate on or off for the controllers and the API server alike, as
    /// upstream's `featuregatetesting.SetFeatureGateDuringTest` does mid-test.
    pub fn set_feature_gate(&mut self, gate: &str, on: bool) {
        self.gates.set(gate, on);
        self.api.gates.set(gate, on);
    }

    pub fn now(&self) -> Time {
        self.api.now
    }

    /// Adds a control loop; it lists existing objects immediately.
    pub fn add_loop(&mut self, mut ctrl: Box<dyn Controller>) {
        let mut queue = ctrl.new_queue();
        ctrl.resync_all_at(&self.api.store, &mut queue, self.api.now);
        self.loops.push(Loop { ctrl, queue });
    }

    /// The concrete loop of type `T`, if registered.
    pub fn controller<T: 'static>(&self) -> Option<&T> {
        self.loops
            .iter()
            .find_map(|l| l.ctrl.as_any().downcast_ref::<T>())
    }

    /// Names of the registered loops, in step order.
    pub fn loop_names(&self) -> Vec<&'static str> {
        self.loops.iter().map(|l| l.ctrl.name()).collect()
    }

    /// Schedules a timeline action at an absolute virtual time.
    pub fn schedule(&mut self, at: Time, action: TimelineAction) {
        self.timeline_seq += 1;
        self.timeline.push((at, self.timeline_seq, action));
        crate::sort::sort_by_key(&mut self.timeline, |(t, s, _)| (*t, *s));
    }

    fn running(&self, i: usize) -> bool {
        self.controller_manager_running || !self.loops[i].ctrl.in_controller_manager()
    }

    /// Checks the invariants of `crate::invariants` after every write and reconcile (slow;
    /// for tests and debugging). Violations are read with [`Simulation::invariant_violations`].
    pub fn set_check_invariants(&mut self, on: bool) {
        self.checker = on.then(|| Box::new(crate::invariants::Checker::new()));
    }

    /// Invariant violations found since checking was turned on (empty when off).
    pub fn invariant_violations(&self) -> &[String] {
        self.checker.as_ref().map_or(&[], |c| c.violations())
    }

    fn deliver_changes(&mut self) -> bool {
        if !self.api.store.has_pending_changes() {
            return false;
        }
        let changes = self.api.store.take_changes();
        let now = self.api.now;
        if let Some(c) = self.checker.as_mut() {
            for ch in &changes {
                c.on_change(ch, &self.api.store, self.current_component, now);
            }
            c.after_sync(&self.api.store, now);
        }
        for i in 0..self.loops.len() {
            if !self.running(i) {
                continue;
            }
            let l = &mut self.loops[i];
            for c in &changes {
                l.ctrl.watch(c, &self.api.store, &mut l.queue, now);
            }
        }
        true
    }

    /// Runs one reconcile if any loop has a key ready now. Returns whether it did.
    ///
    /// # Errors
    /// A livelock (more than [`MAX_SYNCS_PER_INSTANT`] reconciles without time advancing).
    pub fn step(&mut self) -> Result<bool, String> {
        self.deliver_changes();
        let now = self.api.now;
        let n = self.loops.len();
        for i in 0..n {
            if self.running(i) {
                self.loops[i].queue.promote_due(now);
            }
        }
        for off in 0..n {
            let i = (self.next_loop + off) % n;
            if !self.running(i) || !self.loops[i].queue.has_ready() {
                continue;
            }
            self.next_loop = (i + 1) % n;
            if self.last_instant != now {
                self.last_instant = now;
                self.syncs_this_instant = 0;
            }
            self.syncs_this_instant += 1;
            if self.syncs_this_instant > MAX_SYNCS_PER_INSTANT {
                return Err(format!(
                    "livelock: more than {MAX_SYNCS_PER_INSTANT} reconciles at {} without time advancing",
                    now
                ));
            }
            let l = &mut self.loops[i];
            let key = l
                .ctrl
                .next_key(&mut l.queue, &self.api.store)
                .expect("has ready");
            let component = l.ctrl.name();
            let mut ctx = Ctx {
                api: &mut self.api,
                gates: &self.gates,
                queue: &mut l.queue,
                world: &mut self.world,
                actions: &mut self.actions,
                component,
            };
            let res: Result<(), ApiError> = l.ctrl.sync(&key, &mut ctx);
            self.syncs += 1;
            if !self.record_actions {
                self.actions.clear();
            }
            match res {
                Ok(()) if l.ctrl.forgets_on_success() => l.queue.forget(&key),
                Ok(()) => {}
                Err(_) => l.queue.add_rate_limited(&key, now),
            }
            self.current_component = component;
            self.deliver_changes();
            self.current_component = "";
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether [`Simulation::actions`] keeps the client calls (on by default, for tests). Off,
    /// the log is emptied after every reconcile, so a long run (a CronJob's week in the page)
    /// does not grow it without bound; traces and events do not read it.
    pub fn set_record_actions(&mut self, on: bool) {
        self.record_actions = on;
        if !on {
            self.actions = Vec::new();
        }
    }

    /// Runs every reconcile due now, until all loops are idle at this instant.
    ///
    /// # Errors
    /// See [`Simulation::step`].
    pub fn settle(&mut self) -> Result<(), String> {
        while self.step()? {}
        Ok(())
    }

    /// The next time something is scheduled (a delayed key or a timeline action), if any.
    pub fn next_event_time(&self) -> Option<Time> {
        let q = (0..self.loops.len())
            .filter(|&i| self.running(i))
            .filter_map(|i| self.loops[i].queue.next_due())
            .min();
        let t = self.timeline.first().map(|(t, _, _)| *t);
        match (q, t) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn run_due_timeline(&mut self) {
        while let Some((t, _, _)) = self.timeline.first() {
            if *t > self.api.now {
                break;
            }
            let (_, _, action) = self.timeline.remove(0);
            self.apply_action(action);
            // Let the loops react before the next action at the same instant.
            let _ = self.settle();
        }
    }

    /// Performs a timeline action now and logs it.
    pub fn apply_action(&mut self, action: TimelineAction) {
        let now = self.api.now;
        let (label, result) = match action {
            TimelineAction::Kubectl(cmd) => {
                let r = crate::kubectl::execute(self, &cmd);
                (format!("kubectl {cmd}"), r)
            }
            TimelineAction::KubectlWithInput(cmd, input) => {
                let r = crate::kubectl::execute_with_input(self, &cmd, Some(&input));
                (format!("kubectl {cmd}"), r)
            }
            TimelineAction::NodeFail(n) => {
                self.world.nodes_down.insert(n.clone(), now);
                // Lets the node lifecycle controller start its grace-period timer.
                self.poke_node(&n);
                (format!("node {n} fails"), Ok(String::new()))
            }
            TimelineAction::NodeRecover(n) => {
                self.world.nodes_down.remove(&n);
                self.poke_node(&n);
                (format!("node {n} recovers"), Ok(String::new()))
            }
            TimelineAction::ControllerManager(on) => {
                self.set_controller_manager(on);
                (
                    format!(
                        "kube-controller-manager {}",
                        if on { "starts" } else { "stops" }
                    ),
                    Ok(String::new()),
                )
            }
        };
        let (output, ok) = match result {
            Ok(s) => (s, true),
            Err(e) => (e, false),
        };
        self.log.push(LogEntry {
            time: now,
            action: label,
            output,
            ok,
        });
    }

    /// Re-enqueues a node in every running loop (after a kubelet comes back).
    fn poke_node(&mut self, node: &str) {
        let r = crate::store::ObjectRef::new("Node", "", node);
        if let Some(n) = self.api.store.get_arc(&r) {
            let change = crate::store::Change {
                old: None,
                new: Some(n),
            };
            let now = self.api.now;
            for i in 0..self.loops.len() {
                if self.running(i) {
                    let l = &mut self.loops[i];
                    l.ctrl.watch(&change, &self.api.store, &mut l.queue, now);
                }
            }
        }
    }

    /// Stops or (re)starts kube-controller-manager. A start forgets all in-memory state and
    /// re-lists every object, as a new process would.
    pub fn set_controller_manager(&mut self, on: bool) {
        if on == self.controller_manager_running {
            return;
        }
        self.controller_manager_running = on;
        let now = self.api.now;
        for l in self
            .loops
            .iter_mut()
            .filter(|l| l.ctrl.in_controller_manager())
        {
            l.queue.clear();
            l.ctrl.reset();
            if on {
                l.ctrl.resync_all_at(&self.api.store, &mut l.queue, now);
            }
        }
    }

    /// Advances virtual time to `until`, running everything due on the way.
    ///
    /// # Errors
    /// See [`Simulation::step`].
    pub fn run_until(&mut self, until: Time) -> Result<(), String> {
        loop {
            self.run_due_timeline();
            self.settle()?;
            match self.next_event_time() {
                Some(t) if t <= until => {
                    self.api.now = t.max(self.api.now);
                }
                _ => {
                    if until > self.api.now {
                        self.api.now = until;
                    }
                    self.run_due_timeline();
                    self.settle()?;
                    return Ok(());
                }
            }
        }
    }

    /// Advances virtual time by `d` while a client command blocks (`kubectl drain` waiting to
    /// retry a refused eviction): the loops run, the timeline's actions wait until the command
    /// returns.
    ///
    /// # Errors
    /// See [`Simulation::step`].
    pub fn run_for_blocked(&mut self, d: Duration) -> Result<(), String> {
        let until = self.api.now + d;
        loop {
            self.settle()?;
            // The loops' delayed keys only: the timeline is not looked at.
            let next = (0..self.loops.len())
                .filter(|&i| self.running(i))
                .filter_map(|i| self.loops[i].queue.next_due())
                .filter(|t| *t > self.api.now)
                .min();
            match next {
                Some(t) if t <= until => self.api.now = t,
                _ => {
                    if until > self.api.now {
                        self.api.now = until;
                    }
                    return self.settle();
                }
            }
        }
    }

    /// Advances virtual time by `d`.
    ///
    /// # Errors
    /// See [`Simulation::step`].
    pub fn run_for(&mut self, d: Duration) -> Result<(), String> {
        let until = self.api.now + d;
        self.run_until(until)
    }

    /// Runs until the next scheduled event (and everything at that instant). Returns the new
    /// time, or `None` when nothing is scheduled.
    ///
    /// # Errors
    /// See [`Simulation::step`].
    pub fn next_event(&mut self) -> Result<Option<Time>, String> {
        self.run_due_timeline();
        self.settle()?;
        match self.next_event_time() {
            Some(t) => {
                self.run_until(t)?;
                Ok(Some(t))
            }
            None => Ok(None),
        }
    }

    /// Seconds since the scenario started.
    pub fn elapsed(&self) -> Duration {
        self.api.now - self.start
    }
}
