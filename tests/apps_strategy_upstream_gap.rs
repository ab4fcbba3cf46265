//! Ports of Deployment REST strategy tests added upstream after the first port
//! (`pkg/registry/apps/deployment/strategy_test.go`, repo kubernetes/kubernetes):
//! `TestStatusUpdatesWithDeploymentReplicaSetTerminatingReplicas` and the rows of
//! `TestDeploymentStrategy` that hold with kubeplay's 1.35 gates. They run through the simulated
//! API server, whose create / update / update_status apply the strategy's PrepareForCreate /
//! PrepareForUpdate and validation.

use kubeplay::api::{Deployment, Object, ReplicaSet, Time};
use kubeplay::features::FeatureGates;
use kubeplay::store::apiserver::ApiServer;
use serde_json::{json, Value};

/// `newDeploymentWithSelectorLabels({a: b})` with 3 replicas: RollingUpdate 1/1,
/// `podtest.MakePodSpec()`.
fn deployment(extra_spec: Value, status: Value) -> Value {
    let mut spec = json!({
        "replicas": 3,
        "selector": {"matchLabels": {"a": "b"}},
        "strategy": {"type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}},
        "template": {
            "metadata": {"labels": {"a": "b"}},
            "spec": {"containers": [{"name": "ctr", "image": "image",
                "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}],
                "restartPolicy": "Always", "dnsPolicy": "ClusterFirst"}
        }
    });
    if let (Value::Object(s), Value::Object(e)) = (&mut spec, extra_spec) {
        s.extend(e);
    }
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "test-deployment", "namespace": "test-namespace"},
        "spec": spec,
        "status": status
    })
}

fn obj(v: Value) -> Object {
    Object::from_value(v).expect("valid object JSON")
}

fn stored(api: &ApiServer) -> Deployment {
    api.store
        .get::<Deployment>("test-namespace", "test-deployment")
        .cloned()
        .expect("stored Deployment")
}

fn api_with_terminating_gate(enabled: bool) -> ApiServer {
    let mut gates = FeatureGates::default();
    gates.set("DeploymentReplicaSetTerminatingReplicas", enabled);
    ApiServer::with_gates(1, Time(0), gates)
}

// Port of TestStatusUpdatesWithDeploymentReplicaSetTerminatingReplicas
// (pkg/registry/apps/deployment/strategy_test.go): without the gate a status write cannot add
// status.terminatingReplicas, but may change it once the stored status has it; with the gate
// (the 1.35 default) it is taken.
#[test]
fn status_updates_with_deployment_replica_set_terminating_replicas() {
    // (name, gate, stored terminatingReplicas, written, expected)
    type Row = (&'static str, bool, Option<i32>, i32, Option<i32>);
    let rows: [Row; 3] = [
        (
            "should not allow updates when feature gate is disabled",
            false,
            None,
            2,
            None,
        ),
        (
            "should allow update when the field is in use when feature gate is disabled",
            false,
            Some(2),
            5,
            Some(5),
        ),
        (
            "should allow updates when feature gate is enabled",
            true,
            None,
            2,
            Some(2),
        ),
    ];
    for (name, gate, old, written, want) in rows {
        let mut api = api_with_terminating_gate(gate);
        let mut status = json!({"replicas": 3});
        if let Some(t) = old {
            status["terminatingReplicas"] = json!(t);
        }
        // `load` stores the object as given (status included), as an existing stored object.
        api.load(obj(deployment(json!({}), status)))
            .expect("valid Deployment");
        assert_eq!(stored(&api).status.terminating_replicas, old, "{name}");
        let mut v = serde_json::to_value(stored(&api)).unwrap();
        v["status"]["replicas"] = json!(2);
        v["status"]["terminatingReplicas"] = json!(written);
        api.update_status(obj(v)).expect("status update");
        let d = stored(&api);
        assert_eq!(
            d.status.replicas, 2,
            "{name}: status updates should allow change of replicas"
        );
        assert_eq!(d.status.terminating_replicas, want, "{name}");
    }
}

// Port of TestReplicaSetStatusStrategyWithDeploymentPodReplacementPolicy
// (pkg/registry/apps/replicaset/strategy_test.go; the stored copy toggles the gate's earlier
// name): the ReplicaSet status strategy drops an added status.terminatingReplicas the same way
// (`dropDisabledStatusFields` in pkg/registry/apps/replicaset/strategy.go, gated by
// DeploymentReplicaSetTerminatingReplicas).
#[test]
fn replica_set_status_update_drops_terminating_replicas_without_the_gate() {
    // (gate, stored terminatingReplicas, written, expected): upstream's three rows.
    let rows = [
        (false, None, 2, None),
        (false, Some(2), 5, Some(5)),
        (true, None, 2, Some(2)),
    ];
    for (gate, old, written, want) in rows {
        let mut api = api_with_terminating_gate(gate);
        let mut status = json!({"replicas": 3});
        if let Some(t) = old {
            status["terminatingReplicas"] = json!(t);
        }
        api.load(obj(json!({
            "status": status,
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": "rs", "namespace": "default"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"a": "b"}},
                "template": {"metadata": {"labels": {"a": "b"}},
                    "spec": {"containers": [{"name": "ctr", "image": "image"}]}}}
        })))
        .expect("valid ReplicaSet");
        let rs = |api: &ApiServer| {
            api.store
                .get::<ReplicaSet>("default", "rs")
                .cloned()
                .expect("stored ReplicaSet")
        };
        let mut v = serde_json::to_value(rs(&api)).unwrap();
        assert_eq!(rs(&api).status.terminating_replicas, old);
        v["status"] = json!({"replicas": 2, "terminatingReplicas": written});
        api.update_status(obj(v)).expect("status update");
        assert_eq!(rs(&api).status.replicas, 2);
        assert_eq!(rs(&api).status.terminating_replicas, want, "gate {gate}");
    }
}

