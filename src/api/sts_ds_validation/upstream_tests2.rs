//! More ports of pkg/apis/apps/validation/validation_test.go tables (StatefulSet).

use super::*;
use crate::api::errors::FieldErrorType;
use crate::test_fixtures::merge_patch as merge;
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

/// `mkStatefulSet(&validPodTemplate, tweaks...)` (validation_test.go), the tweaks given as a JSON
/// merge patch over the internal-type StatefulSet (replicas 0, no serviceName).
pub(super) fn mk_stateful_set(patch: serde_json::Value) -> StatefulSet {
    let mut base = json!({
        "metadata": {"name": "abc", "namespace": "default"},
        "spec": {
            "podManagementPolicy": "OrderedReady",
            "replicas": 0,
            "selector": {"matchLabels": {"a": "b"}},
            "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {
                    "restartPolicy": "Always",
                    "dnsPolicy": "ClusterFirst",
                    "containers": [{"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent"}]
                }
            },
            "updateStrategy": {"type": "RollingUpdate"}
        }
    });
    merge(&mut base, patch);
    serde_json::from_value(base).expect("valid StatefulSet JSON")
}

/// The (type, field) of each error, sorted: upstream compares with BadValue and Detail ignored
/// and the lists sorted.
fn type_and_field(errs: &[FieldError]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = errs
        .iter()
        .map(|e| {
            let t = match &e.type_ {
                FieldErrorType::Required => "Required",
                FieldErrorType::Invalid => "Invalid",
                FieldErrorType::Unsupported(_) => "NotSupported",
                FieldErrorType::Forbidden => "Forbidden",
                FieldErrorType::Duplicate => "Duplicate",
                FieldErrorType::TooLong(_) => "TooLong",
                FieldErrorType::TooMany(_) => "TooMany",
                FieldErrorType::NotFound => "NotFound",
                FieldErrorType::Internal => "Internal",
            };
            (t.to_string(), e.field.clone())
        })
        .collect();
    v.sort();
    v
}

