//! Pure Deployment maths and helpers (`pkg/controller/deployment/util/deployment_util.go`).
//!
//! Everything here is a pure function of its arguments (time is passed in), so it can be tested
//! without a store. Functions that sort their input in place do so because upstream does, and the
//! resulting order is observable (event order, which replica set is scaled first).

use crate::api::{
    Deployment, DeploymentCondition, DeploymentStatus, IntOrString, ObjectMeta, PodTemplateSpec,
    ReplicaSet, ReplicaSetCondition, Time,
};
use crate::controllers::controller_utils as cu;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The revision annotation of a deployment's replica sets, recording its rollout sequence.
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// The history of old revisions a (re-used) replica set has served.
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
/// `deployment.spec.replicas` when the replica set was last scaled.
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
/// `deployment.spec.replicas + maxSurge` when the replica set was last scaled.
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
/// The legacy rollback request (`apps.DeprecatedRollbackTo`).
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";
/// `v1.LastAppliedConfigAnnotation`.
pub const LAST_APPLIED_CONFIG_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// `apps.DefaultDeploymentUniqueLabelKey`.
pub const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY: &str = "pod-template-hash";

/// Rollback event reasons.
pub const ROLLBACK_REVISION_NOT_FOUND: &str = "DeploymentRollbackRevisionNotFound";
pub const ROLLBACK_TEMPLATE_UNCHANGED: &str = "DeploymentRollbackTemplateUnchanged";
pub const ROLLBACK_DONE: &str = "DeploymentRollback";

/// Progressing reasons.
pub const REPLICA_SET_UPDATED_REASON: &str = "ReplicaSetUpdated";
pub const FAILED_RS_CREATE_REASON: &str = "ReplicaSetCreateError";
pub const NEW_REPLICA_SET_REASON: &str = "NewReplicaSetCreated";
pub const FOUND_NEW_RS_REASON: &str = "FoundNewReplicaSet";
pub const NEW_RS_AVAILABLE_REASON: &str = "NewReplicaSetAvailable";
pub const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";
pub const PAUSED_DEPLOY_REASON: &str = "DeploymentPaused";
pub const RESUMED_DEPLOY_REASON: &str = "DeploymentResumed";
/// Available reasons.
pub const MINIMUM_REPLICAS_AVAILABLE: &str = "MinimumReplicasAvailable";
pub const MINIMUM_REPLICAS_UNAVAILABLE: &str = "MinimumReplicasUnavailable";

/// Condition types.
pub const DEPLOYMENT_AVAILABLE: &str = "Available";
pub const DEPLOYMENT_PROGRESSING: &str = "Progressing";
pub const DEPLOYMENT_REPLICA_FAILURE: &str = "ReplicaFailure";
pub const CONDITION_TRUE: &str = "True";
pub const CONDITION_FALSE: &str = "False";
pub const CONDITION_UNKNOWN: &str = "Unknown";

pub const ROLLING_UPDATE: &str = "RollingUpdate";
pub const RECREATE: &str = "Recreate";

/// `math.MaxInt32`: "no deadline" / "unlimited history".
pub const MAX_INT32: i32 = i32::MAX;

// ---------------------------------------------------------------------------------------------
// ReplicaSet orders from `controller_utils`, as `Ordering`s for `sort_by`.
// ---------------------------------------------------------------------------------------------

fn ordering(
    less: impl Fn(&ReplicaSet, &ReplicaSet) -> bool,
    a: &ReplicaSet,
    b: &ReplicaSet,
) -> Ordering {
    if less(a, b) {
        Ordering::Less
    } else if less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// `controller.ReplicaSetsByCreationTimestamp`: older first, equal timestamps by name.
pub fn cmp_replica_sets_by_creation_timestamp(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    ordering(cu::replica_sets_by_creation_timestamp_less, a, b)
}

/// `controller.ReplicaSetsBySizeOlder`: larger first; equal sizes older first.
pub fn cmp_replica_sets_by_size_older(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    ordering(cu::replica_sets_by_size_older_less, a, b)
}

/// `controller.ReplicaSetsBySizeNewer`: larger first; equal sizes newer first.
pub fn cmp_replica_sets_by_size_newer(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    ordering(cu::replica_sets_by_size_newer_less, a, b)
}

/// `controller.FilterActiveReplicaSets`: replica sets with `spec.replicas > 0`, order kept.
pub fn filter_active_replica_sets(rss: &[ReplicaSet]) -> Vec<ReplicaSet> {
    cu::filter_active_replica_sets(rss.iter())
        .into_iter()
        .cloned()
        .collect()
}

/// `metav1.IsControlledBy`: the controller reference names this uid.
pub fn is_controlled_by(meta: &ObjectMeta, owner_uid: &str) -> bool {
    meta.controller_ref().is_some_and(|r| r.uid == owner_uid)
}

// ---------------------------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------------------------

/// `NewDeploymentCondition`: both timestamps are `now` (whole seconds, as stored).
pub fn new_deployment_condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: Time,
) -> DeploymentCondition {
    DeploymentCondition {
        type_: type_.into(),
        status: status.into(),
        last_update_time: Some(now.trunc_secs()),
        last_transition_time: Some(now.trunc_secs()),
        reason: reason.into(),
        message: message.into(),
    }
}

