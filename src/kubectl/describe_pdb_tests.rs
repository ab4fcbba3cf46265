//! `kubectl describe pdb`: ports of TestDescribePodDisruptionBudgetV1 / V1beta1
//! (staging/src/k8s.io/kubectl/pkg/describe/describe_test.go), with the exact layout of
//! `describePodDisruptionBudgetV1` (tabbedString's tabwriter: the `Status:` line ends the first
//! column block; `Events:` aligns with the status counts).

use super::execute;
use super::testutil::sim;
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

fn put(sim: &mut Simulation, v: Value) {
    sim.api.store.put(Object::from_value(v).unwrap());
}

fn pdb(name: &str, ns: &str, spec: Value, status: Value) -> Value {
    json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns, "uid": format!("{name}-uid"),
                     "creationTimestamp": "2025-01-01T00:00:00Z"},
        "spec": spec, "status": status})
}

// upstream: TestDescribePodDisruptionBudgetV1 and TestDescribePodDisruptionBudgetV1beta1
// (describe_test.go): minAvailable 22 and 5 disruptions allowed in ns1/pdb1; the output holds
// "pdb1", "ns1", "22" and "5". Here the whole text: no selector prints `<unset>`.
#[test]
fn describe_pod_disruption_budget_v1() {
    let mut sim = sim();
    put(
        &mut sim,
        pdb(
            "pdb1",
            "ns1",
            json!({"minAvailable": 22}),
            json!({"disruptionsAllowed": 5}),
        ),
    );
    let out = execute(&mut sim, "describe pdb pdb1 -n ns1").unwrap();
    assert_eq!(
        out,
        "Name:           pdb1\n\
         Namespace:      ns1\n\
         Min available:  22\n\
         Selector:       <unset>\n\
         Status:\n\
         \x20   Allowed disruptions:  5\n\
         \x20   Current:              0\n\
         \x20   Desired:              0\n\
         \x20   Total:                0\n\
         Events:                   <none>"
    );
    for want in ["pdb1", "ns1", "22", "5"] {
        assert!(out.contains(want), "{want}");
    }
}

/// maxUnavailable when minAvailable is unset, the selector as FormatLabelSelector prints it,
/// the full resource name, and events from the disruption controller.
#[test]
fn describe_pod_disruption_budget_max_unavailable_and_events() {
    let mut sim = sim();
    put(
        &mut sim,
        pdb(
            "web",
            "default",
            json!({"maxUnavailable": "25%",
                   "selector": {"matchLabels": {"app": "web"},
                                "matchExpressions": [{"key": "tier", "operator": "In",
                                                      "values": ["a", "b"]}]}}),
            json!({"disruptionsAllowed": 1, "currentHealthy": 4, "desiredHealthy": 3,
                   "expectedPods": 4}),
        ),
    );
    let without = execute(
        &mut sim,
        "describe poddisruptionbudget/web --show-events=false",
    )
    .unwrap();
    assert_eq!(
        without,
        "Name:             web\n\
         Namespace:        default\n\
         Max unavailable:  25%\n\
         Selector:         app=web,tier in (a,b)\n\
         Status:\n\
         \x20   Allowed disruptions:  1\n\
         \x20   Current:              4\n\
         \x20   Desired:              3\n\
         \x20   Total:                4"
    );
    // The controller's events, from `controllermanager`.
    sim.api.record_event_on(
        "PodDisruptionBudget",
        &sim.api
            .store
            .get::<crate::api::policy::PodDisruptionBudget>("default", "web")
            .unwrap()
            .metadata
            .clone(),
        "Normal",
        "NoPods",
        "No matching pods found",
        "controllermanager",
    );
    let with = execute(&mut sim, "describe pdb web").unwrap();
    assert!(
        with.ends_with(
            "\x20   Total:                4\n\
             Events:\n\
             \x20 Type    Reason  Age   From               Message\n\
             \x20 ----    ------  ----  ----               -------\n\
             \x20 Normal  NoPods  0s    controllermanager  No matching pods found"
        ),
        "{with}"
    );
}
