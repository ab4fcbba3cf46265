//! DaemonSet scenarios on the full simulation (scheduler, kubelets, node lifecycle, pod GC): the
//! seed's fluentd-elasticsearch DaemonSet as nodes join, get tainted, fail and leave, and a
//! rolling update — with the timeline steps driven through the API.

use kubeplay::api::{DaemonSet, Duration, Node, Object, Pod, Taint};
use kubeplay::controllers::daemon::util::get_target_node_name;
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::{Simulation, TimelineAction};
use kubeplay::store::apiserver::DeleteOptions;
use std::collections::BTreeMap;

fn build(name: &str) -> Simulation {
    let mut s = Scenario::parse(builtin::get(name).expect("builtin")).expect("parses");
    s.timeline.clear();
    s.build().expect("builds")
}

fn at(sim: &mut Simulation, secs: i64) {
    let t = sim.start + Duration::from_secs(secs);
    sim.run_until(t).unwrap();
}

fn ds(sim: &Simulation, ns: &str, name: &str) -> DaemonSet {
    sim.api.store.get::<DaemonSet>(ns, name).cloned().unwrap()
}

/// node → (live daemon pods, of which Running and Ready).
fn per_node(sim: &Simulation, ns: &str) -> BTreeMap<String, (usize, usize)> {
    let mut m: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for p in sim.api.store.list::<Pod>(Some(ns)) {
        if p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let e = m.entry(get_target_node_name(p).unwrap()).or_default();
        e.0 += 1;
        if p.status.phase == "Running" && p.condition("Ready").is_some_and(|c| c.status == "True") {
            e.1 += 1;
        }
    }
    m
}

fn nodes_with_pods(sim: &Simulation, ns: &str) -> Vec<String> {
    per_node(sim, ns).keys().cloned().collect()
}

fn update_node(sim: &mut Simulation, name: &str, f: impl FnOnce(&mut Node)) {
    let mut n = sim.api.store.get::<Node>("", name).cloned().unwrap();
    f(&mut n);
    n.metadata.resource_version.clear();
    sim.api.update(Object::Node(n)).unwrap();
}

const NS: &str = "kube-system";
const DS: &str = "fluentd-elasticsearch";

#[test]
fn fluentd_runs_on_every_node_including_the_control_plane() {
    let mut sim = build("daemonset-fluentd");
    at(&mut sim, 30);
    assert_eq!(
        nodes_with_pods(&sim, NS),
        ["control-plane", "worker-1", "worker-2"]
    );
    assert!(per_node(&sim, NS).values().all(|&(n, r)| n == 1 && r == 1));
    let s = ds(&sim, NS, DS).status;
    assert_eq!(
        (
            s.desired_number_scheduled,
            s.current_number_scheduled,
            s.number_ready,
            s.number_available
        ),
        (3, 3, 3, 3)
    );
    assert_eq!(
        (
            s.updated_number_scheduled,
            s.number_misscheduled,
            s.number_unavailable
        ),
        (3, 0, 0)
    );
    // The scheduler bound each pod where its node affinity pins it.
    for p in sim.api.store.list::<Pod>(Some(NS)) {
        assert_eq!(p.spec.node_name, get_target_node_name(p).unwrap());
    }
    let created: Vec<&str> = sim
        .api
        .events
        .iter()
        .filter(|e| e.source == "daemonset-controller" && e.reason == "SuccessfulCreate")
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(created.len(), 3);
    assert!(created
        .iter()
        .all(|m| m.starts_with("Created pod: fluentd-elasticsearch-")));
}

