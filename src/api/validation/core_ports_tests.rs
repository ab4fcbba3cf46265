//! Table ports of upstream core validation tests (pkg/apis/core/validation/validation_test.go)
//! for the PodSpec fields kubeplay models. Pods are built like upstream's `podtest.MakePod`
//! (pkg/api/pod/testing/make.go): one container `ctr` with image `image`, imagePullPolicy
//! `IfNotPresent`, terminationMessagePolicy `File`; dnsPolicy `ClusterFirst`, restartPolicy
//! `Always`, terminationGracePeriodSeconds 30, namespace `default`.
//!
//! Upstream's tables assert that `errs.ToAggregate().Error()` contains a substring; the
//! ports do the same on [`aggregate`].

use super::pod::{validate_pod_create, validate_pod_update};
use crate::api::core::{
    Affinity, Container, ContainerPort, NodeAffinity, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, Pod, PodSpec, Quantity, ResourceRequirements, Toleration,
};
use crate::api::errors::FieldError;
use crate::api::{ObjectMeta, Time};
use crate::test_fixtures::tol_secs as tol;
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `podtest.MakeContainer`.
fn make_container(name: &str) -> Container {
    let mut c = Container {
        name: name.into(),
        image: "image".into(),
        ..Default::default()
    };
    c.extra
        .insert("imagePullPolicy".into(), json!("IfNotPresent"));
    c.extra
        .insert("terminationMessagePolicy".into(), json!("File"));
    c.extra.insert(
        "terminationMessagePath".into(),
        json!("/dev/termination-log"),
    );
    c
}

fn container_image(name: &str, image: &str) -> Container {
    Container {
        image: image.into(),
        ..make_container(name)
    }
}

/// `podtest.MakePod` followed by the given tweak.
fn make_pod(name: &str, tweak: impl FnOnce(&mut Pod)) -> Pod {
    let mut spec = PodSpec {
        containers: vec![make_container("ctr")],
        restart_policy: "Always".into(),
        termination_grace_period_seconds: Some(30),
        ..Default::default()
    };
    spec.extra.insert("dnsPolicy".into(), json!("ClusterFirst"));
    let mut p = Pod {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: Arc::new(spec),
        ..Default::default()
    };
    tweak(&mut p);
    p
}

fn plain(name: &str) -> Pod {
    make_pod(name, |_| {})
}

