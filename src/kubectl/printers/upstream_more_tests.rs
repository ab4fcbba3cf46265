//! More ports from `pkg/printers/internalversion/printers_test.go` (repo kubernetes/kubernetes):
//! the last rows of TestPrintPod (terminal phases and deleted pods) and the list printers of
//! DaemonSets and Jobs. Objects are built as upstream's are (no API defaulting); upstream's
//! creation time `time.Now().Add(1.9e9)` is one second after the test clock here (whole seconds
//! in RFC 3339), which prints the same `0s`.

use super::testutil::now;
use super::{rows, PrintOptions};
use crate::api::{Duration, Object};
use serde_json::{json, Value};

fn obj(v: Value) -> Object {
    Object::from_value(v).unwrap()
}

fn cells(objects: &[&Object], wide: bool) -> Vec<Vec<String>> {
    rows(objects, &PrintOptions { wide, now: now() })
        .into_iter()
        .map(|r| r.cells)
        .collect()
}

fn soon() -> String {
    (now() + Duration::from_secs(1)).to_rfc3339()
}

/// A one-container pod of TestPrintPod's last rows.
fn pod(name: &str, deleted: bool, phase: &str, statuses: Value) -> Object {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name},
        "spec": {"containers": [{"name": ""}]},
        "status": {"phase": phase, "containerStatuses": statuses},
    });
    if deleted {
        // deleteTime := metav1.NewTime(time.Now().Add(-10 * time.Second))
        p["metadata"]["deletionTimestamp"] = json!((now() - Duration::from_secs(10)).to_rfc3339());
    }
    obj(p)
}

fn terminated(reason: &str, exit_code: i32) -> Value {
    json!([{"name": "", "ready": false, "restartCount": 0, "image": "", "imageID": "",
        "state": {"terminated": {"reason": reason, "exitCode": exit_code}}}])
}

// Port of TestPrintPod (pkg/printers/internalversion/printers_test.go), rows test16–test20:
// a Succeeded pod shows its container's Completed, a Failed one its Error; a deleted pod in a
// terminal phase keeps that status, a deleted running or pending pod is Terminating. (Upstream
// also sets the row conditions Completed / Failed, which kubeplay's table rows do not carry.)
#[test]
fn print_pod_terminal_and_deleted_rows() {
    let running = json!([{"name": "", "ready": false, "restartCount": 0, "image": "",
        "imageID": "", "state": {"running": {}}}]);
    let cases = [
        (
            pod("test16", false, "Succeeded", terminated("Completed", 0)),
            ["test16", "0/1", "Completed", "0", "<unknown>"],
        ),
        (
            pod("test17", false, "Failed", terminated("Error", 1)),
            ["test17", "0/1", "Error", "0", "<unknown>"],
        ),
        (
            pod("test18", true, "Succeeded", terminated("Completed", 0)),
            ["test18", "0/1", "Completed", "0", "<unknown>"],
        ),
        (
            pod("test19", true, "Running", running),
            ["test19", "0/1", "Terminating", "0", "<unknown>"],
        ),
        (
            pod("test20", true, "Pending", json!([])),
            ["test20", "0/1", "Terminating", "0", "<unknown>"],
        ),
    ];
    for (p, want) in cases {
        assert_eq!(cells(&[&p], false), [want], "{}", p.meta().name);
    }
}

// Port of TestPrintDaemonSetList (pkg/printers/internalversion/printers_test.go): one row per
// DaemonSet (NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE).
#[test]
fn print_daemon_set_list() {
    let ds = |name: &str, template: Value, selector: Option<Value>, status: Value| {
        let mut v = json!({
            "apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": name, "creationTimestamp": soon()},
            "spec": {"template": template},
            "status": status,
        });
        if let Some(s) = selector {
            v["spec"]["selector"] = s;
        }
        obj(v)
    };
    let d1 = ds(
        "daemonset1",
        json!({"spec": {"containers": [
            {"name": "fake-container1", "image": "fake-image1"},
            {"name": "fake-container2", "image": "fake-image2"},
        ]}}),
        None,
        json!({"currentNumberScheduled": 2, "desiredNumberScheduled": 3, "numberReady": 1,
            "updatedNumberScheduled": 2, "numberAvailable": 0, "numberMisscheduled": 0}),
    );
    let d2 = ds(
        "daemonset2",
        json!({}),
        Some(json!({"matchLabels": {"foo": "bar"}})),
        json!({"currentNumberScheduled": 4, "desiredNumberScheduled": 2, "numberReady": 9,
            "updatedNumberScheduled": 3, "numberAvailable": 3, "numberMisscheduled": 0}),
    );
    assert_eq!(
        cells(&[&d1, &d2], false)
            .into_iter()
            .map(|c| c[..8].to_vec())
            .collect::<Vec<_>>(),
        [
            ["daemonset1", "3", "2", "1", "2", "0", "<none>", "0s"],
            ["daemonset2", "2", "4", "9", "3", "3", "<none>", "0s"],
        ]
    );
}

