//! Ports of `pkg/controller/tainteviction/timed_workers_test.go`. Upstream drives a bare
//! `TimedWorkerQueue` whose work function counts its calls; here the queue is the taint eviction
//! controller's own (`add_work` / `cancel` / the `fire:` keys) and the work function is the real
//! one (`deletePodHandler`), so a call shows as a "Marking for deletion" event and a pod delete.
//! Upstream's work args `NewWorkArgs("1", "1")` name pod `1/1`; here pod `default/p1`.

use super::*;
use crate::api::Duration;
use crate::controllers::Action;
use crate::features::FeatureGates;
use crate::store::apiserver::ApiServer;
use crate::world::World;

const T0: i64 = 1_700_000_000;

struct Fixture {
    api: ApiServer,
    gates: FeatureGates,
    queue: WorkQueue,
    world: World,
    actions: Vec<Action>,
    ctrl: TaintEvictionController,
}

fn key(i: usize) -> String {
    format!("default/p{i}")
}

impl Fixture {
    /// Five running pods `default/p1`..`default/p5` on `node1`.
    fn new() -> Self {
        let mut api = ApiServer::new(1, Time::from_unix_secs(T0));
        for i in 1..=5 {
            let mut p = Pod::default();
            p.metadata.namespace = "default".into();
            p.metadata.name = format!("p{i}");
            p.spec_mut().node_name = "node1".into();
            p.spec_mut().containers = vec![crate::api::Container {
                name: "c".into(),
                image: "busybox".into(),
                ..Default::default()
            }];
            p.status.phase = "Running".into();
            api.load(p.into_object()).expect("pod loads");
        }
        Fixture {
            api,
            gates: FeatureGates::default(),
            queue: WorkQueue::new(),
            world: World::default(),
            actions: vec![],
            ctrl: TaintEvictionController::default(),
        }
    }

    fn now(&self) -> Time {
        self.api.now
    }

    /// `queue.AddWork(ctx, NewWorkArgs(...), createdAt, fireAt)`.
    fn add_work(&mut self, key: &str, created: Time, fire_at: Time) {
        let mut ctx = Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component: COMPONENT,
        };
        self.ctrl
            .add_work(&mut ctx, key, created, fire_at)
            .expect("work runs");
    }

    /// `queue.CancelWork(logger, key)`.
    fn cancel_work(&mut self, key: &str) {
        let mut ctx = Ctx {
            api: &mut self.api,
            gates: &self.gates,
            queue: &mut self.queue,
            world: &mut self.world,
            actions: &mut self.actions,
            component: COMPONENT,
        };
        self.ctrl.cancel(&mut ctx, key);
    }

    /// `fakeClock.Step(d)`: the due timers fire.
    fn step(&mut self, d: Duration) {
        self.api.now = self.api.now + d;
        let now = self.api.now;
        self.queue.promote_due(now);
        while let Some(k) = self.queue.pop() {
            let mut ctx = Ctx {
                api: &mut self.api,
                gates: &self.gates,
                queue: &mut self.queue,
                world: &mut self.world,
                actions: &mut self.actions,
                component: COMPONENT,
            };
            self.ctrl.sync(&k, &mut ctx).expect("sync succeeds");
        }
    }

    /// How many times the work function ran (its "Marking for deletion" events).
    fn calls(&self) -> usize {
        self.api
            .events
            .iter()
            .filter(|e| e.message.starts_with("Marking for deletion Pod"))
            .count()
    }

    /// The pods whose deletion the work function issued.
    fn deleted(&self) -> Vec<String> {
        self.actions
            .iter()
            .filter(|a| a.verb == "delete" && a.kind == "Pod")
            .map(|a| format!("{}/{}", a.namespace, a.name))
            .collect()
    }
}

