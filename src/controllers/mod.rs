//! The reconcile contract shared by every control loop, and the recording API client.
//!
//! A controller reacts to watch events by enqueueing keys ([`Controller::watch`]), and
//! reconciles one key at a time ([`Controller::sync`]) through a [`Ctx`], whose client records
//! every call as an [`Action`] — as Kubernetes' fake clientset does — so tests can assert on them.

pub mod controller_ref_manager;
pub mod controller_utils;
pub mod cronjob;
pub mod daemon;
pub mod deployment;
pub mod disruption;
pub mod garbagecollector;
pub mod history;
pub mod job;
pub mod node_lifecycle;
pub mod podautoscaler;
pub mod podgc;
pub mod pv_binder;
pub mod replicaset;
pub mod statefulset;
pub mod taint_eviction;
pub mod ttlafterfinished;

use crate::api::{ApiError, Duration, Object, Resource, Time};
use crate::features::FeatureGates;
use crate::queue::WorkQueue;
use crate::store::apiserver::{ApiServer, DeleteOptions};
use crate::store::{Change, Store};
use crate::world::World;

/// One recorded client call (`verb kind namespace/name`), like client-go's `testing.Action`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub verb: &'static str,
    pub kind: &'static str,
    pub namespace: String,
    pub name: String,
    /// For `update` of a scalable kind: the new `spec.replicas`; otherwise `None`.
    pub replicas: Option<i32>,
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {}/{}",
            self.verb, self.kind, self.namespace, self.name
        )
    }
}

fn replicas_of(o: &Object) -> Option<i32> {
    match o {
        Object::ReplicaSet(rs) => rs.spec.replicas,
        Object::ReplicationController(rc) => rc.spec.replicas,
        _ => None,
    }
}

/// An owned copy of an object the API server returned (the store keeps sharing the original).
pub fn into_owned(o: std::sync::Arc<Object>) -> Object {
    std::sync::Arc::try_unwrap(o).unwrap_or_else(|o| (*o).clone())
}

/// What an event can be recorded on: an [`Object`] or a typed object.
pub trait Involved {
    fn involved_kind(&self) -> &'static str;
    fn involved_meta(&self) -> &crate::api::ObjectMeta;
}

impl Involved for Object {
    fn involved_kind(&self) -> &'static str {
        self.kind()
    }
    fn involved_meta(&self) -> &crate::api::ObjectMeta {
        self.meta()
    }
}

impl<T: Resource> Involved for T {
    fn involved_kind(&self) -> &'static str {
        T::KIND
    }
    fn involved_meta(&self) -> &crate::api::ObjectMeta {
        self.meta()
    }
}

/// An event target kept apart from an object that is being changed: (kind, metadata).
impl Involved for (&'static str, crate::api::ObjectMeta) {
    fn involved_kind(&self) -> &'static str {
        self.0
    }
    fn involved_meta(&self) -> &crate::api::ObjectMeta {
        &self.1
    }
}

/// What a sync sees: the API server (through a recording client), the clock, the gates, the
/// controller's own queue (for `AddAfter`) and the simulated world (nodes' health, kubelet
/// rules).
pub struct Ctx<'a> {
    pub api: &'a mut ApiServer,
    pub gates: &'a FeatureGates,
    pub queue: &'a mut WorkQueue,
    pub world: &'a mut World,
    pub actions: &'a mut Vec<Action>,
    /// The component name events are reported from (`replicaset-controller`).
    pub component: &'static str,
}

