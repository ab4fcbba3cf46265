//! Status validation on `PUT .../status` (`ValidateStatusUpdate` of the workload strategies).
//!
//! Ports of `ValidateReplicaSetStatus`, `ValidateDeploymentStatus`, `ValidateStatefulSetStatus`
//! and `validateDaemonSetStatus` (pkg/apis/apps/validation/validation.go) and the counter and
//! uncountedTerminatedPods part of `validateJobStatus` (pkg/apis/batch/validation/validation.go);
//! a Job status update also gets the transition rules of `ValidateJobUpdateStatus`.
//! A controller whose status update breaks them gets Invalid back and retries, as upstream.

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

/// The ordering rules ReplicaSets and Deployments share (`ValidateReplicaSetStatus`,
/// `ValidateDeploymentStatus`): ready and available at most replicas, available at most ready.
fn ready_available_not_above(e: &mut Vec<FieldError>, replicas: i32, ready: i32, available: i32) {
    not_above(e, ready, replicas, "status.readyReplicas", ABOVE_REPLICAS);
    not_above(
        e,
        available,
        replicas,
        "status.availableReplicas",
        ABOVE_REPLICAS,
    );
    not_above(
        e,
        available,
        ready,
        "status.availableReplicas",
        "cannot be greater than readyReplicas",
    );
}

fn not_above(errs: &mut Vec<FieldError>, v: i32, limit: i32, path: &str, msg: &str) {
    if v > limit {
        errs.push(FieldError::invalid(path, v, msg));
    }
}

const ABOVE_REPLICAS: &str = "cannot be greater than status.replicas";

/// `ValidateReplicaSetStatus` (and `ValidateReplicationControllerStatus`, which has the same
/// rules and no terminatingReplicas): `[replicas, fullyLabeledReplicas, readyReplicas]`, then
/// availableReplicas and observedGeneration.
fn replica_set_status(
    e: &mut Vec<FieldError>,
    [replicas, fully_labeled, ready]: [i32; 3],
    available: i32,
    observed_generation: i64,
    terminating: Option<i32>,
) {
    nonneg(e, replicas.into(), "status.replicas");
    nonneg(e, fully_labeled.into(), "status.fullyLabeledReplicas");
    nonneg(e, ready.into(), "status.readyReplicas");
    nonneg(e, available.into(), "status.availableReplicas");
    nonneg(e, observed_generation, "status.observedGeneration");
    if let Some(t) = terminating {
        nonneg(e, t.into(), "status.terminatingReplicas");
    }
    not_above(
        e,
        fully_labeled,
        replicas,
        "status.fullyLabeledReplicas",
        ABOVE_REPLICAS,
    );
    ready_available_not_above(e, replicas, ready, available);
}

