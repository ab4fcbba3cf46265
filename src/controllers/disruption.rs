//! The disruption controller (`disruption-controller`, pkg/controller/disruption/disruption.go):
//! keeps each PodDisruptionBudget's status — `currentHealthy`, `desiredHealthy`,
//! `expectedPods`, `disruptionsAllowed`, `disruptedPods`, `observedGeneration` and the
//! `DisruptionAllowed` condition — up to date from the pods its selector matches.
//!
//! As upstream: PDBs are synced on their own changes and on changes of a pod they cover (the
//! first matching PDB, `getPdbForPod`); the expected pod count comes from the pods' controllers
//! (`getExpectedScale`: ReplicaSet, Deployment through its ReplicaSet, ReplicationController,
//! StatefulSet; anything else goes through the scale subresource, which only those four kinds
//! serve) unless `minAvailable` is an integer (then it is the number of pods). A failed sync
//! sets `disruptionsAllowed` to 0 with a `SyncFailed` condition (`failSafe`). A pod recorded in
//! `disruptedPods` by the eviction API counts as unhealthy for `DeletionTimeout` (2 min), after
//! which the controller drops it with a `NotDeleted` event and rechecks (through upstream's
//! recheck queue: `AddAfter` the deadline, then `AddRateLimited` on the main queue).
//!
//! A non-terminating pod whose `DisruptionTarget` condition stayed `True` for
//! `stalePodDisruptionTimeout` (2 min) without the pod being deleted gets the condition reset to
//! `False` (`syncStalePodDisruption`). A pod matching several budgets gets a
//! `MultiplePodDisruptionBudgets` warning (`getPdbForPod`). The controller's recorder reports
//! from `controllermanager` (its `EventSource`), not from the controller's name.
//!
//! The three upstream queues share one [`WorkQueue`] here: PDB keys `<namespace>/<name>`,
//! `recheck:<namespace>/<name>` and `stale:<namespace>/<name>` (a pod).

use crate::api::policy::{
    PodDisruptionBudget, DISRUPTION_ALLOWED_CONDITION, INSUFFICIENT_PODS_REASON,
    SUFFICIENT_PODS_REASON, SYNC_FAILED_REASON,
};
use crate::api::validation::conditions::Condition;
use crate::api::{
    get_scaled_value_from_int_or_percent, ApiError, Deployment, Duration, FieldError, IntOrString,
    LabelSelector, Object, ObjectMeta, OwnerReference, Pod, PodCondition, ReplicaSet,
    ReplicationController, Resource, Selector, StatefulSet, Time,
};
use crate::controllers::controller_utils::is_pod_ready;
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::{Change, Store};
use std::collections::BTreeMap;

pub const COMPONENT: &str = "disruption-controller";
/// The recorder's `EventSource.Component` (`NewDisruptionControllerInternal`).
pub const EVENT_SOURCE: &str = "controllermanager";
/// `stalePodDisruptionTimeout`: how long a pod may carry a `True` `DisruptionTarget` condition
/// without being deleted before the controller resets it to `False`.
pub const STALE_POD_DISRUPTION_TIMEOUT: Duration = Duration::from_secs(120);
/// Queue-key prefix of the recheck queue (`recheckQueue`).
const RECHECK_PREFIX: &str = "recheck:";
/// Queue-key prefix of the stale-condition queue (`stalePodDisruptionQueue`).
const STALE_PREFIX: &str = "stale:";
/// `DeletionTimeout`: how long a pod the eviction API approved may stay undeleted before the
/// controller stops counting it as disrupted.
pub const DELETION_TIMEOUT: Duration = Duration::from_secs(120);

/// What can fail a sync: an API error (a conflict is retried without `failSafe`) or one of the
/// controller's own errors, whose text becomes the `SyncFailed` condition's message.
#[derive(Debug)]
pub enum SyncError {
    Api(ApiError),
    Other(String),
}

impl std::fmt::Display for SyncError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SyncError::Api(e) => f.write_str(&e.message),
            SyncError::Other(s) => f.write_str(s),
        }
    }
}

/// The disruption controller. Keys: `<namespace>/<name>` of a PodDisruptionBudget, and the
/// prefixed keys of the recheck and stale-condition queues.
#[derive(Default)]
pub struct DisruptionController {
    /// `MultiplePodDisruptionBudgets` events the informer handlers recorded (pod metadata,
    /// message), written at the next reconcile of the same instant.
    pending_events: Vec<(ObjectMeta, String)>,
}

