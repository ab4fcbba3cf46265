//! StatefulSet pure helpers (`pkg/controller/statefulset/stateful_set_utils.go`): identity
//! (names, ordinals, labels, hostname), storage (claim names and pod volumes), PVC retention
//! owner references, pod predicates, revisions and status arithmetic.

use crate::api::{
    ControllerRevision, IntOrString, ObjectMeta, OwnerReference, PersistentVolumeClaim, Pod,
    StatefulSet, StatefulSetPersistentVolumeClaimRetentionPolicy, StatefulSetStatus, Time,
    DELETE_PVC_RETENTION, PARALLEL_POD_MANAGEMENT, RETAIN_PVC_RETENTION, ROLLING_UPDATE_STRATEGY,
};
use crate::controllers::controller_utils::{
    get_pod_from_template, is_pod_available, is_pod_ready, new_controller_ref,
};
use crate::controllers::history::{new_controller_revision, template_from_patch, template_patch};
use crate::features::FeatureGates;
use serde_json::{json, Value};
use std::cmp::Ordering;

/// `apps.StatefulSetPodNameLabel`.
pub const STATEFUL_SET_POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// `apps.PodIndexLabel` (set with the PodIndexLabel gate, on by default).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";
/// `apps.StatefulSetRevisionLabel` / `ControllerRevisionHashLabelKey`.
pub const STATEFUL_SET_REVISION_LABEL: &str = "controller-revision-hash";
/// `apps/v1`, `StatefulSet`: the controller kind.
pub const CONTROLLER_API_VERSION: &str = "apps/v1";
pub const CONTROLLER_KIND: &str = "StatefulSet";
/// `podKind`: `v1`, `Pod`.
pub const POD_API_VERSION: &str = "v1";
pub const POD_KIND: &str = "Pod";

/// `getParentNameAndOrdinal`: `(.*)-([0-9]+)$` on the pod name. No match → `("", -1)`; a number
/// that does not fit an int32 → the parent with ordinal −1.
pub fn get_parent_name_and_ordinal(name: &str) -> (String, i32) {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits == name.len() {
        return (String::new(), -1);
    }
    let split = name.len() - digits;
    if name.as_bytes()[split - 1] != b'-' {
        return (String::new(), -1);
    }
    let parent = name[..split - 1].to_string();
    let ordinal = name[split..].parse::<i32>().unwrap_or(-1);
    (parent, ordinal)
}

/// `getParentName`.
pub fn get_parent_name(pod: &Pod) -> String {
    get_parent_name_and_ordinal(&pod.metadata.name).0
}

/// `getOrdinal`: the pod's ordinal, −1 when it has none.
pub fn get_ordinal(pod: &Pod) -> i32 {
    get_parent_name_and_ordinal(&pod.metadata.name).1
}

/// `getStartOrdinal`: `spec.ordinals.start` (with StatefulSetStartOrdinal), else 0.
pub fn get_start_ordinal(set: &StatefulSet, gates: &FeatureGates) -> i32 {
    if gates.enabled("StatefulSetStartOrdinal") {
        if let Some(o) = &set.spec.ordinals {
            return o.start;
        }
    }
    0
}

/// `getEndOrdinal`: the last ordinal in range (inclusive), in Go's 64-bit `int` (start and
/// replicas are both int32, so their sum never overflows there).
pub fn get_end_ordinal(set: &StatefulSet, gates: &FeatureGates) -> i64 {
    i64::from(get_start_ordinal(set, gates)) + i64::from(set.replicas()) - 1
}

/// `podInOrdinalRange`.
pub fn pod_in_ordinal_range(pod: &Pod, set: &StatefulSet, gates: &FeatureGates) -> bool {
    let o = get_ordinal(pod);
    o >= get_start_ordinal(set, gates) && i64::from(o) <= get_end_ordinal(set, gates)
}

/// `getPodName`: `<set>-<ordinal>`.
pub fn get_pod_name(set: &StatefulSet, ordinal: i32) -> String {
    format!("{}-{ordinal}", set.metadata.name)
}

/// `getPersistentVolumeClaimName`: `<claim>-<set>-<ordinal>`.
pub fn get_persistent_volume_claim_name(
    set: &StatefulSet,
    claim: &PersistentVolumeClaim,
    ordinal: i32,
) -> String {
    format!("{}-{}-{ordinal}", claim.metadata.name, set.metadata.name)
}

