//! API validation (`pkg/apis/*/validation`) with `field.Error` lists in Kubernetes' wording.
//!
//! [`validate_object`] is what the simulated API server runs: the kind's REST strategy
//! `Validate` on create, `ValidateUpdate` on update. Messages follow Kubernetes 1.34
//! (apimachinery v0.34): the same field paths, error types, bad-value rendering and details.
//! Errors are deduplicated as `ErrorList.ToAggregate` (and kubectl) do, keeping the first.

pub mod affinity;
#[cfg(test)]
mod affinity_tests;
pub mod conditions;
pub mod ip;
#[cfg(test)]
mod label_key_memo_tests;
pub mod meta;
pub mod names;
pub mod names_more;
pub mod node;
pub mod pod;
pub mod pod_resize;
#[cfg(test)]
mod pod_resize_tests;
pub mod pod_resources;
#[cfg(test)]
mod pod_resources_tests;
#[cfg(test)]
mod pod_rows_audit_tests;
pub mod pod_spec_more;
pub mod pod_status;
#[cfg(test)]
mod pod_template_audit_tests;
#[cfg(test)]
mod pod_template_seccomp_tests;
pub mod pod_volumes_env;
#[cfg(test)]
mod pod_volumes_env_tests;
pub mod quantity;
pub mod status;
pub mod workloads;

use super::errors::FieldError;
use super::object::Object;
use crate::features::FeatureGates;
use std::collections::BTreeSet;

/// `field.Path.Child`.
pub(crate) fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        // Not `format!`: paths are built on every write, and the formatting machinery costs
        // several times a plain concatenation.
        [path, ".", name].concat()
    }
}

/// `field.Path.Index`.
pub(crate) fn idx(path: &str, i: usize) -> String {
    let mut s = String::with_capacity(path.len() + 4);
    s.push_str(path);
    s.push('[');
    push_decimal(&mut s, i);
    s.push(']');
    s
}

/// `field.Path.Key` (the key is printed as is).
pub(crate) fn key(path: &str, k: &str) -> String {
    [path, "[", k, "]"].concat()
}

/// Appends `n` in decimal (what `{}` prints) without going through `core::fmt`.
pub(crate) fn push_decimal(s: &mut String, n: usize) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        s.push(char::from(b));
    }
}

/// What `rest.BeforeUpdate` and the strategies' `PrepareForUpdate` do to the new object's
/// metadata before `ValidateUpdate` runs: an empty resourceVersion means an unconditional
/// update (every kubeplay kind allows those), an empty uid takes the stored one,
/// creationTimestamp and a set deletionTimestamp/deletionGracePeriodSeconds cannot be changed
/// by a client, and the server owns generation.
pub fn prepare_for_update_validation(new: &mut Object, old: &Object) {
    let om = old.meta().clone();
    let m = new.meta_mut();
    if m.resource_version.is_empty() {
        m.resource_version = om.resource_version.clone();
    }
    if m.uid.is_empty() {
        m.uid = om.uid.clone();
    }
    if om.creation_timestamp.is_some() {
        m.creation_timestamp = om.creation_timestamp;
    }
    if om.deletion_timestamp.is_some() {
        m.deletion_timestamp = om.deletion_timestamp;
    }
    if om.deletion_grace_period_seconds.is_some() && m.deletion_grace_period_seconds.is_none() {
        m.deletion_grace_period_seconds = om.deletion_grace_period_seconds;
    }
    m.generation = om.generation;
}

/// Drops repeated errors (same rendered text), keeping the first of each, as
/// `ErrorList.ToAggregate` does for the API message and kubectl for the printed causes.
pub fn dedupe(errs: Vec<FieldError>) -> Vec<FieldError> {
    let mut seen = BTreeSet::new();
    errs.into_iter()
        .filter(|e| seen.insert(e.to_string()))
        .collect()
}

/// Validates an object on create (`old == None`) or update, as the kind's REST strategy does,
/// with the feature gates at their 1.35 defaults.
pub fn validate_object(o: &Object, old: Option<&Object>) -> Vec<FieldError> {
    validate_object_gated(o, old, &FeatureGates::default())
}