// upstream: TestValidateStatefulSet (pkg/apis/apps/validation/validation_test.go), the whole
// table with upstream's row names, errors compared by type and field as upstream's cmp options do.
#[test]
#[allow(clippy::type_complexity)]
fn validate_stateful_set_upstream_table() {
    let invalid_labels = json!({"NoUppercaseOrSpecialCharsLike=Equals": "b"});
    let success: Vec<(&str, serde_json::Value)> = vec![
        ("alpha name", json!({"metadata": {"name": "abc"}})),
        (
            "alphanumeric name",
            json!({"metadata": {"name": "abc-123"}}),
        ),
        (
            "hostNetwork true",
            json!({"spec": {"template": {"spec": {
                "securityContext": {"hostNetwork": true},
                "containers": [{"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent",
                    "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]
            }}}}),
        ),
        (
            "parallel pod management",
            json!({"spec": {"podManagementPolicy": "Parallel"}}),
        ),
        (
            "ordered ready pod management",
            json!({"spec": {"podManagementPolicy": "OrderedReady"}}),
        ),
        (
            "update strategy",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2}}}}),
        ),
        (
            "PVC policy [enable StatefulSetAutoDeletePVC]",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"}}}),
        ),
        (
            "maxUnavailable with parallel pod management",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2, "maxUnavailable": 2}}}}),
        ),
        (
            "ordinals.start positive value",
            json!({"spec": {"replicas": 3, "ordinals": {"start": 2}}}),
        ),
    ];
    for (name, patch) in success {
        let errs = validate_stateful_set(&mk_stateful_set(patch));
        assert!(errs.is_empty(), "success case {name}: {errs:?}");
    }

    let mu = |v: serde_json::Value| json!({"spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": v}}}});
    let errors: Vec<(&str, serde_json::Value, Vec<(&str, &str)>)> = vec![
        (
            "zero-length name",
            json!({"metadata": {"name": ""}}),
            vec![("Required", "metadata.name")],
        ),
        (
            "name-with-dots",
            json!({"metadata": {"name": "abc.123"}}),
            vec![("Invalid", "metadata.name")],
        ),
        (
            "long name",
            json!({"metadata": {"name": "a".repeat(64)}}),
            vec![("Invalid", "metadata.name")],
        ),
        (
            "missing-namespace",
            json!({"metadata": {"namespace": ""}}),
            vec![("Required", "metadata.namespace")],
        ),
        (
            // selector is empty, labels are not, so select doesn't match labels
            "empty selector",
            json!({"spec": {"selector": null}}),
            vec![
                ("Required", "spec.selector"),
                ("Invalid", "spec.template.metadata.labels"),
            ],
        ),
        (
            "selector_doesnt_match",
            json!({"spec": {"selector": {"matchLabels": {"foo": "bar"}}}}),
            vec![("Invalid", "spec.template.metadata.labels")],
        ),
        (
            "negative_replicas",
            json!({"spec": {"replicas": -1}}),
            vec![("Invalid", "spec.replicas")],
        ),
        (
            "invalid_label",
            json!({"metadata": {"labels": {"NoUppercaseOrSpecialCharsLike=Equals": "bar"}}}),
            vec![("Invalid", "metadata.labels")],
        ),
        (
            "invalid_label 2",
            json!({
                "metadata": {"labels": {"NoUppercaseOrSpecialCharsLike=Equals": "bar"}},
                "spec": {
                    "selector": {"matchLabels": invalid_labels.clone()},
                    "template": {
                        "metadata": {"labels": invalid_labels.clone()},
                        "spec": {"containers": null}
                    }
                }
            }),
            vec![
                ("Invalid", "metadata.labels"),
                ("Invalid", "spec.selector"),
                ("Invalid", "spec.selector.matchLabels"),
            ],
        ),
        (
            "invalid_annotation",
            json!({"metadata": {"annotations": {"NoUppercaseOrSpecialCharsLike=Equals": "bar"}}}),
            vec![("Invalid", "metadata.annotations")],
        ),
        (
            "invalid restart policy 1",
            json!({"spec": {"template": {"spec": {"restartPolicy": "OnFailure"}}}}),
            vec![("NotSupported", "spec.template.spec.restartPolicy")],
        ),
        (
            "invalid restart policy 2",
            json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}}),
            vec![("NotSupported", "spec.template.spec.restartPolicy")],
        ),
        (
            "empty restart policy",
            json!({"spec": {"template": {"spec": {"restartPolicy": ""}}}}),
            vec![("NotSupported", "spec.template.spec.restartPolicy")],
        ),
        (
            "invalid update strategy",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": "foo"}}}),
            vec![("Invalid", "spec.updateStrategy")],
        ),
        (
            "empty update strategy",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": ""}}}),
            vec![("Required", "spec.updateStrategy")],
        ),
        (
            "invalid rolling update",
            json!({"spec": {"replicas": 3, "updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}}}),
            vec![("Invalid", "spec.updateStrategy.rollingUpdate")],
        ),
        (
            "negative partition",
            json!({"spec": {"replicas": 3, "updateStrategy": {"rollingUpdate": {"partition": -1}}}}),
            vec![("Invalid", "spec.updateStrategy.rollingUpdate.partition")],
        ),
        (
            "empty pod management policy",
            json!({"spec": {"podManagementPolicy": "", "replicas": 3}}),
            vec![("Required", "spec.podManagementPolicy")],
        ),
        (
            "invalid pod management policy",
            json!({"spec": {"podManagementPolicy": "foo"}}),
            vec![("Invalid", "spec.podManagementPolicy")],
        ),
        (
            "set active deadline seconds",
            json!({"spec": {"replicas": 3, "template": {"spec": {"activeDeadlineSeconds": 60, "containers": null}}}}),
            vec![("Forbidden", "spec.template.spec.activeDeadlineSeconds")],
        ),
        (
            "empty PersistentVolumeClaimRetentionPolicy [enable StatefulSetAutoDeletePVC]",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {}}}),
            vec![
                (
                    "NotSupported",
                    "spec.persistentVolumeClaimRetentionPolicy.whenDeleted",
                ),
                (
                    "NotSupported",
                    "spec.persistentVolumeClaimRetentionPolicy.whenScaled",
                ),
            ],
        ),
        (
            "invalid PersistentVolumeClaimRetentionPolicy [enable StatefulSetAutoDeletePVC]",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {
                "whenDeleted": "invalid-retention-policy",
                "whenScaled": "invalid-retention-policy"
            }}}),
            vec![
                (
                    "NotSupported",
                    "spec.persistentVolumeClaimRetentionPolicy.whenDeleted",
                ),
                (
                    "NotSupported",
                    "spec.persistentVolumeClaimRetentionPolicy.whenScaled",
                ),
            ],
        ),
        (
            "zero maxUnavailable",
            mu(json!(0)),
            vec![(
                "Invalid",
                "spec.updateStrategy.rollingUpdate.maxUnavailable",
            )],
        ),
        (
            "zero percent maxUnavailable",
            mu(json!("0%")),
            vec![(
                "Invalid",
                "spec.updateStrategy.rollingUpdate.maxUnavailable",
            )],
        ),
        (
            "greater than 100 percent maxUnavailable",
            mu(json!("101%")),
            vec![(
                "Invalid",
                "spec.updateStrategy.rollingUpdate.maxUnavailable",
            )],
        ),
        (
            "invalid ordinals.start",
            json!({"spec": {"replicas": 3, "ordinals": {"start": -2}}}),
            vec![("Invalid", "spec.ordinals.start")],
        ),
    ];
    for (name, patch, want) in errors {
        let errs = validate_stateful_set(&mk_stateful_set(patch));
        let mut want: Vec<(String, String)> = want
            .into_iter()
            .map(|(t, f)| (t.to_string(), f.to_string()))
            .collect();
        want.sort();
        assert_eq!(type_and_field(&errs), want, "error case {name}: {errs:?}");
    }
}

