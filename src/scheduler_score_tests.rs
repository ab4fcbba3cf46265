//! Ports of upstream kube-scheduler plugin score tables. Each test names the upstream test and
//! file; rows needing configuration or features kubeplay does not model are left out with a
//! comment saying why.

use super::*;
use crate::api::{Container, Quantity, ResourceRequirements};
use crate::test_fixtures::snapshot;
use crate::test_fixtures::{taint, tol};

fn named_node(name: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n
}

/// `st.MakePod().Req(r1).Req(r2)…`: one container per request map.
fn pod_req(containers: &[&[(&str, &str)]]) -> Pod {
    let mut p = Pod::default();
    for (i, reqs) in containers.iter().enumerate() {
        let mut r = ResourceRequirements::default();
        for (k, v) in reqs.iter() {
            r.requests.insert(k.to_string(), Quantity(v.to_string()));
        }
        p.spec_mut().containers.push(Container {
            name: format!("c{i}"),
            resources: Some(r),
            ..Default::default()
        });
    }
    p
}

/// `pod_req` assigned to a node (`st.MakePod().Node(name)`).
fn pod_on(node: &str, containers: &[&[(&str, &str)]]) -> Pod {
    let mut p = pod_req(containers);
    p.spec_mut().node_name = node.into();
    p
}

/// `st.MakeNode().Name(name).Capacity(res)`: capacity and allocatable alike.
fn node_cap(name: &str, res: &[(&str, &str)]) -> Node {
    let mut n = named_node(name);
    for (k, v) in res {
        n.status
            .capacity
            .insert(k.to_string(), Quantity(v.to_string()));
        n.status
            .allocatable
            .insert(k.to_string(), Quantity(v.to_string()));
    }
    n
}

