//! Upstream NodeResourcesFit / pod-request tests not ported elsewhere: the pod overhead and
//! pod-level resources rows of TestEnoughRequests, the ephemeral-storage row of
//! TestStorageRequests, TestIsFit, the pod-level rows of TestPodInfoCalculateResources,
//! TestGetNonZeroRequest / TestGetLeastRequestResource and TestMoreImportantPod.

use super::*;
use crate::api::{Container, Quantity, ResourceRequirements};

const EXT_A: &str = "example.com/aaa";
const HUGE_PAGE_A: &str = "hugepages-2Mi";

fn list(res: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
    res.iter()
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect()
}

/// `framework.Resource{...}.ResourceList()`: cpu, memory, pods and ephemeral-storage always
/// written (zero when unset), plus the scalar resources.
fn resource_list(milli_cpu: i64, memory: i64, scalar: &[(&str, i64)]) -> ResourceRequirements {
    let mut requests = list(&[
        ("cpu", &format!("{milli_cpu}m")),
        ("memory", &memory.to_string()),
        ("pods", "0"),
        ("ephemeral-storage", "0"),
    ]);
    for (k, v) in scalar {
        requests.insert(k.to_string(), Quantity(v.to_string()));
    }
    ResourceRequirements {
        requests,
        ..Default::default()
    }
}

fn container(i: usize, r: ResourceRequirements) -> Container {
    Container {
        name: format!("c{i}"),
        resources: Some(r),
        ..Default::default()
    }
}

/// `newResourcePod(usage...)`.
fn resource_pod(usages: Vec<ResourceRequirements>) -> Pod {
    let mut p = Pod::default();
    p.spec_mut().containers = usages
        .into_iter()
        .enumerate()
        .map(|(i, r)| container(i, r))
        .collect();
    p
}

/// `newPodLevelResourcesPod(pod, requirements)`.
fn with_pod_level(mut p: Pod, requests: &[(&str, &str)]) -> Pod {
    p.spec_mut().resources = Some(ResourceRequirements {
        requests: list(requests),
        ..Default::default()
    });
    p
}

/// `newResourceOverheadPod(pod, overhead)`.
fn with_overhead(mut p: Pod, overhead: &[(&str, &str)]) -> Pod {
    let o: serde_json::Map<String, serde_json::Value> = overhead
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
        .collect();
    p.spec_mut()
        .extra
        .insert("overhead".into(), serde_json::Value::Object(o));
    p
}

/// `makeAllocatableResources(10, 20, 32, 5, 20, 5)` as fit_test.go's node (capacity alike).
fn fit_node() -> Node {
    let mut n = Node::default();
    let res = list(&[
        ("cpu", "10m"),
        ("memory", "20"),
        ("pods", "32"),
        (EXT_A, "5"),
        ("ephemeral-storage", "20"),
        (HUGE_PAGE_A, "5"),
    ]);
    n.status.capacity = res.clone();
    n.status.allocatable = res;
    n
}

/// NodeResourcesFit's Filter of `pod` on `node` holding `existing`: `None` fits, else
/// (unresolvable, reasons).
fn fit(node: &Node, existing: &[Pod], pod: &Pod) -> Option<(bool, Vec<String>)> {
    let mut ni = NodeInfo::new(node);
    for p in existing {
        ni.add_pod(p);
    }
    filter_node_resources_fit(pod, &ni)
        .map(|st| (st.code == Code::UnschedulableAndUnresolvable, st.reasons))
}

fn reasons(unresolvable: bool, r: &[&str]) -> Option<(bool, Vec<String>)> {
    Some((unresolvable, r.iter().map(|s| s.to_string()).collect()))
}

