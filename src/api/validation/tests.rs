//! Pod validation table tests (ports of upstream rows), end-to-end checks through the API server
//! and property tests that no input makes validation panic.

use super::pod::{
    deletion_cost_valid, validate_pod_create, validate_pod_spec, validate_pod_update,
    validate_tolerations, PodValidationOptions, UPDATABLE_POD_SPEC_FIELDS,
};
use super::validate_object;
use crate::api::core::{
    Container, ContainerPort, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod,
    PodSpec, PodTemplateSpec, Quantity, ResourceRequirements, Taint,
};
use crate::api::errors::FieldError;
use crate::api::{
    LabelSelector, Labels, Node, NodeSpec, Object, ObjectMeta, ReplicaSet, ReplicaSetSpec,
    ReplicationController, ReplicationControllerSpec, Time,
};
use crate::store::apiserver::ApiServer;
use crate::test_fixtures::tol_secs as tol;
use proptest::prelude::*;
use serde_json::json;

fn strs(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn ctr(name: &str, image: &str) -> Container {
    Container {
        name: name.into(),
        image: image.into(),
        ..Default::default()
    }
}

/// A defaulted pod spec with the given containers.
fn spec_with(containers: Vec<Container>) -> PodSpec {
    let mut s = PodSpec {
        containers,
        ..Default::default()
    };
    crate::api::defaults::default_pod_spec(&mut s);
    s
}

fn template_opts() -> PodValidationOptions {
    PodValidationOptions::default()
}

fn pod_opts() -> PodValidationOptions {
    PodValidationOptions {
        resource_is_pod: true,
        ..Default::default()
    }
}

/// A pod as the API server stores it after create (defaults and admission applied).
fn pod(name: &str, spec: PodSpec) -> Pod {
    let mut o = Object::Pod(Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            resource_version: "1".into(),
            uid: "uid-1".into(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(spec),
        ..Default::default()
    });
    crate::api::defaults::prepare_for_create(&mut o);
    crate::api::defaults::default_object(&mut o);
    match o {
        Object::Pod(p) => p,
        _ => unreachable!(),
    }
}

// Port of selected rows of TestValidatePodSpec (pkg/apis/core/validation/validation_test.go).
#[test]
fn pod_spec_rows() {
    let ok = spec_with(vec![ctr("ctr", "image")]);
    assert!(validate_pod_spec(&ok, "spec", pod_opts()).is_empty());

    let with = |f: &dyn Fn(&mut PodSpec)| {
        let mut s = ok.clone();
        f(&mut s);
        s
    };
    let host_port = |hp: i64| {
        with(&|s| {
            s.extra.insert("hostNetwork".into(), json!(true));
            let mut p = ContainerPort {
                container_port: 8080,
                protocol: Some("TCP".into()),
                ..Default::default()
            };
            if hp != 0 {
                p.extra.insert("hostPort".into(), json!(hp));
            }
            s.containers[0].ports = vec![p];
        })
    };
    let cases: Vec<(&str, PodSpec, PodValidationOptions, Vec<&str>)> = vec![
        (
            "no containers",
            with(&|s| s.containers.clear()),
            pod_opts(),
            vec!["spec.containers: Required value"],
        ),
        (
            "bad DNS policy",
            with(&|s| {
                s.extra.insert("dnsPolicy".into(), json!("invalid"));
            }),
            pod_opts(),
            vec!["spec.dnsPolicy: Unsupported value: \"invalid\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\""],
        ),
        (
            "bad restart policy",
            with(&|s| s.restart_policy = "UnknowPolicy".into()),
            pod_opts(),
            vec!["spec.restartPolicy: Unsupported value: \"UnknowPolicy\": supported values: \"Always\", \"OnFailure\", \"Never\""],
        ),
        (
            "bad service account name",
            with(&|s| {
                s.extra.insert("serviceAccountName".into(), json!("invalidName"));
            }),
            pod_opts(),
            vec!["spec.serviceAccountName: Invalid value: \"invalidName\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
        ),
        (
            "with hostNetwork hostPort unspecified",
            host_port(0),
            pod_opts(),
            vec!["spec.containers[0].ports[0].hostPort: Invalid value: 0: must match `containerPort` when `hostNetwork` is true"],
        ),
        ("with hostNetwork hostPort unspecified in a template", host_port(0), template_opts(), vec![]),
        (
            "with hostNetwork hostPort not equal to containerPort",
            host_port(2600),
            template_opts(),
            vec!["spec.containers[0].ports[0].hostPort: Invalid value: 2600: must match `containerPort` when `hostNetwork` is true"],
        ),
        (
            "bad-active-deadline-seconds",
            with(&|s| s.active_deadline_seconds = Some(0)),
            pod_opts(),
            vec!["spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"],
        ),
        (
            "active-deadline-seconds-too-large",
            with(&|s| s.active_deadline_seconds = Some(i64::from(i32::MAX) + 1)),
            pod_opts(),
            vec!["spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive"],
        ),
        (
            "bad nodeName",
            with(&|s| s.node_name = "node name".into()),
            pod_opts(),
            vec!["spec.nodeName: Invalid value: \"node name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
        ),
        (
            "bad PriorityClassName",
            with(&|s| {
                s.extra.insert("priorityClassName".into(), json!("InvalidName"));
            }),
            pod_opts(),
            vec!["spec.priorityClassName: Invalid value: \"InvalidName\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
        ),
        (
            "bad hostname",
            with(&|s| s.hostname = "a.b".into()),
            pod_opts(),
            vec!["spec.hostname: Invalid value: \"a.b\": must not contain dots"],
        ),
        (
            "bad nodeSelector key",
            with(&|s| s.node_selector = labels(&[("a/b/c", "x")])),
            pod_opts(),
            vec!["spec.nodeSelector: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
        ),
        (
            "missing terminationGracePeriodSeconds",
            with(&|s| s.termination_grace_period_seconds = None),
            pod_opts(),
            vec!["spec.terminationGracePeriodSeconds: Required value"],
        ),
    ];
    for (name, s, opts, want) in cases {
        assert_eq!(strs(&validate_pod_spec(&s, "spec", opts)), want, "{name}");
    }
}

// Port of TestValidateContainers (pkg/apis/core/validation/validation_test.go), error rows.
#[test]
fn container_rows() {
    let cases: Vec<(&str, Vec<Container>, Vec<&str>)> = vec![
        (
            "zero-length name",
            vec![ctr("", "image")],
            vec!["spec.containers[0].name: Required value"],
        ),
        (
            "zero-length-image",
            vec![ctr("abc", "")],
            vec!["spec.containers[0].image: Required value"],
        ),
        (
            "name > 63 characters",
            vec![ctr(&"a".repeat(64), "image")],
            vec!["spec.containers[0].name: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": must be no more than 63 characters"],
        ),
        (
            "name not a DNS label",
            vec![ctr("a.b.c", "image")],
            vec!["spec.containers[0].name: Invalid value: \"a.b.c\": must not contain dots"],
        ),
        (
            "name not unique",
            vec![ctr("abc", "image"), ctr("abc", "image")],
            vec!["spec.containers[1].name: Duplicate value: \"abc\""],
        ),
        (
            "restartPolicy on a regular container",
            vec![Container {
                restart_policy: Some("Always".into()),
                ..ctr("abc", "image")
            }],
            vec!["spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"],
        ),
    ];
    for (name, cs, want) in cases {
        assert_eq!(
            strs(&validate_pod_spec(&spec_with(cs), "spec", template_opts())),
            want,
            "{name}"
        );
    }
    // Values that defaulting would not produce.
    let mut s = spec_with(vec![ctr("abc", "image")]);
    s.containers[0]
        .extra
        .insert("imagePullPolicy".into(), json!("Sometimes"));
    s.containers[0]
        .extra
        .insert("terminationMessagePolicy".into(), json!("Never"));
    assert_eq!(
        strs(&validate_pod_spec(&s, "spec", template_opts())),
        vec![
            "spec.containers[0].terminationMessagePolicy: Unsupported value: \"Never\": supported values: \"File\", \"FallbackToLogsOnError\"",
            "spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
        ]
    );
}

// Port of TestValidateInitContainers rows: duplicate names across init and regular containers,
// restartPolicy values, probes on non-sidecar init containers.
#[test]
fn init_container_rows() {
    let mut s = spec_with(vec![ctr("app", "image")]);
    s.init_containers = vec![
        ctr("app", "image"),
        Container {
            restart_policy: Some("Never".into()),
            ..ctr("init", "image")
        },
        Container {
            restart_policy: Some("Always".into()),
            ..ctr("sidecar", "image")
        },
    ];
    s.init_containers[0].extra.insert(
        "livenessProbe".into(),
        json!({"exec": {"command": ["true"]}}),
    );
    s.init_containers[2].extra.insert(
        "livenessProbe".into(),
        json!({"exec": {"command": ["true"]}}),
    );
    crate::api::defaults::default_pod_spec(&mut s);
    assert_eq!(
        strs(&validate_pod_spec(&s, "spec", template_opts())),
        vec![
            "spec.initContainers[0].name: Duplicate value: \"app\"",
            "spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
            "spec.initContainers[1].restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
        ]
    );
}

// Port of TestValidatePorts (pkg/apis/core/validation/validation_test.go), error rows.
#[test]
fn port_rows() {
    let port = |name: Option<&str>, cp: i32, proto: Option<&str>| ContainerPort {
        name: name.map(str::to_string),
        container_port: cp,
        protocol: proto.map(str::to_string),
        ..Default::default()
    };
    let cases: Vec<(&str, ContainerPort, Vec<&str>)> = vec![
        (
            "name > 15 characters",
            port(Some(&"a".repeat(16)), 80, Some("TCP")),
            vec!["ports[0].name: Invalid value: \"aaaaaaaaaaaaaaaa\": must be no more than 15 characters"],
        ),
        (
            "name contains invalid characters",
            port(Some("a.b.c"), 80, Some("TCP")),
            vec!["ports[0].name: Invalid value: \"a.b.c\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"],
        ),
        (
            "name is a number",
            port(Some("80"), 80, Some("TCP")),
            vec!["ports[0].name: Invalid value: \"80\": must contain at least one letter (a-z)"],
        ),
        (
            "zero container port",
            port(None, 0, Some("TCP")),
            vec!["ports[0].containerPort: Required value"],
        ),
        (
            "invalid container port",
            port(None, 65536, Some("TCP")),
            vec!["ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"],
        ),
        (
            "invalid protocol case",
            port(None, 80, Some("tcp")),
            vec!["ports[0].protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\""],
        ),
        (
            "invalid protocol",
            port(None, 80, Some("ICMP")),
            vec!["ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""],
        ),
        (
            "protocol required",
            port(None, 80, None),
            vec!["ports[0].protocol: Required value"],
        ),
    ];
    for (name, p, want) in cases {
        let mut s = spec_with(vec![ctr("abc", "image")]);
        s.containers[0].ports = vec![p];
        let got: Vec<String> = strs(&validate_pod_spec(&s, "spec", template_opts()))
            .into_iter()
            .map(|e| e.replacen("spec.containers[0].", "", 1))
            .collect();
        assert_eq!(got, want, "{name}");
    }
    // "name not unique" and "invalid host port".
    let mut s = spec_with(vec![ctr("abc", "image")]);
    let mut hp = port(Some("http"), 81, Some("TCP"));
    hp.extra.insert("hostPort".into(), json!(65536));
    s.containers[0].ports = vec![port(Some("http"), 80, Some("TCP")), hp];
    assert_eq!(
        strs(&validate_pod_spec(&s, "spec", template_opts())),
        vec![
            "spec.containers[0].ports[1].name: Duplicate value: \"http\"",
            "spec.containers[0].ports[1].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive",
        ]
    );
    // Host port conflicts across containers (checkHostPortConflicts).
    let mut s = spec_with(vec![ctr("a", "image"), ctr("b", "image")]);
    for c in s.containers.iter_mut() {
        let mut p = port(None, 8080, Some("TCP"));
        p.extra.insert("hostPort".into(), json!(8080));
        c.ports = vec![p];
    }
    assert_eq!(
        strs(&validate_pod_spec(&s, "spec", template_opts())),
        vec!["spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\""]
    );
}

fn resources(req: &[(&str, &str)], lim: &[(&str, &str)]) -> Option<ResourceRequirements> {
    let m = |p: &[(&str, &str)]| {
        p.iter()
            .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
            .collect()
    };
    Some(ResourceRequirements {
        requests: m(req),
        limits: m(lim),
    })
}

// Port of TestValidateResourceRequirements and the resource rows of TestValidateContainers.
#[test]
fn resource_rows() {
    let cases: Vec<(&str, Option<ResourceRequirements>, Vec<&str>)> = vec![
        ("limits and requests", resources(&[("cpu", "100m"), ("memory", "64Mi")], &[("cpu", "1"), ("memory", "128Mi")]), vec![]),
        ("extended resources", resources(&[("example.com/gpu", "2")], &[("example.com/gpu", "2")]), vec![]),
        (
            "Request limit simple invalid",
            resources(&[("cpu", "5")], &[("cpu", "3")]),
            vec!["spec.containers[0].resources.requests: Invalid value: \"5\": must be less than or equal to cpu limit of 3"],
        ),
        (
            "Request limit canonical quantities",
            resources(&[("memory", "2048Mi")], &[("memory", "1Gi")]),
            vec!["spec.containers[0].resources.requests: Invalid value: \"2Gi\": must be less than or equal to memory limit of 1Gi"],
        ),
        (
            "Resource CPU invalid",
            resources(&[], &[("cpu", "-10")]),
            vec!["spec.containers[0].resources.limits[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"],
        ),
        (
            "Resource name invalid",
            resources(&[], &[("disk", "10G")]),
            vec![
                "spec.containers[0].resources.limits[disk]: Invalid value: \"disk\": must be a standard resource type or fully qualified",
                "spec.containers[0].resources.limits[disk]: Invalid value: \"disk\": must be a standard resource for containers",
            ],
        ),
        (
            "Resource extended fractional",
            resources(&[], &[("example.com/a", "500m")]),
            vec!["spec.containers[0].resources.limits[example.com/a]: Invalid value: \"500m\": must be an integer"],
        ),
        (
            "Request extended unequal to limit",
            resources(&[("example.com/a", "1")], &[("example.com/a", "2")]),
            vec!["spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to example.com/a limit of 2"],
        ),
        (
            "Request extended without limit",
            resources(&[("example.com/a", "1")], &[]),
            vec!["spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"],
        ),
        (
            "Unparseable quantity",
            resources(&[("cpu", "one")], &[]),
            vec!["spec.containers[0].resources.requests[cpu]: Invalid value: \"one\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
        ),
    ];
    for (name, r, want) in cases {
        let mut s = spec_with(vec![Container {
            resources: r,
            ..ctr("abc", "image")
        }]);
        crate::api::defaults::default_pod_spec(&mut s);
        assert_eq!(
            strs(&validate_pod_spec(&s, "spec", template_opts())),
            want,
            "{name}"
        );
    }
}

// Port of TestValidateTolerations (pkg/apis/core/validation/validation_test.go).
#[test]
fn toleration_rows() {
    let ok = [
        tol("foo", "Exists", "", "NoSchedule", None),
        tol("foo", "Equal", "bar", "NoSchedule", None),
        tol("foo", "", "bar", "", None),
        tol("", "Exists", "", "", None),
        tol("foo", "Exists", "", "NoExecute", Some(60)),
    ];
    assert!(validate_tolerations(&ok, "tolerations").is_empty());
    let cases = [
        (
            tol("nospecialchars^=@", "Equal", "bar", "NoSchedule", None),
            "tolerations[0].key: Invalid value: \"nospecialchars^=@\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ),
        (
            tol("foo", "Exists", "bar", "NoSchedule", None),
            "tolerations[0].operator: Invalid value: \"bar\": value must be empty when `operator` is 'Exists'",
        ),
        (
            tol("foo", "In", "bar", "NoSchedule", None),
            "tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
        ),
        (
            tol("", "Equal", "bar", "NoSchedule", None),
            "tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
        ),
        (
            tol("foo", "Exists", "", "NoSchedule", Some(20)),
            "tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
        (
            tol("foo", "Exists", "", "NoScheduleNoAdmit", None),
            "tolerations[0].effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
        ),
    ];
    for (t, want) in cases {
        assert_eq!(strs(&validate_tolerations(&[t], "tolerations")), vec![want]);
    }
}

// Node affinity rows of TestValidateAffinity.
#[test]
fn node_affinity_rows() {
    let mut s = spec_with(vec![ctr("a", "image")]);
    s.affinity = Some(crate::api::core::Affinity {
        node_affinity: Some(crate::api::core::NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_expressions: vec![
                        NodeSelectorRequirement {
                            key: "zone".into(),
                            operator: "In".into(),
                            values: vec![],
                        },
                        NodeSelectorRequirement {
                            key: "zone".into(),
                            operator: "Gt".into(),
                            values: vec!["1".into(), "2".into()],
                        },
                    ],
                    match_fields: vec![NodeSelectorRequirement {
                        key: "metadata.labels".into(),
                        operator: "In".into(),
                        values: vec!["n".into()],
                    }],
                }],
            }),
            ..Default::default()
        }),
        ..Default::default()
    });
    let p = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";
    assert_eq!(
        strs(&validate_pod_spec(&s, "spec", template_opts())),
        vec![
            format!("{p}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
            format!("{p}.matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
            format!("{p}.matchFields[0].key: Invalid value: \"metadata.labels\": not a valid field selector key"),
        ]
    );
}

// The pod-deletion-cost annotation (ValidatePodSpecificAnnotations / GetDeletionCostFromPodAnnotations).
#[test]
fn pod_deletion_cost_rows() {
    for v in ["0", "10", "-10", "-007", "2147483647", "-2147483648", "-0"] {
        assert!(deletion_cost_valid(v), "{v}");
    }
    for v in [
        "",
        "+10",
        "010",
        "00",
        "2147483648",
        "-2147483649",
        "abc",
        "1.5",
        " 1",
        "-",
    ] {
        assert!(!deletion_cost_valid(v), "{v}");
    }
    let mut p = pod("p", spec_with(vec![ctr("a", "image")]));
    p.metadata.annotations =
        labels(&[("controller.kubernetes.io/pod-deletion-cost", "abc")]).into();
    assert_eq!(
        strs(&validate_pod_create(&p)),
        vec!["metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"abc\": must be a 32bit integer"]
    );
    // An existing invalid value is tolerated on update (AllowInvalidPodDeletionCost).
    let mut new = p.clone();
    new.spec_mut().containers[0].image = "image:2".into();
    assert!(validate_pod_update(&new, &p).is_empty());
}

#[test]
fn pod_annotation_rows() {
    let mut p = pod("p", spec_with(vec![ctr("a", "image")]));
    p.metadata.annotations = labels(&[
        ("kubernetes.io/config.mirror", "x"),
        ("container.apparmor.security.beta.kubernetes.io/b", "bogus"),
        ("seccomp.security.alpha.kubernetes.io/pod", "foo"),
    ])
    .into();
    assert_eq!(
        strs(&validate_pod_create(&p)),
        vec![
            "metadata.annotations[kubernetes.io/config.mirror]: Invalid value: \"x\": must set spec.nodeName if mirror pod annotation is set",
            "metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: \"foo\": must be a valid seccomp profile",
            "metadata.annotations[container.apparmor.security.beta.kubernetes.io/b]: Invalid value: \"b\": container not found",
            "metadata.annotations[container.apparmor.security.beta.kubernetes.io/b]: Invalid value: \"bogus\": invalid AppArmor profile name: \"bogus\"",
        ]
    );
}

#[test]
fn pod_create_rows() {
    let mut p = pod("p", spec_with(vec![ctr("a", " image ")]));
    p.spec_mut().node_name = "node-1".into();
    p.spec_mut().extra.insert(
        "schedulingGates".into(),
        json!([{"name": "example.com/gate"}]),
    );
    p.spec_mut().extra.insert(
        "ephemeralContainers".into(),
        // (Defaulted, as the API server's decoding would.)
        json!([{"name": "debug", "image": "busybox", "imagePullPolicy": "IfNotPresent",
                "terminationMessagePolicy": "File"}]),
    );
    assert_eq!(
        strs(&validate_pod_create(&p)),
        vec![
            "spec.containers[0].image: Invalid value: \" image \": must not have leading or trailing whitespace",
            "spec.ephemeralContainers: Forbidden: cannot be set on create",
            "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
        ]
    );
}

// Port of selected rows of TestValidatePodUpdate (pkg/apis/core/validation/validation_test.go).
#[test]
fn pod_update_rows() {
    // ValidatePodUpdate reports some errors twice (the new pod is validated in full and then
    // against the old one); the API message and kubectl show each once.
    let upd = |n: &Pod, o: &Pod| super::dedupe(validate_pod_update(n, o));
    let old = pod("foo", spec_with(vec![ctr("c", "foo:V1")]));
    let with = |f: &dyn Fn(&mut Pod)| {
        let mut p = old.clone();
        f(&mut p);
        p
    };
    let forbidden_prefix = format!(
        "spec: Forbidden: pod updates may not change fields other than {UPDATABLE_POD_SPEC_FIELDS}\n"
    );
    // Allowed changes.
    for (name, new) in [
        (
            "image change",
            with(&|p| p.spec_mut().containers[0].image = "foo:V2".into()),
        ),
        (
            "activeDeadlineSeconds nil to positive",
            with(&|p| p.spec_mut().active_deadline_seconds = Some(30)),
        ),
        (
            "add toleration",
            with(&|p| {
                p.spec_mut()
                    .tolerations
                    .push(tol("foo", "Exists", "", "NoSchedule", None))
            }),
        ),
        (
            "labels",
            with(&|p| p.metadata.labels = labels(&[("a", "b")]).into()),
        ),
        (
            "bind to a node (kubeplay's pods/binding)",
            with(&|p| p.spec_mut().node_name = "node-1".into()),
        ),
    ] {
        assert!(
            upd(&new, &old).is_empty(),
            "{name}: {:?}",
            strs(&upd(&new, &old))
        );
    }
    let old_ads = with(&|p| p.spec_mut().active_deadline_seconds = Some(30));
    let lower = with(&|p| p.spec_mut().active_deadline_seconds = Some(10));
    assert!(upd(&lower, &old_ads).is_empty());
    let higher = with(&|p| p.spec_mut().active_deadline_seconds = Some(31));
    assert_eq!(
        strs(&upd(&higher, &old_ads)),
        vec!["spec.activeDeadlineSeconds: Invalid value: 31: must be less than or equal to previous value"]
    );
    assert_eq!(
        strs(&upd(&old, &old_ads)),
        vec!["spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value"]
    );
    assert_eq!(
        strs(&upd(
            &with(&|p| p.spec_mut().containers[0].image = String::new()),
            &old
        )),
        vec!["spec.containers[0].image: Required value"]
    );
    assert_eq!(
        strs(&upd(
            &with(&|p| {
                p.spec_mut().containers.push(ctr("d", "x"));
                crate::api::defaults::default_pod_spec(p.spec_mut());
            }),
            &old
        )),
        vec!["spec.containers: Forbidden: pod updates may not add or remove containers"]
    );
    // Modifying an existing toleration (other than tolerationSeconds) is forbidden.
    let old_tol =
        with(&|p| p.spec_mut().tolerations = vec![tol("foo", "Exists", "", "NoExecute", Some(10))]);
    let secs =
        with(&|p| p.spec_mut().tolerations = vec![tol("foo", "Exists", "", "NoExecute", Some(20))]);
    assert!(upd(&secs, &old_tol).is_empty());
    let changed =
        with(&|p| p.spec_mut().tolerations = vec![tol("bar", "Exists", "", "NoExecute", Some(10))]);
    assert_eq!(
        strs(&upd(&changed, &old_tol)),
        vec!["spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"]
    );
    // terminationGracePeriodSeconds may only go from a negative value to 1.
    let neg = with(&|p| p.spec_mut().termination_grace_period_seconds = Some(-1));
    let one = with(&|p| p.spec_mut().termination_grace_period_seconds = Some(1));
    assert!(upd(&one, &neg).is_empty());
    let errs = strs(&upd(&one, &old));
    assert_eq!(errs.len(), 1);
    assert_eq!(
        errs[0],
        format!("{forbidden_prefix}  core.PodSpec{{\n  \t... // 10 identical fields\n- \tTerminationGracePeriodSeconds: 30,\n+ \tTerminationGracePeriodSeconds: 1,\n  \t... // 1 identical fields\n  }}")
    );
    // Other spec changes are forbidden, with a diff naming the field.
    let errs = strs(&upd(
        &with(&|p| p.spec_mut().restart_policy = "Never".into()),
        &old,
    ));
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with(&forbidden_prefix), "{}", errs[0]);
    assert!(errs[0].contains("- \tRestartPolicy: \"Always\",\n+ \tRestartPolicy: \"Never\","));
    // Re-binding is forbidden.
    let bound = with(&|p| p.spec_mut().node_name = "node-1".into());
    let rebound = with(&|p| p.spec_mut().node_name = "node-2".into());
    let errs = strs(&upd(&rebound, &bound));
    assert!(errs[0].contains("- \tNodeName: \"node-1\",\n+ \tNodeName: \"node-2\","));
    // Changing resources changes the QoS class.
    let mut burst = old.clone();
    burst.spec_mut().containers[0].resources = resources(&[("cpu", "100m")], &[]);
    let errs = strs(&upd(&burst, &old));
    assert_eq!(
        errs[0],
        "metadata: Invalid value: \"BestEffort\": Pod QoS is immutable"
    );
    assert!(errs[1].starts_with(&forbidden_prefix));
    // Scheduling gates may only be removed.
    let gated = with(&|p| {
        p.spec_mut()
            .extra
            .insert("schedulingGates".into(), json!([{"name": "a"}]));
    });
    let more = with(&|p| {
        p.spec_mut().extra.insert(
            "schedulingGates".into(),
            json!([{"name": "a"}, {"name": "b"}]),
        );
    });
    assert!(upd(&old, &gated).is_empty());
    assert_eq!(
        strs(&upd(&more, &gated)),
        vec!["spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'"]
    );
    // A gated pod may gain nodeSelector terms but not change them.
    let gated_sel = with(&|p| {
        p.spec_mut()
            .extra
            .insert("schedulingGates".into(), json!([{"name": "a"}]));
        p.spec_mut().node_selector = labels(&[("zone", "a")]);
    });
    let mut added = gated_sel.clone();
    added
        .spec_mut()
        .node_selector
        .insert("disk".into(), "ssd".into());
    assert!(upd(&added, &gated_sel).is_empty());
    let mut changed = gated_sel.clone();
    changed
        .spec_mut()
        .node_selector
        .insert("zone".into(), "b".into());
    assert_eq!(
        strs(&upd(&changed, &gated_sel)),
        vec!["spec.nodeSelector: Invalid value: {\"zone\":\"b\"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)"]
    );
}

#[test]
fn update_through_validate_object_emulates_before_update() {
    // An update without resourceVersion/uid/creationTimestamp is an unconditional update.
    let mut old = pod("foo", spec_with(vec![ctr("c", "foo:V1")]));
    old.metadata.creation_timestamp = Some(Time::from_unix_secs(100));
    old.metadata.generation = 3;
    let mut new = old.clone();
    new.metadata.resource_version.clear();
    new.metadata.uid.clear();
    new.metadata.creation_timestamp = None;
    new.metadata.generation = 0;
    let (n, o) = (Object::Pod(new), Object::Pod(old.clone()));
    assert!(validate_object(&n, Some(&o)).is_empty());
    // Name changes are reported as immutable.
    let mut renamed = old.clone();
    renamed.metadata.name = "bar".into();
    assert_eq!(
        strs(&validate_object(&Object::Pod(renamed), Some(&o))),
        vec!["metadata.name: Invalid value: \"bar\": field is immutable"]
    );
    // Mismatched kinds are an internal error, not a panic.
    let node = Object::Node(Node::default());
    assert_eq!(
        strs(&validate_object(&node, Some(&o))),
        vec!["kind: Internal error: cannot update a Pod with a Node"]
    );
}

fn api() -> ApiServer {
    ApiServer::new(1, Time::from_unix_secs(1_700_000_000))
}

fn rs_obj(name: &str, replicas: i32, selector: Labels, t: PodTemplateSpec) -> Object {
    Object::ReplicaSet(ReplicaSet {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        spec: (ReplicaSetSpec {
            replicas: Some(replicas),
            min_ready_seconds: 0,
            selector: Some(LabelSelector::from_labels(&selector)),
            template: std::sync::Arc::new(t),
        })
        .into(),
        ..Default::default()
    })
}

fn tmpl(l: &[(&str, &str)], containers: Vec<Container>) -> PodTemplateSpec {
    PodTemplateSpec {
        metadata: ObjectMeta {
            labels: labels(l).into(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(PodSpec {
            containers,
            ..Default::default()
        }),
    }
}

// End to end: the message kubectl prints for a ReplicaSet with several errors.
#[test]
fn create_invalid_replica_set_kubectl_message() {
    let mut t = tmpl(&[("app", "x")], vec![ctr("web", "nginx"), ctr("web", "")]);
    t.spec_mut().restart_policy = "OnFailure".into();
    let o = rs_obj("web", -1, labels(&[("app", "web")]), t);
    let err = api().create(o).unwrap_err();
    assert_eq!(
        err.kubectl_message(),
        "The ReplicaSet \"web\" is invalid: \n\
         * spec.replicas: Invalid value: -1: must be greater than or equal to 0\n\
         * spec.template.metadata.labels: Invalid value: {\"app\":\"x\"}: `selector` does not match template `labels`\n\
         * spec.template.spec.containers[1].image: Required value\n\
         * spec.template.spec.containers[1].name: Duplicate value: \"web\"\n\
         * spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""
    );
    assert!(err.message.starts_with(
        "ReplicaSet.apps \"web\" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, "
    ));
    // A single error is printed on one line.
    let o = rs_obj(
        "Web",
        1,
        labels(&[("app", "web")]),
        tmpl(&[("app", "web")], vec![ctr("web", "nginx")]),
    );
    assert_eq!(
        api().create(o).unwrap_err().kubectl_message(),
        "The ReplicaSet \"Web\" is invalid: metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
}

#[test]
fn create_defaults_then_update_rules_through_api_server() {
    let mut a = api();
    let t = tmpl(
        &[("app", "web")],
        vec![ctr("web", "nginx"), ctr("side", "busybox:1.36")],
    );
    let mut o = rs_obj("web", 1, labels(&[("app", "web")]), t);
    if let Object::ReplicaSet(rs) = &mut o {
        rs.spec.replicas = None;
    }
    let created = a.create(o).unwrap();
    let v = serde_json::to_value(&created).unwrap();
    assert_eq!(v["spec"]["replicas"], json!(1));
    let spec = &v["spec"]["template"]["spec"];
    assert_eq!(spec["restartPolicy"], json!("Always"));
    assert_eq!(spec["dnsPolicy"], json!("ClusterFirst"));
    assert_eq!(spec["schedulerName"], json!("default-scheduler"));
    assert_eq!(spec["securityContext"], json!({}));
    assert_eq!(spec["terminationGracePeriodSeconds"], json!(30));
    assert_eq!(spec["containers"][0]["imagePullPolicy"], json!("Always"));
    assert_eq!(
        spec["containers"][1]["imagePullPolicy"],
        json!("IfNotPresent")
    );
    assert_eq!(
        spec["containers"][0]["terminationMessagePath"],
        json!("/dev/termination-log")
    );
    assert_eq!(
        spec["containers"][0]["terminationMessagePolicy"],
        json!("File")
    );
    assert_eq!(spec["containers"][0]["resources"], json!({}));

    // The selector of an apps/v1 ReplicaSet is immutable.
    let mut changed = created.clone();
    if let Object::ReplicaSet(rs) = &mut changed {
        rs.spec.selector = Some(LabelSelector::from_labels(&labels(&[
            ("app", "web"),
            ("tier", "fe"),
        ])));
        rs.spec
            .template_mut()
            .metadata
            .labels
            .insert("tier".into(), "fe".into());
    }
    assert_eq!(
        a.update(changed).unwrap_err().kubectl_message(),
        "The ReplicaSet \"web\" is invalid: spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"tier\":\"fe\"}}: field is immutable"
    );
    // Scaling is fine, and spec errors are reported once although upstream validates twice.
    let mut scaled = created.clone();
    if let Object::ReplicaSet(rs) = &mut scaled {
        rs.spec.replicas = Some(-2);
    }
    assert_eq!(
        a.update(scaled).unwrap_err().kubectl_message(),
        "The ReplicaSet \"web\" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0"
    );
}

#[test]
fn create_pod_applies_admission_and_reports_errors() {
    let mut a = api();
    let p = Object::Pod(Pod {
        metadata: ObjectMeta {
            name: "p".into(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(PodSpec {
            containers: vec![Container {
                resources: resources(&[], &[("cpu", "0.5"), ("memory", "1024Mi")]),
                ..ctr("c", "nginx:1.25")
            }],
            ..Default::default()
        }),
        ..Default::default()
    });
    let created = a.create(p).unwrap();
    let Object::Pod(p) = &created else {
        unreachable!()
    };
    assert_eq!(p.status.qos_class, "Guaranteed");
    let r = p.spec.containers[0].resources.as_ref().unwrap();
    assert_eq!(r.limits["cpu"].0, "500m");
    assert_eq!(r.limits["memory"].0, "1Gi");
    assert_eq!(r.requests["cpu"].0, "500m");
    assert_eq!(p.spec.priority, Some(0));
    assert_eq!(p.spec.extra["enableServiceLinks"], json!(true));
    assert_eq!(p.spec.extra["serviceAccountName"], json!("default"));
    assert_eq!(
        p.spec.tolerations,
        vec![
            tol(
                "node.kubernetes.io/not-ready",
                "Exists",
                "",
                "NoExecute",
                Some(300)
            ),
            tol(
                "node.kubernetes.io/unreachable",
                "Exists",
                "",
                "NoExecute",
                Some(300)
            ),
        ]
    );
    // Pod spec changes other than the image are refused.
    let mut changed = created.clone();
    if let Object::Pod(p) = &mut changed {
        p.spec_mut().restart_policy = "Never".into();
    }
    let msg = a.update(changed).unwrap_err().kubectl_message();
    assert!(msg.starts_with("The Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"), "{msg}");

    let bad = Object::Pod(Pod {
        metadata: ObjectMeta {
            name: "q".into(),
            annotations: labels(&[("controller.kubernetes.io/pod-deletion-cost", "1e3")]).into(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(PodSpec {
            containers: vec![ctr("c", "nginx")],
            ..Default::default()
        }),
        ..Default::default()
    });
    assert_eq!(
        a.create(bad).unwrap_err().kubectl_message(),
        "The Pod \"q\" is invalid: metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"1e3\": must be a 32bit integer"
    );
}

#[test]
fn create_node_and_rc_through_api_server() {
    let mut a = api();
    let n = Object::Node(Node {
        metadata: ObjectMeta {
            name: "node-1".into(),
            ..Default::default()
        },
        spec: NodeSpec {
            taints: vec![
                Taint {
                    key: "dedicated".into(),
                    value: "gpu".into(),
                    effect: "NoSchedule".into(),
                    time_added: None,
                },
                Taint {
                    key: "dedicated".into(),
                    value: "cpu".into(),
                    effect: "NoSchedule".into(),
                    time_added: None,
                },
                Taint {
                    key: "x".into(),
                    value: String::new(),
                    effect: "Sometimes".into(),
                    time_added: None,
                },
            ],
            ..Default::default()
        },
        ..Default::default()
    });
    assert_eq!(
        a.create(n).unwrap_err().kubectl_message(),
        "The Node \"node-1\" is invalid: \n\
         * metadata.taints[1]: Duplicate value: {\"Key\":\"dedicated\",\"Value\":\"cpu\",\"Effect\":\"NoSchedule\",\"TimeAdded\":null}: taints must be unique by key and effect pair\n\
         * metadata.taints[2].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
    );
    // RC: selector and labels default from the template; a template without labels leaves the
    // selector empty.
    let rc = |labels_: Labels| {
        Object::ReplicationController(ReplicationController {
            metadata: ObjectMeta {
                name: "rc".into(),
                ..Default::default()
            },
            spec: ReplicationControllerSpec {
                replicas: None,
                min_ready_seconds: 0,
                selector: Labels::new(),
                template: Some(PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels: labels_.into(),
                        ..Default::default()
                    },
                    spec: std::sync::Arc::new(PodSpec {
                        containers: vec![ctr("c", "nginx")],
                        ..Default::default()
                    }),
                }),
            },
            ..Default::default()
        })
    };
    let created = a.create(rc(labels(&[("app", "rc")]))).unwrap();
    let Object::ReplicationController(c) = &created else {
        unreachable!()
    };
    assert_eq!(c.spec.selector, labels(&[("app", "rc")]));
    assert_eq!(c.metadata.labels, labels(&[("app", "rc")]));
    assert_eq!(c.spec.replicas, Some(1));
    let mut a2 = api();
    assert_eq!(
        a2.create(rc(Labels::new())).unwrap_err().kubectl_message(),
        "The ReplicationController \"rc\" is invalid: spec.selector: Required value"
    );
}

fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9.-]{0,70}",
        "[A-Za-z0-9._/-]{0,80}",
        any::<String>(),
        "\\PC{0,20}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// No name, label, annotation, selector, image or quantity makes validation or the API server
    /// panic, and validation is deterministic.
    #[test]
    fn validation_never_panics(
        name in arb_text(),
        gen in arb_text(),
        ns in arb_text(),
        lk in arb_text(),
        lv in arb_text(),
        ak in arb_text(),
        image in arb_text(),
        qty in arb_text(),
        cost in arb_text(),
        op in prop_oneof![Just("In".to_string()), Just("Exists".to_string()), arb_text()],
    ) {
        let mut t = tmpl(&[], vec![Container {
            resources: resources(&[("cpu", &qty)], &[(&lk, &qty)]),
            ..ctr(&name, &image)
        }]);
        t.metadata.labels.insert(lk.clone(), lv.clone());
        let mut o = rs_obj(&name, 1, labels(&[(&lk, &lv)]), t);
        if let Object::ReplicaSet(rs) = &mut o {
            rs.metadata.generate_name = gen.clone();
            rs.metadata.namespace = ns.clone();
            rs.metadata.annotations.insert(ak.clone(), cost.clone());
            rs.spec.selector.as_mut().unwrap().match_expressions = Some(vec![
                crate::api::LabelSelectorRequirement { key: lv.clone(), operator: op.clone(), values: Some(vec![lk.clone()]) },
            ]);
        }
        let a = validate_object(&o, None);
        let b = validate_object(&o, None);
        prop_assert_eq!(strs(&a), strs(&b));
        let _ = validate_object(&o, Some(&o));
        let _ = api().create(o.clone());

        let mut p = pod("p", spec_with(vec![ctr(&name, &image)]));
        p.metadata.name = name.clone();
        p.metadata.annotations.insert("controller.kubernetes.io/pod-deletion-cost".into(), cost.clone());
        p.metadata.annotations.insert(ak.clone(), lv.clone());
        p.spec_mut().node_selector.insert(lk.clone(), lv.clone());
        p.spec_mut().tolerations.push(tol(&lk, &op, &lv, &gen, None));
        let po = Object::Pod(p);
        let _ = validate_object(&po, None);
        let _ = validate_object(&po, Some(&po));
        let _ = api().create(po);

        let n = Object::Node(Node {
            metadata: ObjectMeta { name: name.clone(), ..Default::default() },
            spec: NodeSpec { taints: vec![Taint { key: lk.clone(), value: lv.clone(), effect: op.clone(), time_added: None }], ..Default::default() },
            ..Default::default()
        });
        let _ = api().create(n);
        let _ = super::quantity::parse_quantity(&qty).map(|q| q.canonical());
        let _ = crate::api::defaults::image_tag(&image);
        for e in a {
            let _ = e.to_string();
        }
    }
}

// generateName is validated as a prefix (a trailing dash is fine) and the generated name as a name.
#[test]
fn generate_name_through_api_server() {
    let mut a = api();
    let mut o = rs_obj(
        "",
        1,
        labels(&[("app", "web")]),
        tmpl(&[("app", "web")], vec![ctr("web", "nginx")]),
    );
    o.meta_mut().generate_name = "web-".into();
    let created = a.create(o.clone()).unwrap();
    assert!(created.meta().name.starts_with("web-") && created.meta().name.len() == 9);
    o.meta_mut().generate_name = "Web-".into();
    let err = a.create(o).unwrap_err();
    let msg = err.kubectl_message();
    let sub = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let name = err.name.clone();
    assert!(name.starts_with("Web-"));
    assert_eq!(
        msg,
        format!("The ReplicaSet \"{name}\" is invalid: \n* metadata.generateName: Invalid value: \"Web-\": {sub}\n* metadata.name: Invalid value: \"{name}\": {sub}")
    );
}

// Bad values print as apimachinery 1.34's ErrorBody does: %q for strings, JSON (HTML-safe, sorted
// map keys) for maps and lists.
#[test]
fn value_rendering() {
    use crate::api::errors::{go_json, go_quote};
    assert_eq!(
        go_quote("a\u{1}\t\"é\u{200b}\u{7f}"),
        "\"a\\x01\\t\\\"é\\u200b\\x7f\""
    );
    assert_eq!(go_quote("\u{1F600}"), "\"\u{1F600}\"");
    assert_eq!(
        go_json(&json!({"b": "<x&y>", "a": ["\u{2028}", 1, true, null]})),
        "{\"a\":[\"\\u2028\",1,true,null],\"b\":\"\\u003cx\\u0026y\\u003e\"}"
    );
    assert_eq!(
        FieldError::invalid("metadata.labels", "a\nb", "bad").to_string(),
        "metadata.labels: Invalid value: \"a\\nb\": bad"
    );
    assert_eq!(
        FieldError::not_supported("spec.x", "y", &["a\"b"]).to_string(),
        "spec.x: Unsupported value: \"y\": supported values: \"a\\\"b\""
    );
}

#[test]
fn field_path_helpers_print_as_field_path_does() {
    // field.Path: Child joins with '.', Index prints the decimal index, Key the key as is.
    assert_eq!(super::child("", "spec"), "spec");
    assert_eq!(super::child("spec", "containers"), "spec.containers");
    for (i, want) in [
        (0, "spec.containers[0]"),
        (7, "spec.containers[7]"),
        (10, "spec.containers[10]"),
        (1234567, "spec.containers[1234567]"),
        (usize::MAX, &*format!("spec.containers[{}]", usize::MAX)),
    ] {
        assert_eq!(super::idx("spec.containers", i), want);
    }
    assert_eq!(
        super::key("metadata.labels", "app/x"),
        "metadata.labels[app/x]"
    );
}
