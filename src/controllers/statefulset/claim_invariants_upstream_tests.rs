//! `checkClaimInvariants` (pkg/controller/statefulset/stateful_set_control_test.go), asserted
//! after every step of scale-up, scale-down and image updates, over every PVC retention policy
//! (`runTestOverPVCRetentionPolicies`), OrderedReady and Parallel, with and without
//! `spec.ordinals.start`.

use super::stateful_set_utils::*;
use super::tests::new_stateful_set;
use super::StatefulSetController;
use crate::api::{
    Object, PersistentVolumeClaim, Pod, StatefulSet, StatefulSetOrdinals,
    StatefulSetPersistentVolumeClaimRetentionPolicy, Time,
};
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::store::apiserver::DeleteOptions;
use crate::world::World;

const T0: i64 = 1_735_689_600;

struct H {
    sim: Simulation,
    gates: FeatureGates,
}

impl H {
    fn new(mut set: StatefulSet) -> Self {
        let gates = FeatureGates::default();
        let mut sim = Simulation::new(1, Time::from_unix_secs(T0), gates.clone(), World::default());
        sim.add_loop(Box::new(StatefulSetController::new()));
        set.metadata.uid.clear();
        set.metadata.resource_version.clear();
        sim.api.create(Object::StatefulSet(set)).unwrap();
        sim.settle().unwrap();
        H { sim, gates }
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
        let mut p: Vec<Pod> = self
            .sim
            .api
            .store
            .list::<Pod>(Some("default"))
            .cloned()
            .collect();
        p.sort_by_key(get_ordinal);
        p
    }
    fn claim(&self, name: &str) -> Option<PersistentVolumeClaim> {
        self.sim
            .api
            .store
            .get::<PersistentVolumeClaim>("default", name)
            .cloned()
    }
    fn settle(&mut self) {
        self.sim.settle().unwrap();
    }
    fn ready(&mut self, name: &str) {
        let p = self
            .sim
            .api
            .store
            .get::<Pod>("default", name)
            .cloned()
            .unwrap();
        if p.spec.node_name.is_empty() {
            self.sim
                .api
                .bind("default", name, &p.metadata.uid, "node-1")
                .unwrap();
        }
        let mut p = self
            .sim
            .api
            .store
            .get::<Pod>("default", name)
            .cloned()
            .unwrap();
        let now = self.sim.now();
        p.status.phase = "Running".into();
        p.set_condition("Ready", "True", "", "", now);
        self.sim.api.update_status(Object::Pod(p)).unwrap();
        self.settle();
    }
    fn finish(&mut self, name: &str) {
        let opts = DeleteOptions {
            grace_period_seconds: Some(0),
            ..Default::default()
        };
        self.sim.api.delete("Pod", "default", name, &opts).unwrap();
        self.settle();
    }
    fn update_set(&mut self, f: impl FnOnce(&mut StatefulSet)) {
        let mut s = self.set();
        f(&mut s);
        s.metadata.resource_version.clear();
        self.sim.api.update(Object::StatefulSet(s)).unwrap();
        self.settle();
    }

    /// `checkClaimInvariants` for every pod's claims.
    fn check_claim_invariants(&self, step: &str) {
        let set = self.set();
        let policy = get_persistent_volume_claim_retention_policy(&set);
        let retained = policy.when_scaled == "Retain";
        for pod in self.pods() {
            for (_, c) in get_persistent_volume_claims(&set, &pod) {
                let Some(claim) = self.claim(&c.metadata.name) else {
                    assert!(
                        !retained,
                        "{step}: claim for Pod {} was not created",
                        pod.metadata.name
                    );
                    continue;
                };
                if pod.status.phase != "Running"
                    || !crate::controllers::controller_utils::is_pod_ready(&pod)
                {
                    continue;
                }
                let set_ref = has_owner_ref(&claim.metadata, &set.metadata);
                let pod_ref = has_owner_ref(&claim.metadata, &pod.metadata);
                let in_range = pod_in_ordinal_range(&pod, &set, &self.gates);
                let name = &claim.metadata.name;
                match (policy.when_scaled.as_str(), policy.when_deleted.as_str()) {
                    ("Retain", "Retain") => {
                        assert!(
                            !set_ref && !pod_ref,
                            "{step}: {name} has unexpected owner refs"
                        )
                    }
                    ("Retain", "Delete") => assert!(
                        set_ref && !pod_ref,
                        "{step}: {name} needs only the set's owner ref"
                    ),
                    ("Delete", "Retain") => {
                        assert!(!set_ref, "{step}: {name} has unexpected set owner ref");
                        assert_eq!(pod_ref, !in_range, "{step}: {name} pod owner ref");
                    }
                    ("Delete", "Delete") => {
                        if in_range {
                            assert!(
                                set_ref && !pod_ref,
                                "{step}: live claim {name} has bad owner refs"
                            );
                        } else {
                            assert!(
                                !set_ref && pod_ref,
                                "{step}: condemned claim {name} has bad owner refs"
                            );
                        }
                    }
                    other => panic!("unexpected policy {other:?}"),
                }
            }
        }
    }

