//! Ports of the upstream pod GC tables (pkg/controller/podgc/gc_controller_test.go).
//!
//! Upstream fills informer stores, calls `gc` (or one of its passes) once and reads the fake
//! clientset's actions: `delete` of pods (deletedPodNames) and `patch` of pods
//! (patchedPodNames, the Failed-phase status patch of `markFailedAndDeletePod`). Here the
//! objects are loaded into the simulated API server, the controller lists them as it starts
//! (as its informers would), the simulation runs on the virtual clock and the recorded client
//! actions are read: `delete Pod` and `update-status Pod` (kubeplay writes the status with a
//! status update where upstream patches it).
//!
//! Upstream's `threshold: -1` (gcTerminated off) is threshold 0 here; both disable the pass.
#![allow(clippy::type_complexity)]

use super::*;
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn start() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn at(s: i64) -> Time {
    start() + Duration::from_secs(s)
}

fn quarantine_secs() -> i64 {
    QUARANTINE_TIME.as_millis() / 1000
}

/// Upstream's pods are created 1 h apart from the Unix epoch; these are 1 h apart too.
fn created(i: usize) -> Time {
    Time::parse_rfc3339("2024-12-01T00:00:00Z").unwrap()
        + Duration::from_secs(3600 * (i as i64 + 1))
}

#[derive(Clone, Default)]
struct P {
    name: String,
    phase: &'static str,
    reason: &'static str,
    deleting: bool,
    node: &'static str,
}

fn p(name: &str, node: &'static str, phase: &'static str) -> P {
    P {
        name: name.into(),
        node,
        phase,
        ..Default::default()
    }
}

impl P {
    fn evicted(mut self) -> Self {
        self.reason = "Evicted";
        self
    }
    fn deleting(mut self) -> Self {
        self.deleting = true;
        self
    }
}

fn pod_value(pod: &P, i: usize) -> Value {
    let mut v = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": pod.name, "namespace": "default",
                     "creationTimestamp": created(i).to_rfc3339()},
        "spec": {"containers": [{"name": "c", "image": "busybox"}]},
        "status": {}
    });
    if !pod.node.is_empty() {
        v["spec"]["nodeName"] = json!(pod.node);
    }
    if !pod.phase.is_empty() {
        v["status"]["phase"] = json!(pod.phase);
    }
    if !pod.reason.is_empty() {
        v["status"]["reason"] = json!(pod.reason);
    }
    if pod.deleting {
        v["metadata"]["deletionTimestamp"] = json!(start().to_rfc3339());
    }
    v
}

/// `testutil.NewNode`, optionally with a Ready condition and taints.
fn node_value(name: &str, ready: Option<&str>, taints: Value) -> Value {
    let mut v = json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name},
        "spec": {"taints": taints},
        "status": {"capacity": {"cpu": "10", "memory": "10G"}}
    });
    if let Some(status) = ready {
        v["status"]["conditions"] = json!([{"type": "Ready", "status": status}]);
    }
    v
}

fn node(name: &str) -> Value {
    node_value(name, None, json!([]))
}

/// Loads the objects, then starts the pod GC controller on them.
fn run_gc(nodes: Vec<Value>, pods: &[P], threshold: usize) -> Simulation {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    for n in nodes {
        s.api.load(Object::from_value(n).unwrap()).unwrap();
    }
    for (i, pod) in pods.iter().enumerate() {
        s.api
            .load(Object::from_value(pod_value(pod, i)).unwrap())
            .unwrap();
    }
    let gc = PodGcController {
        terminated_pod_threshold: threshold,
        ..Default::default()
    };
    s.add_loop(Box::new(gc));
    s.settle().unwrap();
    s
}

fn pod_actions(s: &Simulation, verb: &str) -> BTreeSet<String> {
    s.actions
        .iter()
        .filter(|a| a.verb == verb && a.kind == "Pod")
        .map(|a| a.name.clone())
        .collect()
}

fn deleted(s: &Simulation) -> BTreeSet<String> {
    pod_actions(s, "delete")
}

