//! Ports of `pkg/controller/statefulset/stateful_pod_control_test.go`: `StatefulPodControl`
//! against kubeplay's API server (upstream uses a fake clientset with reactors). Each test
//! asserts the returned error, the events recorded on the set, and the objects left in the
//! store. Failures upstream injects with reactors ("API server down") are produced here by a
//! real API error of the same path: a missing object (NotFound) or an object the API server
//! rejects (Invalid).

use super::stateful_pod_control::*;
use super::stateful_set_utils::*;
use super::tests::{new_pod, new_stateful_set};
use crate::api::{
    Object, OwnerReference, PersistentVolumeClaim, Pod, StatefulSet,
    StatefulSetPersistentVolumeClaimRetentionPolicy, Time,
};
use crate::controllers::Ctx;
use crate::features::FeatureGates;
use crate::queue::WorkQueue;
use crate::store::apiserver::ApiServer;
use crate::world::World;

/// The API server and the rest of a controller's context (shared with the status-updater tests).
pub(super) struct Env {
    pub(super) api: ApiServer,
    gates: FeatureGates,
    queue: WorkQueue,
    world: World,
    actions: Vec<crate::controllers::Action>,
}

impl Env {
    pub(super) fn new() -> Self {
        Env {
            api: ApiServer::new(1, Time::from_unix_secs(1_735_689_600)),
            gates: FeatureGates::default(),
            queue: WorkQueue::new(),
            world: World::default(),
            actions: vec![],
        }
    }

    pub(super) fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component: "statefulset-controller",
        }
    }

    /// (type, reason) of every event recorded so far.
    fn events(&self) -> Vec<(String, String)> {
        self.api
            .events
            .iter()
            .map(|e| (e.type_.to_string(), e.reason.to_string()))
            .collect()
    }

    fn types(&self) -> Vec<String> {
        self.events().into_iter().map(|(t, _)| t).collect()
    }

    fn load_pod(&mut self, pod: &Pod) -> Pod {
        match self.api.load(Object::Pod(pod.clone())).unwrap() {
            Object::Pod(p) => p,
            o => panic!("not a pod: {o:?}"),
        }
    }

    fn load_claims(
        &mut self,
        set: &StatefulSet,
        pod: &Pod,
        edit: impl Fn(&mut PersistentVolumeClaim),
    ) {
        for (_, mut claim) in get_persistent_volume_claims(set, pod) {
            edit(&mut claim);
            self.api.load(Object::PersistentVolumeClaim(claim)).unwrap();
        }
    }

    fn claim(&self, name: &str) -> Option<PersistentVolumeClaim> {
        self.api
            .store
            .get::<PersistentVolumeClaim>("default", name)
            .cloned()
    }

    fn pod(&self, name: &str) -> Option<Pod> {
        self.api.store.get::<Pod>("default", name).cloned()
    }
}

fn policy(scaled: &str, deleted: &str) -> Option<StatefulSetPersistentVolumeClaimRetentionPolicy> {
    Some(StatefulSetPersistentVolumeClaimRetentionPolicy {
        when_scaled: scaled.into(),
        when_deleted: deleted.into(),
    })
}

/// A claim template whose claims the API server rejects (`Data_Dir-foo-0` is not a DNS
/// subdomain): the PVC create fails as upstream's "API server down" reactor does.
fn with_invalid_claim_template(mut set: StatefulSet) -> StatefulSet {
    set.spec.volume_claim_templates[0].metadata.name = "Data_Dir".into();
    set
}

fn all(types: &[String], t: &str) -> bool {
    types.iter().all(|x| x == t)
}

// Upstream: TestStatefulPodControlCreatesPods (stateful_pod_control_test.go)
#[test]
fn creates_pods() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = new_pod(&set, 0);
    create_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    let types = env.types();
    assert_eq!(types.len(), 2, "claim and pod created: {:?}", env.events());
    assert!(all(&types, "Normal"), "{types:?}");
    assert!(env.claim("datadir-foo-0").is_some());
    assert!(env.pod("foo-0").is_some());
}

// Upstream: TestStatefulPodControlCreatePodExists (stateful_pod_control_test.go)
#[test]
fn create_pod_exists() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = new_pod(&set, 0);
    env.load_claims(&set, &pod, |_| {});
    env.load_pod(&pod);
    let err = create_stateful_pod(&mut env.ctx(), &set, &pod).unwrap_err();
    assert!(err.is_already_exists(), "{err}");
    assert!(
        env.events().is_empty(),
        "pod and PVC exist: {:?}",
        env.events()
    );
}