    /// `scaleUpStatefulSetControl`: ready pods one by one (lowest first) until all replicas are
    /// Running and Ready, checking the invariants after every controller run.
    fn scale_up(&mut self, step: &str) {
        for _ in 0..200 {
            self.check_claim_invariants(step);
            let s = self.set();
            let pods = self.pods();
            if let Some(p) = pods
                .iter()
                .find(|p| !is_running_and_ready(p) && !is_terminating(p))
            {
                let n = p.metadata.name.clone();
                self.ready(&n);
                continue;
            }
            if s.status.ready_replicas == s.replicas() && pods.len() as i32 == s.replicas() {
                return;
            }
            self.settle();
        }
        panic!("{step}: did not come up");
    }

    /// `scaleDownStatefulSetControl`: let the kubelet finish every terminating pod until the
    /// set has `replicas` pods, checking the invariants while pods are condemned.
    fn scale_down(&mut self, step: &str) {
        for _ in 0..200 {
            self.check_claim_invariants(step);
            let s = self.set();
            let pods = self.pods();
            if pods.len() as i32 == s.replicas() && pods.iter().all(|p| !is_terminating(p)) {
                return;
            }
            match pods.iter().find(|p| is_terminating(p)) {
                Some(p) => {
                    let n = p.metadata.name.clone();
                    self.finish(&n);
                }
                None => self.settle(),
            }
        }
        panic!("{step}: did not scale down");
    }
}

impl H {
    /// Ready the lowest not-ready pod, else finish the lowest terminating pod, until the set
    /// has exactly its replicas, all Running and Ready. With OrderedReady the claims of
    /// condemned pods are only fixed once every live replica is healthy (`updateStatefulSet`
    /// exits after the first blocking replica, before `fixPodClaim` runs over the condemned),
    /// so the invariants are checked on the way only with Parallel.
    fn converge(&mut self, step: &str) {
        for _ in 0..200 {
            if allows_burst(&self.set()) {
                self.check_claim_invariants(step);
            }
            let s = self.set();
            let pods = self.pods();
            if let Some(p) = pods.iter().find(|p| is_terminating(p)) {
                let n = p.metadata.name.clone();
                self.finish(&n);
            } else if let Some(p) = pods.iter().find(|p| !is_running_and_ready(p)) {
                let n = p.metadata.name.clone();
                self.ready(&n);
            } else if pods.len() as i32 == s.replicas() && s.status.ready_replicas == s.replicas() {
                return;
            } else {
                self.settle();
            }
        }
        panic!("{step}: did not converge");
    }
}

fn policies() -> [(&'static str, &'static str); 4] {
    [
        ("Retain", "Retain"),
        ("Delete", "Retain"),
        ("Retain", "Delete"),
        ("Delete", "Delete"),
    ]
}

fn with(policy: (&str, &str), burst: bool, start: Option<i32>, replicas: i32) -> StatefulSet {
    let mut set = new_stateful_set(replicas);
    set.spec.persistent_volume_claim_retention_policy =
        Some(StatefulSetPersistentVolumeClaimRetentionPolicy {
            when_scaled: policy.0.into(),
            when_deleted: policy.1.into(),
        });
    if burst {
        set.spec.pod_management_policy = "Parallel".into();
    }
    if let Some(start) = start {
        set.spec.ordinals = Some(StatefulSetOrdinals { start });
    }
    set
}

