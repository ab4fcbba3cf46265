//! Ports of `pkg/apis/core/validation/validation_test.go` tables (repo kubernetes/kubernetes)
//! not ported before: `TestIsValidSysctlName`, `TestHugePagesIsolation`,
//! `TestRelaxedValidateEnv`, `TestValidateOrSetClientIPAffinityConfig` and
//! `TestValidateAppArmorProfileFormat`. Row names and
//! expectations are upstream's.

use super::pod::validate_pod_create;
use super::pod_spec_more::is_valid_sysctl_name;
use super::pod_volumes_env::validate_env;
use crate::api::core::{Container, Pod, PodSpec, Quantity, ResourceRequirements};
use crate::api::errors::FieldError;
use crate::api::sts_ds_validation::validate_service;
use crate::api::{IntOrString, ObjectMeta, Service, ServicePort, ServiceSpec};
use serde_json::{json, Value};
use std::collections::BTreeMap;

// upstream: TestIsValidSysctlName (pkg/apis/core/validation/validation_test.go)
#[test]
fn is_valid_sysctl_name_table() {
    let valid = [
        "a.b.c.d", "a", "a_b", "a-b", "abc", "abc.def", "a/b/c/d", "a/b.c",
    ];
    for name in valid {
        assert!(is_valid_sysctl_name(name), "expected valid: {name:?}");
    }
    let long = "a".repeat(256);
    let invalid = [
        "",
        "*",
        "ä",
        "a_",
        "_",
        "__",
        "_a",
        "_a._b",
        "-",
        ".",
        "a.",
        ".a",
        "a.b.",
        "a*.b",
        "a*b",
        "*a",
        "a.*",
        "*",
        "abc*",
        "a.abc*",
        "a.b.*",
        "Abc",
        "/",
        "/a",
        "a/abc*",
        "a/b/*",
        long.as_str(),
    ];
    for name in invalid {
        assert!(!is_valid_sysctl_name(name), "expected invalid: {name:?}");
    }
}

fn hugepages_pod(name: &str, requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Pod {
    let list = |kv: &[(&str, &str)]| {
        kv.iter()
            .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
            .collect::<BTreeMap<_, _>>()
    };
    let mut c = Container {
        name: "ctr".into(),
        image: "image".into(),
        resources: Some(ResourceRequirements {
            requests: list(requests),
            limits: list(limits),
        }),
        ..Default::default()
    };
    c.extra
        .insert("imagePullPolicy".into(), json!("IfNotPresent"));
    c.extra
        .insert("terminationMessagePolicy".into(), json!("File"));
    let mut spec = PodSpec {
        containers: vec![c],
        restart_policy: "Always".into(),
        termination_grace_period_seconds: Some(30),
        ..Default::default()
    };
    spec.extra.insert("dnsPolicy".into(), json!("ClusterFirst"));
    Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "ns".into(),
            ..Default::default()
        },
        spec: spec.into(),
        ..Default::default()
    }
}

