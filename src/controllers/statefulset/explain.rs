//! Why each StatefulSet pod is where it is: ordinal slots, claims, the OrderedReady gate, the
//! partition and revisions, derived from the controller's own predicates (what the page shows).
//!
//! [`explain_stateful_set`] walks the pods exactly as one sync of
//! [`update_stateful_set_pods`](super::stateful_set_control::update_stateful_set_pods) would —
//! replicas by ascending ordinal (`processReplica`), then condemned pods by descending ordinal
//! (`processCondemned`), then the rolling update from the highest ordinal down to the partition —
//! and records, instead of acting, which pod the walk stops at and why.

use super::stateful_set_utils::{
    allows_burst, get_ordinal, get_persistent_volume_claims, get_pod_name, get_pod_revision,
    get_start_ordinal, is_created, is_failed, is_running_and_available, is_running_and_ready,
    is_succeeded, is_terminating, is_unavailable, pod_in_ordinal_range,
};
use crate::api::{PersistentVolumeClaim, Pod, StatefulSet, Time, ON_DELETE_STRATEGY};
use crate::features::FeatureGates;
use crate::store::Store;
use serde::Serialize;

/// One claim of a pod (from a volume claim template).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimExplanation {
    pub name: String,
    /// The claim exists in the API.
    pub exists: bool,
    /// `status.phase` (`Bound`, `Pending`), "" when missing.
    pub phase: String,
}

/// One ordinal of the set (a replica slot or a condemned pod above `replicas`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotExplanation {
    pub ordinal: i32,
    pub name: String,
    /// The pod exists in the API.
    pub exists: bool,
    pub phase: String,
    pub ready: bool,
    pub terminating: bool,
    /// The pod's controller-revision-hash ("" when missing).
    pub revision: String,
    /// `update` (at the update revision), `current` (at the current revision, older than the
    /// update revision), `other`, or "" when the pod does not exist.
    pub revision_kind: String,
    /// The ordinal is above `replicas`: the pod is to be deleted (scale down).
    pub condemned: bool,
    /// RollingUpdate with a partition, and this slot is below it: it keeps the current revision.
    pub below_partition: bool,
    pub claims: Vec<ClaimExplanation>,
    /// What this pod itself is doing ("Running and Ready", "created on the next sync", ...).
    pub state: String,
    /// The pod this one waits for ("" when it waits for nothing).
    pub waits_for: String,
    /// Why it waits: `web-2 waits for web-1 to be Running and Ready` ("" when it does not).
    pub gate: String,
}

/// The explanation of one StatefulSet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetExplanation {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub replicas: i32,
    /// `OrderedReady` or `Parallel`.
    pub pod_management_policy: String,
    /// `RollingUpdate` or `OnDelete`.
    pub update_strategy: String,
    /// `rollingUpdate.partition` (0 when unset or OnDelete).
    pub partition: i32,
    pub current_revision: String,
    pub update_revision: String,
    pub ready_replicas: i32,
    pub current_replicas: i32,
    pub updated_replicas: i32,
    /// Slots by ascending ordinal (replicas first, then condemned pods).
    pub slots: Vec<SlotExplanation>,
    /// One sentence on what the controller does next.
    pub summary: String,
}

/// What blocks a monotonic walk: the pod's name and what it must do.
type Blocker = (String, String);