// upstream: TestStatefulSetControl/ScalesUp and ScalesDown (runTestOverPVCRetentionPolicies,
// Monotonic and Burst) with checkClaimInvariants
// (pkg/controller/statefulset/stateful_set_control_test.go): after every step the claims' owner
// references follow the retention policy; the condemned pods' claims are handed to the pod
// (whenScaled Delete) before the pod goes.
#[test]
fn scale_up_and_down_keep_claim_invariants_over_every_policy() {
    for policy in policies() {
        for burst in [false, true] {
            let step = format!("{policy:?} burst={burst}");
            let mut h = H::new(with(policy, burst, None, 3));
            h.scale_up(&format!("{step} up to 3"));
            h.update_set(|s| s.spec.replicas = Some(5));
            h.scale_up(&format!("{step} up to 5"));
            h.update_set(|s| s.spec.replicas = Some(2));
            h.scale_down(&format!("{step} down to 2"));
            let names: Vec<String> = h.pods().iter().map(|p| p.metadata.name.clone()).collect();
            assert_eq!(names, ["foo-0", "foo-1"], "{step}");
            // The claims of removed pods stay (the garbage collector deletes them when they are
            // owned by the deleted pod); with whenScaled Delete they name their pod as owner.
            for o in 2..5 {
                let c = h.claim(&format!("datadir-foo-{o}")).expect("claim kept");
                let pod_ref = c.metadata.owner_references.iter().any(|r| r.kind == "Pod");
                assert_eq!(pod_ref, policy.0 == "Delete", "{step}: datadir-foo-{o}");
                let set_ref = c
                    .metadata
                    .owner_references
                    .iter()
                    .any(|r| r.kind == "StatefulSet");
                // A scaled-down claim's set reference is dropped with whenScaled Delete; with
                // whenScaled Retain it keeps what whenDeleted asked for.
                assert_eq!(
                    set_ref,
                    policy == ("Retain", "Delete"),
                    "{step}: datadir-foo-{o}"
                );
            }
        }
    }
}

// upstream: TestStatefulSetControlWithStartOrdinal (pkg/controller/statefulset/
// stateful_set_control_test.go) over every retention policy: with ordinals.start 2 the range is
// foo-2..foo-6, condemned pods are those above the end ordinal.
#[test]
fn start_ordinal_keeps_claim_invariants_over_every_policy() {
    for policy in policies() {
        for burst in [false, true] {
            let step = format!("{policy:?} burst={burst} start=2");
            let mut h = H::new(with(policy, burst, Some(2), 5));
            h.scale_up(&format!("{step} up"));
            let names: Vec<String> = h.pods().iter().map(|p| p.metadata.name.clone()).collect();
            assert_eq!(
                names,
                ["foo-2", "foo-3", "foo-4", "foo-5", "foo-6"],
                "{step}"
            );
            h.update_set(|s| s.spec.replicas = Some(3));
            h.scale_down(&format!("{step} down"));
            let names: Vec<String> = h.pods().iter().map(|p| p.metadata.name.clone()).collect();
            assert_eq!(names, ["foo-2", "foo-3", "foo-4"], "{step}");
            // Moving the start down brings in foo-1 and condemns foo-4.
            h.update_set(|s| s.spec.ordinals = Some(StatefulSetOrdinals { start: 1 }));
            h.converge(&format!("{step} shift"));
            let names: Vec<String> = h.pods().iter().map(|p| p.metadata.name.clone()).collect();
            assert_eq!(names, ["foo-1", "foo-2", "foo-3"], "{step}");
            h.check_claim_invariants(&step);
        }
    }
}