/// `GetDeploymentCondition`.
pub fn get_deployment_condition<'a>(
    status: &'a DeploymentStatus,
    type_: &str,
) -> Option<&'a DeploymentCondition> {
    status.conditions.iter().find(|c| c.type_ == type_)
}

/// `SetDeploymentCondition`: a no-op when a condition of that type already has the same status
/// and reason; an unchanged status keeps its `lastTransitionTime`; the new condition goes last.
pub fn set_deployment_condition(status: &mut DeploymentStatus, mut condition: DeploymentCondition) {
    if let Some(cur) = get_deployment_condition(status, &condition.type_) {
        if cur.status == condition.status && cur.reason == condition.reason {
            return;
        }
        if cur.status == condition.status {
            condition.last_transition_time = cur.last_transition_time;
        }
    }
    status.conditions.retain(|c| c.type_ != condition.type_);
    status.conditions.push(condition);
}

/// `RemoveDeploymentCondition`.
pub fn remove_deployment_condition(status: &mut DeploymentStatus, type_: &str) {
    status.conditions.retain(|c| c.type_ != type_);
}

/// `ReplicaSetToDeploymentCondition`: both timestamps from the RS condition's transition time.
pub fn replica_set_to_deployment_condition(c: &ReplicaSetCondition) -> DeploymentCondition {
    DeploymentCondition {
        type_: c.type_.clone(),
        status: c.status.clone(),
        last_update_time: c.last_transition_time,
        last_transition_time: c.last_transition_time,
        reason: c.reason.clone(),
        message: c.message.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Revisions and annotations
// ---------------------------------------------------------------------------------------------

/// `SetDeploymentRevision`: true when the annotation changed. A missing annotation reads as
/// `""` (Go's map zero value), so an empty revision does not add it.
pub fn set_deployment_revision(d: &mut Deployment, revision: &str) -> bool {
    if go_map_get(&d.metadata.annotations, REVISION_ANNOTATION) != revision {
        d.metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), revision.into());
        return true;
    }
    false
}

/// `Revision`: the revision annotation; a missing annotation is revision 0.
///
/// # Errors
/// `strconv.ParseInt`'s message when the annotation is not an int64.
pub fn revision(meta: &ObjectMeta) -> Result<i64, String> {
    match meta.annotations.get(REVISION_ANNOTATION) {
        None => Ok(0),
        Some(v) => parse_int64(v),
    }
}

/// `strconv.ParseInt(v, 10, 64)`: optional sign then decimal digits.
fn parse_int64(v: &str) -> Result<i64, String> {
    let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.ParseInt: parsing {v:?}: invalid syntax"));
    }
    v.parse::<i64>()
        .map_err(|_| format!("strconv.ParseInt: parsing {v:?}: value out of range"))
}

/// `MaxRevision`: the highest parseable revision (unparseable ones are skipped), 0 if none.
pub fn max_revision(rss: &[ReplicaSet]) -> i64 {
    rss.iter()
        .filter_map(|rs| revision(&rs.metadata).ok())
        .fold(0, i64::max)
}

/// `LastRevision`: the second highest revision (the one before the current), 0 if none.
///
/// Concrete example: revisions 3, 1, 2 → 2; a single revision 5 → 0.
pub fn last_revision(rss: &[ReplicaSet]) -> i64 {
    let (mut max, mut sec) = (0i64, 0i64);
    for v in rss.iter().filter_map(|rs| revision(&rs.metadata).ok()) {
        if v >= max {
            sec = max;
            max = v;
        } else if v > sec {
            sec = v;
        }
    }
    sec
}

