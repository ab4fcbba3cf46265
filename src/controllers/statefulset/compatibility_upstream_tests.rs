//! Port of `stateful_set_compatibility_test.go` (TestStatefulSetCompatibility): StatefulSets and
//! ControllerRevisions written by Kubernetes 1.33 and 1.34 (upstream's `testdata/
//! compatibility_{set,revision}_1.3{3,4}.0.json`) must not get a new revision — and so no
//! rolling update — from the current controller. 1.33 wrote `"creationTimestamp":null` into the
//! revision's template metadata and 1.34 does not, so the two revisions of the same template
//! differ byte for byte (kubernetes#134773); the StatefulSetSemanticRevisionComparison gate
//! (kubernetes#135017) makes the controller reuse either.

use super::stateful_set_control::get_stateful_set_revisions;
use super::stateful_set_utils::set_matches_revision;
use crate::api::{ControllerRevision, Object, Pod, StatefulSet, Time};
use crate::controllers::history::{hash_controller_revision, raw_data};
use crate::controllers::Ctx;
use crate::features::FeatureGates;
use crate::sim::Simulation;
use crate::store::apiserver::ApiServer;
use crate::world::World;
use serde_json::{json, Value};

/// 2025-11-05T00:00:00Z, after every object of the testdata was written.
const NOW: i64 = 1_762_300_800;

/// `testdata/compatibility_set_1.33.0.json` (1.34's differs only in the `creationTimestamp: null`
/// of the two embedded object metas, its resourceVersion and its status' revision names).
fn set_json(v134: bool) -> Value {
    let rev = if v134 {
        "test-776999688b"
    } else {
        "test-c77f6d978"
    };
    let mut template_meta = json!({"annotations": {"test": "value"}, "labels": {"app": "foo"}});
    let mut claim_meta =
        json!({"annotations": {"key": "value"}, "labels": {"key": "value"}, "name": "test"});
    if !v134 {
        template_meta["creationTimestamp"] = Value::Null;
        claim_meta["creationTimestamp"] = Value::Null;
    }
    json!({
        "apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {
            "creationTimestamp": "2025-10-31T18:19:02Z", "generation": 1,
            "labels": {"sslabel": "value"}, "name": "test", "namespace": "default",
            "resourceVersion": if v134 { "16319" } else { "2219" },
            "uid": "ec335e25-1045-4216-8634-50cfbe05f3d6"
        },
        "spec": {
            "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
            "podManagementPolicy": "OrderedReady",
            "replicas": 1,
            "revisionHistoryLimit": 10,
            "selector": {"matchLabels": {"app": "foo"}},
            "serviceName": "",
            "template": {
                "metadata": template_meta,
                "spec": {
                    "containers": [{
                        "image": "test", "imagePullPolicy": "Always", "name": "test",
                        "resources": {}, "terminationMessagePath": "/dev/termination-log",
                        "terminationMessagePolicy": "File"
                    }],
                    "dnsPolicy": "ClusterFirst", "restartPolicy": "Always",
                    "schedulerName": "default-scheduler", "securityContext": {},
                    "terminationGracePeriodSeconds": 30
                }
            },
            "updateStrategy": {"rollingUpdate": {"partition": 0}, "type": "RollingUpdate"},
            "volumeClaimTemplates": [{
                "apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "metadata": claim_meta,
                "spec": {
                    "accessModes": ["ReadWriteOnce"],
                    "resources": {"requests": {"storage": "1Gi"}},
                    "volumeMode": "Filesystem"
                },
                "status": {"phase": "Pending"}
            }]
        },
        "status": {
            "availableReplicas": 1, "collisionCount": 0, "currentReplicas": 1,
            "currentRevision": rev, "observedGeneration": 1, "replicas": 1,
            "updateRevision": rev, "updatedReplicas": 1
        }
    })
}

/// The `data` of `testdata/compatibility_revision_1.3{3,4}.0.json`, byte for byte as upstream
/// stored it.
const DATA_133: &str = r#"{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"test":"value"},"creationTimestamp":null,"labels":{"app":"foo"}},"spec":{"containers":[{"image":"test","imagePullPolicy":"Always","name":"test","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}"#;
const DATA_134: &str = r#"{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"test":"value"},"labels":{"app":"foo"}},"spec":{"containers":[{"image":"test","imagePullPolicy":"Always","name":"test","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}"#;