/// `field.ErrorList.ToAggregate().Error()`: duplicates dropped, one message as is, several in
/// brackets joined by ", ".
fn aggregate(errs: Vec<FieldError>) -> String {
    let msgs: Vec<String> = super::dedupe(errs).iter().map(|e| e.to_string()).collect();
    match msgs.len() {
        1 => msgs[0].clone(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

/// `getResources(cpu, memory, storage, "")`.
fn get_resources(cpu: &str, memory: &str, storage: &str) -> BTreeMap<String, Quantity> {
    [
        ("cpu", cpu),
        ("memory", memory),
        ("ephemeral-storage", storage),
    ]
    .into_iter()
    .filter(|(_, v)| !v.is_empty())
    .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
    .collect()
}

fn with_resources(
    limits: BTreeMap<String, Quantity>,
    requests: BTreeMap<String, Quantity>,
) -> impl FnOnce(&mut Pod) {
    move |p: &mut Pod| {
        let mut c = make_container("container");
        c.resources = Some(ResourceRequirements { requests, limits });
        p.spec_mut().containers = vec![c];
    }
}

fn none() -> BTreeMap<String, Quantity> {
    BTreeMap::new()
}

fn expr(key: &str, values: &[&str]) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator: "In".into(),
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

/// An affinity with only required node affinity.
fn required_affinity(terms: Vec<NodeSelectorTerm>) -> Affinity {
    Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: terms,
            }),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn term(exprs: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: exprs,
        match_fields: vec![],
    }
}

fn gate(p: &mut Pod, names: &[&str]) {
    let gates: Vec<_> = names.iter().map(|n| json!({ "name": n })).collect();
    p.spec_mut()
        .extra
        .insert("schedulingGates".into(), json!(gates));
}

fn node_selector(p: &mut Pod, pairs: &[(&str, &str)]) {
    p.spec_mut().node_selector = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
}

fn now() -> Option<Time> {
    Some(Time::from_unix_secs(1_700_000_000))
}

// Port of TestValidatePodUpdate (pkg/apis/core/validation/validation_test.go): every row whose
// fields kubeplay models, with upstream's expected substring ("" = no error).
//
// Rows not ported:
// - "pod OS changing from Linux to Windows ..., we'd get SELinux errors as well": OS-specific
//   securityContext rules are not validated (securityContext is kept verbatim).
// - "removed nodeName from pod spec": kubeplay has no pods/binding subresource, so setting
//   nodeName on an unbound pod is its binding and is accepted (asserted separately below).
// - The second, identical "preferredDuringSchedulingIgnoredDuringExecution can have removals for
//   gated pods" row (listed twice upstream; ported once).
#[test]
fn validate_pod_update_table() {
    let ads = |v: i64| move |p: &mut Pod| p.spec_mut().active_deadline_seconds = Some(v);
    let gated_required = |values: &'static [&'static str]| {
        move |p: &mut Pod| {
            p.spec_mut().affinity = Some(required_affinity(vec![term(vec![expr("expr", values)])]));
            gate(p, &["baz"]);
        }
    };
    let preferred_gated = |terms: serde_json::Value| {
        move |p: &mut Pod| {
            let mut na = NodeAffinity::default();
            na.extra.insert(
                "preferredDuringSchedulingIgnoredDuringExecution".into(),
                terms,
            );
            p.spec_mut().affinity = Some(Affinity {
                node_affinity: Some(na),
                ..Default::default()
            });
            gate(p, &["baz"]);
        }
    };
    let forbidden = "spec: Forbidden: pod updates may not change fields";
    let other_than =
        "Forbidden: pod updates may not change fields other than `spec.containers[*].image";
    let rows: Vec<(&str, Pod, Pod, &str)> = vec![
        ("nothing", plain(""), plain(""), ""),
        ("ids", plain("foo"), plain("bar"), "metadata.name"),
        (
            "labels",
            make_pod("foo", |p| p.metadata.labels = [("foo".into(), "bar".into())].into()),
            make_pod("foo", |p| p.metadata.labels = [("bar".into(), "foo".into())].into()),
            "",
        ),
        (
            "annotations",
            make_pod("foo", |p| {
                p.metadata.annotations = [("foo".into(), "bar".into())].into()
            }),
            make_pod("foo", |p| {
                p.metadata.annotations = [("bar".into(), "foo".into())].into()
            }),
            "",
        ),
        (
            "less containers",
            make_pod("foo", |p| p.spec_mut().containers = vec![container_image("foo", "foo:V2")]),
            make_pod("foo", |p| {
                p.spec_mut().containers =
                    vec![container_image("foo", "foo:V1"), container_image("bar", "bar:V1")]
            }),
            "may not add or remove containers",
        ),
        (
            "more containers",
            make_pod("foo", |p| {
                p.spec_mut().containers =
                    vec![container_image("foo", "foo:V2"), container_image("bar", "bar:V2")]
            }),
            make_pod("foo", |p| p.spec_mut().containers = vec![container_image("foo", "foo:V1")]),
            "may not add or remove containers",
        ),
        (
            "more init containers",
            make_pod("foo", |p| {
                p.spec_mut().init_containers = vec![container_image("foo", "foo:V2")]
            }),
            make_pod("foo", |p| {
                p.spec_mut().init_containers =
                    vec![container_image("foo", "foo:V1"), container_image("bar", "bar:V1")]
            }),
            "may not add or remove containers",
        ),
        (
            "deletion timestamp removed",
            plain("foo"),
            make_pod("foo", |p| {
                p.metadata = ObjectMeta {
                    deletion_timestamp: now(),
                    ..Default::default()
                }
            }),
            "metadata.deletionTimestamp",
        ),
        (
            "deletion timestamp added",
            make_pod("foo", |p| {
                p.metadata = ObjectMeta {
                    deletion_timestamp: now(),
                    ..Default::default()
                }
            }),
            plain("foo"),
            "metadata.deletionTimestamp",
        ),
        (
            "deletion grace period seconds changed",
            make_pod("foo", |p| {
                p.metadata = ObjectMeta {
                    deletion_timestamp: now(),
                    deletion_grace_period_seconds: Some(30),
                    ..Default::default()
                }
            }),
            make_pod("foo", |p| {
                p.metadata = ObjectMeta {
                    deletion_timestamp: now(),
                    deletion_grace_period_seconds: Some(31),
                    ..Default::default()
                }
            }),
            "metadata.deletionGracePeriodSeconds",
        ),
        (
            "image change",
            make_pod("foo", |p| {
                p.spec_mut().containers = vec![container_image("container", "foo:V1")]
            }),
            make_pod("foo", |p| {
                p.spec_mut().containers = vec![container_image("container", "foo:V2")]
            }),
            "",
        ),
        (
            "init container image change",
            make_pod("foo", |p| {
                p.spec_mut().init_containers = vec![container_image("container", "foo:V1")]
            }),
            make_pod("foo", |p| {
                p.spec_mut().init_containers = vec![container_image("container", "foo:V2")]
            }),
            "",
        ),
        (
            "image change to empty",
            make_pod("foo", |p| {
                p.spec_mut().containers = vec![container_image("container", "")]
            }),
            make_pod("foo", |p| {
                p.spec_mut().containers = vec![container_image("container", "foo:V2")]
            }),
            "spec.containers[0].image",
        ),
        (
            "init container image change to empty",
            make_pod("foo", |p| {
                p.spec_mut().init_containers = vec![container_image("container", "")]
            }),
            make_pod("foo", |p| {
                p.spec_mut().init_containers = vec![container_image("container", "foo:V2")]
            }),
            "spec.initContainers[0].image",
        ),
        (
            "ephemeralContainer changes are not allowed via normal pod update",
            make_pod("foo", |p| {
                p.spec_mut().extra.insert(
                    "ephemeralContainers".into(),
                    json!([{"name": "ephemeral", "image": "busybox"}]),
                );
            }),
            plain("foo"),
            "Forbidden: pod updates may not change fields other than",
        ),
        ("activeDeadlineSeconds no change, nil", plain(""), plain(""), ""),
        (
            "activeDeadlineSeconds no change, set",
            make_pod("", ads(30)),
            make_pod("", ads(30)),
            "",
        ),
        (
            "activeDeadlineSeconds change to positive from nil",
            make_pod("", ads(30)),
            plain(""),
            "",
        ),
        (
            "activeDeadlineSeconds change to smaller positive",
            make_pod("", ads(30)),
            make_pod("", ads(31)),
            "",
        ),
        (
            "activeDeadlineSeconds change to larger positive",
            make_pod("", ads(31)),
            make_pod("", ads(30)),
            "spec.activeDeadlineSeconds",
        ),
        (
            "activeDeadlineSeconds change to negative from nil",
            make_pod("", ads(-30)),
            plain(""),
            "spec.activeDeadlineSeconds",
        ),
        (
            "activeDeadlineSeconds change to negative from positive",
            make_pod("", ads(-30)),
            make_pod("", ads(30)),
            "spec.activeDeadlineSeconds",
        ),
        (
            "activeDeadlineSeconds change to zero from positive",
            make_pod("", ads(0)),
            make_pod("", ads(30)),
            "spec.activeDeadlineSeconds",
        ),
        (
            "activeDeadlineSeconds change to zero from nil",
            make_pod("", ads(0)),
            plain(""),
            "spec.activeDeadlineSeconds",
        ),
        (
            "activeDeadlineSeconds change to nil from positive",
            plain(""),
            make_pod("", ads(30)),
            "spec.activeDeadlineSeconds",
        ),
        (
            "cpu limit change",
            make_pod("pod", with_resources(get_resources("200m", "0", "1Gi"), none())),
            make_pod("pod", with_resources(get_resources("100m", "0", "1Gi"), none())),
            forbidden,
        ),
        (
            "memory limit change",
            make_pod("pod", with_resources(get_resources("100m", "100Mi", ""), none())),
            make_pod("pod", with_resources(get_resources("100m", "200Mi", ""), none())),
            forbidden,
        ),
        (
            "storage limit change",
            make_pod("pod", with_resources(get_resources("100m", "100Mi", "1Gi"), none())),
            make_pod("pod", with_resources(get_resources("100m", "100Mi", "2Gi"), none())),
            "Forbidden: pod updates may not change fields other than",
        ),
        (
            "cpu request change",
            make_pod("pod", with_resources(none(), get_resources("100m", "0", ""))),
            make_pod("pod", with_resources(none(), get_resources("200m", "0", ""))),
            forbidden,
        ),
        (
            "memory request change",
            make_pod("pod", with_resources(none(), get_resources("0", "200Mi", ""))),
            make_pod("pod", with_resources(none(), get_resources("0", "100Mi", ""))),
            forbidden,
        ),
        (
            "storage request change",
            make_pod("pod", with_resources(none(), get_resources("100m", "0", "2Gi"))),
            make_pod("pod", with_resources(none(), get_resources("100m", "0", "1Gi"))),
            "Forbidden: pod updates may not change fields other than",
        ),
        (
            "Pod QoS unchanged, guaranteed -> guaranteed",
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "400Mi", "1Gi"),
                    get_resources("200m", "400Mi", "1Gi"),
                ),
            ),
            make_pod(
                "pod",
                with_resources(
                    get_resources("100m", "100Mi", "1Gi"),
                    get_resources("100m", "100Mi", "1Gi"),
                ),
            ),
            forbidden,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable",
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "200Mi", "2Gi"),
                    get_resources("100m", "100Mi", "1Gi"),
                ),
            ),
            make_pod(
                "pod",
                with_resources(
                    get_resources("400m", "400Mi", "2Gi"),
                    get_resources("200m", "200Mi", "1Gi"),
                ),
            ),
            forbidden,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, add limits",
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "200Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            make_pod(
                "pod",
                with_resources(none(), get_resources("100m", "100Mi", "")),
            ),
            forbidden,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove limits",
            make_pod(
                "pod",
                with_resources(none(), get_resources("100m", "100Mi", "")),
            ),
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "200Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            forbidden,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, add requests",
            make_pod(
                "pod",
                with_resources(
                    get_resources("400m", "", "1Gi"),
                    get_resources("300m", "", "1Gi"),
                ),
            ),
            make_pod(
                "pod",
                with_resources(get_resources("200m", "500Mi", "1Gi"), none()),
            ),
            forbidden,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove requests",
            make_pod(
                "pod",
                with_resources(get_resources("400m", "500Mi", "2Gi"), none()),
            ),
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "300Mi", "2Gi"),
                    get_resources("100m", "200Mi", ""),
                ),
            ),
            forbidden,
        ),
        (
            "Pod QoS change, guaranteed -> burstable",
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "200Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            make_pod(
                "pod",
                with_resources(
                    get_resources("100m", "100Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            forbidden,
        ),
        (
            "Pod QoS change, burstable -> guaranteed",
            make_pod(
                "pod",
                with_resources(
                    get_resources("100m", "100Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            make_pod(
                "pod",
                with_resources(none(), get_resources("100m", "100Mi", "")),
            ),
            forbidden,
        ),
        (
            "Pod QoS change, besteffort -> burstable",
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "200Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            plain("pod"),
            forbidden,
        ),
        (
            "Pod QoS change, burstable -> besteffort",
            plain("pod"),
            make_pod(
                "pod",
                with_resources(
                    get_resources("200m", "200Mi", ""),
                    get_resources("100m", "100Mi", ""),
                ),
            ),
            forbidden,
        ),
        (
            "fsGroupChangePolicy change",
            make_pod("pod", |p| {
                p.spec_mut().extra.insert(
                    "securityContext".into(),
                    json!({"fsGroupChangePolicy": "OnRootMismatch"}),
                );
            }),
            make_pod("pod", |p| {
                p.spec_mut()
                    .extra
                    .insert("securityContext".into(), json!({}));
            }),
            forbidden,
        ),
        (
            "port change",
            make_pod("pod", |p| {
                let mut c = make_container("container");
                let mut port = ContainerPort {
                    container_port: 80,
                    ..Default::default()
                };
                port.extra.insert("hostPort".into(), json!(8080));
                c.ports = vec![port];
                p.spec_mut().containers = vec![c];
            }),
            make_pod("pod", |p| {
                let mut c = make_container("container");
                let mut port = ContainerPort {
                    container_port: 80,
                    ..Default::default()
                };
                port.extra.insert("hostPort".into(), json!(8000));
                c.ports = vec![port];
                p.spec_mut().containers = vec![c];
            }),
            forbidden,
        ),
        (
            "bad label change",
            make_pod("foo", |p| p.metadata.labels = [("foo".into(), "bar".into())].into()),
            make_pod("foo", |p| p.metadata.labels = [("bar".into(), "foo".into())].into()),
            "",
        ),
        (
            "existing toleration value modified in pod spec updates",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![tol("key1", "", "value2", "", None)];
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![tol("key1", "", "value1", "", None)];
            }),
            "spec.tolerations: Forbidden",
        ),
        (
            "existing toleration value modified in pod spec updates with modified tolerationSeconds",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![tol("key1", "Equal", "value2", "NoExecute", None)];
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations =
                    vec![tol("key1", "Equal", "value1", "NoExecute", Some(10))];
            }),
            "spec.tolerations: Forbidden",
        ),
        (
            "modified tolerationSeconds in existing toleration value in pod spec updates",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations =
                    vec![tol("key1", "Equal", "value1", "NoExecute", Some(10))];
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations =
                    vec![tol("key1", "Equal", "value1", "NoExecute", Some(20))];
            }),
            "",
        ),
        (
            "toleration modified in updates to an unscheduled pod",
            make_pod("foo", |p| {
                p.spec_mut().tolerations = vec![tol("key1", "", "value2", "", None)];
            }),
            make_pod("foo", |p| {
                p.spec_mut().tolerations = vec![tol("key1", "", "value1", "", None)];
            }),
            "spec.tolerations: Forbidden",
        ),
        (
            "tolerations unmodified in updates to a scheduled pod",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![tol("key1", "", "value1", "", None)];
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![tol("key1", "", "value1", "", None)];
            }),
            "",
        ),
        (
            "added valid new toleration to existing tolerations in pod spec updates",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![
                    tol("key1", "Equal", "value1", "NoExecute", Some(20)),
                    tol("key2", "Equal", "value2", "NoExecute", Some(30)),
                ];
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations =
                    vec![tol("key1", "Equal", "value1", "NoExecute", Some(10))];
            }),
            "",
        ),
        (
            "added invalid new toleration to existing tolerations in pod spec updates",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations = vec![
                    tol("key1", "Equal", "value1", "NoExecute", Some(20)),
                    tol("key2", "Equal", "value2", "NoSchedule", Some(30)),
                ];
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut().tolerations =
                    vec![tol("key1", "Equal", "value1", "NoExecute", Some(10))];
            }),
            "spec.tolerations[1].effect",
        ),
        (
            "added mirror pod annotation",
            make_pod("foo", |p| {
                p.metadata.annotations =
                    [("kubernetes.io/config.mirror".into(), String::new())].into();
                p.spec_mut().node_name = "foo".into();
            }),
            make_pod("foo", |p| p.spec_mut().node_name = "foo".into()),
            "metadata.annotations[kubernetes.io/config.mirror]",
        ),
        (
            "removed mirror pod annotation",
            make_pod("foo", |p| p.spec_mut().node_name = "foo".into()),
            make_pod("foo", |p| {
                p.metadata.annotations =
                    [("kubernetes.io/config.mirror".into(), String::new())].into();
                p.spec_mut().node_name = "foo".into();
            }),
            "metadata.annotations[kubernetes.io/config.mirror]",
        ),
        (
            "changed mirror pod annotation",
            make_pod("foo", |p| {
                p.metadata.annotations =
                    [("kubernetes.io/config.mirror".into(), "foo".into())].into();
                p.spec_mut().node_name = "foo".into();
            }),
            make_pod("foo", |p| {
                p.metadata.annotations =
                    [("kubernetes.io/config.mirror".into(), "bar".into())].into();
                p.spec_mut().node_name = "foo".into();
            }),
            "metadata.annotations[kubernetes.io/config.mirror]",
        ),
        (
            "changed priority class name",
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut()
                    .extra
                    .insert("priorityClassName".into(), json!("bar-priority"));
            }),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut()
                    .extra
                    .insert("priorityClassName".into(), json!("foo-priority"));
            }),
            "spec: Forbidden: pod updates",
        ),
        (
            "removed priority class name",
            make_pod("foo", |p| p.spec_mut().node_name = "node1".into()),
            make_pod("foo", |p| {
                p.spec_mut().node_name = "node1".into();
                p.spec_mut()
                    .extra
                    .insert("priorityClassName".into(), json!("foo-priority"));
            }),
            "spec: Forbidden: pod updates",
        ),
        (
            "update termination grace period seconds",
            make_pod("foo", |p| p.spec_mut().termination_grace_period_seconds = Some(1)),
            make_pod("foo", |p| p.spec_mut().termination_grace_period_seconds = Some(-1)),
            "",
        ),
        (
            "update termination grace period seconds not 1",
            make_pod("foo", |p| p.spec_mut().termination_grace_period_seconds = Some(0)),
            make_pod("foo", |p| p.spec_mut().termination_grace_period_seconds = Some(-1)),
            "spec: Forbidden: pod updates",
        ),
        (
            "pod OS changing from Linux to Windows, IdentifyPodOS featuregate set",
            make_pod("foo", |p| {
                p.spec_mut().extra.insert("os".into(), json!({"name": "windows"}));
                p.spec_mut().extra.insert(
                    "securityContext".into(),
                    json!({"seLinuxOptions": {"role": "dummy"}}),
                );
            }),
            make_pod("foo", |p| {
                p.spec_mut().extra.insert("os".into(), json!({"name": "linux"}));
                p.spec_mut().extra.insert(
                    "securityContext".into(),
                    json!({"seLinuxOptions": {"role": "dummy"}}),
                );
            }),
            other_than,
        ),
        (
            "invalid PodOS update, IdentifyPodOS featuregate set",
            make_pod("foo", |p| {
                p.spec_mut().extra.insert("os".into(), json!({"name": "dummy"}));
            }),
            plain("foo"),
            other_than,
        ),
        (
            "update pod spec OS to a valid value, featuregate disabled",
            make_pod("foo", |p| {
                p.spec_mut().extra.insert("os".into(), json!({"name": "linux"}));
            }),
            make_pod("foo", |p| {
                p.spec_mut().extra.insert("os".into(), json!({"name": "windows"}));
            }),
            "Forbidden: pod updates may not change fields other than ",
        ),
        (
            "update pod spec schedulingGates: add new scheduling gate",
            make_pod("foo", |p| gate(p, &["foo"])),
            plain("foo"),
            "Forbidden: only deletion is allowed, but found new scheduling gate 'foo'",
        ),
        (
            "update pod spec schedulingGates: mutating an existing scheduling gate",
            make_pod("foo", |p| gate(p, &["bar"])),
            make_pod("foo", |p| gate(p, &["foo"])),
            "Forbidden: only deletion is allowed, but found new scheduling gate 'bar'",
        ),
        (
            "update pod spec schedulingGates: mutating an existing scheduling gate along with deletion",
            make_pod("foo", |p| gate(p, &["baz"])),
            make_pod("foo", |p| gate(p, &["foo", "bar"])),
            "Forbidden: only deletion is allowed, but found new scheduling gate 'baz'",
        ),
        (
            "update pod spec schedulingGates: legal deletion",
            plain("foo"),
            make_pod("foo", |p| gate(p, &["foo"])),
            "",
        ),
        (
            "adding node selector is allowed for gated pods",
            make_pod("foo", |p| {
                node_selector(p, &[("foo", "bar")]);
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| gate(p, &["baz"])),
            "",
        ),
        (
            "adding node selector is not allowed for non-gated pods",
            make_pod("foo", |p| node_selector(p, &[("foo", "bar"), ("foo2", "bar2")])),
            make_pod("foo", |p| node_selector(p, &[("foo", "bar")])),
            other_than,
        ),
        (
            "removing node selector is not allowed for gated pods",
            make_pod("foo", |p| gate(p, &["baz"])),
            make_pod("foo", |p| {
                node_selector(p, &[("foo", "bar")]);
                gate(p, &["baz"]);
            }),
            "spec.nodeSelector: Invalid value:",
        ),
        (
            "removing node selector is not allowed for non-gated pods",
            plain("foo"),
            make_pod("foo", |p| node_selector(p, &[("foo", "bar")])),
            other_than,
        ),
        (
            "old pod spec has scheduling gate, new pod spec does not, and node selector is added",
            make_pod("foo", |p| node_selector(p, &[("foo", "bar"), ("foo2", "bar2")])),
            make_pod("foo", |p| {
                node_selector(p, &[("foo", "bar")]);
                gate(p, &["baz"]);
            }),
            "",
        ),
        (
            "modifying value of existing node selector is not allowed",
            make_pod("foo", |p| {
                node_selector(p, &[("foo", "new value")]);
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| {
                node_selector(p, &[("foo", "bar")]);
                gate(p, &["baz"]);
            }),
            "spec.nodeSelector: Invalid value:",
        ),
        (
            "addition to nodeAffinity is allowed for gated pods",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"]), expr("expr2", &["foo2"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            make_pod("foo", gated_required(&["foo"])),
            "",
        ),
        (
            "old RequiredDuringSchedulingIgnoredDuringExecution is non-nil, new RequiredDuringSchedulingIgnoredDuringExecution is nil, pod is gated",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(Affinity {
                    node_affinity: Some(NodeAffinity::default()),
                    ..Default::default()
                });
                gate(p, &["baz"]);
            }),
            make_pod("foo", gated_required(&["foo"])),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value:",
        ),
        (
            "old pod spec has scheduling gate, new pod spec does not, and node affinity addition occurs",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"]), expr("expr2", &["foo2"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
            }),
            make_pod("foo", gated_required(&["foo"])),
            "",
        ),
        (
            "nodeAffinity deletion from MatchExpressions not allowed",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            make_pod("foo", gated_required(&["foo"])),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value:",
        ),
        (
            "nodeAffinity deletion from MatchFields not allowed",
            make_pod("foo", gated_required(&["foo"])),
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value:",
        ),
        (
            "nodeAffinity modification of item in MatchExpressions not allowed",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["bar"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value:",
        ),
        (
            "nodeAffinity modification of item in MatchFields not allowed",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"])],
                    match_fields: vec![expr("metadata.name", &["bar"])],
                }]));
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value:",
        ),
        (
            "nodeSelectorTerms addition on gated pod should fail",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![
                    NodeSelectorTerm {
                        match_expressions: vec![expr("expr", &["foo"])],
                        match_fields: vec![expr("metadata.name", &["bar"])],
                    },
                    NodeSelectorTerm {
                        match_expressions: vec![expr("expr", &["foo2"])],
                        match_fields: vec![expr("metadata.name", &["bar2"])],
                    },
                ]));
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
                gate(p, &["baz"]);
            }),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value:",
        ),
        (
            "preferredDuringSchedulingIgnoredDuringExecution can modified for gated pods",
            make_pod("foo", preferred_gated(json!([{"weight": 1, "preference": {"matchExpressions": [
                {"key": "expr", "operator": "In", "values": ["foo2"]}]}}]))),
            make_pod("foo", preferred_gated(json!([{"weight": 1, "preference": {"matchExpressions": [
                {"key": "expr", "operator": "In", "values": ["foo"]}]}}]))),
            "",
        ),
        (
            "preferredDuringSchedulingIgnoredDuringExecution can have additions for gated pods",
            make_pod("foo", preferred_gated(json!([{"weight": 1, "preference": {
                "matchExpressions": [
                    {"key": "expr", "operator": "In", "values": ["foo"]},
                    {"key": "expr2", "operator": "In", "values": ["foo2"]}],
                "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["bar"]}]}}]))),
            make_pod("foo", preferred_gated(json!([{"weight": 1, "preference": {"matchExpressions": [
                {"key": "expr", "operator": "In", "values": ["foo"]}]}}]))),
            "",
        ),
        (
            "preferredDuringSchedulingIgnoredDuringExecution can have removals for gated pods",
            make_pod("foo", |p| gate(p, &["baz"])),
            make_pod("foo", preferred_gated(json!([{"weight": 1, "preference": {"matchExpressions": [
                {"key": "expr", "operator": "In", "values": ["foo"]}]}}]))),
            "",
        ),
        (
            "new node affinity is nil",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(Affinity::default());
                gate(p, &["baz"]);
            }),
            make_pod("foo", gated_required(&["foo"])),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value:",
        ),
        (
            "empty NodeSelectorTerm (selects nothing) cannot become populated (selects something)",
            make_pod("foo", gated_required(&["foo"])),
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![term(vec![])]));
                gate(p, &["baz"]);
            }),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]: Invalid value:",
        ),
        (
            "nil affinity can be mutated for gated pods",
            make_pod("foo", gated_required(&["foo"])),
            make_pod("foo", |p| gate(p, &["baz"])),
            "",
        ),
        (
            "addition to nodeAffinity is not allowed for non-gated pods",
            make_pod("foo", |p| {
                p.spec_mut().affinity = Some(required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("expr", &["foo"]), expr("expr2", &["foo2"])],
                    match_fields: vec![expr("metadata.name", &["foo"])],
                }]));
            }),
            make_pod("foo", |p| {
                p.spec_mut().affinity =
                    Some(required_affinity(vec![term(vec![expr("expr", &["foo"])])]));
            }),
            other_than,
        ),
        (
            "the podAffinity cannot be updated on gated pods",
            make_pod("foo", |p| {
                let mut a = required_affinity(vec![term(vec![expr("expr", &["foo"])])]);
                a.extra.insert(
                    "podAffinity".into(),
                    json!({"requiredDuringSchedulingIgnoredDuringExecution": [
                        {"topologyKey": "foo", "labelSelector": {"matchLabels": {"foo": "bar"}}}
                    ]}),
                );
                p.spec_mut().affinity = Some(a);
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| gate(p, &["baz"])),
            "pod updates may not change fields other than",
        ),
        (
            "the podAntiAffinity cannot be updated on gated pods",
            make_pod("foo", |p| {
                let mut a = required_affinity(vec![term(vec![expr("expr", &["foo"])])]);
                a.extra.insert(
                    "podAntiAffinity".into(),
                    json!({"requiredDuringSchedulingIgnoredDuringExecution": [
                        {"topologyKey": "foo", "labelSelector": {"matchLabels": {"foo": "bar"}}}
                    ]}),
                );
                p.spec_mut().affinity = Some(a);
                gate(p, &["baz"]);
            }),
            make_pod("foo", |p| gate(p, &["baz"])),
            "pod updates may not change fields other than",
        ),
        (
            // Upstream passes AllowInvalidLabelValueInRequiredNodeAffinity explicitly; kubeplay
            // derives it from the old pod, as the pod strategy does.
            "allow update pod if old pod already has invalid label-value in node affinity",
            make_pod("foo", |p| {
                p.spec_mut().affinity =
                    Some(required_affinity(vec![term(vec![expr("expr", &["-1"])])]));
            }),
            make_pod("foo", gated_required(&["-1"])),
            "",
        ),
        (
            "not allow update node affinity to an invalid label-value",
            make_pod("foo", gated_required(&["-1"])),
            make_pod("foo", gated_required(&["bar"])),
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.'",
        ),
        (
            "cpu limit change with pod-level resources",
            make_pod("pod", |p| {
                with_resources(get_resources("200m", "0", "1Gi"), none())(p);
                p.spec_mut().resources = serde_json::from_value(
                    json!({"limits": {"cpu": "100m", "memory": "200Mi"}}),
                )
                .ok();
            }),
            make_pod("pod", with_resources(get_resources("100m", "0", "1Gi"), none())),
            "pod updates may not change fields other than",
        ),
        (
            "memory limit change with pod-level resources",
            make_pod("pod", with_resources(get_resources("100m", "100Mi", ""), none())),
            make_pod("pod", |p| {
                with_resources(get_resources("100m", "200Mi", ""), none())(p);
                p.spec_mut().resources = serde_json::from_value(
                    json!({"limits": {"cpu": "100m", "memory": "200Mi"}}),
                )
                .ok();
            }),
            "pod updates may not change fields other than",
        ),
    ];
    let n = rows.len();
    for (test, mut new, mut old, want) in rows {
        // The upstream harness: resourceVersion "1", and a name (and namespace) when neither
        // pod has one.
        new.metadata.resource_version = "1".into();
        old.metadata.resource_version = "1".into();
        if new.metadata.name.is_empty() && old.metadata.name.is_empty() {
            new.metadata.name = "name".into();
            old.metadata.name = "name".into();
        }
        if new.metadata.namespace.is_empty() && old.metadata.namespace.is_empty() {
            new.metadata.namespace = "namespace".into();
            old.metadata.namespace = "namespace".into();
        }
        let errs = validate_pod_update(&new, &old);
        if want.is_empty() {
            assert!(
                errs.is_empty(),
                "{test}: unexpected invalid: {}",
                aggregate(errs)
            );
        } else {
            assert!(!errs.is_empty(), "{test}: unexpected valid");
            let got = aggregate(errs);
            assert!(got.contains(want), "{test}: want {want:?} in {got:?}");
        }
    }
    assert_eq!(n, 92);

    // "removed nodeName from pod spec": upstream refuses setting nodeName by update (binding goes
    // through pods/binding); kubeplay's update is its binding, so it is accepted.
    let mut new = make_pod("foo", |p| p.spec_mut().node_name = "foo".into());
    let mut old = plain("foo");
    new.metadata.resource_version = "1".into();
    old.metadata.resource_version = "1".into();
    assert!(validate_pod_update(&new, &old).is_empty());
}

