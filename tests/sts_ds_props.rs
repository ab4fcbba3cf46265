//! Property tests on the full simulation, checked at every reconcile:
//!
//! * OrderedReady StatefulSet: ordinal `k` is never created before every lower ordinal is
//!   Running and Ready, and a condemned `k` is never deleted before every higher ordinal is gone
//!   (and while a remaining replica is unhealthy) — under random scaling, pod deletions and node
//!   failures; and the set converges afterwards.
//! * DaemonSet (no surge): no node ever runs two live pods of the set, and once things settle
//!   every eligible node runs exactly one up-to-date, ready pod — under random node joins,
//!   removals, taints, labels, cordons, failures and template updates.

use kubeplay::api::{
    ControllerRevision, DaemonSet, Duration, EventRecord, Node, Object, Pod, StatefulSet, Taint,
    Time,
};
use kubeplay::controllers::daemon::node_should_run_daemon_pod;
use kubeplay::controllers::daemon::update::revision_matches;
use kubeplay::controllers::daemon::util::{
    get_target_node_name, DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY,
};
use kubeplay::controllers::statefulset::stateful_set_utils::{
    get_ordinal, is_running_and_ready, is_terminating,
};
use kubeplay::scenario::Scenario;
use kubeplay::sim::{Simulation, TimelineAction};
use kubeplay::store::apiserver::DeleteOptions;
use proptest::prelude::*;

/// A per-reconcile check: the simulation after the reconcile, the pods as the reconcile saw
/// them, and the events it emitted.
type Check<'a> = &'a mut dyn FnMut(&Simulation, &[Pod], &[EventRecord]);

