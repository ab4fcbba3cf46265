//! More ports of pkg/apis/apps/validation/validation_test.go tables (StatefulSet).

use super::*;
use serde_json::json;

/// `generateStatefulSetSpec` (validation_test.go): a valid spec with the given minReadySeconds.
fn generate_stateful_set_spec(min_seconds: i32) -> StatefulSetSpec {
    serde_json::from_value(json!({
        "podManagementPolicy": "OrderedReady",
        "selector": {"matchLabels": {"a": "b"}},
        "template": {
            "metadata": {"labels": {"a": "b"}},
            "spec": {
                "restartPolicy": "Always",
                "dnsPolicy": "ClusterFirst",
                "containers": [{"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent"}]
            }
        },
        "replicas": 3,
        "updateStrategy": {"type": "RollingUpdate"},
        "minReadySeconds": min_seconds
    }))
    .expect("valid StatefulSetSpec")
}

// upstream: TestValidateStatefulSetMinReadySeconds (pkg/apis/apps/validation/validation_test.go)
#[test]
fn validate_stateful_set_min_ready_seconds() {
    let cases = [
        ("valid : minReadySeconds enabled, zero", 0, false),
        ("invalid : minReadySeconds enabled, negative", -1, true),
        (
            "valid : minReadySeconds enabled, very large value",
            i32::MAX,
            false,
        ),
        (
            "invalid : minReadySeconds enabled, large negative",
            i32::MIN,
            true,
        ),
    ];
    for (name, secs, expect_err) in cases {
        let errs = validate_stateful_set_spec(&generate_stateful_set_spec(secs));
        assert_eq!(!errs.is_empty(), expect_err, "{name}: {errs:?}");
        if expect_err {
            let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
            assert_eq!(
                text,
                [format!(
                    "spec.minReadySeconds: Invalid value: {secs}: must be greater than or equal to 0"
                )],
                "{name}"
            );
        }
    }
}
