//! The status tables of pkg/apis/apps/validation/validation_test.go (TestValidateStatefulSetStatus,
//! TestValidateDeploymentStatus, TestValidateReplicaSetStatus, TestValidateDaemonSetStatusUpdate)
//! row by row with each row's exact error list. Upstream checks only "error or not"; the texts
//! and their order are those of ValidateStatefulSetStatus, ValidateDeploymentStatus,
//! ValidateReplicaSetStatus and validateDaemonSetStatus (pkg/apis/apps/validation/validation.go):
//! first the non-negative checks in field order, then the "cannot be greater than" checks.

use super::*;
use serde_json::{json, Value};

fn status_of(kind: &str, status: Value) -> Object {
    let v = json!({"apiVersion": "apps/v1", "kind": kind,
        "metadata": {"name": "abc", "namespace": "default"}, "status": status});
    match kind {
        "StatefulSet" => Object::StatefulSet(serde_json::from_value(v).expect("StatefulSet")),
        "Deployment" => Object::Deployment(serde_json::from_value(v).expect("Deployment")),
        "ReplicaSet" => Object::ReplicaSet(serde_json::from_value(v).expect("ReplicaSet")),
        _ => Object::DaemonSet(serde_json::from_value(v).expect("DaemonSet")),
    }
}

fn lines(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

fn neg(field: &str, v: i64) -> String {
    format!("status.{field}: Invalid value: {v}: must be greater than or equal to 0")
}

fn above(field: &str, v: i64) -> String {
    format!("status.{field}: Invalid value: {v}: cannot be greater than status.replicas")
}

// upstream: TestValidateStatefulSetStatus (pkg/apis/apps/validation/validation_test.go)
#[test]
fn stateful_set_status_rows_exact() {
    let ready_above = |v: i64| {
        format!("status.availableReplicas: Invalid value: {v}: cannot be greater than status.readyReplicas")
    };
    // (name, replicas, ready, current, updated, available, observedGeneration, collisionCount)
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "valid status",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "updatedReplicas": 1}),
            vec![],
        ),
        (
            "invalid replicas",
            json!({"replicas": -1, "readyReplicas": 3, "currentReplicas": 2, "updatedReplicas": 1}),
            vec![
                neg("replicas", -1),
                above("readyReplicas", 3),
                above("currentReplicas", 2),
                above("updatedReplicas", 1),
                above("availableReplicas", 0),
            ],
        ),
        (
            "invalid readyReplicas",
            json!({"replicas": 3, "readyReplicas": -1, "currentReplicas": 2, "updatedReplicas": 1}),
            vec![neg("readyReplicas", -1), ready_above(0)],
        ),
        (
            "invalid currentReplicas",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": -1, "updatedReplicas": 1}),
            vec![neg("currentReplicas", -1)],
        ),
        (
            "invalid updatedReplicas",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "updatedReplicas": -1}),
            vec![neg("updatedReplicas", -1)],
        ),
        (
            "invalid observedGeneration",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "updatedReplicas": 1,
                "observedGeneration": -1}),
            vec![neg("observedGeneration", -1)],
        ),
        (
            "invalid collisionCount",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "updatedReplicas": 1,
                "collisionCount": -1}),
            vec![neg("collisionCount", -1)],
        ),
        (
            "readyReplicas greater than replicas",
            json!({"replicas": 3, "readyReplicas": 4, "currentReplicas": 2, "updatedReplicas": 1}),
            vec![above("readyReplicas", 4)],
        ),
        (
            "currentReplicas greater than replicas",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 4, "updatedReplicas": 1}),
            vec![above("currentReplicas", 4)],
        ),
        (
            "updatedReplicas greater than replicas",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "updatedReplicas": 4}),
            vec![above("updatedReplicas", 4)],
        ),
        (
            "invalid: number of available replicas",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "availableReplicas": -1}),
            vec![neg("availableReplicas", -1)],
        ),
        (
            "invalid: available replicas greater than replicas",
            json!({"replicas": 3, "readyReplicas": 3, "currentReplicas": 2, "availableReplicas": 4}),
            vec![above("availableReplicas", 4), ready_above(4)],
        ),
        (
            "invalid: available replicas greater than ready replicas",
            json!({"replicas": 3, "readyReplicas": 2, "currentReplicas": 2, "availableReplicas": 3}),
            vec![ready_above(3)],
        ),
    ];
    for (name, status, want) in rows {
        assert_eq!(
            lines(&validate_status(&status_of("StatefulSet", status))),
            want,
            "{name}"
        );
    }
}

