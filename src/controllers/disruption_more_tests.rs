//! More ports of pkg/controller/disruption/disruption_test.go: the status tables not ported in
//! `disruption_tests.rs`, and the tests that need the controller's reconcile (events,
//! `failSafe`, the recheck and stale-condition queues), run against the simulated API server.

use super::*;
use crate::sim::Simulation;
use crate::store::apiserver::ApiServer;

/// The disruption controller with the simulated API server and a recording client, as
/// upstream's `newFakeDisruptionController` with the production updater.
struct Harness {
    api: ApiServer,
    gates: crate::features::FeatureGates,
    queue: WorkQueue,
    world: crate::world::World,
    actions: Vec<crate::controllers::Action>,
    dc: DisruptionController,
}

impl Harness {
    fn new() -> Self {
        Harness {
            api: ApiServer::new(1, now()),
            gates: Default::default(),
            queue: WorkQueue::new(),
            world: Default::default(),
            actions: vec![],
            dc: DisruptionController::default(),
        }
    }

    fn load(&mut self, v: Value) {
        self.api.load(obj(v)).unwrap();
    }

    /// Stores an object without validation (an informer store holding what a test put there).
    fn put(&mut self, o: Object) {
        self.api.store.put(o);
    }

    fn with_ctx<R>(&mut self, f: impl FnOnce(&mut DisruptionController, &mut Ctx) -> R) -> R {
        let mut ctx = Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component: COMPONENT,
        };
        f(&mut self.dc, &mut ctx)
    }

    /// `dc.sync(ctx, key)`.
    fn sync(&mut self, key: &str) -> Result<(), ApiError> {
        self.with_ctx(|dc, ctx| dc.sync(key, ctx))
    }

    fn pdb(&self) -> PodDisruptionBudget {
        self.api
            .store
            .get::<PodDisruptionBudget>("default", "foobar")
            .unwrap()
            .clone()
    }

    /// (disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods).
    fn counts(&self) -> (i32, i32, i32, i32) {
        let s = self.pdb().status;
        (
            s.disruptions_allowed,
            s.current_healthy,
            s.desired_healthy,
            s.expected_pods,
        )
    }

    fn reasons(&self) -> Vec<String> {
        self.api
            .events
            .iter()
            .map(|e| e.reason.to_string())
            .collect()
    }

    /// `ps.VerifyNoStatusError`: no SyncFailed condition.
    fn no_status_error(&self) -> bool {
        self.pdb()
            .status
            .conditions
            .iter()
            .all(|c| c.reason != SYNC_FAILED_REASON)
    }
}

fn pdb_value(bound: &str, v: Value) -> Value {
    json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "foobar", "namespace": "default", "uid": "pdb-uid"},
        "spec": {bound: v, "selector": {"matchLabels": {"foo": "bar"}}}})
}

fn unready(mut p: Value) -> Value {
    p["status"]["conditions"] = json!([]);
    p
}

// upstream: TestPercentageMaxUnavailableWithScaling (disruption_test.go)
#[test]
fn percentage_max_unavailable_with_scaling() {
    let p = pdb("maxUnavailable", json!("30%"));
    let mut store = Store::new();
    store.put(workload("apps/v1", "ReplicaSet", "rs", 7));
    store.put(obj(owned(pod("pod"), "apps/v1", "ReplicaSet", "rs")));
    assert_eq!(counts(&store, &p), (0, 1, 4, 7));
    store.put(workload("apps/v1", "ReplicaSet", "rs", 3));
    assert_eq!(counts(&store, &p), (0, 1, 2, 3));
}

