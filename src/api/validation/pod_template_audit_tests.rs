//! Row audit of upstream's container tables against kubeplay's earlier ports (tests.rs,
//! pod_volumes_env_tests.rs): the rows that were missing, each asserting the whole error list
//! (type, field path, bad value, detail) through `ValidatePodSpec` on a pod template spec.
//! Upstream's unit tables use the path `containers` / `initContainers`; here it is `spec.…`.
//!
//! upstream: TestValidateContainers, TestValidateInitContainers
//! (pkg/apis/core/validation/validation_test.go). Rows left out: "invalid env var name"
//! (strict names only apply with RelaxedEnvironmentVariableValidation off, impossible in
//! 1.34+), "privilege disabled" (capabilities.AllowPrivileged is not modelled: kubeplay
//! behaves as clusters started with --allow-privileged=true) and the init row "Not supported
//! ResizePolicy: invalid" (it runs with AllowSidecarResizePolicy off; in 1.35 the option is on
//! because InPlacePodVerticalScaling is GA, so the policy is allowed).
//! The hand-derived cases at the end come from validateContainers / validateInitContainers /
//! validateContainerCommon / validateContainerPorts (validation.go).

use super::pod::{validate_pod_spec, PodValidationOptions};
use crate::api::core::PodSpec;
use serde_json::{json, Value};

fn ctr(name: &str) -> Value {
    json!({"name": name, "image": "image", "imagePullPolicy": "IfNotPresent",
           "terminationMessagePolicy": "File"})
}

fn with(mut v: Value, k: &str, x: Value) -> Value {
    v[k] = x;
    v
}

fn spec(containers: Value, init: Value) -> PodSpec {
    let mut s = json!({
        "containers": containers,
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "terminationGracePeriodSeconds": 30,
    });
    if init.as_array().is_some_and(|a| !a.is_empty()) {
        s["initContainers"] = init;
    }
    serde_json::from_value(s).expect("spec")
}

fn validate(s: &PodSpec) -> Vec<String> {
    validate_pod_spec(s, "spec", PodValidationOptions::default())
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn regular(cs: Value) -> Vec<String> {
    validate(&spec(cs, json!([])))
}

/// TestValidateInitContainers runs with one regular container named "app".
fn init(cs: Value) -> Vec<String> {
    validate(&spec(json!([ctr("app")]), cs))
}

fn res(lim: Value, req: Value) -> Value {
    json!({"limits": lim, "requests": req})
}

#[test]
fn validate_containers_missing_rows() {
    let p = "spec.containers[0]";
    let ge0 = "must be greater than or equal to 0";
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "host port not unique",
            json!([
                with(ctr("abc"), "ports", json!([{"containerPort": 80, "hostPort": 80, "protocol": "TCP"}])),
                with(ctr("def"), "ports", json!([{"containerPort": 81, "hostPort": 80, "protocol": "TCP"}])),
            ]),
            vec!["spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//80\"".into()],
        ),
        (
            "invalid message termination policy",
            json!([with(ctr("life-123"), "terminationMessagePolicy", json!("Unknown"))]),
            vec![format!("{p}.terminationMessagePolicy: Unsupported value: \"Unknown\": supported values: \"File\", \"FallbackToLogsOnError\"")],
        ),
        (
            "empty message termination policy",
            json!([with(ctr("life-123"), "terminationMessagePolicy", json!(""))]),
            vec![format!("{p}.terminationMessagePolicy: Required value")],
        ),
        (
            "Resource Requests CPU invalid",
            json!([with(ctr("abc-123"), "resources", json!({"requests": {"cpu": "-10", "memory": "0"}}))]),
            vec![format!("{p}.resources.requests[cpu]: Invalid value: \"-10\": {ge0}")],
        ),
        (
            "Resource Memory invalid",
            json!([with(ctr("abc-123"), "resources", json!({"limits": {"cpu": "0", "memory": "-10"}}))]),
            vec![format!("{p}.resources.limits[memory]: Invalid value: \"-10\": {ge0}")],
        ),
        (
            "Invalid storage limit request",
            json!([with(ctr("abc-123"), "resources", json!({"limits": {"attachable-volumes-aws-ebs": "10"}}))]),
            vec![
                format!("{p}.resources.limits[attachable-volumes-aws-ebs]: Invalid value: \"attachable-volumes-aws-ebs\": must be a standard resource type or fully qualified"),
                format!("{p}.resources.limits[attachable-volumes-aws-ebs]: Invalid value: \"attachable-volumes-aws-ebs\": must be a standard resource for containers"),
            ],
        ),
        (
            "CPU request limit multiple invalid",
            json!([with(ctr("abc-123"), "resources", res(json!({"cpu": "5", "memory": "3"}), json!({"cpu": "6", "memory": "3"})))]),
            vec![format!("{p}.resources.requests: Invalid value: \"6\": must be less than or equal to cpu limit of 5")],
        ),
        (
            "Memory request limit multiple invalid",
            json!([with(ctr("abc-123"), "resources", res(json!({"cpu": "5", "memory": "3"}), json!({"cpu": "5", "memory": "4"})))]),
            vec![format!("{p}.resources.requests: Invalid value: \"4\": must be less than or equal to memory limit of 3")],
        ),
        (
            "Unsupported resize policy for memory",
            json!([with(ctr("resize-policy-mem-invalid"), "resizePolicy", json!([{"resourceName": "memory", "restartPolicy": "RestartContainerrrr"}]))]),
            vec![format!("{p}.resizePolicy: Unsupported value: \"RestartContainerrrr\": supported values: \"NotRequired\", \"RestartContainer\"")],
        ),
        (
            "Unsupported resize policy for CPU",
            json!([with(ctr("resize-policy-cpu-invalid"), "resizePolicy", json!([{"resourceName": "cpu", "restartPolicy": "RestartNotRequired"}]))]),
            vec![format!("{p}.resizePolicy: Unsupported value: \"RestartNotRequired\": supported values: \"NotRequired\", \"RestartContainer\"")],
        ),
    ];
    for (name, cs, want) in rows {
        assert_eq!(regular(cs), want, "{name}");
    }
    // "Forbidden RestartPolicy: Always / OnFailure / Never / invalid / empty": any value, even
    // the empty string, is forbidden on a regular container (upstream checks the pointer).
    for v in ["Always", "OnFailure", "Never", "invalid", ""] {
        assert_eq!(
            regular(json!([with(ctr("foo"), "restartPolicy", json!(v))])),
            vec![format!(
                "{p}.restartPolicy: Forbidden: may not be set for non-init containers"
            )],
            "Forbidden RestartPolicy: {v:?}"
        );
    }
}

