//! NodeAffinity PreFilter (`PreFilterResult` node names from `metadata.name` matchFields) and
//! its use by `findNodesThatFitPod`: the rows of TestNodeAffinity
//! (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go) not in
//! `tests::node_affinity_filter`, with the PreFilter expectations of every row that has
//! matchFields, and PreFilterResult rows of TestSchedulerSchedulePod
//! (pkg/scheduler/schedule_one_test.go) with NodeAffinity as the PreFilter plugin.

use super::*;
use crate::api::{Affinity, Container, NodeAffinity, Quantity, ResourceRequirements};

fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: values.iter().map(|s| s.to_string()).collect(),
    }
}

fn name_in(v: &str) -> NodeSelectorRequirement {
    req("metadata.name", "In", &[v])
}

fn term(
    exprs: Vec<NodeSelectorRequirement>,
    fields: Vec<NodeSelectorRequirement>,
) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: exprs,
        match_fields: fields,
    }
}

/// A pod with a nodeSelector and, with `Some`, required node affinity of these terms (`Some(None)`
/// is an `Affinity.NodeAffinity` whose required selector is nil).
fn pod_with(selector: &[(&str, &str)], terms: Option<Option<Vec<NodeSelectorTerm>>>) -> Pod {
    let mut p = Pod::default();
    p.spec_mut().node_selector = selector
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if let Some(t) = terms {
        p.spec_mut().affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: t.map(|t| NodeSelector {
                    node_selector_terms: t,
                }),
                ..Default::default()
            }),
            ..Default::default()
        });
    }
    p
}

fn node_with(name: &str, labels: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.metadata.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    n
}

fn set(names: &[&str]) -> Option<BTreeSet<String>> {
    Some(names.iter().map(|s| s.to_string()).collect())
}

// upstream: TestNodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go):
// PreFilter (result, or the conflict status) and Filter. A PreFilter `Skip` ("no Affinity",
// "nil NodeSelector") and a nil result are both `Ok(None)` here: Filter then lets every node
// through either way. Left out: the three AddedAffinity rows (NodeAffinityArgs are not modelled:
// kubeplay runs the default profile).
#[test]
fn node_affinity_pre_filter_and_filter() {
    let gpu = || {
        vec![term(
            vec![
                req("GPU", "Exists", &[]),
                req("GPU", "NotIn", &["AMD", "INTER"]),
            ],
            vec![],
        )]
    };
    type Row = (
        &'static str,
        Pod,
        &'static str,
        Vec<(&'static str, &'static str)>,
        Result<Option<BTreeSet<String>>, ()>,
        bool,
    );
    let rows: Vec<Row> = vec![
        (
            "Pod with no Affinity will schedule onto a node",
            Pod::default(),
            "",
            vec![("foo", "bar")],
            Ok(None),
            true,
        ),
        (
            "Pod with Affinity but nil NodeSelector will schedule onto a node",
            pod_with(&[], Some(None)),
            "",
            vec![("foo", "bar")],
            Ok(None),
            true,
        ),
        (
            "Pod with matchFields using In operator that matches the existing node",
            pod_with(&[], Some(Some(vec![term(vec![], vec![name_in("node1")])]))),
            "node1",
            vec![],
            Ok(set(&["node1"])),
            true,
        ),
        (
            "Pod with matchFields using In operator that does not match the existing node",
            pod_with(&[], Some(Some(vec![term(vec![], vec![name_in("node1")])]))),
            "node2",
            vec![],
            Ok(set(&["node1"])),
            false,
        ),
        (
            "Pod with two terms: matchFields does not match, but matchExpressions matches",
            pod_with(
                &[],
                Some(Some(vec![
                    term(vec![], vec![name_in("node1"), name_in("node2")]),
                    term(vec![req("foo", "In", &["bar"])], vec![]),
                ])),
            ),
            "node2",
            vec![("foo", "bar")],
            Ok(None),
            true,
        ),
        (
            "Pod with one term: matchFields does not match, but matchExpressions matches",
            pod_with(
                &[],
                Some(Some(vec![term(
                    vec![req("foo", "In", &["bar"])],
                    vec![name_in("node1")],
                )])),
            ),
            "node2",
            vec![("foo", "bar")],
            Ok(set(&["node1"])),
            false,
        ),
        (
            "Pod with one term: both matchFields and matchExpressions match",
            pod_with(
                &[],
                Some(Some(vec![term(
                    vec![req("foo", "In", &["bar"])],
                    vec![name_in("node1")],
                )])),
            ),
            "node1",
            vec![("foo", "bar")],
            Ok(set(&["node1"])),
            true,
        ),
        (
            "Pod with two terms: both matchFields and matchExpressions do not match",
            pod_with(
                &[],
                Some(Some(vec![
                    term(vec![], vec![name_in("node1")]),
                    term(vec![req("foo", "In", &["not-match-to-bar"])], vec![]),
                ])),
            ),
            "node2",
            vec![("foo", "bar")],
            Ok(None),
            false,
        ),
        (
            "Pod with two terms of node.Name affinity",
            pod_with(
                &[],
                Some(Some(vec![
                    term(vec![], vec![name_in("node1")]),
                    term(vec![], vec![name_in("node2")]),
                ])),
            ),
            "node2",
            vec![],
            Ok(set(&["node1", "node2"])),
            true,
        ),
        (
            "Pod with two conflicting mach field requirements",
            pod_with(
                &[],
                Some(Some(vec![term(
                    vec![],
                    vec![name_in("node1"), name_in("node2")],
                )])),
            ),
            "node2",
            vec![("foo", "bar")],
            Err(()),
            false,
        ),
        (
            "Matches node selector correctly even if PreFilter is not called",
            pod_with(&[("foo", "bar")], None),
            "",
            vec![("foo", "bar"), ("baz", "blah")],
            Ok(None),
            true,
        ),
        (
            "Matches node affinity correctly even if PreFilter is not called",
            pod_with(&[], Some(Some(gpu()))),
            "",
            vec![("GPU", "NVIDIA-GRID-K1")],
            Ok(None),
            true,
        ),
    ];
    for (name, pod, node_name, labels, want_pre, fits) in rows {
        match node_affinity_pre_filter(&pod) {
            Err(st) => {
                assert_eq!(want_pre, Err(()), "{name}");
                assert_eq!(st.code, Code::UnschedulableAndUnresolvable, "{name}");
                assert_eq!(
                    st.reasons,
                    vec![ERR_REASON_NODE_AFFINITY_CONFLICT],
                    "{name}"
                );
            }
            Ok(got) => assert_eq!(Ok(got), want_pre, "{name}"),
        }
        let st = filter_node_affinity(&pod, &node_with(node_name, &labels));
        assert_eq!(st.is_none(), fits, "{name}");
        if let Some(st) = st {
            assert_eq!(st.code, Code::UnschedulableAndUnresolvable, "{name}");
            assert_eq!(st.reasons, vec![ERR_REASON_NODE_AFFINITY], "{name}");
        }
    }
}

