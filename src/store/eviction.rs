//! The pod `eviction` subresource (`EvictionREST.Create`, pkg/registry/core/pod/storage/
//! eviction.go): a pod covered by a PodDisruptionBudget is deleted only when the budget allows a
//! disruption, which the API server takes from it (`checkAndDecrement`: `disruptionsAllowed`
//! decremented, the pod recorded in `status.disruptedPods`) before adding the pod's
//! `DisruptionTarget` condition (`EvictionByEvictionAPI`) and deleting it.
//!
//! Not modelled: resourceVersion preconditions and the conflict retries (the simulated API
//! server applies each request atomically), and the `DisruptionBudget` status causes (kubectl
//! prints only the message).

use super::apiserver::{ApiServer, DeleteOptions};
use crate::api::policy::{PodDisruptionBudget, ALWAYS_ALLOW};
use crate::api::{ApiError, Object, Pod, Reason, Resource};
use crate::controllers::controller_utils::is_pod_ready;

/// `MaxDisruptedPodSize`.
pub const MAX_DISRUPTED_POD_SIZE: usize = 2000;

/// The 429 message of a refused eviction (`errors.NewTooManyRequests`).
pub const TOO_MANY_REQUESTS_MESSAGE: &str =
    "Cannot evict pod as it would violate the pod's disruption budget.";

/// The 500 message when several budgets cover the pod.
pub const MULTIPLE_PDBS_MESSAGE: &str =
    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

fn too_many_requests() -> ApiError {
    ApiError {
        reason: Reason::TooManyRequests,
        message: TOO_MANY_REQUESTS_MESSAGE.into(),
        causes: vec![],
        kind: String::new(),
        name: String::new(),
    }
}

/// `errors.NewForbidden(policy.Resource("poddisruptionbudget"), name, err)`.
fn pdb_forbidden(name: &str, why: &str) -> ApiError {
    ApiError::forbidden(format!(
        "poddisruptionbudget.policy {name:?} is forbidden: {why}"
    ))
}

/// `canIgnorePDB`: terminal, pending or already terminating pods are deleted without looking
/// at budgets.
pub fn can_ignore_pdb(pod: &Pod) -> bool {
    matches!(
        pod.status.phase.as_str(),
        "Succeeded" | "Failed" | "Pending"
    ) || pod.metadata.deletion_timestamp.is_some()
}

/// `getPodDisruptionBudgets`: the budgets of the pod's namespace whose selector (neither nil,
/// empty nor invalid) matches the pod.
pub fn get_pod_disruption_budgets(store: &super::Store, pod: &Pod) -> Vec<PodDisruptionBudget> {
    store
        .list::<PodDisruptionBudget>(Some(&pod.metadata.namespace))
        .filter(|pdb| {
            pdb.spec
                .selector
                .as_ref()
                .and_then(|s| crate::controllers::disruption::label_selector_as_selector(s).ok())
                .is_some_and(|s| !s.is_empty() && s.matches(&pod.metadata.labels))
        })
        .cloned()
        .collect()
}

impl ApiServer {
    /// `POST /api/v1/namespaces/NS/pods/NAME/eviction` with the eviction's delete options.
    ///
    /// # Errors
    /// NotFound; TooManyRequests when the budget allows no disruption (or has not observed its
    /// latest generation); InternalError when several budgets cover the pod; Forbidden for a
    /// negative `disruptionsAllowed` or an oversized `disruptedPods`.
    pub fn evict(
        &mut self,
        namespace: &str,
        name: &str,
        opts: &DeleteOptions,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        let pod = self.get::<Pod>(namespace, name)?.clone();
        if can_ignore_pdb(&pod) {
            return self.add_condition_and_delete_pod(&pod, opts, dry_run);
        }
        let pdbs = get_pod_disruption_budgets(&self.store, &pod);
        if pdbs.len() > 1 {
            return Err(ApiError::internal_error(MULTIPLE_PDBS_MESSAGE));
        }
        if let Some(pdb) = pdbs.into_iter().next() {
            // An unhealthy pod may go without taking from the budget under AlwaysAllow, or
            // (IfHealthyBudget, the default) while the budget is met.
            let unhealthy_deletable = !is_pod_ready(&pod)
                && (pdb.spec.unhealthy_pod_eviction_policy.as_deref() == Some(ALWAYS_ALLOW)
                    || (pdb.status.current_healthy >= pdb.status.desired_healthy
                        && pdb.status.desired_healthy > 0));
            if !unhealthy_deletable {
                self.check_and_decrement(&pod.metadata.name, pdb, dry_run)?;
            }
        }
        self.add_condition_and_delete_pod(&pod, opts, dry_run)
    }

    /// `checkAndDecrement`.
    fn check_and_decrement(
        &mut self,
        pod_name: &str,
        mut pdb: PodDisruptionBudget,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        if pdb.status.observed_generation < pdb.metadata.generation {
            return Err(too_many_requests());
        }
        if pdb.status.disruptions_allowed < 0 {
            return Err(pdb_forbidden(
                &pdb.metadata.name,
                "pdb disruptions allowed is negative",
            ));
        }
        if pdb.status.disrupted_pods.len() > MAX_DISRUPTED_POD_SIZE {
            return Err(pdb_forbidden(
                &pdb.metadata.name,
                "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
            ));
        }
        if pdb.status.disruptions_allowed == 0 {
            return Err(too_many_requests());
        }
        pdb.status.disruptions_allowed -= 1;
        let now = self.now;
        if pdb.status.disruptions_allowed == 0 {
            crate::controllers::disruption::update_disruption_allowed_condition(&mut pdb, now);
        }
        if dry_run {
            return Ok(());
        }
        pdb.status.disrupted_pods.insert(pod_name.to_string(), now);
        self.update_status(pdb.into_object()).map(|_| ())
    }

    /// `addConditionAndDeletePod`: the DisruptionTarget condition (not on a dry run), then the
    /// delete.
    fn add_condition_and_delete_pod(
        &mut self,
        pod: &Pod,
        opts: &DeleteOptions,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        if dry_run {
            return Ok(());
        }
        let mut p = self
            .get::<Pod>(&pod.metadata.namespace, &pod.metadata.name)?
            .clone();
        let generation = p.metadata.generation;
        let now = self.now;
        p.set_condition_observed(
            "DisruptionTarget",
            "True",
            "EvictionByEvictionAPI",
            "Eviction API: evicting",
            now,
            generation,
        );
        self.update_status(Object::Pod(p))?;
        self.delete("Pod", &pod.metadata.namespace, &pod.metadata.name, opts)
            .map(|_| ())
    }
}

#[cfg(test)]
#[path = "eviction_tests.rs"]
mod tests;