// upstream: TestHugePagesIsolation (pkg/apis/core/validation/validation_test.go), through
// ValidatePodCreate. Upstream only checks success vs failure; the failing rows here also
// assert the error ValidateContainerResourceRequirements gives.
#[test]
fn huge_pages_isolation_table() {
    let cm = [("cpu", "10"), ("memory", "10G")];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut v: Vec<(&str, &str)> = cm.to_vec();
        v.extend_from_slice(extra);
        v
    };
    let ok: Vec<(&str, Pod)> = vec![
        (
            "Valid: request hugepages-2Mi",
            hugepages_pod(
                "123",
                &with(&[("hugepages-2Mi", "1Gi")]),
                &with(&[("hugepages-2Mi", "1Gi")]),
            ),
        ),
        (
            "Valid: request more than one hugepages size",
            hugepages_pod(
                "hugepages-shared",
                &with(&[("hugepages-2Mi", "1Gi"), ("hugepages-1Gi", "2Gi")]),
                &with(&[("hugepages-2Mi", "1Gi"), ("hugepages-1Gi", "2Gi")]),
            ),
        ),
        (
            "Valid: request hugepages-1Gi, limit hugepages-2Mi and hugepages-1Gi",
            hugepages_pod(
                "hugepages-multiple",
                &with(&[("hugepages-2Mi", "1Gi"), ("hugepages-1Gi", "2Gi")]),
                &with(&[("hugepages-2Mi", "1Gi"), ("hugepages-1Gi", "2Gi")]),
            ),
        ),
    ];
    for (name, pod) in ok {
        let errs = validate_pod_create(&pod);
        assert!(errs.is_empty(), "{name}: {errs:?}");
    }

    // "Invalid: not requesting cpu and memory": "HugePages require cpu or memory".
    let pod = hugepages_pod(
        "hugepages-requireCpuOrMemory",
        &[("hugepages-2Mi", "1Gi")],
        &[("hugepages-2Mi", "1Gi")],
    );
    let errs: Vec<String> = validate_pod_create(&pod)
        .iter()
        .map(FieldError::to_string)
        .collect();
    // (Upstream's pod name has capitals, so metadata.name is Invalid there too.)
    assert!(
        errs.iter().any(
            |e| e == "spec.containers[0].resources: Forbidden: HugePages require cpu or memory"
        ),
        "Invalid: not requesting cpu and memory: {errs:?}"
    );

    // "Invalid: request 1Gi hugepages-2Mi but limit 2Gi": requests must equal limits for
    // hugepages (ValidateContainerResourceRequirements, not helper.IsOvercommitAllowed).
    let pod = hugepages_pod(
        "hugepages-shared",
        &with(&[("hugepages-2Mi", "1Gi")]),
        &with(&[("hugepages-2Mi", "2Gi")]),
    );
    // The error is on the requests path itself (`field.Invalid(reqPath, ...)`).
    let errs: Vec<String> = validate_pod_create(&pod)
        .iter()
        .map(FieldError::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.containers[0].resources.requests: Invalid value: \"1Gi\": must be equal to hugepages-2Mi limit of 2Gi"],
        "Invalid: request 1Gi hugepages-2Mi but limit 2Gi"
    );
}

fn env_errs(env: Value) -> Vec<String> {
    let mut errs = vec![];
    validate_env(&mut errs, env.as_array().map_or(&[][..], |a| a), "field");
    errs.iter().map(FieldError::to_string).collect()
}

const RELAXED_ENV_VAR_NAME_FMT_ERR_MSG: &str =
    "a valid environment variable name must consist only of printable ASCII characters other than '='";

