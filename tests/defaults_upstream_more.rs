//! Ports of upstream defaulting tests: the defaults a workload's pod template or a pod receives
//! (`pkg/apis/core/v1/defaults_test.go`) and the HPA behavior rules
//! (`pkg/apis/autoscaling/v2/defaults_test.go`).
//!
//! Upstream's `detectDefaults` fills every optional field of an empty object with a zero value
//! and records each field that defaulting then sets. Here the same fields are given as empty
//! JSON objects (one volume per volume source), the object goes through kubeplay's API
//! defaulting, and the set of leaves defaulting added to `spec` must equal upstream's list.

use kubeplay::api::autoscaling::{
    copy_hpa_scaling_rules, default_scale_down_rules, default_scale_up_rules, HpaScalingPolicy,
    HpaScalingRules,
};
use kubeplay::api::defaults::default_object;
use kubeplay::api::Object;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A container with every field `detectDefaults` reaches: an env var from a field, both
/// lifecycle hooks with an HTTP GET, the three probes with an HTTP GET and a gRPC action, a port
/// (with a containerPort: kubeplay's port type requires one where Go's zero value is 0).
fn container() -> Value {
    let probe = || json!({"httpGet": {}, "grpc": {}});
    json!({
        "name": "c",
        "env": [{"name": "E", "valueFrom": {"fieldRef": {}}}],
        "lifecycle": {"postStart": {"httpGet": {}}, "preStop": {"httpGet": {}}},
        "livenessProbe": probe(),
        "readinessProbe": probe(),
        "startupProbe": probe(),
        "ports": [{"containerPort": 80}],
    })
}

/// One volume per source whose defaults upstream lists, and one without a source.
fn volumes() -> Value {
    json!([
        {"name": "azure-disk", "azureDisk": {}},
        {"name": "config-map", "configMap": {}},
        {"name": "downward-api", "downwardAPI": {"items": [{"fieldRef": {}}]}},
        {"name": "empty"},
        {"name": "ephemeral", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
        {"name": "host-path", "hostPath": {}},
        {"name": "iscsi", "iscsi": {}},
        {"name": "projected", "projected": {"sources": [
            {"downwardAPI": {"items": [{"fieldRef": {}}]}},
            {"serviceAccountToken": {}},
        ]}},
        {"name": "rbd", "rbd": {}},
        {"name": "scale-io", "scaleIO": {}},
        {"name": "secret", "secret": {}},
    ])
}

fn pod_spec(extra: Value) -> Value {
    let mut spec = json!({
        "containers": [container()],
        "initContainers": [container()],
        "ephemeralContainers": [container()],
        "volumes": volumes(),
    });
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    spec
}

/// The leaves of `after` that are absent from (or differ in) `before`, by JSON pointer. A
/// container's `resources: {}` is left out: Go's `Resources` is a struct, never absent, so it is
/// no default there.
fn added_leaves(before: &Value, after: &Value, path: &str, out: &mut BTreeMap<String, Value>) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            for (k, v) in a {
                let p = format!("{path}/{k}");
                match b.get(k) {
                    Some(bv) => added_leaves(bv, v, &p, out),
                    None if k == "resources" && v == &json!({}) => {}
                    None => {
                        out.insert(p, v.clone());
                    }
                }
            }
        }
        (Value::Array(b), Value::Array(a)) if b.len() == a.len() => {
            for (i, (bv, av)) in b.iter().zip(a).enumerate() {
                added_leaves(bv, av, &format!("{path}/{i}"), out);
            }
        }
        (b, a) if b != a => {
            out.insert(path.to_string(), a.clone());
        }
        _ => {}
    }
}

fn defaulted_spec_leaves(obj: Value, spec_pointer: &str) -> BTreeMap<String, Value> {
    let before = obj.pointer(spec_pointer).unwrap().clone();
    let mut o = Object::from_value(obj).unwrap();
    default_object(&mut o);
    let after = serde_json::to_value(&o).unwrap();
    let mut out = BTreeMap::new();
    added_leaves(&before, after.pointer(spec_pointer).unwrap(), "", &mut out);
    out
}