// Port of TestPrintJobList (pkg/printers/internalversion/printers_test.go): one row per Job
// (NAME STATUS COMPLETIONS DURATION AGE); a started Job's duration runs to now.
#[test]
fn print_job_list() {
    let job = |name: &str, status: Value| {
        obj(json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "creationTimestamp": soon()},
            "spec": {
                "completions": 2,
                "selector": {"matchLabels": {"job-label": "job-lable-value"}},
                "template": {"spec": {"containers": [
                    {"name": "fake-job-container1", "image": "fake-job-image1"},
                    {"name": "fake-job-container2", "image": "fake-job-image2"},
                ]}},
            },
            "status": status,
        }))
    };
    let j1 = job("job1", json!({"succeeded": 1}));
    let j2 = job(
        "job2",
        json!({"succeeded": 2,
            "startTime": (now() - Duration::from_secs(20 * 60)).to_rfc3339()}),
    );
    assert_eq!(
        cells(&[&j1, &j2], false)
            .into_iter()
            .map(|c| c[..5].to_vec())
            .collect::<Vec<_>>(),
        [
            ["job1", "Running", "1/2", "", "0s"],
            ["job2", "Running", "2/2", "20m", "0s"],
        ]
    );
}

/// An HPA of TestPrintHPA: scaling ReplicationController some-rc, maxReplicas 10, 4 current
/// and 5 desired replicas.
fn hpa(min: Option<i32>, metrics: Value, current: Value) -> Object {
    let mut v = json!({
        "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "some-hpa"},
        "spec": {"scaleTargetRef": {"name": "some-rc", "kind": "ReplicationController"},
            "maxReplicas": 10, "metrics": metrics},
        "status": {"currentReplicas": 4, "desiredReplicas": 5, "currentMetrics": current},
    });
    if let Some(m) = min {
        v["spec"]["minReplicas"] = json!(m);
    }
    obj(v)
}