/// The annotations never copied between a Deployment and its replica sets.
pub const ANNOTATIONS_TO_SKIP: &[&str] = &[
    LAST_APPLIED_CONFIG_ANNOTATION,
    REVISION_ANNOTATION,
    REVISION_HISTORY_ANNOTATION,
    DESIRED_REPLICAS_ANNOTATION,
    MAX_REPLICAS_ANNOTATION,
    DEPRECATED_ROLLBACK_TO,
];

/// `skipCopyAnnotation`.
pub fn skip_copy_annotation(key: &str) -> bool {
    ANNOTATIONS_TO_SKIP.contains(&key)
}

/// Go's `m[k]` on a `map[string]string`: the value, or `""` when the key is missing.
fn go_map_get<'a>(m: &'a BTreeMap<String, String>, k: &str) -> &'a str {
    m.get(k).map_or("", String::as_str)
}

/// `copyDeploymentAnnotationsToReplicaSet`: copies every non-skipped deployment annotation;
/// true when the replica set's annotations changed. Upstream skips a key when
/// `rs.Annotations[k] == v`, and a missing key reads as `""`: an empty-valued deployment
/// annotation is never added to a replica set that lacks it.
pub fn copy_deployment_annotations_to_replica_set(d: &Deployment, rs: &mut ReplicaSet) -> bool {
    let mut changed = false;
    for (k, v) in &d.metadata.annotations {
        if skip_copy_annotation(k) || go_map_get(&rs.metadata.annotations, k) == v {
            continue;
        }
        rs.metadata.annotations.insert(k.clone(), v.clone());
        changed = true;
    }
    changed
}

/// `SetDeploymentAnnotationsTo`: on rollback, the deployment keeps only its skipped annotations
/// and takes every non-skipped annotation of the replica set rolled back to.
pub fn set_deployment_annotations_to(d: &mut Deployment, rollback_to: &ReplicaSet) {
    d.metadata
        .annotations
        .retain(|k, _| skip_copy_annotation(k));
    for (k, v) in &rollback_to.metadata.annotations {
        if !skip_copy_annotation(k) {
            d.metadata.annotations.insert(k.clone(), v.clone());
        }
    }
}

/// `SetNewReplicaSetAnnotations`: copies the deployment's annotations, raises the revision to
/// `new_revision` when it is higher, appends the replaced revision to `revision-history` (kept
/// under `rev_history_limit_in_chars` by dropping the oldest entries), and for a replica set about
/// to be created sets desired/max replicas. True when any annotation changed.
///
/// Concrete example: an RS at revision 1 re-used as revision 3 gets `revision: 3` and
/// `revision-history: 1`; re-used again as revision 5 → `revision-history: 1,3`.
pub fn set_new_replica_set_annotations(
    d: &Deployment,
    new_rs: &mut ReplicaSet,
    new_revision: &str,
    exists: bool,
    rev_history_limit_in_chars: usize,
) -> bool {
    let mut changed = copy_deployment_annotations_to_replica_set(d, new_rs);
    let old_revision = new_rs
        .metadata
        .annotations
        .get(REVISION_ANNOTATION)
        .cloned();
    let had_revision = old_revision.is_some();
    let old_revision = old_revision.unwrap_or_default();
    let old_int = match parse_int64(&old_revision) {
        Ok(v) => v,
        Err(_) if old_revision.is_empty() => 0,
        Err(_) => return false,
    };
    let Ok(new_int) = parse_int64(new_revision) else {
        return false;
    };
    if old_int < new_int {
        new_rs
            .metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), new_revision.into());
        changed = true;
    }
    if had_revision && old_int < new_int {
        let history = new_rs
            .metadata
            .annotations
            .get(REVISION_HISTORY_ANNOTATION)
            .cloned()
            .unwrap_or_default();
        let old_revisions: Vec<&str> = history.split(',').collect();
        if old_revisions[0].is_empty() {
            new_rs
                .metadata
                .annotations
                .insert(REVISION_HISTORY_ANNOTATION.into(), old_revision.clone());
        } else {
            let mut total = history.len() + old_revision.len() + 1;
            let mut start = 0;
            while total > rev_history_limit_in_chars && start < old_revisions.len() {
                total = total.saturating_sub(old_revisions[start].len() + 1);
                start += 1;
            }
            if total <= rev_history_limit_in_chars {
                let mut kept: Vec<&str> = old_revisions[start..].to_vec();
                kept.push(&old_revision);
                new_rs
                    .metadata
                    .annotations
                    .insert(REVISION_HISTORY_ANNOTATION.into(), kept.join(","));
            }
            // else: "Not appending revision due to revision history length limit reached".
        }
    }
    if !exists
        && set_replicas_annotations(
            new_rs,
            d.replicas(),
            d.replicas().wrapping_add(max_surge(d)),
        )
    {
        changed = true;
    }
    changed
}