// upstream: TestRelaxedValidateEnv (pkg/apis/core/validation/validation_test.go), with
// AllowRelaxedEnvironmentVariableValidation (RelaxedEnvironmentVariableValidation, GA).
#[test]
fn relaxed_validate_env_table() {
    let fr = |p: &str| json!({"fieldRef": {"apiVersion": "v1", "fieldPath": p}});
    let success = json!([
        {"name": "!\"#$%&'()", "value": "value"},
        {"name": "* +,-./0123456789", "value": "value"},
        {"name": ":;<>?@", "value": "value"},
        {"name": "ABCDEFG", "value": "value"},
        {"name": "abcdefghijklmn", "value": "value"},
        {"name": "[\\]^_`{}|~", "value": "value"},
        {"name": "!\"#$%&'()", "valueFrom": fr("metadata.annotations['key']")},
        {"name": "!\"#$%&'()", "valueFrom": fr("metadata.labels['key']")},
        {"name": "* +,-./0123456789", "valueFrom": fr("metadata.name")},
        {"name": "* +,-./0123456789", "valueFrom": fr("metadata.namespace")},
        {"name": "* +,-./0123456789", "valueFrom": fr("metadata.uid")},
        {"name": ":;<>?@", "valueFrom": fr("spec.nodeName")},
        {"name": ":;<>?@", "valueFrom": fr("spec.serviceAccountName")},
        {"name": ":;<>?@", "valueFrom": fr("status.hostIP")},
        {"name": ":;<>?@", "valueFrom": fr("status.podIP")},
        {"name": "abcdefghijklmn", "valueFrom": fr("status.podIPs")},
        {"name": "abcdefghijklmn", "valueFrom": {"secretKeyRef": {"name": "some-secret", "key": "secret-key"}}},
        {"name": "!\"#$%&'()", "valueFrom": {"configMapKeyRef": {"name": "some-config-map", "key": "some-key"}}}
    ]);
    let errs = env_errs(success);
    assert!(errs.is_empty(), "{errs:?}");

    let secret = json!({"name": "a-secret", "key": "a-key"});
    let cm = json!({"name": "some-config-map", "key": "some-key"});
    let rows: Vec<(&str, Value, String)> = vec![
        (
            "illegal character",
            json!([{"name": "=abc"}]),
            format!("field[0].name: Invalid value: \"=abc\": {RELAXED_ENV_VAR_NAME_FMT_ERR_MSG}"),
        ),
        (
            "zero-length name",
            json!([{"name": ""}]),
            "field[0].name: Required value".into(),
        ),
        (
            "value and valueFrom specified",
            json!([{"name": "abc", "value": "foo", "valueFrom": fr("metadata.name")}]),
            "field[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty".into(),
        ),
        (
            "valueFrom without a source",
            json!([{"name": "abc", "valueFrom": {}}]),
            "field[0].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`".into(),
        ),
        (
            "valueFrom.fieldRef and valueFrom.secretKeyRef specified",
            json!([{"name": "abc", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "secretKeyRef": secret}}]),
            "field[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
        (
            "valueFrom.fieldRef and valueFrom.configMapKeyRef set",
            json!([{"name": "some_var_name", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "configMapKeyRef": cm}}]),
            "field[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
        (
            "valueFrom.fieldRef, valueFrom.secretKeyRef and valueFrom.configMapKeyRef specified",
            json!([{"name": "abc", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "secretKeyRef": secret, "configMapKeyRef": cm}}]),
            "field[0].valueFrom: Invalid value: \"\": may not have more than one field specified at a time".into(),
        ),
    ];
    for (name, env, want) in rows {
        let got = env_errs(env);
        assert!(got.contains(&want), "{name}: want {want:?} in {got:?}");
    }
    // "valueFrom.secretKeyRef.name invalid" / "valueFrom.configMapKeyRef.name invalid": upstream
    // expects an error without asserting its text.
    for (name, env) in [
        (
            "valueFrom.secretKeyRef.name invalid",
            json!([{"name": "abc", "valueFrom": {"secretKeyRef": {"name": "$%^&*#", "key": "a-key"}}}]),
        ),
        (
            "valueFrom.configMapKeyRef.name invalid",
            json!([{"name": "abc", "valueFrom": {"configMapKeyRef": {"name": "$%^&*#", "key": "some-key"}}}]),
        ),
    ] {
        assert!(!env_errs(env).is_empty(), "{name}");
    }
}

fn client_ip_service(config: Option<Value>) -> Service {
    let mut spec = ServiceSpec {
        selector: BTreeMap::from([("key".to_string(), "val".to_string())]),
        session_affinity: "ClientIP".into(),
        type_: "ClusterIP".into(),
        ports: vec![ServicePort {
            name: "p".into(),
            protocol: "TCP".into(),
            port: 8675,
            target_port: Some(IntOrString::Int(8675)),
            ..Default::default()
        }],
        internal_traffic_policy: Some("Cluster".into()),
        ..Default::default()
    };
    if let Some(c) = config {
        spec.extra.insert("sessionAffinityConfig".into(), c);
    }
    Service {
        metadata: ObjectMeta {
            name: "valid".into(),
            namespace: "valid".into(),
            resource_version: "1".into(),
            ..Default::default()
        },
        spec,
        ..Default::default()
    }
}