// upstream: TestTwoControllers (disruption_test.go): an RC of 11 and a ReplicaSet of 11 (no
// Deployment owns it) under a 28% budget; intermediate statuses as pods come and go.
#[test]
fn two_controllers() {
    const COLLECTION_SIZE: i32 = 11;
    const MINIMUM_ONE: i32 = 4;
    const MINIMUM_TWO: i32 = 7;
    let p = pdb("minAvailable", json!("28%"));
    let mut store = Store::new();
    let mut rc = serde_json::to_value(workload(
        "v1",
        "ReplicationController",
        "rc",
        COLLECTION_SIZE,
    ))
    .unwrap();
    rc["spec"]["selector"] = json!({"foo": "bar", "baz": "quux"});
    store.put(obj(rc));
    assert_eq!(counts(&store, &p), (0, 0, 0, 0));

    let labelled = |name: &str, baz: &str, ready: bool, api: &str, kind: &str, owner: &str| {
        let mut v = owned(pod(name), api, kind, owner);
        v["metadata"]["labels"] = json!({"foo": "bar", "baz": baz});
        if ready {
            v
        } else {
            unready(v)
        }
    };
    let mut unavailable = COLLECTION_SIZE - MINIMUM_ONE - 1;
    for i in 1..=COLLECTION_SIZE {
        let ready = i > unavailable;
        let name = format!("quux {i}");
        store.put(obj(labelled(
            &name,
            "quux",
            ready,
            "v1",
            "ReplicationController",
            "rc",
        )));
        let want = if i <= unavailable {
            (0, 0, MINIMUM_ONE, COLLECTION_SIZE)
        } else if i - unavailable <= MINIMUM_ONE {
            (0, i - unavailable, MINIMUM_ONE, COLLECTION_SIZE)
        } else {
            (1, i - unavailable, MINIMUM_ONE, COLLECTION_SIZE)
        };
        assert_eq!(counts(&store, &p), want, "rc pod {i}");
    }

    // A Deployment alone changes nothing (no pod refers to it).
    store.put(workload("apps/v1", "Deployment", "dep", COLLECTION_SIZE));
    assert_eq!(
        counts(&store, &p),
        (1, MINIMUM_ONE + 1, MINIMUM_ONE, COLLECTION_SIZE)
    );
    store.put(workload("apps/v1", "ReplicaSet", "rs", COLLECTION_SIZE));
    assert_eq!(
        counts(&store, &p),
        (1, MINIMUM_ONE + 1, MINIMUM_ONE, COLLECTION_SIZE)
    );

    unavailable = 2 * COLLECTION_SIZE - (MINIMUM_TWO + 2) - unavailable;
    for i in 1..=COLLECTION_SIZE {
        let ready = i > unavailable;
        let name = format!("quuux {i}");
        store.put(obj(labelled(
            &name,
            "quuux",
            ready,
            "apps/v1",
            "ReplicaSet",
            "rs",
        )));
        let want = if i <= unavailable {
            (0, MINIMUM_ONE + 1, MINIMUM_TWO, 2 * COLLECTION_SIZE)
        } else if i - unavailable <= MINIMUM_TWO - (MINIMUM_ONE + 1) {
            (
                0,
                (MINIMUM_ONE + 1) + (i - unavailable),
                MINIMUM_TWO,
                2 * COLLECTION_SIZE,
            )
        } else {
            (
                i - unavailable - (MINIMUM_TWO - (MINIMUM_ONE + 1)),
                (MINIMUM_ONE + 1) + (i - unavailable),
                MINIMUM_TWO,
                2 * COLLECTION_SIZE,
            )
        };
        assert_eq!(counts(&store, &p), want, "rs pod {i}");
    }

    // One pod down still allows a disruption, two do not; one back allows one again.
    assert_eq!(
        counts(&store, &p),
        (2, 2 + MINIMUM_TWO, MINIMUM_TWO, 2 * COLLECTION_SIZE)
    );
    let last = |i: i32, ready: bool| {
        obj(labelled(
            &format!("quux {i}"),
            "quux",
            ready,
            "v1",
            "ReplicationController",
            "rc",
        ))
    };
    // pods[collectionSize-1] and pods[collectionSize-2] are "quux 11" and "quux 10".
    store.put(last(COLLECTION_SIZE, false));
    assert_eq!(
        counts(&store, &p),
        (1, 1 + MINIMUM_TWO, MINIMUM_TWO, 2 * COLLECTION_SIZE)
    );
    store.put(last(COLLECTION_SIZE - 1, false));
    assert_eq!(
        counts(&store, &p),
        (0, MINIMUM_TWO, MINIMUM_TWO, 2 * COLLECTION_SIZE)
    );
    store.put(last(COLLECTION_SIZE, true));
    assert_eq!(
        counts(&store, &p),
        (1, 1 + MINIMUM_TWO, MINIMUM_TWO, 2 * COLLECTION_SIZE)
    );
}

/// (ReplicaSet ref apiVersion, kind, Deployment ref apiVersion, kind, the scale found).
type FinderCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Result<Option<i32>, &'static str>,
);

