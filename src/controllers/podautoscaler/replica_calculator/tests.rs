//! Ports of `pkg/controller/podautoscaler/replica_calculator_test.go` (resource metrics).
//!
//! The upstream harness: pods `test-pod-<i>` with two containers that each request the pod's
//! quantity and each report its level (so raw values are `2 × level`), Ready conditions without
//! a transition time, a metric timestamp of the zero time with a one-minute window, a 2-minute
//! CPU initialization period and a 10-second initial readiness delay. "Hot" pods started now,
//! "cool" ones 3 minutes ago, others at the zero time.

use super::*;
use crate::api::{Container, ObjectMeta, PodCondition, Quantity, ResourceRequirements};

const NOW: Time = Time(1_000_000_000_000);

#[derive(Clone, Copy, PartialEq)]
enum Start {
    Zero,
    Hot,
    Cool,
}

struct Case {
    current: i32,
    expected: Result<i32, &'static str>,
    readiness: Vec<bool>,
    start: Vec<Start>,
    phase: Vec<&'static str>,
    deleting: Vec<bool>,
    requests: Vec<&'static str>,
    levels: Vec<i64>,
    metric_pod_names: Vec<&'static str>,
    target: i32,
    expected_utilization: i32,
    expected_value: i64,
    /// `tolerances` of upstream's test case; `None` = the default 0.1 both ways.
    tolerances: Option<Tolerances>,
}

impl Default for Case {
    fn default() -> Self {
        Case {
            current: 0,
            expected: Ok(0),
            readiness: vec![],
            start: vec![],
            phase: vec![],
            deleting: vec![],
            requests: vec![],
            levels: vec![],
            metric_pod_names: vec![],
            target: 0,
            expected_utilization: 0,
            expected_value: 0,
            tolerances: None,
        }
    }
}