// upstream: TestExecute (pkg/controller/tainteviction/timed_workers_test.go): work due now runs at
// once, one call per key. Upstream adds the five keys a second time while the first calls are
// still running in their goroutines, so those adds find the keys and are no-ops; here a call
// completes within AddWork and getWrappedWorkerFunc has already removed its key, so a second
// round is a fresh addition that runs again (as upstream's would once the goroutine finished).
#[test]
fn execute() {
    let mut f = Fixture::new();
    let now = f.now();
    for i in 1..=5 {
        f.add_work(&key(i), now, now);
    }
    assert_eq!(f.calls(), 5, "Expected testVal = 5");
    assert_eq!(f.deleted(), (1..=5).map(key).collect::<Vec<_>>());
    assert!(f.ctrl.work.is_empty(), "finished work leaves the queue");
    // emitPodDeletionEvent: the event's object is a bare reference (kind, namespace, name).
    let e = &f.api.events[0];
    assert_eq!(
        (
            e.kind.as_str(),
            e.namespace.as_str(),
            e.name.as_str(),
            e.uid.as_str()
        ),
        ("Pod", "default", "p1", "")
    );
    for i in 1..=5 {
        f.add_work(&key(i), now, now);
    }
    assert_eq!(f.calls(), 10, "a completed key can be added again");
}

// upstream: TestExecuteDelayed: work due in 10 s, each key added twice, runs once per key when
// the clock passes the deadline.
#[test]
fn execute_delayed() {
    let mut f = Fixture::new();
    let now = f.now();
    let then = now + Duration::from_secs(10);
    for _ in 0..2 {
        for i in 1..=5 {
            f.add_work(&key(i), now, then);
        }
    }
    f.step(Duration::from_secs(9));
    assert_eq!(f.calls(), 0, "nothing fires before the deadline");
    f.step(Duration::from_secs(2));
    assert_eq!(f.calls(), 5, "Expected testVal = 5");
    assert_eq!(f.deleted(), (1..=5).map(key).collect::<Vec<_>>());
}

// upstream: TestCancel: keys 2 and 4 are cancelled before their deadline; three run.
#[test]
fn cancel() {
    let mut f = Fixture::new();
    let now = f.now();
    let then = now + Duration::from_secs(10);
    for _ in 0..2 {
        for i in 1..=5 {
            f.add_work(&key(i), now, then);
        }
    }
    f.cancel_work(&key(2));
    f.cancel_work(&key(4));
    f.step(Duration::from_secs(11));
    assert_eq!(f.calls(), 3, "Expected testVal = 3");
    assert_eq!(f.deleted(), vec![key(1), key(3), key(5)]);
}

// upstream: TestCancelAndReadd: keys 2 and 4 are cancelled, then 2 is added again; four run.
#[test]
fn cancel_and_readd() {
    let mut f = Fixture::new();
    let now = f.now();
    let then = now + Duration::from_secs(10);
    for _ in 0..2 {
        for i in 1..=5 {
            f.add_work(&key(i), now, then);
        }
    }
    f.cancel_work(&key(2));
    f.cancel_work(&key(4));
    f.add_work(&key(2), now, then);
    f.step(Duration::from_secs(11));
    assert_eq!(f.calls(), 4, "Expected testVal = 4");
    assert_eq!(f.deleted(), vec![key(1), key(2), key(3), key(5)]);
}

// Not upstream, the rule of getWrappedWorkerFunc: the key leaves the queue once its work has run,
// so CancelWork then finds nothing (no "Cancelling deletion" event) and a pending duplicate of a
// key is refused only while it waits.
#[test]
fn completed_work_leaves_the_queue() {
    let mut f = Fixture::new();
    let now = f.now();
    f.add_work(&key(1), now, now + Duration::from_secs(5));
    f.add_work(&key(1), now, now);
    assert_eq!(f.calls(), 0, "the pending worker refuses the duplicate");
    f.step(Duration::from_secs(6));
    assert_eq!(f.calls(), 1);
    f.cancel_work(&key(1));
    assert!(
        !f.api
            .events
            .iter()
            .any(|e| e.message.starts_with("Cancelling deletion")),
        "nothing pending is left to cancel"
    );
}

