//! Ports of upstream's node lifecycle controller tests
//! (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go), run on the simulation with
//! only the node lifecycle controller registered.
//!
//! Heartbeats and leases are not simulated: a node whose kubelet stopped posting status is a
//! node marked down in the World (`TimelineAction::NodeFail`), and its grace period counts from
//! that moment. Upstream's tests use an eviction QPS of 100000; ours is the default 0.1 node/s
//! per zone (burst 1), so a second node of a zone is tainted 10 s after the first.
//!
//! Not ported:
//! - TestPodStatusChange: its check is the pod status written by `controllerutil.DeletePods`,
//!   which the test itself calls from the tainter's `Try` (the pre-taint-manager eviction path);
//!   here pods on tainted nodes are evicted by the taint eviction controller.
//! - TestApplyNoExecuteTaintsToUnreachableNode: the stored copy of the test file calls the
//!   controller constructor with one argument fewer than its other tests, and expects the
//!   unreachable NoExecute taint in the very pass that turns Ready=True into Unknown; upstream's
//!   monitorNodeHealth (every stored version) hands the *observed* (pre-update, True) condition
//!   to processTaintBaseEviction, so that taint comes one pass later, as it does here.
//! - TestMonitorNodeHealthMarkPodsNotReadyRetry's two retry rows: they inject client errors,
//!   which the simulated API server cannot.

use super::*;
use crate::features::FeatureGates;
use crate::sim::{Simulation, TimelineAction};
use crate::world::World;
use serde_json::{json, Value};

struct Harness {
    sim: Simulation,
    start: Time,
}

fn ts(t: &str) -> Time {
    Time::parse_rfc3339(t).unwrap()
}

fn zone_labels(region: &str, zone: &str) -> Value {
    json!({
        "topology.kubernetes.io/region": region,
        "topology.kubernetes.io/zone": zone,
        "failure-domain.beta.kubernetes.io/region": region,
        "failure-domain.beta.kubernetes.io/zone": zone,
    })
}

/// A Ready condition as upstream writes them (heartbeat and transition at `at`).
fn ready(status: &str, at: &str) -> Value {
    json!({"type": "Ready", "status": status, "lastHeartbeatTime": at, "lastTransitionTime": at})
}

fn node(name: &str, created: &str, labels: Value, conditions: Vec<Value>) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "creationTimestamp": created, "labels": labels},
        "status": {"conditions": conditions}
    })
}

/// `testutil.NewPod(name, host)`: assigned to `host`, Ready=True.
fn new_pod(name: &str, host: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"nodeName": host, "containers": [{"name": "c", "image": "nginx"}]},
        "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}
    })
}

impl Harness {
    fn new(start: &str) -> Self {
        let start = ts(start);
        let mut sim = Simulation::new(1, start, FeatureGates::default(), World::default());
        sim.add_loop(new_node_lifecycle_controller());
        Harness { sim, start }
    }

    fn at(&self, secs: i64) -> Time {
        self.start + Duration::from_secs(secs)
    }

    fn load(&mut self, v: Value) {
        self.sim.api.load(Object::from_value(v).unwrap()).unwrap();
        self.sim.settle().unwrap();
    }

    /// Loads objects together, then lets the controller see them (upstream's syncNodeStore
    /// before a pass: the first pass sees every node).
    fn load_all(&mut self, vs: Vec<Value>) {
        for v in vs {
            self.sim.api.load(Object::from_value(v).unwrap()).unwrap();
        }
        self.sim.settle().unwrap();
    }

    fn node(&self, name: &str) -> Node {
        self.sim.api.store.get::<Node>("", name).cloned().unwrap()
    }

    fn pod(&self, name: &str) -> Pod {
        self.sim
            .api
            .store
            .get::<Pod>("default", name)
            .cloned()
            .unwrap()
    }

    /// Replaces a node's status conditions (the kubelet's, or upstream's `UpdateStatus`).
    fn set_conditions(&mut self, name: &str, conditions: Vec<Value>) {
        let mut n = self.node(name);
        n.status.conditions = conditions
            .into_iter()
            .map(|c| serde_json::from_value(c).unwrap())
            .collect();
        self.sim.api.update_status(n.into_object()).unwrap();
        self.sim.settle().unwrap();
    }

    fn fail(&mut self, name: &str) {
        self.sim.apply_action(TimelineAction::NodeFail(name.into()));
        self.sim.settle().unwrap();
    }

    fn run_until_secs(&mut self, secs: i64) {
        let t = self.at(secs);
        self.sim.run_until(t).unwrap();
    }

    fn controller(&self) -> &NodeLifecycleController {
        self.sim.controller::<NodeLifecycleController>().unwrap()
    }

    fn zone_states(&self) -> BTreeMap<String, ZoneState> {
        self.controller().zone_states.clone()
    }

    /// Status updates of objects of a kind (`update` of the `status` subresource).
    fn status_updates(&self, kind: &str) -> usize {
        self.sim
            .actions
            .iter()
            .filter(|a| a.verb == "update-status" && a.kind == kind)
            .count()
    }

    /// `key:effect` of a node's taints.
    fn taints(&self, name: &str) -> Vec<String> {
        self.node(name)
            .spec
            .taints
            .iter()
            .map(|t| format!("{}:{}", t.key, t.effect))
            .collect()
    }
}

fn zone(region: &str, zone: &str) -> String {
    format!("{region}:\x00:{zone}")
}

