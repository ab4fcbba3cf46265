//! Ports of `pkg/apis/apps/validation/validation_test.go` rows for StatefulSet, DaemonSet and
//! ControllerRevision (field paths and messages), and API-server round trips.

use super::*;
use crate::api::{Object, Time};
use crate::store::apiserver::ApiServer;
use serde_json::json;

fn sts(v: serde_json::Value) -> StatefulSet {
    let mut base = json!({
        "metadata": {"name": "abc", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"a": "b"}},
            "serviceName": "svc",
            "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "c", "image": "image"}]}
            }
        }
    });
    merge(&mut base, v);
    let mut s: StatefulSet = serde_json::from_value(base).unwrap();
    crate::api::sts_ds_defaults::set_defaults_stateful_set(&mut s);
    s
}

fn ds(v: serde_json::Value) -> DaemonSet {
    let mut base = json!({
        "metadata": {"name": "abc", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"a": "b"}},
            "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "c", "image": "image"}]}
            }
        }
    });
    merge(&mut base, v);
    let mut d: DaemonSet = serde_json::from_value(base).unwrap();
    crate::api::sts_ds_defaults::set_defaults_daemon_set(&mut d);
    d
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

fn fields(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.field.clone()).collect()
}

// Port of TestValidateStatefulSet (success cases).
#[test]
fn valid_stateful_sets() {
    for v in [
        json!({}),
        json!({"spec": {"podManagementPolicy": "Parallel"}}),
        json!({"spec": {"updateStrategy": {"type": "OnDelete"}}}),
        json!({"spec": {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2}}}}),
        json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": "50%"}}}}),
        json!({"spec": {"ordinals": {"start": 2}}}),
        json!({"spec": {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"}}}),
        json!({"spec": {"replicas": 0, "minReadySeconds": 30}}),
        // The pod spec is not validated (its mounts may name claim templates).
        json!({"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "i",
            "volumeMounts": [{"name": "www", "mountPath": "/data"}]}]}}}}),
    ] {
        let s = sts(v.clone());
        assert!(
            validate_stateful_set(&s).is_empty(),
            "{v}: {:?}",
            validate_stateful_set(&s)
        );
    }
}