// upstream: TestValidateStatefulSetUpdate (pkg/apis/apps/validation/validation_test.go), the
// whole table with upstream's row names; errors compared by type and field.
#[test]
#[allow(clippy::type_complexity)]
fn validate_stateful_set_update_upstream_table() {
    let add_containers = json!({"spec": {"template": {"spec": {"containers": [
        {"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent"},
        {"name": "def", "image": "image2", "imagePullPolicy": "IfNotPresent"}
    ]}}}});
    let pvc = |name: &str, class: &str, size: &str| {
        json!({"metadata": {"name": name}, "spec": {
            "storageClassName": class,
            "resources": {"requests": {"storage": size}}
        }})
    };
    let valid_pvc = pvc("pvc-abc", "storage-class1", "1Gi");
    let valid_pvc_changed_size = pvc("pvc-abc", "storage-class1", "2Gi");
    let valid_pvc_changed_class = pvc("pvc-abc", "storage-class2", "1Gi");
    let valid_pvc2 = pvc("pvc-abc2", "storage-class2", "2Gi");
    let with_rv = |patch: serde_json::Value| {
        let mut s = mk_stateful_set(patch);
        s.metadata.resource_version = "1".into();
        s
    };
    let success: Vec<(&str, serde_json::Value, serde_json::Value)> = vec![
        (
            "update replica count",
            json!({}),
            json!({"spec": {"replicas": 3}}),
        ),
        ("update containers 1", json!({}), add_containers.clone()),
        ("update containers 2", add_containers.clone(), json!({})),
        (
            "update containers and pvc retention policy 1",
            add_containers.clone(),
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"}}}),
        ),
        (
            "update containers and pvc retention policy 2",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {"whenScaled": "Retain"}}}),
            json!({}),
        ),
        (
            "update update strategy",
            json!({}),
            json!({"spec": {"updateStrategy": {"type": "OnDelete"}}}),
        ),
        (
            "update min ready seconds 1",
            json!({}),
            json!({"spec": {"minReadySeconds": 10}}),
        ),
        (
            "update min ready seconds 2",
            json!({"spec": {"minReadySeconds": 5}}),
            json!({"spec": {"minReadySeconds": 10}}),
        ),
        (
            "update existing instance with now-invalid name",
            json!({"metadata": {"finalizers": ["final"]}}),
            json!({}),
        ),
        (
            "update existing instance with .spec.ordinals.start",
            json!({}),
            json!({"spec": {"ordinals": {"start": 3}}}),
        ),
    ];
    for (name, old, update) in success {
        let errs = validate_stateful_set_update(&with_rv(update), &with_rv(old));
        assert!(errs.is_empty(), "success case {name}: {errs:?}");
    }
    let errors: Vec<(
        &str,
        serde_json::Value,
        serde_json::Value,
        Vec<(&str, &str)>,
    )> = vec![
        (
            "update name",
            json!({"metadata": {"name": "abc"}}),
            json!({"metadata": {"name": "abc2"}}),
            vec![("Invalid", "metadata.name")],
        ),
        (
            "update namespace",
            json!({"metadata": {"namespace": "default"}}),
            json!({"metadata": {"namespace": "default1"}}),
            vec![("Invalid", "metadata.namespace")],
        ),
        (
            "update selector",
            json!({"spec": {"selector": {"matchLabels": {"a": "b"}}}}),
            json!({"spec": {
                "selector": {"matchLabels": {"c": "d"}},
                "template": {"metadata": {"labels": {"c": "d"}}}
            }}),
            vec![("Forbidden", "spec")],
        ),
        (
            "update pod management policy 1",
            json!({"spec": {"podManagementPolicy": ""}}),
            json!({"spec": {"podManagementPolicy": "OrderedReady"}}),
            vec![("Forbidden", "spec")],
        ),
        (
            "update pod management policy 2",
            json!({"spec": {"podManagementPolicy": "Parallel"}}),
            json!({"spec": {"podManagementPolicy": "OrderedReady"}}),
            vec![("Forbidden", "spec")],
        ),
        (
            "update to negative replicas",
            json!({}),
            json!({"spec": {"replicas": -1}}),
            vec![("Invalid", "spec.replicas")],
        ),
        (
            "update pvc template size",
            json!({"spec": {"volumeClaimTemplates": [valid_pvc.clone()]}}),
            json!({"spec": {"volumeClaimTemplates": [valid_pvc_changed_size]}}),
            vec![("Forbidden", "spec")],
        ),
        (
            "update pvc template storage class",
            json!({"spec": {"volumeClaimTemplates": [valid_pvc.clone()]}}),
            json!({"spec": {"volumeClaimTemplates": [valid_pvc_changed_class]}}),
            vec![("Forbidden", "spec")],
        ),
        (
            "add new pvc template",
            json!({"spec": {"volumeClaimTemplates": [valid_pvc.clone()]}}),
            json!({"spec": {"volumeClaimTemplates": [valid_pvc, valid_pvc2]}}),
            vec![("Forbidden", "spec")],
        ),
    ];
    for (name, old, update, want) in errors {
        let errs = validate_stateful_set_update(&with_rv(update), &with_rv(old));
        let mut want: Vec<(String, String)> = want
            .into_iter()
            .map(|(t, f)| (t.to_string(), f.to_string()))
            .collect();
        want.sort();
        assert_eq!(type_and_field(&errs), want, "error case {name}: {errs:?}");
    }
}

