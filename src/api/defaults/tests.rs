//! Defaulting tests: ports of `pkg/apis/core/v1/defaults_test.go` and `pkg/apis/apps/v1/defaults_test.go` rows.

use super::*;
use crate::api::core::{ContainerPort, Pod, Toleration};
use crate::api::ReplicationControllerSpec;
use crate::api::{Labels, Node, ObjectMeta, PodTemplateSpec, ReplicaSet, ReplicationController};
use serde_json::json;

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn ctr(image: &str) -> Container {
    Container {
        name: "c".into(),
        image: image.into(),
        ..Default::default()
    }
}

// Port of TestSetDefaultImagePullPolicy rows (SetDefaults_Container with parsers.ParseImageName).
#[test]
fn image_pull_policy_rows() {
    let digest = "a".repeat(64);
    let cases = [
        ("nginx", "Always"),
        ("nginx:latest", "Always"),
        ("nginx:1.25", "IfNotPresent"),
        ("library/nginx:latest", "Always"),
        ("docker.io/library/nginx", "Always"),
        ("registry.k8s.io/pause:3.9", "IfNotPresent"),
        ("localhost:5000/app", "Always"),
        ("localhost:5000/app:v1", "IfNotPresent"),
        ("[::1]:5000/app", "Always"),
        (&format!("nginx@sha256:{digest}"), "IfNotPresent"),
        (&format!("nginx:latest@sha256:{digest}"), "Always"),
        // Unparseable references default to IfNotPresent, as upstream ignores the parse error.
        ("Nginx", "IfNotPresent"),
        ("nginx:", "IfNotPresent"),
        ("", "IfNotPresent"),
        (&digest, "IfNotPresent"),
    ];
    for (image, want) in cases {
        let mut c = ctr(image);
        default_container(&mut c);
        assert_eq!(c.extra["imagePullPolicy"], json!(want), "{image}");
    }
    let mut c = ctr("nginx");
    c.extra.insert("imagePullPolicy".into(), json!("Never"));
    default_container(&mut c);
    assert_eq!(c.extra["imagePullPolicy"], json!("Never"));
}