// Port of TestValidateStatefulSet (error cases): the field paths.
#[test]
fn invalid_stateful_sets() {
    let rows: Vec<(&str, serde_json::Value, &[&str])> = vec![
        (
            "zero-length name",
            json!({"metadata": {"name": ""}}),
            &["metadata.name"],
        ),
        (
            "name not a DNS label",
            json!({"metadata": {"name": "a.b"}}),
            &["metadata.name"],
        ),
        (
            "missing namespace",
            json!({"metadata": {"namespace": ""}}),
            &["metadata.namespace"],
        ),
        // An empty selector selects everything, so the template labels are not checked.
        (
            "empty selector",
            json!({"spec": {"selector": {"matchLabels": null}}}),
            &["spec.selector"],
        ),
        (
            "selector doesn't match",
            json!({"spec": {"selector": {"matchLabels": {"foo": "bar"}}}}),
            &["spec.template.metadata.labels"],
        ),
        (
            "negative replicas",
            json!({"spec": {"replicas": -1}}),
            &["spec.replicas"],
        ),
        (
            "invalid label",
            json!({"metadata": {"labels": {"NoUppercaseOrSpecialCharsLike=Equals": "bar"}}}),
            &["metadata.labels"],
        ),
        (
            "invalid template label",
            json!({"spec": {"template": {"metadata": {"labels": {"a": "b", "NoUppercaseOrSpecialCharsLike=Equals": "bar"}}}}}),
            &["spec.template.labels"],
        ),
        (
            "invalid restart policy",
            json!({"spec": {"template": {"spec": {"restartPolicy": "OnFailure"}}}}),
            &["spec.template.spec.restartPolicy"],
        ),
        (
            "invalid PodManagementPolicy",
            json!({"spec": {"podManagementPolicy": "foo"}}),
            &["spec.podManagementPolicy"],
        ),
        (
            "active deadline seconds",
            json!({"spec": {"template": {"spec": {"activeDeadlineSeconds": 5}}}}),
            &["spec.template.spec.activeDeadlineSeconds"],
        ),
        (
            "invalid update strategy",
            json!({"spec": {"updateStrategy": {"type": "foo"}}}),
            &["spec.updateStrategy"],
        ),
        (
            "OnDelete with rollingUpdate",
            json!({"spec": {"updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}}}),
            &["spec.updateStrategy.rollingUpdate"],
        ),
        (
            "negative partition",
            json!({"spec": {"updateStrategy": {"rollingUpdate": {"partition": -1}}}}),
            &["spec.updateStrategy.rollingUpdate.partition"],
        ),
        (
            "zero maxUnavailable",
            json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 0}}}}),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable"],
        ),
        (
            "maxUnavailable 0%",
            json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": "0%"}}}}),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable"],
        ),
        (
            "maxUnavailable over 100%",
            json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": "101%"}}}}),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable"],
        ),
        (
            "negative maxUnavailable",
            json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": -1}}}}),
            &["spec.updateStrategy.rollingUpdate.maxUnavailable"],
        ),
        (
            "negative minReadySeconds",
            json!({"spec": {"minReadySeconds": -1}}),
            &["spec.minReadySeconds"],
        ),
        (
            "negative ordinals.start",
            json!({"spec": {"ordinals": {"start": -2}}}),
            &["spec.ordinals.start"],
        ),
        (
            "bad retention",
            json!({"spec": {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Keep"}}}),
            &["spec.persistentVolumeClaimRetentionPolicy.whenDeleted"],
        ),
    ];
    for (name, v, want) in rows {
        let s = sts(v);
        let errs = validate_stateful_set(&s);
        let got = fields(&errs);
        for w in want {
            assert!(got.contains(&w.to_string()), "{name}: want {w} in {errs:?}");
        }
    }
}

#[test]
fn stateful_set_messages() {
    let e = validate_stateful_set(&sts(json!({"spec": {"podManagementPolicy": "foo"}})));
    assert_eq!(
        e[0].to_string(),
        "spec.podManagementPolicy: Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'"
    );
    let e = validate_stateful_set(&sts(
        json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 0}}}}),
    ));
    assert_eq!(
        e[0].to_string(),
        "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"
    );
    let e = validate_stateful_set(&sts(
        json!({"spec": {"template": {"spec": {"restartPolicy": "Never"}}}}),
    ));
    assert_eq!(
        e[0].to_string(),
        "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""
    );
    let e = validate_stateful_set(&sts(
        json!({"spec": {"selector": {"matchLabels": {"x": "y"}}}}),
    ));
    assert_eq!(
        e[0].to_string(),
        "spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`"
    );
    let e = validate_stateful_set(&sts(json!({"metadata": {"name": "web.1"}})));
    assert_eq!(
        e[0].to_string(),
        "metadata.name: Invalid value: \"web.1\": must not contain dots"
    );
}

