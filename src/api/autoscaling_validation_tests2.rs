//! Further ports of `pkg/apis/autoscaling/validation/validation_test.go`, on the helpers of the
//! parent test module.

use super::*;

// upstream: TestValidateHorizontalPodAutoscalerUpdateScaleToZeroEnabled: with HPAScaleToZero on,
// an update may set minReplicas to 0 or raise it from 0 (Object and External metric HPAs).
#[test]
fn update_scale_to_zero_enabled() {
    let on = gates_with("HPAScaleToZero", true);
    let zero = min_replicas_cases(0);
    let one = min_replicas_cases(1);
    for (z, o) in zero.iter().zip(&one) {
        let errs = validate_horizontal_pod_autoscaler_update_gated(o, z, &on);
        assert!(errs.is_empty(), "expected success: {errs:?}");
        let errs = validate_horizontal_pod_autoscaler_update_gated(z, o, &on);
        assert!(errs.is_empty(), "expected success: {errs:?}");
    }
    // The same update with the gate off is refused (TestValidateHorizontalPodAutoscaler-
    // ScaleToZeroUpdateDisabled), so the gate is what lets it through.
    let off = gates_with("HPAScaleToZero", false);
    assert!(!validate_horizontal_pod_autoscaler_update_gated(&zero[0], &one[0], &off).is_empty());
}