// Port of TestMonitorNodeHealth (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go):
// zone states after a first pass over the nodes and after every node's status is replaced.
// Rows: (name, nodes as (name, region/zone or none, Ready status or none, excluded from
// disruption), new Ready status per node (None: no conditions), initial states, following
// states). Upstream's second pass is 60 min later; here the replaced statuses are seen by the
// monitor pass 5 s after the change, and the states are read after the same 60 min.
#[test]
fn monitor_node_health_zone_states() {
    const H: &str = "True";
    const U: &str = "Unknown";
    type NodeRow = (
        &'static str,
        Option<(&'static str, &'static str)>,
        Option<&'static str>,
        bool,
    );
    type Row = (
        &'static str,
        Vec<NodeRow>,
        Vec<Option<&'static str>>,
        Vec<(String, ZoneState)>,
        Vec<(String, ZoneState)>,
    );
    use ZoneState::*;
    let z1 = || Some(("region1", "zone1"));
    let rows: Vec<Row> = vec![
        (
            "No Disruption: Node created recently without failure domain labels (happens only at cluster startup)",
            vec![("node0", None, Some(H), false)],
            vec![Some(H)],
            vec![(String::new(), Normal)],
            vec![(String::new(), Normal)],
        ),
        (
            "No Disruption: Initially both zones down, one comes back",
            vec![
                ("node0", z1(), Some(U), false),
                ("node1", Some(("region1", "zone2")), Some(U), false),
            ],
            vec![Some(U), Some(H)],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), FullDisruption),
            ],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), Normal),
            ],
        ),
        (
            "Partial Disruption: Nodes created recently without status conditions (happens only at cluster startup)",
            vec![
                ("node0", z1(), None, false),
                ("node1", z1(), None, false),
                ("node2", z1(), None, false),
                ("node3", z1(), None, false),
            ],
            vec![Some(U), Some(U), Some(U), Some(H)],
            vec![(zone("region1", "zone1"), FullDisruption)],
            vec![(zone("region1", "zone1"), PartialDisruption)],
        ),
        (
            "Partial Disruption: one Node failed leading to the number of healthy Nodes to exceed the configured threshold",
            vec![
                ("node0", z1(), Some(U), false),
                ("node1", z1(), Some(U), false),
                ("node2", z1(), Some(H), false),
                ("node3", z1(), Some(H), false),
                ("node4", z1(), Some(H), false),
            ],
            vec![Some(U), Some(U), Some(U), Some(H), Some(H)],
            vec![(zone("region1", "zone1"), Normal)],
            vec![(zone("region1", "zone1"), PartialDisruption)],
        ),
        (
            "Full Disruption: the zone has less than 2 Nodes down, the last healthy Node has failed",
            vec![
                ("node0", z1(), Some(U), false),
                ("node1", z1(), Some(U), false),
                ("node2", z1(), Some(H), false),
            ],
            vec![Some(U), Some(U), Some(U)],
            vec![(zone("region1", "zone1"), Normal)],
            vec![(zone("region1", "zone1"), FullDisruption)],
        ),
        (
            "Full Disruption: all the Nodes in one zone are down",
            vec![
                ("node0", z1(), Some(U), false),
                ("node1", Some(("region1", "zone2")), Some(H), false),
            ],
            vec![Some(U), Some(H)],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), Normal),
            ],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), Normal),
            ],
        ),
        (
            "Full Disruption: all the Nodes in both the zones are down",
            vec![
                ("node0", z1(), Some(U), false),
                ("node1", Some(("region2", "zone2")), Some(U), false),
            ],
            vec![Some(U), Some(U)],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region2", "zone2"), FullDisruption),
            ],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region2", "zone2"), FullDisruption),
            ],
        ),
        (
            "Full Disruption: Ready condition removed from the Node",
            vec![("node0", z1(), Some(H), false)],
            vec![None],
            vec![(zone("region1", "zone1"), Normal)],
            vec![(zone("region1", "zone1"), FullDisruption)],
        ),
        (
            "Full Disruption: the only available Node has the node.kubernetes.io/exclude-disruption label",
            vec![
                ("node0", z1(), Some(U), false),
                ("node-master", z1(), Some(H), true),
            ],
            vec![Some(U), Some(H)],
            vec![(zone("region1", "zone1"), FullDisruption)],
            vec![(zone("region1", "zone1"), FullDisruption)],
        ),
    ];
    let fake_now = "2015-01-01T12:00:00Z";
    for (name, nodes, updated, initial, following) in rows {
        let mut h = Harness::new(fake_now);
        let mut objs = vec![];
        for (n, z, status, excluded) in &nodes {
            let mut labels = match z {
                Some((r, z)) => zone_labels(r, z),
                None => json!({}),
            };
            if *excluded {
                labels[LABEL_EXCLUDE_DISRUPTION] = json!("");
            }
            let conds = status.map(|s| vec![ready(s, fake_now)]).unwrap_or_default();
            objs.push(node(n, fake_now, labels, conds));
        }
        h.load_all(objs);
        let want: BTreeMap<String, ZoneState> = initial.into_iter().collect();
        assert_eq!(h.zone_states(), want, "{name}: initial");
        for ((n, ..), status) in nodes.iter().zip(&updated) {
            let conds = status.map(|s| vec![ready(s, fake_now)]).unwrap_or_default();
            h.set_conditions(n, conds);
        }
        h.run_until_secs(3600);
        let want: BTreeMap<String, ZoneState> = following.into_iter().collect();
        assert_eq!(h.zone_states(), want, "{name}: following");
    }
}

/// A condition the controller writes for a type the kubelet never posted.
fn never_updated(type_: &str, created: Time, now: Time) -> NodeCondition {
    NodeCondition {
        type_: type_.into(),
        status: "Unknown".into(),
        last_heartbeat_time: Some(created),
        last_transition_time: Some(now),
        reason: "NodeStatusNeverUpdated".into(),
        message: "Kubelet never posted node status.".into(),
    }
}