/// `getNonNegativeInt32FromAnnotation`: `Ok(None)` when absent; an error for anything that is
/// not a non-negative base-10 int32 (digits only).
///
/// # Errors
/// `strconv.ParseUint`-style messages (`invalid syntax`, `value out of range`).
pub fn get_non_negative_int32_from_annotation(
    meta: &ObjectMeta,
    key: &str,
) -> Result<Option<i32>, String> {
    let Some(v) = meta.annotations.get(key) else {
        return Ok(None);
    };
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.ParseUint: parsing {v:?}: invalid syntax"));
    }
    match v.parse::<u64>() {
        Ok(n) if n <= i32::MAX as u64 => Ok(Some(n as i32)),
        _ => Err(format!(
            "strconv.ParseUint: parsing {v:?}: value out of range"
        )),
    }
}

/// `GetDesiredReplicasAnnotation` (invalid values read as absent).
pub fn get_desired_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    get_non_negative_int32_from_annotation(&rs.metadata, DESIRED_REPLICAS_ANNOTATION)
        .ok()
        .flatten()
}

fn get_max_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    get_non_negative_int32_from_annotation(&rs.metadata, MAX_REPLICAS_ANNOTATION)
        .ok()
        .flatten()
}

/// `SetReplicasAnnotations`: true when either annotation changed.
pub fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let mut updated = false;
    for (k, v) in [
        (DESIRED_REPLICAS_ANNOTATION, desired),
        (MAX_REPLICAS_ANNOTATION, max),
    ] {
        let s = v.to_string();
        if rs.metadata.annotations.get(k) != Some(&s) {
            rs.metadata.annotations.insert(k.into(), s);
            updated = true;
        }
    }
    updated
}

/// `ReplicasAnnotationsNeedUpdate`: either annotation missing or different.
pub fn replicas_annotations_need_update(rs: &ReplicaSet, desired: i32, max: i32) -> bool {
    rs.metadata.annotations.get(DESIRED_REPLICAS_ANNOTATION) != Some(&desired.to_string())
        || rs.metadata.annotations.get(MAX_REPLICAS_ANNOTATION) != Some(&max.to_string())
}

// ---------------------------------------------------------------------------------------------
// Surge / unavailable arithmetic
// ---------------------------------------------------------------------------------------------

/// `IsRollingUpdate`.
pub fn is_rolling_update(d: &Deployment) -> bool {
    d.spec.strategy.type_ == ROLLING_UPDATE
}

fn rolling_params(d: &Deployment) -> (Option<&IntOrString>, Option<&IntOrString>) {
    match &d.spec.strategy.rolling_update {
        Some(ru) => (ru.max_surge.as_ref(), ru.max_unavailable.as_ref()),
        None => (None, None),
    }
}

/// `ResolveFenceposts`: surge rounds up, unavailable rounds down, unset counts as 0; when both
/// resolve to 0, unavailable becomes 1 (surge might not work due to quota).
///
/// Concrete example: 10 desired with 25%/25% → (3, 2); 1 desired with 25%/25% → (1, 0);
/// 0%/0% of 0 desired → (0, 1).
///
/// # Errors
/// An invalid int-or-percent value (see [`IntOrString::scaled_value`]).
pub fn resolve_fenceposts(
    max_surge: Option<&IntOrString>,
    max_unavailable: Option<&IntOrString>,
    desired: i32,
) -> Result<(i32, i32), String> {
    let zero = IntOrString::Int(0);
    let surge = max_surge.unwrap_or(&zero).scaled_value(desired, true)?;
    let mut unavailable = max_unavailable
        .unwrap_or(&zero)
        .scaled_value(desired, false)?;
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    Ok((surge, unavailable))
}

