//! ReplicaSet status: `calculateStatus`, `updateReplicaSetStatus` and the condition helpers of
//! `pkg/controller/replicaset/replica_set_utils.go`.

use crate::api::{ApiError, Object, Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus, Time};
use crate::controllers::controller_utils::{is_pod_available, is_pod_ready};
use crate::controllers::Ctx;

/// `apps.ReplicaSetReplicaFailure`.
pub const REPLICA_FAILURE: &str = "ReplicaFailure";

/// The status update is retried this many times after the first attempt (`statusUpdateRetries`).
pub const STATUS_UPDATE_RETRIES: usize = 1;

/// `calculateStatus`: counts over the active pods the ReplicaSet owns, and the `ReplicaFailure`
/// condition from the error of `manageReplicas`.
///
/// * `replicas`: active pods; `fullyLabeledReplicas`: those whose labels match the template
///   labels; `readyReplicas`: ready ones; `availableReplicas`: ready and available for
///   `minReadySeconds` at `now`.
/// * `terminating_pods`: `Some` only when terminating replicas are reported
///   (DeploymentReplicaSetTerminatingReplicas on, and a ReplicaSet rather than an RC); sets
///   `terminatingReplicas`, otherwise it is cleared.
/// * `ReplicaFailure`: added (reason `FailedCreate` when pods are missing, `FailedDelete` when
///   there are too many, message = the error) when there is an error and no such condition yet;
///   removed when there is no error; left alone when both.
///
/// `observedGeneration` is set by [`update_replica_set_status`], as upstream.
pub fn calculate_status(
    rs: &ReplicaSet,
    active_pods: &[&Pod],
    terminating_pods: Option<&[&Pod]>,
    manage_replicas_err: Option<&ApiError>,
    now: Time,
) -> ReplicaSetStatus {
    let counts = pod_counts(
        rs,
        active_pods,
        terminating_pods.map(|t| t.len() as i32),
        now,
    );
    calculate_status_from_counts(rs, &counts, manage_replicas_err, now)
}

/// What [`calculate_status`] reads from the pods: the active pods and how many of them are
/// fully labeled, ready and available, and the terminating count (when reported).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodCounts {
    pub replicas: i32,
    pub fully_labeled: i32,
    pub ready: i32,
    pub available: i32,
    pub terminating: Option<i32>,
}

/// The pod-derived half of [`calculate_status`].
pub fn pod_counts(
    rs: &ReplicaSet,
    active_pods: &[&Pod],
    terminating: Option<i32>,
    now: Time,
) -> PodCounts {
    pod_counts_of(rs, active_pods.iter().copied(), terminating, now)
}

/// [`pod_counts`] over any sequence of active pods. "Fully labeled" is
/// `labels.SelectorFromSet(template labels).Matches(pod labels)`: every template label is on
/// the pod with the same value (true at once for a pod sharing the template's label map).
pub fn pod_counts_of<'a>(
    rs: &ReplicaSet,
    active_pods: impl Iterator<Item = &'a Pod>,
    terminating: Option<i32>,
    now: Time,
) -> PodCounts {
    let template_labels = &rs.spec.template.metadata.labels;
    let mut replicas = 0;
    let mut fully_labeled = 0;
    let mut ready = 0;
    let mut available = 0;
    for pod in active_pods {
        replicas += 1;
        let labels = &pod.metadata.labels;
        if crate::api::meta::Shared::ptr_eq(labels, template_labels)
            || template_labels
                .iter()
                .all(|(k, v)| labels.get(k).is_some_and(|pv| pv == v))
        {
            fully_labeled += 1;
        }
        if is_pod_ready(pod) {
            ready += 1;
            if is_pod_available(pod, rs.spec.min_ready_seconds, now) {
                available += 1;
            }
        }
    }
    PodCounts {
        replicas,
        fully_labeled,
        ready,
        available,
        terminating,
    }
}

/// [`calculate_status`] from already counted pods.
pub fn calculate_status_from_counts(
    rs: &ReplicaSet,
    counts: &PodCounts,
    manage_replicas_err: Option<&ApiError>,
    now: Time,
) -> ReplicaSetStatus {
    let mut new_status = (*rs.status).clone();
    let failure_cond = get_condition(&rs.status, REPLICA_FAILURE);
    match (manage_replicas_err, failure_cond) {
        (Some(err), None) => {
            let diff = i64::from(counts.replicas) - i64::from(rs.replicas());
            let reason = if diff < 0 {
                "FailedCreate"
            } else if diff > 0 {
                "FailedDelete"
            } else {
                ""
            };
            let cond =
                new_replica_set_condition(REPLICA_FAILURE, "True", reason, &err.to_string(), now);
            set_condition(&mut new_status, cond);
        }
        (None, Some(_)) => remove_condition(&mut new_status, REPLICA_FAILURE),
        _ => {}
    }

    new_status.replicas = counts.replicas;
    new_status.fully_labeled_replicas = counts.fully_labeled;
    new_status.ready_replicas = counts.ready;
    new_status.available_replicas = counts.available;
    new_status.terminating_replicas = counts.terminating;
    new_status
}