// Port of TestMonitorNodeHealthUpdateStatus
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go). "Kubelet stopped posting"
// is the node marked down at fakeNow; upstream notices at its next pass (fakeNow, or fakeNow +
// 1 h), here the conditions turn Unknown at the end of the 50 s grace period, so the expected
// lastTransitionTime is fakeNow + 50 s. Upstream's request counts (List + Update) become one
// node status update.
#[test]
fn monitor_node_health_update_status() {
    let fake_now = "2015-01-01T12:00:00Z";
    let created_long_ago = "2012-01-01T00:00:00Z";
    let capacity = json!({"cpu": "10", "memory": "10G"});

    // Node created long time ago, without status: Unknown status posted from node controller,
    // every condition "never updated"; no pod status update (the pod's node was never Ready).
    let mut h = Harness::new(fake_now);
    h.load(node("node0", created_long_ago, json!({}), vec![]));
    h.load(new_pod("pod0", "node0"));
    h.fail("node0");
    h.run_until_secs(3600);
    // Its probe is its creation (tryUpdateNodeHealth's fake Ready condition), long past: the
    // conditions are posted at fakeNow, as upstream expects.
    let (created, noticed) = (ts(created_long_ago), h.at(50));
    let want: Vec<NodeCondition> = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"]
        .iter()
        .map(|t| never_updated(t, created, h.at(0)))
        .collect();
    assert_eq!(h.node("node0").status.conditions, want, "row 1");
    assert_eq!(h.status_updates("Node"), 1, "row 1");
    assert_eq!(h.status_updates("Pod"), 0, "row 1: pod was never scheduled");

    // Node created recently, without status: no action within the grace period.
    let mut h = Harness::new(fake_now);
    h.load(node("node0", fake_now, json!({}), vec![]));
    h.load(new_pod("pod0", "node0"));
    h.fail("node0");
    h.run_until_secs(49);
    assert!(h.node("node0").status.conditions.is_empty(), "row 2");
    assert_eq!(h.status_updates("Node"), 0, "row 2");
    assert_eq!(h.status_updates("Pod"), 0, "row 2");

    // Node created long time ago, with status updated by kubelet exceeds grace period: Ready
    // becomes Unknown ("stopped posting", heartbeat kept), the other conditions are added as
    // never updated with the node's creation time as heartbeat; capacity untouched; the pod's
    // status is updated.
    let mut h = Harness::new(fake_now);
    let mut n = node(
        "node0",
        created_long_ago,
        json!({}),
        vec![ready("True", fake_now)],
    );
    n["status"]["capacity"] = capacity.clone();
    h.load(n);
    h.load(new_pod("pod0", "node0"));
    let capacity_before = h.node("node0").status.capacity.clone();
    h.fail("node0");
    h.run_until_secs(3600);
    let mut want = vec![NodeCondition {
        type_: "Ready".into(),
        status: "Unknown".into(),
        last_heartbeat_time: Some(ts(fake_now)),
        last_transition_time: Some(noticed),
        reason: "NodeStatusUnknown".into(),
        message: "Kubelet stopped posting node status.".into(),
    }];
    for t in ["MemoryPressure", "DiskPressure", "PIDPressure"] {
        want.push(never_updated(t, created, noticed));
    }
    let got = h.node("node0");
    assert_eq!(got.status.conditions, want, "row 3");
    assert_eq!(got.status.capacity, capacity_before, "row 3");
    assert_eq!(h.status_updates("Node"), 1, "row 3");
    assert_eq!(h.status_updates("Pod"), 1, "row 3");

    // Node created long time ago, with status updated recently: no action.
    let mut h = Harness::new(fake_now);
    let mut n = node(
        "node0",
        created_long_ago,
        json!({}),
        vec![ready("True", fake_now)],
    );
    n["status"]["capacity"] = capacity;
    h.load(n);
    h.load(new_pod("pod0", "node0"));
    let before = h.node("node0").status;
    h.run_until_secs(3600);
    assert_eq!(h.node("node0").status, before, "row 4");
    assert_eq!(h.status_updates("Node"), 0, "row 4");
    assert_eq!(h.status_updates("Pod"), 0, "row 4");
}

// Port of TestMonitorNodeHealthMarkPodsNotReady
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go). Rows: (description, Ready
// condition or none, node created long ago, kubelet stops posting, expected pod status update).
// Upstream's second pass is 1 min later; here the run lasts 1 min too.
#[test]
fn monitor_node_health_mark_pods_not_ready() {
    let fake_now = "2015-01-01T12:00:00Z";
    let rows = [
        (
            "Node created recently, without status: no action (within startup grace period)",
            false,
            false,
            false,
            false,
        ),
        (
            "Node created long time ago, with status updated recently: no action",
            true,
            true,
            false,
            false,
        ),
        (
            "Node created long time ago, with status updated by kubelet exceeds grace period",
            true,
            true,
            true,
            true,
        ),
    ];
    for (desc, has_ready, old, stops, want) in rows {
        let mut h = Harness::new(fake_now);
        let created = if old {
            "2012-01-01T00:00:00Z"
        } else {
            fake_now
        };
        let conds = if has_ready {
            vec![ready("True", fake_now)]
        } else {
            vec![]
        };
        h.load(node("node0", created, json!({}), conds));
        h.load(new_pod("pod0", "node0"));
        if stops {
            h.fail("node0");
        }
        h.run_until_secs(60);
        assert_eq!(h.status_updates("Pod") > 0, want, "{desc}");
        if want {
            let p = h.pod("pod0");
            assert_eq!(p.condition("Ready").unwrap().status, "False", "{desc}");
        }
    }
}

// Port of TestMonitorNodeHealthMarkPodsNotReadyWithWorkerSize
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): 50 nodes with 100 pods
// each stop posting status; every pod's status is updated once. Upstream's two rows (0 and 1
// update workers) are one case here: pods are updated serially, there are no workers.
#[test]
fn monitor_node_health_mark_pods_not_ready_with_worker_size() {
    const NUM_NODES: usize = 50;
    const PODS_PER_NODE: usize = 100;
    let fake_now = "2015-01-01T12:00:00Z";
    let mut h = Harness::new(fake_now);
    for i in 0..NUM_NODES {
        h.sim
            .api
            .load(
                Object::from_value(node(
                    &format!("node{i}"),
                    "2012-01-01T00:00:00Z",
                    json!({}),
                    vec![ready("True", fake_now)],
                ))
                .unwrap(),
            )
            .unwrap();
    }
    for i in 0..NUM_NODES * PODS_PER_NODE {
        let p = new_pod(&format!("pod{i}"), &format!("node{}", i % NUM_NODES));
        h.sim.api.load(Object::from_value(p).unwrap()).unwrap();
    }
    h.sim.settle().unwrap();
    for i in 0..NUM_NODES {
        h.fail(&format!("node{i}"));
    }
    h.run_until_secs(60);
    assert_eq!(h.status_updates("Pod"), NUM_NODES * PODS_PER_NODE);
}