// Port of TestTaintTolerationScore (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go):
// PreScore + Score (intolerable PreferNoSchedule taints) + NormalizeScore (reversed).
// Left out: "Numeric Gt operator…" and "Numeric Lt operator…", which need the alpha
// TaintTolerationComparisonOperators gate (Gt/Lt tolerations); kubeplay models only
// Equal/Exists. "Score ignores parse errors…" is kept: an unparsable taint value is not
// tolerated with the gate on, and a Gt toleration tolerates nothing with it off, so the
// expected scores are the same.
#[test]
fn taint_toleration_score() {
    let pns = "PreferNoSchedule";
    type Case = (&'static str, Vec<Toleration>, Vec<Vec<Taint>>, Vec<i64>);
    let cases: Vec<Case> = vec![
        (
            "node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
            vec![tol("foo", "Equal", "bar", pns)],
            vec![
                vec![taint("foo", "bar", pns)],
                vec![taint("foo", "blah", pns)],
            ],
            vec![MAX_NODE_SCORE, 0],
        ),
        (
            "the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has",
            vec![
                tol("cpu-type", "Equal", "arm64", pns),
                tol("disk-type", "Equal", "ssd", pns),
            ],
            vec![
                vec![],
                vec![taint("cpu-type", "arm64", pns)],
                vec![taint("cpu-type", "arm64", pns), taint("disk-type", "ssd", pns)],
            ],
            vec![MAX_NODE_SCORE, MAX_NODE_SCORE, MAX_NODE_SCORE],
        ),
        (
            "the more intolerable taints a node has, the lower score it gets.",
            vec![tol("foo", "Equal", "bar", pns)],
            vec![
                vec![],
                vec![taint("cpu-type", "arm64", pns)],
                vec![taint("cpu-type", "arm64", pns), taint("disk-type", "ssd", pns)],
            ],
            vec![MAX_NODE_SCORE, 50, 0],
        ),
        (
            "only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function",
            vec![
                tol("cpu-type", "Equal", "arm64", "NoSchedule"),
                tol("disk-type", "Equal", "ssd", "NoSchedule"),
            ],
            vec![
                vec![],
                vec![taint("cpu-type", "arm64", "NoSchedule")],
                vec![taint("cpu-type", "arm64", pns), taint("disk-type", "ssd", pns)],
            ],
            vec![MAX_NODE_SCORE, MAX_NODE_SCORE, 0],
        ),
        (
            "Default behaviour No taints and tolerations, lands on node with no taints",
            vec![],
            vec![vec![], vec![taint("cpu-type", "arm64", pns)]],
            vec![MAX_NODE_SCORE, 0],
        ),
        (
            "Score ignores parse errors from numeric PreferNoSchedule taint value",
            vec![tol("node.kubernetes.io/sla", "Gt", "950", pns)],
            vec![vec![], vec![taint("node.kubernetes.io/sla", "high", pns)]],
            vec![MAX_NODE_SCORE, 0],
        ),
    ];
    for (name, tols, node_taints, want) in cases {
        let mut pod = Pod::default();
        pod.metadata.name = "pod1".into();
        pod.spec_mut().tolerations = tols;
        let mut got: Vec<i64> = node_taints
            .into_iter()
            .map(|taints| {
                let mut node = Node::default();
                node.spec.taints = taints;
                count_intolerable_prefer_no_schedule(&pod, &node)
            })
            .collect();
        default_normalize_score(MAX_NODE_SCORE, true, &mut got);
        assert_eq!(got, want, "{name}");
    }
}

// Port of TestLeastAllocatedScoringStrategy (pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go):
// NodeResourcesFit Score with the LeastAllocated strategy. kubeplay runs only the default
// profile (cpu and memory, weight 1 each), so these rows are left out: "Resources not set,
// pods scheduled with error" (an empty resource list), "nothing scheduled, resources requested
// with different weight on CPU and memory…" (memory weight 2), the three argument-validation
// rows (negative, zero and >100 weights) and "honor extended resource if the pod requests"
// (an extended resource in the scoring set). "bypass extended resource if the pod does not
// request" and "if the node doesn't have a resource" are kept: the pod requests no extended
// resource, so upstream skips it and scores cpu and memory with weight 1 each, the default.
#[test]
fn least_allocated_scoring_strategy() {
    let cap = |name: &str, cpu: &str, mem: &str| node_cap(name, &[("cpu", cpu), ("memory", mem)]);
    let two_containers: &[&[(&str, &str)]] = &[
        &[("cpu", "1000"), ("memory", "2000")],
        &[("cpu", "2000"), ("memory", "3000")],
    ];
    type Case = (&'static str, Pod, Vec<Node>, Vec<Pod>, Vec<i64>);
    let cases: Vec<Case> = vec![
        (
            "nothing scheduled, nothing requested",
            Pod::default(),
            vec![cap("node1", "4000", "10000"), cap("node2", "4000", "10000")],
            vec![],
            vec![MAX_NODE_SCORE, MAX_NODE_SCORE],
        ),
        (
            "nothing scheduled, resources requested, differently sized nodes",
            pod_req(two_containers),
            vec![cap("node1", "4000", "10000"), cap("node2", "6000", "10000")],
            vec![],
            vec![37, 50],
        ),
        (
            "no resources requested, pods scheduled",
            Pod::default(),
            vec![cap("node1", "4000", "10000"), cap("node2", "4000", "10000")],
            vec![
                pod_on("node1", &[]),
                pod_on("node1", &[]),
                pod_on("node2", &[]),
                pod_on("node2", &[]),
            ],
            vec![MAX_NODE_SCORE, MAX_NODE_SCORE],
        ),
        (
            "no resources requested, pods scheduled with resources",
            Pod::default(),
            vec![
                cap("node1", "10000", "20000"),
                cap("node2", "10000", "20000"),
            ],
            vec![
                pod_on("node1", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node1", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node2", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node2", &[&[("cpu", "3000"), ("memory", "5000")]]),
            ],
            vec![70, 57],
        ),
        (
            "resources requested, pods scheduled with resources",
            pod_req(two_containers),
            vec![
                cap("node1", "10000", "20000"),
                cap("node2", "10000", "20000"),
            ],
            vec![
                pod_on("node1", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node2", &[&[("cpu", "3000"), ("memory", "5000")]]),
            ],
            vec![57, 45],
        ),
        (
            "resources requested, pods scheduled with resources, differently sized nodes",
            pod_req(two_containers),
            vec![
                cap("node1", "10000", "20000"),
                cap("node2", "10000", "50000"),
            ],
            vec![
                pod_on("node1", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node2", &[&[("cpu", "3000"), ("memory", "5000")]]),
            ],
            vec![57, 60],
        ),
        (
            "requested resources exceed node capacity",
            pod_req(&[&[("cpu", "3000"), ("memory", "0")]]),
            vec![cap("node1", "4000", "10000"), cap("node2", "4000", "10000")],
            vec![
                pod_on("node1", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node2", &[&[("cpu", "3000"), ("memory", "5000")]]),
            ],
            vec![50, 25],
        ),
        (
            "zero node resources, pods scheduled with resources",
            Pod::default(),
            vec![named_node("node1"), named_node("node2")],
            vec![
                pod_on("node1", &[&[("cpu", "3000"), ("memory", "0")]]),
                pod_on("node2", &[&[("cpu", "3000"), ("memory", "5000")]]),
            ],
            vec![0, 0],
        ),
        (
            "bypass extended resource if the pod does not request",
            pod_req(two_containers),
            vec![
                cap("node1", "6000", "10000"),
                node_cap(
                    "node2",
                    &[("cpu", "6000"), ("memory", "10000"), ("abc.com/xyz", "4")],
                ),
            ],
            vec![],
            vec![50, 50],
        ),
        (
            "if the node doesn't have a resource",
            pod_req(&[&[("cpu", "3000"), ("memory", "4000")]]),
            vec![
                cap("node1", "6000", "10000"),
                node_cap(
                    "node2",
                    &[("cpu", "6000"), ("memory", "10000"), ("abc.com/xyz", "4")],
                ),
            ],
            vec![],
            vec![55, 55],
        ),
    ];
    for (name, pod, nodes, pods, want) in cases {
        let infos = snapshot(&nodes, &pods);
        let got: Vec<i64> = infos
            .iter()
            .map(|ni| least_allocated_score(&pod, ni))
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

// Port of TestNodeResourcesBalancedAllocation (pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go):
// NodeResourcesBalancedAllocation PreScore + Score with the default resources (cpu and
// memory, weight 1 each). Left out: "include scalar resource on a node for balanced resource
// allocation" (nvidia.com/gpu in the resource set) and the two "include DRA resource…" rows
// (DRAExtendedResource, a DeviceClass and ResourceSlices). "node without the scalar resource
// should skip the scalar resource" is kept: the pod requests no gpu, so upstream scores cpu and
// memory only. kubeplay computes requests the same way whether or not PreScore ran, so the
// "…if PreScore not called" row checks the same function.
#[test]
fn node_resources_balanced_allocation() {
    let node = |name: &str, cpu_milli: i64, mem: i64, gpu: Option<i64>| {
        let cpu = format!("{cpu_milli}m");
        let mem = mem.to_string();
        let gpu = gpu.map(|g| g.to_string());
        let mut res = vec![("cpu", cpu.as_str()), ("memory", mem.as_str())];
        if let Some(g) = &gpu {
            res.push(("nvidia.com/gpu", g.as_str()));
        }
        node_cap(name, &res)
    };
    let cpu_and_memory: &[&[(&str, &str)]] = &[
        &[("cpu", "1000m"), ("memory", "2000")],
        &[("cpu", "2000m"), ("memory", "3000")],
    ];
    let cpu_only: &[&[(&str, &str)]] = &[
        &[("cpu", "1000m"), ("memory", "0")],
        &[("cpu", "2000m"), ("memory", "0")],
    ];
    // The scheduled pods of the tables: cpuOnly on node1, cpuAndMemory on node2.
    let scheduled = || vec![pod_on("node1", cpu_only), pod_on("node2", cpu_and_memory)];
    type Case = (&'static str, Pod, Vec<Node>, Vec<Pod>, Option<Vec<i64>>);
    let cases: Vec<Case> = vec![
        (
            // PreScore returns Skip for a best-effort pod.
            "nothing scheduled, nothing requested, skip in PreScore",
            Pod::default(),
            vec![
                node("node1", 4000, 10000, None),
                node("node2", 4000, 10000, None),
            ],
            vec![],
            None,
        ),
        (
            "nothing scheduled, resources requested, differently sized nodes",
            pod_req(cpu_and_memory),
            vec![
                node("node1", 4000, 10000, None),
                node("node2", 6000, 10000, None),
            ],
            vec![],
            Some(vec![87, MAX_NODE_SCORE]),
        ),
        (
            "resources requested, pods scheduled with resources",
            pod_req(cpu_and_memory),
            vec![
                node("node1", 10000, 20000, None),
                node("node2", 10000, 20000, None),
            ],
            scheduled(),
            Some(vec![82, 95]),
        ),
        (
            "resources requested, pods scheduled with resources, differently sized nodes",
            pod_req(cpu_and_memory),
            vec![
                node("node1", 10000, 20000, None),
                node("node2", 10000, 50000, None),
            ],
            scheduled(),
            Some(vec![82, 80]),
        ),
        (
            "requested resources at node capacity",
            pod_req(cpu_only),
            vec![
                node("node1", 6000, 10000, None),
                node("node2", 6000, 10000, None),
            ],
            scheduled(),
            Some(vec![50, 75]),
        ),
        (
            "node without the scalar resource should skip the scalar resource",
            pod_req(cpu_and_memory),
            vec![
                node("node1", 3500, 40000, Some(8)),
                node("node2", 3500, 40000, None),
            ],
            vec![],
            Some(vec![63, 63]),
        ),
        (
            "resources requested, pods scheduled with resources if PreScore not called",
            pod_req(cpu_and_memory),
            vec![
                node("node1", 10000, 20000, None),
                node("node2", 10000, 20000, None),
            ],
            scheduled(),
            Some(vec![82, 95]),
        ),
    ];
    for (name, pod, nodes, pods, want) in cases {
        let infos = snapshot(&nodes, &pods);
        let got: Vec<Option<i64>> = infos
            .iter()
            .map(|ni| balanced_allocation_score(&pod, ni))
            .collect();
        match want {
            None => assert!(got.iter().all(Option::is_none), "{name}: {got:?}"),
            Some(want) => {
                let got: Vec<i64> = got.into_iter().map(|s| s.expect(name)).collect();
                assert_eq!(got, want, "{name}");
            }
        }
    }
}

fn labelled(name: &str, labels: &[(&str, &str)]) -> Node {
    let mut n = named_node(name);
    n.metadata.labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    n
}

/// A pod with `preferredDuringSchedulingIgnoredDuringExecution` terms: (weight, [(key, value)])
/// with one `In` requirement per (key, value).
fn pod_preferring(terms: &[(i64, &[(&str, &str)])]) -> Pod {
    let terms: Vec<serde_json::Value> = terms
        .iter()
        .map(|(w, reqs)| {
            let exprs: Vec<serde_json::Value> = reqs
                .iter()
                .map(|(k, v)| serde_json::json!({"key": k, "operator": "In", "values": [v]}))
                .collect();
            serde_json::json!({"weight": w, "preference": {"matchExpressions": exprs}})
        })
        .collect();
    let mut na = crate::api::NodeAffinity::default();
    na.extra.insert(
        "preferredDuringSchedulingIgnoredDuringExecution".into(),
        serde_json::Value::Array(terms),
    );
    let mut p = Pod::default();
    p.spec_mut().affinity = Some(crate::api::Affinity {
        node_affinity: Some(na),
        ..Default::default()
    });
    p
}

// Port of TestNodeAffinityPriority (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go):
// PreScore + Score + NormalizeScore. Left out: "PreScore returns error when an incoming Pod has
// a broken affinity" (a key API validation rejects; kubeplay does not re-validate preferred
// terms in the scheduler) and the two "added affinity…" rows (NodeAffinityArgs.addedAffinity,
// a scheduler configuration kubeplay does not model). kubeplay's PreScore and Score are one
// function, so "…even if PreScore is not called" checks the same path, and "all nodes are same
// priority as NodeAffinity is nil" is the Skip case, which the profile scores as 0.
#[test]
fn node_affinity_priority() {
    let label1: &[(&str, &str)] = &[("foo", "bar")];
    let label2: &[(&str, &str)] = &[("key", "value")];
    let label3: &[(&str, &str)] = &[("az", "az1")];
    let label4: &[(&str, &str)] = &[("abc", "az11"), ("def", "az22")];
    let label5: &[(&str, &str)] = &[("foo", "bar"), ("key", "value"), ("az", "az1")];
    let affinity1 = || pod_preferring(&[(2, &[("foo", "bar")])]);
    let affinity2 = || {
        pod_preferring(&[
            (2, &[("foo", "bar")]),
            (4, &[("key", "value")]),
            (5, &[("foo", "bar"), ("key", "value"), ("az", "az1")]),
        ])
    };
    type Case = (&'static str, Pod, Vec<Node>, Option<Vec<i64>>);
    let cases: Vec<Case> = vec![
        (
            "all nodes are same priority as NodeAffinity is nil",
            Pod::default(),
            vec![
                labelled("node1", label1),
                labelled("node2", label2),
                labelled("node3", label3),
            ],
            None,
        ),
        (
            "Skip is returned in PreScore when NodeAffinity is nil",
            Pod::default(),
            vec![labelled("node1", label1)],
            None,
        ),
        (
            "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
            affinity1(),
            vec![
                labelled("node1", label4),
                labelled("node2", label2),
                labelled("node3", label3),
            ],
            Some(vec![0, 0, 0]),
        ),
        (
            "only node1 matches the preferred scheduling requirements of pod",
            affinity1(),
            vec![
                labelled("node1", label1),
                labelled("node2", label2),
                labelled("node3", label3),
            ],
            Some(vec![MAX_NODE_SCORE, 0, 0]),
        ),
        (
            "all nodes matches the preferred scheduling requirements of pod but with different priorities ",
            affinity2(),
            vec![
                labelled("node1", label1),
                labelled("node5", label5),
                labelled("node2", label2),
            ],
            Some(vec![18, MAX_NODE_SCORE, 36]),
        ),
        (
            "calculate the priorities correctly even if PreScore is not called",
            affinity2(),
            vec![
                labelled("node1", label1),
                labelled("node5", label5),
                labelled("node2", label2),
            ],
            Some(vec![18, MAX_NODE_SCORE, 36]),
        ),
    ];
    for (name, pod, nodes, want) in cases {
        assert_eq!(node_affinity_scores(&pod, &nodes), want, "{name}");
    }
}

/// `SpreadConstraint(maxSkew, key, ScheduleAnyway, selector)` with `selector` the label whose
/// existence it requires (`fooSelector`, `barSelector`) or `None` for a null selector.
fn soft_spread(max_skew: i32, key: &str, exists: Option<&str>) -> serde_json::Value {
    let mut c = serde_json::json!({
        "maxSkew": max_skew,
        "topologyKey": key,
        "whenUnsatisfiable": "ScheduleAnyway",
    });
    if let Some(k) = exists {
        c["labelSelector"] =
            serde_json::json!({"matchExpressions": [{"key": k, "operator": "Exists"}]});
    }
    c
}

/// `st.MakePod().Name(name).Namespace("default").Label(l, "")…` with topology spread constraints.
fn spread_pod(labels: &[&str], constraints: Vec<serde_json::Value>) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = "p".into();
    p.metadata.namespace = "default".into();
    p.metadata.labels = labels
        .iter()
        .map(|l| (l.to_string(), String::new()))
        .collect();
    if !constraints.is_empty() {
        p.spec_mut().extra.insert(
            "topologySpreadConstraints".into(),
            serde_json::Value::Array(constraints),
        );
    }
    p
}

/// An existing pod `st.MakePod().Name(name).Node(node).Label(l, "")…` in namespace default.
fn placed(name: &str, node: &str, labels: &[&str]) -> Pod {
    let mut p = spread_pod(labels, vec![]);
    p.metadata.name = name.into();
    p.spec_mut().node_name = node.into();
    p
}

/// `n` pods on `node` labelled `foo`, named `p-<suffix><i>`.
fn foo_pods(node: &str, suffix: &str, n: usize) -> Vec<Pod> {
    (1..=n)
        .map(|i| placed(&format!("p-{suffix}{i}"), node, &["foo"]))
        .collect()
}

/// A node with the given labels (`(key, value)`).
fn spread_node(name: &str, labels: &[(&str, &str)]) -> Node {
    labelled(name, labels)
}

fn host(name: &str) -> Node {
    spread_node(name, &[(LABEL_HOSTNAME, name)])
}

/// `NodeAffinityIn("foo", []string{""}, st.NodeSelectorTypeMatchExpressions)`.
fn affinity_foo_in_empty() -> crate::api::Affinity {
    crate::api::Affinity {
        node_affinity: Some(crate::api::NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_expressions: vec![NodeSelectorRequirement {
                        key: "foo".into(),
                        operator: "In".into(),
                        values: vec![String::new()],
                    }],
                    match_fields: vec![],
                }],
            }),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn zoned(name: &str, zone: &str) -> Node {
    spread_node(name, &[("zone", zone), (LABEL_HOSTNAME, name)])
}

// Port of TestPodTopologySpreadScore (pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go):
// PreScore over the candidate nodes (the snapshot also holds the failed nodes) + Score +
// NormalizeScore, with system defaulting. 27 of 28 rows. Left out: "matchLabelKeys ignored
// when feature gate disabled" (MatchLabelKeysInPodTopologySpread is on in kubeplay, as by
// default upstream; the two "matchLabelKeys ANDed with LabelSelector…" rows cover the gate
// on). "minDomains has no effect when ScheduleAnyway" holds because scoring never reads
// minDomains.
#[test]
fn pod_topology_spread_score() {
    struct Case {
        name: &'static str,
        pod: Pod,
        existing: Vec<Pod>,
        nodes: Vec<Node>,
        failed: Vec<Node>,
        service: Option<&'static str>,
        want: Vec<i64>,
    }
    let on_host = |max_skew| vec![soft_spread(max_skew, LABEL_HOSTNAME, Some("foo"))];
    let zone_foo_host_bar = || {
        vec![
            soft_spread(1, "zone", Some("foo")),
            soft_spread(1, LABEL_HOSTNAME, Some("bar")),
        ]
    };
    let spread_2_1_0_3 = || {
        [
            foo_pods("node-a", "a", 2),
            foo_pods("node-b", "b", 1),
            foo_pods("node-d", "d", 3),
        ]
        .concat()
    };
    let spread_4_3_2_1 = || {
        [
            foo_pods("node-a", "a", 4),
            foo_pods("node-b", "b", 3),
            foo_pods("node-c", "c", 2),
            foo_pods("node-d", "d", 1),
        ]
        .concat()
    };
    let spread_4_2_1_3 = || {
        [
            foo_pods("node-a", "a", 4),
            foo_pods("node-b", "b", 2),
            foo_pods("node-x", "x", 1),
            foo_pods("node-y", "y", 3),
        ]
        .concat()
    };
    let hosts = |names: &[&str]| names.iter().map(|n| host(n)).collect::<Vec<_>>();
    let nodes_abc_by = |key: &str| {
        vec![
            spread_node("node-a", &[(key, "node-a"), ("foo", "")]),
            spread_node("node-b", &[(key, "node-b"), ("foo", "")]),
            spread_node("node-c", &[(key, "node-c")]),
        ]
    };
    let policy_pods = || {
        [
            foo_pods("node-a", "a", 2),
            foo_pods("node-b", "b", 1),
            foo_pods("node-c", "c", 1),
        ]
        .concat()
    };
    let case = |name, pod, existing, nodes, failed, want| Case {
        name,
        pod,
        existing,
        nodes,
        failed,
        service: None,
        want,
    };
    let mut cases = vec![
        case(
            "one constraint on node, no existing pods",
            spread_pod(&["foo"], on_host(1)),
            vec![],
            hosts(&["node-a", "node-b"]),
            vec![],
            vec![100, 100],
        ),
        case(
            "one constraint on node, only one node is candidate",
            spread_pod(&["foo"], on_host(1)),
            [foo_pods("node-a", "a", 2), foo_pods("node-b", "b", 1)].concat(),
            hosts(&["node-a"]),
            hosts(&["node-b"]),
            vec![100],
        ),
        case(
            "one constraint on node, all nodes have the same number of matching pods",
            spread_pod(&["foo"], on_host(1)),
            [foo_pods("node-a", "a", 1), foo_pods("node-b", "b", 1)].concat(),
            hosts(&["node-a", "node-b"]),
            vec![],
            vec![100, 100],
        ),
        case(
            "one constraint on node, all 4 nodes are candidates",
            spread_pod(&["foo"], on_host(1)),
            spread_2_1_0_3(),
            hosts(&["node-a", "node-b", "node-c", "node-d"]),
            vec![],
            vec![20, 60, 100, 0],
        ),
        case(
            "one constraint on node, null selector",
            spread_pod(&["foo"], vec![soft_spread(1, LABEL_HOSTNAME, None)]),
            spread_2_1_0_3(),
            hosts(&["node-a", "node-b", "node-c", "node-d"]),
            vec![],
            vec![100, 100, 100, 100],
        ),
        case(
            "one constraint on node, all 4 nodes are candidates, maxSkew=2",
            spread_pod(&["foo"], on_host(2)),
            spread_2_1_0_3(),
            hosts(&["node-a", "node-b", "node-c", "node-d"]),
            vec![],
            vec![33, 66, 100, 16],
        ),
        case(
            "one constraint on node, all 4 nodes are candidates, maxSkew=3",
            spread_pod(&["foo"], on_host(3)),
            spread_4_3_2_1(),
            hosts(&["node-a", "node-b", "node-c", "node-d"]),
            vec![],
            vec![44, 66, 77, 100],
        ),
        Case {
            service: Some("foo"),
            ..case(
                "system defaulting, nodes don't have zone, pods match service",
                spread_pod(&["foo"], vec![]),
                spread_4_3_2_1(),
                hosts(&["node-a", "node-b", "node-c", "node-d"]),
                vec![],
                // Same scores as if we were using one spreading constraint.
                vec![44, 66, 77, 100],
            )
        },
        case(
            "one constraint on node, 3 out of 4 nodes are candidates",
            spread_pod(&["foo"], on_host(1)),
            spread_4_2_1_3(),
            hosts(&["node-a", "node-b", "node-x"]),
            hosts(&["node-y"]),
            vec![33, 83, 100],
        ),
        case(
            "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
            spread_pod(&["foo"], on_host(1)),
            spread_4_2_1_3(),
            vec![
                host("node-a"),
                spread_node("node-b", &[("n", "node-b")]),
                host("node-x"),
            ],
            hosts(&["node-y"]),
            vec![16, 0, 100],
        ),
        case(
            "one constraint on zone, 3 out of 4 nodes are candidates",
            spread_pod(&["foo"], vec![soft_spread(1, "zone", Some("foo"))]),
            spread_4_2_1_3(),
            vec![
                zoned("node-a", "zone1"),
                zoned("node-b", "zone1"),
                zoned("node-x", "zone2"),
            ],
            vec![zoned("node-y", "zone2")],
            vec![75, 75, 100],
        ),
        case(
            "two Constraints on zone and node, 2 out of 4 nodes are candidates",
            spread_pod(
                &["foo"],
                vec![
                    soft_spread(1, "zone", Some("foo")),
                    soft_spread(1, LABEL_HOSTNAME, Some("foo")),
                ],
            ),
            [
                foo_pods("node-a", "a", 2),
                foo_pods("node-b", "b", 1),
                foo_pods("node-x", "x", 2),
                foo_pods("node-y", "y", 4),
            ]
            .concat(),
            vec![zoned("node-a", "zone1"), zoned("node-x", "zone2")],
            vec![zoned("node-b", "zone1"), zoned("node-y", "zone2")],
            vec![100, 63],
        ),
        case(
            "two Constraints on zone, 2 out of 4 nodes are candidates",
            spread_pod(
                &["foo", "bar"],
                vec![
                    soft_spread(1, "zone", Some("foo")),
                    soft_spread(1, "zone", Some("bar")),
                ],
            ),
            vec![
                placed("p-a1", "node-a", &["foo", "bar"]),
                placed("p-a2", "node-a", &["foo"]),
                placed("p-b1", "node-b", &["foo", "bar"]),
                placed("p-y1", "node-y", &["foo"]),
                placed("p-y2", "node-y", &["foo", "bar"]),
                placed("p-y3", "node-y", &["foo"]),
            ],
            vec![
                spread_node("node-a", &[("zone", "zone1")]),
                spread_node("node-x", &[("zone", "zone2")]),
            ],
            vec![
                spread_node("node-b", &[("zone", "zone1")]),
                spread_node("node-y", &[("zone", "zone2")]),
            ],
            vec![85, 100],
        ),
        case(
            "two Constraints on zone and node, with different labelSelectors",
            spread_pod(&["foo", "bar"], zone_foo_host_bar()),
            vec![
                placed("p-a1", "node-a", &["foo"]),
                placed("p-b1", "node-b", &["foo", "bar"]),
                placed("p-y1", "node-y", &["foo"]),
                placed("p-y2", "node-y", &["bar"]),
            ],
            vec![
                zoned("node-a", "zone1"),
                zoned("node-b", "zone1"),
                zoned("node-x", "zone2"),
                zoned("node-y", "zone2"),
            ],
            vec![],
            vec![60, 20, 100, 60],
        ),
        case(
            "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
            spread_pod(&["foo", "bar"], zone_foo_host_bar()),
            vec![
                placed("p-b1", "node-b", &["bar"]),
                placed("p-x1", "node-x", &["foo"]),
                placed("p-y1", "node-y", &["foo", "bar"]),
            ],
            vec![
                zoned("node-a", "zone1"),
                zoned("node-b", "zone1"),
                zoned("node-x", "zone2"),
                zoned("node-y", "zone2"),
            ],
            vec![],
            vec![100, 60, 40, 0],
        ),
        case(
            "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
            spread_pod(&["foo", "bar"], zone_foo_host_bar()),
            vec![
                placed("p-a1", "node-a", &["foo"]),
                placed("p-b1", "node-b", &["foo", "bar"]),
                placed("p-y1", "node-y", &["foo"]),
                placed("p-y2", "node-y", &["bar"]),
            ],
            vec![
                zoned("node-a", "zone1"),
                zoned("node-b", "zone1"),
                zoned("node-x", "zone2"),
            ],
            vec![zoned("node-y", "zone2")],
            vec![50, 25, 100],
        ),
        case(
            "existing pods in a different namespace do not count",
            spread_pod(&["foo"], on_host(1)),
            {
                let mut other = placed("p-a1", "node-a", &["foo"]);
                other.metadata.namespace = "ns1".into();
                vec![
                    other,
                    placed("p-a2", "node-a", &["foo"]),
                    placed("p-b1", "node-b", &["foo"]),
                    placed("p-b2", "node-b", &["foo"]),
                ]
            },
            hosts(&["node-a", "node-b"]),
            vec![],
            vec![100, 33],
        ),
        case(
            "terminating Pods should be excluded",
            spread_pod(&["foo"], on_host(1)),
            {
                let mut terminating = placed("p-a", "node-a", &["foo"]);
                terminating.metadata.deletion_timestamp = Some(Time::default());
                vec![terminating, placed("p-b", "node-b", &["foo"])]
            },
            hosts(&["node-a", "node-b"]),
            vec![],
            vec![100, 0],
        ),
        case(
            "minDomains has no effect when ScheduleAnyway",
            spread_pod(&["foo"], {
                let mut c = soft_spread(2, "node", Some("foo"));
                c["minDomains"] = serde_json::json!(10);
                vec![c]
            }),
            [
                foo_pods("node-a", "a", 2),
                foo_pods("node-b", "b", 2),
                foo_pods("node-c", "c", 1),
            ]
            .concat(),
            vec![
                spread_node("node-a", &[("node", "node-a")]),
                spread_node("node-b", &[("node", "node-b")]),
                spread_node("node-c", &[("node", "node-c")]),
            ],
            vec![],
            vec![75, 75, 100],
        ),
        case(
            "NodeAffinityPolicy honoed with labelSelectors",
            {
                let mut p = spread_pod(&["foo"], vec![soft_spread(1, "node", Some("foo"))]);
                p.spec_mut().node_selector = [("foo".to_string(), String::new())].into();
                p
            },
            policy_pods(),
            nodes_abc_by("node"),
            vec![],
            vec![0, 33, 100],
        ),
        case(
            "NodeAffinityPolicy ignored with labelSelectors",
            {
                let mut c = soft_spread(1, "node", Some("foo"));
                c["nodeAffinityPolicy"] = serde_json::json!("Ignore");
                let mut p = spread_pod(&["foo"], vec![c]);
                p.spec_mut().node_selector = [("foo".to_string(), String::new())].into();
                p
            },
            policy_pods(),
            nodes_abc_by("node"),
            vec![],
            vec![66, 100, 100],
        ),
        case(
            "NodeAffinityPolicy ignored with nodeAffinity",
            {
                let mut c = soft_spread(1, "node", Some("foo"));
                c["nodeAffinityPolicy"] = serde_json::json!("Ignore");
                let mut p = spread_pod(&["foo"], vec![c]);
                p.spec_mut().affinity = Some(affinity_foo_in_empty());
                p
            },
            policy_pods(),
            nodes_abc_by("node"),
            vec![],
            vec![66, 100, 100],
        ),
        case(
            "NodeTaintsPolicy honored",
            {
                let mut c = soft_spread(1, "node", Some("foo"));
                c["nodeTaintsPolicy"] = serde_json::json!("Honor");
                spread_pod(&["foo"], vec![c])
            },
            policy_pods(),
            {
                let mut nodes = vec![
                    spread_node("node-a", &[("node", "node-a")]),
                    spread_node("node-b", &[("node", "node-b")]),
                    spread_node("node-c", &[("node", "node-c")]),
                ];
                nodes[2].spec.taints = vec![taint("foo", "", "NoSchedule")];
                nodes
            },
            vec![],
            vec![0, 33, 100],
        ),
        case(
            "NodeAffinityPolicy honoed with nodeAffinity",
            {
                let mut p = spread_pod(&["foo"], vec![soft_spread(1, "node", Some("foo"))]);
                p.spec_mut().affinity = Some(affinity_foo_in_empty());
                p
            },
            policy_pods(),
            nodes_abc_by("node"),
            vec![],
            vec![0, 33, 100],
        ),
        case(
            // The default nodeTaintsPolicy (Ignore): node-c's taint does not keep its pods out.
            "NodeTaintsPolicy ignored",
            spread_pod(&["foo"], vec![soft_spread(1, "node", Some("foo"))]),
            policy_pods(),
            {
                let mut nodes = vec![
                    spread_node("node-a", &[("node", "node-a")]),
                    spread_node("node-b", &[("node", "node-b")]),
                    spread_node("node-c", &[("node", "node-c")]),
                ];
                nodes[2].spec.taints = vec![taint("foo", "", "NoSchedule")];
                nodes
            },
            vec![],
            vec![66, 100, 100],
        ),
        case(
            "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty",
            spread_pod(&["foo", "bar"], {
                let mut zone = soft_spread(1, "zone", None);
                zone["labelSelector"] = serde_json::json!({});
                zone["matchLabelKeys"] = serde_json::json!(["foo"]);
                let mut host = soft_spread(1, LABEL_HOSTNAME, None);
                host["labelSelector"] = serde_json::json!({});
                host["matchLabelKeys"] = serde_json::json!(["bar"]);
                vec![zone, host]
            }),
            vec![
                placed("p-a1", "node-a", &["foo"]),
                placed("p-b1", "node-b", &["foo", "bar"]),
                placed("p-y1", "node-c", &["foo"]),
                placed("p-y2", "node-c", &["bar"]),
            ],
            vec![
                zoned("node-a", "zone1"),
                zoned("node-b", "zone1"),
                zoned("node-c", "zone2"),
                zoned("node-d", "zone2"),
            ],
            vec![],
            vec![60, 20, 60, 100],
        ),
        case(
            "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
            spread_pod(&["foo", "bar", "baz"], {
                let mut cs = zone_foo_host_bar();
                cs[1]["matchLabelKeys"] = serde_json::json!(["baz"]);
                cs
            }),
            vec![
                placed("p-a1", "node-a", &["foo"]),
                placed("p-b1", "node-b", &["foo", "bar", "baz"]),
                placed("p-c1", "node-c", &["foo"]),
                placed("p-c2", "node-c", &["bar"]),
                placed("p-d3", "node-c", &["bar", "baz"]),
            ],
            vec![
                zoned("node-a", "zone1"),
                zoned("node-b", "zone1"),
                zoned("node-c", "zone2"),
                zoned("node-d", "zone2"),
            ],
            vec![],
            vec![60, 20, 60, 100],
        ),
    ];
    assert_eq!(cases.len(), 27);
    for c in cases.drain(..) {
        let mut store = Store::new();
        if let Some(label) = c.service {
            let mut svc = crate::api::Service::default();
            svc.metadata.name = "svc".into();
            svc.metadata.namespace = "default".into();
            svc.spec.selector = [(label.to_string(), String::new())].into();
            store.put(Object::Service(svc));
        }
        let all_nodes: Vec<Node> = c.nodes.iter().chain(&c.failed).cloned().collect();
        let infos = snapshot(&all_nodes, &c.existing);
        let all: Vec<(&Node, &NodeInfo)> = all_nodes.iter().zip(&infos).collect();
        let filtered = &all[..c.nodes.len()];
        let (constraints, defaulted) = spread_constraints(&c.pod, &store);
        let got = topology_spread_scores(&c.pod, &constraints, defaulted, filtered, &all);
        assert_eq!(got, Some(c.want), "{}", c.name);
    }
}

// Port of TestFitScore (pkg/scheduler/framework/plugins/noderesources/fit_test.go): the
// LeastAllocated rows with the default resources. kubeplay runs only the default profile, so
// the RequestedToCapacityRatio and MostAllocated rows (6) and the two DRA extended-resource
// rows are left out: 3 of 11 rows. kubeplay computes requests the same way with or without
// PreScore, so "…LeastAllocated if PreScore is not called" checks the same function.
#[test]
fn fit_score_least_allocated() {
    let cap = |name: &str, cpu: &str, mem: &str| node_cap(name, &[("cpu", cpu), ("memory", mem)]);
    let req: &[&[(&str, &str)]] = &[&[("cpu", "1000"), ("memory", "2000")]];
    // `st.MakePod().Node("node1").Req(r).SidecarReq(r)`: a restartable init container too.
    let mut with_sidecar = pod_on("node1", req);
    with_sidecar.spec_mut().init_containers.push(Container {
        name: "sidecar".into(),
        restart_policy: Some("Always".into()),
        resources: Some(ResourceRequirements {
            requests: [
                ("cpu".to_string(), Quantity("1000".into())),
                ("memory".to_string(), Quantity("2000".into())),
            ]
            .into(),
            ..Default::default()
        }),
        ..Default::default()
    });
    type Case = (&'static str, Vec<Node>, Vec<Pod>, Vec<i64>);
    let existing = || {
        vec![
            pod_on("node1", &[&[("cpu", "2000"), ("memory", "4000")]]),
            pod_on("node2", &[&[("cpu", "1000"), ("memory", "2000")]]),
        ]
    };
    let cases: Vec<Case> = vec![
        (
            "test case for ScoringStrategy LeastAllocated",
            vec![cap("node1", "4000", "10000"), cap("node2", "6000", "10000")],
            existing(),
            vec![32, 63],
        ),
        (
            "test case for ScoringStrategy LeastAllocated if PreScore is not called",
            vec![cap("node1", "4000", "10000"), cap("node2", "6000", "10000")],
            existing(),
            vec![32, 63],
        ),
        (
            "test case for ScoringStrategy LeastAllocated with sidecar container",
            vec![cap("node1", "4000", "10000"), cap("node2", "4000", "10000")],
            vec![with_sidecar, pod_on("node2", req)],
            vec![32, 55],
        ),
    ];
    let pod = pod_req(req);
    for (name, nodes, pods, want) in cases {
        let infos = snapshot(&nodes, &pods);
        let got: Vec<i64> = infos
            .iter()
            .map(|ni| least_allocated_score(&pod, ni))
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

/// `framework.Resource{MilliCPU, Memory, EphemeralStorage, ScalarResources}` as
/// `newResourcePod` writes it into a container's requests (pods and ephemeral-storage included).
#[derive(Clone, Copy, Default)]
struct Usage<'a> {
    milli_cpu: i64,
    memory: i64,
    ephemeral: i64,
    scalar: Option<(&'a str, i64)>,
}

fn usage(milli_cpu: i64, memory: i64) -> Usage<'static> {
    Usage {
        milli_cpu,
        memory,
        ..Default::default()
    }
}

fn usage_containers(usages: &[Usage]) -> Vec<Container> {
    usages
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let mut r = ResourceRequirements::default();
            for (k, v) in [
                ("cpu", format!("{}m", u.milli_cpu)),
                ("memory", u.memory.to_string()),
                ("pods", "0".to_string()),
                ("ephemeral-storage", u.ephemeral.to_string()),
            ] {
                r.requests.insert(k.into(), Quantity(v));
            }
            if let Some((k, v)) = u.scalar {
                r.requests.insert(k.to_string(), Quantity(v.to_string()));
            }
            Container {
                name: format!("c{i}"),
                resources: Some(r),
                ..Default::default()
            }
        })
        .collect()
}

/// `newResourcePod(usage...)`.
fn resource_pod(usages: &[Usage]) -> Pod {
    let mut p = Pod::default();
    p.spec_mut().containers = usage_containers(usages);
    p
}

/// `newResourceInitPod(pod, usage...)`.
fn resource_init_pod(mut p: Pod, usages: &[Usage]) -> Pod {
    p.spec_mut().init_containers = usage_containers(usages);
    p
}

const EXT_A: &str = "example.com/aaa";
const EXT_B: &str = "example.com/bbb";
const KUBE_IO_A: &str = "kubernetes.io/something";
const KUBE_IO_B: &str = "subdomain.kubernetes.io/something";
const HUGE_PAGE_A: &str = "hugepages-2Mi";
const EXT_DRA: &str = "extended.resource.dra.io/something";

/// `makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA)` as a node
/// (capacity alike).
fn alloc_node(milli_cpu: i64, memory: i64, pods: i64, ext_a: i64, storage: i64, huge: i64) -> Node {
    let cpu = format!("{milli_cpu}m");
    let (memory, pods, ext_a, storage, huge) = (
        memory.to_string(),
        pods.to_string(),
        ext_a.to_string(),
        storage.to_string(),
        huge.to_string(),
    );
    node_cap(
        "",
        &[
            ("cpu", cpu.as_str()),
            ("memory", memory.as_str()),
            ("pods", pods.as_str()),
            (EXT_A, ext_a.as_str()),
            ("ephemeral-storage", storage.as_str()),
            (HUGE_PAGE_A, huge.as_str()),
        ],
    )
}

/// Runs NodeResourcesFit's Filter of `pod` on `node` holding `existing` and checks the status:
/// `None` fits, else (unresolvable, reasons).
fn check_fit(name: &str, node: &Node, existing: &[Pod], pod: &Pod, want: Option<(bool, &[&str])>) {
    let mut ni = NodeInfo::new(node);
    for p in existing {
        ni.add_pod(p);
    }
    let got = filter_node_resources_fit(pod, &ni).map(|st| {
        (
            st.code == Code::UnschedulableAndUnresolvable,
            st.reasons.clone(),
        )
    });
    let want = want.map(|(u, r)| (u, r.iter().map(|s| s.to_string()).collect::<Vec<_>>()));
    assert_eq!(got, want, "{name}");
}

fn insufficient(r: &str) -> String {
    format!("Insufficient {r}")
}

// Port of TestEnoughRequests (pkg/scheduler/framework/plugins/noderesources/fit_test.go), the
// newest table (requests above allocatable are UnschedulableAndUnresolvable). The status code
// and reasons are compared; kubeplay has no InsufficientResource list. Left out, as kubeplay
// does not model them: the NodeResourcesFitArgs rows ("skip checking ignored extended
// resource", "…via resource groups"), and the DRA extended-resource rows whose outcome depends on a
// DeviceClass ("extended resource backed by DRA", "…, nil draManager", "extended resource was
// backed by Device Plugin (Allocatable: 0)"). DRA rows whose outcome is the plain
// extended-resource path are kept. The pod overhead, pod-level resources and zero-quantity
// rows are in src/scheduler/upstream_fit_tests.rs.
#[test]
fn enough_requests() {
    let node = alloc_node(10, 20, 32, 5, 20, 5);
    let u = |cpu, mem, scalar| Usage {
        milli_cpu: cpu,
        memory: mem,
        ephemeral: 0,
        scalar,
    };
    let cpu_r = insufficient("cpu");
    let mem_r = insufficient("memory");
    let ext_a_r = insufficient(EXT_A);
    let ext_b_r = insufficient(EXT_B);
    let kio_a_r = insufficient(KUBE_IO_A);
    let kio_b_r = insufficient(KUBE_IO_B);
    let huge_r = insufficient(HUGE_PAGE_A);
    let dra_r = insufficient(EXT_DRA);
    type Case<'a> = (&'a str, Pod, Usage<'a>, Option<(bool, Vec<&'a str>)>);
    let cases: Vec<Case> = vec![
        ("no resources requested always fits", Pod::default(), usage(10, 20), None),
        (
            "too many resources fails",
            resource_pod(&[usage(1, 1)]),
            usage(10, 20),
            Some((false, vec![&cpu_r, &mem_r])),
        ),
        (
            "too many resources fails due to init container cpu",
            resource_init_pod(resource_pod(&[usage(1, 1)]), &[usage(3, 1)]),
            usage(8, 19),
            Some((false, vec![&cpu_r])),
        ),
        (
            "too many resources fails due to highest init container cpu",
            resource_init_pod(resource_pod(&[usage(1, 1)]), &[usage(3, 1), usage(2, 1)]),
            usage(8, 19),
            Some((false, vec![&cpu_r])),
        ),
        (
            "too many resources fails due to init container memory",
            resource_init_pod(resource_pod(&[usage(1, 1)]), &[usage(1, 3)]),
            usage(9, 19),
            Some((false, vec![&mem_r])),
        ),
        (
            "too many resources fails due to highest init container memory",
            resource_init_pod(resource_pod(&[usage(1, 1)]), &[usage(1, 3), usage(1, 2)]),
            usage(9, 19),
            Some((false, vec![&mem_r])),
        ),
        (
            "init container fits because it's the max, not sum, of containers and init containers",
            resource_init_pod(resource_pod(&[usage(1, 1)]), &[usage(1, 1)]),
            usage(9, 19),
            None,
        ),
        (
            "multiple init containers fit because it's the max, not sum, of containers and init containers",
            resource_init_pod(resource_pod(&[usage(1, 1)]), &[usage(1, 1), usage(1, 1)]),
            usage(9, 19),
            None,
        ),
        ("both resources fit", resource_pod(&[usage(1, 1)]), usage(5, 5), None),
        (
            "one resource memory fits",
            resource_pod(&[usage(2, 1)]),
            usage(9, 5),
            Some((false, vec![&cpu_r])),
        ),
        (
            "one resource cpu fits",
            resource_pod(&[usage(1, 2)]),
            usage(5, 19),
            Some((false, vec![&mem_r])),
        ),
        ("equal edge case", resource_pod(&[usage(5, 1)]), usage(5, 19), None),
        (
            "equal edge case for init container",
            resource_init_pod(resource_pod(&[usage(4, 1)]), &[usage(5, 1)]),
            usage(5, 19),
            None,
        ),
        (
            "extended resource fits",
            resource_pod(&[u(0, 0, Some((EXT_A, 1)))]),
            usage(0, 0),
            None,
        ),
        (
            "extended resource fits for init container",
            resource_init_pod(resource_pod(&[usage(0, 0)]), &[u(0, 0, Some((EXT_A, 1)))]),
            usage(0, 0),
            None,
        ),
        (
            "extended resource capacity enforced",
            resource_pod(&[u(1, 1, Some((EXT_A, 10)))]),
            u(0, 0, Some((EXT_A, 0))),
            Some((true, vec![&ext_a_r])),
        ),
        (
            "extended resource capacity enforced for init container",
            resource_init_pod(resource_pod(&[usage(0, 0)]), &[u(1, 1, Some((EXT_A, 10)))]),
            u(0, 0, Some((EXT_A, 0))),
            Some((true, vec![&ext_a_r])),
        ),
        (
            "extended resource allocatable enforced",
            resource_pod(&[u(1, 1, Some((EXT_A, 1)))]),
            u(0, 0, Some((EXT_A, 5))),
            Some((false, vec![&ext_a_r])),
        ),
        (
            "extended resource allocatable enforced for init container",
            resource_init_pod(resource_pod(&[usage(0, 0)]), &[u(1, 1, Some((EXT_A, 1)))]),
            u(0, 0, Some((EXT_A, 5))),
            Some((false, vec![&ext_a_r])),
        ),
        (
            "extended resource allocatable enforced for multiple containers",
            resource_pod(&[u(1, 1, Some((EXT_A, 3))), u(1, 1, Some((EXT_A, 3)))]),
            u(0, 0, Some((EXT_A, 2))),
            Some((true, vec![&ext_a_r])),
        ),
        (
            "extended resource allocatable admits multiple init containers",
            resource_init_pod(
                resource_pod(&[usage(0, 0)]),
                &[u(1, 1, Some((EXT_A, 3))), u(1, 1, Some((EXT_A, 3)))],
            ),
            u(0, 0, Some((EXT_A, 2))),
            None,
        ),
        (
            "extended resource allocatable enforced for multiple init containers",
            resource_init_pod(
                resource_pod(&[usage(0, 0)]),
                &[u(1, 1, Some((EXT_A, 6))), u(1, 1, Some((EXT_A, 3)))],
            ),
            u(0, 0, Some((EXT_A, 2))),
            Some((true, vec![&ext_a_r])),
        ),
        (
            "extended resource allocatable enforced for unknown resource",
            resource_pod(&[u(1, 1, Some((EXT_B, 1)))]),
            usage(0, 0),
            Some((true, vec![&ext_b_r])),
        ),
        (
            "extended resource allocatable enforced for unknown resource for init container",
            resource_init_pod(resource_pod(&[usage(0, 0)]), &[u(1, 1, Some((EXT_B, 1)))]),
            usage(0, 0),
            Some((true, vec![&ext_b_r])),
        ),
        (
            "kubernetes.io resource capacity enforced",
            resource_pod(&[u(1, 1, Some((KUBE_IO_A, 10)))]),
            usage(0, 0),
            Some((true, vec![&kio_a_r])),
        ),
        (
            "kubernetes.io resource capacity enforced for init container",
            resource_init_pod(resource_pod(&[usage(0, 0)]), &[u(1, 1, Some((KUBE_IO_B, 10)))]),
            usage(0, 0),
            Some((true, vec![&kio_b_r])),
        ),
        (
            "hugepages resource capacity enforced",
            resource_pod(&[u(1, 1, Some((HUGE_PAGE_A, 10)))]),
            u(0, 0, Some((HUGE_PAGE_A, 0))),
            Some((true, vec![&huge_r])),
        ),
        (
            "hugepages resource capacity enforced for init container",
            resource_init_pod(resource_pod(&[usage(0, 0)]), &[u(1, 1, Some((HUGE_PAGE_A, 10)))]),
            u(0, 0, Some((HUGE_PAGE_A, 0))),
            Some((true, vec![&huge_r])),
        ),
        (
            "hugepages resource allocatable enforced for multiple containers",
            resource_pod(&[u(1, 1, Some((HUGE_PAGE_A, 3))), u(1, 1, Some((HUGE_PAGE_A, 3)))]),
            u(0, 0, Some((HUGE_PAGE_A, 2))),
            Some((true, vec![&huge_r])),
        ),
        (
            "skip checking extended resource request with quantity zero via resource groups",
            resource_pod(&[u(1, 1, Some((EXT_A, 0)))]),
            u(0, 0, Some((EXT_A, 6))),
            None,
        ),
        (
            // podLevelResourcesEnabled, but the pod has no pod-level resources.
            "skip checking resource request with quantity zero",
            resource_pod(&[u(0, 0, Some((EXT_A, 1)))]),
            u(20, 30, Some((EXT_A, 1))),
            None,
        ),
        (
            // draExtendedResourceEnabled; example.com/aaa has no DeviceClass.
            "extended resource backed by device plugin",
            resource_pod(&[u(0, 0, Some((EXT_A, 1)))]),
            usage(0, 0),
            None,
        ),
        (
            "extended resource backed by DRA not enabled",
            resource_pod(&[u(1, 1, Some((EXT_DRA, 1)))]),
            usage(0, 0),
            Some((true, vec![&dra_r])),
        ),
        (
            // draExtendedResourceEnabled; example.com/bbb has no DeviceClass.
            "extended resource NOT backed by DRA",
            resource_pod(&[u(1, 1, Some((EXT_B, 1)))]),
            usage(0, 0),
            Some((true, vec![&ext_b_r])),
        ),
        (
            // draExtendedResourceEnabled; example.com/aaa has no DeviceClass.
            "extended resource was backed by Device Plugin (Allocatable: 0), global cache",
            resource_pod(&[u(0, 0, Some((EXT_A, 1)))]),
            u(0, 0, Some((EXT_A, 0))),
            None,
        ),
    ];
    assert_eq!(cases.len(), 35);
    for (name, pod, existing, want) in cases {
        let existing = [resource_pod(&[existing])];
        check_fit(
            name,
            &node,
            &existing,
            &pod,
            want.as_ref().map(|(u, r)| (*u, r.as_slice())),
        );
    }
}

// Port of TestNotEnoughRequests (pkg/scheduler/framework/plugins/noderesources/fit_test.go):
// a node with room for one pod that already runs one.
#[test]
fn not_enough_requests() {
    let node = alloc_node(10, 20, 1, 0, 0, 0);
    let cases = [
        (
            "even without specified resources, predicate fails when there's no space for additional pod",
            Pod::default(),
            usage(10, 20),
        ),
        (
            "even if both resources fit, predicate fails when there's no space for additional pod",
            resource_pod(&[usage(1, 1)]),
            usage(5, 5),
        ),
        (
            "even for equal edge case, predicate fails when there's no space for additional pod",
            resource_pod(&[usage(5, 1)]),
            usage(5, 19),
        ),
        (
            "even for equal edge case, predicate fails when there's no space for additional pod due to init container",
            resource_init_pod(resource_pod(&[usage(5, 1)]), &[usage(5, 1)]),
            usage(5, 19),
        ),
    ];
    for (name, pod, existing) in cases {
        let existing = [resource_pod(&[existing])];
        check_fit(
            name,
            &node,
            &existing,
            &pod,
            Some((false, &["Too many pods"])),
        );
    }
}

// Port of TestStorageRequests (pkg/scheduler/framework/plugins/noderesources/fit_test.go):
// 3 of 4 rows here; "storage ephemeral local storage request exceeds allocatable" is in
// src/scheduler/upstream_fit_tests.rs.
#[test]
fn storage_requests() {
    let node = alloc_node(10, 20, 32, 5, 20, 5);
    let eph = |e| Usage {
        ephemeral: e,
        ..Default::default()
    };
    let cases = [
        (
            "empty storage requested, and pod fits",
            resource_pod(&[usage(1, 1)]),
            usage(2, 10),
        ),
        (
            "ephemeral local storage is sufficient",
            resource_init_pod(resource_pod(&[eph(5)]), &[]),
            Usage {
                ephemeral: 10,
                ..usage(2, 2)
            },
        ),
        ("pod fits", resource_pod(&[eph(10)]), usage(2, 2)),
    ];
    for (name, pod, existing) in cases {
        let existing = [resource_pod(&[existing])];
        check_fit(name, &node, &existing, &pod, None);
    }
}

// Port of TestRestartableInitContainers (pkg/scheduler/framework/plugins/noderesources/fit_test.go):
// SidecarContainers is GA and locked on in 1.34, so the row "not allow pod with restartable
// init containers if sidecar containers is disabled" is left out; "allow pod without
// restartable init containers if sidecar containers is disabled" is the same check as its
// enabled twin. 5 of 6 rows.
#[test]
fn restartable_init_containers() {
    let node = alloc_node(2, 0, 1, 0, 0, 0);
    let cpu = |m: i64| ResourceRequirements {
        requests: [("cpu".to_string(), Quantity(format!("{m}m")))].into(),
        ..Default::default()
    };
    let new_pod = || {
        let mut p = Pod::default();
        p.spec_mut().containers.push(Container {
            name: "regular".into(),
            ..Default::default()
        });
        p
    };
    let with_sidecar = |request: Option<i64>, sidecar: Option<i64>| {
        let mut p = Pod::default();
        p.spec_mut().containers.push(Container {
            name: "regular".into(),
            resources: request.map(cpu),
            ..Default::default()
        });
        p.spec_mut().init_containers.push(Container {
            name: "restartable-init".into(),
            restart_policy: Some("Always".into()),
            resources: sidecar.map(cpu),
            ..Default::default()
        });
        p
    };
    type Case<'a> = (&'a str, Pod, Option<(bool, &'a [&'a str])>);
    let cases: Vec<Case> = vec![
        (
            "allow pod without restartable init containers if sidecar containers is disabled",
            new_pod(),
            None,
        ),
        (
            "allow pod without restartable init containers if sidecar containers is enabled",
            new_pod(),
            None,
        ),
        (
            "allow pod with restartable init containers if sidecar containers is enabled",
            with_sidecar(None, None),
            None,
        ),
        (
            "allow pod if the total requested resources do not exceed the node's allocatable resources",
            with_sidecar(Some(1), Some(1)),
            None,
        ),
        (
            "not allow pod if the total requested resources do exceed the node's allocatable resources",
            with_sidecar(Some(1), Some(2)),
            Some((true, &["Insufficient cpu"])),
        ),
    ];
    for (name, pod, want) in cases {
        check_fit(name, &node, &[], &pod, want);
    }
}

/// `labels.Selector.String()` of an equality-only selector: `k=v` joined by commas, by key.
fn selector_string(sel: &Selector) -> String {
    let Selector::Requirements(reqs) = sel else {
        return "<nothing>".into();
    };
    let mut parts: Vec<(String, String)> = reqs
        .iter()
        .map(|r| match r {
            crate::api::Requirement::In(k, vs) if vs.len() == 1 => {
                (k.clone(), format!("{k}={}", vs[0]))
            }
            other => panic!("not an equality requirement: {other:?}"),
        })
        .collect();
    parts.sort();
    parts
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(",")
}

fn object_from(v: serde_json::Value) -> Object {
    let kind = v["kind"].as_str().unwrap().to_string();
    match kind.as_str() {
        "Service" => Object::Service(serde_json::from_value(v).unwrap()),
        "ReplicaSet" => Object::ReplicaSet(serde_json::from_value(v).unwrap()),
        "ReplicationController" => {
            Object::ReplicationController(serde_json::from_value(v).unwrap())
        }
        "StatefulSet" => Object::StatefulSet(serde_json::from_value(v).unwrap()),
        k => panic!("{k}"),
    }
}

// Port of TestDefaultSelector (pkg/scheduler/framework/plugins/helper/spread_test.go): the
// Service selector merged with the controller's. As upstream, the fake listers keep what
// earlier rows added.
#[test]
fn default_selector_table() {
    let ns = "test";
    let svc = serde_json::json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "test-service", "namespace": ns},
        "spec": {"selector": {"podLabelKey": "podLabelVal"}}});
    let rs = serde_json::json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "test-replicaset", "namespace": ns},
        "spec": {"selector": {"matchLabels": {"replicaSetLabelKey": "replicaSetLabelVal"}}}});
    let rc = serde_json::json!({"apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "test-replicationcontroller", "namespace": ns},
        "spec": {"selector": {"replicationLabelKey": "replicationLabelVal"}}});
    let sts = serde_json::json!({"apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": "test-statefulset", "namespace": ns},
        "spec": {"selector": {"matchLabels": {"statefulSetLabelKey": "statefulSetLabelVal"}}}});
    let pod = |owner: Option<(&str, &str, &str)>| {
        let mut p = Pod::default();
        p.metadata.name = "test-pod".into();
        p.metadata.namespace = ns.into();
        p.metadata.labels = [("podLabelKey".to_string(), "podLabelVal".to_string())].into();
        if let Some((api_version, kind, name)) = owner {
            p.metadata.owner_references = vec![crate::api::OwnerReference {
                api_version: api_version.into(),
                kind: kind.into(),
                name: name.into(),
                uid: String::new(),
                controller: Some(true),
                block_owner_deletion: None,
            }]
            .into();
        }
        p
    };
    let cases = [
        ("DefaultSelector for default case", pod(None), vec![], ""),
        (
            "DefaultSelector for no OwnerReference pod case",
            pod(None),
            vec![svc.clone()],
            "podLabelKey=podLabelVal",
        ),
        (
            "DefaultSelector for ReplicaSet OwnerReference pod case",
            pod(Some(("apps/v1", "ReplicaSet", "test-replicaset"))),
            vec![svc.clone(), rs],
            "podLabelKey=podLabelVal,replicaSetLabelKey=replicaSetLabelVal",
        ),
        (
            "DefaultSelector for ReplicationController OwnerReference pod case",
            pod(Some((
                "v1",
                "ReplicationController",
                "test-replicationcontroller",
            ))),
            vec![svc.clone(), rc],
            "podLabelKey=podLabelVal,replicationLabelKey=replicationLabelVal",
        ),
        (
            "DefaultSelector for StatefulSet OwnerReference pod case",
            pod(Some(("apps/v1", "StatefulSet", "test-statefulset"))),
            vec![svc, sts],
            "podLabelKey=podLabelVal,statefulSetLabelKey=statefulSetLabelVal",
        ),
    ];
    let mut store = Store::new();
    for (name, pod, add, want) in cases {
        for o in add {
            store.put(object_from(o));
        }
        assert_eq!(
            selector_string(&default_selector(&pod, &store)),
            want,
            "{name}"
        );
    }
}

