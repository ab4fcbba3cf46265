//! Fidelity audit of the DaemonSet controller against `pkg/controller/daemon` (1.35): edge
//! cases hand-derived from upstream's `updateDaemonSetStatus`, `podsShouldBeOnNode`,
//! `NodeShouldRunDaemonPod`, `rollingUpdate` and `util.UnavailableCount` / `SurgeCount`.

use super::daemon_controller::*;
use super::util::*;
use crate::api::{DaemonSet, IntOrString, Node, Object, Pod, Time};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;
use serde_json::json;

const T0: i64 = 1_735_689_600;

fn daemon_set(strategy: serde_json::Value) -> DaemonSet {
    let mut ds: DaemonSet = serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "foo", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"app": "d"}},
            "updateStrategy": strategy,
            "template": {
                "metadata": {"labels": {"app": "d"}},
                "spec": {"containers": [{"name": "c", "image": "img:1"}]}
            }
        }
    }))
    .unwrap();
    crate::api::sts_ds_defaults::set_defaults_daemon_set(&mut ds);
    ds
}

fn node(name: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.status.conditions = vec![crate::api::NodeCondition {
        type_: "Ready".into(),
        status: "True".into(),
        ..Default::default()
    }];
    n
}

struct H {
    sim: Simulation,
}

impl H {
    fn new(n: usize, ds: DaemonSet) -> Self {
        let mut sim = Simulation::new(
            1,
            Time::from_unix_secs(T0),
            FeatureGates::default(),
            World::default(),
        );
        for i in 0..n {
            sim.api
                .load(Object::Node(node(&format!("node-{i}"))))
                .unwrap();
        }
        sim.add_loop(Box::new(DaemonSetsController::new()));
        sim.api.create(Object::DaemonSet(ds)).unwrap();
        sim.settle().unwrap();
        H { sim }
    }
    fn ds(&self) -> DaemonSet {
        self.sim
            .api
            .store
            .get::<DaemonSet>("default", "foo")
            .cloned()
            .unwrap()
    }
    fn pods(&self) -> Vec<Pod> {
        self.sim
            .api
            .store
            .list::<Pod>(Some("default"))
            .cloned()
            .collect()
    }
    fn live(&self) -> Vec<Pod> {
        self.pods()
            .into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect()
    }
    fn all_ready(&mut self) {
        for p in self.live() {
            if p.spec.node_name.is_empty() {
                let n = get_target_node_name(&p).unwrap();
                self.sim
                    .api
                    .bind("default", &p.metadata.name, &p.metadata.uid, &n)
                    .unwrap();
            }
            let mut p = self
                .sim
                .api
                .store
                .get::<Pod>("default", &p.metadata.name)
                .cloned()
                .unwrap();
            p.status.phase = "Running".into();
            let now = self.sim.now();
            p.set_condition("Ready", "True", "", "", now);
            self.sim.api.update_status(Object::Pod(p)).unwrap();
            self.sim.settle().unwrap();
        }
    }
    fn update_node(&mut self, name: &str, f: impl FnOnce(&mut Node)) {
        let mut n = self.sim.api.store.get::<Node>("", name).cloned().unwrap();
        f(&mut n);
        n.metadata.resource_version.clear();
        self.sim.api.update(Object::Node(n)).unwrap();
        self.sim.settle().unwrap();
    }
    fn new_template(&mut self) {
        let mut d = self.ds();
        d.spec.template_mut().spec_mut().containers[0].image = "img:2".into();
        d.metadata.resource_version.clear();
        self.sim.api.update(Object::DaemonSet(d)).unwrap();
        self.sim.settle().unwrap();
    }
}

fn taint(key: &str, effect: &str) -> crate::api::Taint {
    serde_json::from_value(json!({"key": key, "effect": effect})).unwrap()
}

// updateDaemonSetStatus: a node whose untolerated taint is only NoSchedule keeps its daemon pod
// (shouldContinueRunning) but no longer wants one (shouldRun false), so the pod counts as
// misscheduled and the node leaves desired/current/ready/updated.
#[test]
fn no_schedule_taint_keeps_the_pod_and_counts_it_misscheduled() {
    let mut h = H::new(2, daemon_set(json!({"type": "RollingUpdate"})));
    h.all_ready();
    let st = h.ds().status;
    assert_eq!((st.desired_number_scheduled, st.number_ready), (2, 2));
    h.update_node("node-1", |n| {
        n.spec.taints = vec![taint("dedicated", "NoSchedule")]
    });
    assert_eq!(
        h.live().len(),
        2,
        "NoSchedule alone does not evict the daemon pod"
    );
    let st = h.ds().status;
    assert_eq!(st.desired_number_scheduled, 1);
    assert_eq!(st.current_number_scheduled, 1);
    assert_eq!(st.number_misscheduled, 1);
    assert_eq!(st.number_ready, 1);
    assert_eq!(st.updated_number_scheduled, 1);
    assert_eq!(st.number_available, 1);
    assert_eq!(st.number_unavailable, 0);
    // NoExecute: shouldContinueRunning is false too, so the pod is deleted.
    h.update_node("node-1", |n| {
        n.spec.taints = vec![taint("dedicated", "NoExecute")]
    });
    assert_eq!(h.live().len(), 1);
}