/// Explains `set` given its pods (those it controls) and the claims of its namespace.
pub fn explain_stateful_set(
    set: &StatefulSet,
    pods: &[&Pod],
    claims: &[&PersistentVolumeClaim],
    now: Time,
    gates: &FeatureGates,
) -> StatefulSetExplanation {
    let mrs = set.spec.min_ready_seconds;
    let start = get_start_ordinal(set, gates);
    let replica_count = set.replicas().max(0) as usize;
    let monotonic = !allows_burst(set);
    let cur = set.status.current_revision.as_str();
    let upd = set.status.update_revision.as_str();
    let on_delete = set.spec.update_strategy.type_ == ON_DELETE_STRATEGY;
    let partition = if on_delete {
        0
    } else {
        set.spec
            .update_strategy
            .rolling_update
            .as_ref()
            .and_then(|r| r.partition)
            .unwrap_or(0)
    };

    let mut replicas: Vec<Option<&Pod>> = vec![None; replica_count];
    let mut condemned: Vec<&Pod> = vec![];
    for &p in pods {
        if pod_in_ordinal_range(p, set, gates) {
            replicas[(get_ordinal(p) - start) as usize] = Some(p);
        } else if get_ordinal(p) >= 0 {
            condemned.push(p);
        }
    }
    // Descending ordinal, then name (explicit tie-breaker).
    crate::sort::sort_by(&mut condemned, |a, b| {
        get_ordinal(b)
            .cmp(&get_ordinal(a))
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });

    let slot_of = |ordinal: i32, pod: Option<&Pod>, condemned: bool, index: usize| {
        let name = pod
            .map(|p| p.metadata.name.clone())
            .unwrap_or_else(|| get_pod_name(set, ordinal));
        let revision = pod
            .map(|p| get_pod_revision(p).to_string())
            .unwrap_or_default();
        let revision_kind = match pod {
            None => "",
            Some(_) if !upd.is_empty() && revision == upd => "update",
            Some(_) if !cur.is_empty() && revision == cur => "current",
            Some(_) => "other",
        };
        // The claims the pod needs, by the controller's own naming.
        let template_pod = Pod {
            metadata: crate::api::ObjectMeta {
                name: name.clone(),
                ..Default::default()
            },
            ..Default::default()
        };
        let claims = get_persistent_volume_claims(set, &template_pod)
            .into_iter()
            .map(|(_, c)| {
                let found = claims.iter().find(|x| x.metadata.name == c.metadata.name);
                ClaimExplanation {
                    name: c.metadata.name,
                    exists: found.is_some(),
                    phase: found.map(|x| x.status.phase.clone()).unwrap_or_default(),
                }
            })
            .collect();
        SlotExplanation {
            ordinal,
            name,
            exists: pod.is_some(),
            phase: pod.map(|p| p.status.phase.clone()).unwrap_or_default(),
            ready: pod.is_some_and(is_running_and_ready),
            terminating: pod.is_some_and(is_terminating),
            revision,
            revision_kind: revision_kind.into(),
            condemned,
            below_partition: !condemned && !on_delete && (index as i32) < partition,
            claims,
            state: String::new(),
            waits_for: String::new(),
            gate: String::new(),
        }
    };
    let mut slots: Vec<SlotExplanation> = replicas
        .iter()
        .enumerate()
        .map(|(i, p)| slot_of(start + i as i32, *p, false, i))
        .collect();
    let mut condemned_slots: Vec<SlotExplanation> = condemned
        .iter()
        .map(|p| slot_of(get_ordinal(p), Some(p), true, 0))
        .collect();

    let wait = |slot: &mut SlotExplanation, (b, what): &Blocker| {
        slot.waits_for = b.clone();
        slot.gate = format!("{} waits for {b} to {what}", slot.name);
    };

    // processReplica, by ascending ordinal.
    let mut blocker: Option<Blocker> = None;
    for (i, slot) in slots.iter_mut().enumerate() {
        let pod = replicas[i];
        slot.state = replica_state(pod, mrs, now);
        if let Some(b) = &blocker {
            wait(slot, b);
            continue;
        }
        if !monotonic {
            continue;
        }
        let what = match pod {
            Some(p) if is_failed(p) || is_succeeded(p) => {
                Some("be deleted and recreated".to_string())
            }
            None => Some("be created, Running and Ready".to_string()),
            Some(p) if !is_created(p) => Some("be created, Running and Ready".to_string()),
            Some(p) if is_terminating(p) => Some("terminate and be recreated".to_string()),
            Some(p) if !is_running_and_ready(p) => Some("be Running and Ready".to_string()),
            Some(p) if !is_running_and_available(p, mrs, now) => {
                Some(format!("be available (minReadySeconds: {mrs})"))
            }
            Some(_) => None,
        };
        if let Some(what) = what {
            blocker = Some((slot.name.clone(), what));
        }
    }

    // The first unavailable pod (replicas by ascending ordinal, then condemned from the lowest).
    // A missing replica counts: the controller's placeholder pod has no status.
    let first_unavailable: Option<String> = replicas
        .iter()
        .zip(&slots)
        .map(|(p, s)| (s.name.clone(), *p))
        .chain(
            condemned
                .iter()
                .rev()
                .map(|p| (p.metadata.name.clone(), Some(*p))),
        )
        .find(|(_, p)| p.is_none_or(|p| is_unavailable(p, mrs, now)))
        .map(|(n, _)| n);

    // processCondemned, by descending ordinal.
    for (i, slot) in condemned_slots.iter_mut().enumerate() {
        let pod = condemned[i];
        slot.state = if is_terminating(pod) {
            "terminating (scale down)".into()
        } else {
            "to be deleted (scale down, highest ordinal first)".into()
        };
        if let Some(b) = &blocker {
            wait(slot, b);
            continue;
        }
        if !monotonic {
            continue;
        }
        let is_first = first_unavailable.as_deref() == Some(pod.metadata.name.as_str());
        if is_terminating(pod) {
            blocker = Some((slot.name.clone(), "terminate".into()));
        } else if !is_running_and_ready(pod) && !is_first {
            let f = first_unavailable.clone().unwrap_or_default();
            blocker = Some((f, "be Running and Ready".into()));
            wait(slot, blocker.as_ref().expect("just set"));
        } else if !is_running_and_available(pod, mrs, now) && !is_first {
            let f = first_unavailable.clone().unwrap_or_default();
            blocker = Some((f, format!("be available (minReadySeconds: {mrs})")));
            wait(slot, blocker.as_ref().expect("just set"));
        } else {
            slot.state = "deleted next (scale down, highest ordinal first)".into();
            blocker = Some((slot.name.clone(), "terminate".into()));
        }
    }

    // The rolling update: only reached when nothing above stopped the sync.
    let mut summary = match &blocker {
        Some((b, what)) if monotonic => {
            format!("OrderedReady: the controller waits for {b} to {what}.")
        }
        _ => String::new(),
    };
    if on_delete {
        for slot in slots.iter_mut().filter(|s| s.revision_kind == "current") {
            slot.state = format!("{}; OnDelete: updated only when you delete it", slot.state);
        }
    } else if gates.enabled("MaxUnavailableStatefulSet") {
        // Several pods may be replaced at once (maxUnavailable): no one-by-one gate to show.
    } else {
        let mut update_blocker: Option<Blocker> = None;
        for (i, slot) in slots.iter_mut().enumerate().rev() {
            if (i as i32) < partition {
                if slot.revision_kind == "current" || slot.revision_kind == "other" {
                    slot.state = format!(
                        "{}; below the partition ({partition}): keeps its revision",
                        slot.state
                    );
                }
                continue;
            }
            let Some(pod) = replicas[i] else { continue };
            if let Some(b) = &update_blocker {
                if slot.gate.is_empty() && get_pod_revision(pod) != upd {
                    wait(slot, b);
                }
                continue;
            }
            if get_pod_revision(pod) != upd && !is_terminating(pod) {
                slot.state = format!("{}; replaced next by the rolling update", slot.state);
                update_blocker = Some((
                    slot.name.clone(),
                    "be replaced at the update revision".into(),
                ));
                if blocker.is_none() {
                    summary = format!(
                        "RollingUpdate: {} is deleted next and recreated at {upd}.",
                        slot.name
                    );
                }
            } else if is_unavailable(pod, mrs, now) {
                update_blocker = Some((slot.name.clone(), "be Running and Ready".into()));
            }
        }
    }
    let kept: Vec<&str> = slots
        .iter()
        .filter(|s| s.below_partition && s.exists && s.revision_kind != "update")
        .map(|s| s.name.as_str())
        .collect();
    if summary.is_empty() && !kept.is_empty() && !upd.is_empty() {
        summary = format!(
            "Partition {partition}: the rolling update stops at ordinal {partition}; {} keep the current revision until the partition is lowered.",
            kept.join(", ")
        );
    }
    if summary.is_empty() {
        summary = if !monotonic {
            "Parallel: pods are created and deleted without waiting for each other.".into()
        } else {
            "Every pod is Running and Ready; nothing to wait for.".into()
        };
    }

    slots.extend(condemned_slots.into_iter().rev());
    StatefulSetExplanation {
        namespace: set.metadata.namespace.clone(),
        name: set.metadata.name.clone(),
        uid: set.metadata.uid.clone(),
        replicas: set.replicas(),
        pod_management_policy: if set.spec.pod_management_policy.is_empty() {
            "OrderedReady".into()
        } else {
            set.spec.pod_management_policy.clone()
        },
        update_strategy: if set.spec.update_strategy.type_.is_empty() {
            "RollingUpdate".into()
        } else {
            set.spec.update_strategy.type_.clone()
        },
        partition,
        current_revision: cur.into(),
        update_revision: upd.into(),
        ready_replicas: set.status.ready_replicas,
        current_replicas: set.status.current_replicas,
        updated_replicas: set.status.updated_replicas,
        slots,
        summary,
    }
}

