//! Row audit of upstream's pod-spec tables (`pkg/apis/core/validation/validation_test.go`):
//! rows the earlier ports checked loosely (non-empty, first error only, substring) get the exact
//! error list here, with types, field paths, bad values and details derived from upstream's
//! `validation.go` (`validateHandler`, `validateHTTPGetAction`, `validateTCPSocketAction`,
//! `validateGRPCAction`, `validateLifecycle`, `validateProbe`, `ValidateTolerations`,
//! `validateContainerPorts`, `ValidateEnv`, `ValidateEnvFrom`, `ValidateVolumeMounts`,
//! `ValidateVolumes`, `ValidateResourceRequirements`).
//!
//! upstream: TestValidateHandler, TestValidateProbe, Test_validateProbe, TestValidateSleepAction,
//! TestValidateTolerations, TestValidatePorts, TestValidateEnv, TestValidateEnvFrom,
//! TestValidateVolumeMounts, TestValidateVolumes, TestValidateResourceRequirements

use super::pod::{validate_pod_spec, validate_tolerations, PodValidationOptions};
use super::pod_volumes_env::{
    validate_env, validate_env_from, validate_handler, validate_probe,
    validate_probes_and_lifecycle, validate_volume_mounts, validate_volumes, HandlerKind,
    PodVolumesCtx,
};
use crate::api::core::{Container, ContainerPort, PodSpec};
use crate::api::errors::FieldError;
use crate::test_fixtures::tol_secs as tol;
use serde_json::{json, Map, Value};

const GRACE: Option<i64> = Some(30);
const PORT_RANGE: &str = "must be between 1 and 65535, inclusive";
const HEADER_MSG: &str = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SCHEME_NOT_SUPPORTED: &str =
    "field.httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", \"HTTPS\"";

