//! Ports of upstream's DaemonSet integration tests
//! (test/integration/daemonset/daemonset_test.go): an API server, the DaemonSet controller and
//! the default scheduler — no kubelet, so bound pods stay Pending until the test marks them
//! Running and Ready (`validateDaemonSetPodsAndMarkReady`). Upstream runs every scenario once
//! per update strategy (OnDelete and RollingUpdate with maxUnavailable 1); so do these. Nodes
//! are API objects only (`newNode`: Ready, 100 pods allocatable). Upstream polls for up to 60 s;
//! here the simulation settles.

use kubeplay::api::{ControllerRevision, DaemonSet, Node, Object, Pod, Time};
use kubeplay::controllers::daemon::DaemonSetsController;
use kubeplay::features::FeatureGates;
use kubeplay::scheduler::new_scheduler;
use kubeplay::sim::Simulation;
use kubeplay::world::World;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const NS: &str = "simple-daemonset-test";

fn new_sim() -> Simulation {
    let mut s = Simulation::new(
        11,
        Time::from_unix_secs(1_700_000_000),
        FeatureGates::default(),
        World::default(),
    );
    s.add_loop(Box::new(DaemonSetsController::new()));
    s.add_loop(new_scheduler());
    s
}

/// `newOnDeleteStrategy` and `newRollbackStrategy` (RollingUpdate, maxUnavailable 1).
fn strategies() -> [Value; 2] {
    [
        json!({"type": "OnDelete"}),
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}),
    ]
}

/// `newDaemonSet`: revisionHistoryLimit 2, selector/labels `name: test`, one container `foo`
/// with image `bar`, terminationGracePeriodSeconds 0.
fn new_daemon_set(name: &str, strategy: &Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "revisionHistoryLimit": 2,
            "selector": {"matchLabels": {"name": "test"}},
            "updateStrategy": strategy,
            "template": {
                "metadata": {"labels": {"name": "test"}},
                "spec": {
                    "containers": [{"name": "foo", "image": "bar"}],
                    "terminationGracePeriodSeconds": 0
                }
            }
        }
    })
}

fn create_ds(sim: &mut Simulation, v: Value) -> DaemonSet {
    let ds: DaemonSet = serde_json::from_value(v).expect("DaemonSet decodes");
    match sim.api.create(Object::DaemonSet(ds)).expect("create ds") {
        Object::DaemonSet(d) => d,
        _ => unreachable!(),
    }
}

fn get_ds(sim: &Simulation, name: &str) -> DaemonSet {
    sim.api.store.get::<DaemonSet>(NS, name).cloned().unwrap()
}

fn update_ds(sim: &mut Simulation, name: &str, f: impl FnOnce(&mut DaemonSet)) {
    let mut d = get_ds(sim, name);
    f(&mut d);
    sim.api.update(Object::DaemonSet(d)).expect("update ds");
}

/// `newNode`: Ready, `pods: 100` allocatable.
fn new_node(name: &str, labels: Value) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "status": {
            "conditions": [{"type": "Ready", "status": "True"}],
            "allocatable": {"pods": "100"}
        }
    })
}

fn create_node(sim: &mut Simulation, v: Value) {
    let n: Node = serde_json::from_value(v).expect("Node decodes");
    sim.api.create(Object::Node(n)).expect("create node");
}

/// `addNodes`: node-<i> for i in start..start+n.
fn add_nodes(sim: &mut Simulation, start: usize, n: usize, labels: Value) {
    for i in start..start + n {
        create_node(sim, new_node(&format!("node-{i}"), labels.clone()));
    }
}

fn pods(sim: &Simulation) -> Vec<Pod> {
    sim.api.store.list::<Pod>(Some(NS)).cloned().collect()
}

fn is_terminal(p: &Pod) -> bool {
    p.status.phase == "Succeeded" || p.status.phase == "Failed"
}

fn check_controller_ref(p: &Pod) {
    assert_eq!(p.metadata.owner_references.len(), 1, "{}", p.metadata.name);
    let r = &p.metadata.owner_references[0];
    assert_eq!(r.kind, "DaemonSet");
    assert_eq!(r.controller, Some(true));
}

/// `validateDaemonSetPodsActive`: `n` pods Pending or Running.
fn validate_pods_active(sim: &mut Simulation, n: usize) {
    sim.settle().unwrap();
    let ps = pods(sim);
    ps.iter().for_each(check_controller_ref);
    let active = ps
        .iter()
        .filter(|p| matches!(p.status.phase.as_str(), "Pending" | "Running" | ""))
        .count();
    assert_eq!(
        active,
        n,
        "{:?}",
        ps.iter()
            .map(|p| (&p.metadata.name, &p.spec.node_name, &p.status.phase))
            .collect::<Vec<_>>()
    );
}

/// `validateDaemonSetPodsAndMarkReady`: polls until exactly `n` pods are non-terminated, each
/// with a single controller reference to a DaemonSet, marking bound ones Running and Ready on
/// every round (so a rolling update driven by readiness makes progress between rounds, as
/// upstream's one-second poll lets it).
fn validate_pods_and_mark_ready(sim: &mut Simulation, n: usize) {
    let mut last = vec![];
    for _ in 0..20 {
        sim.settle().unwrap();
        let ps: Vec<Pod> = pods(sim).into_iter().filter(|p| !is_terminal(p)).collect();
        let mut marked = false;
        for p in &ps {
            check_controller_ref(p);
            let ready = p.condition("Ready").is_some_and(|c| c.status == "True");
            if !ready && !p.spec.node_name.is_empty() {
                let mut p = p.clone();
                let now = sim.now();
                let st: kubeplay::api::PodStatus = serde_json::from_value(json!({
                    "phase": "Running",
                    "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": now}]
                }))
                .unwrap();
                p.status = st.into();
                sim.api.update_status(Object::Pod(p)).expect("mark ready");
                marked = true;
            }
        }
        if ps.len() == n && !marked {
            return;
        }
        if ps.len() == n {
            sim.settle().unwrap();
            let m = pods(sim).into_iter().filter(|p| !is_terminal(p)).count();
            if m == n {
                return;
            }
        }
        last = ps
            .iter()
            .map(|p| (p.metadata.name.clone(), p.spec.node_name.clone()))
            .collect();
    }
    panic!("want {n} non-terminated pods, have {last:?}");
}

