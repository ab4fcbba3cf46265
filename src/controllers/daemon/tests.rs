//! DaemonSet controller tests: ports of `daemon_controller_test.go`, `update_test.go` and
//! `util/daemonset_util_test.go` rows, on a simulation that runs only the DaemonSet controller
//! (no scheduler: daemon pods stay pinned by node affinity; readiness is set by hand).

use super::daemon_controller::*;
use super::update::*;
use super::util::*;
use crate::api::{
    Affinity, ControllerRevision, DaemonSet, Duration, IntOrString, Node, NodeAffinity,
    NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Object, ObjectMeta, Pod, Taint, Time,
    Toleration,
};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::store::apiserver::DeleteOptions;
use crate::test_fixtures::taint;
use crate::world::World;
use serde_json::json;
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

/// `newDaemonSet(name)`: selector and template labels `name=simple-daemon, type=production`.
fn new_daemon_set(name: &str) -> DaemonSet {
    let mut ds: DaemonSet = serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"name": "simple-daemon", "type": "production"}},
            "template": {
                "metadata": {"labels": {"name": "simple-daemon", "type": "production"}},
                "spec": {"containers": [{"name": "foo-bar", "image": "foo/bar"}]}
            }
        }
    }))
    .unwrap();
    crate::api::sts_ds_defaults::set_defaults_daemon_set(&mut ds);
    ds
}

/// `newNode(name, labels)`.
fn new_node(name: &str, labels: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.metadata.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    n.status.conditions = vec![crate::api::NodeCondition {
        type_: "Ready".into(),
        status: "True".into(),
        ..Default::default()
    }];
    n
}

const SIMPLE_LABEL: &[(&str, &str)] = &[("name", "simple-daemon"), ("type", "production")];

// ---------------------------------------------------------------------------------------------
// NodeShouldRunDaemonPod (daemon_controller_test.go)
// ---------------------------------------------------------------------------------------------

fn with_spec(spec: serde_json::Value) -> DaemonSet {
    let mut ds = new_daemon_set("ds");
    let mut t = serde_json::to_value(&ds.spec.template.spec).unwrap();
    for (k, v) in spec.as_object().unwrap() {
        t[k] = v.clone();
    }
    ds.spec.template_mut().spec = serde_json::from_value(t).unwrap();
    ds
}

// Port of TestNodeShouldRunDaemonPod (resource and host-port rows: the scheduler's business,
// so they run).
#[test]
fn node_should_run_daemon_pod_table() {
    let resources = json!({"containers": [{"name": "c", "image": "i",
        "resources": {"requests": {"memory": "200M", "cpu": "0.5"}},
        "ports": [{"containerPort": 80, "hostPort": 666}]}]});
    let affinity = |v: &str| {
        json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "type", "operator": "In", "values": [v]}]}]}}}})
    };
    let rows: Vec<(&str, DaemonSet, bool, bool, bool)> = vec![
        (
            "ShouldRunDaemonPod",
            new_daemon_set("ds"),
            false,
            true,
            true,
        ),
        (
            "InsufficientResourceError / host ports",
            with_spec(resources),
            false,
            true,
            true,
        ),
        (
            "ErrPodNotMatchHostName",
            with_spec(json!({"nodeName": "other-node"})),
            false,
            false,
            false,
        ),
        (
            "ErrNodeSelectorNotMatch",
            with_spec(json!({"nodeSelector": {"name": "simple-daemon", "type": "canary"}})),
            false,
            false,
            false,
        ),
        (
            "ShouldRunDaemonPod (nodeSelector)",
            with_spec(json!({"nodeSelector": {"name": "simple-daemon", "type": "production"}})),
            false,
            true,
            true,
        ),
        (
            "ErrPodAffinityNotMatch",
            with_spec(affinity("test")),
            false,
            false,
            false,
        ),
        (
            "ShouldRunDaemonPod (affinity)",
            with_spec(affinity("production")),
            false,
            true,
            true,
        ),
        (
            "ShouldRunDaemonPodOnUnschedulableNode",
            new_daemon_set("ds"),
            true,
            true,
            true,
        ),
        (
            "template nodeName of this node",
            with_spec(json!({"nodeName": "test-node"})),
            false,
            true,
            true,
        ),
    ];
    for (name, ds, unschedulable, run, cont) in rows {
        for strategy in ["RollingUpdate", "OnDelete"] {
            let mut ds = ds.clone();
            ds.spec.update_strategy.type_ = strategy.into();
            let mut node = new_node("test-node", SIMPLE_LABEL);
            node.spec.unschedulable = unschedulable;
            assert_eq!(
                node_should_run_daemon_pod(&node, &ds),
                (run, cont),
                "{name} ({strategy})"
            );
        }
    }
}

// Ports of TestTaintedNodeDaemonDoesNotLaunchIntolerantPod, TestTaintedNodeDaemonLaunchesToleratePod,
// TestNotReadyNodeDaemonLaunchesPod, TestUnreachableTaintedNodeDaemonLaunchesPod,
// TestTaintPressureNodeDaemonLaunchesPod, TestNetworkUnavailableNodeDaemonLaunchesPod,
// TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod and
// TestNoExecuteTaintedDoesEvictRunningIntolerantPod — as (shouldRun, shouldContinueRunning).
#[test]
fn taints_and_the_automatic_tolerations() {
    let ds = new_daemon_set("ds");
    let host_net = with_spec(json!({"hostNetwork": true}));
    let tolerant = with_spec(json!({"tolerations": [
        {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}]}));
    type Row<'a> = (&'a str, Vec<Taint>, &'a DaemonSet, (bool, bool));
    let rows: Vec<Row> = vec![
        (
            "untolerated NoSchedule",
            vec![taint("dedicated", "gpu", "NoSchedule")],
            &ds,
            (false, true),
        ),
        (
            "tolerated NoSchedule",
            vec![taint("dedicated", "gpu", "NoSchedule")],
            &tolerant,
            (true, true),
        ),
        (
            "untolerated NoExecute",
            vec![taint("dedicated", "gpu", "NoExecute")],
            &ds,
            (false, false),
        ),
        (
            "PreferNoSchedule is ignored",
            vec![taint("dedicated", "gpu", "PreferNoSchedule")],
            &ds,
            (true, true),
        ),
        (
            "not-ready NoExecute",
            vec![taint(TAINT_NODE_NOT_READY, "", "NoExecute")],
            &ds,
            (true, true),
        ),
        (
            "unreachable NoExecute",
            vec![taint(TAINT_NODE_UNREACHABLE, "", "NoExecute")],
            &ds,
            (true, true),
        ),
        // The node lifecycle controller's NoSchedule twins are not tolerated: no new pods,
        // running ones stay.
        (
            "not-ready NoSchedule",
            vec![taint(TAINT_NODE_NOT_READY, "", "NoSchedule")],
            &ds,
            (false, true),
        ),
        (
            "unreachable NoSchedule",
            vec![taint(TAINT_NODE_UNREACHABLE, "", "NoSchedule")],
            &ds,
            (false, true),
        ),
        (
            "pressure taints",
            vec![
                taint(TAINT_NODE_DISK_PRESSURE, "", "NoSchedule"),
                taint(TAINT_NODE_MEMORY_PRESSURE, "", "NoSchedule"),
                taint(TAINT_NODE_PID_PRESSURE, "", "NoSchedule"),
            ],
            &ds,
            (true, true),
        ),
        (
            "cordoned",
            vec![taint(TAINT_NODE_UNSCHEDULABLE, "", "NoSchedule")],
            &ds,
            (true, true),
        ),
        (
            "network unavailable",
            vec![taint(TAINT_NODE_NETWORK_UNAVAILABLE, "", "NoSchedule")],
            &ds,
            (false, true),
        ),
        (
            "network unavailable, host network",
            vec![taint(TAINT_NODE_NETWORK_UNAVAILABLE, "", "NoSchedule")],
            &host_net,
            (true, true),
        ),
    ];
    for (name, taints, ds, want) in rows {
        let mut node = new_node("n", &[]);
        node.spec.taints = taints;
        assert_eq!(node_should_run_daemon_pod(&node, ds), want, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// util/daemonset_util_test.go
// ---------------------------------------------------------------------------------------------

// Port of TestAddOrUpdateDaemonPodTolerations (and AddOrUpdateTolerationInPodSpec).
#[test]
fn daemon_tolerations() {
    let mut spec = crate::api::PodSpec::default();
    add_or_update_daemon_pod_tolerations(&mut spec);
    let got: Vec<(String, String)> = spec
        .tolerations
        .iter()
        .map(|t| (t.key.clone(), t.effect.clone()))
        .collect();
    let want: Vec<(String, String)> = [
        (TAINT_NODE_NOT_READY, "NoExecute"),
        (TAINT_NODE_UNREACHABLE, "NoExecute"),
        (TAINT_NODE_DISK_PRESSURE, "NoSchedule"),
        (TAINT_NODE_MEMORY_PRESSURE, "NoSchedule"),
        (TAINT_NODE_PID_PRESSURE, "NoSchedule"),
        (TAINT_NODE_UNSCHEDULABLE, "NoSchedule"),
    ]
    .iter()
    .map(|(k, e)| (k.to_string(), e.to_string()))
    .collect();
    assert_eq!(got, want);
    assert!(spec
        .tolerations
        .iter()
        .all(|t| t.operator == "Exists" && t.toleration_seconds.is_none()));
    // Idempotent.
    let before = spec.tolerations.clone();
    add_or_update_daemon_pod_tolerations(&mut spec);
    assert_eq!(spec.tolerations, before);
    // A matching toleration with seconds is replaced by the forever one.
    let mut spec = crate::api::PodSpec {
        tolerations: vec![Toleration {
            key: TAINT_NODE_NOT_READY.into(),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            toleration_seconds: Some(300),
            ..Default::default()
        }],
        ..Default::default()
    };
    add_or_update_daemon_pod_tolerations(&mut spec);
    assert_eq!(spec.tolerations[0].toleration_seconds, None);
    assert_eq!(spec.tolerations.len(), 6);
    // Host network adds network-unavailable.
    let mut spec = crate::api::PodSpec::default();
    spec.extra.insert("hostNetwork".into(), json!(true));
    add_or_update_daemon_pod_tolerations(&mut spec);
    assert_eq!(spec.tolerations.len(), 7);
    assert_eq!(spec.tolerations[6].key, TAINT_NODE_NETWORK_UNAVAILABLE);
}

fn term(fields: &[(&str, &str, &[&str])], exprs: &[(&str, &str, &[&str])]) -> NodeSelectorTerm {
    let req = |(k, o, v): &(&str, &str, &[&str])| NodeSelectorRequirement {
        key: k.to_string(),
        operator: o.to_string(),
        values: v.iter().map(|s| s.to_string()).collect(),
    };
    NodeSelectorTerm {
        match_fields: fields.iter().map(req).collect(),
        match_expressions: exprs.iter().map(req).collect(),
    }
}

fn required(terms: Vec<NodeSelectorTerm>) -> Affinity {
    Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: terms,
            }),
            ..Default::default()
        }),
        ..Default::default()
    }
}

// Port of TestReplaceDaemonSetPodNodeNameNodeAffinity.
#[test]
fn replace_node_name_affinity() {
    let want = required(vec![term(&[("metadata.name", "In", &["host_1"])], &[])]);
    assert_eq!(
        replace_daemon_set_pod_node_name_node_affinity(None, "host_1"),
        want
    );
    // Existing terms (labels or another node) are replaced.
    let existing = required(vec![
        term(&[], &[("hostname", "In", &["host_2"])]),
        term(&[("metadata.name", "In", &["host_2"])], &[]),
    ]);
    assert_eq!(
        replace_daemon_set_pod_node_name_node_affinity(Some(existing), "host_1"),
        want
    );
    // Preferred terms and other affinities survive.
    let mut a = Affinity::default();
    a.extra.insert("podAffinity".into(), json!({}));
    let mut na = NodeAffinity::default();
    na.extra.insert(
        "preferredDuringSchedulingIgnoredDuringExecution".into(),
        json!([{"weight": 1, "preference": {}}]),
    );
    a.node_affinity = Some(na);
    let r = replace_daemon_set_pod_node_name_node_affinity(Some(a), "host_1");
    assert!(r.extra.contains_key("podAffinity"));
    let na = r.node_affinity.unwrap();
    assert!(na
        .extra
        .contains_key("preferredDuringSchedulingIgnoredDuringExecution"));
    assert_eq!(
        na.required_during_scheduling_ignored_during_execution,
        want.node_affinity
            .unwrap()
            .required_during_scheduling_ignored_during_execution
    );
}

// Port of TestGetTargetNodeName.
#[test]
fn target_node_name() {
    let mut p = Pod::default();
    p.metadata.namespace = "default".into();
    p.metadata.name = "pod1".into();
    p.spec_mut().node_name = "node-1".into();
    assert_eq!(get_target_node_name(&p), Ok("node-1".into()));
    p.spec_mut().node_name.clear();
    p.spec_mut().affinity = Some(required(vec![term(
        &[("metadata.name", "In", &["node-1"])],
        &[],
    )]));
    assert_eq!(get_target_node_name(&p), Ok("node-1".into()));
    p.spec_mut().affinity = Some(required(vec![term(
        &[("metadata.name", "In", &["node-1", "node-2"])],
        &[],
    )]));
    assert_eq!(
        get_target_node_name(&p),
        Err("the matchFields value of 'metadata.name' is not unique for pod default/pod1".into())
    );
    p.spec_mut().affinity = Some(required(vec![]));
    assert!(get_target_node_name(&p)
        .unwrap_err()
        .starts_with("no nodeSelectorTerms"));
    p.spec_mut().affinity = None;
    assert_eq!(
        get_target_node_name(&p),
        Err("no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod default/pod1".into())
    );
    p.spec_mut().affinity = Some(required(vec![term(&[], &[("a", "In", &["b"])])]));
    assert_eq!(
        get_target_node_name(&p),
        Err("no node name found for pod default/pod1".into())
    );
}

// Ports of TestIsPodUpdated and TestCreatePodTemplate.
#[test]
fn pod_updated_and_template() {
    let ds = new_daemon_set("ds");
    let t = create_pod_template(&ds.spec.template, Some(5), "hash-1");
    assert_eq!(t.metadata.labels[DAEMON_SET_TEMPLATE_GENERATION_KEY], "5");
    assert_eq!(
        t.metadata.labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY],
        "hash-1"
    );
    assert_eq!(t.spec.tolerations.len(), 6);
    let t2 = create_pod_template(&ds.spec.template, None, "");
    assert!(!t2
        .metadata
        .labels
        .contains_key(DAEMON_SET_TEMPLATE_GENERATION_KEY));
    assert!(!t2
        .metadata
        .labels
        .contains_key(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY));

    let pod = |gen: Option<&str>, hash: Option<&str>| {
        let mut p = Pod::default();
        if let Some(g) = gen {
            p.metadata
                .labels
                .insert(DAEMON_SET_TEMPLATE_GENERATION_KEY.into(), g.into());
        }
        if let Some(h) = hash {
            p.metadata
                .labels
                .insert(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(), h.into());
        }
        p
    };
    // (pod generation, pod hash, ds generation, ds hash, updated)
    let rows = [
        (Some("1"), Some("h1"), Some(1), "h1", true),
        (Some("1"), Some("h1"), Some(1), "h2", true),
        (Some("1"), Some("h1"), Some(2), "h1", true),
        (Some("1"), Some("h1"), Some(2), "h2", false),
        (None, Some("h1"), None, "h1", true),
        (None, None, Some(1), "", false),
        (Some("1"), None, Some(1), "", true),
        (None, Some("h1"), Some(1), "", false),
    ];
    for (pg, ph, g, h, want) in rows {
        assert_eq!(
            is_pod_updated(&pod(pg, ph), h, g),
            want,
            "{pg:?} {ph:?} {g:?} {h}"
        );
    }
}