/// The defaults of one container (upstream's `.Spec.Containers[0]…` rows, which
/// `.Spec.InitContainers[0]…` and `.Spec.EphemeralContainers[0].EphemeralContainerCommon…`
/// repeat).
fn container_defaults(prefix: &str, m: &mut BTreeMap<String, Value>) {
    let mut put = |p: &str, v: Value| {
        m.insert(format!("{prefix}{p}"), v);
    };
    // .Env[0].ValueFrom.FieldRef.APIVersion "v1"
    put("/env/0/valueFrom/fieldRef/apiVersion", json!("v1"));
    // .ImagePullPolicy "IfNotPresent"
    put("/imagePullPolicy", json!("IfNotPresent"));
    // .Lifecycle.PostStart/PreStop.HTTPGet.Path "/" and .Scheme "HTTP"
    for hook in ["postStart", "preStop"] {
        put(&format!("/lifecycle/{hook}/httpGet/path"), json!("/"));
        put(&format!("/lifecycle/{hook}/httpGet/scheme"), json!("HTTP"));
    }
    // .LivenessProbe / .ReadinessProbe / .StartupProbe: FailureThreshold 3, PeriodSeconds 10,
    // SuccessThreshold 1, TimeoutSeconds 1, ProbeHandler.HTTPGet.Path "/" and .Scheme "HTTP",
    // ProbeHandler.GRPC.Service "".
    for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
        put(&format!("/{probe}/failureThreshold"), json!(3));
        put(&format!("/{probe}/periodSeconds"), json!(10));
        put(&format!("/{probe}/successThreshold"), json!(1));
        put(&format!("/{probe}/timeoutSeconds"), json!(1));
        put(&format!("/{probe}/httpGet/path"), json!("/"));
        put(&format!("/{probe}/httpGet/scheme"), json!("HTTP"));
        put(&format!("/{probe}/grpc/service"), json!(""));
    }
    // .Ports[0].Protocol "TCP"
    put("/ports/0/protocol", json!("TCP"));
    // .TerminationMessagePath "/dev/termination-log", .TerminationMessagePolicy "File"
    put("/terminationMessagePath", json!("/dev/termination-log"));
    put("/terminationMessagePolicy", json!("File"));
}

