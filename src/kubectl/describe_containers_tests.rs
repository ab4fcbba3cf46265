//! Upstream: TestDescribeContainers (staging/src/k8s.io/kubectl/pkg/describe/describe_test.go,
//! kubectl 1.34), all twenty cases, against the text `describeContainers` writes before the
//! tab writer lays it out (upstream inspects the PrefixWriter's raw buffer too).

use super::{describe_containers, Writer};
use crate::api::{Container, ContainerStatus, Pod, PodSpec, PodStatus};
use serde_json::{json, Value};

fn raw(container: Value, status: Value) -> String {
    let c: Container = serde_json::from_value(container).unwrap();
    let s: ContainerStatus = serde_json::from_value(status).unwrap();
    let pod = Pod {
        spec: std::sync::Arc::new(PodSpec {
            containers: vec![c.clone()],
            ..Default::default()
        }),
        status: (PodStatus {
            container_statuses: vec![s.clone()],
            ..Default::default()
        })
        .into(),
        ..Default::default()
    };
    let mut w = Writer::new();
    describe_containers(&mut w, "Containers", &[c], &[s], Some(&pod), "");
    w.pending
}

const NOW: &str = "2025-01-01T01:00:00Z";
const BASE: &[&str] = &[
    "test",
    "State",
    "Ready",
    "True",
    "Restart Count",
    "7",
    "Image",
    "image",
];

fn status(extra: Value) -> Value {
    let mut s = json!({"name": "test", "ready": true, "restartCount": 7});
    if let (Some(m), Value::Object(e)) = (s.as_object_mut(), extra) {
        m.extend(e);
    }
    s
}

fn container(extra: Value) -> Value {
    let mut c = json!({"name": "test", "image": "image"});
    if let (Some(m), Value::Object(e)) = (c.as_object_mut(), extra) {
        m.extend(e);
    }
    c
}

