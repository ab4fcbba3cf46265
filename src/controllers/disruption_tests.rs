//! Ports of pkg/controller/disruption/disruption_test.go. Upstream fills the informer stores,
//! calls `dc.sync` and reads the PDB status the fake client received
//! (`VerifyPdbStatus(disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods,
//! disruptedPods)`); here the store is filled the same way and the status `trySync` would
//! write is computed by the same steps.

use super::*;
use serde_json::{json, Value};

fn now() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

fn obj(v: Value) -> Object {
    Object::from_value(v).unwrap()
}

/// `newMinAvailablePodDisruptionBudget` / `newMaxUnavailablePodDisruptionBudget`: selector
/// `foo=bar`.
fn pdb(bound: &str, v: Value) -> PodDisruptionBudget {
    let o = obj(
        json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "foobar", "namespace": "default", "uid": "pdb-uid", "generation": 1},
        "spec": {bound: v, "selector": {"matchLabels": {"foo": "bar"}}}}),
    );
    PodDisruptionBudget::from_object(&o).unwrap().clone()
}

/// `newPod`: ready, labelled `foo=bar`, no owner.
fn pod(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "uid": format!("{name}-uid"),
                     "labels": {"foo": "bar"}},
        "spec": {"containers": [{"name": "c", "image": "i"}]},
        "status": {"conditions": [{"type": "Ready", "status": "True"}]}})
}

fn owned(mut p: Value, api: &str, kind: &str, name: &str) -> Value {
    p["metadata"]["ownerReferences"] = json!([{"apiVersion": api, "kind": kind, "name": name,
        "uid": format!("{name}-uid"), "controller": true}]);
    p
}