/// [`validate_object`] with the validation options the strategies derive from the API server's
/// feature gates.
pub fn validate_object_gated(
    o: &Object,
    old: Option<&Object>,
    gates: &FeatureGates,
) -> Vec<FieldError> {
    let errs = match old {
        None => match o {
            Object::Pod(p) => pod::validate_pod_create_gated(p, gates),
            Object::Node(n) => node::validate_node(n),
            Object::ReplicaSet(rs) => workloads::validate_replica_set(rs),
            Object::ReplicationController(rc) => workloads::validate_replication_controller(rc),
            Object::Deployment(d) => super::deployment_validation::validate_deployment(d),
            Object::Job(_) | Object::CronJob(_) => {
                super::batch_validation::validate_batch_object(o, None)
            }
            Object::StatefulSet(x) => super::sts_ds_validation::validate_stateful_set(x),
            Object::DaemonSet(x) => super::sts_ds_validation::validate_daemon_set(x),
            Object::ControllerRevision(x) => {
                super::sts_ds_validation::validate_controller_revision_create(x)
            }
            Object::PersistentVolumeClaim(x) => {
                super::sts_ds_validation::validate_persistent_volume_claim(x)
            }
            Object::Service(x) => super::sts_ds_validation::validate_service(x),
            Object::HorizontalPodAutoscaler(x) => {
                super::autoscaling_validation::validate_horizontal_pod_autoscaler_gated(x, gates)
            }
            Object::PodDisruptionBudget(x) => super::policy::validate_create(x),
        },
        Some(old) => {
            let mut new = o.clone();
            prepare_for_update_validation(&mut new, old);
            return validate_prepared_update_gated(&new, old, gates);
        }
    };
    dedupe(errs)
}

/// The update half of [`validate_object`] for a `new` object on which
/// [`prepare_for_update_validation`] has already run (the API server prepares its own request in
/// place instead of copying it).
pub fn validate_prepared_update(new: &Object, old: &Object) -> Vec<FieldError> {
    validate_prepared_update_gated(new, old, &FeatureGates::default())
}

/// [`validate_prepared_update`] with the options derived from the API server's feature gates.
pub fn validate_prepared_update_gated(
    new: &Object,
    old: &Object,
    gates: &FeatureGates,
) -> Vec<FieldError> {
    let errs = match (&new, old) {
        (Object::Pod(n), Object::Pod(o)) => pod::validate_pod_update_gated(n, o, gates),
        (Object::Node(n), Object::Node(o)) => {
            let mut e = node::validate_node(n);
            e.extend(node::validate_node_update(n, o));
            e
        }
        (Object::ReplicaSet(n), Object::ReplicaSet(o)) => {
            workloads::validate_replica_set_strategy_update(n, o)
        }
        (Object::ReplicationController(n), Object::ReplicationController(o)) => {
            workloads::validate_replication_controller_strategy_update(n, o)
        }
        (Object::Deployment(n), Object::Deployment(o)) => {
            super::deployment_validation::validate_deployment_strategy_update(n, o)
        }
        (Object::Job(_), Object::Job(_)) | (Object::CronJob(_), Object::CronJob(_)) => {
            super::batch_validation::validate_batch_object(new, Some(old))
        }
        (Object::StatefulSet(n), Object::StatefulSet(o)) => {
            super::sts_ds_validation::validate_stateful_set_update(n, o)
        }
        (Object::DaemonSet(n), Object::DaemonSet(o)) => {
            super::sts_ds_validation::validate_daemon_set_strategy_update(n, o)
        }
        (Object::ControllerRevision(n), Object::ControllerRevision(o)) => {
            super::sts_ds_validation::validate_controller_revision_update(n, o)
        }
        (Object::PersistentVolumeClaim(n), Object::PersistentVolumeClaim(o)) => {
            super::sts_ds_validation::validate_persistent_volume_claim_update(n, o)
        }
        (Object::Service(n), Object::Service(o)) => {
            super::sts_ds_validation::validate_service_update(n, o)
        }
        (Object::HorizontalPodAutoscaler(n), Object::HorizontalPodAutoscaler(o)) => {
            super::autoscaling_validation::validate_horizontal_pod_autoscaler_update_gated(
                n, o, gates,
            )
        }
        (Object::PodDisruptionBudget(n), Object::PodDisruptionBudget(o)) => {
            super::policy::validate_update(n, o)
        }
        (n, o) => vec![FieldError::internal(
            "kind",
            format!("cannot update a {} with a {}", o.kind(), n.kind()),
        )],
    };
    dedupe(errs)
}

#[cfg(test)]
mod core_ports_tests;
#[cfg(test)]
mod core_ports_tests2;
#[cfg(test)]
mod core_upstream_gap_tests;
#[cfg(test)]
mod core_validation_gap_tests;
#[cfg(test)]
mod pod_status_perf_tests;
#[cfg(test)]
mod shared_spec_memo_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod upstream_tests_valid1;
#[cfg(test)]
mod upstream_tests_valid2;
#[cfg(test)]
mod upstream_tests_valid3;
