//! `validateDataSource` / `validateDataSourceRef` and the dataSource ⇔ dataSourceRef rules of
//! `ValidatePersistentVolumeClaimSpec` (pkg/apis/core/validation/validation.go), derived from
//! the upstream function bodies (upstream's own rows sit inside TestValidatePersistentVolumeClaim
//! and TestAlphaPVVolumeModeUpdate-style tables that only check pass/fail).

use super::*;
use serde_json::json;

fn claim(extra: Value) -> PersistentVolumeClaim {
    let mut spec = json!({
        "accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": "10G"}}
    });
    if let (Some(s), Some(e)) = (spec.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            s.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(json!({"metadata": {"name": "c", "namespace": "ns"}, "spec": spec}))
        .expect("claim")
}

fn messages(extra: Value) -> Vec<String> {
    validate_persistent_volume_claim(&claim(extra))
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn valid_data_sources_pass() {
    for extra in [
        json!({"dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}}),
        json!({"dataSource": {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "snap"}}),
        json!({"dataSourceRef": {"apiGroup": "populator.storage.k8s.io", "kind": "Foo", "name": "x"}}),
        json!({"dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "src", "namespace": "other"}}),
        json!({
            "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"},
            "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "src"}
        }),
    ] {
        assert_eq!(messages(extra.clone()), Vec::<String>::new(), "{extra}");
    }
}

#[test]
fn missing_name_and_kind_are_required_and_core_group_needs_pvc_kind() {
    assert_eq!(
        messages(json!({"dataSource": {}})),
        vec![
            "spec.dataSource.name: Required value",
            "spec.dataSource.kind: Required value",
            "spec.dataSource: Invalid value: \"\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ]
    );
    assert_eq!(
        messages(json!({"dataSourceRef": {"kind": "VolumeSnapshot", "name": "s"}})),
        vec!["spec.dataSourceRef: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"]
    );
}

#[test]
fn api_group_must_be_a_dns_subdomain_and_ref_namespace_a_dns_label() {
    assert_eq!(
        messages(json!({"dataSource": {"apiGroup": "Snapshot_Group", "kind": "VolumeSnapshot", "name": "s"}})),
        vec!["spec.dataSource.apiGroup: Invalid value: \"Snapshot_Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
    // `IsDNS1123Label` says "must not contain dots" for a valid subdomain that is not a label.
    assert_eq!(
        messages(
            json!({"dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "s", "namespace": "a.b"}})
        ),
        vec!["spec.dataSourceRef.namespace: Invalid value: \"a.b\": must not contain dots"]
    );
}

#[test]
fn data_source_must_match_data_source_ref() {
    // Different names.
    assert_eq!(
        messages(json!({
            "dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
            "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "b"}
        })),
        vec!["spec: Invalid value: field.Path{name:\"dataSource\", index:\"\", parent:(*field.Path)(0xc000000000)}: must match dataSourceRef"]
    );
    // apiGroup nil against "" differ (`reflect.DeepEqual` of two *string).
    let errs = messages(json!({
        "dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
        "dataSourceRef": {"apiGroup": "", "kind": "PersistentVolumeClaim", "name": "a"}
    }));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].ends_with(": must match dataSourceRef"), "{errs:?}");
    // A namespaced ref forbids dataSource altogether (even an equal one).
    let errs = messages(json!({
        "dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
        "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "a", "namespace": "other"}
    }));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with(": may not be specified when dataSourceRef.namespace is specified"),
        "{errs:?}"
    );
}

// upstream: TestValidatePersistentVolumeClaimUpdate rows "allow-update-pvc-when-data-source-used"
// (an old claim whose dataSource apiGroup is already invalid may be updated) — and the create
// of such a claim is refused.
#[test]
fn an_invalid_api_group_is_kept_only_by_updates_of_claims_that_had_it() {
    let bad = claim(json!({"dataSource": {"apiGroup": "^invalid", "kind": "Foo", "name": "x"}}));
    let errs = validate_persistent_volume_claim(&bad);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0]
            .to_string()
            .starts_with("spec.dataSource.apiGroup: Invalid value: \"^invalid\""),
        "{errs:?}"
    );
    let (mut old, mut new) = (bad.clone(), bad);
    old.metadata.resource_version = "1".into();
    new.metadata.resource_version = "1".into();
    assert!(validate_persistent_volume_claim_update(&new, &old).is_empty());
    let good = claim(json!({"dataSource": {"apiGroup": "ok.io", "kind": "Foo", "name": "x"}}));
    assert!(allow_invalid_api_group_in_data_source_or_ref(&old.spec));
    assert!(!allow_invalid_api_group_in_data_source_or_ref(&good.spec));
}
