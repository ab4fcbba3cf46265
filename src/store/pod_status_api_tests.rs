//! `PUT pods/status` through the API server: `podStatusStrategy.ValidateUpdate` runs
//! ValidatePodStatusUpdate on every pod status write, refusing a bad one with upstream's field
//! path and reason, and `PrepareForUpdate` backfills an omitted `qosClass`.

use super::apiserver::ApiServer;
use crate::api::{ApiError, Object, Pod, Time};
use serde_json::{json, Value};

fn server_with_pod(restart_policy: &str) -> ApiServer {
    let mut api = ApiServer::new(1, Time(0));
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {
            "restartPolicy": restart_policy,
            "containers": [{"name": "app", "image": "nginx",
                "resources": {"requests": {"cpu": "100m"}}}]
        }
    });
    api.create(Object::from_value(pod).unwrap()).unwrap();
    api
}

fn stored(api: &ApiServer) -> Pod {
    api.store.get::<Pod>("default", "p").cloned().unwrap()
}

/// Writes the stored pod's status, changed by `f`, through `pods/status`.
fn write_status(api: &mut ApiServer, f: impl FnOnce(&mut Value)) -> Result<Pod, ApiError> {
    let mut v = serde_json::to_value(stored(api)).unwrap();
    f(&mut v["status"]);
    let o = api.update_status(Object::from_value(v).unwrap())?;
    match o {
        Object::Pod(p) => Ok(p),
        _ => unreachable!(),
    }
}

fn running(name: &str) -> Value {
    json!({"name": name, "ready": true, "restartCount": 0, "image": "nginx", "imageID": "",
        "state": {"running": {"startedAt": "2024-01-01T00:00:00Z"}}})
}

fn terminated(name: &str, code: i32) -> Value {
    json!({"name": name, "ready": false, "restartCount": 0, "image": "nginx", "imageID": "",
        "state": {"terminated": {"exitCode": code, "reason": "Completed"}}})
}

fn refused(r: Result<Pod, ApiError>) -> String {
    match r {
        Ok(_) => panic!("status write accepted"),
        Err(e) => e.message,
    }
}

#[test]
fn a_kubelet_like_status_write_is_accepted() {
    let mut api = server_with_pod("Never");
    assert_eq!(stored(&api).status.qos_class, "Burstable");
    let p = write_status(&mut api, |s| {
        s["phase"] = json!("Running");
        s["hostIP"] = json!("10.0.0.1");
        s["hostIPs"] = json!([{"ip": "10.0.0.1"}]);
        s["podIP"] = json!("10.244.0.5");
        s["podIPs"] = json!([{"ip": "10.244.0.5"}]);
        s["containerStatuses"] = json!([running("app")]);
        s["conditions"] = json!([
            {"type": "Ready", "status": "True"},
            {"type": "DisruptionTarget", "status": "True", "reason": "PreemptionByScheduler"},
            {"type": "example.com/custom", "status": "True"}
        ]);
    })
    .unwrap();
    assert_eq!(p.status.phase, "Running");
    // Then it completes: running -> terminated is always allowed.
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([terminated("app", 0)]);
    })
    .unwrap();
}

#[test]
fn an_omitted_qos_class_keeps_the_stored_one() {
    let mut api = server_with_pod("Always");
    let p = write_status(&mut api, |s| {
        s.as_object_mut().unwrap().remove("qosClass");
        s["phase"] = json!("Running");
    })
    .unwrap();
    assert_eq!(p.status.qos_class, "Burstable");
    assert_eq!(p.status.phase, "Running");
}

#[test]
fn qos_class_is_immutable() {
    let mut api = server_with_pod("Always");
    let msg = refused(write_status(&mut api, |s| {
        s["qosClass"] = json!("Guaranteed");
    }));
    assert_eq!(
        msg,
        r#"Pod "p" is invalid: status.qosClass: Invalid value: "Guaranteed": field is immutable"#
    );
    assert_eq!(stored(&api).status.qos_class, "Burstable");
}

#[test]
fn a_terminated_container_may_not_run_again_under_restart_policy_never() {
    let mut api = server_with_pod("Never");
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([terminated("app", 0)]);
    })
    .unwrap();
    let msg = refused(write_status(&mut api, |s| {
        s["containerStatuses"] = json!([running("app")]);
    }));
    assert_eq!(
        msg,
        r#"Pod "p" is invalid: status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state"#
    );
}