fn strs(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

fn handler(kind: HandlerKind, h: Value) -> Vec<String> {
    let mut errs = vec![];
    validate_handler(&mut errs, &obj(h), kind, GRACE, "field");
    strs(&errs)
}

/// TestValidateHandler's error rows (upstream only checks that each fails), with the exact list
/// `validateHandler` / `validateExecAction` / `validateHTTPGetAction` return.
#[test]
fn handler_error_rows_exact() {
    let rows: Vec<(Value, Vec<String>)> = vec![
        (
            json!({}),
            vec!["field: Required value: must specify a handler type".into()],
        ),
        (
            json!({"exec": {"command": []}}),
            vec!["field.exec.command: Required value".into()],
        ),
        (
            json!({"httpGet": {"path": "", "port": 0, "host": ""}}),
            vec![
                "field.httpGet.path: Required value".into(),
                format!("field.httpGet.port: Invalid value: 0: {PORT_RANGE}"),
                SCHEME_NOT_SUPPORTED.into(),
            ],
        ),
        (
            json!({"httpGet": {"path": "/foo", "port": 65536, "host": "host"}}),
            vec![
                format!("field.httpGet.port: Invalid value: 65536: {PORT_RANGE}"),
                SCHEME_NOT_SUPPORTED.into(),
            ],
        ),
        (
            json!({"httpGet": {"path": "", "port": "", "host": ""}}),
            vec![
                "field.httpGet.path: Required value".into(),
                "field.httpGet.port: Invalid value: \"\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into(),
                "field.httpGet.port: Invalid value: \"\": must contain at least one letter (a-z)".into(),
                SCHEME_NOT_SUPPORTED.into(),
            ],
        ),
        (
            json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP", "httpHeaders": [{"name": "Host:", "value": "foo.example.com"}]}}),
            vec![format!(
                "field.httpGet.httpHeaders: Invalid value: \"Host:\": {HEADER_MSG}"
            )],
        ),
        (
            json!({"httpGet": {"path": "/", "port": "port", "host": "", "scheme": "HTTP", "httpHeaders": [{"name": "X_Forwarded_For", "value": "foo.example.com"}]}}),
            vec![format!(
                "field.httpGet.httpHeaders: Invalid value: \"X_Forwarded_For\": {HEADER_MSG}"
            )],
        ),
    ];
    for (h, want) in rows {
        assert_eq!(handler(HandlerKind::Probe, h.clone()), want, "{h}");
        // Lifecycle handlers share exec and httpGet.
        assert_eq!(handler(HandlerKind::Lifecycle, h.clone()), want, "{h}");
    }
}

/// `validateTCPSocketAction` and `validateGRPCAction` (`ValidatePortNumOrName`), the scheme and
/// port-name rules of `validateHTTPGetAction`, and the one-handler rule of `validateHandler`:
/// a second action is refused and not validated.
#[test]
fn handler_actions_and_one_handler_rule() {
    let rows: Vec<(HandlerKind, Value, Vec<String>)> = vec![
        (HandlerKind::Probe, json!({"tcpSocket": {"port": 8080}}), vec![]),
        (HandlerKind::Probe, json!({"tcpSocket": {"port": "http"}}), vec![]),
        (
            HandlerKind::Probe,
            json!({"tcpSocket": {}}),
            vec![format!("field.tcpSocket.port: Invalid value: 0: {PORT_RANGE}")],
        ),
        (
            HandlerKind::Lifecycle,
            json!({"tcpSocket": {"port": 70000}}),
            vec![format!("field.tcpSocket.port: Invalid value: 70000: {PORT_RANGE}")],
        ),
        (
            HandlerKind::Probe,
            json!({"tcpSocket": {"port": "-a--b"}}),
            vec![
                "field.tcpSocket.port: Invalid value: \"-a--b\": must not contain consecutive hyphens".into(),
                "field.tcpSocket.port: Invalid value: \"-a--b\": must not begin or end with a hyphen".into(),
            ],
        ),
        (
            HandlerKind::Probe,
            json!({"tcpSocket": {"port": "abcdefghijklmnop"}}),
            vec!["field.tcpSocket.port: Invalid value: \"abcdefghijklmnop\": must be no more than 15 characters".into()],
        ),
        (HandlerKind::Probe, json!({"grpc": {"port": 9090}}), vec![]),
        (
            HandlerKind::Probe,
            json!({"grpc": {"port": 0}}),
            vec![format!("field.grpc.port: Invalid value: 0: {PORT_RANGE}")],
        ),
        (
            HandlerKind::Probe,
            json!({"grpc": {"port": 65536, "service": "x"}}),
            vec![format!("field.grpc.port: Invalid value: 65536: {PORT_RANGE}")],
        ),
        (
            HandlerKind::Probe,
            json!({"httpGet": {"path": "/", "port": 80, "scheme": "https"}}),
            vec!["field.httpGet.scheme: Unsupported value: \"https\": supported values: \"HTTP\", \"HTTPS\"".into()],
        ),
        (
            HandlerKind::Probe,
            json!({"httpGet": {"path": "/", "port": "80", "scheme": "HTTPS"}}),
            vec!["field.httpGet.port: Invalid value: \"80\": must contain at least one letter (a-z)".into()],
        ),
        // Every action after the first is Forbidden, in upstream's order, and not validated.
        (
            HandlerKind::Probe,
            json!({
                "grpc": {"port": 0},
                "tcpSocket": {"port": 0},
                "httpGet": {"path": "", "port": 0},
                "exec": {"command": []}
            }),
            vec![
                "field.exec.command: Required value".into(),
                "field.httpGet: Forbidden: may not specify more than 1 handler type".into(),
                "field.tcpSocket: Forbidden: may not specify more than 1 handler type".into(),
                "field.grpc: Forbidden: may not specify more than 1 handler type".into(),
            ],
        ),
        (
            HandlerKind::Probe,
            json!({"tcpSocket": {"port": 80}, "grpc": {"port": 80}}),
            vec!["field.grpc: Forbidden: may not specify more than 1 handler type".into()],
        ),
        (
            HandlerKind::Lifecycle,
            json!({"httpGet": {"path": "/", "port": 80, "scheme": "HTTP"}, "sleep": {"seconds": 1}}),
            vec!["field.sleep: Forbidden: may not specify more than 1 handler type".into()],
        ),
        // A lifecycle handler has no grpc action and a probe no sleep action: such members are
        // dropped while decoding, leaving no handler.
        (
            HandlerKind::Lifecycle,
            json!({"grpc": {"port": 80}}),
            vec!["field: Required value: must specify a handler type".into()],
        ),
        (
            HandlerKind::Probe,
            json!({"sleep": {"seconds": 1}}),
            vec!["field: Required value: must specify a handler type".into()],
        ),
        // A null action is an unset pointer.
        (
            HandlerKind::Probe,
            json!({"exec": null, "tcpSocket": {"port": 80}}),
            vec![],
        ),
    ];
    for (kind, h, want) in rows {
        assert_eq!(handler(kind, h.clone()), want, "{h}");
    }
}

/// TestValidateSleepAction's rules through `validateHandler` (PodLifecycleSleepActionAllowZero,
/// GA since 1.34): 0..=grace is allowed; no check without a grace period.
#[test]
fn sleep_action_rows_exact() {
    let run = |secs: i64, grace: Option<i64>| {
        let mut errs = vec![];
        validate_handler(
            &mut errs,
            &obj(json!({"sleep": {"seconds": secs}})),
            HandlerKind::Lifecycle,
            grace,
            "lifecycle.preStop",
        );
        strs(&errs)
    };
    assert!(run(0, GRACE).is_empty());
    assert!(run(30, GRACE).is_empty());
    assert_eq!(
        run(31, GRACE),
        ["lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)"]
    );
    assert_eq!(
        run(-1, Some(5)),
        ["lifecycle.preStop.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (5)"]
    );
    assert!(run(-1, None).is_empty());
}

fn probe(p: Value) -> Vec<String> {
    let mut errs = vec![];
    validate_probe(&mut errs, &obj(p), GRACE, "field");
    strs(&errs)
}

/// TestValidateProbe's error rows (upstream only checks that each fails) and Test_validateProbe's
/// rows (upstream checks types and fields), with the exact list.
#[test]
fn probe_error_rows_exact() {
    assert_eq!(
        probe(json!({"timeoutSeconds": 10, "initialDelaySeconds": 10})),
        ["field: Required value: must specify a handler type"]
    );
    for f in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        let mut p = obj(json!({"exec": {"command": ["echo"]}}));
        p.insert(f.into(), (-10).into());
        assert_eq!(
            probe(Value::Object(p)),
            [format!(
                "field.{f}: Invalid value: -10: must be greater than or equal to 0"
            )]
        );
    }
    for t in [-1, 0] {
        assert_eq!(
            probe(json!({"exec": {"command": ["echo"]}, "terminationGracePeriodSeconds": t})),
            [format!(
                "field.terminationGracePeriodSeconds: Invalid value: {t}: must be greater than 0"
            )]
        );
    }
    // The handler's errors come before the timings'.
    assert_eq!(
        probe(
            json!({"httpGet": {"path": "/", "port": 0, "scheme": "HTTP"}, "periodSeconds": -1, "failureThreshold": -2})
        ),
        [
            format!("field.httpGet.port: Invalid value: 0: {PORT_RANGE}"),
            "field.periodSeconds: Invalid value: -1: must be greater than or equal to 0".into(),
            "field.failureThreshold: Invalid value: -2: must be greater than or equal to 0".into(),
        ]
    );
}

