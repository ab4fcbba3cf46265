//! `StatefulPodControl` (`pkg/controller/statefulset/stateful_pod_control.go`): create, update
//! and delete a set's pods and claims through the API, with the set's events
//! (`create Pod web-0 in StatefulSet web successful`, `create Claim www-web-0 Pod web-0 in
//! StatefulSet web success`, ...).

use super::stateful_set_utils::{
    get_ordinal, get_persistent_volume_claim_name, get_persistent_volume_claim_retention_policy,
    get_persistent_volume_claims, has_stale_owner_ref, has_unexpected_controller, identity_matches,
    is_claim_owner_up_to_date, storage_matches, update_claim_owner_ref_for_set_and_pod,
    update_identity, update_storage, POD_API_VERSION, POD_KIND,
};
use crate::api::{ApiError, Object, PersistentVolumeClaim, Pod, StatefulSet, RETAIN_PVC_RETENTION};
use crate::controllers::controller_ref_manager::{aggregate, internal_error};
use crate::controllers::Ctx;
use crate::store::apiserver::DeleteOptions;

/// The set as an event's involved object (only kind and metadata matter).
pub fn event_target(set: &StatefulSet) -> Object {
    Object::StatefulSet(StatefulSet {
        metadata: set.metadata.clone(),
        ..Default::default()
    })
}

