//! More ports of pkg/apis/apps/validation/validation_test.go tables (Deployment).

use super::*;
use serde_json::json;

/// `podtest.MakePodSpec()` (pkg/api/pod/testing): one container "ctr" and the fields defaulting
/// would fill in.
fn make_pod_spec() -> serde_json::Value {
    json!({
        "containers": [{"name": "ctr", "image": "image", "imagePullPolicy": "IfNotPresent",
            "terminationMessagePolicy": "File"}],
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "enableServiceLinks": true
    })
}

fn deployment(
    name: &str,
    rv: &str,
    replicas: i32,
    selector: serde_json::Value,
    template: serde_json::Value,
) -> Deployment {
    serde_json::from_value(json!({
        "metadata": {"name": name, "namespace": "default", "resourceVersion": rv},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": selector},
            "template": template,
            "strategy": {"type": "Recreate"}
        }
    }))
    .expect("valid Deployment JSON")
}

// upstream: TestValidateDeploymentUpdate (pkg/apis/apps/validation/validation_test.go): the
// success cases, and the error cases with upstream's exact error counts.
#[test]
fn validate_deployment_update_upstream_table() {
    let valid_labels = json!({"a": "b"});
    let valid_pod_template = json!({"metadata": {"labels": valid_labels}, "spec": make_pod_spec()});
    let mut rw_spec = make_pod_spec();
    rw_spec["volumes"] = json!([{"name": "gcepd", "gcePersistentDisk":
        {"pdName": "my-PD", "fsType": "ext4", "partition": 1, "readOnly": false}}]);
    let read_write_volume_pod_template =
        json!({"metadata": {"labels": valid_labels}, "spec": rw_spec});
    let invalid_labels = json!({"NoUppercaseOrSpecialCharsLike=Equals": "b"});
    let mut no_containers = make_pod_spec();
    no_containers["containers"] = json!([]);
    let invalid_pod_template =
        json!({"metadata": {"labels": invalid_labels}, "spec": no_containers});

    let old = |name: &str| {
        deployment(
            name,
            "1",
            0,
            valid_labels.clone(),
            valid_pod_template.clone(),
        )
    };
    // (name, old, update)
    let success = [
        (
            "positive replicas",
            old("abc"),
            deployment(
                "abc",
                "2",
                1,
                valid_labels.clone(),
                read_write_volume_pod_template.clone(),
            ),
        ),
        (
            "Read-write volume verification",
            old("abc"),
            deployment(
                "abc",
                "2",
                2,
                valid_labels.clone(),
                read_write_volume_pod_template.clone(),
            ),
        ),
    ];
    for (name, old, update) in &success {
        let errs = validate_deployment_update(update, old);
        assert!(
            errs.is_empty(),
            "{name:?} expected no error, but got: {errs:?}"
        );
    }
    // (name, old, update, expectedErrNum)
    let errors = [
        (
            "invalid selector",
            old(""),
            deployment(
                "abc",
                "2",
                2,
                invalid_labels.clone(),
                valid_pod_template.clone(),
            ),
            3,
        ),
        (
            "invalid pod",
            old(""),
            deployment("abc", "2", 2, valid_labels.clone(), invalid_pod_template),
            4,
        ),
        (
            "negative replicas",
            old("abc"),
            deployment(
                "abc",
                "2",
                -1,
                valid_labels.clone(),
                read_write_volume_pod_template,
            ),
            1,
        ),
    ];
    for (name, old, update, want) in &errors {
        let errs = validate_deployment_update(update, old);
        assert_eq!(errs.len(), *want, "{name:?}: {errs:?}");
    }
}

// The strategy adds selector immutability on top (pkg/registry/apps/deployment/strategy.go):
// the "invalid selector" row also changes the selector.
#[test]
fn strategy_update_adds_selector_immutability() {
    let valid_pod_template = json!({"metadata": {"labels": {"a": "b"}}, "spec": make_pod_spec()});
    let old = deployment("abc", "1", 0, json!({"a": "b"}), valid_pod_template.clone());
    let update = deployment(
        "abc",
        "2",
        2,
        json!({"a": "c"}),
        json!({"metadata": {"labels": {"a": "c"}}, "spec": make_pod_spec()}),
    );
    assert!(validate_deployment_update(&update, &old).is_empty());
    let errs: Vec<String> = validate_deployment_strategy_update(&update, &old)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"c\"}}: field is immutable"]
    );
}