fn container(extra: Value) -> Container {
    let mut c = Container {
        name: "ctr".into(),
        image: "image".into(),
        ..Default::default()
    };
    c.extra = obj(extra);
    c
}

fn probes_and_lifecycle(extra: Value) -> Vec<String> {
    let mut errs = vec![];
    validate_probes_and_lifecycle(&mut errs, &container(extra), GRACE, "containers[0]");
    strs(&errs)
}

/// `validateLifecycle` then `validateLivenessProbe`, `validateReadinessProbe` and
/// `validateStartupProbe`, as `validateContainers` calls them (no defaulting: an unset
/// successThreshold is 0).
#[test]
fn lifecycle_and_probe_kinds_exact() {
    let exec = json!({"command": ["true"]});
    assert_eq!(
        probes_and_lifecycle(json!({
            "livenessProbe": {"exec": exec, "successThreshold": 1},
            "lifecycle": {"postStart": {}, "preStop": {"httpGet": {"port": 80}}}
        })),
        [
            "containers[0].lifecycle.postStart: Required value: must specify a handler type",
            "containers[0].lifecycle.preStop.httpGet.path: Required value",
            "containers[0].lifecycle.preStop.httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", \"HTTPS\"",
        ]
    );
    assert_eq!(
        probes_and_lifecycle(json!({
            "livenessProbe": {"exec": exec},
            "readinessProbe": {"exec": exec, "successThreshold": 3, "terminationGracePeriodSeconds": 10},
            "startupProbe": {"exec": exec, "successThreshold": 2}
        })),
        [
            "containers[0].livenessProbe.successThreshold: Invalid value: 0: must be 1",
            "containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes",
            "containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1",
        ]
    );
    // A readiness probe's successThreshold may be above 1; its grace period is refused even when
    // invalid on its own (both errors).
    assert_eq!(
        probes_and_lifecycle(json!({
            "readinessProbe": {"exec": exec, "successThreshold": 3, "terminationGracePeriodSeconds": 0}
        })),
        [
            "containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0",
            "containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 0: must not be set for readinessProbes",
        ]
    );
    // A null hook or probe is unset.
    assert!(probes_and_lifecycle(json!({
        "lifecycle": {"postStart": null},
        "livenessProbe": null
    }))
    .is_empty());
}