/// `GetTemplateGeneration` returns the `strconv.ParseInt` error for an annotation that is not
/// an int64, and every caller goes on with a nil generation ("The controller handles this via
/// the hash", daemon_controller.go / update.go): the pods are told apart by their hash alone,
/// with no sync error. (The API server does not store such a DaemonSet; this one is put into
/// the store directly.)
#[test]
fn unparseable_template_generation_is_ignored() {
    let mut ds = new_daemon_set("foo");
    ds.metadata.annotations.insert(
        crate::api::sts_ds_defaults::DEPRECATED_TEMPLATE_GENERATION.into(),
        "one".into(),
    );
    assert_eq!(
        get_template_generation(&ds),
        Err("strconv.ParseInt: parsing \"one\": invalid syntax".to_string())
    );
    let pod = |name: &str, gen: &str, hash: &str| {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.metadata
            .labels
            .insert(DAEMON_SET_TEMPLATE_GENERATION_KEY.into(), gen.into());
        p.metadata
            .labels
            .insert(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(), hash.into());
        p
    };
    // A pod whose generation label happens to read "one" is not new for it; the hash decides.
    let pods = [pod("old", "one", "h1"), pod("new", "0", "h2")];
    let (new, old) = find_updated_pods_on_node(&ds, &pods, "h2").unwrap();
    assert_eq!(new.map(|p| p.metadata.name.as_str()), Some("new"));
    assert_eq!(old.map(|p| p.metadata.name.as_str()), Some("old"));
    // Pods created for it carry no generation label.
    let t = create_pod_template(
        &ds.spec.template,
        get_template_generation(&ds).unwrap_or(None),
        "h2",
    );
    assert!(!t
        .metadata
        .labels
        .contains_key(DAEMON_SET_TEMPLATE_GENERATION_KEY));
}

// Port of TestGetUnavailableNumbers (update_test.go), through updatedDesiredNodeCounts.
#[test]
fn desired_node_counts() {
    let nodes: Vec<Node> = (0..5)
        .map(|i| new_node(&format!("node-{i}"), &[]))
        .collect();
    let ru = |mu: &str, ms: &str| {
        let mut ds = new_daemon_set("x");
        ds.spec.update_strategy.rolling_update = Some(crate::api::RollingUpdateDaemonSet {
            max_unavailable: Some(int_or_percent(mu)),
            max_surge: Some(int_or_percent(ms)),
        });
        ds
    };
    // (ds, nodes, (surge, unavailable, desired))
    type Row<'a> = (&'a str, DaemonSet, usize, (i32, i32, i32));
    let rows: Vec<Row> = vec![
        ("no nodes", ru("1", "0"), 0, (0, 1, 0)),
        ("maxUnavailable 1", ru("1", "0"), 5, (0, 1, 5)),
        ("maxUnavailable 50%", ru("50%", "0"), 5, (0, 3, 5)),
        ("maxSurge 2", ru("0", "2"), 5, (2, 0, 5)),
        ("maxSurge 50% rounds up", ru("0", "50%"), 5, (3, 0, 5)),
        ("both 0 accepts one unavailable", ru("0", "0"), 5, (0, 1, 5)),
    ];
    for (name, ds, n, want) in rows {
        let mut map: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
        let got =
            DaemonSetsController::updated_desired_node_counts(&ds, &nodes[..n], &mut map).unwrap();
        assert_eq!(got, want, "{name}");
        assert_eq!(map.len(), n, "{name}: every wanted node gets an entry");
    }
    let mut on_delete = new_daemon_set("x");
    on_delete.spec.update_strategy = crate::api::DaemonSetUpdateStrategy {
        type_: "OnDelete".into(),
        rolling_update: None,
    };
    let mut map = BTreeMap::new();
    assert_eq!(
        DaemonSetsController::updated_desired_node_counts(&on_delete, &nodes, &mut map).unwrap(),
        (0, 1, 5)
    );
    assert!(surge_count(&ru("0", "x%"), 5).is_err());
    assert!(allows_surge(&ru("0", "1")));
    assert!(!allows_surge(&ru("1", "0")));
}

#[test]
fn failed_pods_backoff() {
    let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(8));
    let t = Time::from_unix_secs(100);
    assert!(!b.is_in_back_off_since_update("k", t));
    b.next("k", t);
    assert_eq!(b.get("k"), Duration::from_secs(1));
    assert!(b.is_in_back_off_since_update("k", t));
    assert!(!b.is_in_back_off_since_update("k", t + Duration::from_secs(1)));
    let mut now = t;
    for want in [2, 4, 8, 8] {
        now = now + Duration::from_secs(1);
        b.next("k", now);
        assert_eq!(b.get("k"), Duration::from_secs(want));
    }
    // After 2 × max without an update the back-off starts over.
    now = now + Duration::from_secs(17);
    b.next("k", now);
    assert_eq!(b.get("k"), Duration::from_secs(1));
    b.gc(now + Duration::from_secs(17));
    assert_eq!(b.get("k"), Duration::ZERO);
}

#[test]
fn history_cleanup_keeps_live_and_newest() {
    let rev = |n: &str, r: i64, h: &str| ControllerRevision {
        metadata: ObjectMeta {
            name: n.into(),
            labels: [(
                DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.to_string(),
                h.to_string(),
            )]
            .into(),
            ..Default::default()
        },
        revision: r,
        ..Default::default()
    };
    let old = vec![
        rev("d", 4, "h4"),
        rev("a", 1, "h1"),
        rev("c", 3, "h3"),
        rev("b", 2, "h2"),
    ];
    let live = ["h1".to_string()].into();
    let gone: Vec<&str> = histories_to_clean_up(&old, &live, 2)
        .iter()
        .map(|r| r.metadata.name.as_str())
        .collect();
    assert_eq!(gone, ["b", "c"], "h1 is live; the oldest others go");
    assert!(histories_to_clean_up(&old, &live, 4).is_empty());
    assert_eq!(max_revision(&old), 4);
    assert_eq!(max_revision(&[]), 0);
}

// ---------------------------------------------------------------------------------------------
// The controller on a simulation
// ---------------------------------------------------------------------------------------------

const T0: i64 = 1_735_689_600;

struct Harness {
    sim: Simulation,
}

impl Harness {
    fn new(nodes: Vec<Node>) -> Self {
        Self::with_controller(nodes, DaemonSetsController::new())
    }

    fn with_controller(nodes: Vec<Node>, c: DaemonSetsController) -> Self {
        let mut sim = Simulation::new(
            1,
            Time::from_unix_secs(T0),
            FeatureGates::default(),
            World::default(),
        );
        for n in nodes {
            sim.api.load(Object::Node(n)).unwrap();
        }
        sim.add_loop(Box::new(c));
        Harness { sim }
    }

    fn create(&mut self, ds: DaemonSet) {
        self.sim.api.create(Object::DaemonSet(ds)).unwrap();
        self.settle();
    }

    fn settle(&mut self) {
        self.sim.settle().unwrap();
    }

