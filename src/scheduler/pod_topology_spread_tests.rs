//! Ports of `pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go`.
//!
//! Rows are written in a compact form: a node is `"name key=value key …"` (a bare key has the
//! value `""`, the token `taint` adds the `node.kubernetes.io/unschedulable:NoSchedule` taint
//! of the upstream `taints` fixture); an existing pod is `"[ns/]name@node label …"` (a
//! trailing `!` marks it terminating); expected codes are one letter per node, in node order:
//! `S` Success, `U` Unschedulable, `X` UnschedulableAndUnresolvable. Every row is checked
//! twice: with the state counted from the store's label index (the scheduler's path) and from
//! the pods of each node (upstream's `countPodsMatchSelector` over NodeInfo pods), which must
//! agree.

use super::*;
use crate::api::{Node, Object, Pod, Taint, Time};
use crate::store::Store;
use serde_json::{json, Value};

fn node(spec: &str) -> Node {
    let mut it = spec.split_whitespace();
    let mut n = Node::default();
    n.metadata.name = it.next().unwrap_or_default().into();
    for tok in it {
        if tok == "taint" {
            n.spec.taints.push(Taint {
                key: "node.kubernetes.io/unschedulable".into(),
                value: String::new(),
                effect: "NoSchedule".into(),
                time_added: None,
            });
            continue;
        }
        let (k, v) = tok.split_once('=').unwrap_or((tok, ""));
        n.metadata.labels.insert(k.into(), v.into());
    }
    n
}

fn labels_of<'a>(toks: impl Iterator<Item = &'a str>) -> Labels {
    toks.map(|t| {
        let (k, v) = t.split_once('=').unwrap_or((t, ""));
        (k.to_string(), v.to_string())
    })
    .collect()
}

fn pod(spec: &str) -> Pod {
    let mut it = spec.split_whitespace().peekable();
    let head = it.next().unwrap_or_default();
    let (name, node) = head.split_once('@').unwrap_or((head, ""));
    let (ns, name) = name.split_once('/').unwrap_or(("default", name));
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.namespace = ns.into();
    p.metadata.uid = format!("uid-{ns}-{name}");
    p.spec_mut().node_name = node.into();
    let toks: Vec<&str> = it.collect();
    if toks.last() == Some(&"!") {
        p.metadata.deletion_timestamp = Some(Time::default());
    }
    p.metadata.labels = labels_of(toks.into_iter().filter(|t| *t != "!")).into();
    p
}

/// `st.MakePod().Name("p").Label(...)…SpreadConstraint(...)`.
fn incoming(labels: &str, constraints: Vec<Value>) -> Pod {
    let mut p = pod(&format!("p {labels}"));
    p.spec_mut().extra.insert(
        "topologySpreadConstraints".into(),
        Value::Array(constraints),
    );
    p
}

/// `SpreadConstraint(maxSkew, key, DoNotSchedule, <key> Exists selector, …)`; `None` leaves the
/// labelSelector unset (nil).
fn hard(max_skew: i32, key: &str, exists: Option<&str>) -> Value {
    let mut c =
        json!({"maxSkew": max_skew, "topologyKey": key, "whenUnsatisfiable": "DoNotSchedule"});
    if let Some(k) = exists {
        c["labelSelector"] = json!({"matchExpressions": [{"key": k, "operator": "Exists"}]});
    }
    c
}

fn with(mut c: Value, field: &str, v: Value) -> Value {
    c[field] = v;
    c
}

fn with_node_selector(mut p: Pod, key: &str) -> Pod {
    p.spec_mut().node_selector = [(key.to_string(), String::new())].into();
    p
}

/// `NodeAffinityIn(key, values)` / `NodeAffinityNotIn(key, values)` as required node affinity.
fn with_affinity(mut p: Pod, key: &str, op: &str, values: &[&str]) -> Pod {
    let v = json!({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": key, "operator": op, "values": values}]}]
    }}});
    p.spec_mut().affinity = serde_json::from_value(v).ok();
    p
}

struct World {
    nodes: Vec<Node>,
    pods: Vec<Pod>,
    store: Store,
}

fn world(nodes: &[&str], pods: &[&str]) -> World {
    let nodes: Vec<Node> = nodes.iter().map(|s| node(s)).collect();
    let pods: Vec<Pod> = pods.iter().map(|s| pod(s)).collect();
    let mut store = Store::new();
    for n in &nodes {
        store.put(Object::Node(n.clone()));
    }
    for p in &pods {
        store.put(Object::Pod(p.clone()));
    }
    World { nodes, pods, store }
}

/// PreFilter: the state from the store's index, checked against counting each node's pods.
fn pre_filter(w: &World, p: &Pod) -> Option<PreFilterState> {
    let refs: Vec<&Node> = w.nodes.iter().collect();
    let got = PreFilterState::from_store(p, &w.store, &refs);
    let constraints = filter_constraints(p);
    let direct = (!constraints.is_empty()).then(|| {
        let count = |i: usize, n: &Node| {
            count_pods_match_selector(
                w.pods
                    .iter()
                    .filter(|q| q.spec.node_name == n.metadata.name),
                &constraints[i].selector,
                &p.metadata.namespace,
            )
        };
        PreFilterState::new(p, constraints.clone(), refs.iter().copied(), &count)
    });
    assert_eq!(got, direct, "index and per-node counts differ");
    got
}

