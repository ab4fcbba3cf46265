//! Upstream tables not ported elsewhere, run against kubeplay's real functions:
//! component-helpers/resource/helpers_test.go (TestPodRequestsAndLimits,
//! TestPodRequestsAndLimitsWithoutOverhead, TestPodResourceRequests,
//! TestPodLevelResourceRequests — the rows without status resources or options kubeplay does
//! not take), pkg/scheduler/framework/plugins/helper/taint_test.go
//! (TestDoNotScheduleTaintsFilterFunc) and pkg/apis/core/v1/helper/helpers_test.go
//! (TestIsExtendedResourceName, through `schedutil.IsScalarResourceName`).

use super::*;
use crate::api::{Container, Quantity, ResourceRequirements};

const MI: i128 = 1024 * 1024;
const GI: i128 = 1024 * MI;

fn list(res: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
    res.iter()
        .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
        .collect()
}

fn req(requests: &[(&str, &str)]) -> Container {
    req_lim(requests, &[])
}

fn req_lim(requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Container {
    Container {
        resources: Some(ResourceRequirements {
            requests: list(requests),
            limits: list(limits),
        }),
        ..Default::default()
    }
}

/// An init container with `restartPolicy: Always` (a sidecar).
fn sidecar(requests: &[(&str, &str)]) -> Container {
    Container {
        restart_policy: Some("Always".into()),
        ..req(requests)
    }
}

fn pod(init: Vec<Container>, containers: Vec<Container>) -> Pod {
    let mut p = Pod::default();
    p.spec_mut().init_containers = init;
    p.spec_mut().containers = containers;
    p
}

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

fn with_pod_level(mut p: Pod, requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Pod {
    p.spec_mut().resources = Some(ResourceRequirements {
        requests: list(requests),
        limits: list(limits),
    });
    p
}

/// Expected `Resources` from (name, value): cpu in milli-cores, the rest in units.
fn want(milli_cpu: i128, memory: i128, scalar: &[(&str, i128)]) -> Resources {
    Resources {
        milli_cpu,
        memory,
        ephemeral_storage: 0,
        scalar: scalar.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

/// `getPod(name, podResources{...})` of helpers_test.go: one container with the given requests
/// and limits, and the overhead.
fn get_pod(requests: &[(&str, &str)], limits: &[(&str, &str)], overhead: &[(&str, &str)]) -> Pod {
    let p = pod(vec![], vec![req_lim(requests, limits)]);
    if overhead.is_empty() {
        p
    } else {
        with_overhead(p, overhead)
    }
}

/// TestPodRequestsAndLimits (component-helpers/resource/helpers_test.go), the requests side.
/// `PodRequests` reads requests only: a container with only a limit requests nothing (the API
/// server's defaulting, not `PodRequests`, copies limits to requests).
#[test]
fn test_pod_requests_and_limits() {
    let rows: Vec<(&str, Pod, Resources)> = vec![
        (
            "just-limit-no-overhead",
            get_pod(&[], &[("cpu", "9")], &[]),
            want(0, 0, &[]),
        ),
        (
            "just-overhead",
            get_pod(&[], &[], &[("cpu", "5"), ("memory", "5")]),
            want(5000, 5, &[]),
        ),
        (
            "req-and-overhead",
            get_pod(
                &[("cpu", "1"), ("memory", "10")],
                &[],
                &[("cpu", "5"), ("memory", "5")],
            ),
            want(6000, 15, &[]),
        ),
        (
            "all-req-lim-and-overhead",
            get_pod(
                &[("cpu", "1"), ("memory", "10")],
                &[("cpu", "2"), ("memory", "12")],
                &[("cpu", "5"), ("memory", "5")],
            ),
            want(6000, 15, &[]),
        ),
        (
            "req-some-lim-and-overhead",
            get_pod(
                &[("cpu", "1"), ("memory", "10")],
                &[("cpu", "2")],
                &[("cpu", "5"), ("memory", "5")],
            ),
            want(6000, 15, &[]),
        ),
    ];
    for (name, p, w) in rows {
        assert_eq!(pod_requests(&p, false), w, "{name}");
    }
}

/// TestPodRequestsAndLimitsWithoutOverhead, "two container no overhead - should just be sum of
/// containers" (the other rows set `ExcludeOverhead`, which the scheduler never does).
#[test]
fn test_pod_requests_and_limits_without_overhead() {
    let p = pod(
        vec![],
        vec![
            req_lim(
                &[("cpu", "1"), ("memory", "5")],
                &[("cpu", "2"), ("memory", "10")],
            ),
            req_lim(
                &[("cpu", "4"), ("memory", "12")],
                &[("cpu", "8"), ("memory", "24")],
            ),
        ],
    );
    assert_eq!(pod_requests(&p, false), want(5000, 17, &[]));
}

/// TestPodResourceRequests (component-helpers/resource/helpers_test.go): the rows with default
/// options (no `ExcludeOverhead`) and the "don't use status" resize rows (kubeplay does not
/// resize pods in place, so the spec is what counts).
#[test]
fn test_pod_resource_requests() {
    let rows: Vec<(&str, Pod, Resources)> = vec![
        (
            "nil options, larger init container",
            pod(vec![req(&[("cpu", "4")])], vec![req(&[("cpu", "1")])]),
            want(4000, 0, &[]),
        ),
        (
            "nil options, larger containers",
            pod(
                vec![req(&[("cpu", "2")])],
                vec![req(&[("cpu", "2")]), req(&[("cpu", "3")])],
            ),
            want(5000, 0, &[]),
        ),
        (
            "pod overhead included",
            with_overhead(
                pod(
                    vec![req_lim(&[("cpu", "2")], &[("cpu", "2")])],
                    vec![req(&[("cpu", "2")]), req(&[("cpu", "3")])],
                ),
                &[("cpu", "1"), ("memory", "1Gi")],
            ),
            want(6000, GI, &[]),
        ),
        (
            "resized, infeasible, but don't use status",
            pod(vec![], vec![req(&[("cpu", "4")])]),
            want(4000, 0, &[]),
        ),
        (
            "resized, restartable init container, infeasible, but don't use status",
            pod(vec![sidecar(&[("cpu", "4")])], vec![]),
            want(4000, 0, &[]),
        ),
        (
            "restartable init container",
            pod(vec![sidecar(&[("cpu", "1")])], vec![req(&[("cpu", "1")])]),
            want(2000, 0, &[]),
        ),
        (
            "multiple restartable init containers",
            pod(
                vec![
                    req(&[("cpu", "5")]),
                    sidecar(&[("cpu", "1")]),
                    sidecar(&[("cpu", "2")]),
                    sidecar(&[("cpu", "3")]),
                ],
                vec![req(&[("cpu", "1")])],
            ),
            want(7000, 0, &[]),
        ),
        (
            "multiple restartable and regular init containers",
            pod(
                vec![
                    req(&[("cpu", "5")]),
                    sidecar(&[("cpu", "1")]),
                    sidecar(&[("cpu", "2")]),
                    req(&[("cpu", "5")]),
                    sidecar(&[("cpu", "3")]),
                ],
                vec![req(&[("cpu", "1")])],
            ),
            want(8000, 0, &[]),
        ),
        (
            "restartable-init, init and regular",
            pod(
                vec![sidecar(&[("cpu", "10")]), req(&[("cpu", "200")])],
                vec![req(&[("cpu", "100")])],
            ),
            want(210_000, 0, &[]),
        ),
    ];
    for (name, p, w) in rows {
        assert_eq!(pod_requests(&p, false), w, "{name}");
    }
}

/// TestPodLevelResourceRequests (component-helpers/resource/helpers_test.go), the rows with
/// `SkipPodLevelResources: false` (the scheduler's options with PodLevelResources on) and no
/// status resources. The `storage` rows keep only what kubeplay's `Resources` holds.
#[test]
fn test_pod_level_resource_requests() {
    let hp2 = "hugepages-2Mi";
    let hp1g = "hugepages-1Gi";
    let rows: Vec<(&str, Pod, Resources)> = vec![
        ("nil", Pod::default(), want(0, 0, &[])),
        (
            "pod level memory resource with SkipPodLevelResources false",
            with_pod_level(Pod::default(), &[("memory", "2Mi")], &[]),
            want(0, 2 * MI, &[]),
        ),
        (
            "pod level memory and container level cpu resources with SkipPodLevelResources false",
            with_pod_level(
                pod(vec![], vec![req(&[("cpu", "2m")])]),
                &[("memory", "2Mi")],
                &[],
            ),
            want(2, 2 * MI, &[]),
        ),
        (
            "pod level unsupported resources set at pod-level with SkipPodLevelResources false",
            with_pod_level(
                pod(vec![], vec![req(&[("memory", "3Mi")])]),
                &[("storage", "2Mi")],
                &[],
            ),
            want(0, 3 * MI, &[]),
        ),
        (
            "only container level resources set with SkipPodLevelResources false",
            pod(vec![], vec![req(&[("memory", "3Mi"), ("cpu", "2m")])]),
            want(2, 3 * MI, &[]),
        ),
        (
            "both container-level and pod-level resources set with SkipPodLevelResources false",
            with_pod_level(
                pod(vec![], vec![req(&[("memory", "3Mi"), ("cpu", "2m")])]),
                &[("memory", "6Mi"), ("cpu", "8m")],
                &[],
            ),
            want(8, 6 * MI, &[]),
        ),
        (
            "container-level resources and init container set with SkipPodLevelResources false",
            pod(
                vec![req(&[("memory", "5Mi"), ("cpu", "4m")])],
                vec![req(&[("memory", "3Mi"), ("cpu", "2m")])],
            ),
            want(4, 5 * MI, &[]),
        ),
        (
            "container-level resources and sidecar container set with SkipPodLevelResources false",
            pod(
                vec![sidecar(&[("memory", "5Mi"), ("cpu", "4m")])],
                vec![req(&[("memory", "3Mi"), ("cpu", "2m")])],
            ),
            want(6, 8 * MI, &[]),
        ),
        (
            "container-level resources, init and sidecar container set with SkipPodLevelResources false",
            pod(
                vec![
                    sidecar(&[("memory", "5Mi"), ("cpu", "4m")]),
                    req(&[("memory", "6Mi"), ("cpu", "8m")]),
                ],
                vec![req(&[("memory", "3Mi"), ("cpu", "2m")])],
            ),
            want(12, 11 * MI, &[]),
        ),
        (
            "pod-level resources, container-level resources, init and sidecar container set with SkipPodLevelResources false",
            with_pod_level(
                pod(
                    vec![
                        sidecar(&[("memory", "5Mi"), ("cpu", "4m")]),
                        req(&[("memory", "6Mi"), ("cpu", "8m")]),
                    ],
                    vec![req(&[("memory", "3Mi"), ("cpu", "2m")])],
                ),
                &[("memory", "15Mi"), ("cpu", "18m")],
                &[],
            ),
            want(18, 15 * MI, &[]),
        ),
        (
            "pod-level resources, hugepage request/limit single page size",
            with_pod_level(
                Pod::default(),
                &[("memory", "10Mi"), (hp2, "2Mi")],
                &[(hp2, "2Mi")],
            ),
            want(0, 10 * MI, &[(hp2, 2 * MI)]),
        ),
        (
            "pod-level resources, hugepage request/limit multiple page sizes",
            with_pod_level(
                Pod::default(),
                &[("cpu", "1"), (hp2, "2Mi"), (hp1g, "1Gi")],
                &[(hp2, "2Mi"), (hp1g, "1Gi")],
            ),
            want(1000, 0, &[(hp2, 2 * MI), (hp1g, GI)]),
        ),
        (
            "pod-level resources, container-level resources, hugepage request/limit single page size",
            with_pod_level(
                pod(vec![], vec![req_lim(&[(hp2, "6Mi")], &[(hp2, "6Mi")])]),
                &[("cpu", "1"), (hp2, "10Mi")],
                &[(hp2, "10Mi")],
            ),
            want(1000, 0, &[(hp2, 10 * MI)]),
        ),
        (
            "pod-level resources, container-level resources, hugepage request/limit multiple page sizes",
            with_pod_level(
                pod(
                    vec![],
                    vec![req_lim(&[("cpu", "1"), (hp1g, "2Gi")], &[(hp1g, "2Gi")])],
                ),
                &[("cpu", "1"), (hp2, "10Mi"), (hp1g, "2Gi")],
                &[(hp2, "10Mi"), (hp1g, "2Gi")],
            ),
            want(1000, 0, &[(hp2, 10 * MI), (hp1g, 2 * GI)]),
        ),
        (
            "pod-level resources, container-level resources, hugepage request/limit multiple page sizes between pod-level and container-level",
            with_pod_level(
                pod(
                    vec![],
                    vec![req_lim(&[("memory", "4Mi"), (hp1g, "1Gi")], &[(hp1g, "1Gi")])],
                ),
                &[("cpu", "1"), (hp2, "10Mi")],
                &[(hp2, "10Mi")],
            ),
            want(1000, 4 * MI, &[(hp2, 10 * MI), (hp1g, GI)]),
        ),
    ];
    for (name, p, w) in rows {
        assert_eq!(pod_requests(&p, false), w, "{name}");
    }
}

/// TestDoNotScheduleTaintsFilterFunc (pkg/scheduler/framework/plugins/helper/taint_test.go).
#[test]
fn test_do_not_schedule_taints_filter_func() {
    let taint = |effect: &str| Taint {
        key: String::new(),
        value: String::new(),
        effect: effect.into(),
        time_added: None,
    };
    // should include the taints with NoSchedule effect
    assert!(do_not_schedule_taint(&taint("NoSchedule")));
    // should include the taints with NoExecute effect
    assert!(do_not_schedule_taint(&taint("NoExecute")));
    // should not include the taints with PreferNoSchedule effect
    assert!(!do_not_schedule_taint(&taint("PreferNoSchedule")));
}

/// TestIsExtendedResourceName (pkg/apis/core/v1/helper/helpers_test.go) through
/// `IsScalarResourceName` = extended || hugepages || prefixed native || attachable volume. The
/// two `kubernetes.io`-prefixed rows are not extended but are prefixed native, hence scalar.
#[test]
fn test_is_extended_resource_name() {
    for (name, scalar) in [
        ("pod.alpha.kubernetes.io/opaque-int-resource-foo", true),
        ("kubernetes.io/resource-foo", true),
        ("foo", false),
        ("a/b", true),
        ("requests.foobar", false),
        ("c/d/", false),
        ("", false),
        // component-helpers/scheduling/corev1/resource_names_test.go: TestIsExtendedResourceName
        // ("example.com/foo", "requests.nvidia.com/gpu"), TestIsHugePageResourceName,
        // TestIsAttachableVolumeResourceName and TestIsPrefixedNativeResourceName rows, all
        // through IsScalarResourceName.
        ("example.com/foo", true),
        ("requests.nvidia.com/gpu", false),
        ("hugepages-2Mi", true),
        ("memory", false),
        ("attachable-volumes-aws-ebs", true),
    ] {
        assert_eq!(is_scalar_resource_name(name), scalar, "{name:?}");
    }
}

/// TestResourceAllocationScorerCalculateRequests
/// (pkg/scheduler/framework/plugins/noderesources/resource_allocation_test.go):
/// `calculatePodResourceRequest` — the non-missing requests (100m / 200Mi for a container
/// without a cpu / memory request), init containers as a maximum, overhead added.
#[test]
fn test_resource_allocation_scorer_calculate_requests() {
    let one_mi = MI;
    let dc = DEFAULT_MILLI_CPU_REQUEST;
    let dm = DEFAULT_MEMORY_REQUEST;
    let small = |cpu: &str, mem: &str| req(&[("cpu", cpu), ("memory", mem)]);
    let rows: Vec<(&str, Pod, i128, i128)> = vec![
        (
            "overhead only",
            with_overhead(Pod::default(), &[("cpu", "1"), ("memory", "1Mi")]),
            1000,
            one_mi,
        ),
        (
            "1x requestless container",
            pod(vec![], vec![Container::default()]),
            dc,
            dm,
        ),
        (
            "2x requestless container",
            pod(vec![], vec![Container::default(), Container::default()]),
            2 * dc,
            2 * dm,
        ),
        (
            "request container + requestless container",
            pod(vec![], vec![small("1", "1Mi"), Container::default()]),
            1000 + dc,
            one_mi + dm,
        ),
        (
            "container + requestless container + overhead",
            with_overhead(
                pod(vec![], vec![small("1", "1Mi"), Container::default()]),
                &[("cpu", "1"), ("memory", "1Mi")],
            ),
            2000 + dc,
            2 * one_mi + dm,
        ),
        (
            "init container + container + requestless container + overhead",
            with_overhead(
                pod(
                    vec![req(&[("cpu", "3")])],
                    vec![small("1", "1Mi"), Container::default()],
                ),
                &[("cpu", "1"), ("memory", "1Mi")],
            ),
            4000,
            2 * one_mi + dm,
        ),
        (
            "requestless init container + small init container + small container ",
            pod(
                vec![Container::default(), small("1m", "1")],
                vec![small("3m", "3")],
            ),
            dc,
            dm,
        ),
        (
            "requestless init container + small init container + small container + requestless container ",
            pod(
                vec![Container::default(), small("1m", "1")],
                vec![small("3m", "3"), Container::default()],
            ),
            3 + dc,
            3 + dm,
        ),
    ];
    for (name, p, cpu, mem) in rows {
        let got = pod_requests(&p, true);
        assert_eq!((got.milli_cpu, got.memory), (cpu, mem), "{name}");
    }
}

/// TestTolerationsTolerateTaintsWithFilter (pkg/apis/core/v1/helper/helpers_test.go), through
/// `FindMatchingUntoleratedTaint` (tolerated ⇔ no untolerated taint passes the filter).
#[test]
fn test_tolerations_tolerate_taints_with_filter() {
    let tol = |key: &str, effect: &str| Toleration {
        key: key.into(),
        operator: "Exists".into(),
        effect: effect.into(),
        ..Default::default()
    };
    let taint = |key: &str, effect: &str| Taint {
        key: key.into(),
        effect: effect.into(),
        ..Default::default()
    };
    let all = |_: &Taint| true;
    type Row<'a> = (
        &'a str,
        Vec<Toleration>,
        Vec<Taint>,
        &'a dyn Fn(&Taint) -> bool,
        bool,
    );
    let rows: Vec<Row> = vec![
        (
            "empty tolerations tolerate empty taints",
            vec![],
            vec![],
            &all,
            true,
        ),
        (
            "non-empty tolerations tolerate empty taints",
            vec![tol("foo", "NoSchedule")],
            vec![],
            &all,
            true,
        ),
        (
            "tolerations match all taints, expect tolerated",
            vec![tol("foo", "NoSchedule")],
            vec![taint("foo", "NoSchedule")],
            &all,
            true,
        ),
        (
            "tolerations don't match taints, but no taints apply to the filter, expect tolerated",
            vec![tol("foo", "NoSchedule")],
            vec![taint("bar", "NoSchedule")],
            &|_: &Taint| false,
            true,
        ),
        (
            "no filterFunc indicated, means all taints apply to the filter, tolerations don't match taints, expect untolerated",
            vec![tol("foo", "NoSchedule")],
            vec![taint("bar", "NoSchedule")],
            &all,
            false,
        ),
        (
            "tolerations match taints, expect tolerated",
            vec![tol("foo", "NoExecute")],
            vec![taint("foo", "NoExecute"), taint("bar", "NoSchedule")],
            &|t: &Taint| t.effect == "NoExecute",
            true,
        ),
    ];
    for (name, tolerations, taints, filter, tolerated) in rows {
        let got = find_matching_untolerated_taint(&taints, &tolerations, filter).is_none();
        assert_eq!(got, tolerated, "{name}");
    }
}

/// `newPriorityPodWithStartTime` of pkg/scheduler/util/utils_test.go.
fn priority_pod_with_start_time(name: &str, priority: i32, start: i64) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.spec_mut().priority = Some(priority);
    p.status.start_time = Some(Time(start));
    p
}

/// TestGetEarliestPodStartTime (pkg/scheduler/util/utils_test.go): the earliest start among the
/// highest-priority victims, which `pickOneNodeForPreemption` prefers to be latest.
#[test]
fn test_get_earliest_pod_start_time() {
    let now = 1_000_000;
    let second = 1_000;
    let victims = [
        priority_pod_with_start_time("pod1", 1, now + second),
        priority_pod_with_start_time("pod2", 2, now + second),
        priority_pod_with_start_time("pod3", 2, now),
    ];
    assert_eq!(earliest_pod_start_time(&victims), Time(now));
    let victims = [
        priority_pod_with_start_time("pod1", 2, now),
        priority_pod_with_start_time("pod2", 2, now + second),
        priority_pod_with_start_time("pod3", 2, now + 2 * second),
    ];
    assert_eq!(earliest_pod_start_time(&victims), Time(now));
}

/// TestGetRequestForResource and TestGetNonZeroRequest's rows through one container's requests
/// (pkg/scheduler/util/pod_resources_test.go): `nonZero` defaults a missing cpu / memory request
/// to 100m / 200Mi, nothing else.
#[test]
fn test_get_request_for_resource() {
    let one = |requests: &[(&str, &str)]| pod(vec![], vec![req(requests)]);
    let scalar = |r: &Resources, k: &str| r.scalar.get(k).copied().unwrap_or(0);
    let ext = "intel.com/foo";
    // extended_resource_not_found / extended_resource_found
    assert_eq!(scalar(&pod_requests(&one(&[]), true), ext), 0);
    assert_eq!(scalar(&pod_requests(&one(&[(ext, "4")]), true), ext), 4);
    // cpu_not_found / memory_not_found
    let empty = pod_requests(&one(&[]), true);
    assert_eq!(empty.milli_cpu, DEFAULT_MILLI_CPU_REQUEST);
    assert_eq!(empty.memory, DEFAULT_MEMORY_REQUEST);
    // cpu_exist / memory_exist / ephemeralStorage_exist / ephemeralStorage_not_found
    assert_eq!(pod_requests(&one(&[("cpu", "200m")]), true).milli_cpu, 200);
    assert_eq!(
        pod_requests(&one(&[("memory", "400Mi")]), true).memory,
        400 * MI
    );
    assert_eq!(
        pod_requests(&one(&[("ephemeral-storage", "400Mi")]), true).ephemeral_storage,
        400 * MI
    );
    assert_eq!(empty.ephemeral_storage, 0);
    // cpu_not_found / memory_not_found with nonZero false
    let zero = pod_requests(&one(&[]), false);
    assert_eq!((zero.milli_cpu, zero.memory), (0, 0));
    // TestGetNonZeroRequest: only_cpu_exist / only_memory_exist / cpu_memory_exist
    let r = pod_requests(&one(&[("cpu", "200m")]), true);
    assert_eq!((r.milli_cpu, r.memory), (200, DEFAULT_MEMORY_REQUEST));
    let r = pod_requests(&one(&[("memory", "400Mi")]), true);
    assert_eq!(
        (r.milli_cpu, r.memory),
        (DEFAULT_MILLI_CPU_REQUEST, 400 * MI)
    );
    let r = pod_requests(&one(&[("cpu", "200m"), ("memory", "400Mi")]), true);
    assert_eq!((r.milli_cpu, r.memory), (200, 400 * MI));
}

/// TestZeroRequest (pkg/scheduler/schedule_one_test.go), the NodeResourcesFit (LeastAllocated)
/// share of the score: a pod without requests, already on the node or being scheduled, counts
/// as a pod requesting the defaults (100m / 200Mi), and a larger pod scores lower. Both nodes
/// have 1000m and 10 × 200Mi and hold a large pod (300m / 600Mi) plus a zero-request pod
/// (node1) or a small pod (node2). The summed scores of the upstream table are not asserted:
/// its other plugins changed across releases (SelectorSpread removed; BalancedAllocation skips
/// best-effort pods since 1.33).
#[test]
fn test_zero_request() {
    let node = |name: &str| {
        let mut n = Node::default();
        n.metadata.name = name.into();
        let mem = (DEFAULT_MEMORY_REQUEST * 10).to_string();
        n.status.allocatable = list(&[("cpu", "1000m"), ("memory", &mem), ("pods", "100")]);
        n
    };
    let dm = DEFAULT_MEMORY_REQUEST.to_string();
    let dm3 = (DEFAULT_MEMORY_REQUEST * 3).to_string();
    let no_resources = pod(vec![], vec![Container::default()]);
    let small = pod(vec![], vec![req(&[("cpu", "100m"), ("memory", &dm)])]);
    let large = pod(vec![], vec![req(&[("cpu", "300m"), ("memory", &dm3)])]);
    let (n1, n2) = (node("node1"), node("node2"));
    let mut ni1 = NodeInfo::new(&n1);
    ni1.add_pod(&large);
    ni1.add_pod(&no_resources);
    let mut ni2 = NodeInfo::new(&n2);
    ni2.add_pod(&large);
    ni2.add_pod(&small);
    for (name, p, want) in [
        (
            "test priority of zero-request pod with node with zero-request pod",
            &no_resources,
            50,
        ),
        (
            "test priority of nonzero-request pod with node with zero-request pod",
            &small,
            50,
        ),
        (
            "test priority of larger pod with node with zero-request pod",
            &large,
            30,
        ),
    ] {
        assert_eq!(least_allocated_score(p, &ni1), want, "{name}: node1");
        assert_eq!(least_allocated_score(p, &ni2), want, "{name}: node2");
    }
}

/// `makeBasePod(t, nodeName, name, cpu, mem, "", ports)` of pkg/scheduler/framework/types_test.go
/// with one host port on 127.0.0.1/TCP.
fn base_pod(cpu: &str, mem: &str, host_port: i64) -> Pod {
    let mut c = req(&[("cpu", cpu), ("memory", mem)]);
    let mut port = crate::api::ContainerPort {
        protocol: Some("TCP".into()),
        ..Default::default()
    };
    port.extra.insert("hostIP".into(), "127.0.0.1".into());
    port.extra.insert("hostPort".into(), host_port.into());
    c.ports = vec![port];
    pod(vec![], vec![c])
}

/// TestNewNodeInfo (pkg/scheduler/framework/types_test.go): two pods' requests summed in
/// `Requested` and `NonZeroRequested`, and their host ports in `UsedPorts`.
#[test]
fn test_new_node_info() {
    let pods = [base_pod("100m", "500", 80), base_pod("200m", "1Ki", 8080)];
    let mut ni = NodeInfo::new(&Node::default());
    for p in &pods {
        ni.add_pod(p);
    }
    assert_eq!(ni.requested, want(300, 1524, &[]));
    assert_eq!(ni.non_zero_requested.milli_cpu, 300);
    assert_eq!(ni.non_zero_requested.memory, 1524);
    assert_eq!(ni.num_pods, 2);
    assert_eq!(ni.pods.len(), 2);
    let mut used = node_ports::HostPortInfo::default();
    used.add("127.0.0.1", "TCP", 80);
    used.add("127.0.0.1", "TCP", 8080);
    assert_eq!(ni.used_ports, used);
}

/// TestTaintTolerationFilterWithFeatureGate
/// (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go), the rows with
/// TaintTolerationComparisonOperators off (its 1.35 default): a `Gt` / `Lt` toleration
/// tolerates nothing, and an `Equal` one beside it still counts. Also the operator-less row of
/// TestTaintTolerationFilter ("A pod which can be scheduled on a dedicated node assigned to
/// user1 with effect NoSchedule": an empty operator means Equal).
#[test]
fn test_taint_toleration_filter_with_feature_gate() {
    let tol = |key: &str, op: &str, value: &str| Toleration {
        key: key.into(),
        operator: op.into(),
        value: value.into(),
        effect: "NoSchedule".into(),
        ..Default::default()
    };
    let taint = |key: &str, value: &str| Taint {
        key: key.into(),
        value: value.into(),
        effect: "NoSchedule".into(),
        time_added: None,
    };
    let sla = "node.kubernetes.io/sla";
    let rows: Vec<(&str, Vec<Toleration>, Vec<Taint>, bool)> = vec![
        (
            "Pod with Gt toleration cannot be scheduled when feature gate is disabled",
            vec![tol(sla, "Gt", "750")],
            vec![taint(sla, "950")],
            false,
        ),
        (
            "Pod with Lt toleration cannot be scheduled when feature gate is disabled",
            vec![tol(sla, "Lt", "950")],
            vec![taint(sla, "800")],
            false,
        ),
        (
            "Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored",
            vec![tol("dedicated", "Equal", "user1"), tol(sla, "Gt", "750")],
            vec![taint("dedicated", "user1")],
            true,
        ),
        (
            "Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled",
            vec![tol("dedicated", "Equal", "user1"), tol(sla, "Gt", "750")],
            vec![taint("dedicated", "user1"), taint(sla, "950")],
            false,
        ),
        (
            "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
            vec![tol("dedicated", "", "user1")],
            vec![taint("dedicated", "user1")],
            true,
        ),
    ];
    for (name, tolerations, taints, fits) in rows {
        let mut p = Pod::default();
        p.spec_mut().tolerations = tolerations;
        let mut n = Node::default();
        n.spec.taints = taints;
        let st = filter_taint_toleration(&p, &n);
        assert_eq!(st.is_none(), fits, "{name}");
        if let Some(st) = st {
            assert_eq!(st.code, Code::UnschedulableAndUnresolvable, "{name}");
            assert_eq!(st.reasons, vec![ERR_REASON_UNTOLERATED_TAINT.to_string()]);
        }
    }
}

/// `calculateResource` (pkg/scheduler/framework/types.go) with pod-level requests: a resource
/// is defaulted in `NonZeroRequested` when the aggregated `PodRequests` lacks it
/// (`getNonMissingContainerRequests`). A container's memory limit alone is no request, so the
/// memory stays defaulted (the TestPodInfoCalculateResources rule, on a limit-only container).
#[test]
fn pod_level_non_zero_requests_ignore_limits() {
    let p = with_pod_level(
        pod(vec![], vec![req_lim(&[], &[("memory", "1Gi")])]),
        &[("cpu", "500m")],
        &[],
    );
    let nz = node_info_non_zero_requests(&p);
    assert_eq!(nz.milli_cpu, 500);
    assert_eq!(nz.memory, DEFAULT_MEMORY_REQUEST);
    let r = pod_requests(&p, false);
    assert_eq!((r.milli_cpu, r.memory), (500, 0));
}

/// TestNodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable/
/// node_unschedulable_test.go), the row "Schedule pod with toleration to unschedulable node
/// (node.Spec.Unschedulable==true)" as written upstream: the toleration has no operator (Equal
/// with an empty value, matching the taint's empty value); and the rejection's code.
#[test]
fn test_node_unschedulable_operatorless_toleration() {
    let mut n = Node::default();
    n.spec.unschedulable = true;
    let st = filter_node_unschedulable(&Pod::default(), &n).expect("rejected");
    assert_eq!(st.code, Code::UnschedulableAndUnresolvable);
    assert_eq!(st.reasons, vec![ERR_REASON_UNSCHEDULABLE.to_string()]);
    let mut p = Pod::default();
    p.spec_mut().tolerations = vec![Toleration {
        key: TAINT_NODE_UNSCHEDULABLE.into(),
        effect: "NoSchedule".into(),
        ..Default::default()
    }];
    assert!(filter_node_unschedulable(&p, &n).is_none());
}

/// TestDefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/normalize_score_test.go),
/// the table's rows as stored upstream (the older port in scheduler.rs uses other values).
#[test]
fn test_default_normalize_score_rows() {
    let rows: [(bool, &[i64], &[i64]); 7] = [
        (false, &[1, 2, 3, 4], &[25, 50, 75, 100]),
        (true, &[1, 2, 3, 4], &[75, 50, 25, 0]),
        (false, &[1000, 10, 20, 30], &[100, 1, 2, 3]),
        (true, &[1000, 10, 20, 30], &[0, 99, 98, 97]),
        (false, &[1, 1, 1, 1], &[100, 100, 100, 100]),
        (false, &[1000, 1, 1, 1], &[100, 0, 0, 0]),
        (true, &[0, 1, 1, 1], &[100, 0, 0, 0]),
    ];
    for (i, (reverse, scores, want)) in rows.into_iter().enumerate() {
        let mut got = scores.to_vec();
        default_normalize_score(MAX_NODE_SCORE, reverse, &mut got);
        assert_eq!(got, want, "case_{i}");
    }
}
