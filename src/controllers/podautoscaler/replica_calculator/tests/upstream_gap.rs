//! Rows of `pkg/controller/podautoscaler/replica_calculator_test.go` that exercise
//! `calcPlainMetricReplicas` through upstream's `GetMetricReplicas` (a Pods metric). kubeplay
//! serves no custom metrics API, but the calculation is the one `GetRawResourceReplicas` shares
//! ([`ReplicaCalculator::get_raw_resource_replicas`]); `GetMetricReplicas` passes an empty
//! resource name, so the CPU-only readiness rules of `groupPods` do not apply. The fake custom
//! metrics client reports each level as the pod's (milli-unit) value, and the target is an
//! average value in milli-units.

use super::*;

/// One `replicaCalcTestCase` with a `podMetric`: `levels` per pod `test-pod-<i>`.
fn run_pod_metric(
    name: &str,
    current: i32,
    readiness: Vec<bool>,
    start: Vec<Start>,
    levels: &[i64],
    target_usage: i64,
    expected: (i32, i64),
) {
    run_pod_metric_with_phases(
        name,
        Case {
            current,
            readiness,
            start,
            ..Default::default()
        },
        levels,
        target_usage,
        expected,
    );
}

/// [`run_pod_metric`] on the pods of `c` (its phases may add pods beyond `current`).
fn run_pod_metric_with_phases(
    name: &str,
    c: Case,
    levels: &[i64],
    target_usage: i64,
    expected: (i32, i64),
) {
    let current = c.current;
    let pods = c.pods();
    let refs: Vec<&Pod> = pods.iter().collect();
    let metrics: PodMetricsInfo = levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            (
                format!("test-pod-{i}"),
                PodMetric {
                    value: *l,
                    timestamp: Time(0),
                    window: Duration::from_secs(60),
                },
            )
        })
        .collect();
    let calc = ReplicaCalculator {
        tolerance: 0.1,
        cpu_initialization_period: Duration::from_secs(120),
        delay_of_initial_readiness_status: Duration::from_secs(10),
        ..Default::default()
    };
    let got = calc.get_raw_resource_replicas(
        current,
        target_usage,
        "",
        Tolerances::uniform(calc.tolerance),
        &refs,
        &metrics,
        NOW,
    );
    assert_eq!(got, Ok(expected), "{name}");
}

// Port of TestReplicaCalcScaleUpCMUnreadyHotCpuNoLessScale (replica_calculator_test.go): an
// unready, CPU-hot pod still counts for a pods metric, so the scale up is not damped.
#[test]
fn scale_up_cm_unready_hot_cpu_no_less_scale() {
    run_pod_metric(
        "TestReplicaCalcScaleUpCMUnreadyHotCpuNoLessScale",
        3,
        vec![true, true, false],
        vec![Cool, Cool, Hot],
        &[50000, 10000, 30000],
        15000,
        (6, 30000),
    );
}

// Port of TestReplicaCalcScaleUpCMUnreadyHotCpuScaleWouldScaleDown (replica_calculator_test.go):
// as above, with two unready hot pods; counting them only raises the recommendation.
#[test]
fn scale_up_cm_unready_hot_cpu_scale_would_scale_down() {
    run_pod_metric(
        "TestReplicaCalcScaleUpCMUnreadyHotCpuScaleWouldScaleDown",
        3,
        vec![false, true, false],
        vec![Hot, Cool, Hot],
        &[50000, 15000, 30000],
        15000,
        (7, 31666),
    );
}

// Port of TestReplicaCalcToleranceCM (replica_calculator_test.go): a 3.3% excess is within the
// 10% tolerance.
#[test]
fn tolerance_cm() {
    run_pod_metric(
        "TestReplicaCalcToleranceCM",
        3,
        vec![],
        vec![],
        &[20000, 21000, 21000],
        20000,
        (3, 20666),
    );
}

