//! upstream: TestValidatePodResize (pkg/apis/core/validation/validation_test.go), through
//! [`validate_pod_resize`]. Every upstream row is here; the four rows that expected
//! "memory limits cannot be decreased" (1.33) expect success, as in 1.34+ (kubernetes PR
//! #133012 lifted the rule). Rows assert as upstream does (the aggregate contains the text);
//! the hand-derived cases at the end assert the whole error list.

use super::pod_resize::validate_pod_resize;
use crate::api::core::Pod;
use crate::api::errors::FieldError;
use serde_json::{json, Map, Value};

fn strings(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

/// upstream `getResources(cpu, memory, ephemeralStorage, storage)`: empty strings are left out.
fn res(cpu: &str, mem: &str, eph: &str) -> Value {
    let mut m = Map::new();
    for (k, v) in [("cpu", cpu), ("memory", mem), ("ephemeral-storage", eph)] {
        if !v.is_empty() {
            m.insert(k.into(), json!(v));
        }
    }
    Value::Object(m)
}

fn none() -> Value {
    json!({})
}

fn ctr(name: &str, req: &Value, lim: &Value) -> Value {
    json!({"name": name, "image": "image", "imagePullPolicy": "IfNotPresent",
           "terminationMessagePolicy": "File",
           "resources": {"requests": req, "limits": lim}})
}

/// `podtest.MakePod("pod", ...)` from a spec patch.
fn pod(spec_patch: Value, status: Value) -> Pod {
    let mut spec = json!({
        "containers": [ctr("ctr", &none(), &none())],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "terminationGracePeriodSeconds": 30,
    });
    if let (Some(s), Some(p)) = (spec.as_object_mut(), spec_patch.as_object()) {
        for (k, v) in p {
            s.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(json!({
        "metadata": {"name": "pod", "namespace": "ns", "resourceVersion": "1"},
        "spec": spec,
        "status": status,
    }))
    .expect("pod")
}

fn resize_policy(resource: &str, policy: &str) -> Value {
    json!([{"resourceName": resource, "restartPolicy": policy}])
}

/// upstream `mkPod(req, lim, tweaks...)`: one container named "container".
fn mk_pod(req: Value, lim: Value) -> Pod {
    mk_pod_with(req, lim, None, json!({}))
}

fn mk_pod_with(req: Value, lim: Value, policy: Option<Value>, extra_spec: Value) -> Pod {
    let mut c = ctr("container", &req, &lim);
    if let Some(p) = policy {
        c["resizePolicy"] = p;
    }
    let mut patch = json!({"containers": [c]});
    if let (Some(s), Some(p)) = (patch.as_object_mut(), extra_spec.as_object()) {
        for (k, v) in p {
            s.insert(k.clone(), v.clone());
        }
    }
    pod(patch, json!({}))
}

/// upstream `mkPodWithInitContainers(req, lim, restartPolicy, tweaks...)`; `TweakContainers`
/// puts the resize policy on every container.
fn mk_init(req: Value, lim: Value, restart: &str, policy: Option<Value>) -> Pod {
    let mut ic = ctr("container", &req, &lim);
    let mut main = ctr("ctr", &none(), &none());
    if !restart.is_empty() {
        ic["restartPolicy"] = json!(restart);
    }
    if let Some(p) = policy {
        ic["resizePolicy"] = p.clone();
        main["resizePolicy"] = p;
    }
    pod(
        json!({"initContainers": [ic], "containers": [main]}),
        json!({}),
    )
}

fn pod_level(ctr_res: (&str, Value), pod_res: (&str, Value)) -> Pod {
    let mut c = ctr("container", &none(), &none());
    c["resources"] = json!({ctr_res.0: ctr_res.1});
    pod(
        json!({"containers": [c], "resources": {pod_res.0: pod_res.1}}),
        json!({}),
    )
}

/// The old pod of the status rows: `mkPod({}, getResources("100m", "0", "1Gi", ""))` with a
/// status.
fn with_status(status: Value) -> Pod {
    let mut p = mk_pod(none(), res("100m", "0", "1Gi"));
    p.status = serde_json::from_value(status).expect("status");
    p
}

fn status_with(resources: Option<Value>, running: bool) -> Value {
    let mut cs = json!({"containerID": "docker://numbers", "image": "nginx:alpine",
                        "name": "main", "ready": true, "started": true});
    cs["state"] = if running {
        json!({"running": {"startedAt": "2024-01-01T00:00:00Z"}})
    } else {
        json!({"waiting": {"reason": "PodInitializing"}})
    };
    if let Some(r) = resources {
        cs["resources"] = r;
    }
    json!({"containerStatuses": [cs]})
}

#[test]
fn validate_pod_resize_table() {
    let pl = "pods with pod-level resources cannot be resized";
    let only = "spec: Forbidden: only cpu and memory resources are mutable";
    let only_sidecar =
        "spec: Forbidden: only cpu and memory resources for sidecar containers are mutable";
    let qos = "Pod QOS Class may not change as a result of resizing";
    let win = "Forbidden: windows pods cannot be resized";
    let lim_removed =
        "spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed";
    let req_removed =
        "spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed";
    let ilim_removed =
        "spec.initContainers[0].resources.limits: Forbidden: resource limits cannot be removed";
    let ireq_removed =
        "spec.initContainers[0].resources.requests: Forbidden: resource requests cannot be removed";
    let l = |c: &str, m: &str, e: &str| res(c, m, e);
    let win_spec = json!({"os": {"name": "windows"}});
    let rows: Vec<(&str, Pod, Pod, &str)> = vec![
        (
            "pod-level resources with container cpu limit change",
            pod_level(
                ("limits", l("200m", "100Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pod_level(
                ("limits", l("100m", "100Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with container memory limit change",
            pod_level(
                ("limits", l("100m", "100Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pod_level(
                ("limits", l("100m", "200Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with container cpu request change",
            pod_level(
                ("requests", l("200m", "200Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pod_level(
                ("requests", l("100m", "200Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with container memory request change",
            pod_level(
                ("requests", l("100m", "200Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with pod-level memory limit change",
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("limits", l("200m", "100Mi", "")),
            ),
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("limits", l("200m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with pod-level memory request change",
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("requests", l("200m", "100Mi", "")),
            ),
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("requests", l("200m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with pod-level cpu limit change",
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("limits", l("100m", "200Mi", "")),
            ),
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("limits", l("200m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "pod-level resources with pod-level cpu request change",
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("requests", l("200m", "200Mi", "")),
            ),
            pod_level(
                ("requests", l("100m", "100Mi", "")),
                ("requests", l("100m", "200Mi", "")),
            ),
            pl,
        ),
        (
            "cpu limit change",
            mk_pod(none(), l("100m", "0", "1Gi")),
            mk_pod(none(), l("200m", "0", "1Gi")),
            "",
        ),
        (
            "memory limit increase",
            mk_pod(none(), l("100m", "100Mi", "")),
            mk_pod(none(), l("100m", "200Mi", "")),
            "",
        ),
        // 1.33 expected "memory limits cannot be decreased"; allowed since 1.34.
        (
            "no restart policy: memory limit decrease",
            mk_pod(none(), l("100m", "200Mi", "")),
            mk_pod(none(), l("100m", "100Mi", "")),
            "",
        ),
        (
            "restart NotRequired: memory limit decrease",
            mk_pod_with(
                none(),
                l("100m", "200Mi", ""),
                Some(resize_policy("memory", "NotRequired")),
                json!({}),
            ),
            mk_pod_with(
                none(),
                l("100m", "100Mi", ""),
                Some(resize_policy("memory", "NotRequired")),
                json!({}),
            ),
            "",
        ),
        (
            "RestartContainer: memory limit decrease",
            mk_pod_with(
                none(),
                l("100m", "200Mi", ""),
                Some(resize_policy("memory", "RestartContainer")),
                json!({}),
            ),
            mk_pod_with(
                none(),
                l("100m", "100Mi", ""),
                Some(resize_policy("memory", "RestartContainer")),
                json!({}),
            ),
            "",
        ),
        (
            "storage limit change",
            mk_pod(none(), l("100m", "100Mi", "2Gi")),
            mk_pod(none(), l("100m", "100Mi", "1Gi")),
            only,
        ),
        (
            "cpu request change",
            mk_pod(l("200m", "0", ""), none()),
            mk_pod(l("100m", "0", ""), none()),
            "",
        ),
        (
            "memory request change",
            mk_pod(l("0", "100Mi", ""), none()),
            mk_pod(l("0", "200Mi", ""), none()),
            "",
        ),
        (
            "storage request change",
            mk_pod(l("100m", "0", "1Gi"), none()),
            mk_pod(l("100m", "0", "2Gi"), none()),
            only,
        ),
        (
            "Pod QoS unchanged, guaranteed -> guaranteed",
            mk_pod(l("100m", "100Mi", "1Gi"), l("100m", "100Mi", "1Gi")),
            mk_pod(l("200m", "400Mi", "1Gi"), l("200m", "400Mi", "1Gi")),
            "",
        ),
        (
            "Pod QoS unchanged, burstable -> burstable",
            mk_pod(l("200m", "100Mi", "1Gi"), l("400m", "200Mi", "2Gi")),
            mk_pod(l("100m", "200Mi", "1Gi"), l("200m", "400Mi", "2Gi")),
            "",
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, add limits",
            mk_pod(l("100m", "100Mi", ""), none()),
            mk_pod(l("100m", "100Mi", ""), l("200m", "", "")),
            "",
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, add requests",
            mk_pod(none(), l("200m", "500Mi", "1Gi")),
            mk_pod(l("300m", "", ""), l("400m", "500Mi", "1Gi")),
            "",
        ),
        (
            "Pod QoS change, guaranteed -> burstable",
            mk_pod(l("100m", "100Mi", ""), l("100m", "100Mi", "")),
            mk_pod(l("100m", "100Mi", ""), l("200m", "200Mi", "")),
            qos,
        ),
        (
            "Pod QoS change, burstable -> guaranteed",
            mk_pod(l("100m", "100Mi", ""), none()),
            mk_pod(l("100m", "100Mi", ""), l("100m", "100Mi", "")),
            qos,
        ),
        (
            "Pod QoS change, besteffort -> burstable",
            mk_pod(none(), none()),
            mk_pod(l("100m", "100Mi", ""), l("200m", "200Mi", "")),
            qos,
        ),
        (
            "Pod QoS change, burstable -> besteffort",
            mk_pod(l("100m", "100Mi", ""), l("200m", "200Mi", "")),
            mk_pod(none(), none()),
            qos,
        ),
        (
            "windows pod, no resource change",
            mk_pod_with(none(), l("100m", "0", "1Gi"), None, win_spec.clone()),
            mk_pod_with(none(), l("100m", "0", "1Gi"), None, win_spec.clone()),
            win,
        ),
        (
            "windows pod, resource change",
            mk_pod_with(none(), l("100m", "0", "1Gi"), None, win_spec.clone()),
            mk_pod_with(none(), l("200m", "0", "1Gi"), None, win_spec.clone()),
            win,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove cpu limit",
            mk_pod(none(), l("100m", "100Mi", "")),
            mk_pod(none(), l("", "100Mi", "")),
            lim_removed,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove memory limit",
            mk_pod(none(), l("100m", "100Mi", "")),
            mk_pod(none(), l("100m", "", "")),
            lim_removed,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove cpu request",
            mk_pod(l("100m", "100Mi", ""), none()),
            mk_pod(l("", "100Mi", ""), none()),
            req_removed,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove memory request",
            mk_pod(l("100m", "100Mi", ""), none()),
            mk_pod(l("100m", "", ""), none()),
            req_removed,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove cpu and memory limits",
            mk_pod(l("100m", "", ""), l("100m", "100Mi", "")),
            mk_pod(l("100m", "", ""), none()),
            lim_removed,
        ),
        (
            "Pod QoS unchanged, burstable -> burstable, remove cpu and memory requests",
            mk_pod(l("100m", "100Mi", ""), l("100m", "", "")),
            mk_pod(none(), l("100m", "", "")),
            req_removed,
        ),
        (
            "sidecar: remove cpu limit",
            mk_init(none(), l("100m", "100Mi", ""), "Always", None),
            mk_init(none(), l("", "100Mi", ""), "Always", None),
            ilim_removed,
        ),
        (
            "sidecar: remove memory limit",
            mk_init(none(), l("100m", "100Mi", ""), "Always", None),
            mk_init(none(), l("100m", "", ""), "Always", None),
            ilim_removed,
        ),
        (
            "sidecar: remove cpu request",
            mk_init(l("100m", "100Mi", ""), none(), "Always", None),
            mk_init(l("", "100Mi", ""), none(), "Always", None),
            ireq_removed,
        ),
        (
            "sidecar: remove memory request",
            mk_init(l("100m", "100Mi", ""), none(), "Always", None),
            mk_init(l("100m", "", ""), none(), "Always", None),
            ireq_removed,
        ),
        (
            "sidecar: remove cpu and memory limits",
            mk_init(l("100m", "", ""), l("100m", "100Mi", ""), "Always", None),
            mk_init(l("100m", "", ""), none(), "Always", None),
            ilim_removed,
        ),
        (
            "sidecar: remove cpu and memory requests",
            mk_init(l("100m", "100Mi", ""), l("100m", "", ""), "Always", None),
            mk_init(none(), l("100m", "", ""), "Always", None),
            ireq_removed,
        ),
        (
            "non-sidecar init: remove cpu and memory requests",
            mk_init(l("100m", "100Mi", ""), l("100m", "", ""), "", None),
            mk_init(none(), l("100m", "", ""), "", None),
            "spec: Forbidden: resources for non-sidecar init containers are immutable",
        ),
        (
            "Pod with nil Resource field in Status",
            with_status(status_with(None, true)),
            mk_pod(none(), l("200m", "0", "1Gi")),
            "Forbidden: Pod running on node without support for resize",
        ),
        (
            "Pod with non-nil Resources field in Status",
            with_status(status_with(Some(json!({})), true)),
            mk_pod(none(), l("200m", "0", "1Gi")),
            "",
        ),
        (
            "Pod without running containers",
            with_status(json!({"containerStatuses": []})),
            mk_pod(none(), l("200m", "0", "1Gi")),
            "",
        ),
        (
            "Pod with containers which are not running yet",
            with_status(status_with(Some(json!({})), false)),
            mk_pod(none(), l("200m", "0", "1Gi")),
            "",
        ),
        (
            "cpu limit change for sidecar containers",
            mk_init(none(), l("100m", "0", "1Gi"), "Always", None),
            mk_init(none(), l("200m", "0", "1Gi"), "Always", None),
            "",
        ),
        (
            "memory limit increase for sidecar containers",
            mk_init(none(), l("100m", "100Mi", ""), "Always", None),
            mk_init(none(), l("100m", "200Mi", ""), "Always", None),
            "",
        ),
        // The next two expected "memory limits cannot be decreased" in 1.33.
        (
            "memory limit decrease for sidecar containers, no resize policy",
            mk_init(none(), l("100m", "200Mi", ""), "Always", None),
            mk_init(none(), l("100m", "100Mi", ""), "Always", None),
            "",
        ),
        (
            "memory limit decrease for sidecar containers, resize policy NotRequired",
            mk_init(
                none(),
                l("100m", "200Mi", ""),
                "Always",
                Some(resize_policy("memory", "NotRequired")),
            ),
            mk_init(
                none(),
                l("100m", "100Mi", ""),
                "Always",
                Some(resize_policy("memory", "NotRequired")),
            ),
            "",
        ),
        (
            "memory limit decrease for sidecar containers, resize policy RestartContainer",
            mk_init(
                none(),
                l("100m", "200Mi", ""),
                "Always",
                Some(resize_policy("memory", "RestartContainer")),
            ),
            mk_init(
                none(),
                l("100m", "100Mi", ""),
                "Always",
                Some(resize_policy("memory", "RestartContainer")),
            ),
            "",
        ),
        (
            "storage limit change for sidecar containers",
            mk_init(none(), l("100m", "100Mi", "2Gi"), "Always", None),
            mk_init(none(), l("100m", "100Mi", "1Gi"), "Always", None),
            only_sidecar,
        ),
        (
            "cpu request change for sidecar containers",
            mk_init(l("200m", "0", ""), none(), "Always", None),
            mk_init(l("100m", "0", ""), none(), "Always", None),
            "",
        ),
        (
            "memory request change for sidecar containers",
            mk_init(l("0", "100Mi", ""), none(), "Always", None),
            mk_init(l("0", "200Mi", ""), none(), "Always", None),
            "",
        ),
        (
            "storage request change for sidecar containers",
            mk_init(l("100m", "0", "1Gi"), none(), "Always", None),
            mk_init(l("100m", "0", "2Gi"), none(), "Always", None),
            only_sidecar,
        ),
        (
            "change resize restart policy",
            mk_pod_with(
                l("100m", "0", "1Gi"),
                none(),
                Some(resize_policy("cpu", "NotRequired")),
                json!({}),
            ),
            mk_pod_with(
                l("100m", "0", "2Gi"),
                none(),
                Some(resize_policy("cpu", "RestartContainer")),
                json!({}),
            ),
            only,
        ),
        (
            "change sidecar container resize restart policy",
            mk_init(
                l("100m", "0", "1Gi"),
                none(),
                "Always",
                Some(resize_policy("memory", "RestartContainer")),
            ),
            mk_init(
                l("100m", "0", "2Gi"),
                none(),
                "Always",
                Some(resize_policy("memory", "NotRequired")),
            ),
            only,
        ),
    ];
    for (name, old, new, want) in rows {
        let errs = validate_pod_resize(&new, &old);
        if want.is_empty() {
            assert!(errs.is_empty(), "{name}: {:?}", strings(&errs));
        } else {
            assert!(
                strings(&errs).iter().any(|e| e.contains(want)),
                "{name}: want {want:?} in {:?}",
                strings(&errs)
            );
        }
    }
}

// Hand-derived from ValidatePodResize / validateContainerResize (validation.go).

#[test]
fn resize_static_pod_is_forbidden_alone() {
    let mut old = mk_pod(none(), l3("100m"));
    let mut new = mk_pod(none(), l3("200m"));
    for p in [&mut old, &mut new] {
        std::sync::Arc::make_mut(&mut p.spec).node_name = "node-1".into();
        p.metadata.annotations = std::collections::BTreeMap::from([(
            super::pod::MIRROR_POD_ANNOTATION.to_string(),
            "foo".to_string(),
        )])
        .into();
    }
    assert_eq!(
        strings(&validate_pod_resize(&new, &old)),
        vec![": Forbidden: static pods cannot be resized"]
    );
}

fn l3(cpu: &str) -> Value {
    res(cpu, "", "")
}

#[test]
fn resize_qos_error_carries_new_status_class_and_exact_list() {
    // Guaranteed -> Burstable: the bad value is the new pod's status.qosClass.
    let old = mk_pod(res("100m", "100Mi", ""), res("100m", "100Mi", ""));
    let mut new = mk_pod(res("100m", "100Mi", ""), res("200m", "200Mi", ""));
    new.status.qos_class = "Guaranteed".into();
    assert_eq!(
        strings(&validate_pod_resize(&new, &old)),
        vec![
            "spec: Invalid value: \"Guaranteed\": Pod QOS Class may not change as a result of resizing"
        ]
    );
}

#[test]
fn resize_recorded_old_qos_class_wins_over_computed() {
    // qos.GetPodQOS reads the recorded class: a stored Burstable class and a Burstable resize
    // pass even though the old spec alone would compute Guaranteed.
    let mut old = mk_pod(res("100m", "100Mi", ""), res("100m", "100Mi", ""));
    old.status.qos_class = "Burstable".into();
    let new = mk_pod(res("100m", "100Mi", ""), res("200m", "200Mi", ""));
    assert!(validate_pod_resize(&new, &old).is_empty());
}

#[test]
fn resize_semantically_equal_quantities_are_no_change() {
    // 1Gi and 1073741824 are the same quantity (apiequality.Semantic).
    let old = mk_pod(res("100m", "", "1Gi"), none());
    let new = mk_pod(res("200m", "", "1073741824"), none());
    assert!(validate_pod_resize(&new, &old).is_empty());
}

#[test]
fn resize_both_removals_reported_in_order() {
    let old = mk_pod(res("100m", "100Mi", ""), res("200m", "200Mi", ""));
    let new = mk_pod(res("100m", "", ""), res("200m", "", ""));
    assert_eq!(
        strings(&validate_pod_resize(&new, &old)),
        vec![
            "spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed",
            "spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed",
        ]
    );
}

#[test]
fn resize_other_spec_change_is_forbidden() {
    // Only resources may change: a new image goes through a regular update, not resize.
    let old = mk_pod(res("100m", "", ""), none());
    let mut new = mk_pod(res("200m", "", ""), none());
    if let Some(c) = std::sync::Arc::make_mut(&mut new.spec)
        .containers
        .get_mut(0)
    {
        c.image = "image:2".into();
    }
    assert_eq!(
        strings(&validate_pod_resize(&new, &old)),
        vec!["spec: Forbidden: only cpu and memory resources are mutable"]
    );
    let mut new = mk_pod(res("200m", "", ""), none());
    std::sync::Arc::make_mut(&mut new.spec)
        .extra
        .insert("activeDeadlineSeconds".into(), json!(5));
    assert_eq!(
        strings(&validate_pod_resize(&new, &old)),
        vec!["spec: Forbidden: only cpu and memory resources are mutable"]
    );
}

#[test]
fn resize_adding_other_resource_to_missing_list_is_not_seen() {
    // dropCPUMemoryResourcesFromContainer drops a list the old container lacked: adding an
    // ephemeral-storage limit where there were no limits at all is not caught (an upstream
    // quirk kept on purpose); with existing limits it is.
    let old = mk_pod(res("100m", "", ""), none());
    let new = mk_pod(res("100m", "", ""), res("", "", "1Gi"));
    assert!(validate_pod_resize(&new, &old).is_empty());
    let old = mk_pod(res("100m", "", ""), res("200m", "", ""));
    let new = mk_pod(res("100m", "", ""), res("200m", "", "1Gi"));
    assert_eq!(
        strings(&validate_pod_resize(&new, &old)),
        vec!["spec: Forbidden: only cpu and memory resources are mutable"]
    );
}

#[test]
fn resize_with_different_container_count_does_not_panic() {
    let old = mk_pod(res("100m", "", ""), none());
    let mut new = old.clone();
    std::sync::Arc::make_mut(&mut new.spec).containers.clear();
    let errs = validate_pod_resize(&new, &old);
    assert!(!errs.is_empty());
}
