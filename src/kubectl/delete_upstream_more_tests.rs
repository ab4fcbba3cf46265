//! `kubectl delete` against upstream's pkg/cmd/delete/delete_test.go (repo
//! kubernetes/kubernetes, staging/src/k8s.io/kubectl), run through the command with upstream's
//! objects (test/data/redis-master-controller.yaml's `redis-master`, frontend-service.yaml's
//! `frontend`) in namespace `test`.

use super::testutil::{load_pod, running_pod, sim};
use super::{execute, execute_with, Input};
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::json;
use std::collections::BTreeMap;

const CASCADE_WARNING: &str =
    "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.";

fn rc_yaml(name: &str) -> String {
    format!("apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    app: redis\n  template:\n    metadata:\n      labels:\n        app: redis\n    spec:\n      containers:\n      - name: master\n        image: redis\n")
}

fn svc_yaml(name: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  ports:\n  - port: 80\n"
    )
}

fn create(sim: &mut Simulation, yaml: &str) {
    super::execute_with_input(sim, "create -n test -f -", Some(yaml)).unwrap();
}

fn files() -> BTreeMap<String, String> {
    BTreeMap::from([
        (
            "redis-master-controller.yaml".into(),
            rc_yaml("redis-master"),
        ),
        ("frontend-service.yaml".into(), svc_yaml("frontend")),
    ])
}

fn run_files(sim: &mut Simulation, cmd: &str) -> Result<String, String> {
    let f = files();
    execute_with(
        sim,
        cmd,
        Input {
            stdin: None,
            files: Some(&f),
            fs: None,
        },
    )
}

// Upstream: TestDeleteNamedObject (pkg/cmd/delete/delete_test.go): `<type> <name>` with
// --cascade=false and -o name.
#[test]
fn delete_named_object() {
    let mut sim = sim();
    create(&mut sim, &rc_yaml("redis-master-controller"));
    assert_eq!(
        execute(
            &mut sim,
            "delete replicationcontrollers redis-master-controller -n test --cascade=false -o name"
        ),
        Ok(format!(
            "{CASCADE_WARNING}\nreplicationcontroller/redis-master-controller"
        ))
    );
}

// Upstream: TestDeleteObject and TestDeleteMultipleObject (pkg/cmd/delete/delete_test.go):
// `-f` files, names from the files, in file order.
#[test]
fn delete_objects_from_files() {
    let mut sim = sim();
    create(&mut sim, &rc_yaml("redis-master"));
    create(&mut sim, &svc_yaml("frontend"));
    assert_eq!(
        run_files(
            &mut sim,
            "delete -n test -f redis-master-controller.yaml -f frontend-service.yaml --cascade=orphan -o name"
        ),
        Ok("replicationcontroller/redis-master\nservice/frontend".into())
    );
}

// Upstream: TestDeleteObjectGraceZero (pkg/cmd/delete/delete_test.go): --grace-period=0
// without --force deletes (with a grace period of 1) and prints the name.
#[test]
fn delete_object_grace_zero() {
    let mut sim = sim();
    load_pod(&mut sim, running_pod("nginx", "default", "node-1"));
    assert_eq!(
        execute(&mut sim, "delete pods/nginx -o name --grace-period=0"),
        Ok("pod/nginx".into())
    );
}

// Upstream: TestDeleteObjectNotFound and TestDeleteObjectIgnoreNotFound
// (pkg/cmd/delete/delete_test.go): a missing object from a file is NotFound, with the file
// named (`AddSourceToErr("deleting", info.Source, err)`); with --ignore-not-found nothing is
// printed (the object was visited, so not "No resources found" either).
#[test]
fn delete_object_not_found() {
    let mut sim = sim();
    assert_eq!(
        run_files(
            &mut sim,
            "delete -n test -f redis-master-controller.yaml --cascade=orphan -o name"
        ),
        Err("Error from server (NotFound): error when deleting \"redis-master-controller.yaml\": replicationcontrollers \"redis-master\" not found".into())
    );
    assert_eq!(
        run_files(
            &mut sim,
            "delete -n test -f redis-master-controller.yaml --cascade=orphan --ignore-not-found -o name"
        ),
        Ok(String::new())
    );
    assert_eq!(
        execute(
            &mut sim,
            "delete -n test rc redis-master --ignore-not-found"
        ),
        Ok(String::new())
    );
}

// Upstream: TestDeleteMultipleObjectContinueOnMissing (pkg/cmd/delete/delete_test.go): the
// missing ReplicationController fails, the Service is still deleted, the error comes last.
#[test]
fn delete_multiple_objects_continue_on_missing() {
    let mut sim = sim();
    create(&mut sim, &svc_yaml("frontend"));
    assert_eq!(
        run_files(
            &mut sim,
            "delete -n test -f redis-master-controller.yaml -f frontend-service.yaml --cascade=orphan -o name"
        ),
        Err("service/frontend\nError from server (NotFound): error when deleting \"redis-master-controller.yaml\": replicationcontrollers \"redis-master\" not found".into())
    );
}

// Upstream: TestDeleteMultipleResourcesWithTheSameName (pkg/cmd/delete/delete_test.go):
// `a,b x y` is a/x a/y b/x b/y.
#[test]
fn delete_multiple_resources_with_the_same_name() {
    let mut sim = sim();
    for n in ["baz", "foo"] {
        create(&mut sim, &rc_yaml(n));
        create(&mut sim, &svc_yaml(n));
    }
    assert_eq!(
        execute(
            &mut sim,
            "delete replicationcontrollers,services baz foo -n test --cascade=orphan -o name"
        ),
        Ok("replicationcontroller/baz\nreplicationcontroller/foo\nservice/baz\nservice/foo".into())
    );
}

// Upstream: TestDeleteMultipleSelector (pkg/cmd/delete/delete_test.go): `pods,services -l a=b`
// deletes each type's matches, pods first. Upstream's fake server lists pods foo, bar; an
// API server lists them by name (bar, foo).
#[test]
fn delete_multiple_selector() {
    let mut sim = sim();
    for n in ["foo", "bar"] {
        let mut p = running_pod(n, "test", "node-1");
        p.metadata.labels = super::testutil::labels(&[("a", "b")]).into();
        load_pod(&mut sim, p);
    }
    sim.api
        .create(
            Object::from_value(json!({"apiVersion": "v1", "kind": "Service",
                "metadata": {"name": "baz", "namespace": "test", "labels": {"a": "b"}},
                "spec": {"ports": [{"port": 80}]}}))
            .unwrap(),
        )
        .unwrap();
    assert_eq!(
        execute(
            &mut sim,
            "delete pods,services -n test -l a=b --cascade=orphan -o name"
        ),
        Ok("pod/bar\npod/foo\nservice/baz".into())
    );
}

// delete.go's `DeleteResult`: a client dry run prints each visited object (`o.PrintObj(info)`)
// before any request; names are not looked up (`RequireObject(false)`).
#[test]
fn delete_client_dry_run_does_not_ask_the_server() {
    let mut sim = sim();
    assert_eq!(
        execute(&mut sim, "delete pod nope --dry-run=client"),
        Ok("pod \"nope\" deleted from default namespace (dry run)".into())
    );
}
