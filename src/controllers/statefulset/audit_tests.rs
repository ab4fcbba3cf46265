//! Fidelity audit of the StatefulSet controller against `pkg/controller/statefulset` (1.35):
//! edge cases hand-derived from upstream's `updateStatefulSet`, `computeReplicaStatus`,
//! `newVersionedStatefulSetPod`, `updateStatefulSetAfterInvariantEstablished` and
//! `completeRollingUpdate`.

use super::stateful_set_utils::*;
use super::tests::new_stateful_set;
use super::StatefulSetController;
use crate::api::{IntOrString, Object, Pod, RollingUpdateStatefulSetStrategy, StatefulSet, Time};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;

const T0: i64 = 1_735_689_600;

struct H {
    sim: Simulation,
}

impl H {
    fn new(set: StatefulSet, gates: FeatureGates) -> Self {
        let mut set = set;
        let mut sim = Simulation::new(1, Time::from_unix_secs(T0), gates, World::default());
        sim.add_loop(Box::new(StatefulSetController::new()));
        set.metadata.uid.clear();
        set.metadata.resource_version.clear();
        sim.api.create(Object::StatefulSet(set)).unwrap();
        sim.settle().unwrap();
        H { sim }
    }
    fn set(&self) -> StatefulSet {
        self.sim
            .api
            .store
            .get::<StatefulSet>("default", "foo")
            .cloned()
            .unwrap()
    }
    fn pods(&self) -> Vec<Pod> {
        let mut v: Vec<Pod> = self
            .sim
            .api
            .store
            .list::<Pod>(Some("default"))
            .cloned()
            .collect();
        v.sort_by_key(get_ordinal);
        v
    }
    fn pod(&self, ord: i32) -> Option<Pod> {
        self.sim
            .api
            .store
            .get::<Pod>("default", &format!("foo-{ord}"))
            .cloned()
    }
    fn ready(&mut self, ord: i32, ready: bool) {
        let p = self.pod(ord).unwrap();
        if p.spec.node_name.is_empty() {
            self.sim
                .api
                .bind("default", &p.metadata.name, &p.metadata.uid, "node-1")
                .unwrap();
        }
        let mut p = self.pod(ord).unwrap();
        p.status.phase = "Running".into();
        let now = self.sim.now();
        p.set_condition("Ready", if ready { "True" } else { "False" }, "", "", now);
        self.sim.api.update_status(Object::Pod(p)).unwrap();
        self.sim.settle().unwrap();
    }
    /// Makes every pod Running and Ready in ordinal order until all replicas are up.
    fn bring_up(&mut self) {
        for _ in 0..100 {
            let pending: Vec<i32> = self
                .pods()
                .iter()
                .filter(|p| !is_running_and_ready(p) && !is_terminating(p))
                .map(get_ordinal)
                .collect();
            if let Some(&o) = pending.first() {
                self.ready(o, true);
                continue;
            }
            let s = self.set();
            if s.status.ready_replicas == s.replicas() && self.pods().len() as i32 == s.replicas() {
                return;
            }
        }
        panic!("the set did not come up");
    }
    fn update(&mut self, f: impl FnOnce(&mut StatefulSet)) {
        let mut s = self.set();
        f(&mut s);
        s.metadata.resource_version.clear();
        self.sim.api.update(Object::StatefulSet(s)).unwrap();
        self.sim.settle().unwrap();
    }
    fn terminating(&self) -> Vec<i32> {
        self.pods()
            .iter()
            .filter(|p| is_terminating(p))
            .map(get_ordinal)
            .collect()
    }
}

fn new_image(s: &mut StatefulSet) {
    s.spec.template_mut().spec_mut().containers[0].image = "nginx:2".into();
}

fn partition(set: &mut StatefulSet, p: i32, max_unavailable: Option<IntOrString>) {
    set.spec.update_strategy.rolling_update = Some(RollingUpdateStatefulSetStrategy {
        partition: Some(p),
        max_unavailable,
    });
}

// partition > replicas: the update loop `for target := len(replicas)-1; target >= updateMin`
// never runs, nothing is deleted, and a pod created by a later scale-up below the partition
// (`ordinal < start + partition`) is built from the CURRENT revision. The status keeps both
// revisions; completeRollingUpdate never fires (updatedReplicas stays 0).
#[test]
fn partition_above_replicas_updates_nothing_and_scales_up_at_the_current_revision() {
    let mut set = new_stateful_set(3);
    partition(&mut set, 5, None);
    let mut h = H::new(set, FeatureGates::default());
    h.bring_up();
    let old = h.set().status.current_revision.clone();
    h.update(new_image);
    assert!(
        h.terminating().is_empty(),
        "no pod is replaced above the replicas"
    );
    let st = h.set().status;
    assert_eq!(st.current_revision, old);
    assert_ne!(st.update_revision, old);
    assert_eq!((st.current_replicas, st.updated_replicas), (3, 0));
    h.update(|s| s.spec.replicas = Some(4));
    h.bring_up();
    let p3 = h.pod(3).unwrap();
    assert_eq!(
        get_pod_revision(&p3),
        old,
        "ordinal 3 < partition 5: current revision"
    );
    assert_eq!(p3.spec.containers[0].image, "nginx");
    let st = h.set().status;
    assert_eq!(
        (st.replicas, st.current_replicas, st.updated_replicas),
        (4, 4, 0)
    );
    assert_eq!(st.current_revision, old);
}

