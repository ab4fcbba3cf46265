//! Ports of the ReplicaSet tables of pkg/apis/apps/validation/validation_test.go.

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

fn rs(v: serde_json::Value) -> ReplicaSet {
    serde_json::from_value(v).expect("valid ReplicaSet JSON")
}

struct Templates {
    valid: serde_json::Value,
    host_net: serde_json::Value,
    read_write_volume: serde_json::Value,
    invalid: serde_json::Value,
}

fn templates() -> Templates {
    let valid_labels = json!({"a": "b"});
    let mut host_net = make_pod_spec();
    host_net["securityContext"] = json!({"hostNetwork": true});
    host_net["containers"] = json!([{"name": "abc", "image": "image",
        "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File",
        "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]);
    let mut rw = make_pod_spec();
    rw["volumes"] = json!([{"name": "gcepd", "gcePersistentDisk":
        {"pdName": "my-PD", "fsType": "ext4", "partition": 1, "readOnly": false}}]);
    Templates {
        valid: json!({"metadata": {"labels": valid_labels}, "spec": make_pod_spec()}),
        host_net: json!({"metadata": {"labels": valid_labels}, "spec": host_net}),
        read_write_volume: json!({"metadata": {"labels": valid_labels}, "spec": rw}),
        invalid: json!({"metadata": {"labels": {"NoUppercaseOrSpecialCharsLike=Equals": "b"}},
            "spec": make_pod_spec()}),
    }
}

// upstream: TestValidateReplicaSetUpdate (pkg/apis/apps/validation/validation_test.go): the
// success cases, and the error cases with upstream's exact error counts.
#[test]
fn validate_replica_set_update_upstream_table() {
    let t = templates();
    let mk = |name: &str,
              rv: &str,
              replicas: i32,
              selector: serde_json::Value,
              template: &serde_json::Value| {
        rs(json!({
            "metadata": {"name": name, "namespace": "default", "resourceVersion": rv},
            "spec": {"replicas": replicas, "selector": {"matchLabels": selector}, "template": template}
        }))
    };
    let valid_labels = json!({"a": "b"});
    let invalid_labels = json!({"NoUppercaseOrSpecialCharsLike=Equals": "b"});
    let mut no_containers = t.invalid.clone();
    no_containers["spec"]["containers"] = json!([]);
    let success = [
        (
            "positive replicas",
            mk("abc", "1", 0, valid_labels.clone(), &t.valid),
            mk("abc", "2", 3, valid_labels.clone(), &t.valid),
        ),
        (
            "Read-write volume verification",
            mk("abc", "1", 0, valid_labels.clone(), &t.valid),
            mk("abc", "2", 3, valid_labels.clone(), &t.read_write_volume),
        ),
    ];
    for (name, old, update) in &success {
        let errs = validate_replica_set_update(update, old);
        assert!(
            errs.is_empty(),
            "{name:?} expected no error, but got: {errs:?}"
        );
    }
    let errors = [
        (
            "invalid selector",
            mk("", "1", 0, valid_labels.clone(), &t.valid),
            mk("abc", "2", 2, invalid_labels, &t.valid),
            3,
        ),
        (
            // podtest.MakePodSpec(podtest.SetContainers()) with invalid labels
            "invalid pod",
            mk("", "1", 0, valid_labels.clone(), &t.valid),
            mk("abc", "2", 2, valid_labels.clone(), &no_containers),
            4,
        ),
        (
            "negative replicas",
            mk("abc", "1", 0, valid_labels.clone(), &t.valid),
            mk("abc", "2", -1, valid_labels, &t.valid),
            1,
        ),
    ];
    for (name, old, update, want) in &errors {
        let errs = validate_replica_set_update(update, old);
        assert_eq!(errs.len(), *want, "{name:?}: {errs:?}");
    }
}

// upstream: TestValidateReplicaSet (pkg/apis/apps/validation/validation_test.go): the success
// cases, and every error case fails with errors only on upstream's allowed fields.
#[test]
fn validate_replica_set_upstream_table() {
    let t = templates();
    let valid_labels = json!({"a": "b"});
    let success = [
        json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.valid}}),
        json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.valid}}),
        json!({"metadata": {"name": "hostnet", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.host_net}}),
        json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"replicas": 1, "selector": {"matchLabels": valid_labels}, "template": t.read_write_volume}}),
    ];
    for v in success {
        let errs = validate_replica_set(&rs(v.clone()));
        assert!(errs.is_empty(), "expected success: {v}: {errs:?}");
    }
    let with_restart = |policy: &str| {
        let mut spec = make_pod_spec();
        spec["restartPolicy"] = json!(policy);
        json!({"metadata": {"labels": valid_labels}, "spec": spec})
    };
    let bad_key = json!({"NoUppercaseOrSpecialCharsLike=Equals": "bar"});
    let errors = [
        (
            "zero-length ID",
            json!({"metadata": {"name": "", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.valid}}),
        ),
        (
            "missing-namespace",
            json!({"metadata": {"name": "abc-123"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.valid}}),
        ),
        (
            "empty selector",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"replicas": 0, "template": t.valid}}),
        ),
        (
            "selector_doesnt_match",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": {"foo": "bar"}}, "template": t.valid}}),
        ),
        (
            "invalid manifest",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}}}),
        ),
        (
            "read-write persistent disk with > 1 pod",
            json!({"metadata": {"name": "abc"},
            "spec": {"replicas": 2, "selector": {"matchLabels": valid_labels}, "template": t.read_write_volume}}),
        ),
        (
            "negative_replicas",
            json!({"metadata": {"name": "abc", "namespace": "default"},
            "spec": {"replicas": -1, "selector": {"matchLabels": valid_labels}}}),
        ),
        (
            "invalid_label",
            json!({"metadata": {"name": "abc-123", "namespace": "default", "labels": bad_key},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.valid}}),
        ),
        (
            "invalid_label 2",
            json!({"metadata": {"name": "abc-123", "namespace": "default", "labels": bad_key},
            "spec": {"replicas": 0, "template": t.invalid}}),
        ),
        (
            "invalid_annotation",
            json!({"metadata": {"name": "abc-123", "namespace": "default", "annotations": bad_key},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": t.valid}}),
        ),
        (
            "invalid restart policy 1",
            json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": with_restart("OnFailure")}}),
        ),
        (
            "invalid restart policy 2",
            json!({"metadata": {"name": "abc-123", "namespace": "default"},
            "spec": {"replicas": 0, "selector": {"matchLabels": valid_labels}, "template": with_restart("Never")}}),
        ),
    ];
    for (k, v) in errors {
        let errs = validate_replica_set(&rs(v));
        assert!(!errs.is_empty(), "expected failure for {k}");
        for e in &errs {
            let f = e.field.as_str();
            assert!(
                f.starts_with("spec.template.")
                    || [
                        "metadata.name",
                        "metadata.namespace",
                        "spec.selector",
                        "spec.template",
                        "GCEPersistentDisk.ReadOnly",
                        "spec.replicas",
                        "spec.template.labels",
                        "metadata.annotations",
                        "metadata.labels",
                        "status.replicas",
                    ]
                    .contains(&f),
                "{k}: missing prefix for: {e:?}"
            );
        }
    }
}