fn workload(api: &str, kind: &str, name: &str, replicas: i32) -> Object {
    let mut v = json!({"apiVersion": api, "kind": kind,
        "metadata": {"name": name, "namespace": "default", "uid": format!("{name}-uid")},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"foo": "bar"}},
                 "template": {"metadata": {"labels": {"foo": "bar"}},
                              "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
    if kind == "ReplicationController" {
        v["spec"]["selector"] = json!({"foo": "bar"});
    }
    obj(v)
}

/// (disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods, disruptedPods).
type Status = (i32, i32, i32, i32, BTreeMap<String, Time>);

/// The status the sync computes, or the error `failSafe` reports.
fn sync_status(store: &Store, pdb: &PodDisruptionBudget) -> Result<Status, String> {
    let pods = get_pods_for_pdb(store, pdb)?;
    let (expected, desired, _) = get_expected_pod_count(store, pdb, &pods)?;
    let (disrupted, _, _) = build_disrupted_pod_map(&pods, pdb, now());
    let healthy = count_healthy_pods(&pods, &disrupted, now());
    let new = compute_pdb_status(pdb, healthy, desired, expected, disrupted, now())
        .unwrap_or_else(|| pdb.clone());
    let s = new.status;
    Ok((
        s.disruptions_allowed,
        s.current_healthy,
        s.desired_healthy,
        s.expected_pods,
        s.disrupted_pods,
    ))
}

fn counts(store: &Store, pdb: &PodDisruptionBudget) -> (i32, i32, i32, i32) {
    let (a, c, d, e, _) = sync_status(store, pdb).unwrap();
    (a, c, d, e)
}

// upstream: TestNoSelector (pkg/controller/disruption/disruption_test.go). policy/v1: an empty
// selector selects every pod of the namespace.
#[test]
fn no_selector() {
    let mut p = pdb("minAvailable", json!(3));
    p.spec.selector = Some(Default::default());
    let mut store = Store::new();
    assert_eq!(counts(&store, &p), (0, 0, 3, 0));
    store.put(obj(pod("yo-yo-yo")));
    assert_eq!(counts(&store, &p), (0, 1, 3, 1));
    // A nil selector selects nothing.
    p.spec.selector = None;
    assert_eq!(counts(&store, &p), (0, 0, 3, 0));
}

// upstream: TestUnavailable (disruption_test.go)
#[test]
fn unavailable() {
    let p = pdb("minAvailable", json!(3));
    let mut store = Store::new();
    for i in 0..4 {
        assert_eq!(counts(&store, &p), (0, i, 3, i));
        store.put(obj(pod(&format!("yo-yo-yo {i}"))));
    }
    assert_eq!(counts(&store, &p), (1, 4, 3, 4));
    let mut first = pod("yo-yo-yo 0");
    first["status"]["conditions"] = json!([]);
    store.put(obj(first));
    assert_eq!(counts(&store, &p), (0, 3, 3, 4));
}

// upstream: TestIntegerMaxUnavailable (disruption_test.go): naked pods have no scale, so a
// maxUnavailable budget expects 0 pods and allows nothing (an UnmanagedPods event).
#[test]
fn integer_max_unavailable() {
    let p = pdb("maxUnavailable", json!(1));
    let mut store = Store::new();
    assert_eq!(counts(&store, &p).0, 0);
    store.put(obj(pod("naked")));
    assert_eq!(counts(&store, &p).0, 0);
    let pods = get_pods_for_pdb(&store, &p).unwrap();
    assert_eq!(
        get_expected_pod_count(&store, &p, &pods).unwrap().2,
        ["naked"]
    );
}

// upstream: TestIntegerMaxUnavailableWithScaling (disruption_test.go)
#[test]
fn integer_max_unavailable_with_scaling() {
    let p = pdb("maxUnavailable", json!(2));
    let mut store = Store::new();
    store.put(workload("apps/v1", "ReplicaSet", "rs", 7));
    store.put(obj(owned(pod("pod"), "apps/v1", "ReplicaSet", "rs")));
    assert_eq!(counts(&store, &p), (0, 1, 5, 7));
    store.put(workload("apps/v1", "ReplicaSet", "rs", 5));
    assert_eq!(counts(&store, &p), (0, 1, 3, 5));
}

// upstream: TestNakedPod (disruption_test.go)
#[test]
fn naked_pod() {
    let p = pdb("minAvailable", json!("28%"));
    let mut store = Store::new();
    store.put(obj(pod("naked")));
    assert_eq!(counts(&store, &p).0, 0);
}

// upstream: TestReplicaSet (disruption_test.go)
#[test]
fn replica_set() {
    let p = pdb("minAvailable", json!("20%"));
    let mut store = Store::new();
    store.put(workload("apps/v1", "ReplicaSet", "rs", 10));
    store.put(obj(owned(pod("pod"), "apps/v1", "ReplicaSet", "rs")));
    assert_eq!(counts(&store, &p), (0, 1, 2, 10));
}

// upstream: TestReplicationController (disruption_test.go): 34% of 3 rounds up to 2; a rogue
// naked pod counts as healthy but adds no scale.
#[test]
fn replication_controller() {
    let p = pdb("minAvailable", json!("34%"));
    let mut store = Store::new();
    store.put(workload("v1", "ReplicationController", "rc", 3));
    assert_eq!(counts(&store, &p), (0, 0, 0, 0));
    for i in 0..3 {
        store.put(obj(owned(
            pod(&format!("foobar {i}")),
            "v1",
            "ReplicationController",
            "rc",
        )));
        let want = if i < 2 {
            (0, i + 1, 2, 3)
        } else {
            (1, 3, 2, 3)
        };
        assert_eq!(counts(&store, &p), want);
    }
    store.put(obj(pod("rogue")));
    assert_eq!(counts(&store, &p).0, 2);
}

// upstream: TestStatefulSetController (disruption_test.go)
#[test]
fn stateful_set_controller() {
    let p = pdb("minAvailable", json!("34%"));
    let mut store = Store::new();
    store.put(workload("apps/v1", "StatefulSet", "ss", 3));
    assert_eq!(counts(&store, &p), (0, 0, 0, 0));
    for i in 0..3 {
        store.put(obj(owned(
            pod(&format!("foobar {i}")),
            "apps/v1",
            "StatefulSet",
            "ss",
        )));
        let want = if i < 2 {
            (0, i + 1, 2, 3)
        } else {
            (1, 3, 2, 3)
        };
        assert_eq!(counts(&store, &p), want);
    }
}

// upstream: TestMultipleControllers (disruption_test.go): no controller yet allows nothing;
// with both pods under one RC of one replica, 200% > 1% healthy allows one disruption (the
// second-RC assertion is commented out upstream).
#[test]
fn multiple_controllers() {
    let p = pdb("minAvailable", json!("1%"));
    let mut store = Store::new();
    for i in 0..2 {
        store.put(obj(pod(&format!("pod {i}"))));
    }
    assert_eq!(counts(&store, &p).0, 0);
    store.put(workload("v1", "ReplicationController", "rc1", 1));
    for i in 0..2 {
        store.put(obj(owned(
            pod(&format!("pod {i}")),
            "v1",
            "ReplicationController",
            "rc1",
        )));
    }
    assert_eq!(counts(&store, &p).0, 1);
}

// upstream: TestUpdateDisruptedPods (disruption_test.go)
#[test]
fn update_disrupted_pods() {
    let mut p = pdb("minAvailable", json!(1));
    let t = now();
    p.status.disrupted_pods = BTreeMap::from([
        ("p1".to_string(), t),                            // pod deletion started
        ("p2".to_string(), t - Duration::from_secs(180)), // expired
        ("p3".to_string(), t - Duration::from_secs(60)),  // stays
        ("notthere".to_string(), t),                      // pod gone
    ]);
    let mut store = Store::new();
    let mut p1 = pod("p1");
    p1["metadata"]["deletionTimestamp"] = json!(t.to_rfc3339());
    store.put(obj(p1));
    store.put(obj(pod("p2")));
    store.put(obj(pod("p3")));
    let (a, c, d, e, disrupted) = sync_status(&store, &p).unwrap();
    assert_eq!((a, c, d, e), (0, 1, 1, 3));
    assert_eq!(
        disrupted,
        BTreeMap::from([("p3".to_string(), t - Duration::from_secs(60))])
    );
    let pods = get_pods_for_pdb(&store, &p).unwrap();
    let (_, not_deleted, recheck) = build_disrupted_pod_map(&pods, &p, t);
    assert_eq!(not_deleted, ["p2"]);
    assert_eq!(recheck, Some(t + Duration::from_secs(60)));
}

// upstream: TestBasicFinderFunctions (disruption_test.go): a ReplicaSet, a StatefulSet and a
// ReplicationController are found by kind, group, name and UID; a Deployment through its
// ReplicaSet.
#[test]
fn basic_finder_functions() {
    let mut store = Store::new();
    store.put(workload("apps/v1", "ReplicaSet", "rs", 10));
    store.put(workload("apps/v1", "StatefulSet", "ss", 10));
    store.put(workload("v1", "ReplicationController", "rc", 12));
    store.put(workload("apps/v1", "Deployment", "dep", 10));
    let mut rs2 = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "rs2", "namespace": "default", "uid": "rs2-uid",
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "dep",
                                 "uid": "dep-uid", "controller": true}]},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"foo": "bar"}},
                 "template": {"metadata": {"labels": {"foo": "bar"}},
                              "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
    store.put(obj(rs2.take()));
    let r = |api: &str, kind: &str, name: &str, uid: &str| OwnerReference {
        api_version: api.into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: None,
    };
    let find = |o: OwnerReference| find_controller(&store, &o, "default");
    assert_eq!(
        find(r("apps/v1", "ReplicaSet", "rs", "rs-uid")),
        Ok(Some(("rs-uid".into(), 10)))
    );
    assert_eq!(
        find(r("extensions/v1beta1", "ReplicaSet", "rs", "rs-uid")),
        Ok(Some(("rs-uid".into(), 10)))
    );
    assert_eq!(find(r("apps/v1", "ReplicaSet", "rs", "other")), Ok(None));
    assert_eq!(find(r("apps/v1", "ReplicaSet", "nope", "x")), Ok(None));
    assert_eq!(
        find(r("apps/v1", "StatefulSet", "ss", "ss-uid")),
        Ok(Some(("ss-uid".into(), 10)))
    );
    assert_eq!(
        find(r("v1", "ReplicationController", "rc", "rc-uid")),
        Ok(Some(("rc-uid".into(), 12)))
    );
    // The Deployment's scale, not its ReplicaSet's.
    assert_eq!(
        find(r("apps/v1", "ReplicaSet", "rs2", "rs2-uid")),
        Ok(Some(("dep-uid".into(), 10)))
    );
}