/// `validateDaemonSetStatus`.
fn validate_number_ready(sim: &Simulation, name: &str, want: i32) {
    assert_eq!(get_ds(sim, name).status.number_ready, want, "numberReady");
}

/// Pods per node name ("" for unbound ones).
fn pods_per_node(sim: &Simulation) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for p in pods(sim) {
        *m.entry(p.spec.node_name.clone()).or_default() += 1;
    }
    m
}

/// TestOneNodeDaemonLaunchesPod (test/integration/daemonset/daemonset_test.go).
#[test]
fn one_node_daemon_launches_pod() {
    for strategy in strategies() {
        let mut sim = new_sim();
        create_ds(&mut sim, new_daemon_set("foo", &strategy));
        create_node(&mut sim, new_node("single-node", json!({})));
        validate_pods_and_mark_ready(&mut sim, 1);
        validate_number_ready(&sim, "foo", 1);
        assert_eq!(pods_per_node(&sim), [("single-node".to_string(), 1)].into());
    }
}

/// TestSimpleDaemonSetLaunchesPods (test/integration/daemonset/daemonset_test.go).
#[test]
fn simple_daemon_set_launches_pods() {
    for strategy in strategies() {
        let mut sim = new_sim();
        create_ds(&mut sim, new_daemon_set("foo", &strategy));
        add_nodes(&mut sim, 0, 5, json!({}));
        validate_pods_and_mark_ready(&mut sim, 5);
        validate_number_ready(&sim, "foo", 5);
        let st = get_ds(&sim, "foo").status;
        assert_eq!(
            (
                st.desired_number_scheduled,
                st.current_number_scheduled,
                st.number_misscheduled,
                st.updated_number_scheduled,
                st.number_available,
            ),
            (5, 5, 0, 5, 5)
        );
        assert!(pods_per_node(&sim).values().all(|n| *n == 1));
    }
}

/// TestDaemonSetWithNodeSelectorLaunchesPods (test/integration/daemonset/daemonset_test.go):
/// required node affinity `zone In [test]` OR the field `metadata.name In [node-1]` → nodes
/// 1, 2 and 3 of six.
#[test]
fn daemon_set_with_node_selector_launches_pods() {
    for strategy in strategies() {
        let mut sim = new_sim();
        let mut ds = new_daemon_set("foo", &strategy);
        ds["spec"]["template"]["spec"]["affinity"] = json!({"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["test"]}]},
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}
            ]}
        }});
        create_ds(&mut sim, ds);
        add_nodes(&mut sim, 0, 2, json!({}));
        add_nodes(&mut sim, 2, 2, json!({"zone": "test"}));
        add_nodes(&mut sim, 4, 2, json!({}));
        validate_pods_and_mark_ready(&mut sim, 3);
        validate_number_ready(&sim, "foo", 3);
        assert_eq!(
            pods_per_node(&sim).keys().cloned().collect::<Vec<_>>(),
            ["node-1", "node-2", "node-3"]
        );
        assert_eq!(get_ds(&sim, "foo").status.desired_number_scheduled, 3);
    }
}

/// TestNotReadyNodeDaemonDoesLaunchPod (test/integration/daemonset/daemonset_test.go): a node
/// whose Ready condition is False still gets its daemon pod (the pod tolerates not-ready).
#[test]
fn not_ready_node_daemon_does_launch_pod() {
    for strategy in strategies() {
        let mut sim = new_sim();
        create_ds(&mut sim, new_daemon_set("foo", &strategy));
        let mut node = new_node("single-node", json!({}));
        node["status"]["conditions"] = json!([{"type": "Ready", "status": "False"}]);
        create_node(&mut sim, node);
        validate_pods_and_mark_ready(&mut sim, 1);
        validate_number_ready(&sim, "foo", 1);
        assert_eq!(pods_per_node(&sim), [("single-node".to_string(), 1)].into());
    }
}

/// TestInsufficientCapacityNode (test/integration/daemonset/daemonset_test.go; formerly
/// TestInsufficientCapacityNodeWhenScheduleDaemonSetPodsEnabled): the controller creates a
/// pod for a node too small for it; the scheduler leaves it Unschedulable. A second, large
/// enough node gets a pod that schedules: 2 pods, 1 ready.
#[test]
fn insufficient_capacity_node() {
    for strategy in strategies() {
        let mut sim = new_sim();
        let mut ds = new_daemon_set("foo", &strategy);
        ds["spec"]["template"]["spec"]["containers"][0]["resources"] =
            json!({"requests": {"memory": "120M", "cpu": "75m"}});
        create_ds(&mut sim, ds);
        let mut node = new_node("node-with-limited-memory", json!({}));
        node["status"]["allocatable"] = json!({"memory": "100M", "cpu": "200m", "pods": "100"});
        create_node(&mut sim, node);
        sim.settle().unwrap();
        let ps = pods(&sim);
        assert_eq!(ps.len(), 1);
        let c = ps[0]
            .condition("PodScheduled")
            .expect("PodScheduled condition");
        assert_eq!(
            (c.status.as_str(), c.reason.as_str()),
            ("False", "Unschedulable")
        );
        assert!(ps[0].spec.node_name.is_empty());

        let mut node1 = new_node("node-with-enough-memory", json!({}));
        node1["status"]["allocatable"] = json!({"memory": "200M", "cpu": "2000m", "pods": "100"});
        create_node(&mut sim, node1);
        validate_pods_and_mark_ready(&mut sim, 2);
        validate_number_ready(&sim, "foo", 1);
        assert_eq!(
            pods_per_node(&sim),
            [
                (String::new(), 1),
                ("node-with-enough-memory".to_string(), 1)
            ]
            .into()
        );
        let st = get_ds(&sim, "foo").status;
        assert_eq!(
            (st.desired_number_scheduled, st.current_number_scheduled),
            (2, 2)
        );
    }
}

