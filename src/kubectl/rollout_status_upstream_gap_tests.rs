//! Ports of TestRolloutStatusWatchDisabled, TestRolloutStatusWatchDisabledUnavailable and
//! TestRolloutStatusEmptyList (`staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_status_test.go`,
//! release-1.35): `rollout status --watch=false` prints the status viewer's one line. The
//! Deployment is stored as upstream's fake server returns it (no spec replicas, generation 0).

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::json;

fn with_deployment(available: i32) -> Simulation {
    let mut s = sim();
    let d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx-deployment", "namespace": "test", "uid": "uid-d"},
        "spec": {"selector": {"matchLabels": {"a": "b"}},
            "template": {"metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "c", "image": "i"}]}}},
        "status": {"replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
            "availableReplicas": available, "unavailableReplicas": 0,
            "conditions": [{"type": "Available", "status": ""}]}});
    s.api.store.put(Object::from_value(d).unwrap());
    s
}

#[test]
fn rollout_status_watch_disabled() {
    let mut s = with_deployment(1);
    assert_eq!(
        execute(
            &mut s,
            "rollout status deployment/nginx-deployment -n test --watch=false"
        )
        .unwrap(),
        "deployment \"nginx-deployment\" successfully rolled out"
    );
}

#[test]
fn rollout_status_watch_disabled_unavailable() {
    let mut s = with_deployment(0);
    assert_eq!(
        execute(
            &mut s,
            "rollout status deployment/nginx-deployment -n test --watch=false"
        )
        .unwrap(),
        "Waiting for deployment \"nginx-deployment\" rollout to finish: 0 of 1 updated replicas are available..."
    );
}

#[test]
fn rollout_status_empty_list() {
    let mut s = sim();
    assert_eq!(
        execute(&mut s, "rollout status deployment -n test").unwrap(),
        "No resources found in test namespace."
    );
}
