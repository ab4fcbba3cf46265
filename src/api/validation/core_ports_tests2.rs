//! More table ports of upstream core and apimachinery validation tests
//! (pkg/apis/core/validation/validation_test.go,
//! staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta_test.go) for the objects
//! kubeplay models. Each test names its upstream source; rows keep upstream's names.

use crate::api::core_more::{PersistentVolumeClaim, PersistentVolumeClaimSpec};
use crate::api::errors::FieldError;
use crate::api::sts_ds_validation::validate_persistent_volume_claim;
use crate::api::{ObjectMeta, OwnerReference, Quantity};
use serde_json::json;
use std::collections::BTreeMap;

fn strings(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

/// `testVolumeClaim(name, namespace, spec)`.
fn test_volume_claim(
    name: &str,
    ns: &str,
    spec: PersistentVolumeClaimSpec,
) -> PersistentVolumeClaim {
    PersistentVolumeClaim {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: ns.into(),
            ..Default::default()
        },
        spec,
        ..Default::default()
    }
}

fn claim_spec(modes: &[&str], storage: Option<&str>) -> PersistentVolumeClaimSpec {
    let mut s = PersistentVolumeClaimSpec {
        access_modes: modes.iter().map(|m| m.to_string()).collect(),
        ..Default::default()
    };
    if let Some(q) = storage {
        s.resources
            .requests
            .insert("storage".into(), Quantity(q.into()));
    }
    s
}

fn with_selector(
    mut s: PersistentVolumeClaimSpec,
    sel: serde_json::Value,
) -> PersistentVolumeClaimSpec {
    s.extra.insert("selector".into(), sel);
    s
}

/// upstream's `goodClaimSpec`.
fn good_claim_spec() -> PersistentVolumeClaimSpec {
    let mut s = with_selector(
        claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("10G")),
        json!({"matchExpressions": [{"key": "key2", "operator": "Exists"}]}),
    );
    s.storage_class_name = Some("valid".into());
    s.volume_mode = Some("Filesystem".into());
    s
}

fn good_claim() -> PersistentVolumeClaim {
    test_volume_claim("foo", "ns", good_claim_spec())
}

