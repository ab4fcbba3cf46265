//! Ports of TestViewHistory and TestApplyDaemonSetHistory (`staging/src/k8s.io/kubectl/pkg/polymorphichelpers/history_test.go`,
//! repo kubernetes/kubernetes): `rollout history` of a StatefulSet and of a DaemonSet with one
//! ControllerRevision each, whose data is the whole object as upstream's fixtures store it.
//!
//! Upstream's objects go into a fake clientset without defaulting; here they are decoded from
//! JSON straight into the store. Upstream calls the HistoryViewer; `kubectl rollout history`
//! prints its text after the object's name (`statefulset.apps/moons ` and, with a revision,
//! `with revision #1`; the command's output is compared without its final newlines). The revision's pod template is rendered by DescribePodTemplate of
//! current kubectl, which ends with the Node-Selectors and Tolerations lines (as in
//! TestViewDeploymentHistory's port in `rollout.rs`).

use crate::api::Object;
use crate::kubectl::execute;
use crate::kubectl::testutil::sim;
use crate::sim::Simulation;
use serde_json::{json, Value};

fn pod_stub() -> Value {
    json!({"metadata": {"labels": {"foo": "bar"}},
        "spec": {"containers": [{"name": "test", "image": "nginx"}]}})
}

/// The set (`ssStub` / `daemonSetStub`) and its ControllerRevision, stored as upstream creates
/// them; the revision's TypeMeta says StatefulSet in both cases, as upstream's does.
fn fixture(kind: &str) -> Simulation {
    let mut set = json!({
        "apiVersion": "apps/v1", "kind": kind,
        "metadata": {"name": "moons", "namespace": "default", "uid": "1993",
            "labels": {"foo": "bar"}},
        "spec": {"selector": {"matchLabels": {"foo": "bar"}}, "template": pod_stub()},
    });
    if kind == "StatefulSet" {
        set["spec"]["replicas"] = json!(1);
    }
    let revision = json!({
        "apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": "moons", "namespace": "default", "labels": {"foo": "bar"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": kind, "name": "moons",
                "uid": "1993", "controller": true}]},
        "data": set.clone(),
        "revision": 1,
    });
    let mut sim = sim();
    sim.api.store.put(Object::from_value(set).unwrap());
    let mut cr = serde_json::from_value::<crate::api::ControllerRevision>(revision).unwrap();
    cr.metadata.namespace = "default".into();
    sim.api.store.put(Object::ControllerRevision(cr));
    sim
}

const POD_TEMPLATE: &str = "Pod Template:\n  Labels:\tfoo=bar\n  Containers:\n   test:\n    Image:\tnginx\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n";

// Port of TestViewHistory (pkg/polymorphichelpers/history_test.go), "for statefulSet" and
// "for daemonSet": "should show revisions list if the revision is not specified" and "should
// describe the revision if revision is specified".
#[test]
fn view_history_stateful_set_and_daemon_set() {
    for (kind, resource) in [
        ("StatefulSet", "statefulset.apps"),
        ("DaemonSet", "daemonset.apps"),
    ] {
        let mut sim = fixture(kind);
        let list = execute(&mut sim, &format!("rollout history {resource} moons")).unwrap();
        assert_eq!(
            list,
            format!("{resource}/moons \nREVISION  CHANGE-CAUSE\n1         <none>\n").trim_end(),
            "{kind}"
        );
        let one = execute(
            &mut sim,
            &format!("rollout history {resource} moons --revision=1"),
        )
        .unwrap();
        assert_eq!(
            one,
            format!("{resource}/moons with revision #1\n{POD_TEMPLATE}").trim_end(),
            "{kind}"
        );
    }
}

/// A DaemonSet pod template of TestApplyDaemonSetHistory.
fn ds_template(v: Value) -> crate::api::PodTemplateSpec {
    serde_json::from_value(v).unwrap()
}

// Port of TestApplyDaemonSetHistory (pkg/polymorphichelpers/history_test.go), its three rows:
// a revision holding getDaemonSetPatch of the expected DaemonSet (its template with
// `$patch: replace`) rolls the source's template back to exactly that template, whatever the
// source had more or less of ("test_less", "test_more", "test_equal").
#[test]
fn apply_daemon_set_history() {
    let rows = [
        (
            "test_less",
            json!({"metadata": {"annotations": {"version": "v3"}}, "spec": {
                "initContainers": [{"name": "i0"}], "containers": [{"name": "c0"}],
                "volumes": [{"name": "v0"}], "nodeSelector": {"1dsa": "n0"},
                "imagePullSecrets": [{"name": "ips0"}], "tolerations": [{"key": "t0"}],
                "hostAliases": [{"ip": "h0"}],
                "readinessGates": [{"conditionType": "PodScheduled"}]}}),
            json!({"spec": {"containers": [{"name": "c1"}], "initContainers": []}}),
        ),
        (
            "test_more",
            json!({"spec": {"initContainers": [{"name": "i0"}]}}),
            json!({"metadata": {"annotations": {"version": "v3"}}, "spec": {
                "initContainers": [{"name": "i1"}], "containers": [{"name": "c1"}],
                "volumes": [{"name": "v1"}]}}),
        ),
        (
            "test_equal",
            json!({"metadata": {"annotations": {"version": "v0"}}, "spec": {
                "containers": [{"name": "c1"}], "initContainers": [{"name": "i0"}],
                "volumes": [{"name": "v0"}]}}),
            json!({"metadata": {"annotations": {"version": "v1"}}, "spec": {
                "initContainers": [{"name": "i1"}], "containers": [{"name": "c1"}],
                "volumes": [{"name": "v1"}]}}),
        ),
    ];
    for (name, source, expected) in rows {
        let source = Object::from_value(json!({
            "apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": "ds", "namespace": "default"},
            "spec": {"template": source},
        }))
        .unwrap();
        let expected = ds_template(expected);
        let cr = crate::api::ControllerRevision {
            data: Some(crate::controllers::history::template_patch(&expected)),
            revision: 1,
            ..Default::default()
        };
        let (template, patched) = super::set_rollback(&source, &[cr], 1).unwrap();
        assert_eq!(template, expected, "{name}");
        let Some(Object::DaemonSet(ds)) = patched else {
            panic!("{name}: the template differs, the DaemonSet is patched");
        };
        assert_eq!(*ds.spec.template, expected, "{name}");
    }
}