// Port of TestProcessPodMarkPodNotReady
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go). Rows: (description, node
// Ready status, node health gathered before the pod arrives, expected pod status update). The
// simulation runs a node's first monitor pass as soon as the node is created, so "health not
// gathered yet" is the pod arriving before its node (processPod skips nodes the controller has
// not seen; the node's first pass observes no Ready -> NotReady transition).
#[test]
fn process_pod_mark_pod_not_ready() {
    let fake_now = "2015-01-01T12:00:00Z";
    let rows = [
        (
            "Do not mark pod as NotReady when the scheduled node's healthy is not gathered yet",
            "False",
            false,
            false,
        ),
        (
            "Do not mark pod as NotReady when the scheduled node is ready",
            "True",
            true,
            false,
        ),
        (
            "Pod marked as NotReady when the scheduled node is not ready",
            "False",
            true,
            true,
        ),
    ];
    for (desc, status, monitored, want) in rows {
        let mut h = Harness::new(fake_now);
        let n = node("node0", fake_now, json!({}), vec![ready(status, fake_now)]);
        if monitored {
            h.load(n);
            h.load(new_pod("pod0", "node0"));
        } else {
            h.load(new_pod("pod0", "node0"));
            h.load(n);
        }
        assert_eq!(h.status_updates("Pod") > 0, want, "{desc}");
        let ready = h.pod("pod0").condition("Ready").unwrap().status.clone();
        assert_eq!(ready, if want { "False" } else { "True" }, "{desc}");
    }
}

// Port of TestNodeEventGeneration
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): the first pass over a node
// whose Ready is already Unknown records exactly one event, RegisteredNode, on the node's uid.
#[test]
fn node_event_generation() {
    let mut h = Harness::new("2016-09-10T12:00:00Z");
    let mut n = node(
        "node0",
        "2015-08-10T00:00:00Z",
        json!({}),
        vec![ready("Unknown", "2015-08-10T00:00:00Z")],
    );
    n["metadata"]["uid"] = json!("1234567890");
    // Upstream's test never feeds pod0 to the pod informer, so processPod does not run for it;
    // here pod0 arrives before its node, when processPod skips it (node not seen yet).
    h.load(new_pod("pod0", "node0"));
    h.load(n);
    let events: Vec<_> = h.sim.api.events.iter().collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].reason, "RegisteredNode");
    assert_eq!(events[0].uid, "1234567890");
}

// Port of TestTaintsNodeByCondition
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): doNoScheduleTaintingPass
// after each update of node0. Rows: (name, conditions, expected NoSchedule taints). The
// controller's NoExecute taints come from the monitor pass 5 s after a Ready change; they are
// not part of upstream's check, which runs only the NoSchedule pass, so no time passes here.
#[test]
fn taints_node_by_condition() {
    let t = "2015-01-01T12:00:00Z";
    let network = json!({"type": "NetworkUnavailable", "status": "True",
        "lastHeartbeatTime": t, "lastTransitionTime": t});
    let rows = [
        (
            "NetworkUnavailable is true",
            vec![ready("True", t), network.clone()],
            vec!["node.kubernetes.io/network-unavailable:NoSchedule"],
        ),
        (
            "NetworkUnavailable is true",
            vec![ready("True", t), network],
            vec!["node.kubernetes.io/network-unavailable:NoSchedule"],
        ),
        (
            "Ready is false",
            vec![ready("False", t)],
            vec!["node.kubernetes.io/not-ready:NoSchedule"],
        ),
        (
            "Ready is unknown",
            vec![ready("Unknown", t)],
            vec!["node.kubernetes.io/unreachable:NoSchedule"],
        ),
    ];
    let mut h = Harness::new("2017-01-01T12:00:00Z");
    h.load(node(
        "node0",
        "2012-01-01T00:00:00Z",
        zone_labels("region1", "zone1"),
        vec![ready("True", t)],
    ));
    h.load(new_pod("pod0", "node0"));
    for (name, conds, want) in rows {
        h.set_conditions("node0", conds);
        assert_eq!(h.taints("node0"), want, "{name}");
    }
}

const NOT_READY_NO_EXECUTE: &str = "node.kubernetes.io/not-ready:NoExecute";
const UNREACHABLE_NO_EXECUTE: &str = "node.kubernetes.io/unreachable:NoExecute";

fn has(h: &Harness, node: &str, taint: &str) -> bool {
    h.taints(node).iter().any(|t| t == taint)
}