/// TestLaunchWithHashCollision (test/integration/daemonset/daemonset_test.go): a revision
/// squatting on the name the next template hashes to is not ours to reuse (different data),
/// so the controller bumps collisionCount and rolls out under a new name.
#[test]
fn launch_with_hash_collision() {
    let mut sim = new_sim();
    create_node(&mut sim, new_node("single-node", json!({})));
    let strategy = &strategies()[1];
    create_ds(&mut sim, new_daemon_set("foo", strategy));
    sim.settle().unwrap();
    let ds = get_ds(&sim, "foo");
    let org_collision = ds.status.collision_count.unwrap_or(0);
    let revs: Vec<ControllerRevision> = sim
        .api
        .store
        .list::<ControllerRevision>(Some(NS))
        .cloned()
        .collect();
    assert_eq!(revs.len(), 1);
    let revision = revs[0].clone();
    assert!(revision
        .metadata
        .owner_references
        .iter()
        .any(|r| r.kind == "DaemonSet" && r.uid == ds.metadata.uid));

    // The name and hash the updated template (terminationGracePeriodSeconds 1) will have.
    let mut next = ds.clone();
    set_termination_grace(&mut next, 1);
    let new_hash = kubeplay::controllers::deployment::util::compute_hash(
        &next.spec.template,
        next.status.collision_count,
    );
    let new_name = format!("foo-{new_hash}");
    let mut labels = ds.spec.template.metadata.labels.clone();
    labels.insert("controller-revision-hash".into(), new_hash.clone());
    let fake = ControllerRevision {
        metadata: kubeplay::api::ObjectMeta {
            name: new_name.clone(),
            namespace: NS.into(),
            labels,
            owner_references: vec![kubeplay::api::OwnerReference {
                api_version: "apps/v1".into(),
                kind: "DaemonSet".into(),
                name: "foo".into(),
                uid: ds.metadata.uid.clone(),
                controller: Some(true),
                block_owner_deletion: Some(true),
            }]
            .into(),
            ..Default::default()
        },
        data: revision.data.clone(),
        revision: revision.revision + 1,
        ..Default::default()
    };
    sim.api
        .create(Object::ControllerRevision(fake))
        .expect("create fake revision");

    update_ds(&mut sim, "foo", |d| set_termination_grace(d, 1));
    sim.settle().unwrap();
    assert!(
        pods(&sim)
            .iter()
            .any(|p| p.spec.termination_grace_period_seconds == Some(1)),
        "a pod with the latest spec exists"
    );
    let ds = get_ds(&sim, "foo");
    assert_eq!(ds.status.collision_count, Some(org_collision + 1));
    // The squatter is untouched; the real revision lives under the bumped hash.
    let squatter = sim
        .api
        .store
        .get::<ControllerRevision>(NS, &new_name)
        .unwrap();
    assert_eq!(squatter.revision, revision.revision + 1);
    assert_eq!(squatter.data, revision.data);
}

fn set_termination_grace(d: &mut DaemonSet, secs: i64) {
    d.spec
        .template_mut()
        .spec_mut()
        .termination_grace_period_seconds = Some(secs);
}

/// TestTaintedNode (test/integration/daemonset/daemonset_test.go): a NoSchedule taint the pod
/// does not tolerate keeps the daemon off the node until the taint is removed.
#[test]
fn tainted_node() {
    for strategy in strategies() {
        let mut sim = new_sim();
        create_ds(&mut sim, new_daemon_set("foo", &strategy));
        let mut tainted = new_node("node-with-taint", json!({}));
        tainted["spec"] =
            json!({"taints": [{"key": "key1", "value": "val1", "effect": "NoSchedule"}]});
        create_node(&mut sim, tainted);
        create_node(&mut sim, new_node("node-without-taint", json!({})));
        validate_pods_and_mark_ready(&mut sim, 1);
        validate_number_ready(&sim, "foo", 1);
        assert_eq!(
            pods_per_node(&sim),
            [("node-without-taint".to_string(), 1)].into()
        );

        let mut n = sim
            .api
            .store
            .get::<Node>("", "node-with-taint")
            .cloned()
            .unwrap();
        n.spec.taints.clear();
        sim.api.update(Object::Node(n)).unwrap();
        validate_pods_and_mark_ready(&mut sim, 2);
        validate_number_ready(&sim, "foo", 2);
    }
}

/// TestUnschedulableNodeDaemonDoesLaunchPod (test/integration/daemonset/daemonset_test.go): an
/// unschedulable node (with the matching taint) and a network-unavailable node both get their
/// daemon pods — the controller adds the tolerations.
#[test]
fn unschedulable_node_daemon_does_launch_pod() {
    for strategy in strategies() {
        let mut sim = new_sim();
        let mut ds = new_daemon_set("foo", &strategy);
        ds["spec"]["template"]["spec"]["hostNetwork"] = json!(true);
        create_ds(&mut sim, ds);
        let mut node = new_node("unschedulable-node", json!({}));
        node["spec"] = json!({"unschedulable": true, "taints": [
            {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}
        ]});
        create_node(&mut sim, node);
        let mut node2 = new_node("network-unavailable-node", json!({}));
        node2["status"]["conditions"] = json!([
            {"type": "NetworkUnavailable", "status": "True"}
        ]);
        node2["spec"] = json!({"taints": [
            {"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"}
        ]});
        create_node(&mut sim, node2);
        validate_pods_and_mark_ready(&mut sim, 2);
        validate_number_ready(&sim, "foo", 2);
        assert_eq!(
            pods_per_node(&sim).keys().cloned().collect::<Vec<_>>(),
            ["network-unavailable-node", "unschedulable-node"]
        );
    }
}

