//! Ports of the controller-level upstream tests (`deployment_controller_test.go`, `sync_test.go`,
//! `rolling_test.go`, `recreate_test.go`, `progress_test.go`) against the simulated API server,
//! asserting the recorded client actions as upstream asserts its fake clientset's actions.
#![allow(clippy::type_complexity)]

use super::progress::{requeue_stuck_deployment, sync_rollout_status};
use super::recreate::{old_pods_running, scale_down_old_replica_sets_for_recreate};
use super::rollback::{rollout_undo, UndoResult};
use super::rolling::{
    cleanup_unhealthy_replicas, reconcile_new_replica_set, reconcile_old_replica_sets,
    scale_down_old_replica_sets_for_rolling_update,
};
use super::sync::{cleanup_deployment, scale};
use super::util::*;
use super::*;
use crate::api::{
    Container, DeploymentCondition, DeploymentStatus, Duration, IntOrString, LabelSelector, Labels,
    ObjectMeta, PodSpec, ReplicaSetCondition, ReplicaSetSpec, RollingUpdateDeployment,
};
use crate::features::FeatureGates;
use crate::store::apiserver::ApiServer;
use crate::world::World;

// ---------------------------------------------------------------------------------------------
// Fixture
// ---------------------------------------------------------------------------------------------

struct Fixture {
    api: ApiServer,
    gates: FeatureGates,
    queue: WorkQueue,
    world: World,
    actions: Vec<Action>,
    seq: u64,
}

fn ts(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}

impl Fixture {
    fn at(now: Time) -> Self {
        Fixture {
            api: ApiServer::new(7, now),
            gates: FeatureGates::default(),
            queue: WorkQueue::new(),
            world: World::default(),
            actions: vec![],
            seq: 0,
        }
    }

    fn new() -> Self {
        Self::at(ts("2016-05-20T03:00:00Z"))
    }

    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component: COMPONENT,
        }
    }

    /// Puts an object into the store as an informer would show it (no write through the API
    /// server, generation as given, as upstream's fake clientset), with the API server's
    /// pod-template defaults. The fixture must be an object a real API server could hold: it
    /// must pass create validation (after defaulting a copy), or the test fails.
    fn put(&mut self, o: Object) -> Object {
        let mut v = o.clone();
        crate::api::defaults::default_object(&mut v);
        let errs = crate::api::validation::validate_object(&v, None);
        assert!(
            errs.is_empty(),
            "invalid {} fixture {:?}: {:?}",
            o.kind(),
            o.meta().name,
            errs.iter().map(ToString::to_string).collect::<Vec<_>>()
        );
        self.put_unvalidated(o)
    }

    /// [`Self::put`] without the validity check, for the few tests that model an object the
    /// API server would reject (each says why).
    fn put_unvalidated(&mut self, mut o: Object) -> Object {
        self.seq += 1;
        match &mut o {
            Object::Deployment(d) => {
                crate::api::defaults::default_pod_spec(d.spec.template_mut().spec_mut())
            }
            Object::ReplicaSet(rs) => {
                crate::api::defaults::default_pod_spec(rs.spec.template_mut().spec_mut())
            }
            _ => {}
        }
        o.set_type_meta();
        let m = o.meta_mut();
        if m.uid.is_empty() {
            m.uid = format!("uid-{}", m.name);
        }
        m.resource_version = format!("fixture-{}", self.seq);
        self.api.store.put(o.clone());
        self.api.store.take_changes();
        o
    }

    fn put_d(&mut self, d: &Deployment) -> Deployment {
        match self.put(Object::Deployment(d.clone())) {
            Object::Deployment(d) => d,
            _ => unreachable!(),
        }
    }

    fn put_d_unvalidated(&mut self, d: &Deployment) -> Deployment {
        match self.put_unvalidated(Object::Deployment(d.clone())) {
            Object::Deployment(d) => d,
            _ => unreachable!(),
        }
    }

    fn put_rs(&mut self, rs: &ReplicaSet) -> ReplicaSet {
        match self.put(Object::ReplicaSet(rs.clone())) {
            Object::ReplicaSet(rs) => rs,
            _ => unreachable!(),
        }
    }

    fn rs(&self, name: &str) -> ReplicaSet {
        self.api
            .store
            .get::<ReplicaSet>("default", name)
            .cloned()
            .unwrap()
    }

    fn d(&self, name: &str) -> Deployment {
        self.api
            .store
            .get::<Deployment>("default", name)
            .cloned()
            .unwrap()
    }

    /// `verb kind/name` of every recorded action.
    fn verbs(&self) -> Vec<String> {
        self.actions
            .iter()
            .map(|a| format!("{} {}", a.verb, a.kind))
            .collect()
    }

    fn events(&self) -> Vec<String> {
        self.api
            .events
            .iter()
            .map(|e| format!("{} {} {}", e.type_, e.reason, e.message))
            .collect()
    }
}

fn labels(kv: &[(&str, &str)]) -> Labels {
    kv.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn foo_bar() -> Labels {
    labels(&[("foo", "bar")])
}

/// `newDeployment(name, replicas, revisionHistoryLimit, maxSurge, maxUnavailable, selector)`:
/// RollingUpdate, no progress deadline. maxSurge is 0 unless given; maxUnavailable is 0 unless
/// given, except that with maxSurge 0 it is 1: upstream's helper defaults both to 0, which the
/// API server rejects ("may not be 0 when `maxSurge` is 0") and which the controller resolves to
/// maxUnavailable 1 anyway (`resolveFenceposts`). Explicit 0/0 (rows of upstream tables whose
/// deployment is only passed to a function, never stored) is kept as given.
fn new_deployment(
    name: &str,
    replicas: i32,
    revision_history_limit: Option<i32>,
    max_surge: Option<IntOrString>,
    max_unavailable: Option<IntOrString>,
    selector: Labels,
) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = name.into();
    d.metadata.namespace = "default".into();
    d.metadata.uid = format!("uid-{name}");
    d.spec.strategy.type_ = ROLLING_UPDATE.into();
    let max_surge = max_surge.unwrap_or(IntOrString::Int(0));
    let default_unavailable = IntOrString::Int(i32::from(max_surge == IntOrString::Int(0)));
    d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
        max_unavailable: Some(max_unavailable.unwrap_or(default_unavailable)),
        max_surge: Some(max_surge),
    });
    d.spec.replicas = Some(replicas);
    d.spec.selector = Some(LabelSelector::from_labels(&selector));
    d.spec.template_mut().metadata.labels = selector.into();
    d.spec.template_mut().spec = std::sync::Arc::new(PodSpec {
        containers: vec![Container {
            name: "foo".into(),
            image: "foo/bar".into(),
            ..Default::default()
        }],
        ..Default::default()
    });
    d.spec.revision_history_limit = revision_history_limit;
    d
}

/// `rs(name, replicas, selector, timestamp)`: a ReplicaSet with an unrelated template. Upstream's
/// has an empty template and is often called with a nil selector; the API server (which every
/// update of these tests goes through) accepts neither, so here the template carries the
/// selector as labels and one container, and callers pass a non-empty selector (`foo: bar` where
/// upstream passes nil).
fn rs(name: &str, replicas: i32, selector: Labels, timestamp: Option<Time>) -> ReplicaSet {
    let mut r = ReplicaSet::default();
    r.metadata.name = name.into();
    r.metadata.namespace = "default".into();
    r.metadata.creation_timestamp = timestamp;
    r.metadata.labels = selector.clone().into();
    r.spec.replicas = Some(replicas);
    r.spec.selector = Some(LabelSelector::from_labels(&selector));
    r.spec.template_mut().metadata.labels = selector.into();
    r.spec.template_mut().spec_mut().containers = vec![Container {
        name: "old".into(),
        image: "foo/bar".into(),
        ..Default::default()
    }];
    r
}

/// `newRSWithStatus(name, specReplicas, statusReplicas, selector)`.
fn new_rs_with_status(name: &str, spec: i32, status: i32, selector: Labels) -> ReplicaSet {
    let mut r = rs(name, spec, selector, None);
    r.status.replicas = status;
    r
}

/// `newReplicaSet(d, name, replicas)`: owned by `d`, with its template and selector.
fn new_replica_set(d: &Deployment, name: &str, replicas: i32) -> ReplicaSet {
    ReplicaSet {
        metadata: ObjectMeta {
            name: name.into(),
            uid: format!("uid-{name}"),
            namespace: "default".into(),
            labels: d
                .spec
                .selector
                .clone()
                .unwrap()
                .match_labels
                .unwrap()
                .into(),
            owner_references: vec![controller_ref(d)].into(),
            ..Default::default()
        },
        spec: (ReplicaSetSpec {
            selector: d.spec.selector.clone(),
            replicas: Some(replicas),
            template: d.spec.template.clone(),
            ..Default::default()
        })
        .into(),
        ..Default::default()
    }
}

/// `generatePodFromRS(rs)`.
fn generate_pod_from_rs(rs: &ReplicaSet) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = format!("{}-pod", rs.metadata.name);
    p.metadata.namespace = rs.metadata.namespace.clone();
    p.metadata.labels = (rs
        .spec
        .selector
        .clone()
        .unwrap()
        .match_labels
        .unwrap_or_default())
    .into();
    p.metadata.owner_references = vec![OwnerReference {
        api_version: "v1beta1".into(),
        kind: "ReplicaSet".into(),
        name: rs.metadata.name.clone(),
        uid: rs.metadata.uid.clone(),
        controller: Some(true),
        block_owner_deletion: None,
    }]
    .into();
    p.spec = rs.spec.template.spec.clone();
    p
}

// ---------------------------------------------------------------------------------------------
// sync_test.go
// ---------------------------------------------------------------------------------------------