/// A node with 1 CPU and 32 pods, and a pod using `cpu` of it.
fn cpu_node(name: &str) -> Node {
    let mut n = node_with(name, &[]);
    for (k, v) in [("cpu", "1"), ("pods", "32")] {
        n.status.allocatable.insert(k.into(), Quantity(v.into()));
    }
    n
}

fn cpu_pod(name: &str, node: &str, cpu: &str) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.uid = name.into();
    p.metadata.namespace = "default".into();
    p.spec_mut().node_name = node.into();
    let mut r = ResourceRequirements::default();
    r.requests.insert("cpu".into(), Quantity(cpu.into()));
    p.spec_mut().containers.push(Container {
        name: "c".into(),
        resources: Some(r),
        ..Default::default()
    });
    p
}

fn only_on(mut p: Pod, names: &[&str]) -> Pod {
    let fields = names.iter().map(|n| name_in(n)).collect::<Vec<_>>();
    let terms = fields.into_iter().map(|f| term(vec![], vec![f])).collect();
    p.spec_mut().affinity = pod_with(&[], Some(Some(terms))).spec.affinity.clone();
    p
}

fn store_of(nodes: &[&str], pods: Vec<Pod>) -> Store {
    let mut s = Store::new();
    for n in nodes {
        s.put(Object::Node(cpu_node(n)));
    }
    for p in pods {
        s.put(Object::Pod(p));
    }
    s
}

fn message(o: Outcome) -> String {
    match o {
        Outcome::Unschedulable { message, .. } => message,
        other => panic!("expected Unschedulable, got {other:?}"),
    }
}