// Port of TestApplyNoExecuteTaints
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): node0 (Unknown) gets the
// unreachable NoExecute taint, node2 (NotReady) the not-ready one; node2 made healthy loses
// every taint; node3, made NotReady and then stripped of its Ready condition before the
// tainting pass picks it up, gets none. With 0.1 node/s instead of upstream's 100000, node2 is
// tainted at +10 s; node3, observed NotReady by the monitor pass at +15 s, waits for the next
// token (+20 s), and its status is replaced at +16 s.
#[test]
fn apply_no_execute_taints() {
    let z = || zone_labels("region1", "zone1");
    let old = "2012-01-01T00:00:00Z";
    let mut h = Harness::new("2017-01-01T12:00:00Z");
    h.load_all(vec![
        node(
            "node0",
            old,
            z(),
            vec![ready("Unknown", "2015-01-01T12:00:00Z")],
        ),
        node(
            "node1",
            old,
            z(),
            vec![ready("True", "2017-01-01T12:00:00Z")],
        ),
        node(
            "node2",
            old,
            z(),
            vec![ready("False", "2015-01-01T12:00:00Z")],
        ),
        node(
            "node3",
            old,
            z(),
            vec![ready("True", "2016-01-01T12:00:00Z")],
        ),
        new_pod("pod0", "node0"),
    ]);
    h.run_until_secs(10);
    assert!(
        has(&h, "node0", UNREACHABLE_NO_EXECUTE),
        "{:?}",
        h.taints("node0")
    );
    assert!(
        has(&h, "node2", NOT_READY_NO_EXECUTE),
        "{:?}",
        h.taints("node2")
    );

    // Make node2 healthy again.
    h.set_conditions(
        "node2",
        vec![json!({"type": "Ready", "status": "True",
            "lastHeartbeatTime": "2017-01-01T12:10:00Z",
            "lastTransitionTime": "2017-01-01T12:00:00Z"})],
    );
    h.set_conditions(
        "node3",
        vec![json!({"type": "Ready", "status": "False",
            "lastHeartbeatTime": "2017-01-01T12:10:00Z",
            "lastTransitionTime": "2017-01-01T12:00:00Z"})],
    );
    h.run_until_secs(15);
    assert!(h.taints("node2").is_empty(), "{:?}", h.taints("node2"));
    assert!(!has(&h, "node3", NOT_READY_NO_EXECUTE));
    // Before the tainting pass, node3's status is replaced.
    h.run_until_secs(16);
    h.set_conditions(
        "node3",
        vec![json!({"type": "MemoryPressure", "status": "Unknown",
            "lastHeartbeatTime": "2017-01-01T12:10:00Z",
            "lastTransitionTime": "2017-01-01T12:00:00Z"})],
    );
    h.run_until_secs(60);
    assert!(h.taints("node3").is_empty(), "{:?}", h.taints("node3"));
    assert!(h.taints("node2").is_empty(), "{:?}", h.taints("node2"));
}

// Port of TestApplyNoExecuteTaintsToNodesEnqueueTwice
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): node0 (Unknown) is queued
// for tainting and then becomes healthy; nodes added afterwards (node3 Unknown, node5
// NotReady) are still tainted. Upstream's two monitor passes at the same instant are one here
// (a node already queued is not queued again). With 0.1 node/s the queue drains one node every
// 10 s: node2 at +10 s, node3 at +20 s, node5 at +30 s.
#[test]
fn apply_no_execute_taints_to_nodes_enqueue_twice() {
    let z = || zone_labels("region1", "zone1");
    let old = "2012-01-01T00:00:00Z";
    let stale = "2015-01-01T12:00:00Z";
    let fresh = "2017-01-01T12:00:00Z";
    let mut h = Harness::new(fresh);
    h.load_all(vec![
        node("node0", old, z(), vec![ready("Unknown", stale)]),
        node("node1", old, z(), vec![ready("True", fresh)]),
        node("node2", old, z(), vec![ready("False", stale)]),
        new_pod("pod0", "node0"),
    ]);
    // Mark node0 healthy.
    h.run_until_secs(1);
    h.set_conditions(
        "node0",
        vec![json!({"type": "Ready", "status": "True",
            "lastHeartbeatTime": "2017-01-01T12:10:00Z", "lastTransitionTime": fresh})],
    );
    // Add other NotReady nodes.
    h.run_until_secs(2);
    h.load_all(vec![
        node("node3", old, z(), vec![ready("Unknown", stale)]),
        node("node4", old, z(), vec![ready("True", fresh)]),
        node("node5", old, z(), vec![ready("False", stale)]),
    ]);
    h.run_until_secs(30);
    assert!(
        has(&h, "node3", UNREACHABLE_NO_EXECUTE),
        "{:?}",
        h.taints("node3")
    );
    assert!(
        has(&h, "node5", NOT_READY_NO_EXECUTE),
        "{:?}",
        h.taints("node5")
    );
    assert!(!h.taints("node0").iter().any(|t| t.ends_with(":NoExecute")));
}

// Port of TestSwapUnreachableNotReadyTaints
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): node0, tainted unreachable
// while Unknown, turns NotReady; the next monitor pass swaps the taint for not-ready at once
// (no rate limiting). Here that pass is 5 s after the status change.
#[test]
fn swap_unreachable_not_ready_taints() {
    let z = || zone_labels("region1", "zone1");
    let old = "2012-01-01T00:00:00Z";
    let mut h = Harness::new("2017-01-01T12:00:00Z");
    h.load_all(vec![
        node(
            "node0",
            old,
            z(),
            vec![ready("Unknown", "2015-01-01T12:00:00Z")],
        ),
        node(
            "node1",
            old,
            z(),
            vec![ready("True", "2017-01-01T12:00:00Z")],
        ),
        new_pod("pod0", "node0"),
    ]);
    assert!(
        has(&h, "node0", UNREACHABLE_NO_EXECUTE),
        "{:?}",
        h.taints("node0")
    );
    h.run_until_secs(1);
    h.set_conditions(
        "node0",
        vec![json!({"type": "Ready", "status": "False",
            "lastHeartbeatTime": "2017-01-01T12:09:00Z",
            "lastTransitionTime": "2017-01-01T12:00:00Z"})],
    );
    h.set_conditions(
        "node1",
        vec![json!({"type": "Ready", "status": "True",
            "lastHeartbeatTime": "2017-01-01T12:10:00Z",
            "lastTransitionTime": "2017-01-01T12:00:00Z"})],
    );
    h.run_until_secs(6);
    assert!(
        has(&h, "node0", NOT_READY_NO_EXECUTE),
        "{:?}",
        h.taints("node0")
    );
    assert!(!has(&h, "node0", UNREACHABLE_NO_EXECUTE));
}