fn container(name: &str, req: Option<&str>) -> Container {
    Container {
        name: name.into(),
        resources: req.map(|r| ResourceRequirements {
            requests: [("cpu".to_string(), Quantity(r.into()))]
                .into_iter()
                .collect(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

impl Case {
    fn pods(&self) -> Vec<Pod> {
        let n = (self.current as usize).max(self.phase.len());
        (0..n)
            .map(|i| {
                let mut p = Pod {
                    metadata: ObjectMeta {
                        name: format!("test-pod-{i}"),
                        namespace: "test-namespace".into(),
                        ..Default::default()
                    },
                    ..Default::default()
                };
                if self.deleting.get(i).copied().unwrap_or(false) {
                    p.metadata.deletion_timestamp = Some(NOW);
                }
                p.status.phase = self.phase.get(i).copied().unwrap_or("Running").into();
                p.status.start_time =
                    Some(match self.start.get(i).copied().unwrap_or(Start::Zero) {
                        Start::Zero => Time(0),
                        Start::Hot => NOW,
                        Start::Cool => NOW - Duration::from_secs(180),
                    });
                p.status.conditions = vec![PodCondition {
                    type_: "Ready".into(),
                    status: if self.readiness.get(i).copied().unwrap_or(true) {
                        "True".into()
                    } else {
                        "False".into()
                    },
                    ..Default::default()
                }];
                let req = self.requests.get(i).copied();
                p.spec_mut().containers =
                    vec![container("container1", req), container("container2", req)];
                p
            })
            .collect()
    }

    fn metrics(&self) -> PodMetricsInfo {
        self.levels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let name = self
                    .metric_pod_names
                    .get(i)
                    .map_or_else(|| format!("test-pod-{i}"), |n| n.to_string());
                (
                    name,
                    PodMetric {
                        value: 2 * l,
                        timestamp: Time(0),
                        window: Duration::from_secs(60),
                    },
                )
            })
            .collect()
    }

    fn run(&self, name: &str) {
        let calc = ReplicaCalculator {
            tolerance: 0.1,
            cpu_initialization_period: Duration::from_secs(120),
            delay_of_initial_readiness_status: Duration::from_secs(10),
            ..Default::default()
        };
        let pods = self.pods();
        let refs: Vec<&Pod> = pods.iter().collect();
        let got = calc.get_resource_replicas(
            self.current,
            self.target,
            "cpu",
            self.tolerances
                .unwrap_or(Tolerances::uniform(calc.tolerance)),
            &refs,
            &self.metrics(),
            NOW,
        );
        match (&self.expected, got) {
            (Ok(want), Ok((r, u, v))) => {
                assert_eq!(
                    (r, u, v),
                    (*want, self.expected_utilization, self.expected_value),
                    "{name}"
                );
            }
            (Err(want), Err(e)) => assert!(e.contains(want), "{name}: {e}"),
            (want, got) => panic!("{name}: want {want:?}, got {got:?}"),
        }
    }
}

use Start::{Cool, Hot};

// Port of TestReplicaCalcDisjointResourcesMetrics.
#[test]
fn disjoint_resources_metrics() {
    Case {
        current: 1,
        expected: Err("no metrics returned matched known pods"),
        requests: vec!["1.0"],
        levels: vec![100],
        metric_pod_names: vec!["an-older-pod-name"],
        target: 100,
        ..Default::default()
    }
    .run("TestReplicaCalcDisjointResourcesMetrics");
}

// Ports of TestReplicaCalcScaleUp, TestReplicaCalcScaleUpUnreadyLessScale,
// TestReplicaCalcScaleUpHotCpuLessScale, TestReplicaCalcScaleUpUnreadyNoScale,
// TestReplicaCalcScaleHotCpuNoScale.
#[test]
fn scale_up_and_unready_pods() {
    let base = || Case {
        current: 3,
        requests: vec!["1.0"; 3],
        levels: vec![300, 500, 700],
        target: 30,
        ..Default::default()
    };
    Case {
        expected: Ok(5),
        expected_utilization: 50,
        expected_value: 1000,
        ..base()
    }
    .run("TestReplicaCalcScaleUp");
    Case {
        expected: Ok(4),
        readiness: vec![false, true, true],
        expected_utilization: 60,
        expected_value: 1200,
        ..base()
    }
    .run("TestReplicaCalcScaleUpUnreadyLessScale");
    Case {
        expected: Ok(4),
        start: vec![Hot, Cool, Cool],
        expected_utilization: 60,
        expected_value: 1200,
        ..base()
    }
    .run("TestReplicaCalcScaleUpHotCpuLessScale");
    Case {
        expected: Ok(3),
        readiness: vec![true, false, false],
        levels: vec![400, 500, 700],
        expected_utilization: 40,
        expected_value: 800,
        ..base()
    }
    .run("TestReplicaCalcScaleUpUnreadyNoScale");
    Case {
        expected: Ok(3),
        readiness: vec![true, false, false],
        start: vec![Cool, Hot, Hot],
        levels: vec![400, 500, 700],
        expected_utilization: 40,
        expected_value: 800,
        ..base()
    }
    .run("TestReplicaCalcScaleHotCpuNoScale");
}

// Ports of TestReplicaCalcScaleUpIgnoresFailedPods and TestReplicaCalcScaleUpIgnoresDeletionPods.
#[test]
fn failed_and_deleted_pods_are_ignored() {
    Case {
        current: 2,
        expected: Ok(4),
        readiness: vec![true, true, false, false],
        phase: vec!["Running", "Running", "Failed", "Failed"],
        requests: vec!["1.0"; 4],
        levels: vec![500, 700],
        target: 30,
        expected_utilization: 60,
        expected_value: 1200,
        ..Default::default()
    }
    .run("TestReplicaCalcScaleUpIgnoresFailedPods");
    Case {
        current: 2,
        expected: Ok(4),
        readiness: vec![true, true, false, false],
        phase: vec!["Running"; 4],
        deleting: vec![false, false, true, true],
        requests: vec!["1.0"; 4],
        levels: vec![500, 700],
        target: 30,
        expected_utilization: 60,
        expected_value: 1200,
        ..Default::default()
    }
    .run("TestReplicaCalcScaleUpIgnoresDeletionPods");
}

// Ports of TestReplicaCalcScaleDown, TestReplicaCalcScaleDownExcludeUnreadyPods and
// TestReplicaCalcScaleDownExcludeUnscheduledPods.
#[test]
fn scale_down() {
    let base = || Case {
        current: 5,
        requests: vec!["1.0"; 5],
        levels: vec![100, 300, 500, 250, 250],
        target: 50,
        ..Default::default()
    };
    Case {
        expected: Ok(3),
        expected_utilization: 28,
        expected_value: 560,
        ..base()
    }
    .run("TestReplicaCalcScaleDown");
    Case {
        expected: Ok(2),
        readiness: vec![true, true, true, false, false],
        expected_utilization: 30,
        expected_value: 600,
        ..base()
    }
    .run("TestReplicaCalcScaleDownExcludeUnreadyPods");
    Case {
        expected: Ok(1),
        readiness: vec![true, false, false, false, false],
        phase: vec!["Running", "Pending", "Pending", "Pending", "Pending"],
        levels: vec![100],
        expected_utilization: 10,
        expected_value: 200,
        ..base()
    }
    .run("TestReplicaCalcScaleDownExcludeUnscheduledPods");
}

// Port of TestReplicaCalcTolerance.
#[test]
fn tolerance() {
    Case {
        current: 3,
        expected: Ok(3),
        requests: vec!["0.9", "1.0", "1.1"],
        levels: vec![1010, 1030, 1020],
        target: 100,
        expected_utilization: 102,
        expected_value: 2040,
        ..Default::default()
    }
    .run("TestReplicaCalcTolerance");
}

// Ports of TestReplicaCalcMissingMetricsNoChangeEq / Gt / Lt and
// TestReplicaCalcMissingMetricsUnreadyChange / UnreadyScaleUp / UnreadyScaleDown.
#[test]
fn missing_metrics_are_treated_conservatively() {
    let two = |level: i64, util: i32| Case {
        current: 2,
        expected: Ok(2),
        requests: vec!["1.0"; 2],
        levels: vec![level],
        target: 100,
        expected_utilization: util,
        expected_value: 2 * level,
        ..Default::default()
    };
    two(1000, 100).run("TestReplicaCalcMissingMetricsNoChangeEq");
    two(1900, 190).run("TestReplicaCalcMissingMetricsNoChangeGt");
    two(600, 60).run("TestReplicaCalcMissingMetricsNoChangeLt");
    Case {
        current: 3,
        expected: Ok(3),
        readiness: vec![false, true, true],
        requests: vec!["1.0"; 3],
        levels: vec![100, 450],
        target: 50,
        expected_utilization: 45,
        expected_value: 900,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetricsUnreadyChange");
    Case {
        current: 3,
        expected: Ok(4),
        readiness: vec![false, true, true],
        requests: vec!["1.0"; 3],
        levels: vec![100, 2000],
        target: 50,
        expected_utilization: 200,
        expected_value: 4000,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetricsUnreadyScaleUp");
    Case {
        current: 4,
        expected: Ok(3),
        readiness: vec![false, true, true, true],
        requests: vec!["1.0"; 4],
        levels: vec![100, 100, 100],
        target: 50,
        expected_utilization: 10,
        expected_value: 200,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetricsUnreadyScaleDown");
}

#[test]
fn missing_requests_and_no_pods_are_errors() {
    Case {
        current: 1,
        expected: Err("missing request for cpu in container container1 of Pod test-pod-0"),
        levels: vec![100],
        target: 50,
        ..Default::default()
    }
    .run("missing request");
    Case {
        current: 0,
        expected: Err("no pods returned by selector while calculating replica count"),
        target: 50,
        ..Default::default()
    }
    .run("no pods");
}

// Raw (AverageValue) targets: modelled on TestReplicaCalcScaleUpCM / TestReplicaCalcScaleDownCM
// (calcPlainMetricReplicas is shared with pod metrics).
#[test]
fn average_value_targets() {
    let calc = ReplicaCalculator::default();
    let c = Case {
        current: 3,
        requests: vec!["1.0"; 3],
        levels: vec![10000, 5000, 15000],
        ..Default::default()
    };
    let pods = c.pods();
    let refs: Vec<&Pod> = pods.iter().collect();
    let got = calc
        .get_raw_resource_replicas(
            3,
            15000,
            "cpu",
            Tolerances::uniform(0.1),
            &refs,
            &c.metrics(),
            NOW,
        )
        .unwrap();
    assert_eq!(got, (4, 20000));
    let c = Case {
        current: 5,
        requests: vec!["1.0"; 5],
        levels: vec![6000; 5],
        ..Default::default()
    };
    let pods = c.pods();
    let refs: Vec<&Pod> = pods.iter().collect();
    let got = calc
        .get_raw_resource_replicas(
            5,
            20000,
            "cpu",
            Tolerances::uniform(0.1),
            &refs,
            &c.metrics(),
            NOW,
        )
        .unwrap();
    assert_eq!(got, (3, 12000));
}

// Port of TestReplicaCalcConfigurableTolerance (replica_calculator_test.go): per-direction
// tolerances (HPAConfigurableTolerance).
#[test]
fn configurable_tolerance() {
    let t = |down: f64, up: f64| {
        Some(Tolerances {
            scale_down: down,
            scale_up: up,
        })
    };
    let cases = [
        (
            "Outside of a 0% tolerance",
            t(0.0, 0.0),
            4,
            [909, 1010, 1111],
            101,
            1010,
        ),
        (
            "Within a 200% scale-up tolerance",
            t(0.1, 2.0),
            3,
            [1890, 1910, 1900],
            190,
            1900,
        ),
        (
            "Outside 8% scale-up tolerance (and superfuous scale-down tolerance)",
            t(2.0, 0.08),
            4,
            [1100, 1080, 1090],
            109,
            1090,
        ),
        (
            "Within a 36% scale-down tolerance",
            t(0.36, 0.1),
            3,
            [660, 640, 650],
            65,
            650,
        ),
        (
            "Outside a 34% scale-down tolerance",
            t(0.34, 0.1),
            2,
            [660, 640, 650],
            65,
            650,
        ),
    ];
    for (name, tolerances, expected, levels, util, value) in cases {
        Case {
            current: 3,
            expected: Ok(expected),
            requests: vec!["0.9", "1.0", "1.1"],
            levels: levels.to_vec(),
            target: 100,
            expected_utilization: util,
            expected_value: 2 * value,
            tolerances,
            ..Default::default()
        }
        .run(name);
    }
}

// `isWithin` takes the bounds, not `|1 − ratio|`: with 0.1 both ways a ratio of exactly 1.1
// (or 0.9) does not scale, while the old absolute-difference test scaled at 1.1 because
// 1.1 − 1.0 is 0.10000000000000009 in floating point.
#[test]
fn tolerance_bounds_are_inclusive_as_upstream() {
    let t = Tolerances::uniform(0.1);
    assert!(t.is_within(1.1));
    assert!(t.is_within(0.9));
    assert!(!t.is_within(1.1000001));
    assert!(!t.is_within(0.8999999));
    let asym = Tolerances {
        scale_down: 0.5,
        scale_up: 0.05,
    };
    assert!(asym.is_within(0.6));
    assert!(!asym.is_within(1.06));
    assert_eq!(asym.to_string(), "[down:50.0%, up:5.0%]");
}

// The plain-metric path (calcPlainMetricReplicas) leaves missing pods out when the ratio is
// exactly 1, and keeps the current count when the metrics' count would turn the scale around.
#[test]
fn raw_missing_pods_at_ratio_one_are_left_out() {
    let c = Case {
        current: 3,
        requests: vec!["1.0", "1.0", "1.0"],
        levels: vec![5000, 5000],
        ..Default::default()
    };
    let pods = c.pods();
    let refs: Vec<&Pod> = pods.iter().collect();
    // Two of three pods report exactly the target: the ratio is 1, nothing changes.
    let got = ReplicaCalculator::default()
        .get_raw_resource_replicas(
            3,
            10000,
            "cpu",
            Tolerances::uniform(0.1),
            &refs,
            &c.metrics(),
            NOW,
        )
        .unwrap();
    assert_eq!(got, (3, 10000));
}

/// A pod of TestGroupPods: name, phase, start time and Ready condition (status, transition).
fn group_pod(
    name: &str,
    phase: &str,
    start: Option<Time>,
    ready: Option<(&str, Time)>,
    deleting: bool,
) -> Pod {
    let mut p = Pod {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        ..Default::default()
    };
    if deleting {
        p.metadata.deletion_timestamp = Some(Time::from_unix_secs(1));
    }
    p.status.phase = phase.into();
    p.status.start_time = start;
    p.status.conditions = ready
        .map(|(status, at)| PodCondition {
            type_: "Ready".into(),
            status: status.into(),
            last_transition_time: Some(at),
            ..Default::default()
        })
        .into_iter()
        .collect();
    p
}

// Upstream: TestGroupPods (pkg/controller/podautoscaler/replica_calculator_test.go), every row,
// with upstream's testing CPU initialization period (2 min) and initial readiness delay (10 s).
// `time.Now()` is one fixed instant here; a metric without a timestamp is at the zero time.
#[test]
fn group_pods_table() {
    let ago = |s: i64| NOW - Duration::from_secs(s);
    let m = |timestamp: Time, window: i64| PodMetric {
        value: 1,
        timestamp,
        window: Duration::from_secs(window),
    };
    let zero = m(Time(0), 0);
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    type Row<'a> = (
        &'a str,
        Vec<Pod>,
        Vec<(&'a str, PodMetric)>,
        &'a str,
        usize,
        &'a [&'a str],
        &'a [&'a str],
        &'a [&'a str],
    );
    let rows: Vec<Row> = vec![
        ("void", vec![], vec![], "cpu", 0, &[], &[], &[]),
        (
            "count in a ready pod - memory",
            vec![group_pod("bentham", "Succeeded", None, None, false)],
            vec![("bentham", m(NOW, 60))],
            "memory",
            1,
            &[],
            &[],
            &[],
        ),
        (
            "unready a pod without ready condition - CPU",
            vec![group_pod("lucretius", "Succeeded", Some(NOW), None, false)],
            vec![("lucretius", zero.clone())],
            "cpu",
            0,
            &["lucretius"],
            &[],
            &[],
        ),
        (
            "count in a ready pod with fresh metrics during initialization period - CPU",
            vec![group_pod(
                "bentham",
                "Succeeded",
                Some(ago(60)),
                Some(("True", ago(30))),
                false,
            )],
            vec![("bentham", m(NOW, 30))],
            "cpu",
            1,
            &[],
            &[],
            &[],
        ),
        (
            "unready a ready pod without fresh metrics during initialization period - CPU",
            vec![group_pod(
                "bentham",
                "Succeeded",
                Some(ago(60)),
                Some(("True", ago(30))),
                false,
            )],
            vec![("bentham", m(NOW, 60))],
            "cpu",
            0,
            &["bentham"],
            &[],
            &[],
        ),
        (
            "unready an unready pod during initialization period - CPU",
            vec![group_pod(
                "lucretius",
                "Succeeded",
                Some(ago(600)),
                Some(("False", ago(9 * 60 + 54))),
                false,
            )],
            vec![("lucretius", zero.clone())],
            "cpu",
            0,
            &["lucretius"],
            &[],
            &[],
        ),
        (
            "count in a ready pod without fresh metrics after initialization period - CPU",
            vec![group_pod(
                "bentham",
                "Succeeded",
                Some(ago(180)),
                Some(("True", ago(180))),
                false,
            )],
            vec![("bentham", m(ago(120), 60))],
            "cpu",
            1,
            &[],
            &[],
            &[],
        ),
        (
            "count in an unready pod that was ready after initialization period - CPU",
            vec![group_pod(
                "lucretius",
                "Succeeded",
                Some(ago(600)),
                Some(("False", ago(540))),
                false,
            )],
            vec![("lucretius", zero.clone())],
            "cpu",
            1,
            &[],
            &[],
            &[],
        ),
        (
            "unready pod that has never been ready after initialization period - CPU",
            vec![group_pod(
                "lucretius",
                "Succeeded",
                Some(ago(600)),
                Some(("False", ago(9 * 60 + 50))),
                false,
            )],
            vec![("lucretius", zero.clone())],
            "cpu",
            1,
            &[],
            &[],
            &[],
        ),
        (
            "a missing pod",
            vec![group_pod(
                "epicurus",
                "Succeeded",
                Some(ago(180)),
                None,
                false,
            )],
            vec![],
            "cpu",
            0,
            &[],
            &["epicurus"],
            &[],
        ),
        (
            "several pods",
            vec![
                group_pod("lucretius", "Succeeded", Some(NOW), None, false),
                group_pod(
                    "niccolo",
                    "Succeeded",
                    Some(ago(180)),
                    Some(("True", ago(180))),
                    false,
                ),
                group_pod("epicurus", "Succeeded", Some(ago(180)), None, false),
            ],
            vec![("lucretius", zero.clone()), ("niccolo", zero.clone())],
            "cpu",
            1,
            &["lucretius"],
            &["epicurus"],
            &[],
        ),
        (
            "pending pods are unreadied",
            vec![group_pod("unscheduled", "Pending", None, None, false)],
            vec![],
            "cpu",
            0,
            &["unscheduled"],
            &[],
            &[],
        ),
        (
            "ignore pods with deletion timestamps",
            vec![group_pod("deleted", "Pending", None, None, true)],
            vec![("deleted", zero.clone())],
            "cpu",
            0,
            &[],
            &[],
            &["deleted"],
        ),
        (
            "ignore pods in a failed state",
            vec![group_pod("failed", "Failed", None, None, false)],
            vec![("failed", zero.clone())],
            "cpu",
            0,
            &[],
            &[],
            &["failed"],
        ),
    ];
    for (name, pods, metrics, resource, ready, unready, missing, ignored) in rows {
        let metrics: PodMetricsInfo = metrics
            .into_iter()
            .map(|(n, m)| (n.to_string(), m))
            .collect();
        let refs: Vec<&Pod> = pods.iter().collect();
        let g = group_pods(
            &refs,
            &metrics,
            resource,
            Duration::from_secs(120),
            Duration::from_secs(10),
            NOW,
        );
        assert_eq!(
            g,
            PodGroups {
                ready_pod_count: ready,
                unready_pods: names(unready),
                missing_pods: names(missing),
                ignored_pods: names(ignored),
            },
            "{name}"
        );
    }
}

// Upstream: TestCalculateRequests (pkg/controller/podautoscaler/replica_calculator_test.go), the
// rows without a container name, each with its enablePodLevelResources: "void", "Sum container
// requests if pod-level feature is disabled", "Pod-level resources are enabled, but not set:
// fallback to sum container requests", "Pod-level resources override container requests when
// feature enabled and pod resources specified", "Fail if at least one of the containers is
// missing requests and pod-level feature/requests are not set", "Pod-level resources override
// missing container requests when feature enabled and pod resources specified" and "pod with
// restartable init containers". Skipped: the two container-name rows (one of them with pod-level
// requests; ContainerResource metrics are not served: computeReplicasForMetrics reports
// FailedGetContainerResourceMetric), as is
// TestCalculatePodRequestsFromContainers_NonExistentContainer.
#[test]
fn calculate_requests_table() {
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
    let two = || {
        vec![
            container("container1", Some("100m")),
            container("container2", Some("50m")),
        ]
    };
    let sidecar = |name: &str, req: &str| Container {
        restart_policy: Some("Always".into()),
        ..container(name, Some(req))
    };
    let want = |v: i64| Ok(BTreeMap::from([("test-pod".to_string(), v)]));
    let pod_level = |mut p: Pod, cpu: &str| {
        p.spec_mut().resources = Some(ResourceRequirements {
            requests: BTreeMap::from([("cpu".to_string(), Quantity(cpu.into()))]),
            ..Default::default()
        });
        p
    };
    // (name, enablePodLevelResources, pods, expected)
    type Row<'a> = (
        &'a str,
        bool,
        Vec<Pod>,
        Result<BTreeMap<String, i64>, String>,
    );
    let rows: Vec<Row> = vec![
        ("void", false, vec![], Ok(BTreeMap::new())),
        (
            "Sum container requests if pod-level feature is disabled",
            false,
            vec![pod(two(), vec![])],
            want(150),
        ),
        (
            "Pod-level resources are enabled, but not set: fallback to sum container requests",
            true,
            vec![pod(two(), vec![])],
            want(150),
        ),
        (
            "Pod-level resources override container requests when feature enabled and pod \
             resources specified",
            true,
            vec![pod_level(pod(two(), vec![]), "800m")],
            want(800),
        ),
        (
            "Fail if at least one of the containers is missing requests and pod-level \
             feature/requests are not set",
            false,
            vec![pod(
                vec![
                    container("container1", None),
                    container("container2", Some("50m")),
                ],
                vec![],
            )],
            Err("missing request for cpu in container container1 of Pod test-pod".into()),
        ),
        (
            "Pod-level resources override missing container requests when feature enabled and \
             pod resources specified",
            true,
            vec![pod_level(
                pod(
                    vec![
                        container("container1", None),
                        container("container2", Some("50m")),
                    ],
                    vec![],
                ),
                "800m",
            )],
            want(800),
        ),
        (
            "pod with restartable init containers",
            false,
            vec![pod(
                vec![container("container1", Some("100m"))],
                vec![
                    container("init-container1", Some("20m")),
                    sidecar("restartable-container1", "50m"),
                ],
            )],
            want(150),
        ),
    ];
    let n = rows.len();
    for (name, enabled, pods, expected) in rows {
        let refs: Vec<&Pod> = pods.iter().collect();
        assert_eq!(
            calculate_pod_requests(&refs, "cpu", enabled),
            expected,
            "{name}"
        );
    }
    assert_eq!(n, 7);
}

// Not an upstream row: pod-level requests set but PodLevelResources off — the containers' sum
// (calculatePodRequestsFromContainers), and a missing container request is an error again; with
// the gate on, a resource the pod level does not name falls back to the containers' aggregate
// (PodRequests), and is missing only when no container requests it either.
#[test]
fn calculate_requests_pod_level_edges() {
    let mut p = Pod {
        metadata: ObjectMeta {
            name: "test-pod".into(),
            ..Default::default()
        },
        ..Default::default()
    };
    p.spec_mut().containers = vec![
        container("container1", Some("100m")),
        container("container2", Some("50m")),
    ];
    p.spec_mut().resources = Some(ResourceRequirements {
        requests: BTreeMap::from([("memory".to_string(), Quantity("1Gi".into()))]),
        ..Default::default()
    });
    let refs = [&p];
    let want = |v: i64| Ok(BTreeMap::from([("test-pod".to_string(), v)]));
    assert_eq!(calculate_pod_requests(&refs, "cpu", false), want(150));
    assert_eq!(calculate_pod_requests(&refs, "cpu", true), want(150));
    assert_eq!(
        calculate_pod_requests(&refs, "memory", true),
        want(1024 * 1024 * 1024 * 1000)
    );
    assert_eq!(
        calculate_pod_requests(&refs, "memory", false),
        Err("missing request for memory in container container1 of Pod test-pod".into())
    );
    assert_eq!(
        calculate_pod_requests(&refs, "ephemeral-storage", true),
        Err("missing pod-level request for ephemeral-storage in Pod test-pod".into())
    );
}

fn milli_map(v: &[(&str, i64)]) -> BTreeMap<String, i64> {
    v.iter().map(|(k, x)| (k.to_string(), *x)).collect()
}

// Upstream: TestGetResourceUtilizationRatioBaseCase, TestGetResourceUtilizationRatioIgnorePodsWithNoRequest,
// TestGetResourceUtilizationRatioExtraRequest, TestGetResourceUtilizationRatioNoRequests
// (pkg/controller/podautoscaler/metrics/utilization_test.go).
#[test]
fn get_resource_utilization_ratio_cases() {
    let two = milli_map(&[("test-pod-0", 50), ("test-pod-1", 76)]);
    let requests = milli_map(&[("test-pod-0", 100), ("test-pod-1", 100)]);
    // BaseCase
    assert_eq!(
        get_resource_utilization_ratio(&two, &requests, 50),
        Ok((1.26, 63, 63))
    );
    // IgnorePodsWithNoRequest
    let with_no_request = milli_map(&[
        ("test-pod-0", 50),
        ("test-pod-1", 76),
        ("test-pod-no-request", 100),
    ]);
    assert_eq!(
        get_resource_utilization_ratio(&with_no_request, &requests, 50),
        Ok((1.26, 63, 63))
    );
    // ExtraRequest
    let extra = milli_map(&[
        ("test-pod-0", 100),
        ("test-pod-1", 100),
        ("test-pod-extra-request", 500),
    ]);
    assert_eq!(
        get_resource_utilization_ratio(&two, &extra, 50),
        Ok((1.26, 63, 63))
    );
    // NoRequests
    let err = get_resource_utilization_ratio(&two, &BTreeMap::new(), 50).unwrap_err();
    assert!(
        err.contains("no metrics returned matched known pods"),
        "{err}"
    );
}

// Upstream: TestGetMetricUsageRatioBaseCase (pkg/controller/podautoscaler/metrics/utilization_test.go).
#[test]
fn get_metric_usage_ratio_base_case() {
    let m = milli_map(&[("test-pod-0", 5000), ("test-pod-1", 10000)]);
    assert_eq!(get_metric_usage_ratio(&m, 10000), (0.75, 7500));
}

// Go's int64 sums in GetResourceUtilizationRatio / GetMetricUsageRatio wrap (1.35 has no overflow
// handling there); so do these, instead of panicking on samples near i64::MAX.
#[test]
fn utilization_sums_wrap_like_go() {
    let big = i64::MAX / 2 + 1;
    let m = milli_map(&[("a", big), ("b", big)]);
    let requests = milli_map(&[("a", 1000), ("b", 1000)]);
    // metricsTotal = 2^63 wraps to i64::MIN; (MIN * 100) wraps to 0 → 0 %.
    assert_eq!(
        get_resource_utilization_ratio(&m, &requests, 50),
        Ok((0.0, 0, i64::MIN / 2))
    );
    assert_eq!(get_metric_usage_ratio(&m, 1000).1, i64::MIN / 2);
}

// Not ported from replica_calculator_test.go: the *CM* / *CMObject* / *CMExternal* / *PerPod*
// rows and TestReplicaCalcExternalMetricUsageOverflow (no custom or external metrics API is
// served), the ContainerResource rows (no per-container samples) and the container-name rows of
// TestCalculateRequests (see calculate_requests_table). From
// metrics/*_client_test.go: REST metrics client plumbing, not applicable.

mod upstream_gap;
mod upstream_tests2;