/// `MaxSurge`: 0 unless RollingUpdate (invalid values, caught by validation, count as 0).
pub fn max_surge(d: &Deployment) -> i32 {
    if !is_rolling_update(d) {
        return 0;
    }
    let (s, u) = rolling_params(d);
    resolve_fenceposts(s, u, d.replicas()).map_or(0, |(s, _)| s)
}

/// `MaxUnavailable`: 0 unless RollingUpdate or when replicas is 0; never more than replicas.
///
/// Concrete example: 10 replicas, maxUnavailable 50% → 5; 5 replicas, maxUnavailable 10 → 5.
pub fn max_unavailable(d: &Deployment) -> i32 {
    if !is_rolling_update(d) || d.replicas() == 0 {
        return 0;
    }
    let (s, u) = rolling_params(d);
    let mu = resolve_fenceposts(s, u, d.replicas()).map_or(0, |(_, u)| u);
    mu.min(d.replicas())
}

/// `MinAvailable`: `replicas − MaxUnavailable` for RollingUpdate, else 0.
pub fn min_available(d: &Deployment) -> i32 {
    if !is_rolling_update(d) {
        return 0;
    }
    d.replicas() - max_unavailable(d)
}

/// `NewRSNewReplicas`: how many replicas the new replica set should have now.
///
/// RollingUpdate: scale up to `replicas + maxSurge` total pods without exceeding `replicas` in
/// the new RS. Recreate: `replicas`.
///
/// Concrete example: 10 replicas, maxSurge 2, old RS at 5 and new at 0 → 7 (12 − 5, capped at 10).
///
/// # Errors
/// An invalid maxSurge, or an unknown strategy type (`deployment type X isn't supported`).
pub fn new_rs_new_replicas(
    d: &Deployment,
    all_rss: &[ReplicaSet],
    new_rs: &ReplicaSet,
) -> Result<i32, String> {
    match d.spec.strategy.type_.as_str() {
        ROLLING_UPDATE => {
            let (s, _) = rolling_params(d);
            let max_surge =
                crate::api::get_scaled_value_from_int_or_percent(s, d.replicas(), true)?;
            // int32 arithmetic, wrapping as Go's does.
            let current = get_replica_count_for_replica_sets(all_rss);
            let max_total = d.replicas().wrapping_add(max_surge);
            if current >= max_total {
                return Ok(new_rs.replicas());
            }
            let scale_up = max_total
                .wrapping_sub(current)
                .min(d.replicas().wrapping_sub(new_rs.replicas()));
            Ok(new_rs.replicas().wrapping_add(scale_up))
        }
        RECREATE => Ok(d.replicas()),
        t => Err(format!("deployment type {t} isn't supported")),
    }
}

/// `IsSaturated`: the new RS owns all desired replicas (its size, its desired-replicas annotation
/// and its available count all equal `replicas`).
pub fn is_saturated(d: &Deployment, rs: Option<&ReplicaSet>) -> bool {
    let Some(rs) = rs else { return false };
    // strconv.Atoi: a sign is accepted here, unlike the non-negative annotation readers; the
    // comparison is on `int32(desired)`, which keeps the low 32 bits.
    let Some(desired) = rs
        .metadata
        .annotations
        .get(DESIRED_REPLICAS_ANNOTATION)
        .and_then(|s| parse_int64(s).ok())
    else {
        return false;
    };
    rs.replicas() == d.replicas()
        && desired as i32 == d.replicas()
        && rs.status.available_replicas == d.replicas()
}

/// `GetProportion`: how many replicas `rs` gets out of `to_add − added`, never more (scaling
/// up) or less (scaling down) than what is left to distribute.
pub fn get_proportion(rs: Option<&ReplicaSet>, d: &Deployment, to_add: i32, added: i32) -> i32 {
    let Some(rs) = rs else { return 0 };
    if rs.replicas() == 0 || to_add == 0 || to_add == added {
        return 0;
    }
    let fraction = get_replica_set_fraction(rs, d);
    let allowed = to_add.wrapping_sub(added);
    if to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    }
}

