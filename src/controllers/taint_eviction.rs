//! Taint eviction controller (`taint-eviction-controller`, pkg/controller/tainteviction): deletes pods that do not tolerate their node's NoExecute taints.
//!
//! A pod on a node with NoExecute taints it does not all tolerate is deleted at once; a pod
//! tolerating them is deleted when the smallest `tolerationSeconds` of the tolerations used
//! expires (counted from when the controller saw the taint), never if none sets it. Before
//! deleting, the controller emits `Normal TaintManagerEviction "Marking for deletion Pod
//! <ns>/<name>"` and adds `DisruptionTarget=True` (reason `DeletionByTaintManager`); a scheduled
//! deletion cancelled because the taints went away emits `"Cancelling deletion of Pod
//! <ns>/<name>"`.

use crate::api::{ApiError, Node, Object, Pod, Resource, Taint, Time, Toleration};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::scheduler::get_matching_tolerations;
use crate::store::apiserver::DeleteOptions;
use crate::store::{Change, Store};
use std::collections::BTreeMap;

pub const COMPONENT: &str = "taint-eviction-controller";

/// `getNoExecuteTaints`.
pub fn no_execute_taints(taints: &[Taint]) -> Vec<Taint> {
    taints
        .iter()
        .filter(|t| t.effect == "NoExecute")
        .cloned()
        .collect()
}

/// `getMinTolerationTime` in seconds: `Some(0)` for no tolerations or a non-positive
/// `tolerationSeconds`, the smallest positive one otherwise, `None` (forever) when no used
/// toleration sets it.
pub fn min_toleration_seconds(tolerations: &[Toleration]) -> Option<i64> {
    if tolerations.is_empty() {
        return Some(0);
    }
    // Upstream starts from MaxInt64 and only takes smaller values, so a toleration of exactly
    // MaxInt64 seconds means forever too.
    let mut min = i64::MAX;
    for t in tolerations {
        if let Some(s) = t.toleration_seconds {
            if s <= 0 {
                return Some(0);
            }
            min = min.min(s);
        }
    }
    (min != i64::MAX).then_some(min)
}

#[derive(Clone, Debug)]
struct Work {
    created: Time,
    fire_at: Time,
}

/// The taint eviction controller. Keys: `node:<name>`, `pod:<ns>/<name>`, `fire:<ns>/<name>`.
#[derive(Default)]
pub struct TaintEvictionController {
    tainted_nodes: BTreeMap<String, Vec<Taint>>,
    /// The TimedWorkerQueue: pod key → scheduled deletion.
    work: BTreeMap<String, Box<Work>>,
    /// NoExecute taints of each node as last delivered by the watch.
    seen: BTreeMap<String, Vec<Taint>>,
}

/// A boxed taint eviction controller.
pub fn new_taint_eviction_controller() -> Box<dyn Controller> {
    Box::new(TaintEvictionController::default())
}

fn pod_ref(key: &str) -> Object {
    let (ns, name) = key.split_once('/').unwrap_or(("", key));
    let mut p = Pod::default();
    p.metadata.namespace = ns.into();
    p.metadata.name = name.into();
    p.into_object()
}

impl TaintEvictionController {
    /// `cancelWorkWithEvent`: the event follows only when a pending worker was cancelled.
    fn cancel(&mut self, ctx: &mut Ctx, key: &str) {
        if self.work.remove(key).is_some() {
            // emitCancelPodDeletionEvent: on a reference to the pod (namespace and name only).
            ctx.event(
                &pod_ref(key),
                "Normal",
                "TaintManagerEviction",
                &format!("Cancelling deletion of Pod {key}"),
            );
        }
    }

    /// `processPodOnNode`.
    fn process_pod_on_node(
        &mut self,
        ctx: &mut Ctx,
        key: &str,
        tolerations: &[Toleration],
        taints: &[Taint],
    ) -> Result<(), ApiError> {
        let now = ctx.now();
        if taints.is_empty() {
            self.cancel(ctx, key);
        }
        let (all, used) = get_matching_tolerations(taints, tolerations);
        if !all {
            self.cancel(ctx, key);
            return self.add_work(ctx, key, now, now);
        }
        // `time.Duration(minTolerationTime) * time.Second` wraps in Go's int64 nanoseconds; a
        // negative result is upstream's "tolerate forever" too.
        let min = min_toleration_seconds(&used).map(crate::api::Duration::from_secs);
        let Some(min) = min.filter(|d| d.0 >= 0) else {
            self.cancel(ctx, key);
            return Ok(());
        };
        let mut start = now;
        let trigger = now + min;
        if let Some(w) = self.work.get(key) {
            start = w.created;
            if start + min < trigger {
                return Ok(());
            }
            self.cancel(ctx, key);
        }
        self.add_work(ctx, key, start, start + min)
    }