/// A boxed disruption controller.
pub fn new_disruption_controller() -> Box<dyn Controller> {
    Box::new(DisruptionController::default())
}

/// `field.ErrorList.ToAggregate().Error()`: one error as itself, several in brackets.
fn aggregate(errs: &[FieldError]) -> Option<String> {
    match errs {
        [] => None,
        [e] => Some(e.to_string()),
        _ => Some(format!(
            "[{}]",
            errs.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// `labels.NewRequirement`'s key and value checks (`validateLabelKey`, `validateLabelValue`).
fn requirement_errors(key: &str, values: &[String]) -> Option<String> {
    use crate::api::validation::names::{is_qualified_name, is_valid_label_value};
    let mut errs = vec![];
    let key_errs = is_qualified_name(key);
    if !key_errs.is_empty() {
        errs.push(FieldError::invalid("key", key, key_errs.join("; ")));
    }
    for (i, v) in values.iter().enumerate() {
        let v_errs = is_valid_label_value(v);
        if !v_errs.is_empty() {
            errs.push(FieldError::invalid(
                format!("values[{i}][{key}]"),
                v.as_str(),
                v_errs.join("; "),
            ));
        }
    }
    aggregate(&errs)
}

/// `metav1.LabelSelectorAsSelector` with its requirement validation: an invalid key, value or
/// operator is an error (the stored objects passed validation; the controller still guards).
///
/// # Errors
/// The first failing requirement's message.
pub fn label_selector_as_selector(sel: &LabelSelector) -> Result<Selector, String> {
    for (k, v) in sel.match_labels.iter().flatten() {
        if let Some(e) = requirement_errors(k, std::slice::from_ref(v)) {
            return Err(e);
        }
    }
    for e in sel.match_expressions.iter().flatten() {
        if !matches!(
            e.operator.as_str(),
            "In" | "NotIn" | "Exists" | "DoesNotExist"
        ) {
            return Err(format!(
                "{:?} is not a valid label selector operator",
                e.operator
            ));
        }
        if let Some(err) = requirement_errors(&e.key, e.values.as_deref().unwrap_or_default()) {
            return Err(err);
        }
    }
    sel.to_selector()
}

/// `getPodsForPdb`: the pods of the PDB's namespace its selector matches (a nil selector
/// matches none, `LabelSelectorAsSelector` giving `labels.Nothing()`).
///
/// # Errors
/// The selector conversion's message.
pub fn get_pods_for_pdb<'a>(
    store: &'a Store,
    pdb: &PodDisruptionBudget,
) -> Result<Vec<&'a Pod>, String> {
    let Some(sel) = &pdb.spec.selector else {
        return Ok(vec![]);
    };
    let sel = label_selector_as_selector(sel)?;
    Ok(store
        .list::<Pod>(Some(&pdb.metadata.namespace))
        .filter(|p| sel.matches(&p.metadata.labels))
        .collect())
}

/// `GetPodPodDisruptionBudgets` (the PDB lister's expansion): the PDBs of the pod's namespace
/// whose non-empty selector matches the pod's labels; none for a pod without labels.
pub fn get_pod_pod_disruption_budgets<'a>(
    store: &'a Store,
    pod: &Pod,
) -> Vec<&'a PodDisruptionBudget> {
    if pod.metadata.labels.is_empty() {
        return vec![];
    }
    store
        .list::<PodDisruptionBudget>(Some(&pod.metadata.namespace))
        .filter(|pdb| {
            let Some(sel) = pdb
                .spec
                .selector
                .as_ref()
                .and_then(|s| label_selector_as_selector(s).ok())
            else {
                return false;
            };
            !sel.is_empty() && sel.matches(&pod.metadata.labels)
        })
        .collect()
}

/// `verifyGroupKind`: the reference's kind and API group.
fn verify_group_kind(r: &OwnerReference, kind: &str, groups: &[&str]) -> bool {
    let group = r.api_version.rsplit_once('/').map_or("", |(g, _)| g);
    r.kind == kind && groups.contains(&group)
}

/// `controllerAndScale`: a controller's UID and its desired replicas.
type ControllerAndScale = (String, i32);