// From tryUpdateNodeHealth (pkg/controller/nodelifecycle/node_lifecycle_controller.go), with
// TestMonitorNodeHealthUpdateStatus's first row: a node that never posted status is observed
// with a fake Unknown Ready condition, so the pass that writes its Unknown conditions also
// queues it for the unreachable NoExecute taint (processTaintBaseEviction on the observed
// condition). node1 keeps the zone out of full disruption.
#[test]
fn never_posted_node_is_tainted_in_the_pass_that_marks_it_unknown() {
    let fake_now = "2015-01-01T12:00:00Z";
    let old = "2012-01-01T00:00:00Z";
    let mut h = Harness::new(fake_now);
    h.load_all(vec![
        node("node0", fake_now, json!({}), vec![]),
        node("node1", old, json!({}), vec![ready("True", fake_now)]),
    ]);
    h.fail("node0");
    // The startup grace period (60 s from its creation).
    h.run_until_secs(59);
    assert!(h.taints("node0").is_empty());
    h.run_until_secs(65);
    assert_eq!(
        h.node("node0").condition("Ready").unwrap().status,
        "Unknown"
    );
    assert!(
        has(&h, "node0", UNREACHABLE_NO_EXECUTE),
        "{:?}",
        h.taints("node0")
    );
    assert!(h.taints("node1").is_empty());
}

// Port of Test_isNodeExcludedFromDisruptionChecks
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go).
#[test]
fn is_node_excluded_from_disruption_checks_rows() {
    let mut plain = Node::default();
    plain.status.conditions.push(NodeCondition {
        type_: "Test".into(),
        ..Default::default()
    });
    let mut master = plain.clone();
    master.metadata.name = "master-abc".into();
    let mut labelled = plain.clone();
    labelled
        .metadata
        .labels
        .insert(LABEL_EXCLUDE_DISRUPTION.into(), String::new());
    for (n, want) in [(plain, false), (master, false), (labelled, true)] {
        assert_eq!(is_node_excluded_from_disruption_checks(&n), want, "{n:?}");
    }
}

// Port of TestMonitorNodeHealthMarkPodsNotReadyRetry
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go), row "successful pod status
// update, no retry required": node0 stops posting (Ready=True, heartbeat at timeNow), its pod
// is marked NotReady once, and the node's later NotReady status causes no second update. The
// rows "unsuccessful pod status update, retry required" and "unsuccessful pod list, retry
// required" inject client errors (a failing update reactor, a failing pod lister); the
// simulated API server has no error injection, so they are not ported.
#[test]
fn monitor_node_health_mark_pods_not_ready_retry() {
    let time_now = "2015-01-01T12:00:00Z";
    let mut h = Harness::new(time_now);
    h.load_all(vec![
        node("node0", time_now, json!({}), vec![ready("True", time_now)]),
        new_pod("pod0", "node0"),
    ]);
    h.fail("node0");
    h.run_until_secs(60);
    assert_eq!(h.status_updates("Pod"), 1);
    // The kubelet posts NotReady (timePlusTwoMinutes is 12:00:02).
    h.sim.world.nodes_down.remove("node0");
    h.set_conditions("node0", vec![ready("False", "2015-01-01T12:00:02Z")]);
    h.run_until_secs(120);
    assert_eq!(h.status_updates("Pod"), 1);
}