/// TestSimpleDaemonSetRestartsPodsOnTerminalPhase (test/integration/daemonset/daemonset_test.go):
/// a daemon pod that turns Succeeded or Failed is deleted and replaced on its node; with a
/// finalizer on the template the terminal pod lingers (being deleted) beside its replacement.
#[test]
fn simple_daemon_set_restarts_pods_on_terminal_phase() {
    for (phase, finalizer) in [("Succeeded", false), ("Failed", false), ("Succeeded", true)] {
        for strategy in strategies() {
            let mut sim = new_sim();
            let mut ds = new_daemon_set("restart-terminal-pod", &strategy);
            if finalizer {
                ds["spec"]["template"]["metadata"]["finalizers"] = json!(["test.k8s.io/finalizer"]);
            }
            create_ds(&mut sim, ds);
            add_nodes(&mut sim, 0, 3, json!({}));
            validate_pods_and_mark_ready(&mut sim, 3);
            validate_number_ready(&sim, "restart-terminal-pod", 3);
            let victim = pods(&sim)
                .into_iter()
                .find(|p| p.spec.node_name == "node-1")
                .unwrap();
            let mut p = victim.clone();
            p.status.phase = phase.into();
            sim.api.update_status(Object::Pod(p)).unwrap();
            validate_pods_active(&mut sim, 3);
            validate_pods_and_mark_ready(&mut sim, 3);
            validate_number_ready(&sim, "restart-terminal-pod", 3);
            let old = sim.api.store.get::<Pod>(NS, &victim.metadata.name).cloned();
            if finalizer {
                let old = old.expect("kept by its finalizer");
                assert!(
                    old.metadata.deletion_timestamp.is_some(),
                    "the terminal pod is deleted"
                );
            } else {
                assert!(old.is_none());
            }
            let live: Vec<Pod> = pods(&sim).into_iter().filter(|p| !is_terminal(p)).collect();
            assert_eq!(
                live.iter().filter(|p| p.spec.node_name == "node-1").count(),
                1
            );
        }
    }
}

/// TestDSCUpdatesPodLabelAfterDedupCurHistories (test/integration/daemonset/daemonset_test.go):
/// a second revision owned by the set, with the current template's data, a higher revision
/// number and another hash: `dedupCurHistories` keeps the newest, relabels the pods to its
/// hash and deletes the duplicate.
#[test]
fn dsc_updates_pod_label_after_dedup_cur_histories() {
    let mut sim = new_sim();
    create_node(&mut sim, new_node("single-node", json!({})));
    create_ds(&mut sim, new_daemon_set("foo", &strategies()[1]));
    sim.settle().unwrap();
    let ds = get_ds(&sim, "foo");
    let revs: Vec<ControllerRevision> = sim
        .api
        .store
        .list::<ControllerRevision>(Some(NS))
        .cloned()
        .collect();
    assert_eq!(revs.len(), 1);
    let revision = revs[0].clone();
    let mut next = ds.clone();
    set_termination_grace(&mut next, 1);
    let new_hash = kubeplay::controllers::deployment::util::compute_hash(
        &next.spec.template,
        next.status.collision_count,
    );
    let new_name = format!("foo-{new_hash}");
    sim.api
        .create(Object::ControllerRevision(fake_revision(
            &ds, &revision, &new_name, &new_hash,
        )))
        .unwrap();
    // A new node makes the controller sync.
    create_node(&mut sim, new_node("second-node", json!({})));
    sim.settle().unwrap();
    let ps = pods(&sim);
    assert_eq!(ps.len(), 2);
    for p in &ps {
        assert_eq!(
            p.metadata.labels.get("controller-revision-hash"),
            Some(&new_hash),
            "{}",
            p.metadata.name
        );
    }
    let names: Vec<String> = sim
        .api
        .store
        .list::<ControllerRevision>(Some(NS))
        .filter(|r| {
            r.metadata
                .owner_references
                .iter()
                .any(|o| o.uid == ds.metadata.uid)
        })
        .map(|r| r.metadata.name.clone())
        .collect();
    assert_eq!(names, [new_name]);
}

/// The squatting/duplicate revision upstream's hash tests create by hand.
fn fake_revision(
    ds: &DaemonSet,
    revision: &ControllerRevision,
    name: &str,
    hash: &str,
) -> ControllerRevision {
    let mut labels = ds.spec.template.metadata.labels.clone();
    labels.insert("controller-revision-hash".into(), hash.into());
    ControllerRevision {
        metadata: kubeplay::api::ObjectMeta {
            name: name.into(),
            namespace: NS.into(),
            labels,
            owner_references: vec![kubeplay::api::OwnerReference {
                api_version: "apps/v1".into(),
                kind: "DaemonSet".into(),
                name: ds.metadata.name.clone(),
                uid: ds.metadata.uid.clone(),
                controller: Some(true),
                block_owner_deletion: Some(true),
            }]
            .into(),
            ..Default::default()
        },
        data: revision.data.clone(),
        revision: revision.revision + 1,
        ..Default::default()
    }
}

fn zone_tolerations(pod: &Pod) -> Vec<String> {
    pod.spec
        .tolerations
        .iter()
        .filter(|t| t.key.starts_with("zone-"))
        .map(|t| format!("{}:{}", t.key, t.operator))
        .collect()
}