// Port of TestValidateStatefulSetUpdate.
#[test]
fn stateful_set_update_rules() {
    let old = sts(json!({"metadata": {"resourceVersion": "1"}}));
    let allowed: Vec<serde_json::Value> = vec![
        json!({"spec": {"replicas": 5}}),
        json!({"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "image:2"}]}}}}),
        json!({"spec": {"updateStrategy": {"type": "OnDelete", "rollingUpdate": null}}}),
        json!({"spec": {"minReadySeconds": 10}}),
        json!({"spec": {"ordinals": {"start": 3}}}),
        json!({"spec": {"persistentVolumeClaimRetentionPolicy": {"whenScaled": "Delete"}}}),
    ];
    for v in allowed {
        let mut new = sts(v.clone());
        new.metadata.resource_version = "1".into();
        let errs = validate_stateful_set_update(&new, &old);
        assert!(errs.is_empty(), "{v}: {errs:?}");
    }
    let forbidden: Vec<serde_json::Value> = vec![
        json!({"spec": {"serviceName": "other"}}),
        json!({"spec": {"podManagementPolicy": "Parallel"}}),
        json!({"spec": {"revisionHistoryLimit": 3}}),
        json!({"spec": {"selector": {"matchLabels": {"a": "b", "c": "d"}}, "template": {"metadata": {"labels": {"a": "b", "c": "d"}}}}}),
        json!({"spec": {"volumeClaimTemplates": [{"metadata": {"name": "x"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]}}),
    ];
    for v in forbidden {
        let mut new = sts(v.clone());
        new.metadata.resource_version = "1".into();
        let errs = validate_stateful_set_update(&new, &old);
        assert_eq!(
            errs.iter()
                .map(|e| e.to_string())
                .filter(|m| m.starts_with("spec: Forbidden"))
                .collect::<Vec<_>>(),
            [format!("spec: Forbidden: {STATEFULSET_FORBIDDEN_UPDATE}")],
            "{v}"
        );
    }
}

// Port of TestValidateDaemonSet.
#[test]
fn daemon_set_rows() {
    assert!(validate_daemon_set(&ds(json!({}))).is_empty());
    assert!(validate_daemon_set(&ds(
        json!({"spec": {"updateStrategy": {"type": "OnDelete"}}})
    ))
    .is_empty());
    assert!(validate_daemon_set(&ds(
        json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}}})
    ))
    .is_empty());
    let rows: Vec<(&str, serde_json::Value, &str)> = vec![
        ("selector doesn't match", json!({"spec": {"selector": {"matchLabels": {"x": "y"}}}}), "spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`"),
        ("restart policy", json!({"spec": {"template": {"spec": {"restartPolicy": "OnFailure"}}}}), "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""),
        ("both zero", json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}}}), "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"),
        ("both set", json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 1, "maxSurge": "10%"}}}}), "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"10%\": may not be set when maxUnavailable is non-zero"),
        ("surge over 100%", json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": "110%"}}}}), "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"110%\": must not be greater than 100%"),
        ("negative minReadySeconds", json!({"spec": {"minReadySeconds": -1}}), "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"),
        ("active deadline", json!({"spec": {"template": {"spec": {"activeDeadlineSeconds": 3}}}}), "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"),
        ("bad strategy", json!({"spec": {"updateStrategy": {"type": "Foo", "rollingUpdate": null}}}), "spec.updateStrategy: Unsupported value:"),
        ("invalid container name", json!({"spec": {"template": {"spec": {"containers": [{"name": "c/x", "image": "i"}]}}}}), "spec.template.spec.containers[0].name: Invalid value: \"c/x\""),
    ];
    for (name, v, want) in rows {
        let errs = validate_daemon_set(&ds(v));
        assert!(
            errs.iter().any(|e| e.to_string().starts_with(want)),
            "{name}: want {want:?} in {:?}",
            errs.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        );
    }
}