/// The status rules of `o`'s kind (empty for kinds without any).
pub fn validate_status(o: &Object) -> Vec<FieldError> {
    let mut e = vec![];
    match o {
        Object::ReplicaSet(rs) => {
            let s = &rs.status;
            let counts = [s.replicas, s.fully_labeled_replicas, s.ready_replicas];
            let (available, generation) = (s.available_replicas, s.observed_generation);
            replica_set_status(
                &mut e,
                counts,
                available,
                generation,
                s.terminating_replicas,
            );
        }
        // `ValidateReplicationControllerStatus`: the ReplicaSet rules without
        // terminatingReplicas (core/v1 has no such field).
        Object::ReplicationController(rc) => {
            let s = &rc.status;
            let counts = [s.replicas, s.fully_labeled_replicas, s.ready_replicas];
            let (available, generation) = (s.available_replicas, s.observed_generation);
            replica_set_status(&mut e, counts, available, generation, None);
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
            if let Some(t) = s.terminating_replicas {
                nonneg(&mut e, t.into(), "status.terminatingReplicas");
            }
            if let Some(c) = s.collision_count {
                nonneg(&mut e, c.into(), "status.collisionCount");
            }
            not_above(
                &mut e,
                s.updated_replicas,
                s.replicas,
                "status.updatedReplicas",
                ABOVE_REPLICAS,
            );
            ready_available_not_above(&mut e, s.replicas, s.ready_replicas, s.available_replicas);
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
            if let Some(r) = s.ready {
                nonneg(&mut e, r.into(), "status.ready");
            }
            if let Some(t) = s.terminating {
                nonneg(&mut e, t.into(), "status.terminating");
            }
            if let Some(u) = &s.uncounted_terminated_pods {
                // A UID may appear once across both lists, and never empty.
                let mut seen = std::collections::HashSet::new();
                for (list, name) in [(&u.succeeded, "succeeded"), (&u.failed, "failed")] {
                    for (i, k) in list.iter().enumerate() {
                        let p = format!("status.uncountedTerminatedPods.{name}[{i}]");
                        if k.is_empty() {
                            e.push(FieldError::invalid(p, k.as_str(), "must not be empty"));
                        } else if !seen.insert(k.as_str()) {
                            e.push(FieldError::duplicate(p, k.as_str()));
                        }
                    }
                }
            }
        }
        // `ValidateHorizontalPodAutoscalerStatusUpdate` (pkg/apis/autoscaling/validation), which
        // the HPA status strategy runs on every status write.
        Object::HorizontalPodAutoscaler(h) => {
            let s = &h.status;
            nonneg(&mut e, s.current_replicas.into(), "status.currentReplicas");
            nonneg(&mut e, s.desired_replicas.into(), "status.desiredReplicas");
        }
        // `ValidatePodDisruptionBudgetStatusUpdate` (pkg/apis/policy/validation), policy/v1.
        Object::PodDisruptionBudget(p) => {
            e.extend(
                crate::api::policy::validate_pod_disruption_budget_status_update(
                    &p.status, "status",
                ),
            );
        }
        _ => {}
    }
    e
}

/// `apivalidation.IsDecremented`: a pointer counter went down, or was unset.
fn is_decremented(update: Option<i32>, old: Option<i32>) -> bool {
    match (update, old) {
        (None, Some(_)) => true,
        (Some(u), Some(o)) => u < o,
        _ => false,
    }
}

/// The status rules of a status update (`ValidateDeploymentStatusUpdate`,
/// `ValidateStatefulSetStatusUpdate`, `ValidateDaemonSetStatusUpdate`, ... in
/// pkg/apis/apps/validation/validation.go): [`validate_status`] of the new object, and for the
/// kinds with a `status.collisionCount` the rule that it may not be decremented or unset
/// (`field.Invalid(status.collisionCount, <new value or 0>, "cannot be decremented")`).
pub fn validate_status_update(new: &Object, old: &Object) -> Vec<FieldError> {
    validate_status_update_gated(new, old, &crate::features::FeatureGates::default())
}

/// [`validate_status_update`] with the scenario's feature gates (the Job status rules depend on
/// JobManagedBy and JobPodReplacementPolicy).
pub fn validate_status_update_gated(
    new: &Object,
    old: &Object,
    gates: &crate::features::FeatureGates,
) -> Vec<FieldError> {
    // `podStatusStrategy.ValidateUpdate`: every pod status write (kubelet, scheduler,
    // DisruptionTarget conditions, kubectl) goes through ValidatePodStatusUpdate.
    if let (Object::Pod(n), Object::Pod(o)) = (new, old) {
        return super::pod_status::validate_pod_status_update(n, o);
    }
    let mut e = validate_status(new);
    if let (Object::Job(n), Object::Job(o)) = (new, old) {
        // `jobStatusStrategy.ValidateUpdate` (pkg/registry/batch/job/strategy.go): the
        // transition rules of `getStatusValidationOptions` under the JobManagedBy and
        // JobPodReplacementPolicy gates (both on by default in 1.35).
        use crate::api::batch_validation as bv;
        let opts = bv::job_status_validation_options(
            n,
            o,
            gates.enabled("JobManagedBy"),
            gates.enabled("JobPodReplacementPolicy"),
        );
        e.extend(bv::validate_job_status_rules(n, opts));
        e.extend(bv::validate_job_status_update_rules(n, o, opts));
        return e;
    }
    let counts = match (new, old) {
        (Object::Deployment(n), Object::Deployment(o)) => {
            Some((n.status.collision_count, o.status.collision_count))
        }
        (Object::StatefulSet(n), Object::StatefulSet(o)) => {
            Some((n.status.collision_count, o.status.collision_count))
        }
        (Object::DaemonSet(n), Object::DaemonSet(o)) => {
            Some((n.status.collision_count, o.status.collision_count))
        }
        _ => None,
    };
    if let Some((n, o)) = counts {
        if is_decremented(n, o) {
            e.push(FieldError::invalid(
                "status.collisionCount",
                n.unwrap_or(0),
                "cannot be decremented",
            ));
        }
    }
    e
}