#[test]
fn validate_init_containers_missing_rows() {
    let p = "spec.initContainers[0]";
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "empty name",
            json!([ctr("")]),
            vec![format!("{p}.name: Required value")],
        ),
        (
            "invalid termination message policy",
            json!([with(ctr("init"), "terminationMessagePolicy", json!("Unknown"))]),
            vec![format!("{p}.terminationMessagePolicy: Unsupported value: \"Unknown\": supported values: \"File\", \"FallbackToLogsOnError\"")],
        ),
        (
            "duplicate names",
            json!([ctr("init"), ctr("init")]),
            vec!["spec.initContainers[1].name: Duplicate value: \"init\"".into()],
        ),
        (
            "duplicate ports",
            json!([with(ctr("abc"), "ports", json!([
                {"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"},
                {"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}]))]),
            vec![format!("{p}.ports[1].hostPort: Duplicate value: \"TCP//8080\"")],
        ),
        (
            "invalid lifecycle, no exec command.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {"exec": {}}}))]),
            vec![format!("{p}.lifecycle.preStop.exec.command: Required value")],
        ),
        (
            "invalid lifecycle, no http path.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {"httpGet": {"port": 80, "scheme": "HTTP"}}}))]),
            vec![format!("{p}.lifecycle.preStop.httpGet.path: Required value")],
        ),
        (
            "invalid lifecycle, no http port.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {"httpGet": {"path": "/", "scheme": "HTTP"}}}))]),
            vec![format!("{p}.lifecycle.preStop.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive")],
        ),
        (
            "invalid lifecycle, no http scheme.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {"httpGet": {"path": "/", "port": 80}}}))]),
            vec![format!("{p}.lifecycle.preStop.httpGet.scheme: Unsupported value: \"\": supported values: \"HTTP\", \"HTTPS\"")],
        ),
        (
            "invalid lifecycle, no tcp socket port.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {"tcpSocket": {}}}))]),
            vec![format!("{p}.lifecycle.preStop.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive")],
        ),
        (
            "invalid lifecycle, zero tcp socket port.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {"tcpSocket": {"port": 0}}}))]),
            vec![format!("{p}.lifecycle.preStop.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive")],
        ),
        (
            "invalid lifecycle, no action.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "lifecycle", json!({"preStop": {}}))]),
            vec![format!("{p}.lifecycle.preStop: Required value: must specify a handler type")],
        ),
        (
            "invalid readiness probe, terminationGracePeriodSeconds set.",
            json!([with(with(ctr("life-123"), "restartPolicy", json!("Always")), "readinessProbe",
                json!({"tcpSocket": {"port": 80}, "terminationGracePeriodSeconds": 10}))]),
            vec![format!("{p}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes")],
        ),
        (
            "invalid liveness probe, successThreshold != 1",
            json!([with(with(ctr("live-123"), "restartPolicy", json!("Always")), "livenessProbe",
                json!({"tcpSocket": {"port": 80}, "successThreshold": 2}))]),
            vec![format!("{p}.livenessProbe.successThreshold: Invalid value: 2: must be 1")],
        ),
    ];
    for (name, cs, want) in rows {
        assert_eq!(init(cs), want, "{name}");
    }
    // "Not supported RestartPolicy: OnFailure / Never / invalid / empty".
    for v in ["OnFailure", "Never", "invalid", ""] {
        assert_eq!(
            init(json!([with(ctr("init"), "restartPolicy", json!(v))])),
            vec![format!(
                "{p}.restartPolicy: Unsupported value: \"{v}\": supported values: \"Always\""
            )],
            "Not supported RestartPolicy: {v:?}"
        );
    }
}

#[test]
fn container_name_and_port_boundaries() {
    // A container name of exactly 63 characters is a valid DNS label; 64 is not.
    assert!(regular(json!([ctr(&"a".repeat(63))])).is_empty());
    // A port name of exactly 15 characters is valid (IsValidPortName: at most 15).
    let named = |n: &str| {
        json!([with(
            ctr("abc"),
            "ports",
            json!([{"name": n, "containerPort": 80, "protocol": "TCP"}])
        )])
    };
    assert!(regular(named(&"a".repeat(15))).is_empty());
    assert_eq!(
        regular(named(&"a".repeat(16))),
        vec![format!(
            "spec.containers[0].ports[0].name: Invalid value: \"{}\": must be no more than 15 characters",
            "a".repeat(16)
        )]
    );
    // Port numbers: 1 and 65535 are the bounds.
    let port = |n: i64| {
        json!([with(
            ctr("abc"),
            "ports",
            json!([{"containerPort": n, "protocol": "TCP"}])
        )])
    };
    assert!(regular(port(1)).is_empty());
    assert!(regular(port(65535)).is_empty());
    // Duplicate port names within one container.
    assert_eq!(
        regular(json!([with(
            ctr("abc"),
            "ports",
            json!([
            {"name": "http", "containerPort": 80, "protocol": "TCP"},
            {"name": "http", "containerPort": 81, "protocol": "TCP"}])
        )])),
        vec!["spec.containers[0].ports[1].name: Duplicate value: \"http\""]
    );
}

#[test]
fn container_list_and_name_collisions() {
    // validateContainers: an empty list is Required at the list's path.
    assert_eq!(regular(json!([])), vec!["spec.containers: Required value"]);
    // A sidecar may not share a name with a regular container either.
    assert_eq!(
        init(json!([with(ctr("app"), "restartPolicy", json!("Always"))])),
        vec!["spec.initContainers[0].name: Duplicate value: \"app\""]
    );
    // An init container's name is checked against earlier init containers, not later ones;
    // an empty name is Required and is not inserted (a second empty name is not a duplicate).
    assert_eq!(
        init(json!([ctr(""), ctr("")])),
        vec![
            "spec.initContainers[0].name: Required value",
            "spec.initContainers[1].name: Required value",
        ]
    );
    // Host ports: init containers run one by one, so two of them may use the same host port;
    // an init container and a regular container may too (checks are per list / per init
    // container).
    let hp = |name: &str| {
        with(
            ctr(name),
            "ports",
            json!([{"containerPort": 80, "hostPort": 80, "protocol": "TCP"}]),
        )
    };
    assert!(validate(&spec(json!([hp("app")]), json!([hp("i1"), hp("i2")]))).is_empty());
    // The same host port with another protocol is not a conflict.
    assert!(regular(json!([with(
        ctr("abc"),
        "ports",
        json!([
        {"containerPort": 80, "hostPort": 80, "protocol": "TCP"},
        {"containerPort": 80, "hostPort": 80, "protocol": "UDP"}])
    )]))
    .is_empty());
}

#[test]
fn image_whitespace_and_pull_policy() {
    // validateContainerCommon only requires a non-empty image for templates (leading and
    // trailing whitespace is checked for pods only: validateContainerOnlyForPod).
    assert!(regular(json!([with(ctr("abc"), "image", json!(" image"))])).is_empty());
    assert_eq!(
        regular(json!([with(ctr("abc"), "imagePullPolicy", json!(""))])),
        vec!["spec.containers[0].imagePullPolicy: Required value"]
    );
}

#[test]
fn regular_containers_with_empty_names_are_also_duplicates() {
    // validateContainers inserts every name, empty ones included (unlike init containers), so
    // a second empty name is both Required and a Duplicate.
    assert_eq!(
        regular(json!([ctr(""), ctr("")])),
        vec![
            "spec.containers[0].name: Required value",
            "spec.containers[1].name: Required value",
            "spec.containers[1].name: Duplicate value: \"\"",
        ]
    );
}

// Hand-derived from ValidatePodSpec / validatePodHostNetworkDeps / validateHandler
// (validation.go).

fn spec_patch(patch: Value) -> PodSpec {
    let mut s = json!({
        "containers": [ctr("abc")],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "terminationGracePeriodSeconds": 30,
    });
    if let (Some(o), Some(p)) = (s.as_object_mut(), patch.as_object()) {
        for (k, v) in p {
            o.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(s).expect("spec")
}

#[test]
fn host_network_ports_template_vs_pod() {
    let hp = |host: i64| {
        spec_patch(
            json!({"hostNetwork": true, "containers": [with(ctr("abc"), "ports",
            json!([{"containerPort": 8080, "hostPort": host, "protocol": "TCP"}]))]}),
        )
    };
    let pod = PodValidationOptions {
        resource_is_pod: true,
        ..Default::default()
    };
    // A template may leave hostPort unset (defaulting fills it in on the pod)...
    assert!(validate(&hp(0)).is_empty());
    // ...but not set it to another port; a pod must match exactly.
    let bad = "spec.containers[0].ports[0].hostPort: Invalid value: 9090: must match `containerPort` when `hostNetwork` is true";
    assert_eq!(validate(&hp(9090)), vec![bad]);
    let on_pod = |s: &PodSpec| -> Vec<String> {
        validate_pod_spec(s, "spec", pod)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(on_pod(&hp(9090)), vec![bad]);
    assert_eq!(
        on_pod(&hp(0)),
        vec!["spec.containers[0].ports[0].hostPort: Invalid value: 0: must match `containerPort` when `hostNetwork` is true"]
    );
    assert!(on_pod(&hp(8080)).is_empty());
}

#[test]
fn active_deadline_and_grace_period_boundaries() {
    let range = "must be between 1 and 2147483647, inclusive";
    assert!(validate(&spec_patch(json!({"activeDeadlineSeconds": 1}))).is_empty());
    assert!(validate(&spec_patch(json!({"activeDeadlineSeconds": 2147483647i64}))).is_empty());
    assert_eq!(
        validate(&spec_patch(json!({"activeDeadlineSeconds": 0}))),
        vec![format!(
            "spec.activeDeadlineSeconds: Invalid value: 0: {range}"
        )]
    );
    assert_eq!(
        validate(&spec_patch(json!({"activeDeadlineSeconds": 2147483648i64}))),
        vec![format!(
            "spec.activeDeadlineSeconds: Invalid value: 2147483648: {range}"
        )]
    );
    // terminationGracePeriodSeconds is required (defaulting sets 30).
    let mut s = json!({"containers": [ctr("abc")], "restartPolicy": "Always",
                       "dnsPolicy": "ClusterFirst"});
    s["containers"][0]["name"] = json!("abc");
    let s: PodSpec = serde_json::from_value(s).expect("spec");
    assert_eq!(
        validate(&s),
        vec!["spec.terminationGracePeriodSeconds: Required value"]
    );
}

#[test]
fn probe_with_two_handlers_is_forbidden() {
    let s = spec_patch(
        json!({"containers": [with(ctr("abc"), "livenessProbe", json!({
        "exec": {"command": ["true"]},
        "httpGet": {"path": "/", "port": 80, "scheme": "HTTP"},
        "successThreshold": 1}))]}),
    );
    assert_eq!(
        validate(&s),
        vec!["spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type"]
    );
}