/// `getReplicaSetFraction`: `round(spec(rs) × (replicas + maxSurge) / max-replicas) − spec(rs)`
/// (half away from zero), falling back to `status.replicas` of the deployment when the
/// max-replicas annotation is missing, invalid or 0; 0 when that is 0 too; `−spec(rs)` when the
/// deployment scales to zero.
///
/// Concrete example: an RS of 50 in a deployment going from max 100 to 120 → +10.
pub fn get_replica_set_fraction(rs: &ReplicaSet, d: &Deployment) -> i32 {
    if d.replicas() == 0 {
        return -rs.replicas();
    }
    let deployment_max = d.replicas().wrapping_add(max_surge(d));
    let annotated = match get_max_replicas_annotation(rs) {
        Some(n) if n > 0 => n,
        _ => d.status.replicas,
    };
    if annotated == 0 {
        return 0;
    }
    // Upstream multiplies in int32 before converting to float64
    // (`float64(*(rs.Spec.Replicas) * deploymentMaxReplicas)`), so the product wraps.
    let new_size = f64::from(rs.replicas().wrapping_mul(deployment_max)) / f64::from(annotated);
    (new_size.round() as i32).wrapping_sub(rs.replicas())
}

// ---------------------------------------------------------------------------------------------
// Finding replica sets
// ---------------------------------------------------------------------------------------------

/// `EqualIgnoreHash`: the templates are equal once the `pod-template-hash` label is removed from
/// both copies, by `apiequality.Semantic.DeepEqual` (an empty list equals an absent one, `1`
/// equals `1000m`, ...: see [`crate::api::semantic`]). Neither template is copied; plain
/// equality is tried first and the semantic walk only runs when it fails.
pub fn equal_ignore_hash(t1: &PodTemplateSpec, t2: &PodTemplateSpec) -> bool {
    crate::api::semantic::semantic_equal_ignoring_label(t1, t2, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY)
}

/// `FindNewReplicaSet`: sorts `rs_list` by creation (as upstream, in place) and returns the
/// oldest replica set whose template equals the deployment's, ignoring the hash label.
pub fn find_new_replica_set(d: &Deployment, rs_list: &mut [ReplicaSet]) -> Option<ReplicaSet> {
    crate::sort::sort_by(rs_list, cmp_replica_sets_by_creation_timestamp);
    rs_list
        .iter()
        .find(|rs| equal_ignore_hash(&rs.spec.template, &d.spec.template))
        .cloned()
}

/// `FindOldReplicaSets`: (old replica sets with `spec.replicas ≠ 0`, all old replica sets).
pub fn find_old_replica_sets(
    d: &Deployment,
    rs_list: &mut [ReplicaSet],
) -> (Vec<ReplicaSet>, Vec<ReplicaSet>) {
    let new_uid = find_new_replica_set(d, rs_list).map(|rs| rs.metadata.uid);
    let mut required = vec![];
    let mut all = vec![];
    for rs in rs_list.iter() {
        if new_uid.as_deref() == Some(rs.metadata.uid.as_str()) {
            continue;
        }
        all.push(rs.clone());
        if rs.replicas() != 0 {
            required.push(rs.clone());
        }
    }
    (required, all)
}

/// `FindActiveOrLatest`: the only active replica set, or the newest one when none is active;
/// `None` when several are active (they must be scaled proportionally). Sorts `old_rss` newest
/// first in place, as upstream.
pub fn find_active_or_latest(
    new_rs: Option<&ReplicaSet>,
    old_rss: &mut [ReplicaSet],
) -> Option<ReplicaSet> {
    if new_rs.is_none() && old_rss.is_empty() {
        return None;
    }
    crate::sort::sort_by(old_rss, |a, b| cmp_replica_sets_by_creation_timestamp(b, a));
    let mut all: Vec<ReplicaSet> = old_rss.to_vec();
    all.extend(new_rs.cloned());
    let active = filter_active_replica_sets(&all);
    match active.len() {
        0 => new_rs.cloned().or_else(|| old_rss.first().cloned()),
        1 => active.into_iter().next(),
        _ => None,
    }
}

/// `SetFromReplicaSetTemplate`: the deployment takes the replica set's template minus the hash
/// label.
pub fn set_from_replica_set_template(d: &mut Deployment, template: &PodTemplateSpec) {
    d.spec.template = std::sync::Arc::new(template.clone());
    d.spec
        .template_mut()
        .metadata
        .labels
        .remove(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY);
}

/// `GetReplicaCountForReplicaSets`: Σ spec.replicas.
pub fn get_replica_count_for_replica_sets(rss: &[ReplicaSet]) -> i32 {
    rss.iter()
        .map(ReplicaSet::replicas)
        .fold(0, i32::wrapping_add)
}

