//! Fixtures shared by the ReplicaSet tests: upstream's `newReplicaSet` / `newPod` builders and a
//! harness that drives one controller by hand (sync a key, deliver watch events selectively).
#![allow(dead_code)]

use kubeplay::api::{
    ApiError, Container, LabelSelector, Labels, Object, OwnerReference, Pod, PodCondition,
    ReplicaSet, Resource, Time,
};
use kubeplay::controllers::replicaset::ReplicaSetController;
use kubeplay::controllers::{Action, Controller, Ctx};
use kubeplay::features::FeatureGates;
use kubeplay::queue::WorkQueue;
use kubeplay::store::apiserver::ApiServer;
use kubeplay::world::World;

pub const NS: &str = "default";

pub fn t0() -> Time {
    Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap()
}

pub fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// `newReplicaSet(replicas, selectorMap)`: uid `uid-<name>`, controlled by an owner with UID
/// "123" (as upstream), template labels = selector + `type=production` (kubeplay validates that
/// the selector matches the template).
pub fn new_replica_set(name: &str, replicas: i32, selector: &[(&str, &str)]) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = name.into();
    rs.metadata.namespace = NS.into();
    rs.metadata.uid = format!("uid-{name}");
    rs.metadata.creation_timestamp = Some(t0());
    rs.metadata.owner_references = vec![OwnerReference {
        api_version: "apps/v1".into(),
        kind: "Deployment".into(),
        name: "owner".into(),
        uid: "123".into(),
        controller: Some(true),
        block_owner_deletion: None,
    }]
    .into();
    rs.spec.replicas = Some(replicas);
    rs.spec.selector = Some(LabelSelector::from_labels(&labels(selector)));
    let mut tl = labels(selector);
    tl.insert("type".into(), "production".into());
    rs.spec.template_mut().metadata.labels = tl.into();
    rs.spec.template_mut().spec_mut().containers = vec![Container {
        name: "c".into(),
        image: "foo/bar".into(),
        ..Default::default()
    }];
    rs
}

/// `newPod(name, rs, phase, nil, properlyOwned)`: labels = the RS selector; Running pods get a
/// Ready=True condition.
pub fn new_pod(name: &str, rs: &ReplicaSet, phase: &str, owned: bool) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.namespace = rs.metadata.namespace.clone();
    p.metadata.uid = format!("uid-{name}");
    p.metadata.creation_timestamp = Some(t0());
    p.metadata.labels = (rs
        .spec
        .selector
        .as_ref()
        .and_then(|s| s.match_labels.clone())
        .unwrap_or_default())
    .into();
    if owned {
        p.metadata.owner_references = vec![controller_ref(rs)].into();
    }
    p.spec_mut().containers = vec![Container {
        name: "c".into(),
        image: "foo/bar".into(),
        ..Default::default()
    }];
    p.status.phase = phase.into();
    if phase == "Running" {
        p.status.conditions = vec![PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..Default::default()
        }];
    }
    p
}

pub fn controller_ref(rs: &ReplicaSet) -> OwnerReference {
    OwnerReference {
        api_version: "apps/v1".into(),
        kind: "ReplicaSet".into(),
        name: rs.metadata.name.clone(),
        uid: rs.metadata.uid.clone(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// One controller, its queue and an API server, driven by hand.
pub struct Harness {
    pub api: ApiServer,
    pub gates: FeatureGates,
    pub queue: WorkQueue,
    pub world: World,
    pub actions: Vec<Action>,
    pub ctrl: ReplicaSetController,
}

impl Harness {
    pub fn new(ctrl: ReplicaSetController) -> Self {
        Harness {
            api: ApiServer::new(7, t0()),
            gates: FeatureGates::default(),
            queue: WorkQueue::new(),
            world: World::default(),
            actions: vec![],
            ctrl,
        }
    }

    /// Loads an object as written (the informer has not seen it yet).
    pub fn load<T: Resource>(&mut self, o: T) -> Object {
        self.api.load(o.into_object()).unwrap()
    }

    /// `syncReplicaSet(key)` through a recording client.
    pub fn sync(&mut self, key: &str) -> Result<(), ApiError> {
        let component = self.ctrl.name();
        let mut ctx = Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component,
        };
        self.ctrl.sync(key, &mut ctx)
    }

    /// Delivers every pending watch event to the controller's handlers.
    pub fn deliver(&mut self) {
        let now = self.api.now;
        for c in self.api.store.take_changes() {
            self.ctrl.watch(&c, &self.api.store, &mut self.queue, now);
        }
    }

    /// Drops pending watch events (the informer "has not seen" them).
    pub fn drop_changes(&mut self) {
        self.api.store.take_changes();
    }

    /// Pops every ready key from the queue, in order.
    pub fn drain_queue(&mut self) -> Vec<String> {
        let mut keys = vec![];
        while let Some(k) = self.queue.pop() {
            keys.push(k);
        }
        keys
    }

    /// Recorded client calls on pods with the given verb.
    pub fn pod_actions(&self, verb: &str) -> usize {
        self.actions
            .iter()
            .filter(|a| a.kind == "Pod" && a.verb == verb)
            .count()
    }

    pub fn pods(&self) -> Vec<Pod> {
        self.api.store.list::<Pod>(Some(NS)).cloned().collect()
    }

    pub fn rs(&self, name: &str) -> ReplicaSet {
        self.api.store.get::<ReplicaSet>(NS, name).unwrap().clone()
    }

    /// Makes pod creations `ok+1 ..= ok+fail` (counted from now) fail, leaving the first `ok`
    /// to succeed. The API server draws up to 8 generated names per create (5-character suffix
    /// from its seeded RNG, then a UID on success); pods already holding exactly the names it
    /// will draw make every draw collide, and the create fails validation ("name or
    /// generateName is required"). The blockers carry no matching labels.
    pub fn block_creates(&mut self, prefix: &str, ok: usize, fail: usize) {
        let mut r = self.api.rng.clone();
        for _ in 0..ok {
            r.name_suffix(5);
            r.uuid();
        }
        let mut names = vec![];
        for _ in 0..fail {
            for _ in 0..8 {
                names.push(format!("{prefix}{}", r.name_suffix(5)));
            }
        }
        for (i, n) in names.into_iter().enumerate() {
            let mut p = Pod::default();
            p.metadata.name = n;
            p.metadata.namespace = NS.into();
            p.metadata.uid = format!("blocker-{i}");
            p.metadata.creation_timestamp = Some(t0());
            p.metadata.labels = labels(&[("blocker", "true")]).into();
            p.spec_mut().containers = vec![kubeplay::api::Container {
                name: "c".into(),
                image: "nginx".into(),
                ..Default::default()
            }];
            self.api.load(p.into_object()).unwrap();
        }
    }
}

pub fn key(rs: &ReplicaSet) -> String {
    format!("{}/{}", rs.metadata.namespace, rs.metadata.name)
}