#[test]
fn describe_containers_cases() {
    let env =
        |from: Value| json!({"env": [{"name": "envname", "value": "xyz"}], "envFrom": [from]});
    let cases: Vec<(&str, Value, Value, Vec<&str>)> = vec![
        (
            "running",
            container(json!({})),
            status(json!({"state": {"running": {"startedAt": NOW}}})),
            vec!["Running", "Started"],
        ),
        (
            "waiting",
            container(json!({})),
            status(json!({"state": {"waiting": {"reason": "potato"}}})),
            vec!["Waiting", "Reason", "potato"],
        ),
        (
            "terminated",
            container(json!({})),
            status(
                json!({"state": {"terminated": {"startedAt": NOW, "finishedAt": NOW,
                "reason": "potato", "exitCode": 2}}}),
            ),
            vec![
                "Terminated",
                "Reason",
                "potato",
                "Started",
                "Finished",
                "Exit Code",
                "2",
            ],
        ),
        (
            "last terminated",
            container(json!({})),
            status(json!({"state": {"running": {"startedAt": NOW}},
                "lastState": {"terminated": {"startedAt": "2025-01-01T01:00:03Z",
                    "finishedAt": NOW, "reason": "crashing", "exitCode": 3}}})),
            vec![
                "Terminated",
                "Started",
                "Finished",
                "Exit Code",
                "2",
                "crashing",
                "3",
            ],
        ),
        (
            "no state defaults to waiting",
            container(json!({})),
            status(json!({})),
            vec!["Waiting"],
        ),
        (
            "env configmap",
            container(env(json!({"configMapRef": {"name": "a123"}}))),
            status(json!({})),
            vec![
                "Waiting",
                "envname",
                "xyz",
                "a123\tConfigMap\tOptional: false",
            ],
        ),
        (
            "env configmap prefix",
            container(env(
                json!({"prefix": "p_", "configMapRef": {"name": "a123"}}),
            )),
            status(json!({})),
            vec![
                "Waiting",
                "envname",
                "xyz",
                "a123\tConfigMap with prefix 'p_'\tOptional: false",
            ],
        ),
        (
            "env configmap optional",
            container(env(
                json!({"configMapRef": {"name": "a123", "optional": true}}),
            )),
            status(json!({})),
            vec![
                "Waiting",
                "envname",
                "xyz",
                "a123\tConfigMap\tOptional: true",
            ],
        ),
        (
            "env secret optional",
            container(env(
                json!({"secretRef": {"name": "a123", "optional": true}}),
            )),
            status(json!({})),
            vec!["Waiting", "envname", "xyz", "a123\tSecret\tOptional: true"],
        ),
        (
            "env secret prefix",
            container(env(json!({"prefix": "p_", "secretRef": {"name": "a123"}}))),
            status(json!({})),
            vec![
                "Waiting",
                "envname",
                "xyz",
                "a123\tSecret with prefix 'p_'\tOptional: false",
            ],
        ),
        (
            "command",
            container(json!({"command": ["sleep", "1000"]})),
            status(json!({})),
            vec!["Waiting", "sleep", "1000"],
        ),
        (
            "command with newline",
            container(json!({"command": ["sleep", "1000\n2000"]})),
            status(json!({})),
            vec!["1000\n      2000"],
        ),
        (
            "args",
            container(json!({"args": ["time", "1000"]})),
            status(json!({})),
            vec!["Waiting", "time", "1000"],
        ),
        (
            "args with newline",
            container(json!({"args": ["time", "1000\n2000"]})),
            status(json!({})),
            vec!["1000\n      2000"],
        ),
        (
            "limits",
            container(json!({"resources": {"limits":
                {"cpu": "1000", "memory": "4G", "storage": "20G"}}})),
            status(json!({})),
            vec!["cpu", "1k", "memory", "4G", "storage", "20G"],
        ),
        (
            "requests",
            container(json!({"resources": {"requests":
                {"cpu": "1000", "memory": "4G", "storage": "20G"}}})),
            status(json!({})),
            vec!["cpu", "1k", "memory", "4G", "storage", "20G"],
        ),
        (
            "volumeMounts read/write",
            container(json!({"volumeMounts":
                [{"name": "mounted-volume", "mountPath": "/opt/"}]})),
            status(json!({})),
            vec!["mounted-volume", "/opt/", "(rw)"],
        ),
        (
            "volumeMounts readonly",
            container(json!({"volumeMounts":
                [{"name": "mounted-volume", "mountPath": "/opt/", "readOnly": true}]})),
            status(json!({})),
            vec!["Mounts", "mounted-volume", "/opt/", "(ro)"],
        ),
        (
            "volumeMounts subPath",
            container(json!({"volumeMounts":
                [{"name": "mounted-volume", "mountPath": "/opt/", "subPath": "foo"}]})),
            status(json!({})),
            vec!["Mounts", "mounted-volume", "/opt/", "(rw,path=\"foo\")"],
        ),
        (
            "volumeDevices",
            container(json!({"volumeDevices":
                [{"name": "volume-device", "devicePath": "/dev/xvda"}]})),
            status(json!({})),
            vec!["Devices", "volume-device", "/dev/xvda"],
        ),
    ];
    for (i, (name, c, s, wants)) in cases.into_iter().enumerate() {
        let out = raw(c, s);
        // Upstream's cases up to "args", except "command with newline", also list the
        // common elements (name, state, readiness, restarts, image).
        let common: &[&str] = if matches!(i, 11 | 13) || i >= 14 {
            &[]
        } else {
            BASE
        };
        for want in common.iter().chain(wants.iter()) {
            assert!(out.contains(want), "{name}: {want:?} not in\n{out:?}");
        }
    }
}