/// TestValidateTolerations-style rows with the exact list `ValidateTolerations` returns, in its
/// order: key, empty key with a non-Exists operator, tolerationSeconds without NoExecute, the
/// operator's value rule, the effect.
#[test]
fn toleration_rows_exact() {
    let rows = vec![
        (
            tol("", "Equal", "bar", "NoSchedule", Some(20)),
            vec![
                "tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"".to_string(),
                "tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set".into(),
            ],
        ),
        (
            tol("", "", "", "", None),
            vec!["tolerations[0].operator: Invalid value: \"\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"".into()],
        ),
        // kubernetes#128119 (1.32): the bad value is the toleration's value, not the toleration.
        (
            tol("pool", "Exists", "build", "NoSchedule", None),
            vec!["tolerations[0].operator: Invalid value: \"build\": value must be empty when `operator` is 'Exists'".into()],
        ),
        (
            tol("foo", "Equal", "no spaces", "", None),
            vec![format!(
                "tolerations[0].operator: Invalid value: \"no spaces\": {LABEL_VALUE_MSG}"
            )],
        ),
        (
            tol("foo", "", &"a".repeat(64), "", None),
            vec![format!(
                "tolerations[0].operator: Invalid value: \"{}\": must be no more than 63 characters",
                "a".repeat(64)
            )],
        ),
        (
            tol("foo", "Equal", "-bad-", "", None),
            vec![format!(
                "tolerations[0].operator: Invalid value: \"-bad-\": {LABEL_VALUE_MSG}"
            )],
        ),
        (
            tol("foo", "Exists", "", "Bogus", Some(5)),
            vec![
                "tolerations[0].effect: Invalid value: \"Bogus\": effect must be 'NoExecute' when `tolerationSeconds` is set".into(),
                "tolerations[0].effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"".into(),
            ],
        ),
        (
            tol("Example.com/foo", "Exists", "", "", None),
            vec!["tolerations[0].key: Invalid value: \"Example.com/foo\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".into()],
        ),
        (
            tol("foo", "Exists", "", "NoExecute", Some(-5)),
            vec![],
        ),
        (tol("foo", "", "", "PreferNoSchedule", None), vec![]),
    ];
    for (t, want) in rows {
        assert_eq!(
            strs(&validate_tolerations(
                std::slice::from_ref(&t),
                "tolerations"
            )),
            want,
            "{t:?}"
        );
    }
    // The index is the toleration's.
    let list = [
        tol("a", "Exists", "", "", None),
        tol("b", "Exists", "x", "", None),
    ];
    assert_eq!(
        strs(&validate_tolerations(&list, "spec.tolerations")),
        ["spec.tolerations[1].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'"]
    );
}

fn port(name: &str, container_port: i32, host_port: i64, protocol: &str) -> ContainerPort {
    let mut p = ContainerPort {
        name: (!name.is_empty()).then(|| name.to_string()),
        container_port,
        protocol: (!protocol.is_empty()).then(|| protocol.to_string()),
        ..Default::default()
    };
    if host_port != 0 {
        p.extra.insert("hostPort".into(), host_port.into());
    }
    p
}

/// `validateContainerPorts` as `validateContainerCommon` calls it (path `ports`); the ports are
/// set after defaulting, which would fill in an empty protocol.
fn port_errs(ports: Vec<ContainerPort>) -> Vec<String> {
    let mut spec = PodSpec {
        containers: vec![Container {
            name: "abc".into(),
            image: "image".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    crate::api::defaults::default_pod_spec(&mut spec);
    spec.containers[0].ports = ports;
    strs(&validate_pod_spec(
        &spec,
        "spec",
        PodValidationOptions::default(),
    ))
    .into_iter()
    .map(|e| e.replacen("spec.containers[0].", "", 1))
    .collect()
}

/// TestValidatePorts: the success and non-canonical cases, the two rows the earlier port left
/// out in upstream's shape, and multi-error rows with the exact list.
#[test]
fn port_rows_exact() {
    assert_eq!(
        port_errs(vec![
            port("abc", 80, 80, "TCP"),
            port("easy", 82, 0, "TCP"),
            port("as", 83, 0, "UDP"),
            port("do-re-me", 84, 0, "SCTP"),
            port("", 85, 0, "TCP"),
        ]),
        Vec::<String>::new()
    );
    assert!(port_errs(vec![port("", 80, 0, "TCP")]).is_empty());
    assert_eq!(
        port_errs(vec![port("abc", 80, 0, "TCP"), port("abc", 81, 0, "TCP")]),
        ["ports[1].name: Duplicate value: \"abc\""]
    );
    assert_eq!(
        port_errs(vec![port("abc", 80, 0, "")]),
        ["ports[0].protocol: Required value"]
    );
    assert_eq!(
        port_errs(vec![port("", 80, 65536, "TCP")]),
        [format!(
            "ports[0].hostPort: Invalid value: 65536: {PORT_RANGE}"
        )]
    );
    // An invalid name is reported and never counted for duplicates.
    assert_eq!(
        port_errs(vec![port("-a", 80, 0, "TCP"), port("-a", 81, 0, "TCP")]),
        [
            "ports[0].name: Invalid value: \"-a\": must not begin or end with a hyphen",
            "ports[1].name: Invalid value: \"-a\": must not begin or end with a hyphen",
        ]
    );
    // Every check of one port, in upstream's order.
    assert_eq!(
        port_errs(vec![port("a_b", 0, -1, "icmp")]),
        [
            "ports[0].name: Invalid value: \"a_b\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
            "ports[0].containerPort: Required value".into(),
            format!("ports[0].hostPort: Invalid value: -1: {PORT_RANGE}"),
            "ports[0].protocol: Unsupported value: \"icmp\": supported values: \"SCTP\", \"TCP\", \"UDP\"".into(),
        ]
    );
    assert_eq!(
        port_errs(vec![port("", -80, 0, "UDP")]),
        [format!(
            "ports[0].containerPort: Invalid value: -80: {PORT_RANGE}"
        )]
    );
}

fn env(v: Value) -> Vec<String> {
    let mut errs = vec![];
    validate_env(&mut errs, v.as_array().expect("a list"), "field");
    strs(&errs)
}

fn env_from(v: Value) -> Vec<String> {
    let mut errs = vec![];
    validate_env_from(&mut errs, v.as_array().expect("a list"), "field");
    strs(&errs)
}

/// TestValidateEnv / TestValidateEnvFrom rows with several errors: the exact list, in
/// `ValidateEnv`'s order (name, then the source's own errors, then the source count rule).
#[test]
fn env_rows_exact() {
    assert_eq!(
        env(json!([
            {"name": "", "value": "x", "valueFrom": {"configMapKeyRef": {"name": "Bad_Name", "key": ""}}},
            {"name": "a=b"}
        ])),
        [
            "field[0].name: Required value".to_string(),
            "field[0].valueFrom.configMapKeyRef.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".into(),
            "field[0].valueFrom.configMapKeyRef.key: Required value".into(),
            "field[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty".into(),
            "field[1].name: Invalid value: \"a=b\": a valid environment variable name must consist only of printable ASCII characters other than '='".into(),
        ]
    );
    // The key selector's name is checked even when empty (ValidateNameFunc with prefix=false).
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {"secretKeyRef": {"key": "k"}}}])),
        ["field[0].valueFrom.secretKeyRef.name: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}}])),
        ["field[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"metadata.labels\": supported values: \"metadata.name\", \"metadata.namespace\", \"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", \"status.hostIPs\", \"status.podIP\", \"status.podIPs\""]
    );
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}])),
        ["field[0].valueFrom.fieldRef.apiVersion: Required value"]
    );
    // envFrom: the count rules are on the list's path.
    assert_eq!(
        env_from(json!([
            {"prefix": "a=", "configMapRef": {"name": ""}, "secretRef": {"name": "Bad"}},
            {}
        ])),
        [
            "field[0].prefix: Invalid value: \"a=\": a valid environment variable name must consist only of printable ASCII characters other than '='".to_string(),
            "field[0].configMapRef.name: Required value".into(),
            "field[0].secretRef.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".into(),
            "field: Invalid value: \"\": may not have more than one field specified at a time".into(),
            "field: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`".into(),
        ]
    );
}

