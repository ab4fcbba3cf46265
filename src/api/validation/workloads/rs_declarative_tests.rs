//! Port of `TestDeclarativeValidate` / `TestDeclarativeValidateUpdate`
//! (pkg/registry/apps/replicaset/declarative_validation_test.go, kubernetes/kubernetes):
//! `VerifyValidationEquivalence` requires the handwritten strategy validation to return exactly
//! the listed errors (compared here by field and type; the declarative origin is not modelled).

use super::*;
use crate::api::FieldErrorType;
use serde_json::json;

/// `mkValidReplicaSet`: one replica, `app=test` selector and labels, one container "test" with a
/// 100m CPU request, restartPolicy Always, ClusterFirst, a 30 s grace period.
fn mk_valid_replica_set(selector_app: &str) -> ReplicaSet {
    serde_json::from_value(json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "valid-replicaset", "namespace": "default"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": selector_app}},
            "template": {
                "metadata": {"labels": {"app": selector_app}},
                "spec": {
                    "containers": [{"name": "test", "image": "test", "imagePullPolicy": "Always",
                        "terminationMessagePolicy": "File",
                        "resources": {"requests": {"cpu": "100m"}}}],
                    "restartPolicy": "Always",
                    "dnsPolicy": "ClusterFirst",
                    "terminationGracePeriodSeconds": 30
                }
            }
        }
    }))
    .expect("valid ReplicaSet JSON")
}

fn field_types(errs: &[FieldError]) -> Vec<(String, bool)> {
    errs.iter()
        .map(|e| (e.field.clone(), matches!(e.type_, FieldErrorType::Invalid)))
        .collect()
}

// upstream: TestDeclarativeValidate (pkg/registry/apps/replicaset/declarative_validation_test.go)
#[test]
fn replica_set_declarative_validate() {
    let errs = validate_replica_set(&mk_valid_replica_set("test"));
    assert!(errs.is_empty(), "valid: {errs:?}");
}

// upstream: TestDeclarativeValidateUpdate (pkg/registry/apps/replicaset/declarative_validation_test.go)
#[test]
fn replica_set_declarative_validate_update() {
    let mut old = mk_valid_replica_set("test");
    old.metadata.resource_version = "1".into();
    let mut same = mk_valid_replica_set("test");
    same.metadata.resource_version = "2".into();
    let errs = validate_replica_set_strategy_update(&same, &old);
    assert!(errs.is_empty(), "valid update: {errs:?}");

    // "immutable selector": selector and template labels both changed to app=changed; the only
    // error is the selector's immutability (Invalid, "field is immutable").
    let mut changed = mk_valid_replica_set("changed");
    changed.metadata.resource_version = "2".into();
    let errs = validate_replica_set_strategy_update(&changed, &old);
    assert_eq!(
        field_types(&errs),
        vec![("spec.selector".to_string(), true)],
        "immutable selector: {errs:?}"
    );
    assert!(
        errs[0].to_string().ends_with(": field is immutable"),
        "{}",
        errs[0]
    );
}