/// `NewReplicaSetCondition`, stamped with `now` in whole seconds.
pub fn new_replica_set_condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: Time,
) -> ReplicaSetCondition {
    ReplicaSetCondition {
        type_: type_.into(),
        status: status.into(),
        last_transition_time: Some(now.trunc_secs()),
        reason: reason.into(),
        message: message.into(),
    }
}

/// `GetCondition`.
pub fn get_condition<'a>(
    status: &'a ReplicaSetStatus,
    type_: &str,
) -> Option<&'a ReplicaSetCondition> {
    status.conditions.iter().find(|c| c.type_ == type_)
}

/// `SetCondition`: adds or replaces the condition of that type, unless one with the same status
/// and reason is already there.
pub fn set_condition(status: &mut ReplicaSetStatus, cond: ReplicaSetCondition) {
    if let Some(cur) = get_condition(status, &cond.type_) {
        if cur.status == cond.status && cur.reason == cond.reason {
            return;
        }
    }
    status.conditions.retain(|c| c.type_ != cond.type_);
    status.conditions.push(cond);
}

/// `RemoveCondition`.
pub fn remove_condition(status: &mut ReplicaSetStatus, type_: &str) {
    status.conditions.retain(|c| c.type_ != type_);
}

/// Whether `updateReplicaSetStatus` would skip the write: the counters, terminating replicas and
/// conditions are unchanged and the generation has already been observed.
pub fn status_unchanged(rs: &ReplicaSet, new_status: &ReplicaSetStatus) -> bool {
    let s = &rs.status;
    s.replicas == new_status.replicas
        && s.fully_labeled_replicas == new_status.fully_labeled_replicas
        && s.ready_replicas == new_status.ready_replicas
        && s.available_replicas == new_status.available_replicas
        && s.terminating_replicas == new_status.terminating_replicas
        && rs.metadata.generation == s.observed_generation
        && s.conditions == new_status.conditions
}

/// The stored owner (a ReplicaSet, or a ReplicationController) with `status` replaced.
fn with_status(owner: &Object, status: &ReplicaSetStatus) -> Object {
    let mut o = owner.clone();
    match &mut o {
        Object::ReplicaSet(rs) => rs.status = status.clone().into(),
        Object::ReplicationController(rc) => rc.status = status.clone(),
        _ => {}
    }
    o
}

fn status_view(o: &Object) -> Option<ReplicaSet> {
    match o {
        Object::ReplicaSet(rs) => Some(rs.clone()),
        Object::ReplicationController(rc) => Some(rc.to_replica_set()),
        _ => None,
    }
}