// upstream: TestValidateControllerRevision (pkg/apis/apps/validation/validation_test.go), the
// rows kubeplay can represent (its data is parsed JSON, so the "json error" row `{` cannot be
// built; "nil data" and "json null" are both an absent data).
#[test]
fn validate_controller_revision_upstream_table() {
    let ss = serde_json::to_value(mk_stateful_set(json!({}))).expect("serializable");
    let cr = |name: &str, ns: &str, data: Option<serde_json::Value>, revision: i64| {
        let mut r: ControllerRevision = serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": ns},
            "revision": revision
        }))
        .expect("valid ControllerRevision JSON");
        r.data = data;
        r
    };
    let bad = "NoUppercaseOrSpecialCharsLike=Equals";
    let tests = [
        (
            "valid",
            cr("validname", "validns", Some(ss.clone()), 0),
            true,
        ),
        (
            "negative revision",
            cr("validname", "validns", Some(ss.clone()), -1),
            false,
        ),
        ("empty name", cr("", "validns", Some(ss.clone()), 0), false),
        (
            "invalid name",
            cr(bad, "validns", Some(ss.clone()), 0),
            false,
        ),
        (
            "empty namespace",
            cr("validname", "", Some(ss.clone()), 100),
            false,
        ),
        (
            "invalid namespace",
            cr("validname", bad, Some(ss.clone()), 100),
            false,
        ),
        ("nil data", cr("validname", bad, None, 100), false),
        (
            "json bool",
            cr("validname", "validns", Some(json!(true)), 0),
            false,
        ),
        (
            "json int",
            cr("validname", "validns", Some(json!(0)), 0),
            false,
        ),
        (
            "json float",
            cr("validname", "validns", Some(json!(0.5)), 0),
            false,
        ),
        ("json null", cr("validname", "validns", None, 0), false),
        (
            "json array",
            cr("validname", "validns", Some(json!([])), 0),
            false,
        ),
        (
            "json string",
            cr("validname", "validns", Some(json!("test")), 0),
            false,
        ),
        (
            "json object",
            cr("validname", "validns", Some(json!({})), 0),
            true,
        ),
    ];
    for (name, r, is_valid) in tests {
        let errs = validate_controller_revision_create(&r);
        assert_eq!(errs.is_empty(), is_valid, "{name}: {errs:?}");
    }
}