/// The finders of `dc.finders()`: `getPodReplicationController`, `getPodDeployment` (the
/// Deployment of the pod's ReplicaSet), `getPodReplicaSet` (a ReplicaSet no Deployment
/// controls), `getPodStatefulSet`, then `getScaleController` for whatever none of them found.
fn find_controller(
    store: &Store,
    r: &OwnerReference,
    namespace: &str,
) -> Result<Option<ControllerAndScale>, String> {
    if verify_group_kind(r, "ReplicationController", &[""]) {
        if let Some(rc) = store
            .get::<ReplicationController>(namespace, &r.name)
            .filter(|rc| rc.metadata.uid == r.uid)
        {
            return Ok(Some((
                rc.metadata.uid.clone(),
                rc.spec.replicas.unwrap_or(1),
            )));
        }
    }
    if verify_group_kind(r, "ReplicaSet", &["apps", "extensions"]) {
        if let Some(rs) = store
            .get::<ReplicaSet>(namespace, &r.name)
            .filter(|rs| rs.metadata.uid == r.uid)
        {
            match rs.metadata.controller_ref() {
                Some(dr) if dr.kind == "Deployment" => {
                    // getPodDeployment; getPodReplicaSet skips a Deployment's ReplicaSet.
                    if verify_group_kind(dr, "Deployment", &["apps", "extensions"]) {
                        if let Some(d) = store
                            .get::<Deployment>(namespace, &dr.name)
                            .filter(|d| d.metadata.uid == dr.uid)
                        {
                            return Ok(Some((
                                d.metadata.uid.clone(),
                                d.spec.replicas.unwrap_or(1),
                            )));
                        }
                    }
                }
                _ => {
                    return Ok(Some((
                        rs.metadata.uid.clone(),
                        rs.spec.replicas.unwrap_or(1),
                    )))
                }
            }
        }
    }
    if verify_group_kind(r, "StatefulSet", &["apps"]) {
        if let Some(s) = store
            .get::<StatefulSet>(namespace, &r.name)
            .filter(|s| s.metadata.uid == r.uid)
        {
            return Ok(Some((s.metadata.uid.clone(), s.spec.replicas.unwrap_or(1))));
        }
    }
    get_scale_controller(store, r, namespace)
}

/// `getScaleController`: the REST mapping of the reference, then its scale subresource, which
/// kubeplay's ReplicaSets, Deployments, ReplicationControllers and StatefulSets serve (a missing
/// object is no controller; the Scale's uid is the object's) and its other kinds do not.
fn get_scale_controller(
    store: &Store,
    r: &OwnerReference,
    namespace: &str,
) -> Result<Option<ControllerAndScale>, String> {
    let kind = match crate::controllers::garbagecollector::api_resource(&r.api_version, &r.kind) {
        Ok((kind, _)) => kind,
        Err(_) => {
            let group = r.api_version.rsplit_once('/').map_or("", |(g, _)| g);
            let version = r.api_version.rsplit('/').next().unwrap_or_default();
            return Err(format!(
                "no matches for kind {:?} in version {:?}",
                r.kind,
                if group.is_empty() {
                    version.to_string()
                } else {
                    format!("{group}/{version}")
                }
            ));
        }
    };
    fn scale_of<T: Resource>(
        store: &Store,
        namespace: &str,
        name: &str,
        replicas: impl Fn(&T) -> Option<i32>,
    ) -> Option<ControllerAndScale> {
        store
            .get::<T>(namespace, name)
            .map(|o| (o.meta().uid.clone(), replicas(o).unwrap_or(1)))
    }
    let scale = match kind {
        "ReplicaSet" => scale_of::<ReplicaSet>(store, namespace, &r.name, |o| o.spec.replicas),
        "Deployment" => scale_of::<Deployment>(store, namespace, &r.name, |o| o.spec.replicas),
        "ReplicationController" => {
            scale_of::<ReplicationController>(store, namespace, &r.name, |o| o.spec.replicas)
        }
        "StatefulSet" => scale_of::<StatefulSet>(store, namespace, &r.name, |o| o.spec.replicas),
        _ => {
            let (_, plural, group, _) = crate::api::kind_info(kind).unwrap_or_default();
            let gr = if group.is_empty() {
                plural.to_string()
            } else {
                format!("{plural}.{group}")
            };
            return Err(format!("{gr} does not implement the scale subresource"));
        }
    };
    Ok(scale.filter(|(uid, _)| *uid == r.uid))
}