// upstream: TestSchedulerSchedulePod (pkg/scheduler/schedule_one_test.go), the PreFilterResult
// rows with NodeAffinity's matchFields as the PreFilter plugin and NodeResourcesFit as the
// filter: the nodes left out of the result share the absent-nodes status "node(s) didn't
// satisfy plugin(s) [NodeAffinity]" (UnschedulableAndUnresolvable, so preemption does not help
// there), and only the named nodes are processed (`processedNodes` advances
// nextStartNodeIndex).
#[test]
fn prefilter_result_limits_the_filtered_nodes() {
    // "test some nodes are filtered out by prefilter plugin and other are filtered out by
    // filter plugin": node2 is the only node in the result and its filter fails.
    let p = only_on(cpu_pod("test-prefilter", "", "500m"), &["node2"]);
    let s = store_of(&["node1", "node2"], vec![cpu_pod("busy", "node2", "800m")]);
    let (o, processed) = schedule_pod_from(&p, &s, 0);
    assert_eq!(
        message(o),
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't satisfy plugin(s) \
         [NodeAffinity]. no new claims to deallocate, preemption: 0/2 nodes are available: 1 No \
         preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
    );
    assert_eq!(processed, 1);
    // "test prefilter plugin returned an invalid node": no node is filtered; all are absent.
    let p = only_on(cpu_pod("test-prefilter", "", "500m"), &["invalid-node"]);
    let s = store_of(&["1", "2"], vec![]);
    let (o, processed) = schedule_pod_from(&p, &s, 0);
    assert_eq!(
        message(o),
        "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new \
         claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful \
         for scheduling."
    );
    assert_eq!(processed, 0);
    // "test no score plugin, prefilter plugin returning 2 nodes": the pod lands on one of them
    // (here the first examined from the start index, within the result).
    let p = only_on(cpu_pod("test-prefilter", "", "500m"), &["node1", "node2"]);
    let s = store_of(&["node1", "node2", "node3"], vec![]);
    for (start, want) in [(0, "node1"), (1, "node2"), (2, "node1")] {
        let (o, processed) = schedule_pod_from(&p, &s, start);
        assert!(
            matches!(&o, Outcome::Bind(n) if n == want),
            "{start}: {o:?}"
        );
        assert_eq!(processed, 2, "{start}");
    }
    // The conflict status ends PreFilter: every node gets it.
    let p = pod_with(
        &[],
        Some(Some(vec![term(
            vec![],
            vec![name_in("node1"), name_in("node2")],
        )])),
    );
    let (o, _) = schedule_pod_from(&p, &store_of(&["node1", "node2"], vec![]), 0);
    assert_eq!(
        message(o),
        "0/2 nodes are available: pod affinity terms conflict. no new claims to deallocate, \
         preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
}

/// `status.nominatedNodeName`.
fn nominated(mut p: Pod, node: &str) -> Pod {
    p.status.extra.insert(
        "nominatedNodeName".into(),
        serde_json::Value::String(node.into()),
    );
    p
}

// upstream: TestPreferNominatedNodeFilterCallCounts (pkg/scheduler/schedule_one_test.go), through
// what the filter call counts imply (`evaluateNominatedNode` in findNodesThatFitPod): with a
// nominated node that passes the filters, only that node is filtered (1 call; nothing is
// processed for the start index) and it is chosen without scoring, here although node1 scores
// lowest (it already runs a pod); without a nomination every node is filtered (3 calls); when
// the nominated node fails, every node is filtered after it (1 + 3 calls).
#[test]
fn prefer_nominated_node() {
    let s = store_of(
        &["node1", "node2", "node3"],
        vec![cpu_pod("busy", "node1", "400m")],
    );
    let p = cpu_pod("p", "", "500m");
    // "pod has the nominated node set, filter is called only once"
    let (o, processed) = schedule_pod_from(&nominated(p.clone(), "node1"), &s, 0);
    assert!(matches!(&o, Outcome::Bind(n) if n == "node1"), "{o:?}");
    assert_eq!(processed, 0);
    // "pod without the nominated pod, filter is called for each node"
    let (o, processed) = schedule_pod_from(&p, &s, 0);
    assert!(matches!(&o, Outcome::Bind(n) if n == "node2"), "{o:?}");
    assert_eq!(processed, 3);
    // "nominated pod cannot pass the filter, filter is called for each node"
    let s = store_of(
        &["node1", "node2", "node3"],
        vec![cpu_pod("busy", "node1", "800m")],
    );
    let (o, processed) = schedule_pod_from(&nominated(p, "node1"), &s, 0);
    assert!(matches!(&o, Outcome::Bind(n) if n == "node2"), "{o:?}");
    assert_eq!(processed, 3);
}