fn patched(s: &Simulation) -> BTreeSet<String> {
    pod_actions(s, "update-status")
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

// Port of TestGCTerminated (pkg/controller/podgc/gc_controller_test.go).
#[test]
fn gc_terminated_table() {
    let f = "Failed";
    let ok = "Succeeded";
    let run = "Running";
    let cases: Vec<(&str, Vec<P>, usize, &[&str])> = vec![
        (
            "delete pod a which is PodFailed and pod b which is PodSucceeded",
            vec![p("a", "node", f), p("b", "node", ok), p("c", "node", f)],
            1,
            &["a", "b"],
        ),
        (
            "threshold = 0, disables terminated pod deletion",
            vec![p("a", "node", f), p("b", "node", ok)],
            0,
            &[],
        ),
        (
            "threshold = 1, delete pod a which is PodFailed and pod b which is PodSucceeded",
            vec![p("a", "node", f), p("b", "node", ok), p("c", "node", f)],
            1,
            &["a", "b"],
        ),
        (
            "threshold = 1, delete pod b which is PodSucceeded",
            vec![p("a", "node", run), p("b", "node", ok), p("c", "node", f)],
            1,
            &["b"],
        ),
        (
            "threshold = 1, delete pod a which is PodFailed",
            vec![p("a", "node", f), p("b", "node", ok)],
            1,
            &["a"],
        ),
        (
            "threshold = 5, don't delete pod",
            vec![p("a", "node", f), p("b", "node", ok)],
            5,
            &[],
        ),
        (
            "evicted pods first (unnamed upstream row 7)",
            vec![
                p("a", "node", f),
                p("b", "node", ok),
                p("c", "node", f).evicted(),
            ],
            1,
            &["c", "a"],
        ),
        (
            "evicted pods first (unnamed upstream row 8)",
            vec![
                p("a", "node", run),
                p("b", "node", ok),
                p("c", "node", f).evicted(),
            ],
            1,
            &["c"],
        ),
    ];
    for (name, pods, threshold, want) in cases {
        let s = run_gc(vec![node("node")], &pods, threshold);
        assert_eq!(deleted(&s), set(want), "{name}: deleted");
        // Terminated pods keep their phase: no status write.
        assert_eq!(patched(&s), set(&[]), "{name}: patched");
    }
}

// Port of TestGCOrphaned (pkg/controller/podgc/gc_controller_test.go).
//
// Upstream runs `gc` once, steps a fake clock by `delay` and runs `gc` again; pods on missing
// nodes are deleted once the node has been missing for the 40 s quarantine. kubeplay checks the
// node exactly 40 s after it first saw it missing, so each row runs the simulation to
// `delay` (and a second past the quarantine end where that is the point). Upstream tells the
// informer's nodes from the client's (the final check asks the API server); kubeplay's
// controller reads the one store, so the rows that make the two disagree are run with the node
// in the store as the API server would show it (see the row comments). `itemsInQueue` is not
// ported: kubeplay's queue keys differ from upstream's node queue.
#[test]
fn gc_orphaned_table() {
    let quarantine = quarantine_secs();
    let (f, ok, run) = ("Failed", "Succeeded", "Running");
    struct Row {
        name: &'static str,
        nodes: Vec<Value>,
        delay: i64,
        /// A node created (`Some(true)`) or deleted (`Some(false)`) at this second.
        node_change: Option<(i64, &'static str, bool)>,
        pods: Vec<P>,
        deleted: &'static [&'static str],
        patched: &'static [&'static str],
    }
    let rows = vec![
        Row {
            name: "nodes present in lister",
            nodes: vec![node("existing1"), node("existing2")],
            delay: 2 * quarantine,
            node_change: None,
            pods: vec![
                p("a", "existing1", run),
                p("b", "existing2", f),
                p("c", "existing2", ok),
            ],
            deleted: &[],
            patched: &[],
        },
        // Upstream: the nodes are only in the client, not yet in the informer; the API
        // server's answer keeps the pods. With one store the nodes are simply there.
        Row {
            name: "nodes present in client",
            nodes: vec![node("existing1"), node("existing2")],
            delay: 2 * quarantine,
            node_change: None,
            pods: vec![
                p("a", "existing1", run),
                p("b", "existing2", f),
                p("c", "existing2", ok),
            ],
            deleted: &[],
            patched: &[],
        },
        Row {
            name: "no nodes",
            nodes: vec![],
            delay: 2 * quarantine,
            node_change: None,
            pods: vec![p("a", "deleted", f), p("b", "deleted", ok)],
            deleted: &["a", "b"],
            patched: &[],
        },
        Row {
            name: "no nodes, one running pod",
            nodes: vec![],
            delay: 2 * quarantine,
            node_change: None,
            pods: vec![
                p("a", "deleted", f),
                p("b", "deleted", ok),
                p("c", "deleted", run),
            ],
            deleted: &["a", "b", "c"],
            patched: &["c"],
        },
        Row {
            name: "quarantine not finished",
            nodes: vec![],
            delay: quarantine / 2,
            node_change: None,
            pods: vec![p("a", "deleted", f)],
            deleted: &[],
            patched: &[],
        },
        Row {
            name: "wrong nodes",
            nodes: vec![node("existing")],
            delay: 2 * quarantine,
            node_change: None,
            pods: vec![p("a", "deleted", run)],
            deleted: &["a"],
            patched: &["a"],
        },
        Row {
            name: "some nodes missing",
            nodes: vec![node("existing")],
            delay: 2 * quarantine,
            node_change: None,
            pods: vec![
                p("a", "deleted", f),
                p("b", "existing", f),
                p("c", "deleted", ok),
                p("d", "deleted", run),
            ],
            deleted: &["a", "c", "d"],
            patched: &["d"],
        },
        // Upstream: the node is created after the clock step, before the second `gc`. kubeplay
        // checks at exactly 40 s, so the node appears just before that.
        Row {
            name: "node added to client after quarantine",
            nodes: vec![],
            delay: 2 * quarantine,
            node_change: Some((quarantine - 1, "node", true)),
            pods: vec![p("a", "node", run)],
            deleted: &[],
            patched: &[],
        },
        Row {
            name: "node added to informer after quarantine",
            nodes: vec![],
            delay: 2 * quarantine,
            node_change: Some((quarantine - 1, "node", true)),
            pods: vec![p("a", "node", f)],
            deleted: &[],
            patched: &[],
        },
        // Upstream: the node is in the client but not the informer at the first `gc`, and is
        // deleted from the client before the second. With one store: the node exists, is
        // deleted at 1 s, and the pod goes once the quarantine from then has passed.
        Row {
            name: "node deleted from client after quarantine",
            nodes: vec![node("node")],
            delay: 1 + quarantine,
            node_change: Some((1, "node", false)),
            pods: vec![p("a", "node", f)],
            deleted: &["a"],
            patched: &[],
        },
        // The node disappears when the first quarantine would have ended: a new quarantine
        // starts then, so nothing is deleted at once.
        Row {
            name: "node deleted from informer after quarantine",
            nodes: vec![node("node")],
            delay: 2 * quarantine,
            node_change: Some((2 * quarantine, "node", false)),
            pods: vec![p("a", "node", ok)],
            deleted: &[],
            patched: &[],
        },
    ];
    for row in rows {
        let mut s = run_gc(row.nodes, &row.pods, 0);
        // First `gc`: nothing is deleted yet.
        assert_eq!(deleted(&s), set(&[]), "{}: at start", row.name);
        if let Some((t, name, create)) = row.node_change {
            s.run_until(at(t)).unwrap();
            if create {
                s.api
                    .create(Object::from_value(node(name)).unwrap())
                    .unwrap();
            } else {
                s.api.delete("Node", "", name, &Default::default()).unwrap();
            }
        }
        s.run_until(at(row.delay)).unwrap();
        assert_eq!(deleted(&s), set(row.deleted), "{}: deleted", row.name);
        assert_eq!(patched(&s), set(row.patched), "{}: patched", row.name);
    }
}