// Ported from TestEnoughRequests (pkg/scheduler/framework/plugins/noderesources/fit_test.go):
// the rows src/scheduler_score_tests.rs leaves out that kubeplay models — pod overhead
// (`spec.overhead` is added by PodRequests) and pod-level resources (PodLevelResources is on
// by default in 1.35), plus the zero-quantity extended resource row. The
// NodeResourcesFitArgs-only rows stay out (kubeplay runs the default profile's arguments).
#[test]
fn enough_requests_overhead_and_pod_level_rows() {
    let node = fit_node();
    let r = |cpu, mem| resource_list(cpu, mem, &[]);
    type Case = (&'static str, Pod, Vec<Pod>, Option<(bool, Vec<String>)>);
    let cases: Vec<Case> =
        vec![
        (
            "resources + pod overhead fits",
            with_overhead(resource_pod(vec![r(1, 1)]), &[("cpu", "3m"), ("memory", "13")]),
            vec![resource_pod(vec![r(5, 5)])],
            None,
        ),
        (
            "requests + overhead does not fit for memory",
            with_overhead(resource_pod(vec![r(1, 1)]), &[("cpu", "1m"), ("memory", "15")]),
            vec![resource_pod(vec![r(5, 5)])],
            reasons(false, &["Insufficient memory"]),
        ),
        (
            "skip checking extended resource request with quantity zero via resource groups",
            resource_pod(vec![resource_list(1, 1, &[(EXT_A, 0)])]),
            vec![resource_pod(vec![resource_list(0, 0, &[(EXT_A, 6)])])],
            None,
        ),
        (
            "skip checking resource request with quantity zero",
            resource_pod(vec![resource_list(0, 0, &[(EXT_A, 1)])]),
            vec![resource_pod(vec![resource_list(20, 30, &[(EXT_A, 1)])])],
            None,
        ),
        (
            "both pod-level and container-level resources fit",
            with_pod_level(resource_pod(vec![r(1, 1)]), &[("cpu", "1m"), ("memory", "2")]),
            vec![resource_pod(vec![r(5, 5)])],
            None,
        ),
        (
            "pod-level cpu resource not fit",
            with_pod_level(resource_pod(vec![r(1, 1)]), &[("cpu", "7m"), ("memory", "2")]),
            vec![resource_pod(vec![r(5, 5)])],
            reasons(false, &["Insufficient cpu"]),
        ),
        (
            "pod-level memory resource not fit",
            with_pod_level(resource_pod(vec![r(1, 1)]), &[("cpu", "3m"), ("memory", "2")]),
            vec![resource_pod(vec![r(5, 19)])],
            reasons(false, &["Insufficient memory"]),
        ),
        (
            "pod-level hugepages resource fit",
            with_pod_level(
                resource_pod(vec![]),
                &[("cpu", "3m"), ("memory", "2"), (HUGE_PAGE_A, "5")],
            ),
            vec![],
            None,
        ),
        (
            "both pod-level and container-level hugepages resource fit",
            with_pod_level(
                resource_pod(vec![resource_list(1, 1, &[(HUGE_PAGE_A, 3)])]),
                &[("cpu", "3m"), ("memory", "2"), (HUGE_PAGE_A, "5")],
            ),
            vec![],
            None,
        ),
        (
            "pod-level hugepages resource not fit",
            with_pod_level(
                resource_pod(vec![]),
                &[("cpu", "3m"), ("memory", "2"), (HUGE_PAGE_A, "10")],
            ),
            vec![],
            reasons(true, &["Insufficient hugepages-2Mi"]),
        ),
        (
            "one pod-level cpu resource fits and all init and non-init containers resources fit",
            {
                let mut p = with_pod_level(
                    resource_pod(vec![r(1, 1)]),
                    &[("cpu", "3m"), ("memory", "2")],
                );
                p.spec_mut().init_containers = vec![container(9, r(1, 1))];
                p
            },
            vec![resource_pod(vec![r(5, 19)])],
            reasons(false, &["Insufficient memory"]),
        ),
    ];
    for (name, pod, existing, want) in cases {
        assert_eq!(fit(&node, &existing, &pod), want, "{name}");
    }
}

// Ported from TestStorageRequests (pkg/scheduler/framework/plugins/noderesources/fit_test.go):
// the row src/scheduler_score_tests.rs left out, now that NodeResourcesFit checks
// ephemeral-storage (25 requested against 20 allocatable: preemption cannot help).
#[test]
fn storage_requests_exceeding_allocatable() {
    let node = fit_node();
    let eph = |e: i64| {
        let mut r = resource_list(0, 0, &[]);
        r.requests
            .insert("ephemeral-storage".into(), Quantity(e.to_string()));
        r
    };
    let existing = [resource_pod(vec![resource_list(2, 2, &[])])];
    assert_eq!(
        fit(&node, &existing, &resource_pod(vec![eph(25)])),
        reasons(true, &["Insufficient ephemeral-storage"]),
        "storage ephemeral local storage request exceeds allocatable"
    );
    assert_eq!(
        fit(&node, &existing, &resource_pod(vec![eph(10)])),
        None,
        "pod fits"
    );
    // Used ephemeral storage counts: 10 of 20 in use leaves 10, so 15 does not fit (but a
    // smaller node could be emptied by preemption, so it is resolvable).
    let used = [resource_pod(vec![eph(10)])];
    assert_eq!(
        fit(&node, &used, &resource_pod(vec![eph(15)])),
        reasons(false, &["Insufficient ephemeral-storage"]),
        "used ephemeral storage is accounted"
    );
    // Reasons keep fitsRequest's order: cpu, memory, ephemeral-storage, then scalars.
    let big = resource_pod(vec![{
        let mut r = resource_list(11, 21, &[(EXT_A, 6)]);
        r.requests
            .insert("ephemeral-storage".into(), Quantity("21".into()));
        r
    }]);
    assert_eq!(
        fit(&node, &[], &big),
        reasons(
            true,
            &[
                "Insufficient cpu",
                "Insufficient memory",
                "Insufficient ephemeral-storage",
                "Insufficient example.com/aaa",
            ]
        ),
        "reason order"
    );
}

/// `st.MakeNode().Capacity(res)`: capacity and allocatable, with `pods: 32` by default.
fn capacity_node(res: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    let mut l = list(&[("pods", "32")]);
    l.extend(list(res));
    n.status.capacity = l.clone();
    n.status.allocatable = l;
    n
}

// Ported from TestIsFit (pkg/scheduler/framework/plugins/noderesources/fit_test.go): the pod
// on an empty node built from the node object. The "nil node" row has no counterpart (a
// kubeplay NodeInfo always has a node).
#[test]
fn is_fit() {
    let req = |res: &[(&str, &str)]| {
        resource_pod(vec![ResourceRequirements {
            requests: list(res),
            ..Default::default()
        }])
    };
    let cases = [
        (
            "insufficient resource",
            req(&[("cpu", "2")]),
            capacity_node(&[("cpu", "1")]),
            false,
        ),
        (
            "sufficient resource",
            req(&[("cpu", "1")]),
            capacity_node(&[("cpu", "2")]),
            true,
        ),
        (
            "insufficient pod-level resource",
            with_pod_level(Pod::default(), &[("cpu", "2")]),
            capacity_node(&[("cpu", "1")]),
            false,
        ),
        (
            "sufficient pod-level resource",
            with_pod_level(Pod::default(), &[("cpu", "2")]),
            capacity_node(&[("cpu", "2")]),
            true,
        ),
        (
            "sufficient pod-level resource hugepages",
            with_pod_level(Pod::default(), &[(HUGE_PAGE_A, "2Mi")]),
            capacity_node(&[(HUGE_PAGE_A, "2Mi")]),
            true,
        ),
        (
            "insufficient pod-level resource hugepages",
            with_pod_level(Pod::default(), &[(HUGE_PAGE_A, "4Mi")]),
            capacity_node(&[(HUGE_PAGE_A, "2Mi")]),
            false,
        ),
    ];
    for (name, pod, node, want) in cases {
        let ni = NodeInfo::new(&node);
        assert_eq!(
            filter_node_resources_fit(&pod, &ni).is_none(),
            want,
            "{name}"
        );
    }
}

// `SetNode`: the NodeInfo's allocatable is `NewResource(node.Status.Allocatable)`; a resource
// the node lists only under capacity is not allocatable. (An empty allocatable is defaulted
// to the capacity by the API server, SetDefaults_NodeStatus.)
#[test]
fn node_info_allocatable_is_the_node_allocatable() {
    let mut node = Node::default();
    node.status.capacity = list(&[
        ("cpu", "4"),
        ("memory", "4Gi"),
        ("pods", "10"),
        (EXT_A, "3"),
    ]);
    node.status.allocatable = list(&[("cpu", "3"), ("memory", "3Gi"), ("pods", "10")]);
    let ni = NodeInfo::new(&node);
    assert_eq!(ni.allocatable.milli_cpu, 3000);
    assert_eq!(ni.allocatable.memory, 3 * 1024 * 1024 * 1024);
    assert_eq!(ni.allocatable.scalar.get(EXT_A), None);
    let pod = resource_pod(vec![resource_list(0, 0, &[(EXT_A, 1)])]);
    assert_eq!(
        filter_node_resources_fit(&pod, &ni).map(|s| (s.code, s.reasons)),
        Some((
            Code::UnschedulableAndUnresolvable,
            vec!["Insufficient example.com/aaa".to_string()]
        ))
    );
    // Without allocatable, the capacity is read as the API server would default it.
    node.status.allocatable.clear();
    let ni = NodeInfo::new(&node);
    assert_eq!(ni.allocatable.milli_cpu, 4000);
    assert_eq!(ni.allocatable.scalar.get(EXT_A), Some(&3));
    assert_eq!(ni.allowed_pods, 10);
}

// Ported from TestPodInfoCalculateResources (pkg/scheduler/framework/types_test.go): the five
// pod-level resources rows src/scheduler_score_tests.rs left out (PodLevelResources is on in
// 1.35). The non-zero requests follow getNonMissingContainerRequests: with pod-level requests
// set, only a resource requested nowhere gets the scheduler's default.
#[test]
fn pod_info_calculate_resources_pod_level_rows() {
    let mi: i128 = 1024 * 1024;
    let req = |res: &[(&str, &str)]| ResourceRequirements {
        requests: list(res),
        ..Default::default()
    };
    let cpu_mem = req(&[("cpu", "500m"), ("memory", "500Mi")]);
    // (name, init containers (sidecar?), containers, pod-level requests,
    //  (milliCPU, memory, ephemeral), (Non0CPU, Non0Mem))
    type Case = (
        &'static str,
        Vec<(ResourceRequirements, bool)>,
        Vec<ResourceRequirements>,
        Vec<(&'static str, &'static str)>,
        (i128, i128, i128),
        (i128, i128),
    );
    let cases: Vec<Case> = vec![
        (
            "1X container and 1X init container with pod-level requests",
            vec![(cpu_mem.clone(), false)],
            vec![cpu_mem.clone()],
            vec![("cpu", "1200m"), ("memory", "1200Mi")],
            (1200, 1200 * mi, 0),
            (1200, 1200 * mi),
        ),
        (
            "1X container and 1X sidecar container with pod-level requests",
            vec![(cpu_mem.clone(), true)],
            vec![cpu_mem.clone()],
            vec![("cpu", "1200m"), ("memory", "1200Mi")],
            (1200, 1200 * mi, 0),
            (1200, 1200 * mi),
        ),
        (
            "1X container with pod-level memory requests",
            vec![(req(&[]), false)],
            vec![req(&[])],
            vec![("memory", "1200Mi")],
            (0, 1200 * mi, 0),
            (DEFAULT_MILLI_CPU_REQUEST, 1200 * mi),
        ),
        (
            "1X container with pod-level cpu requests",
            vec![(req(&[]), false)],
            vec![req(&[])],
            vec![("cpu", "500m")],
            (500, 0, 0),
            (500, DEFAULT_MEMORY_REQUEST),
        ),
        (
            "1X container unsupported resources and pod-level supported resources",
            vec![(req(&[("ephemeral-storage", "500Mi")]), false)],
            vec![req(&[("ephemeral-storage", "800Mi")])],
            vec![("cpu", "500m")],
            (500, 0, 800 * mi),
            (500, DEFAULT_MEMORY_REQUEST),
        ),
        // Hand-derived from getNonMissingContainerRequests: with pod-level memory set and one
        // of two containers requesting cpu, cpu is "requested", so the other container adds
        // no default cpu (without pod-level requests it would add 100m).
        (
            "pod-level memory; cpu requested by one container only",
            vec![],
            vec![req(&[("cpu", "300m")]), req(&[])],
            vec![("memory", "1Gi")],
            (300, 1024 * mi, 0),
            (300, 1024 * mi),
        ),
    ];
    for (name, inits, containers, pod_level, want, want_non0) in cases {
        let mut pod = Pod::default();
        pod.spec_mut().init_containers = inits
            .into_iter()
            .enumerate()
            .map(|(i, (r, sidecar))| Container {
                restart_policy: sidecar.then(|| "Always".to_string()),
                ..container(i, r)
            })
            .collect();
        pod.spec_mut().containers = containers
            .into_iter()
            .enumerate()
            .map(|(i, r)| container(10 + i, r))
            .collect();
        let pod = with_pod_level(pod, &pod_level);
        let got = pod_requests(&pod, false);
        let non0 = node_info_non_zero_requests(&pod);
        assert_eq!(
            (got.milli_cpu, got.memory, got.ephemeral_storage),
            want,
            "{name}"
        );
        assert_eq!((non0.milli_cpu, non0.memory), want_non0, "{name}");
    }
    // Without pod-level requests every container missing cpu gets the default.
    let mut pod = Pod::default();
    pod.spec_mut().containers = vec![
        container(0, req(&[("cpu", "300m")])),
        container(1, req(&[])),
    ];
    assert_eq!(node_info_non_zero_requests(&pod).milli_cpu, 400);
    // The incoming pod's scoring request (calculatePodResourceRequest) always defaults each
    // container, pod-level requests set or not: 300m + 100m.
    let pod = with_pod_level(pod, &[("memory", "1Gi")]);
    assert_eq!(pod_requests(&pod, true).milli_cpu, 400);
    assert_eq!(node_info_non_zero_requests(&pod).milli_cpu, 300);
    // Once on a node, the pod adds that non-zero request to NodeInfo.NonZeroRequested.
    let mut ni = NodeInfo::new(&fit_node());
    ni.add_pod(&pod);
    assert_eq!(ni.non_zero_requested.milli_cpu, 300);
}

// Pod overhead in the requests (PodRequests adds `spec.overhead`; the non-zero request used
// for scoring includes it too), hand-derived from the "DRA node allocatable Resources with Pod
// Overhead" row of TestPodInfoCalculateResources without the DRA claim.
#[test]
fn pod_requests_add_overhead() {
    let pod = with_overhead(
        resource_pod(vec![ResourceRequirements {
            requests: list(&[("cpu", "500m"), ("memory", "500Mi")]),
            ..Default::default()
        }]),
        &[("cpu", "100m"), ("memory", "200Mi")],
    );
    let mi: i128 = 1024 * 1024;
    let r = pod_requests(&pod, false);
    assert_eq!((r.milli_cpu, r.memory), (600, 700 * mi));
    let n = pod_requests(&pod, true);
    assert_eq!((n.milli_cpu, n.memory), (600, 700 * mi));
    // A requestless pod with overhead: defaults plus overhead for scoring.
    let pod = with_overhead(resource_pod(vec![Default::default()]), &[("cpu", "10m")]);
    assert_eq!(pod_requests(&pod, false).milli_cpu, 10);
    assert_eq!(
        pod_requests(&pod, true).milli_cpu,
        DEFAULT_MILLI_CPU_REQUEST + 10
    );
}

// Ported from TestGetNonZeroRequest and TestGetLeastRequestResource
// (pkg/scheduler/util/non_zero_test.go), through the non-zero pod requests of a one-container
// pod (GetNonzeroRequests is what NonMissingContainerRequests applies per container).
#[test]
fn get_non_zero_request() {
    let mi: i128 = 1024 * 1024;
    let pod = |res: &[(&str, &str)]| {
        resource_pod(vec![ResourceRequirements {
            requests: list(res),
            ..Default::default()
        }])
    };
    let cases = [
        (
            "cpu_and_memory_not_found",
            pod(&[]),
            (DEFAULT_MILLI_CPU_REQUEST, DEFAULT_MEMORY_REQUEST),
        ),
        (
            "only_cpu_exist",
            pod(&[("cpu", "200m")]),
            (200, DEFAULT_MEMORY_REQUEST),
        ),
        (
            "only_memory_exist",
            pod(&[("memory", "400Mi")]),
            (DEFAULT_MILLI_CPU_REQUEST, 400 * mi),
        ),
        (
            "cpu_memory_exist",
            pod(&[("cpu", "200m"), ("memory", "400Mi")]),
            (200, 400 * mi),
        ),
    ];
    for (name, p, want) in cases {
        let r = pod_requests(&p, true);
        assert_eq!((r.milli_cpu, r.memory), want, "{name}");
    }
    // TestGetLeastRequestResource: extended resources and ephemeral-storage get no default.
    let r = pod_requests(&pod(&[]), true);
    assert_eq!(
        r.scalar.get("intel.com/foo"),
        None,
        "extended_resource_not_found"
    );
    assert_eq!(r.ephemeral_storage, 0, "ephemeralStorage_not_found");
    let r = pod_requests(&pod(&[("intel.com/foo", "4")]), true);
    assert_eq!(
        r.scalar.get("intel.com/foo"),
        Some(&4),
        "extended_resource_found"
    );
    let r = pod_requests(&pod(&[("ephemeral-storage", "400Mi")]), true);
    assert_eq!(r.ephemeral_storage, 400 * mi, "ephemeralStorage_exist");
    // An explicit zero is kept (only a missing request is defaulted).
    let r = pod_requests(&pod(&[("cpu", "0")]), true);
    assert_eq!(r.milli_cpu, 0, "explicit zero cpu");
}

// Ported from TestMoreImportantPod (pkg/scheduler/util/utils_test.go): higher priority first,
// then the earlier start time.
#[test]
fn more_important_pod() {
    let pod = |name: &str, priority: i32, start: i64| {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.spec_mut().priority = Some(priority);
        p.status.start_time = Some(Time(start));
        p
    };
    let pod1 = pod("pod1", 1, 0);
    let pod2 = pod("pod2", 2, 1_000);
    let pod3 = pod("pod3", 2, 0);
    let more = |a: &Pod, b: &Pod| more_important(a, b) == std::cmp::Ordering::Less;
    assert!(!more(&pod1, &pod2), "Pod with higher priority");
    assert!(!more(&pod2, &pod3), "Pod with older created time");
    assert!(more(&pod3, &pod1), "Pods with same start time");
    // GetPodStartTime: a pod that has not started is newer than any started pod.
    let mut unstarted = pod("pod4", 2, 0);
    unstarted.status.start_time = None;
    assert!(more(&pod2, &unstarted));
}

// Ported from TestGetNamespacesFromPodAffinityTerm (pkg/scheduler/framework/types_test.go):
// a term without namespaces and namespace selector means the pod's own namespace; listed
// namespaces are taken as they are; a namespace selector (even an empty one) leaves the list
// empty, the selector deciding.
#[test]
fn get_namespaces_from_pod_affinity_term() {
    use super::interpod_affinity::{new_affinity_term, PodAffinityTerm};
    let mut pod = Pod::default();
    pod.metadata.name = "topologies_pod".into();
    pod.metadata.namespace = "default".into();
    let ns = |t: PodAffinityTerm| -> Vec<String> {
        new_affinity_term(&pod, &t)
            .unwrap()
            .namespaces
            .into_iter()
            .collect()
    };
    assert_eq!(
        ns(PodAffinityTerm::default()),
        vec!["default"],
        "podAffinityTerm_namespace_empty"
    );
    assert_eq!(
        ns(PodAffinityTerm {
            namespaces: Some(vec!["kube-public".into(), "kube-system".into()]),
            ..Default::default()
        }),
        vec!["kube-public", "kube-system"],
        "podAffinityTerm_namespace_not_empty"
    );
    assert!(
        ns(PodAffinityTerm {
            namespace_selector: Some(crate::api::LabelSelector::default()),
            ..Default::default()
        })
        .is_empty(),
        "podAffinityTerm_namespace_selector_not_nil"
    );
}

// Ported from TestNodeInfoAddPod (pkg/scheduler/framework/types_test.go): three pods with
// overhead, one with an init container, added to a NodeInfo. Requested sums the requests plus
// overhead (2300m; 1500 bytes plus the init container's 200Mi); NonZeroRequested also defaults
// the memory of the containers that request none (419431900); the host ports are recorded.
// (PVCRefCounts and the generation counter are not modelled.)
#[test]
fn node_info_add_pod() {
    let pod = |name: &str, v: serde_json::Value| -> Pod {
        let mut p: Pod = serde_json::from_value(v).unwrap();
        p.metadata.name = name.into();
        p.metadata.namespace = "node_info_cache_test".into();
        p
    };
    let pods = [
        pod(
            "test-1",
            serde_json::json!({"spec": {
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "500"}},
                    "ports": [{"hostIP": "127.0.0.1", "hostPort": 80, "protocol": "TCP", "containerPort": 80}]}],
                "nodeName": "test-node",
                "overhead": {"cpu": "500m"}}}),
        ),
        pod(
            "test-2",
            serde_json::json!({"spec": {
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "200m"}},
                    "ports": [{"hostIP": "127.0.0.1", "hostPort": 8080, "protocol": "TCP", "containerPort": 8080}]}],
                "nodeName": "test-node",
                "overhead": {"cpu": "500m", "memory": "500"}}}),
        ),
        pod(
            "test-3",
            serde_json::json!({"spec": {
                "containers": [{"name": "c", "resources": {"requests": {"cpu": "200m"}},
                    "ports": [{"hostIP": "127.0.0.1", "hostPort": 8080, "protocol": "TCP", "containerPort": 8080}]}],
                "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "500m", "memory": "200Mi"}}}],
                "nodeName": "test-node",
                "overhead": {"cpu": "500m", "memory": "500"}}}),
        ),
    ];
    // The pods' own (cached) resources: (MilliCPU, Memory, Non0CPU, Non0Mem).
    let mi: i128 = 1024 * 1024;
    let cached = [
        (600, 500, 600, 500),
        (700, 500, 700, DEFAULT_MEMORY_REQUEST + 500),
        (1000, 200 * mi + 500, 1000, DEFAULT_MEMORY_REQUEST + 500),
    ];
    for (p, want) in pods.iter().zip(cached) {
        let r = pod_requests(p, false);
        let n = node_info_non_zero_requests(p);
        assert_eq!(
            (r.milli_cpu, r.memory, n.milli_cpu, n.memory),
            want,
            "{}",
            p.metadata.name
        );
    }
    let mut node = Node::default();
    node.metadata.name = "test-node".into();
    let mut ni = NodeInfo::new(&node);
    for p in &pods {
        ni.add_pod(p);
    }
    assert_eq!(
        (ni.requested.milli_cpu, ni.requested.memory),
        (2300, 209716700)
    );
    assert_eq!(ni.requested.ephemeral_storage, 0);
    assert!(ni.requested.scalar.is_empty(), "{:?}", ni.requested.scalar);
    assert_eq!(
        (
            ni.non_zero_requested.milli_cpu,
            ni.non_zero_requested.memory
        ),
        (2300, 419431900)
    );
    assert_eq!(ni.num_pods, 3);
    assert_eq!(ni.pods.len(), 3);
    let mut want_ports = node_ports::HostPortInfo::default();
    want_ports.add("127.0.0.1", "TCP", 80);
    want_ports.add("127.0.0.1", "TCP", 8080);
    assert_eq!(ni.used_ports, want_ports);
}

