//! Row-by-row audit of the apps/v1 Deployment validation tables
//! (pkg/apis/apps/validation/validation_test.go) with each error's exact text, plus hand-derived
//! edge cases of ValidateDeploymentSpec / ValidateRollingUpdateDeployment (int32 bounds, percent
//! strings, both rolling-update values zero, revisionHistoryLimit, progressDeadlineSeconds).
//! Upstream's TestValidateDeployment checks only that the first error contains a substring; the
//! full lists here are derived from pkg/apis/apps/validation/validation.go.

use super::*;
use crate::test_fixtures::merge_patch as merge;
use serde_json::json;

/// `validDeployment()` (validation_test.go) without `rollbackTo` (apps/v1 has none).
fn valid_deployment() -> Value {
    json!({
        "metadata": {"name": "abc", "namespace": "default"},
        "spec": {
            "replicas": 0,
            "selector": {"matchLabels": {"name": "abc"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}},
            "template": {
                "metadata": {"name": "abc", "namespace": "default", "labels": {"name": "abc"}},
                "spec": {
                    "containers": [{"name": "ctr", "image": "image", "imagePullPolicy": "IfNotPresent",
                        "terminationMessagePolicy": "File"}],
                    "dnsPolicy": "ClusterFirst",
                    "restartPolicy": "Always",
                    "terminationGracePeriodSeconds": 30,
                    "schedulerName": "default-scheduler",
                    "securityContext": {},
                    "enableServiceLinks": true
                }
            }
        }
    })
}

fn patched(patch: Value) -> Deployment {
    let mut v = valid_deployment();
    merge(&mut v, patch);
    serde_json::from_value(v).expect("valid Deployment JSON")
}