// Port of TestSetDefaultContainer / TestSetDefaultProbe / TestSetDefaultObjectFieldSelectorAPIVersion.
#[test]
fn container_defaults() {
    let mut c = ctr("nginx:1.25");
    c.ports = vec![ContainerPort {
        container_port: 80,
        ..Default::default()
    }];
    c.extra.insert(
        "livenessProbe".into(),
        json!({"httpGet": {"port": 80}, "periodSeconds": 5}),
    );
    c.extra.insert(
        "env".into(),
        json!([{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]),
    );
    c.extra.insert(
        "lifecycle".into(),
        json!({"preStop": {"httpGet": {"port": 8080, "path": "/stop"}}}),
    );
    default_container(&mut c);
    assert_eq!(c.ports[0].protocol.as_deref(), Some("TCP"));
    assert_eq!(
        c.extra["terminationMessagePath"],
        json!("/dev/termination-log")
    );
    assert_eq!(c.extra["terminationMessagePolicy"], json!("File"));
    assert_eq!(
        c.extra["livenessProbe"],
        json!({"httpGet": {"port": 80, "path": "/", "scheme": "HTTP"}, "periodSeconds": 5,
               "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3})
    );
    assert_eq!(
        c.extra["env"][0]["valueFrom"]["fieldRef"]["apiVersion"],
        json!("v1")
    );
    assert_eq!(
        c.extra["lifecycle"]["preStop"]["httpGet"],
        json!({"port": 8080, "path": "/stop", "scheme": "HTTP"})
    );
    assert_eq!(c.resources, Some(ResourceRequirements::default()));
    // Defaulting is idempotent.
    let once = c.clone();
    default_container(&mut c);
    assert_eq!(c, once);
}

// Port of TestSetDefaultPodSpec / TestSetDefaultVolume / TestSetDefaultSecretVolumeSource.
#[test]
fn pod_spec_defaults() {
    let mut s = PodSpec {
        containers: vec![ctr("nginx")],
        ..Default::default()
    };
    s.extra.insert(
        "volumes".into(),
        json!([{"name": "scratch"}, {"name": "cfg", "configMap": {"name": "x"}},
               {"name": "tok", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}},
               {"name": "h", "hostPath": {"path": "/var"}}]),
    );
    default_pod_spec(&mut s);
    assert_eq!(s.restart_policy, "Always");
    assert_eq!(s.extra["dnsPolicy"], json!("ClusterFirst"));
    assert_eq!(s.extra["securityContext"], json!({}));
    assert_eq!(s.termination_grace_period_seconds, Some(30));
    assert_eq!(s.scheduler_name, "default-scheduler");
    assert_eq!(
        s.extra["volumes"],
        json!([{"name": "scratch", "emptyDir": {}}, {"name": "cfg", "configMap": {"name": "x", "defaultMode": 420}},
               {"name": "tok", "projected": {"defaultMode": 420, "sources": [{"serviceAccountToken": {"path": "t", "expirationSeconds": 3600}}]}},
               {"name": "h", "hostPath": {"path": "/var", "type": ""}}])
    );
    // Set values are kept.
    let mut s = PodSpec {
        restart_policy: "Never".into(),
        termination_grace_period_seconds: Some(0),
        scheduler_name: "mine".into(),
        ..Default::default()
    };
    s.extra.insert("dnsPolicy".into(), json!("None"));
    default_pod_spec(&mut s);
    assert_eq!(s.restart_policy, "Never");
    assert_eq!(s.termination_grace_period_seconds, Some(0));
    assert_eq!(s.scheduler_name, "mine");
    assert_eq!(s.extra["dnsPolicy"], json!("None"));
}

// Port of TestSetDefaultRequestsPod / TestSetDefaultResourceRequirements: requests default to
// limits on pods only, quantities are rounded to milli precision and stored canonically.
// Upstream: TestDefaultRequestIsNotSetForReplicaSet (pkg/apis/apps/v1/defaults_test.go) is the
// ReplicaSet half below: a limits-only container in a ReplicaSet template gets no request.
#[test]
fn pod_requests_default_to_limits() {
    let c = Container {
        resources: Some(ResourceRequirements {
            requests: [("memory".to_string(), Quantity("64Mi".into()))].into(),
            limits: [
                ("cpu".to_string(), Quantity("0.1n".into())),
                ("memory".to_string(), Quantity("1024Mi".into())),
            ]
            .into(),
        }),
        ..ctr("nginx")
    };
    let mut pod = Object::Pod(Pod {
        spec: std::sync::Arc::new(PodSpec {
            containers: vec![c.clone()],
            ..Default::default()
        }),
        ..Default::default()
    });
    default_object(&mut pod);
    let Object::Pod(p) = &pod else { unreachable!() };
    let r = p.spec.containers[0].resources.as_ref().unwrap();
    assert_eq!(r.limits["cpu"].0, "1m");
    assert_eq!(r.limits["memory"].0, "1Gi");
    assert_eq!(r.requests["cpu"].0, "1m");
    assert_eq!(r.requests["memory"].0, "64Mi");
    assert_eq!(p.spec.extra["enableServiceLinks"], json!(true));
    assert_eq!(p.status.qos_class, "Burstable");

    let mut rs = Object::ReplicaSet(ReplicaSet {
        spec: (crate::api::ReplicaSetSpec {
            template: std::sync::Arc::new(PodTemplateSpec {
                metadata: ObjectMeta::default(),
                spec: std::sync::Arc::new(PodSpec {
                    containers: vec![c],
                    ..Default::default()
                }),
            }),
            ..Default::default()
        })
        .into(),
        ..Default::default()
    });
    default_object(&mut rs);
    let Object::ReplicaSet(rs) = &rs else {
        unreachable!()
    };
    assert_eq!(rs.spec.replicas, Some(1));
    let r = rs.spec.template.spec.containers[0]
        .resources
        .as_ref()
        .unwrap();
    assert!(!r.requests.contains_key("cpu"));
    assert!(!rs
        .spec
        .template
        .spec
        .extra
        .contains_key("enableServiceLinks"));
}

#[test]
fn host_network_ports_default_on_pods() {
    let mut pod = Object::Pod(Pod {
        spec: std::sync::Arc::new(PodSpec {
            containers: vec![Container {
                ports: vec![ContainerPort {
                    container_port: 8080,
                    ..Default::default()
                }],
                ..ctr("nginx")
            }],
            ..Default::default()
        }),
        ..Default::default()
    });
    if let Object::Pod(p) = &mut pod {
        p.spec_mut().extra.insert("hostNetwork".into(), json!(true));
    }
    default_object(&mut pod);
    let Object::Pod(p) = &pod else { unreachable!() };
    assert_eq!(p.spec.containers[0].ports[0].extra["hostPort"], json!(8080));
}

// Port of TestSetDefaultReplicationControllerReplicas / ...Selector / ...Labels.
#[test]
fn replication_controller_defaults() {
    let rc = |selector: Labels, own: Labels, replicas: Option<i32>| {
        Object::ReplicationController(ReplicationController {
            metadata: ObjectMeta {
                labels: own.into(),
                ..Default::default()
            },
            spec: ReplicationControllerSpec {
                replicas,
                min_ready_seconds: 0,
                selector,
                template: Some(PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels: labels(&[("foo", "bar")]).into(),
                        ..Default::default()
                    },
                    spec: std::sync::Arc::new(PodSpec::default()),
                }),
            },
            ..Default::default()
        })
    };
    let cases = [
        (
            rc(Labels::new(), Labels::new(), None),
            labels(&[("foo", "bar")]),
            labels(&[("foo", "bar")]),
            1,
        ),
        (
            rc(labels(&[("some", "other")]), Labels::new(), Some(0)),
            labels(&[("some", "other")]),
            labels(&[("foo", "bar")]),
            0,
        ),
        (
            rc(Labels::new(), labels(&[("own", "x")]), Some(3)),
            labels(&[("foo", "bar")]),
            labels(&[("own", "x")]),
            3,
        ),
    ];
    for (mut o, sel, own, replicas) in cases {
        default_object(&mut o);
        let Object::ReplicationController(c) = &o else {
            unreachable!()
        };
        assert_eq!(c.spec.selector, sel);
        assert_eq!(c.metadata.labels, own);
        assert_eq!(c.spec.replicas, Some(replicas));
        assert_eq!(
            c.spec.template.as_ref().unwrap().spec.restart_policy,
            "Always"
        );
    }
}