/// Port of TestScale (sync_test.go), every row: normal and proportional scaling, leftovers,
/// scaling to and from zero, a failed update, surge changes, template and size changes together,
/// and a saturated but broken new ReplicaSet.
#[test]
fn test_scale() {
    let new_ts = Some(ts("2016-05-20T02:00:00Z"));
    let old_ts = Some(ts("2016-05-20T01:00:00Z"));
    let older_ts = Some(ts("2016-05-20T00:00:00Z"));
    // Upstream's deployments and ReplicaSets here have nil selectors: `foo: bar` (see `rs`).
    let nd = |replicas: i32, surge: Option<i32>, unavailable: Option<i32>| {
        new_deployment(
            "foo",
            replicas,
            None,
            surge.map(IntOrString::Int),
            unavailable.map(IntOrString::Int),
            foo_bar(),
        )
    };
    let updated_template = |replicas: i32| {
        let mut d = new_deployment("foo", replicas, None, None, None, foo_bar());
        d.spec
            .template_mut()
            .metadata
            .labels
            .insert("another".into(), "label".into());
        d
    };
    let r = |name: &str, n: i32, t: Option<Time>| rs(name, n, foo_bar(), t);

    struct Case {
        name: &'static str,
        deployment: Deployment,
        old_deployment: Deployment,
        new_rs: Option<ReplicaSet>,
        old_rss: Vec<ReplicaSet>,
        expected_new: Option<i32>,
        expected_old: Vec<i32>,
        wasnt_updated: &'static [&'static str],
        desired_annotations: &'static [(&'static str, i32)],
    }
    let case =
        |name, deployment, old_deployment, new_rs, old_rss, expected_new, expected_old| Case {
            name,
            deployment,
            old_deployment,
            new_rs,
            old_rss,
            expected_new,
            expected_old,
            wasnt_updated: &[],
            desired_annotations: &[],
        };
    let mut cases = vec![
        case(
            "normal scaling event: 10 -> 12",
            nd(12, None, None),
            nd(10, None, None),
            Some(r("foo-v1", 10, new_ts)),
            vec![],
            Some(12),
            vec![],
        ),
        case(
            "normal scaling event: 10 -> 5",
            nd(5, None, None),
            nd(10, None, None),
            Some(r("foo-v1", 10, new_ts)),
            vec![],
            Some(5),
            vec![],
        ),
        case(
            "proportional scaling: 5 -> 10",
            nd(10, None, None),
            nd(5, None, None),
            Some(r("foo-v2", 2, new_ts)),
            vec![r("foo-v1", 3, old_ts)],
            Some(4),
            vec![6],
        ),
        case(
            "proportional scaling: 5 -> 3",
            nd(3, None, None),
            nd(5, None, None),
            Some(r("foo-v2", 2, new_ts)),
            vec![r("foo-v1", 3, old_ts)],
            Some(1),
            vec![2],
        ),
        case(
            "proportional scaling: 9 -> 4",
            nd(4, None, None),
            nd(9, None, None),
            Some(r("foo-v2", 8, new_ts)),
            vec![r("foo-v1", 1, old_ts)],
            Some(4),
            vec![0],
        ),
        case(
            "proportional scaling: 7 -> 10",
            nd(10, None, None),
            nd(7, None, None),
            Some(r("foo-v3", 2, new_ts)),
            vec![r("foo-v2", 3, old_ts), r("foo-v1", 2, older_ts)],
            Some(3),
            vec![4, 3],
        ),
        case(
            "proportional scaling: 13 -> 8",
            nd(8, None, None),
            nd(13, None, None),
            Some(r("foo-v3", 2, new_ts)),
            vec![r("foo-v2", 8, old_ts), r("foo-v1", 3, older_ts)],
            Some(1),
            vec![5, 2],
        ),
        // Scales up the new replica set.
        case(
            "leftover distribution: 3 -> 4",
            nd(4, None, None),
            nd(3, None, None),
            Some(r("foo-v3", 1, new_ts)),
            vec![r("foo-v2", 1, old_ts), r("foo-v1", 1, older_ts)],
            Some(2),
            vec![1, 1],
        ),
        // Scales down the older replica set.
        case(
            "leftover distribution: 3 -> 2",
            nd(2, None, None),
            nd(3, None, None),
            Some(r("foo-v3", 1, new_ts)),
            vec![r("foo-v2", 1, old_ts), r("foo-v1", 1, older_ts)],
            Some(1),
            vec![1, 0],
        ),
        // Scales up the latest replica set first.
        case(
            "proportional scaling (no new rs): 4 -> 5",
            nd(5, None, None),
            nd(4, None, None),
            None,
            vec![r("foo-v2", 2, old_ts), r("foo-v1", 2, older_ts)],
            None,
            vec![3, 2],
        ),
        // Scales down to zero.
        case(
            "proportional scaling: 6 -> 0",
            nd(0, None, None),
            nd(6, None, None),
            Some(r("foo-v3", 3, new_ts)),
            vec![r("foo-v2", 2, old_ts), r("foo-v1", 1, older_ts)],
            Some(0),
            vec![0, 0],
        ),
        // Scales up from zero.
        Case {
            wasnt_updated: &["foo-v2", "foo-v1"],
            ..case(
                "proportional scaling: 0 -> 6",
                nd(6, None, None),
                nd(6, None, None),
                Some(r("foo-v3", 0, new_ts)),
                vec![r("foo-v2", 0, old_ts), r("foo-v1", 0, older_ts)],
                Some(6),
                vec![0, 0],
            )
        },
        // deployment.spec.replicas == 3 (foo-v1 == foo-v2 == foo-v3 == 1), scaled to 5:
        // foo-v3 and foo-v2 should increment by 1 but foo-v2 fails to update.
        Case {
            wasnt_updated: &["foo-v3", "foo-v1"],
            desired_annotations: &[("foo-v2", 3)],
            ..case(
                "failed rs update",
                nd(5, None, None),
                nd(5, None, None),
                Some(r("foo-v3", 2, new_ts)),
                vec![r("foo-v2", 1, old_ts), r("foo-v1", 1, older_ts)],
                Some(2),
                vec![2, 1],
            )
        },
        case(
            "deployment with surge pods",
            nd(20, Some(2), None),
            nd(10, Some(2), None),
            Some(r("foo-v2", 6, new_ts)),
            vec![r("foo-v1", 6, old_ts)],
            Some(11),
            vec![11],
        ),
        case(
            "change both surge and size",
            nd(50, Some(6), None),
            nd(10, Some(3), None),
            Some(r("foo-v2", 5, new_ts)),
            vec![r("foo-v1", 8, old_ts)],
            Some(22),
            vec![34],
        ),
        case(
            "change both size and template",
            updated_template(14),
            new_deployment("foo", 10, None, None, None, foo_bar()),
            None,
            vec![r("foo-v2", 7, new_ts), r("foo-v1", 3, old_ts)],
            None,
            vec![10, 4],
        ),
        case(
            "saturated but broken new replica set does not affect old pods",
            nd(2, Some(1), Some(1)),
            nd(2, Some(1), Some(1)),
            Some(r("foo-v2", 2, new_ts)),
            vec![r("foo-v1", 1, old_ts)],
            Some(2),
            vec![1],
        ),
    ];

    for c in cases.iter_mut() {
        let mut fx = Fixture::new();
        let desired_of = |name: &str| {
            c.desired_annotations
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(c.old_deployment.replicas(), |(_, v)| *v)
        };
        let surge = max_surge(&c.old_deployment);
        let new_rs = c.new_rs.as_ref().map(|r| {
            let mut r = r.clone();
            let desired = desired_of(&r.metadata.name);
            set_replicas_annotations(&mut r, desired, desired + surge);
            fx.put_rs(&r)
        });
        let mut old_rss: Vec<ReplicaSet> = c
            .old_rss
            .iter()
            .map(|r| {
                let mut r = r.clone();
                let desired = desired_of(&r.metadata.name);
                set_replicas_annotations(&mut r, desired, desired + surge);
                fx.put_rs(&r)
            })
            .collect();
        let original_old: Vec<String> = old_rss.iter().map(|r| r.metadata.name.clone()).collect();

        scale(&mut fx.ctx(), &c.deployment, new_rs.as_ref(), &mut old_rss)
            .unwrap_or_else(|e| panic!("{}: unexpected error: {e}", c.name));

        let mut sizes: std::collections::BTreeMap<String, i32> = Default::default();
        for r in new_rs.iter().chain(c.old_rss.iter()) {
            sizes.insert(r.metadata.name.clone(), r.replicas());
        }
        for a in fx.actions.iter() {
            assert_eq!((a.verb, a.kind), ("update", "ReplicaSet"), "{}", c.name);
            if !c.wasnt_updated.contains(&a.name.as_str()) {
                sizes.insert(a.name.clone(), a.replicas.unwrap());
            }
        }
        if let (Some(want), Some(n)) = (c.expected_new, &new_rs) {
            assert_eq!(sizes[&n.metadata.name], want, "{}: new replicas", c.name);
        }
        assert_eq!(c.expected_old.len(), original_old.len(), "{}", c.name);
        for (name, want) in original_old.iter().zip(&c.expected_old) {
            assert_eq!(sizes[name], *want, "{}: old ({name}) replicas", c.name);
        }
    }
}

/// Proportional scaling writes both annotations and emits one ScalingReplicaSet event per size
/// change, with upstream's wording.
#[test]
fn scale_events_and_annotations() {
    let mut fx = Fixture::new();
    let d = new_deployment("foo", 10, None, None, None, foo_bar());
    let mut new_rs = rs("foo-v2", 2, foo_bar(), Some(ts("2016-05-20T02:00:00Z")));
    set_replicas_annotations(&mut new_rs, 5, 5);
    let mut old = rs("foo-v1", 3, foo_bar(), Some(ts("2016-05-20T01:00:00Z")));
    set_replicas_annotations(&mut old, 5, 5);
    let new_rs = fx.put_rs(&new_rs);
    let mut olds = vec![fx.put_rs(&old)];
    scale(&mut fx.ctx(), &d, Some(&new_rs), &mut olds).unwrap();
    assert_eq!(
        fx.events(),
        vec![
            "Normal ScalingReplicaSet Scaled up replica set foo-v1 from 3 to 6",
            "Normal ScalingReplicaSet Scaled up replica set foo-v2 from 2 to 4",
        ]
    );
    for name in ["foo-v1", "foo-v2"] {
        let r = fx.rs(name);
        assert_eq!(r.metadata.annotations[DESIRED_REPLICAS_ANNOTATION], "10");
        assert_eq!(r.metadata.annotations[MAX_REPLICAS_ANNOTATION], "10");
    }
}

/// Port of TestDeploymentController_cleanupDeployment.
#[test]
fn test_cleanup_deployment() {
    let sel = foo_bar();
    let mut already_deleted = new_rs_with_status("foo-1", 0, 0, sel.clone());
    already_deleted.metadata.deletion_timestamp = Some(ts("2016-05-20T03:00:00Z"));
    let s = |n, a, b| new_rs_with_status(n, a, b, sel.clone());
    let cases = vec![
        (
            vec![s("foo-1", 0, 0), s("foo-2", 0, 0), s("foo-3", 0, 0)],
            1,
            2,
        ),
        // Only delete the replica set with Spec.Replicas = Status.Replicas = 0.
        (
            vec![
                s("foo-1", 0, 0),
                s("foo-2", 0, 1),
                s("foo-3", 1, 0),
                s("foo-4", 1, 1),
            ],
            0,
            1,
        ),
        (vec![s("foo-1", 0, 0), s("foo-2", 0, 0)], 0, 2),
        (vec![s("foo-1", 1, 1), s("foo-2", 1, 1)], 0, 0),
        (vec![already_deleted], 0, 0),
        // With unlimited revisionHistoryLimit.
        (
            vec![s("foo-1", 0, 0), s("foo-2", 0, 0), s("foo-3", 0, 0)],
            MAX_INT32,
            0,
        ),
    ];
    for (i, (old, limit, expected)) in cases.into_iter().enumerate() {
        let mut fx = Fixture::new();
        let old: Vec<ReplicaSet> = old.iter().map(|r| fx.put_rs(r)).collect();
        let d = new_deployment("foo", 1, Some(limit), None, None, foo_bar());
        cleanup_deployment(&mut fx.ctx(), &old, &d).unwrap();
        let deletions = fx.actions.iter().filter(|a| a.verb == "delete").count();
        assert_eq!(deletions, expected, "scenario {i}");
    }
}

/// Port of TestDeploymentController_cleanupDeploymentOrder: old ReplicaSets go by revision
/// (missing revision first, creation order on ties).
#[test]
fn test_cleanup_deployment_order() {
    let now = ts("2016-05-20T03:00:00Z");
    let min = Duration::from_mins(1);
    let mk = |name: &str, replicas: i32, at: Time, rev: &str| {
        let mut r = rs(name, replicas, foo_bar(), Some(at));
        if !rev.is_empty() {
            r.metadata
                .annotations
                .insert(REVISION_ANNOTATION.into(), rev.into());
        }
        r.status = Default::default();
        r.status.replicas = replicas;
        r
    };
    let cases: Vec<(Vec<ReplicaSet>, i32, Vec<&str>)> = vec![
        // revision order: rs1 < rs2, delete rs1
        (
            vec![mk("foo-1", 0, now - min, "1"), mk("foo-2", 0, now, "2")],
            1,
            vec!["foo-1"],
        ),
        // revision order: rs2 < rs1, delete rs2
        (
            vec![mk("foo-1", 0, now - min, "2"), mk("foo-2", 0, now, "1")],
            1,
            vec!["foo-2"],
        ),
        // rs1 has revision but rs2 doesn't have revision, delete rs2
        (
            vec![mk("foo-1", 0, now - min, "1"), mk("foo-2", 0, now, "")],
            1,
            vec!["foo-2"],
        ),
        // rs1 doesn't have revision while rs2 has revision, delete rs1
        (
            vec![mk("foo-1", 0, now - min, ""), mk("foo-2", 0, now, "2")],
            1,
            vec!["foo-1"],
        ),
        // revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2
        (
            vec![
                mk("foo-1", 1, now - min, "1"),
                mk("foo-2", 0, now, "2"),
                mk("foo-3", 0, now + min, "3"),
            ],
            1,
            vec!["foo-2"],
        ),
        // revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete
        (
            vec![
                mk("foo-1", 1, now - min, "1"),
                mk("foo-2", 1, now, "2"),
                mk("foo-3", 0, now + min, "3"),
            ],
            1,
            vec![],
        ),
        // revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4
        (
            vec![
                mk("foo-1", 0, now - min, "3"),
                mk("foo-2", 0, now, "1"),
                mk("foo-3", 0, now + min, "4"),
                mk("foo-4", 0, now + min + min, "2"),
            ],
            2,
            vec!["foo-2", "foo-4"],
        ),
    ];
    for (i, (old, limit, want)) in cases.into_iter().enumerate() {
        let mut fx = Fixture::new();
        let old: Vec<ReplicaSet> = old.iter().map(|r| fx.put_rs(r)).collect();
        let d = new_deployment("foo", 1, Some(limit), None, None, foo_bar());
        cleanup_deployment(&mut fx.ctx(), &old, &d).unwrap();
        let deleted: Vec<&str> = fx
            .actions
            .iter()
            .filter(|a| a.verb == "delete" && a.kind == "ReplicaSet")
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(deleted, want, "scenario {i}");
    }
}

// ---------------------------------------------------------------------------------------------
// rolling_test.go
// ---------------------------------------------------------------------------------------------

/// Port of TestDeploymentController_reconcileNewReplicaSet.
#[test]
fn test_reconcile_new_replica_set() {
    // (deploymentReplicas, maxSurge, oldReplicas, newReplicas, scaleExpected, expectedNewReplicas)
    let cases = [
        (10, 0, 10, 0, false, 0), // should not scale up
        (10, 2, 10, 0, true, 2),
        (10, 2, 5, 0, true, 7),
        (10, 2, 10, 2, false, 0),
        (10, 2, 2, 11, true, 10), // should scale down
    ];
    for (i, (dr, surge, old_r, new_r, expect, want)) in cases.into_iter().enumerate() {
        let mut fx = Fixture::new();
        let new_rs = fx.put_rs(&rs("foo-v2", new_r, foo_bar(), None));
        let old_rs = fx.put_rs(&rs("foo-v1", old_r, foo_bar(), None));
        let d = new_deployment(
            "foo",
            dr,
            None,
            Some(IntOrString::Int(surge)),
            Some(IntOrString::Int(0)),
            foo_bar(),
        );
        let all = vec![new_rs.clone(), old_rs];
        let scaled = reconcile_new_replica_set(&mut fx.ctx(), &all, &new_rs, &d).unwrap();
        assert_eq!(scaled, expect, "scenario {i}");
        if !expect {
            assert!(fx.actions.is_empty(), "scenario {i}: {:?}", fx.actions);
            continue;
        }
        assert_eq!(fx.actions.len(), 1, "scenario {i}");
        assert_eq!(fx.actions[0].verb, "update");
        assert_eq!(fx.actions[0].replicas, Some(want), "scenario {i}");
    }
}