// upstream: TestValidateControllerRevisionUpdate (pkg/apis/apps/validation/validation_test.go)
#[test]
fn validate_controller_revision_update_upstream_table() {
    let ss = serde_json::to_value(mk_stateful_set(json!({"metadata": {"name": "abc"}}))).unwrap();
    let modified =
        serde_json::to_value(mk_stateful_set(json!({"metadata": {"name": "cdf"}}))).unwrap();
    let cr = |version: &str, data: &serde_json::Value, revision: i64| {
        let mut r: ControllerRevision = serde_json::from_value(json!({
            "metadata": {"name": "validname", "namespace": "validns", "resourceVersion": version},
            "revision": revision
        }))
        .unwrap();
        r.data = Some(data.clone());
        r
    };
    let valid = cr("1", &ss, 0);
    let cases = [
        ("valid", cr("1", &ss, 0), true),
        ("invalid", cr("", &ss, 0), false),
        ("changed data", cr("1", &modified, 0), false),
        ("changed revision", cr("1", &ss, 1), true),
    ];
    for (name, new, is_valid) in cases {
        let errs = validate_controller_revision_update(&new, &valid);
        assert_eq!(errs.is_empty(), is_valid, "{name}: {errs:?}");
    }
}

/// `podtest.MakePodSpec()` with its container named `ctr` (pkg/api/pod/testing).
fn make_pod_spec(container: &str) -> serde_json::Value {
    json!({
        "containers": [{"name": container, "image": "image", "imagePullPolicy": "IfNotPresent",
            "terminationMessagePolicy": "File"}],
        "dnsPolicy": "ClusterFirst",
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "schedulerName": "default-scheduler",
        "securityContext": {},
        "enableServiceLinks": true
    })
}