    fn ds(&self, name: &str) -> DaemonSet {
        self.sim
            .api
            .store
            .get::<DaemonSet>("default", name)
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

    fn live_pods(&self) -> Vec<Pod> {
        self.pods()
            .into_iter()
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .collect()
    }

    /// node → live daemon pods on it.
    fn per_node(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for p in self.live_pods() {
            *m.entry(get_target_node_name(&p).unwrap()).or_default() += 1;
        }
        m
    }

    fn update_node(&mut self, name: &str, f: impl FnOnce(&mut Node)) {
        let mut n = self.sim.api.store.get::<Node>("", name).cloned().unwrap();
        f(&mut n);
        n.metadata.resource_version.clear();
        self.sim.api.update(Object::Node(n)).unwrap();
        self.settle();
    }

    fn update_ds(&mut self, name: &str, f: impl FnOnce(&mut DaemonSet)) {
        let mut d = self.ds(name);
        f(&mut d);
        d.metadata.resource_version.clear();
        self.sim.api.update(Object::DaemonSet(d)).unwrap();
        self.settle();
    }

    /// Binds every unbound pod to its target node and makes it Running and Ready.
    fn make_all_ready(&mut self) {
        for p in self.live_pods() {
            self.make_ready(&p.metadata.name);
        }
    }

    fn make_ready(&mut self, name: &str) {
        let p = self
            .sim
            .api
            .store
            .get::<Pod>("default", name)
            .cloned()
            .unwrap();
        if p.spec.node_name.is_empty() {
            let node = get_target_node_name(&p).unwrap();
            self.sim
                .api
                .bind("default", name, &p.metadata.uid, &node)
                .unwrap();
        }
        let mut p = self
            .sim
            .api
            .store
            .get::<Pod>("default", name)
            .cloned()
            .unwrap();
        p.status.phase = "Running".into();
        let now = self.sim.now();
        p.set_condition("Ready", "True", "", "", now);
        self.sim.api.update_status(Object::Pod(p)).unwrap();
        self.settle();
    }

    fn finish_terminations(&mut self) {
        let opts = DeleteOptions {
            grace_period_seconds: Some(0),
            ..Default::default()
        };
        for p in self.pods() {
            if p.metadata.deletion_timestamp.is_some() {
                self.sim
                    .api
                    .delete("Pod", "default", &p.metadata.name, &opts)
                    .unwrap();
            }
        }
        self.settle();
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
}

fn nodes(n: usize) -> Vec<Node> {
    (0..n)
        .map(|i| new_node(&format!("node-{i}"), &[]))
        .collect()
}

// Port of TestSimpleDaemonSetLaunchesPods / TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods:
// one pod per node, pinned by node affinity (not nodeName), with the daemon tolerations and the
// revision labels.
#[test]
fn one_pinned_pod_per_node() {
    let mut h = Harness::new(nodes(5));
    h.create(new_daemon_set("foo"));
    let per_node = h.per_node();
    assert_eq!(per_node.len(), 5);
    assert!(per_node.values().all(|&c| c == 1));
    let ds = h.ds("foo");
    for p in h.pods() {
        assert!(
            p.spec.node_name.is_empty(),
            "the scheduler binds daemon pods"
        );
        let terms = &p
            .spec
            .affinity
            .as_ref()
            .unwrap()
            .node_affinity
            .as_ref()
            .unwrap()
            .required_during_scheduling_ignored_during_execution
            .as_ref()
            .unwrap()
            .node_selector_terms;
        assert_eq!(terms.len(), 1);
        assert_eq!(terms[0].match_fields[0].key, "metadata.name");
        assert!(p
            .metadata
            .labels
            .contains_key(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY));
        assert_eq!(p.metadata.labels[DAEMON_SET_TEMPLATE_GENERATION_KEY], "1");
        assert!(p.metadata.generate_name == "foo-");
        let cref = p.metadata.controller_ref().unwrap();
        assert_eq!(
            (cref.kind.as_str(), cref.uid.as_str()),
            ("DaemonSet", ds.metadata.uid.as_str())
        );
        // The pod tolerates not-ready/unreachable forever: DefaultTolerationSeconds added none.
        assert!(p
            .spec
            .tolerations
            .iter()
            .all(|t| t.toleration_seconds.is_none()));
    }
    let created = h.events("SuccessfulCreate");
    assert_eq!(created.len(), 5);
    assert!(created[0].starts_with("Created pod: foo-"));
    // Status.
    let s = ds.status;
    assert_eq!(
        (s.desired_number_scheduled, s.current_number_scheduled),
        (5, 5)
    );
    assert_eq!(
        (s.number_ready, s.number_available, s.number_unavailable),
        (0, 0, 5)
    );
    assert_eq!(s.updated_number_scheduled, 5);
    assert_eq!(s.observed_generation, 1);
    h.make_all_ready();
    let s = h.ds("foo").status;
    assert_eq!(
        (s.number_ready, s.number_available, s.number_unavailable),
        (5, 5, 0)
    );
    // A ControllerRevision named <ds>-<hash>.
    let revs: Vec<ControllerRevision> = h
        .sim
        .api
        .store
        .list::<ControllerRevision>(Some("default"))
        .cloned()
        .collect();
    assert_eq!(revs.len(), 1);
    let hash = &revs[0].metadata.labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY];
    assert_eq!(revs[0].metadata.name, format!("foo-{hash}"));
    assert_eq!(revs[0].revision, 1);
}

// Port of TestNoNodesDoesNothing and TestOneNodeDaemonLaunchesPod.
#[test]
fn no_nodes_no_pods() {
    let mut h = Harness::new(vec![]);
    h.create(new_daemon_set("foo"));
    assert!(h.pods().is_empty());
    let s = h.ds("foo").status;
    assert_eq!(s.desired_number_scheduled, 0);
    // A node joins: its pod follows.
    h.sim
        .api
        .create(Object::Node(new_node("late", &[])))
        .unwrap();
    h.settle();
    assert_eq!(h.per_node().get("late"), Some(&1));
}

// Port of TestDaemonSetPodCreateExpectationsError / burstReplicas: at most burstReplicas
// creations per sync, the rest after the creations are observed.
#[test]
fn burst_replicas_limits_one_sync() {
    let mut h =
        Harness::with_controller(nodes(5), DaemonSetsController::new().with_burst_replicas(2));
    h.sim
        .api
        .create(Object::DaemonSet(new_daemon_set("foo")))
        .unwrap();
    // One sync.
    assert!(h.sim.step().unwrap());
    let creates = h
        .sim
        .actions
        .iter()
        .filter(|a| a.verb == "create" && a.kind == "Pod")
        .count();
    assert_eq!(creates, 2);
    h.settle();
    assert_eq!(h.per_node().len(), 5);
}

// Port of TestSelectorDaemonLaunchesPods / TestSelectorDaemonDeletesUnselectedPods and the
// seed's "If node labels are changed, the DaemonSet will promptly add Pods to newly matching
// nodes and delete Pods from newly not-matching nodes."
#[test]
fn node_selector_follows_node_labels() {
    let mut ns = nodes(4);
    ns[1].metadata.labels.insert("disk".into(), "ssd".into());
    ns[3].metadata.labels.insert("disk".into(), "ssd".into());
    let mut h = Harness::new(ns);
    let mut ds = new_daemon_set("foo");
    ds.spec.template_mut().spec_mut().node_selector =
        [("disk".to_string(), "ssd".to_string())].into();
    h.create(ds);
    assert_eq!(
        h.per_node().keys().cloned().collect::<Vec<_>>(),
        ["node-1", "node-3"]
    );
    h.update_node("node-0", |n| {
        n.metadata.labels.insert("disk".into(), "ssd".into());
    });
    h.update_node("node-3", |n| {
        n.metadata.labels.remove("disk");
    });
    assert_eq!(
        h.per_node().keys().cloned().collect::<Vec<_>>(),
        ["node-0", "node-1"]
    );
    let s = h.ds("foo").status;
    assert_eq!(s.desired_number_scheduled, 2);
    assert_eq!(s.number_misscheduled, 0);
}

// Tainting: NoSchedule keeps the running pod (misscheduled), NoExecute removes it; a node that
// joins tainted gets no pod.
#[test]
fn taints_remove_or_keep_pods() {
    let mut h = Harness::new(nodes(3));
    h.create(new_daemon_set("foo"));
    h.make_all_ready();
    h.update_node("node-0", |n| {
        n.spec.taints = vec![taint("dedicated", "x", "NoSchedule")]
    });
    assert_eq!(
        h.per_node().get("node-0"),
        Some(&1),
        "NoSchedule: the pod stays"
    );
    let s = h.ds("foo").status;
    assert_eq!((s.desired_number_scheduled, s.number_misscheduled), (2, 1));
    h.update_node("node-1", |n| {
        n.spec.taints = vec![taint("dedicated", "x", "NoExecute")]
    });
    assert_eq!(h.per_node().get("node-1"), None, "NoExecute: the pod goes");
    assert_eq!(h.events("SuccessfulDelete").len(), 1);
    assert!(h.events("SuccessfulDelete")[0].starts_with("Deleted pod: foo-"));
    let mut tainted = new_node("node-9", &[]);
    tainted.spec.taints = vec![taint("dedicated", "x", "NoSchedule")];
    h.sim.api.create(Object::Node(tainted)).unwrap();
    h.settle();
    assert_eq!(h.per_node().get("node-9"), None);
    // Untainting brings pods back (once the evicted one is gone).
    h.finish_terminations();
    h.update_node("node-1", |n| n.spec.taints.clear());
    assert_eq!(h.per_node().get("node-1"), Some(&1));
}

// Port of TestDaemonKillFailedPods and TestDaemonKillFailedPodsBackoff.
#[test]
fn failed_pods_are_killed_with_backoff() {
    let mut h = Harness::new(nodes(1));
    h.create(new_daemon_set("foo"));
    let name = h.pods()[0].metadata.name.clone();
    let mut p = h
        .sim
        .api
        .store
        .get::<Pod>("default", &name)
        .cloned()
        .unwrap();
    p.status.phase = "Failed".into();
    h.sim.api.update_status(Object::Pod(p)).unwrap();
    h.settle();
    let warnings = h.events("FailedDaemonPod");
    assert_eq!(
        warnings,
        [format!(
            "Found failed daemon pod default/{name} on node node-0, will try to kill it"
        )]
    );
    // The failed pod is deleted (unscheduled: at once); the replacement comes in the next sync.
    assert!(h.sim.api.store.get::<Pod>("default", &name).is_none());
    assert_eq!(h.live_pods().len(), 1);
    // A second failure right away is held back by the per-node back-off (1 s, then 2 s...).
    let name2 = h.live_pods()[0].metadata.name.clone();
    let mut p = h
        .sim
        .api
        .store
        .get::<Pod>("default", &name2)
        .cloned()
        .unwrap();
    p.status.phase = "Failed".into();
    h.sim.api.update_status(Object::Pod(p)).unwrap();
    h.settle();
    assert!(
        h.sim.api.store.get::<Pod>("default", &name2).is_some(),
        "in back-off"
    );
    h.sim.run_for(Duration::from_secs(2)).unwrap();
    assert!(
        h.sim.api.store.get::<Pod>("default", &name2).is_none(),
        "killed after back-off"
    );
    assert_eq!(h.events("FailedDaemonPod").len(), 2);
}

// Port of TestDealsWithExistingPods / excess pods: without surge only the oldest pod of a node
// is kept.
#[test]
fn excess_pods_on_a_node_are_deleted() {
    let mut h = Harness::new(nodes(1));
    h.create(new_daemon_set("foo"));
    let ds = h.ds("foo");
    let first = h.pods()[0].clone();
    h.sim.run_for(Duration::from_secs(5)).unwrap();
    let mut extra = first.clone();
    extra.metadata.name = "foo-extra".into();
    extra.metadata.uid.clear();
    extra.metadata.resource_version.clear();
    extra.metadata.generate_name.clear();
    extra.metadata.owner_references =
        vec![crate::controllers::controller_utils::new_controller_ref(
            &ds.metadata,
            "apps/v1",
            "DaemonSet",
        )]
        .into();
    h.sim.api.create(Object::Pod(extra)).unwrap();
    h.settle();
    let names: Vec<String> = h
        .live_pods()
        .iter()
        .map(|p| p.metadata.name.clone())
        .collect();
    assert_eq!(names, [first.metadata.name]);
}

// Port of TestDeleteUnscheduledPodForNotExistingNode.
#[test]
fn unscheduled_pods_of_vanished_nodes_are_deleted() {
    let mut h = Harness::new(nodes(2));
    h.create(new_daemon_set("foo"));
    let victim: Vec<String> = h
        .pods()
        .iter()
        .filter(|p| get_target_node_name(p).unwrap() == "node-1")
        .map(|p| p.metadata.name.clone())
        .collect();
    h.sim
        .api
        .delete("Node", "", "node-1", &DeleteOptions::default())
        .unwrap();
    // Node deletions are not watched; the next sync (any DaemonSet event) cleans up.
    h.update_ds("foo", |d| d.spec.min_ready_seconds = 1);
    assert!(h.sim.api.store.get::<Pod>("default", &victim[0]).is_none());
    assert_eq!(h.ds("foo").status.desired_number_scheduled, 1);
}

// Orphan adoption: a matching orphan on a node is adopted instead of creating a second pod.
#[test]
fn orphans_are_adopted() {
    let mut h = Harness::new(nodes(1));
    let mut orphan = Pod::default();
    orphan.metadata.name = "orphan".into();
    orphan.metadata.namespace = "default".into();
    orphan.metadata.labels = SIMPLE_LABEL
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    orphan.spec = new_daemon_set("foo").spec.template.spec.clone();
    orphan.spec_mut().node_name = "node-0".into();
    h.sim.api.create(Object::Pod(orphan)).unwrap();
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = crate::api::DaemonSetUpdateStrategy {
        type_: "OnDelete".into(),
        rolling_update: None,
    };
    h.create(ds);
    let pods = h.live_pods();
    assert_eq!(pods.len(), 1);
    assert_eq!(pods[0].metadata.name, "orphan");
    assert_eq!(pods[0].metadata.controller_ref().unwrap().name, "foo");
    // The adopted pod has no revision hash: it counts as outdated.
    let s = h.ds("foo").status;
    assert_eq!(
        (s.current_number_scheduled, s.updated_number_scheduled),
        (1, 0)
    );
    // With RollingUpdate, the outdated (and unavailable) orphan is replaced at once.
    h.update_ds("foo", |d| {
        d.spec.update_strategy = crate::api::DaemonSetUpdateStrategy {
            type_: "RollingUpdate".into(),
            rolling_update: None,
        };
    });
    assert!(h
        .sim
        .api
        .store
        .get::<Pod>("default", "orphan")
        .unwrap()
        .metadata
        .deletion_timestamp
        .is_some());
}

/// Drives a rollout as kubelets would (finishing terminations, making pods ready) until every
/// one of `want` pods is new; returns (old, new) live pods per step.
fn roll(h: &mut Harness, want: usize, max_steps: usize) -> Vec<(usize, usize)> {
    let mut trace = vec![];
    for _ in 0..max_steps {
        h.finish_terminations();
        h.make_all_ready();
        let cur = current_hash(h);
        let (old, new) = h.live_pods().iter().fold((0, 0), |(o, n), p| {
            if p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) == Some(&cur) {
                (o, n + 1)
            } else {
                (o + 1, n)
            }
        });
        trace.push((old, new));
        if old == 0 && new == want {
            break;
        }
    }
    trace
}

fn current_hash(h: &Harness) -> String {
    let ds = h.ds("foo");
    h.sim
        .api
        .store
        .list::<ControllerRevision>(Some("default"))
        .find(|r| revision_matches(&ds, r))
        .map(|r| r.metadata.labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY].clone())
        .unwrap()
}

// Port of TestDaemonSetUpdatesPods: maxUnavailable 1 replaces one pod at a time.
#[test]
fn rolling_update_with_max_unavailable() {
    let mut h = Harness::new(nodes(4));
    h.create(new_daemon_set("foo"));
    h.make_all_ready();
    h.update_ds("foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:2".into()
    });
    // Right after the template change exactly one old pod is being deleted.
    let terminating = h
        .pods()
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_some())
        .count();
    let deleted = h.events("SuccessfulDelete").len();
    assert!(terminating + deleted >= 1);
    assert_eq!(h.live_pods().len(), 3, "one node without a pod at a time");
    let trace = roll(&mut h, 4, 20);
    assert_eq!(trace.last(), Some(&(0, 4)));
    // Never more than one pod missing: old + new ≥ 3 at each observation.
    assert!(trace.iter().all(|(o, n)| o + n >= 3), "{trace:?}");
    let s = h.ds("foo").status;
    assert_eq!(s.updated_number_scheduled, 4);
    assert_eq!(s.observed_generation, 2);
    assert_eq!(
        h.ds("foo").metadata.annotations["deprecated.daemonset.template.generation"],
        "2"
    );
    assert_eq!(
        h.sim
            .api
            .store
            .list::<ControllerRevision>(Some("default"))
            .count(),
        2
    );
}

// Port of TestDaemonSetUpdatesPodsWithMaxSurge: a new pod starts next to the old one, which goes
// once the new one is available.
#[test]
fn rolling_update_with_max_surge() {
    let mut h = Harness::new(nodes(3));
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy.rolling_update = Some(crate::api::RollingUpdateDaemonSet {
        max_unavailable: Some(IntOrString::Int(0)),
        max_surge: Some(IntOrString::Int(1)),
    });
    h.create(ds);
    h.make_all_ready();
    h.update_ds("foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:2".into()
    });
    assert_eq!(h.live_pods().len(), 4, "one surge pod");
    let per = h.per_node();
    assert_eq!(per.values().filter(|&&c| c == 2).count(), 1);
    let trace = roll(&mut h, 3, 20);
    assert_eq!(trace.last(), Some(&(0, 3)));
    // Every node always keeps at least one pod; at most one node has two.
    assert!(
        trace.iter().all(|(o, n)| o + n >= 3 && o + n <= 4),
        "{trace:?}"
    );
}

// Port of TestDaemonSetUpdatesAllOldPodsNotReady: unavailable old pods are replaced at once.
#[test]
fn unavailable_old_pods_are_replaced_at_once() {
    let mut h = Harness::new(nodes(3));
    h.create(new_daemon_set("foo"));
    // Nothing is ready: every old pod is unavailable.
    h.update_ds("foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:2".into()
    });
    let cur = current_hash(&h);
    let new = h
        .live_pods()
        .iter()
        .filter(|p| p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) == Some(&cur))
        .count();
    assert_eq!(new, 3);
}

// OnDelete: the template change is not rolled out until pods are deleted.
#[test]
fn on_delete_strategy() {
    let mut h = Harness::new(nodes(2));
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = crate::api::DaemonSetUpdateStrategy {
        type_: "OnDelete".into(),
        rolling_update: None,
    };
    h.create(ds);
    h.make_all_ready();
    h.update_ds("foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:2".into()
    });
    assert_eq!(h.events("SuccessfulDelete").len(), 0);
    assert_eq!(h.ds("foo").status.updated_number_scheduled, 0);
    let victim = h.live_pods()[0].metadata.name.clone();
    h.sim
        .api
        .delete("Pod", "default", &victim, &DeleteOptions::default())
        .unwrap();
    h.finish_terminations();
    assert_eq!(h.ds("foo").status.updated_number_scheduled, 1);
}

// Rolling back to an earlier template reuses its revision (renumbered) instead of creating one.
#[test]
fn rollback_reuses_the_old_revision() {
    let mut h = Harness::new(nodes(1));
    h.create(new_daemon_set("foo"));
    h.make_all_ready();
    let first = current_hash(&h);
    h.update_ds("foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:2".into()
    });
    roll(&mut h, 1, 10);
    h.update_ds("foo", |d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo/bar".into()
    });
    roll(&mut h, 1, 10);
    assert_eq!(current_hash(&h), first);
    let revs: Vec<ControllerRevision> = h
        .sim
        .api
        .store
        .list::<ControllerRevision>(Some("default"))
        .cloned()
        .collect();
    assert_eq!(revs.len(), 2);
    let r1 = revs
        .iter()
        .find(|r| r.metadata.labels[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] == first)
        .unwrap();
    assert_eq!(r1.revision, 3);
}

// The pure rolling-update plan, no surge (update.go's invariants).
#[test]
fn plan_without_surge_respects_max_unavailable() {
    let ds = new_daemon_set("foo");
    let ns = nodes(4);
    let now = Time::from_unix_secs(T0);
    let pod = |node: &str, hash: &str, ready: bool| {
        let mut p = Pod::default();
        p.metadata.name = format!("{node}-{hash}");
        p.metadata
            .labels
            .insert(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(), hash.into());
        p.spec_mut().node_name = node.into();
        if ready {
            p.status.phase = "Running".into();
            p.set_condition("Ready", "True", "", "", Time::from_unix_secs(T0 - 100));
        }
        p
    };
    let mut map: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
    map.insert("node-0".into(), vec![pod("node-0", "old", true)]);
    map.insert("node-1".into(), vec![pod("node-1", "old", true)]);
    map.insert("node-2".into(), vec![pod("node-2", "new", false)]);
    map.insert("node-3".into(), vec![pod("node-3", "old", false)]);
    let plan =
        DaemonSetsController::plan_rolling_update(&ds, &ns, &map, "new", 0, 2, 4, now).unwrap();
    // node-2's new pod is unavailable (1), node-3's old pod is unavailable: replaced at once (2);
    // no budget left for the available old pods.
    assert_eq!(plan.pods_to_delete, ["node-3-old"]);
    let plan =
        DaemonSetsController::plan_rolling_update(&ds, &ns, &map, "new", 0, 3, 4, now).unwrap();
    assert_eq!(plan.pods_to_delete, ["node-3-old", "node-0-old"]);
    assert!(plan.nodes_to_create.is_empty());
}

// ---------------------------------------------------------------------------------------------
// expectSyncDaemonSets ports: one sync of a freshly created DaemonSet over given nodes and pods
// ---------------------------------------------------------------------------------------------

const SIMPLE_LABEL_2: &[(&str, &str)] = &[("name", "simple-daemon"), ("type", "test")];
const SIMPLE_NODE_LABEL: &[(&str, &str)] = &[("color", "blue"), ("speed", "fast")];
const SIMPLE_NODE_LABEL_2: &[(&str, &str)] = &[("color", "red"), ("speed", "fast")];

fn labels(l: &[(&str, &str)]) -> BTreeMap<String, String> {
    l.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// `addNodes(store, start, n, label)`.
fn add_nodes(nodes: &mut Vec<Node>, start: usize, n: usize, label: &[(&str, &str)]) {
    for i in start..start + n {
        nodes.push(new_node(&format!("node-{i}"), label));
    }
}

/// `updateStrategies()`: OnDelete, then RollingUpdate with maxUnavailable 1.
fn update_strategies() -> Vec<crate::api::DaemonSetUpdateStrategy> {
    vec![
        serde_json::from_value(json!({"type": "OnDelete"})).unwrap(),
        serde_json::from_value(
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}),
        )
        .unwrap(),
    ]
}

