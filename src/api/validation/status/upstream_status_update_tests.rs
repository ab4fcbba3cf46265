//! Ports of the status-update tables of pkg/apis/apps/validation/validation_test.go.

use super::*;
use crate::api::{
    DaemonSet, DaemonSetStatus, Deployment, DeploymentStatus, StatefulSet, StatefulSetStatus,
};

fn deployment(collision_count: Option<i32>) -> Object {
    Object::Deployment(Deployment {
        status: (DeploymentStatus {
            collision_count,
            ..Default::default()
        })
        .into(),
        ..Default::default()
    })
}

fn lines(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

// upstream: TestValidateDeploymentStatusUpdate (pkg/apis/apps/validation/validation_test.go)
#[test]
fn validate_deployment_status_update() {
    let collision_count = Some(1);
    let other_collision_count = Some(2);
    // (name, from, to, expectedErr)
    let cases = [
        ("increase: valid update", None, collision_count, false),
        (
            "stable: valid update",
            collision_count,
            collision_count,
            false,
        ),
        ("unset: invalid update", collision_count, None, true),
        (
            "decrease: invalid update",
            other_collision_count,
            collision_count,
            true,
        ),
    ];
    for (name, from, to, want_err) in cases {
        let errs = validate_status_update(&deployment(to), &deployment(from));
        assert_eq!(!errs.is_empty(), want_err, "{name}: {:?}", lines(&errs));
    }
}

// The error itself, as ValidateDeploymentStatusUpdate builds it: the new value (0 when unset)
// and "cannot be decremented" on status.collisionCount.
#[test]
fn deployment_collision_count_decrement_error_text() {
    let errs = validate_status_update(&deployment(Some(1)), &deployment(Some(2)));
    assert_eq!(
        lines(&errs),
        ["status.collisionCount: Invalid value: 1: cannot be decremented"]
    );
    let errs = validate_status_update(&deployment(None), &deployment(Some(2)));
    assert_eq!(
        lines(&errs),
        ["status.collisionCount: Invalid value: 0: cannot be decremented"]
    );
}

// ValidateStatefulSetStatusUpdate and ValidateDaemonSetStatusUpdate
// (pkg/apis/apps/validation/validation.go) apply the same IsDecremented rule; the same four
// transitions as TestValidateDeploymentStatusUpdate.
#[test]
fn stateful_set_and_daemon_set_collision_count_may_not_decrease() {
    let sts = |c: Option<i32>| {
        Object::StatefulSet(StatefulSet {
            status: (StatefulSetStatus {
                collision_count: c,
                ..Default::default()
            })
            .into(),
            ..Default::default()
        })
    };
    let ds = |c: Option<i32>| {
        Object::DaemonSet(DaemonSet {
            status: (DaemonSetStatus {
                collision_count: c,
                ..Default::default()
            })
            .into(),
            ..Default::default()
        })
    };
    for (from, to, want_err) in [
        (None, Some(1), false),
        (Some(1), Some(1), false),
        (Some(1), None, true),
        (Some(2), Some(1), true),
    ] {
        let errs = validate_status_update(&sts(to), &sts(from));
        assert_eq!(!errs.is_empty(), want_err, "sts {from:?}->{to:?}");
        let errs = validate_status_update(&ds(to), &ds(from));
        assert_eq!(!errs.is_empty(), want_err, "ds {from:?}->{to:?}");
    }
}

// The status rules still run on the new object.
#[test]
fn status_update_keeps_the_status_rules() {
    let mut new = deployment(Some(1));
    if let Object::Deployment(d) = &mut new {
        d.status.replicas = 1;
        d.status.updated_replicas = 2;
    }
    let errs = validate_status_update(&new, &deployment(Some(1)));
    assert_eq!(
        lines(&errs),
        ["status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas"]
    );
}
