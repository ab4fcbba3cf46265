//! Ports of the readiness-gate tests of pkg/api/v1/pod/util_test.go.

use super::*;
use crate::api::PodCondition;
use serde_json::json;

/// Upstream's `newPodWithReadinessGates`: the given gate types in the spec and one condition per
/// entry of `conditions` in the status.
fn pod_with_readiness_gates(gates: &[&str], conditions: &[(&str, &str)]) -> Pod {
    let mut p = Pod::default();
    let gates: Vec<serde_json::Value> = gates
        .iter()
        .map(|t| json!({ "conditionType": t }))
        .collect();
    p.spec_mut()
        .extra
        .insert("readinessGates".into(), serde_json::Value::Array(gates));
    p.status.conditions = conditions
        .iter()
        .map(|(t, s)| PodCondition {
            type_: (*t).into(),
            status: (*s).into(),
            ..Default::default()
        })
        .collect();
    p
}

// Port of TestIsPodReadinessGateConditionTrue (pkg/api/v1/pod/util_test.go).
#[test]
fn is_pod_readiness_gate_condition_true_upstream_table() {
    let gate = "readinessGate";
    // (name, condition exists, its status, expected)
    let rows = [
        ("conditionType exists and is true", true, "True", true),
        ("conditionType exists and is false", true, "False", false),
        (
            "conditionType does not exist. defaults to false",
            false,
            "False",
            false,
        ),
    ];
    for (name, exists, status, expected) in rows {
        let conds: Vec<(&str, &str)> = if exists { vec![(gate, status)] } else { vec![] };
        let pod = pod_with_readiness_gates(&[gate], &conds);
        assert_eq!(
            is_pod_readiness_gate_condition_true(gate, &pod.status.conditions),
            expected,
            "{name}"
        );
    }
}

// Port of TestArePodReadinessGatesTrue (pkg/api/v1/pod/util_test.go).
#[test]
fn are_pod_readiness_gates_true_upstream_table() {
    let g = |i: u32| format!("www.example.com/gate-{i}");
    let (g1, g2, g3, g4) = (g(1), g(2), g(3), g(4));
    type Row<'a> = (&'a str, Vec<&'a str>, Vec<(&'a str, &'a str)>, bool);
    let rows: Vec<Row> = vec![
        (
            "all readiness gates exist in status and return true. result true",
            vec![&g1, &g2, &g3],
            vec![(&g1, "True"), (&g2, "True"), (&g3, "True")],
            true,
        ),
        (
            "all readiness gates exist in status, some return false. result false",
            vec![&g1, &g2, &g3, &g4],
            vec![(&g1, "True"), (&g2, "False"), (&g3, "True"), (&g4, "True")],
            false,
        ),
        (
            "some readiness gates exist in status, all existing return true. result false",
            vec![&g1, &g2, &g3, &g4],
            vec![(&g1, "True"), (&g3, "True"), (&g4, "True")],
            false,
        ),
        (
            "some readiness gates exist in status, some existing return false. result false",
            vec![&g1, &g2, &g3, &g4],
            vec![(&g1, "True"), (&g3, "True"), (&g4, "False")],
            false,
        ),
        (
            "no readiness gates exist in status. result false",
            vec![&g1, &g2, &g3, &g4],
            vec![],
            false,
        ),
        (
            "readiness gate exists in status but none set in the spec. return true",
            vec![],
            vec![(&g1, "False"), (&g3, "True"), (&g4, "True")],
            true,
        ),
    ];
    for (name, spec, status, expected) in rows {
        let pod = pod_with_readiness_gates(&spec, &status);
        assert_eq!(are_pod_readiness_gates_true(&pod), expected, "{name}");
    }
}

// Not ported from pkg/api/v1/pod/util_test.go: TestFindPort, TestVisitContainers, TestPodSecrets,
// TestPodConfigmaps, TestGetContainerStatus, TestGetIndexOfContainerStatus,
// TestUpdatePodCondition, TestGetContainersReadyCondition and TestIsContainersReadyConditionTrue:
// named-port lookup, secret/config map visitors and the status-manager helpers have no
// counterpart in kubeplay (the kubelet model builds its conditions directly; its readiness-gate
// and terminal-phase reasons are tested in tests/apps_unit_upstream_more.rs).