// upstream: TestValidateDaemonSetUpdate (pkg/apis/apps/validation/validation_test.go): the
// success cases and the error cases with upstream's exact error counts. apps/v1 keeps the
// internal spec.templateGeneration in the deprecated.daemonset.template.generation annotation.
#[test]
fn validate_daemon_set_update_upstream_table() {
    let valid_selector = json!({"a": "b"});
    let valid_selector2 = json!({"c": "d"});
    let invalid_selector = json!({"NoUppercaseOrSpecialCharsLike=Equals": "b"});
    let spec_abc = make_pod_spec("abc");
    let spec_def = make_pod_spec("def");
    let mut spec_node_selector = make_pod_spec("ctr");
    spec_node_selector["nodeSelector"] = valid_selector.clone();
    spec_node_selector["nodeName"] = json!("xyz");
    let mut spec_volume = make_pod_spec("ctr");
    spec_volume["volumes"] = json!([{"name": "gcepd", "gcePersistentDisk":
        {"pdName": "my-PD", "fsType": "ext4", "partition": 1, "readOnly": false}}]);
    let mut spec_abc_semantically_equal = spec_abc.clone();
    spec_abc_semantically_equal["imagePullSecrets"] = json!([]);
    let tpl = |labels: &serde_json::Value, spec: &serde_json::Value| json!({"metadata": {"labels": labels}, "spec": spec});
    let abc = tpl(&valid_selector, &spec_abc);
    let abc_semantically_equal = tpl(&valid_selector, &spec_abc_semantically_equal);
    let node_selector = tpl(&valid_selector, &spec_node_selector);
    let abc2 = tpl(&valid_selector2, &spec_abc);
    let def = tpl(&valid_selector2, &spec_def);
    let mut no_containers = make_pod_spec("ctr");
    no_containers["containers"] = json!([]);
    let invalid = tpl(&valid_selector, &no_containers);
    let read_write_volume = tpl(&valid_selector, &spec_volume);
    let on_delete = json!({"type": "OnDelete"});
    let rolling = json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}});
    let mk = |name: &str,
              rv: &str,
              generation: i64,
              selector: &serde_json::Value,
              template: &serde_json::Value,
              strategy: &serde_json::Value| {
        let d: DaemonSet = serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": "default", "resourceVersion": rv,
                "annotations": {"deprecated.daemonset.template.generation": generation.to_string()}},
            "spec": {"selector": {"matchLabels": selector}, "template": template,
                "updateStrategy": strategy}
        }))
        .expect("valid DaemonSet JSON");
        d
    };
    let success = [
        (
            "no change",
            mk("abc", "1", 1, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 1, &valid_selector, &abc, &on_delete),
        ),
        (
            "change template and selector",
            mk("abc", "1", 2, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 3, &valid_selector2, &abc2, &on_delete),
        ),
        (
            "change template",
            mk("abc", "1", 3, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 4, &valid_selector, &node_selector, &on_delete),
        ),
        (
            "change container image name",
            mk("abc", "1", 1, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 2, &valid_selector2, &def, &on_delete),
        ),
        (
            "change update strategy",
            mk("abc", "1", 4, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 4, &valid_selector, &abc, &rolling),
        ),
        (
            "unchanged templateGeneration upon semantically equal template update",
            mk("abc", "1", 4, &valid_selector, &abc, &on_delete),
            mk(
                "abc",
                "2",
                4,
                &valid_selector,
                &abc_semantically_equal,
                &rolling,
            ),
        ),
        (
            "Read-write volume verification",
            mk("abc", "1", 1, &valid_selector, &abc, &on_delete),
            mk(
                "abc",
                "2",
                2,
                &valid_selector,
                &read_write_volume,
                &on_delete,
            ),
        ),
    ];
    for (name, old, update) in &success {
        let errs = validate_daemon_set_update(update, old);
        assert!(
            errs.is_empty(),
            "{name:?} expected no error, but got: {errs:?}"
        );
    }
    let errors = [
        (
            "change daemon name",
            mk("", "1", 1, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 1, &valid_selector, &abc, &on_delete),
            1,
        ),
        (
            "invalid selector",
            mk("abc", "1", 1, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 1, &invalid_selector, &abc, &on_delete),
            1,
        ),
        (
            "invalid pod",
            mk("abc", "1", 1, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 2, &valid_selector, &invalid, &on_delete),
            1,
        ),
        (
            "invalid update strategy",
            mk("abc", "1", 1, &valid_selector, &abc, &on_delete),
            mk(
                "abc",
                "2",
                1,
                &valid_selector,
                &abc,
                &json!({"type": "Random"}),
            ),
            1,
        ),
        (
            "negative templateGeneration",
            mk("abc", "1", -1, &valid_selector, &abc, &on_delete),
            mk("abc", "2", -1, &valid_selector, &abc, &on_delete),
            1,
        ),
        (
            "decreased templateGeneration",
            mk("abc", "1", 2, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 1, &valid_selector, &abc, &on_delete),
            1,
        ),
        (
            "unchanged templateGeneration upon template update",
            mk("abc", "1", 2, &valid_selector, &abc, &on_delete),
            mk("abc", "2", 2, &valid_selector2, &abc2, &on_delete),
            1,
        ),
    ];
    for (name, old, update, want) in &errors {
        let errs = validate_daemon_set_update(update, old);
        assert_eq!(errs.len(), *want, "{name:?}: {errs:?}");
    }
}

// daemonSetStrategy.PrepareForUpdate (pkg/registry/apps/daemonset/strategy.go) bumps the template
// generation only when !apiequality.Semantic.DeepEqual(new template, old template): an added
// empty imagePullSecrets list is no change; an added container is.
#[test]
fn template_generation_bumps_only_on_a_semantic_template_change() {
    let base = json!({
        "metadata": {"name": "abc", "namespace": "default",
            "annotations": {"deprecated.daemonset.template.generation": "4"}},
        "spec": {"selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}}, "spec": make_pod_spec("abc")},
            "updateStrategy": {"type": "OnDelete"}}
    });
    // The stored object is defaulted.
    let mut old: DaemonSet = serde_json::from_value(base.clone()).unwrap();
    crate::api::sts_ds_defaults::set_defaults_daemon_set(&mut old);
    let generation_after = |patch: serde_json::Value| {
        let mut v = base.clone();
        merge(&mut v, patch);
        let mut new = crate::api::Object::DaemonSet(serde_json::from_value(v).unwrap());
        crate::api::sts_ds_defaults::prepare_for_update(
            &mut new,
            &crate::api::Object::DaemonSet(old.clone()),
        );
        match &new {
            crate::api::Object::DaemonSet(d) => crate::api::sts_ds_defaults::template_generation(d),
            _ => unreachable!(),
        }
    };
    assert_eq!(
        generation_after(json!({"spec": {"template": {"spec": {"imagePullSecrets": []}}}})),
        4
    );
    assert_eq!(
        generation_after(
            json!({"spec": {"template": {"spec": {"imagePullSecrets": [{"name": "s"}]}}}})
        ),
        5
    );
}