/// A replica's own state in words.
fn replica_state(pod: Option<&Pod>, mrs: i32, now: Time) -> String {
    match pod {
        None => "not created yet".into(),
        Some(p) if is_terminating(p) => "terminating".into(),
        Some(p) if is_failed(p) => "Failed: deleted and recreated".into(),
        Some(p) if is_succeeded(p) => "Succeeded: deleted and recreated".into(),
        Some(p) if is_running_and_available(p, mrs, now) => "Running and Ready".into(),
        Some(p) if is_running_and_ready(p) => {
            format!("Running and Ready, not yet available (minReadySeconds: {mrs})")
        }
        Some(p) => {
            let reason = p
                .status
                .container_statuses
                .iter()
                .find_map(|c| c.state.as_ref()?.waiting.as_ref().map(|w| w.reason.clone()))
                .filter(|r| !r.is_empty());
            let phase = if p.status.phase.is_empty() {
                "Pending"
            } else {
                p.status.phase.as_str()
            };
            match reason {
                Some(r) => format!("{phase}, not ready ({r})"),
                None => format!("{phase}, not ready"),
            }
        }
    }
}

/// Every StatefulSet in the store, explained (by namespace and name).
pub fn explain_stateful_sets_in_store(
    store: &Store,
    now: Time,
    gates: &FeatureGates,
) -> Vec<StatefulSetExplanation> {
    store
        .list::<StatefulSet>(None)
        .map(|set| {
            let ns = Some(set.metadata.namespace.as_str());
            let pods: Vec<&Pod> = store
                .list::<Pod>(ns)
                .filter(|p| {
                    p.metadata
                        .controller_ref()
                        .is_some_and(|r| r.uid == set.metadata.uid)
                })
                .collect();
            let claims: Vec<&PersistentVolumeClaim> =
                store.list::<PersistentVolumeClaim>(ns).collect();
            explain_stateful_set(set, &pods, &claims, now, gates)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Duration;
    use crate::sim::Simulation;

    fn scenario_at(name: &str, secs: i64) -> Simulation {
        let text = crate::scenario::builtin::get(name).unwrap();
        let mut sim = crate::scenario::Scenario::parse(text)
            .unwrap()
            .build()
            .unwrap();
        sim.run_for(Duration::from_secs(secs)).unwrap();
        sim
    }

    fn web(sim: &Simulation) -> StatefulSetExplanation {
        explain_stateful_sets_in_store(&sim.api.store, sim.now(), sim.gates())
            .into_iter()
            .find(|e| e.name == "web")
            .unwrap()
    }

    fn gates(e: &StatefulSetExplanation) -> Vec<(&str, &str)> {
        e.slots
            .iter()
            .map(|s| (s.name.as_str(), s.gate.as_str()))
            .collect()
    }

    /// OrderedReady: web-0 needs 30 s to become ready, so web-1 and web-2 wait for it (the
    /// controller has not created them).
    #[test]
    fn ordered_ready_gate() {
        let sim = scenario_at("statefulset-ordered-failure", 10);
        let e = web(&sim);
        assert_eq!(e.pod_management_policy, "OrderedReady");
        assert_eq!(
            gates(&e),
            [
                ("web-0", ""),
                ("web-1", "web-1 waits for web-0 to be Running and Ready"),
                ("web-2", "web-2 waits for web-0 to be Running and Ready"),
            ]
        );
        assert!(e.slots[0].exists && !e.slots[0].ready);
        assert!(!e.slots[1].exists && !e.slots[2].exists);
        assert_eq!(
            e.summary,
            "OrderedReady: the controller waits for web-0 to be Running and Ready."
        );
        // Once all are up, no gate is left.
        let sim = scenario_at("statefulset-ordered-failure", 110);
        let e = web(&sim);
        assert!(
            e.slots.iter().all(|s| s.gate.is_empty() && s.ready),
            "{e:?}"
        );
        assert_eq!(
            e.summary,
            "Every pod is Running and Ready; nothing to wait for."
        );
    }

    /// Parallel: nobody waits for the slow web-0.
    #[test]
    fn parallel_has_no_gate() {
        let sim = scenario_at("statefulset-parallel", 10);
        let e = web(&sim);
        assert_eq!(e.pod_management_policy, "Parallel");
        assert!(!e.slots[0].ready && e.slots[1].ready && e.slots[2].ready);
        assert!(e.slots.iter().all(|s| s.gate.is_empty()), "{e:?}");
        assert_eq!(
            e.summary,
            "Parallel: pods are created and deleted without waiting for each other."
        );
    }

    /// Claims are named `<template>-<set>-<ordinal>` and shown per slot.
    #[test]
    fn claims_per_ordinal() {
        let sim = scenario_at("statefulset-web", 60);
        let e = web(&sim);
        let claims: Vec<(&str, bool)> = e
            .slots
            .iter()
            .flat_map(|s| s.claims.iter().map(|c| (c.name.as_str(), c.exists)))
            .collect();
        assert_eq!(
            claims,
            [
                ("www-web-0", true),
                ("www-web-1", true),
                ("www-web-2", true)
            ]
        );
        // Scale down to 1 at 1m30s: web-2 goes first, web-1 waits for it to terminate.
        let mut sim = scenario_at("statefulset-web", 90);
        sim.run_for(Duration::from_millis(100)).unwrap();
        let e = web(&sim);
        assert_eq!(e.replicas, 1);
        let names: Vec<&str> = e.slots.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["web-0", "web-1", "web-2"]);
        assert!(e.slots[1].condemned && e.slots[2].condemned);
        assert!(e.slots[2].terminating, "{e:?}");
        assert_eq!(e.slots[1].gate, "web-1 waits for web-2 to terminate");
    }

    /// A partitioned update: web-2 (ordinal ≥ 2) is at the update revision, web-0 and web-1
    /// stay at the current one, below the partition.
    #[test]
    fn partition_and_revisions() {
        let sim = scenario_at("statefulset-canary", 100);
        let e = web(&sim);
        assert_eq!(e.partition, 2);
        assert_ne!(e.current_revision, e.update_revision);
        let kinds: Vec<(&str, bool)> = e
            .slots
            .iter()
            .map(|s| (s.revision_kind.as_str(), s.below_partition))
            .collect();
        assert_eq!(
            kinds,
            [("current", true), ("current", true), ("update", false)]
        );
        assert!(e.slots[0].state.contains("below the partition (2)"));
        assert_eq!(
            e.summary,
            "Partition 2: the rolling update stops at ordinal 2; web-0, web-1 keep the current revision until the partition is lowered."
        );
        // Partition lowered to 0 at 3m: the update reaches every pod.
        let sim = scenario_at("statefulset-canary", 290);
        let e = web(&sim);
        assert_eq!(e.partition, 0);
        assert!(e.slots.iter().all(|s| s.revision_kind == "update"), "{e:?}");
    }

    /// The forced-rollback trap: after the revert, the update revision is the old one again, but
    /// the broken web-2 (at the bad revision) still blocks: the controller waits for it.
    #[test]
    fn forced_rollback_trap() {
        let sim = scenario_at("statefulset-forced-rollback", 250);
        let e = web(&sim);
        let w2 = &e.slots[2];
        assert_eq!(w2.revision_kind, "other", "{e:?}");
        assert!(!w2.ready);
        assert!(w2.state.contains("ImagePullBackOff") || w2.state.contains("ErrImagePull"));
        assert_eq!(
            e.summary,
            "OrderedReady: the controller waits for web-2 to be Running and Ready."
        );
        // Deleted by hand at 5m: recreated at the reverted revision.
        let sim = scenario_at("statefulset-forced-rollback", 400);
        let e = web(&sim);
        assert!(e
            .slots
            .iter()
            .all(|s| s.ready && s.revision_kind == "update"));
    }

    /// During a rolling update the highest outdated ordinal is replaced first and the lower ones
    /// wait for it.
    #[test]
    fn rolling_update_order() {
        let sim = scenario_at("statefulset-rolling-update", 60);
        let mut sim = sim;
        sim.run_for(Duration::from_millis(1)).unwrap();
        let e = web(&sim);
        // The apply at 1m made a new update revision; web-2 is replaced first.
        assert_ne!(e.current_revision, e.update_revision, "{e:?}");
        let w2 = &e.slots[2];
        assert!(w2.terminating || w2.revision_kind == "update", "{e:?}");
        assert!(e.slots[0].gate.starts_with("web-0 waits for web-"), "{e:?}");
    }
}