// upstream: TestDeploymentFinderFunction (disruption_test.go). kubeplay's finder runs the
// whole `finders()` chain, so where upstream's getPodDeployment alone finds nothing the chain
// may still find the ReplicaSet (getPodReplicaSet) or fail in getScaleController.
#[test]
fn deployment_finder_function() {
    let cases: [FinderCase; 5] = [
        // happy path
        (
            "apps/v1",
            "ReplicaSet",
            "extensions/v1",
            "Deployment",
            Ok(Some(10)),
        ),
        // invalid rs apiVersion: no finder matches and there is no REST mapping.
        (
            "invalid/v1",
            "ReplicaSet",
            "apps/v1",
            "Deployment",
            Err("no matches for kind \"ReplicaSet\" in version \"invalid/v1\""),
        ),
        // invalid rs kind
        (
            "apps/v1",
            "InvalidKind",
            "apps/v1",
            "Deployment",
            Err("no matches for kind \"InvalidKind\" in version \"apps/v1\""),
        ),
        // invalid deployment apiVersion: getPodDeployment and getPodReplicaSet find nothing and
        // getScaleController has no mapping for extensions/v1.
        (
            "extensions/v1",
            "ReplicaSet",
            "deployment/v1",
            "Deployment",
            Err("no matches for kind \"ReplicaSet\" in version \"extensions/v1\""),
        ),
        // invalid deployment kind: getPodDeployment finds nothing, getPodReplicaSet the RS.
        (
            "apps/v1",
            "ReplicaSet",
            "extensions/v1",
            "InvalidKind",
            Ok(Some(5)),
        ),
    ];
    for (rs_api, rs_kind, dep_api, dep_kind, want) in cases {
        let mut store = Store::new();
        store.put(workload("apps/v1", "Deployment", "dep", 10));
        let mut rs = serde_json::to_value(workload("apps/v1", "ReplicaSet", "rs", 5)).unwrap();
        rs["metadata"]["ownerReferences"] = json!([{"apiVersion": dep_api, "kind": dep_kind,
            "name": "dep", "uid": "dep-uid", "controller": true}]);
        store.put(obj(rs));
        let r = OwnerReference {
            api_version: rs_api.into(),
            kind: rs_kind.into(),
            name: "rs".into(),
            uid: "rs-uid".into(),
            ..Default::default()
        };
        let got = find_controller(&store, &r, "default").map(|o| o.map(|(_, n)| n));
        assert_eq!(
            got,
            want.map_err(String::from),
            "{rs_api} {rs_kind} {dep_api} {dep_kind}"
        );
    }
}

// upstream: TestPDBNotExist (disruption_test.go)
#[test]
fn pdb_not_exist() {
    let mut h = Harness::new();
    h.load(pdb_value("minAvailable", json!("67%")));
    assert!(h.sync("default/notExist").is_ok());
    assert!(h.actions.is_empty());
}

// upstream: TestStatusForUnmanagedPod and TestTotalUnmanagedPods (disruption_test.go): an
// unmanaged pod gives an UnmanagedPods warning, not a SyncFailed status.
#[test]
fn status_for_unmanaged_pod() {
    let mut h = Harness::new();
    h.load(pdb_value("minAvailable", json!("28%")));
    h.sync("default/foobar").unwrap();
    assert_eq!(h.pdb().status.disruptions_allowed, 0);
    assert_eq!(h.reasons(), ["NoPods"]);
    h.load(pod("unmanaged"));
    h.sync("default/foobar").unwrap();
    assert!(h.no_status_error());
    let p = h.pdb();
    let pods = get_pods_for_pdb(&h.api.store, &p).unwrap();
    assert_eq!(
        get_expected_scale(&h.api.store, &pods).unwrap().1,
        ["unmanaged"]
    );
    let e = h.api.events.last().unwrap();
    assert_eq!(
        (e.type_.as_ref(), e.reason.as_ref(), e.kind.as_ref()),
        ("Warning", "UnmanagedPods", "PodDisruptionBudget")
    );
    assert_eq!(
        e.message,
        "Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{foo: bar,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value."
    );
    // The recorder's source is `controllermanager`.
    assert_eq!(e.source.as_ref(), "controllermanager");
}