// upstream: updateStatefulSet's "Fix pod claims for condemned pods" step
// (pkg/controller/statefulset/stateful_set_control.go; exercised by TestStatefulSetControl's
// ScalesDown rows with checkClaimInvariants): it runs after every live replica was processed, so
// with OrderedReady an unhealthy live replica stops the sync before a condemned pod's claim is
// handed to the pod (and before the pod is deleted); with Parallel both happen at once.
#[test]
fn condemned_claims_wait_for_unhealthy_replicas_only_when_monotonic() {
    for burst in [false, true] {
        let mut h = H::new(with(("Delete", "Retain"), burst, None, 3));
        h.scale_up("up");
        let mut p0 = h
            .sim
            .api
            .store
            .get::<Pod>("default", "foo-0")
            .cloned()
            .unwrap();
        let now = h.sim.now();
        p0.set_condition("Ready", "False", "", "", now);
        h.sim.api.update_status(Object::Pod(p0)).unwrap();
        h.settle();
        h.update_set(|s| s.spec.replicas = Some(2));
        let pod2 = h
            .sim
            .api
            .store
            .get::<Pod>("default", "foo-2")
            .cloned()
            .unwrap();
        let claim2 = h.claim("datadir-foo-2").unwrap();
        let pod_ref = has_owner_ref(&claim2.metadata, &pod2.metadata);
        assert_eq!(
            pod_ref, burst,
            "burst={burst}: claim handed to the condemned pod"
        );
        assert_eq!(
            is_terminating(&pod2),
            burst,
            "burst={burst}: condemned pod deleted"
        );
        h.ready("foo-0");
        let pod2 = h
            .sim
            .api
            .store
            .get::<Pod>("default", "foo-2")
            .cloned()
            .unwrap();
        let claim2 = h.claim("datadir-foo-2").unwrap();
        assert!(
            has_owner_ref(&claim2.metadata, &pod2.metadata),
            "burst={burst}"
        );
        assert!(is_terminating(&pod2), "burst={burst}");
    }
}

// upstream: TestStatefulSetControl/CreatesPods and ScalesDown (every retention policy,
// Monotonic and Burst; pkg/controller/statefulset/stateful_set_control_test.go): every pod
// carries the apps.kubernetes.io/pod-index label matching its name (PodIndexLabel, on by
// default); scaling to 0 leaves status replicas, readyReplicas and updatedReplicas at 0.
#[test]
fn creates_pods_with_index_label_and_scales_down_to_zero() {
    for policy in policies() {
        for burst in [false, true] {
            let step = format!("{policy:?} burst={burst}");
            let mut h = H::new(with(policy, burst, None, 3));
            h.scale_up(&step);
            let s = h.set();
            assert_eq!(
                (
                    s.status.replicas,
                    s.status.ready_replicas,
                    s.status.updated_replicas
                ),
                (3, 3, 3),
                "{step}"
            );
            for p in h.pods() {
                assert_eq!(
                    p.metadata.labels.get(POD_INDEX_LABEL),
                    Some(&get_ordinal(&p).to_string()),
                    "{step}: {}",
                    p.metadata.name
                );
            }
            h.update_set(|s| s.spec.replicas = Some(0));
            h.scale_down(&step);
            let s = h.set();
            assert!(h.pods().is_empty(), "{step}");
            assert_eq!(
                (
                    s.status.replicas,
                    s.status.ready_replicas,
                    s.status.updated_replicas
                ),
                (0, 0, 0),
                "{step}"
            );
        }
    }
}

// upstream: TestStatefulSetControl/NewRevisionDeletePodFailure (the "delete works" half;
// pkg/controller/statefulset/stateful_set_control_test.go) and computeReplicaStatus: after a
// template change the highest pod is deleted for the update and stops counting as current
// (a terminating pod counts in replicas and readyReplicas, but neither current nor updated);
// the revisions differ until the rollout is done.
#[test]
fn new_revision_deletion_drops_current_replicas() {
    for policy in policies() {
        for burst in [false, true] {
            let step = format!("{policy:?} burst={burst}");
            let mut h = H::new(with(policy, burst, None, 3));
            h.scale_up(&step);
            h.update_set(|s| {
                s.spec.template_mut().spec_mut().containers[0].image = "nginx-new".into()
            });
            let s = h.set();
            let p2 = h
                .sim
                .api
                .store
                .get::<Pod>("default", "foo-2")
                .cloned()
                .unwrap();
            assert!(is_terminating(&p2), "{step}");
            assert_ne!(
                s.status.current_revision, s.status.update_revision,
                "{step}"
            );
            assert_eq!(
                (
                    s.status.replicas,
                    s.status.ready_replicas,
                    s.status.current_replicas,
                    s.status.updated_replicas
                ),
                (3, 3, 2, 0),
                "{step}"
            );
        }
    }
}