/// `updateReplicaSetStatus`: writes `new_status` (with `observedGeneration` = the generation
/// acted on) through `PUT .../status` unless nothing changed; on failure re-reads the object and
/// tries once more. `owner` is the stored object (ReplicaSet or ReplicationController) and `rs`
/// its ReplicaSet view. Returns the updated view.
///
/// # Errors
/// The last update error, or NotFound when the re-read fails.
pub fn update_replica_set_status(
    ctx: &mut Ctx,
    owner: &Object,
    rs: &ReplicaSet,
    mut new_status: ReplicaSetStatus,
) -> Result<ReplicaSet, ApiError> {
    if status_unchanged(rs, &new_status) {
        return Ok(rs.clone());
    }
    new_status.observed_generation = rs.metadata.generation;
    let mut current = owner.clone();
    let mut i = 0;
    loop {
        match ctx.update_status(with_status(&current, &new_status)) {
            Ok(updated) => {
                return status_view(&updated).ok_or_else(|| {
                    ApiError::bad_request(format!("unexpected kind {}", updated.kind()))
                })
            }
            Err(e) => {
                if i >= STATUS_UPDATE_RETRIES {
                    return Err(e);
                }
            }
        }
        i += 1;
        let r = crate::store::ObjectRef::of(&current);
        match ctx.store().get_ref(&r) {
            Some(fresh) => current = fresh.clone(),
            _ => {
                let (_, plural, group, _) =
                    crate::api::kind_info(current.kind()).unwrap_or(("", "", "", true));
                let resource = if group.is_empty() {
                    plural.to_string()
                } else {
                    format!("{plural}.{group}")
                };
                return Err(ApiError::not_found(&resource, &r.name));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{LabelSelector, Labels, OwnerReference, PodCondition};

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// `newReplicaSet(replicas, selectorMap)` of replica_set_test.go.
    fn new_replica_set(replicas: i32, selector: Labels) -> ReplicaSet {
        let mut rs = ReplicaSet::default();
        rs.metadata.name = "foobar".into();
        rs.metadata.namespace = "default".into();
        rs.metadata.uid = "rs-uid".into();
        rs.spec.replicas = Some(replicas);
        rs.spec.selector = Some(LabelSelector::from_labels(&selector));
        rs.spec.template_mut().metadata.labels =
            labels(&[("name", "foo"), ("type", "production")]).into();
        rs
    }

    /// `newPod(name, rs, phase, lastTransitionTime, properlyOwned=true)`: Running pods get a
    /// Ready=True condition; labels are the selector's.
    fn new_pod(name: &str, rs: &ReplicaSet, phase: &str) -> Pod {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.metadata.namespace = rs.metadata.namespace.clone();
        p.metadata.labels = (rs
            .spec
            .selector
            .as_ref()
            .and_then(|s| s.match_labels.clone())
            .unwrap_or_default())
        .into();
        p.metadata.owner_references = vec![OwnerReference {
            api_version: "apps/v1".into(),
            kind: "ReplicaSet".into(),
            name: rs.metadata.name.clone(),
            uid: rs.metadata.uid.clone(),
            controller: Some(true),
            block_owner_deletion: None,
        }]
        .into();
        p.status.phase = phase.into();
        if phase == "Running" {
            p.status.conditions = vec![PodCondition {
                type_: "Ready".into(),
                status: "True".into(),
                ..Default::default()
            }];
        }
        p
    }

    fn now() -> Time {
        Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
    }

    // Port of TestCalculateStatus (pkg/controller/replicaset/replica_set_utils_test.go).
    #[test]
    fn test_calculate_status() {
        let label_map = labels(&[("name", "foo")]);
        let full_label_map = labels(&[("name", "foo"), ("type", "production")]);
        let not_fully = new_replica_set(1, label_map);
        let fully = new_replica_set(2, full_label_map.clone());
        let mut long_min_ready = new_replica_set(1, full_label_map);
        long_min_ready.spec.min_ready_seconds = 3600;

        // (name, rs, pods (name, labels-from rs, phase), replicas, fully, ready, available)
        let cases: Vec<(&str, &ReplicaSet, Vec<Pod>, [i32; 4])> = vec![
            (
                "1 fully labelled pod",
                &fully,
                vec![new_pod("pod1", &fully, "Running")],
                [1, 1, 1, 1],
            ),
            (
                "1 not fully labelled pod",
                &not_fully,
                vec![new_pod("pod1", &not_fully, "Running")],
                [1, 0, 1, 1],
            ),
            (
                "2 fully labelled pods",
                &fully,
                vec![
                    new_pod("pod1", &fully, "Running"),
                    new_pod("pod2", &fully, "Running"),
                ],
                [2, 2, 2, 2],
            ),
            (
                "2 not fully labelled pods",
                &not_fully,
                vec![
                    new_pod("pod1", &not_fully, "Running"),
                    new_pod("pod2", &not_fully, "Running"),
                ],
                [2, 0, 2, 2],
            ),
            (
                "1 fully labelled pod, 1 not fully labelled pod",
                &not_fully,
                vec![
                    new_pod("pod1", &not_fully, "Running"),
                    new_pod("pod2", &fully, "Running"),
                ],
                [2, 1, 2, 2],
            ),
            (
                "1 non-ready pod",
                &fully,
                vec![new_pod("pod1", &fully, "Pending")],
                [1, 1, 0, 0],
            ),
            (
                "1 ready but non-available pod",
                &long_min_ready,
                vec![new_pod("pod1", &long_min_ready, "Running")],
                [1, 1, 1, 0],
            ),
        ];
        for (name, rs, pods, [replicas, fully_labeled, ready, available]) in cases {
            let refs: Vec<&Pod> = pods.iter().collect();
            let got = calculate_status(rs, &refs, None, None, now());
            let want = ReplicaSetStatus {
                replicas,
                fully_labeled_replicas: fully_labeled,
                ready_replicas: ready,
                available_replicas: available,
                ..Default::default()
            };
            assert_eq!(got, want, "{name}");
        }
    }

    // Port of TestCalculateStatusConditions (pkg/controller/replicaset/replica_set_utils_test.go).
    #[test]
    fn test_calculate_status_conditions() {
        let label_map = labels(&[("name", "foo")]);
        let rs = new_replica_set(2, label_map.clone());
        let mut replica_failure_rs = new_replica_set(10, label_map);
        replica_failure_rs.status.conditions = vec![ReplicaSetCondition {
            type_: REPLICA_FAILURE.into(),
            status: "True".into(),
            ..Default::default()
        }];
        let fake_err = ApiError::bad_request("fake manageReplicasErr");
        let cond = |reason: &str, message: &str| ReplicaSetCondition {
            type_: REPLICA_FAILURE.into(),
            status: "True".into(),
            last_transition_time: Some(now()),
            reason: reason.into(),
            message: message.into(),
        };
        type Case<'a> = (
            &'a str,
            &'a ReplicaSet,
            usize,
            Option<&'a ApiError>,
            Vec<ReplicaSetCondition>,
        );
        let cases: Vec<Case> = vec![
            (
                "manageReplicasErr != nil && failureCond == nil, diff < 0",
                &rs,
                1,
                Some(&fake_err),
                vec![cond("FailedCreate", "fake manageReplicasErr")],
            ),
            (
                "manageReplicasErr != nil && failureCond == nil, diff > 0",
                &rs,
                3,
                Some(&fake_err),
                vec![cond("FailedDelete", "fake manageReplicasErr")],
            ),
            (
                "manageReplicasErr == nil && failureCond != nil",
                &replica_failure_rs,
                1,
                None,
                vec![],
            ),
            (
                "manageReplicasErr != nil && failureCond != nil",
                &replica_failure_rs,
                1,
                Some(&fake_err),
                replica_failure_rs.status.conditions.clone(),
            ),
            (
                "manageReplicasErr == nil && failureCond == nil",
                &rs,
                1,
                None,
                vec![],
            ),
        ];
        for (name, rs, n, err, want) in cases {
            let pods: Vec<Pod> = (0..n)
                .map(|i| new_pod(&format!("pod{i}"), rs, "Running"))
                .collect();
            let refs: Vec<&Pod> = pods.iter().collect();
            let got = calculate_status(rs, &refs, None, err, now());
            assert_eq!(got.conditions, want, "{name}");
        }
    }

    // Ports of TestGetCondition, TestSetCondition and TestRemoveCondition
    // (pkg/controller/replicaset/replica_set_test.go).
    #[test]
    fn test_condition_helpers() {
        let c = |type_: &str, reason: &str| ReplicaSetCondition {
            type_: type_.into(),
            status: "True".into(),
            reason: reason.into(),
            ..Default::default()
        };
        let failure = c(REPLICA_FAILURE, "OtherFailure");
        let failure2 = c(REPLICA_FAILURE, "AnotherFailure");
        let pull = c("ImagePullBackOff", "NonExistentImage");
        let status = ReplicaSetStatus {
            conditions: vec![failure.clone()],
            ..Default::default()
        };
        assert!(get_condition(&status, REPLICA_FAILURE).is_some());
        assert!(get_condition(&status, "ImagePullBackOff").is_none());

        let mut s = ReplicaSetStatus::default();
        set_condition(&mut s, failure.clone());
        assert_eq!(s.conditions, vec![failure.clone()]);
        let mut s = ReplicaSetStatus {
            conditions: vec![pull.clone()],
            ..Default::default()
        };
        set_condition(&mut s, failure.clone());
        assert_eq!(s.conditions, vec![pull.clone(), failure.clone()]);
        let mut s = status.clone();
        set_condition(&mut s, failure2.clone());
        assert_eq!(s.conditions, vec![failure2]);
        // Same status and reason: the existing condition (and its message) stays.
        let mut s = status.clone();
        let mut same = failure.clone();
        same.message = "new message".into();
        set_condition(&mut s, same);
        assert_eq!(s.conditions, vec![failure.clone()]);

        let mut s = ReplicaSetStatus::default();
        remove_condition(&mut s, REPLICA_FAILURE);
        assert_eq!(s, ReplicaSetStatus::default());
        let mut s = status.clone();
        remove_condition(&mut s, REPLICA_FAILURE);
        assert!(s.conditions.is_empty());
        let mut s = status.clone();
        remove_condition(&mut s, "ImagePullBackOff");
        assert_eq!(s, status);
    }

    #[test]
    fn terminating_replicas_only_when_reported() {
        let rs = new_replica_set(1, labels(&[("name", "foo")]));
        let mut p = new_pod("gone", &rs, "Running");
        p.metadata.deletion_timestamp = Some(now());
        let term = [&p];
        let s = calculate_status(&rs, &[], Some(&term), None, now());
        assert_eq!(s.terminating_replicas, Some(1));
        let s = calculate_status(&rs, &[], None, None, now());
        assert_eq!(s.terminating_replicas, None);
    }
}