// An invalid metadata label is reported once on update (by ValidateObjectMetaUpdate), not a
// second time by a revalidation of the whole object meta.
#[test]
fn update_reports_an_invalid_label_once() {
    let valid_pod_template = json!({"metadata": {"labels": {"a": "b"}}, "spec": make_pod_spec()});
    let old = deployment("abc", "1", 0, json!({"a": "b"}), valid_pod_template.clone());
    let mut update = deployment("abc", "2", 0, json!({"a": "b"}), valid_pod_template);
    update
        .metadata
        .labels
        .insert("NoUppercaseOrSpecialCharsLike=Equals".into(), "bar".into());
    let errs = validate_deployment_update(&update, &old);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].field, "metadata.labels");
}

/// `validDeployment()` (validation_test.go) without `rollbackTo`, which apps/v1 does not have.
fn valid_deployment() -> serde_json::Value {
    json!({
        "metadata": {"name": "abc", "namespace": "default"},
        "spec": {
            "replicas": 0,
            "selector": {"matchLabels": {"name": "abc"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}},
            "template": {
                "metadata": {"name": "abc", "namespace": "default", "labels": {"name": "abc"}},
                "spec": make_pod_spec()
            }
        }
    })
}

fn patched(patch: serde_json::Value) -> Deployment {
    let mut v = valid_deployment();
    merge(&mut v, patch);
    serde_json::from_value(v).expect("valid Deployment JSON")
}

/// JSON merge patch (null deletes).
fn merge(base: &mut serde_json::Value, patch: serde_json::Value) {
    match (base, patch) {
        (serde_json::Value::Object(b), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    b.remove(&k);
                } else {
                    merge(b.entry(k).or_insert(serde_json::Value::Null), v);
                }
            }
        }
        (b, p) => *b = p,
    }
}

// upstream: TestValidateDeployment (pkg/apis/apps/validation/validation_test.go): the success
// cases, and each error case's first error contains upstream's expected text. (The rollbackTo
// row is left out: apps/v1 has no spec.rollbackTo.)
#[test]
fn validate_deployment_upstream_table() {
    let success = [
        patched(json!({})),
        patched(json!({"spec": {"template": {"spec": {
            "securityContext": {"hostNetwork": true},
            "containers": [{"name": "ctr", "image": "image", "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "File",
                "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]
        }}}})),
    ];
    for d in &success {
        let errs = validate_deployment(d);
        assert!(errs.is_empty(), "expected success: {errs:?}");
    }
    let empty: Deployment =
        serde_json::from_value(json!({"metadata": {"namespace": "default"}})).unwrap();
    let errors = [
        ("metadata.name: Required value", empty),
        (
            "`selector` does not match template `labels`",
            patched(json!({"spec": {"selector": {"matchLabels": {"name": "def"}}}})),
        ),
        (
            "Unsupported value: \"Never\"",
            patched(json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}})),
        ),
        (
            r#"supported values: "Recreate", "RollingUpdate""#,
            patched(json!({"spec": {"strategy": {"type": "randomType"}}})),
        ),
        (
            "may not be specified when strategy `type` is 'Recreate'",
            patched(
                json!({"spec": {"strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": null, "maxUnavailable": null}}}}),
            ),
        ),
        (
            "a valid percent string must be",
            patched(json!({"spec": {"strategy": {"type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": "20Percent", "maxUnavailable": 0}}}})),
        ),
        (
            "may not be 0 when `maxSurge` is 0",
            patched(json!({"spec": {"strategy": {"type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": "0%", "maxUnavailable": 0}}}})),
        ),
        (
            "must not be greater than 100%",
            patched(json!({"spec": {"strategy": {"type": "RollingUpdate",
                "rollingUpdate": {"maxSurge": 0, "maxUnavailable": "110%"}}}})),
        ),
        (
            "must be greater than minReadySeconds",
            patched(json!({"spec": {"progressDeadlineSeconds": 600, "minReadySeconds": 600}})),
        ),
        (
            "ephemeral containers not allowed",
            patched(
                json!({"spec": {"template": {"spec": {"ephemeralContainers": [{"name": "ec",
                "image": "image", "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "File"}]}}}}),
            ),
        ),
    ];
    for (k, d) in &errors {
        let errs = validate_deployment(d);
        assert!(!errs.is_empty(), "[{k}] expected failure");
        assert!(
            errs[0].to_string().contains(k),
            "unexpected error: {:?}, expected: {k:?}",
            errs[0].to_string()
        );
    }
}