/// `getExpectedScale`: the sum of the desired scale of the pods' controllers, and the names of
/// the pods without a controller.
///
/// # Errors
/// `found no controllers for pod "NAME"`, or a finder's error.
pub fn get_expected_scale(store: &Store, pods: &[&Pod]) -> Result<(i32, Vec<String>), String> {
    let mut scale: BTreeMap<String, i32> = BTreeMap::new();
    let mut unmanaged = vec![];
    for pod in pods {
        let Some(r) = pod.metadata.controller_ref() else {
            unmanaged.push(pod.metadata.name.clone());
            continue;
        };
        if scale.contains_key(&r.uid) {
            continue;
        }
        match find_controller(store, r, &pod.metadata.namespace)? {
            Some((uid, n)) => {
                scale.insert(uid, n);
            }
            None => {
                return Err(format!(
                    "found no controllers for pod {:?}",
                    pod.metadata.name
                ))
            }
        }
    }
    Ok((scale.values().sum(), unmanaged))
}

/// `getExpectedPodCount`: (expectedCount, desiredHealthy, unmanagedPods).
///
/// # Errors
/// As [`get_expected_scale`] or `GetScaledValueFromIntOrPercent`.
pub fn get_expected_pod_count(
    store: &Store,
    pdb: &PodDisruptionBudget,
    pods: &[&Pod],
) -> Result<(i32, i32, Vec<String>), String> {
    if let Some(mu) = &pdb.spec.max_unavailable {
        let (expected, unmanaged) = get_expected_scale(store, pods)?;
        let max_unavailable = get_scaled_value_from_int_or_percent(Some(mu), expected, true)?;
        return Ok((expected, (expected - max_unavailable).max(0), unmanaged));
    }
    match &pdb.spec.min_available {
        Some(IntOrString::Int(n)) => Ok((pods.len() as i32, *n, vec![])),
        Some(ma) => {
            let (expected, unmanaged) = get_expected_scale(store, pods)?;
            let min_available = get_scaled_value_from_int_or_percent(Some(ma), expected, true)?;
            Ok((expected, min_available, unmanaged))
        }
        None => Ok((0, 0, vec![])),
    }
}

/// `countHealthyPods`: ready pods neither being deleted nor recently disrupted.
pub fn count_healthy_pods(pods: &[&Pod], disrupted: &BTreeMap<String, Time>, now: Time) -> i32 {
    pods.iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| {
            disrupted
                .get(&p.metadata.name)
                .is_none_or(|t| *t + DELETION_TIMEOUT <= now)
        })
        .filter(|p| is_pod_ready(p))
        .count() as i32
}

/// `buildDisruptedPodMap`: the `disruptedPods` entries still pending (pod present, not being
/// deleted, within `DeletionTimeout`), the pods whose deadline passed (for the `NotDeleted`
/// event), and the earliest deadline to recheck at.
pub fn build_disrupted_pod_map(
    pods: &[&Pod],
    pdb: &PodDisruptionBudget,
    now: Time,
) -> (BTreeMap<String, Time>, Vec<String>, Option<Time>) {
    let mut result = BTreeMap::new();
    let mut not_deleted = vec![];
    let mut recheck: Option<Time> = None;
    for pod in pods {
        if pod.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let Some(t) = pdb.status.disrupted_pods.get(&pod.metadata.name) else {
            continue;
        };
        let expected_deletion = *t + DELETION_TIMEOUT;
        if expected_deletion < now {
            not_deleted.push(pod.metadata.name.clone());
        } else {
            if recheck.is_none_or(|r| expected_deletion < r) {
                recheck = Some(expected_deletion);
            }
            result.insert(pod.metadata.name.clone(), *t);
        }
    }
    (result, not_deleted, recheck)
}

/// `apimeta.SetStatusCondition`.
pub fn set_status_condition(conditions: &mut Vec<Condition>, mut c: Condition, now: Time) {
    let Some(existing) = conditions.iter_mut().find(|x| x.type_ == c.type_) else {
        if c.last_transition_time.is_none() {
            c.last_transition_time = Some(now);
        }
        conditions.push(c);
        return;
    };
    if existing.status != c.status {
        existing.status = c.status;
        existing.last_transition_time = Some(c.last_transition_time.unwrap_or(now));
    }
    existing.reason = c.reason;
    existing.message = c.message;
    existing.observed_generation = c.observed_generation;
}