// A ReplicationController's status has no terminatingReplicas (core/v1
// ReplicationControllerStatus): a status write carrying one does not store it, gate or not.
#[test]
fn replication_controller_status_has_no_terminating_replicas() {
    use kubeplay::api::ReplicationController;
    for gate in [false, true] {
        let mut api = api_with_terminating_gate(gate);
        api.create(obj(json!({
            "apiVersion": "v1", "kind": "ReplicationController",
            "metadata": {"name": "rc", "namespace": "default"},
            "spec": {"replicas": 3, "selector": {"a": "b"},
                "template": {"metadata": {"labels": {"a": "b"}},
                    "spec": {"containers": [{"name": "ctr", "image": "image"}]}}}
        })))
        .expect("valid ReplicationController");
        let rc = |api: &ApiServer| {
            api.store
                .get::<ReplicationController>("default", "rc")
                .cloned()
                .expect("stored ReplicationController")
        };
        let mut v = serde_json::to_value(rc(&api)).unwrap();
        v["status"] = json!({"replicas": 2, "terminatingReplicas": 2});
        api.update_status(obj(v)).expect("status update");
        assert_eq!(rc(&api).status.replicas, 2);
        assert_eq!(rc(&api).status.terminating_replicas, None, "gate {gate}");
    }
}

// Port of TestDeploymentStrategy (pkg/registry/apps/deployment/strategy_test.go), the rows with
// DeploymentPodReplacementPolicy disabled (its 1.35 default; kubeplay has no
// spec.podReplacementPolicy) under DeploymentReplicaSetTerminatingReplicas on and off: create
// cannot set status, and a podReplacementPolicy (even an invalid one) is dropped on create and
// update instead of being validated.
#[test]
fn deployment_strategy_pod_replacement_policy_gate_disabled() {
    let rows: [(&str, Option<&str>); 3] = [
        ("Deployment strategy with both feature gates disabled", None),
        (
            "Deployment strategy with FeatureGate disabled should remove podReplacementPolicy",
            Some("TerminationComplete"),
        ),
        (
            "Deployment strategy with FeatureGate disabled should remove invalid podReplacementPolicy",
            Some("Invalid"),
        ),
    ];
    for terminating in [false, true] {
        for (name, policy) in rows {
            let mut api = api_with_terminating_gate(terminating);
            let spec = policy.map_or(json!({}), |p| json!({"podReplacementPolicy": p}));
            api.create(obj(deployment(
                spec.clone(),
                json!({"replicas": 3, "observedGeneration": 2}),
            )))
            .unwrap_or_else(|e| panic!("{name}: unexpected error validating Deployment {e:?}"));
            let d = stored(&api);
            assert_eq!(
                d.status.replicas, 0,
                "{name}: Deployment should not allow setting status.replicas on create"
            );
            assert_eq!(
                d.status.observed_generation, 0,
                "{name}: Deployment should not allow setting status.observedGeneration on create"
            );
            let v = serde_json::to_value(&d).unwrap();
            assert!(v["spec"].get("podReplacementPolicy").is_none(), "{name}");

            let mut v = serde_json::to_value(&d).unwrap();
            if let (Value::Object(s), Value::Object(e)) = (&mut v["spec"], spec) {
                s.extend(e);
            }
            api.update(obj(v))
                .unwrap_or_else(|e| panic!("{name}: unexpected error updating Deployment {e:?}"));
            let v = serde_json::to_value(stored(&api)).unwrap();
            assert!(v["spec"].get("podReplacementPolicy").is_none(), "{name}");
        }
    }
}