// upstream: TestValidateDeploymentStatus (pkg/apis/apps/validation/validation_test.go)
#[test]
fn deployment_status_rows_exact() {
    // ValidateDeploymentStatus says "readyReplicas" here, without "status.".
    let ready_above = |v: i64| {
        format!(
            "status.availableReplicas: Invalid value: {v}: cannot be greater than readyReplicas"
        )
    };
    let s = |replicas: i32, updated: i32, ready: i32, available: i32, generation: i64| {
        json!({"replicas": replicas, "updatedReplicas": updated, "readyReplicas": ready,
            "availableReplicas": available, "observedGeneration": generation})
    };
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        ("valid status", s(3, 3, 2, 1, 2), vec![]),
        (
            "invalid replicas",
            s(-1, 2, 2, 1, 2),
            vec![
                neg("replicas", -1),
                above("updatedReplicas", 2),
                above("readyReplicas", 2),
                above("availableReplicas", 1),
            ],
        ),
        (
            "invalid updatedReplicas",
            s(2, -1, 2, 1, 2),
            vec![neg("updatedReplicas", -1)],
        ),
        (
            "invalid readyReplicas",
            s(3, 0, -1, 1, 2),
            vec![neg("readyReplicas", -1), ready_above(1)],
        ),
        (
            "invalid availableReplicas",
            s(3, 0, 3, -1, 2),
            vec![neg("availableReplicas", -1)],
        ),
        (
            "invalid observedGeneration",
            s(3, 0, 3, 3, -1),
            vec![neg("observedGeneration", -1)],
        ),
        (
            "updatedReplicas greater than replicas",
            s(3, 4, 3, 3, 1),
            vec![above("updatedReplicas", 4)],
        ),
        (
            "readyReplicas greater than replicas",
            s(3, 0, 4, 3, 1),
            vec![above("readyReplicas", 4)],
        ),
        (
            "availableReplicas greater than replicas",
            s(3, 0, 3, 4, 1),
            vec![above("availableReplicas", 4), ready_above(4)],
        ),
        (
            "availableReplicas greater than readyReplicas",
            s(3, 0, 2, 3, 1),
            vec![ready_above(3)],
        ),
        (
            "invalid collisionCount",
            json!({"replicas": 3, "observedGeneration": 1, "collisionCount": -3}),
            vec![neg("collisionCount", -3)],
        ),
        (
            // Hand-derived: unavailableReplicas is only checked for sign.
            "negative unavailableReplicas",
            json!({"replicas": 1, "unavailableReplicas": -1}),
            vec![neg("unavailableReplicas", -1)],
        ),
    ];
    for (name, status, want) in rows {
        assert_eq!(
            lines(&validate_status(&status_of("Deployment", status))),
            want,
            "{name}"
        );
    }
}

