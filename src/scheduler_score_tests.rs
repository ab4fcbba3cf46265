//! Ports of upstream kube-scheduler plugin score tables. Each test names the upstream test and
//! file; rows needing configuration or features kubeplay does not model are left out with a
//! comment saying why.

use super::*;
use crate::api::{Container, Quantity, ResourceRequirements};

fn taint(key: &str, value: &str, effect: &str) -> Taint {
    Taint {
        key: key.into(),
        value: value.into(),
        effect: effect.into(),
        time_added: None,
    }
}

fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
    Toleration {
        key: key.into(),
        operator: op.into(),
        value: value.into(),
        effect: effect.into(),
        toleration_seconds: None,
    }
}

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

/// `cache.NewSnapshot(pods, nodes)`: one NodeInfo per node with the pods naming it.
fn snapshot<'a>(nodes: &[Node], pods: &'a [Pod]) -> Vec<NodeInfo<'a>> {
    nodes
        .iter()
        .map(|n| {
            let mut ni = NodeInfo::new(n);
            for p in pods.iter().filter(|p| p.spec.node_name == n.metadata.name) {
                ni.add_pod(p);
            }
            ni
        })
        .collect()
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