// `framework.Resource.Add` / `NewResource` (pkg/scheduler/framework/types.go), hand-derived
// from the source: cpu, memory, pods and ephemeral-storage are native fields, and only scalar
// resource names (schedutil.IsScalarResourceName) are kept besides them. A name that is none of these (a bare `foo`) is ignored, on the node and in the
// pod's requests, so it never fails NodeResourcesFit.
#[test]
fn resource_names_kept_as_scalars() {
    for (name, want) in [
        ("example.com/aaa", true),
        ("hugepages-2Mi", true),
        ("kubernetes.io/something", true),
        ("subdomain.kubernetes.io/something", true),
        ("attachable-volumes-aws-ebs", true),
        ("foo", false),
        ("pods", false),
        ("requests.example.com/aaa", false),
        ("example.com/bad name", false),
    ] {
        assert_eq!(is_scalar_resource_name(name), want, "{name}");
    }
    let node = capacity_node(&[("cpu", "1"), ("foo", "3"), ("example.com/aaa", "2")]);
    let ni = NodeInfo::new(&node);
    assert_eq!(
        ni.allocatable.scalar.keys().collect::<Vec<_>>(),
        vec!["example.com/aaa"]
    );
    assert_eq!(ni.allowed_pods, 32);
    let pod = resource_pod(vec![ResourceRequirements {
        requests: list(&[("cpu", "1"), ("foo", "5"), ("pods", "3")]),
        ..Default::default()
    }]);
    let r = pod_requests(&pod, false);
    assert!(r.scalar.is_empty(), "{:?}", r.scalar);
    assert_eq!(
        filter_node_resources_fit(&pod, &ni).map(|s| s.reasons),
        None
    );
}