// Upstream: TestStatefulPodControlCreatePodPvcCreateFailure (stateful_pod_control_test.go)
#[test]
fn create_pod_pvc_create_failure() {
    let mut env = Env::new();
    let set = with_invalid_claim_template(new_stateful_set(3));
    let pod = new_pod(&set, 0);
    assert!(create_stateful_pod(&mut env.ctx(), &set, &pod).is_err());
    let types = env.types();
    assert_eq!(
        types.len(),
        2,
        "claim and pod create failures: {:?}",
        env.events()
    );
    assert!(all(&types, "Warning"), "{types:?}");
    assert!(env.pod("foo-0").is_none(), "no pod without its claims");
}

// Upstream: TestStatefulPodControlCreatePodPVCDeleting (stateful_pod_control_test.go)
#[test]
fn create_pod_pvc_deleting() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = new_pod(&set, 0);
    env.load_claims(&set, &pod, |c| {
        c.metadata.deletion_timestamp = Some(Time::from_unix_secs(1_546_300_800));
        c.metadata.finalizers = vec!["kubernetes.io/pvc-protection".into()].into();
    });
    let err = create_stateful_pod(&mut env.ctx(), &set, &pod).unwrap_err();
    assert!(
        err.to_string()
            .contains("pvc datadir-foo-0 is being deleted"),
        "{err}"
    );
    let types = env.types();
    assert_eq!(types, ["Warning"], "{:?}", env.events());
    assert!(env.pod("foo-0").is_none());
}

// Upstream: TestStatefulPodControlCreatePodFailed (stateful_pod_control_test.go)
#[test]
fn create_pod_failed() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let mut pod = new_pod(&set, 0);
    // The API server rejects the pod (no containers), as upstream's failing create reactor.
    pod.spec_mut().containers.clear();
    assert!(create_stateful_pod(&mut env.ctx(), &set, &pod).is_err());
    let types = env.types();
    assert_eq!(types, ["Normal", "Warning"], "{:?}", env.events());
}

// Upstream: TestStatefulPodControlNoOpUpdate (stateful_pod_control_test.go)
#[test]
fn no_op_update() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = new_pod(&set, 0);
    env.load_claims(&set, &pod, |_| {});
    let pod = env.load_pod(&pod);
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    assert!(
        env.actions.is_empty(),
        "no-op update should make no API call: {:?}",
        env.actions
    );
    assert!(env.events().is_empty());
}

// Upstream: TestStatefulPodControlUpdatesIdentity (stateful_pod_control_test.go)
#[test]
fn updates_identity() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let mut pod = env.load_pod(&new_pod(&set, 0));
    pod.metadata.name = "goo-0".into();
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    assert_eq!(env.types(), ["Normal"], "{:?}", env.events());
    let updated = env.pod("foo-0").unwrap();
    assert!(
        identity_matches(&set, &updated),
        "name update failed identity does not match"
    );
}

// Upstream: TestStatefulPodControlUpdateIdentityFailure (stateful_pod_control_test.go)
#[test]
fn update_identity_failure() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    // foo-0 is not in the store: the update fails (NotFound here, InternalError upstream).
    let mut pod = new_pod(&set, 0);
    env.load_claims(&set, &pod, |_| {});
    pod.metadata.name = "goo-0".into();
    assert!(update_stateful_pod(&mut env.ctx(), &set, &pod).is_err());
    assert_eq!(env.types(), ["Warning"], "{:?}", env.events());
    assert!(
        !identity_matches(&set, &pod),
        "failed update mutated pod identity"
    );
}

/// The pod without its claim volumes.
fn without_claim_volumes(set: &StatefulSet, mut pod: Pod) -> Pod {
    let claims: Vec<String> = get_persistent_volume_claims(set, &pod)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let volumes: Vec<serde_json::Value> = pod_volumes(&pod)
        .into_iter()
        .filter(|v| !claims.iter().any(|c| v["name"] == c.as_str()))
        .collect();
    pod.spec_mut()
        .extra
        .insert("volumes".into(), serde_json::Value::Array(volumes));
    pod
}

// Upstream: TestStatefulPodControlUpdatesPodStorage (stateful_pod_control_test.go)
#[test]
fn updates_pod_storage() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = env.load_pod(&new_pod(&set, 0));
    let pod = without_claim_volumes(&set, pod);
    assert!(!storage_matches(&set, &pod));
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    let types = env.types();
    assert_eq!(
        types.len(),
        2,
        "claim created and pod updated: {:?}",
        env.events()
    );
    assert!(all(&types, "Normal"), "{types:?}");
    assert!(storage_matches(&set, &env.pod("foo-0").unwrap()));
    assert!(env.claim("datadir-foo-0").is_some());
}