/// `GetActualReplicaCountForReplicaSets`: Σ status.replicas (int32, wrapping as Go's).
pub fn get_actual_replica_count_for_replica_sets(rss: &[ReplicaSet]) -> i32 {
    rss.iter()
        .map(|rs| rs.status.replicas)
        .fold(0, i32::wrapping_add)
}

/// `GetReadyReplicaCountForReplicaSets`: Σ status.readyReplicas.
pub fn get_ready_replica_count_for_replica_sets(rss: &[ReplicaSet]) -> i32 {
    rss.iter()
        .map(|rs| rs.status.ready_replicas)
        .fold(0, i32::wrapping_add)
}

/// `GetAvailableReplicaCountForReplicaSets`: Σ status.availableReplicas.
pub fn get_available_replica_count_for_replica_sets(rss: &[ReplicaSet]) -> i32 {
    rss.iter()
        .map(|rs| rs.status.available_replicas)
        .fold(0, i32::wrapping_add)
}

/// `GetTerminatingReplicaCountForReplicaSets`: Σ status.terminatingReplicas; a replica set that
/// has never been synced (observedGeneration 0) without the field counts 0, a synced one without
/// it makes the total unknown (`None`).
pub fn get_terminating_replica_count_for_replica_sets(rss: &[ReplicaSet]) -> Option<i32> {
    let mut total = 0;
    for rs in rss {
        match rs.status.terminating_replicas {
            None if rs.status.observed_generation == 0 => {}
            None => return None,
            Some(n) => total = i32::wrapping_add(total, n),
        }
    }
    Some(total)
}

// ---------------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------------

/// `DeploymentComplete`: all desired replicas are updated and available, no old pods run, and
/// the status is for the current generation.
pub fn deployment_complete(d: &Deployment, s: &DeploymentStatus) -> bool {
    s.updated_replicas == d.replicas()
        && s.replicas == d.replicas()
        && s.available_replicas == d.replicas()
        && s.observed_generation >= d.metadata.generation
}

/// `DeploymentProgressing`: compared with `d.status`, more updated, fewer old, more ready or
/// more available replicas.
///
/// Concrete example: 10 total / 4 updated → 8 total / 4 updated is progress (old pods removed).
pub fn deployment_progressing(d: &Deployment, s: &DeploymentStatus) -> bool {
    let old = &d.status;
    let old_old = old.replicas - old.updated_replicas;
    let new_old = s.replicas - s.updated_replicas;
    s.updated_replicas > old.updated_replicas
        || new_old < old_old
        || s.ready_replicas > old.ready_replicas
        || s.available_replicas > old.available_replicas
}

/// `DeploymentTimedOut`: the Progressing condition of `s` is older than the deadline (its
/// `lastUpdateTime + progressDeadlineSeconds` strictly before `now`), or already says
/// ProgressDeadlineExceeded. Never after NewReplicaSetAvailable.
pub fn deployment_timed_out(d: &Deployment, s: &DeploymentStatus, now: Time) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(c) = get_deployment_condition(s, DEPLOYMENT_PROGRESSING) else {
        return false;
    };
    if c.reason == NEW_RS_AVAILABLE_REASON {
        return false;
    }
    if c.reason == TIMED_OUT_REASON {
        return true;
    }
    let from = c.last_update_time.unwrap_or(Time::ZERO);
    let deadline =
        crate::api::Duration::from_secs(i64::from(d.spec.progress_deadline_seconds.unwrap_or(0)));
    from + deadline < now
}

/// `HasProgressDeadline`: set and not MaxInt32.
pub fn has_progress_deadline(d: &Deployment) -> bool {
    d.spec
        .progress_deadline_seconds
        .is_some_and(|p| p != MAX_INT32)
}

/// `HasRevisionHistoryLimit`: set and not MaxInt32.
pub fn has_revision_history_limit(d: &Deployment) -> bool {
    d.spec
        .revision_history_limit
        .is_some_and(|r| r != MAX_INT32)
}

// ---------------------------------------------------------------------------------------------
// Lookups, sorting, naming
// ---------------------------------------------------------------------------------------------

/// Go's `%v` of a `map[string]string`: `map[a:b c:d]` (keys sorted).
fn go_map(m: &BTreeMap<String, String>) -> String {
    let inner: Vec<String> = m.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    format!("map[{}]", inner.join(" "))
}