    fn add_work(
        &mut self,
        ctx: &mut Ctx,
        key: &str,
        created: Time,
        fire_at: Time,
    ) -> Result<(), ApiError> {
        if self.work.contains_key(key) {
            return Ok(());
        }
        let now = ctx.now();
        if fire_at <= now {
            return self.fire(ctx, key);
        }
        self.work
            .insert(key.to_string(), Box::new(Work { created, fire_at }));
        ctx.requeue_after(&format!("fire:{key}"), fire_at - now);
        Ok(())
    }

    /// The wrapped work function (`getWrappedWorkerFunc`): `deletePodHandler`, after which the key
    /// leaves the queue whatever the outcome, so a later `AddWork` schedules it afresh.
    fn fire(&mut self, ctx: &mut Ctx, key: &str) -> Result<(), ApiError> {
        self.work.remove(key);
        self.delete_pod_handler(ctx, key)
    }

    /// `deletePodHandler` → `addConditionAndDeletePod`: the "Marking for deletion" event (on a
    /// reference to the pod, emitted before the pod is read), then the DisruptionTarget condition
    /// and the delete. A pod already gone ends the work (upstream's NotFound error is only
    /// logged).
    fn delete_pod_handler(&mut self, ctx: &mut Ctx, key: &str) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        // emitPodDeletionEvent: on a reference to the pod (namespace and name only).
        ctx.event(
            &pod_ref(key),
            "Normal",
            "TaintManagerEviction",
            &format!("Marking for deletion Pod {key}"),
        );
        let Some(pod) = ctx.store().get_shared::<Pod>(ns, name) else {
            return Ok(());
        };
        let mut p = Pod::clone(&pod);
        let generation = p.metadata.generation;
        p.set_condition_observed(
            "DisruptionTarget",
            "True",
            "DeletionByTaintManager",
            "Taint manager: deleting due to NoExecute taint",
            ctx.now(),
            generation,
        );
        if p.status != pod.status {
            match ctx.update_status(p.into_object()) {
                Ok(_) => {}
                Err(e) if e.is_not_found() => return Ok(()),
                Err(e) => return Err(e),
            }
        }
        match ctx.delete::<Pod>(ns, name, &DeleteOptions::default()) {
            Ok(_) => Ok(()),
            Err(e) if e.is_not_found() => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn handle_node(&mut self, ctx: &mut Ctx, name: &str) -> Result<(), ApiError> {
        let Some(node) = ctx.store().get::<Node>("", name).cloned() else {
            self.tainted_nodes.remove(name);
            return Ok(());
        };
        let taints = no_execute_taints(&node.spec.taints);
        if taints.is_empty() {
            self.tainted_nodes.remove(name);
        } else {
            self.tainted_nodes.insert(name.to_string(), taints.clone());
        }
        let pods: Vec<Pod> = ctx.store().pods_on_node(name).cloned().collect();
        for p in pods {
            let key = p.metadata.key();
            if taints.is_empty() {
                self.cancel(ctx, &key);
            } else {
                self.process_pod_on_node(ctx, &key, &p.spec.tolerations, &taints)?;
            }
        }
        Ok(())
    }

    fn handle_pod(&mut self, ctx: &mut Ctx, key: &str) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(pod) = ctx.store().get_shared::<Pod>(ns, name) else {
            self.cancel(ctx, key);
            return Ok(());
        };
        if pod.spec.node_name.is_empty() {
            return Ok(());
        }
        let Some(taints) = self.tainted_nodes.get(&pod.spec.node_name).cloned() else {
            return Ok(());
        };
        self.process_pod_on_node(ctx, key, &pod.spec.tolerations, &taints)
    }
}