// Upstream: TestStatefulPodControlUpdatePodStorageFailure (stateful_pod_control_test.go)
#[test]
fn update_pod_storage_failure() {
    let mut env = Env::new();
    let set = with_invalid_claim_template(new_stateful_set(3));
    let pod = env.load_pod(&new_pod(&new_stateful_set(3), 0));
    let pod = without_claim_volumes(&set, pod);
    assert!(update_stateful_pod(&mut env.ctx(), &set, &pod).is_err());
    let types = env.types();
    assert_eq!(
        types.len(),
        2,
        "claim create and pod update failures: {:?}",
        env.events()
    );
    assert!(all(&types, "Warning"), "{types:?}");
}

// Upstream: TestStatefulPodControlDeletesStatefulPod (stateful_pod_control_test.go)
#[test]
fn deletes_stateful_pod() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = env.load_pod(&new_pod(&set, 0));
    delete_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    assert_eq!(env.types(), ["Normal"], "{:?}", env.events());
}

// Upstream: TestStatefulPodControlDeleteFailure (stateful_pod_control_test.go)
#[test]
fn delete_failure() {
    let mut env = Env::new();
    let set = new_stateful_set(3);
    let pod = new_pod(&set, 0); // not in the store
    assert!(delete_stateful_pod(&mut env.ctx(), &set, &pod).is_err());
    assert_eq!(env.types(), ["Warning"], "{:?}", env.events());
}

// Upstream: TestStatefulPodControlClaimsMatchDeletionPolcy (stateful_pod_control_test.go)
#[test]
fn claims_match_deletion_policy() {
    let mut env = Env::new();
    let mut set = new_stateful_set(3);
    let pod = new_pod(&set, 0);
    env.load_claims(&set, &pod, |_| {});
    set.spec.persistent_volume_claim_retention_policy = policy("Retain", "Retain");
    assert!(
        claims_match_retention_policy(&env.ctx(), &set, &pod).unwrap(),
        "retain"
    );
    set.spec.persistent_volume_claim_retention_policy = policy("Retain", "Delete");
    assert!(
        !claims_match_retention_policy(&env.ctx(), &set, &pod).unwrap(),
        "set deletion"
    );
}

// Upstream: TestStatefulPodControlUpdatePodClaimForRetentionPolicy (stateful_pod_control_test.go)
#[test]
fn update_pod_claim_for_retention_policy_rows() {
    // Upstream's reference carries only the name and the controller flag (its fake lister does
    // not validate); the API server here requires apiVersion, kind and uid.
    let foreign = OwnerReference {
        api_version: "custom/v1".into(),
        kind: "Custom".into(),
        name: "foobar".into(),
        uid: "foobar-uid".into(),
        controller: Some(true),
        ..Default::default()
    };
    for (name, owner_ref, expect_ref) in [
        ("bare PVC", None, true),
        ("PVC already controller", Some(foreign), false),
    ] {
        let mut env = Env::new();
        let mut set = new_stateful_set(3);
        set.metadata.uid = "set-123".into();
        let pod = new_pod(&set, 0);
        env.load_claims(&set, &pod, |c| {
            c.metadata.owner_references.extend(owner_ref.clone())
        });
        set.spec.persistent_volume_claim_retention_policy = policy("Retain", "Delete");
        update_pod_claim_for_retention_policy(&mut env.ctx(), &set, &pod).unwrap();
        let claim = env.claim("datadir-foo-0").unwrap();
        assert_eq!(
            has_owner_ref(&claim.metadata, &set.metadata),
            expect_ref,
            "{name}"
        );
        // A claim with another controller gets the ConflictingController warning.
        let conflicting = env
            .events()
            .iter()
            .any(|(_, r)| r == "ConflictingController");
        assert_eq!(conflicting, !expect_ref, "{name}: {:?}", env.events());
    }
}