// Ports of TestReplicaCalcScaleUpCMExternal and TestReplicaCalcScaleUpCMExternalNoLabels
// (replica_calculator_test.go): despite the names, both tables use `metricType: podMetric` (the
// metric selector is then unused): one pod at 8600 against 4400 doubles.
#[test]
fn scale_up_cm_external_pod_metric_rows() {
    for name in [
        "TestReplicaCalcScaleUpCMExternal",
        "TestReplicaCalcScaleUpCMExternalNoLabels",
    ] {
        run_pod_metric(name, 1, vec![], vec![], &[8600], 4400, (2, 8600));
    }
}

// Port of TestReplicaCalcScaleDownIncludeUnreadyPods (replica_calculator_test.go, the name of
// TestReplicaCalcScaleDownExcludeUnreadyPods before its rename; same table): unready pods are
// left out of a CPU scale down.
#[test]
fn scale_down_include_unready_pods_old_name() {
    Case {
        current: 5,
        expected: Ok(2),
        readiness: vec![true, true, true, false, false],
        requests: vec!["1.0"; 5],
        levels: vec![100, 300, 500, 250, 250],
        target: 50,
        expected_utilization: 30,
        expected_value: 600,
        ..Default::default()
    }
    .run("TestReplicaCalcScaleDownIncludeUnreadyPods");
}

// Port of TestPlainMetricReplicaCalcMissingMetricsNoChangeEq (replica_calculator_test.go): two
// of five pods report nothing and the others average exactly the target. At a ratio of exactly
// 1 the missing pods are filled in neither way, so the recommendation stays at 5 (filling them
// with 0 as on a scale up would propose 3).
#[test]
fn plain_metric_missing_metrics_no_change_eq() {
    run_pod_metric(
        "TestPlainMetricReplicaCalcMissingMetricsNoChangeEq",
        5,
        vec![],
        vec![],
        &[20000, 19000, 21000],
        20000,
        (5, 20000),
    );
}

// Port of TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM (replica_calculator_test.go): a
// surge pod without a sample counts at the target on a scale down, and the recommendation
// (ceil(0.725 × 3) = 3) would exceed the current 2 replicas, so nothing changes.
#[test]
fn during_rolling_update_with_max_surge_cm() {
    run_pod_metric_with_phases(
        "TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM",
        Case {
            current: 2,
            phase: vec!["Running"; 3],
            ..Default::default()
        },
        &[10000, 10000],
        17000,
        (2, 10000),
    );
}

// Port of TestCalculatePodRequests (replica_calculator_test.go, the table TestCalculateRequests
// grew from), the rows without a container name: "void", "pod with regular containers",
// "container missing requests" and "pod with restartable init containers" (sidecars count, plain
// init containers do not). The "calculate requests with special container" row needs a
// container name (ContainerResource metrics are not served).
#[test]
fn calculate_pod_requests_rows() {
    let pod = |containers: Vec<Container>, init: Vec<Container>| {
        let mut p = Pod {
            metadata: ObjectMeta {
                name: "test-pod".into(),
                namespace: "test-namespace".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        p.spec_mut().containers = containers;
        p.spec_mut().init_containers = init;
        p
    };
    let one = |v: i64| Ok(BTreeMap::from([("test-pod".to_string(), v)]));
    assert_eq!(
        calculate_pod_requests(&[], "cpu", true),
        Ok(BTreeMap::new())
    );
    let regular = pod(
        vec![
            container("container1", Some("100m")),
            container("container2", Some("50m")),
        ],
        vec![],
    );
    assert_eq!(calculate_pod_requests(&[&regular], "cpu", true), one(150));
    let missing = pod(vec![container("container1", None)], vec![]);
    assert_eq!(
        calculate_pod_requests(&[&missing], "cpu", true),
        Err("missing request for cpu in container container1 of Pod test-pod".to_string())
    );
    let sidecar = Container {
        restart_policy: Some("Always".into()),
        ..container("restartable-container1", Some("50m"))
    };
    let with_init = pod(
        vec![container("container1", Some("100m"))],
        vec![container("init-container1", Some("20m")), sidecar],
    );
    assert_eq!(calculate_pod_requests(&[&with_init], "cpu", true), one(150));
}