fn codes(w: &World, p: &Pod) -> String {
    let s = pre_filter(w, p).expect("constraints");
    w.nodes
        .iter()
        .map(|n| match s.filter(p, n) {
            None => 'S',
            Some(st) if st.code == Code::Unschedulable => {
                assert_eq!(st.reasons, vec![ERR_REASON_CONSTRAINTS_NOT_MATCH]);
                assert_eq!(st.plugin, NAME);
                'U'
            }
            Some(st) => {
                assert_eq!(st.reasons, vec![ERR_REASON_NODE_LABEL_NOT_MATCH]);
                'X'
            }
        })
        .collect()
}

const ZONED: [&str; 4] = [
    "node-a zone=zone1 node=node-a",
    "node-b zone=zone1 node=node-b",
    "node-x zone=zone2 node=node-x",
    "node-y zone=zone2 node=node-y",
];
const SPREAD_2_1_0_3: [&str; 6] = [
    "p-a1@node-a foo",
    "p-a2@node-a foo",
    "p-b1@node-b foo",
    "p-y1@node-y foo",
    "p-y2@node-y foo",
    "p-y3@node-y foo",
];
/// Nodes a, b, x labelled `foo`, node-y not.
const FOO_NODES: [&str; 4] = [
    "node-a node=node-a foo",
    "node-b node=node-b foo",
    "node-x node=node-x foo",
    "node-y node=node-y",
];
const POLICY_PODS: [&str; 3] = ["p-b1@node-a foo", "p-b2@node-b foo", "p-y1@node-y foo"];

type Row = (
    &'static str,
    Pod,
    Vec<&'static str>,
    Vec<&'static str>,
    &'static str,
);

fn check(rows: Vec<Row>) {
    for (name, p, nodes, pods, want) in rows {
        let w = world(&nodes, &pods);
        assert_eq!(codes(&w, &p), want.replace(' ', ""), "{name}");
    }
}

// Port of TestSingleConstraint (filtering_test.go), all 23 rows. As upstream's unit test, only
// this plugin's Filter runs (so nodes that NodeAffinity or TaintToleration would reject may
// pass here).
#[test]
fn single_constraint() {
    let foo_zone = || incoming("foo", vec![hard(1, "zone", Some("foo"))]);
    let foo_node = |skew| incoming("foo", vec![hard(skew, "node", Some("foo"))]);
    let min_domains = |key: &str, n: i32| {
        incoming(
            "foo",
            vec![with(hard(2, key, Some("foo")), "minDomains", json!(n))],
        )
    };
    let abc = vec![
        "node-a node=node-a",
        "node-b node=node-b",
        "node-c node=node-c",
    ];
    let pods_2_2_1 = vec![
        "p-a1@node-a foo",
        "p-a2@node-a foo",
        "p-b1@node-b foo",
        "p-b2@node-b foo",
        "p-c1@node-c foo",
    ];
    let zone_2_1 = vec!["p-b1@node-a foo", "p-b2@node-b foo", "p-y1@node-y foo"];
    let rows: Vec<Row> = vec![
        ("no existing pods", foo_zone(), ZONED.to_vec(), vec![], "SSSS"),
        (
            "no existing pods, incoming pod doesn't match itself",
            incoming("foo", vec![hard(1, "zone", Some("bar"))]),
            ZONED.to_vec(),
            vec![],
            "SSSS",
        ),
        (
            "existing pods in a different namespace do not count",
            foo_zone(),
            ZONED.to_vec(),
            vec![
                "ns1/p-a1@node-a foo",
                "ns2/p-b1@node-a foo",
                "p-x1@node-x foo",
                "p-y1@node-y foo",
            ],
            "SSUU",
        ),
        (
            "existing pods do not match null selector",
            incoming("foo", vec![hard(1, "zone", None)]),
            ZONED.to_vec(),
            vec!["p-x1@node-x foo", "p-y1@node-y foo"],
            "SSSS",
        ),
        (
            "pods spread across zones as 3/3, all nodes fit",
            foo_zone(),
            ZONED.to_vec(),
            SPREAD_2_1_0_3.to_vec(),
            "SSSS",
        ),
        (
            "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
            foo_zone(),
            vec![
                "node-a zone=zone1 node=node-a",
                "node-b zon=zone1 node=node-b",
                "node-x zone=zone2 node=node-x",
                "node-y zone=zone2 node=node-y",
            ],
            vec![
                "p-a1@node-a foo",
                "p-b1@node-b foo",
                "p-x1@node-x foo",
                "p-y1@node-y foo",
            ],
            "SXUU",
        ),
        (
            "pod cannot be scheduled as all nodes don't have label 'rack'",
            incoming("foo", vec![hard(1, "rack", Some("foo"))]),
            vec![
                "node-a zone=zone1 node=node-a",
                "node-x zone=zone2 node=node-x",
            ],
            vec![],
            "XX",
        ),
        (
            "pods spread across nodes as 2/1/0/3, only node-x fits",
            foo_node(1),
            ZONED.to_vec(),
            SPREAD_2_1_0_3.to_vec(),
            "UUSU",
        ),
        (
            "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
            foo_node(2),
            ZONED.to_vec(),
            SPREAD_2_1_0_3.to_vec(),
            "USSU",
        ),
        (
            "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
            incoming("bar", vec![hard(1, "node", Some("foo"))]),
            ZONED.to_vec(),
            SPREAD_2_1_0_3.to_vec(),
            "USSU",
        ),
        (
            "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
            with_affinity(foo_node(1), "node", "In", &["node-a", "node-y"]),
            ZONED.to_vec(),
            SPREAD_2_1_0_3.to_vec(),
            "SSSU",
        ),
        (
            "terminating Pods should be excluded",
            foo_node(1),
            vec!["node-a node=node-a", "node-b node=node-b"],
            vec!["p-a@node-a foo !", "p-b@node-b foo"],
            "SU",
        ),
        (
            "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
            with_affinity(foo_zone(), "node", "NotIn", &["node-b"]),
            ZONED.to_vec(),
            vec!["p-b1@node-b foo", "p-b2@node-b foo", "p-y1@node-y foo"],
            "SSUU",
        ),
        (
            "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits",
            min_domains("node", 4),
            abc.clone(),
            pods_2_2_1.clone(),
            "UUS",
        ),
        (
            "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit",
            min_domains("node", 2),
            abc.clone(),
            pods_2_2_1.clone(),
            "SSS",
        ),
        (
            "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit",
            min_domains("zone", 3),
            ZONED.to_vec(),
            zone_2_1.clone(),
            "UUSS",
        ),
        (
            "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
            min_domains("zone", 1),
            ZONED.to_vec(),
            zone_2_1.clone(),
            "SSSS",
        ),
        (
            "NodeAffinityPolicy honored with labelSelectors",
            with_node_selector(foo_node(1), "foo"),
            FOO_NODES.to_vec(),
            POLICY_PODS.to_vec(),
            "UUSS",
        ),
        (
            "NodeAffinityPolicy ignored with labelSelectors",
            with_node_selector(
                incoming(
                    "foo",
                    vec![with(hard(1, "node", Some("foo")), "nodeAffinityPolicy", json!("Ignore"))],
                ),
                "foo",
            ),
            FOO_NODES.to_vec(),
            POLICY_PODS.to_vec(),
            "UUSU",
        ),
        (
            "NodeAffinityPolicy honored with nodeAffinity",
            with_affinity(foo_node(1), "foo", "In", &[""]),
            FOO_NODES.to_vec(),
            POLICY_PODS.to_vec(),
            "UUSS",
        ),
        (
            // Upstream names this row "NodeAffinityPolicy ignored with labelSelectors" too.
            "NodeAffinityPolicy ignored with nodeAffinity",
            with_affinity(
                incoming(
                    "foo",
                    vec![with(hard(1, "node", Some("foo")), "nodeAffinityPolicy", json!("Ignore"))],
                ),
                "foo",
                "In",
                &[""],
            ),
            FOO_NODES.to_vec(),
            POLICY_PODS.to_vec(),
            "UUSU",
        ),
        (
            "NodeTaintsPolicy honored",
            incoming(
                "foo",
                vec![with(hard(1, "node", Some("foo")), "nodeTaintsPolicy", json!("Honor"))],
            ),
            vec![
                "node-a node=node-a foo",
                "node-b node=node-b foo",
                "node-x node=node-x foo",
                "node-y node=node-y taint",
            ],
            POLICY_PODS.to_vec(),
            "UUSS",
        ),
        (
            "NodeTaintsPolicy ignored",
            foo_node(1),
            vec![
                "node-a node=node-a foo",
                "node-b node=node-b foo",
                "node-x node=node-x foo",
                "node-y node=node-y taint",
            ],
            POLICY_PODS.to_vec(),
            "UUSU",
        ),
    ];
    assert_eq!(rows.len(), 23);
    check(rows);
}