/// Port of TestDeploymentController_reconcileOldReplicaSets.
#[test]
fn test_reconcile_old_replica_sets() {
    // (deploymentReplicas, maxUnavailable, oldReplicas, newReplicas, readyOld, readyNew,
    //  scaleExpected, expectedOldReplicas)
    let cases = [
        (10, 0, 10, 0, 10, 0, true, 9),
        (10, 2, 10, 0, 10, 0, true, 8),
        // expect unhealthy replicas from old replica sets been cleaned up
        (10, 2, 10, 0, 8, 0, true, 8),
        // expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod
        // been scaled down
        (10, 2, 10, 0, 9, 0, true, 8),
        // the unavailable pods from the newRS would not make us scale down old RSs in a
        // further step
        (10, 2, 8, 2, 8, 0, false, 8),
    ];
    for (i, (dr, mu, old_r, new_r, ready_old, ready_new, expect, want_old)) in
        cases.into_iter().enumerate()
    {
        let mut fx = Fixture::new();
        let new_sel = labels(&[("foo", "new")]);
        let mut new_rs = rs("foo-new", new_r, new_sel.clone(), None);
        new_rs.status.available_replicas = ready_new;
        let mut old_rs = rs("foo-old", old_r, labels(&[("foo", "old")]), None);
        old_rs.status.available_replicas = ready_old;
        let new_rs = fx.put_rs(&new_rs);
        let old_rs = fx.put_rs(&old_rs);
        let d = new_deployment(
            "foo",
            dr,
            None,
            Some(IntOrString::Int(0)),
            Some(IntOrString::Int(mu)),
            new_sel,
        );
        let all = vec![old_rs.clone(), new_rs.clone()];
        let scaled =
            reconcile_old_replica_sets(&mut fx.ctx(), &all, vec![old_rs], &new_rs, &d).unwrap();
        assert_eq!(scaled, expect, "scenario {i}: {:?}", fx.actions);
        assert_eq!(fx.rs("foo-old").replicas(), want_old, "scenario {i}");
    }
}

/// Port of TestDeploymentController_cleanupUnhealthyReplicas.
#[test]
fn test_cleanup_unhealthy_replicas() {
    // (oldReplicas, readyPods, unHealthyPods, maxCleanupCount, cleanupCountExpected)
    let cases = [
        (10, 8, 2, 1, 1),
        (10, 8, 2, 3, 2),
        (10, 8, 2, 0, 0),
        (10, 10, 0, 3, 0),
    ];
    for (i, (old_r, ready, _unhealthy, max_cleanup, want)) in cases.into_iter().enumerate() {
        let mut fx = Fixture::new();
        let mut old = rs("foo-v2", old_r, foo_bar(), None);
        old.status.available_replicas = ready;
        let old = fx.put_rs(&old);
        let d = new_deployment(
            "foo",
            10,
            None,
            Some(IntOrString::Int(2)),
            Some(IntOrString::Int(2)),
            foo_bar(),
        );
        let (_, count) =
            cleanup_unhealthy_replicas(&mut fx.ctx(), vec![old], &d, max_cleanup).unwrap();
        assert_eq!(count, want, "scenario {i}");
    }
}

/// Port of TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate.
#[test]
fn test_scale_down_old_replica_sets_for_rolling_update() {
    // (deploymentReplicas, maxUnavailable, readyPods, oldReplicas, scaleExpected, expected)
    let cases = [
        (10, 0, 10, 10, true, 9),
        (10, 2, 10, 10, true, 8),
        (10, 2, 8, 10, false, 0),
        (10, 2, 10, 0, false, 0),
        (10, 2, 1, 10, false, 0),
    ];
    for (i, (dr, mu, ready, old_r, expect, want)) in cases.into_iter().enumerate() {
        let mut fx = Fixture::new();
        let mut old = rs("foo-v2", old_r, foo_bar(), None);
        old.status.available_replicas = ready;
        let old = fx.put_rs(&old);
        let d = new_deployment(
            "foo",
            dr,
            None,
            Some(IntOrString::Int(0)),
            Some(IntOrString::Int(mu)),
            foo_bar(),
        );
        let scaled = scale_down_old_replica_sets_for_rolling_update(
            &mut fx.ctx(),
            std::slice::from_ref(&old),
            vec![old.clone()],
            &d,
        )
        .unwrap();
        if !expect {
            assert_eq!(scaled, 0, "scenario {i}");
            assert!(fx.actions.is_empty(), "scenario {i}");
            continue;
        }
        assert!(scaled > 0, "scenario {i}");
        let updates: Vec<&Action> = fx.actions.iter().filter(|a| a.verb == "update").collect();
        assert_eq!(updates.len(), 1, "scenario {i}");
        assert_eq!(updates[0].replicas, Some(want), "scenario {i}");
    }
}

// ---------------------------------------------------------------------------------------------
// recreate_test.go
// ---------------------------------------------------------------------------------------------

/// Port of TestScaleDownOldReplicaSets.
#[test]
fn test_scale_down_old_replica_sets() {
    let mut fx = Fixture::new();
    let d = new_deployment("foo", 3, None, None, None, foo_bar());
    let mut old = vec![fx.put_rs(&new_replica_set(&d, "foo-0", 3))];
    assert!(scale_down_old_replica_sets_for_recreate(&mut fx.ctx(), &mut old, &d).unwrap());
    assert_eq!(old[0].replicas(), 0);
    assert_eq!(fx.rs("foo-0").replicas(), 0);
    assert_eq!(
        fx.events(),
        vec!["Normal ScalingReplicaSet Scaled down replica set foo-0 from 3 to 0"]
    );
}