/// A Ready node `node1` with the given NoExecute taints (`key=value`).
fn node(taints: &[(&str, &str)]) -> Node {
    let mut n = Node::default();
    n.metadata.name = "node1".into();
    n.spec.taints = taints
        .iter()
        .map(|(k, v)| Taint {
            key: (*k).into(),
            value: (*v).into(),
            effect: "NoExecute".into(),
            time_added: None,
        })
        .collect();
    n.status.conditions = vec![crate::api::NodeCondition {
        type_: "Ready".into(),
        status: "True".into(),
        ..Default::default()
    }];
    n
}

// Not upstream, the controller-level consequence of the rule above (processPodOnNode): a pod
// tolerating the node's taints for a while is evicted when the toleration runs out; its worker is
// then gone, so when a further tolerated taint is added while the pod is still terminating,
// GetWorkerUnsafe finds nothing and a new eviction is scheduled from now and runs again.
#[test]
fn re_taint_after_a_completed_eviction_schedules_it_again() {
    use crate::sim::Simulation;
    let mut sim = Simulation::new(
        1,
        Time::from_unix_secs(T0),
        FeatureGates::default(),
        World::default(),
    );
    sim.add_loop(super::new_taint_eviction_controller());
    sim.api
        .create(Object::Node(node(&[("a", "1")])))
        .expect("node");
    let mut p = Pod::default();
    p.metadata.namespace = "default".into();
    p.metadata.name = "p".into();
    p.spec_mut().node_name = "node1".into();
    p.spec_mut().containers = vec![crate::api::Container {
        name: "c".into(),
        image: "busybox".into(),
        ..Default::default()
    }];
    p.spec_mut().tolerations = ["a", "b"]
        .iter()
        .map(|k| Toleration {
            key: (*k).into(),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            toleration_seconds: Some(10),
            ..Default::default()
        })
        .collect();
    p.status.phase = "Running".into();
    sim.api.create(Object::Pod(p)).expect("pod");
    sim.run_for(Duration::from_secs(15)).unwrap();
    let marked = |sim: &Simulation| {
        sim.api
            .events
            .iter()
            .filter(|e| e.message == "Marking for deletion Pod default/p")
            .count()
    };
    assert_eq!(marked(&sim), 1, "evicted once the toleration ran out");
    let pod = sim.api.store.get::<Pod>("default", "p").cloned().unwrap();
    assert!(pod.metadata.deletion_timestamp.is_some(), "terminating");

    let mut n = sim.api.store.get::<Node>("", "node1").cloned().unwrap();
    n.spec.taints = node(&[("a", "1"), ("b", "2")]).spec.taints;
    n.metadata.resource_version.clear();
    sim.api.update(Object::Node(n)).expect("node update");
    sim.run_for(Duration::from_secs(9)).unwrap();
    assert_eq!(marked(&sim), 1, "the new worker waits the full toleration");
    sim.run_for(Duration::from_secs(2)).unwrap();
    assert_eq!(marked(&sim), 2, "the new worker runs the eviction again");
}

// Not upstream, deletePodHandler: the "Marking for deletion" event goes out on a reference to the
// pod before the pod is read, so work for a pod that is already gone still emits it; the NotFound
// ends the work and the key leaves the queue.
#[test]
fn work_for_a_vanished_pod_emits_the_event_and_is_not_kept() {
    let mut f = Fixture::new();
    let opts = DeleteOptions {
        grace_period_seconds: Some(0),
        ..Default::default()
    };
    f.api
        .delete("Pod", "default", "p1", &opts)
        .expect("pod deleted");
    let now = f.now();
    f.add_work(&key(1), now, now);
    assert_eq!(f.calls(), 1, "the event is emitted for the missing pod");
    assert!(f.deleted().is_empty(), "no delete call reaches the API");
    f.add_work(&key(1), now, now);
    assert_eq!(f.calls(), 2, "the ended work is not kept in the queue");
}