#[test]
fn restart_policy_decides_which_terminated_containers_may_restart() {
    // Always: any restart. OnFailure: only after a failure.
    let mut api = server_with_pod("Always");
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([terminated("app", 0)]);
    })
    .unwrap();
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([running("app")]);
    })
    .unwrap();

    let mut api = server_with_pod("OnFailure");
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([terminated("app", 1)]);
    })
    .unwrap();
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([running("app")]);
    })
    .unwrap();
    write_status(&mut api, |s| {
        s["containerStatuses"] = json!([terminated("app", 0)]);
    })
    .unwrap();
    let msg = refused(write_status(&mut api, |s| {
        s["containerStatuses"] = json!([running("app")]);
    }));
    assert!(
        msg.ends_with("may not be transitioned to non-terminated state"),
        "{msg}"
    );
}

#[test]
fn nominated_node_name_must_be_a_node_name() {
    let mut api = server_with_pod("Always");
    let msg = refused(write_status(&mut api, |s| {
        s["nominatedNodeName"] = json!("Node_1");
    }));
    assert!(
        msg.starts_with(
            r#"Pod "p" is invalid: status.nominatedNodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain"#
        ),
        "{msg}"
    );
    write_status(&mut api, |s| s["nominatedNodeName"] = json!("node-1")).unwrap();
}

#[test]
fn custom_condition_types_are_qualified_names() {
    let mut api = server_with_pod("Always");
    let msg = refused(write_status(&mut api, |s| {
        s["conditions"] = json!([
            {"type": "Ready", "status": "True"},
            {"type": "not a name", "status": "True"}
        ]);
    }));
    assert!(
        msg.starts_with(
            r#"Pod "p" is invalid: metadata.conditions[1].Type: Invalid value: "not a name": name part must consist of"#
        ),
        "{msg}"
    );
}

#[test]
fn pod_and_host_ips_are_checked() {
    let mut api = server_with_pod("Always");
    let msg = refused(write_status(&mut api, |s| {
        s["podIP"] = json!("not-an-ip");
    }));
    assert_eq!(
        msg,
        r#"Pod "p" is invalid: status.podIPs[0]: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"#
    );
    let msg = refused(write_status(&mut api, |s| {
        s["podIP"] = json!("10.0.0.1");
        s["podIPs"] = json!([{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}]);
    }));
    assert_eq!(
        msg,
        r#"Pod "p" is invalid: status.podIPs: Invalid value: [{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}]: may specify no more than one IP for each IP family"#
    );
    let msg = refused(write_status(&mut api, |s| {
        s["hostIPs"] = json!([{"ip": "10.0.0.1"}]);
    }));
    assert_eq!(
        msg,
        r#"Pod "p" is invalid: status.hostIPs[0].ip: Invalid value: "10.0.0.1": must be equal to `hostIP`"#
    );
    // Dual stack, one of each family.
    write_status(&mut api, |s| {
        s["podIP"] = json!("10.0.0.1");
        s["podIPs"] = json!([{"ip": "10.0.0.1"}, {"ip": "fd00::1"}]);
        s["hostIP"] = json!("10.1.0.1");
        s["hostIPs"] = json!([{"ip": "10.1.0.1"}, {"ip": "fd01::1"}]);
    })
    .unwrap();
    let msg = refused(write_status(&mut api, |s| {
        s["hostIPs"] = json!([{"ip": "10.1.0.1"}, {"ip": "10.1.0.1"}]);
    }));
    assert_eq!(
        msg,
        r#"Pod "p" is invalid: [status.hostIPs[1]: Duplicate value: {"ip":"10.1.0.1"}, status.hostIPs: Invalid value: [{"ip":"10.1.0.1"},{"ip":"10.1.0.1"}]: may specify no more than one IP for each IP family]"#
    );
}

#[test]
fn a_refused_write_leaves_the_pod_unchanged() {
    let mut api = server_with_pod("Never");
    let before = stored(&api);
    let r = write_status(&mut api, |s| {
        s["phase"] = json!("Running");
        s["qosClass"] = json!("BestEffort");
    });
    assert!(r.is_err());
    assert_eq!(stored(&api), before);
}