// Port of TestSetDefaultNodeStatusAllocatable.
#[test]
fn node_status_defaults() {
    let mut n = Object::Node(Node::default());
    if let Object::Node(n) = &mut n {
        n.status
            .capacity
            .insert("cpu".into(), Quantity("1000m".into()));
        n.status
            .capacity
            .insert("memory".into(), Quantity("2048Mi".into()));
    }
    default_object(&mut n);
    let Object::Node(node) = &n else {
        unreachable!()
    };
    assert_eq!(node.status.allocatable["cpu"].0, "1");
    assert_eq!(node.status.allocatable["memory"].0, "2Gi");
    assert_eq!(node.status.capacity["memory"].0, "2Gi");
    // A given allocatable is kept.
    let mut n = Object::Node(Node::default());
    if let Object::Node(n) = &mut n {
        n.status.capacity.insert("cpu".into(), Quantity("4".into()));
        n.status
            .allocatable
            .insert("cpu".into(), Quantity("3".into()));
    }
    default_object(&mut n);
    let Object::Node(node) = &n else {
        unreachable!()
    };
    assert_eq!(node.status.allocatable["cpu"].0, "3");
}

// DefaultTolerationSeconds admission (plugin/pkg/admission/defaulttolerationseconds TestForgivenessAdmission).
#[test]
fn default_toleration_seconds_rows() {
    let t = |k: &str, e: &str, s: Option<i64>| Toleration {
        key: k.into(),
        operator: "Exists".into(),
        value: String::new(),
        effect: e.into(),
        toleration_seconds: s,
    };
    let nr = t(TAINT_NODE_NOT_READY, "NoExecute", Some(300));
    let ur = t(TAINT_NODE_UNREACHABLE, "NoExecute", Some(300));
    let cases = [
        (vec![], vec![nr.clone(), ur.clone()]),
        (
            vec![t(TAINT_NODE_NOT_READY, "NoExecute", Some(700))],
            vec![t(TAINT_NODE_NOT_READY, "NoExecute", Some(700)), ur.clone()],
        ),
        (
            vec![t(TAINT_NODE_UNREACHABLE, "", None)],
            vec![t(TAINT_NODE_UNREACHABLE, "", None), nr.clone()],
        ),
        // Tolerating everything needs nothing added.
        (vec![t("", "", None)], vec![t("", "", None)]),
        // A NoSchedule toleration does not count.
        (
            vec![t(TAINT_NODE_NOT_READY, "NoSchedule", None)],
            vec![
                t(TAINT_NODE_NOT_READY, "NoSchedule", None),
                nr.clone(),
                ur.clone(),
            ],
        ),
    ];
    for (given, want) in cases {
        let mut s = PodSpec {
            tolerations: given,
            ..Default::default()
        };
        admit_pod_create(&mut s);
        assert_eq!(s.tolerations, want);
    }
}