// upstream: TestUnsupportedControllerPod (disruption_test.go): a controller kind without a
// REST mapping fails the sync with a CalculateExpectedPodCountFailed warning and failSafe.
#[test]
fn unsupported_controller_pod() {
    let mut h = Harness::new();
    h.load(pdb_value("minAvailable", json!("28%")));
    h.sync("default/foobar").unwrap();
    h.load(owned(
        pod("naked"),
        "apps.test.io/v1",
        "TestWorkload",
        "fake-controller",
    ));
    h.sync("default/foobar").unwrap();
    let p = h.pdb();
    assert_eq!(p.status.disruptions_allowed, 0);
    let e = h.api.events.last().unwrap();
    assert_eq!(
        (e.reason.as_ref(), e.message.as_str()),
        (
            "CalculateExpectedPodCountFailed",
            "Failed to calculate the number of expected pods: no matches for kind \"TestWorkload\" in version \"apps.test.io/v1\""
        )
    );
    let c = &p.status.conditions[0];
    assert_eq!(
        (c.status.as_str(), c.reason.as_str(), c.message.as_str()),
        (
            "False",
            "SyncFailed",
            "no matches for kind \"TestWorkload\" in version \"apps.test.io/v1\""
        )
    );
}

// upstream: TestInvalidSelectors (disruption_test.go): a selector LabelSelectorAsSelector
// refuses fails the sync (NoPods warning, failSafe): the counts stay zero.
#[test]
fn invalid_selectors() {
    let cases = [
        (
            "illegal value key",
            json!({"matchLabels": {"k8s.io/too/many/slashes": "value"}}),
            "key: Invalid value: \"k8s.io/too/many/slashes\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        ),
        (
            "illegal operator",
            json!({"matchExpressions": [{"key": "foo", "operator": "illegal", "values": ["bar"]}]}),
            "\"illegal\" is not a valid label selector operator",
        ),
    ];
    for (name, sel, msg) in cases {
        let mut h = Harness::new();
        let mut v = pdb_value("minAvailable", json!(3));
        v["spec"]["selector"] = sel;
        let mut o = obj(v);
        o.meta_mut().resource_version = "1".into();
        h.put(o);
        h.sync("default/foobar").unwrap();
        let p = h.pdb();
        assert_eq!(h.counts(), (0, 0, 0, 0), "{name}");
        assert!(p.status.disrupted_pods.is_empty());
        assert_eq!(p.status.observed_generation, p.metadata.generation);
        let c = &p.status.conditions[0];
        assert_eq!(
            (
                c.type_.as_str(),
                c.status.as_str(),
                c.reason.as_str(),
                c.message.as_str()
            ),
            ("DisruptionAllowed", "False", "SyncFailed", msg),
            "{name}"
        );
        let e = h.api.events.last().unwrap();
        assert_eq!(
            (e.type_.as_ref(), e.reason.as_ref(), e.message.clone()),
            ("Warning", "NoPods", format!("Failed to get pods: {msg}")),
            "{name}"
        );
    }
}

// upstream: TestKeepExistingPDBConditionDuringSync (disruption_test.go)
#[test]
fn keep_existing_pdb_condition_during_sync() {
    let mut h = Harness::new();
    let mut v = pdb_value("minAvailable", json!(3));
    v["spec"]["selector"] = json!({});
    v["status"] = json!({"conditions": [{"type": "ExistingTestCondition", "status": "True",
        "message": "This is a test condition", "reason": "Test",
        "lastTransitionTime": "2025-01-01T00:00:00Z"}]});
    h.load(v);
    h.sync("default/foobar").unwrap();
    assert_eq!(h.counts(), (0, 0, 3, 0));
    let p = h.pdb();
    let types: Vec<&str> = p
        .status
        .conditions
        .iter()
        .map(|c| c.type_.as_str())
        .collect();
    assert_eq!(types, ["ExistingTestCondition", "DisruptionAllowed"]);
}

// upstream: TestUpdatePDBStatusRetries (disruption_test.go): a status write that conflicts
// (the eviction handler changed the budget meanwhile) is retried, not turned into failSafe's
// stale write; the budget keeps the evictions' DisruptionsAllowed.
#[test]
fn update_pdb_status_retries() {
    let mut h = Harness::new();
    h.load(pdb_value("minAvailable", json!(1)));
    for name in ["moe", "larry", "curly"] {
        h.load(pod(name));
    }
    h.sync("default/foobar").unwrap();
    assert_eq!(h.counts().0, 2);
    // The controller's (lister's) copy before the evictions.
    let stale = h.pdb();
    // (A) one pod deleted; (B) the two others evicted: the budget taken from and the pods gone.
    let mut evicted = h.pdb();
    evicted.status.disruptions_allowed -= 2;
    evicted.status.disrupted_pods = [("larry".to_string(), now()), ("curly".to_string(), now())]
        .into_iter()
        .collect();
    h.api.update_status(evicted.into_object()).unwrap();
    for name in ["moe", "larry", "curly"] {
        h.api
            .store
            .remove(&crate::store::ObjectRef::new("Pod", "default", name));
    }
    // The sync working from the stale copy gets a Conflict, which `sync` returns for a
    // rate-limited retry without failSafe.
    let err = h.with_ctx(|dc, ctx| dc.try_sync(&stale, ctx)).unwrap_err();
    let SyncError::Api(e) = err else {
        panic!("want an API error")
    };
    assert_eq!(e.reason, crate::api::Reason::Conflict);
    assert_eq!(h.pdb().status.disruptions_allowed, 0);
    // The retry sees the current budget.
    h.sync("default/foobar").unwrap();
    assert_eq!(h.pdb().status.disruptions_allowed, 0);
}

fn sim_with_controller() -> Simulation {
    let mut sim = Simulation::new(
        1,
        now(),
        crate::features::FeatureGates::default(),
        crate::world::World::default(),
    );
    sim.add_loop(new_disruption_controller());
    sim
}

fn stored_pod(sim: &Simulation, name: &str) -> Pod {
    sim.api.store.get::<Pod>("default", name).unwrap().clone()
}

// upstream: TestStalePodDisruption (disruption_test.go): a DisruptionTarget=True condition on a
// pod not being deleted is reset to False (no reason or message) after 2 minutes.
#[test]
fn stale_pod_disruption() {
    let target = |status: &str| {
        json!([{"type": "DisruptionTarget", "status": status,
                "lastTransitionTime": "2025-01-01T00:00:00Z"}])
    };
    // (name, conditions, being deleted, time passed in seconds, wanted DisruptionTarget status)
    let cases = [
        (
            "stale pod disruption",
            Some(target("True")),
            false,
            121,
            Some("False"),
        ),
        (
            "pod disruption in progress",
            Some(target("True")),
            false,
            119,
            Some("True"),
        ),
        (
            "pod disruption actuated",
            Some(target("True")),
            true,
            121,
            Some("True"),
        ),
        ("no pod disruption", None, true, 121, None),
        (
            "pod disruption cleared",
            Some(target("False")),
            true,
            121,
            Some("False"),
        ),
    ];
    for (name, conds, deleting, passed, want) in cases {
        let mut sim = sim_with_controller();
        let mut v = pod("foo");
        v["status"]["conditions"] = conds.unwrap_or_else(|| json!([]));
        if deleting {
            v["metadata"]["finalizers"] = json!(["example.com/keep"]);
        }
        sim.api.load(obj(v)).unwrap();
        if deleting {
            sim.api
                .delete("Pod", "default", "foo", &Default::default())
                .unwrap();
        }
        sim.run_for(Duration::from_secs(passed)).unwrap();
        let p = stored_pod(&sim, "foo");
        let got = p.condition("DisruptionTarget").map(|c| c.status.as_str());
        assert_eq!(got, want, "{name}");
        if name == "stale pod disruption" {
            let c = p.condition("DisruptionTarget").unwrap();
            assert_eq!((c.reason.as_str(), c.message.as_str()), ("", ""));
            assert_eq!(
                c.last_transition_time,
                Some(now() + Duration::from_secs(120))
            );
        }
    }
}

// A kubelet-set condition and a terminal pod are never stale
// (nonTerminatingPodHasStaleDisruptionCondition).
#[test]
fn kubelet_and_terminal_disruption_conditions_are_not_stale() {
    let mut p = obj(pod("foo"));
    let Object::Pod(pod) = &mut p else {
        unreachable!()
    };
    pod.set_condition_observed(
        "DisruptionTarget",
        "True",
        "TerminationByKubelet",
        "",
        now(),
        0,
    );
    let later = now() + Duration::from_secs(600);
    assert_eq!(
        non_terminating_pod_has_stale_disruption_condition(pod, later),
        None
    );
    pod.set_condition_observed(
        "DisruptionTarget",
        "True",
        "EvictionByEvictionAPI",
        "",
        now(),
        0,
    );
    assert_eq!(
        non_terminating_pod_has_stale_disruption_condition(pod, now() + Duration::from_secs(30)),
        Some(Duration::from_secs(90))
    );
    pod.status.phase = "Failed".into();
    assert_eq!(
        non_terminating_pod_has_stale_disruption_condition(pod, later),
        None
    );
}

// getPdbForPod: a pod matching several budgets gets a MultiplePodDisruptionBudgets warning (on
// the pod, upstream's message with two spaces) and only the first budget is synced for it.
#[test]
fn multiple_pod_disruption_budgets_event() {
    let mut sim = sim_with_controller();
    for name in ["a", "b"] {
        let mut v = pdb_value("minAvailable", json!(1));
        v["metadata"]["name"] = json!(name);
        v["metadata"]["uid"] = json!(format!("{name}-uid"));
        sim.api.load(obj(v)).unwrap();
    }
    sim.settle().unwrap();
    sim.api.create(obj(pod("p"))).unwrap();
    sim.settle().unwrap();
    let multi: Vec<_> = sim
        .api
        .events
        .iter()
        .filter(|e| e.reason.as_ref() == "MultiplePodDisruptionBudgets")
        .collect();
    assert_eq!(multi.len(), 1);
    let e = multi[0];
    assert_eq!(
        (
            e.kind.as_ref(),
            e.name.as_ref(),
            e.type_.as_ref(),
            e.source.as_ref(),
            e.message.as_str()
        ),
        (
            "Pod",
            "p",
            "Warning",
            "controllermanager",
            "Pod \"default\"/\"p\" matches multiple PodDisruptionBudgets.  Chose \"a\" arbitrarily."
        )
    );
}

// buildDisruptedPodMap's recheck: a pod recorded in disruptedPods but never deleted is dropped
// once DeletionTimeout has passed (NotDeleted on the pod). The deadline goes through the recheck
// queue and AddRateLimited (5 ms), so the sync runs just after it, not in a loop at it.
#[test]
fn disrupted_pod_not_deleted_is_dropped_after_the_timeout() {
    let mut sim = sim_with_controller();
    let mut v = pdb_value("minAvailable", json!(1));
    v["status"] = json!({"disruptedPods": {"p": "2025-01-01T00:00:00Z"}});
    sim.api.load(obj(v)).unwrap();
    sim.api.load(obj(pod("p"))).unwrap();
    sim.settle().unwrap();
    let b = sim
        .api
        .store
        .get::<PodDisruptionBudget>("default", "foobar")
        .unwrap()
        .clone();
    assert_eq!(b.status.current_healthy, 0);
    assert_eq!(b.status.disrupted_pods.len(), 1);
    sim.run_for(Duration::from_secs(180)).unwrap();
    let b = sim
        .api
        .store
        .get::<PodDisruptionBudget>("default", "foobar")
        .unwrap()
        .clone();
    assert!(b.status.disrupted_pods.is_empty());
    assert_eq!(b.status.current_healthy, 1);
    let e = sim
        .api
        .events
        .iter()
        .find(|e| e.reason.as_ref() == "NotDeleted")
        .unwrap();
    assert_eq!(e.time, now() + Duration::from_millis(120_005));
    assert_eq!(
        (e.kind.as_ref(), e.name.as_ref(), e.message.as_str()),
        (
            "Pod",
            "p",
            "Pod was expected by PDB default/default to be deleted but it wasn't"
        )
    );
}

// getScaleController after the listers: a ReplicaSet whose Deployment is gone (getPodDeployment
// finds nothing, getPodReplicaSet skips a Deployment's ReplicaSet) is found through the
// ReplicaSet's scale subresource; a kind without one is an error.
#[test]
fn scale_subresource_fallback() {
    let mut store = Store::new();
    let mut rs = serde_json::to_value(workload("apps/v1", "ReplicaSet", "rs", 5)).unwrap();
    rs["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1", "kind": "Deployment",
        "name": "gone", "uid": "gone-uid", "controller": true}]);
    store.put(obj(rs));
    let r = |api: &str, kind: &str, name: &str, uid: &str| OwnerReference {
        api_version: api.into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        ..Default::default()
    };
    assert_eq!(
        find_controller(
            &store,
            &r("apps/v1", "ReplicaSet", "rs", "rs-uid"),
            "default"
        ),
        Ok(Some(("rs-uid".into(), 5)))
    );
    // The Scale's uid must be the reference's.
    assert_eq!(
        find_controller(
            &store,
            &r("apps/v1", "ReplicaSet", "rs", "other"),
            "default"
        ),
        Ok(None)
    );
    assert_eq!(
        find_controller(
            &store,
            &r("apps/v1", "DaemonSet", "ds", "ds-uid"),
            "default"
        ),
        Err("daemonsets.apps does not implement the scale subresource".into())
    );
}