/// `testdata/compatibility_revision_1.33.0.json` / `..._1.34.0.json`.
fn revision_json(v134: bool) -> Value {
    let (hash, created, rv, uid, revision, data) = if v134 {
        (
            "776999688b",
            "2025-11-03T19:46:23Z",
            "16318",
            "47df387b-5f17-40b6-9964-4c43cf6ad5d1",
            2,
            DATA_134,
        )
    } else {
        (
            "c77f6d978",
            "2025-10-31T18:19:02Z",
            "2209",
            "af6e1945-ed14-4d1a-b420-813aa683a0fd",
            1,
            DATA_133,
        )
    };
    json!({
        "apiVersion": "apps/v1", "kind": "ControllerRevision",
        "metadata": {
            "creationTimestamp": created,
            "labels": {"app": "foo", "controller.kubernetes.io/hash": hash},
            "name": format!("test-{hash}"), "namespace": "default",
            "ownerReferences": [{
                "apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true,
                "kind": "StatefulSet", "name": "test",
                "uid": "ec335e25-1045-4216-8634-50cfbe05f3d6"
            }],
            "resourceVersion": rv, "uid": uid
        },
        "data": serde_json::from_str::<Value>(data).unwrap(),
        "revision": revision
    })
}

/// `load`: the object decoded and defaulted as if read from etcd (the API server's load path
/// defaults and validates, as `legacyscheme.Scheme.Default` does in upstream's test).
fn load(api: &mut ApiServer, v: Value) -> Object {
    api.load(Object::from_value(v).unwrap()).unwrap()
}

fn api_with(gates: &FeatureGates) -> ApiServer {
    ApiServer::with_gates(1, Time::from_unix_secs(NOW), gates.clone())
}

fn revisions_in(api: &ApiServer) -> Vec<ControllerRevision> {
    let mut r: Vec<ControllerRevision> = api
        .store
        .list::<ControllerRevision>(Some("default"))
        .cloned()
        .collect();
    crate::controllers::history::sort_controller_revisions(&mut r);
    r
}

/// Runs upstream's `getStatefulSetRevisions(set, revisions)` on an API server holding the set
/// and the revisions; returns (current, update, collisionCount) and every revision stored after.
fn get_revisions(
    gates: &FeatureGates,
    set: Value,
    revisions: Vec<Value>,
) -> (
    ControllerRevision,
    ControllerRevision,
    i32,
    Vec<ControllerRevision>,
) {
    let mut api = api_with(gates);
    let set = match load(&mut api, set) {
        Object::StatefulSet(s) => s,
        o => panic!("{o:?}"),
    };
    for r in revisions {
        load(&mut api, r);
    }
    let revisions = revisions_in(&api);
    let mut queue = crate::queue::WorkQueue::new();
    let mut world = World::default();
    let mut actions = vec![];
    let mut ctx = Ctx {
        api: &mut api,
        gates,
        queue: &mut queue,
        world: &mut world,
        actions: &mut actions,
        component: "statefulset-controller",
    };
    let (current, update, collisions) =
        get_stateful_set_revisions(&mut ctx, &set, &revisions).unwrap();
    let after = revisions_in(&api);
    (current, update, collisions, after)
}

fn same_revision(got: &ControllerRevision, want: &ControllerRevision, row: &str) {
    assert_eq!(got.metadata.name, want.metadata.name, "{row}: name");
    assert_eq!(got.metadata.uid, want.metadata.uid, "{row}: uid");
    assert_eq!(got.revision, want.revision, "{row}: revision number");
    assert_eq!(raw_data(got), raw_data(want), "{row}: data");
}

// Port of TestStatefulSetCompatibility (kubernetes#135017, the newest copy, which reads the
// testdata files), all three rows: the current and update revisions are the latest given
// revision, unchanged, and no revision is created or renumbered.
#[test]
fn stateful_set_compatibility_rows() {
    let gates = FeatureGates::default();
    assert!(gates.enabled("StatefulSetSemanticRevisionComparison"));
    let rows: [(&str, bool, Vec<bool>); 3] = [
        ("1.33 set, 1.33 rev", false, vec![false]),
        ("1.34 set, 1.34 rev", true, vec![true]),
        ("1.34 set, 1.33+1.34 rev", true, vec![false, true]),
    ];
    for (row, set134, revs) in rows {
        let given: Vec<Value> = revs.iter().map(|v| revision_json(*v)).collect();
        let latest: ControllerRevision =
            serde_json::from_value(given.last().unwrap().clone()).unwrap();
        let (current, update, collisions, after) =
            get_revisions(&gates, set_json(set134), given.clone());
        same_revision(&current, &latest, row);
        same_revision(&update, &latest, row);
        assert_eq!(collisions, 0, "{row}: collision count");
        assert_eq!(after.len(), given.len(), "{row}: no revision created");
        for (stored, g) in after.iter().zip(&given) {
            let g: ControllerRevision = serde_json::from_value(g.clone()).unwrap();
            same_revision(stored, &g, row);
        }
    }
}

