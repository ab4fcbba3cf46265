//! Ports of TestCordon and TestDrain (`staging/src/k8s.io/kubectl/pkg/cmd/drain/drain_test.go`,
//! release-1.35). Each TestDrain row runs twice, with eviction and with `--disable-eviction`
//! (upstream's EvictionMethod and DeleteMethod). Objects are stored as upstream's fake server
//! returns them; "fail to list pods" (a transport failure) has no counterpart here.

use super::execute;
use super::testutil::sim;
use crate::api::{Node, Object, Pod};
use crate::sim::Simulation;
use serde_json::{json, Value};

fn put(s: &mut Simulation, mut v: Value) {
    v["metadata"]["resourceVersion"] = json!("1");
    s.api.store.put(Object::from_value(v).unwrap());
}

fn node_json(name: &str, unschedulable: bool) -> Value {
    json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": format!("uid-node-{name}")},
        "spec": {"unschedulable": unschedulable}})
}

fn unschedulable(s: &Simulation, n: &str) -> bool {
    s.api.store.get::<Node>("", n).unwrap().spec.unschedulable
}

/// TestCordon (drain_test.go).
#[test]
fn cordon() {
    // (description, node initially unschedulable, command, fatal, unschedulable after)
    let rows = [
        ("node/node syntax", true, "uncordon node/node", false, false),
        ("uncordon for real", true, "uncordon node", false, false),
        (
            "uncordon does nothing",
            false,
            "uncordon node",
            false,
            false,
        ),
        ("cordon does nothing", true, "cordon node", false, true),
        ("cordon for real", false, "cordon node", false, true),
        ("cordon missing node", false, "cordon bar", true, false),
        ("uncordon missing node", false, "uncordon bar", true, false),
        (
            "cordon for multiple nodes",
            false,
            "cordon node node1 node2",
            false,
            true,
        ),
        (
            "uncordon for multiple nodes",
            true,
            "uncordon node node1 node2",
            false,
            false,
        ),
    ];
    for (desc, initial, cmd, fatal, after) in rows {
        let mut s = sim();
        for n in ["node", "node1", "node2"] {
            put(&mut s, node_json(n, initial));
        }
        let r = execute(&mut s, cmd);
        assert_eq!(r.is_err(), fatal, "{desc}: {r:?}");
        for n in cmd.split_whitespace().skip(1) {
            let n = n.trim_start_matches("node/");
            if n != "bar" {
                assert_eq!(unschedulable(&s, n), after, "{desc}: {n}");
            }
        }
    }
    let mut s = sim();
    put(&mut s, node_json("node", false));
    assert_eq!(
        execute(&mut s, "cordon bar").unwrap_err(),
        "Error from server (NotFound): nodes \"bar\" not found"
    );
}

const LABELS: &str = "my_value";

fn pod(owner: Option<(&str, &str, &str)>, empty_dir: bool, phase: &str) -> Value {
    let mut p = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "bar", "namespace": "default", "uid": "uid-bar",
            "labels": {"my_key": LABELS}},
        "spec": {"nodeName": "node", "containers": [{"name": "c", "image": "i"}]},
        "status": {}});
    if let Some((api_version, kind, name)) = owner {
        p["metadata"]["ownerReferences"] = json!([{"apiVersion": api_version, "kind": kind,
            "name": name, "uid": "123", "blockOwnerDeletion": true, "controller": true}]);
    }
    if empty_dir {
        p["spec"]["volumes"] = json!([{"name": "scratch", "emptyDir": {}}]);
    }
    if !phase.is_empty() {
        p["status"]["phase"] = json!(phase);
    }
    p
}

fn owners(s: &mut Simulation) {
    let sel = json!({"matchLabels": {"my_key": LABELS}});
    let tmpl = json!({"metadata": {"labels": {"my_key": LABELS}},
        "spec": {"containers": [{"name": "c", "image": "i"}]}});
    put(
        s,
        json!({"apiVersion": "v1", "kind": "ReplicationController",
            "metadata": {"name": "rc", "namespace": "default", "uid": "uid-rc"},
            "spec": {"selector": {"my_key": LABELS}, "template": tmpl}}),
    );
    put(
        s,
        json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": "ds", "namespace": "default", "uid": "uid-ds"},
            "spec": {"selector": sel, "template": tmpl}}),
    );
    put(
        s,
        json!({"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "job", "namespace": "default", "uid": "uid-job"},
            "spec": {"selector": sel, "template": tmpl}}),
    );
    put(
        s,
        json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": "rs", "namespace": "default", "uid": "uid-rs"},
            "spec": {"selector": sel, "template": tmpl}}),
    );
}

