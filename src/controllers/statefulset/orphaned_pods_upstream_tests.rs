//! Port of TestOrphanedPodsWithPVCDeletePolicy (`stateful_set_test.go`), all four
//! ScaleDown × SetDeletion policy rows.
//!
//! Upstream's set `foo` has 2 replicas (`newStatefulSet(4)`, then `replicas = 2`); of its three
//! pods, `foo-1` is an orphan and `xfoo-2` carries the set's controller reference but not a
//! member's name. Each pod has its claim (`datadir-foo-0`, `-1`, `-2`); every pod is Running and
//! Ready. Two syncs later `foo-1` is adopted, `xfoo-2` released, and the claims carry:
//!
//! * `datadir-foo-0`, `datadir-foo-1`: the set's reference exactly when `whenDeleted: Delete`,
//!   and no pod reference (upstream's `verifyOwnerRefs(claim, condemned=false)`);
//! * `datadir-foo-2` (the released pod's claim): neither.
//!
//! Between the two syncs upstream's test sets `*set.Spec.Replicas = 0` ("Put an ownerRef for all
//! scale-down deleted PVCs"), yet expects the pods not condemned. That write never reaches the
//! controller: the first sync's status update stores a *copy* of the set in the informer's
//! indexer (`updateStatefulSetStatus` deep-copies before the fake status updater's
//! `setsIndexer.Update`), so the test's own object is no longer the cached one and the second
//! sync still sees 2 replicas. The port therefore syncs the set at 2 replicas, which is what
//! upstream's table checks. (Really scaling to 0 with `whenScaled: Delete` does put the pods'
//! references on their claims before deleting them — upstream's `fixPodClaim` step, ported in
//! `tests.rs`.)

use super::stateful_set_utils::{get_persistent_volume_claims, has_owner_ref};
use super::tests::{new_pod, new_stateful_set};
use super::StatefulSetController;
use crate::api::{
    Object, PersistentVolumeClaim, Pod, StatefulSet,
    StatefulSetPersistentVolumeClaimRetentionPolicy, Time,
};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::world::World;

const T0: i64 = 1_735_689_600;

fn claim_has_owner_named(claim: &PersistentVolumeClaim, name: &str) -> bool {
    claim
        .metadata
        .owner_references
        .iter()
        .any(|r| r.name == name)
}

fn run_row(when_scaled: &str, when_deleted: &str) {
    let row = format!("ScaleDown:{when_scaled}/SetDeletion:{when_deleted}");
    let now = Time::from_unix_secs(T0);
    let mut sim = Simulation::new(1, now, FeatureGates::default(), World::default());

    let mut set = new_stateful_set(4);
    set.spec.replicas = Some(2);
    set.spec.persistent_volume_claim_retention_policy =
        Some(StatefulSetPersistentVolumeClaimRetentionPolicy {
            when_scaled: when_scaled.into(),
            when_deleted: when_deleted.into(),
        });
    set.metadata.uid.clear();
    set.metadata.resource_version.clear();
    let set = match sim.api.create(Object::StatefulSet(set)).unwrap() {
        Object::StatefulSet(s) => s,
        o => panic!("{o:?}"),
    };

    let mut pods: Vec<Pod> = (0..3).map(|i| new_pod(&set, i)).collect();
    // pod1 is orphaned.
    pods[1].metadata.owner_references.clear();
    // pod2 is owned but has the wrong name.
    pods[2].metadata.name = format!("x{}", pods[2].metadata.name);
    for pod in &mut pods {
        pod.status.phase = "Running".into();
        pod.set_condition("Ready", "True", "", "", now);
        for (_, claim) in get_persistent_volume_claims(&set, pod) {
            sim.api.load(Object::PersistentVolumeClaim(claim)).unwrap();
        }
        sim.api.load(Object::Pod(pod.clone())).unwrap();
    }

    sim.add_loop(Box::new(StatefulSetController::new()));
    sim.settle().unwrap();

    let stored = |name: &str| -> Pod {
        sim.api
            .store
            .get::<Pod>("default", name)
            .cloned()
            .unwrap_or_else(|| panic!("{row}: pod {name} is gone"))
    };
    let set_now = sim
        .api
        .store
        .get::<StatefulSet>("default", "foo")
        .cloned()
        .unwrap();
    assert!(
        has_owner_ref(&stored("foo-1").metadata, &set_now.metadata),
        "{row}: the orphan foo-1 is adopted"
    );
    assert!(
        !has_owner_ref(&stored("xfoo-2").metadata, &set_now.metadata),
        "{row}: xfoo-2 is released"
    );

    let claims: Vec<PersistentVolumeClaim> = sim
        .api
        .store
        .list::<PersistentVolumeClaim>(Some("default"))
        .cloned()
        .collect();
    assert_eq!(claims.len(), pods.len(), "{row}: number of claims");
    for claim in &claims {
        let name = claim.metadata.name.as_str();
        let pod_name = name.trim_start_matches("datadir-");
        let pod_ref = claim_has_owner_named(claim, pod_name);
        let set_ref = claim_has_owner_named(claim, "foo");
        match name {
            // verifyOwnerRefs(claim, condemned=false): never a pod reference; the set's
            // reference exactly with whenDeleted=Delete.
            "datadir-foo-0" | "datadir-foo-1" => {
                assert!(
                    !pod_ref,
                    "{row}: {name}: {:?}",
                    claim.metadata.owner_references
                );
                assert_eq!(
                    set_ref,
                    when_deleted == "Delete",
                    "{row}: {name}: {:?}",
                    claim.metadata.owner_references
                );
            }
            "datadir-foo-2" => assert!(
                !pod_ref && !set_ref,
                "{row}: unexpected ownerRefs for {name}: {:?}",
                claim.metadata.owner_references
            ),
            _ => panic!("{row}: unexpected claim {name}"),
        }
    }
}

#[test]
fn orphaned_pods_with_pvc_delete_policy_rows() {
    for when_scaled in ["Retain", "Delete"] {
        for when_deleted in ["Retain", "Delete"] {
            run_row(when_scaled, when_deleted);
        }
    }
}