// Port of TestMultipleConstraints (filtering_test.go), all 11 rows.
#[test]
fn multiple_constraints() {
    let zone_node = |zone_sel: &str, node_sel: &str, labels: &str| {
        incoming(
            labels,
            vec![
                hard(1, "zone", Some(zone_sel)),
                hard(1, "node", Some(node_sel)),
            ],
        )
    };
    let foo_zoned = vec![
        "node-a zone=zone1 node=node-a foo",
        "node-b zone=zone1 node=node-b foo",
        "node-x zone=zone2 node=node-x foo",
        "node-y zone=zone2 node=node-y",
    ];
    let three = vec!["p-a1@node-a foo", "p-b1@node-b foo", "p-y1@node-y foo"];
    let rows: Vec<Row> = vec![
        (
            "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
            zone_node("foo", "foo", "foo"),
            ZONED.to_vec(),
            SPREAD_2_1_0_3.to_vec(),
            "UUSU",
        ),
        (
            "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
            zone_node("foo", "foo", "foo"),
            ZONED.to_vec(),
            [SPREAD_2_1_0_3.to_vec(), vec!["p-y4@node-y foo"]].concat(),
            "UUUU",
        ),
        (
            "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
            zone_node("foo", "bar", "foo bar"),
            ZONED.to_vec(),
            vec!["p-a1@node-a foo", "p-y1@node-y bar"],
            "UUSU",
        ),
        (
            "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
            zone_node("foo", "bar", "foo bar"),
            ZONED.to_vec(),
            vec!["p-a1@node-a foo", "p-x1@node-x bar", "p-y1@node-y bar"],
            "UUUU",
        ),
        (
            "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
            zone_node("foo", "bar", "foo bar"),
            ZONED.to_vec(),
            vec![
                "p-a1@node-a foo",
                "p-a2@node-a foo bar",
                "p-y1@node-y foo",
                "p-y2@node-y foo bar",
                "p-y3@node-y foo",
            ],
            "USUU",
        ),
        (
            "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
            zone_node("foo", "bar", "bar"),
            ZONED.to_vec(),
            vec!["p-a1@node-a foo", "p-x1@node-x bar", "p-y1@node-y bar"],
            "SSUU",
        ),
        (
            "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
            zone_node("foo", "foo", "foo"),
            vec![
                "node-a zone=zone1 node=node-a",
                "node-b zone=zone1 node=node-b",
                "node-x zone=zone2",
                "node-y zone=zone2 node=node-y",
            ],
            vec!["p-a1@node-a foo", "p-y3@node-y foo"],
            "USXU",
        ),
        (
            "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore",
            with_node_selector(
                incoming(
                    "foo",
                    vec![
                        hard(1, "zone", Some("foo")),
                        with(hard(1, "node", Some("foo")), "nodeAffinityPolicy", json!("Ignore")),
                    ],
                ),
                "foo",
            ),
            foo_zoned.clone(),
            three.clone(),
            "UUSU",
        ),
        (
            "two node inclusion Constraints, zone: honor/honor, node: honor/ignore",
            incoming(
                "foo",
                vec![
                    with(hard(1, "zone", Some("foo")), "nodeTaintsPolicy", json!("Honor")),
                    hard(1, "node", Some("foo")),
                ],
            ),
            vec![
                "node-a zone=zone1 node=node-a foo",
                "node-b zone=zone1 node=node-b foo",
                "node-x zone=zone2 node=node-x foo",
                "node-y zone=zone2 node=node-y taint",
            ],
            three.clone(),
            "UUSU",
        ),
        (
            "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore",
            with_node_selector(zone_node("foo", "foo", "foo"), "foo"),
            vec![
                "node-a zone=zone1 node=node-a foo",
                "node-b zone=zone1 node=node-b",
                "node-x zone=zone2 node=node-x foo",
                "node-y zone=zone2 node=node-y foo taint",
            ],
            three.clone(),
            "USSU",
        ),
        (
            "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore",
            with_node_selector(
                incoming(
                    "foo",
                    vec![
                        with(hard(1, "zone", Some("foo")), "nodeTaintsPolicy", json!("Honor")),
                        with(hard(1, "node", Some("foo")), "nodeAffinityPolicy", json!("Ignore")),
                    ],
                ),
                "foo",
            ),
            vec![
                "node-a zone=zone1 node=node-a foo",
                "node-b zone=zone1 node=node-b",
                "node-x zone=zone2 node=node-x foo",
                "node-y zone=zone2 node=node-y foo taint",
            ],
            three.clone(),
            "UUSU",
        ),
    ];
    assert_eq!(rows.len(), 11);
    check(rows);
}