/// Upstream's test controller with stores filled by hand: the nodes are there, the DaemonSet
/// is created but not yet synced, pods are added with `newPod` (the DaemonSet's template, its
/// current hash label and a controller reference).
struct OneSync {
    h: Harness,
    ds: DaemonSet,
}

/// (creates, deletes, events) of one sync. Events are those of the controller's own recorder:
/// upstream's fake pod control records no SuccessfulCreate/SuccessfulDelete.
type Counts = (usize, usize, usize);

impl OneSync {
    fn new(nodes: Vec<Node>, ds: DaemonSet) -> Self {
        let mut h = Harness::new(nodes);
        h.settle();
        let o = h.sim.api.create(Object::DaemonSet(ds)).unwrap();
        let Object::DaemonSet(ds) = o else {
            unreachable!()
        };
        OneSync { h, ds }
    }

    /// `newPod(node + "-", node, label, ds)` (`ds` None: a pod of no DaemonSet, plain spec).
    fn pod(&self, node: &str, label: &[(&str, &str)], owned: bool) -> Pod {
        let mut p = Pod::default();
        p.metadata.namespace = "default".into();
        p.metadata.generate_name = format!("{node}-");
        p.metadata.labels = labels(label).into();
        if owned {
            let hash = crate::controllers::deployment::util::compute_hash(
                &self.ds.spec.template,
                self.ds.status.collision_count,
            );
            p.metadata
                .labels
                .insert(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(), hash);
            p.spec = self.ds.spec.template.spec.clone();
            p.metadata.owner_references =
                vec![crate::controllers::controller_utils::new_controller_ref(
                    &self.ds.metadata,
                    "apps/v1",
                    "DaemonSet",
                )]
                .into();
        } else {
            p.spec_mut().containers = vec![crate::api::Container {
                name: "c".into(),
                image: "foo/bar".into(),
                ..Default::default()
            }];
        }
        p.spec_mut().node_name = node.into();
        p
    }

    fn add(&mut self, pod: Pod) -> String {
        let o = self.h.sim.api.create(Object::Pod(pod)).unwrap();
        o.meta().name.clone()
    }

    /// `addPods(store, node, label, ds, n)`.
    fn add_pods(&mut self, node: &str, label: &[(&str, &str)], n: usize) {
        for _ in 0..n {
            let p = self.pod(node, label, true);
            self.add(p);
        }
    }

    /// `addFailedPods`.
    fn add_failed_pods(&mut self, node: &str, label: &[(&str, &str)], n: usize) {
        for _ in 0..n {
            let p = self.pod(node, label, true);
            let name = self.add(p);
            let mut p = self
                .h
                .sim
                .api
                .store
                .get::<Pod>("default", &name)
                .cloned()
                .unwrap();
            p.status.phase = "Failed".into();
            self.h.sim.api.update_status(Object::Pod(p)).unwrap();
        }
    }

    /// `expectSyncDaemonSets`: runs the DaemonSet's next sync and counts what it did.
    fn sync(&mut self) -> Counts {
        let a0 = self.h.sim.actions.len();
        let e0 = self.h.sim.api.events.len();
        let s0 = self.h.sim.syncs;
        assert!(self.h.sim.step().unwrap(), "a sync ran");
        assert_eq!(self.h.sim.syncs, s0 + 1);
        let count = |verb: &str| {
            self.h.sim.actions[a0..]
                .iter()
                .filter(|a| a.verb == verb && a.kind == "Pod")
                .count()
        };
        let events = self.h.sim.api.events[e0..]
            .iter()
            .filter(|e| e.reason != "SuccessfulCreate" && e.reason != "SuccessfulDelete")
            .count();
        (count("create"), count("delete"), events)
    }

    fn status(&self) -> crate::api::DaemonSetStatus {
        self.h.ds(&self.ds.metadata.name).status.into_inner()
    }
}

/// `newDaemonSet("foo")` with the given strategy and template changes.
fn ds_with(
    strategy: &crate::api::DaemonSetUpdateStrategy,
    f: impl FnOnce(&mut crate::api::PodSpec),
) -> DaemonSet {
    let mut ds = new_daemon_set("foo");
    ds.spec.update_strategy = strategy.clone();
    f(ds.spec.template_mut().spec_mut());
    ds
}

fn node_with(name: &str, f: impl FnOnce(&mut Node)) -> Node {
    let mut n = new_node(name, &[]);
    f(&mut n);
    n
}

fn cond(type_: &str, status: &str) -> crate::api::NodeCondition {
    crate::api::NodeCondition {
        type_: type_.into(),
        status: status.into(),
        ..Default::default()
    }
}

fn allocatable(memory: &str, cpu: &str) -> BTreeMap<String, crate::api::Quantity> {
    serde_json::from_value(json!({"memory": memory, "cpu": cpu, "pods": "100"})).unwrap()
}

/// `resourcePodSpec` requests without upstream's `pods: 100`, which API validation refuses for
/// a container (upstream's fake client does not validate).
fn resource_spec(spec: &mut crate::api::PodSpec, memory: &str, cpu: &str) {
    spec.containers[0].resources =
        Some(serde_json::from_value(json!({"requests": {"memory": memory, "cpu": cpu}})).unwrap());
}

fn host_port(spec: &mut crate::api::PodSpec, port: i32) {
    spec.containers[0].ports =
        vec![serde_json::from_value(json!({"hostPort": port, "containerPort": port})).unwrap()];
}

// Port of the single-sync tests of daemon_controller_test.go that need only nodes, a
// DaemonSet and no pods, each over updateStrategies(): (test, nodes, template change,
// expected (creates, deletes, events)).
#[test]
fn one_sync_launch_rows() {
    type Row = (
        &'static str,
        Vec<Node>,
        fn(&mut crate::api::PodSpec),
        Counts,
    );
    let mut five = vec![];
    add_nodes(&mut five, 0, 5, &[]);
    let mut four_and_three = vec![];
    add_nodes(&mut four_and_three, 0, 4, &[]);
    add_nodes(&mut four_and_three, 4, 3, SIMPLE_NODE_LABEL);
    let no_schedule = vec![taint("dedicated", "user1", "NoSchedule")];
    let rows: Vec<Row> = vec![
        (
            "TestSimpleDaemonSetLaunchesPods",
            five.clone(),
            |_| {},
            (5, 0, 0),
        ),
        ("TestNoNodesDoesNothing", vec![], |_| {}, (0, 0, 0)),
        (
            "TestOneNodeDaemonLaunchesPod",
            vec![new_node("only-node", &[])],
            |_| {},
            (1, 0, 0),
        ),
        (
            "TestNotReadyNodeDaemonDoesLaunchPod",
            vec![node_with("not-ready", |n| {
                n.status.conditions = vec![cond("Ready", "False")]
            })],
            |_| {},
            (1, 0, 0),
        ),
        (
            "TestNetworkUnavailableNodeDaemonLaunchesPod",
            vec![node_with("network-unavailable", |n| {
                n.status.conditions = vec![cond("NetworkUnavailable", "True")]
            })],
            |_| {},
            (1, 0, 0),
        ),
        (
            "TestSelectorDaemonLaunchesPods",
            four_and_three.clone(),
            |s| s.node_selector = labels(SIMPLE_NODE_LABEL),
            (3, 0, 0),
        ),
        // Ported from TestSelectorDaemonSetLaunchesPods (pkg/controller/daemon/
        // daemon_controller_test.go): upstream runs it with the default (OnDelete) strategy only.
        (
            "TestSelectorDaemonSetLaunchesPods",
            four_and_three.clone(),
            |s| s.node_selector = labels(SIMPLE_NODE_LABEL),
            (3, 0, 0),
        ),
        (
            "TestBadSelectorDaemonDoesNothing",
            four_and_three.clone(),
            |s| s.node_selector = labels(SIMPLE_NODE_LABEL_2),
            (0, 0, 0),
        ),
        (
            "TestNameDaemonSetLaunchesPods",
            five.clone(),
            |s| s.node_name = "node-0".into(),
            (1, 0, 0),
        ),
        (
            "TestBadNameDaemonSetDoesNothing",
            five.clone(),
            |s| s.node_name = "node-10".into(),
            (0, 0, 0),
        ),
        (
            "TestNameAndSelectorDaemonSetLaunchesPods",
            four_and_three.clone(),
            |s| {
                s.node_selector = labels(SIMPLE_NODE_LABEL);
                s.node_name = "node-6".into();
            },
            (1, 0, 0),
        ),
        (
            "TestInconsistentNameSelectorDaemonSetDoesNothing",
            four_and_three.clone(),
            |s| {
                s.node_selector = labels(SIMPLE_NODE_LABEL);
                s.node_name = "node-0".into();
            },
            (0, 0, 0),
        ),
        (
            "TestNodeAffinityDaemonLaunchesPods",
            four_and_three.clone(),
            |s| s.affinity = Some(required(vec![term(&[], &[("color", "In", &["blue"])])])),
            (3, 0, 0),
        ),
        (
            "TestTaintedNodeDaemonDoesNotLaunchIntolerantPod",
            vec![node_with("tainted", |n| {
                n.spec.taints = no_schedule.clone()
            })],
            |_| {},
            (0, 0, 0),
        ),
        (
            "TestTaintedNodeDaemonLaunchesToleratePod",
            vec![node_with("tainted", |n| {
                n.spec.taints = no_schedule.clone()
            })],
            |s| {
                s.tolerations = vec![Toleration {
                    key: "dedicated".into(),
                    value: "user1".into(),
                    effect: "NoSchedule".into(),
                    ..Default::default()
                }]
            },
            (1, 0, 0),
        ),
        (
            "TestNotReadyNodeDaemonLaunchesPod",
            vec![node_with("tainted", |n| {
                n.spec.taints = vec![taint("node.kubernetes.io/not-ready", "", "NoExecute")];
                n.status.conditions = vec![cond("Ready", "False")];
            })],
            |_| {},
            (1, 0, 0),
        ),
        (
            "TestUnreachableNodeDaemonLaunchesPod",
            vec![node_with("tainted", |n| {
                n.spec.taints = vec![taint("node.kubernetes.io/unreachable", "", "NoExecute")];
                n.status.conditions = vec![cond("Ready", "Unknown")];
            })],
            |_| {},
            (1, 0, 0),
        ),
        (
            "TestNodeDaemonLaunchesToleratePod",
            vec![new_node("node-0", &[])],
            |s| {
                s.tolerations = vec![Toleration {
                    key: "dedicated".into(),
                    value: "user1".into(),
                    effect: "NoSchedule".into(),
                    ..Default::default()
                }]
            },
            (1, 0, 0),
        ),
    ];
    for (test, nodes, f, want) in rows {
        for strategy in update_strategies() {
            let mut s = OneSync::new(nodes.clone(), ds_with(&strategy, f));
            assert_eq!(s.sync(), want, "{test} {}", strategy.type_);
            // validateSyncDaemonSets: every created pod has a controller reference.
            for p in s.h.pods() {
                let r = p.metadata.controller_ref().unwrap();
                assert_eq!(
                    (r.api_version.as_str(), r.kind.as_str()),
                    ("apps/v1", "DaemonSet")
                );
            }
        }
    }
}

// Port of TestSimpleDaemonSetUpdatesStatusAfterLaunchingPods: the sync that creates the pods
// already writes CurrentNumberScheduled.
#[test]
fn status_written_by_the_launching_sync() {
    for strategy in update_strategies() {
        let mut s = OneSync::new(nodes(5), ds_with(&strategy, |_| {}));
        assert_eq!(s.sync(), (5, 0, 0));
        assert_eq!(s.status().current_number_scheduled, 5);
    }
}

// Port of TestTaintPressureNodeDaemonLaunchesPod: a system-critical DaemonSet (kube-system,
// priority 2000000000) launches on a node with disk, memory and PID pressure taints.
#[test]
fn taint_pressure_node_launches_critical_pod() {
    for strategy in update_strategies() {
        let node = node_with("resources-pressure", |n| {
            n.status.conditions = vec![
                cond("DiskPressure", "True"),
                cond("MemoryPressure", "True"),
                cond("PIDPressure", "True"),
            ];
            n.spec.taints = vec![
                taint("node.kubernetes.io/disk-pressure", "", "NoSchedule"),
                taint("node.kubernetes.io/memory-pressure", "", "NoSchedule"),
                taint("node.kubernetes.io/pid-pressure", "", "NoSchedule"),
            ];
        });
        let mut ds = ds_with(&strategy, |s| s.priority = Some(2_000_000_000));
        ds.metadata.name = "critical".into();
        ds.metadata.namespace = "kube-system".into();
        let mut s = OneSync::new(vec![node], ds);
        assert_eq!(s.sync(), (1, 0, 0), "{}", strategy.type_);
    }
}

// Port of TestInsufficientCapacityNodeDaemonDoesNotUnscheduleRunningPod and
// TestInsufficientCapacityNodeSufficientCapacityWithNodeLabelDaemonLaunchPod: resources are
// the scheduler's business; the controller launches regardless and records no event.
#[test]
fn insufficient_capacity_is_not_the_controllers_business() {
    for strategy in update_strategies() {
        let node = node_with("too-much-mem", |n| {
            n.status.allocatable = allocatable("100M", "200m")
        });
        let ds = ds_with(&strategy, |s| {
            resource_spec(s, "75M", "75m");
            s.node_name = "too-much-mem".into();
        });
        let mut s = OneSync::new(vec![node], ds);
        let mut other = s.pod("too-much-mem", &[], false);
        resource_spec(other.spec_mut(), "75M", "75m");
        s.add(other);
        assert_eq!(s.sync(), (1, 0, 0), "{}", strategy.type_);
    }
    let n1 = node_with("not-enough-resource", |n| {
        n.status.allocatable = allocatable("10M", "20m")
    });
    let mut n2 = new_node("enough-resource", SIMPLE_NODE_LABEL);
    n2.status.allocatable = allocatable("100M", "200m");
    let ds = ds_with(&update_strategies()[0], |s| {
        resource_spec(s, "50M", "75m");
        s.node_selector = labels(SIMPLE_NODE_LABEL);
    });
    let mut s = OneSync::new(vec![n1, n2], ds);
    assert_eq!(s.sync(), (1, 0, 0));
}

// Port of TestDontDoAnythingIfBeingDeleted: a DaemonSet being deleted (held by a finalizer)
// creates nothing. (TestDontDoAnythingIfBeingDeletedRace, where the informer and the API
// disagree, has no counterpart: the simulation's store is the API's.)
#[test]
fn nothing_happens_while_being_deleted() {
    for strategy in update_strategies() {
        let node = node_with("not-too-much-mem", |n| {
            n.status.allocatable = allocatable("200M", "200m")
        });
        let mut ds = ds_with(&strategy, |s| resource_spec(s, "75M", "75m"));
        ds.metadata.finalizers = vec!["example.com/hold".into()].into();
        let mut s = OneSync::new(vec![node], ds);
        let other = s.pod("not-too-much-mem", &[], false);
        s.add(other);
        s.h.sim
            .api
            .delete("DaemonSet", "default", "foo", &DeleteOptions::default())
            .unwrap();
        assert!(s.h.ds("foo").metadata.deletion_timestamp.is_some());
        assert_eq!(s.sync(), (0, 0, 0), "{}", strategy.type_);
    }
}