/// `isMemberOf`: the pod's name says it belongs to the set.
pub fn is_member_of(set: &StatefulSet, pod: &Pod) -> bool {
    get_parent_name(pod) == set.metadata.name
}

/// `identityMatches`: valid ordinal, parent, name, namespace and pod-name label.
pub fn identity_matches(set: &StatefulSet, pod: &Pod) -> bool {
    let (parent, ordinal) = get_parent_name_and_ordinal(&pod.metadata.name);
    ordinal >= 0
        && set.metadata.name == parent
        && pod.metadata.name == get_pod_name(set, ordinal)
        && pod.metadata.namespace == set.metadata.namespace
        && pod.metadata.labels.get(STATEFUL_SET_POD_NAME_LABEL) == Some(&pod.metadata.name)
}

/// The pod's `spec.volumes` (kept verbatim in the pass-through map).
pub fn pod_volumes(pod: &Pod) -> Vec<Value> {
    pod.spec
        .extra
        .get("volumes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn set_pod_volumes(pod: &mut Pod, volumes: Vec<Value>) {
    if volumes.is_empty() {
        pod.spec_mut().extra.remove("volumes");
    } else {
        pod.spec_mut()
            .extra
            .insert("volumes".into(), Value::Array(volumes));
    }
}

/// `storageMatches`: every claim template has a pod volume of its name pointing at the pod's
/// claim.
pub fn storage_matches(set: &StatefulSet, pod: &Pod) -> bool {
    let ordinal = get_ordinal(pod);
    if ordinal < 0 {
        return false;
    }
    let volumes = pod_volumes(pod);
    set.spec.volume_claim_templates.iter().all(|claim| {
        let want = get_persistent_volume_claim_name(set, claim, ordinal);
        // The last volume of that name decides (upstream indexes volumes in a map by name).
        volumes
            .iter()
            .rev()
            .find(|v| v.get("name").and_then(Value::as_str) == Some(claim.metadata.name.as_str()))
            .and_then(|v| v.pointer("/persistentVolumeClaim/claimName"))
            .and_then(Value::as_str)
            == Some(want.as_str())
    })
}

/// `getPersistentVolumeClaimRetentionPolicy`: the set's policy, Retain/Retain when unset.
pub fn get_persistent_volume_claim_retention_policy(
    set: &StatefulSet,
) -> StatefulSetPersistentVolumeClaimRetentionPolicy {
    set.spec
        .persistent_volume_claim_retention_policy
        .clone()
        .unwrap_or(StatefulSetPersistentVolumeClaimRetentionPolicy {
            when_deleted: RETAIN_PVC_RETENTION.into(),
            when_scaled: RETAIN_PVC_RETENTION.into(),
        })
}

/// `hasOwnerRef`: some ownerReference names the owner's uid (controller or not).
pub fn has_owner_ref(target: &ObjectMeta, owner: &ObjectMeta) -> bool {
    target.owner_references.iter().any(|r| r.uid == owner.uid)
}

/// `matchesRef`: the reference names the object by name and GVK (`apiVersion` and `kind`); the
/// uid is not compared.
pub fn matches_ref(r: &OwnerReference, obj: &ObjectMeta, api_version: &str, kind: &str) -> bool {
    r.api_version == api_version && r.kind == kind && r.name == obj.name
}

/// `hasStaleOwnerRef`: the first reference that [`matches_ref`] the owner has another uid (a
/// previous object of the same name, or an owner not created yet).
pub fn has_stale_owner_ref(
    target: &ObjectMeta,
    owner: &ObjectMeta,
    api_version: &str,
    kind: &str,
) -> bool {
    target
        .owner_references
        .iter()
        .find(|r| matches_ref(r, owner, api_version, kind))
        .is_some_and(|r| r.uid != owner.uid)
}

/// `addControllerRef`: append a controller reference (`controller` and `blockOwnerDeletion`
/// true) to the owner unless some reference already carries its uid.
pub fn add_controller_ref(
    refs: &mut Vec<OwnerReference>,
    owner: &ObjectMeta,
    api_version: &str,
    kind: &str,
) {
    if refs.iter().any(|r| r.uid == owner.uid) {
        return;
    }
    refs.push(new_controller_ref(owner, api_version, kind));
}

fn is_retain_retain(policy: &StatefulSetPersistentVolumeClaimRetentionPolicy) -> bool {
    policy.when_scaled == RETAIN_PVC_RETENTION && policy.when_deleted == RETAIN_PVC_RETENTION
}

/// `hasUnexpectedController`: with a retention policy other than Retain/Retain, the claim has a
/// controller that is neither the set nor the pod, or a reference to the set or the pod with a
/// stale uid (the claim is then left alone).
pub fn has_unexpected_controller(claim: &ObjectMeta, set: &StatefulSet, pod: &Pod) -> bool {
    if is_retain_retain(&get_persistent_volume_claim_retention_policy(set)) {
        return false;
    }
    for r in &claim.owner_references {
        if matches_ref(r, &set.metadata, CONTROLLER_API_VERSION, CONTROLLER_KIND) {
            if r.uid != set.metadata.uid {
                return true;
            }
            continue;
        }
        if matches_ref(r, &pod.metadata, POD_API_VERSION, POD_KIND) {
            if r.uid != pod.metadata.uid {
                return true;
            }
            continue;
        }
        if r.controller == Some(true) {
            return true;
        }
    }
    false
}

/// `hasNonControllerOwner`: the set or the pod (by uid) owns the claim without the controller
/// flag (the references of the first beta, which are upgraded).
pub fn has_non_controller_owner(claim: &ObjectMeta, set: &StatefulSet, pod: &Pod) -> bool {
    claim.owner_references.iter().any(|r| {
        (r.uid == set.metadata.uid || r.uid == pod.metadata.uid) && r.controller != Some(true)
    })
}

/// `isClaimOwnerUpToDate`: whether a claim's owner references agree with the set's PVC
/// retention policy. Stale references to the set or pod, or another controller without our
/// references, leave the claim alone (true); another controller next to our references, or our
/// references without the controller flag, need an update (false). Otherwise:
///
/// | whenScaled / whenDeleted | set ref | pod ref |
/// |---|---|---|
/// | Retain / Retain | no | no |
/// | Retain / Delete | yes | no |
/// | Delete / Retain | no | iff the pod is scaled down |
/// | Delete / Delete | iff not scaled down | iff scaled down |
///
/// An unknown policy is treated as Retain/Retain.
pub fn is_claim_owner_up_to_date(
    claim: &ObjectMeta,
    set: &StatefulSet,
    pod: &Pod,
    gates: &FeatureGates,
) -> bool {
    if has_stale_owner_ref(
        claim,
        &set.metadata,
        CONTROLLER_API_VERSION,
        CONTROLLER_KIND,
    ) || has_stale_owner_ref(claim, &pod.metadata, POD_API_VERSION, POD_KIND)
    {
        return true;
    }
    let set_ref = has_owner_ref(claim, &set.metadata);
    let pod_ref = has_owner_ref(claim, &pod.metadata);
    if has_unexpected_controller(claim, set, pod) {
        return !(set_ref || pod_ref);
    }
    if has_non_controller_owner(claim, set, pod) {
        return false;
    }
    let policy = get_persistent_volume_claim_retention_policy(set);
    let scaled_down = !pod_in_ordinal_range(pod, set, gates);
    match (policy.when_scaled.as_str(), policy.when_deleted.as_str()) {
        (RETAIN_PVC_RETENTION, DELETE_PVC_RETENTION) => set_ref && !pod_ref,
        (DELETE_PVC_RETENTION, RETAIN_PVC_RETENTION) => !set_ref && scaled_down == pod_ref,
        (DELETE_PVC_RETENTION, DELETE_PVC_RETENTION) => {
            scaled_down != set_ref && scaled_down == pod_ref
        }
        _ => !set_ref && !pod_ref,
    }
}

/// `updateClaimOwnerRefForSetAndPod`: scrub every reference that [`matches_ref`] the set or the
/// pod, then (unless another controller manages the claim) add controller references as the
/// policy asks. [`is_claim_owner_up_to_date`] is checked first to avoid needless writes.
pub fn update_claim_owner_ref_for_set_and_pod(
    claim: &mut ObjectMeta,
    set: &StatefulSet,
    pod: &Pod,
    gates: &FeatureGates,
) {
    let unexpected_controller = has_unexpected_controller(claim, set, pod);
    claim.owner_references.retain(|r| {
        !matches_ref(r, &set.metadata, CONTROLLER_API_VERSION, CONTROLLER_KIND)
            && !matches_ref(r, &pod.metadata, POD_API_VERSION, POD_KIND)
    });
    if unexpected_controller {
        return;
    }
    let policy = get_persistent_volume_claim_retention_policy(set);
    let scaled_down = !pod_in_ordinal_range(pod, set, gates);
    let refs = &mut claim.owner_references;
    match (policy.when_scaled.as_str(), policy.when_deleted.as_str()) {
        (RETAIN_PVC_RETENTION, DELETE_PVC_RETENTION) => {
            add_controller_ref(refs, &set.metadata, CONTROLLER_API_VERSION, CONTROLLER_KIND);
        }
        (DELETE_PVC_RETENTION, RETAIN_PVC_RETENTION | DELETE_PVC_RETENTION) if scaled_down => {
            add_controller_ref(refs, &pod.metadata, POD_API_VERSION, POD_KIND);
        }
        (DELETE_PVC_RETENTION, DELETE_PVC_RETENTION) => {
            add_controller_ref(refs, &set.metadata, CONTROLLER_API_VERSION, CONTROLLER_KIND);
        }
        _ => {} // Retain/Retain, or an unknown policy treated as Retain
    }
}

/// `getPersistentVolumeClaims`: the pod's claims from the set's templates, as (template name,
/// claim), in template order (upstream returns a map): named `<claim>-<set>-<ordinal>`, in the
/// set's namespace, labelled with the selector's matchLabels.
pub fn get_persistent_volume_claims(
    set: &StatefulSet,
    pod: &Pod,
) -> Vec<(String, PersistentVolumeClaim)> {
    let ordinal = get_ordinal(pod);
    let match_labels = set
        .spec
        .selector
        .as_ref()
        .and_then(|s| s.match_labels.clone())
        .unwrap_or_default();
    set.spec
        .volume_claim_templates
        .iter()
        .map(|t| {
            let mut claim = t.clone();
            claim.metadata.name = get_persistent_volume_claim_name(set, t, ordinal);
            claim.metadata.namespace = set.metadata.namespace.clone();
            claim.metadata.labels.extend(match_labels.clone());
            claim.api_version = "v1".into();
            claim.kind = "PersistentVolumeClaim".into();
            (t.metadata.name.clone(), claim)
        })
        .collect()
}

/// `updateStorage`: the pod's volumes become one claim volume per template (in template order),
/// followed by its other volumes whose names no template uses.
pub fn update_storage(set: &StatefulSet, pod: &mut Pod) {
    let claims = get_persistent_volume_claims(set, pod);
    let mut volumes: Vec<Value> = claims
        .iter()
        .map(|(name, claim)| {
            json!({"name": name, "persistentVolumeClaim": {"claimName": claim.metadata.name}})
        })
        .collect();
    for v in pod_volumes(pod) {
        let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
        if !claims.iter().any(|(n, _)| n == name) {
            volumes.push(v);
        }
    }
    set_pod_volumes(pod, volumes);
}

/// `initIdentity`: [`update_identity`], plus hostname = pod name and subdomain = serviceName
/// (immutable, set on creation only).
pub fn init_identity(set: &StatefulSet, pod: &mut Pod, gates: &FeatureGates) {
    update_identity(set, pod, gates);
    pod.spec_mut().hostname = pod.metadata.name.clone();
    pod.spec_mut().subdomain = set.spec.service_name.clone();
}

/// `updateIdentity`: name, namespace, the pod-name label and (PodIndexLabel) the pod-index
/// label.
pub fn update_identity(set: &StatefulSet, pod: &mut Pod, gates: &FeatureGates) {
    let ordinal = get_ordinal(pod);
    pod.metadata.name = get_pod_name(set, ordinal);
    pod.metadata.namespace = set.metadata.namespace.clone();
    pod.metadata.labels.insert(
        STATEFUL_SET_POD_NAME_LABEL.into(),
        pod.metadata.name.clone(),
    );
    if gates.enabled("PodIndexLabel") {
        pod.metadata
            .labels
            .insert(POD_INDEX_LABEL.into(), ordinal.to_string());
    }
}

/// `isRunningAndReady`: phase Running and Ready.
pub fn is_running_and_ready(pod: &Pod) -> bool {
    pod.status.phase == "Running" && is_pod_ready(pod)
}

/// `isRunningAndAvailable`: available for minReadySeconds (`podutil.IsPodAvailable`, which
/// implies Ready).
pub fn is_running_and_available(pod: &Pod, min_ready_seconds: i32, now: Time) -> bool {
    is_pod_available(pod, min_ready_seconds, now)
}

/// `isCreated`: the API server has it (a phase is set).
pub fn is_created(pod: &Pod) -> bool {
    !pod.status.phase.is_empty()
}

/// `isPending`.
pub fn is_pending(pod: &Pod) -> bool {
    pod.status.phase == "Pending"
}

/// `isFailed`.
pub fn is_failed(pod: &Pod) -> bool {
    pod.status.phase == "Failed"
}

/// `isSucceeded`.
pub fn is_succeeded(pod: &Pod) -> bool {
    pod.status.phase == "Succeeded"
}

/// `isTerminating`: a deletion timestamp is set.
pub fn is_terminating(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_some()
}

/// `isHealthy`: running and ready, not terminating.
pub fn is_healthy(pod: &Pod) -> bool {
    is_running_and_ready(pod) && !is_terminating(pod)
}

/// `isUnavailable` (Kubernetes 1.34, kubernetes#130909 — "healthy" now includes
/// minReadySeconds): not available, or terminating. ALGORITHMS.md §6 still speaks of
/// "healthy" (running and ready); upstream wins.
pub fn is_unavailable(pod: &Pod, min_ready_seconds: i32, now: Time) -> bool {
    !is_running_and_ready(pod)
        || !is_running_and_available(pod, min_ready_seconds, now)
        || is_terminating(pod)
}

/// `allowsBurst`: podManagementPolicy `Parallel`.
pub fn allows_burst(set: &StatefulSet) -> bool {
    set.spec.pod_management_policy == PARALLEL_POD_MANAGEMENT
}

/// `setPodRevision`.
pub fn set_pod_revision(pod: &mut Pod, revision: &str) {
    pod.metadata
        .labels
        .insert(STATEFUL_SET_REVISION_LABEL.into(), revision.into());
}

/// `getPodRevision`: the `controller-revision-hash` label, "" when absent.
pub fn get_pod_revision(pod: &Pod) -> &str {
    pod.metadata
        .labels
        .get(STATEFUL_SET_REVISION_LABEL)
        .map(String::as_str)
        .unwrap_or("")
}

/// `newStatefulSetPod`: a pod from the template, controlled by the set, with its identity and
/// storage.
pub fn new_stateful_set_pod(set: &StatefulSet, ordinal: i32, gates: &FeatureGates) -> Pod {
    let cref = new_controller_ref(&set.metadata, CONTROLLER_API_VERSION, CONTROLLER_KIND);
    // `generateName: <set>-` stays, as upstream's GetPodFromTemplate leaves it.
    let mut pod = get_pod_from_template(&set.spec.template, &set.metadata, Some(&cref));
    pod.metadata.name = get_pod_name(set, ordinal);
    init_identity(set, &mut pod, gates);
    update_storage(set, &mut pod);
    pod
}

/// `newVersionedStatefulSetPod`: the pod for `ordinal` at the current revision when the
/// rolling update has not reached it yet (below the partition, or — without a `rollingUpdate`
/// block — below `status.currentReplicas`), else at the update revision.
///
/// Mirrors upstream's operator precedence exactly: `A && B || C` with `C` = "rollingUpdate set
/// and ordinal below the partition", so a partition applies even if the type is not
/// RollingUpdate.
pub fn new_versioned_stateful_set_pod(
    current_set: &StatefulSet,
    update_set: &StatefulSet,
    current_revision: &str,
    update_revision: &str,
    ordinal: i32,
    gates: &FeatureGates,
) -> Pod {
    // Go's `int` arithmetic: 64-bit, so `start + partition` cannot overflow.
    let start = i64::from(get_start_ordinal(current_set, gates));
    let ordinal64 = i64::from(ordinal);
    let us = &current_set.spec.update_strategy;
    let use_current = (us.type_ == ROLLING_UPDATE_STRATEGY
        && us.rolling_update.is_none()
        && ordinal64 < start + i64::from(current_set.status.current_replicas))
        || us
            .rolling_update
            .as_ref()
            .is_some_and(|ru| ordinal64 < start + i64::from(ru.partition.unwrap_or(0)));
    if use_current {
        let mut pod = new_stateful_set_pod(current_set, ordinal, gates);
        set_pod_revision(&mut pod, current_revision);
        pod
    } else {
        let mut pod = new_stateful_set_pod(update_set, ordinal, gates);
        set_pod_revision(&mut pod, update_revision);
        pod
    }
}

/// `getPatch`: the revision data, a patch replacing the pod template
/// ([`crate::controllers::history::template_patch`]).
pub fn get_patch(template: &crate::api::PodTemplateSpec) -> Value {
    template_patch(template)
}

/// `newRevision`: a revision of the set's template (labels from the template, annotations from
/// the set), numbered `revision`, hashed with the collision count.
pub fn new_revision(set: &StatefulSet, revision: i64, collision_count: i32) -> ControllerRevision {
    let mut cr = new_controller_revision(
        &set.metadata,
        CONTROLLER_API_VERSION,
        CONTROLLER_KIND,
        &set.spec.template.metadata.labels,
        get_patch(&set.spec.template),
        revision,
        Some(collision_count),
    );
    cr.metadata
        .annotations
        .extend(set.metadata.annotations.clone());
    cr
}

/// `ApplyRevision`: the set with the template restored from `revision` (the strategic-merge
/// `$patch: replace` replaces the whole template).
pub fn apply_revision(set: &StatefulSet, revision: &ControllerRevision) -> StatefulSet {
    let mut clone = set.clone();
    if let Some(t) = revision.data.as_ref().and_then(template_from_patch) {
        clone.spec.template = std::sync::Arc::new(t);
    }
    clone
}

/// The semantic revision comparison of the StatefulSetSemanticRevisionComparison gate (beta and
/// on by default since 1.34.2 and 1.35, kubernetes#135017): `revision` still describes `set`
/// when the set restored from it, with its pod template defaulted, encodes to the same patch as
/// the set itself. A revision whose bytes differ only in serialization (the
/// `"creationTimestamp":null` that 1.33 wrote) or in fields defaulted since it was written is
/// then reused instead of starting a spurious rolling update.
pub fn set_matches_revision(set: &StatefulSet, revision: &ControllerRevision) -> bool {
    let Some(mut restored) = revision.data.as_ref().and_then(template_from_patch) else {
        return false;
    };
    crate::api::defaults::default_pod_spec(restored.spec_mut());
    crate::api::go_json(&get_patch(&restored))
        == crate::api::go_json(&get_patch(&set.spec.template))
}

/// `inconsistentStatus`: the computed status differs from the stored one (or observes a newer
/// generation).
pub fn inconsistent_status(set: &StatefulSet, status: &StatefulSetStatus) -> bool {
    let s = &set.status;
    status.observed_generation > s.observed_generation
        || status.replicas != s.replicas
        || status.current_replicas != s.current_replicas
        || status.ready_replicas != s.ready_replicas
        || status.updated_replicas != s.updated_replicas
        || status.current_revision != s.current_revision
        || status.available_replicas != s.available_replicas
        || status.update_revision != s.update_revision
}

/// `completeRollingUpdate`: with RollingUpdate, once every replica is updated and ready the
/// update revision becomes the current one.
pub fn complete_rolling_update(set: &StatefulSet, status: &mut StatefulSetStatus) {
    let r = set.replicas();
    if set.spec.update_strategy.type_ == ROLLING_UPDATE_STRATEGY
        && status.updated_replicas == r
        && status.ready_replicas == r
        && status.replicas == r
    {
        status.current_replicas = status.updated_replicas;
        status.current_revision = status.update_revision.clone();
    }
}

/// `descendingOrdinal`: highest ordinal first.
pub fn cmp_descending_ordinal(a: &Pod, b: &Pod) -> Ordering {
    get_ordinal(b)
        .cmp(&get_ordinal(a))
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// `getStatefulSetMaxUnavailable`: `maxUnavailable` (default 1) scaled down against the
/// replicas, at least 1.
///
/// # Errors
/// The IntOrString error of a malformed percentage.
pub fn get_stateful_set_max_unavailable(
    max_unavailable: Option<&IntOrString>,
    replica_count: i32,
) -> Result<i32, String> {
    let one = IntOrString::Int(1);
    let n = max_unavailable
        .unwrap_or(&one)
        .scaled_value(replica_count, false)?;
    Ok(n.max(1))
}