impl Controller for TaintEvictionController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, _now: Time) {
        match (change.old_obj(), change.new_obj()) {
            (_, new) if change.kind() == "Node" => {
                // NodeUpdated: only a change of the NoExecute taints matters. The informer's
                // last-seen taints also absorb a re-delivered add of an unchanged node.
                let name = change.object().meta().name.clone();
                let taints = match new {
                    Some(Object::Node(n)) => Some(no_execute_taints(&n.spec.taints)),
                    _ => None,
                };
                if self.seen.get(&name) == taints.as_ref() && taints.is_some() {
                    return;
                }
                match taints {
                    Some(t) => self.seen.insert(name.clone(), t),
                    None => self.seen.remove(&name),
                };
                queue.add_prefixed("node:", &name);
            }
            // PodUpdated: only a change of tolerations or node matters.
            (Some(Object::Pod(o)), Some(Object::Pod(n)))
                if o.spec.tolerations != n.spec.tolerations
                    || o.spec.node_name != n.spec.node_name =>
            {
                queue.add_prefixed("pod:", &n.metadata.key());
            }
            (Some(Object::Pod(_)), Some(Object::Pod(_))) => {}
            (_, Some(Object::Pod(p))) | (Some(Object::Pod(p)), None) => {
                queue.add_prefixed("pod:", &p.metadata.key());
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        if let Some(n) = key.strip_prefix("node:") {
            self.handle_node(ctx, n)
        } else if let Some(k) = key.strip_prefix("pod:") {
            self.handle_pod(ctx, k)
        } else if let Some(k) = key.strip_prefix("fire:") {
            match self.work.get(k) {
                Some(w) if w.fire_at <= ctx.now() => self.fire(ctx, k),
                _ => Ok(()),
            }
        } else {
            Ok(())
        }
    }

    fn reset(&mut self) {
        *self = TaintEvictionController::default();
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for n in store.list::<Node>(None) {
            self.seen
                .insert(n.metadata.name.clone(), no_execute_taints(&n.spec.taints));
            queue.add_prefixed("node:", &n.metadata.name);
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
#[path = "taint_eviction_timed_workers_tests.rs"]
mod timed_workers_tests;

#[cfg(test)]
#[path = "taint_eviction_audit_tests.rs"]
mod audit_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(secs: Option<i64>) -> Toleration {
        Toleration {
            key: "k".into(),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            toleration_seconds: secs,
            ..Default::default()
        }
    }

    // Port of TestGetMinTolerationTime (pkg/controller/tainteviction/taint_eviction_test.go).
    #[test]
    fn get_min_toleration_time() {
        let cases: Vec<(Vec<Toleration>, Option<i64>)> = vec![
            (vec![], Some(0)),
            (vec![tol(Some(1)), tol(Some(2))], Some(1)),
            (vec![tol(Some(2)), tol(Some(1))], Some(1)),
            (vec![tol(None), tol(Some(1))], Some(1)),
            (vec![tol(Some(-1)), tol(Some(1))], Some(0)),
            (vec![tol(None)], None),
            // getMinTolerationTime's MaxInt64 sentinel: such a toleration means forever.
            (vec![tol(Some(i64::MAX))], None),
            (vec![tol(Some(i64::MAX)), tol(Some(30))], Some(30)),
        ];
        for (tols, want) in cases {
            assert_eq!(min_toleration_seconds(&tols), want, "{tols:?}");
        }
    }

    fn taint(key: &str, value: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect: "NoExecute".into(),
            time_added: None,
        }
    }

    // Port of TestGetMatchingTolerations-style cases (pkg/apis/core/v1/helper/helpers_test.go):
    // every taint must be tolerated; the first tolerating toleration of each taint is returned.
    #[test]
    fn matching_tolerations() {
        let t1 = taint("a", "1");
        let t2 = taint("b", "");
        let ta = Toleration {
            key: "a".into(),
            value: "1".into(),
            operator: "Equal".into(),
            effect: "NoExecute".into(),
            toleration_seconds: Some(10),
        };
        let all = Toleration {
            operator: "Exists".into(),
            ..Default::default()
        };
        assert_eq!(get_matching_tolerations(&[], &[]), (true, vec![]));
        assert_eq!(
            get_matching_tolerations(std::slice::from_ref(&t1), &[]),
            (false, vec![])
        );
        assert_eq!(
            get_matching_tolerations(std::slice::from_ref(&t1), std::slice::from_ref(&ta)),
            (true, vec![ta.clone()])
        );
        assert_eq!(
            get_matching_tolerations(&[t1.clone(), t2.clone()], std::slice::from_ref(&ta)),
            (false, vec![])
        );
        assert_eq!(
            get_matching_tolerations(&[t1, t2], &[ta.clone(), all.clone()]),
            (true, vec![ta, all])
        );
    }

    // -----------------------------------------------------------------------------------------
    // taint_eviction_test.go on a simulation that runs only the taint eviction controller
    // -----------------------------------------------------------------------------------------

    use crate::api::{Duration, NodeCondition};
    use crate::features::FeatureGates;
    use crate::sim::Simulation;
    use crate::world::World;

    const T0: i64 = 1_735_689_600;

    /// `createNoExecuteTaint(index)`.
    fn no_execute_taint(index: i32) -> Taint {
        Taint {
            key: format!("testTaint{index}"),
            value: format!("test{index}"),
            effect: "NoExecute".into(),
            time_added: None,
        }
    }

    /// `addToleration(pod, index, duration)`: operator unset (Equal); a negative duration is
    /// forever.
    fn toleration(index: i32, duration: i64) -> Toleration {
        Toleration {
            key: format!("testTaint{index}"),
            value: format!("test{index}"),
            effect: "NoExecute".into(),
            toleration_seconds: (duration >= 0).then_some(duration),
            ..Default::default()
        }
    }

    /// `testutil.NewNode(name)` with `addTaintsToNode(node, indices)`.
    fn new_node(name: &str, taints: &[i32]) -> Node {
        let mut n = Node::default();
        n.metadata.name = name.into();
        n.spec.taints = taints.iter().map(|&i| no_execute_taint(i)).collect();
        n.status.conditions = vec![NodeCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..Default::default()
        }];
        n
    }

    /// `testutil.NewPod(name, host)` (Ready) with the given tolerations.
    fn new_pod(name: &str, host: &str, tolerations: Vec<Toleration>) -> Pod {
        let mut p = Pod::default();
        p.metadata.namespace = "default".into();
        p.metadata.name = name.into();
        p.spec_mut().node_name = host.into();
        p.spec_mut().tolerations = tolerations;
        // The API server validates what the fake client does not: one container.
        p.spec_mut().containers = vec![crate::api::Container {
            name: "c".into(),
            image: "busybox".into(),
            ..Default::default()
        }];
        p.status.phase = "Running".into();
        p.set_condition("Ready", "True", "", "", Time::from_unix_secs(T0));
        p
    }

    struct Harness {
        sim: Simulation,
    }

    impl Harness {
        fn new() -> Self {
            let mut sim = Simulation::new(
                1,
                Time::from_unix_secs(T0),
                FeatureGates::default(),
                World::default(),
            );
            sim.add_loop(new_taint_eviction_controller());
            Harness { sim }
        }

        fn settle(&mut self) {
            self.sim.settle().unwrap();
        }

        /// Seconds of virtual time since the start.
        fn elapsed(&self) -> f64 {
            self.sim.elapsed().as_secs_f64()
        }

        fn run_for_millis(&mut self, ms: i64) {
            self.sim.run_for(Duration::from_millis(ms)).unwrap();
        }

        fn put_node(&mut self, node: Node) {
            let name = node.metadata.name.clone();
            match self.sim.api.store.get::<Node>("", &name).cloned() {
                Some(old) => {
                    let mut n = node;
                    n.metadata.uid = old.metadata.uid;
                    self.sim.api.update(Object::Node(n)).unwrap();
                }
                None => {
                    self.sim.api.create(Object::Node(node)).unwrap();
                }
            }
            self.settle();
        }

        fn delete_node(&mut self, name: &str) {
            self.sim
                .api
                .delete("Node", "", name, &DeleteOptions::default())
                .unwrap();
            self.settle();
        }

        fn create_pod(&mut self, pod: Pod) {
            self.sim.api.create(Object::Pod(pod)).unwrap();
            self.settle();
        }

        fn get(&self, name: &str) -> Option<Pod> {
            self.sim.api.store.get::<Pod>("default", name).cloned()
        }

        fn update_pod(&mut self, name: &str, f: impl FnOnce(&mut Pod)) {
            let mut p = self.get(name).unwrap();
            f(&mut p);
            p.metadata.resource_version.clear();
            self.sim.api.update(Object::Pod(p)).unwrap();
            self.settle();
        }

        fn bind(&mut self, name: &str, node: &str) {
            let uid = self.get(name).unwrap().metadata.uid;
            self.sim.api.bind("default", name, &uid, node).unwrap();
            self.settle();
        }

        /// The status patch of `addConditionAndDeletePod`: DisruptionTarget=True.
        fn patched(&self, name: &str) -> bool {
            self.get(name).is_some_and(|p| {
                p.status.conditions.iter().any(|c| {
                    c.type_ == "DisruptionTarget"
                        && c.status == "True"
                        && c.reason == "DeletionByTaintManager"
                })
            })
        }

        /// A delete call reached the pod: it is gone or terminating.
        fn deleted(&self, name: &str) -> bool {
            self.get(name)
                .is_none_or(|p| p.metadata.deletion_timestamp.is_some())
        }

        /// `verifyPodActions` for one pod.
        fn actions(&self, name: &str) -> (bool, bool) {
            (self.patched(name), self.deleted(name))
        }

        fn events(&self, reason: &str) -> Vec<String> {
            self.sim
                .api
                .events
                .iter()
                .filter(|e| e.reason == reason)
                .map(|e| e.message.clone())
                .collect()
        }

        fn controller(&self) -> &TaintEvictionController {
            self.sim.controller::<TaintEvictionController>().unwrap()
        }

        /// `taintEvictionQueue.GetWorkerUnsafe(key) != nil`.
        fn queued(&self, key: &str) -> bool {
            self.controller().work.contains_key(key)
        }

        /// Virtual seconds at which each pod got its "Marking for deletion" event.
        fn eviction_times(&self) -> Vec<(String, f64)> {
            self.sim
                .api
                .events
                .iter()
                .filter(|e| e.message.starts_with("Marking for deletion Pod"))
                .map(|e| {
                    (
                        e.name.to_string(),
                        (e.time - Time::from_unix_secs(T0)).as_secs_f64(),
                    )
                })
                .collect()
        }
    }

    // Port of TestFilterNoExecuteTaints (pkg/controller/tainteviction/taint_eviction_test.go).
    #[test]
    fn filter_no_execute_taints() {
        let mut other = taint("two", "two");
        other.effect = "NoSchedule".into();
        let got = no_execute_taints(&[taint("one", "one"), other]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].key, "one");
    }