// Port of TestPortConflictWithSameDaemonPodDoesNotDeletePod and
// TestNoPortConflictNodeDaemonLaunchesPod.
#[test]
fn host_ports() {
    for strategy in update_strategies() {
        let ds = ds_with(&strategy, |s| {
            host_port(s, 666);
            s.node_name = "port-conflict".into();
        });
        let mut s = OneSync::new(vec![new_node("port-conflict", &[])], ds);
        s.add_pods("port-conflict", SIMPLE_LABEL, 1);
        assert_eq!(s.sync(), (0, 0, 0), "{}", strategy.type_);

        let ds = ds_with(&strategy, |s| {
            host_port(s, 6662);
            s.node_name = "no-port-conflict".into();
        });
        let mut s = OneSync::new(vec![new_node("no-port-conflict", &[])], ds);
        let mut other = s.pod("no-port-conflict", &[], false);
        host_port(other.spec_mut(), 6661);
        s.add(other);
        assert_eq!(s.sync(), (1, 0, 0), "{}", strategy.type_);
    }
}

// Port of TestPodIsNotDeletedByDaemonsetWithEmptyLabelSelector: an empty selector (invalid, so
// written to the store directly, as upstream's informer holds it) makes the controller skip the
// DaemonSet with one SelectingAll event, deleting nothing.
#[test]
fn empty_selector_does_nothing() {
    for strategy in update_strategies() {
        let ds = ds_with(&strategy, |s| s.node_selector = labels(&[("foo", "bar")]));
        let mut s = OneSync::new(vec![new_node("node1", &[])], ds);
        let mut ds = s.h.ds("foo");
        ds.spec.selector = Some(Default::default());
        s.h.sim.api.store.put(Object::DaemonSet(ds));
        let mut other = s.pod("node1", &[("bang", "boom")], false);
        other.metadata.generate_name.clear();
        other.metadata.name = "bystander".into();
        s.add(other);
        assert_eq!(s.sync(), (0, 0, 1), "{}", strategy.type_);
        assert_eq!(s.h.events(SELECTING_ALL_REASON).len(), 1);
        assert!(s
            .h
            .sim
            .api
            .store
            .get::<Pod>("default", "bystander")
            .is_some_and(|p| p.metadata.deletion_timestamp.is_none()));
    }
}

// Port of TestDealsWithExistingPods, TestSelectorDaemonDeletesUnselectedPods and
// TestSelectorDaemonDealsWithExistingPods: (test, nodes, node selector?, pods (node, label,
// count), expected counts). Pods labelled simpleDaemonSetLabel2 do not match the selector:
// released, not deleted.
#[test]
fn existing_pods_rows() {
    type Row = (
        &'static str,
        Vec<Node>,
        bool,
        Vec<(&'static str, &'static [(&'static str, &'static str)], usize)>,
        Counts,
    );
    let mut five = vec![];
    add_nodes(&mut five, 0, 5, &[]);
    let mut ten = vec![];
    add_nodes(&mut ten, 0, 5, &[]);
    add_nodes(&mut ten, 5, 5, SIMPLE_NODE_LABEL);
    let rows: Vec<Row> = vec![
        (
            "TestDealsWithExistingPods",
            five,
            false,
            vec![
                ("node-1", SIMPLE_LABEL, 1),
                ("node-2", SIMPLE_LABEL, 2),
                ("node-3", SIMPLE_LABEL, 5),
                ("node-4", SIMPLE_LABEL_2, 2),
            ],
            (2, 5, 0),
        ),
        (
            "TestSelectorDaemonDeletesUnselectedPods",
            ten.clone(),
            true,
            vec![
                ("node-0", SIMPLE_LABEL_2, 2),
                ("node-1", SIMPLE_LABEL, 3),
                ("node-1", SIMPLE_LABEL_2, 1),
                ("node-4", SIMPLE_LABEL, 1),
            ],
            (5, 4, 0),
        ),
        (
            "TestSelectorDaemonDealsWithExistingPods",
            ten,
            true,
            vec![
                ("node-0", SIMPLE_LABEL, 1),
                ("node-1", SIMPLE_LABEL, 3),
                ("node-1", SIMPLE_LABEL_2, 2),
                ("node-2", SIMPLE_LABEL, 4),
                ("node-6", SIMPLE_LABEL, 13),
                ("node-7", SIMPLE_LABEL_2, 4),
                ("node-9", SIMPLE_LABEL, 1),
                ("node-9", SIMPLE_LABEL_2, 1),
            ],
            (3, 20, 0),
        ),
    ];
    for (test, nodes, selector, pods, want) in rows {
        for strategy in update_strategies() {
            let ds = ds_with(&strategy, |s| {
                if selector {
                    s.node_selector = labels(SIMPLE_NODE_LABEL);
                }
            });
            let mut s = OneSync::new(nodes.clone(), ds);
            for (node, label, n) in &pods {
                s.add_pods(node, label, *n);
            }
            assert_eq!(s.sync(), want, "{test} {}", strategy.type_);
        }
    }
}

// Port of TestNumberReadyStatus and TestObservedGeneration.
#[test]
fn number_ready_and_observed_generation() {
    for strategy in update_strategies() {
        let mut ns = vec![];
        add_nodes(&mut ns, 0, 2, SIMPLE_NODE_LABEL);
        let mut s = OneSync::new(ns, ds_with(&strategy, |_| {}));
        s.add_pods("node-0", SIMPLE_LABEL, 1);
        s.add_pods("node-1", SIMPLE_LABEL, 1);
        assert_eq!(s.sync(), (0, 0, 0));
        assert_eq!(s.status().number_ready, 0);
        assert_eq!(s.status().observed_generation, s.ds.metadata.generation);
        for p in s.h.pods() {
            let mut p = p;
            let now = s.h.sim.now();
            p.set_condition("Ready", "True", "", "", now);
            s.h.sim.api.update_status(Object::Pod(p)).unwrap();
        }
        assert_eq!(s.sync(), (0, 0, 0));
        assert_eq!(s.status().number_ready, 2, "{}", strategy.type_);
    }
}

// Port of TestDaemonKillFailedPods: (numFailedPods, numNormalPods, expected creates, deletes,
// events, test).
#[test]
fn kill_failed_pods_rows() {
    let rows = [
        (0, 1, 0, 0, 0, "normal (do nothing)"),
        (0, 0, 1, 0, 0, "no pods (create 1)"),
        (
            1,
            0,
            0,
            1,
            1,
            "1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)",
        ),
        (
            1,
            3,
            0,
            3,
            1,
            "1 failed pod (kill 1), 3 normal pods (kill 2)",
        ),
    ];
    for (failed, normal, creates, deletes, events, test) in rows {
        for strategy in update_strategies() {
            let mut s = OneSync::new(nodes(1), ds_with(&strategy, |_| {}));
            s.add_failed_pods("node-0", SIMPLE_LABEL, failed);
            s.add_pods("node-0", SIMPLE_LABEL, normal);
            assert_eq!(
                s.sync(),
                (creates, deletes, events),
                "{test} {}",
                strategy.type_
            );
        }
    }
}

// Port of TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod,
// TestNoExecuteTaintedDoesEvicitRunningIntolerantPod and TestDaemonSetRespectsTermination.
#[test]
fn running_pods_on_tainted_nodes_and_terminating_pods() {
    for strategy in update_strategies() {
        for (effect, want) in [("NoSchedule", (0, 0, 0)), ("NoExecute", (0, 1, 0))] {
            let node = node_with("tainted", |n| {
                n.spec.taints = vec![taint("dedicated", "user1", effect)]
            });
            let mut ds = ds_with(&strategy, |_| {});
            ds.metadata.name = "intolerant".into();
            let mut s = OneSync::new(vec![node], ds);
            s.add_pods("tainted", SIMPLE_LABEL, 1);
            assert_eq!(s.sync(), want, "{effect} {}", strategy.type_);
        }
        // A terminating daemon pod on the node: nothing is created next to it.
        let mut ns = vec![];
        add_nodes(&mut ns, 0, 1, SIMPLE_NODE_LABEL);
        let mut s = OneSync::new(ns, ds_with(&strategy, |_| {}));
        s.add_pods("node-0", SIMPLE_LABEL, 1);
        let name = s.h.pods()[0].metadata.name.clone();
        s.h.sim
            .api
            .delete("Pod", "default", &name, &DeleteOptions::default())
            .unwrap();
        assert!(s.h.pods()[0].metadata.deletion_timestamp.is_some());
        assert_eq!(s.sync(), (0, 0, 0), "{}", strategy.type_);
    }
}

// Port of TestUpdateNode: which node updates wake the DaemonSet. Rows: (test, old node, new
// node, template change, expected creates of the first sync, should enqueue).
#[test]
fn update_node_rows() {
    type Row = (
        &'static str,
        Node,
        Node,
        fn(&mut crate::api::PodSpec),
        usize,
        bool,
    );
    let rows: Vec<Row> = vec![
        (
            "Nothing changed, should not enqueue",
            new_node("node1", &[]),
            new_node("node1", &[]),
            |s| s.node_selector = labels(SIMPLE_NODE_LABEL),
            0,
            false,
        ),
        (
            "Node labels changed",
            new_node("node1", &[]),
            new_node("node1", SIMPLE_NODE_LABEL),
            |s| s.node_selector = labels(SIMPLE_NODE_LABEL),
            0,
            true,
        ),
        (
            "Node taints changed",
            node_with("node1", |n| {
                n.spec.taints = vec![taint("dedicated", "user1", "NoSchedule")]
            }),
            new_node("node1", &[]),
            |_| {},
            0,
            true,
        ),
        (
            "Node Allocatable changed",
            new_node("node1", &[]),
            node_with("node1", |n| {
                n.status.allocatable = allocatable("200M", "200m")
            }),
            |s| resource_spec(s, "200M", "200m"),
            1,
            false,
        ),
    ];
    for (test, old, new, f, creates, enqueue) in rows {
        for strategy in update_strategies() {
            let mut ds = ds_with(&strategy, f);
            ds.metadata.name = "ds".into();
            let mut s = OneSync::new(vec![old.clone()], ds);
            assert_eq!(s.sync(), (creates, 0, 0), "{test}");
            s.h.settle();
            let mut n = s.h.sim.api.store.get::<Node>("", "node1").cloned().unwrap();
            n.metadata.labels = new.metadata.labels.clone();
            n.spec = new.spec.clone();
            n.metadata.resource_version.clear();
            s.h.sim.api.update(Object::Node(n.clone())).unwrap();
            n.status = new.status.clone();
            s.h.sim.api.update_status(Object::Node(n)).unwrap();
            let s0 = s.h.sim.syncs;
            s.h.settle();
            assert_eq!(s.h.sim.syncs > s0, enqueue, "{test} {}", strategy.type_);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Informer handlers (addNode, addPod, updatePod, deletePod): which DaemonSets get queued
// ---------------------------------------------------------------------------------------------

/// A store holding DaemonSets `names` (created through the API, so they have uids); the last
/// one selects `simpleDaemonSetLabel2` when `third_selects_label2`.
fn handler_world(names: &[&str], third_selects_label2: bool) -> (Simulation, Vec<DaemonSet>) {
    let mut sim = Simulation::new(
        1,
        Time::from_unix_secs(T0),
        FeatureGates::default(),
        World::default(),
    );
    let mut out = vec![];
    for (i, n) in names.iter().enumerate() {
        let mut ds = new_daemon_set(n);
        if third_selects_label2 && i == 2 {
            let l = labels(SIMPLE_LABEL_2);
            ds.spec.selector.as_mut().unwrap().match_labels = Some(l.clone());
            ds.spec.template_mut().metadata.labels = l.into();
        }
        let Object::DaemonSet(ds) = sim.api.create(Object::DaemonSet(ds)).unwrap() else {
            unreachable!()
        };
        out.push(ds);
    }
    (sim, out)
}

/// `newPod(name, node, label, ds)` for the handler tests (not stored).
fn handler_pod(name: &str, label: &[(&str, &str)], owner: Option<&DaemonSet>) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = "default".into();
    p.metadata.name = name.into();
    p.metadata.labels = labels(label).into();
    p.metadata.resource_version = "1".into();
    p.spec_mut().node_name = "node-0".into();
    if let Some(ds) = owner {
        p.metadata.owner_references =
            vec![crate::controllers::controller_utils::new_controller_ref(
                &ds.metadata,
                "apps/v1",
                "DaemonSet",
            )]
            .into();
    }
    p
}

/// `getQueuedKeys`: the queue drained, sorted.
fn queued_keys(q: &mut crate::queue::WorkQueue) -> Vec<String> {
    let mut keys = vec![];
    while let Some(k) = q.pop() {
        keys.push(k);
    }
    keys.sort();
    keys
}

fn bump(p: &Pod) -> Pod {
    let mut p = p.clone();
    let rv: i64 = p.metadata.resource_version.parse().unwrap_or(0);
    p.metadata.resource_version = (rv + 1).to_string();
    p
}

// Port of TestAddNode.
#[test]
fn add_node_queues_matching_sets() {
    let mut sim = Simulation::new(
        1,
        Time::from_unix_secs(T0),
        FeatureGates::default(),
        World::default(),
    );
    let mut ds = new_daemon_set("ds");
    ds.spec.template_mut().spec_mut().node_selector = labels(SIMPLE_NODE_LABEL);
    sim.api.create(Object::DaemonSet(ds)).unwrap();
    let mut c = DaemonSetsController::new();
    let mut q = crate::queue::WorkQueue::new();
    c.add_node(&sim.api.store, &mut q, &new_node("node1", &[]));
    assert_eq!(q.len(), 0);
    c.add_node(
        &sim.api.store,
        &mut q,
        &new_node("node2", SIMPLE_NODE_LABEL),
    );
    assert_eq!(queued_keys(&mut q), ["default/ds"]);
}

// Port of TestAddPod, TestAddPodOrphan, TestUpdatePod, TestUpdatePodOrphanSameLabels,
// TestUpdatePodOrphanWithNewLabels, TestUpdatePodChangeControllerRef,
// TestUpdatePodControllerRefRemoved, TestDeletePod and TestDeletePodOrphan (each upstream
// loops over both update strategies, which the handlers do not look at).
#[test]
fn pod_handlers_queue_the_right_sets() {
    let (sim, ds) = handler_world(&["foo1", "foo2", "foo3"], true);
    let store = &sim.api.store;
    let mut c = DaemonSetsController::new();
    let mut q = crate::queue::WorkQueue::new();

    // TestAddPod: an owned pod queues its owner only.
    let pod1 = handler_pod("pod1-a", SIMPLE_LABEL, Some(&ds[0]));
    c.add_pod(store, &mut q, &pod1);
    assert_eq!(queued_keys(&mut q), ["default/foo1"]);
    let pod2 = handler_pod("pod2-a", SIMPLE_LABEL, Some(&ds[1]));
    c.add_pod(store, &mut q, &pod2);
    assert_eq!(queued_keys(&mut q), ["default/foo2"]);

    // TestAddPodOrphan: an orphan queues every set whose selector matches it.
    let orphan = handler_pod("pod1-b", SIMPLE_LABEL, None);
    c.add_pod(store, &mut q, &orphan);
    assert_eq!(queued_keys(&mut q), ["default/foo1", "default/foo2"]);

    // TestUpdatePod.
    c.update_pod(store, &mut q, &pod1, &bump(&pod1), Time::from_unix_secs(T0));
    assert_eq!(queued_keys(&mut q), ["default/foo1"]);
    c.update_pod(store, &mut q, &pod2, &bump(&pod2), Time::from_unix_secs(T0));
    assert_eq!(queued_keys(&mut q), ["default/foo2"]);

    // TestUpdatePodOrphanSameLabels.
    c.update_pod(
        store,
        &mut q,
        &orphan,
        &bump(&orphan),
        Time::from_unix_secs(T0),
    );
    assert_eq!(q.len(), 0);

    // TestUpdatePodOrphanWithNewLabels.
    let mut prev = orphan.clone();
    prev.metadata.labels = labels(&[("foo2", "bar2")]).into();
    c.update_pod(
        store,
        &mut q,
        &prev,
        &bump(&orphan),
        Time::from_unix_secs(T0),
    );
    assert_eq!(queued_keys(&mut q), ["default/foo1", "default/foo2"]);

    // TestUpdatePodChangeControllerRef: both the old and the new owner.
    let mut prev = pod1.clone();
    prev.metadata.owner_references = handler_pod("x", &[], Some(&ds[1]))
        .metadata
        .owner_references;
    c.update_pod(store, &mut q, &prev, &bump(&pod1), Time::from_unix_secs(T0));
    assert_eq!(queued_keys(&mut q), ["default/foo1", "default/foo2"]);

    // TestUpdatePodControllerRefRemoved: the old owner and the sets that may adopt it.
    let mut cur = bump(&pod1);
    cur.metadata.owner_references.clear();
    c.update_pod(store, &mut q, &pod1, &cur, Time::from_unix_secs(T0));
    assert_eq!(queued_keys(&mut q), ["default/foo1", "default/foo2"]);

    // TestDeletePod.
    c.delete_pod(store, &mut q, &pod1);
    assert_eq!(queued_keys(&mut q), ["default/foo1"]);
    c.delete_pod(store, &mut q, &pod2);
    assert_eq!(queued_keys(&mut q), ["default/foo2"]);

    // TestDeletePodOrphan.
    c.delete_pod(store, &mut q, &orphan);
    assert_eq!(q.len(), 0);
}

// Port of TestDeleteNoDaemonPod: deleting a pod that is not a daemon pod (no controller, a
// controller reference resolving to nothing, or never scheduled) queues nothing. Each row's
// first sync creates the node's daemon pod (1, 0, 0).
#[test]
fn delete_no_daemon_pod_rows() {
    // (test, existing pods have a bare controller ref, deleted pod name, deleted pod node)
    let rows = [
        (
            "Deleted non-daemon pods to release resources",
            false,
            "pod_0",
            "node1",
        ),
        (
            "Deleted non-daemon pods (with controller) to release resources",
            true,
            "pod_0",
            "node1",
        ),
        ("Deleted no scheduled pods", true, "pod_5", ""),
    ];
    let bare_ref = crate::api::OwnerReference {
        controller: Some(true),
        ..Default::default()
    };
    for (test, with_ref, deleted, deleted_node) in rows {
        for strategy in update_strategies() {
            let node = node_with("node1", |n| {
                n.status.allocatable = allocatable("200M", "200m")
            });
            let mut ds = ds_with(&strategy, |s| resource_spec(s, "50M", "50m"));
            ds.metadata.name = "ds".into();
            let mut s = OneSync::new(vec![node], ds);
            for i in 0..4 {
                let mut p = s.pod("node1", &[], false);
                p.metadata.generate_name.clear();
                p.metadata.name = format!("pod-{i}");
                resource_spec(p.spec_mut(), "50M", "50m");
                s.add(p);
            }
            assert_eq!(s.sync(), (1, 0, 0), "{test}");
            let mut p = s.pod(deleted_node, &[], false);
            p.metadata.name = deleted.into();
            resource_spec(p.spec_mut(), "50M", "50m");
            if with_ref {
                p.metadata.owner_references = vec![bare_ref.clone()].into();
            }
            let mut c = DaemonSetsController::new();
            let mut q = crate::queue::WorkQueue::new();
            c.delete_pod(&s.h.sim.api.store, &mut q, &p);
            assert_eq!(q.len(), 0, "{test} {}", strategy.type_);
        }
    }
}

// Port of TestDeleteUnscheduledPodForNotExistingNode: of the daemon pods of missing nodes,
// only the unscheduled one (pinned by affinity to node-2) is deleted by the controller; the
// one bound to node-1 is the pod GC's business.
#[test]
fn delete_unscheduled_pod_for_not_existing_node() {
    for strategy in update_strategies() {
        let mut s = OneSync::new(nodes(1), ds_with(&strategy, |_| {}));
        s.add_pods("node-0", SIMPLE_LABEL, 1);
        s.add_pods("node-1", SIMPLE_LABEL, 1);
        let mut p = s.pod("", SIMPLE_LABEL, true);
        p.metadata.generate_name = "pod1-node-3-".into();
        p.spec_mut().affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![term(&[("metadata.name", "In", &["node-2"])], &[])],
                }),
                ..Default::default()
            }),
            ..Default::default()
        });
        let victim = s.add(p);
        assert_eq!(s.sync(), (0, 1, 0), "{}", strategy.type_);
        let deleted: Vec<&str> =
            s.h.sim
                .actions
                .iter()
                .filter(|a| a.verb == "delete")
                .map(|a| a.name.as_str())
                .collect();
        assert_eq!(deleted, [victim.as_str()]);
    }
}