/// TestDaemonSetRollingUpdateWithTolerations (test/integration/daemonset/daemonset_test.go):
/// maxSurge 1, maxUnavailable 0 across six nodes tainted zone-y (0, 1), zone-z (2, 3) and
/// zone-common (4, 5) as the tolerations change.
#[test]
fn daemon_set_rolling_update_with_tolerations() {
    let mut sim = new_sim();
    for i in 0..6 {
        let key = match i {
            0 | 1 => "zone-y",
            2 | 3 => "zone-z",
            _ => "zone-common",
        };
        let mut n = new_node(&format!("node-{i}"), json!({}));
        n["spec"] = json!({"taints": [{"key": key, "effect": "NoSchedule"}]});
        create_node(&mut sim, n);
    }
    let tol = |keys: &[&str]| -> Value {
        Value::Array(
            keys.iter()
                .map(|k| json!({"key": k, "operator": "Exists"}))
                .collect(),
        )
    };
    let want =
        |keys: &[&str]| -> Vec<String> { keys.iter().map(|k| format!("{k}:Exists")).collect() };
    let strategy =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}});
    let mut ds = new_daemon_set("foo", &strategy);
    ds["spec"]["template"]["spec"]["tolerations"] = tol(&["zone-y", "zone-common"]);
    create_ds(&mut sim, ds);
    validate_pods_active(&mut sim, 4);
    validate_pods_and_mark_ready(&mut sim, 4);
    validate_number_ready(&sim, "foo", 4);
    assert_eq!(get_ds(&sim, "foo").status.updated_number_scheduled, 4);
    for p in pods(&sim) {
        assert_eq!(zone_tolerations(&p), want(&["zone-y", "zone-common"]));
    }
    assert_eq!(
        pods_per_node(&sim).keys().cloned().collect::<Vec<_>>(),
        ["node-0", "node-1", "node-4", "node-5"]
    );

    let set_tolerations = |sim: &mut Simulation, keys: &[&str]| {
        let t: Vec<kubeplay::api::Toleration> = serde_json::from_value(tol(keys)).unwrap();
        update_ds(sim, "foo", |d| {
            d.spec.template_mut().spec_mut().tolerations = t
        });
    };
    // zone-z and zone-common: new pods on nodes 2 and 3, one surge pod beside an old one; the
    // old zone-y pods keep running (NoSchedule does not evict) until new pods are available.
    set_tolerations(&mut sim, &["zone-z", "zone-common"]);
    validate_pods_active(&mut sim, 7);
    validate_pods_and_mark_ready(&mut sim, 4);
    validate_number_ready(&sim, "foo", 4);
    assert_eq!(get_ds(&sim, "foo").status.updated_number_scheduled, 4);
    for p in pods(&sim) {
        assert_eq!(zone_tolerations(&p), want(&["zone-z", "zone-common"]));
    }

    set_tolerations(&mut sim, &["zone-y", "zone-z", "zone-common"]);
    validate_pods_active(&mut sim, 7);
    validate_pods_and_mark_ready(&mut sim, 6);
    validate_number_ready(&sim, "foo", 6);
    assert_eq!(get_ds(&sim, "foo").status.updated_number_scheduled, 6);
    for p in pods(&sim) {
        assert_eq!(
            zone_tolerations(&p),
            want(&["zone-y", "zone-z", "zone-common"])
        );
    }

    set_tolerations(&mut sim, &[]);
    validate_pods_active(&mut sim, 0);
    validate_number_ready(&sim, "foo", 0);
    assert_eq!(get_ds(&sim, "foo").status.updated_number_scheduled, 0);
}

// ---- test/e2e/apps/daemon_set.go specs that add controller behaviour, on the same
// controller + scheduler simulation. ----

fn hash_of(p: &Pod) -> String {
    p.metadata
        .labels
        .get("controller-revision-hash")
        .cloned()
        .unwrap_or_default()
}

/// e2e "should rollback without unnecessary restarts" (test/e2e/apps/daemon_set.go): an
/// update to an image that never becomes ready replaces one pod (maxUnavailable 1); rolling
/// back to the original template replaces only that pod, never the untouched ones, and the
/// original revision becomes the newest.
#[test]
fn e2e_rollback_without_unnecessary_restarts() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 3, json!({}));
    create_ds(&mut sim, new_daemon_set("foo", &strategies()[1]));
    validate_pods_and_mark_ready(&mut sim, 3);
    let original: Vec<(String, String)> = pods(&sim)
        .iter()
        .map(|p| (p.metadata.name.clone(), hash_of(p)))
        .collect();
    let old_hash = original[0].1.clone();
    update_ds(&mut sim, "foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo:non-existent".into()
    });
    sim.settle().unwrap();
    // One old pod deleted, one new pod (never marked ready).
    let ps = pods(&sim);
    let new_pods: Vec<&Pod> = ps.iter().filter(|p| hash_of(p) != old_hash).collect();
    assert_eq!(
        new_pods.len(),
        1,
        "{:?}",
        ps.iter()
            .map(|p| (&p.metadata.name, hash_of(p)))
            .collect::<Vec<_>>()
    );
    assert_eq!(ps.len(), 3);
    let kept: Vec<String> = ps
        .iter()
        .filter(|p| hash_of(p) == old_hash)
        .map(|p| p.metadata.name.clone())
        .collect();
    assert_eq!(kept.len(), 2);
    // Roll back.
    update_ds(&mut sim, "foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "bar".into()
    });
    validate_pods_and_mark_ready(&mut sim, 3);
    let ps = pods(&sim);
    assert!(ps.iter().all(|p| hash_of(p) == old_hash));
    for k in &kept {
        assert!(
            ps.iter().any(|p| &p.metadata.name == k),
            "{k} was restarted"
        );
    }
    // Two revisions: the original, renumbered as the newest, and the bad one.
    let mut revs: Vec<(i64, String)> = sim
        .api
        .store
        .list::<ControllerRevision>(Some(NS))
        .map(|r| (r.revision, hash_of_rev(r)))
        .collect();
    revs.sort();
    assert_eq!(revs.len(), 2);
    assert_eq!(revs[1], (3, old_hash.clone()));
    let st = get_ds(&sim, "foo").status;
    assert_eq!((st.updated_number_scheduled, st.number_ready), (3, 3));
}