/// `TpValueToMatchNum` of constraint `i` as `(value, count)` pairs.
fn match_nums(s: &PreFilterState, i: usize) -> Vec<(&str, i64)> {
    s.tp_value_to_match_num[i]
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect()
}

fn min_paths(s: &PreFilterState, i: usize) -> (i64, i64) {
    let p = &s.critical_paths[i].0;
    (p[0].match_num, p[1].match_num)
}

// Port of the matchLabelKeys and selector rows of TestPreFilterState (filtering_test.go), with
// the feature gate on as by default: the parsed selector, `TpPairToMatchNum` (per constraint
// here, `TpValueToMatchNum` in current upstream) and the critical paths' match numbers. The
// "…when feature gate disabled" rows are left out (the gate is on in kubeplay).
#[test]
fn pre_filter_state_match_label_keys() {
    let nodes = ZONED.to_vec();
    // "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty"
    let w = world(
        &nodes,
        &[
            "p-a1@node-a foo",
            "p-a2@node-a foo bar=a",
            "p-b1@node-b foo",
            "p-y1@node-y foo bar=a",
            "p-y2@node-y bar",
        ],
    );
    let p = incoming(
        "foo bar=a",
        vec![with(
            hard(1, "zone", Some("foo")),
            "matchLabelKeys",
            json!(["bar"]),
        )],
    );
    let s = pre_filter(&w, &p).expect("constraints");
    assert_eq!(
        s.constraints[0].selector,
        Selector::Requirements(vec![
            Requirement::In("bar".into(), vec!["a".into()]),
            Requirement::Exists("foo".into()),
        ])
    );
    assert_eq!(match_nums(&s, 0), vec![("zone1", 1), ("zone2", 1)]);
    assert_eq!(min_paths(&s, 0), (1, 1));

    // "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty"
    let same = [
        "p-a1@node-a foo=a",
        "p-a2@node-a foo=a",
        "p-b1@node-b foo=a",
        "p-y1@node-y foo=a",
        "p-y2@node-y foo=a",
    ];
    let w = world(&nodes, &same);
    let p = incoming(
        "foo=a",
        vec![with(
            with(hard(1, "zone", None), "labelSelector", json!({})),
            "matchLabelKeys",
            json!(["foo"]),
        )],
    );
    let s = pre_filter(&w, &p).expect("constraints");
    assert_eq!(
        s.constraints[0].selector,
        Selector::Requirements(vec![Requirement::In("foo".into(), vec!["a".into()])])
    );
    assert_eq!(match_nums(&s, 0), vec![("zone1", 3), ("zone2", 2)]);
    assert_eq!(min_paths(&s, 0), (2, 3));

    // "key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled"
    let p = incoming(
        "foo",
        vec![with(
            hard(1, "zone", None),
            "matchLabelKeys",
            json!(["bar"]),
        )],
    );
    let s = pre_filter(&w, &p).expect("constraints");
    assert_eq!(s.constraints[0].selector, Selector::Nothing);
    assert_eq!(match_nums(&s, 0), vec![("zone1", 0), ("zone2", 0)]);
    assert_eq!(min_paths(&s, 0), (0, 0));

    // "key in matchLabelKeys is ignored when it isn't exist in pod.labels"
    let p = incoming(
        "foo",
        vec![with(
            hard(1, "zone", Some("foo")),
            "matchLabelKeys",
            json!(["bar"]),
        )],
    );
    let s = pre_filter(&w, &p).expect("constraints");
    assert_eq!(
        s.constraints[0].selector,
        Selector::Requirements(vec![Requirement::Exists("foo".into())])
    );
    assert_eq!(match_nums(&s, 0), vec![("zone1", 3), ("zone2", 2)]);
    assert_eq!(min_paths(&s, 0), (2, 3));

    // "skip if not specified": PreFilter returns Skip.
    let w = world(&["node-a zone=zone1 node=node-a"], &[]);
    assert_eq!(pre_filter(&w, &pod("p foo")), None);
}