// Port of TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go). Leases are not simulated: a
// node whose lease is renewed, or whose kubelet posts fresh status, is a node that is up; a
// node whose lease is missing or expired and whose status is stale is a node marked down at
// fakeNow. Rows: (description, created recently, posted conditions (Ready, DiskPressure), down,
// seconds run, expect Unknown status posted, expect pod status update). Upstream's rows without
// timeToPass look at fakeNow only; "created long time ago ... lease is missing" expects the
// update at fakeNow (its startup grace, counted from its creation, long over), as here.
#[test]
fn monitor_node_health_update_node_and_pod_status_with_lease() {
    let fake_now = "2015-01-01T12:00:00Z";
    let created_long_ago = "2012-01-01T00:00:00Z";
    let ready_true = || ready("True", fake_now);
    let disk = || {
        json!({"type": "DiskPressure", "status": "False",
        "lastHeartbeatTime": fake_now, "lastTransitionTime": fake_now})
    };
    type Row = (&'static str, bool, Vec<Value>, bool, i64, bool, bool);
    let rows: Vec<Row> = vec![
        (
            "Node created recently, without status. Node lease is missing.",
            true,
            vec![],
            true,
            0,
            false,
            false,
        ),
        (
            "Node created recently, without status. Node lease is renewed recently.",
            true,
            vec![],
            false,
            0,
            false,
            false,
        ),
        (
            "Node created long time ago, without status. Node lease is missing.",
            false,
            vec![],
            true,
            60,
            true,
            false,
        ),
        (
            "Node created long time ago, without status. Node lease is renewed recently.",
            false,
            vec![],
            false,
            3600,
            false,
            false,
        ),
        (
            "Node created long time ago, without status. Node lease is expired.",
            false,
            vec![],
            true,
            3600,
            true,
            false,
        ),
        (
            "Node created long time ago, with status updated by kubelet exceeds grace period. Node lease is renewed.",
            false,
            vec![ready_true(), disk()],
            false,
            3600,
            false,
            false,
        ),
        (
            "Node created long time ago, with status updated by kubelet recently. Node lease is expired.",
            false,
            vec![ready_true(), disk()],
            false,
            3600,
            false,
            false,
        ),
        (
            "Node created long time ago, with status updated by kubelet exceeds grace period. Node lease is also expired.",
            false,
            vec![ready_true()],
            true,
            3600,
            true,
            true,
        ),
    ];
    for (desc, recent, conds, down, secs, want_unknown, want_pod) in rows {
        let created = if recent { fake_now } else { created_long_ago };
        let mut h = Harness::new(fake_now);
        let mut n = node("node0", created, json!({}), conds);
        n["status"]["capacity"] = json!({"cpu": "10", "memory": "10G"});
        h.load_all(vec![n, new_pod("pod0", "node0")]);
        let before = h.node("node0").status;
        if down {
            h.fail("node0");
        }
        h.run_until_secs(secs);
        let after = h.node("node0").status;
        if want_unknown {
            // A node that never posted Ready is probed from its creation (long ago).
            let never_posted = before.conditions.iter().all(|c| c.type_ != "Ready");
            let noticed = if never_posted { h.at(0) } else { h.at(50) };
            let want: Vec<NodeCondition> =
                ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"]
                    .iter()
                    .map(|t| match before.conditions.iter().find(|c| c.type_ == *t) {
                        Some(c) => NodeCondition {
                            status: "Unknown".into(),
                            reason: "NodeStatusUnknown".into(),
                            message: "Kubelet stopped posting node status.".into(),
                            last_transition_time: Some(noticed),
                            ..c.clone()
                        },
                        None => never_updated(t, ts(created), noticed),
                    })
                    .collect();
            assert_eq!(after.conditions, want, "{desc}");
            assert_eq!(after.capacity, before.capacity, "{desc}");
            assert_eq!(h.status_updates("Node"), 1, "{desc}");
        } else {
            assert_eq!(after, before, "{desc}");
            assert_eq!(h.status_updates("Node"), 0, "{desc}");
        }
        assert_eq!(h.status_updates("Pod") > 0, want_pod, "{desc}");
    }
}

// Port of TestReconcileNodeLabels
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go): after each update of
// node0 (labels replaced), the node processing pass leaves exactly the expected labels.
#[test]
fn reconcile_node_labels() {
    let rows = [
        ("No-op if node has no labels", json!({}), json!({})),
        (
            "No-op if no target labels present",
            json!({"topology.kubernetes.io/region": "region1"}),
            json!({"topology.kubernetes.io/region": "region1"}),
        ),
        (
            "Create OS/arch beta labels when they don't exist",
            json!({"kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}),
            json!({"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64",
                   "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}),
        ),
        (
            "Reconcile OS/arch beta labels to match stable labels",
            json!({"beta.kubernetes.io/os": "windows", "beta.kubernetes.io/arch": "arm",
                   "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}),
            json!({"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64",
                   "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}),
        ),
    ];
    let t = "2015-01-01T12:00:00Z";
    let mut h = Harness::new("2017-01-01T12:00:00Z");
    h.load_all(vec![
        node(
            "node0",
            "2012-01-01T00:00:00Z",
            zone_labels("region1", "zone1"),
            vec![ready("True", t)],
        ),
        new_pod("pod0", "node0"),
    ]);
    for (name, labels, want) in rows {
        let mut n = h.node("node0");
        n.metadata.labels = serde_json::from_value(labels).unwrap();
        h.sim.api.update(n.into_object()).unwrap();
        h.sim.settle().unwrap();
        let want: BTreeMap<String, String> = serde_json::from_value(want).unwrap();
        assert_eq!(h.node("node0").metadata.labels, want, "{name}");
    }
}

// Port of TestTryUpdateNodeHealth
// (pkg/controller/nodelifecycle/node_lifecycle_controller_test.go). Upstream checks that the
// Ready condition tryUpdateNodeHealth returns is the one it saved in nodeHealthMap; there is no
// such cache here (the stored node is the only copy), so each row checks the Ready status the
// pass leaves on the node. A probe timestamp of fakeNow is a node that is up; "after grace
// period" (probe a year old) is a node marked down, looked at once its grace period is over.
// Rows: (name, Ready status or none, after grace period, expected Ready status or none).
#[test]
fn try_update_node_health() {
    let fake_now = "2017-01-01T12:00:00Z";
    let fake_old = "2016-01-01T12:00:00Z";
    let rows = [
        ("Status true", Some("True"), false, Some("True")),
        ("Status false", Some("False"), false, Some("False")),
        ("Status unknown", Some("Unknown"), false, Some("Unknown")),
        ("Status nil", None, false, None),
        (
            "Status true - after grace period",
            Some("True"),
            true,
            Some("Unknown"),
        ),
        (
            "Status false - after grace period",
            Some("False"),
            true,
            Some("Unknown"),
        ),
        (
            "Status unknown - after grace period",
            Some("Unknown"),
            true,
            Some("Unknown"),
        ),
        (
            "Status nil - after grace period",
            None,
            true,
            Some("Unknown"),
        ),
    ];
    for (name, status, after_grace, want) in rows {
        let at = if after_grace { fake_old } else { fake_now };
        let conds = status.map(|s| vec![ready(s, at)]).unwrap_or_default();
        let mut h = Harness::new(fake_now);
        h.load_all(vec![
            node("node0", at, json!({}), conds),
            new_pod("pod0", "node0"),
        ]);
        if after_grace {
            h.fail("node0");
            h.run_until_secs(50);
        }
        let got = h.node("node0").condition("Ready").map(|c| c.status.clone());
        assert_eq!(got.as_deref(), want, "{name}");
    }
}

// Port of TestMonitorNodeHealthEvictPodsWithDisruption (older versions of
// pkg/controller/nodelifecycle/node_lifecycle_controller_test.go; its zone-state expectations
// are also checked in `node_lifecycle::tests::zone_states`). With taint-based eviction the
// "pods evicted" check is node0 getting the unreachable NoExecute taint (the taint eviction
// controller then evicts). Rows: (description, nodes as (name, region, zone, Ready, excluded),
// new Ready per node, initial states, following states, expect eviction). The "-master" row
// marks node-master with the exclude-disruption label, which replaced the name-based exclusion
// of that version. The partially disrupted row's eviction relies on the test overriding
// enterPartialDisruptionFunc to 100000 QPS; with the default ReducedQPSFunc a zone of 5 nodes
// (at most largeClusterThreshold) is not tainted at all, so only its zone states are checked.
#[test]
fn monitor_node_health_evict_pods_with_disruption() {
    use ZoneState::*;
    const H: &str = "True";
    const U: &str = "Unknown";
    type NodeRow = (&'static str, &'static str, &'static str, &'static str, bool);
    type Row = (
        &'static str,
        Vec<NodeRow>,
        Vec<&'static str>,
        Vec<(String, ZoneState)>,
        Vec<(String, ZoneState)>,
        Option<bool>,
    );
    let rows: Vec<Row> = vec![
        (
            "Network Disruption: Only zone is down - eviction shouldn't take place.",
            vec![
                ("node0", "region1", "zone1", U, false),
                ("node1", "region1", "zone1", U, false),
            ],
            vec![U, U],
            vec![(zone("region1", "zone1"), FullDisruption)],
            vec![(zone("region1", "zone1"), FullDisruption)],
            Some(false),
        ),
        (
            "Network Disruption: Both zones down - eviction shouldn't take place.",
            vec![
                ("node0", "region1", "zone1", U, false),
                ("node1", "region2", "zone2", U, false),
            ],
            vec![U, U],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region2", "zone2"), FullDisruption),
            ],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region2", "zone2"), FullDisruption),
            ],
            Some(false),
        ),
        (
            "Network Disruption: One zone is down - eviction should take place.",
            vec![
                ("node0", "region1", "zone1", U, false),
                ("node1", "region1", "zone2", H, false),
            ],
            vec![U, H],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), Normal),
            ],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), Normal),
            ],
            Some(true),
        ),
        (
            "NetworkDisruption: eviction should stop, only -master Node is healthy",
            vec![
                ("node0", "region1", "zone1", U, false),
                ("node-master", "region1", "zone1", H, true),
            ],
            vec![U, H],
            vec![(zone("region1", "zone1"), FullDisruption)],
            vec![(zone("region1", "zone1"), FullDisruption)],
            Some(false),
        ),
        (
            "Initially both zones down, one comes back - eviction should take place",
            vec![
                ("node0", "region1", "zone1", U, false),
                ("node1", "region1", "zone2", U, false),
            ],
            vec![U, H],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), FullDisruption),
            ],
            vec![
                (zone("region1", "zone1"), FullDisruption),
                (zone("region1", "zone2"), Normal),
            ],
            Some(true),
        ),
        (
            "Zone is partially disrupted - eviction should take place.",
            vec![
                ("node0", "region1", "zone1", U, false),
                ("node1", "region1", "zone1", U, false),
                ("node2", "region1", "zone1", U, false),
                ("node3", "region1", "zone1", H, false),
                ("node4", "region1", "zone1", H, false),
            ],
            vec![U, U, U, H, H],
            vec![(zone("region1", "zone1"), PartialDisruption)],
            vec![(zone("region1", "zone1"), PartialDisruption)],
            None,
        ),
    ];
    let fake_now = "2015-01-01T12:00:00Z";
    for (desc, nodes, updated, initial, following, evict) in rows {
        let mut h = Harness::new(fake_now);
        let mut objs = vec![new_pod("pod0", "node0")];
        for (n, r, z, status, excluded) in &nodes {
            let mut labels = zone_labels(r, z);
            if *excluded {
                labels[LABEL_EXCLUDE_DISRUPTION] = json!("");
            }
            objs.push(node(
                n,
                "2012-01-01T00:00:00Z",
                labels,
                vec![ready(status, fake_now)],
            ));
        }
        h.load_all(objs);
        let want: BTreeMap<String, ZoneState> = initial.into_iter().collect();
        assert_eq!(h.zone_states(), want, "{desc}: initial");
        for ((n, ..), status) in nodes.iter().zip(&updated) {
            let heartbeat = if *status == H {
                "2015-01-01T13:00:00Z"
            } else {
                fake_now
            };
            let c = json!({"type": "Ready", "status": status,
                "lastHeartbeatTime": heartbeat, "lastTransitionTime": fake_now});
            h.set_conditions(n, vec![c]);
        }
        h.run_until_secs(3600);
        let want: BTreeMap<String, ZoneState> = following.into_iter().collect();
        assert_eq!(h.zone_states(), want, "{desc}: following");
        if let Some(evict) = evict {
            assert_eq!(
                has(&h, "node0", UNREACHABLE_NO_EXECUTE),
                evict,
                "{desc}: {:?}",
                h.taints("node0")
            );
        }
    }
}

#[cfg(test)]
#[path = "node_lifecycle_audit_tests.rs"]
mod audit_tests;