    // Port of TestCreatePod (pkg/controller/tainteviction/taint_eviction_test.go): a pod arrives
    // while the node's NoExecute taints are known (taintedNodes). Rows: (description, node of
    // the pod, tolerations, taints of node1, expect patch, expect delete). Beyond upstream (which
    // polls for 5 s of wall time), the finite toleration's deletion is checked at its deadline.
    #[test]
    fn create_pod_rows() {
        type Row = (
            &'static str,
            &'static str,
            Vec<Toleration>,
            Vec<i32>,
            bool,
            bool,
        );
        let rows: Vec<Row> = vec![
            ("not scheduled - ignore", "", vec![], vec![], false, false),
            (
                "scheduled on untainted Node",
                "node1",
                vec![],
                vec![],
                false,
                false,
            ),
            (
                "schedule on tainted Node",
                "node1",
                vec![],
                vec![1],
                true,
                true,
            ),
            (
                "schedule on tainted Node with finite toleration",
                "node1",
                vec![toleration(1, 100)],
                vec![1],
                false,
                false,
            ),
            (
                "schedule on tainted Node with infinite toleration",
                "node1",
                vec![toleration(1, -1)],
                vec![1],
                false,
                false,
            ),
            (
                "schedule on tainted Node with infinite invalid toleration",
                "node1",
                vec![toleration(2, -1)],
                vec![1],
                true,
                true,
            ),
        ];
        for (desc, host, tols, taints, patch, delete) in rows {
            let mut h = Harness::new();
            h.put_node(new_node("node1", &taints));
            h.create_pod(new_pod("pod1", host, tols.clone()));
            assert_eq!(h.actions("pod1"), (patch, delete), "{desc}");
            // Virtual time: a finite toleration runs out after exactly tolerationSeconds.
            h.run_for_millis(99_999);
            let later = tols.iter().any(|t| t.toleration_seconds == Some(100));
            assert_eq!(h.actions("pod1"), (patch, delete), "{desc} at 99.999 s");
            h.run_for_millis(1);
            assert_eq!(
                h.actions("pod1"),
                (patch || later, delete || later),
                "{desc} at 100 s"
            );
            h.run_for_millis(3_600_000);
            assert_eq!(
                h.actions("pod1"),
                (patch || later, delete || later),
                "{desc} an hour later"
            );
        }
    }