// upstream: TestValidateReplicaSetStatus (pkg/apis/apps/validation/validation_test.go)
#[test]
fn replica_set_status_rows_exact() {
    let ready_above = |v: i64| {
        format!(
            "status.availableReplicas: Invalid value: {v}: cannot be greater than readyReplicas"
        )
    };
    let s = |replicas: i32, fully: i32, ready: i32, available: i32, generation: i64| {
        json!({"replicas": replicas, "fullyLabeledReplicas": fully, "readyReplicas": ready,
            "availableReplicas": available, "observedGeneration": generation})
    };
    let rows: Vec<(&str, Value, Vec<String>)> = vec![
        ("valid status", s(3, 3, 2, 1, 2), vec![]),
        (
            "invalid replicas",
            s(-1, 3, 2, 1, 2),
            vec![
                neg("replicas", -1),
                above("fullyLabeledReplicas", 3),
                above("readyReplicas", 2),
                above("availableReplicas", 1),
            ],
        ),
        (
            "invalid fullyLabeledReplicas",
            s(3, -1, 2, 1, 2),
            vec![neg("fullyLabeledReplicas", -1)],
        ),
        (
            "invalid readyReplicas",
            s(3, 3, -1, 1, 2),
            vec![neg("readyReplicas", -1), ready_above(1)],
        ),
        (
            "invalid availableReplicas",
            s(3, 3, 3, -1, 2),
            vec![neg("availableReplicas", -1)],
        ),
        (
            "invalid observedGeneration",
            s(3, 3, 3, 3, -1),
            vec![neg("observedGeneration", -1)],
        ),
        (
            "fullyLabeledReplicas greater than replicas",
            s(3, 4, 3, 3, 1),
            vec![above("fullyLabeledReplicas", 4)],
        ),
        (
            "readyReplicas greater than replicas",
            s(3, 3, 4, 3, 1),
            vec![above("readyReplicas", 4)],
        ),
        (
            "availableReplicas greater than replicas",
            s(3, 3, 3, 4, 1),
            vec![above("availableReplicas", 4), ready_above(4)],
        ),
        (
            "availableReplicas greater than readyReplicas",
            s(3, 3, 2, 3, 1),
            vec![ready_above(3)],
        ),
    ];
    for (name, status, want) in rows {
        assert_eq!(
            lines(&validate_status(&status_of("ReplicaSet", status))),
            want,
            "{name}"
        );
    }
}

// upstream: TestValidateDaemonSetStatusUpdate (pkg/apis/apps/validation/validation_test.go): the
// "negative values" row (every counter negative) with validateDaemonSetStatus's field order,
// and one row per counter.
#[test]
fn daemon_set_status_rows_exact() {
    let fields = [
        "currentNumberScheduled",
        "numberMisscheduled",
        "desiredNumberScheduled",
        "numberReady",
        "observedGeneration",
        "updatedNumberScheduled",
        "numberAvailable",
        "numberUnavailable",
    ];
    let values = [-1, -1, -3, -1, -3, -1, -1, -2];
    let all: serde_json::Map<String, Value> = fields
        .iter()
        .zip(values)
        .map(|(f, v)| (f.to_string(), json!(v)))
        .collect();
    let want: Vec<String> = fields.iter().zip(values).map(|(f, v)| neg(f, v)).collect();
    assert_eq!(
        lines(&validate_status(&status_of(
            "DaemonSet",
            Value::Object(all)
        ))),
        want
    );
    let valid = json!({"currentNumberScheduled": 1, "numberMisscheduled": 2,
        "desiredNumberScheduled": 3, "numberReady": 1, "observedGeneration": 3,
        "updatedNumberScheduled": 1, "numberAvailable": 1, "numberUnavailable": 2});
    assert!(validate_status(&status_of("DaemonSet", valid.clone())).is_empty());
    for f in fields {
        let mut v = valid.clone();
        v[f] = json!(-1);
        assert_eq!(
            lines(&validate_status(&status_of("DaemonSet", v))),
            [neg(f, -1)],
            "negative {f}"
        );
    }
    // A negative collisionCount as well.
    let mut v = valid;
    v["collisionCount"] = json!(-1);
    assert_eq!(
        lines(&validate_status(&status_of("DaemonSet", v))),
        [neg("collisionCount", -1)]
    );
}