// Port of TestViewHistory's "should get history" subtests (pkg/polymorphichelpers/history_test.go)
// through `kubectl rollout history -o`, as TestRolloutHistoryWithOutput and
// TestRolloutHistoryErrors (pkg/cmd/rollout/rollout_history_test.go) print GetHistory's
// objects: for a StatefulSet or DaemonSet each revision is the set with that revision's
// template applied, which for upstream's fixture is the stored set itself.
#[test]
fn rollout_history_output_for_sets() {
    for (kind, resource) in [
        ("StatefulSet", "statefulset.apps"),
        ("DaemonSet", "daemonset.apps"),
    ] {
        let mut sim = fixture(kind);
        assert_eq!(
            execute(
                &mut sim,
                &format!("rollout history {resource} moons -o name")
            )
            .unwrap(),
            format!("{resource}/moons"),
            "{kind}"
        );
        let stored = execute(&mut sim, &format!("get {resource} moons -o json")).unwrap();
        assert_eq!(
            execute(
                &mut sim,
                &format!("rollout history {resource} moons -o json --revision=1")
            )
            .unwrap(),
            stored,
            "{kind}"
        );
        let yaml = execute(
            &mut sim,
            &format!("rollout history {resource} moons -o yaml"),
        )
        .unwrap();
        assert!(
            yaml.starts_with(&format!("apiVersion: apps/v1\nkind: {kind}\n")),
            "{kind}: {yaml}"
        );
        for o in ["yaml", "json"] {
            assert_eq!(
                execute(
                    &mut sim,
                    &format!("rollout history {resource} moons --revision=999 -o {o}")
                )
                .unwrap_err(),
                "error: unable to find the specified revision",
                "{kind} -o {o}"
            );
        }
    }
}

// Port of TestMultipleResourceRolloutHistory (pkg/cmd/rollout/rollout_history_test.go): the
// history of two Deployments, each after its name (with its revision when one is asked for).
#[test]
fn multiple_resource_rollout_history() {
    let mut sim = sim();
    for (name, uid) in [("foo", "uid-foo"), ("bar", "uid-bar")] {
        let labels = json!({"app": name});
        sim.api.store.put(
            Object::from_value(json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "namespace": "test", "uid": uid},
                "spec": {"selector": {"matchLabels": labels},
                    "template": {"metadata": {"labels": labels},
                        "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
            }))
            .unwrap(),
        );
        for revision in [1, 2] {
            sim.api.store.put(
                Object::from_value(json!({
                    "apiVersion": "apps/v1", "kind": "ReplicaSet",
                    "metadata": {"name": format!("{name}-{revision}"), "namespace": "test",
                        "uid": format!("{uid}-rs{revision}"), "labels": labels,
                        "annotations": {"deployment.kubernetes.io/revision": revision.to_string()},
                        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment",
                            "name": name, "uid": uid, "controller": true}]},
                    "spec": {"replicas": 1, "selector": {"matchLabels": labels},
                        "template": {"metadata": {"labels": labels},
                            "spec": {"containers": [{"name": "c",
                                "image": format!("nginx:{revision}")}]}}},
                }))
                .unwrap(),
            );
        }
    }
    let table = "REVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n";
    assert_eq!(
        execute(
            &mut sim,
            "rollout history deployment/foo deployment/bar -n test"
        )
        .unwrap(),
        format!("deployment.apps/foo \n{table}\ndeployment.apps/bar \n{table}").trim_end()
    );
    let one = execute(
        &mut sim,
        "rollout history deployment/foo deployment/bar -n test --revision=2",
    )
    .unwrap();
    assert!(
        one.starts_with("deployment.apps/foo with revision #2\nPod Template:\n"),
        "{one}"
    );
    assert!(
        one.contains("\n\ndeployment.apps/bar with revision #2\nPod Template:\n"),
        "{one}"
    );
    assert_eq!(one.matches("Image:\tnginx:2").count(), 2, "{one}");
}

// Port of TestValidate (pkg/cmd/rollout/rollout_history_test.go): a negative revision and a
// missing resource are refused with upstream's texts.
#[test]
fn rollout_history_validate() {
    let mut sim = fixture("StatefulSet");
    assert_eq!(
        execute(&mut sim, "rollout history statefulset/moons --revision=-1").unwrap_err(),
        "error: revision must be a positive integer: -1"
    );
    assert_eq!(
        execute(&mut sim, "rollout history").unwrap_err(),
        "error: required resource not specified"
    );
    assert!(execute(&mut sim, "rollout history statefulset/moons --revision=0").is_ok());
}