// The testdata's provenance, without the gate (1.34.0, before kubernetes#135017): the 1.34.0
// controller, given the 1.33 set and its only revision `test-c77f6d978` (revision 1), did not
// find the revision equal and created `test-776999688b` (revision 2) — the second revision of
// testdata/compatibility_revision_1.34.0.json, whose data is the 1.34 encoding of the same
// template. That is the spurious rollout of kubernetes#134773.
#[test]
fn without_semantic_comparison_the_1_33_revision_is_replaced() {
    let mut gates = FeatureGates::default();
    gates.set("StatefulSetSemanticRevisionComparison", false);
    let (current, update, collisions, after) =
        get_revisions(&gates, set_json(false), vec![revision_json(false)]);
    let rev134: ControllerRevision = serde_json::from_value(revision_json(true)).unwrap();
    assert_eq!(current.metadata.name, "test-c77f6d978");
    assert_eq!(update.metadata.name, "test-776999688b");
    assert_eq!(update.revision, 2);
    assert_eq!(raw_data(&update), raw_data(&rev134));
    assert_eq!(
        update
            .metadata
            .labels
            .get("controller.kubernetes.io/hash")
            .map(String::as_str),
        Some("776999688b")
    );
    assert_eq!(collisions, 0);
    assert_eq!(after.len(), 2);
}

// `HashControllerRevision` over the stored bytes: each testdata revision is named after the
// FNV-32 hash of its data with collision count 0.
#[test]
fn testdata_revision_names_are_their_hashes() {
    for (v134, hash) in [(false, "c77f6d978"), (true, "776999688b")] {
        let r: ControllerRevision = serde_json::from_value(revision_json(v134)).unwrap();
        assert_eq!(hash_controller_revision(&r, Some(0)), hash);
    }
}

// The predicate behind the gate: both testdata revisions describe both testdata sets; a real
// template change (another image) does not.
#[test]
fn set_matches_revision_ignores_serialization_not_changes() {
    let mut api = api_with(&FeatureGates::default());
    let set133 = match load(&mut api, set_json(false)) {
        Object::StatefulSet(s) => s,
        o => panic!("{o:?}"),
    };
    let mut api = api_with(&FeatureGates::default());
    let set134 = match load(&mut api, set_json(true)) {
        Object::StatefulSet(s) => s,
        o => panic!("{o:?}"),
    };
    for set in [&set133, &set134] {
        for v134 in [false, true] {
            let r: ControllerRevision = serde_json::from_value(revision_json(v134)).unwrap();
            assert!(set_matches_revision(set, &r), "rev 1.3{}", 3 + v134 as u8);
        }
    }
    let mut changed: StatefulSet = set134.clone();
    changed.spec.template_mut().spec_mut().containers[0].image = "test:2".into();
    let r: ControllerRevision = serde_json::from_value(revision_json(false)).unwrap();
    assert!(!set_matches_revision(&changed, &r));
}