// Defaults of a parsed constraint (TestPreFilterState's expected `topologySpreadConstraint`s):
// minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore; ScheduleAnyway constraints
// are not the filter's.
#[test]
fn constraint_defaults() {
    let p = incoming(
        "foo",
        vec![
            hard(1, "zone", Some("foo")),
            json!({"maxSkew": 1, "topologyKey": "node", "whenUnsatisfiable": "ScheduleAnyway"}),
        ],
    );
    let cs = filter_constraints(&p);
    assert_eq!(cs.len(), 1);
    assert_eq!(
        cs[0],
        TopologySpreadConstraint {
            max_skew: 1,
            topology_key: "zone".into(),
            selector: Selector::Requirements(vec![Requirement::Exists("foo".into())]),
            min_domains: 1,
            node_affinity_policy: NodeInclusionPolicy::Honor,
            node_taints_policy: NodeInclusionPolicy::Ignore,
        }
    );
}

/// `TestPreFilterStateAddPod` / `TestPreFilterStateRemovePod`: the state after `AddPod` /
/// `RemovePod` of one pod on node `node_idx`.
fn after_update(
    preemptor: &Pod,
    nodes: &[&str],
    existing: &[&str],
    updated: &str,
    node_idx: usize,
    delta: i64,
) -> PreFilterState {
    let w = world(nodes, existing);
    let mut s = pre_filter(&w, preemptor).expect("constraints");
    s.update_with_pod(&pod(updated), preemptor, &w.nodes[node_idx], delta);
    s
}

