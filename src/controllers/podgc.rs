//! Pod garbage collector (`pod-garbage-collector`, pkg/controller/podgc): force-deletes orphaned, out-of-service and excess terminated pods.
//!
//! As upstream's `gc` pass: pods bound to a node that no longer exists are marked Failed with
//! `DisruptionTarget` (`DeletionByPodGC`, "PodGC: node no longer exists") and deleted with grace
//! period 0 after the 40 s quarantine; terminating pods on a NotReady node carrying the
//! `node.kubernetes.io/out-of-service` taint, and terminating pods never scheduled, are marked
//! Failed and force-deleted; terminated pods beyond `--terminated-pod-gc-threshold` (12500) are
//! deleted, evicted and oldest first. Pod GC emits no events.
//!
//! Modelling choice: upstream runs the pass every 20 s (`gcCheckPeriod`), so an orphan is
//! deleted 40–60 s after its node disappears and other cases within 20 s; kubeplay reacts to
//! the change itself and deletes orphans exactly 40 s after it first sees them.

use crate::api::{ApiError, Duration, Node, Object, Pod, Resource, Time};
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::apiserver::DeleteOptions;
use crate::store::{Change, Store};

pub const COMPONENT: &str = "pod-garbage-collector";
/// `quarantineTime`.
pub const QUARANTINE_TIME: Duration = Duration::from_secs(40);
/// `--terminated-pod-gc-threshold`.
pub const TERMINATED_POD_GC_THRESHOLD: usize = 12_500;
pub const TAINT_OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";

/// The pod GC controller. Keys: `orphans:<node>`, `node:<node>`, `pod:<ns>/<name>`,
/// `terminated`.
pub struct PodGcController {
    /// Zero disables `gcTerminated` (upstream's `if gcc.terminatedPodThreshold > 0`).
    pub terminated_pod_threshold: usize,
    /// Keys of the terminated pods the informer has seen (kept by `watch` once `resync_all`
    /// listed them), so `gcTerminated` need not list every pod while under the threshold.
    terminated: std::collections::BTreeSet<String>,
    primed: bool,
    /// Scratch space for a pod's `namespace/name` while `watch` looks it up in `terminated`.
    key_buf: String,
}

impl Default for PodGcController {
    fn default() -> Self {
        PodGcController {
            terminated_pod_threshold: TERMINATED_POD_GC_THRESHOLD,
            terminated: Default::default(),
            primed: false,
            key_buf: String::new(),
        }
    }
}

/// A boxed pod GC controller with upstream's threshold.
pub fn new_pod_gc_controller() -> Box<dyn Controller> {
    Box::new(PodGcController::default())
}

/// `isPodTerminated`: any phase but Pending, Running and Unknown (an empty phase included).
fn is_terminated(p: &Pod) -> bool {
    !matches!(p.status.phase.as_str(), "Pending" | "Running" | "Unknown")
}

/// `eviction.PodIsEvicted`: phase Failed with reason Evicted.
fn is_evicted(p: &Pod) -> bool {
    p.status.phase == "Failed" && p.status.reason == "Evicted"
}

/// `byEvictionAndCreationTimestamp`: evicted first, then oldest, then by name.
pub fn by_eviction_and_creation(a: &Pod, b: &Pod) -> std::cmp::Ordering {
    is_evicted(b)
        .cmp(&is_evicted(a))
        .then(
            a.metadata
                .creation_timestamp
                .cmp(&b.metadata.creation_timestamp),
        )
        .then(a.metadata.name.cmp(&b.metadata.name))
}

/// Whether a terminating pod on this node is collected (`gcTerminating`): the node is not
/// Ready and has the out-of-service taint.
pub fn out_of_service(n: &Node) -> bool {
    !n.is_ready() && n.spec.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE)
}

/// `markFailedAndDeletePodWithCondition`.
fn mark_failed_and_delete(
    ctx: &mut Ctx,
    pod: &Pod,
    condition: Option<(&str, &str)>,
) -> Result<(), ApiError> {
    if pod.status.phase != "Succeeded" && pod.status.phase != "Failed" {
        let mut p = pod.clone();
        p.status.phase = "Failed".into();
        if let Some((reason, message)) = condition {
            let generation = p.metadata.generation;
            p.set_condition_observed(
                "DisruptionTarget",
                "True",
                reason,
                message,
                ctx.now(),
                generation,
            );
        }
        match ctx.update_status(p.into_object()) {
            Ok(_) => {}
            Err(e) if e.is_not_found() => return Ok(()),
            Err(e) => return Err(e),
        }
    }
    let opts = DeleteOptions {
        grace_period_seconds: Some(0),
        ..Default::default()
    };
    match ctx.delete::<Pod>(&pod.metadata.namespace, &pod.metadata.name, &opts) {
        Ok(_) => Ok(()),
        Err(e) if e.is_not_found() => Ok(()),
        Err(e) => Err(e),
    }
}