// computeReplicaStatus: a terminating pod still counts in replicas (created) and, while Running
// and Ready, in readyReplicas/availableReplicas, but in neither currentReplicas nor
// updatedReplicas; with updatedReplicas short of spec.replicas the rolling update is not
// complete, so currentRevision stays.
#[test]
fn terminating_pods_count_as_replicas_and_ready_but_not_current_or_updated() {
    let mut h = H::new(new_stateful_set(3), FeatureGates::default());
    h.bring_up();
    h.sim
        .api
        .delete("Pod", "default", "foo-1", &Default::default())
        .unwrap();
    h.sim.settle().unwrap();
    assert_eq!(h.terminating(), [1]);
    let st = h.set().status;
    assert_eq!(st.replicas, 3);
    assert_eq!(st.ready_replicas, 3);
    assert_eq!(st.available_replicas, 3);
    assert_eq!(st.current_replicas, 2);
    assert_eq!(st.updated_replicas, 2);
    assert_eq!(st.current_revision, st.update_revision);
    // OrderedReady: no replacement and no further work while foo-1 terminates.
    assert_eq!(h.pods().len(), 3);
}

// updateStatefulSetAfterInvariantEstablished (MaxUnavailableStatefulSet on): unavailable pods
// are counted over ALL replicas, including those below the partition, and only
// maxUnavailable - unavailable pods are deleted, highest ordinal first, not below the
// partition. Parallel, so an unready pod does not stop processReplica first.
#[test]
fn max_unavailable_counts_unavailable_pods_below_the_partition() {
    let mut g = FeatureGates::default();
    g.set("MaxUnavailableStatefulSet", true);
    let mut set = new_stateful_set(5);
    set.spec.pod_management_policy = "Parallel".into();
    partition(&mut set, 2, Some(IntOrString::Int(2)));
    let mut h = H::new(set.clone(), g.clone());
    h.bring_up();
    h.ready(0, false); // below the partition, unavailable
    h.update(new_image);
    assert_eq!(
        h.terminating(),
        [4],
        "2 allowed - 1 unavailable = 1 deletion"
    );

    let mut h = H::new(set, g);
    h.bring_up();
    h.ready(0, false);
    h.ready(1, false);
    h.update(new_image);
    assert!(
        h.terminating().is_empty(),
        "unavailable == maxUnavailable: nothing deleted"
    );
}

// getStatefulSetMaxUnavailable: a percentage scales against spec.replicas rounding DOWN, and
// never below 1.
#[test]
fn max_unavailable_percentage_rounds_down_to_at_least_one() {
    let pct = |s: &str| IntOrString::String(s.into());
    assert_eq!(
        get_stateful_set_max_unavailable(Some(&pct("50%")), 5),
        Ok(2)
    );
    assert_eq!(
        get_stateful_set_max_unavailable(Some(&pct("10%")), 5),
        Ok(1)
    );
    assert_eq!(
        get_stateful_set_max_unavailable(Some(&pct("100%")), 5),
        Ok(5)
    );
    assert_eq!(get_stateful_set_max_unavailable(None, 5), Ok(1));
    assert_eq!(
        get_stateful_set_max_unavailable(Some(&IntOrString::Int(3)), 0),
        Ok(3)
    );
}

// The classic rolling update (gate off) deletes the highest outdated pod and decrements the
// status's currentReplicas in the same sync; a Parallel set still updates one pod at a time,
// waiting for the replacement to be available (isUnavailable on the way down).
#[test]
fn parallel_rolling_update_is_still_one_at_a_time() {
    let mut set = new_stateful_set(3);
    set.spec.pod_management_policy = "Parallel".into();
    let mut h = H::new(set, FeatureGates::default());
    h.bring_up();
    h.update(new_image);
    assert_eq!(h.terminating(), [2]);
    let st = h.set().status;
    assert_eq!(st.current_replicas, 2);
    assert_eq!(st.updated_replicas, 0);
}

// A Failed pod below a healthy successor (OrderedReady): processReplica deletes it and stops
// (the replacement is created on a later sync, once the old pod is gone); no
// RecreatingFailedPod event since 1.30, only the pod control's SuccessfulDelete.
#[test]
fn failed_pod_is_deleted_with_only_a_successful_delete_event() {
    let mut h = H::new(new_stateful_set(2), FeatureGates::default());
    h.bring_up();
    let mut p = h.pod(0).unwrap();
    p.status.phase = "Failed".into();
    h.sim.api.update_status(Object::Pod(p)).unwrap();
    h.sim.settle().unwrap();
    let reasons: Vec<String> = h
        .sim
        .api
        .events
        .iter()
        .filter(|e| e.kind == "StatefulSet")
        .map(|e| format!("{} {}", e.reason, e.message))
        .collect();
    assert!(
        reasons.contains(
            &"SuccessfulDelete delete Pod foo-0 in StatefulSet foo successful".to_string()
        ),
        "{reasons:?}"
    );
    assert!(
        !reasons.iter().any(|r| r.starts_with("Recreating")),
        "{reasons:?}"
    );
}
