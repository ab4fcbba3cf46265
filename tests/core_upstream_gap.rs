//! Ports of upstream core/kubelet test tables kubeplay had not ported yet (repo
//! kubernetes/kubernetes, 1.35 behaviour and feature-gate defaults). Every test names the
//! upstream test and file it ports; row names follow upstream's.

use kubeplay::api::{Object, Pod, Time};
use kubeplay::kubelet_status::pod_condition_by_kubelet;
use kubeplay::store::apiserver::{ApiServer, DeleteOptions};
use serde_json::{json, Value};

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/types/pod_status_test.go
// ---------------------------------------------------------------------------------------------

/// Port of `TestPodConditionByKubelet` (pkg/kubelet/types/pod_status_test.go), with
/// PodReadyToStartContainersCondition on (its 1.35 default).
#[test]
fn pod_condition_by_kubelet_table() {
    for t in [
        "PodScheduled",
        "Ready",
        "Initialized",
        "ContainersReady",
        "PodReadyToStartContainers",
    ] {
        assert!(pod_condition_by_kubelet(t), "{t} is owned by the kubelet");
    }
    // `v1.PodReasonUnschedulable` is a reason, not a condition the kubelet owns.
    for t in ["abcd", "Unschedulable"] {
        assert!(!pod_condition_by_kubelet(t), "{t} is not owned by the kubelet");
    }
}

// ---------------------------------------------------------------------------------------------
// pkg/registry/core/pod/strategy_test.go
// ---------------------------------------------------------------------------------------------

fn load_pod(api: &mut ApiServer, spec: Value, status: Value) {
    let mut spec = spec;
    spec["containers"] = json!([{"name": "ctr", "image": "image"}]);
    let p: Pod = serde_json::from_value(json!({
        "metadata": {"name": "foo", "namespace": "default"},
        "spec": spec,
        "status": status,
    }))
    .expect("pod decodes");
    api.load(Object::Pod(p)).expect("pod loads");
}

/// Port of `TestCheckGracefulDelete` (pkg/registry/core/pod/strategy_test.go): the grace period
/// `Strategy.CheckGracefulDelete` writes into the delete options, observed as the deleted pod's
/// `deletionGracePeriodSeconds`.
#[test]
fn check_graceful_delete() {
    let default_grace_period = 30;
    let rows: [(&str, Value, Value, Option<i64>, i64); 6] = [
        (
            "in pending phase with has node name",
            json!({"nodeName": "something"}),
            json!({"phase": "Pending"}),
            Some(default_grace_period),
            default_grace_period,
        ),
        (
            "in failed phase with has node name",
            json!({"nodeName": "something"}),
            json!({"phase": "Failed"}),
            Some(default_grace_period),
            0,
        ),
        (
            "in failed phase",
            json!({}),
            json!({"phase": "Pending"}),
            Some(default_grace_period),
            0,
        ),
        (
            "in succeeded phase",
            json!({}),
            json!({"phase": "Succeeded"}),
            Some(default_grace_period),
            0,
        ),
        (
            "no phase",
            json!({}),
            json!({}),
            Some(default_grace_period),
            0,
        ),
        (
            "has negative grace period",
            json!({"nodeName": "something", "terminationGracePeriodSeconds": -1}),
            json!({}),
            None,
            1,
        ),
    ];
    for (name, spec, status, delete_grace, want) in rows {
        let mut api = ApiServer::new(1, now());
        load_pod(&mut api, spec, status);
        let opts = DeleteOptions {
            grace_period_seconds: delete_grace,
            ..Default::default()
        };
        let got = api.delete("Pod", "default", "foo", &opts).expect(name);
        assert_eq!(
            got.meta().deletion_grace_period_seconds,
            Some(want),
            "{name}"
        );
    }
}