/// The rows shared by TestWorkloadDefaults and TestPodDefaults: the containers', the pod spec's
/// and the volumes' defaults.
fn template_defaults() -> BTreeMap<String, Value> {
    let mut m = BTreeMap::new();
    container_defaults("/containers/0", &mut m);
    container_defaults("/initContainers/0", &mut m);
    container_defaults("/ephemeralContainers/0", &mut m);
    for (p, v) in [
        // .Spec.DNSPolicy, .Spec.RestartPolicy, .Spec.SchedulerName, .Spec.SecurityContext,
        // .Spec.TerminationGracePeriodSeconds
        ("/dnsPolicy", json!("ClusterFirst")),
        ("/restartPolicy", json!("Always")),
        ("/schedulerName", json!("default-scheduler")),
        ("/securityContext", json!({})),
        ("/terminationGracePeriodSeconds", json!(30)),
        // .Spec.Volumes[0].VolumeSource.AzureDisk.{CachingMode,FSType,Kind,ReadOnly}
        ("/volumes/0/azureDisk/cachingMode", json!("ReadWrite")),
        ("/volumes/0/azureDisk/fsType", json!("ext4")),
        ("/volumes/0/azureDisk/kind", json!("Shared")),
        ("/volumes/0/azureDisk/readOnly", json!(false)),
        // .ConfigMap.DefaultMode 420
        ("/volumes/1/configMap/defaultMode", json!(420)),
        // .DownwardAPI.DefaultMode 420, .DownwardAPI.Items[0].FieldRef.APIVersion "v1"
        ("/volumes/2/downwardAPI/defaultMode", json!(420)),
        (
            "/volumes/2/downwardAPI/items/0/fieldRef/apiVersion",
            json!("v1"),
        ),
        // .EmptyDir {}
        ("/volumes/3/emptyDir", json!({})),
        // .Ephemeral.VolumeClaimTemplate.Spec.VolumeMode "Filesystem"
        (
            "/volumes/4/ephemeral/volumeClaimTemplate/spec/volumeMode",
            json!("Filesystem"),
        ),
        // .HostPath.Type ""
        ("/volumes/5/hostPath/type", json!("")),
        // .ISCSI.ISCSIInterface "default"
        ("/volumes/6/iscsi/iscsiInterface", json!("default")),
        // .Projected.DefaultMode 420, .Projected.Sources[0].DownwardAPI.Items[0].FieldRef.
        // APIVersion "v1", .Projected.Sources[0].ServiceAccountToken.ExpirationSeconds 3600
        ("/volumes/7/projected/defaultMode", json!(420)),
        (
            "/volumes/7/projected/sources/0/downwardAPI/items/0/fieldRef/apiVersion",
            json!("v1"),
        ),
        (
            "/volumes/7/projected/sources/1/serviceAccountToken/expirationSeconds",
            json!(3600),
        ),
        // .RBD.Keyring "/etc/ceph/keyring", .RBD.RBDPool "rbd", .RBD.RadosUser "admin"
        ("/volumes/8/rbd/keyring", json!("/etc/ceph/keyring")),
        ("/volumes/8/rbd/pool", json!("rbd")),
        ("/volumes/8/rbd/user", json!("admin")),
        // .ScaleIO.FSType "xfs", .ScaleIO.StorageMode "ThinProvisioned"
        ("/volumes/9/scaleIO/fsType", json!("xfs")),
        ("/volumes/9/scaleIO/storageMode", json!("ThinProvisioned")),
        // .Secret.DefaultMode 420
        ("/volumes/10/secret/defaultMode", json!(420)),
    ] {
        m.insert(p.to_string(), v);
    }
    m
}

fn assert_same(got: &BTreeMap<String, Value>, want: &BTreeMap<String, Value>) {
    let missing: Vec<_> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(v))
        .collect();
    let extra: Vec<_> = got.iter().filter(|(k, _)| !want.contains_key(*k)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "defaults differ from upstream's\n  missing or different: {missing:?}\n  not upstream's: {extra:?}"
    );
}

// Port of TestWorkloadDefaults, "empty PodTemplateSpec"
// (pkg/apis/core/v1/defaults_test.go): the defaults of a ReplicationController's pod template.
#[test]
fn workload_defaults_empty_pod_template_spec() {
    let rc = json!({
        "apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "rc", "namespace": "default"},
        "spec": {"template": {"spec": pod_spec(json!({}))}},
    });
    let got = defaulted_spec_leaves(rc, "/spec/template/spec");
    assert_same(&got, &template_defaults());
}

// Port of TestWorkloadDefaults, "hostnet PodTemplateSpec with ports"
// (pkg/apis/core/v1/defaults_test.go), with DefaultHostNetworkHostPortsInPodTemplates off (its
// default): a template's host-network ports keep hostPort unset, only the protocol is defaulted.
#[test]
fn workload_defaults_host_network_template_ports() {
    let rc = json!({
        "apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "rc", "namespace": "default"},
        "spec": {"template": {"spec": {
            "hostNetwork": true,
            "containers": [{"name": "c", "ports": [{"containerPort": 12345, "protocol": "TCP"}]}],
        }}},
    });
    let mut o = Object::from_value(rc).unwrap();
    default_object(&mut o);
    let v = serde_json::to_value(&o).unwrap();
    assert_eq!(
        v.pointer("/spec/template/spec/containers/0/ports").unwrap(),
        &json!([{"containerPort": 12345, "protocol": "TCP"}])
    );
}