fn hash_of_rev(r: &ControllerRevision) -> String {
    r.metadata
        .labels
        .get("controller-revision-hash")
        .cloned()
        .unwrap_or_default()
}

/// e2e "should run and stop complex daemon" (test/e2e/apps/daemon_set.go): a nodeSelector
/// daemon follows node labels — relabelling a node moves the daemon on and off it.
#[test]
fn e2e_run_and_stop_complex_daemon() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 2, json!({}));
    let mut ds = new_daemon_set("foo", &strategies()[1]);
    ds["spec"]["template"]["spec"]["nodeSelector"] = json!({"color": "blue"});
    create_ds(&mut sim, ds);
    sim.settle().unwrap();
    assert!(pods(&sim).is_empty());
    let st = get_ds(&sim, "foo").status;
    assert_eq!(st.desired_number_scheduled, 0);
    let relabel = |sim: &mut Simulation, color: &str| {
        let mut n = sim.api.store.get::<Node>("", "node-0").cloned().unwrap();
        n.metadata.labels.insert("color".into(), color.into());
        sim.api.update(Object::Node(n)).unwrap();
    };
    relabel(&mut sim, "blue");
    validate_pods_and_mark_ready(&mut sim, 1);
    assert_eq!(pods_per_node(&sim), [("node-0".to_string(), 1)].into());
    validate_number_ready(&sim, "foo", 1);
    relabel(&mut sim, "green");
    sim.settle().unwrap();
    assert!(pods(&sim).is_empty(), "unlabelled node loses its daemon");
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (
            st.desired_number_scheduled,
            st.current_number_scheduled,
            st.number_ready
        ),
        (0, 0, 0)
    );
    // Switch the selector to green: back on node-0.
    update_ds(&mut sim, "foo", |d| {
        d.spec.template_mut().spec_mut().node_selector =
            [("color".to_string(), "green".to_string())]
                .into_iter()
                .collect();
    });
    validate_pods_and_mark_ready(&mut sim, 1);
    assert_eq!(pods_per_node(&sim), [("node-0".to_string(), 1)].into());
}

/// e2e "should surge pods onto nodes when spec was updated and update strategy is
/// RollingUpdate" (test/e2e/apps/daemon_set.go), maxSurge 1 and maxUnavailable 0: a new pod
/// runs beside the old one on one node at a time; the old one goes once the new is ready.
#[test]
fn e2e_surge_pods_onto_nodes() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 3, json!({}));
    let strategy =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}});
    create_ds(&mut sim, new_daemon_set("foo", &strategy));
    validate_pods_and_mark_ready(&mut sim, 3);
    let old_hash = hash_of(&pods(&sim)[0]);
    update_ds(&mut sim, "foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "bar:2".into()
    });
    sim.settle().unwrap();
    // Exactly one surge pod; every node keeps its old pod.
    let ps = pods(&sim);
    assert_eq!(ps.len(), 4);
    let per = pods_per_node(&sim);
    assert_eq!(per.values().filter(|n| **n == 2).count(), 1);
    assert_eq!(ps.iter().filter(|p| hash_of(p) != old_hash).count(), 1);
    // `updateDaemonSetStatus` looks at the oldest pod per node only, so the surge pod does
    // not count as updated yet.
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (
            st.number_ready,
            st.updated_number_scheduled,
            st.number_unavailable
        ),
        (3, 0, 0)
    );
    // Driving readiness round by round completes the rollout.
    validate_pods_and_mark_ready(&mut sim, 3);
    let ps = pods(&sim);
    assert!(ps.iter().all(|p| hash_of(p) != old_hash));
    assert!(pods_per_node(&sim).values().all(|n| *n == 1));
    let st = get_ds(&sim, "foo").status;
    assert_eq!((st.number_ready, st.updated_number_scheduled), (3, 3));
}

/// The tolerations the DaemonSet controller adds (`util.AddOrUpdateDaemonPodTolerations`)
/// decide which tainted nodes get a daemon: not-ready/unreachable NoExecute, the pressure
/// NoSchedule taints and unschedulable for every daemon, network-unavailable only for
/// hostNetwork ones. Edge cases around TestUnschedulableNodeDaemonDoesLaunchPod and
/// TestNotReadyNodeDaemonDoesLaunchPod.
#[test]
fn added_tolerations_decide_which_tainted_nodes_run_daemons() {
    for host_network in [false, true] {
        let mut sim = new_sim();
        let taints = [
            ("not-ready", "node.kubernetes.io/not-ready", "NoExecute"),
            ("unreachable", "node.kubernetes.io/unreachable", "NoExecute"),
            (
                "disk-pressure",
                "node.kubernetes.io/disk-pressure",
                "NoSchedule",
            ),
            (
                "memory-pressure",
                "node.kubernetes.io/memory-pressure",
                "NoSchedule",
            ),
            (
                "pid-pressure",
                "node.kubernetes.io/pid-pressure",
                "NoSchedule",
            ),
            (
                "unschedulable",
                "node.kubernetes.io/unschedulable",
                "NoSchedule",
            ),
            (
                "network-unavailable",
                "node.kubernetes.io/network-unavailable",
                "NoSchedule",
            ),
            ("other-noexecute", "example.com/other", "NoExecute"),
        ];
        for (name, key, effect) in taints {
            let mut n = new_node(name, json!({}));
            n["spec"] = json!({"taints": [{"key": key, "effect": effect}]});
            create_node(&mut sim, n);
        }
        // Cordoned without the taint: the scheduler's NodeUnschedulable plugin still lets a
        // pod tolerating the unschedulable taint through.
        let mut n = new_node("cordoned-only", json!({}));
        n["spec"] = json!({"unschedulable": true});
        create_node(&mut sim, n);
        let mut ds = new_daemon_set("foo", &strategies()[1]);
        if host_network {
            ds["spec"]["template"]["spec"]["hostNetwork"] = json!(true);
        }
        create_ds(&mut sim, ds);
        let mut want = vec![
            "cordoned-only",
            "disk-pressure",
            "memory-pressure",
            "not-ready",
            "pid-pressure",
            "unreachable",
            "unschedulable",
        ];
        if host_network {
            want.push("network-unavailable");
            want.sort();
        }
        validate_pods_and_mark_ready(&mut sim, want.len());
        assert_eq!(
            pods_per_node(&sim).keys().cloned().collect::<Vec<_>>(),
            want,
            "hostNetwork {host_network}"
        );
        let st = get_ds(&sim, "foo").status;
        assert_eq!(st.desired_number_scheduled as usize, want.len());
        assert_eq!(st.number_ready as usize, want.len());
    }
}