#[test]
fn nodes_join_get_tainted_fail_and_leave() {
    let mut sim = build("daemonset-fluentd");
    at(&mut sim, 60);
    // A node joins (as `kubectl apply` of a Node would create it; its kubelet registers it).
    let mut n = Node::default();
    n.metadata.name = "worker-3".into();
    n.metadata.labels = [("kubernetes.io/hostname".to_string(), "worker-3".to_string())].into();
    sim.api.create(Object::Node(n)).unwrap();
    at(&mut sim, 90);
    assert_eq!(per_node(&sim, NS).get("worker-3"), Some(&(1, 1)));
    assert_eq!(ds(&sim, NS, DS).status.desired_number_scheduled, 4);

    // worker-1 is tainted NoExecute: its daemon pod is deleted and not replaced.
    update_node(&mut sim, "worker-1", |n| {
        n.spec.taints.push(Taint {
            key: "dedicated".into(),
            value: "logging-off".into(),
            effect: "NoExecute".into(),
            time_added: None,
        })
    });
    at(&mut sim, 165);
    assert_eq!(per_node(&sim, NS).get("worker-1"), None);
    let s = ds(&sim, NS, DS).status;
    assert_eq!((s.desired_number_scheduled, s.number_misscheduled), (3, 0));

    // worker-2's kubelet stops: unreachable taints; the pod tolerates NoExecute and stays, but
    // the node (NoSchedule) is no longer desired.
    sim.apply_action(TimelineAction::NodeFail("worker-2".into()));
    at(&mut sim, 300);
    let worker2 = sim.api.store.get::<Node>("", "worker-2").unwrap().clone();
    assert!(worker2
        .spec
        .taints
        .iter()
        .any(|t| t.key == "node.kubernetes.io/unreachable" && t.effect == "NoExecute"));
    assert_eq!(
        per_node(&sim, NS).get("worker-2").map(|x| x.0),
        Some(1),
        "not evicted"
    );
    let s = ds(&sim, NS, DS).status;
    assert_eq!(
        s.desired_number_scheduled, 2,
        "control-plane and worker-3; worker-2 no longer desired"
    );
    assert_eq!(s.number_misscheduled, 1);

    // worker-3 leaves: the pod GC removes its orphaned pod.
    sim.api
        .delete("Node", "", "worker-3", &DeleteOptions::default())
        .unwrap();
    at(&mut sim, 390);
    assert_eq!(per_node(&sim, NS).get("worker-3"), None);

    // worker-2 recovers: it counts again, with its original pod.
    sim.apply_action(TimelineAction::NodeRecover("worker-2".into()));
    at(&mut sim, 480);
    let s = ds(&sim, NS, DS).status;
    assert_eq!(s.desired_number_scheduled, 2, "control-plane and worker-2");
    assert_eq!(s.number_misscheduled, 0);
    assert_eq!(per_node(&sim, NS).get("worker-2"), Some(&(1, 1)));
    // No node ever ran two pods of the set.
    assert!(per_node(&sim, NS).values().all(|&(n, _)| n == 1));
}

#[test]
fn relabelling_a_node_moves_a_node_selector_daemon() {
    let mut sim = build("daemonset-fluentd");
    at(&mut sim, 30);
    let mut d = ds(&sim, NS, DS);
    d.spec.template_mut().spec_mut().node_selector =
        [("logging".to_string(), "on".to_string())].into();
    d.metadata.resource_version.clear();
    sim.api.update(Object::DaemonSet(d)).unwrap();
    at(&mut sim, 60);
    assert!(
        nodes_with_pods(&sim, NS).is_empty(),
        "no node carries the label"
    );
    update_node(&mut sim, "worker-2", |n| {
        n.metadata.labels.insert("logging".into(), "on".into());
    });
    at(&mut sim, 90);
    assert_eq!(nodes_with_pods(&sim, NS), ["worker-2"]);
    update_node(&mut sim, "worker-2", |n| {
        n.metadata.labels.remove("logging");
    });
    update_node(&mut sim, "worker-1", |n| {
        n.metadata.labels.insert("logging".into(), "on".into());
    });
    at(&mut sim, 150);
    assert_eq!(nodes_with_pods(&sim, NS), ["worker-1"]);
}

#[test]
fn cordoned_nodes_still_run_daemon_pods() {
    let mut sim = build("daemonset-fluentd");
    at(&mut sim, 30);
    update_node(&mut sim, "worker-1", |n| n.spec.unschedulable = true);
    // A pod deleted on the cordoned node is replaced there (the unschedulable toleration).
    let victim = sim
        .api
        .store
        .list::<Pod>(Some(NS))
        .find(|p| p.spec.node_name == "worker-1")
        .unwrap()
        .metadata
        .name
        .clone();
    sim.api
        .delete("Pod", NS, &victim, &DeleteOptions::default())
        .unwrap();
    at(&mut sim, 120);
    assert_eq!(per_node(&sim, NS).get("worker-1"), Some(&(1, 1)));
}

#[test]
fn rolling_update_keeps_at_most_one_node_without_a_ready_pod() {
    let mut sim = build("daemonset-rolling-update");
    at(&mut sim, 60);
    let mut d = ds(&sim, "default", "node-exporter");
    d.spec.template_mut().spec_mut().containers[0].image =
        "quay.io/prometheus/node-exporter:v1.9.0".into();
    d.metadata.resource_version.clear();
    sim.api.update(Object::DaemonSet(d)).unwrap();
    let mut worst = 4;
    for s in 60..=180 {
        at(&mut sim, s);
        let ready: usize = per_node(&sim, "default").values().map(|x| x.1).sum();
        worst = worst.min(ready);
        assert!(ready >= 3, "at {s}s only {ready} ready pods");
    }
    assert_eq!(worst, 3);
    let s = ds(&sim, "default", "node-exporter").status;
    assert_eq!((s.updated_number_scheduled, s.number_available), (4, 4));
    for p in sim.api.store.list::<Pod>(Some("default")) {
        assert_eq!(
            p.spec.containers[0].image,
            "quay.io/prometheus/node-exporter:v1.9.0"
        );
    }
    let deletes = sim
        .api
        .events
        .iter()
        .filter(|e| e.source == "daemonset-controller" && e.reason == "SuccessfulDelete")
        .count();
    assert_eq!(deletes, 4);
}