// Port of TestValidatePod (pkg/apis/core/validation/validation_test.go), the error cases on
// fields kubeplay models, checked as upstream does: ValidatePodCreate's aggregate contains the
// expected text.
#[test]
fn validate_pod_error_table() {
    let tolerations = |t: Toleration| move |p: &mut Pod| p.spec_mut().tolerations = vec![t];
    let annotations = |pairs: &'static [(&'static str, &'static str)]| {
        move |p: &mut Pod| {
            p.metadata.annotations = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        }
    };
    let resources = |init: bool,
                     requests: &'static [(&'static str, &'static str)],
                     limits: &'static [(&'static str, &'static str)]| {
        move |p: &mut Pod| {
            let q = |pairs: &[(&str, &str)]| -> BTreeMap<String, Quantity> {
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
                    .collect()
            };
            let mut c = make_container("invalid");
            c.resources = Some(ResourceRequirements {
                requests: q(requests),
                limits: q(limits),
            });
            if init {
                p.spec_mut().init_containers = vec![c];
            } else {
                p.spec_mut().containers = vec![c];
            }
        }
    };
    let rows: Vec<(&str, Pod, &str)> = vec![
        (
            "invalid toleration key",
            make_pod("123", tolerations(tol("nospecialchars^=@", "Equal", "bar", "NoSchedule", None))),
            "spec.tolerations[0].key",
        ),
        (
            "invalid toleration operator",
            make_pod("123", tolerations(tol("foo", "In", "bar", "NoSchedule", None))),
            "spec.tolerations[0].operator",
        ),
        (
            "value must be empty when `operator` is 'Exists'",
            make_pod("123", tolerations(tol("foo", "Exists", "bar", "NoSchedule", None))),
            "spec.tolerations[0].operator",
        ),
        (
            "operator must be 'Exists' when `key` is empty",
            make_pod("123", tolerations(tol("", "Equal", "bar", "NoSchedule", None))),
            "spec.tolerations[0].operator",
        ),
        (
            "effect must be 'NoExecute' when `TolerationSeconds` is set",
            make_pod(
                "pod-forgiveness-invalid",
                tolerations(tol("node.kubernetes.io/not-ready", "Exists", "", "NoSchedule", Some(20))),
            ),
            "spec.tolerations[0].effect",
        ),
        (
            "must be a valid pod seccomp profile",
            make_pod("123", annotations(&[("seccomp.security.alpha.kubernetes.io/pod", "foo")])),
            "must be a valid seccomp profile",
        ),
        (
            "must be a valid container seccomp profile",
            make_pod(
                "123",
                annotations(&[("container.seccomp.security.alpha.kubernetes.io/foo", "foo")]),
            ),
            "must be a valid seccomp profile",
        ),
        (
            "must be a non-empty container name in seccomp annotation",
            make_pod(
                "123",
                annotations(&[("container.seccomp.security.alpha.kubernetes.io/", "foo")]),
            ),
            "name part must be non-empty",
        ),
        (
            "must be a non-empty container profile in seccomp annotation",
            make_pod(
                "123",
                annotations(&[("container.seccomp.security.alpha.kubernetes.io/foo", "")]),
            ),
            "must be a valid seccomp profile",
        ),
        (
            "must be a relative path in a node-local seccomp profile annotation",
            make_pod(
                "123",
                annotations(&[("seccomp.security.alpha.kubernetes.io/pod", "localhost//foo")]),
            ),
            "must be a relative path",
        ),
        (
            "must not start with '../'",
            make_pod(
                "123",
                annotations(&[("seccomp.security.alpha.kubernetes.io/pod", "localhost/../foo")]),
            ),
            "must not contain '..'",
        ),
        (
            "AppArmor profile must apply to a container",
            make_pod("123", |p| {
                p.spec_mut().init_containers = vec![make_container("init-ctr")];
                annotations(&[
                    ("container.apparmor.security.beta.kubernetes.io/ctr", "runtime/default"),
                    ("container.apparmor.security.beta.kubernetes.io/init-ctr", "runtime/default"),
                    ("container.apparmor.security.beta.kubernetes.io/fake-ctr", "runtime/default"),
                ])(p);
            }),
            "metadata.annotations[container.apparmor.security.beta.kubernetes.io/fake-ctr]",
        ),
        (
            "AppArmor profile format must be valid",
            make_pod(
                "123",
                annotations(&[("container.apparmor.security.beta.kubernetes.io/ctr", "bad-name")]),
            ),
            "invalid AppArmor profile name",
        ),
        (
            "only default AppArmor profile may start with runtime/",
            make_pod(
                "123",
                annotations(&[("container.apparmor.security.beta.kubernetes.io/ctr", "runtime/foo")]),
            ),
            "invalid AppArmor profile name",
        ),
        (
            "invalid extended resource name in container request",
            make_pod("123", resources(false, &[("invalid-name", "2")], &[("invalid-name", "2")])),
            "must be a standard resource for containers",
        ),
        (
            "invalid extended resource requirement: request must be == limit",
            make_pod("123", resources(false, &[("example.com/a", "2")], &[("example.com/a", "1")])),
            "must be equal to example.com/a",
        ),
        (
            "invalid extended resource requirement without limit",
            make_pod("123", resources(false, &[("example.com/a", "2")], &[])),
            "Limit must be set",
        ),
        (
            "invalid fractional extended resource in container request",
            make_pod("123", resources(false, &[("example.com/a", "500m")], &[])),
            "must be an integer",
        ),
        (
            "invalid fractional extended resource in init container request",
            make_pod("123", resources(true, &[("example.com/a", "500m")], &[])),
            "must be an integer",
        ),
        (
            "invalid fractional extended resource in container limit",
            make_pod("123", resources(false, &[("example.com/a", "5")], &[("example.com/a", "2.5")])),
            "must be an integer",
        ),
        (
            "invalid fractional extended resource in init container limit",
            make_pod("123", resources(true, &[("example.com/a", "2.5")], &[("example.com/a", "2.5")])),
            "must be an integer",
        ),
        (
            "mirror-pod present without nodeName",
            make_pod("123", annotations(&[("kubernetes.io/config.mirror", "")])),
            "mirror",
        ),
        (
            "mirror-pod populated without nodeName",
            make_pod("123", annotations(&[("kubernetes.io/config.mirror", "foo")])),
            "mirror",
        ),
        (
            "invalid pod-deletion-cost",
            make_pod("valid-extended", annotations(&[("controller.kubernetes.io/pod-deletion-cost", "text")])),
            "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"text\": must be a 32bit integer",
        ),
        (
            "invalid leading zeros pod-deletion-cost",
            make_pod("valid-extended", annotations(&[("controller.kubernetes.io/pod-deletion-cost", "008")])),
            "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"008\": must be a 32bit integer",
        ),
        (
            "invalid leading plus sign pod-deletion-cost",
            make_pod("valid-extended", annotations(&[("controller.kubernetes.io/pod-deletion-cost", "+10")])),
            "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"+10\": must be a 32bit integer",
        ),
        (
            "invalid required node affinity, value of NodeSelectorRequirement should be a valid label value",
            make_pod("123", |p| {
                p.spec_mut().affinity =
                    Some(required_affinity(vec![term(vec![expr("foo", &["-1"])])]));
            }),
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"-1\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
    ];
    let n = rows.len();
    for (test, pod, want) in rows {
        let errs = validate_pod_create(&pod);
        assert!(!errs.is_empty(), "{test}: expected failure");
        let got = aggregate(errs);
        assert!(got.contains(want), "{test}: want {want:?} in {got:?}");
    }
    assert_eq!(n, 27);
}