// Port of TestGetPodServices (pkg/scheduler/framework/plugins/helper/spread_test.go), through
// default_selector (kubeplay has no separate GetPodServices): pod-i is selected by service-i
// alone, pods 3 and 4 by none.
#[test]
fn get_pod_services() {
    let mut store = Store::new();
    for i in 0..3 {
        store.put(object_from(
            serde_json::json!({"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": format!("service-{i}"), "namespace": "test"},
            "spec": {"selector": {"app": format!("test-{i}")}}}),
        ));
    }
    for i in 0..5 {
        let mut p = Pod::default();
        p.metadata.name = format!("test-pod-{i}");
        p.metadata.namespace = "test".into();
        p.metadata.labels = [
            ("app".to_string(), format!("test-{i}")),
            ("label".to_string(), format!("label-{i}")),
        ]
        .into();
        let want = if i < 3 {
            format!("app=test-{i}")
        } else {
            String::new()
        };
        assert_eq!(
            selector_string(&default_selector(&p, &store)),
            want,
            "GetPodServices for pod-{i}"
        );
    }
}

// Port of TestBackoffQueue_calculateBackoffDuration (pkg/scheduler/backend/queue/backoff_queue_test.go):
// upstream's durations are nanoseconds, kubeplay's milliseconds; the arithmetic is on the
// counts alike.
#[test]
fn backoff_queue_calculate_backoff_duration() {
    let d = Duration::from_millis;
    let cases = [
        ("no backoff", d(1), d(32), 0, d(0)),
        ("normal", d(1), d(32), 16, d(32)),
        (
            "overflow_32bit",
            d(1),
            d(i32::MAX as i64),
            32,
            d(i32::MAX as i64),
        ),
        ("overflow_64bit", d(1), d(i64::MAX), 64, d(i64::MAX)),
    ];
    for (name, initial, max, attempts, want) in cases {
        assert_eq!(
            backoff_duration_with(initial, max, attempts),
            want,
            "{name}"
        );
    }
}