#[test]
fn builtin_fluentd_timeline_as_written() {
    let s = Scenario::parse(builtin::get("daemonset-fluentd").unwrap()).unwrap();
    let mut sim = s.build().unwrap();
    let end = sim.start + s.default_duration().unwrap();
    sim.run_until(end).unwrap();
    for l in &sim.log {
        assert!(l.ok, "`{}` failed: {}", l.action, l.output);
    }
    // Created on the three initial nodes, then on worker-3 when it joined at 1m.
    let created: Vec<i64> = sim
        .api
        .events
        .iter()
        .filter(|e| e.source == "daemonset-controller" && e.reason == "SuccessfulCreate")
        .map(|e| (e.time - sim.start).0 / 1000)
        .collect();
    assert_eq!(created, [0, 0, 0, 60]);
    // At the end: worker-1 (tainted) and worker-3 (deleted) have none; worker-2 recovered.
    assert_eq!(nodes_with_pods(&sim, NS), ["control-plane", "worker-2"]);
    let s = ds(&sim, NS, DS).status;
    assert_eq!(
        (
            s.desired_number_scheduled,
            s.number_ready,
            s.number_misscheduled
        ),
        (2, 2, 0)
    );
}

#[test]
fn builtin_rolling_update_timeline_as_written() {
    let s = Scenario::parse(builtin::get("daemonset-rolling-update").unwrap()).unwrap();
    let mut sim = s.build().unwrap();
    let end = sim.start + s.default_duration().unwrap();
    sim.run_until(end).unwrap();
    let ops: Vec<(i64, &str)> = sim
        .api
        .events
        .iter()
        .filter(|e| e.source == "daemonset-controller")
        .map(|e| ((e.time - sim.start).0 / 1000, e.reason.as_str()))
        .filter(|(t, _)| *t >= 60)
        .collect();
    // Delete one, create its replacement; the next deletion waits for it to be available.
    let reasons: Vec<&str> = ops.iter().map(|(_, r)| *r).collect();
    assert_eq!(reasons, ["SuccessfulDelete", "SuccessfulCreate"].repeat(4));
    for w in ops.chunks(2).collect::<Vec<_>>().windows(2) {
        assert!(w[1][0].0 > w[0][1].0, "the next deletion waits: {ops:?}");
    }
    let s = ds(&sim, "default", "node-exporter").status;
    assert_eq!(
        (
            s.updated_number_scheduled,
            s.number_available,
            s.observed_generation
        ),
        (4, 4, 2)
    );
}

/// A DaemonSet on a 300-node cluster: every daemon pod, including those on nodes past the
/// 256th (whose default podCIDR and InternalIP used to be invalid, so the API server refused
/// their kubelet's status writes), runs, gets a valid distinct pod IP and counts as ready.
#[test]
fn a_daemonset_is_ready_on_every_node_of_a_300_node_cluster() {
    let text = "apiVersion: kubeplay.dev/v1alpha1\nkind: Scenario\nseed: 1\nnodes: [{count: 300, namePrefix: node-}]\nobjects:\n- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: agent}\n  spec:\n    selector: {matchLabels: {app: agent}}\n    template:\n      metadata: {labels: {app: agent}}\n      spec: {containers: [{name: c, image: \"busybox:1.36\"}]}\n";
    let mut sim = Scenario::parse(text)
        .expect("parses")
        .build()
        .expect("builds");
    at(&mut sim, 120);
    let d = ds(&sim, "default", "agent");
    assert_eq!(d.status.desired_number_scheduled, 300);
    assert_eq!(d.status.number_ready, 300);
    let pods: Vec<&Pod> = sim.api.store.list::<Pod>(Some("default")).collect();
    let ips: std::collections::BTreeSet<&str> =
        pods.iter().map(|p| p.status.pod_ip.as_str()).collect();
    assert_eq!(ips.len(), 300);
    // Nodes past the 256th (in registration order) get addresses from the next ranges.
    assert!(pods.iter().all(|p| p.status.phase == "Running"));
    let beyond = pods
        .iter()
        .filter(|p| {
            p.status.pod_ip.starts_with("10.245.") && p.status.host_ip.starts_with("172.18.1.")
        })
        .count();
    assert!(beyond >= 300 - 256, "{beyond}");
}