// Port of TestValidatePod (pkg/apis/core/validation/validation_test.go), the remaining error cases
// on modeled fields: names, images, labels and required node affinity. The
// podAffinity/podAntiAffinity error rows are ported in affinity_tests.rs
// (`validate_pod_affinity_error_rows`), the preferred node affinity weight row there too
// (`validate_preferred_node_affinity_rows`). Not ported: the securityContext, volume and
// projected volume rows.
#[test]
fn validate_pod_error_table_meta_and_node_affinity() {
    let affinity = |terms: Vec<NodeSelectorTerm>| {
        move |p: &mut Pod| p.spec_mut().affinity = Some(required_affinity(terms))
    };
    let req = |key: &str, op: &str, values: &[&str]| NodeSelectorRequirement {
        key: key.into(),
        operator: op.into(),
        values: values.iter().map(|v| v.to_string()).collect(),
    };
    let fields = |r: NodeSelectorRequirement| NodeSelectorTerm {
        match_expressions: vec![],
        match_fields: vec![r],
    };
    let p = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    let rows: Vec<(&str, Pod, String)> = vec![
        ("bad name", plain(""), "metadata.name".into()),
        (
            "image whitespace",
            make_pod("123", |p| p.spec_mut().containers = vec![container_image("ctr", " ")]),
            "spec.containers[0].image".into(),
        ),
        (
            "image leading and trailing whitespace",
            make_pod("123", |p| {
                p.spec_mut().containers = vec![container_image("ctr", " something ")]
            }),
            "spec.containers[0].image".into(),
        ),
        (
            "bad namespace",
            make_pod("123", |p| p.metadata.namespace.clear()),
            "metadata.namespace".into(),
        ),
        (
            "bad spec",
            make_pod("123", |p| p.spec_mut().containers = vec![Container::default()]),
            "spec.containers[0].name".into(),
        ),
        (
            "bad label",
            make_pod("123", |p| {
                p.metadata.labels =
                    [("NoUppercaseOrSpecialCharsLike=Equals".into(), "bar".into())].into()
            }),
            "NoUppercaseOrSpecialCharsLike=Equals".into(),
        ),
        (
            "invalid node selector requirement in node affinity, operator can't be null",
            make_pod("123", affinity(vec![term(vec![req("key1", "", &[])])])),
            format!("{p}[0].matchExpressions[0].operator"),
        ),
        (
            "invalid node selector requirement in node affinity, key is invalid",
            make_pod(
                "123",
                affinity(vec![term(vec![req("invalid key ___@#", "Exists", &[])])]),
            ),
            format!("{p}[0].matchExpressions[0].key"),
        ),
        (
            "invalid node field selector requirement in node affinity, more values for field selector",
            make_pod(
                "123",
                affinity(vec![fields(req("metadata.name", "In", &["host1", "host2"]))]),
            ),
            format!("{p}[0].matchFields[0].values"),
        ),
        (
            "invalid node field selector requirement in node affinity, invalid operator",
            make_pod("123", affinity(vec![fields(req("metadata.name", "Exists", &[]))])),
            format!("{p}[0].matchFields[0].operator"),
        ),
        (
            "invalid node field selector requirement in node affinity, invalid key",
            make_pod(
                "123",
                affinity(vec![fields(req("metadata.namespace", "In", &["ns1"]))]),
            ),
            format!("{p}[0].matchFields[0].key"),
        ),
        (
            "invalid requiredDuringSchedulingIgnoredDuringExecution node selector, nodeSelectorTerms must have at least one term",
            make_pod("123", affinity(vec![])),
            p.to_string(),
        ),
    ];
    let n = rows.len();
    for (test, pod, want) in rows {
        let errs = validate_pod_create(&pod);
        assert!(!errs.is_empty(), "{test}: expected failure");
        let got = aggregate(errs);
        assert!(got.contains(&want), "{test}: want {want:?} in {got:?}");
    }
    assert_eq!(n, 12);
}