// The strategy's selector immutability (pkg/registry/apps/daemonset/strategy.go).
#[test]
fn daemon_set_selector_is_immutable() {
    let old = ds(json!({"metadata": {"resourceVersion": "1"}}));
    let mut new = ds(
        json!({"spec": {"selector": {"matchLabels": {"a": "b", "c": "d"}},
        "template": {"metadata": {"labels": {"a": "b", "c": "d"}}}}}),
    );
    new.metadata.resource_version = "1".into();
    // The server bumps the template generation with the template (PrepareForUpdate).
    new.metadata.annotations.insert(
        crate::api::sts_ds_defaults::DEPRECATED_TEMPLATE_GENERATION.into(),
        "1".into(),
    );
    let errs = validate_daemon_set_strategy_update(&new, &old);
    assert_eq!(
        errs.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        ["spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\",\"c\":\"d\"}}: field is immutable"]
    );
    let mut image = ds(
        json!({"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "image:2"}]}}}}),
    );
    image.metadata.resource_version = "1".into();
    image.metadata.annotations.insert(
        crate::api::sts_ds_defaults::DEPRECATED_TEMPLATE_GENERATION.into(),
        "1".into(),
    );
    assert!(validate_daemon_set_strategy_update(&image, &old).is_empty());
}

// Ports of TestValidateControllerRevision and TestValidateControllerRevisionUpdate.
#[test]
fn controller_revision_rules() {
    let r: ControllerRevision = serde_json::from_value(json!({
        "metadata": {"name": "web-123", "namespace": "default", "resourceVersion": "1"},
        "data": {"spec": {}}, "revision": 1}))
    .unwrap();
    assert!(validate_controller_revision(&r).is_empty());
    let mut no_data = r.clone();
    no_data.data = None;
    assert_eq!(
        validate_controller_revision(&no_data)[0].to_string(),
        "data: Required value: data is mandatory"
    );
    let mut neg = r.clone();
    neg.revision = -1;
    assert_eq!(fields(&validate_controller_revision(&neg)), ["revision"]);
    let mut renumbered = r.clone();
    renumbered.revision = 5;
    assert!(validate_controller_revision_update(&renumbered, &r).is_empty());
    let mut changed = r.clone();
    changed.data = Some(json!({"spec": {"x": 1}}));
    assert_eq!(
        fields(&validate_controller_revision_update(&changed, &r)),
        ["data"]
    );
}

#[test]
fn claim_and_service_rules() {
    let pvc: PersistentVolumeClaim = serde_json::from_value(json!({
        "metadata": {"name": "www-web-0", "namespace": "default", "resourceVersion": "1"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}))
    .unwrap();
    assert!(validate_persistent_volume_claim(&pvc).is_empty());
    let mut bad = pvc.clone();
    bad.spec.access_modes.clear();
    bad.spec.resources.requests.clear();
    assert_eq!(
        validate_persistent_volume_claim(&bad)
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>(),
        [
            "spec.accessModes: Required value: at least 1 access mode is required",
            "spec.resources[storage]: Required value",
        ]
    );
    // Only a bound claim may change its storage request (upstream's
    // "unbound-size-update-resize-enabled" row of TestValidatePersistentVolumeClaimUpdate).
    let mut resized = pvc.clone();
    resized.status.phase = "Bound".into();
    resized
        .spec
        .resources
        .requests
        .insert("storage".into(), crate::api::Quantity("2Gi".into()));
    assert!(validate_persistent_volume_claim_update(&resized, &pvc).is_empty());
    let mut moded = pvc.clone();
    moded.spec.access_modes = vec!["ReadWriteMany".into()];
    let e = validate_persistent_volume_claim_update(&moded, &pvc);
    assert!(
        e[0].to_string()
            .starts_with("spec: Forbidden: spec is immutable after creation"),
        "{}",
        e[0]
    );

    let svc: Service = serde_json::from_value(json!({
        "metadata": {"name": "nginx", "namespace": "default"},
        "spec": {"clusterIP": "None", "clusterIPs": ["None"], "type": "ClusterIP", "selector": {"app": "nginx"},
                 "sessionAffinity": "None", "internalTrafficPolicy": "Cluster"}}))
    .unwrap();
    assert!(
        validate_service(&svc).is_empty(),
        "a headless Service needs no ports"
    );
    let mut no_ports = svc.clone();
    no_ports.spec.cluster_ip.clear();
    no_ports.spec.cluster_ips.clear();
    assert_eq!(fields(&validate_service(&no_ports)), ["spec.ports"]);
    let mut bad_name = svc.clone();
    bad_name.metadata.name = "1nginx".into();
    assert_eq!(fields(&validate_service(&bad_name)), ["metadata.name"]);
    let mut bad_port = svc.clone();
    bad_port.spec.ports = vec![crate::api::ServicePort {
        port: 70000,
        protocol: "TCP".into(),
        ..Default::default()
    }];
    assert_eq!(
        validate_service(&bad_port)[0].to_string(),
        "spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive"
    );
}

// The API server applies defaults, validation and the strategies end to end.
#[test]
fn api_server_round_trips() {
    let mut api = ApiServer::new(1, Time::from_unix_secs(1_735_689_600));
    let created = api.create(Object::StatefulSet(sts(json!({})))).unwrap();
    let Object::StatefulSet(s) = created else {
        unreachable!()
    };
    assert_eq!(s.metadata.generation, 1);
    assert_eq!(s.spec.pod_management_policy, "OrderedReady");
    // A forbidden update is rejected with kubectl's wording.
    let mut bad = s.clone();
    bad.spec.service_name = "other".into();
    let e = api.update(Object::StatefulSet(bad)).unwrap_err();
    assert_eq!(
        e.kubectl_message(),
        format!(
            "The StatefulSet \"abc\" is invalid: spec: Forbidden: {STATEFULSET_FORBIDDEN_UPDATE}"
        )
    );
    // A scale bumps the generation.
    let mut scaled = s.clone();
    scaled.spec.replicas = Some(3);
    let Object::StatefulSet(s2) = api.update(Object::StatefulSet(scaled)).unwrap() else {
        unreachable!()
    };
    assert_eq!(s2.metadata.generation, 2);
    // DaemonSet: created at template generation 1, bumped by template changes only.
    let Object::DaemonSet(d) = api.create(Object::DaemonSet(ds(json!({})))).unwrap() else {
        unreachable!()
    };
    assert_eq!(
        d.metadata.annotations["deprecated.daemonset.template.generation"],
        "1"
    );
    let mut d2 = d.clone();
    d2.spec.template_mut().spec_mut().containers[0].image = "image:2".into();
    let Object::DaemonSet(d2) = api.update(Object::DaemonSet(d2)).unwrap() else {
        unreachable!()
    };
    assert_eq!(
        d2.metadata.annotations["deprecated.daemonset.template.generation"],
        "2"
    );
    let mut d3 = d2.clone();
    d3.spec.min_ready_seconds = 5;
    let Object::DaemonSet(d3) = api.update(Object::DaemonSet(d3)).unwrap() else {
        unreachable!()
    };
    assert_eq!(
        d3.metadata.annotations["deprecated.daemonset.template.generation"],
        "2"
    );
    assert_eq!(d3.metadata.generation, 3);
}

// Upstream: TestDaemonSetUpdateMaxSurge (pkg/apis/apps/validation/validation_test.go):
// (name, maxUnavailable, maxSurge, expect error); None is the zero IntOrString upstream.
#[test]
fn daemon_set_update_max_surge() {
    fn v(s: Option<&str>) -> Option<IntOrString> {
        s.map(|s| match s.parse::<i32>() {
            Ok(i) => IntOrString::Int(i),
            Err(_) => IntOrString::String(s.into()),
        })
    }
    let rows: &[(&str, Option<&str>, Option<&str>, bool)] = &[
        ("invalid: unset", None, None, true),
        ("invalid: zero percent", Some("0%"), None, true),
        ("invalid: zero", Some("0"), None, true),
        ("valid: one", Some("1"), None, false),
        ("valid: one percent", Some("1%"), None, false),
        ("valid: 100%", Some("100%"), None, false),
        ("invalid: greater than 100%", Some("101%"), None, true),
        (
            "valid: surge and unavailable set",
            Some("1%"),
            Some("1%"),
            true,
        ),
        (
            "invalid: surge enabled, unavailable zero percent",
            Some("0%"),
            None,
            true,
        ),
        (
            "invalid: surge enabled, unavailable zero",
            Some("0"),
            None,
            true,
        ),
        (
            "valid: surge enabled, unavailable one",
            Some("1"),
            None,
            false,
        ),
        (
            "valid: surge enabled, unavailable one percent",
            Some("1%"),
            None,
            false,
        ),
        (
            "valid: surge enabled, unavailable 100%",
            Some("100%"),
            None,
            false,
        ),
        (
            "invalid: surge enabled, unavailable greater than 100%",
            Some("101%"),
            None,
            true,
        ),
        (
            "invalid: surge enabled, surge zero percent",
            None,
            Some("0%"),
            true,
        ),
        ("invalid: surge enabled, surge zero", None, Some("0"), true),
        ("valid: surge enabled, surge one", None, Some("1"), false),
        (
            "valid: surge enabled, surge one percent",
            None,
            Some("1%"),
            false,
        ),
        (
            "valid: surge enabled, surge 100%",
            None,
            Some("100%"),
            false,
        ),
        (
            "invalid: surge enabled, surge greater than 100%",
            None,
            Some("101%"),
            true,
        ),
        (
            "invalid: surge enabled, surge and unavailable set",
            Some("1%"),
            Some("1%"),
            true,
        ),
        (
            "invalid: surge enabled, surge and unavailable zero percent",
            Some("0%"),
            Some("0%"),
            true,
        ),
        (
            "invalid: surge enabled, surge and unavailable zero",
            Some("0"),
            Some("0"),
            true,
        ),
        (
            "invalid: surge enabled, surge and unavailable mixed zero",
            Some("0"),
            Some("0%"),
            true,
        ),
    ];
    for &(name, mu, ms, want_err) in rows {
        let ru = RollingUpdateDaemonSet {
            max_unavailable: v(mu),
            max_surge: v(ms),
        };
        let errs = validate_rolling_update_daemon_set(&ru, "spec.updateStrategy.rollingUpdate");
        assert_eq!(!errs.is_empty(), want_err, "{name}: {:?}", fields(&errs));
    }
}

// A Service that names its addresses only in `clusterIPs` (headless here) is normalized before
// validation, as the Service strategy does, and passes ValidateServiceClusterIPsRelatedFields.
#[test]
fn service_with_only_cluster_ips_is_normalized() {
    let mut svc: Service = serde_json::from_value(json!({
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"clusterIPs": ["None"], "selector": {"app": "web"}}}))
    .unwrap();
    crate::api::sts_ds_defaults::set_defaults_service(&mut svc);
    assert_eq!(svc.spec.cluster_ip, "None");
    assert!(
        validate_service(&svc).is_empty(),
        "{:?}",
        validate_service(&svc)
    );
}