// Upstream: TestPodClaimIsStale (stateful_pod_control_test.go)
#[test]
fn pod_claim_is_stale_rows() {
    const MISSING: &str = "missing";
    const EXISTS: &str = "exists";
    const STALE: &str = "stale";
    const WITH_REF: &str = "with-ref";
    let rows: [(&str, &[&str], bool, bool); 8] = [
        ("all missing", &[MISSING, MISSING], false, false),
        ("no claims", &[], false, false),
        ("exists", &[MISSING, EXISTS], false, false),
        ("all refs", &[WITH_REF, WITH_REF], false, false),
        ("stale & exists", &[STALE, EXISTS], true, false),
        ("stale & missing", &[STALE, MISSING], true, false),
        ("withRef & stale", &[WITH_REF, STALE], true, false),
        ("withRef, no UID", &[WITH_REF], true, true),
    ];
    for (name, states, expected, skip_pod_uid) in rows {
        let mut env = Env::new();
        let mut set = StatefulSet::default();
        set.metadata.name = "set".into();
        set.metadata.namespace = "default".into();
        set.spec.persistent_volume_claim_retention_policy = policy("Delete", "Retain");
        set.spec.selector = Some(crate::api::LabelSelector {
            match_labels: Some([("key".to_string(), "value".to_string())].into()),
            ..Default::default()
        });
        let pod_ref = |uid: &str| OwnerReference {
            api_version: "v1".into(),
            kind: "Pod".into(),
            name: "set-3".into(),
            uid: uid.into(),
            ..Default::default()
        };
        for (i, state) in states.iter().enumerate() {
            let mut template = PersistentVolumeClaim::default();
            template.metadata.name = format!("claim-{i}");
            set.spec.volume_claim_templates.push(template.clone());
            let mut claim = template;
            claim.metadata.name = format!("claim-{i}-set-3");
            claim.metadata.namespace = "default".into();
            claim.spec = serde_json::from_value(serde_json::json!({
                "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1"}}
            }))
            .unwrap();
            match *state {
                EXISTS => {}
                STALE => claim.metadata.owner_references = vec![pod_ref("stale")].into(),
                WITH_REF => claim.metadata.owner_references = vec![pod_ref("123")].into(),
                _ => continue, // missing
            }
            env.api.load(Object::PersistentVolumeClaim(claim)).unwrap();
        }
        let mut pod = Pod::default();
        pod.metadata.name = "set-3".into();
        if !skip_pod_uid {
            pod.metadata.uid = "123".into();
        }
        assert_eq!(
            pod_claim_is_stale(&env.ctx(), &set, &pod),
            expected,
            "{name}"
        );
    }
}

// Upstream: TestStatefulPodControlRetainDeletionPolicyUpdate (stateful_pod_control_test.go)
#[test]
fn retain_deletion_policy_update() {
    let mut env = Env::new();
    let mut set = new_stateful_set(1);
    set.spec.persistent_volume_claim_retention_policy = policy("Retain", "Retain");
    let pod = env.load_pod(&new_pod(&set, 0));
    let set_meta = set.metadata.clone();
    // This ownerRef should be removed in the update.
    env.load_claims(&set, &pod, |c| {
        add_controller_ref(
            &mut c.metadata.owner_references,
            &set_meta,
            CONTROLLER_API_VERSION,
            CONTROLLER_KIND,
        );
    });
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    let claim = env.claim("datadir-foo-0").unwrap();
    assert!(
        !has_owner_ref(&claim.metadata, &set.metadata),
        "ownerRef not removed"
    );
    assert_eq!(env.types(), ["Normal"], "{:?}", env.events());
}

// Upstream: TestStatefulPodControlRetentionPolicyUpdate (stateful_pod_control_test.go)
#[test]
fn retention_policy_update() {
    let mut env = Env::new();
    let mut set = new_stateful_set(1);
    set.spec.persistent_volume_claim_retention_policy = policy("Retain", "Delete");
    let pod = env.load_pod(&new_pod(&set, 0));
    env.load_claims(&set, &pod, |_| {});
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    let claim = env.claim("datadir-foo-0").unwrap();
    assert!(
        has_owner_ref(&claim.metadata, &set.metadata),
        "ownerRef not added"
    );
    assert_eq!(env.types(), ["Normal"], "{:?}", env.events());
}

// Upstream: TestStatefulPodControlRetentionPolicyUpdateMissingClaims (stateful_pod_control_test.go)
#[test]
fn retention_policy_update_missing_claims() {
    let mut env = Env::new();
    let mut set = new_stateful_set(1);
    set.spec.persistent_volume_claim_retention_policy = policy("Retain", "Delete");
    let pod = env.load_pod(&new_pod(&set, 0));
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    env.load_claims(&set, &pod, |_| {});
    update_stateful_pod(&mut env.ctx(), &set, &pod).unwrap();
    let claim = env.claim("datadir-foo-0").unwrap();
    assert!(
        has_owner_ref(&claim.metadata, &set.metadata),
        "ownerRef not added"
    );
    let events = env.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].1, "SuccessfulUpdate");
}

// Not ported:
// - TestStatefulPodControlCreatePodPvcGetFailure: a failing PVC lister (GetByKey error); the
//   store cannot fail a read.
// - TestStatefulPodControlUpdatePodConflictSuccess: the retry on an update Conflict; kubeplay's
//   controller writes carry no resourceVersion, so an update never conflicts.
