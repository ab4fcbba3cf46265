//! Ports of TestGracePeriodScenarios, TestResourceErrors, TestCascadingStrategy and
//! TestDeleteMessageOutput (`staging/src/k8s.io/kubectl/pkg/cmd/delete/delete_test.go`,
//! release-1.35), against the simulation's API server.

use super::testutil::*;
use super::{execute, execute_with_input};
use crate::api::{Pod, ReplicaSet};
use crate::sim::Simulation;

fn with_pod() -> Simulation {
    let mut s = sim();
    load_fixture(&mut s);
    s
}

fn grace(s: &Simulation, name: &str) -> Option<Option<i64>> {
    s.api
        .store
        .get::<Pod>("default", name)
        .map(|p| p.metadata.deletion_grace_period_seconds)
}

const FORCE_WARNING: &str = "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.";

/// TestGracePeriodScenarios (delete_test.go).
#[test]
fn grace_period_scenarios() {
    // --force: grace period 0, the pod is gone at once.
    for flags in ["--force", "--force --grace-period=0"] {
        let mut s = with_pod();
        assert_eq!(
            execute(&mut s, &format!("delete pod bare -o name {flags}")).unwrap(),
            format!("{FORCE_WARNING}\npod/bare"),
            "{flags}"
        );
        assert_eq!(grace(&s, "bare"), None, "{flags}");
    }
    let mut s = with_pod();
    assert_eq!(
        execute(&mut s, "delete pod bare --force --grace-period=10").unwrap_err(),
        "error: --force and --grace-period greater than 0 cannot be specified together"
    );
    assert_eq!(grace(&s, "bare"), Some(None));
    // --grace-period=0 without --force, and --now, ask for 1 second.
    for (flags, want) in [
        ("--grace-period=0", 1),
        ("--grace-period=10", 10),
        ("--now", 1),
    ] {
        let mut s = with_pod();
        assert_eq!(
            execute(&mut s, &format!("delete pod bare -o name {flags}")).unwrap(),
            "pod/bare",
            "{flags}"
        );
        assert_eq!(grace(&s, "bare"), Some(Some(want)), "{flags}");
    }
    let mut s = with_pod();
    assert_eq!(
        execute(&mut s, "delete pod bare --now --grace-period=10").unwrap_err(),
        "error: --now and --grace-period cannot be specified together"
    );
}

/// TestResourceErrors (delete_test.go).
#[test]
fn resource_errors() {
    let mut s = with_pod();
    let e = execute(&mut s, "delete").unwrap_err();
    assert!(e.contains("You must provide one or more resources"), "{e}");
    for args in ["pods", "pods,deployments"] {
        let e = execute(&mut s, &format!("delete {args}")).unwrap_err();
        assert!(
            e.contains("resource(s) were provided, but no name was specified"),
            "{args}: {e}"
        );
    }
}

/// TestCascadingStrategy (delete_test.go): `-o name` prints `kind/name` whatever the
/// strategy; the orphan strategy leaves the dependents.
#[test]
fn cascading_strategy() {
    for cascade in ["", " --cascade=foreground", " --cascade=orphan"] {
        let mut s = with_pod();
        assert_eq!(
            execute(&mut s, &format!("delete rs/frontend -o name{cascade}")).unwrap(),
            "replicaset.apps/frontend",
            "{cascade}"
        );
        let rs = s.api.store.get::<ReplicaSet>("default", "frontend");
        // Foreground and orphan deletions keep the owner with the policy's finalizer until the
        // garbage collector (not running here) handles its dependents.
        let finalizer = match cascade {
            "" => None,
            c if c.contains("foreground") => Some("foregroundDeletion"),
            _ => Some("orphan"),
        };
        match finalizer {
            None => assert!(rs.is_none(), "{cascade}"),
            Some(f) => {
                let rs = rs.expect("the ReplicaSet waits for the garbage collector");
                assert!(rs.metadata.finalizers.iter().any(|x| x == f), "{cascade}");
            }
        }
    }
}

/// TestDeleteMessageOutput (delete_test.go): objects from a file in another namespace.
#[test]
fn delete_message_output() {
    let mut s = sim();
    let rc = "apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: redis-master\nspec:\n  replicas: 1\n  selector:\n    app: redis\n  template:\n    metadata:\n      labels:\n        app: redis\n    spec:\n      containers:\n      - name: master\n        image: redis\n";
    execute(&mut s, "create namespace test-specific").ok();
    execute_with_input(&mut s, "apply -n test-specific -f -", Some(rc)).unwrap();
    assert_eq!(
        execute_with_input(&mut s, "delete -n test-specific -f -", Some(rc)).unwrap(),
        "replicationcontroller \"redis-master\" deleted from test-specific namespace"
    );
}

/// TestDeleteObjectByTuple (delete_test.go): `kind/name` arguments, `-o name`, with the
/// deprecated `--cascade=false` (its warning goes first, to stderr upstream).
#[test]
fn delete_object_by_tuple() {
    let mut s = sim();
    s.api
        .load(crate::api::Object::ReplicationController(
            replication_controller("redis-master-controller", 1),
        ))
        .unwrap();
    let out = execute(
        &mut s,
        "delete replicationcontrollers/redis-master-controller --cascade=false -o name",
    )
    .unwrap();
    assert_eq!(
        out,
        "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\nreplicationcontroller/redis-master-controller"
    );
}

/// TestDeleteAllIgnoreNotFound (delete_test.go): `--all` deletes every object of the kind.
#[test]
fn delete_all_ignore_not_found() {
    let mut s = with_pod();
    assert_eq!(
        execute(&mut s, "delete pods --all --cascade=orphan -o name").unwrap(),
        "pod/bare\npod/frontend-a\npod/frontend-b"
    );
    assert_eq!(
        execute(&mut s, "delete pods --all -o name").unwrap(),
        "pod/bare\npod/frontend-a\npod/frontend-b",
        "still terminating, so listed again"
    );
}