/// Port of TestOldPodsRunning.
#[test]
fn test_old_pods_running() {
    let d = new_deployment("foo", 1, None, None, None, foo_bar());
    let rs_with_uid = |uid: &str| {
        let mut r = new_replica_set(&d, &format!("foo-{uid}"), 0);
        r.metadata.uid = uid.into();
        r
    };
    let pod = |phase: &str| {
        let mut p = Pod::default();
        p.status.phase = phase.into();
        p
    };
    let map = |entries: Vec<(&str, Vec<Pod>)>| -> PodMap {
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    };
    let cases: Vec<(&str, Option<ReplicaSet>, Vec<ReplicaSet>, PodMap, bool)> = vec![
        ("no old RSs", None, vec![], PodMap::new(), false),
        (
            "old RSs with running pods",
            None,
            vec![rs_with_uid("some-uid"), rs_with_uid("other-uid")],
            map(vec![
                ("some-uid", vec![Pod::default(), Pod::default()]),
                ("other-uid", vec![Pod::default(), Pod::default()]),
            ]),
            true,
        ),
        (
            "old RSs without pods but with non-zero status replicas",
            None,
            vec![new_rs_with_status("rs-1", 0, 1, foo_bar())],
            PodMap::new(),
            true,
        ),
        (
            "old RSs without pods or non-zero status replicas",
            None,
            vec![new_rs_with_status("rs-1", 0, 0, foo_bar())],
            PodMap::new(),
            false,
        ),
        (
            "old RSs with zero status replicas but pods in terminal state are present",
            None,
            vec![new_rs_with_status("rs-1", 0, 0, foo_bar())],
            map(vec![("uid-1", vec![pod("Failed"), pod("Succeeded")])]),
            false,
        ),
        (
            "old RSs with zero status replicas but pod in unknown phase present",
            None,
            vec![new_rs_with_status("rs-1", 0, 0, foo_bar())],
            map(vec![("uid-1", vec![pod("Unknown")])]),
            true,
        ),
        (
            "old RSs with zero status replicas with pending pod present",
            None,
            vec![new_rs_with_status("rs-1", 0, 0, foo_bar())],
            map(vec![("uid-1", vec![pod("Pending")])]),
            true,
        ),
        (
            "old RSs with zero status replicas with running pod present",
            None,
            vec![new_rs_with_status("rs-1", 0, 0, foo_bar())],
            map(vec![("uid-1", vec![pod("Running")])]),
            true,
        ),
        (
            "old RSs with zero status replicas but pods in terminal state and pending are present",
            None,
            vec![new_rs_with_status("rs-1", 0, 0, foo_bar())],
            map(vec![
                ("uid-1", vec![pod("Failed"), pod("Succeeded")]),
                ("uid-2", vec![]),
                ("uid-3", vec![pod("Pending")]),
            ]),
            true,
        ),
        (
            "pods of the new RS are not old pods",
            Some(rs_with_uid("new-uid")),
            vec![],
            map(vec![("new-uid", vec![pod("Running")])]),
            false,
        ),
    ];
    for (name, new_rs, old, pods, want) in cases {
        assert_eq!(
            old_pods_running(new_rs.as_ref(), &old, &pods),
            want,
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// progress_test.go
// ---------------------------------------------------------------------------------------------

/// `currentDeployment(pds, replicas, statusReplicas, updatedReplicas, availableReplicas, conds)`,
/// with the `foo: bar` selector, template labels and container that upstream's helper leaves out
/// (a deployment without them is rejected by the API server; the progress code never reads them).
fn current_deployment(
    pds: Option<i32>,
    replicas: i32,
    status_replicas: i32,
    updated: i32,
    available: i32,
    conditions: Vec<DeploymentCondition>,
) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = "progress-test".into();
    d.metadata.namespace = "default".into();
    d.spec.progress_deadline_seconds = pds;
    d.spec.replicas = Some(replicas);
    d.spec.strategy.type_ = RECREATE.into();
    d.spec.selector = Some(LabelSelector::from_labels(&foo_bar()));
    d.spec.template_mut().metadata.labels = foo_bar().into();
    d.spec.template_mut().spec_mut().containers = vec![Container {
        name: "foo".into(),
        image: "foo/bar".into(),
        ..Default::default()
    }];
    // Upstream leaves readyReplicas at 0; available pods are ready here too (a status with
    // available > ready is refused by ValidateDeploymentStatus), matching the ReplicaSets of
    // `new_rs_with_available`, so DeploymentProgressing sees no change in ready pods either way.
    d.status = (DeploymentStatus {
        replicas: status_replicas,
        updated_replicas: updated,
        ready_replicas: available,
        available_replicas: available,
        conditions,
        ..Default::default()
    })
    .into();
    d
}

fn new_status(replicas: i32, updated: i32, available: i32) -> DeploymentStatus {
    DeploymentStatus {
        replicas,
        updated_replicas: updated,
        available_replicas: available,
        ..Default::default()
    }
}

/// Port of TestRequeueStuckDeployment, also checking when the key is requeued.
#[test]
fn test_requeue_stuck_deployment() {
    let pds = Some(60);
    let failed = vec![DeploymentCondition {
        type_: DEPLOYMENT_PROGRESSING.into(),
        status: CONDITION_FALSE.into(),
        reason: TIMED_OUT_REASON.into(),
        ..Default::default()
    }];
    let stuck = vec![DeploymentCondition {
        type_: DEPLOYMENT_PROGRESSING.into(),
        status: CONDITION_TRUE.into(),
        last_update_time: Some(ts("2017-02-15T18:49:00Z")),
        ..Default::default()
    }];
    let cases: Vec<(&str, Deployment, DeploymentStatus, Time, i64)> = vec![
        (
            "nil progressDeadlineSeconds specified",
            current_deployment(None, 4, 3, 3, 2, vec![]),
            new_status(3, 3, 2),
            ts("2017-02-15T18:49:00Z"),
            -1,
        ),
        (
            "infinite progressDeadlineSeconds specified",
            current_deployment(Some(MAX_INT32), 4, 3, 3, 2, vec![]),
            new_status(3, 3, 2),
            ts("2017-02-15T18:49:00Z"),
            -1,
        ),
        (
            "no progressing condition found",
            current_deployment(pds, 4, 3, 3, 2, vec![]),
            new_status(3, 3, 2),
            ts("2017-02-15T18:49:00Z"),
            -1,
        ),
        (
            "complete deployment does not need to be requeued",
            current_deployment(pds, 3, 3, 3, 3, vec![]),
            new_status(3, 3, 3),
            ts("2017-02-15T18:49:00Z"),
            -1,
        ),
        (
            "already failed deployment does not need to be requeued",
            current_deployment(pds, 3, 3, 3, 0, failed),
            new_status(3, 3, 0),
            ts("2017-02-15T18:49:00Z"),
            -1,
        ),
        (
            "stuck deployment - 30s",
            current_deployment(pds, 3, 3, 3, 1, stuck.clone()),
            new_status(3, 3, 1),
            ts("2017-02-15T18:49:30Z"),
            30_000,
        ),
        (
            "stuck deployment - 1s",
            current_deployment(pds, 3, 3, 3, 1, stuck.clone()),
            new_status(3, 3, 1),
            ts("2017-02-15T18:49:59Z"),
            1_000,
        ),
        (
            "failed deployment - less than a second => now",
            current_deployment(pds, 3, 3, 3, 1, stuck.clone()),
            new_status(3, 3, 1),
            Time(ts("2017-02-15T18:49:59Z").0 + 1),
            0,
        ),
        (
            "failed deployment - now",
            current_deployment(pds, 3, 3, 3, 1, stuck.clone()),
            new_status(3, 3, 1),
            ts("2017-02-15T18:50:00Z"),
            0,
        ),
        (
            "failed deployment - 1s after deadline",
            current_deployment(pds, 3, 3, 3, 1, stuck.clone()),
            new_status(3, 3, 1),
            ts("2017-02-15T18:50:01Z"),
            0,
        ),
        (
            "failed deployment - 60s after deadline",
            current_deployment(pds, 3, 3, 3, 1, stuck.clone()),
            new_status(3, 3, 1),
            ts("2017-02-15T18:51:00Z"),
            0,
        ),
    ];
    for (name, d, status, now, want) in cases {
        let mut fx = Fixture::at(now);
        let got = requeue_stuck_deployment(&mut fx.ctx(), &d, &status);
        assert_eq!(got, Duration(want), "{name}");
        match want {
            -1 => assert!(fx.queue.is_empty(), "{name}"),
            // Rate limited: the first back-off step (5 ms).
            0 => assert_eq!(fx.queue.next_due(), Some(Time(now.0 + 5)), "{name}"),
            // The remaining time plus one second of skew padding.
            w => assert_eq!(fx.queue.next_due(), Some(Time(now.0 + w + 1_000)), "{name}"),
        }
    }
}

/// `newRSWithAvailable(name, specReplicas, statusReplicas, availableReplicas)` (with the
/// `foo: bar` selector where upstream's has none, to be a valid ReplicaSet). Upstream leaves
/// `readyReplicas` at 0; here the available pods are also ready, since the Deployment status
/// summed from these ReplicaSets goes through the status subresource, whose validation
/// (ValidateDeploymentStatus) refuses availableReplicas > readyReplicas. The conditions the
/// test asserts depend on replicas, updated and available only.
fn new_rs_with_available(name: &str, spec: i32, status: i32, available: i32) -> ReplicaSet {
    let mut r = rs(name, spec, foo_bar(), None);
    r.status.replicas = status;
    r.status.ready_replicas = available;
    r.status.available_replicas = available;
    r
}

/// Port of TestSyncRolloutStatus (with the upstream test's intent on timestamps asserted on the
/// resulting condition).
#[test]
fn test_sync_rollout_status() {
    let pds = Some(60);
    let test_time = ts("2017-02-15T18:49:00Z");
    let failed_timed_out = DeploymentCondition {
        type_: DEPLOYMENT_PROGRESSING.into(),
        status: CONDITION_FALSE.into(),
        reason: TIMED_OUT_REASON.into(),
        ..Default::default()
    };
    let new_rs_available = DeploymentCondition {
        type_: DEPLOYMENT_PROGRESSING.into(),
        status: CONDITION_TRUE.into(),
        reason: NEW_RS_AVAILABLE_REASON.into(),
        last_update_time: Some(test_time),
        last_transition_time: Some(test_time),
        ..Default::default()
    };
    let rs_updated = DeploymentCondition {
        reason: REPLICA_SET_UPDATED_REASON.into(),
        ..new_rs_available.clone()
    };
    // (name, d, allRSs, newRS, expected (status, reason), keeps lastUpdate, keeps lastTransition)
    type Case = (
        &'static str,
        Deployment,
        Vec<ReplicaSet>,
        Option<ReplicaSet>,
        Option<(&'static str, &'static str)>,
        bool,
        bool,
    );
    let cases: Vec<Case> = vec![
        ("General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline",
            current_deployment(None, 3, 2, 2, 2, vec![rs_updated.clone()]),
            vec![new_rs_with_available("bar", 0, 1, 1)], Some(new_rs_with_available("foo", 3, 2, 2)),
            None, false, false),
        ("General: do not estimate progress of deployment with only one active ReplicaSet",
            current_deployment(pds, 3, 3, 3, 3, vec![new_rs_available.clone()]),
            vec![new_rs_with_available("bar", 3, 3, 3)], None,
            Some((CONDITION_TRUE, NEW_RS_AVAILABLE_REASON)), true, true),
        ("DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True",
            current_deployment(pds, 3, 2, 2, 2, vec![rs_updated.clone()]),
            vec![new_rs_with_available("bar", 0, 1, 1)], Some(new_rs_with_available("foo", 3, 2, 2)),
            Some((CONDITION_TRUE, REPLICA_SET_UPDATED_REASON)), false, true),
        ("DeploymentProgressing: update everything if deployment has Progressing=False",
            current_deployment(pds, 3, 2, 2, 2, vec![failed_timed_out.clone()]),
            vec![new_rs_with_available("bar", 0, 1, 1)], Some(new_rs_with_available("foo", 3, 2, 2)),
            Some((CONDITION_TRUE, REPLICA_SET_UPDATED_REASON)), false, false),
        ("DeploymentProgressing: create Progressing condition if it does not exist",
            current_deployment(pds, 3, 2, 2, 2, vec![]),
            vec![new_rs_with_available("bar", 0, 1, 1)], Some(new_rs_with_available("foo", 3, 2, 2)),
            Some((CONDITION_TRUE, REPLICA_SET_UPDATED_REASON)), false, false),
        ("DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True",
            current_deployment(pds, 3, 3, 3, 3, vec![rs_updated.clone()]),
            vec![], Some(new_rs_with_available("foo", 3, 3, 3)),
            Some((CONDITION_TRUE, NEW_RS_AVAILABLE_REASON)), false, true),
        ("DeploymentComplete: update everything if deployment has Progressing=False",
            current_deployment(pds, 3, 3, 3, 3, vec![failed_timed_out.clone()]),
            vec![], Some(new_rs_with_available("foo", 3, 3, 3)),
            Some((CONDITION_TRUE, NEW_RS_AVAILABLE_REASON)), false, false),
        ("DeploymentComplete: create Progressing condition if it does not exist",
            current_deployment(pds, 3, 3, 3, 3, vec![]),
            vec![], Some(new_rs_with_available("foo", 3, 3, 3)),
            Some((CONDITION_TRUE, NEW_RS_AVAILABLE_REASON)), false, false),
        ("DeploymentComplete: defend against NPE when newRS=nil",
            current_deployment(pds, 0, 3, 3, 3, vec![rs_updated.clone()]),
            vec![new_rs_with_available("foo", 0, 0, 0)], None,
            Some((CONDITION_TRUE, NEW_RS_AVAILABLE_REASON)), false, true),
        ("DeploymentTimedOut: update status if rollout exceeds Progress Deadline",
            current_deployment(pds, 3, 2, 2, 2, vec![rs_updated.clone()]),
            vec![], Some(new_rs_with_available("foo", 3, 2, 2)),
            Some((CONDITION_FALSE, TIMED_OUT_REASON)), false, false),
        ("DeploymentTimedOut: do not update status if deployment has existing timedOut condition",
            current_deployment(pds, 3, 2, 2, 2, vec![failed_timed_out.clone()]),
            vec![], Some(new_rs_with_available("foo", 3, 2, 2)),
            Some((CONDITION_FALSE, TIMED_OUT_REASON)), false, false),
    ];
    for (name, d, mut all, new_rs, want, keeps_update, keeps_transition) in cases {
        // Long after the conditions' timestamps, as upstream runs with the wall clock.
        let mut fx = Fixture::at(ts("2017-02-15T20:00:00Z"));
        let mut d = fx.put_d(&d);
        all.extend(new_rs.clone());
        sync_rollout_status(&mut fx.ctx(), &all, new_rs.as_ref(), &mut d)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let c = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING);
        match (want, c) {
            (None, None) => {}
            (Some((status, reason)), Some(c)) => {
                assert_eq!(
                    (c.status.as_str(), c.reason.as_str()),
                    (status, reason),
                    "{name}"
                );
                if keeps_update {
                    assert_eq!(c.last_update_time, Some(test_time), "{name}");
                }
                if keeps_transition {
                    assert_eq!(c.last_transition_time, Some(test_time), "{name}");
                } else if reason != TIMED_OUT_REASON || status == CONDITION_TRUE {
                    assert_eq!(
                        c.last_transition_time,
                        Some(ts("2017-02-15T20:00:00Z")),
                        "{name}"
                    );
                }
            }
            (w, c) => panic!("{name}: want {w:?}, got {c:?}"),
        }
        // The written status is what the controller computed.
        assert_eq!(fx.d("progress-test").status, d.status, "{name}");
    }
}

/// ReplicaFailure conditions are copied from the new ReplicaSet first, then from any other.
#[test]
fn replica_failure_is_copied() {
    let mut fx = Fixture::new();
    let mut d = fx.put_d(&current_deployment(None, 3, 0, 0, 0, vec![]));
    let mut bad = new_rs_with_available("bar", 3, 0, 0);
    bad.status.conditions = vec![ReplicaSetCondition {
        type_: DEPLOYMENT_REPLICA_FAILURE.into(),
        status: CONDITION_TRUE.into(),
        last_transition_time: Some(ts("2016-05-20T02:30:00Z")),
        reason: "FailedCreate".into(),
        message: "pods \"bar-x\" is forbidden: exceeded quota".into(),
    }];
    sync_rollout_status(&mut fx.ctx(), &[bad.clone()], None, &mut d).unwrap();
    let c = get_deployment_condition(&d.status, DEPLOYMENT_REPLICA_FAILURE).unwrap();
    assert_eq!(c.reason, "FailedCreate");
    assert_eq!(c.last_update_time, Some(ts("2016-05-20T02:30:00Z")));
    bad.status.conditions.clear();
    let mut d = fx.d("progress-test");
    sync_rollout_status(&mut fx.ctx(), &[bad], None, &mut d).unwrap();
    assert!(get_deployment_condition(&d.status, DEPLOYMENT_REPLICA_FAILURE).is_none());
}

// ---------------------------------------------------------------------------------------------
// deployment_controller_test.go
// ---------------------------------------------------------------------------------------------

/// Port of TestSyncDeploymentCreatesReplicaSet: create the ReplicaSet, then two status updates.
/// Upstream's fake client does not check resourceVersions; the real API server (and ours) rejects
/// the second write of the same stale object with a Conflict, and the key is retried.
#[test]
fn test_sync_deployment_creates_replica_set() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    d.metadata.generation = 1;
    fx.put_d(&d);
    let res = sync_deployment(&mut fx.ctx(), "default/foo");
    assert_eq!(
        fx.verbs(),
        vec![
            "create ReplicaSet",
            "update-status Deployment",
            "update-status Deployment"
        ]
    );
    assert!(res
        .unwrap_err()
        .message
        .contains("the object has been modified"));
    let d = fx.d("foo");
    assert_eq!(d.metadata.annotations[REVISION_ANNOTATION], "1");
    let rss: Vec<ReplicaSet> = fx
        .api
        .store
        .list::<ReplicaSet>(Some("default"))
        .cloned()
        .collect();
    assert_eq!(rss.len(), 1);
    let hash = rss[0].metadata.labels[DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY].clone();
    assert_eq!(rss[0].metadata.name, format!("foo-{hash}"));
    assert_eq!(rss[0].replicas(), 1);
    assert_eq!(
        rss[0]
            .spec
            .selector
            .as_ref()
            .unwrap()
            .match_labels
            .as_ref()
            .unwrap(),
        &labels(&[("foo", "bar"), (DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, &hash)])
    );
    assert_eq!(rss[0].metadata.annotations[REVISION_ANNOTATION], "1");
    assert_eq!(
        rss[0].metadata.annotations[DESIRED_REPLICAS_ANNOTATION],
        "1"
    );
    assert_eq!(rss[0].metadata.annotations[MAX_REPLICAS_ANNOTATION], "1");
    assert!(is_controlled_by(&rss[0].metadata, "uid-foo"));
    assert_eq!(
        fx.events(),
        vec![format!(
            "Normal ScalingReplicaSet Scaled up replica set foo-{hash} from 0 to 1"
        )]
    );

    // The retry finds the new ReplicaSet and writes the status once.
    fx.actions.clear();
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(fx.verbs(), vec!["update-status Deployment"]);
    let d = fx.d("foo");
    assert_eq!(d.status.observed_generation, 1);
    let avail = get_deployment_condition(&d.status, DEPLOYMENT_AVAILABLE).unwrap();
    // maxSurge 0, maxUnavailable 1 (upstream's 0/0 resolves to the same): 0 available is enough.
    assert_eq!(
        (
            avail.status.as_str(),
            avail.reason.as_str(),
            avail.message.as_str()
        ),
        (
            "True",
            MINIMUM_REPLICAS_AVAILABLE,
            "Deployment has minimum availability."
        )
    );
    // Nothing changed: a third sync writes nothing.
    fx.actions.clear();
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert!(fx.actions.is_empty(), "{:?}", fx.actions);
}