/// `UpdateDisruptionAllowedCondition` (k8s.io/component-helpers/apps/poddisruptionbudget).
pub fn update_disruption_allowed_condition(pdb: &mut PodDisruptionBudget, now: Time) {
    let (status, reason) = if pdb.status.disruptions_allowed > 0 {
        ("True", SUFFICIENT_PODS_REASON)
    } else {
        ("False", INSUFFICIENT_PODS_REASON)
    };
    let c = Condition {
        type_: DISRUPTION_ALLOWED_CONDITION.into(),
        status: status.into(),
        observed_generation: pdb.status.observed_generation,
        last_transition_time: None,
        reason: reason.into(),
        message: String::new(),
    };
    set_status_condition(&mut pdb.status.conditions, c, now);
}

/// `ConditionsAreUpToDate`.
pub fn conditions_are_up_to_date(pdb: &PodDisruptionBudget) -> bool {
    let Some(c) = pdb
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == DISRUPTION_ALLOWED_CONDITION)
    else {
        return false;
    };
    if pdb.status.observed_generation != pdb.metadata.generation {
        return false;
    }
    if pdb.status.disruptions_allowed > 0 {
        c.status == "True" && c.reason == SUFFICIENT_PODS_REASON
    } else {
        c.status == "False" && c.reason == INSUFFICIENT_PODS_REASON
    }
}

/// `updatePdbStatus`: the new status, or `None` when the stored one is already current.
pub fn compute_pdb_status(
    pdb: &PodDisruptionBudget,
    current_healthy: i32,
    desired_healthy: i32,
    expected_count: i32,
    disrupted_pods: BTreeMap<String, Time>,
    now: Time,
) -> Option<PodDisruptionBudget> {
    // expectedCount must be > 0 so that PDBs matching no pods yet are safe when their first
    // pods appear before this controller updates them.
    let mut disruptions_allowed = current_healthy - desired_healthy;
    if expected_count <= 0 || disruptions_allowed <= 0 {
        disruptions_allowed = 0;
    }
    let s = &pdb.status;
    if s.current_healthy == current_healthy
        && s.desired_healthy == desired_healthy
        && s.expected_pods == expected_count
        && s.disruptions_allowed == disruptions_allowed
        && s.disrupted_pods == disrupted_pods
        && s.observed_generation == pdb.metadata.generation
        && conditions_are_up_to_date(pdb)
    {
        return None;
    }
    let mut new = pdb.clone();
    new.status.current_healthy = current_healthy;
    new.status.desired_healthy = desired_healthy;
    new.status.expected_pods = expected_count;
    new.status.disruptions_allowed = disruptions_allowed;
    new.status.disrupted_pods = disrupted_pods;
    new.status.observed_generation = pdb.metadata.generation;
    update_disruption_allowed_condition(&mut new, now);
    Some(new)
}

impl DisruptionController {
    /// `trySync`.
    fn try_sync(&self, pdb: &PodDisruptionBudget, ctx: &mut Ctx) -> Result<(), SyncError> {
        let pods: Vec<Pod> = match get_pods_for_pdb(ctx.store(), pdb) {
            Ok(p) => p.into_iter().cloned().collect(),
            Err(e) => {
                ctx.event_on(
                    pdb,
                    "Warning",
                    "NoPods",
                    &format!("Failed to get pods: {e}"),
                );
                return Err(SyncError::Other(e));
            }
        };
        if pods.is_empty() {
            ctx.event_on(pdb, "Normal", "NoPods", "No matching pods found");
        }
        let refs: Vec<&Pod> = pods.iter().collect();
        let (expected, desired, unmanaged) = match get_expected_pod_count(ctx.store(), pdb, &refs) {
            Ok(x) => x,
            Err(e) => {
                ctx.event_on(
                    pdb,
                    "Warning",
                    "CalculateExpectedPodCountFailed",
                    &format!("Failed to calculate the number of expected pods: {e}"),
                );
                return Err(SyncError::Other(e));
            }
        };
        if !unmanaged.is_empty() {
            let sel = pdb
                .spec
                .selector
                .as_ref()
                .map_or_else(|| "nil".to_string(), go_label_selector);
            ctx.event_on(
                pdb,
                "Warning",
                "UnmanagedPods",
                &format!(
                    "Pods selected by this PodDisruptionBudget (selector: {sel}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value."
                ),
            );
        }
        let now = ctx.now();
        let (disrupted, not_deleted, recheck) = build_disrupted_pod_map(&refs, pdb, now);
        for name in not_deleted {
            if let Some(p) = pods.iter().find(|p| p.metadata.name == name) {
                // Upstream passes the namespace twice (`pdb.Namespace, pdb.Namespace`).
                ctx.event_on(
                    p,
                    "Warning",
                    "NotDeleted",
                    &format!(
                        "Pod was expected by PDB {}/{} to be deleted but it wasn't",
                        pdb.metadata.namespace, pdb.metadata.namespace
                    ),
                );
            }
        }
        let healthy = count_healthy_pods(&refs, &disrupted, now);
        if let Some(new) = compute_pdb_status(pdb, healthy, desired, expected, disrupted, now) {
            ctx.update_status(new.into_object())
                .map_err(SyncError::Api)?;
        }
        if let Some(t) = recheck {
            // enqueuePdbForRecheck: the recheck queue's AddAfter.
            ctx.requeue_after(&[RECHECK_PREFIX, &pdb.metadata.key()].concat(), t - now);
        }
        Ok(())
    }