// Upstream: TestDescribeContainerPorts (describe_test.go, kubectl 1.34), all five cases.
// Upstream calls describeContainerPorts / describeContainerHostPorts directly; kubeplay
// builds those strings inside describe_containers, so the test reads them off the "Port(s):"
// and "Host Port(s):" lines (the caller prints "<none>" for the empty string, and the
// plural title when the list has a comma).
#[test]
fn describe_container_ports() {
    let cases = [
        ("no ports", json!([]), "", ""),
        (
            "container and host port, with name",
            json!([{"name": "web", "containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}]),
            "8080/TCP (web)",
            "8080/TCP (web)",
        ),
        (
            "container and host port, no name",
            json!([{"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}]),
            "8080/TCP",
            "8080/TCP",
        ),
        (
            "multiple ports with mixed configuration",
            json!([
                {"name": "controller", "containerPort": 9093, "hostPort": 9093, "protocol": "TCP"},
                {"containerPort": 9092, "protocol": "TCP"},
                {"name": "interbroker", "containerPort": 9094, "hostPort": 9094, "protocol": "TCP"}
            ]),
            "9093/TCP (controller), 9092/TCP, 9094/TCP (interbroker)",
            "9093/TCP (controller), 0/TCP, 9094/TCP (interbroker)",
        ),
        (
            "all ports with mixed configuration",
            json!([
                {"name": "controller", "containerPort": 9093, "hostPort": 9093, "protocol": "TCP"},
                {"name": "client", "containerPort": 9092, "hostPort": 9092, "protocol": "TCP"},
                {"name": "interbroker", "containerPort": 9094, "hostPort": 9094, "protocol": "TCP"}
            ]),
            "9093/TCP (controller), 9092/TCP (client), 9094/TCP (interbroker)",
            "9093/TCP (controller), 9092/TCP (client), 9094/TCP (interbroker)",
        ),
    ];
    let line = |title: &str, v: &str| {
        if v.is_empty() {
            format!("    {title}:\t<none>\n")
        } else if v.contains(',') {
            format!("    {title}s:\t{v}\n")
        } else {
            format!("    {title}:\t{v}\n")
        }
    };
    for (name, ports, want_container, want_host) in cases {
        let out = raw(container(json!({"ports": ports})), status(json!({})));
        for want in [line("Port", want_container), line("Host Port", want_host)] {
            assert!(out.contains(&want), "{name}: {want:?} not in\n{out:?}");
        }
    }
}

// Upstream: TestPrintLabelsMultiline (describe_test.go), all six cases, against
// printAnnotationsMultiline's raw output.
#[test]
fn print_labels_multiline() {
    use std::collections::BTreeMap;
    let key = "MaxLenAnnotation";
    let max_annotation_len = 140;
    let value = "a".repeat(max_annotation_len - key.len() - 2);
    let m = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let cases = [
        (
            m(&[("col1", "asd"), ("COL2", "zxc")]),
            "Annotations:\tCOL2: zxc\n\tcol1: asd\n".to_string(),
        ),
        (
            m(&[(key, &value)]),
            format!("Annotations:\t{key}: {value}\n"),
        ),
        (
            m(&[(key, &format!("{value}1"))]),
            format!("Annotations:\t{key}:\n\t  {value}1\n"),
        ),
        (
            m(&[(key, &format!("{value}{value}"))]),
            format!(
                "Annotations:\t{key}:\n\t  {}...\n",
                "a".repeat(max_annotation_len - 2)
            ),
        ),
        (
            m(&[("key", "value\nwith\nnewlines\n")]),
            "Annotations:\tkey:\n\t  value\n\t  with\n\t  newlines\n".to_string(),
        ),
        (m(&[]), "Annotations:\t<none>\n".to_string()),
    ];
    for (i, (annotations, want)) in cases.into_iter().enumerate() {
        let mut w = Writer::new();
        super::print_annotations_multiline(&mut w, "Annotations", &annotations);
        assert_eq!(w.pending, want, "case {i}");
    }
}

// Upstream: TestDescribeResources (describe_test.go), all four cases. Upstream counts
// occurrences in describeResources' output alone; kubeplay writes the resources inside
// describe_containers, so the counts are taken over the whole (raw) container block, whose
// other lines contain none of the counted words.
#[test]
fn describe_resources() {
    let both = json!({"cpu": "1000", "memory": "100Mi"});
    let cases: [(Value, &[(&str, usize)]); 4] = [
        (json!({}), &[]),
        (
            json!({"requests": both.clone(), "limits": both.clone()}),
            &[
                ("cpu", 2),
                ("memory", 2),
                ("Requests", 1),
                ("Limits", 1),
                ("1k", 2),
                ("100Mi", 2),
            ],
        ),
        (
            json!({"limits": both.clone()}),
            &[
                ("cpu", 1),
                ("memory", 1),
                ("Limits", 1),
                ("1k", 1),
                ("100Mi", 1),
            ],
        ),
        (
            json!({"requests": both}),
            &[
                ("cpu", 1),
                ("memory", 1),
                ("Requests", 1),
                ("1k", 1),
                ("100Mi", 1),
            ],
        ),
    ];
    for (i, (resources, want)) in cases.into_iter().enumerate() {
        let out = raw(
            container(json!({"resources": resources})),
            status(json!({})),
        );
        for (key, n) in want {
            assert_eq!(
                out.matches(key).count(),
                *n,
                "case {i}: {key:?} in\n{out:?}"
            );
        }
    }
}
