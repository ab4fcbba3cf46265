//! Eviction subresource tests, after TestEviction / TestEvictionIgnorePDB /
//! TestEvictionPDBStatus (pkg/registry/core/pod/storage/eviction_test.go): the pod and budgets
//! are loaded into the simulated API server and `evict` is called as the handler's `Create`.

use crate::api::policy::PodDisruptionBudget;
use crate::api::{Object, Pod, Reason, Time};
use crate::store::apiserver::{ApiServer, DeleteOptions};
use serde_json::{json, Value};

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn pod(name: &str, phase: &str, ready: bool) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "uid": format!("{name}-uid"),
                     "labels": {"a": "true"}},
        "spec": {"nodeName": "foo", "containers": [{"name": "c", "image": "i"}]},
        "status": {"phase": phase, "conditions": [
            {"type": "Ready", "status": if ready { "True" } else { "False" }}]}})
}

/// A budget selecting `a=true` with the given status.
fn pdb(name: &str, status: Value) -> Value {
    json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": "default", "generation": 1},
        "spec": {"selector": {"matchLabels": {"a": "true"}}},
        "status": status})
}

fn server(objs: Vec<Value>) -> ApiServer {
    let mut api = ApiServer::new(1, now());
    for o in objs {
        api.load(Object::from_value(o).unwrap()).unwrap();
    }
    api
}

fn evict(api: &mut ApiServer, name: &str) -> Result<(), (Reason, String)> {
    api.evict("default", name, &DeleteOptions::default(), false)
        .map_err(|e| (e.reason, e.message))
}

fn deleting(api: &ApiServer, name: &str) -> bool {
    api.store
        .get::<Pod>("default", name)
        .is_none_or(|p| p.metadata.deletion_timestamp.is_some())
}

// upstream: TestEviction (eviction_test.go), "matching pdbs with no disruptions allowed" and
// "matching pdbs with disruptions allowed".
#[test]
fn budget_allows_or_refuses() {
    let refused = json!({"observedGeneration": 1, "disruptionsAllowed": 0});
    let mut api = server(vec![pod("t1", "Running", true), pdb("pdb", refused)]);
    assert_eq!(
        evict(&mut api, "t1"),
        Err((
            Reason::TooManyRequests,
            "Cannot evict pod as it would violate the pod's disruption budget.".into()
        ))
    );
    assert!(!deleting(&api, "t1"));

    let allowed = json!({"observedGeneration": 1, "disruptionsAllowed": 1,
                         "currentHealthy": 3, "desiredHealthy": 2, "expectedPods": 3});
    let mut api = server(vec![pod("t2", "Running", true), pdb("pdb", allowed)]);
    assert_eq!(evict(&mut api, "t2"), Ok(()));
    assert!(deleting(&api, "t2"));
    // checkAndDecrement: the budget is taken from and the pod recorded; at 0 the condition
    // turns InsufficientPods.
    let b = api
        .store
        .get::<PodDisruptionBudget>("default", "pdb")
        .unwrap();
    assert_eq!(b.status.disruptions_allowed, 0);
    assert_eq!(b.status.disrupted_pods.get("t2"), Some(&now()));
    let c = &b.status.conditions[0];
    assert_eq!(
        (c.type_.as_str(), c.status.as_str(), c.reason.as_str()),
        ("DisruptionAllowed", "False", "InsufficientPods")
    );
    // addConditionAndDeletePod: DisruptionTarget before the delete.
    let p = api.store.get::<Pod>("default", "t2").unwrap();
    let dt = p
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "DisruptionTarget")
        .unwrap();
    assert_eq!(
        (dt.status.as_str(), dt.reason.as_str(), dt.message.as_str()),
        ("True", "EvictionByEvictionAPI", "Eviction API: evicting")
    );
}

// upstream: TestEviction, "no pdbs" and "too many matching pdbs" (500 with the Status message).
#[test]
fn no_budget_and_too_many_budgets() {
    let mut api = server(vec![pod("t3", "Running", true)]);
    assert_eq!(evict(&mut api, "t3"), Ok(()));
    assert!(deleting(&api, "t3"));
    let st = json!({"observedGeneration": 1, "disruptionsAllowed": 1});
    let mut api = server(vec![
        pod("t4", "Running", true),
        pdb("pdb", st.clone()),
        pdb("pdb-2", st),
    ]);
    assert_eq!(
        evict(&mut api, "t4"),
        Err((
            Reason::InternalError,
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.".into()
        ))
    );
    assert!(!deleting(&api, "t4"));
}

// upstream: TestEvictionIgnorePDB (eviction_test.go): pending, succeeded and failed pods and
// pods already terminating go without checking budgets; an unready running pod goes when the
// budget is met, not when it is not.
#[test]
fn ignore_pdb() {
    let zero = json!({"observedGeneration": 1, "disruptionsAllowed": 0});
    for phase in ["Pending", "Succeeded", "Failed"] {
        let mut api = server(vec![pod("t", phase, false), pdb("pdb", zero.clone())]);
        assert_eq!(evict(&mut api, "t"), Ok(()), "{phase}");
    }
    let met = json!({"observedGeneration": 1, "disruptionsAllowed": 0,
                     "currentHealthy": 2, "desiredHealthy": 2});
    let mut api = server(vec![pod("t", "Running", false), pdb("pdb", met)]);
    assert_eq!(evict(&mut api, "t"), Ok(()));
    // Not decremented: the unready pod did not count.
    let b = api
        .store
        .get::<PodDisruptionBudget>("default", "pdb")
        .unwrap();
    assert!(b.status.disrupted_pods.is_empty());
    let unmet = json!({"observedGeneration": 1, "disruptionsAllowed": 0,
                       "currentHealthy": 1, "desiredHealthy": 2});
    let mut api = server(vec![pod("t", "Running", false), pdb("pdb", unmet)]);
    assert_eq!(evict(&mut api, "t").unwrap_err().0, Reason::TooManyRequests);
}

// upstream: TestEvictionIgnorePDB's UnhealthyPodEvictionPolicy rows: AlwaysAllow lets an
// unready pod go even when the budget is not met; a ready pod is still guarded.
#[test]
fn unhealthy_pod_eviction_policy() {
    let unmet = json!({"observedGeneration": 1, "disruptionsAllowed": 0,
                       "currentHealthy": 1, "desiredHealthy": 2});
    let mut b = pdb("pdb", unmet);
    b["spec"]["unhealthyPodEvictionPolicy"] = json!("AlwaysAllow");
    let mut api = server(vec![pod("t", "Running", false), b.clone()]);
    assert_eq!(evict(&mut api, "t"), Ok(()));
    let mut api = server(vec![pod("t", "Running", true), b]);
    assert_eq!(evict(&mut api, "t").unwrap_err().0, Reason::TooManyRequests);
}

// checkAndDecrement's other refusals: a budget not yet observed at its generation (429), a
// negative disruptionsAllowed (403).
#[test]
fn check_and_decrement_refusals() {
    let stale = json!({"observedGeneration": 0, "disruptionsAllowed": 1});
    let mut api = server(vec![pod("t", "Running", true), pdb("pdb", stale)]);
    assert_eq!(evict(&mut api, "t").unwrap_err().0, Reason::TooManyRequests);
    let negative = json!({"observedGeneration": 1, "disruptionsAllowed": -1});
    let mut api = server(vec![pod("t", "Running", true), pdb("pdb", negative)]);
    assert_eq!(
        evict(&mut api, "t"),
        Err((
            Reason::Forbidden,
            "poddisruptionbudget.policy \"pdb\" is forbidden: pdb disruptions allowed is negative"
                .into()
        ))
    );
}