// The older copy of TestStatefulSetCompatibility (before the testdata files): a running 1.33
// StatefulSet — set, ready pod `test-0`, bound claim and revision `test-c77f6d978` as 1.33 wrote
// them — synced once by the current controller: no revision is created, and no pod is created,
// updated or deleted. Upstream builds its objects in namespace `test`; the set, pod, claim and
// revision here are that test's objects.
#[test]
fn a_running_1_33_stateful_set_is_left_alone() {
    let gates = FeatureGates::default();
    let now = Time::from_unix_secs(NOW);
    let hour_ago = "2025-11-04T23:00:00Z";
    let mut sim = Simulation::new(1, now, gates, World::default());
    sim.add_loop(Box::new(super::StatefulSetController::new()));
    let mut set = set_json(false);
    set["metadata"]["namespace"] = json!("test");
    set["metadata"]["uid"] = json!("ssuid");
    set["metadata"]["resourceVersion"] = json!("123");
    set["metadata"]["creationTimestamp"] = json!(hour_ago);
    set["spec"]["volumeClaimTemplates"][0]["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("creationTimestamp");
    set["status"]["readyReplicas"] = json!(1);
    let mut rev = revision_json(false);
    rev["metadata"]["namespace"] = json!("test");
    rev["metadata"]["uid"] = json!("revuid");
    rev["metadata"]["resourceVersion"] = json!("234");
    rev["metadata"]["creationTimestamp"] = json!(hour_ago);
    rev["metadata"]["ownerReferences"][0]["uid"] = json!("ssuid");
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "annotations": {"test": "value"}, "creationTimestamp": hour_ago,
            "generateName": "test-", "generation": 1,
            "labels": {
                "app": "foo", "apps.kubernetes.io/pod-index": "0",
                "controller-revision-hash": "test-c77f6d978",
                "statefulset.kubernetes.io/pod-name": "test-0"
            },
            "name": "test-0", "namespace": "test",
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true,
                "controller": true, "kind": "StatefulSet", "name": "test", "uid": "ssuid"}],
            "resourceVersion": "345", "uid": "poduid"
        },
        "spec": {
            "containers": [{"image": "test", "name": "test"}],
            "nodeName": "mynode", "hostname": "test-0",
            "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
            "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "serviceAccount": "default", "serviceAccountName": "default",
            "volumes": [{"name": "test", "persistentVolumeClaim": {"claimName": "test-test-0"}}]
        },
        "status": {
            "phase": "Running",
            "containerStatuses": [{"name": "test", "ready": true, "started": true,
                "state": {"running": {"startedAt": hour_ago}},
                "image": "test", "imageID": "", "restartCount": 0}],
            "observedGeneration": 1,
            "conditions": [{"type": "Ready", "observedGeneration": 1, "status": "True",
                "lastProbeTime": hour_ago, "lastTransitionTime": hour_ago}]
        }
    });
    let claim = json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {
            "annotations": {"key": "value",
                "volume.beta.kubernetes.io/storage-provisioner": "kubernetes.io/host-path",
                "volume.kubernetes.io/storage-provisioner": "kubernetes.io/host-path"},
            "creationTimestamp": hour_ago,
            "finalizers": ["kubernetes.io/pvc-protection"],
            "labels": {"app": "foo", "key": "value"},
            "name": "test-test-0", "namespace": "test",
            "resourceVersion": "2212", "uid": "pvcuid"
        },
        "spec": {
            "accessModes": ["ReadWriteOnce"],
            "resources": {"requests": {"storage": "1Gi"}},
            "storageClassName": "standard", "volumeMode": "Filesystem", "volumeName": "pv"
        },
        "status": {"phase": "Bound"}
    });
    for o in [rev, claim, pod, set] {
        sim.api.load(Object::from_value(o).unwrap()).unwrap();
    }
    let pod_before = sim.api.store.get::<Pod>("test", "test-0").cloned().unwrap();
    let set_before = sim
        .api
        .store
        .get::<StatefulSet>("test", "test")
        .cloned()
        .unwrap();
    sim.settle().unwrap();

    let revisions: Vec<String> = sim
        .api
        .store
        .list::<ControllerRevision>(Some("test"))
        .map(|r| format!("{} {}", r.metadata.name, r.revision))
        .collect();
    assert_eq!(revisions, ["test-c77f6d978 1"], "no new revision");
    let pods: Vec<Pod> = sim.api.store.list::<Pod>(Some("test")).cloned().collect();
    assert_eq!(pods.len(), 1);
    assert_eq!(pods[0], pod_before, "the pod is not written");
    let set_after = sim
        .api
        .store
        .get::<StatefulSet>("test", "test")
        .cloned()
        .unwrap();
    assert_eq!(
        set_after.metadata.resource_version, set_before.metadata.resource_version,
        "the set (and its status) is not written"
    );
    assert_eq!(set_after.status.update_revision, "test-c77f6d978");
    let events: Vec<String> = sim
        .api
        .events
        .iter()
        .filter(|e| e.kind == "StatefulSet")
        .map(|e| format!("{} {}", e.reason, e.message))
        .collect();
    assert!(events.is_empty(), "{events:?}");
}