/// TestValidateVolumeMounts' error rows with the exact list: `ValidateVolumeMounts` reports
/// subPath / subPathExpr / mountPropagation problems on the list's path (no index), the rest on
/// the mount's.
#[test]
fn volume_mount_rows_exact() {
    let vols = json!([
        {"name": "abc", "persistentVolumeClaim": {"claimName": "testclaim1"}},
        {"name": "123", "hostPath": {"path": "/foo/baz", "type": ""}}
    ]);
    let (good, verrs) = validate_volumes(Some(&vols), None, "volumes", false);
    assert!(verrs.is_empty(), "{verrs:?}");
    let ctx = PodVolumesCtx {
        volumes: good,
        grace_period: GRACE,
        host_users: true,
    };
    let run = |mounts: Value, devices: Value| {
        let c = container(json!({"volumeDevices": devices}));
        let mut errs = vec![];
        validate_volume_mounts(
            &mut errs,
            mounts.as_array().expect("a list"),
            &c,
            &ctx,
            "field",
        );
        strs(&errs)
    };
    assert_eq!(
        run(json!([{"name": "", "mountPath": ""}]), json!([])),
        [
            "field[0].name: Required value",
            "field[0].name: Not found: \"\"",
            "field[0].mountPath: Required value",
        ]
    );
    assert_eq!(
        run(
            json!([{"name": "abc", "mountPath": "/foo"}, {"name": "123", "mountPath": "/foo", "subPath": "/abs/../x"}]),
            json!([])
        ),
        [
            "field[1].mountPath: Invalid value: \"/foo\": must be unique",
            "field.subPath: Invalid value: \"/abs/../x\": must be a relative path",
            "field.subPath: Invalid value: \"/abs/../x\": must not contain '..'",
        ]
    );
    assert_eq!(
        run(
            json!([{"name": "abc", "mountPath": "/dev/x", "subPath": "a", "subPathExpr": "$(B)"}]),
            json!([{"name": "abc", "devicePath": "/dev/x"}])
        ),
        [
            "field[0].name: Invalid value: \"abc\": must not already exist in volumeDevices",
            "field[0].mountPath: Invalid value: \"/dev/x\": must not already exist as a path in volumeDevices",
            "field[0].subPathExpr: Invalid value: \"$(B)\": subPathExpr and subPath are mutually exclusive",
        ]
    );
    assert_eq!(
        run(
            json!([{"name": "123", "mountPath": "/m", "mountPropagation": "Bidirectional"}]),
            json!([])
        ),
        ["field.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers"]
    );
    assert_eq!(
        run(
            json!([{"name": "123", "mountPath": "/m", "mountPropagation": "Sideways"}]),
            json!([])
        ),
        ["field.mountPropagation: Unsupported value: \"Sideways\": supported values: \"Bidirectional\", \"HostToContainer\", \"None\""]
    );
}

fn volume_errs(vol: Value) -> Vec<String> {
    let list = Value::Array(vec![vol]);
    strs(&validate_volumes(Some(&list), None, "spec.volumes", false).1)
}