#[test]
fn priority_and_service_account_admission() {
    let mut s = PodSpec::default();
    admit_pod_create(&mut s);
    assert_eq!(s.priority, Some(0));
    assert_eq!(s.extra["preemptionPolicy"], json!("PreemptLowerPriority"));
    assert_eq!(s.extra["serviceAccountName"], json!("default"));
    assert_eq!(s.extra["serviceAccount"], json!("default"));
    let mut s = PodSpec::default();
    s.extra
        .insert("priorityClassName".into(), json!("system-node-critical"));
    s.extra.insert("serviceAccountName".into(), json!("robot"));
    admit_pod_create(&mut s);
    assert_eq!(s.priority, Some(2_000_001_000));
    assert_eq!(s.extra["serviceAccount"], json!("robot"));
}

#[test]
fn prepare_for_create_clears_status() {
    let mut o = Object::ReplicaSet(ReplicaSet::default());
    if let Object::ReplicaSet(rs) = &mut o {
        rs.status.replicas = 5;
    }
    prepare_for_create(&mut o);
    let Object::ReplicaSet(rs) = &o else {
        unreachable!()
    };
    assert_eq!(rs.status.replicas, 0);
    let mut p = Object::Pod(Pod::default());
    if let Object::Pod(p) = &mut p {
        p.status.phase = "Running".into();
    }
    prepare_for_create(&mut p);
    let Object::Pod(p) = &p else { unreachable!() };
    assert_eq!(p.status.phase, "Pending");
    assert_eq!(p.status.qos_class, "BestEffort");
}

// Port of TestComputePodQOS (pkg/apis/core/helper/qos/qos_test.go) rows.
#[test]
fn qos_rows() {
    let c = |req: &[(&str, &str)], lim: &[(&str, &str)]| Container {
        resources: Some(ResourceRequirements {
            requests: req
                .iter()
                .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
                .collect(),
            limits: lim
                .iter()
                .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
                .collect(),
        }),
        ..ctr("x")
    };
    let spec = |cs: Vec<Container>| PodSpec {
        containers: cs,
        ..Default::default()
    };
    let cases = [
        (spec(vec![c(&[], &[])]), "BestEffort"),
        (
            spec(vec![c(&[("ephemeral-storage", "1Gi")], &[])]),
            "BestEffort",
        ),
        (spec(vec![c(&[("cpu", "0")], &[])]), "BestEffort"),
        (
            spec(vec![c(
                &[("cpu", "100m"), ("memory", "100Mi")],
                &[("cpu", "100m"), ("memory", "100Mi")],
            )]),
            "Guaranteed",
        ),
        (
            spec(vec![c(&[], &[("cpu", "100m"), ("memory", "100Mi")])]),
            "Guaranteed",
        ),
        (
            spec(vec![c(
                &[("cpu", "100m")],
                &[("cpu", "100m"), ("memory", "100Mi")],
            )]),
            "Guaranteed",
        ),
        (
            spec(vec![c(
                &[("cpu", "100m"), ("memory", "100Mi")],
                &[("cpu", "200m"), ("memory", "100Mi")],
            )]),
            "Burstable",
        ),
        (
            spec(vec![c(&[("cpu", "100m")], &[("cpu", "100m")])]),
            "Burstable",
        ),
        (
            spec(vec![
                c(&[], &[("cpu", "100m"), ("memory", "100Mi")]),
                c(&[("cpu", "1")], &[]),
            ]),
            "Burstable",
        ),
    ];
    for (s, want) in cases {
        assert_eq!(qos_class(&s), want, "{:?}", s.containers);
    }
    // Init containers count too.
    let mut s = spec(vec![c(&[], &[("cpu", "1"), ("memory", "1Gi")])]);
    s.init_containers = vec![c(&[("memory", "1Mi")], &[])];
    assert_eq!(qos_class(&s), "Burstable");
}