    // Port of TestDeletePod: a pod deleted while its node is tainted; nothing panics, nothing
    // is scheduled for it.
    #[test]
    fn delete_pod() {
        let mut h = Harness::new();
        h.put_node(new_node("node1", &[1]));
        h.create_pod(new_pod("pod1", "node1", vec![toleration(1, 100)]));
        assert!(h.queued("default/pod1"));
        h.sim
            .api
            .delete(
                "Pod",
                "default",
                "pod1",
                &DeleteOptions {
                    grace_period_seconds: Some(0),
                    ..Default::default()
                },
            )
            .unwrap();
        h.settle();
        assert!(!h.queued("default/pod1"));
        h.run_for_millis(200_000);
        assert!(h
            .events("TaintManagerEviction")
            .iter()
            .all(|m| !m.starts_with("Marking")));
    }

    // Port of TestUpdatePod. Rows: (description, prevPod node, prevPod tolerations, newPod node,
    // newPod tolerations, awaitForScheduledEviction, expect patch, expect delete). The
    // "removing toleration" update would be refused by the API server's pod validation (only
    // tolerationSeconds may change), so that update is written to the store directly, as
    // upstream writes it to the informer's indexer. Upstream's update comes some wall time after
    // the eviction was scheduled; here 100 ms of virtual time pass (at the very same instant,
    // processPodOnNode's strict Before would let the longer toleration replace the work, in
    // upstream as here).
    #[test]
    fn update_pod_rows() {
        type Row = (
            &'static str,
            &'static str,
            Vec<Toleration>,
            &'static str,
            Vec<Toleration>,
            bool,
            bool,
            bool,
        );
        let rows: Vec<Row> = vec![
            (
                "scheduling onto tainted Node",
                "",
                vec![],
                "node1",
                vec![],
                false,
                true,
                true,
            ),
            (
                "scheduling onto tainted Node with toleration",
                "",
                vec![toleration(1, -1)],
                "node1",
                vec![toleration(1, -1)],
                false,
                false,
                false,
            ),
            (
                "removing toleration",
                "node1",
                vec![toleration(1, 100)],
                "node1",
                vec![],
                true,
                true,
                true,
            ),
            (
                "lengthening toleration shouldn't work",
                "node1",
                vec![toleration(1, 1)],
                "node1",
                vec![toleration(1, 100)],
                true,
                true,
                true,
            ),
        ];
        for (desc, prev_host, prev_tols, new_host, new_tols, await_eviction, patch, delete) in rows
        {
            let mut h = Harness::new();
            h.put_node(new_node("node1", &[1]));
            let prev_tols_len = prev_tols.len();
            h.create_pod(new_pod("pod1", prev_host, prev_tols));
            if await_eviction {
                assert!(h.queued("default/pod1"), "{desc}: scheduled eviction");
                h.run_for_millis(100);
            }
            assert_eq!(
                h.actions("pod1"),
                (false, false),
                "{desc}: before the update"
            );
            if prev_host.is_empty() && !new_host.is_empty() {
                h.bind("pod1", new_host);
            }
            // Only the test's toleration changes (the API server's DefaultTolerationSeconds
            // added the not-ready/unreachable ones, which match no taint here).
            let set_tols = |p: &mut Pod| {
                let spec = p.spec_mut();
                spec.tolerations.retain(|t| !t.key.starts_with("testTaint"));
                spec.tolerations.extend(new_tols.iter().cloned());
            };
            if new_tols.len() < prev_tols_len {
                // Removing a toleration is forbidden by pod update validation
                // (validateOnlyAddedTolerations); upstream feeds the informer directly
                // (podIndexer.Update + PodUpdated), as a direct store write does here.
                let mut p = h.get("pod1").unwrap();
                set_tols(&mut p);
                h.sim.api.store.put(Object::Pod(p));
                h.settle();
            } else {
                h.update_pod("pod1", set_tols);
            }
            if desc.starts_with("lengthening") {
                // The eviction stays at the original 1 s deadline.
                assert_eq!(h.actions("pod1"), (false, false), "{desc}: not yet");
                h.run_for_millis(899);
                assert_eq!(h.actions("pod1"), (false, false), "{desc}: not yet");
                h.run_for_millis(1);
                assert_eq!(h.eviction_times(), [("pod1".to_string(), 1.0)], "{desc}");
            }
            assert_eq!(h.actions("pod1"), (patch, delete), "{desc}");
        }
    }