// upstream: TestValidatePersistentVolumeClaim (pkg/apis/core/validation/validation_test.go),
// testValidatePVC(t, false). Upstream only checks failure vs success; the expected errors
// here are what ValidatePersistentVolumeClaim returns for each row. Rows skipped (fields
// kubeplay keeps verbatim and does not validate): "with-managed-fields" (no managedFields),
// "mismatch-data-source-and-ref", "invaild-apigroup-in-data-source",
// "invaild-apigroup-in-data-source-ref", "invalid-volume-attributes-class-name".
// TestValidateEphemeralVolume (the same table inside a pod volume) is skipped: kubeplay does
// not model pod volumes.
#[test]
fn validate_persistent_volume_claim_table() {
    let modes =
        r#"supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod""#;
    let rows: Vec<(&str, PersistentVolumeClaim, Vec<String>)> = vec![
        ("good-claim", good_claim(), vec![]),
        (
            "missing-name",
            test_volume_claim("", "ns", good_claim_spec()),
            vec!["metadata.name: Required value: name or generateName is required".into()],
        ),
        (
            "missing-namespace",
            test_volume_claim("foo", "", good_claim_spec()),
            vec!["metadata.namespace: Required value".into()],
        ),
        (
            "with-generate-name",
            {
                let mut c = good_claim();
                c.metadata.generate_name = "pvc-".into();
                c
            },
            vec![],
        ),
        (
            "with-uid",
            {
                let mut c = good_claim();
                c.metadata.uid = "ac051fac-2ead-46d9-b8b4-4e0fbeb7455d".into();
                c
            },
            vec![],
        ),
        (
            "with-resource-version",
            {
                let mut c = good_claim();
                c.metadata.resource_version = "1".into();
                c
            },
            vec![],
        ),
        (
            "with-generation",
            {
                let mut c = good_claim();
                c.metadata.generation = 100;
                c
            },
            vec![],
        ),
        (
            "with-deletion-grace-period-seconds",
            {
                let mut c = good_claim();
                c.metadata.deletion_grace_period_seconds = Some(10);
                c
            },
            vec![],
        ),
        (
            "with-owner-references",
            {
                let mut c = good_claim();
                c.metadata.owner_references = vec![OwnerReference {
                    api_version: "v1".into(),
                    kind: "pod".into(),
                    name: "foo".into(),
                    uid: "ac051fac-2ead-46d9-b8b4-4e0fbeb7455d".into(),
                    ..Default::default()
                }]
                .into();
                c
            },
            vec![],
        ),
        (
            "with-finalizers",
            {
                let mut c = good_claim();
                c.metadata.finalizers = vec!["example.com/foo".to_string()].into();
                c
            },
            vec![],
        ),
        (
            "with-good-labels",
            {
                let mut c = good_claim();
                c.metadata.labels =
                    BTreeMap::from([("apps.kubernetes.io/name".into(), "test".into())]).into();
                c
            },
            vec![],
        ),
        (
            "with-bad-labels",
            {
                let mut c = good_claim();
                c.metadata.labels =
                    BTreeMap::from([("hello-world".into(), "hyphen not allowed".into())]).into();
                c
            },
            vec![concat!(
                r#"metadata.labels: Invalid value: "hyphen not allowed": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "#,
                r#"and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"#
            )
            .into()],
        ),
        (
            "with-read-write-once-pod",
            test_volume_claim("foo", "ns", claim_spec(&["ReadWriteOncePod"], Some("10G"))),
            vec![],
        ),
        (
            "with-read-write-once-pod-and-others",
            test_volume_claim(
                "foo",
                "ns",
                claim_spec(&["ReadWriteOncePod", "ReadWriteMany"], Some("10G")),
            ),
            vec![
                "spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"
                    .into(),
            ],
        ),
        (
            "invalid-claim-zero-capacity",
            test_volume_claim("foo", "ns", {
                let mut s = with_selector(
                    claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("0G")),
                    json!({"matchExpressions": [{"key": "key2", "operator": "Exists"}]}),
                );
                s.storage_class_name = Some("valid".into());
                s
            }),
            vec![r#"spec.resources[storage]: Invalid value: "0": must be greater than zero"#.into()],
        ),
        (
            "invalid-label-selector",
            test_volume_claim(
                "foo",
                "ns",
                with_selector(
                    claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("10G")),
                    json!({"matchExpressions": [
                        {"key": "key2", "operator": "InvalidOp", "values": ["value1", "value2"]}]}),
                ),
            ),
            vec![
                r#"spec.selector.matchExpressions[0].operator: Invalid value: "InvalidOp": not a valid selector operator"#
                    .into(),
            ],
        ),
        (
            "invalid-accessmode",
            test_volume_claim("foo", "ns", claim_spec(&["fakemode"], Some("10G"))),
            vec![format!(
                r#"spec.accessModes: Unsupported value: "fakemode": {modes}"#
            )],
        ),
        (
            "no-access-modes",
            test_volume_claim("foo", "ns", claim_spec(&[], Some("10G"))),
            vec!["spec.accessModes: Required value: at least 1 access mode is required".into()],
        ),
        (
            "no-resource-requests",
            test_volume_claim("foo", "ns", claim_spec(&["ReadWriteOnce"], None)),
            vec!["spec.resources[storage]: Required value".into()],
        ),
        (
            "invalid-resource-requests",
            test_volume_claim("foo", "ns", {
                let mut s = claim_spec(&["ReadWriteOnce"], None);
                s.resources
                    .requests
                    .insert("memory".into(), Quantity("10G".into()));
                s
            }),
            vec!["spec.resources[storage]: Required value".into()],
        ),
        (
            "negative-storage-request",
            test_volume_claim(
                "foo",
                "ns",
                with_selector(
                    claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("-10G")),
                    json!({"matchExpressions": [{"key": "key2", "operator": "Exists"}]}),
                ),
            ),
            vec![r#"spec.resources[storage]: Invalid value: "-10G": must be greater than zero"#.into()],
        ),
        (
            "zero-storage-request",
            test_volume_claim(
                "foo",
                "ns",
                with_selector(
                    claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("0G")),
                    json!({"matchExpressions": [{"key": "key2", "operator": "Exists"}]}),
                ),
            ),
            vec![r#"spec.resources[storage]: Invalid value: "0": must be greater than zero"#.into()],
        ),
        (
            "invalid-storage-class-name",
            test_volume_claim("foo", "ns", {
                let mut s = with_selector(
                    claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("10G")),
                    json!({"matchExpressions": [{"key": "key2", "operator": "Exists"}]}),
                );
                s.storage_class_name = Some("-invalid-".into());
                s
            }),
            vec![concat!(
                r#"spec.storageClassName: Invalid value: "-invalid-": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "#,
                r#"and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
            )
            .into()],
        ),
        (
            "invalid-volume-mode",
            test_volume_claim("foo", "ns", {
                let mut s = claim_spec(&["ReadWriteOnce", "ReadOnlyMany"], Some("10G"));
                s.volume_mode = Some("fakeVolumeMode".into());
                s
            }),
            vec![
                r#"spec.volumeMode: Unsupported value: "fakeVolumeMode": supported values: "Block", "Filesystem""#
                    .into(),
            ],
        ),
    ];
    for (name, claim, want) in rows {
        assert_eq!(
            strings(&validate_persistent_volume_claim(&claim)),
            want,
            "{name}"
        );
    }
}