// Port of TestGetNodesToDaemonPods: owned and adoptable orphan pods matching the selector are
// grouped by node; non-matching, foreign and (unless asked for) deleted terminal pods are not.
#[test]
fn get_nodes_to_daemon_pods_rows() {
    for include_deleted_terminal in [false, true] {
        let (mut sim, ds) = handler_world(&["foo", "foo2"], false);
        for n in nodes(2) {
            sim.api.create(Object::Node(n)).unwrap();
        }
        // (generateName, node, label, owner index, phase, being deleted, wanted)
        type PodRow = (
            &'static str,
            &'static str,
            &'static [(&'static str, &'static str)],
            Option<usize>,
            &'static str,
            bool,
            bool,
        );
        let pods: Vec<PodRow> = vec![
            (
                "matching-owned-0-",
                "node-0",
                SIMPLE_LABEL,
                Some(0),
                "",
                false,
                true,
            ),
            (
                "matching-orphan-0-",
                "node-0",
                SIMPLE_LABEL,
                None,
                "",
                false,
                true,
            ),
            (
                "matching-owned-1-",
                "node-1",
                SIMPLE_LABEL,
                Some(0),
                "",
                false,
                true,
            ),
            (
                "matching-orphan-1-",
                "node-1",
                SIMPLE_LABEL,
                None,
                "",
                false,
                true,
            ),
            (
                "matching-owned-succeeded-pod-0-",
                "node-0",
                SIMPLE_LABEL,
                Some(0),
                "Succeeded",
                false,
                true,
            ),
            (
                "matching-owned-failed-pod-1-",
                "node-1",
                SIMPLE_LABEL,
                Some(0),
                "Failed",
                false,
                true,
            ),
            (
                "non-matching-owned-0-",
                "node-0",
                SIMPLE_LABEL_2,
                Some(0),
                "",
                false,
                false,
            ),
            (
                "non-matching-orphan-1-",
                "node-1",
                SIMPLE_LABEL_2,
                None,
                "",
                false,
                false,
            ),
            (
                "matching-owned-by-other-0-",
                "node-0",
                SIMPLE_LABEL,
                Some(1),
                "",
                false,
                false,
            ),
            (
                "matching-owned-succeeded-deleted-pod-0-",
                "node-0",
                SIMPLE_LABEL,
                Some(0),
                "Succeeded",
                true,
                include_deleted_terminal,
            ),
            (
                "matching-owned-failed-deleted-pod-1-",
                "node-1",
                SIMPLE_LABEL,
                Some(0),
                "Failed",
                true,
                include_deleted_terminal,
            ),
        ];
        let mut wanted = std::collections::BTreeSet::new();
        for (gen, node, label, owner, phase, deleting, want) in pods {
            let mut p = handler_pod("", label, owner.map(|i| &ds[i]));
            p.metadata.name.clear();
            p.metadata.resource_version.clear();
            p.metadata.generate_name = gen.into();
            p.spec_mut().node_name = node.into();
            p.spec_mut().containers = vec![crate::api::Container {
                name: "c".into(),
                image: "foo/bar".into(),
                ..Default::default()
            }];
            if deleting {
                p.metadata.finalizers = vec!["example.com/hold".into()].into();
            }
            let Object::Pod(mut p) = sim.api.create(Object::Pod(p)).unwrap() else {
                unreachable!()
            };
            let name = p.metadata.name.clone();
            if !phase.is_empty() {
                p.status.phase = phase.into();
                sim.api.update_status(Object::Pod(p)).unwrap();
            }
            if deleting {
                sim.api
                    .delete("Pod", "default", &name, &DeleteOptions::default())
                    .unwrap();
            }
            if want {
                wanted.insert(name);
            }
        }
        let c = DaemonSetsController::new();
        let gates = FeatureGates::default();
        let mut q = crate::queue::WorkQueue::new();
        let mut world = World::default();
        let mut actions = vec![];
        let mut ctx = crate::controllers::Ctx {
            api: &mut sim.api,
            gates: &gates,
            queue: &mut q,
            world: &mut world,
            actions: &mut actions,
            component: "daemonset-controller",
        };
        let got = c
            .get_nodes_to_daemon_pods(&mut ctx, &ds[0], include_deleted_terminal)
            .unwrap();
        let mut got_names = std::collections::BTreeSet::new();
        for (node, pods) in got {
            for p in pods {
                assert_eq!(
                    p.spec.node_name, node,
                    "{} grouped under {node}",
                    p.metadata.name
                );
                got_names.insert(p.metadata.name);
            }
        }
        assert_eq!(
            got_names, wanted,
            "includeDeletedTerminal={include_deleted_terminal}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Surge (maxSurge 1, maxUnavailable 0) single syncs, with upstream's creation times
// ---------------------------------------------------------------------------------------------

/// `newUpdateSurge(1)`.
fn surge_strategy() -> crate::api::DaemonSetUpdateStrategy {
    serde_json::from_value(
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}),
    )
    .unwrap()
}

impl OneSync {
    /// [`OneSync::new`] with the clock at `now` (Unix seconds), upstream's fake clock.
    fn new_at(nodes: Vec<Node>, ds: DaemonSet, now: i64) -> Self {
        let mut sim = Simulation::new(
            1,
            Time::from_unix_secs(now),
            FeatureGates::default(),
            World::default(),
        );
        for n in nodes {
            sim.api.load(Object::Node(n)).unwrap();
        }
        sim.add_loop(Box::new(DaemonSetsController::new()));
        let mut h = Harness { sim };
        h.settle();
        let Object::DaemonSet(ds) = h.sim.api.create(Object::DaemonSet(ds)).unwrap() else {
            unreachable!()
        };
        OneSync { h, ds }
    }

    /// A daemon pod created at `created` (Unix seconds), with the current hash label or none
    /// (an old pod), and a Ready condition (`Some(ltt)`: Ready=True, transition at that time;
    /// `ltt` 0 for upstream's zero time) or none. Returns its name.
    fn add_timed(
        &mut self,
        gen: &str,
        node: &str,
        current: bool,
        created: i64,
        ready: Option<(bool, i64)>,
    ) -> String {
        let mut p = self.pod(node, SIMPLE_LABEL, true);
        p.metadata.generate_name = gen.into();
        if !current {
            p.metadata
                .labels
                .remove(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY);
        }
        p.metadata.creation_timestamp = Some(Time::from_unix_secs(created));
        if let Some((status, ltt)) = ready {
            p.status.conditions = vec![crate::api::PodCondition {
                type_: "Ready".into(),
                status: if status { "True" } else { "False" }.into(),
                last_transition_time: (ltt != 0).then(|| Time::from_unix_secs(ltt)),
                ..Default::default()
            }];
        }
        let o = self.h.sim.api.load(Object::Pod(p)).unwrap();
        o.meta().name.clone()
    }

    fn deleted_names(&self) -> std::collections::BTreeSet<String> {
        self.h
            .sim
            .actions
            .iter()
            .filter(|a| a.verb == "delete" && a.kind == "Pod")
            .map(|a| a.name.clone())
            .collect()
    }
}

// Port of TestSurgeDealsWithExistingPods.
#[test]
fn surge_deals_with_existing_pods() {
    let ds = ds_with(&surge_strategy(), |_| {});
    let mut s = OneSync::new(nodes(5), ds);
    s.add_pods("node-1", SIMPLE_LABEL, 1);
    s.add_pods("node-2", SIMPLE_LABEL, 2);
    s.add_pods("node-3", SIMPLE_LABEL, 5);
    s.add_pods("node-4", SIMPLE_LABEL_2, 2);
    assert_eq!(s.sync(), (2, 5, 0));
}

// Port of TestSurgePreservesReadyOldPods and TestSurgeDeletesUnreadyOldPods: on node-1 the
// current pod (not ready) stays next to the oldest ready old pod; a younger old pod, and an
// unready old one, are deleted. Nodes 0, 3 and 4 get pods.
#[test]
fn surge_keeps_the_oldest_ready_old_pod() {
    // TestSurgePreservesReadyOldPods.
    let ds = ds_with(&surge_strategy(), |_| {});
    let mut s = OneSync::new_at(nodes(5), ds, 1_000);
    s.add_timed("node-1-", "node-1", true, 100, None);
    s.add_timed("node-1-old-", "node-1", false, 50, Some((true, 0)));
    let old_ready = s.add_timed("node-1-delete-", "node-1", false, 60, Some((true, 0)));
    s.add_pods("node-2", SIMPLE_LABEL, 1);
    assert_eq!(s.sync(), (3, 1, 0));
    assert_eq!(s.deleted_names(), [old_ready].into());

    // TestSurgeDeletesUnreadyOldPods.
    let ds = ds_with(&surge_strategy(), |_| {});
    let mut s = OneSync::new_at(nodes(5), ds, 1_000);
    s.add_timed("node-1-", "node-1", true, 100, None);
    let old_unready = s.add_timed("node-1-old-unready-", "node-1", false, 50, Some((false, 0)));
    let old_ready = s.add_timed("node-1-delete-", "node-1", false, 60, Some((true, 0)));
    s.add_pods("node-2", SIMPLE_LABEL, 1);
    assert_eq!(s.sync(), (3, 2, 0));
    assert_eq!(s.deleted_names(), [old_ready, old_unready].into());
}

// Port of TestSurgeCreatesNewPodWhenAtMaxSurgeAndOldPodDeleted: the surge budget is used by
// node-0's new pod, yet node-4, whose only (old) pod is being deleted, gets a new one.
#[test]
fn surge_creates_for_a_node_whose_old_pod_is_being_deleted() {
    let ds = ds_with(&surge_strategy(), |_| {});
    let mut s = OneSync::new_at(nodes(5), ds, 1_000);
    s.add_timed("node-0-", "node-0", true, 100, Some((false, 0)));
    s.add_timed("node-0-old-ready-", "node-0", false, 50, Some((true, 0)));
    for i in 1..5 {
        let node = format!("node-{i}");
        let name = s.add_timed(
            &format!("{node}-preserve-"),
            &node,
            false,
            1,
            Some((true, 0)),
        );
        if i == 4 {
            // DeletionTimestamp set with a 30 s grace period: a bound pod deleted gracefully.
            let mut p =
                s.h.sim
                    .api
                    .store
                    .get::<Pod>("default", &name)
                    .cloned()
                    .unwrap();
            p.metadata.finalizers = vec!["example.com/hold".into()].into();
            p.metadata.resource_version.clear();
            s.h.sim.api.update(Object::Pod(p)).unwrap();
            s.h.sim
                .api
                .delete("Pod", "default", &name, &DeleteOptions::default())
                .unwrap();
        }
    }
    assert_eq!(s.sync(), (1, 0, 0));
    let created: Vec<String> =
        s.h.live_pods()
            .into_iter()
            .filter(|p| p.metadata.creation_timestamp == Some(Time::from_unix_secs(1_000)))
            .map(|p| get_target_node_name(&p).unwrap())
            .collect();
    assert_eq!(created, ["node-4"]);
}

// Port of TestSurgePreservesOldReadyWithUnsatisfiedMinReady and
// TestSurgeDeletesOldReadyWithUnsatisfiedMinReady: minReadySeconds 15, node-1's new pod ready
// since 50. At 60 it is not yet available, so the oldest ready old pod stays (only the excess
// one goes); at 70 it is, and both old pods go.
#[test]
fn surge_with_min_ready_seconds() {
    for (now, deletes_old_ready) in [(60, false), (70, true)] {
        let mut ds = ds_with(&surge_strategy(), |_| {});
        ds.spec.min_ready_seconds = 15;
        let mut s = OneSync::new_at(nodes(5), ds, now);
        s.add_timed("node-1-", "node-1", true, 100, Some((true, 50)));
        let old_ready = s.add_timed("node-1-old-ready-", "node-1", false, 50, Some((true, 0)));
        let excess = s.add_timed("node-1-delete-", "node-1", false, 60, Some((true, 0)));
        s.add_pods("node-2", SIMPLE_LABEL, 1);
        let mut want_deleted = std::collections::BTreeSet::from([excess]);
        if deletes_old_ready {
            want_deleted.insert(old_ready);
        }
        assert_eq!(s.sync(), (3, want_deleted.len(), 0), "now={now}");
        assert_eq!(s.deleted_names(), want_deleted, "now={now}");
    }
}

// Port of TestStoreDaemonSetStatus: (name, make the passed copy stale, delete the DaemonSet
// first, expected update calls, expected error). The stale copy makes the first write
// conflict, standing in for upstream's injected update error; a deleted DaemonSet makes the
// write and the fresh read fail. "fail after two update failures" needs a second injected
// failure after a fresh read, which the simulation's API server cannot produce: skipped.
#[test]
fn store_daemon_set_status_rows() {
    let rows = [
        ("succeed immediately", false, false, 1, None),
        ("succeed after one update failure", true, false, 2, None),
        (
            "fail after one update failure and one get failure",
            false,
            true,
            1,
            Some(crate::api::errors::Reason::NotFound),
        ),
    ];
    for (name, stale, deleted, updates, err) in rows {
        let (mut sim, ds) = handler_world(&["foo"], false);
        let mut ds = ds[0].clone();
        if stale {
            let mut newer = ds.clone();
            newer.metadata.labels.insert("touched".into(), "yes".into());
            let Object::DaemonSet(n) = sim.api.update(Object::DaemonSet(newer)).unwrap() else {
                unreachable!()
            };
            assert_ne!(n.metadata.resource_version, ds.metadata.resource_version);
        }
        if deleted {
            sim.api
                .delete("DaemonSet", "default", "foo", &DeleteOptions::default())
                .unwrap();
        }
        ds.status.observed_generation = 0;
        let gates = FeatureGates::default();
        let mut q = crate::queue::WorkQueue::new();
        let mut world = World::default();
        let mut actions = vec![];
        let mut ctx = crate::controllers::Ctx {
            api: &mut sim.api,
            gates: &gates,
            queue: &mut q,
            world: &mut world,
            actions: &mut actions,
            component: "daemonset-controller",
        };
        let res = store_daemon_set_status(&mut ctx, &ds, [2; 7], true);
        assert_eq!(res.as_ref().err().map(|e| e.reason.clone()), err, "{name}");
        let calls = actions.iter().filter(|a| a.verb == "update-status").count();
        assert_eq!(calls, updates, "{name}");
        if err.is_none() {
            let st = sim
                .api
                .store
                .get::<DaemonSet>("default", "foo")
                .unwrap()
                .status
                .clone();
            assert_eq!(
                (
                    st.desired_number_scheduled,
                    st.number_unavailable,
                    st.observed_generation
                ),
                (2, 2, 1),
                "{name}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// update_test.go, sync by sync
// ---------------------------------------------------------------------------------------------

impl OneSync {
    /// `markPodsReady` / `setPodReadiness`: up to `count` live pods for which `pick` holds and
    /// whose readiness differs get Ready=`ready`, transition now.
    fn set_readiness(&mut self, ready: bool, count: usize, pick: impl Fn(&Pod) -> bool) {
        let now = self.h.sim.now();
        let mut left = count;
        for mut p in self.h.live_pods() {
            if left == 0 {
                break;
            }
            if crate::controllers::controller_utils::is_pod_ready(&p) == ready || !pick(&p) {
                continue;
            }
            p.status.conditions.retain(|c| c.type_ != "Ready");
            p.status.conditions.push(crate::api::PodCondition {
                type_: "Ready".into(),
                status: if ready { "True" } else { "False" }.into(),
                last_transition_time: Some(now),
                ..Default::default()
            });
            self.h.sim.api.update_status(Object::Pod(p)).unwrap();
            left -= 1;
        }
        assert_eq!(left, 0, "could not mark {count} pods ready={ready}");
    }

    fn mark_all_ready(&mut self) {
        let unready = self
            .h
            .live_pods()
            .iter()
            .filter(|p| !crate::controllers::controller_utils::is_pod_ready(p))
            .count();
        self.set_readiness(true, unready, |_| true);
    }

    /// `manager.dsStore.Update(ds)`: the change is written, not yet synced.
    fn update(&mut self, f: impl FnOnce(&mut DaemonSet)) {
        let mut d = self.h.ds(&self.ds.metadata.name);
        f(&mut d);
        d.metadata.resource_version.clear();
        let Object::DaemonSet(d) = self.h.sim.api.update(Object::DaemonSet(d)).unwrap() else {
            unreachable!()
        };
        self.ds = d;
    }

    /// [`OneSync::sync`], forcing a sync when no event queued one (upstream calls the sync
    /// handler directly).
    fn sync_now(&mut self) -> Counts {
        // Queue the key through a write of the unchanged DaemonSet, which the controller
        // watches.
        let d = self.h.ds(&self.ds.metadata.name);
        self.h.sim.api.store.put(Object::DaemonSet(d));
        self.sync()
    }

    fn current_hash(&self) -> String {
        crate::controllers::deployment::util::compute_hash(
            &self.h.ds(&self.ds.metadata.name).spec.template,
            self.h.ds(&self.ds.metadata.name).status.collision_count,
        )
    }
}

fn rolling(max_unavailable: i32) -> crate::api::DaemonSetUpdateStrategy {
    serde_json::from_value(
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": max_unavailable}}),
    )
    .unwrap()
}

fn surge(max_surge: i32) -> crate::api::DaemonSetUpdateStrategy {
    serde_json::from_value(
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": max_surge}}),
    )
    .unwrap()
}

fn on_delete_ds() -> DaemonSet {
    ds_with(&update_strategies()[0], |_| {})
}

// Port of TestDaemonSetUpdatesPods (update_test.go), sync by sync: maxUnavailable 2 over 5
// nodes deletes 2, creates 2, deletes 2, creates 2, deletes 1, creates 1.
#[test]
fn updates_pods_sync_by_sync() {
    let mut s = OneSync::new(nodes(5), on_delete_ds());
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.mark_all_ready();
    s.update(|d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo2/bar2".into();
        d.spec.update_strategy = rolling(2);
    });
    for want in [(0, 2, 0), (2, 0, 0)] {
        assert_eq!(s.sync_now(), want);
    }
    s.mark_all_ready();
    for want in [(0, 2, 0), (2, 0, 0)] {
        assert_eq!(s.sync_now(), want);
    }
    s.mark_all_ready();
    for want in [(0, 1, 0), (1, 0, 0)] {
        assert_eq!(s.sync_now(), want);
    }
    s.mark_all_ready();
    assert_eq!(s.sync_now(), (0, 0, 0));
}

// Note on the surge ports: upstream's fake pod control records a deletion as observed while
// the sync is still running, so a sync whose manage loop deletes pods goes on with the rolling
// update at once. The real controller (and this one) waits for the deletions to be observed
// (SatisfiedExpectations): where upstream expects (c, d) from one such sync, the ports expect
// (0, d) and then (c, 0) from the next.

// Port of TestDaemonSetUpdatesPodsWithMaxSurge: maxSurge 2 over 5 nodes (upstream's
// (2, 2) and (1, 2) syncs split as the note above explains).
#[test]
fn updates_pods_with_max_surge_sync_by_sync() {
    let mut s = OneSync::new(nodes(5), on_delete_ds());
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.mark_all_ready();
    s.update(|d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo2/bar2".into();
        d.spec.update_strategy = surge(2);
    });
    assert_eq!(s.sync_now(), (2, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    s.mark_all_ready();
    assert_eq!(s.sync_now(), (0, 2, 0), "upstream (2, 2)");
    assert_eq!(s.sync_now(), (2, 0, 0), "upstream (2, 2)");
    assert_eq!(s.sync_now(), (0, 0, 0));
    s.mark_all_ready();
    assert_eq!(s.sync_now(), (0, 2, 0), "upstream (1, 2)");
    assert_eq!(s.sync_now(), (1, 0, 0), "upstream (1, 2)");
    assert_eq!(s.sync_now(), (0, 0, 0));
    s.mark_all_ready();
    assert_eq!(s.sync_now(), (0, 1, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
}

// Port of TestDaemonSetUpdatesWhenNewPosIsNotReady: with maxUnavailable 3, three old pods go,
// three new ones come, and nothing more while they are not ready.
#[test]
fn updates_when_new_pods_are_not_ready_sync_by_sync() {
    let mut s = OneSync::new(nodes(5), on_delete_ds());
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.mark_all_ready();
    s.update(|d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo2/bar2".into();
        d.spec.update_strategy = rolling(3);
    });
    assert_eq!(s.sync_now(), (0, 3, 0));
    assert_eq!(s.sync_now(), (3, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
}

// Port of TestDaemonSetUpdatesAllOldPodsNotReady: unavailable old pods all go at once.
#[test]
fn updates_all_old_pods_not_ready_sync_by_sync() {
    let mut s = OneSync::new(nodes(5), on_delete_ds());
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.update(|d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo2/bar2".into();
        d.spec.update_strategy = rolling(3);
    });
    assert_eq!(s.sync_now(), (0, 5, 0));
    assert_eq!(s.sync_now(), (5, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
}

// Port of TestDaemonSetUpdatesNoTemplateChanged: a strategy change alone replaces nothing.
#[test]
fn updates_no_template_changed_sync_by_sync() {
    let mut s = OneSync::new(nodes(5), on_delete_ds());
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.update(|d| d.spec.update_strategy = rolling(3));
    assert_eq!(s.sync_now(), (0, 0, 0));
}

// Port of TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge: maxSurge 3 with unready old pods,
// then minReadySeconds 15 and a second template, on upstream's fake clock (100 … 350 s).
#[test]
fn updates_all_old_pods_not_ready_max_surge_sync_by_sync() {
    let mut s = OneSync::new_at(nodes(5), on_delete_ds(), 0);
    let clock = |s: &mut OneSync, t: i64| s.h.sim.api.now = Time::from_unix_secs(t);
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.update(|d| {
        d.spec.template_mut().spec_mut().containers[0].image = "foo2/bar2".into();
        d.spec.update_strategy = surge(3);
    });
    // All old pods are unavailable, so they are surged.
    clock(&mut s, 100);
    assert_eq!(s.sync_now(), (5, 0, 0));
    // Waiting for pods to go ready, old pods are deleted.
    clock(&mut s, 200);
    assert_eq!(s.sync_now(), (0, 5, 0));
    s.set_readiness(true, 5, |_| true);
    s.update(|d| {
        d.spec.min_ready_seconds = 15;
        d.spec.template_mut().spec_mut().containers[0].image = "foo3/bar3".into();
    });
    clock(&mut s, 300);
    assert_eq!(s.sync_now(), (3, 0, 0));
    let hash = s.current_hash();
    let current_nodes: std::collections::BTreeSet<String> =
        s.h.live_pods()
            .iter()
            .filter(|p| p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) == Some(&hash))
            .map(|p| get_target_node_name(p).unwrap())
            .collect();
    // Two updated pods ready at 300; one old pod on a node without an updated pod unready.
    let h2 = hash.clone();
    s.set_readiness(true, 2, move |p| {
        p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) == Some(&h2)
    });
    let h3 = hash.clone();
    s.set_readiness(false, 1, move |p| {
        p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) != Some(&h3)
            && !current_nodes.contains(&get_target_node_name(p).unwrap())
    });
    // The new pods still wait for minReadySeconds: one pod replaces the unready old one.
    clock(&mut s, 310);
    assert_eq!(s.sync_now(), (1, 0, 0));
    // Now available: the old pods next to them go.
    clock(&mut s, 320);
    // Upstream's one sync (1, 3, 0) is two here: the manage loop deletes the three old pods,
    // and the rolling update runs only once those deletions are observed (see the
    // note above updates_pods_with_max_surge_sync_by_sync).
    assert_eq!(s.sync_now(), (0, 3, 0));
    assert_eq!(s.sync_now(), (1, 0, 0));
    let h4 = hash.clone();
    s.set_readiness(true, 3, move |p| {
        p.metadata.labels.get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY) == Some(&h4)
    });
    clock(&mut s, 340);
    assert_eq!(s.sync_now(), (0, 2, 0));
    // Complete.
    clock(&mut s, 350);
    assert_eq!(s.sync_now(), (0, 0, 0));
}

// Port of TestGetUnavailableNumbers with upstream's rows: (name, nodes, strategy, pods per node
// (ready; one pod terminating in the last row), want (maxSurge, maxUnavailable), empty nodes).
#[test]
fn get_unavailable_numbers_upstream_rows() {
    let unavail = |v: &str| -> crate::api::DaemonSetUpdateStrategy {
        serde_json::from_value(json!({"type": "RollingUpdate",
            "rollingUpdate": {"maxUnavailable": int_or_percent(v), "maxSurge": 0}}))
        .unwrap()
    };
    let surge_of = |v: &str| -> crate::api::DaemonSetUpdateStrategy {
        serde_json::from_value(json!({"type": "RollingUpdate",
            "rollingUpdate": {"maxUnavailable": 0, "maxSurge": int_or_percent(v)}}))
        .unwrap()
    };
    type Row = (
        &'static str,
        usize,
        crate::api::DaemonSetUpdateStrategy,
        Vec<&'static str>,
        (i32, i32),
        usize,
    );
    let rows: Vec<Row> = vec![
        ("No nodes", 0, unavail("0"), vec![], (0, 0), 0),
        (
            "Two nodes with ready pods",
            2,
            unavail("1"),
            vec!["node-0", "node-1"],
            (0, 1),
            0,
        ),
        (
            "Two nodes, one node without pods",
            2,
            unavail("0"),
            vec!["node-0"],
            (0, 1),
            1,
        ),
        (
            "Two nodes, one node without pods, surge",
            2,
            surge_of("0"),
            vec!["node-0"],
            (0, 1),
            1,
        ),
        (
            "Two nodes with pods, MaxUnavailable in percents",
            2,
            unavail("50%"),
            vec!["node-0", "node-1"],
            (0, 1),
            0,
        ),
        (
            "Two nodes with pods, MaxUnavailable in percents, surge",
            2,
            surge_of("50%"),
            vec!["node-0", "node-1"],
            (1, 0),
            0,
        ),
        (
            "Two nodes with pods, MaxUnavailable is 100%, surge",
            2,
            surge_of("100%"),
            vec!["node-0", "node-1"],
            (2, 0),
            0,
        ),
        (
            "Two nodes with pods, MaxUnavailable in percents, pod terminating",
            3,
            unavail("50%"),
            vec!["node-0", "node-1"],
            (0, 2),
            1,
        ),
    ];
    for (name, n, strategy, pods_on, want, empty) in rows {
        let mut ds = new_daemon_set("x");
        ds.spec.update_strategy = strategy;
        let mut map: BTreeMap<String, Vec<Pod>> = BTreeMap::new();
        for (i, node) in pods_on.iter().enumerate() {
            let mut p = new_pod(&ds, node);
            p.metadata.name = format!("pod-{i}");
            p.set_condition("Ready", "True", "", "", Time::from_unix_secs(T0));
            if name.ends_with("pod terminating") && i == 1 {
                p.metadata.deletion_timestamp = Some(Time::from_unix_secs(T0));
            }
            map.insert(node.to_string(), vec![p]);
        }
        let (surge, unavailable, _) =
            DaemonSetsController::updated_desired_node_counts(&ds, &nodes(n), &mut map).unwrap();
        assert_eq!((surge, unavailable), want, "{name}");
        assert_eq!(
            map.values().filter(|p| p.is_empty()).count(),
            empty,
            "{name}"
        );
    }
}

// Port of TestControlledHistories: an orphan revision in the DaemonSet's namespace is adopted
// along with the owned one; an orphan in another namespace is not.
#[test]
fn controlled_histories_rows() {
    for other_namespace in [false, true] {
        let (mut sim, ds) = handler_world(&["ds1"], false);
        let ds1 = ds[0].clone();
        let rev = |name: &str, ns: &str, owned: bool| {
            let mut r = ControllerRevision::default();
            r.metadata.name = name.into();
            r.metadata.namespace = ns.into();
            r.metadata.labels = ds1.spec.template.metadata.labels.clone();
            if owned {
                r.metadata.owner_references =
                    vec![crate::controllers::controller_utils::new_controller_ref(
                        &ds1.metadata,
                        "apps/v1",
                        "DaemonSet",
                    )]
                    .into();
            }
            r.data = Some(json!({}));
            r.revision = 1;
            r
        };
        let want: Vec<&str> = if other_namespace {
            sim.api
                .create(Object::ControllerRevision(rev(
                    "ds1-x3",
                    "default-other",
                    false,
                )))
                .unwrap();
            vec![]
        } else {
            sim.api
                .create(Object::ControllerRevision(rev("ds1-x1", "default", true)))
                .unwrap();
            sim.api
                .create(Object::ControllerRevision(rev("ds1-x2", "default", false)))
                .unwrap();
            vec!["ds1-x1", "ds1-x2"]
        };
        let c = DaemonSetsController::new();
        let gates = FeatureGates::default();
        let mut q = crate::queue::WorkQueue::new();
        let mut world = World::default();
        let mut actions = vec![];
        let mut ctx = crate::controllers::Ctx {
            api: &mut sim.api,
            gates: &gates,
            queue: &mut q,
            world: &mut world,
            actions: &mut actions,
            component: "daemonset-controller",
        };
        let got = c.controlled_histories(&mut ctx, &ds1).unwrap();
        let mut names: Vec<&str> = got.iter().map(|r| r.metadata.name.as_str()).collect();
        names.sort();
        assert_eq!(names, want, "other namespace: {other_namespace}");
        // The returned list holds the revisions as listed (upstream compares them with the
        // originals); the adoption shows in the store.
        for name in &want {
            let r = sim
                .api
                .store
                .get::<ControllerRevision>("default", name)
                .unwrap();
            assert_eq!(
                r.metadata.controller_ref().map(|c| c.uid.as_str()),
                Some(ds1.metadata.uid.as_str()),
                "{name} adopted"
            );
        }
    }
}

// Not ported from daemon_controller_test.go / update_test.go:
// - TestSimpleDaemonSetPodCreateErrors, TestSimpleDaemonSetUpdatesStatusError and the
//   "fail after two update failures" row of TestStoreDaemonSetStatus: they inject API errors.
// - TestDontDoAnythingIfBeingDeletedRace, TestDeleteFinalStateUnknown,
//   TestExpectationsOnRecreate: informer/API disagreement, tombstones and queue internals do
//   not exist in the simulation.
// - TestShouldIgnoreNodeUpdate: shouldIgnoreNodeUpdate is inlined in update_node; its three
//   rows are the enqueue rows of update_node_rows.

impl OneSync {
    /// `manager.dsStore.Update(ds)` without the API server's validation (upstream's informer
    /// store takes any object): for a strategy the API server would reject.
    fn put(&mut self, f: impl FnOnce(&mut DaemonSet)) {
        let mut d = self.h.ds(&self.ds.metadata.name);
        let old_template = d.spec.template.clone();
        f(&mut d);
        // The API server's PrepareForUpdate bumps the template generation on a template change
        // (upstream's test objects carry none, so only the hash decides there).
        if d.spec.template != old_template {
            let key = "deprecated.daemonset.template.generation";
            let g: i64 = d
                .metadata
                .annotations
                .get(key)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            d.metadata
                .annotations
                .insert(key.into(), (g + 1).to_string());
        }
        self.h.sim.api.store.put(Object::DaemonSet(d.clone()));
        self.ds = d;
    }

    fn ready_names(&self) -> std::collections::BTreeSet<String> {
        self.h
            .live_pods()
            .into_iter()
            .filter(crate::controllers::controller_utils::is_pod_ready)
            .map(|p| p.metadata.name)
            .collect()
    }
}

fn set_image(d: &mut DaemonSet, image: &str) {
    d.spec.template_mut().spec_mut().containers[0].image = image.into();
}

// Upstream: TestDaemonSetUpdatesSomeOldPodsNotReady (pkg/controller/daemon/update_test.go):
// maxUnavailable 2 over 5 nodes; the second update replaces the two unready new pods and leaves
// the three available old ones.
#[test]
fn updates_some_old_pods_not_ready_sync_by_sync() {
    let mut s = OneSync::new(nodes(5), on_delete_ds());
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.mark_all_ready();
    s.update(|d| {
        set_image(d, "foo2/bar2");
        d.spec.update_strategy = rolling(2);
    });
    assert_eq!(s.sync_now(), (0, 2, 0));
    assert_eq!(s.sync_now(), (2, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    // Another update: the two (unready) new pods go and come back; three stay.
    s.update(|d| set_image(d, "foo2/bar3"));
    assert_eq!(s.sync_now(), (0, 2, 0));
    assert_eq!(s.sync_now(), (2, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    assert_eq!(s.ready_names().len(), 5 - 2, "old ready pods");
}

// Upstream: TestDaemonSetUpdatesSaveOldHealthyPods (update_test.go): 20 nodes, 10 old ready pods
// that later updates never touch, whatever maxUnavailable (upstream draws rand.Intn(10) ten
// times; here each of 0..=9 once), until maxUnavailable 11 takes one of them.
#[test]
fn updates_save_old_healthy_pods_sync_by_sync() {
    let mut s = OneSync::new(nodes(20), on_delete_ds());
    assert_eq!(s.sync_now(), (20, 0, 0));
    s.mark_all_ready();
    s.update(|d| {
        set_image(d, "foo2/bar2");
        d.spec.update_strategy = rolling(10);
    });
    assert_eq!(s.sync_now(), (0, 10, 0));
    assert_eq!(s.sync_now(), (10, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    let old_ready = s.ready_names();
    assert_eq!(old_ready.len(), 10);
    for i in 0..10 {
        let change = |d: &mut DaemonSet| {
            d.spec.update_strategy = rolling(i);
            set_image(d, &format!("foo2/bar3-{i}"));
        };
        if i == 0 {
            s.put(change); // maxUnavailable 0 with no surge: rejected by validation
        } else {
            s.update(change);
        }
        // Only the 10 unavailable pods are replaced.
        assert_eq!(s.sync_now(), (0, 10, 0), "iteration {i}");
        assert_eq!(s.sync_now(), (10, 0, 0), "iteration {i}");
        assert_eq!(s.sync_now(), (0, 0, 0), "iteration {i}");
        let ready = s.ready_names();
        assert!(
            old_ready.is_subset(&ready),
            "pods have changed in iteration {i}: {:?}",
            old_ready.difference(&ready).collect::<Vec<_>>()
        );
    }
    s.update(|d| {
        d.spec.update_strategy = rolling(11);
        set_image(d, "foo2/bar4");
    });
    assert_eq!(s.sync_now(), (0, 11, 0));
    assert_eq!(s.sync_now(), (11, 0, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    assert_eq!(s.ready_names().len(), 9);
}

// Upstream: TestDaemonSetUpdatesAllOldNotReadyPodsAndNewNotReadyPods (update_test.go): 100
// nodes rolled out 10 at a time; then 88 new pods unready, 2 old unready and 10 old ready
// (maxUnavailable 10): the 2 old unready pods are replaced.
#[test]
fn updates_all_old_not_ready_pods_and_new_not_ready_pods_sync_by_sync() {
    let mut s = OneSync::new(nodes(100), on_delete_ds());
    assert_eq!(s.sync_now(), (100, 0, 0));
    s.mark_all_ready();
    let hash1 = s.h.live_pods()[0].metadata.labels["controller-revision-hash"].clone();
    let generation1 = s.h.live_pods()[0].metadata.labels["pod-template-generation"].clone();
    s.update(|d| {
        set_image(d, "foo2/bar2");
        d.spec.update_strategy = rolling(10);
    });
    for i in 0..10 {
        assert_eq!(s.sync_now(), (0, 10, 0), "iteration {i}");
        assert_eq!(s.sync_now(), (10, 0, 0), "iteration {i}");
        s.mark_all_ready();
    }
    assert_eq!(s.sync_now(), (0, 0, 0));
    let now = s.h.sim.now();
    let mut old_unavailable = std::collections::BTreeSet::new();
    for (i, mut p) in s.h.live_pods().into_iter().enumerate() {
        if i < 12 {
            p.metadata
                .labels
                .insert("controller-revision-hash".into(), hash1.clone());
            // Old pods also carry the first template generation (upstream's objects have none).
            p.metadata
                .labels
                .insert("pod-template-generation".into(), generation1.clone());
            if i >= 10 {
                old_unavailable.insert(p.metadata.name.clone());
            }
            p.metadata.resource_version.clear();
            let Object::Pod(q) = s.h.sim.api.update(Object::Pod(p)).unwrap() else {
                unreachable!()
            };
            p = q;
        }
        if i >= 10 {
            p.status.conditions.retain(|c| c.type_ != "Ready");
            p.status.conditions.push(crate::api::PodCondition {
                type_: "Ready".into(),
                status: "False".into(),
                last_transition_time: Some(now),
                ..Default::default()
            });
            s.h.sim.api.update_status(Object::Pod(p)).unwrap();
        }
    }
    assert_eq!(s.sync_now(), (0, 2, 0), "the 2 old unavailable pods go");
    assert_eq!(s.sync_now(), (2, 0, 0), "and are replaced");
    assert_eq!(s.sync_now(), (0, 0, 0));
    let left: Vec<String> =
        s.h.live_pods()
            .into_iter()
            .map(|p| p.metadata.name)
            .filter(|n| old_unavailable.contains(n))
            .collect();
    assert!(left.is_empty(), "found not updated old pods: {left:?}");
}

// Upstream: TestDaemonSetUpdatesPodsNotMatchTainstWithMaxSurge (update_test.go): node-0 is
// tainted control-plane:NoSchedule; the DaemonSet first tolerates it, then (maxSurge 1) drops
// the toleration. The first sync deletes node-0's pod from the rolling update itself (a
// should-not-run node, deletable once 5 pods are available for 4 desired) and surges onto one
// node.
#[test]
fn updates_pods_not_match_taint_with_max_surge_sync_by_sync() {
    let mut ds = on_delete_ds();
    ds.spec.update_strategy = surge(1);
    ds.spec.template_mut().spec_mut().tolerations = vec![Toleration {
        key: "node-role.kubernetes.io/control-plane".into(),
        operator: "Exists".into(),
        ..Default::default()
    }];
    let mut ns = nodes(5);
    ns[0].spec.taints = vec![taint(
        "node-role.kubernetes.io/control-plane",
        "",
        "NoSchedule",
    )];
    let mut s = OneSync::new(ns, ds);
    assert_eq!(s.sync_now(), (5, 0, 0));
    s.mark_all_ready();
    s.update(|d| d.spec.template_mut().spec_mut().tolerations.clear());
    assert_eq!(s.sync_now(), (1, 1, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    s.mark_all_ready();
    // Upstream's (1, 1) syncs split as the note on the surge ports explains: the old pod next
    // to an available new one is deleted by the manage loop, and the next surge pod is created
    // once that deletion is observed.
    for round in 0..3 {
        assert_eq!(s.sync_now(), (0, 1, 0), "round {round}: upstream (1, 1)");
        assert_eq!(s.sync_now(), (1, 0, 0), "round {round}: upstream (1, 1)");
        assert_eq!(s.sync_now(), (0, 0, 0), "round {round}");
        s.mark_all_ready();
    }
    assert_eq!(s.sync_now(), (0, 1, 0));
    assert_eq!(s.sync_now(), (0, 0, 0));
    // Rolled out: one updated pod on each untainted node, none on node-0.
    let hash = s.current_hash();
    let per_node = s.h.per_node();
    assert_eq!(per_node.get("node-0"), None);
    assert_eq!(per_node.values().sum::<usize>(), 4);
    assert!(s
        .h
        .live_pods()
        .iter()
        .all(|p| p.metadata.labels["controller-revision-hash"] == hash));
}