// The quarantine is exact in kubeplay: an orphan is kept for 39 s and deleted at 40 s
// (upstream: 40–60 s, as `gc` runs every 20 s).
#[test]
fn gc_orphaned_quarantine_boundary() {
    let mut s = run_gc(vec![], &[p("a", "deleted", "Failed")], 0);
    s.run_until(at(quarantine_secs() - 1)).unwrap();
    assert_eq!(deleted(&s), set(&[]));
    s.run_until(at(quarantine_secs())).unwrap();
    assert_eq!(deleted(&s), set(&["a"]));
}

// Port of TestGCUnscheduledTerminating (pkg/controller/podgc/gc_controller_test.go).
//
// Upstream calls `gcUnscheduledTerminating` alone; kubeplay runs every pass, so the rows are
// read before the orphan quarantine (the second row's pods are bound to a node that does not
// exist) and with gcTerminated off (upstream's threshold -1).
#[test]
fn gc_unscheduled_terminating_table() {
    let (f, ok, run) = ("Failed", "Succeeded", "Running");
    let cases: Vec<(&str, Vec<P>, &[&str], &[&str])> = vec![
        (
            "Unscheduled pod in any phase must be deleted",
            vec![
                p("a", "", f).deleting(),
                p("b", "", ok).deleting(),
                p("c", "", run).deleting(),
            ],
            &["a", "b", "c"],
            &["c"],
        ),
        (
            "Scheduled pod in any phase must not be deleted",
            vec![
                p("a", "", f),
                p("b", "node", ok),
                p("c", "node", run).deleting(),
            ],
            &[],
            &[],
        ),
    ];
    for (name, pods, want_deleted, want_patched) in cases {
        let s = run_gc(vec![], &pods, 0);
        assert_eq!(deleted(&s), set(want_deleted), "{name}: deleted");
        assert_eq!(patched(&s), set(want_patched), "{name}: patched");
    }
}