impl Ctx<'_> {
    pub fn now(&self) -> Time {
        self.api.now
    }

    pub fn store(&self) -> &Store {
        &self.api.store
    }

    fn record(&mut self, verb: &'static str, o: &Object, replicas: Option<i32>) {
        self.actions.push(Action {
            verb,
            kind: o.kind(),
            namespace: o.meta().namespace.clone(),
            name: if o.meta().name.is_empty() {
                o.meta().generate_name.clone()
            } else {
                o.meta().name.clone()
            },
            replicas,
        });
    }

    /// # Errors
    /// As [`ApiServer::create`].
    pub fn create(&mut self, o: Object) -> Result<std::sync::Arc<Object>, ApiError> {
        self.record("create", &o, None);
        self.api.create_shared(o)
    }

    /// # Errors
    /// As [`ApiServer::update`].
    pub fn update(&mut self, o: Object) -> Result<std::sync::Arc<Object>, ApiError> {
        self.record("update", &o, replicas_of(&o));
        self.api.update_shared(o)
    }

    /// # Errors
    /// As [`ApiServer::update_status`].
    pub fn update_status(&mut self, o: Object) -> Result<std::sync::Arc<Object>, ApiError> {
        self.record("update-status", &o, None);
        self.api.update_status_shared(o)
    }

    /// # Errors
    /// As [`ApiServer::delete`].
    pub fn delete<T: Resource>(
        &mut self,
        namespace: &str,
        name: &str,
        opts: &DeleteOptions,
    ) -> Result<Object, ApiError> {
        self.actions.push(Action {
            verb: "delete",
            kind: T::KIND,
            namespace: namespace.into(),
            name: name.into(),
            replicas: None,
        });
        self.api.delete(T::KIND, namespace, name, opts)
    }

    /// # Errors
    /// As [`ApiServer::delete`].
    pub fn delete_kind(
        &mut self,
        kind: &'static str,
        namespace: &str,
        name: &str,
        opts: &DeleteOptions,
    ) -> Result<Object, ApiError> {
        self.actions.push(Action {
            verb: "delete",
            kind,
            namespace: namespace.into(),
            name: name.into(),
            replicas: None,
        });
        self.api.delete(kind, namespace, name, opts)
    }

    /// `POST pods/<name>/binding` (recorded as `create Binding ns/name`).
    ///
    /// # Errors
    /// As [`ApiServer::bind`].
    pub fn bind(
        &mut self,
        namespace: &str,
        name: &str,
        uid: &str,
        node: &str,
    ) -> Result<Object, ApiError> {
        self.actions.push(Action {
            verb: "create",
            kind: "Binding",
            namespace: namespace.into(),
            name: name.into(),
            replicas: None,
        });
        self.api.bind(namespace, name, uid, node)
    }

    /// `recorder.Eventf(obj, type, reason, message)` from this controller; `obj` is an
    /// [`Object`] or any typed object (no copy of it is made).
    pub fn event(&mut self, involved: &impl Involved, type_: &str, reason: &str, message: &str) {
        let c = self.component;
        self.api.record_event_on(
            involved.involved_kind(),
            involved.involved_meta(),
            type_,
            reason,
            message,
            c,
        );
    }

    /// [`Ctx::event`] from a recorder with a host (`EventSource.Host`: the kubelet's node) about
    /// a part of the object (`involvedObject.fieldPath`, empty for the whole object).
    pub fn event_from_host(
        &mut self,
        involved: &impl Involved,
        type_: &str,
        reason: &str,
        message: &str,
        host: &str,
        field_path: &str,
    ) {
        let c = self.component;
        self.api.record_event_from_host(
            involved.involved_kind(),
            involved.involved_meta(),
            type_,
            reason,
            message,
            c,
            host,
            field_path,
        );
    }

    /// [`Ctx::event`] on a typed object.
    pub fn event_on<T: Resource>(
        &mut self,
        involved: &T,
        type_: &str,
        reason: &str,
        message: &str,
    ) {
        self.event(involved, type_, reason, message);
    }

    /// `queue.AddAfter(key, d)` on this controller's own queue.
    pub fn requeue_after(&mut self, key: &str, d: Duration) {
        let now = self.api.now;
        self.queue.add_after(key, d, now);
    }
}

/// A control loop. Implemented by every controller, the scheduler and the kubelet.
pub trait Controller {
    /// The component name (`replicaset-controller`); also the events' source.
    fn name(&self) -> &'static str;

    /// Whether this loop runs inside kube-controller-manager (stopped by a controller-manager
    /// stop action). The scheduler and kubelets are not.
    fn in_controller_manager(&self) -> bool {
        true
    }

    /// The loop's work queue: the default controller rate limiter unless the controller builds
    /// its queue with another one (the Job controller's `DefaultJobApiBackOff`).
    fn new_queue(&self) -> WorkQueue {
        WorkQueue::new()
    }

    /// Informer event handlers: turn a change into keys on the queue.
    fn watch(&mut self, change: &Change, store: &Store, queue: &mut WorkQueue, now: Time);

    /// Reconciles one key. An error requeues the key with back-off.
    ///
    /// # Errors
    /// Whatever made the sync fail; the key is retried with rate limiting.
    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError>;

    /// Whether the loop's worker calls `queue.Forget(key)` after every successful sync (most
    /// controllers' `handleErr(nil)`). A loop that forgets only on some outcomes (the CronJob
    /// controller) returns false and forgets in [`Controller::sync`] itself.
    fn forgets_on_success(&self) -> bool {
        true
    }
    /// The next ready key to reconcile: the queue's FIFO order unless the loop orders its own
    /// queue (the scheduler's active queue is sorted by pod priority).
    fn next_key(&mut self, queue: &mut WorkQueue, _store: &Store) -> Option<String> {
        queue.pop()
    }

    /// Forgets in-memory state (expectations, caches), as a restarted process would.
    fn reset(&mut self) {}

    /// The informers' initial list on (re)start: enqueue every object this loop manages.
    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue);

    /// [`Controller::resync_all`] at virtual time `now`, which the simulation calls on a loop's
    /// (re)start. Loops whose informer handlers enqueue with a delay (the HPA's `AddRateLimited`
    /// on a fixed-interval limiter) override it; the default ignores `now`.
    fn resync_all_at(&mut self, store: &Store, queue: &mut WorkQueue, now: Time) {
        let _ = now;
        self.resync_all(store, queue);
    }

    /// Lets tests and the simulation reach the concrete controller.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// Every control loop of a cluster, in step order: kube-controller-manager's controllers, then
/// the scheduler and the kubelets.
pub fn default_loops() -> Vec<Box<dyn Controller>> {
    vec![
        crate::kubelet::new_kubelet(),
        crate::scheduler::new_scheduler(),
        Box::new(deployment::DeploymentController::new()),
        Box::new(replicaset::ReplicaSetController::new()),
        Box::new(replicaset::ReplicaSetController::new_replication_controller()),
        job::new_job_controller(),
        cronjob::new_cron_job_controller(),
        ttlafterfinished::new_ttl_after_finished_controller(),
        Box::new(garbagecollector::GarbageCollector::new()),
        node_lifecycle::new_node_lifecycle_controller(),
        taint_eviction::new_taint_eviction_controller(),
        podgc::new_pod_gc_controller(),
        // Appended after the loops above so that existing scenarios step in the same order.
        Box::new(statefulset::StatefulSetController::new()),
        Box::new(daemon::DaemonSetsController::new()),
        Box::new(pv_binder::VolumeBinder::new()),
        podautoscaler::new_horizontal_controller(),
        disruption::new_disruption_controller(),
    ]
}