// Port of TestValidatePod (pkg/apis/core/validation/validation_test.go), success cases on modeled
// fields (and on verbatim fields whose only rule kubeplay checks is the one exercised). The
// podAffinity/podAntiAffinity success rows are ported in affinity_tests.rs
// (`validate_pod_affinity_success_rows`). Not ported: the securityContext-field, sysctl and
// volume rows (kubeplay does not validate those fields, so they would pass vacuously).
#[test]
fn validate_pod_success_table() {
    let tolerations = |t: Toleration| move |p: &mut Pod| p.spec_mut().tolerations = vec![t];
    let annotations = |pairs: &'static [(&'static str, &'static str)]| {
        move |p: &mut Pod| {
            p.metadata.annotations = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        }
    };
    let extended = |init: bool| {
        move |p: &mut Pod| {
            let q: BTreeMap<String, Quantity> =
                [("example.com/a".to_string(), Quantity("10".into()))].into();
            let mut c = make_container("valid-extended");
            c.resources = Some(ResourceRequirements {
                requests: q.clone(),
                limits: q,
            });
            if init {
                p.spec_mut().init_containers = vec![c];
            } else {
                p.spec_mut().containers = vec![c];
            }
        }
    };
    let preferred = json!([{"weight": 10, "preference": {"matchExpressions": [
        {"key": "foo", "operator": "In", "values": ["bar"]}]}}]);
    let rows: Vec<(&str, Pod)> = vec![
        ("basic fields", plain("123")),
        (
            "just about everything",
            make_pod("abc.123.do-re-mi", |p| {
                let s = p.spec_mut();
                s.init_containers = vec![make_container("ictr")];
                s.extra
                    .insert("volumes".into(), json!([{"name": "vol", "emptyDir": {}}]));
                s.node_selector = [("key".into(), "value".into())].into();
                s.node_name = "foobar".into();
                s.extra
                    .insert("serviceAccountName".into(), json!("acct"));
                s.extra.insert("serviceAccount".into(), json!("acct"));
            }),
        ),
        (
            "serialized node affinity requirements",
            make_pod("123", |p| {
                let mut a = required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("key2", &["value1", "value2"])],
                    match_fields: vec![expr("metadata.name", &["host1"])],
                }]);
                if let Some(na) = a.node_affinity.as_mut() {
                    na.extra.insert(
                        "preferredDuringSchedulingIgnoredDuringExecution".into(),
                        preferred.clone(),
                    );
                }
                p.spec_mut().affinity = Some(a);
            }),
        ),
        (
            "serialized node affinity requirements, II",
            make_pod("123", |p| {
                let mut a = required_affinity(vec![term(vec![])]);
                if let Some(na) = a.node_affinity.as_mut() {
                    na.extra.insert(
                        "preferredDuringSchedulingIgnoredDuringExecution".into(),
                        json!([{"weight": 10, "preference": {"matchExpressions": []}}]),
                    );
                }
                p.spec_mut().affinity = Some(a);
            }),
        ),
        (
            "populate forgiveness tolerations with exists operator in annotations.",
            make_pod("123", tolerations(tol("foo", "Exists", "", "NoExecute", Some(60)))),
        ),
        (
            "populate forgiveness tolerations with equal operator in annotations.",
            make_pod("123", tolerations(tol("foo", "Equal", "bar", "NoExecute", Some(60)))),
        ),
        (
            "populate tolerations equal operator in annotations.",
            make_pod("123", tolerations(tol("foo", "Equal", "bar", "NoSchedule", None))),
        ),
        (
            "empty key with Exists operator is OK for toleration, empty toleration key means match all taint keys.",
            make_pod("123", tolerations(tol("", "Exists", "", "NoSchedule", None))),
        ),
        (
            "empty operator is OK for toleration, defaults to Equal.",
            make_pod("123", tolerations(tol("foo", "", "bar", "NoSchedule", None))),
        ),
        (
            "empty effect is OK for toleration, empty toleration effect means match all taint effects.",
            make_pod("123", tolerations(tol("foo", "Equal", "bar", "", None))),
        ),
        (
            "negative tolerationSeconds is OK for toleration.",
            make_pod(
                "123",
                tolerations(tol("node.kubernetes.io/not-ready", "Exists", "", "NoExecute", Some(-2))),
            ),
        ),
        (
            "runtime default seccomp profile",
            make_pod("123", annotations(&[("seccomp.security.alpha.kubernetes.io/pod", "runtime/default")])),
        ),
        (
            "docker default seccomp profile",
            make_pod("123", annotations(&[("seccomp.security.alpha.kubernetes.io/pod", "unconfined")])),
        ),
        (
            "localhost seccomp profile",
            make_pod("123", annotations(&[("seccomp.security.alpha.kubernetes.io/pod", "localhost/foo")])),
        ),
        (
            "localhost seccomp profile for a container",
            make_pod(
                "123",
                annotations(&[("container.seccomp.security.alpha.kubernetes.io/foo", "localhost/foo")]),
            ),
        ),
        (
            "default AppArmor annotation for a container",
            make_pod(
                "123",
                annotations(&[("container.apparmor.security.beta.kubernetes.io/ctr", "runtime/default")]),
            ),
        ),
        (
            "default AppArmor annotation for an init container",
            make_pod("123", |p| {
                p.spec_mut().init_containers = vec![make_container("init-ctr")];
                annotations(&[(
                    "container.apparmor.security.beta.kubernetes.io/init-ctr",
                    "runtime/default",
                )])(p);
            }),
        ),
        (
            "localhost AppArmor annotation for a container",
            make_pod(
                "123",
                annotations(&[("container.apparmor.security.beta.kubernetes.io/ctr", "localhost/foo")]),
            ),
        ),
        ("valid extended resources for init container", make_pod("valid-extended", extended(true))),
        ("valid extended resources for regular container", make_pod("valid-extended", extended(false))),
        (
            "negative pod-deletion-cost",
            make_pod("123", annotations(&[("controller.kubernetes.io/pod-deletion-cost", "-100")])),
        ),
        (
            "positive pod-deletion-cost",
            make_pod("123", annotations(&[("controller.kubernetes.io/pod-deletion-cost", "100")])),
        ),
    ];
    let n = rows.len();
    for (test, pod) in rows {
        let errs = validate_pod_create(&pod);
        assert!(
            errs.is_empty(),
            "{test}: expected success: {}",
            aggregate(errs)
        );
    }
    assert_eq!(n, 22);
}