// Port of TestGCTerminating (pkg/controller/podgc/gc_controller_test.go).
#[test]
fn gc_terminating_table() {
    let oos = |effect: &str, value: &str| json!([{"key": TAINT_OUT_OF_SERVICE, "value": value, "effect": effect}]);
    let nr = |name: &str, taints: Value| node_value(name, Some("False"), taints);
    let five = |i: usize, node: &'static str| -> Vec<P> {
        let n = |s: &str| format!("{s}{i}");
        vec![
            p(&n("a"), node, ""),
            p(&n("b"), node, "").deleting(),
            p(&n("c"), node, "Pending"),
            p(&n("d"), node, "Running"),
            p(&n("e"), node, "Unknown"),
        ]
    };
    let mut big = vec![];
    for (i, node) in [
        "worker-0", "worker-1", "worker-2", "worker-3", "worker-4", "worker-5",
    ]
    .into_iter()
    .enumerate()
    {
        big.extend(five(i + 1, node));
    }
    // Upstream's a5 is on worker-3 (its comment says worker-4); kept as written.
    big[20].node = "worker-3";
    let cases: Vec<(&str, Vec<Value>, Vec<P>, &[&str], &[&str])> = vec![
        (
            "pods have deletion timestamp set and the corresponding nodes are not ready",
            vec![nr("worker-0", json!([])), nr("worker-1", json!([]))],
            vec![
                p("a", "worker-0", "").deleting(),
                p("b", "worker-1", "").deleting(),
            ],
            &[],
            &[],
        ),
        (
            "some pods have deletion timestamp and/or phase set and some of the corresponding \
             nodes have an outofservice taint that are not ready",
            vec![
                nr("worker-0", oos("NoExecute", "")),
                nr("worker-1", json!([])),
                node_value("worker-2", Some("True"), json!([])),
                nr("worker-3", oos("NoSchedule", "")),
                nr("worker-4", oos("PreferNoSchedule", "")),
                nr("worker-5", oos("NoExecute", "any-value")),
            ],
            big,
            &["b1", "b4", "b5", "b6"],
            &["b1", "b4", "b5", "b6"],
        ),
        (
            "pods deleted from node tainted out-of-service",
            vec![nr("worker", oos("NoExecute", ""))],
            vec![
                p("a", "worker", "Running").deleting(),
                p("b", "worker", "Failed").deleting(),
                p("c", "worker", "Succeeded").deleting(),
            ],
            &["a", "b", "c"],
            &["a"],
        ),
    ];
    for (name, nodes, pods, want_deleted, want_patched) in cases {
        let s = run_gc(nodes, &pods, 0);
        assert_eq!(deleted(&s), set(want_deleted), "{name}: deleted");
        assert_eq!(patched(&s), set(want_patched), "{name}: patched");
    }
}

// Port of TestGCInspectingPatchedPodBeforeDeletion (pkg/controller/podgc/gc_controller_test.go):
// an orphaned Running pod is marked Failed with a DisruptionTarget condition and then deleted
// with grace period 0. Upstream applies the recorded patch to the original pod; here a
// finalizer keeps the deleted pod readable, the names are lower-cased (`testPod` and
// `deletedNode` fail the API server's name validation, which upstream's fake clientset skips),
// and the quarantine is waited out instead of set to -1.
#[test]
fn gc_inspecting_patched_pod_before_deletion() {
    let mut s = Simulation::new(1, start(), FeatureGates::default(), World::default());
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "test-pod", "namespace": "default",
                     "finalizers": ["example.com/keep"]},
        "spec": {"nodeName": "deleted-node",
                 "containers": [{"name": "c", "image": "busybox"}]},
        "status": {"phase": "Running",
                   "conditions": [{"type": "Ready", "status": "True"}]}
    });
    s.api.load(Object::from_value(pod).unwrap()).unwrap();
    s.add_loop(Box::new(PodGcController {
        terminated_pod_threshold: 0,
        ..Default::default()
    }));
    s.run_until(at(quarantine_secs())).unwrap();
    let verbs: Vec<String> = s.actions.iter().map(|a| a.to_string()).collect();
    assert_eq!(
        verbs,
        vec![
            "update-status Pod default/test-pod",
            "delete Pod default/test-pod"
        ]
    );
    let got = s.api.store.get::<Pod>("default", "test-pod").unwrap();
    assert_eq!(got.status.phase, "Failed");
    let conds: Vec<(&str, &str, &str, &str)> = got
        .status
        .conditions
        .iter()
        .map(|c| {
            (
                c.type_.as_str(),
                c.status.as_str(),
                c.reason.as_str(),
                c.message.as_str(),
            )
        })
        .collect();
    assert_eq!(
        conds,
        vec![
            ("Ready", "True", "", ""),
            (
                "DisruptionTarget",
                "True",
                "DeletionByPodGC",
                "PodGC: node no longer exists"
            ),
        ]
    );
    assert!(got.metadata.deletion_timestamp.is_some());
    assert_eq!(got.metadata.deletion_grace_period_seconds, Some(0));
}
