//! Invariants across all controllers, checked after every reconcile in a debug/test mode.
//!
//! [`Checker`] is driven by [`crate::sim::Simulation`] when `set_check_invariants(true)` is on:
//! after each write it sees the change (resourceVersion must grow), after each reconcile the
//! store, the loop that ran and the client calls it made. Violations are collected as text
//! (`t=… invariant: detail`), never panicked on, so a test can print every one.
//!
//! The invariants are the guarantees upstream's controllers give (see docs/hardening.md):
//! rollout bounds, status counters, StatefulSet ordering, Job terminal conditions, CronJob
//! `Forbid`, the garbage collector's owner check, TTL timing, node capacity and
//! resourceVersion ordering.

use crate::api::{CronJob, DaemonSet, Deployment, Job, Node, Object, Pod, ReplicaSet, Time};
use crate::controllers::controller_utils::{is_pod_active, is_pod_available, is_pod_ready};
use crate::controllers::deployment::util::{is_rolling_update, max_surge, max_unavailable};
use crate::store::{Change, Store};
use std::collections::{BTreeMap, BTreeSet};

/// The ReplicaSet controller's component name (it deletes pods when a ReplicaSet is scaled down).
const REPLICASET_CONTROLLER: &str = "replicaset-controller";

/// Per-object memory between reconciles.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    violations: Vec<String>,
    /// Job uid → (succeeded, failed, finished condition type).
    jobs: BTreeMap<String, (i32, i32, Option<String>)>,
    /// Pods seen at the previous check (uid), to spot new StatefulSet pods.
    pods_seen: BTreeMap<String, ()>,
    /// Deployment uid → the calm window in which its availability is guaranteed (see
    /// [`Checker::check_rollout_availability`]).
    rollout_windows: BTreeMap<String, Box<RolloutWindow>>,
    /// Deployments (uid) whose pods were disrupted since the last check: a ready pod lost
    /// readiness or finished, or a pod or ReplicaSet was deleted or scaled by anyone but the
    /// controllers doing a rollout.
    disrupted: BTreeSet<String>,
    /// How many times a Deployment was checked inside its window (so tests can tell the
    /// rollout invariant is not vacuous).
    rollout_checks: u64,
}

/// What a Deployment's calm window was opened with; a change of either closes it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RolloutWindow {
    replicas: i32,
    max_unavailable: i32,
}

/// Most violations kept (a broken run would otherwise fill memory).
const MAX_VIOLATIONS: usize = 100;

fn parse_rv(s: &str) -> u64 {
    s.parse().unwrap_or(0)
}

fn cond_true<'a>(mut it: impl Iterator<Item = (&'a str, &'a str)>, t: &str) -> bool {
    it.any(|(ty, st)| ty == t && st == "True")
}

/// `Complete` or `Failed` with status True.
pub fn job_finished_type(j: &Job) -> Option<String> {
    j.status
        .conditions
        .iter()
        .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
        .map(|c| c.type_.clone())
}

impl Checker {
    pub fn new() -> Self {
        Self::default()
    }

    /// Every violation found so far (at most 100).
    pub fn violations(&self) -> &[String] {
        &self.violations
    }

    fn report(&mut self, now: Time, what: &str, detail: String) {
        if self.violations.len() < MAX_VIOLATIONS {
            self.violations.push(format!("t={now} {what}: {detail}"));
        }
    }