fn deleted(s: &Simulation) -> bool {
    s.api
        .store
        .get::<Pod>("default", "bar")
        .is_none_or(|p| p.metadata.deletion_timestamp.is_some())
}

/// (description, pod, args, fatal, deleted, warning)
type Row = (
    &'static str,
    Option<Value>,
    &'static str,
    bool,
    bool,
    &'static str,
);

/// TestDrain (drain_test.go).
#[test]
fn drain() {
    let rc = Some(("v1", "ReplicationController", "rc"));
    let ds = Some(("apps/v1", "DaemonSet", "ds"));
    let job = Some(("v1", "Job", "job"));
    let rs = Some(("v1", "ReplicaSet", "rs"));
    let rows: Vec<Row> = vec![
        (
            "RC-managed pod",
            Some(pod(rc, false, "")),
            "",
            false,
            true,
            "",
        ),
        (
            "DS-managed pod",
            Some(pod(ds, false, "")),
            "",
            true,
            false,
            "",
        ),
        (
            "DS-managed terminated pod",
            Some(pod(ds, false, "Succeeded")),
            "",
            false,
            true,
            "",
        ),
        (
            "orphaned DS-managed pod",
            Some(pod(None, false, "")),
            "",
            true,
            false,
            "",
        ),
        (
            "orphaned DS-managed pod with --force",
            Some(pod(None, false, "")),
            " --force",
            false,
            true,
            "Warning: deleting Pods that declare no controller: default/bar",
        ),
        (
            "DS-managed pod with --ignore-daemonsets",
            Some(pod(ds, false, "")),
            " --ignore-daemonsets",
            false,
            false,
            "",
        ),
        (
            "DS-managed pod with emptyDir with --ignore-daemonsets",
            Some(pod(ds, true, "")),
            " --ignore-daemonsets",
            false,
            false,
            "Warning: ignoring DaemonSet-managed Pods: default/bar",
        ),
        (
            "Job-managed pod with local storage",
            Some(pod(job, true, "")),
            " --force --delete-emptydir-data=true",
            false,
            true,
            "",
        ),
        (
            "Job-managed terminated pod",
            Some(pod(job, true, "Succeeded")),
            "",
            false,
            true,
            "",
        ),
        (
            "RS-managed pod",
            Some(pod(rs, false, "")),
            "",
            false,
            true,
            "",
        ),
        ("naked pod", Some(pod(None, false, "")), "", true, false, ""),
        (
            "naked pod with --force",
            Some(pod(None, false, "")),
            " --force",
            false,
            true,
            "",
        ),
        (
            "pod with EmptyDir",
            Some(pod(None, true, "")),
            " --force",
            true,
            false,
            "",
        ),
        (
            "terminated pod with emptyDir",
            Some(pod(None, true, "Failed")),
            "",
            false,
            true,
            "",
        ),
        (
            "pod with EmptyDir and --delete-emptydir-data",
            Some(pod(None, true, "")),
            " --force --delete-emptydir-data=true",
            false,
            true,
            "",
        ),
        ("empty node", None, "", false, false, ""),
    ];
    for method in ["", " --disable-eviction"] {
        for (desc, p, args, fatal, expect_delete, warning) in &rows {
            let mut s = sim();
            put(&mut s, node_json("node", false));
            owners(&mut s);
            if let Some(p) = p {
                put(&mut s, p.clone());
            }
            let r = execute(&mut s, &format!("drain node{args}{method}"));
            let out = match &r {
                Ok(o) | Err(o) => o.clone(),
            };
            assert_eq!(r.is_err(), *fatal, "{desc}{method}: {out}");
            assert!(unschedulable(&s, "node"), "{desc}{method}: cordoned");
            if p.is_some() {
                assert_eq!(deleted(&s), *expect_delete, "{desc}{method}: {out}");
            }
            if !fatal {
                assert!(out.contains("node/node drained"), "{desc}{method}: {out}");
            }
            if !warning.is_empty() {
                assert!(out.contains(warning), "{desc}{method}: {out}");
            }
        }
    }
}

/// TestDrain "DS-managed pod": the DaemonSet filter's error text (filters.go).
#[test]
fn drain_daemon_set_pod_message() {
    let mut s = sim();
    put(&mut s, node_json("node", false));
    owners(&mut s);
    put(&mut s, pod(Some(("apps/v1", "DaemonSet", "ds")), false, ""));
    let e = execute(&mut s, "drain node").unwrap_err();
    assert!(
        e.ends_with("error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/bar"),
        "{e}"
    );
}