/// TestValidateVolumes' rows for the sources kubeplay's workloads use (emptyDir, hostPath,
/// secret, configMap, downwardAPI, projected, persistentVolumeClaim), with the exact list
/// (upstream checks the first error's type, a field suffix and a detail substring).
#[test]
fn volume_rows_exact() {
    const MODE: &str = "must be a number between 0 and 0777 (octal), both inclusive";
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "more than one source",
            json!({"name": "dups", "emptyDir": {}, "hostPath": {"path": "/mnt/path", "type": "Directory"}}),
            vec!["spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type".into()],
        ),
        (
            "invalid HostPath",
            json!({"name": "hostpath", "hostPath": {"path": "/mnt/path", "type": "invalid"}}),
            vec!["spec.volumes[0].hostPath.type: Unsupported value: \"invalid\": supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\"".into()],
        ),
        (
            "invalid HostPath backsteps",
            json!({"name": "hostpath", "hostPath": {"path": "/mnt/path/..", "type": "Directory"}}),
            vec!["spec.volumes[0].hostPath.path: Invalid value: \"/mnt/path/..\": must not contain '..'".into()],
        ),
        (
            "secret with missing path",
            json!({"name": "s", "secret": {"secretName": "s", "items": [{"key": "key", "path": ""}]}}),
            vec!["spec.volumes[0].secret.items[0].path: Required value".into()],
        ),
        (
            "secret with leading ..",
            json!({"name": "s", "secret": {"secretName": "s", "items": [{"key": "key", "path": "../foo"}]}}),
            vec![
                "spec.volumes[0].secret.items[0].path: Invalid value: \"../foo\": must not contain '..'".into(),
            ],
        ),
        (
            "secret with invalid positive defaultMode",
            json!({"name": "s", "secret": {"secretName": "s", "defaultMode": 0o1000}}),
            vec![format!("spec.volumes[0].secret.defaultMode: Invalid value: 512: {MODE}")],
        ),
        (
            "configmap with leading .. (file name)",
            json!({"name": "c", "configMap": {"name": "c", "items": [{"key": "", "path": "..foo", "mode": -1}]}}),
            vec![
                "spec.volumes[0].configMap.items[0].key: Required value".into(),
                "spec.volumes[0].configMap.items[0].path: Invalid value: \"..foo\": must not start with '..'".into(),
                format!("spec.volumes[0].configMap.items[0].mode: Invalid value: -1: {MODE}"),
            ],
        ),
        (
            "configmap with invalid negative defaultMode",
            json!({"name": "c", "configMap": {"name": "c", "defaultMode": -1}}),
            vec![format!("spec.volumes[0].configMap.defaultMode: Invalid value: -1: {MODE}")],
        ),
        (
            "downapi fieldRef and ResourceFieldRef together",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "test",
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"},
                "resourceFieldRef": {"containerName": "test-container", "resource": "requests.memory"}}]}}),
            vec!["spec.volumes[0].downwardAPI: Invalid value: \"resource\": fieldRef and resourceFieldRef can not be specified simultaneously".into()],
        ),
        (
            "downapi absolute path",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "/absolutepath",
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            vec!["spec.volumes[0].downwardAPI.path: Invalid value: \"/absolutepath\": must be a relative path".into()],
        ),
        (
            "downapi invalid positive item mode",
            json!({"name": "downapi", "downwardAPI": {"items": [{"path": "path", "mode": 0o1000,
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}),
            vec![format!("spec.volumes[0].downwardAPI.mode: Invalid value: 512: {MODE}")],
        ),
        (
            "pvc without a claim name",
            json!({"name": "pvc", "persistentVolumeClaim": {"claimName": ""}}),
            vec!["spec.volumes[0].persistentVolumeClaim.claimName: Required value".into()],
        ),
        (
            "emptyDir with a negative sizeLimit",
            json!({"name": "e", "emptyDir": {"sizeLimit": "-1Gi"}}),
            vec!["spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity".into()],
        ),
        (
            "ProjectedVolumeSource more than one projection in a source",
            json!({"name": "projected-volume", "projected": {"sources": [
                {"secret": {"name": "foo"}, "configMap": {"name": "bar"}}
            ]}}),
            vec!["spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source".into()],
        ),
    ];
    for (name, vol, want) in rows {
        assert_eq!(volume_errs(vol), want, "{name}");
    }
}

fn resources(req: &[(&str, &str)], lim: &[(&str, &str)]) -> Vec<String> {
    use crate::api::core::{Quantity, ResourceRequirements};
    let m = |p: &[(&str, &str)]| {
        p.iter()
            .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
            .collect()
    };
    let r = ResourceRequirements {
        requests: m(req),
        limits: m(lim),
    };
    strs(&super::pod::validate_resource_requirements(&r, "resources"))
}

/// TestValidateResourceRequirements' rows and `validateResourceRequirements`' other rules, with
/// the exact list: per resource the name, the quantity (`ValidateResourceQuantityValue`: not
/// negative, whole for `IsIntegerResourceName`), the request against the limit, the hugepages
/// value; hugepages without cpu or memory last.
#[test]
fn resource_requirement_rows_exact() {
    // Success rows.
    for (req, lim) in [
        (
            &[("cpu", "10"), ("hugepages-2Mi", "2Mi")][..],
            &[("cpu", "10"), ("hugepages-2Mi", "2Mi")][..],
        ),
        (&[("memory", "2Mi")][..], &[("memory", "2Mi")][..]),
        (&[("cpu", "10")][..], &[("cpu", "10")][..]),
        (&[][..], &[("cpu", "10"), ("memory", "1Gi")][..]),
        (&[][..], &[("ephemeral-storage", "40m")][..]),
        // A kubernetes.io-prefixed name is native: no name rule, overcommit allowed.
        (&[("kubernetes.io/foo", "500m")][..], &[][..]),
    ] {
        assert_eq!(resources(req, lim), Vec::<String>::new(), "{req:?} {lim:?}");
    }
    // "hugepage resource without cpu or memory".
    assert_eq!(
        resources(&[("hugepages-2Mi", "2Mi")], &[("hugepages-2Mi", "2Mi")]),
        ["resources: Forbidden: HugePages require cpu or memory"]
    );
    // Every hugepages rule, in upstream's order.
    assert_eq!(
        resources(&[("hugepages-2Mi", "1Mi")], &[("hugepages-2Mi", "3Mi")]),
        [
            "resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi",
            "resources.requests: Invalid value: \"1Mi\": must be equal to hugepages-2Mi limit of 3Mi",
            "resources.requests[hugepages-2Mi]: Invalid value: \"1Mi\": 1Mi is not positive integer multiple of hugepages-2Mi",
            "resources: Forbidden: HugePages require cpu or memory",
        ]
    );
    // Object-count resources are integer resources (helper.IsIntegerResourceName).
    assert_eq!(
        resources(&[], &[("pods", "500m")]),
        [
            "resources.limits[pods]: Invalid value: \"pods\": must be a standard resource for containers",
            "resources.limits[pods]: Invalid value: \"500m\": must be an integer",
        ]
    );
    assert_eq!(
        resources(&[("cpu", "-1")], &[("cpu", "-2")]),
        [
            "resources.limits[cpu]: Invalid value: \"-2\": must be greater than or equal to 0",
            "resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
            "resources.requests: Invalid value: \"-1\": must be less than or equal to cpu limit of -2",
        ]
    );
    assert_eq!(
        resources(&[("example.com/foo", "1")], &[("example.com/bar", "1.5")]),
        [
            "resources.limits[example.com/bar]: Invalid value: \"1500m\": must be an integer",
            "resources.limits: Required value: Limit must be set for non overcommitable resources",
        ]
    );
    assert_eq!(
        resources(&[], &[("requests.foo/bar", "1")]),
        ["resources.limits[requests.foo/bar]: Invalid value: \"requests.foo/bar\": doesn't follow extended resource name standard"]
    );
}

/// `ValidateNodeResources` uses the same `ValidateResourceQuantityValue`: a fractional pod
/// count is refused.
#[test]
fn node_capacity_integer_resources() {
    use crate::api::core::Quantity;
    let mut node = crate::api::Node::default();
    node.metadata.name = "n1".into();
    node.status
        .capacity
        .insert("pods".into(), Quantity("1500m".into()));
    node.status
        .allocatable
        .insert("example.com/gpu".into(), Quantity("2".into()));
    assert_eq!(
        strs(&super::node::validate_node(&node)),
        ["status.capacity.pods: Invalid value: \"1500m\": must be an integer"]
    );
}

/// `validateProjectionSources`, `validateDownwardAPIVolumeFile` and `validateObjectFieldSelector`
/// rows (TestValidateVolumes' projected and downwardAPI sources), with the exact list and
/// upstream's paths: duplicate paths and the token path are reported on the projected
/// source's path.
#[test]
fn projected_and_downward_api_rows_exact() {
    const MODE: &str = "must be a number between 0 and 0777 (octal), both inclusive";
    let fr = |p: &str| json!({"apiVersion": "v1", "fieldPath": p});
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "secret and configMap items with one path",
            json!({"name": "p", "projected": {"sources": [
                {"secret": {"name": "s", "items": [{"key": "a", "path": "x"}]}},
                {"configMap": {"name": "c", "items": [{"key": "b", "path": "x"}]}}
            ]}}),
            vec!["spec.volumes[0].projected: Invalid value: \"c\": conflicting duplicate paths".into()],
        ),
        (
            "downwardAPI items with one path",
            json!({"name": "p", "projected": {"sources": [
                {"downwardAPI": {"items": [
                    {"path": "x", "fieldRef": fr("metadata.name")},
                    {"path": "x", "fieldRef": fr("metadata.labels")}
                ]}}
            ]}}),
            vec!["spec.volumes[0].projected: Invalid value: \"x\": conflicting duplicate paths".into()],
        ),
        (
            "serviceAccountToken too short, no path",
            json!({"name": "p", "projected": {"sources": [
                {"serviceAccountToken": {"expirationSeconds": 100, "path": ""}}
            ]}}),
            vec![
                "spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 100: may not specify a duration less than 10 minutes".into(),
                "spec.volumes[0].projected.path: Required value".into(),
            ],
        ),
        (
            "serviceAccountToken too long, absolute path",
            json!({"name": "p", "projected": {"sources": [
                {"serviceAccountToken": {"expirationSeconds": 4294967297u64, "path": "/abs"}}
            ]}}),
            vec![
                "spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds".into(),
                "spec.volumes[0].projected.path: Invalid value: \"/abs\": must be a relative path".into(),
            ],
        ),
        (
            "projected defaultMode",
            json!({"name": "p", "projected": {"defaultMode": 0o1000, "sources": []}}),
            vec![format!("spec.volumes[0].projected.defaultMode: Invalid value: 512: {MODE}")],
        ),
        (
            "projected downwardAPI item without a reference",
            json!({"name": "p", "projected": {"sources": [{"downwardAPI": {"items": [{"path": "p"}]}}]}}),
            vec!["spec.volumes[0].projected.sources[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required".into()],
        ),
        (
            "downwardAPI resourceFieldRef without containerName",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "resourceFieldRef": {"resource": "limits.cpu"}}]}}),
            vec!["spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value".into()],
        ),
        (
            "downwardAPI unsupported resource",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "resourceFieldRef": {"containerName": "c", "resource": "limits.gpu"}}]}}),
            vec!["spec.volumes[0].downwardAPI.resourceFieldRef.resource: Unsupported value: \"limits.gpu\": supported values: \"limits.cpu\", \"limits.ephemeral-storage\", \"limits.memory\", \"requests.cpu\", \"requests.ephemeral-storage\", \"requests.memory\"".into()],
        ),
        (
            "downwardAPI field a volume cannot project",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "fieldRef": fr("status.podIP")}]}}),
            vec!["spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: \"status.podIP\": supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\", \"metadata.namespace\", \"metadata.uid\"".into()],
        ),
        (
            "downwardAPI label subscript not a qualified name",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "fieldRef": fr("metadata.labels['Bad Key']")}]}}),
            vec!["spec.volumes[0].downwardAPI.fieldRef: Invalid value: \"Bad Key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".into()],
        ),
        (
            "downwardAPI subscript on a field without one",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "fieldRef": fr("metadata.name['x']")}]}}),
            vec!["spec.volumes[0].downwardAPI.fieldRef.fieldPath: Invalid value: \"metadata.name['x']\": error converting fieldPath: field label does not support subscript: metadata.name['x']".into()],
        ),
        (
            "downwardAPI unknown field",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "fieldRef": fr("status.bogus")}]}}),
            vec!["spec.volumes[0].downwardAPI.fieldRef.fieldPath: Invalid value: \"status.bogus\": error converting fieldPath: field label not supported: status.bogus".into()],
        ),
        (
            "downwardAPI unsupported apiVersion",
            json!({"name": "d", "downwardAPI": {"items": [{"path": "p", "fieldRef": {"apiVersion": "v2", "fieldPath": "metadata.name"}}]}}),
            vec!["spec.volumes[0].downwardAPI.fieldRef.fieldPath: Invalid value: \"metadata.name\": error converting fieldPath: unsupported pod version: v2".into()],
        ),
        (
            "downwardAPI empty path and no reference",
            json!({"name": "d", "downwardAPI": {"defaultMode": -1, "items": [{"path": ""}]}}),
            vec![
                format!("spec.volumes[0].downwardAPI.defaultMode: Invalid value: -1: {MODE}"),
                "spec.volumes[0].downwardAPI.path: Required value".into(),
                "spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required".into(),
            ],
        ),
    ];
    for (name, vol, want) in rows {
        assert_eq!(volume_errs(vol), want, "{name}");
    }
}