// Port of the first rows of TestPreFilterStateAddPod (filtering_test.go): match numbers and
// critical paths after AddPod.
#[test]
fn pre_filter_state_add_pod() {
    let preemptor = incoming("foo", vec![hard(1, "node", Some("foo"))]);
    let ab = [
        "node-a zone=zone1 node=node-a",
        "node-b zone=zone1 node=node-b",
    ];
    type AddRow = (
        &'static str,
        Vec<&'static str>,
        &'static str,
        usize,
        Vec<(&'static str, i64)>,
        (&'static str, i64),
        (&'static str, i64),
    );
    let rows: Vec<AddRow> = vec![
        (
            "node a and b both impact current min match",
            vec![],
            "p-a1@node-a foo",
            0,
            vec![("node-a", 1), ("node-b", 0)],
            ("node-b", 0),
            ("node-a", 1),
        ),
        (
            "only node a impacts current min match",
            vec!["p-b1@node-b foo"],
            "p-a1@node-a foo",
            0,
            vec![("node-a", 1), ("node-b", 1)],
            ("node-a", 1),
            ("node-b", 1),
        ),
        (
            "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap",
            vec!["p-b1@node-b foo"],
            "ns1/p-a1@node-a foo",
            0,
            vec![("node-a", 0), ("node-b", 1)],
            ("node-a", 0),
            ("node-b", 1),
        ),
        (
            "add pod on non-critical node won't trigger re-calculation",
            vec!["p-b1@node-b foo"],
            "p-b2@node-b foo",
            1,
            vec![("node-a", 0), ("node-b", 2)],
            ("node-a", 0),
            ("node-b", 2),
        ),
    ];
    for (name, existing, added, idx, want, p0, p1) in rows {
        let s = after_update(&preemptor, &ab, &existing, added, idx, 1);
        assert_eq!(match_nums(&s, 0), want, "{name}");
        let paths = &s.critical_paths[0].0;
        assert_eq!(
            (
                (paths[0].topology_value.as_str(), paths[0].match_num),
                (paths[1].topology_value.as_str(), paths[1].match_num)
            ),
            (p0, p1),
            "{name}"
        );
    }
}

// Port of the NodeInclusionPolicy-enabled rows of TestPreFilterStateRemovePod
// (filtering_test.go): a removed pod on a node outside the preemptor's node affinity changes
// nothing; on a counted node it lowers its domain.
#[test]
fn pre_filter_state_remove_pod() {
    let nodes = [
        "node-a zone=zone1 node=node-a foo=bar",
        "node-b zone=zone2 node=node-b foo",
    ];
    // "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled"
    let preemptor = with_affinity(
        incoming("foo", vec![hard(1, "zone", Some("foo"))]),
        "foo",
        "NotIn",
        &["bar"],
    );
    let s = after_update(
        &preemptor,
        &nodes,
        &["p-a2@node-a foo zone=zone1", "p-b1@node-b foo zone=zone2"],
        "p-a1@node-a foo zone=zone1",
        0,
        -1,
    );
    assert_eq!(match_nums(&s, 0), vec![("zone2", 1)]);
    assert_eq!(min_paths(&s, 0), (1, i32::MAX as i64));
    // "remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled"
    let preemptor = incoming("foo", vec![hard(1, "zone", Some("foo"))]);
    let s = after_update(
        &preemptor,
        &nodes,
        &["p-a1@node-a foo zone=zone1", "p-b2@node-b foo zone=zone2"],
        "p-b1@node-b foo zone=zone2",
        1,
        -1,
    );
    assert_eq!(match_nums(&s, 0), vec![("zone1", 1), ("zone2", 0)]);
    let paths = &s.critical_paths[0].0;
    assert_eq!(
        (paths[0].topology_value.as_str(), paths[0].match_num),
        ("zone2", 0)
    );
    assert_eq!(
        (paths[1].topology_value.as_str(), paths[1].match_num),
        ("zone1", 1)
    );
}

// Nominated pods (RunFilterPluginsWithNominatedPods → AddPod): a pod nominated to node-x makes
// it as full as the others.
#[test]
fn filter_with_nominated_pods() {
    let w = world(
        &["node-a node=node-a", "node-x node=node-x"],
        &["p-a1@node-a foo"],
    );
    let p = incoming("foo", vec![hard(1, "node", Some("foo"))]);
    let s = pre_filter(&w, &p).expect("constraints");
    assert_eq!(s.filter(&p, &w.nodes[1]), None);
    let nominated = pod("n1 foo");
    assert_eq!(
        s.filter_with_nominated(&p, &w.nodes[1], [&nominated])
            .map(|st| st.code),
        None
    );
    let second = pod("n2 foo");
    assert_eq!(
        s.filter_with_nominated(&p, &w.nodes[1], [&nominated, &second])
            .map(|st| st.code),
        Some(Code::Unschedulable)
    );
}

// Ports of the queueing-hint tables' main rows (plugin_test.go,
// Test_isSchedulableAfterPodChange / Test_isSchedulableAfterNodeChange).
#[test]
fn queueing_hints() {
    let p = incoming("foo", vec![hard(1, "zone", Some("foo"))]);
    let assigned = pod("q@node-a foo");
    let other_ns = pod("ns1/q@node-a foo");
    let unassigned = pod("q foo");
    let unrelated = pod("q@node-a bar");
    // Add.
    assert!(is_schedulable_after_pod_change(&p, None, Some(&assigned)));
    assert!(!is_schedulable_after_pod_change(&p, None, Some(&other_ns)));
    assert!(!is_schedulable_after_pod_change(
        &p,
        None,
        Some(&unassigned)
    ));
    assert!(!is_schedulable_after_pod_change(&p, None, Some(&unrelated)));
    // Delete.
    assert!(is_schedulable_after_pod_change(&p, Some(&assigned), None));
    assert!(!is_schedulable_after_pod_change(&p, Some(&unrelated), None));
    // Update: only a change in whether some selector matches.
    assert!(is_schedulable_after_pod_change(
        &p,
        Some(&unrelated),
        Some(&assigned)
    ));
    let relabelled = pod("q@node-a foo baz");
    assert!(!is_schedulable_after_pod_change(
        &p,
        Some(&assigned),
        Some(&relabelled)
    ));
    // Nodes: add / delete of a node with the topology key; label changes of the key.
    let z1 = node("n zone=zone1");
    let z2 = node("n zone=zone2");
    let bare = node("n");
    assert!(is_schedulable_after_node_change(&p, None, Some(&z1)));
    assert!(!is_schedulable_after_node_change(&p, None, Some(&bare)));
    assert!(is_schedulable_after_node_change(&p, Some(&z1), None));
    assert!(is_schedulable_after_node_change(&p, Some(&z1), Some(&z2)));
    assert!(is_schedulable_after_node_change(&p, Some(&bare), Some(&z1)));
    assert!(!is_schedulable_after_node_change(&p, Some(&z1), Some(&z1)));
    let tainted = node("n zone=zone1 taint");
    assert!(is_schedulable_after_node_change(
        &p,
        Some(&z1),
        Some(&tainted)
    ));
}

fn with_alloc(mut n: Node, cpu: &str) -> Node {
    for (k, v) in [("cpu", cpu), ("memory", "8Gi"), ("pods", "110")] {
        n.status
            .allocatable
            .insert(k.into(), crate::api::Quantity(v.into()));
    }
    n
}

fn with_cpu(mut p: Pod, cpu: &str) -> Pod {
    let mut r = crate::api::ResourceRequirements::default();
    r.requests
        .insert("cpu".into(), crate::api::Quantity(cpu.into()));
    p.spec_mut().containers.push(crate::api::Container {
        name: "c".into(),
        resources: Some(r),
        ..Default::default()
    });
    p
}

// DefaultPreemption with PodTopologySpread (SelectVictimsOnNode runs RemovePod / AddPod on the
// cycle state): node-a holds two lower-priority matching pods, node-b is too small for the
// pod (unresolvable) but is an empty domain, so the pod violates maxSkew on node-a until both
// pods are gone; the reprieve loop adds each back and finds the skew broken again.
#[test]
fn preemption_resolves_a_spread_violation() {
    let mut store = Store::new();
    store.put(Object::Node(with_alloc(node("node-a node=node-a"), "4")));
    store.put(Object::Node(with_alloc(node("node-b node=node-b"), "1")));
    for name in ["low-1", "low-2"] {
        store.put(Object::Pod(pod(&format!("{name}@node-a foo"))));
    }
    let mut p = with_cpu(incoming("foo", vec![hard(1, "node", Some("foo"))]), "2");
    p.spec_mut().priority = Some(100);
    match crate::scheduler::schedule_pod(&p, &store) {
        crate::scheduler::Outcome::Unschedulable {
            message,
            preempt: Some((node, victims)),
            plugins,
        } => {
            assert_eq!(node, "node-a");
            let names: Vec<&str> = victims.iter().map(|v| v.metadata.name.as_str()).collect();
            assert_eq!(names, vec!["low-1", "low-2"]);
            assert_eq!(
                message,
                "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod \
                 topology spread constraints."
            );
            assert!(plugins.contains(NAME));
        }
        other => panic!("{other:?}"),
    }
    // With one low-priority pod and one of the pod's priority on node-a, removing the
    // low-priority one is enough only if the skew allows it: 1 + 1 - 0 > 1, so no candidate.
    let mut store2 = Store::new();
    store2.put(Object::Node(with_alloc(node("node-a node=node-a"), "4")));
    store2.put(Object::Node(with_alloc(node("node-b node=node-b"), "1")));
    store2.put(Object::Pod(pod("low-1@node-a foo")));
    let mut same = pod("same@node-a foo");
    same.spec_mut().priority = Some(100);
    store2.put(Object::Pod(same));
    match crate::scheduler::schedule_pod(&p, &store2) {
        crate::scheduler::Outcome::Unschedulable {
            message, preempt, ..
        } => {
            assert_eq!(preempt, None);
            assert!(
                message.ends_with(
                    "preemption: 0/2 nodes are available: 1 Preemption is not helpful for \
                     scheduling, 1 node(s) didn't match pod topology spread constraints."
                ),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}

fn with_host_port(mut p: Pod, port: i64) -> Pod {
    let mut cp = crate::api::ContainerPort::default();
    cp.extra.insert("hostPort".into(), port.into());
    if p.spec.containers.is_empty() {
        p.spec_mut().containers.push(crate::api::Container {
            name: "c".into(),
            ..Default::default()
        });
    }
    p.spec_mut().containers[0].ports.push(cp);
    p
}

// The scheduler's cached path (NodeInfo aggregates without pods, spread counts from the label
// index, used ports in the aggregates) binds exactly where the uncached path does, over
// generated clusters and pods with DoNotSchedule / ScheduleAnyway constraints, matchLabelKeys,
// inclusion policies and host ports.
#[test]
fn cached_path_matches_uncached_path() {
    let mut rng = crate::rng::Rng::new(7);
    let mut binds = 0;
    for round in 0..300 {
        let mut store = Store::new();
        let n_nodes = 2 + rng.below(5) as usize;
        for i in 0..n_nodes {
            let mut spec = format!("n{i} node=n{i}");
            if rng.below(5) > 0 {
                spec.push_str(&format!(" zone=z{}", rng.below(3)));
            }
            if rng.below(4) == 0 {
                spec.push_str(" taint");
            }
            if rng.below(2) == 0 {
                spec.push_str(" foo");
            }
            store.put(Object::Node(with_alloc(node(&spec), "8")));
        }
        let n_pods = rng.below(12) as usize;
        for j in 0..n_pods {
            let app = ["a", "b"][rng.below(2) as usize];
            let hash = ["h1", "h2"][rng.below(2) as usize];
            let mut p = pod(&format!(
                "e{j}@n{} app={app} pod-template-hash={hash}",
                rng.below(n_nodes as u64)
            ));
            if rng.below(6) == 0 {
                p.metadata.deletion_timestamp = Some(Time::default());
            }
            if rng.below(5) == 0 {
                p = with_host_port(p, 8080);
            }
            store.put(Object::Pod(p));
        }
        let key = ["node", "zone"][rng.below(2) as usize];
        let mut c = hard(1 + rng.below(2) as i32, key, None);
        c["labelSelector"] = json!({"matchLabels": {"app": "a"}});
        if rng.below(2) == 0 {
            c["matchLabelKeys"] = json!(["pod-template-hash"]);
        }
        if rng.below(3) == 0 {
            c["whenUnsatisfiable"] = json!("ScheduleAnyway");
        }
        if rng.below(3) == 0 {
            c["minDomains"] = json!(1 + rng.below(4));
        }
        if rng.below(3) == 0 {
            c["nodeTaintsPolicy"] = json!("Honor");
        }
        if rng.below(3) == 0 {
            c["nodeAffinityPolicy"] = json!("Ignore");
        }
        let mut p = incoming("app=a pod-template-hash=h1", vec![c]);
        if rng.below(3) == 0 {
            p = with_node_selector(p, "foo");
        }
        if rng.below(3) == 0 {
            p = with_host_port(p, 8080);
        }
        let start = rng.below(n_nodes as u64) as usize;
        let slow = crate::scheduler::schedule_pod_from(&p, &store, start);
        let mut cache = std::collections::BTreeMap::new();
        let cached = crate::scheduler::schedule_pod_cached(&p, &store, &mut cache, false, start);
        assert_eq!(cached, slow, "round {round}");
        if matches!(slow.0, crate::scheduler::Outcome::Bind(_)) {
            binds += 1;
        }
    }
    assert!(binds > 50, "{binds}");
}

// Port of the first rows of TestPreFilterState (filtering_test.go): `TpPairToMatchNum` per
// constraint and the critical paths' match numbers (which of two tied topology values a path
// names follows Go's map order upstream, so only the numbers are compared).
#[test]
fn pre_filter_state_rows() {
    type Want = Vec<(Vec<(&'static str, i64)>, (i64, i64))>;
    type StateRow = (
        &'static str,
        Pod,
        Vec<&'static str>,
        Vec<&'static str>,
        Want,
    );
    let five = vec![
        "p-a1@node-a foo",
        "p-a2@node-a foo",
        "p-b1@node-b foo",
        "p-y1@node-y foo",
        "p-y2@node-y foo",
    ];
    let y4 = [SPREAD_2_1_0_3.to_vec(), vec!["p-y4@node-y foo"]].concat();
    let aby = vec![
        "node-a zone=zone1 node=node-a",
        "node-b zone=zone1 node=node-b",
        "node-y zone=zone2 node=node-y",
    ];
    let zone_node = || {
        incoming(
            "foo",
            vec![hard(1, "zone", Some("foo")), hard(1, "node", Some("foo"))],
        )
    };
    let rows: Vec<StateRow> = vec![
        (
            "clean cluster with one spreadConstraint",
            incoming(
                "foo",
                vec![with(
                    hard(5, "zone", None),
                    "labelSelector",
                    json!({"matchLabels": {"foo": "bar"}}),
                )],
            ),
            ZONED.to_vec(),
            vec![],
            vec![(vec![("zone1", 0), ("zone2", 0)], (0, 0))],
        ),
        (
            "normal case with one spreadConstraint",
            incoming("foo", vec![hard(1, "zone", Some("foo"))]),
            ZONED.to_vec(),
            five.clone(),
            vec![(vec![("zone1", 3), ("zone2", 2)], (2, 3))],
        ),
        (
            "normal case with null label selector",
            incoming("foo", vec![hard(1, "zone", None)]),
            ZONED.to_vec(),
            five.clone(),
            vec![(vec![("zone1", 0), ("zone2", 0)], (0, 0))],
        ),
        (
            "normal case with one spreadConstraint, on a 3-zone cluster",
            incoming("foo", vec![hard(1, "zone", Some("foo"))]),
            [
                ZONED.to_vec(),
                vec![
                    "node-o zone=zone3 node=node-o",
                    "node-p zone=zone3 node=node-p",
                ],
            ]
            .concat(),
            five.clone(),
            vec![(vec![("zone1", 3), ("zone2", 2), ("zone3", 0)], (0, 2))],
        ),
        (
            "namespace mismatch doesn't count",
            incoming("foo", vec![hard(1, "zone", Some("foo"))]),
            ZONED.to_vec(),
            vec![
                "p-a1@node-a foo",
                "ns1/p-a2@node-a foo",
                "p-b1@node-b foo",
                "ns2/p-y1@node-y foo",
                "p-y2@node-y foo",
            ],
            vec![(vec![("zone1", 2), ("zone2", 1)], (1, 2))],
        ),
        (
            "normal case with two spreadConstraints",
            zone_node(),
            ZONED.to_vec(),
            y4.clone(),
            vec![
                (vec![("zone1", 3), ("zone2", 4)], (3, 4)),
                (
                    vec![("node-a", 2), ("node-b", 1), ("node-x", 0), ("node-y", 4)],
                    (0, 1),
                ),
            ],
        ),
        (
            "soft spreadConstraints should be bypassed",
            incoming(
                "foo",
                vec![
                    with(
                        hard(1, "zone", Some("foo")),
                        "whenUnsatisfiable",
                        json!("ScheduleAnyway"),
                    ),
                    hard(1, "zone", Some("foo")),
                    with(
                        hard(1, "node", Some("foo")),
                        "whenUnsatisfiable",
                        json!("ScheduleAnyway"),
                    ),
                    hard(1, "node", Some("foo")),
                ],
            ),
            aby.clone(),
            y4.clone(),
            vec![
                (vec![("zone1", 3), ("zone2", 4)], (3, 4)),
                (vec![("node-a", 2), ("node-b", 1), ("node-y", 4)], (1, 2)),
            ],
        ),
        (
            "different labelSelectors - simple version",
            incoming(
                "foo bar",
                vec![hard(1, "zone", Some("foo")), hard(1, "node", Some("bar"))],
            ),
            aby.clone(),
            vec!["p-a@node-a foo", "p-b@node-b bar"],
            vec![
                (vec![("zone1", 1), ("zone2", 0)], (0, 1)),
                (vec![("node-a", 0), ("node-b", 1), ("node-y", 0)], (0, 0)),
            ],
        ),
    ];
    for (name, p, nodes, pods, want) in rows {
        let w = world(&nodes, &pods);
        let s = pre_filter(&w, &p).expect("constraints");
        assert_eq!(s.constraints.len(), want.len(), "{name}");
        for (i, (nums, paths)) in want.into_iter().enumerate() {
            assert_eq!(match_nums(&s, i), nums, "{name} [{i}]");
            assert_eq!(min_paths(&s, i), paths, "{name} [{i}]");
        }
    }
}

// Port of the matchLabelKeys rows of TestPodTopologySpreadFilter
// (test/integration/scheduler/filters/filters_test.go), through the whole default profile:
// the pod lands on one of the candidate nodes.
#[test]
fn integration_match_label_keys_rows() {
    let nodes = [
        "node-0 node=node-0 zone=zone-0",
        "node-1 node=node-1 zone=zone-0",
        "node-2 node=node-2 zone=zone-1",
        "node-3 node=node-3 zone=zone-1",
    ];
    let cases: Vec<(&str, Pod, [&str; 3], [&str; 2])> = vec![
        (
            "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty, pods spread across zone as 0/1",
            incoming(
                "foo bar",
                vec![with(hard(1, "zone", Some("foo")), "matchLabelKeys", json!(["bar"]))],
            ),
            ["p1a@node-0 foo", "p2a@node-1 foo", "p3a@node-2 foo bar"],
            ["node-0", "node-1"],
        ),
        (
            "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty, pods spread across zone as 2/1",
            incoming(
                "foo",
                vec![with(
                    with(hard(1, "zone", None), "labelSelector", json!({})),
                    "matchLabelKeys",
                    json!(["foo"]),
                )],
            ),
            ["p1a@node-0 foo", "p2a@node-1 foo", "p3a@node-2 foo"],
            ["node-2", "node-3"],
        ),
    ];
    for (name, p, existing, candidates) in cases {
        let mut store = Store::new();
        for n in nodes {
            store.put(Object::Node(with_alloc(node(n), "4")));
        }
        for e in existing {
            store.put(Object::Pod(pod(e)));
        }
        match crate::scheduler::schedule_pod(&p, &store) {
            crate::scheduler::Outcome::Bind(n) => {
                assert!(candidates.contains(&n.as_str()), "{name}: {n}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[path = "pod_topology_spread_upstream_tests.rs"]
mod upstream_more;