// Port of TestPrintHPA (pkg/printers/internalversion/printers_test.go), all eighteen rows: the
// TARGETS column for every metric source type, with and without a current value
// (`resource.NewMilliQuantity(n)` written as "nm"). Upstream prints " (avg)" after an External
// average-value target and names Resource and ContainerResource metrics.
#[test]
fn print_hpa_upstream_table() {
    let sel = json!({"matchLabels": {"label": "value"}});
    let avg = |m: &str| json!({"type": "AverageValue", "averageValue": m});
    let val = |m: &str| json!({"type": "Value", "value": m});
    let util = json!({"type": "Utilization", "averageUtilization": 80});
    let external = |name: &str, target: Value| {
        json!([{"type": "External", "external": {
            "metric": {"name": name, "selector": sel}, "target": target}}])
    };
    let external_cur = |current: Value, with_selector: bool| {
        let mut metric = json!({"name": "some-external-metric"});
        if with_selector {
            metric["selector"] = sel.clone();
        }
        json!([{"type": "External", "external": {"metric": metric, "current": current}}])
    };
    let pods = json!([{"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"},
        "target": avg("100m")}}]);
    let pods_cur = json!([{"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"},
        "current": {"averageValue": "50m"}}}]);
    let object = json!([{"type": "Object", "object": {
        "describedObject": {"name": "some-service", "kind": "Service"},
        "metric": {"name": "some-service-metric"}, "target": val("100m")}}]);
    let object_cur = json!([{"type": "Object", "object": {
        "describedObject": {"name": "some-service", "kind": "Service"},
        "metric": {"name": "some-service-metric"}, "current": {"value": "50m"}}}]);
    let resource = |target: Value| json!([{"type": "Resource", "resource": {"name": "cpu", "target": target}}]);
    let resource_cur = |current: Value| json!([{"type": "Resource", "resource": {"name": "cpu", "current": current}}]);
    let container = |target: Value, with_container: bool| {
        let mut c = json!({"name": "cpu", "target": target});
        if with_container {
            c["container"] = json!("application");
        }
        json!([{"type": "ContainerResource", "containerResource": c}])
    };
    let container_cur = |current: Value| {
        json!([{"type": "ContainerResource", "containerResource": {"name": "cpu",
            "container": "application", "current": current}}])
    };
    let util_cur = json!({"averageUtilization": 50, "averageValue": "40m"});
    let multiple = json!([
        {"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"}, "target": avg("100m")}},
        {"type": "Resource", "resource": {"name": "cpu", "target": util}},
        {"type": "Pods", "pods": {"metric": {"name": "other-pods-metric"}, "target": avg("400m")}},
    ]);
    let multiple_cur = json!([
        {"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"},
            "current": {"averageValue": "50m"}}},
        {"type": "Resource", "resource": {"name": "cpu", "current": util_cur}},
    ]);
    let rows: Vec<(&str, Object, &str)> = vec![
        (
            "minReplicas unset",
            hpa(None, json!([]), json!([])),
            "<none>",
        ),
        (
            "external source type, target average value (no current)",
            hpa(
                Some(2),
                external("some-external-metric", avg("100m")),
                json!([]),
            ),
            "<unknown>/100m (avg)",
        ),
        (
            "external source type, target average value",
            hpa(
                Some(2),
                external("some-external-metric", avg("100m")),
                external_cur(json!({"averageValue": "50m"}), true),
            ),
            "50m/100m (avg)",
        ),
        (
            "external source type, target value (no current)",
            hpa(
                Some(2),
                external("some-service-metric", val("100m")),
                json!([]),
            ),
            "<unknown>/100m",
        ),
        (
            "external source type, target value",
            hpa(
                Some(2),
                external("some-external-metric", val("100m")),
                external_cur(json!({"value": "50m"}), false),
            ),
            "50m/100m",
        ),
        (
            "pods source type (no current)",
            hpa(Some(2), pods.clone(), json!([])),
            "<unknown>/100m",
        ),
        ("pods source type", hpa(Some(2), pods, pods_cur), "50m/100m"),
        (
            "object source type (no current)",
            hpa(Some(2), object.clone(), json!([])),
            "<unknown>/100m",
        ),
        (
            "object source type",
            hpa(Some(2), object, object_cur),
            "50m/100m",
        ),
        (
            "resource source type, targetVal (no current)",
            hpa(Some(2), resource(avg("100m")), json!([])),
            "cpu: <unknown>/100m",
        ),
        (
            "resource source type, targetVal",
            hpa(
                Some(2),
                resource(avg("100m")),
                resource_cur(json!({"averageValue": "50m"})),
            ),
            "cpu: 50m/100m",
        ),
        (
            "resource source type, targetUtil (no current)",
            hpa(Some(2), resource(util.clone()), json!([])),
            "cpu: <unknown>/80%",
        ),
        (
            "resource source type, targetUtil",
            hpa(
                Some(2),
                resource(util.clone()),
                resource_cur(util_cur.clone()),
            ),
            "cpu: 50%/80%",
        ),
        (
            "container resource source type, targetVal (no current)",
            hpa(Some(2), container(avg("100m"), true), json!([])),
            "cpu: <unknown>/100m",
        ),
        (
            "container resource source type, targetVal",
            hpa(
                Some(2),
                container(avg("100m"), false),
                container_cur(json!({"averageValue": "50m"})),
            ),
            "cpu: 50m/100m",
        ),
        (
            "container resource source type, targetUtil (no current)",
            hpa(Some(2), container(util.clone(), true), json!([])),
            "cpu: <unknown>/80%",
        ),
        (
            "container resource source type, targetUtil",
            hpa(
                Some(2),
                container(util.clone(), false),
                container_cur(util_cur.clone()),
            ),
            "cpu: 50%/80%",
        ),
        (
            "multiple specs",
            hpa(Some(2), multiple, multiple_cur),
            "50m/100m, cpu: 50%/80% + 1 more...",
        ),
    ];
    for (name, h, targets) in rows {
        let min = if name == "minReplicas unset" {
            "<unset>"
        } else {
            "2"
        };
        assert_eq!(
            cells(&[&h], false),
            [[
                "some-hpa",
                "ReplicationController/some-rc",
                targets,
                min,
                "10",
                "4",
                "<unknown>"
            ]],
            "{name}"
        );
    }
}