    /// `getPdbForPod`: the first budget matching the pod; a pod matching several gets a
    /// `MultiplePodDisruptionBudgets` warning naming the one chosen.
    fn get_pdb_for_pod(&mut self, store: &Store, pod: &Pod) -> Option<String> {
        let pdbs = get_pod_pod_disruption_budgets(store, pod);
        let first = pdbs.first()?;
        if pdbs.len() > 1 {
            let msg = format!(
                "Pod {:?}/{:?} matches multiple PodDisruptionBudgets.  Chose {:?} arbitrarily.",
                pod.metadata.namespace, pod.metadata.name, first.metadata.name
            );
            self.pending_events.push((pod.metadata.clone(), msg));
        }
        Some(first.metadata.key())
    }

    /// `addPod` / `updatePod`: the pod's budget, and the stale-condition cleanup when due.
    fn add_or_update_pod(&mut self, store: &Store, pod: &Pod, queue: &mut WorkQueue, now: Time) {
        if let Some(key) = self.get_pdb_for_pod(store, pod) {
            queue.add_owned(key);
        }
        if let Some(clean_after) = non_terminating_pod_has_stale_disruption_condition(pod, now) {
            queue.add_after(
                &[STALE_PREFIX, &pod.metadata.key()].concat(),
                clean_after,
                now,
            );
        }
    }

    /// Records the events the informer handlers produced.
    fn flush_events(&mut self, ctx: &mut Ctx) {
        for (meta, msg) in std::mem::take(&mut self.pending_events) {
            ctx.event(
                &("Pod", meta),
                "Warning",
                "MultiplePodDisruptionBudgets",
                &msg,
            );
        }
    }

    /// `syncStalePodDisruption`: resets a stale `DisruptionTarget` condition to `False` (no
    /// reason or message, as upstream's `UpdatePodCondition` call), or waits until it is stale.
    fn sync_stale_pod_disruption(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(pod) = ctx.store().get::<Pod>(ns, name) else {
            return Ok(());
        };
        let now = ctx.now();
        let Some(clean_after) = non_terminating_pod_has_stale_disruption_condition(pod, now) else {
            return Ok(());
        };
        if clean_after.0 > 0 {
            ctx.requeue_after(&[STALE_PREFIX, key].concat(), clean_after);
            return Ok(());
        }
        let mut new_pod = pod.clone();
        let c = PodCondition {
            type_: DISRUPTION_TARGET.into(),
            // PodObservedGenerationTracking (GA): the pod's generation.
            observed_generation: new_pod.metadata.generation,
            status: "False".into(),
            last_probe_time: None,
            last_transition_time: None,
            reason: String::new(),
            message: String::new(),
        };
        if !crate::kubelet_status::update_pod_condition(
            &mut new_pod.status.conditions,
            c,
            now.trunc_secs(),
        ) {
            return Ok(());
        }
        ctx.update_status(Object::Pod(new_pod)).map(|_| ())
    }

    /// `failSafe`: `disruptionsAllowed` 0 and a False `SyncFailed` condition.
    fn fail_safe(
        &self,
        pdb: &PodDisruptionBudget,
        err: &SyncError,
        ctx: &mut Ctx,
    ) -> Result<(), ApiError> {
        let mut new = pdb.clone();
        new.status.disruptions_allowed = 0;
        let c = Condition {
            type_: DISRUPTION_ALLOWED_CONDITION.into(),
            status: "False".into(),
            observed_generation: new.status.observed_generation,
            last_transition_time: None,
            reason: SYNC_FAILED_REASON.into(),
            message: err.to_string(),
        };
        set_status_condition(&mut new.status.conditions, c, ctx.now());
        ctx.update_status(new.into_object()).map(|_| ())
    }
}