/// `NodeShouldRunDaemonPod`: a template naming a node runs the daemon on that node only.
#[test]
fn template_node_name_pins_the_daemon() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 3, json!({}));
    let mut ds = new_daemon_set("foo", &strategies()[1]);
    ds["spec"]["template"]["spec"]["nodeName"] = json!("node-1");
    create_ds(&mut sim, ds);
    validate_pods_and_mark_ready(&mut sim, 1);
    assert_eq!(pods_per_node(&sim), [("node-1".to_string(), 1)].into());
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (
            st.desired_number_scheduled,
            st.current_number_scheduled,
            st.number_ready
        ),
        (1, 1, 1)
    );
}

/// `dsc.cleanupHistory`: beyond revisionHistoryLimit (2 in `newDaemonSet`) the oldest
/// revisions no pod uses are deleted; the current one and those pods still carry stay.
#[test]
fn revision_history_is_truncated_to_the_limit() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 2, json!({}));
    // OnDelete: the pods keep the first revision throughout.
    create_ds(&mut sim, new_daemon_set("foo", &strategies()[0]));
    validate_pods_and_mark_ready(&mut sim, 2);
    let first = hash_of(&pods(&sim)[0]);
    for i in 2..=6 {
        update_ds(&mut sim, "foo", |d| {
            d.spec.template_mut().spec_mut().containers[0].image = format!("bar:{i}")
        });
        sim.settle().unwrap();
    }
    let mut revs: Vec<(i64, String)> = sim
        .api
        .store
        .list::<ControllerRevision>(Some(NS))
        .map(|r| (r.revision, hash_of_rev(r)))
        .collect();
    revs.sort();
    // Unlike the StatefulSet's `truncateHistory`, the DaemonSet's `cleanupHistory` counts
    // every non-current revision against the limit, live ones included: of 1..=5 three must
    // go, revision 1 (the pods' hash) is skipped, so 2, 3 and 4 are deleted.
    assert_eq!(revs.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 5, 6]);
    assert_eq!(revs[0].1, first);
    assert!(pods(&sim).iter().all(|p| hash_of(p) == first));
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (st.updated_number_scheduled, st.current_number_scheduled),
        (0, 2)
    );
}

/// Rolling-update budgets are scaled from percentages rounding up
/// (`GetScaledValueFromIntOrPercent(..., true)` in `updatedDesiredNodeCounts`): 10% of three
/// nodes allows one pod down at a time, 50% two.
#[test]
fn max_unavailable_percent_rounds_up() {
    for (pct, want_down) in [("10%", 1usize), ("50%", 2), ("100%", 3)] {
        let mut sim = new_sim();
        add_nodes(&mut sim, 0, 3, json!({}));
        let strategy = json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": pct}});
        create_ds(&mut sim, new_daemon_set("foo", &strategy));
        validate_pods_and_mark_ready(&mut sim, 3);
        let old_hash = hash_of(&pods(&sim)[0]);
        update_ds(&mut sim, "foo", |d| {
            d.spec.template_mut().spec_mut().containers[0].image = "bar:2".into()
        });
        sim.settle().unwrap();
        // Replaced pods are new and not ready; the old ones still there are ready.
        let new_count = pods(&sim).iter().filter(|p| hash_of(p) != old_hash).count();
        assert_eq!(new_count, want_down, "{pct}");
        let st = get_ds(&sim, "foo").status;
        assert_eq!(st.number_ready as usize, 3 - want_down, "{pct}");
        assert_eq!(st.number_unavailable as usize, want_down, "{pct}");
    }
}