/// `ValidatePodSpec(spec, nil, field.NewPath("field"), PodValidationOptions{ResourceIsPod: true})`.
fn validate_spec_as_pod(p: &Pod) -> Vec<FieldError> {
    super::pod::validate_pod_spec(
        &p.spec,
        "field",
        super::pod::PodValidationOptions {
            resource_is_pod: true,
            ..Default::default()
        },
    )
}

fn host_network_port(host_port: i64, container_port: i32) -> impl FnOnce(&mut Pod) {
    move |p: &mut Pod| {
        let mut c = make_container("ctr");
        let mut port = ContainerPort {
            container_port,
            protocol: Some("TCP".into()),
            ..Default::default()
        };
        if host_port != 0 {
            port.extra.insert("hostPort".into(), json!(host_port));
        }
        c.ports = vec![port];
        p.spec_mut().containers = vec![c];
        p.spec_mut().extra.insert("hostNetwork".into(), json!(true));
    }
}

// Port of TestValidatePodSpec (pkg/apis/core/validation/validation_test.go): the success cases
// and failure cases on modeled fields. Upstream only asserts that a failure case fails; the port
// also names the field that fails. Not ported: the securityContext rows (runAsUser, fsGroup,
// supplementalGroups, fsGroupChangePolicy, shareProcessNamespace with hostPID) and "bad volume"
// (the hostAliases, runtimeClassName and overhead rows are in upstream_tests_valid1.rs) — kubeplay keeps those fields
// verbatim without validating them.
#[test]
fn validate_pod_spec_table() {
    let success: Vec<(&str, Pod)> = vec![
        ("populate basic fields, leave defaults for most", plain("")),
        (
            "populate all fields",
            make_pod("", |p| {
                let s = p.spec_mut();
                s.init_containers = vec![make_container("ictr")];
                s.extra
                    .insert("volumes".into(), json!([{"name": "vol", "emptyDir": {}}]));
                s.node_selector = [("key".into(), "value".into())].into();
                s.node_name = "foobar".into();
                s.active_deadline_seconds = Some(i64::from(i32::MAX));
                s.extra.insert("serviceAccountName".into(), json!("acct"));
                s.extra.insert("serviceAccount".into(), json!("acct"));
            }),
        ),
        (
            "populate HostNetwork",
            make_pod("", host_network_port(8080, 8080)),
        ),
        (
            "populate Affinity",
            make_pod("", |p| {
                let mut a = required_affinity(vec![NodeSelectorTerm {
                    match_expressions: vec![expr("key2", &["value1", "value2"])],
                    match_fields: vec![expr("metadata.name", &["host1"])],
                }]);
                if let Some(na) = a.node_affinity.as_mut() {
                    na.extra.insert(
                        "preferredDuringSchedulingIgnoredDuringExecution".into(),
                        json!([{"weight": 10, "preference": {"matchExpressions": [
                            {"key": "foo", "operator": "In", "values": ["bar"]}]}}]),
                    );
                }
                p.spec_mut().affinity = Some(a);
            }),
        ),
        (
            "populate PriorityClassName",
            make_pod("", |p| {
                p.spec_mut()
                    .extra
                    .insert("priorityClassName".into(), json!("valid-name"));
            }),
        ),
    ];
    for (test, pod) in &success {
        let errs = validate_spec_as_pod(pod);
        assert!(
            errs.is_empty(),
            "{test}: expected success: {}",
            aggregate(errs)
        );
    }

    let failure: Vec<(&str, Pod, &str)> = vec![
        (
            "no containers",
            make_pod("", |p| p.spec_mut().containers.clear()),
            "field.containers",
        ),
        (
            "bad container",
            make_pod("", |p| p.spec_mut().containers = vec![Container::default()]),
            "field.containers[0].name",
        ),
        (
            "bad init container",
            make_pod("", |p| {
                p.spec_mut().init_containers = vec![Container::default()]
            }),
            "field.initContainers[0].name",
        ),
        (
            "bad DNS policy",
            make_pod("", |p| {
                p.spec_mut()
                    .extra
                    .insert("dnsPolicy".into(), json!("invalid"));
            }),
            "field.dnsPolicy",
        ),
        (
            "bad service account name",
            make_pod("", |p| {
                let s = p.spec_mut();
                s.extra
                    .insert("serviceAccountName".into(), json!("invalidName"));
                s.extra
                    .insert("serviceAccount".into(), json!("invalidName"));
            }),
            "field.serviceAccountName",
        ),
        (
            "bad restart policy",
            make_pod("", |p| p.spec_mut().restart_policy = "UnknowPolicy".into()),
            "field.restartPolicy",
        ),
        (
            "with hostNetwork hostPort unspecified",
            make_pod("", host_network_port(0, 2600)),
            "field.containers[0].ports[0].hostPort",
        ),
        (
            "with hostNetwork hostPort not equal to containerPort",
            make_pod("", host_network_port(8080, 2600)),
            "field.containers[0].ports[0].hostPort",
        ),
        (
            "bad-active-deadline-seconds",
            make_pod("", |p| p.spec_mut().active_deadline_seconds = Some(0)),
            "field.activeDeadlineSeconds",
        ),
        (
            "active-deadline-seconds-too-large",
            make_pod("", |p| {
                p.spec_mut().active_deadline_seconds = Some(i64::from(i32::MAX) + 1)
            }),
            "field.activeDeadlineSeconds",
        ),
        (
            "bad nodeName",
            make_pod("", |p| p.spec_mut().node_name = "node name".into()),
            "field.nodeName",
        ),
        (
            "bad PriorityClassName",
            make_pod("", |p| {
                p.spec_mut()
                    .extra
                    .insert("priorityClassName".into(), json!("InvalidName"));
            }),
            "field.priorityClassName",
        ),
    ];
    for (test, pod, field) in &failure {
        let errs = validate_spec_as_pod(pod);
        assert!(!errs.is_empty(), "expected failure for {test:?}");
        assert!(
            errs.iter().any(|e| e.field == *field),
            "{test}: no error on {field}: {}",
            aggregate(errs)
        );
    }
    assert_eq!((success.len(), failure.len()), (5, 12));
}