/// `strings.Title(verb)`.
fn title(verb: &str) -> String {
    let mut c = verb.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// `recordPodEvent`: `Successful<Verb>` "`<verb> Pod <pod> in StatefulSet <set> successful`", or
/// `Failed<Verb>` "`<verb> Pod <pod> in StatefulSet <set> failed error: <err>`".
pub fn record_pod_event(
    ctx: &mut Ctx,
    verb: &str,
    set: &StatefulSet,
    pod: &Pod,
    err: Option<&ApiError>,
) {
    let target = event_target(set);
    let verb_l = verb.to_lowercase();
    match err {
        None => ctx.event(
            &target,
            "Normal",
            &format!("Successful{}", title(verb)),
            &format!(
                "{verb_l} Pod {} in StatefulSet {} successful",
                pod.metadata.name, set.metadata.name
            ),
        ),
        Some(e) => ctx.event(
            &target,
            "Warning",
            &format!("Failed{}", title(verb)),
            &format!(
                "{verb_l} Pod {} in StatefulSet {} failed error: {e}",
                pod.metadata.name, set.metadata.name
            ),
        ),
    }
}

/// `recordClaimEvent`: `SuccessfulCreate` "`create Claim <claim> Pod <pod> in StatefulSet <set>
/// success`", or `FailedCreate` "`create Claim <claim> for Pod <pod> in StatefulSet <set> failed
/// error: <err>`".
pub fn record_claim_event(
    ctx: &mut Ctx,
    verb: &str,
    set: &StatefulSet,
    pod: &Pod,
    claim: &PersistentVolumeClaim,
    err: Option<&ApiError>,
) {
    let target = event_target(set);
    let verb_l = verb.to_lowercase();
    match err {
        None => ctx.event(
            &target,
            "Normal",
            &format!("Successful{}", title(verb)),
            &format!(
                "{verb_l} Claim {} Pod {} in StatefulSet {} success",
                claim.metadata.name, pod.metadata.name, set.metadata.name
            ),
        ),
        Some(e) => ctx.event(
            &target,
            "Warning",
            &format!("Failed{}", title(verb)),
            &format!(
                "{verb_l} Claim {} for Pod {} in StatefulSet {} failed error: {e}",
                claim.metadata.name, pod.metadata.name, set.metadata.name
            ),
        ),
    }
}

/// `createPersistentVolumeClaims`: create every missing claim of the pod (an event each);
/// a claim being deleted is an error.
///
/// # Errors
/// The aggregated `failed to create PVC ...` / `pvc ... is being deleted` errors.
pub fn create_persistent_volume_claims(
    ctx: &mut Ctx,
    set: &StatefulSet,
    pod: &Pod,
) -> Result<(), ApiError> {
    let mut errs = vec![];
    for (_, claim) in get_persistent_volume_claims(set, pod) {
        let existing = ctx
            .store()
            .get::<PersistentVolumeClaim>(&claim.metadata.namespace, &claim.metadata.name)
            .map(|c| c.metadata.deletion_timestamp.is_some());
        match existing {
            None => match ctx.create(Object::PersistentVolumeClaim(claim.clone())) {
                Ok(_) => record_claim_event(ctx, "create", set, pod, &claim, None),
                Err(e) => {
                    if !e.is_already_exists() {
                        record_claim_event(ctx, "create", set, pod, &claim, Some(&e));
                    }
                    errs.push(internal_error(format!(
                        "failed to create PVC {}: {e}",
                        claim.metadata.name
                    )));
                }
            },
            Some(true) => errs.push(internal_error(format!(
                "pvc {} is being deleted",
                claim.metadata.name
            ))),
            Some(false) => {}
        }
    }
    aggregate(errs).map_or(Ok(()), Err)
}

/// `CreateStatefulPod`: the pod's claims first, then the pod, then (StatefulSetAutoDeletePVC)
/// the claims' owner references for the retention policy.
///
/// # Errors
/// A claim error, the pod's create error (AlreadyExists without an event), or a retention
/// update error.
pub fn create_stateful_pod(ctx: &mut Ctx, set: &StatefulSet, pod: &Pod) -> Result<(), ApiError> {
    if let Err(e) = create_persistent_volume_claims(ctx, set, pod) {
        record_pod_event(ctx, "create", set, pod, Some(&e));
        return Err(e);
    }
    let res = ctx.create(Object::Pod(pod.clone())).map(|_| ());
    if let Err(e) = &res {
        if e.is_already_exists() {
            return res;
        }
    }
    if ctx.gates.enabled("StatefulSetAutoDeletePVC") {
        if let Err(e) = update_pod_claim_for_retention_policy(ctx, set, pod) {
            record_pod_event(ctx, "update", set, pod, Some(&e));
            return Err(e);
        }
    }
    record_pod_event(ctx, "create", set, pod, res.as_ref().err());
    res
}

/// `UpdateStatefulPod`: restore the pod's identity and storage (creating missing claims) and
/// its claims' retention owner references; write the pod if anything changed.
///
/// # Errors
/// A claim error or the pod's update error.
pub fn update_stateful_pod(ctx: &mut Ctx, set: &StatefulSet, pod: &Pod) -> Result<(), ApiError> {
    let mut pod = pod.clone();
    let gates = ctx.gates.clone();
    let mut consistent = true;
    if !identity_matches(set, &pod) {
        update_identity(set, &mut pod, &gates);
        consistent = false;
    }
    if !storage_matches(set, &pod) {
        update_storage(set, &mut pod);
        consistent = false;
        if let Err(e) = create_persistent_volume_claims(ctx, set, &pod) {
            record_pod_event(ctx, "update", set, &pod, Some(&e));
            return Err(e);
        }
    }
    if gates.enabled("StatefulSetAutoDeletePVC") {
        match claims_match_retention_policy(ctx, set, &pod) {
            Err(e) => {
                record_pod_event(ctx, "update", set, &pod, Some(&e));
                return Err(e);
            }
            Ok(false) => {
                if let Err(e) = update_pod_claim_for_retention_policy(ctx, set, &pod) {
                    record_pod_event(ctx, "update", set, &pod, Some(&e));
                    return Err(e);
                }
                consistent = false;
            }
            Ok(true) => {}
        }
    }
    if consistent {
        return Ok(());
    }
    pod.metadata.resource_version.clear();
    let res = ctx.update(Object::Pod(pod.clone())).map(|_| ());
    record_pod_event(ctx, "update", set, &pod, res.as_ref().err());
    res
}

/// `DeleteStatefulPod`: delete the pod and record the outcome (NotFound included, as upstream).
///
/// # Errors
/// The API server's error.
pub fn delete_stateful_pod(ctx: &mut Ctx, set: &StatefulSet, pod: &Pod) -> Result<(), ApiError> {
    let res = ctx
        .delete::<Pod>(
            &pod.metadata.namespace,
            &pod.metadata.name,
            &DeleteOptions::default(),
        )
        .map(|_| ());
    record_pod_event(ctx, "delete", set, pod, res.as_ref().err());
    res
}

/// `ClaimsMatchRetentionPolicy`: whether every existing claim of the pod has the owner
/// references the policy asks for (missing claims are picked up later).
///
/// # Errors
/// None in kubeplay (the store is always readable); kept for upstream's shape.
pub fn claims_match_retention_policy(
    ctx: &Ctx,
    set: &StatefulSet,
    pod: &Pod,
) -> Result<bool, ApiError> {
    let ordinal = get_ordinal(pod);
    for t in &set.spec.volume_claim_templates {
        let name = get_persistent_volume_claim_name(set, t, ordinal);
        if let Some(claim) = ctx
            .store()
            .get::<PersistentVolumeClaim>(&set.metadata.namespace, &name)
        {
            if !is_claim_owner_up_to_date(&claim.metadata, set, pod, ctx.gates) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// `UpdatePodClaimForRetentionPolicy`: fix the owner references of the pod's existing claims
/// (missing claims are picked up in a later sync). A claim managed by another controller gets a
/// `ConflictingController` warning on the set, and only our references are scrubbed from it.
///
/// # Errors
/// `could not update claim <c> for delete policy ownerRefs: <err>`.
pub fn update_pod_claim_for_retention_policy(
    ctx: &mut Ctx,
    set: &StatefulSet,
    pod: &Pod,
) -> Result<(), ApiError> {
    let ordinal = get_ordinal(pod);
    let gates = ctx.gates.clone();
    for t in &set.spec.volume_claim_templates {
        let name = get_persistent_volume_claim_name(set, t, ordinal);
        let Some(mut claim) = ctx
            .store()
            .get::<PersistentVolumeClaim>(&set.metadata.namespace, &name)
            .cloned()
        else {
            continue; // picked up in a later sync
        };
        if has_unexpected_controller(&claim.metadata, set, pod) {
            // "manging" (sic) is upstream's wording.
            ctx.event(
                &event_target(set),
                "Warning",
                "ConflictingController",
                &format!(
                    "PersistentVolumeClaim {name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim"
                ),
            );
        }
        if !is_claim_owner_up_to_date(&claim.metadata, set, pod, &gates) {
            update_claim_owner_ref_for_set_and_pod(&mut claim.metadata, set, pod, &gates);
            claim.metadata.resource_version.clear();
            if let Err(e) = ctx.update(Object::PersistentVolumeClaim(claim)) {
                return Err(internal_error(format!(
                    "could not update claim {name} for delete policy ownerRefs: {e}"
                )));
            }
        }
    }
    Ok(())
}

/// `PodClaimIsStale`: with `whenScaled: Delete`, a claim that still references an older pod of
/// the same name (another uid, including a pod not yet created) blocks the pod's creation until
/// the garbage collector removes it.
pub fn pod_claim_is_stale(ctx: &Ctx, set: &StatefulSet, pod: &Pod) -> bool {
    let policy = get_persistent_volume_claim_retention_policy(set);
    if policy.when_scaled == RETAIN_PVC_RETENTION {
        return false;
    }
    get_persistent_volume_claims(set, pod)
        .iter()
        .any(|(_, claim)| {
            ctx.store()
                .get::<PersistentVolumeClaim>(&claim.metadata.namespace, &claim.metadata.name)
                .is_some_and(|pvc| {
                    has_stale_owner_ref(&pvc.metadata, &pod.metadata, POD_API_VERSION, POD_KIND)
                })
        })
}

/// `createMissingPersistentVolumeClaims`: for a Pending pod, create claims that went missing
/// and apply the retention policy.
///
/// # Errors
/// As [`create_persistent_volume_claims`] and [`update_pod_claim_for_retention_policy`].
pub fn create_missing_persistent_volume_claims(
    ctx: &mut Ctx,
    set: &StatefulSet,
    pod: &Pod,
) -> Result<(), ApiError> {
    create_persistent_volume_claims(ctx, set, pod)?;
    if ctx.gates.enabled("StatefulSetAutoDeletePVC") {
        if let Err(e) = update_pod_claim_for_retention_policy(ctx, set, pod) {
            record_pod_event(ctx, "update", set, pod, Some(&e));
            return Err(e);
        }
    }
    Ok(())
}

/// Aggregates several errors (used by the burst mode of the control loop).
pub fn aggregate_errors(errs: Vec<ApiError>) -> Option<ApiError> {
    aggregate(errs)
}