    /// A write to the store made by `component` (`""` outside reconciles): an update must
    /// carry a larger resourceVersion; the garbage collector must not delete a dependent whose
    /// owner is alive; the TTL controller must not delete a Job before finish + TTL.
    pub fn on_change(&mut self, c: &Change, store: &Store, component: &str, now: Time) {
        self.note_disruption(c, store, component);
        if let (Some(old), Some(new)) = (c.old_obj(), c.new_obj()) {
            let (o, n) = (old.meta(), new.meta());
            if o.uid == n.uid && parse_rv(&n.resource_version) <= parse_rv(&o.resource_version) {
                self.report(
                    now,
                    "resourceVersion not increasing",
                    format!(
                        "{} {}/{}: {} -> {}",
                        new.kind(),
                        n.namespace,
                        n.name,
                        o.resource_version,
                        n.resource_version
                    ),
                );
            }
        }
        let Some(old) = &c.old else { return };
        let deleted = match &c.new {
            None => true,
            Some(n) => n.meta().is_being_deleted() && !old.meta().is_being_deleted(),
        };
        if !deleted {
            return;
        }
        let m = old.meta();
        if component == crate::controllers::garbagecollector::NAME && !m.owner_references.is_empty()
        {
            // attemptToDeleteItem deletes only when no owner is alive (or, in foreground
            // deletion, the owners are themselves being deleted).
            let live = m.owner_references.iter().find(|r| {
                store
                    .get_by_uid(&r.uid)
                    .is_some_and(|o| !o.meta().is_being_deleted())
            });
            if let Some(r) = live {
                let detail = format!(
                    "{} {}/{} owner {} {}",
                    old.kind(),
                    m.namespace,
                    m.name,
                    r.kind,
                    r.name
                );
                self.report(now, "GC deleted a dependent with a live owner", detail);
            }
        }
        if component == crate::controllers::ttlafterfinished::COMPONENT {
            if let Object::Job(j) = &**old {
                let finish = j
                    .status
                    .conditions
                    .iter()
                    .filter(|c| {
                        (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True"
                    })
                    .filter_map(|c| c.last_transition_time)
                    .max();
                let ttl = j.spec.ttl_seconds_after_finished;
                let early = match (finish, ttl) {
                    (Some(f), Some(t)) => now < f + crate::api::Duration::from_secs(i64::from(t)),
                    _ => true,
                };
                if early {
                    let detail =
                        format!("{}/{} finished {finish:?} ttl {ttl:?}", m.namespace, m.name);
                    self.report(now, "TTL deleted a Job early", detail);
                }
            }
        }
    }

    /// After one reconcile (or timeline action): the store-wide invariants.
    pub fn after_sync(&mut self, store: &Store, now: Time) {
        self.check_store(store, now);
        self.check_rollout_availability(store, now);
    }

    /// Checks made of the rollout availability invariant inside a calm window so far.
    pub fn rollout_checks(&self) -> u64 {
        self.rollout_checks
    }

    /// Marks the Deployment owning what `c` touched as disrupted when the change is not one
    /// the rollout itself makes: a Deployment's pod that was ready stops being ready or
    /// finishes (a crash, a node marked unreachable), or is deleted by anyone but the
    /// ReplicaSet controller (kubectl, eviction, the garbage collector, pod GC); a
    /// Deployment's ReplicaSet is scaled or deleted by anyone but the Deployment controller.
    fn note_disruption(&mut self, c: &Change, store: &Store, component: &str) {
        let Some(old) = &c.old else { return };
        let deleted = match &c.new {
            None => true,
            Some(n) => n.meta().is_being_deleted() && !old.meta().is_being_deleted(),
        };
        let owner_deployment = |rs_uid: &str| {
            store
                .get_by_uid(rs_uid)
                .and_then(|o| o.meta().controller_ref())
                .filter(|r| r.kind == "Deployment")
                .map(|r| r.uid.clone())
        };
        match &**old {
            Object::Pod(p) => {
                let Some(rs) = p
                    .metadata
                    .controller_ref()
                    .filter(|r| r.kind == "ReplicaSet")
                else {
                    return;
                };
                let lost = match c.new_obj() {
                    Some(Object::Pod(n)) => {
                        (is_pod_ready(p) && !is_pod_ready(n))
                            || matches!(n.status.phase.as_str(), "Failed" | "Succeeded")
                    }
                    _ => false,
                };
                if lost || (deleted && component != REPLICASET_CONTROLLER) {
                    // The ReplicaSet may be gone already (then its deletion was noted).
                    let uid = rs.uid.clone();
                    if let Some(d) = owner_deployment(&uid) {
                        self.disrupted.insert(d);
                    }
                }
            }
            Object::ReplicaSet(rs) => {
                let Some(d) = rs
                    .metadata
                    .controller_ref()
                    .filter(|r| r.kind == "Deployment")
                else {
                    return;
                };
                let scaled = match c.new_obj() {
                    Some(Object::ReplicaSet(n)) => n.spec.replicas != rs.spec.replicas,
                    _ => false,
                };
                if (deleted || scaled) && component != crate::controllers::deployment::COMPONENT {
                    self.disrupted.insert(d.uid.clone());
                }
            }
            _ => {}
        }
    }

    /// Rollout bounds: a RollingUpdate Deployment keeps at least `replicas − maxUnavailable`
    /// available pods while its pods can be ready.
    ///
    /// Upstream's rolling update (pkg/controller/deployment/rolling.go) scales old ReplicaSets
    /// down only in `cleanupUnhealthyReplicas` (by their own unavailable replicas, which costs
    /// no availability) and in `scaleDownOldReplicaSetsForRollingUpdate` (by at most
    /// `available − minAvailable`, `minAvailable = replicas − maxUnavailable`, counting the
    /// available replicas of every ReplicaSet); the new ReplicaSet only grows. So the pods it
    /// removes never take availability below `minAvailable` — as long as nothing else removes
    /// any. The guarantee is checked inside a calm window, counting available pods
    /// (`Ready` for `minReadySeconds`, not terminating) of the Deployment's ReplicaSets:
    ///
    /// * opened when the Deployment is RollingUpdate, not paused, not being deleted, and fully
    ///   available (observed generation, `replicas == updatedReplicas == availableReplicas ==
    ///   spec.replicas`, and as many available pods);
    /// * closed by a change of `spec.replicas` or of maxUnavailable (a scaling event scales
    ///   proportionally, not by these rules), a pause, a switch to Recreate, a deletion, and any
    ///   disruption (see [`Checker::note_disruption`]: a crash, a node failure noticed, kubectl
    ///   deleting pods, eviction); a template change (a rollout) keeps it open.
    ///
    /// Controller downtime needs no exception: a stopped controller manager removes no pods.
    fn check_rollout_availability(&mut self, store: &Store, now: Time) {
        let disrupted = std::mem::take(&mut self.disrupted);
        let mut windows = BTreeMap::new();
        let mut found = vec![];
        for d in store.list::<Deployment>(None) {
            let uid = &d.metadata.uid;
            if !is_rolling_update(d)
                || d.spec.paused
                || d.metadata.is_being_deleted()
                || disrupted.contains(uid)
            {
                continue;
            }
            let replicas = d.spec.replicas.unwrap_or(1);
            let window = RolloutWindow {
                replicas,
                max_unavailable: max_unavailable(d),
            };
            let min_ready = d.spec.min_ready_seconds;
            let available = store
                .dependents(uid)
                .filter_map(|o| match o {
                    Object::ReplicaSet(rs) => Some(rs.metadata.uid.as_str()),
                    _ => None,
                })
                .flat_map(|rs| {
                    store
                        .dependents(rs)
                        .filter(move |o| o.meta().controller_ref().is_some_and(|r| r.uid == rs))
                })
                .filter(|o| match o {
                    Object::Pod(p) => {
                        !p.metadata.is_being_deleted() && is_pod_available(p, min_ready, now)
                    }
                    _ => false,
                })
                .count() as i32;
            match self.rollout_windows.get(uid) {
                Some(w) if **w == window => {
                    self.rollout_checks += 1;
                    let min = replicas - window.max_unavailable;
                    if available < min {
                        found.push(format!(
                            "Deployment {}/{}: {available} available < replicas {replicas} − maxUnavailable {}",
                            d.metadata.namespace, d.metadata.name, window.max_unavailable
                        ));
                    }
                    windows.insert(uid.clone(), Box::new(window));
                }
                Some(_) => {}
                None => {
                    let st = &d.status;
                    let full = st.observed_generation >= d.metadata.generation
                        && st.replicas == replicas
                        && st.updated_replicas == replicas
                        && st.available_replicas == replicas
                        && available >= replicas;
                    if full {
                        windows.insert(uid.clone(), Box::new(window));
                    }
                }
            }
        }
        self.rollout_windows = windows;
        for f in found {
            self.report(now, "Deployment below replicas − maxUnavailable", f);
        }
    }

    fn check_store(&mut self, store: &Store, now: Time) {
        let mut found: Vec<(&'static str, String)> = vec![];
        let mut bad = |what: &'static str, detail: String| found.push((what, detail));
        for o in store.all() {
            let m = o.meta();
            let id = format!("{} {}/{}", o.kind(), m.namespace, m.name);
            match o {
                Object::ReplicaSet(rs) => check_rs(rs, &id, &mut bad),
                Object::Deployment(d) => check_deployment(d, store, &id, &mut bad),
                Object::StatefulSet(s) => {
                    let st = &s.status;
                    if [
                        st.replicas,
                        st.ready_replicas,
                        st.current_replicas,
                        st.updated_replicas,
                        st.available_replicas,
                    ]
                    .iter()
                    .any(|&n| n < 0)
                    {
                        bad("negative status counter", format!("{id}: {st:?}"));
                    }
                    if st.available_replicas > st.ready_replicas || st.ready_replicas > st.replicas
                    {
                        bad("inconsistent status counters", format!("{id}: {st:?}"));
                    }
                }
                Object::DaemonSet(ds) => check_ds(ds, &id, &mut bad),
                Object::Job(j) => {
                    let st = &j.status;
                    if st.active < 0 || st.succeeded < 0 || st.failed < 0 {
                        bad("negative status counter", id.clone());
                    }
                    let it = st
                        .conditions
                        .iter()
                        .map(|c| (c.type_.as_str(), c.status.as_str()));
                    if cond_true(it.clone(), "Complete") && cond_true(it, "Failed") {
                        bad("Job both Complete and Failed", id.clone());
                    }
                }
                Object::CronJob(cj) => check_cronjob(cj, store, &id, &mut bad),
                _ => {}
            }
        }
        for n in store.list::<Node>(None) {
            check_node_capacity(n, store, &mut bad);
        }
        for (what, detail) in found {
            self.report(now, what, detail);
        }
        self.check_jobs_monotonic(store, now);
        self.check_statefulset_ordering(store, now);
    }

    /// Job counters never decrease and a finished Job stays finished the same way.
    fn check_jobs_monotonic(&mut self, store: &Store, now: Time) {
        let mut next = BTreeMap::new();
        let mut found = vec![];
        for j in store.list::<Job>(None) {
            let fin = job_finished_type(j);
            let cur = (j.status.succeeded, j.status.failed, fin.clone());
            if let Some((s, f, prev_fin)) = self.jobs.get(&j.metadata.uid) {
                let id = format!("{}/{}", j.metadata.namespace, j.metadata.name);
                if cur.0 < *s || cur.1 < *f {
                    found.push((
                        "Job counters decreased",
                        format!("{id}: {s}/{f} -> {}/{}", cur.0, cur.1),
                    ));
                }
                if prev_fin.is_some() && *prev_fin != fin {
                    found.push((
                        "Job terminal condition changed",
                        format!("{id}: {prev_fin:?} -> {fin:?}"),
                    ));
                }
            }
            next.insert(j.metadata.uid.clone(), cur);
        }
        self.jobs = next;
        for (w, d) in found {
            self.report(now, w, d);
        }
    }

    /// OrderedReady StatefulSets create pod N only when pods 0..N-1 exist and are Ready.
    fn check_statefulset_ordering(&mut self, store: &Store, now: Time) {
        let mut seen = BTreeMap::new();
        let mut found = vec![];
        for p in store.list::<Pod>(None) {
            seen.insert(p.metadata.uid.clone(), ());
            if self.pods_seen.contains_key(&p.metadata.uid) {
                continue;
            }
            let Some(r) = p
                .metadata
                .controller_ref()
                .filter(|r| r.kind == "StatefulSet")
            else {
                continue;
            };
            let Some(s) = store.get_by_uid(&r.uid).and_then(|o| match o {
                Object::StatefulSet(s) => Some(s),
                _ => None,
            }) else {
                continue;
            };
            if s.spec.pod_management_policy == "Parallel" || s.metadata.is_being_deleted() {
                continue;
            }
            let start = s.spec.ordinals.as_ref().map_or(0, |o| o.start);
            let Some(ord) = p
                .metadata
                .name
                .strip_prefix(&format!("{}-", s.metadata.name))
                .and_then(|x| x.parse::<i32>().ok())
            else {
                continue;
            };
            for k in start..ord {
                let name = format!("{}-{k}", s.metadata.name);
                let ok = store
                    .get::<Pod>(&s.metadata.namespace, &name)
                    .is_some_and(|q| is_pod_ready(q) && !q.metadata.is_being_deleted());
                if !ok {
                    found.push((
                        "StatefulSet ordering",
                        format!("{} created before {name} was Ready", p.metadata.name),
                    ));
                    break;
                }
            }
        }
        self.pods_seen = seen;
        for (w, d) in found {
            self.report(now, w, d);
        }
    }
}

fn check_rs(rs: &ReplicaSet, id: &str, bad: &mut impl FnMut(&'static str, String)) {
    let st = &rs.status;
    if [
        st.replicas,
        st.ready_replicas,
        st.available_replicas,
        st.fully_labeled_replicas,
    ]
    .iter()
    .any(|&n| n < 0)
        || st.terminating_replicas.is_some_and(|n| n < 0)
    {
        bad("negative status counter", id.to_string());
    }
    if st.available_replicas > st.ready_replicas
        || st.ready_replicas > st.replicas
        || st.fully_labeled_replicas > st.replicas
    {
        bad("inconsistent status counters", format!("{id}: {st:?}"));
    }
}

fn check_deployment(
    d: &Deployment,
    store: &Store,
    id: &str,
    bad: &mut impl FnMut(&'static str, String),
) {
    let st = &d.status;
    if [
        st.replicas,
        st.updated_replicas,
        st.ready_replicas,
        st.available_replicas,
        st.unavailable_replicas,
    ]
    .iter()
    .any(|&n| n < 0)
    {
        bad("negative status counter", id.to_string());
    }
    if st.available_replicas > st.replicas || st.updated_replicas > st.replicas {
        bad("inconsistent status counters", format!("{id}: {st:?}"));
    }
    // During a rolling update the controller keeps the sum of its ReplicaSets' desired
    // replicas within replicas + maxSurge once it has observed the current spec.
    let observed = st.observed_generation == d.metadata.generation;
    if observed
        && !d.spec.paused
        && !d.metadata.is_being_deleted()
        && d.spec.strategy.type_ != "Recreate"
    {
        let sum: i32 = store
            .dependents(&d.metadata.uid)
            .filter_map(|o| match o {
                Object::ReplicaSet(rs) if !rs.metadata.is_being_deleted() => rs.spec.replicas,
                _ => None,
            })
            .sum();
        let limit = d.spec.replicas.unwrap_or(1) + max_surge(d);
        if sum > limit {
            bad(
                "ReplicaSets above replicas + maxSurge",
                format!("{id}: {sum} > {limit}"),
            );
        }
    }
}

fn check_ds(ds: &DaemonSet, id: &str, bad: &mut impl FnMut(&'static str, String)) {
    let st = &ds.status;
    if [
        st.current_number_scheduled,
        st.number_misscheduled,
        st.desired_number_scheduled,
        st.number_ready,
        st.updated_number_scheduled,
        st.number_available,
        st.number_unavailable,
    ]
    .iter()
    .any(|&n| n < 0)
    {
        bad("negative status counter", id.to_string());
    }
    if st.number_available > st.number_ready {
        bad("inconsistent status counters", format!("{id}: {st:?}"));
    }
}

fn check_cronjob(
    cj: &CronJob,
    store: &Store,
    id: &str,
    bad: &mut impl FnMut(&'static str, String),
) {
    if cj.spec.concurrency_policy != "Forbid" {
        return;
    }
    let running = store
        .dependents(&cj.metadata.uid)
        .filter(|o| match o {
            Object::Job(j) => {
                j.metadata
                    .controller_ref()
                    .is_some_and(|r| r.uid == cj.metadata.uid)
                    && job_finished_type(j).is_none()
                    && !j.metadata.is_being_deleted()
            }
            _ => false,
        })
        .count();
    if running > 1 {
        bad(
            "CronJob Forbid overlapping",
            format!("{id}: {running} unfinished Jobs"),
        );
    }
}

/// Running pods on a node never request more than its allocatable cpu, memory and pods.
fn check_node_capacity(n: &Node, store: &Store, bad: &mut impl FnMut(&'static str, String)) {
    let pods: Vec<&Pod> = store
        .pods_on_node(&n.metadata.name)
        .filter(|p| is_pod_active(p) && p.status.phase == "Running")
        .collect();
    for res in ["cpu", "memory"] {
        let Some(alloc) = n.allocatable_milli(res) else {
            continue;
        };
        let used: i128 = pods.iter().map(|p| p.request_milli(res)).sum();
        if used > alloc {
            bad(
                "node over capacity",
                format!(
                    "{}: {res} requests {used}m > allocatable {alloc}m",
                    n.metadata.name
                ),
            );
        }
    }
    if let Some(max) = n.allocatable_milli("pods") {
        if (pods.len() as i128) * 1000 > max {
            bad(
                "node over capacity",
                format!("{}: {} pods", n.metadata.name, pods.len()),
            );
        }
    }
}