// Port of TestValidateRestartPolicy and TestValidateDNSPolicy
// (pkg/apis/core/validation/validation_test.go), through ValidatePodSpec (kubeplay has no
// separate validateRestartPolicy/validateDNSPolicy).
#[test]
fn validate_restart_and_dns_policy_tables() {
    for policy in ["Always", "OnFailure", "Never"] {
        let p = make_pod("", |p| p.spec_mut().restart_policy = policy.into());
        assert!(validate_spec_as_pod(&p).is_empty(), "{policy}");
    }
    for (policy, want) in [
        ("", "field.restartPolicy: Required value"),
        (
            "newpolicy",
            "field.restartPolicy: Unsupported value: \"newpolicy\": supported values: \"Always\", \"OnFailure\", \"Never\"",
        ),
    ] {
        let p = make_pod("", |p| p.spec_mut().restart_policy = policy.into());
        assert_eq!(aggregate(validate_spec_as_pod(&p)), want, "{policy:?}");
    }
    for policy in ["ClusterFirst", "Default", "ClusterFirstWithHostNet", "None"] {
        let p = make_pod("", |p| {
            p.spec_mut().extra.insert("dnsPolicy".into(), json!(policy));
            // ValidatePodSpec also runs validatePodDNSConfig, which needs a nameserver for None.
            p.spec_mut()
                .extra
                .insert("dnsConfig".into(), json!({"nameservers": ["127.0.0.1"]}));
        });
        assert!(validate_spec_as_pod(&p).is_empty(), "{policy}");
    }
    for (policy, want) in [
        (
            "invalid",
            "field.dnsPolicy: Unsupported value: \"invalid\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"",
        ),
        ("", "field.dnsPolicy: Required value"),
    ] {
        let p = make_pod("", |p| {
            p.spec_mut().extra.insert("dnsPolicy".into(), json!(policy));
        });
        assert_eq!(aggregate(validate_spec_as_pod(&p)), want, "{policy:?}");
    }
}

// Port of TestValidatePodDNSConfig (pkg/apis/core/validation/validation_test.go), the DNSNone rows:
// the only dnsConfig rule kubeplay checks. The nameserver/search-path limit and format rows are
// not ported (dnsConfig is otherwise kept verbatim).
#[test]
fn validate_pod_dns_config_dns_none_rows() {
    let with = |config: Option<serde_json::Value>| {
        make_pod("", move |p| {
            let s = p.spec_mut();
            s.extra.insert("dnsPolicy".into(), json!("None"));
            if let Some(c) = config {
                s.extra.insert("dnsConfig".into(), c);
            }
        })
    };
    // "valid: DNSNone with 1 nameserver"
    assert!(validate_spec_as_pod(&with(Some(json!({"nameservers": ["127.0.0.1"]})))).is_empty());
    // "invalid: DNSNone with 0 nameserver"
    assert_eq!(
        aggregate(validate_spec_as_pod(&with(Some(json!({"searches": ["custom"]}))))),
        "field.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None"
    );
    // DNSNone without any dnsConfig (validatePodDNSConfig's nil case).
    assert_eq!(
        aggregate(validate_spec_as_pod(&with(None))),
        "field.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"
    );
}