// The daemon tolerations cover not-ready/unreachable NoExecute and unschedulable NoSchedule:
// such nodes still want (and keep) a daemon pod, and `spec.unschedulable` is not a predicate.
#[test]
fn not_ready_and_unschedulable_nodes_still_run_daemon_pods() {
    let mut h = H::new(3, daemon_set(json!({"type": "RollingUpdate"})));
    h.all_ready();
    h.update_node("node-0", |n| {
        n.spec.taints = vec![taint("node.kubernetes.io/not-ready", "NoExecute")]
    });
    h.update_node("node-1", |n| {
        n.spec.unschedulable = true;
        n.spec.taints = vec![taint("node.kubernetes.io/unschedulable", "NoSchedule")];
    });
    h.update_node("node-2", |n| {
        n.spec.taints = vec![taint("node.kubernetes.io/unreachable", "NoExecute")]
    });
    assert_eq!(h.live().len(), 3);
    let st = h.ds().status;
    assert_eq!(
        (st.desired_number_scheduled, st.number_misscheduled),
        (3, 0)
    );
}

// util.UnavailableCount rounds a percentage UP (GetScaledValueFromIntOrPercent(..., true)):
// 34% of 3 nodes is ceil(1.02) = 2, so the first rolling-update pass deletes two old pods.
#[test]
fn max_unavailable_percentage_rounds_up() {
    let ds =
        daemon_set(json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "34%"}}));
    assert_eq!(unavailable_count(&ds, 3), Ok(2));
    assert_eq!(unavailable_count(&ds, 0), Ok(0));
    let mut h = H::new(3, ds);
    h.all_ready();
    h.new_template();
    // Two old pods deleted at once. Without surge, a node whose only pod is terminating gets
    // no replacement until that pod is gone (podsShouldBeOnNode: the node "exists" in
    // nodeToDaemonPods, and no running pod is left to prune or keep).
    assert_eq!(h.live().len(), 1, "two of three old pods deleted at once");
    assert_eq!(
        h.pods().len(),
        3,
        "the two deleted pods are still terminating"
    );
}

// util.SurgeCount rounds up too: 1% of 3 nodes is one surge pod; maxUnavailable 0.
#[test]
fn max_surge_percentage_rounds_up() {
    let ds = daemon_set(json!({"type": "RollingUpdate",
        "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "1%"}}));
    assert_eq!(surge_count(&ds, 3), Ok(1));
    assert!(allows_surge(&ds));
    let mut h = H::new(3, ds);
    h.all_ready();
    h.new_template();
    assert_eq!(h.live().len(), 4, "exactly one surge pod");
    assert_eq!(
        h.pods().len(),
        4,
        "no old pod deleted before its replacement is available"
    );
}

// With both limits zero (an impossible configuration the API server rejects),
// updatedDesiredNodeCounts falls back to maxUnavailable 1 — but only when some node wants a pod.
#[test]
fn zero_surge_and_zero_unavailable_defaults_to_one_unavailable() {
    let mut ds = daemon_set(json!({"type": "RollingUpdate"}));
    let ru = ds
        .spec
        .update_strategy
        .rolling_update
        .get_or_insert_with(Default::default);
    ru.max_unavailable = Some(IntOrString::Int(0));
    ru.max_surge = Some(IntOrString::Int(0));
    let nodes = vec![node("node-0"), node("node-1")];
    let mut m = std::collections::BTreeMap::new();
    let got = DaemonSetsController::updated_desired_node_counts(&ds, &nodes, &mut m);
    assert_eq!(got, Ok((0, 1, 2)));
    assert_eq!(m.len(), 2, "an empty entry per wanted node");
    let mut m = std::collections::BTreeMap::new();
    let got = DaemonSetsController::updated_desired_node_counts(&ds, &[], &mut m);
    assert_eq!(got, Ok((0, 0, 0)));
}

// A bound daemon pod on a node that no longer exists: no node reports it, so it is in no
// counter, and only unscheduled pods of vanished nodes are deleted (getUnscheduledPodsWithoutNode);
// the bound one is left to the pod GC.
#[test]
fn bound_pod_on_a_deleted_node_is_left_to_the_pod_gc() {
    let mut h = H::new(2, daemon_set(json!({"type": "RollingUpdate"})));
    h.all_ready();
    h.sim
        .api
        .delete("Node", "", "node-1", &Default::default())
        .unwrap();
    // The node deletion wakes no DaemonSet upstream (no deleteNode handler); any DaemonSet
    // update does.
    let mut d = h.ds();
    d.metadata.annotations.insert("poke".into(), "1".into());
    d.metadata.resource_version.clear();
    h.sim.api.update(Object::DaemonSet(d)).unwrap();
    h.sim.settle().unwrap();
    assert_eq!(h.live().len(), 2, "the bound pod stays");
    let st = h.ds().status;
    assert_eq!(st.desired_number_scheduled, 1);
    assert_eq!(st.current_number_scheduled, 1);
    assert_eq!(st.number_misscheduled, 0);
}

// updateDaemonSetStatus looks only at the OLDEST pod of a node (podByCreationTimestampAndPhase):
// while a surge pod runs next to the old one, the node is current and ready through the old pod
// but not updated.
#[test]
fn surge_node_counts_its_oldest_pod() {
    let ds = daemon_set(json!({"type": "RollingUpdate",
        "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}));
    let mut h = H::new(1, ds);
    h.all_ready();
    h.sim.run_for(crate::api::Duration::from_secs(5)).unwrap();
    h.new_template();
    assert_eq!(h.live().len(), 2, "the surge pod next to the old one");
    let st = h.ds().status;
    assert_eq!(st.desired_number_scheduled, 1);
    assert_eq!(st.current_number_scheduled, 1);
    assert_eq!(st.number_ready, 1);
    assert_eq!(st.updated_number_scheduled, 0);
    assert_eq!(st.number_misscheduled, 0);
}