fn lines(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

/// A rolling update with the given values (JSON `null` leaves one unset: the internal type's
/// zero IntOrString, 0).
fn rolling(max_surge: Value, max_unavailable: Value) -> Value {
    json!({"spec": {"strategy": {"type": "RollingUpdate",
        "rollingUpdate": {"maxSurge": max_surge, "maxUnavailable": max_unavailable}}}})
}

const RU: &str = "spec.strategy.rollingUpdate";

// upstream: TestValidateDeployment (pkg/apis/apps/validation/validation_test.go): the error
// rows built from validDeployment(), each with its whole error list.
#[test]
fn validate_deployment_error_rows_exact() {
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "`selector` does not match template `labels`",
            json!({"spec": {"selector": {"matchLabels": {"name": "def"}}}}),
            vec!["spec.template.metadata.labels: Invalid value: {\"name\":\"abc\"}: `selector` does not match template `labels`".into()],
        ),
        (
            "Unsupported value: \"Never\"",
            json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}}),
            vec!["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"".into()],
        ),
        (
            "may not be specified when strategy `type` is 'Recreate'",
            json!({"spec": {"strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": null, "maxUnavailable": null}}}}),
            vec![format!("{RU}: Forbidden: may not be specified when strategy `type` is 'Recreate'")],
        ),
        (
            // maxUnavailable unset (0), and IntValue() of "20Percent" is 0: both zero.
            "a valid percent string must be",
            rolling(json!("20Percent"), Value::Null),
            vec![
                format!("{RU}.maxSurge: Invalid value: \"20Percent\": {PERCENT_ERR_MSG}"),
                format!("{RU}.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"),
            ],
        ),
        (
            "may not be 0 when `maxSurge` is 0",
            rolling(json!("0%"), json!(0)),
            vec![format!("{RU}.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0")],
        ),
        (
            "must not be greater than 100%",
            rolling(Value::Null, json!("110%")),
            vec![format!("{RU}.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%")],
        ),
        (
            "must be greater than minReadySeconds",
            json!({"spec": {"progressDeadlineSeconds": 600, "minReadySeconds": 600}}),
            vec!["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds".into()],
        ),
        (
            "ephemeral containers not allowed",
            json!({"spec": {"template": {"spec": {"ephemeralContainers": [{"name": "ec",
                "image": "image", "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "File"}]}}}}),
            vec!["spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template".into()],
        ),
    ];
    for (k, patch, want) in rows {
        let errs = validate_deployment(&patched(patch));
        assert_eq!(lines(&errs), want, "[{k}]");
        assert!(lines(&errs)[0].contains(k), "[{k}] first error");
    }
    // The "metadata.name: Required value" row: an otherwise empty Deployment; the first error.
    let empty: Deployment =
        serde_json::from_value(json!({"metadata": {"namespace": "default"}})).expect("JSON");
    let errs = lines(&validate_deployment(&empty));
    assert_eq!(
        errs.first().map(String::as_str),
        Some("metadata.name: Required value: name or generateName is required")
    );
    assert!(
        errs.contains(&"spec.selector: Required value".to_string()),
        "{errs:?}"
    );
}

// Hand-derived edges of ValidateRollingUpdateDeployment: percent strings and zero values.
// `getPercentValue` ignores strconv.Atoi's error, whose ErrRange value is math.MaxInt64.
#[test]
fn rolling_update_deployment_edges() {
    let not_zero = |v: &str| {
        format!("{RU}.maxUnavailable: Invalid value: {v}: may not be 0 when `maxSurge` is 0")
    };
    let rows: Vec<(Value, Value, Vec<String>)> = vec![
        (json!(0), json!("100%"), vec![]),
        (json!("100%"), json!(0), vec![]),
        // maxSurge has no 100% cap.
        (json!("200%"), json!(0), vec![]),
        (json!(2147483647), json!(2147483647), vec![]),
        (json!("0%"), json!("0%"), vec![not_zero("\"0%\"")]),
        (json!(0), json!(0), vec![not_zero("0")]),
        (json!("000%"), json!("0%"), vec![not_zero("\"0%\"")]),
        (
            json!(1),
            json!("101%"),
            vec![format!("{RU}.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%")],
        ),
        (
            json!(-2147483648),
            json!(1),
            vec![format!("{RU}.maxSurge: Invalid value: -2147483648: must be greater than or equal to 0")],
        ),
        (
            // -1 is not zero, so no "may not be 0" error.
            json!(0),
            json!(-1),
            vec![format!("{RU}.maxUnavailable: Invalid value: -1: must be greater than or equal to 0")],
        ),
        (
            // "0" is not a percent; IntValue() is 0 for both.
            json!(0),
            json!("0"),
            vec![
                format!("{RU}.maxUnavailable: Invalid value: \"0\": {PERCENT_ERR_MSG}"),
                not_zero("\"0\""),
            ],
        ),
        (
            // "5" is not a percent, but IntValue() is 5: not both zero.
            json!(0),
            json!("5"),
            vec![format!("{RU}.maxUnavailable: Invalid value: \"5\": {PERCENT_ERR_MSG}")],
        ),
        (
            json!(1),
            json!("-1%"),
            vec![format!("{RU}.maxUnavailable: Invalid value: \"-1%\": {PERCENT_ERR_MSG}")],
        ),
        (
            json!(1),
            json!("99999999999999999999%"),
            vec![format!("{RU}.maxUnavailable: Invalid value: \"99999999999999999999%\": must not be greater than 100%")],
        ),
        // A maxSurge percent beyond int64 is math.MaxInt64, not zero: valid with maxUnavailable 0.
        (json!("99999999999999999999%"), json!(0), vec![]),
    ];
    for (surge, unavailable, want) in rows {
        let d = patched(rolling(surge.clone(), unavailable.clone()));
        assert_eq!(
            lines(&validate_deployment(&d)),
            want,
            "maxSurge {surge}, maxUnavailable {unavailable}"
        );
    }
}

// Hand-derived edges of ValidateDeploymentSpec: int32 bounds of replicas and minReadySeconds,
// revisionHistoryLimit, progressDeadlineSeconds ≤ minReadySeconds.
#[test]
fn deployment_spec_edges() {
    let rows: Vec<(Value, Vec<&str>)> = vec![
        (json!({"spec": {"replicas": 2147483647}}), vec![]),
        (json!({"spec": {"revisionHistoryLimit": 0}}), vec![]),
        (json!({"spec": {"progressDeadlineSeconds": 1, "minReadySeconds": 0}}), vec![]),
        (
            json!({"spec": {"replicas": -2147483648}}),
            vec!["spec.replicas: Invalid value: -2147483648: must be greater than or equal to 0"],
        ),
        (
            json!({"spec": {"revisionHistoryLimit": -1}}),
            vec!["spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"],
        ),
        (
            json!({"spec": {"progressDeadlineSeconds": 0}}),
            vec!["spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds"],
        ),
        (
            json!({"spec": {"progressDeadlineSeconds": 10, "minReadySeconds": 11}}),
            vec!["spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds"],
        ),
        (
            json!({"spec": {"progressDeadlineSeconds": -1}}),
            vec![
                "spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
                "spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds",
            ],
        ),
        (
            json!({"spec": {"progressDeadlineSeconds": 2147483647, "minReadySeconds": 2147483647}}),
            vec!["spec.progressDeadlineSeconds: Invalid value: 2147483647: must be greater than minReadySeconds"],
        ),
        (
            // A negative minReadySeconds with progressDeadlineSeconds unset: only the first error.
            json!({"spec": {"minReadySeconds": -1}}),
            vec!["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"],
        ),
        (
            json!({"spec": {"template": {"spec": {"activeDeadlineSeconds": 10}}}}),
            vec!["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"],
        ),
        (
            json!({"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": null}}}),
            vec!["spec.strategy.rollingUpdate: Required value: this should be defaulted and never be nil"],
        ),
    ];
    for (patch, want) in rows {
        let d = patched(patch.clone());
        assert_eq!(lines(&validate_deployment(&d)), want, "{patch}");
    }
}

// Selector immutability on update (deploymentStrategy.ValidateUpdate for apps/v1): a change of
// matchExpressions counts, an identical selector does not; the other spec fields may change.
#[test]
fn selector_immutability_on_update() {
    let mut old = patched(json!({}));
    old.metadata.resource_version = "1".into();
    let mut new = old.clone();
    new.spec.replicas = Some(5);
    new.spec.min_ready_seconds = 3;
    new.spec.strategy = serde_json::from_value(json!({"type": "Recreate"})).expect("strategy");
    assert!(validate_deployment_strategy_update(&new, &old).is_empty());
    let expr = json!({"matchLabels": {"name": "abc"},
        "matchExpressions": [{"key": "name", "operator": "Exists"}]});
    new.spec.selector = Some(serde_json::from_value(expr).expect("selector"));
    assert_eq!(
        lines(&validate_deployment_strategy_update(&new, &old)),
        ["spec.selector: Invalid value: {\"matchLabels\":{\"name\":\"abc\"},\"matchExpressions\":[{\"key\":\"name\",\"operator\":\"Exists\"}]}: field is immutable"]
    );
    // Semantic.DeepEqual: an empty matchExpressions list is the absent one.
    let mut same = old.clone();
    same.spec
        .selector
        .as_mut()
        .expect("selector")
        .match_expressions = Some(vec![]);
    assert!(validate_deployment_strategy_update(&same, &old).is_empty());
    // The name may not change either (ValidateObjectMetaUpdate).
    let mut renamed = old.clone();
    renamed.metadata.name = "abd".into();
    assert_eq!(
        lines(&validate_deployment_strategy_update(&renamed, &old)),
        ["metadata.name: Invalid value: \"abd\": field is immutable"]
    );
}