    // Port of TestCreateNode. Rows: (description, pod tolerations, node taints, expect patch,
    // expect delete).
    #[test]
    fn create_node_rows() {
        type Row = (&'static str, Vec<Toleration>, Vec<i32>, bool, bool);
        let rows: Vec<Row> = vec![
            (
                "Creating Node matching already assigned Pod",
                vec![],
                vec![],
                false,
                false,
            ),
            (
                "Creating tainted Node matching already assigned Pod",
                vec![],
                vec![1],
                true,
                true,
            ),
            (
                "Creating tainted Node matching already assigned tolerating Pod",
                vec![toleration(1, -1)],
                vec![1],
                false,
                false,
            ),
        ];
        for (desc, tols, taints, patch, delete) in rows {
            let mut h = Harness::new();
            h.create_pod(new_pod("pod1", "node1", tols));
            h.put_node(new_node("node1", &taints));
            assert_eq!(h.actions("pod1"), (patch, delete), "{desc}");
            h.run_for_millis(3_600_000);
            assert_eq!(h.actions("pod1"), (patch, delete), "{desc} an hour later");
        }
    }

    // Port of TestDeleteNode: deleting a tainted node forgets its taints.
    #[test]
    fn delete_node() {
        let mut h = Harness::new();
        h.put_node(new_node("node1", &[1]));
        assert!(h.controller().tainted_nodes.contains_key("node1"));
        h.delete_node("node1");
        assert!(!h.controller().tainted_nodes.contains_key("node1"));
    }

    // Port of TestUpdateNode. Rows: (description, pod tolerations, old taints, new taints,
    // expect patch, expect delete, virtual ms to wait after the update (upstream's
    // additionalSleep, or its 5 s verification poll)).
    #[test]
    fn update_node_rows() {
        type Row = (
            &'static str,
            Vec<Toleration>,
            Vec<i32>,
            Vec<i32>,
            bool,
            bool,
            i64,
        );
        let rows: Vec<Row> = vec![
            (
                "Added taint, expect node patched and deleted",
                vec![],
                vec![],
                vec![1],
                true,
                true,
                0,
            ),
            (
                "Added tolerated taint",
                vec![toleration(1, 100)],
                vec![],
                vec![1],
                false,
                false,
                5_000,
            ),
            (
                "Only one added taint tolerated",
                vec![toleration(1, 100)],
                vec![],
                vec![1, 2],
                true,
                true,
                0,
            ),
            (
                "Taint removed",
                vec![toleration(1, 1)],
                vec![1],
                vec![],
                false,
                false,
                1_500,
            ),
            (
                "Pod with multiple tolerations are evicted when first one runs out",
                vec![toleration(1, 1), toleration(2, 100)],
                vec![],
                vec![1, 2],
                true,
                true,
                1_000,
            ),
        ];
        for (desc, tols, old, new, patch, delete, wait) in rows {
            let mut h = Harness::new();
            h.put_node(new_node("node1", &old));
            h.create_pod(new_pod("pod1", "node1", tols));
            h.put_node(new_node("node1", &new));
            h.run_for_millis(wait);
            assert_eq!(h.actions("pod1"), (patch, delete), "{desc}");
        }
        // The last row, timed: not before the first toleration (1 s) runs out.
        let mut h = Harness::new();
        h.put_node(new_node("node1", &[]));
        h.create_pod(new_pod(
            "pod1",
            "node1",
            vec![toleration(1, 1), toleration(2, 100)],
        ));
        h.put_node(new_node("node1", &[1, 2]));
        h.run_for_millis(999);
        assert_eq!(h.actions("pod1"), (false, false));
        h.run_for_millis(1);
        assert_eq!(h.actions("pod1"), (true, true));
        assert_eq!(h.eviction_times(), [("pod1".to_string(), 1.0)]);
    }

    // Port of TestUpdateNodeWithMultipleTaints: a pod tolerating taint1 forever (Exists) and
    // taint2 for a minute is queued only while taint2 is present, and never deleted.
    #[test]
    fn update_node_with_multiple_taints() {
        let exists = |i: i32, secs: Option<i64>| Toleration {
            key: format!("testTaint{i}"),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            toleration_seconds: secs,
            ..Default::default()
        };
        let mut h = Harness::new();
        h.create_pod(new_pod(
            "pod1",
            "node1",
            vec![exists(1, None), exists(2, Some(60))],
        ));
        let key = "default/pod1";
        h.put_node(new_node("node1", &[]));
        assert!(!h.queued(key), "pod queued for deletion with no taints");
        h.put_node(new_node("node1", &[1]));
        assert!(
            !h.queued(key),
            "pod queued for deletion with permanently tolerated taint"
        );
        h.put_node(new_node("node1", &[1, 2]));
        assert!(
            h.queued(key),
            "pod not queued for deletion after addition of temporarily tolerated taint"
        );
        h.put_node(new_node("node1", &[1]));
        assert!(
            !h.queued(key),
            "pod queued for deletion after removal of temporarily tolerated taint"
        );
        h.run_for_millis(120_000);
        assert!(!h.deleted("pod1"), "Unexpected deletion");
    }

    // Port of TestUpdateNodeWithMultiplePods. Rows: (description, new taints, expected
    // (pods, seconds after the taint) of deletion). pod1 has no toleration, pod2 tolerates
    // taint1 for 1 s, pod3 forever.
    #[test]
    fn update_node_with_multiple_pods_rows() {
        type Row = (&'static str, Vec<i32>, Vec<(&'static str, f64)>);
        let rows: Vec<Row> = vec![
            (
                "Pods with different toleration times are evicted appropriately",
                vec![1],
                vec![("pod1", 0.0), ("pod2", 1.0)],
            ),
            (
                "Evict all pods not matching all taints instantly",
                vec![1, 2],
                vec![("pod1", 0.0), ("pod2", 0.0), ("pod3", 0.0)],
            ),
        ];
        for (desc, taints, want) in rows {
            let mut h = Harness::new();
            h.put_node(new_node("node1", &[]));
            h.create_pod(new_pod("pod1", "node1", vec![]));
            h.create_pod(new_pod("pod2", "node1", vec![toleration(1, 1)]));
            h.create_pod(new_pod("pod3", "node1", vec![toleration(1, -1)]));
            let start = h.elapsed();
            h.put_node(new_node("node1", &taints));
            h.run_for_millis(3_600_000);
            let mut got: Vec<(String, f64)> = h
                .eviction_times()
                .into_iter()
                .map(|(n, t)| (n, t - start))
                .collect();
            crate::sort::sort_by(&mut got, |a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            let want: Vec<(String, f64)> = want.iter().map(|(n, t)| (n.to_string(), *t)).collect();
            assert_eq!(got, want, "{desc}");
            for (n, _) in &want {
                assert_eq!(h.actions(n), (true, true), "{desc}: {n}");
            }
            for n in ["pod1", "pod2", "pod3"] {
                if !want.iter().any(|(w, _)| w == n) {
                    assert!(
                        !h.deleted(n),
                        "{desc}: {n} deleted though it shouldn't have"
                    );
                }
            }
        }
    }

    // Port of TestEventualConsistency: pod2 reaches the controller after the node update that
    // evicts pod1 (existing and unscheduled, then bound; or created on the node afterwards).
    // Rows: (description, pod2 exists unscheduled before the taint, pod2 tolerations). Upstream
    // verifies pod1's eviction and only waits for pod2; here pod2 is checked too: evicted at
    // once without a toleration, after its 100 s otherwise.
    #[test]
    fn eventual_consistency_rows() {
        let rows: Vec<(&str, bool, Vec<Toleration>)> = vec![
            ("existing pod2 scheduled onto tainted Node", true, vec![]),
            (
                "existing pod2 with taint toleration scheduled onto tainted Node",
                true,
                vec![toleration(1, 100)],
            ),
            ("new pod2 created on tainted Node", false, vec![]),
            (
                "new pod2 with tait toleration created on tainted Node",
                false,
                vec![toleration(1, 100)],
            ),
        ];
        for (desc, existing, tols) in rows {
            let mut h = Harness::new();
            h.put_node(new_node("node1", &[]));
            h.create_pod(new_pod("pod1", "node1", vec![]));
            if existing {
                h.create_pod(new_pod("pod2", "", tols.clone()));
            }
            h.put_node(new_node("node1", &[1]));
            assert_eq!(h.actions("pod1"), (true, true), "{desc}: pod1");
            if existing {
                assert_eq!(
                    h.actions("pod2"),
                    (false, false),
                    "{desc}: pod2 unscheduled"
                );
                h.bind("pod2", "node1");
            } else {
                h.create_pod(new_pod("pod2", "node1", tols.clone()));
            }
            let start = h.elapsed();
            h.run_for_millis(3_600_000);
            let times: Vec<f64> = h
                .eviction_times()
                .into_iter()
                .filter(|(n, _)| n == "pod2")
                .map(|(_, t)| t - start)
                .collect();
            let want = if tols.is_empty() { 0.0 } else { 100.0 };
            assert_eq!(times, [want], "{desc}: pod2");
            assert_eq!(h.actions("pod2"), (true, true), "{desc}: pod2");
        }
    }

    // Port of TestPodDeletionEvent: emitPodDeletionEvent and emitCancelPodDeletionEvent.
    #[test]
    fn pod_deletion_events() {
        let mut h = Harness::new();
        h.put_node(new_node("node1", &[1]));
        h.create_pod(new_pod("test", "node1", vec![toleration(1, 100)]));
        h.put_node(new_node("node1", &[]));
        h.put_node(new_node("node1", &[1]));
        h.run_for_millis(100_000);
        let ev: Vec<(String, String, String, String, String)> = h
            .sim
            .api
            .events
            .iter()
            .map(|e| {
                (
                    e.kind.to_string(),
                    format!("{}/{}", e.namespace, e.name),
                    e.type_.to_string(),
                    e.reason.to_string(),
                    e.message.clone(),
                )
            })
            .collect();
        let row = |msg: &str| {
            (
                "Pod".to_string(),
                "default/test".to_string(),
                "Normal".to_string(),
                "TaintManagerEviction".to_string(),
                msg.to_string(),
            )
        };
        assert_eq!(
            ev,
            [
                row("Cancelling deletion of Pod default/test"),
                row("Marking for deletion Pod default/test"),
            ]
        );
    }
}
