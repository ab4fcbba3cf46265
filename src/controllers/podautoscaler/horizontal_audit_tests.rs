//! Audit against 1.35's `pkg/controller/podautoscaler/horizontal.go`: boundary cases the ported
//! `horizontal_test.go` tables do not reach, derived from the upstream functions named in each
//! test.

use super::*;

/// Upstream's `setStatus` rebuilds `hpa.Status` from CurrentReplicas, DesiredReplicas,
/// LastScaleTime, CurrentMetrics and Conditions only, so a sync that reaches it drops any
/// `status.observedGeneration` (the status update writes the object's whole status).
fn with_observed_generation(tc: TestCase) -> TestCase {
    TestCase {
        initial_status: Some(HorizontalPodAutoscalerStatus {
            observed_generation: Some(4),
            current_replicas: tc.spec_replicas,
            desired_replicas: tc.spec_replicas,
            ..Default::default()
        }),
        ..tc
    }
}

fn stored_status(run: &Run) -> HorizontalPodAutoscalerStatus {
    run.api
        .store
        .get::<HorizontalPodAutoscaler>(NS, "test-hpa")
        .unwrap()
        .status
        .clone()
}

// upstream: setStatus (horizontal.go), reached from reconcileAutoscaler after a rescale.
#[test]
fn set_status_drops_observed_generation_after_rescale() {
    let run = with_observed_generation(TestCase {
        name: "setStatus after a rescale",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 3,
        status_replicas: 3,
        cpu_target: 30,
        reported_levels: vec![300, 500, 700],
        reported_cpu_requests: one_core(3),
        expected_desired_replicas: 5,
        cpu_current: Some(50),
        ..Default::default()
    })
    .run_test();
    let st = stored_status(&run);
    assert_eq!(st.observed_generation, None, "{st:?}");
    assert_eq!((st.current_replicas, st.desired_replicas), (3, 5));
}

// upstream: setCurrentReplicasAndMetricsInStatus -> setStatus (horizontal.go), reached when
// computeReplicasForMetrics fails (FailedComputeMetricsReplicas): desiredReplicas keeps the old
// status value, observedGeneration is dropped.
#[test]
fn set_current_replicas_and_metrics_drops_observed_generation() {
    let run = with_observed_generation(TestCase {
        name: "setCurrentReplicasAndMetricsInStatus",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 3,
        status_replicas: 3,
        metrics_target: vec![MetricSpec {
            type_: "CheddarCheese".into(),
            ..Default::default()
        }],
        reported_levels: vec![300, 500, 700],
        reported_cpu_requests: one_core(3),
        expected_desired_replicas: 3,
        expected_conditions: Some(vec![
            (ABLE_TO_SCALE, "True", "SucceededGetScale"),
            (SCALING_ACTIVE, "False", "InvalidMetricSourceType"),
        ]),
        ..Default::default()
    })
    .run_test();
    let st = stored_status(&run);
    assert_eq!(st.observed_generation, None, "{st:?}");
}

// upstream: reconcileAutoscaler (horizontal.go): the FailedGetScale paths only set the
// AbleToScale condition and call updateStatusIfNeeded, never setStatus, so the rest of the
// status (observedGeneration included) is written back unchanged.
#[test]
fn failed_get_scale_keeps_observed_generation() {
    let run = with_observed_generation(TestCase {
        name: "FailedGetScale",
        spec_replicas: 3,
        status_replicas: 3,
        cpu_target: 30,
        no_target: true,
        expected_desired_replicas: 3,
        expected_conditions: Some(vec![(ABLE_TO_SCALE, "False", "FailedGetScale")]),
        ..Default::default()
    })
    .run();
    assert!(run.err.is_err());
    let st = stored_status(&run);
    assert_eq!(st.observed_generation, Some(4), "{st:?}");
    assert_eq!(st.conditions.len(), 1);
}

// upstream: reconcileAutoscaler's ScalingDisabled branch (a target scaled to zero) still ends in
// setStatus(currentReplicas=0, desiredReplicas=0, no metrics, rescale=false).
#[test]
fn scaling_disabled_goes_through_set_status() {
    let run = with_observed_generation(TestCase {
        name: "ScalingDisabled",
        min_replicas: 2,
        max_replicas: 6,
        spec_replicas: 0,
        status_replicas: 0,
        cpu_target: 30,
        reported_cpu_requests: Some(vec![]),
        expected_desired_replicas: 0,
        expected_conditions: Some(vec![
            (ABLE_TO_SCALE, "True", "SucceededGetScale"),
            (SCALING_ACTIVE, "False", "ScalingDisabled"),
        ]),
        ..Default::default()
    })
    .run_test();
    let st = stored_status(&run);
    assert_eq!(st.observed_generation, None, "{st:?}");
    let active = st
        .conditions
        .iter()
        .find(|c| c.type_ == SCALING_ACTIVE)
        .unwrap();
    assert_eq!(
        active.message,
        "scaling is disabled since the replica count of the target is zero"
    );
}

// upstream: the MetricValueStatus quantities are `resource.NewMilliQuantity(v,
// resource.DecimalSI)`, printed (and serialized) by Quantity.String(): the canonical form strips
// factors of ten to an exponent that is a multiple of three and picks the SI suffix
// (apimachinery's int64Amount.AsCanonicalBytes), so 1,000,000m is "1k", not "1000".
#[test]
fn milli_quantity_is_decimal_si_canonical() {
    let cases: &[(i64, &str)] = &[
        (0, "0"),
        (1, "1m"),
        (500, "500m"),
        (1500, "1500m"),
        (2000, "2"),
        (1_500_000, "1500"),
        (1_000_000, "1k"),
        (10_000_000, "10k"),
        (2_000_000_000, "2M"),
        (104_857_600_000, "104857600"),
        (100_000_000_000, "100M"),
        (1_000_000_000_000, "1G"),
        (-2000, "-2"),
    ];
    for (v, want) in cases {
        assert_eq!(
            milli_quantity(*v).0,
            *want,
            "NewMilliQuantity({v}, DecimalSI)"
        );
    }
}