impl Controller for PodGcController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            // The key is built in a reused buffer and copied only when it is new to the set.
            (_, Some(Object::Pod(p))) if is_terminated(p) => {
                p.metadata.write_key(&mut self.key_buf);
                if !self.terminated.contains(self.key_buf.as_str()) {
                    self.terminated.insert(self.key_buf.clone());
                }
            }
            (_, Some(Object::Pod(p))) | (Some(Object::Pod(p)), None)
                if !self.terminated.is_empty() =>
            {
                p.metadata.write_key(&mut self.key_buf);
                self.terminated.remove(self.key_buf.as_str());
            }
            _ => {}
        }
        match (change.old_obj(), change.new_obj()) {
            (Some(Object::Node(n)), None)
                if store.pods_on_node(&n.metadata.name).next().is_some() =>
            {
                queue.add_after(
                    &format!("orphans:{}", n.metadata.name),
                    QUARANTINE_TIME,
                    now,
                );
            }
            (_, Some(Object::Node(n))) => queue.add_prefixed("node:", &n.metadata.name),
            (_, Some(Object::Pod(p))) => {
                let node = &p.spec.node_name;
                if !node.is_empty() && store.get::<Node>("", node).is_none() {
                    queue.add_after(&format!("orphans:{node}"), QUARANTINE_TIME, now);
                }
                if p.metadata.deletion_timestamp.is_some() {
                    queue.add_prefixed("pod:", &p.metadata.key());
                }
                if is_terminated(p) {
                    queue.add("terminated");
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        if let Some(node) = key.strip_prefix("orphans-start:") {
            ctx.requeue_after(&format!("orphans:{node}"), QUARANTINE_TIME);
        } else if let Some(node) = key.strip_prefix("orphans:") {
            // gcOrphaned after the quarantine: the node is still missing.
            if ctx.store().get::<Node>("", node).is_some() {
                return Ok(());
            }
            let pods: Vec<Pod> = ctx.store().pods_on_node(node).cloned().collect();
            for p in pods {
                mark_failed_and_delete(
                    ctx,
                    &p,
                    Some(("DeletionByPodGC", "PodGC: node no longer exists")),
                )?;
            }
        } else if let Some(node) = key.strip_prefix("node:") {
            // gcTerminating for the node's pods.
            let Some(n) = ctx.store().get::<Node>("", node).cloned() else {
                return Ok(());
            };
            if out_of_service(&n) {
                let mut pods: Vec<Pod> = ctx
                    .store()
                    .pods_on_node(node)
                    .filter(|p| p.metadata.deletion_timestamp.is_some())
                    .cloned()
                    .collect();
                crate::sort::sort_by(&mut pods, by_eviction_and_creation);
                for p in pods {
                    mark_failed_and_delete(ctx, &p, None)?;
                }
            }
        } else if let Some(k) = key.strip_prefix("pod:") {
            let (ns, name) = k.split_once('/').unwrap_or(("", k));
            let Some(p) = ctx.store().get::<Pod>(ns, name).cloned() else {
                return Ok(());
            };
            if p.metadata.deletion_timestamp.is_none() {
                return Ok(());
            }
            if p.spec.node_name.is_empty() {
                // gcUnscheduledTerminating.
                mark_failed_and_delete(ctx, &p, None)?;
            } else if ctx
                .store()
                .get::<Node>("", &p.spec.node_name)
                .is_some_and(out_of_service)
            {
                mark_failed_and_delete(ctx, &p, None)?;
            }
        } else if key == "terminated" {
            // gcTerminated, which `gc` runs only with a positive threshold.
            if self.terminated_pod_threshold == 0 {
                return Ok(());
            }
            if self.primed && self.terminated.len() <= self.terminated_pod_threshold {
                return Ok(());
            }
            let mut pods: Vec<Pod> = ctx
                .store()
                .list::<Pod>(None)
                .filter(|p| is_terminated(p))
                .cloned()
                .collect();
            if pods.len() > self.terminated_pod_threshold {
                let n = pods.len() - self.terminated_pod_threshold;
                crate::sort::sort_by(&mut pods, by_eviction_and_creation);
                for p in pods.into_iter().take(n) {
                    mark_failed_and_delete(ctx, &p, None)?;
                }
            }
        }
        Ok(())
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        self.terminated = store
            .list::<Pod>(None)
            .filter(|p| is_terminated(p))
            .map(|p| p.metadata.key())
            .collect();
        self.primed = true;
        for n in store.list::<Node>(None) {
            queue.add_prefixed("node:", &n.metadata.name);
        }
        let mut orphan_nodes = std::collections::BTreeSet::new();
        for p in store.list::<Pod>(None) {
            if !p.spec.node_name.is_empty() && store.get::<Node>("", &p.spec.node_name).is_none() {
                orphan_nodes.insert(p.spec.node_name.clone());
            }
            if p.metadata.deletion_timestamp.is_some() {
                queue.add_prefixed("pod:", &p.metadata.key());
            }
        }
        for n in orphan_nodes {
            // The quarantine starts when the (re)started controller first sees the orphan.
            queue.add_prefixed("orphans-start:", &n);
        }
        queue.add("terminated");
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
#[path = "podgc_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "podgc_audit_tests.rs"]
mod audit_tests;