/// `GetDeploymentsForReplicaSet`: deployments of the replica set's namespace whose (non-empty,
/// valid) selector matches its labels. Only the one in its controllerRef actually manages it.
///
/// # Errors
/// Upstream's messages when the replica set has no labels or nothing matches.
pub fn get_deployments_for_replica_set<'a>(
    deployments: impl IntoIterator<Item = &'a Deployment>,
    rs: &ReplicaSet,
) -> Result<Vec<&'a Deployment>, String> {
    if rs.metadata.labels.is_empty() {
        return Err(format!(
            "no deployments found for ReplicaSet {} because it has no labels",
            rs.metadata.name
        ));
    }
    let found: Vec<&Deployment> = deployments
        .into_iter()
        .filter(|d| d.metadata.namespace == rs.metadata.namespace)
        .filter(|d| {
            let sel = match &d.spec.selector {
                None => return false,
                Some(s) => match s.to_selector() {
                    Ok(s) => s,
                    Err(_) => return false,
                },
            };
            !sel.is_empty() && sel.matches(&rs.metadata.labels)
        })
        .collect();
    if found.is_empty() {
        return Err(format!(
            "could not find deployments set for ReplicaSet {} in namespace {} with labels: {}",
            rs.metadata.name,
            rs.metadata.namespace,
            go_map(&rs.metadata.labels)
        ));
    }
    Ok(found)
}

/// `ReplicaSetsByRevision`: by revision, creation order when either does not parse or they tie.
pub fn cmp_replica_sets_by_revision(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    match (revision(&a.metadata), revision(&b.metadata)) {
        (Ok(r1), Ok(r2)) if r1 != r2 => r1.cmp(&r2),
        _ => cmp_replica_sets_by_creation_timestamp(a, b),
    }
}

/// `rand.SafeEncodeString`: each byte mapped into the no-vowel alphabet.
pub fn safe_encode_string(s: &str) -> String {
    let alpha = crate::rng::NAME_ALPHABET;
    s.chars()
        .map(|c| alpha[(c as usize) % alpha.len()] as char)
        .collect()
}

/// FNV-32a.
fn fnv32a(bytes: &[u8], mut h: u32) -> u32 {
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(16_777_619);
    }
    h
}

/// `controller.ComputeHash`: FNV-32a over a deterministic serialisation of the template (JSON
/// with sorted maps here; upstream hashes a spew dump, so values differ from a real cluster but are
/// stable), plus the collision count as 8 little-endian bytes, printed in decimal and encoded with
/// [`safe_encode_string`].
pub fn compute_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    let text = serde_json::to_string(template).unwrap_or_default();
    let mut h = fnv32a(text.as_bytes(), 2_166_136_261);
    if let Some(c) = collision_count {
        let mut buf = [0u8; 8];
        buf[..4].copy_from_slice(&(c as u32).to_le_bytes());
        h = fnv32a(&buf, h);
    }
    safe_encode_string(&h.to_string())
}

/// The new ReplicaSet's name, `<deployment>-<hash>`, exactly as upstream's `getNewReplicaSet`
/// builds it (`d.Name + "-" + podTemplateSpecHash`, "deterministic, to ensure idempotence"). It
/// is never truncated: for a deployment name within 253 characters of the limit the ReplicaSet
/// name is too long, its creation fails validation and the deployment reports
/// `ReplicaSetCreateError`, as upstream.
pub fn generate_replica_set_name(deployment_name: &str, hash: &str) -> String {
    format!("{deployment_name}-{hash}")
}

/// `ListReplicaSets`: replica sets in the deployment's namespace matching its selector and
/// controlled by it, in the order given.
pub fn list_replica_sets<'a>(
    d: &Deployment,
    all: impl IntoIterator<Item = &'a ReplicaSet>,
) -> Vec<ReplicaSet> {
    let Some(Ok(sel)) = d.spec.selector.as_ref().map(|s| s.to_selector()) else {
        return vec![];
    };
    all.into_iter()
        .filter(|rs| rs.metadata.namespace == d.metadata.namespace)
        .filter(|rs| sel.matches(&rs.metadata.labels))
        .filter(|rs| is_controlled_by(&rs.metadata, &d.metadata.uid))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod audit_tests;

#[cfg(test)]
mod edge_tests;