// Port of TestFitError_Error (pkg/scheduler/framework/types_test.go): 6 of 8 rows. The two
// "nodes failed Prefilter plugin…" rows are left out: kubeplay's plugins never reject in
// PreFilter, so fit_error_message has no PreFilterMsg.
#[test]
fn fit_error_error() {
    let st = |r: &str| Status::new(Code::Unschedulable, "X", vec![r.to_string()]);
    let f1 = "Node(s) failed Filter plugin FalseFilter-1";
    let f2 = "Node(s) failed Filter plugin FalseFilter-2";
    let post = "Error running PostFilter plugin FailedPostFilter";
    let cases = [
        (
            "nodes failed one Filter plugin with an empty PostFilterMsg",
            3,
            vec![st(f1), st(f1), st(f1)],
            "",
            "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.",
        ),
        (
            "nodes failed one Filter plugin with a non-empty PostFilterMsg",
            3,
            vec![st(f1), st(f1), st(f1)],
            post,
            "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter",
        ),
        (
            "nodes failed two Filter plugins with an empty PostFilterMsg",
            3,
            vec![st(f1), st(f1), st(f2)],
            "",
            "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.",
        ),
        (
            "nodes failed two Filter plugins with a non-empty PostFilterMsg",
            3,
            vec![st(f1), st(f1), st(f2)],
            post,
            "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter",
        ),
        (
            "failed to Permit on node",
            1,
            vec![st("Node failed Permit plugin Permit-1")],
            "",
            "0/1 nodes are available: 1 Node failed Permit plugin Permit-1.",
        ),
        (
            "failed to Reserve on node",
            1,
            vec![st("Node failed Reserve plugin Reserve-1")],
            "",
            "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.",
        ),
    ];
    for (name, num_all_nodes, statuses, post_filter, want) in cases {
        let refs: Vec<&Status> = statuses.iter().collect();
        assert_eq!(
            fit_error_message(num_all_nodes, &refs, post_filter),
            want,
            "{name}"
        );
    }
}

