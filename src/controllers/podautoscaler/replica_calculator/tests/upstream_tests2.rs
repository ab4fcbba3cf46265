//! Further resource-metric rows of `pkg/controller/podautoscaler/replica_calculator_test.go`
//! (the ContainerResource and custom/external metric ones are out of scope: kubeplay serves
//! neither), on the harness of the parent module.

use super::*;

// upstream: TestReplicaCalcScaleDownIgnoreHotCpuPods: pods still in their CPU initialization
// period ("hot") are left out of a scale down.
#[test]
fn scale_down_ignore_hot_cpu_pods() {
    Case {
        current: 5,
        expected: Ok(2),
        start: vec![Cool, Cool, Cool, Hot, Hot],
        requests: vec!["1.0"; 5],
        levels: vec![100, 300, 500, 250, 250],
        target: 50,
        expected_utilization: 30,
        expected_value: 600,
        ..Default::default()
    }
    .run("TestReplicaCalcScaleDownIgnoreHotCpuPods");
}

// upstream: TestReplicaCalcScaleDownIgnoresFailedPods and
// TestReplicaCalcScaleDownIgnoresDeletionPods: failed pods and pods being deleted (beyond
// currentReplicas, without metrics) do not count.
#[test]
fn scale_down_ignores_failed_and_deleted_pods() {
    let base = || Case {
        current: 5,
        expected: Ok(3),
        readiness: vec![true, true, true, true, true, false, false],
        requests: vec!["1.0"; 7],
        levels: vec![100, 300, 500, 250, 250],
        target: 50,
        expected_utilization: 28,
        expected_value: 560,
        ..Default::default()
    };
    Case {
        phase: vec![
            "Running", "Running", "Running", "Running", "Running", "Failed", "Failed",
        ],
        ..base()
    }
    .run("TestReplicaCalcScaleDownIgnoresFailedPods");
    Case {
        phase: vec!["Running"; 7],
        deleting: vec![false, false, false, false, false, true, true],
        ..base()
    }
    .run("TestReplicaCalcScaleDownIgnoresDeletionPods");
}

// upstream: TestReplicaCalcSuperfluousMetrics: metrics of pods the selector does not return
// (test-pod-4, test-pod-5) are dropped.
#[test]
fn superfluous_metrics() {
    Case {
        current: 4,
        expected: Ok(24),
        requests: vec!["1.0"; 4],
        levels: vec![4000, 9500, 3000, 7000, 3200, 2000],
        target: 100,
        expected_utilization: 587,
        expected_value: 11750,
        ..Default::default()
    }
    .run("TestReplicaCalcSuperfluousMetrics");
}

// upstream: TestReplicaCalcMissingMetrics: two of four pods report; the missing ones count as
// using their full request in a scale down, which then settles on 3.
#[test]
fn missing_metrics() {
    Case {
        current: 4,
        expected: Ok(3),
        requests: vec!["1.0"; 4],
        levels: vec![400, 95],
        target: 100,
        expected_utilization: 24,
        expected_value: 495,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetrics");
}

// upstream: TestReplicaCalcEmptyCPURequest: a pod without a CPU request is an error.
#[test]
fn empty_cpu_request() {
    Case {
        current: 1,
        expected: Err("missing request for"),
        levels: vec![200],
        target: 100,
        ..Default::default()
    }
    .run("TestReplicaCalcEmptyCPURequest");
}

// upstream: TestReplicaCalcMissingMetricsHotCpuNoChange, TestReplicaCalcMissingMetricsHotCpuScaleUp
// and TestReplicaCalcMissingMetricsScaleDownTargetOver100.
#[test]
fn missing_metrics_hot_cpu_and_target_over_100() {
    Case {
        current: 3,
        expected: Ok(3),
        start: vec![Hot, Cool, Cool],
        requests: vec!["1.0"; 3],
        levels: vec![100, 450],
        target: 50,
        expected_utilization: 45,
        expected_value: 900,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetricsHotCpuNoChange");
    Case {
        current: 3,
        expected: Ok(4),
        readiness: vec![false, true, true],
        start: vec![Hot, Cool, Cool],
        requests: vec!["1.0"; 3],
        levels: vec![100, 2000],
        target: 50,
        expected_utilization: 200,
        expected_value: 4000,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetricsHotCpuScaleUp");
    Case {
        current: 4,
        expected: Ok(2),
        readiness: vec![false, true, true, true],
        requests: vec!["1.0", "1.0", "2.0", "2.0"],
        levels: vec![200, 100, 100],
        target: 300,
        expected_utilization: 6,
        expected_value: 200,
        ..Default::default()
    }
    .run("TestReplicaCalcMissingMetricsScaleDownTargetOver100");
}

// upstream: TestReplicaCalcDuringRollingUpdateWithMaxSurge: two reporting pods at 10% of a 50%
// target plus a surge pod without metrics. Counted at its full request the missing pod lifts the
// recomputed ratio to 0.8 over three pods, i.e. 3 replicas: a scale down that would grow is
// dropped and currentReplicas (2) stays.
#[test]
fn during_rolling_update_with_max_surge() {
    Case {
        current: 2,
        expected: Ok(2),
        phase: vec!["Running"; 3],
        requests: vec!["1.0"; 3],
        levels: vec![100, 100],
        target: 50,
        expected_utilization: 10,
        expected_value: 200,
        ..Default::default()
    }
    .run("TestReplicaCalcDuringRollingUpdateWithMaxSurge");
}

// upstream: TestReplicaCalcComputedToleranceAlgImplementation: ten pods using 150m of 300m on
// average (requests jittered around 300m); a target of 56% is just past the tolerance and scales
// to ceil(10 × 1500 / (3000 × 0.5655…)) = 9, a target of 55% is inside it and keeps 10.
#[test]
fn computed_tolerance_alg_implementation() {
    let base = || Case {
        current: 10,
        requests: vec![
            "400m", "200m", "310m", "290m", "302m", "298m", "301m", "299m", "300m", "300m",
        ],
        levels: vec![150; 10],
        expected_utilization: 50,
        expected_value: 300,
        ..Default::default()
    };
    // target = |1 / (2 × (1 - 0.1))| + .01 = 0.5655…, as a percentage 56.
    Case {
        expected: Ok(9),
        target: 56,
        ..base()
    }
    .run("TestReplicaCalcComputedToleranceAlgImplementation (scale)");
    // target = 0.5555… + .004, as a percentage 55.
    Case {
        expected: Ok(10),
        target: 55,
        ..base()
    }
    .run("TestReplicaCalcComputedToleranceAlgImplementation (no scale)");
}