// Port of TestPodDefaults (pkg/apis/core/v1/defaults_test.go): a pod gets the template defaults
// plus enableServiceLinks and requests defaulted from limits (upstream's `{"":"0"}` row: the
// zero-valued limits map entry detectDefaults creates).
#[test]
fn pod_defaults() {
    let mut spec = pod_spec(json!({}));
    for c in ["containers", "initContainers"] {
        spec[c][0]["resources"] = json!({"limits": {"": "0"}});
    }
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": spec,
    });
    let got = defaulted_spec_leaves(pod, "/spec");
    let mut want = template_defaults();
    // .Spec.EnableServiceLinks true
    want.insert("/enableServiceLinks".into(), json!(true));
    // .Spec.Containers[0].Resources.Requests and .Spec.InitContainers[0].Resources.Requests
    want.insert("/containers/0/resources/requests".into(), json!({"": "0"}));
    want.insert(
        "/initContainers/0/resources/requests".into(),
        json!({"": "0"}),
    );
    assert_same(&got, &want);
}

// Port of TestPodHostNetworkDefaults (pkg/apis/core/v1/defaults_test.go), the rows with the
// DefaultHostNetworkHostPortsInPodTemplates gate off (its default): a host-network pod's ports
// default hostPort to containerPort; a pod without host networking keeps it unset.
#[test]
fn pod_host_network_defaults() {
    for (host_net, want_host_port) in [(false, None), (true, Some(12345))] {
        let pod = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {"hostNetwork": host_net, "containers": [{"name": "c",
                "ports": [{"containerPort": 12345, "protocol": "TCP"}]}]},
        });
        let mut o = Object::from_value(pod).unwrap();
        default_object(&mut o);
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(
            v.pointer("/spec/containers/0/ports/0/hostPort")
                .and_then(Value::as_i64),
            want_host_port,
            "hostNetwork {host_net}"
        );
    }
}

fn defaulted(v: Value) -> Value {
    let mut o = Object::from_value(v).unwrap();
    default_object(&mut o);
    serde_json::to_value(&o).unwrap()
}

fn rc(own_labels: Option<Value>, selector: Option<Value>, template_spec: Value) -> Value {
    let mut v = json!({
        "apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"name": "rc", "namespace": "default"},
        "spec": {"template": {"metadata": {"labels": {"foo": "bar"}}, "spec": template_spec}},
    });
    if let Some(l) = own_labels {
        v["metadata"]["labels"] = l;
    }
    if let Some(s) = selector {
        v["spec"]["selector"] = s;
    }
    v
}

// Port of TestSetDefaultReplicationController (pkg/apis/core/v1/defaults_test.go), its four
// rows: the selector defaults to the template labels unless set, and so do the labels.
#[test]
fn set_default_replication_controller() {
    let some_other = json!({"some": "other"});
    let own = json!({"bar": "foo"});
    for (labels, selector, expect_labels, expect_selector) in [
        (None, None, true, true),
        (Some(own.clone()), None, false, true),
        (Some(own), Some(some_other.clone()), false, false),
        (None, Some(some_other), true, false),
    ] {
        let out = defaulted(rc(labels, selector, json!({})));
        let template_labels = &out["spec"]["template"]["metadata"]["labels"];
        assert_eq!(
            &out["spec"]["selector"] == template_labels,
            expect_selector,
            "{out}"
        );
        assert_eq!(
            &out["metadata"]["labels"] == template_labels,
            expect_labels,
            "{out}"
        );
    }
}