/// `FindNewReplicaSet` matches templates with `EqualIgnoreHash`, i.e.
/// `apiequality.Semantic.DeepEqual` (TestEqualIgnoreHash, TestFindNewReplicaSet): a Deployment
/// template that differs from its ReplicaSet's only by an empty list where the ReplicaSet has
/// none, or by a quantity written another way, is not a new template — no ReplicaSet is created
/// and the existing one stays the new one.
#[test]
fn semantically_equal_template_is_not_rolled_out() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    d.metadata.generation = 1;
    let c = &mut d.spec.template_mut().spec_mut().containers[0];
    c.resources = Some(crate::api::ResourceRequirements {
        requests: [("cpu".to_string(), crate::api::Quantity("1".into()))].into(),
        ..Default::default()
    });
    fx.put_d(&d);
    let _ = sync_deployment(&mut fx.ctx(), "default/foo");
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    let rss = |fx: &Fixture| {
        fx.api
            .store
            .list::<ReplicaSet>(Some("default"))
            .map(|rs| rs.metadata.name.clone())
            .collect::<Vec<_>>()
    };
    let before = rss(&fx);
    assert_eq!(before.len(), 1);

    // The Deployment's template now carries `env: []`, `imagePullSecrets: []` and `1000m` for
    // `1` (as an object read from a manifest can); the stored ReplicaSet's has neither.
    let mut d = fx.d("foo");
    d.metadata.generation = 2;
    let spec = d.spec.template_mut().spec_mut();
    spec.extra
        .insert("imagePullSecrets".into(), serde_json::json!([]));
    let c = &mut spec.containers[0];
    c.extra.insert("env".into(), serde_json::json!([]));
    c.resources.as_mut().unwrap().requests =
        [("cpu".to_string(), crate::api::Quantity("1000m".into()))].into();
    fx.api.store.put(Object::Deployment(d.clone()));
    fx.api.store.take_changes();
    let rs = fx.rs(&before[0]);
    assert_ne!(
        rs.spec.template.spec, d.spec.template.spec,
        "plain equality differs"
    );

    fx.actions.clear();
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert!(
        !fx.verbs().iter().any(|v| v == "create ReplicaSet"),
        "{:?}",
        fx.verbs()
    );
    assert_eq!(rss(&fx), before);
    let d = fx.d("foo");
    assert_eq!(d.status.observed_generation, 2);
    assert_eq!(d.metadata.annotations[REVISION_ANNOTATION], "1");

    // A real change still rolls out.
    let mut d = fx.d("foo");
    d.spec.template_mut().spec_mut().containers[0].image = "foo/baz".into();
    fx.api.store.put(Object::Deployment(d));
    fx.api.store.take_changes();
    fx.actions.clear();
    let _ = sync_deployment(&mut fx.ctx(), "default/foo");
    assert!(fx.verbs().iter().any(|v| v == "create ReplicaSet"));
}

/// Port of TestSyncDeploymentDontDoAnythingDuringDeletion: only a status update.
#[test]
fn test_sync_deployment_dont_do_anything_during_deletion() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    d.metadata.deletion_timestamp = Some(ts("2016-05-20T03:00:00Z"));
    fx.put_d(&d);
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(fx.verbs(), vec!["update-status Deployment"]);
}

/// Port of TestDontSyncDeploymentsWithEmptyPodSelector (issue 23218): a `{}` selector emits
/// SelectingAll and only bumps observedGeneration.
#[test]
fn test_dont_sync_deployments_with_empty_pod_selector() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    d.spec.selector = Some(LabelSelector::default());
    // Upstream models this invalid object on purpose (a deployment stored before validation
    // rejected `{}` selectors): stored as is.
    fx.put_d_unvalidated(&d);
    // Upstream: "the fake deployment has no generation set so there is no action happening".
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert!(fx.actions.is_empty());
    // With a generation, observedGeneration is synced.
    d.metadata.generation = 1;
    fx.put_d_unvalidated(&d);
    fx.api.events.clear();
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(fx.verbs(), vec!["update-status Deployment"]);
    assert_eq!(fx.d("foo").status.observed_generation, 1);
    assert_eq!(
        fx.events(),
        vec!["Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required."]
    );
    // Already observed: only the event again, no write.
    fx.actions.clear();
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert!(fx.actions.is_empty());
    assert_eq!(fx.events().len(), 2);
}

/// Port of TestReentrantRollback: a rollback to the last revision updates the deployment once
/// and touches no ReplicaSet. (maxUnavailable is 1 here: our API server validates the update.)
#[test]
fn test_reentrant_rollback() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, Some(IntOrString::Int(1)), foo_bar());
    d.metadata.annotations = labels(&[(REVISION_ANNOTATION, "2")]).into();
    super::rollback::set_rollback_to(&mut d, Some(0));
    let mut rs1 = new_replica_set(&d, "deploymentrs-old", 0);
    rs1.metadata.annotations = labels(&[(REVISION_ANNOTATION, "1")]).into();
    rs1.spec
        .template_mut()
        .spec_mut()
        .termination_grace_period_seconds = Some(1);
    let mut rs2 = new_replica_set(&d, "deploymentrs-new", 1);
    rs2.metadata.annotations = labels(&[(REVISION_ANNOTATION, "2")]).into();
    // Upstream sets pod-template-hash on the ReplicaSets' selectors only, but its Go helpers share
    // one label map between every selector, template and label set of the test (the deployment's
    // included), so the hash ends up everywhere. Here the ReplicaSets carry it in their selector,
    // template labels and labels, as a deployment's ReplicaSets do on a real cluster (the API
    // server requires the template labels to match the selector); the deployment keeps
    // `foo: bar`, as a real one does.
    for r in [&mut rs1, &mut rs2] {
        r.spec
            .selector
            .as_mut()
            .unwrap()
            .match_labels
            .as_mut()
            .unwrap()
            .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), "hash".into());
        r.spec
            .template_mut()
            .metadata
            .labels
            .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), "hash".into());
        r.metadata
            .labels
            .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), "hash".into());
    }
    fx.put_d(&d);
    fx.put_rs(&rs1);
    fx.put_rs(&rs2);
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(fx.verbs(), vec!["update Deployment"]);
    let d = fx.d("foo");
    assert_eq!(
        d.spec.template.spec.termination_grace_period_seconds,
        Some(1)
    );
    assert!(!d.metadata.annotations.contains_key(DEPRECATED_ROLLBACK_TO));
    assert_eq!(
        d.metadata.generation, 1,
        "the spec change bumps the generation (0 → 1)"
    );
    assert_eq!(
        fx.events(),
        vec!["Normal DeploymentRollback Rolled back deployment \"foo\" to revision 1"]
    );
}

/// The legacy rollback's failure events: unknown revision and unchanged template.
#[test]
fn rollback_events() {
    let mut fx = Fixture::new();
    // A defaulted deployment in steady state (it already has a Progressing condition, so finding
    // its new ReplicaSet writes nothing before the rollback's update).
    let mut d = new_deployment(
        "foo",
        1,
        Some(10),
        None,
        Some(IntOrString::Int(1)),
        foo_bar(),
    );
    d.spec.progress_deadline_seconds = Some(600);
    d.status.conditions = vec![new_deployment_condition(
        DEPLOYMENT_PROGRESSING,
        CONDITION_TRUE,
        NEW_RS_AVAILABLE_REASON,
        "ReplicaSet \"foo-1\" has successfully progressed.",
        ts("2016-05-20T02:00:00Z"),
    )];
    d.metadata.annotations = labels(&[(REVISION_ANNOTATION, "1")]).into();
    super::rollback::set_rollback_to(&mut d, Some(5));
    let mut r = new_replica_set(&d, "foo-1", 1);
    r.metadata.annotations = labels(&[(REVISION_ANNOTATION, "1")]).into();
    fx.put_d(&d);
    fx.put_rs(&r);
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(
        fx.events(),
        vec!["Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to."]
    );
    assert!(!fx
        .d("foo")
        .metadata
        .annotations
        .contains_key(DEPRECATED_ROLLBACK_TO));

    // Rolling back to the current revision: template unchanged.
    let mut d = fx.d("foo");
    super::rollback::set_rollback_to(&mut d, Some(1));
    let d = fx.put_d(&d);
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(
        fx.events()[1],
        "Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment \"foo\""
    );
    // Only one revision: "Unable to find last revision." for a rollback to 0.
    let mut d2 = d.clone();
    d2.metadata.resource_version.clear();
    super::rollback::set_rollback_to(&mut d2, Some(0));
    fx.put_d(&d2);
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert_eq!(
        fx.events()[2],
        "Warning DeploymentRollbackRevisionNotFound Unable to find last revision."
    );
}

fn recreate_deployment() -> Deployment {
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    d.spec.strategy.type_ = RECREATE.into();
    d.spec.strategy.rolling_update = None;
    d
}

fn delete_pod_change(p: &Pod) -> Change {
    Change::of(Some(Object::Pod(p.clone())), None)
}

/// Ports of TestPodDeletionEnqueuesRecreateDeployment,
/// TestPodDeletionDoesntEnqueueRecreateDeployment,
/// TestPodDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment and
/// TestPodDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment.
#[test]
fn test_pod_deletion_enqueues_recreate_deployment() {
    let foo = recreate_deployment();
    let mut dc = DeploymentController::new();

    // The last pod is gone: enqueued.
    let mut fx = Fixture::new();
    fx.put_d(&foo);
    let rs1 = fx.put_rs(&new_replica_set(&foo, "foo-1", 1));
    let pod = generate_pod_from_rs(&rs1);
    dc.watch(
        &delete_pod_change(&pod),
        &fx.api.store,
        &mut fx.queue,
        fx.api.now,
    );
    assert_eq!(fx.queue.pop().as_deref(), Some("default/foo"));

    // Another pod remains: not enqueued.
    let mut fx = Fixture::new();
    fx.put_d(&foo);
    let rs1 = fx.put_rs(&new_replica_set(&foo, "foo-1", 1));
    let pod1 = generate_pod_from_rs(&rs1);
    let mut pod2 = generate_pod_from_rs(&rs1);
    pod2.metadata.name = "foo-1-pod-2".into();
    fx.put(Object::Pod(pod2));
    dc.watch(
        &delete_pod_change(&pod1),
        &fx.api.store,
        &mut fx.queue,
        fx.api.now,
    );
    assert!(fx.queue.is_empty());

    // Partial ownership (rs2 is an orphan), last pod gone: enqueued.
    let mut fx = Fixture::new();
    fx.put_d(&foo);
    let rs1 = fx.put_rs(&new_replica_set(&foo, "foo-1", 1));
    let mut rs2 = new_replica_set(&foo, "foo-2", 2);
    rs2.metadata.owner_references.clear();
    fx.put_rs(&rs2);
    let pod = generate_pod_from_rs(&rs1);
    dc.watch(
        &delete_pod_change(&pod),
        &fx.api.store,
        &mut fx.queue,
        fx.api.now,
    );
    assert_eq!(fx.queue.len(), 1);

    // Partial ownership, a pod of an owned RS remains: not enqueued.
    let mut fx = Fixture::new();
    fx.put_d(&foo);
    let rs1 = fx.put_rs(&new_replica_set(&foo, "foo-1", 1));
    let mut rs2 = new_replica_set(&foo, "foo-2", 2);
    rs2.metadata.owner_references.clear();
    fx.put_rs(&rs2);
    let pod = generate_pod_from_rs(&rs1);
    fx.put(Object::Pod(pod.clone()));
    dc.watch(
        &delete_pod_change(&pod),
        &fx.api.store,
        &mut fx.queue,
        fx.api.now,
    );
    assert!(fx.queue.is_empty());

    // A RollingUpdate deployment is not woken by pod deletions.
    let mut fx = Fixture::new();
    let rolling = new_deployment("foo", 1, None, None, None, foo_bar());
    fx.put_d(&rolling);
    let rs1 = fx.put_rs(&new_replica_set(&rolling, "foo-1", 1));
    dc.watch(
        &delete_pod_change(&generate_pod_from_rs(&rs1)),
        &fx.api.store,
        &mut fx.queue,
        fx.api.now,
    );
    assert!(fx.queue.is_empty());
}

