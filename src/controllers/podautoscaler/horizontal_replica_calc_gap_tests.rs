//! Ports of `pkg/controller/podautoscaler/replica_calculator_test.go` rows that the upstream-test
//! scan of docs/upstream-tests-uncited.md found uncited and whose error kubeplay raises in the
//! controller rather than in the replica calculator, on the `TestCase` harness of the parent
//! module.

use super::*;

// upstream: TestReplicaCalcEmptyMetrics (pkg/controller/podautoscaler/replica_calculator_test.go):
// currentReplicas 4, three pods requesting one core each, a cpu utilization target of 100 % and
// no pod metrics at all: GetResourceReplicas fails with "unable to get metrics for resource cpu:
// no metrics returned from resource metrics API" (the metrics client's error, wrapped by the
// calculator). kubeplay's calculator is handed the metrics, so the same fetch happens in
// computeStatusForResourceMetric, which upstream wraps as "failed to get cpu utilization: ...":
// the row is driven through the controller, where the scale stays at 4, ScalingActive turns
// False (FailedGetResourceMetric) and both warning events carry upstream's message.
#[test]
fn replica_calc_empty_metrics() {
    let calc_err =
        "unable to get metrics for resource cpu: no metrics returned from resource metrics API";
    TestCase {
        name: "TestReplicaCalcEmptyMetrics",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 4,
        status_replicas: 4,
        expected_desired_replicas: 4,
        cpu_target: 100,
        reported_levels: vec![],
        reported_cpu_requests: Some(vec!["1.0", "1.0", "1.0"]),
        expected_conditions: Some(vec![
            (ABLE_TO_SCALE, "True", "SucceededGetScale"),
            (SCALING_ACTIVE, "False", "FailedGetResourceMetric"),
        ]),
        expected_events: Some(vec![
            (
                "FailedGetResourceMetric",
                format!("failed to get cpu utilization: {calc_err}"),
            ),
            (
                "FailedComputeMetricsReplicas",
                format!(
                    "invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: {calc_err}"
                ),
            ),
        ]),
        ..Default::default()
    }
    .run_test();
}