// upstream: TestValidateOrSetClientIPAffinityConfig (pkg/apis/core/validation/validation_test.go):
// validateClientIPAffinityConfig, reached here through ValidateService with sessionAffinity
// ClientIP (so the path is spec.sessionAffinityConfig instead of the test's "field").
// core.MaxClientIPServiceAffinitySeconds is 86400.
#[test]
fn validate_or_set_client_ip_affinity_config_table() {
    let errs = |c: Option<Value>| -> Vec<String> {
        validate_service(&client_ip_service(c))
            .iter()
            .map(FieldError::to_string)
            .collect()
    };
    for (name, t) in [
        ("non-empty config, valid timeout: 1", 1),
        (
            "non-empty config, valid timeout: core.MaxClientIPServiceAffinitySeconds-1",
            86399,
        ),
        (
            "non-empty config, valid timeout: core.MaxClientIPServiceAffinitySeconds",
            86400,
        ),
    ] {
        let got = errs(Some(json!({"clientIP": {"timeoutSeconds": t}})));
        assert!(got.is_empty(), "{name}: {got:?}");
    }
    let when = "Required value: when session affinity type is ClientIP";
    let p = "spec.sessionAffinityConfig";
    let rows: Vec<(&str, Option<Value>, String)> = vec![
        ("empty session affinity config", None, format!("{p}: {when}")),
        (
            "empty client IP config",
            Some(json!({})),
            format!("{p}.clientIP: {when}"),
        ),
        (
            "empty timeoutSeconds",
            Some(json!({"clientIP": {}})),
            format!("{p}.clientIP.timeoutSeconds: {when}"),
        ),
        (
            "non-empty config, invalid timeout: core.MaxClientIPServiceAffinitySeconds+1",
            Some(json!({"clientIP": {"timeoutSeconds": 86401}})),
            format!("{p}.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400"),
        ),
        (
            "non-empty config, invalid timeout: -1",
            Some(json!({"clientIP": {"timeoutSeconds": -1}})),
            format!("{p}.clientIP.timeoutSeconds: Invalid value: -1: must be greater than 0 and less than 86400"),
        ),
        (
            "non-empty config, invalid timeout: 0",
            Some(json!({"clientIP": {"timeoutSeconds": 0}})),
            format!("{p}.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400"),
        ),
    ];
    for (name, c, want) in rows {
        assert_eq!(errs(c), [want], "{name}");
    }
}

// upstream: TestValidateAppArmorProfileFormat (pkg/apis/core/validation/validation_test.go):
// ValidateAppArmorProfileFormat, reached through the deprecated per-container AppArmor
// annotation of a pod (validatePodSpecificAnnotations).
#[test]
fn validate_app_armor_profile_format_table() {
    const KEY: &str = "container.apparmor.security.beta.kubernetes.io/ctr";
    for (profile, expect_valid) in [
        ("", true),
        ("runtime/default", true),
        ("unconfined", true),
        ("baz", false), // Missing local prefix.
        ("localhost//usr/sbin/ntpd", true),
        ("localhost/foo-bar", true),
    ] {
        let mut pod = hugepages_pod("pod", &[], &[]);
        pod.metadata
            .annotations
            .insert(KEY.to_string(), profile.to_string());
        let errs: Vec<String> = validate_pod_create(&pod)
            .iter()
            .map(FieldError::to_string)
            .collect();
        if expect_valid {
            assert!(errs.is_empty(), "{profile:?}: {errs:?}");
        } else {
            assert_eq!(
                errs,
                [format!("metadata.annotations[{KEY}]: Invalid value: \"{profile}\": invalid AppArmor profile name: \"{profile}\"")],
                "{profile:?}"
            );
        }
    }
}