#[cfg(test)]
mod upstream_status_update_tests;

#[cfg(test)]
mod exact_rows_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Deployment, DeploymentStatus, ReplicaSet, ReplicaSetStatus};

    fn deployment(status: DeploymentStatus) -> Object {
        Object::Deployment(Deployment {
            status: status.into(),
            ..Default::default()
        })
    }

    fn lines(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    /// Port of TestValidateDeploymentStatus (pkg/apis/apps/validation/validation_test.go):
    /// (name, replicas, updated, ready, available, observedGeneration, collisionCount, error).
    #[test]
    fn validate_deployment_status() {
        #[allow(clippy::type_complexity)]
        let cases: &[(&str, i32, i32, i32, i32, i64, Option<i32>, bool)] = &[
            ("valid status", 3, 3, 2, 1, 2, None, false),
            ("invalid replicas", -1, 2, 2, 1, 2, None, true),
            ("invalid updatedReplicas", 2, -1, 2, 1, 2, None, true),
            ("invalid readyReplicas", 3, 0, -1, 1, 2, None, true),
            ("invalid availableReplicas", 3, 0, 3, -1, 2, None, true),
            ("invalid observedGeneration", 3, 0, 3, 3, -1, None, true),
            (
                "updatedReplicas greater than replicas",
                3,
                4,
                3,
                3,
                1,
                None,
                true,
            ),
            (
                "readyReplicas greater than replicas",
                3,
                0,
                4,
                3,
                1,
                None,
                true,
            ),
            (
                "availableReplicas greater than replicas",
                3,
                0,
                3,
                4,
                1,
                None,
                true,
            ),
            (
                "availableReplicas greater than readyReplicas",
                3,
                0,
                2,
                3,
                1,
                None,
                true,
            ),
            ("invalid collisionCount", 3, 0, 0, 0, 1, Some(-3), true),
        ];
        for &(name, replicas, updated, ready, available, gen, collision, want) in cases {
            let errs = validate_status(&deployment(DeploymentStatus {
                replicas,
                updated_replicas: updated,
                ready_replicas: ready,
                available_replicas: available,
                observed_generation: gen,
                collision_count: collision,
                ..Default::default()
            }));
            assert_eq!(!errs.is_empty(), want, "{name}: {:?}", lines(&errs));
        }
    }

    /// The exact lines of the ordering rules (field.Invalid with upstream's messages), in
    /// upstream's order.
    #[test]
    fn deployment_status_ordering_messages() {
        let errs = validate_status(&deployment(DeploymentStatus {
            replicas: 1,
            updated_replicas: 2,
            ready_replicas: 2,
            available_replicas: 3,
            ..Default::default()
        }));
        assert_eq!(
            lines(&errs),
            [
                "status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas",
                "status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas",
                "status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas",
                "status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas",
            ]
        );
    }

    /// The `terminatingReplicas` (DeploymentReplicaSetTerminatingReplicas, beta and on in 1.35) is
    /// non-negative when set, on Deployments and ReplicaSets.
    #[test]
    fn terminating_replicas_non_negative() {
        let d = deployment(DeploymentStatus {
            terminating_replicas: Some(-1),
            ..Default::default()
        });
        assert_eq!(
            lines(&validate_status(&d)),
            ["status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0"]
        );
        let ok = deployment(DeploymentStatus {
            terminating_replicas: Some(2),
            ..Default::default()
        });
        assert!(validate_status(&ok).is_empty());
        let rs = Object::ReplicaSet(ReplicaSet {
            status: (ReplicaSetStatus {
                terminating_replicas: Some(-2),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        });
        assert_eq!(
            lines(&validate_status(&rs)),
            ["status.terminatingReplicas: Invalid value: -2: must be greater than or equal to 0"]
        );
    }

    /// Port of TestValidateReplicaSetStatus (pkg/apis/apps/validation/validation_test.go):
    /// (name, replicas, fullyLabeled, ready, available, observedGeneration, error).
    #[test]
    fn validate_replica_set_status() {
        let cases: &[(&str, i32, i32, i32, i32, i64, bool)] = &[
            ("valid status", 3, 3, 2, 1, 2, false),
            ("invalid replicas", -1, 3, 2, 1, 2, true),
            ("invalid fullyLabeledReplicas", 3, -1, 2, 1, 2, true),
            ("invalid readyReplicas", 3, 3, -1, 1, 2, true),
            ("invalid availableReplicas", 3, 3, 3, -1, 2, true),
            ("invalid observedGeneration", 3, 3, 3, 3, -1, true),
            (
                "fullyLabeledReplicas greater than replicas",
                3,
                4,
                3,
                3,
                1,
                true,
            ),
            ("readyReplicas greater than replicas", 3, 3, 4, 3, 1, true),
            (
                "availableReplicas greater than replicas",
                3,
                3,
                3,
                4,
                1,
                true,
            ),
            (
                "availableReplicas greater than readyReplicas",
                3,
                3,
                2,
                3,
                1,
                true,
            ),
        ];
        for &(name, replicas, labeled, ready, available, gen, want) in cases {
            let rs = Object::ReplicaSet(ReplicaSet {
                status: (ReplicaSetStatus {
                    replicas,
                    fully_labeled_replicas: labeled,
                    ready_replicas: ready,
                    available_replicas: available,
                    observed_generation: gen,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            });
            let errs = validate_status(&rs);
            assert_eq!(!errs.is_empty(), want, "{name}: {:?}", lines(&errs));
        }
    }

    /// Upstream: TestValidateStatefulSetStatus (pkg/apis/apps/validation/validation_test.go):
    /// (name, replicas, ready, current, updated, available, observedGeneration,
    /// collisionCount, error).
    #[test]
    fn validate_stateful_set_status() {
        use crate::api::{StatefulSet, StatefulSetStatus};
        #[allow(clippy::type_complexity)]
        let cases: &[(&str, i32, i32, i32, i32, i32, i64, Option<i32>, bool)] = &[
            ("valid status", 3, 3, 2, 1, 0, 0, None, false),
            ("invalid replicas", -1, 3, 2, 1, 0, 0, None, true),
            ("invalid readyReplicas", 3, -1, 2, 1, 0, 0, None, true),
            ("invalid currentReplicas", 3, 3, -1, 1, 0, 0, None, true),
            ("invalid updatedReplicas", 3, 3, 2, -1, 0, 0, None, true),
            ("invalid observedGeneration", 3, 3, 2, 1, 0, -1, None, true),
            ("invalid collisionCount", 3, 3, 2, 1, 0, 0, Some(-1), true),
            (
                "readyReplicas greater than replicas",
                3,
                4,
                2,
                1,
                0,
                0,
                None,
                true,
            ),
            (
                "currentReplicas greater than replicas",
                3,
                3,
                4,
                1,
                0,
                0,
                None,
                true,
            ),
            (
                "updatedReplicas greater than replicas",
                3,
                3,
                2,
                4,
                0,
                0,
                None,
                true,
            ),
            (
                "invalid: number of available replicas",
                3,
                3,
                2,
                0,
                -1,
                0,
                None,
                true,
            ),
            (
                "invalid: available replicas greater than replicas",
                3,
                3,
                2,
                0,
                4,
                0,
                None,
                true,
            ),
            (
                "invalid: available replicas greater than ready replicas",
                3,
                2,
                2,
                0,
                3,
                0,
                None,
                true,
            ),
        ];
        for &(name, replicas, ready, current, updated, available, gen, collision, want) in cases {
            let ss = Object::StatefulSet(StatefulSet {
                status: (StatefulSetStatus {
                    replicas,
                    ready_replicas: ready,
                    current_replicas: current,
                    updated_replicas: updated,
                    available_replicas: available,
                    observed_generation: gen,
                    collision_count: collision,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            });
            let errs = validate_status(&ss);
            assert_eq!(!errs.is_empty(), want, "{name}: {:?}", lines(&errs));
        }
    }

    /// Upstream: TestValidateDaemonSetStatusUpdate (pkg/apis/apps/validation/validation_test.go).
    /// The rows change only the status, so `validate_status` on the update is what decides:
    /// (name, currentNumberScheduled, numberMisscheduled, desiredNumberScheduled, numberReady,
    /// observedGeneration, updatedNumberScheduled, numberAvailable, numberUnavailable, error).
    #[test]
    fn validate_daemon_set_status_update() {
        use crate::api::{DaemonSet, DaemonSetStatus};
        #[allow(clippy::type_complexity)]
        let cases: &[(&str, [i32; 4], i64, [i32; 3], bool)] = &[
            ("success", [1, 1, 3, 1], 0, [1, 1, 2], false),
            ("negative values", [-1, -1, -3, -1], -3, [-1, -1, -2], true),
            (
                "negative CurrentNumberScheduled",
                [-1, 1, 3, 1],
                3,
                [1, 1, 2],
                true,
            ),
            (
                "negative NumberMisscheduled",
                [1, -1, 3, 1],
                3,
                [1, 1, 2],
                true,
            ),
            (
                "negative DesiredNumberScheduled",
                [1, 1, -3, 1],
                3,
                [1, 1, 2],
                true,
            ),
            ("negative NumberReady", [1, 1, 3, -1], 3, [1, 1, 2], true),
            (
                "negative ObservedGeneration",
                [1, 1, 3, 1],
                -3,
                [1, 1, 2],
                true,
            ),
            (
                "negative UpdatedNumberScheduled",
                [1, 1, 3, 1],
                3,
                [-1, 1, 2],
                true,
            ),
            (
                "negative NumberAvailable",
                [1, 1, 3, 1],
                3,
                [1, -1, 2],
                true,
            ),
            (
                "negative NumberUnavailable",
                [1, 1, 3, 1],
                3,
                [1, 1, -2],
                true,
            ),
        ];
        for &(name, [current, mis, desired, ready], gen, [updated, available, unavailable], want) in
            cases
        {
            let ds = Object::DaemonSet(DaemonSet {
                status: (DaemonSetStatus {
                    current_number_scheduled: current,
                    number_misscheduled: mis,
                    desired_number_scheduled: desired,
                    number_ready: ready,
                    observed_generation: gen,
                    updated_number_scheduled: updated,
                    number_available: available,
                    number_unavailable: unavailable,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            });
            let errs = validate_status(&ds);
            assert_eq!(!errs.is_empty(), want, "{name}: {:?}", lines(&errs));
        }
    }

    /// Upstream: TestValidateReplicaSetStatusUpdate (pkg/apis/apps/validation/validation_test.go):
    /// status.replicas 4 on a 3-replica set is accepted (status may lead or lag the spec); -3 is
    /// not. (The error row also renames the object, which the metadata update rules reject.)
    #[test]
    fn validate_replica_set_status_update() {
        for (replicas, want_err) in [(4, false), (-3, true)] {
            let rs = Object::ReplicaSet(ReplicaSet {
                spec: (crate::api::ReplicaSetSpec {
                    replicas: Some(3),
                    ..Default::default()
                })
                .into(),
                status: (ReplicaSetStatus {
                    replicas,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            });
            let errs = validate_status(&rs);
            assert_eq!(!errs.is_empty(), want_err, "{replicas}: {:?}", lines(&errs));
        }
    }
}