// Port of TestSetDefaultReplicationControllerInitContainers
// (pkg/apis/core/v1/defaults_test.go), its six rows: an init container in a controller's template
// gets the pull policy, the fieldRef API version, the port protocol, its resources unchanged,
// probe and lifecycle HTTP GET defaults.
#[test]
fn set_default_replication_controller_init_containers() {
    let init = |c: Value| {
        let out = defaulted(rc(None, None, json!({"initContainers": [c]})));
        out["spec"]["template"]["spec"]["initContainers"][0].clone()
    };
    // "imagePullIPolicy": busybox (no tag) pulls Always.
    let c = init(json!({"name": "install", "image": "busybox"}));
    assert_eq!(c["imagePullPolicy"], "Always");
    // "FieldRef"
    let c = init(
        json!({"name": "fun", "image": "alpine", "env": [{"name": "MY_POD_IP",
        "valueFrom": {"fieldRef": {"apiVersion": "", "fieldPath": "status.podIP"}}}]}),
    );
    assert_eq!(
        c["env"],
        json!([{"name": "MY_POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1",
            "fieldPath": "status.podIP"}}}])
    );
    // "ContainerPort" (kubeplay's port type requires a containerPort).
    let c = init(json!({"name": "fun", "image": "alpine",
        "ports": [{"name": "default", "containerPort": 80}]}));
    assert_eq!(c["ports"][0]["name"], "default");
    assert_eq!(c["ports"][0]["protocol"], "TCP");
    // "Resources"
    let res = json!({"limits": {"cpu": "100m", "memory": "100Mi"},
        "requests": {"cpu": "100m", "memory": "100Mi"}});
    let c = init(json!({"name": "fun", "image": "alpine", "resources": res}));
    assert_eq!(c["resources"], res);
    // "Probe"
    let c = init(json!({"name": "fun", "image": "alpine",
        "livenessProbe": {"httpGet": {"host": "localhost", "port": 80}},
        "readinessProbe": {"httpGet": {"host": "localhost", "port": 80}}}));
    for probe in ["livenessProbe", "readinessProbe"] {
        let p = &c[probe];
        assert_eq!(p["httpGet"]["path"], "/", "{probe}");
        assert_eq!(p["httpGet"]["scheme"], "HTTP", "{probe}");
        assert_eq!(
            [
                &p["timeoutSeconds"],
                &p["periodSeconds"],
                &p["successThreshold"],
                &p["failureThreshold"]
            ],
            [&json!(1), &json!(10), &json!(1), &json!(3)],
            "{probe}"
        );
    }
    // "LifeCycle"
    let c = init(json!({"name": "fun", "image": "alpine",
        "ports": [{"name": "default", "containerPort": 80}],
        "lifecycle": {"postStart": {"httpGet": {"host": "localhost", "port": 80}},
            "preStop": {"httpGet": {"host": "localhost", "port": 80}}}}));
    for hook in ["postStart", "preStop"] {
        assert_eq!(c["lifecycle"][hook]["httpGet"]["path"], "/", "{hook}");
        assert_eq!(c["lifecycle"][hook]["httpGet"]["scheme"], "HTTP", "{hook}");
    }
}

fn pod_with_volume(source: &str, v: Value) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "nginx"}],
            "volumes": [{"name": "v", source: v}]},
    })
}

// Ports of TestSetDefaultSecretVolumeSource's siblings TestSetDefaultConfigMapVolumeSource,
// TestSetDefaultDownwardAPIVolumeSource and TestSetDefaultProjectedVolumeSource
// (pkg/apis/core/v1/defaults_test.go): defaultMode 0644 (420).
#[test]
fn set_default_volume_source_modes() {
    for source in ["configMap", "downwardAPI", "projected"] {
        let out = defaulted(pod_with_volume(source, json!({})));
        assert_eq!(
            out["spec"]["volumes"][0][source]["defaultMode"],
            json!(420),
            "{source}"
        );
    }
}

// Port of TestSetDefaultEphemeral (pkg/apis/core/v1/defaults_test.go), its three rows: a
// generic ephemeral volume's claim template gets volumeMode Filesystem unless one is set.
#[test]
fn set_default_ephemeral() {
    for (mode, want) in [
        (None, "Filesystem"),
        (Some("Filesystem"), "Filesystem"),
        (Some("Block"), "Block"),
    ] {
        let mut spec = json!({});
        if let Some(m) = mode {
            spec["volumeMode"] = json!(m);
        }
        let out = defaulted(pod_with_volume(
            "ephemeral",
            json!({"volumeClaimTemplate": {"spec": spec}}),
        ));
        assert_eq!(
            out["spec"]["volumes"][0]["ephemeral"]["volumeClaimTemplate"]["spec"]["volumeMode"],
            json!(want),
            "{mode:?}"
        );
    }
}