/// Port of TestGetReplicaSetsForDeployment: ControllerRefs decide between two deployments with
/// the same selector.
#[test]
fn test_get_replica_sets_for_deployment() {
    let mut fx = Fixture::new();
    let d1 = fx.put_d(&new_deployment("foo", 1, None, None, None, foo_bar()));
    let d2 = fx.put_d(&new_deployment("bar", 1, None, None, None, foo_bar()));
    fx.put_rs(&new_replica_set(&d1, "rs1", 1));
    fx.put_rs(&new_replica_set(&d2, "rs2", 1));
    let names = |v: Vec<ReplicaSet>| v.into_iter().map(|r| r.metadata.name).collect::<Vec<_>>();
    assert_eq!(
        names(get_replica_sets_for_deployment(&mut fx.ctx(), &d1).unwrap()),
        ["rs1"]
    );
    assert_eq!(
        names(get_replica_sets_for_deployment(&mut fx.ctx(), &d2).unwrap()),
        ["rs2"]
    );
    assert!(fx.actions.is_empty());
}

/// Port of TestGetReplicaSetsForDeploymentAdoptRelease: an orphan with matching labels is
/// adopted, an owned ReplicaSet with other labels is released (both by patch). Upstream names
/// them `rsAdopt` and `rsRelease`, which the API server rejects (names must be lowercase RFC 1123
/// subdomains; an invalid name would make the adopt/release patches fail): `rs-adopt` and
/// `rs-release` here.
#[test]
fn test_get_replica_sets_for_deployment_adopt_release() {
    let mut fx = Fixture::new();
    let d = fx.put_d(&new_deployment("foo", 1, None, None, None, foo_bar()));
    // Upstream: rsAdopt.
    let mut adopt = new_replica_set(&d, "rs-adopt", 1);
    adopt.metadata.owner_references.clear();
    // Upstream: rsRelease.
    let mut release = new_replica_set(&d, "rs-release", 1);
    release.metadata.labels = labels(&[("foo", "notbar")]).into();
    fx.put_rs(&adopt);
    fx.put_rs(&release);
    let got = get_replica_sets_for_deployment(&mut fx.ctx(), &d).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].metadata.name, "rs-adopt");
    assert_eq!(fx.verbs(), vec!["patch ReplicaSet", "patch ReplicaSet"]);
    assert_eq!(
        fx.rs("rs-adopt").metadata.controller_ref().cloned(),
        Some(controller_ref(&d))
    );
    assert!(fx.rs("rs-release").metadata.owner_references.is_empty());

    // A deployment being deleted adopts nothing and releases nothing.
    let mut fx = Fixture::new();
    let mut dd = new_deployment("foo", 1, None, None, None, foo_bar());
    dd.metadata.deletion_timestamp = Some(ts("2016-05-20T03:00:00Z"));
    let dd = fx.put_d(&dd);
    fx.put_rs(&adopt);
    fx.put_rs(&release);
    assert!(get_replica_sets_for_deployment(&mut fx.ctx(), &dd)
        .unwrap()
        .is_empty());
    assert!(fx.actions.is_empty());
}

/// Port of TestGetPodMapForReplicaSets: pods grouped by owning ReplicaSet; orphans left out,
/// inactive pods kept.
#[test]
fn test_get_pod_map_for_replica_sets() {
    let mut fx = Fixture::new();
    let d = fx.put_d(&new_deployment("foo", 1, None, None, None, foo_bar()));
    let rs1 = fx.put_rs(&new_replica_set(&d, "rs1", 1));
    let rs2 = fx.put_rs(&new_replica_set(&d, "rs2", 1));
    let pod1 = generate_pod_from_rs(&rs1);
    let pod2 = generate_pod_from_rs(&rs2);
    let mut pod3 = generate_pod_from_rs(&rs1);
    pod3.metadata.name = "pod3".into();
    pod3.metadata.owner_references.clear();
    let mut pod4 = generate_pod_from_rs(&rs1);
    pod4.metadata.name = "pod4".into();
    pod4.status.phase = "Failed".into();
    for p in [pod1, pod2, pod3, pod4] {
        fx.put(Object::Pod(p));
    }
    let map = get_pod_map_for_deployment(&fx.api.store, &d, &[rs1.clone(), rs2.clone()]).unwrap();
    assert_eq!(map.values().map(Vec::len).sum::<usize>(), 3);
    assert_eq!(map.len(), 2);
    let names = |uid: &str| {
        map[uid]
            .iter()
            .map(|p| p.metadata.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&rs1.metadata.uid), ["pod4", "rs1-pod"]);
    assert_eq!(names(&rs2.metadata.uid), ["rs2-pod"]);
}

fn rs_change(old: Option<&ReplicaSet>, new: Option<&ReplicaSet>) -> Change {
    Change::of(
        old.cloned().map(Object::ReplicaSet),
        new.cloned().map(Object::ReplicaSet),
    )
}

fn bump(rs: &ReplicaSet) -> ReplicaSet {
    let mut r = rs.clone();
    r.metadata.resource_version = format!("{}-bumped", r.metadata.resource_version);
    r
}

/// Ports of TestAddReplicaSet, TestAddReplicaSetOrphan, TestUpdateReplicaSet,
/// TestUpdateReplicaSetOrphanWithNewLabels, TestUpdateReplicaSetChangeControllerRef,
/// TestUpdateReplicaSetRelease, TestDeleteReplicaSet and TestDeleteReplicaSetOrphan.
#[test]
fn test_replica_set_event_handlers() {
    let mut dc = DeploymentController::new();
    let mut fx = Fixture::new();
    let d1 = fx.put_d(&new_deployment("d1", 1, None, None, None, foo_bar()));
    let d2 = fx.put_d(&new_deployment("d2", 1, None, None, None, foo_bar()));
    let mut d3 = new_deployment("d3", 1, None, None, None, foo_bar());
    d3.spec.selector = Some(LabelSelector::from_labels(&labels(&[("foo", "notbar")])));
    d3.spec.template_mut().metadata.labels = labels(&[("foo", "notbar")]).into();
    fx.put_d(&d3);
    let rs1 = new_replica_set(&d1, "rs1", 1);
    let rs2 = new_replica_set(&d2, "rs2", 1);
    let mut orphan = new_replica_set(&d1, "rs3", 1);
    orphan.metadata.owner_references.clear();
    let now = fx.api.now;
    let mut handle = |c: Change, fx: &mut Fixture| -> Vec<String> {
        dc.watch(&c, &fx.api.store, &mut fx.queue, now);
        std::iter::from_fn(|| fx.queue.pop()).collect()
    };

    // TestAddReplicaSet
    assert_eq!(handle(rs_change(None, Some(&rs1)), &mut fx), ["default/d1"]);
    assert_eq!(handle(rs_change(None, Some(&rs2)), &mut fx), ["default/d2"]);
    // TestAddReplicaSetOrphan: the two matching deployments.
    assert_eq!(
        handle(rs_change(None, Some(&orphan)), &mut fx),
        ["default/d1", "default/d2"]
    );
    // TestUpdateReplicaSet
    assert_eq!(
        handle(rs_change(Some(&rs1), Some(&bump(&rs1))), &mut fx),
        ["default/d1"]
    );
    assert_eq!(
        handle(rs_change(Some(&rs2), Some(&bump(&rs2))), &mut fx),
        ["default/d2"]
    );
    // Same resourceVersion: a resync, ignored.
    assert!(handle(rs_change(Some(&rs1), Some(&rs1)), &mut fx).is_empty());
    // TestUpdateReplicaSetOrphanWithNewLabels
    let mut prev = orphan.clone();
    prev.metadata.labels = labels(&[("foo", "notbar")]).into();
    assert_eq!(
        handle(rs_change(Some(&prev), Some(&bump(&orphan))), &mut fx).len(),
        2
    );
    // TestUpdateReplicaSetChangeControllerRef: old and new owners.
    let mut prev = rs1.clone();
    prev.metadata.owner_references = vec![controller_ref(&d2)].into();
    assert_eq!(
        handle(rs_change(Some(&prev), Some(&bump(&rs1))), &mut fx).len(),
        2
    );
    // TestUpdateReplicaSetRelease: the old owner and every matching deployment (deduplicated).
    let mut next = bump(&rs1);
    next.metadata.owner_references.clear();
    assert_eq!(handle(rs_change(Some(&rs1), Some(&next)), &mut fx).len(), 2);
    // TestDeleteReplicaSet
    assert_eq!(handle(rs_change(Some(&rs1), None), &mut fx), ["default/d1"]);
    assert_eq!(handle(rs_change(Some(&rs2), None), &mut fx), ["default/d2"]);
    // TestDeleteReplicaSetOrphan
    assert!(handle(rs_change(Some(&orphan), None), &mut fx).is_empty());
    // An added ReplicaSet that is already being deleted counts as a deletion.
    let mut dying = rs1.clone();
    dying.metadata.deletion_timestamp = Some(now);
    assert_eq!(
        handle(rs_change(None, Some(&dying)), &mut fx),
        ["default/d1"]
    );
}

/// maxRetries: after 15 failures the key is dropped (Forget) instead of retried.
#[test]
fn retries_are_bounded() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    // A strategy type this API server rejects, as a newer API server might store one (version
    // skew); it reaches syncDeployment's `unexpected deployment strategy type` branch, so it is
    // stored unvalidated.
    d.spec.strategy.type_ = "Canary".into();
    fx.put_d_unvalidated(&d);
    let mut dc = DeploymentController::new();
    let err = dc.sync("default/foo", &mut fx.ctx()).unwrap_err();
    assert_eq!(err.message, "unexpected deployment strategy type: Canary");
    for _ in 0..MAX_RETRIES {
        fx.queue.add_rate_limited("default/foo", fx.api.now);
    }
    assert!(dc.sync("default/foo", &mut fx.ctx()).is_ok());
    assert_eq!(fx.queue.num_requeues("default/foo"), 0);
}

// ---------------------------------------------------------------------------------------------
// End-to-end reconcile loops with a hand-driven ReplicaSet "controller"
// ---------------------------------------------------------------------------------------------

/// Plays the ReplicaSet controller and kubelets: every ReplicaSet reports `spec.replicas` pods,
/// of which `available(rs)` are ready and available.
fn settle_replica_sets(fx: &mut Fixture, available: &dyn Fn(&ReplicaSet) -> i32) {
    let rss: Vec<ReplicaSet> = fx.api.store.list::<ReplicaSet>(None).cloned().collect();
    for mut r in rss {
        let a = available(&r).min(r.replicas());
        r.status.replicas = r.replicas();
        r.status.ready_replicas = a;
        r.status.available_replicas = a;
        r.status.observed_generation = r.metadata.generation;
        fx.api.update_status(Object::ReplicaSet(r)).unwrap();
    }
    fx.api.store.take_changes();
}

/// One reconcile (its error, a Conflict, would be retried by the queue a few ms later), then the
/// ReplicaSets settle: pods appear and become available "instantly" between two syncs.
fn step(fx: &mut Fixture, key: &str, available: &dyn Fn(&ReplicaSet) -> i32) {
    let _ = sync_deployment(&mut fx.ctx(), key);
    settle_replica_sets(fx, available);
}

/// Syncs until a sync succeeds (a Conflict is retried, as the work queue would).
fn sync_ok(fx: &mut Fixture, key: &str) {
    for _ in 0..5 {
        if sync_deployment(&mut fx.ctx(), key).is_ok() {
            return;
        }
    }
    panic!("sync of {key} kept failing");
}

/// (old, new) spec.replicas of a two-ReplicaSet rollout.
fn old_new(fx: &Fixture, d: &Deployment) -> (i32, i32) {
    let mut rss: Vec<ReplicaSet> = fx
        .api
        .store
        .list::<ReplicaSet>(Some("default"))
        .cloned()
        .collect();
    let new = find_new_replica_set(d, &mut rss).map(|r| r.metadata.uid);
    let (mut old, mut newr) = (0, 0);
    for r in rss {
        if Some(&r.metadata.uid) == new.as_ref() {
            newr += r.replicas();
        } else {
            old += r.replicas();
        }
    }
    (old, newr)
}

/// Creates `web` (10 replicas, 25%/25%, API defaults), rolls it out to completion, then changes
/// the image. Returns the fixture right after the template change.
fn complete_then_update() -> Fixture {
    let mut fx = Fixture::new();
    let mut d = new_deployment("web", 10, None, None, None, labels(&[("app", "web")]));
    d.spec.strategy = Default::default();
    d.spec.revision_history_limit = None;
    d.metadata.uid.clear();
    fx.api.create(Object::Deployment(d)).unwrap();
    fx.api.store.take_changes();
    for _ in 0..4 {
        sync_ok(&mut fx, "default/web");
        settle_replica_sets(&mut fx, &|r| r.replicas());
    }
    let d = fx.d("web");
    assert!(deployment_complete(&d, &d.status), "{:?}", d.status);
    let p = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(p.reason, NEW_RS_AVAILABLE_REASON);
    assert!(
        p.message.starts_with("ReplicaSet \"web-")
            && p.message.ends_with("\" has successfully progressed.")
    );
    let mut d = fx.d("web");
    d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:v2".into();
    fx.api.update(Object::Deployment(d)).unwrap();
    fx.api.store.take_changes();
    fx.api.events.clear();
    fx
}