// upstream: TestScaleFinderNoResource (disruption_test.go), "resource does not implement
// scale": a controller kind without a scale subresource fails the sync (`getScaleController`).
#[test]
fn scale_finder_no_resource() {
    let p = pdb("minAvailable", json!("50%"));
    let mut store = Store::new();
    store.put(obj(owned(pod("pod"), "batch/v1", "Job", "job")));
    assert_eq!(
        sync_status(&store, &p).unwrap_err(),
        "jobs.batch does not implement the scale subresource"
    );
    // An integer minAvailable never looks at controllers.
    let p = pdb("minAvailable", json!(1));
    assert_eq!(counts(&store, &p), (0, 1, 1, 1));
}

// A pod whose controller cannot be found fails the sync (`getExpectedScale`).
#[test]
fn found_no_controllers() {
    let p = pdb("maxUnavailable", json!("10%"));
    let mut store = Store::new();
    store.put(obj(owned(pod("pod"), "apps/v1", "ReplicaSet", "gone")));
    assert_eq!(
        sync_status(&store, &p).unwrap_err(),
        "found no controllers for pod \"pod\""
    );
}

/// The status written: observedGeneration and the DisruptionAllowed condition
/// (`UpdateDisruptionAllowedCondition`), and no write when nothing changed.
#[test]
fn condition_and_no_op_update() {
    let p = pdb("minAvailable", json!(1));
    let new = compute_pdb_status(&p, 2, 1, 2, BTreeMap::new(), now()).unwrap();
    assert_eq!(new.status.observed_generation, 1);
    assert_eq!(
        new.status.conditions,
        [Condition {
            type_: "DisruptionAllowed".into(),
            status: "True".into(),
            observed_generation: 1,
            last_transition_time: Some(now()),
            reason: "SufficientPods".into(),
            message: String::new(),
        }]
    );
    assert!(compute_pdb_status(&new, 2, 1, 2, BTreeMap::new(), now()).is_none());
    let later = now() + Duration::from_secs(5);
    let low = compute_pdb_status(&new, 1, 1, 2, BTreeMap::new(), later).unwrap();
    let c = &low.status.conditions[0];
    assert_eq!(
        (c.status.as_str(), c.reason.as_str(), c.last_transition_time),
        ("False", "InsufficientPods", Some(later))
    );
}

// upstream: TestPDBNotExist (disruption_test.go) is covered by `sync` returning Ok for a
// missing key; the getPdbForPod rules (`GetPodPodDisruptionBudgets`):
#[test]
fn pdbs_for_pod() {
    let mut store = Store::new();
    store.put(pdb("minAvailable", json!(1)).into_object());
    let mut empty = pdb("minAvailable", json!(1));
    empty.metadata.name = "empty".into();
    empty.spec.selector = Some(Default::default());
    store.put(empty.into_object());
    let p = obj(pod("p"));
    let Object::Pod(p) = p else { unreachable!() };
    let names: Vec<&str> = get_pod_pod_disruption_budgets(&store, &p)
        .iter()
        .map(|x| x.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["foobar"]);
}

#[path = "disruption_more_tests.rs"]
mod more;