// Upstream: TestSetDefaultReplicaSetReplicas (pkg/apis/apps/v1/defaults_test.go):
// (spec.replicas, defaulted replicas).
#[test]
fn replica_set_replicas_rows() {
    for (replicas, want) in [(None, 1), (Some(0), 0), (Some(3), 3)] {
        let mut rs = Object::ReplicaSet(ReplicaSet {
            spec: (crate::api::ReplicaSetSpec {
                replicas,
                template: std::sync::Arc::new(PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels: labels(&[("foo", "bar")]).into(),
                        ..Default::default()
                    },
                    spec: Default::default(),
                }),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        });
        default_object(&mut rs);
        let Object::ReplicaSet(rs) = &rs else {
            unreachable!()
        };
        assert_eq!(rs.spec.replicas, Some(want), "{replicas:?}");
    }
}

// Upstream: TestDefaultDeploymentAvailability (pkg/apis/apps/v1/defaults_test.go): the default
// maxUnavailable (25%, rounded down) leaves a defaulted Deployment (1 replica) available.
#[test]
fn default_deployment_availability() {
    let mut d = Object::Deployment(crate::api::Deployment::default());
    default_object(&mut d);
    let Object::Deployment(d) = &d else {
        unreachable!()
    };
    let replicas = d.spec.replicas.unwrap();
    let max_unavailable = d
        .spec
        .strategy
        .rolling_update
        .as_ref()
        .and_then(|r| r.max_unavailable.clone())
        .unwrap();
    let v = crate::api::intstr::get_scaled_value_from_int_or_percent(
        Some(&max_unavailable),
        replicas,
        false,
    )
    .unwrap();
    assert!(
        replicas - v > 0,
        "the default value of maxUnavailable can lead to no active replicas during rolling update"
    );
}

/// A pod object with one container and nothing defaulted.
fn pod_with(c: Container) -> Object {
    Object::Pod(Pod {
        spec: Arc::new(PodSpec {
            containers: vec![c],
            ..Default::default()
        }),
        ..Default::default()
    })
}

/// Defaulting a pod whose spec is shared with its stored version keeps the shared pointer when
/// nothing changes (every update of a stored pod), and copies the spec when defaults apply.
#[test]
fn pod_defaulting_keeps_a_defaulted_shared_spec() {
    let mut stored = pod_with(ctr("nginx:1.25"));
    default_object(&mut stored);
    let Object::Pod(stored_pod) = &stored else {
        unreachable!()
    };
    assert_eq!(stored_pod.spec.restart_policy, "Always");

    // An update resending the stored spec: same pointer afterwards.
    let mut update = stored.clone();
    default_object(&mut update);
    let Object::Pod(updated) = &update else {
        unreachable!()
    };
    assert!(Arc::ptr_eq(&updated.spec, &stored_pod.spec));

    // A shared spec that still needs defaults is copied, and the other holder is untouched.
    let bare = Arc::new(PodSpec {
        containers: vec![ctr("nginx:1.25")],
        ..Default::default()
    });
    let mut p = Object::Pod(Pod {
        spec: bare.clone(),
        ..Default::default()
    });
    default_object(&mut p);
    let Object::Pod(p) = &p else { unreachable!() };
    assert!(!Arc::ptr_eq(&p.spec, &bare));
    assert_eq!(p.spec.restart_policy, "Always");
    assert_eq!(bare.restart_policy, "");
    assert_eq!(*p.spec, *stored_pod.spec);
}

/// An update that resends the stored pod's spec skips spec defaulting and keeps the pointer;
/// an update with a new spec is defaulted.
#[test]
fn pod_update_defaulting_skips_the_stored_spec() {
    let mut stored = pod_with(ctr("nginx:1.25"));
    default_object(&mut stored);
    let mut update = stored.clone();
    default_object_for_update(&mut update, &stored);
    let (Object::Pod(u), Object::Pod(s)) = (&update, &stored) else {
        unreachable!()
    };
    assert!(Arc::ptr_eq(&u.spec, &s.spec));
    assert_eq!(u.status.qos_class, "BestEffort");

    let mut changed = pod_with(ctr("nginx:1.26"));
    default_object_for_update(&mut changed, &stored);
    let Object::Pod(c) = &changed else {
        unreachable!()
    };
    assert_eq!(c.spec.restart_policy, "Always");
    assert_eq!(
        c.spec.containers[0].extra["imagePullPolicy"],
        "IfNotPresent"
    );
}