// Port of TestPrintReplicationController (pkg/printers/internalversion/printers_test.go), all
// four rows: DESIRED CURRENT READY AGE, and with -o wide the containers, images and selector;
// "no panic" is a controller without name, template or selector.
#[test]
fn print_replication_controller_upstream_table() {
    let template = json!({"metadata": {"labels": {"a": "b"}}, "spec": {
        "containers": [{"name": "test", "image": "test_image", "imagePullPolicy": "IfNotPresent",
            "terminationMessagePolicy": "File"}],
        "restartPolicy": "Always", "dnsPolicy": "ClusterFirst"}});
    let rc = |replicas: i32, status: Value| {
        obj(json!({
            "apiVersion": "v1", "kind": "ReplicationController",
            "metadata": {"name": "rc1", "namespace": "test-namespace"},
            "spec": {"replicas": replicas, "selector": {"a": "b"}, "template": template},
            "status": status,
        }))
    };
    let basic = rc(0, json!({"replicas": 0}));
    let with_replicas = rc(5, json!({"replicas": 3, "readyReplicas": 1}));
    let no_panic = obj(json!({
        "apiVersion": "v1", "kind": "ReplicationController",
        "metadata": {"annotations": {"k8s.io/initial-events-end": "true"}},
        "spec": {"replicas": 0},
    }));
    assert_eq!(
        cells(&[&basic], false),
        [["rc1", "0", "0", "0", "<unknown>"]]
    );
    assert_eq!(
        cells(&[&with_replicas], false),
        [["rc1", "5", "3", "1", "<unknown>"]]
    );
    assert_eq!(
        cells(&[&with_replicas], true),
        [[
            "rc1",
            "5",
            "3",
            "1",
            "<unknown>",
            "test",
            "test_image",
            "a=b"
        ]]
    );
    assert_eq!(
        cells(&[&no_panic], true),
        [["", "0", "0", "0", "<unknown>", "", "", "<none>"]]
    );
}

// Port of TestPrintReplicaSetList (pkg/printers/internalversion/printers_test.go).
#[test]
fn print_replica_set_list() {
    let rs1 = obj(json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "replicaset1", "creationTimestamp": soon()},
        "spec": {"replicas": 5, "template": {"spec": {"containers": [
            {"name": "fake-container1", "image": "fake-image1"},
            {"name": "fake-container2", "image": "fake-image2"},
        ]}}},
        "status": {"replicas": 5, "readyReplicas": 2},
    }));
    let rs2 = obj(json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "replicaset2", "creationTimestamp": soon()},
        "spec": {"replicas": 4, "template": {},
            "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"replicas": 3, "readyReplicas": 1},
    }));
    assert_eq!(
        cells(&[&rs1, &rs2], false)
            .into_iter()
            .map(|c| c[..5].to_vec())
            .collect::<Vec<_>>(),
        [
            ["replicaset1", "5", "5", "2", "0s"],
            ["replicaset2", "4", "3", "1", "0s"],
        ]
    );
}

// Port of TestPrintJob (pkg/printers/internalversion/printers_test.go), rows job5–job9 (the
// earlier rows are in batch.rs): a Complete, Failed, Suspended or FailureTarget condition set
// to True names the STATUS, and a deleted Job without a finished condition is Terminating.
#[test]
fn print_job_status_rows() {
    let job = |name: &str, condition: Option<&str>, deleted: bool| {
        let mut v = json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "creationTimestamp": soon()},
            "spec": {"template": {}},
            "status": {"succeeded": 0},
        });
        if let Some(c) = condition {
            v["status"]["conditions"] = json!([{"type": c, "status": "True"}]);
        }
        if deleted {
            v["metadata"]["deletionTimestamp"] = json!(soon());
        }
        obj(v)
    };
    for (j, status) in [
        (job("job5", Some("Complete"), false), "Complete"),
        (job("job6", Some("Failed"), false), "Failed"),
        (job("job7", Some("Suspended"), false), "Suspended"),
        (job("job8", Some("FailureTarget"), false), "FailureTarget"),
        (job("job9", None, true), "Terminating"),
    ] {
        let name = j.meta().name.clone();
        assert_eq!(
            cells(&[&j], false)[0][..5],
            [name.as_str(), status, "0/1", "", "0s"],
            "{name}"
        );
    }
}