/// The (old, new) sizes after every ScalingReplicaSet event since `from` (the events carry the
/// intermediate states of one sync: a ReplicaSet created with 3 and an old one scaled down in
/// the same reconcile are two steps).
fn scaling_sequence(fx: &Fixture, new_name_prefix_of: &str, start: (i32, i32)) -> Vec<(i32, i32)> {
    let mut cur = start;
    let mut seq = vec![cur];
    for e in &fx.api.events {
        if e.reason != "ScalingReplicaSet" {
            continue;
        }
        // "Scaled <up|down> replica set <name> from <a> to <b>"
        let w: Vec<&str> = e.message.split(' ').collect();
        let (name, to) = (w[4], w[8].parse::<i32>().unwrap());
        if name == new_name_prefix_of {
            cur.1 = to;
        } else {
            cur.0 = to;
        }
        seq.push(cur);
    }
    seq
}

fn new_rs_name(fx: &Fixture) -> String {
    let d = fx.d("web");
    let mut rss: Vec<ReplicaSet> = fx.api.store.list::<ReplicaSet>(None).cloned().collect();
    find_new_replica_set(&d, &mut rss).unwrap().metadata.name
}

/// ALGORITHMS.md §3.7 worked example, driven one reconcile step at a time: 10 replicas,
/// maxSurge/maxUnavailable 25% (3 and 2), the ReplicaSets' pods available instantly after every
/// step. (old, new) goes 10/0 → 10/3 → 5/3 → 5/8 → 0/8 → 0/10.
#[test]
fn rolling_update_worked_example_reconcile_steps() {
    let mut fx = complete_then_update();
    let d = fx.d("web");
    assert_eq!((max_surge(&d), max_unavailable(&d)), (3, 2));
    let mut seen = vec![old_new(&fx, &d)];
    // The new ReplicaSet is created by getNewReplicaSet with NewRSNewReplicas = 3.
    {
        let mut d = d.clone();
        let mut list: Vec<ReplicaSet> = fx.api.store.list::<ReplicaSet>(None).cloned().collect();
        super::sync::get_all_replica_sets_and_sync_revision(&mut fx.ctx(), &mut d, &mut list, true)
            .unwrap();
    }
    settle_replica_sets(&mut fx, &|r| r.replicas());
    seen.push(old_new(&fx, &d));
    for i in 0..4 {
        let mut list: Vec<ReplicaSet> = fx.api.store.list::<ReplicaSet>(None).cloned().collect();
        let (_, old) = find_old_replica_sets(&d, &mut list);
        let new = find_new_replica_set(&d, &mut list).unwrap();
        let all = super::sync::all_rss(&old, Some(&new));
        let scaled = if i % 2 == 0 {
            reconcile_old_replica_sets(
                &mut fx.ctx(),
                &all,
                filter_active_replica_sets(&old),
                &new,
                &d,
            )
        } else {
            reconcile_new_replica_set(&mut fx.ctx(), &all, &new, &d)
        };
        assert!(scaled.unwrap(), "step {i}");
        settle_replica_sets(&mut fx, &|r| r.replicas());
        seen.push(old_new(&fx, &d));
    }
    assert_eq!(
        seen,
        vec![(10, 0), (10, 3), (5, 3), (5, 8), (0, 8), (0, 10)]
    );
}

/// The same rollout through whole syncs. Upstream wins over ALGORITHMS.md here: the sync that
/// creates the new ReplicaSet (3 replicas, none available yet) goes on to reconcileOldReplicaSets
/// in the same reconcile, where maxScaledDown = 13 − 8 − 3 = 2 lets it scale the old ReplicaSet
/// to 8 at once ("Scaled up … to 3", "Scaled down … to 8", "Scaled up … to 5", as `kubectl
/// describe` shows on real clusters). With instant availability afterwards:
/// 10/0 → 10/3 → 8/3 → 8/5 → 3/5 → 3/10 → 0/10.
#[test]
fn rolling_update_worked_example_full_syncs() {
    let mut fx = complete_then_update();
    for _ in 0..10 {
        step(&mut fx, "default/web", &|r| r.replicas());
    }
    let new = new_rs_name(&fx);
    assert_eq!(
        scaling_sequence(&fx, &new, (10, 0)),
        vec![(10, 0), (10, 3), (8, 3), (8, 5), (3, 5), (3, 10), (0, 10)]
    );
    let d = fx.d("web");
    assert!(deployment_complete(&d, &d.status));
    assert_eq!(d.metadata.annotations[REVISION_ANNOTATION], "2");
    let ev = fx.events();
    assert_eq!(
        ev[0],
        format!("Normal ScalingReplicaSet Scaled up replica set {new} from 0 to 3")
    );
    assert!(ev[1].starts_with("Normal ScalingReplicaSet Scaled down replica set web-"));
    assert!(ev[1].ends_with(" from 10 to 8"));
    let p = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(
        p.message,
        format!("ReplicaSet {new:?} has successfully progressed.")
    );
    // revisionHistoryLimit 10 keeps the old ReplicaSet, scaled to 0.
    assert_eq!(fx.api.store.list::<ReplicaSet>(None).count(), 2);
}

/// ALGORITHMS.md §3.7: if the new pods never become available the rollout goes 10/0 → 10/3 →
/// 8/3 → 8/5 and then stays stuck, until the progress deadline reports
/// `ProgressDeadlineExceeded`.
#[test]
fn rolling_update_stuck_when_new_pods_never_available() {
    let mut fx = complete_then_update();
    let old_name = fx
        .api
        .store
        .list::<ReplicaSet>(None)
        .next()
        .unwrap()
        .metadata
        .name
        .clone();
    let avail = move |r: &ReplicaSet| {
        if r.metadata.name == old_name {
            r.replicas()
        } else {
            0
        }
    };
    for _ in 0..10 {
        step(&mut fx, "default/web", &avail);
    }
    let new = new_rs_name(&fx);
    assert_eq!(
        scaling_sequence(&fx, &new, (10, 0)),
        vec![(10, 0), (10, 3), (8, 3), (8, 5)]
    );
    let st = fx.d("web").status;
    let p = get_deployment_condition(&st, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(p.reason, REPLICA_SET_UPDATED_REASON);
    assert_eq!(p.message, format!("ReplicaSet {new:?} is progressing."));
    assert_eq!(
        get_deployment_condition(&st, DEPLOYMENT_AVAILABLE)
            .unwrap()
            .status,
        CONDITION_TRUE
    );
    // The progress check was scheduled for lastUpdateTime + 600 s + 1 s.
    let due = fx.queue.next_due().unwrap();
    assert_eq!(due, p.last_update_time.unwrap() + Duration::from_secs(601));
    // At that time the deployment has timed out.
    fx.api.now = due;
    sync_ok(&mut fx, "default/web");
    let st = fx.d("web").status;
    let p = get_deployment_condition(&st, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(
        (p.status.as_str(), p.reason.as_str()),
        ("False", TIMED_OUT_REASON)
    );
    assert_eq!(
        p.message,
        format!("ReplicaSet {new:?} has timed out progressing.")
    );
    // Timed out: no further progress checks are scheduled.
    while fx.queue.pop().is_some() {}
    fx.queue.promote_due(Time(i64::MAX));
    while fx.queue.pop().is_some() {}
    sync_ok(&mut fx, "default/web");
    assert!(fx.queue.is_empty());
}

/// Recreate: old ReplicaSets go to 0 first; the new one is created only once no old pod runs.
#[test]
fn recreate_rollout() {
    let mut fx = Fixture::new();
    let mut d = recreate_deployment();
    d.spec.replicas = Some(3);
    d.metadata.uid.clear();
    fx.api.create(Object::Deployment(d)).unwrap();
    for _ in 0..3 {
        sync_ok(&mut fx, "default/foo");
        settle_replica_sets(&mut fx, &|r| r.replicas());
    }
    let mut d = fx.d("foo");
    assert!(deployment_complete(&d, &d.status));
    d.spec.template_mut().spec_mut().containers[0].image = "foo/bar:v2".into();
    fx.api.update(Object::Deployment(d)).unwrap();
    let d = fx.d("foo");
    // First sync: old scaled to 0, no new ReplicaSet yet.
    sync_ok(&mut fx, "default/foo");
    assert_eq!(old_new(&fx, &d), (0, 0));
    assert_eq!(fx.api.store.list::<ReplicaSet>(None).count(), 1);
    // The old ReplicaSet still reports pods: nothing else happens.
    sync_ok(&mut fx, "default/foo");
    assert_eq!(fx.api.store.list::<ReplicaSet>(None).count(), 1);
    // Pods gone: the new ReplicaSet is created with all replicas.
    settle_replica_sets(&mut fx, &|r| r.replicas());
    sync_ok(&mut fx, "default/foo");
    assert_eq!(old_new(&fx, &d), (0, 3));
}

/// A scaling event during a rollout is spread proportionally (ALGORITHMS.md §3.9), and a paused
/// deployment gets `Progressing=Unknown DeploymentPaused`.
#[test]
fn scaling_during_rollout_and_pause() {
    let mut fx = complete_then_update();
    let d = fx.d("web");
    // The creating sync also scales the old ReplicaSet down by 2 (see the full-syncs test).
    step(&mut fx, "default/web", &|_| 0);
    assert_eq!(old_new(&fx, &d), (8, 3));
    let mut d = fx.d("web");
    d.spec.replicas = Some(20);
    d.spec.paused = true;
    fx.api.update(Object::Deployment(d)).unwrap();
    sync_ok(&mut fx, "default/web");
    // allowed 20 + 5 = 25, 14 to add, both at max-replicas 13: old 8 → round(8 × 25/13) = 15
    // (+7), new 3 → round(3 × 25/13) = 6 (+3); the 4 left over go to the largest (old).
    let d = fx.d("web");
    assert_eq!(old_new(&fx, &d), (19, 6));
    let p = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(
        (p.status.as_str(), p.reason.as_str(), p.message.as_str()),
        ("Unknown", PAUSED_DEPLOY_REASON, "Deployment is paused")
    );
    // Resuming sets DeploymentResumed.
    let mut d = fx.d("web");
    d.spec.paused = false;
    fx.api.update(Object::Deployment(d)).unwrap();
    let _ = sync_deployment(&mut fx.ctx(), "default/web");
    let d = fx.d("web");
    let p = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).unwrap();
    assert!(
        p.reason == RESUMED_DEPLOY_REASON || p.reason == REPLICA_SET_UPDATED_REASON,
        "{p:?}"
    );
}

/// `kubectl rollout undo`: previous revision by default, `--to-revision`, errors and skip.
#[test]
fn rollout_undo_cases() {
    let mut fx = complete_then_update();
    for _ in 0..8 {
        sync_ok(&mut fx, "default/web");
        settle_replica_sets(&mut fx, &|r| r.replicas());
    }
    let d = fx.d("web");
    let rss = list_replica_sets(&d, fx.api.store.list::<ReplicaSet>(None));
    assert_eq!(rss.len(), 2);
    match rollout_undo(&d, &rss, 0).unwrap() {
        UndoResult::RolledBack(nd) => {
            assert_eq!(nd.spec.template.spec.containers[0].image, "foo/bar");
            assert!(!nd
                .spec
                .template
                .metadata
                .labels
                .contains_key(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY));
            assert_eq!(nd.metadata.annotations[REVISION_ANNOTATION], "2");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        rollout_undo(&d, &rss, 1).unwrap(),
        UndoResult::RolledBack(_)
    ));
    assert_eq!(
        rollout_undo(&d, &rss, 2).unwrap(),
        UndoResult::Skipped(
            "skipped rollback (current template already matches revision 2)".into()
        )
    );
    assert_eq!(
        rollout_undo(&d, &rss, 7).unwrap_err(),
        "unable to find specified revision 7 in history"
    );
    assert_eq!(
        rollout_undo(&d, &rss[..0], 0).unwrap_err(),
        "no rollout history found for deployment \"web\""
    );
    let mut paused = d.clone();
    paused.spec.paused = true;
    assert!(rollout_undo(&paused, &rss, 1)
        .unwrap_err()
        .starts_with("you cannot rollback a paused deployment"));

    // Writing the result back starts a rollout to the old ReplicaSet, which becomes revision 3
    // with revision-history 1.
    let UndoResult::RolledBack(nd) = rollout_undo(&d, &rss, 0).unwrap() else {
        unreachable!()
    };
    fx.api.update(Object::Deployment(*nd)).unwrap();
    for _ in 0..8 {
        sync_ok(&mut fx, "default/web");
        settle_replica_sets(&mut fx, &|r| r.replicas());
    }
    let d = fx.d("web");
    assert_eq!(d.metadata.annotations[REVISION_ANNOTATION], "3");
    let mut rss = list_replica_sets(&d, fx.api.store.list::<ReplicaSet>(None));
    let new = find_new_replica_set(&d, &mut rss).unwrap();
    assert_eq!(new.metadata.annotations[REVISION_ANNOTATION], "3");
    assert_eq!(new.metadata.annotations[REVISION_HISTORY_ANNOTATION], "1");
    assert!(deployment_complete(&d, &d.status));
}

/// A name collision with a ReplicaSet that is not ours bumps status.collisionCount; the next
/// sync creates the ReplicaSet under a different hash.
#[test]
fn hash_collision_bumps_collision_count() {
    let mut fx = Fixture::new();
    let d = fx.put_d(&new_deployment("foo", 1, None, None, None, foo_bar()));
    let hash = compute_hash(&d.spec.template, None);
    let mut squatter = rs(&format!("foo-{hash}"), 0, labels(&[("other", "x")]), None);
    squatter.metadata.uid = "squatter".into();
    fx.put_rs(&squatter);
    let err = sync_deployment(&mut fx.ctx(), "default/foo").unwrap_err();
    assert!(err.is_already_exists());
    assert_eq!(fx.d("foo").status.collision_count, Some(1));
    sync_ok(&mut fx, "default/foo");
    let hash1 = compute_hash(&d.spec.template, Some(1));
    assert_ne!(hash, hash1);
    assert!(fx
        .api
        .store
        .get::<ReplicaSet>("default", &format!("foo-{hash1}"))
        .is_some());
}

// ---------------------------------------------------------------------------------------------
// Inside the simulation loop (watch → queue → sync), with a stand-in ReplicaSet loop
// ---------------------------------------------------------------------------------------------

/// Stands in for the ReplicaSet controller and the kubelets: every ReplicaSet immediately
/// reports `spec.replicas` pods, all available.
struct InstantReplicaSets;

impl Controller for InstantReplicaSets {
    fn name(&self) -> &'static str {
        "instant-replicasets"
    }
    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, _now: Time) {
        if let Some(Object::ReplicaSet(rs)) = change.new_obj() {
            queue.add_owned(rs.metadata.key());
        }
    }
    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = split_key(key);
        let Some(mut rs) = ctx.store().get::<ReplicaSet>(ns, name).cloned() else {
            return Ok(());
        };
        let n = rs.replicas();
        rs.status.replicas = n;
        rs.status.ready_replicas = n;
        rs.status.available_replicas = n;
        rs.status.observed_generation = rs.metadata.generation;
        ctx.update_status(Object::ReplicaSet(rs)).map(|_| ())
    }
    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for rs in store.list::<ReplicaSet>(None) {
            queue.add_owned(rs.metadata.key());
        }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Create, roll out and scale a deployment through the simulation's watch/queue/sync loop.