// Port of TestSetDefaultPersistentVolumeClaim (pkg/apis/core/v1/defaults_test.go), its three
// rows: phase Pending, volumeMode Filesystem unless one is set.
#[test]
fn set_default_persistent_volume_claim() {
    for (mode, want) in [
        (None, "Filesystem"),
        (Some("Filesystem"), "Filesystem"),
        (Some("Block"), "Block"),
    ] {
        let mut pvc = json!({
            "apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": "c", "namespace": "default"},
            "spec": {},
        });
        if let Some(m) = mode {
            pvc["spec"]["volumeMode"] = json!(m);
        }
        let out = defaulted(pvc);
        assert_eq!(out["status"]["phase"], "Pending", "{mode:?}");
        assert_eq!(out["spec"]["volumeMode"], json!(want), "{mode:?}");
    }
}

// Port of TestSetDefaultPodSpecHostNetwork (pkg/apis/core/v1/defaults_test.go): a host-network
// pod's container and init-container ports get hostPort = containerPort.
#[test]
fn set_default_pod_spec_host_network() {
    let ports = json!([{"containerPort": 8080}]);
    let out = defaulted(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"hostNetwork": true,
            "containers": [{"name": "c", "ports": ports}],
            "initContainers": [{"name": "i", "ports": ports}]},
    }));
    for c in ["containers", "initContainers"] {
        assert_eq!(
            out["spec"][c][0]["ports"][0]["hostPort"],
            json!(8080),
            "{c}"
        );
    }
}

// Port of TestSetMinimumScalePod (pkg/apis/core/v1/defaults_test.go): requests (and the
// requests defaulted from limits) are rounded up to milli precision, 1n → 1m.
#[test]
fn set_minimum_scale_pod() {
    let res = json!({"requests": {"memory": "1n"}, "limits": {"cpu": "2n"}});
    let out = defaulted(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "resources": res}],
            "initContainers": [{"name": "i", "resources": res}]},
    }));
    for c in ["containers", "initContainers"] {
        assert_eq!(
            out["spec"][c][0]["resources"]["requests"]["memory"],
            json!("1m"),
            "{c}"
        );
    }
}

// Port of TestDefaultRequestIsNotSetForReplicationController
// (pkg/apis/core/v1/defaults_test.go): requests are defaulted from limits on pods only, not on a
// controller's template.
#[test]
fn default_request_is_not_set_for_replication_controller() {
    let mut v = rc(
        None,
        None,
        json!({"containers": [{"name": "c", "image": "nginx",
            "resources": {"limits": {"cpu": "100m"}}}]}),
    );
    v["spec"]["replicas"] = json!(3);
    let out = defaulted(v);
    let c = &out["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["resources"]["limits"]["cpu"], "100m");
    assert!(c["resources"]["requests"]["cpu"].is_null(), "{c}");
}

// Ports of TestSetDefaultSchedulerName, TestSetDefaultEnableServiceLinks and
// TestSetDefaultHostPathVolumeSource (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_scheduler_name_service_links_host_path() {
    let out = defaulted(pod_with_volume("hostPath", json!({"path": "foo"})));
    assert_eq!(out["spec"]["schedulerName"], "default-scheduler");
    assert_eq!(out["spec"]["enableServiceLinks"], json!(true));
    assert_eq!(out["spec"]["volumes"][0]["hostPath"]["type"], json!(""));
}

/// A TestGenerateScale*Rules row's input: pods and percent policies (added when either field is
/// non-zero), stabilization window, select policy.
fn scaling_rules(
    pods: (i32, i32),
    percent: (i32, i32),
    stabilization: Option<i32>,
    select: Option<&str>,
) -> HpaScalingRules {
    let mut policies = vec![];
    let mut add = |type_: &str, (value, period_seconds): (i32, i32)| {
        if value != 0 || period_seconds != 0 {
            policies.push(HpaScalingPolicy {
                type_: type_.into(),
                value,
                period_seconds,
            });
        }
    };
    add("Pods", pods);
    add("Percent", percent);
    HpaScalingRules {
        stabilization_window_seconds: stabilization,
        select_policy: select.map(str::to_string),
        policies: (!policies.is_empty()).then_some(policies),
        tolerance: None,
    }
}