// Port of TestPodInfoCalculateResources (pkg/scheduler/framework/types_test.go): the request
// and the non-zero request (scoring) of a pod, through pod_requests. 4 of 17 rows: the pod-level
// resources rows are in src/scheduler/upstream_fit_tests.rs; the DRA node-allocatable claim
// rows (claims) are left out; "DRA gate disabled, with node allocatable resource claim" is kept, as
// with the gate off the claim adds nothing (kubeplay never adds claims).
#[test]
fn pod_info_calculate_resources() {
    let mi = 1024 * 1024;
    let with = |reqs: &[(&str, &str)]| -> Vec<(&'static str, String)> {
        reqs.iter()
            .map(|(k, v)| (if *k == "cpu" { "cpu" } else { "memory" }, v.to_string()))
            .collect()
    };
    // (name, per-container requests, (milliCPU, memory), (Non0CPU, Non0Mem))
    type Case = (
        &'static str,
        Vec<Vec<(&'static str, String)>>,
        (i128, i128),
        (i128, i128),
    );
    let cases: Vec<Case> = vec![
        (
            "requestless container",
            vec![vec![]],
            (0, 0),
            (DEFAULT_MILLI_CPU_REQUEST, DEFAULT_MEMORY_REQUEST),
        ),
        (
            "1X container with requests",
            vec![with(&[("cpu", "500m"), ("memory", "500Mi")])],
            (500, 500 * mi),
            (500, 500 * mi),
        ),
        (
            "2X container with requests",
            vec![
                with(&[("cpu", "500m"), ("memory", "500Mi")]),
                with(&[("cpu", "700m"), ("memory", "800Mi")]),
            ],
            (1200, 1300 * mi),
            (1200, 1300 * mi),
        ),
        (
            "DRA gate disabled, with node allocatable resource claim",
            vec![with(&[("cpu", "500m"), ("memory", "500Mi")])],
            (500, 500 * mi),
            (500, 500 * mi),
        ),
    ];
    for (name, containers, want, want_non0) in cases {
        let mut pod = Pod::default();
        for (i, reqs) in containers.into_iter().enumerate() {
            let mut r = ResourceRequirements::default();
            for (k, v) in reqs {
                r.requests.insert(k.to_string(), Quantity(v));
            }
            pod.spec_mut().containers.push(Container {
                name: format!("c{i}"),
                resources: Some(r),
                ..Default::default()
            });
        }
        let got = pod_requests(&pod, false);
        let non0 = pod_requests(&pod, true);
        assert_eq!((got.milli_cpu, got.memory), want, "{name}");
        assert!(got.scalar.is_empty(), "{name}");
        assert_eq!((non0.milli_cpu, non0.memory), want_non0, "{name}");
    }
}

// Port of TestPreferredSchedulingTermsScore
// (staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go),
// the rows that score: a term of weight 0 is left out (its invalid matchFields never matter),
// and only the matching terms' weights add up. The "invalid field selector and label selector"
// row is an error from NewPreferredSchedulingTerms, which validation reports here instead.
// Plus: an empty preferred term is left out too (isEmptyNodeSelectorTerm), so it does not
// raise every node's score before normalisation.
#[test]
fn test_preferred_scheduling_terms_score() {
    let req = |key: &str, op: &str, values: &[&str]| NodeSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: values.iter().map(|v| v.to_string()).collect(),
    };
    let term =
        |weight: i64, exprs: Vec<NodeSelectorRequirement>, fields: Vec<NodeSelectorRequirement>| {
            PreferredSchedulingTerm {
                weight,
                preference: NodeSelectorTerm {
                    match_expressions: exprs,
                    match_fields: fields,
                },
            }
        };
    let mut node = Node::default();
    node.metadata.name = "host_1".into();

    let zero_weight = [term(
        0,
        vec![],
        vec![req("metadata.name", "In", &["host_1", "host_2"])],
    )];
    assert_eq!(preferred_scheduling_terms_score(&zero_weight, &node), 0);

    node.metadata
        .labels
        .insert("label_1".into(), "label_1_val".into());
    let three = [
        term(5, vec![], vec![req("metadata.name", "In", &["host_1"])]),
        term(
            7,
            vec![req("unknown_label", "In", &["unknown_label_val"])],
            vec![],
        ),
        term(11, vec![req("label_1", "In", &["label_1_val"])], vec![]),
    ];
    assert_eq!(preferred_scheduling_terms_score(&three, &node), 16);

    let with_empty = [
        term(3, vec![], vec![]),
        term(11, vec![req("label_1", "In", &["label_1_val"])], vec![]),
    ];
    assert_eq!(preferred_scheduling_terms_score(&with_empty, &node), 11);
    let mut other = Node::default();
    other.metadata.name = "host_2".into();
    assert_eq!(preferred_scheduling_terms_score(&with_empty, &other), 0);
}