/// Runs the simulation to `until` one reconcile at a time, calling `check` after each.
fn drive(sim: &mut Simulation, until: Time, check: Check) {
    let mut guard = 0u64;
    loop {
        guard += 1;
        assert!(guard < 200_000, "runaway simulation");
        let pods: Vec<Pod> = sim.api.store.list::<Pod>(None).cloned().collect();
        let before = sim.api.events.len();
        let progressed = sim.step().expect("no livelock");
        let new: Vec<EventRecord> = sim.api.events[before..].to_vec();
        check(sim, &pods, &new);
        if progressed {
            continue;
        }
        match sim.next_event_time() {
            Some(t) if t <= until => sim.api.now = t.max(sim.api.now),
            _ => {
                if until > sim.api.now {
                    sim.api.now = until;
                    continue;
                }
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// StatefulSet
// ---------------------------------------------------------------------------------------------

const STS_SCENARIO: &str = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata: {name: sts-props}
seed: 5
kubelet: {readiness: 2s}
manifests: |
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: web}
  spec:
    selector: {matchLabels: {app: nginx}}
    serviceName: nginx
    replicas: 2
    template:
      metadata: {labels: {app: nginx}}
      spec:
        terminationGracePeriodSeconds: 5
        containers:
        - {name: nginx, image: registry.k8s.io/nginx-slim:0.24}
    volumeClaimTemplates:
    - metadata: {name: www}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
"#;

#[derive(Clone, Debug)]
enum StsOp {
    Scale(i32),
    DeletePod(i32),
    NodeFail(u8),
    NodeRecover(u8),
}

fn sts_op() -> impl Strategy<Value = StsOp> {
    prop_oneof![
        3 => (0i32..=5).prop_map(StsOp::Scale),
        3 => (0i32..5).prop_map(StsOp::DeletePod),
        1 => (1u8..=3).prop_map(StsOp::NodeFail),
        1 => (1u8..=3).prop_map(StsOp::NodeRecover),
    ]
}

fn parse_msg(m: &str, verb: &str) -> Option<i32> {
    let rest = m.strip_prefix(&format!("{verb} Pod web-"))?;
    let (n, tail) = rest.split_once(' ')?;
    if tail != "in StatefulSet web successful" {
        return None;
    }
    n.parse().ok()
}

fn check_ordered_ready(sim: &Simulation, pods: &[Pod], events: &[EventRecord]) {
    let pod = |o: i32| pods.iter().find(|p| p.metadata.name == format!("web-{o}"));
    let healthy = |o: i32| pod(o).is_some_and(|p| is_running_and_ready(p) && !is_terminating(p));
    for e in events
        .iter()
        .filter(|e| e.source == "statefulset-controller")
    {
        if let Some(k) = parse_msg(&e.message, "create") {
            for j in 0..k {
                assert!(
                    healthy(j),
                    "web-{k} created at {} while web-{j} is not Running and Ready: {:?}",
                    e.time,
                    pod(j).map(|p| (&p.status.phase, p.metadata.deletion_timestamp))
                );
            }
        }
        if let Some(k) = parse_msg(&e.message, "delete") {
            let replicas = sim
                .api
                .store
                .get::<StatefulSet>("default", "web")
                .map(|s| s.replicas())
                .unwrap_or(0);
            let victim = pod(k).expect("deleted pod existed");
            if k < replicas {
                // Only failed or succeeded replicas are deleted (no template changes here).
                assert!(
                    matches!(victim.status.phase.as_str(), "Failed" | "Succeeded"),
                    "in-range web-{k} deleted while {}",
                    victim.status.phase
                );
                continue;
            }
            for p in pods {
                let o = get_ordinal(p);
                assert!(o <= k, "web-{k} deleted before web-{o} was gone");
            }
            for j in 0..replicas {
                assert!(
                    healthy(j),
                    "web-{k} deleted while replica web-{j} is unhealthy"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn ordered_ready_creates_upward_and_deletes_downward(
        ops in prop::collection::vec((sts_op(), 1i64..40), 0..8),
    ) {
        let mut sim = Scenario::parse(STS_SCENARIO).unwrap().build().unwrap();
        let mut t = sim.start + Duration::from_secs(20);
        drive(&mut sim, t, &mut check_ordered_ready);
        let mut replicas = 2;
        for (op, gap) in ops {
            match op {
                StsOp::Scale(n) => {
                    replicas = n;
                    let mut s = sim.api.store.get::<StatefulSet>("default", "web").cloned().unwrap();
                    s.spec.replicas = Some(n);
                    s.metadata.resource_version.clear();
                    sim.api.update(Object::StatefulSet(s)).unwrap();
                }
                StsOp::DeletePod(o) => {
                    let _ = sim.api.delete("Pod", "default", &format!("web-{o}"), &DeleteOptions::default());
                }
                StsOp::NodeFail(n) => sim.apply_action(TimelineAction::NodeFail(format!("node-{n}"))),
                StsOp::NodeRecover(n) => sim.apply_action(TimelineAction::NodeRecover(format!("node-{n}"))),
            }
            t = t + Duration::from_secs(gap);
            drive(&mut sim, t, &mut check_ordered_ready);
        }
        // Heal the cluster and let it settle: the set converges to its replicas.
        for n in 1..=3 {
            sim.apply_action(TimelineAction::NodeRecover(format!("node-{n}")));
        }
        t = t + Duration::from_mins(20);
        drive(&mut sim, t, &mut check_ordered_ready);
        let mut names: Vec<String> = sim.api.store.list::<Pod>(Some("default")).map(|p| p.metadata.name.clone()).collect();
        names.sort_by_key(|n| n[4..].parse::<i32>().unwrap());
        let want: Vec<String> = (0..replicas).map(|o| format!("web-{o}")).collect();
        prop_assert_eq!(names, want);
        let s = sim.api.store.get::<StatefulSet>("default", "web").unwrap();
        prop_assert_eq!(s.status.ready_replicas, replicas);
    }
}

// ---------------------------------------------------------------------------------------------
// DaemonSet
// ---------------------------------------------------------------------------------------------

const DS_SCENARIO: &str = r#"
apiVersion: kubeplay.dev/v1alpha1
kind: Scenario
metadata: {name: ds-props}
seed: 6
nodes:
- {count: 4, namePrefix: node-}
kubelet: {readiness: 1s}
manifests: |
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: agent}
  spec:
    selector: {matchLabels: {app: agent}}
    template:
      metadata: {labels: {app: agent}}
      spec:
        terminationGracePeriodSeconds: 5
        nodeSelector: {kubernetes.io/os: linux}
        containers:
        - {name: agent, image: agent:1}
"#;

#[derive(Clone, Debug)]
enum DsOp {
    AddNode(u8),
    DeleteNode(u8),
    Taint(u8, bool),
    Untaint(u8),
    Relabel(u8, bool),
    Cordon(u8, bool),
    NodeFail(u8),
    NodeRecover(u8),
    UpdateTemplate(u8),
}

fn ds_op() -> impl Strategy<Value = DsOp> {
    let node = 1u8..=6;
    prop_oneof![
        (node.clone()).prop_map(DsOp::AddNode),
        (node.clone()).prop_map(DsOp::DeleteNode),
        (node.clone(), any::<bool>()).prop_map(|(n, e)| DsOp::Taint(n, e)),
        (node.clone()).prop_map(DsOp::Untaint),
        (node.clone(), any::<bool>()).prop_map(|(n, l)| DsOp::Relabel(n, l)),
        (node.clone(), any::<bool>()).prop_map(|(n, c)| DsOp::Cordon(n, c)),
        (node.clone()).prop_map(DsOp::NodeFail),
        (node.clone()).prop_map(DsOp::NodeRecover),
        (0u8..4).prop_map(DsOp::UpdateTemplate),
    ]
}

fn check_one_pod_per_node(sim: &Simulation, _pods: &[Pod], _events: &[EventRecord]) {
    let mut seen = std::collections::BTreeMap::new();
    for p in sim.api.store.list::<Pod>(Some("default")) {
        if p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let node = get_target_node_name(p).expect("daemon pods are pinned");
        if let Some(other) = seen.insert(node.clone(), p.metadata.name.clone()) {
            panic!(
                "node {node} runs {other} and {} at {}",
                p.metadata.name, sim.api.now
            );
        }
    }
}

fn with_node(sim: &mut Simulation, n: u8, f: impl FnOnce(&mut Node)) {
    if let Some(mut node) = sim.api.store.get::<Node>("", &format!("node-{n}")).cloned() {
        f(&mut node);
        node.metadata.resource_version.clear();
        sim.api.update(Object::Node(node)).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn daemon_set_one_pod_per_eligible_node(
        ops in prop::collection::vec((ds_op(), 1i64..60), 0..10),
    ) {
        let mut sim = Scenario::parse(DS_SCENARIO).unwrap().build().unwrap();
        let mut t = sim.start + Duration::from_secs(10);
        drive(&mut sim, t, &mut check_one_pod_per_node);
        for (op, gap) in ops {
            match op {
                DsOp::AddNode(n) => {
                    let mut node = Node::default();
                    node.metadata.name = format!("node-{n}");
                    node.metadata.labels = [("kubernetes.io/os".to_string(), "linux".to_string())].into();
                    let _ = sim.api.create(Object::Node(node));
                }
                DsOp::DeleteNode(n) => {
                    let _ = sim.api.delete("Node", "", &format!("node-{n}"), &DeleteOptions::default());
                }
                DsOp::Taint(n, execute) => with_node(&mut sim, n, |node| {
                    node.spec.taints.retain(|t| t.key != "test");
                    node.spec.taints.push(Taint {
                        key: "test".into(),
                        value: String::new(),
                        effect: if execute { "NoExecute" } else { "NoSchedule" }.into(),
                        time_added: None,
                    });
                }),
                DsOp::Untaint(n) => with_node(&mut sim, n, |node| node.spec.taints.retain(|t| t.key != "test")),
                DsOp::Relabel(n, linux) => with_node(&mut sim, n, |node| {
                    node.metadata.labels.insert(
                        "kubernetes.io/os".into(),
                        if linux { "linux" } else { "windows" }.into(),
                    );
                }),
                DsOp::Cordon(n, c) => with_node(&mut sim, n, |node| node.spec.unschedulable = c),
                DsOp::NodeFail(n) => sim.apply_action(TimelineAction::NodeFail(format!("node-{n}"))),
                DsOp::NodeRecover(n) => sim.apply_action(TimelineAction::NodeRecover(format!("node-{n}"))),
                DsOp::UpdateTemplate(v) => {
                    let mut ds = sim.api.store.get::<DaemonSet>("default", "agent").cloned().unwrap();
                    ds.spec.template_mut().spec_mut().containers[0].image = format!("agent:{}", v + 2);
                    ds.metadata.resource_version.clear();
                    sim.api.update(Object::DaemonSet(ds)).unwrap();
                }
            }
            t = t + Duration::from_secs(gap);
            drive(&mut sim, t, &mut check_one_pod_per_node);
        }
        // Heal every kubelet and settle.
        for n in 1..=6 {
            sim.apply_action(TimelineAction::NodeRecover(format!("node-{n}")));
        }
        t = t + Duration::from_mins(20);
        drive(&mut sim, t, &mut check_one_pod_per_node);

        let ds = sim.api.store.get::<DaemonSet>("default", "agent").cloned().unwrap();
        let hash = sim
            .api
            .store
            .list::<ControllerRevision>(Some("default"))
            .find(|r| revision_matches(&ds, r))
            .map(|r| r.metadata.labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY].clone())
            .expect("current revision");
        let nodes: Vec<Node> = sim.api.store.list::<Node>(None).cloned().collect();
        let mut desired = 0;
        for node in &nodes {
            let (run, cont) = node_should_run_daemon_pod(node, &ds);
            let pods: Vec<&Pod> = sim
                .api
                .store
                .list::<Pod>(Some("default"))
                .filter(|p| p.metadata.deletion_timestamp.is_none())
                .filter(|p| get_target_node_name(p).ok().as_deref() == Some(node.metadata.name.as_str()))
                .collect();
            if run {
                desired += 1;
                prop_assert_eq!(pods.len(), 1, "eligible {} has {} pods", node.metadata.name, pods.len());
                let p = pods[0];
                prop_assert!(p.status.phase == "Running" && p.condition("Ready").is_some_and(|c| c.status == "True"),
                    "{} not ready on {}", p.metadata.name, node.metadata.name);
                prop_assert_eq!(p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY), Some(&hash));
            } else if !cont {
                prop_assert!(pods.is_empty(), "{} should not keep a pod", node.metadata.name);
            }
        }
        prop_assert_eq!(ds.status.desired_number_scheduled, desired);
        prop_assert_eq!(ds.status.number_ready, desired);
        prop_assert_eq!(ds.status.updated_number_scheduled, desired);
    }
}