/// A taint added under a running daemon (`nodeShouldRunDaemonPod`: shouldRun vs
/// shouldContinueRunning): NoSchedule keeps the pod, now counted as misscheduled; NoExecute
/// removes it.
#[test]
fn taints_added_under_a_running_daemon() {
    for strategy in strategies() {
        let mut sim = new_sim();
        add_nodes(&mut sim, 0, 2, json!({}));
        create_ds(&mut sim, new_daemon_set("foo", &strategy));
        validate_pods_and_mark_ready(&mut sim, 2);
        let taint = |sim: &mut Simulation, effect: &str| {
            let mut n = sim.api.store.get::<Node>("", "node-1").cloned().unwrap();
            n.spec.taints =
                serde_json::from_value(json!([{"key": "k", "effect": effect}])).unwrap();
            sim.api.update(Object::Node(n)).unwrap();
        };
        taint(&mut sim, "NoSchedule");
        sim.settle().unwrap();
        assert_eq!(pods(&sim).len(), 2, "NoSchedule does not evict");
        let st = get_ds(&sim, "foo").status;
        assert_eq!(
            (
                st.desired_number_scheduled,
                st.current_number_scheduled,
                st.number_misscheduled,
                st.number_ready,
                st.number_available,
                st.number_unavailable
            ),
            (1, 1, 1, 1, 1, 0)
        );
        taint(&mut sim, "NoExecute");
        sim.settle().unwrap();
        assert_eq!(pods_per_node(&sim), [("node-0".to_string(), 1)].into());
        let st = get_ds(&sim, "foo").status;
        assert_eq!(
            (
                st.desired_number_scheduled,
                st.current_number_scheduled,
                st.number_misscheduled
            ),
            (1, 1, 0)
        );
    }
}

/// DaemonSet minReadySeconds (`updateDaemonSetStatus` requeues after minReadySeconds while
/// numberReady != numberAvailable): ready pods become available on the clock.
#[test]
fn min_ready_seconds_availability_follows_the_clock() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 2, json!({}));
    let mut ds = new_daemon_set("foo", &strategies()[1]);
    ds["spec"]["minReadySeconds"] = json!(20);
    create_ds(&mut sim, ds);
    validate_pods_and_mark_ready(&mut sim, 2);
    let t = sim.now();
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (st.number_ready, st.number_available, st.number_unavailable),
        (2, 0, 2)
    );
    sim.run_until(t + kubeplay::api::Duration::from_secs(21))
        .unwrap();
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (st.number_ready, st.number_available, st.number_unavailable),
        (2, 2, 0)
    );
}

/// `getUnscheduledPodsWithoutNode` (in `manage`): a daemon pod the scheduler could not place
/// is deleted by the controller on its next sync after its node is gone (pod GC only handles
/// bound pods).
#[test]
fn unscheduled_pod_of_a_deleted_node_is_removed() {
    let mut sim = new_sim();
    let mut ds = new_daemon_set("foo", &strategies()[1]);
    ds["spec"]["template"]["spec"]["containers"][0]["resources"] =
        json!({"requests": {"memory": "120M", "cpu": "75m"}});
    create_ds(&mut sim, ds);
    let mut node = new_node("small", json!({}));
    node["status"]["allocatable"] = json!({"memory": "100M", "cpu": "200m", "pods": "100"});
    create_node(&mut sim, node);
    let mut big = new_node("big", json!({}));
    big["status"]["allocatable"] = json!({"memory": "200M", "cpu": "2000m", "pods": "100"});
    create_node(&mut sim, big);
    validate_pods_and_mark_ready(&mut sim, 2);
    assert_eq!(
        pods_per_node(&sim),
        [(String::new(), 1), ("big".to_string(), 1)].into()
    );
    sim.api
        .delete("Node", "", "small", &Default::default())
        .unwrap();
    sim.settle().unwrap();
    // Upstream's node informer has no delete handler: nothing happens until the set is
    // synced for another reason (here: a metadata update of the set; upstream also the
    // informer resync).
    assert_eq!(
        pods_per_node(&sim),
        [(String::new(), 1), ("big".to_string(), 1)].into()
    );
    update_ds(&mut sim, "foo", |d| {
        d.metadata.annotations.insert("touch".into(), "1".into());
    });
    sim.settle().unwrap();
    assert_eq!(pods_per_node(&sim), [("big".to_string(), 1)].into());
    let st = get_ds(&sim, "foo").status;
    assert_eq!(
        (
            st.desired_number_scheduled,
            st.current_number_scheduled,
            st.number_ready
        ),
        (1, 1, 1)
    );
}

/// Surge (`rollingUpdate` with maxSurge): a node whose old pod is not available is replaced
/// at once (`allowedNewNodes`) without using the surge budget, so one node with an available
/// old pod is surged onto as well; the rest wait. The unready old pod is then removed by the
/// manage loop.
#[test]
fn surge_replaces_unavailable_old_pods_outside_the_budget() {
    let mut sim = new_sim();
    add_nodes(&mut sim, 0, 3, json!({}));
    let strategy =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}});
    create_ds(&mut sim, new_daemon_set("foo", &strategy));
    validate_pods_and_mark_ready(&mut sim, 3);
    let old_hash = hash_of(&pods(&sim)[0]);
    // node-2's pod turns unready.
    let mut p = pods(&sim)
        .into_iter()
        .find(|p| p.spec.node_name == "node-2")
        .unwrap();
    p.status.conditions.iter_mut().for_each(|c| {
        if c.type_ == "Ready" {
            c.status = "False".into()
        }
    });
    sim.api.update_status(Object::Pod(p)).unwrap();
    sim.settle().unwrap();
    update_ds(&mut sim, "foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "bar:2".into()
    });
    sim.settle().unwrap();
    let mut new_nodes: Vec<String> = pods(&sim)
        .iter()
        .filter(|p| hash_of(p) != old_hash)
        .map(|p| p.spec.node_name.clone())
        .collect();
    new_nodes.sort();
    assert_eq!(new_nodes.len(), 2, "{new_nodes:?}");
    assert!(new_nodes.contains(&"node-2".to_string()));
    // `podsShouldBeOnNode` with surge: when the old pod is not ready it goes as soon as a new
    // one exists ("if neither pod is ready, only the one matching the current hash is kept");
    // the ready old pod on the other surged node stays beside its new pod.
    assert_eq!(pods(&sim).len(), 4);
    let on2: Vec<bool> = pods(&sim)
        .iter()
        .filter(|p| p.spec.node_name == "node-2")
        .map(|p| hash_of(p) == old_hash)
        .collect();
    assert_eq!(on2, [false]);
}