/// The `DisruptionTarget` pod condition type.
pub const DISRUPTION_TARGET: &str = "DisruptionTarget";

/// `nonTerminatingPodHasStaleDisruptionCondition`: for a pod not being deleted, not terminal,
/// with a `True` `DisruptionTarget` condition not set by the kubelet
/// (`TerminationByKubelet`), how long until the condition is stale (zero when it already is).
pub fn non_terminating_pod_has_stale_disruption_condition(
    pod: &Pod,
    now: Time,
) -> Option<Duration> {
    if pod.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let cond = pod.condition(DISRUPTION_TARGET)?;
    if cond.status != "True"
        || cond.reason == "TerminationByKubelet"
        || matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
    {
        return None;
    }
    // A zero lastTransitionTime is year 1: long stale.
    let since = cond
        .last_transition_time
        .map_or(Duration(i64::MAX), |t| now - t);
    Some(Duration(
        STALE_POD_DISRUPTION_TIMEOUT
            .0
            .saturating_sub(since.0)
            .max(0),
    ))
}

/// `%v` of a `*metav1.LabelSelector` in the UnmanagedPods event (its generated `String()`).
fn go_label_selector(s: &crate::api::LabelSelector) -> String {
    let labels = s
        .match_labels
        .as_ref()
        .map(|m| {
            let kv: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {v},")).collect();
            format!("map[string]string{{{}}}", kv.join(""))
        })
        .unwrap_or_else(|| "map[string]string{}".into());
    let exprs: Vec<String> = s
        .match_expressions
        .iter()
        .flatten()
        .map(|e| {
            format!(
                "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
                e.key,
                e.operator,
                e.values.clone().unwrap_or_default().join(" ")
            )
        })
        .collect();
    format!(
        "&LabelSelector{{MatchLabels:{labels},MatchExpressions:[]LabelSelectorRequirement{{{}}},}}",
        exprs.join("")
    )
}

impl Controller for DisruptionController {
    fn name(&self) -> &'static str {
        COMPONENT
    }

    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time) {
        match (change.old_obj(), change.new_obj()) {
            // addDb / updateDb (deletes need no sync: the PDB is gone).
            (_, Some(Object::PodDisruptionBudget(p))) => queue.add(&p.metadata.key()),
            // addPod / updatePod: the pod's (first) PDB and the stale-condition check.
            (_, Some(Object::Pod(p))) => self.add_or_update_pod(store, p, queue, now),
            // deletePod: the pod's (first) PDB.
            (Some(Object::Pod(p)), None) => {
                if let Some(key) = self.get_pdb_for_pod(store, p) {
                    queue.add_owned(key);
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        ctx.component = EVENT_SOURCE;
        self.flush_events(ctx);
        if let Some(pdb_key) = key.strip_prefix(RECHECK_PREFIX) {
            // processNextRecheckWorkItem.
            let now = ctx.now();
            ctx.queue.add_rate_limited(pdb_key, now);
            return Ok(());
        }
        if let Some(pod_key) = key.strip_prefix(STALE_PREFIX) {
            return self.sync_stale_pod_disruption(pod_key, ctx);
        }
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(pdb) = ctx.store().get::<PodDisruptionBudget>(ns, name).cloned() else {
            return Ok(());
        };
        match self.try_sync(&pdb, ctx) {
            Ok(()) => Ok(()),
            Err(SyncError::Api(e)) if e.reason == crate::api::Reason::Conflict => Err(e),
            Err(e) => self.fail_safe(&pdb, &e, ctx),
        }
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for p in store.list::<PodDisruptionBudget>(None) {
            queue.add(&p.metadata.key());
        }
    }

    /// The informers' initial list: `addDB` for every budget, then `addPod` for every pod
    /// (its budget, a `MultiplePodDisruptionBudgets` warning, the stale-condition check).
    fn resync_all_at(&mut self, store: &Store, queue: &mut WorkQueue, now: Time) {
        self.resync_all(store, queue);
        for p in store.list::<Pod>(None) {
            self.add_or_update_pod(store, p, queue, now);
        }
    }

    fn reset(&mut self) {
        self.pending_events.clear();
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
#[path = "disruption_tests.rs"]
mod tests;