/// `ValidateVolumes` / `validateVolumeSource` rows with the exact list: the source's errors come
/// before the name's; a second source is Forbidden on upstream's path for it (including the
/// `downwarAPI` spelling); a volume with errors is not counted for duplicates.
#[test]
fn volume_list_rows_exact() {
    let run = |vols: Value| strs(&validate_volumes(Some(&vols), None, "spec.volumes", false).1);
    assert_eq!(
        run(json!([{"name": ""}])),
        [
            "spec.volumes[0]: Required value: must specify a volume type",
            "spec.volumes[0].name: Required value",
        ]
    );
    assert_eq!(
        run(json!([{"name": "Bad_Name", "hostPath": {"path": ""}}])),
        [
            "spec.volumes[0].hostPath.path: Required value",
            "spec.volumes[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ]
    );
    // The second source of each pair is refused, on upstream's path for it.
    assert_eq!(
        run(json!([{"name": "a", "configMap": {"name": "c"}, "secret": {"secretName": ""}}])),
        [
            "spec.volumes[0].secret.secretName: Required value",
            "spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type",
        ]
    );
    assert_eq!(
        run(json!([{"name": "a", "emptyDir": {}, "downwardAPI": {}}])),
        ["spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type"]
    );
    assert_eq!(
        run(json!([{"name": "a", "persistentVolumeClaim": {"claimName": "c"}, "projected": {"sources": []}, "emptyDir": {"sizeLimit": "-1"}}])),
        [
            "spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity",
            "spec.volumes[0].persistentVolumeClaim: Forbidden: may not specify more than 1 volume type",
            "spec.volumes[0].projected: Forbidden: may not specify more than 1 volume type",
        ]
    );
    // Duplicates: only volumes without errors are remembered.
    assert_eq!(
        run(json!([
            {"name": "a", "emptyDir": {}},
            {"name": "a", "emptyDir": {}},
            {"name": "b", "hostPath": {"path": "/x/.."}},
            {"name": "b", "emptyDir": {}}
        ])),
        [
            "spec.volumes[1].name: Duplicate value: \"a\"",
            "spec.volumes[2].hostPath.path: Invalid value: \"/x/..\": must not contain '..'",
        ]
    );
}