fn policies(list: &[(&str, i32, i32)]) -> Option<Vec<HpaScalingPolicy>> {
    Some(
        list.iter()
            .map(|(t, value, period_seconds)| HpaScalingPolicy {
                type_: t.to_string(),
                value: *value,
                period_seconds: *period_seconds,
            })
            .collect(),
    )
}

// Port of TestGenerateScaleDownRules (pkg/apis/autoscaling/v2/defaults_test.go), all four rows:
// GenerateHPAScaleDownRules is copyHPAScalingRules over the scale-down defaults.
#[test]
fn generate_scale_down_rules() {
    let rows = [
        (
            "Default values",
            scaling_rules((0, 0), (0, 0), None, None),
            policies(&[("Percent", 100, 15)]),
            None,
            "Max",
        ),
        (
            "All parameters are specified",
            scaling_rules((1, 2), (3, 4), Some(25), Some("Max")),
            policies(&[("Pods", 1, 2), ("Percent", 3, 4)]),
            Some(25),
            "Max",
        ),
        (
            "Percent policy is specified",
            scaling_rules((0, 0), (1, 2), None, Some("Min")),
            policies(&[("Percent", 1, 2)]),
            None,
            "Min",
        ),
        (
            "Pods policy is specified",
            scaling_rules((3, 4), (0, 0), None, None),
            policies(&[("Pods", 3, 4)]),
            None,
            "Max",
        ),
    ];
    for (name, rules, want_policies, want_stabilization, want_select) in rows {
        let down = copy_hpa_scaling_rules(Some(&rules), default_scale_down_rules());
        assert_eq!(down.policies, want_policies, "{name}");
        assert_eq!(
            down.stabilization_window_seconds, want_stabilization,
            "{name}"
        );
        assert_eq!(down.select_policy.as_deref(), Some(want_select), "{name}");
    }
}

// Port of TestGenerateScaleUpRules (pkg/apis/autoscaling/v2/defaults_test.go), all six rows.
#[test]
fn generate_scale_up_rules() {
    let rows = [
        (
            "Default values",
            scaling_rules((0, 0), (0, 0), None, None),
            policies(&[("Pods", 4, 15), ("Percent", 100, 15)]),
            Some(0),
            "Max",
        ),
        (
            "All parameters are specified",
            scaling_rules((1, 2), (3, 4), Some(25), Some("Max")),
            policies(&[("Pods", 1, 2), ("Percent", 3, 4)]),
            Some(25),
            "Max",
        ),
        (
            "Pod policy is specified",
            scaling_rules((1, 2), (0, 0), None, Some("Min")),
            policies(&[("Pods", 1, 2)]),
            Some(0),
            "Min",
        ),
        (
            "Percent policy is specified",
            scaling_rules((0, 0), (7, 10), None, None),
            policies(&[("Percent", 7, 10)]),
            Some(0),
            "Max",
        ),
        (
            "Pod policy and stabilization window are specified",
            scaling_rules((4, 2), (0, 0), Some(25), None),
            policies(&[("Pods", 4, 2)]),
            Some(25),
            "Max",
        ),
        (
            "Percent policy and stabilization window are specified",
            scaling_rules((0, 0), (7, 60), Some(25), None),
            policies(&[("Percent", 7, 60)]),
            Some(25),
            "Max",
        ),
    ];
    for (name, rules, want_policies, want_stabilization, want_select) in rows {
        let up = copy_hpa_scaling_rules(Some(&rules), default_scale_up_rules());
        assert_eq!(up.policies, want_policies, "{name}");
        assert_eq!(
            up.stabilization_window_seconds, want_stabilization,
            "{name}"
        );
        assert_eq!(up.select_policy.as_deref(), Some(want_select), "{name}");
    }
}
