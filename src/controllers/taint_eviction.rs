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
    let mut min: Option<i64> = None;
    for t in tolerations {
        if let Some(s) = t.toleration_seconds {
            if s <= 0 {
                return Some(0);
            }
            min = Some(min.map_or(s, |m| m.min(s)));
        }
    }
    min
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
    work: BTreeMap<String, Work>,
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
    fn cancel(&mut self, ctx: &mut Ctx, key: &str) {
        if self.work.remove(key).is_some() {
            let (ns, name) = key.split_once('/').unwrap_or(("", key));
            let o = ctx
                .store()
                .get::<Pod>(ns, name)
                .map(|p| p.clone().into_object())
                .unwrap_or_else(|| pod_ref(key));
            ctx.event(
                &o,
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
        let Some(min) = min_toleration_seconds(&used) else {
            self.cancel(ctx, key);
            return Ok(());
        };
        let mut start = now;
        let trigger = now + crate::api::Duration::from_secs(min);
        if let Some(w) = self.work.get(key) {
            start = w.created;
            if start + crate::api::Duration::from_secs(min) < trigger {
                return Ok(());
            }
            self.cancel(ctx, key);
        }
        self.add_work(
            ctx,
            key,
            start,
            start + crate::api::Duration::from_secs(min),
        )
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
        self.work.insert(key.to_string(), Work { created, fire_at });
        ctx.requeue_after(&format!("fire:{key}"), fire_at - now);
        Ok(())
    }

    /// `deletePodHandler` → `addConditionAndDeletePod`.
    fn fire(&mut self, ctx: &mut Ctx, key: &str) -> Result<(), ApiError> {
        self.work.remove(key);
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(pod) = ctx.store().get_shared::<Pod>(ns, name) else {
            return Ok(());
        };
        ctx.event(
            &*pod,
            "Normal",
            "TaintManagerEviction",
            &format!("Marking for deletion Pod {key}"),
        );
        let mut p = Pod::clone(&pod);
        p.set_condition(
            "DisruptionTarget",
            "True",
            "DeletionByTaintManager",
            "Taint manager: deleting due to NoExecute taint",
            ctx.now(),
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
                queue.add(&format!("node:{name}"));
            }
            // PodUpdated: only a change of tolerations or node matters.
            (Some(Object::Pod(o)), Some(Object::Pod(n)))
                if o.spec.tolerations != n.spec.tolerations
                    || o.spec.node_name != n.spec.node_name =>
            {
                queue.add(&format!("pod:{}", n.metadata.key()));
            }
            (Some(Object::Pod(_)), Some(Object::Pod(_))) => {}
            (_, Some(Object::Pod(p))) | (Some(Object::Pod(p)), None) => {
                queue.add(&format!("pod:{}", p.metadata.key()));
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
            queue.add(&format!("node:{}", n.metadata.name));
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

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
}