// upstream: TestValidateDaemonSet (pkg/apis/apps/validation/validation_test.go): the success
// cases, and every error case fails with errors only on upstream's allowed fields.
#[test]
fn validate_daemon_set_upstream_table() {
    let valid_selector = json!({"a": "b"});
    let valid = json!({"metadata": {"labels": valid_selector}, "spec": make_pod_spec("ctr")});
    let mut host_net = make_pod_spec("abc");
    host_net["securityContext"] = json!({"hostNetwork": true});
    host_net["containers"][0]["ports"] = json!([{"containerPort": 12345, "protocol": "TCP"}]);
    let host_net = json!({"metadata": {"labels": valid_selector}, "spec": host_net});
    // podtest.MakePodSpec(podtest.SetLabels(invalidSelector)): the labels tweak has nothing to
    // set on a PodSpec, so the template has no labels.
    let invalid = json!({"spec": make_pod_spec("ctr")});
    let with_restart = |p: &str| {
        let mut s = make_pod_spec("ctr");
        s["restartPolicy"] = json!(p);
        json!({"spec": s})
    };
    let mut ephemeral = make_pod_spec("ctr");
    ephemeral["ephemeralContainers"] = json!([{"name": "debug", "image": "image",
        "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}]);
    let ephemeral = json!({"metadata": {"labels": valid_selector}, "spec": ephemeral});
    let ds = |v: serde_json::Value| -> DaemonSet { serde_json::from_value(v).unwrap() };
    let on_delete = json!({"type": "OnDelete"});
    for v in [
        json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": valid, "updateStrategy": on_delete}}),
        json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": valid, "updateStrategy": on_delete}}),
        json!({"metadata": {"name": "hostnet", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": host_net, "updateStrategy": on_delete}}),
    ] {
        let errs = validate_daemon_set(&ds(v.clone()));
        assert!(errs.is_empty(), "expected success: {v}: {errs:?}");
    }
    let bad = json!({"NoUppercaseOrSpecialCharsLike=Equals": "bar"});
    let errors = [
        (
            "zero-length ID",
            json!({"metadata": {"name": "", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": valid}}),
        ),
        (
            "missing-namespace",
            json!({"metadata": {"name": "abc-123"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": valid}}),
        ),
        (
            "nil selector",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"template": valid}}),
        ),
        (
            "empty selector",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"selector": {}, "template": valid}}),
        ),
        (
            "selector_doesnt_match",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"foo": "bar"}}, "template": valid}}),
        ),
        (
            "invalid template",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}}}),
        ),
        (
            "invalid_label",
            json!({"metadata": {"name": "abc-123", "namespace": "default", "labels": bad},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": valid}}),
        ),
        (
            "invalid_label 2",
            json!({"metadata": {"name": "abc-123", "namespace": "default", "labels": bad},
            "spec": {"template": invalid}}),
        ),
        (
            "invalid_annotation",
            json!({"metadata": {"name": "abc-123", "namespace": "default", "annotations": bad},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": valid}}),
        ),
        (
            "invalid restart policy 1",
            json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": with_restart("OnFailure")}}),
        ),
        (
            "invalid restart policy 2",
            json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": with_restart("Never")}}),
        ),
        (
            "template may not contain ephemeral containers",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"selector": {"matchLabels": valid_selector}, "template": ephemeral, "updateStrategy": on_delete}}),
        ),
    ];
    for (k, v) in errors {
        let errs = validate_daemon_set(&ds(v));
        assert!(!errs.is_empty(), "expected failure for {k}");
        for e in &errs {
            let f = e.field.as_str();
            assert!(
                f.starts_with("spec.template.")
                    || f.starts_with("spec.updateStrategy")
                    || [
                        "metadata.name",
                        "metadata.namespace",
                        "spec.selector",
                        "spec.template",
                        "GCEPersistentDisk.ReadOnly",
                        "spec.template.labels",
                        "metadata.annotations",
                        "metadata.labels",
                    ]
                    .contains(&f),
                "{k}: missing prefix for: {e:?}"
            );
        }
    }
}
