//! PodDisruptionBudget validation tests.

use super::*;
use crate::api::validation::validate_object;
use crate::api::Object;

fn lines(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

fn relaxed() -> PodDisruptionBudgetValidationOptions {
    PodDisruptionBudgetValidationOptions {
        allow_invalid_label_value_in_selector: true,
    }
}

fn min_available(v: IntOrString) -> PodDisruptionBudgetSpec {
    PodDisruptionBudgetSpec {
        min_available: Some(v),
        ..Default::default()
    }
}

// upstream: TestValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation/validation_test.go)
#[test]
fn both_bounds_set_fails() {
    let spec = PodDisruptionBudgetSpec {
        min_available: Some("0%".into()),
        max_unavailable: Some("10%".into()),
        ..Default::default()
    };
    assert!(!validate_pod_disruption_budget_spec(&spec, relaxed(), "foo").is_empty());
}

// upstream: TestValidateMinAvailablePodDisruptionBudgetSpec (validation_test.go)
#[test]
fn min_available_cases() {
    for ok in [
        IntOrString::from("0%"),
        "1%".into(),
        "100%".into(),
        0.into(),
        1.into(),
        100.into(),
    ] {
        let errs =
            validate_pod_disruption_budget_spec(&min_available(ok.clone()), relaxed(), "foo");
        assert!(errs.is_empty(), "{ok:?}: {errs:?}");
    }
    for bad in [
        IntOrString::from("1.1%"),
        "nope".into(),
        "-1%".into(),
        "101%".into(),
        (-1).into(),
    ] {
        let errs =
            validate_pod_disruption_budget_spec(&min_available(bad.clone()), relaxed(), "foo");
        assert!(!errs.is_empty(), "{bad:?} accepted");
    }
    // The messages of the two helpers (`ValidatePositiveIntOrPercent`,
    // `IsNotMoreThan100Percent` in pkg/apis/apps/validation).
    assert_eq!(
        lines(&validate_pod_disruption_budget_spec(
            &min_available("101%".into()),
            relaxed(),
            "spec"
        )),
        ["spec.minAvailable: Invalid value: \"101%\": must not be greater than 100%"]
    );
    assert_eq!(
        lines(&validate_pod_disruption_budget_spec(
            &PodDisruptionBudgetSpec {
                max_unavailable: Some((-1).into()),
                ..Default::default()
            },
            relaxed(),
            "spec"
        )),
        ["spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"]
    );
}

// upstream: TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec (validation_test.go).
// The bad value is the internal spec, which `field.Error` prints as its JSON encoding; the
// internal type has no JSON tags, so Go field names in declaration order.
#[test]
fn min_available_and_max_unavailable() {
    let spec = PodDisruptionBudgetSpec {
        min_available: Some("10%".into()),
        max_unavailable: Some(1.into()),
        ..Default::default()
    };
    assert_eq!(
        lines(&validate_pod_disruption_budget_spec(
            &spec,
            relaxed(),
            "foo"
        )),
        [
            r#"foo: Invalid value: {"MinAvailable":"10%","Selector":null,"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set"#
        ]
    );
}

// upstream: TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec (validation_test.go)
#[test]
fn unhealthy_pod_eviction_policy() {
    let cases: [(&str, Option<&str>, bool); 4] = [
        ("valid nil UnhealthyPodEvictionPolicy", None, false),
        (
            "valid UnhealthyPodEvictionPolicy",
            Some("AlwaysAllow"),
            false,
        ),
        ("empty UnhealthyPodEvictionPolicy", Some(""), true),
        ("invalid UnhealthyPodEvictionPolicy", Some("Invalid"), true),
    ];
    for (name, policy, expect_err) in cases {
        let mut spec = min_available("10%".into());
        spec.unhealthy_pod_eviction_policy = policy.map(String::from);
        let errs = validate_pod_disruption_budget_spec(&spec, relaxed(), "foo");
        assert_eq!(!errs.is_empty(), expect_err, "{name}: {errs:?}");
    }
    let mut spec = min_available(1.into());
    spec.unhealthy_pod_eviction_policy = Some("Invalid".into());
    assert_eq!(
        lines(&validate_pod_disruption_budget_spec(&spec, relaxed(), "spec")),
        ["spec.unhealthyPodEvictionPolicy: Unsupported value: \"Invalid\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\""]
    );
}

// upstream: TestValidatePodDisruptionBudgetStatus (validation_test.go), the policy/v1 column
// (kubeplay serves policy/v1 only).
#[test]
fn status_update() {
    let now = crate::api::Time::parse_rfc3339("2025-01-10T00:00:00Z").unwrap();
    let st = |f: &dyn Fn(&mut PodDisruptionBudgetStatus)| {
        let mut s = PodDisruptionBudgetStatus::default();
        f(&mut s);
        s
    };
    let cases: Vec<(&str, PodDisruptionBudgetStatus, bool)> = vec![
        (
            "DisruptionsAllowed: 10",
            st(&|s| s.disruptions_allowed = 10),
            false,
        ),
        ("CurrentHealthy: 5", st(&|s| s.current_healthy = 5), false),
        ("DesiredHealthy: 3", st(&|s| s.desired_healthy = 3), false),
        ("ExpectedPods: 2", st(&|s| s.expected_pods = 2), false),
        (
            "DisruptionsAllowed: -10",
            st(&|s| s.disruptions_allowed = -10),
            true,
        ),
        ("CurrentHealthy: -5", st(&|s| s.current_healthy = -5), true),
        ("DesiredHealthy: -3", st(&|s| s.desired_healthy = -3), true),
        ("ExpectedPods: -2", st(&|s| s.expected_pods = -2), true),
        (
            "Conditions valid",
            st(&|s| {
                s.conditions = vec![Condition {
                    type_: DISRUPTION_ALLOWED_CONDITION.into(),
                    status: "True".into(),
                    last_transition_time: Some(now),
                    reason: SUFFICIENT_PODS_REASON.into(),
                    message: "message".into(),
                    observed_generation: 3,
                }]
            }),
            false,
        ),
        (
            "Conditions not valid",
            st(&|s| {
                s.conditions = vec![
                    Condition {
                        type_: DISRUPTION_ALLOWED_CONDITION.into(),
                        status: "True".into(),
                        ..Default::default()
                    },
                    Condition {
                        type_: DISRUPTION_ALLOWED_CONDITION.into(),
                        status: "False".into(),
                        ..Default::default()
                    },
                ]
            }),
            true,
        ),
    ];
    for (name, status, expect_err) in cases {
        let errs = validate_pod_disruption_budget_status_update(&status, "status");
        assert_eq!(!errs.is_empty(), expect_err, "{name}: {errs:?}");
    }
    assert_eq!(
        lines(&validate_pod_disruption_budget_status_update(
            &st(&|s| s.expected_pods = -2),
            "status"
        )),
        ["status.expectedPods: Invalid value: -2: must be greater than or equal to 0"]
    );
}

/// A manifest through the API server's create and update validation (strategy.go): the
/// selector's values are checked strictly on create, and tolerated on update when the stored
/// object already had an invalid one (`hasInvalidLabelValueInLabelSelector`).
#[test]
fn strategy_validation_through_the_object() {
    let decode = |v: serde_json::Value| Object::from_value(v).unwrap();
    let bad = decode(serde_json::json!({
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "web", "namespace": "default", "resourceVersion": "7"},
        "spec": {"minAvailable": 2, "selector": {"matchExpressions": [
            {"key": "app", "operator": "In", "values": ["-bad-"]}]}}
    }));
    let errs = lines(&validate_object(&bad, None));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0]
            .starts_with("spec.selector.matchExpressions[0].values[0]: Invalid value: \"-bad-\""),
        "{errs:?}"
    );
    assert!(validate_object(&bad, Some(&bad)).is_empty());
    let ok = decode(serde_json::json!({
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "web", "namespace": "default", "resourceVersion": "7"},
        "spec": {"maxUnavailable": "25%", "selector": {"matchLabels": {"app": "web"}},
                 "unhealthyPodEvictionPolicy": "AlwaysAllow"}
    }));
    assert!(validate_object(&ok, None).is_empty());
    assert!(validate_object(&bad, Some(&ok)).len() == 1);
}

#[test]
fn kind_wiring() {
    assert_eq!(crate::api::resolve_kind("pdb"), Some("PodDisruptionBudget"));
    assert_eq!(
        crate::api::resolve_kind("poddisruptionbudgets.policy"),
        Some("PodDisruptionBudget")
    );
    assert_eq!(
        crate::api::kind_info("PodDisruptionBudget"),
        Some(("policy/v1", "poddisruptionbudgets", "policy", true))
    );
    let e = Object::from_value(serde_json::json!({
        "apiVersion": "policy/v1beta1", "kind": "PodDisruptionBudget", "metadata": {"name": "x"}
    }))
    .unwrap_err();
    assert_eq!(
        e,
        "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\""
    );
    // Strict decoding knows the policy/v1 fields.
    let v = serde_json::json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "x"}, "spec": {"minAvailable": 1, "maxUnavaliable": 1}});
    assert_eq!(
        crate::api::schema::strict_check("PodDisruptionBudget", &v, false).unwrap_err(),
        "strict decoding error: unknown field \"spec.maxUnavaliable\""
    );
}