#[test]
fn simulated_rollout_with_watch_and_requeues() {
    use crate::sim::Simulation;
    let mut sim = Simulation::new(
        42,
        ts("2025-01-01T00:00:00Z"),
        FeatureGates::default(),
        World::default(),
    );
    sim.add_loop(Box::new(DeploymentController::new()));
    sim.add_loop(Box::new(InstantReplicaSets));
    let mut d = new_deployment("web", 3, None, None, None, labels(&[("app", "web")]));
    d.spec.strategy = Default::default();
    d.metadata.uid.clear();
    sim.api.create(Object::Deployment(d)).unwrap();
    sim.run_for(Duration::from_secs(5)).unwrap();

    let d = sim
        .api
        .store
        .get::<Deployment>("default", "web")
        .cloned()
        .unwrap();
    assert!(deployment_complete(&d, &d.status), "{:?}", d.status);
    assert_eq!(d.status.ready_replicas, 3);
    let p = get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(p.reason, NEW_RS_AVAILABLE_REASON);
    assert!(sim.controller::<DeploymentController>().is_some());

    // Roll out a new image: 3 replicas, 25% → maxSurge 1, maxUnavailable 0.
    let mut d2 = d.clone();
    d2.spec.template_mut().spec_mut().containers[0].image = "foo/bar:v2".into();
    sim.api.update(Object::Deployment(d2)).unwrap();
    sim.api.events.clear();
    sim.run_for(Duration::from_secs(5)).unwrap();
    let d = sim
        .api
        .store
        .get::<Deployment>("default", "web")
        .cloned()
        .unwrap();
    assert!(deployment_complete(&d, &d.status), "{:?}", d.status);
    assert_eq!(d.metadata.annotations[REVISION_ANNOTATION], "2");
    let scaled: Vec<String> = sim
        .api
        .events
        .iter()
        .filter(|e| e.reason == "ScalingReplicaSet")
        .map(|e| {
            let w: Vec<&str> = e.message.split(' ').collect();
            format!("{} {} {}", w[1], w[6], w[8])
        })
        .collect();
    // As the documentation's nginx example: up to 1, down to 2, up to 2, down to 1, up to 3,
    // down to 0 (never more than 4 pods, never fewer than 3 available).
    assert_eq!(
        scaled,
        ["up 0 1", "down 3 2", "up 1 2", "down 2 1", "up 2 3", "down 1 0"]
    );
    assert!(sim.api.events.iter().all(|e| e.source == COMPONENT));

    // Scale: a scaling event goes through `sync` (no new ReplicaSet).
    let mut d3 = d.clone();
    d3.spec.replicas = Some(5);
    sim.api.update(Object::Deployment(d3)).unwrap();
    sim.run_for(Duration::from_secs(5)).unwrap();
    let d = sim
        .api
        .store
        .get::<Deployment>("default", "web")
        .cloned()
        .unwrap();
    assert!(deployment_complete(&d, &d.status));
    assert_eq!(sim.api.store.list::<ReplicaSet>(None).count(), 2);
    assert_eq!(
        sim.api.events.last().unwrap().message,
        format!(
            "Scaled up replica set {} from 3 to 5",
            new_rs_name_of(&sim, &d)
        )
    );
}

fn new_rs_name_of(sim: &crate::sim::Simulation, d: &Deployment) -> String {
    let mut rss: Vec<ReplicaSet> = sim.api.store.list::<ReplicaSet>(None).cloned().collect();
    find_new_replica_set(d, &mut rss).unwrap().metadata.name
}

/// A failed ReplicaSet create emits `ReplicaSetCreateError` and, with a progress deadline,
/// `Progressing=False`. The deployment is valid, but its ReplicaSet's name is not, as can happen
/// on a real cluster: upstream names it `<name>-<hash>` without truncating (sync.go
/// `getNewReplicaSet`), so a deployment name of 250 characters gives a ReplicaSet name over the
/// 253-character limit.
#[test]
fn replica_set_create_error() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("placeholder", 1, None, None, None, foo_bar());
    d.spec.progress_deadline_seconds = Some(600);
    let mut template = crate::api::PodTemplateSpec::clone(&d.spec.template);
    crate::api::defaults::default_pod_spec(template.spec_mut());
    let hash = compute_hash(&template, None);
    let name = "a".repeat(250);
    d.metadata.name = name.clone();
    d.metadata.uid = "uid-long".into();
    fx.put_d(&d);
    assert_eq!(compute_hash(&fx.d(&name).spec.template, None), hash);
    let rs_name = format!("{name}-{hash}");
    assert!(rs_name.len() > 253);
    let err = sync_deployment(&mut fx.ctx(), &format!("default/{name}")).unwrap_err();
    assert_eq!(err.reason, crate::api::Reason::Invalid);
    assert_eq!(
        fx.verbs(),
        vec!["create ReplicaSet", "update-status Deployment"]
    );
    let ev = fx.events();
    assert_eq!(ev.len(), 1);
    let prefix = format!(
        "Warning ReplicaSetCreateError Failed to create new replica set {rs_name:?}: \
         ReplicaSet.apps {rs_name:?} is invalid: metadata.name: Invalid value: {rs_name:?}: "
    );
    assert!(ev[0].starts_with(&prefix), "{}", ev[0]);
    assert!(
        ev[0].contains("must be no more than 253 characters"),
        "{}",
        ev[0]
    );
    let st = fx.d(&name).status;
    let p = get_deployment_condition(&st, DEPLOYMENT_PROGRESSING).unwrap();
    assert_eq!(
        (p.status.as_str(), p.reason.as_str()),
        ("False", FAILED_RS_CREATE_REASON)
    );
    assert_eq!(
        p.message,
        ev[0].trim_start_matches("Warning ReplicaSetCreateError ")
    );
    assert!(fx.api.store.list::<ReplicaSet>(None).next().is_none());
}

/// The REST strategy hooks: annotation changes bump the generation; a status update may change
/// annotations (the controller's revision annotation) but not the spec.
#[test]
fn api_server_strategy_hooks() {
    let mut api = ApiServer::new(1, ts("2025-01-01T00:00:00Z"));
    let mut d = new_deployment("web", 2, None, None, Some(IntOrString::Int(1)), foo_bar());
    d.metadata.uid.clear();
    let Object::Deployment(d) = api.create(Object::Deployment(d)).unwrap() else {
        unreachable!()
    };
    assert_eq!(d.metadata.generation, 1);
    let mut a = d.clone();
    a.metadata
        .annotations
        .insert("kubernetes.io/change-cause".into(), "v2".into());
    let Object::Deployment(a) = api.update(Object::Deployment(a)).unwrap() else {
        unreachable!()
    };
    assert_eq!(a.metadata.generation, 2);
    let mut s = a.clone();
    s.metadata
        .annotations
        .insert(REVISION_ANNOTATION.into(), "1".into());
    s.metadata.labels.insert("ignored".into(), "x".into());
    s.spec.replicas = Some(9);
    s.status.observed_generation = 2;
    let Object::Deployment(s) = api.update_status(Object::Deployment(s)).unwrap() else {
        unreachable!()
    };
    assert_eq!(s.metadata.annotations[REVISION_ANNOTATION], "1");
    assert!(!s.metadata.labels.contains_key("ignored"));
    assert_eq!(s.spec.replicas, Some(2));
    assert_eq!(s.status.observed_generation, 2);
    assert_eq!(s.metadata.generation, 2);
    // Selector changes are rejected on update.
    let mut bad = s.clone();
    bad.spec.selector = Some(LabelSelector::from_labels(&labels(&[("foo", "baz")])));
    bad.spec.template_mut().metadata.labels = labels(&[("foo", "baz")]).into();
    let err = api.update(Object::Deployment(bad)).unwrap_err();
    assert_eq!(
        err.kubectl_message(),
        "The Deployment \"web\" is invalid: spec.selector: Invalid value: {\"matchLabels\":{\"foo\":\"baz\"}}: field is immutable"
    );
}

/// calculateStatus: counts, unavailable never negative, and terminatingReplicas only with the
/// (alpha, off by default) DeploymentReplicaSetTerminatingReplicas gate.
#[test]
fn calculate_status_counts_and_terminating_gate() {
    let d = new_deployment("foo", 3, None, None, Some(IntOrString::Int(1)), foo_bar());
    let mut a = new_rs_with_available("a", 2, 3, 3);
    a.status.ready_replicas = 3;
    a.status.terminating_replicas = Some(1);
    a.status.observed_generation = 1;
    let mut b = new_rs_with_available("b", 2, 1, 0);
    b.status.terminating_replicas = Some(2);
    b.status.observed_generation = 1;
    let now = ts("2025-01-01T00:00:00Z");
    // With DeploymentReplicaSetTerminatingReplicas off (the default before 1.35) the field is
    // not written.
    let mut gates = FeatureGates::default();
    gates.set("DeploymentReplicaSetTerminatingReplicas", false);
    let s = super::sync::calculate_status(&[a.clone(), b.clone()], Some(&b), &d, now, &gates);
    assert_eq!(
        (
            s.replicas,
            s.updated_replicas,
            s.ready_replicas,
            s.available_replicas,
            s.unavailable_replicas
        ),
        (4, 1, 3, 3, 1)
    );
    assert_eq!(s.terminating_replicas, None);
    let avail = get_deployment_condition(&s, DEPLOYMENT_AVAILABLE).unwrap();
    assert_eq!(avail.status, CONDITION_TRUE);
    // On by default since 1.35: the ReplicaSets' terminating pods are summed.
    let on = FeatureGates::default();
    let s = super::sync::calculate_status(&[a.clone(), b], None, &d, now, &on);
    assert_eq!(s.terminating_replicas, Some(3));
    // More available than desired: unavailable is 0, not negative.
    let s = super::sync::calculate_status(
        &[new_rs_with_available("c", 1, 5, 5)],
        None,
        &d,
        now,
        &gates,
    );
    assert_eq!(s.unavailable_replicas, 0);
}

/// The `scale` doc example: 10 → 15 with a new and an old ReplicaSet of 5 each (max-replicas 10):
/// new +3, old +2.
#[test]
fn scale_doc_example() {
    let mut fx = Fixture::new();
    let d = new_deployment("foo", 15, None, None, Some(IntOrString::Int(1)), foo_bar());
    let mut n = rs("new", 5, foo_bar(), Some(ts("2016-05-20T02:00:00Z")));
    let mut o = rs("old", 5, foo_bar(), Some(ts("2016-05-20T01:00:00Z")));
    set_replicas_annotations(&mut n, 10, 10);
    set_replicas_annotations(&mut o, 10, 10);
    let n = fx.put_rs(&n);
    let mut olds = vec![fx.put_rs(&o)];
    scale(&mut fx.ctx(), &d, Some(&n), &mut olds).unwrap();
    assert_eq!((fx.rs("new").replicas(), fx.rs("old").replicas()), (8, 7));
}

mod upstream_gap;

mod audit;
