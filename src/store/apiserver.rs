//! The simulated API server: create/update/delete with Kubernetes semantics on top of the store.
//!
//! It assigns uid, resourceVersion, generation and creationTimestamp, generates names, applies
//! defaulting and validation, implements graceful pod deletion and finalizers (the garbage
//! collector's `foregroundDeletion` / `orphan`), and records Events.

use super::{ObjectRef, Store};
use crate::api::{
    kind_info, ApiError, EventRecord, FieldError, Object, PodSpec, PodStatus, Resource, SharedStr,
    StrInterner, Time,
};
use crate::features::FeatureGates;
use crate::rng::Rng;
use std::sync::Arc;

pub const FINALIZER_FOREGROUND: &str = "foregroundDeletion";
pub const FINALIZER_ORPHAN: &str = "orphan";

/// `metav1.DeletionPropagation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    Background,
    Foreground,
    Orphan,
}

impl Propagation {
    /// # Errors
    /// kubectl's message for an unknown `--cascade` value.
    pub fn parse(s: &str) -> Result<Propagation, String> {
        match s {
            "background" | "Background" | "true" => Ok(Propagation::Background),
            "foreground" | "Foreground" => Ok(Propagation::Foreground),
            "orphan" | "Orphan" | "false" => Ok(Propagation::Orphan),
            _ => Err(format!(
                "invalid cascade value ({s}). Must be \"background\", \"foreground\", or \"orphan\""
            )),
        }
    }
}

/// `metav1.DeleteOptions` (the parts kubeplay honours).
#[derive(Clone, Debug, Default)]
pub struct DeleteOptions {
    pub grace_period_seconds: Option<i64>,
    pub propagation: Option<Propagation>,
    /// Precondition: only delete if the uid still matches.
    pub uid: Option<String>,
}

/// `names.SimpleNameGenerator.GenerateName`: the base cut to 58 characters, then 5 random ones.
pub fn generate_name(base: &str, rng: &mut Rng) -> String {
    const MAX_GENERATED_NAME_LENGTH: usize = 63 - 5;
    let base: String = base.chars().take(MAX_GENERATED_NAME_LENGTH).collect();
    format!("{base}{}", rng.name_suffix(5))
}

/// An API failure injected by a test, standing in for upstream tests' fake clients with `Err`
/// set (`controller.FakePodControl{Err: ...}`) or reactors that return an error: matching
/// requests fail with `error` before they reach storage.
#[derive(Clone, Debug)]
pub struct InjectedFault {
    /// `create`, `update` (patches are applied as updates), `update-status`, `delete` or `get`
    /// (a live read, [`ApiServer::get_live`]).
    pub verb: &'static str,
    pub kind: &'static str,
    /// How many more matching requests fail; `None`: every one.
    pub remaining: Option<u32>,
    pub error: ApiError,
}

/// Store + semantics + the seeded randomness for names and uids + the event log.
#[derive(Clone, Debug)]
pub struct ApiServer {
    pub store: Store,
    pub now: Time,
    pub rng: Rng,
    resource_version: u64,
    pub events: Vec<EventRecord>,
    /// kube-apiserver's feature gates (a scenario's `featureGates`, the same set the
    /// controllers read): they decide the strategies' dropped fields, merges and validation
    /// options.
    pub gates: FeatureGates,
    /// Failures injected by tests (empty in scenarios).
    pub faults: Vec<InjectedFault>,
    /// The API warnings of the last create or update (`Warning` response headers: the
    /// strategy's `WarningsOnCreate` / `WarningsOnUpdate`, [`crate::api::warnings`]), in the
    /// order the server adds them; emptied at the start of every create and update. kubectl
    /// prints them ([`crate::kubectl`]); controllers ignore them.
    pub last_warnings: Vec<String>,
    /// One shared copy of each kind, namespace, type, reason, component, host and field path
    /// the event list holds.
    event_strings: StrInterner,
    /// The last bindings' specs: (spec as stored, node, the same spec bound to the node). Pods
    /// of one template share their spec until bound; with this, the pods bound to the same node
    /// share the bound copy too instead of one copy per binding. Both specs are held, so their
    /// contents cannot change (a writer copies a shared spec) nor their addresses be reused.
    bound_specs: Vec<(Arc<PodSpec>, String, Arc<PodSpec>)>,
}

/// The object behind a shared pointer: moved out when the store no longer holds it, else copied.
/// `podStatusStrategy.PrepareForUpdate`'s QoS backfill: the Pod QoS is set at creation and
/// immutable, and a status write without one (old kubelets dropped it on rejected pods) keeps
/// the stored class. Spec, owner references and deletion timestamp are the stored ones already
/// on the status path.
fn prepare_pod_status_update(new: &mut Object, old: &Object) {
    if let (Object::Pod(n), Object::Pod(o)) = (new, old) {
        if n.status.qos_class.is_empty() && !o.status.qos_class.is_empty() {
            n.status.qos_class.clone_from(&o.status.qos_class);
        }
        // Only a status with an unset observedGeneration changes (a shared status is not
        // copied for nothing).
        if n.status.observed_generation == 0
            || n.status
                .conditions
                .iter()
                .any(|c| c.observed_generation == 0)
        {
            preserve_old_observed_generation(&mut n.status, &o.status);
        }
    }
}

/// `preserveOldObservedGeneration` (pkg/registry/core/pod/strategy.go): a status write that
/// clears `observedGeneration` (of the status, or of a condition) keeps the stored value;
/// conditions are matched by type, in order, as a type may appear more than once.
pub fn preserve_old_observed_generation(new: &mut PodStatus, old: &PodStatus) {
    if new.observed_generation == 0 {
        new.observed_generation = old.observed_generation;
    }
    let mut used = vec![false; old.conditions.len()];
    for c in &mut new.conditions {
        let prev = old
            .conditions
            .iter()
            .enumerate()
            .find(|(i, o)| !used[*i] && o.type_ == c.type_);
        let old_generation = match prev {
            Some((i, o)) => {
                used[i] = true;
                o.observed_generation
            }
            None => 0,
        };
        if c.observed_generation == 0 {
            c.observed_generation = old_generation;
        }
    }
}

fn unwrap_shared(o: Arc<Object>) -> Object {
    Arc::try_unwrap(o).unwrap_or_else(|o| (*o).clone())
}

impl ApiServer {
    pub fn new(seed: u64, now: Time) -> Self {
        ApiServer {
            store: Store::new(),
            now,
            rng: Rng::new(seed),
            resource_version: 0,
            events: vec![],
            gates: FeatureGates::default(),
            faults: vec![],
            last_warnings: vec![],
            event_strings: StrInterner::default(),
            bound_specs: vec![],
        }
    }

    /// `spec` with `nodeName` set to `node`: a remembered bound copy when this spec was bound
    /// to this node before (see `bound_specs`).
    fn bound_spec(&mut self, spec: &Arc<PodSpec>, node: &str) -> Arc<PodSpec> {
        const REMEMBERED: usize = 8;
        if let Some((_, _, out)) = self
            .bound_specs
            .iter()
            .find(|(input, n, _)| Arc::ptr_eq(input, spec) && n == node)
        {
            return out.clone();
        }
        let mut out = spec.clone();
        Arc::make_mut(&mut out).node_name = node.to_string();
        if self.bound_specs.len() == REMEMBERED {
            self.bound_specs.remove(0);
        }
        self.bound_specs
            .push((spec.clone(), node.to_string(), out.clone()));
        out
    }

    /// [`ApiServer::new`] with these feature gates.
    pub fn with_gates(seed: u64, now: Time, gates: FeatureGates) -> Self {
        ApiServer {
            gates,
            ..ApiServer::new(seed, now)
        }
    }

    /// Makes the next `remaining` (`None`: every) `verb` requests on `kind` fail with `error`.
    pub fn inject_fault(
        &mut self,
        verb: &'static str,
        kind: &'static str,
        remaining: Option<u32>,
        error: ApiError,
    ) {
        self.faults.push(InjectedFault {
            verb,
            kind,
            remaining,
            error,
        });
    }

    /// The injected failure of a `verb` request on `kind`, if one matches.
    fn injected_fault(&mut self, verb: &str, kind: &str) -> Result<(), ApiError> {
        if self.faults.is_empty() {
            return Ok(());
        }
        let Some(i) = self
            .faults
            .iter()
            .position(|f| f.verb == verb && f.kind == kind && f.remaining != Some(0))
        else {
            return Ok(());
        };
        let f = &mut self.faults[i];
        if let Some(n) = f.remaining.as_mut() {
            *n -= 1;
        }
        Err(f.error.clone())
    }

    fn next_rv(&mut self) -> String {
        self.resource_version += 1;
        self.resource_version.to_string()
    }

    pub fn get<T: Resource>(&self, namespace: &str, name: &str) -> Result<&T, ApiError> {
        self.store
            .get::<T>(namespace, name)
            .ok_or_else(|| ApiError::not_found(&T::qualified_resource(), name))
    }

    /// A client's `GET` (a live read, where [`ApiServer::get`] stands for an informer cache
    /// read): the stored object, NotFound, or a failure injected for `get`.
    ///
    /// # Errors
    /// NotFound, or the injected failure.
    pub fn get_live<T: Resource>(&mut self, namespace: &str, name: &str) -> Result<&T, ApiError> {
        self.injected_fault("get", T::KIND)?;
        self.get::<T>(namespace, name)
    }

    fn invalid(o: &Object, errs: Vec<FieldError>) -> ApiError {
        let (_, _, group, _) = kind_info(o.kind()).unwrap_or(("", "", "", true));
        let name = if o.meta().name.is_empty() {
            o.meta().generate_name.clone()
        } else {
            o.meta().name.clone()
        };
        ApiError::invalid(o.kind(), group, &name, errs)
    }

    /// Creates an object as a client would (`POST`): the server assigns identity and clears
    /// status as the kind's create strategy does.
    ///
    /// # Errors
    /// Invalid (validation), AlreadyExists.
    pub fn create(&mut self, o: Object) -> Result<Object, ApiError> {
        self.create_shared(o).map(unwrap_shared)
    }

    /// [`ApiServer::create`] returning the stored object itself (no copy).
    ///
    /// # Errors
    /// As [`ApiServer::create`].
    pub fn create_shared(&mut self, mut o: Object) -> Result<Arc<Object>, ApiError> {
        self.last_warnings.clear();
        o.set_type_meta();
        self.injected_fault("create", o.kind())?;
        if let Some(e) = crate::api::sts_ds_defaults::decode_error(&o) {
            return Err(e);
        }
        let (_, plural, group, namespaced) = kind_info(o.kind()).expect("known kind");
        {
            let m = o.meta_mut();
            if namespaced && m.namespace.is_empty() {
                m.namespace = "default".into();
            }
            if !namespaced {
                m.namespace.clear();
            }
            m.uid.clear();
            m.resource_version.clear();
            m.deletion_timestamp = None;
            m.deletion_grace_period_seconds = None;
            m.creation_timestamp = None;
        }
        // Jobs' create strategy generates a selector naming the uid, so it must exist first.
        if crate::api::batch_defaults::needs_uid_before_prepare(&o) {
            o.meta_mut().uid = self.rng.uuid();
        }
        crate::api::defaults::prepare_for_create_gated(&mut o, &self.gates);
        crate::api::defaults::default_object(&mut o);
        let mut generated = false;
        if o.meta().name.is_empty() && !o.meta().generate_name.is_empty() {
            // The API server retries generated names on collision (`createWithGenerateNameRetry`,
            // eight attempts); the last candidate is kept for the conflict error below.
            generated = true;
            for _ in 0..8 {
                let candidate = generate_name(&o.meta().generate_name, &mut self.rng);
                let free = self
                    .store
                    .get_ref(&ObjectRef::new(o.kind(), &o.meta().namespace, &candidate))
                    .is_none();
                o.meta_mut().name = candidate;
                if free {
                    break;
                }
            }
        }
        let errs = crate::api::validation::validate_object_gated(&o, None, &self.gates);
        if !errs.is_empty() {
            return Err(Self::invalid(&o, errs));
        }
        // `rest.BeforeCreate`: `WarningsOnCreate` once validation passed; they are sent even
        // when admission or storage fails the request afterwards.
        self.last_warnings = crate::api::warnings::warnings_on_create(&o, &self.gates);
        let resource = if group.is_empty() {
            plural.to_string()
        } else {
            format!("{plural}.{group}")
        };
        if let Object::Pod(p) = &o {
            crate::admission::validate_runtime_class_overhead(p)?;
        }
        if self.store.get_ref(&ObjectRef::of(&o)).is_some() {
            if generated {
                // `rest.CheckGeneratedNameError` → `NewGenerateNameConflict`.
                return Err(ApiError::generate_name_conflict(&resource, &o.meta().name));
            }
            return Err(ApiError::already_exists(&resource, &o.meta().name));
        }
        let has_generation = crate::api::object::kind_has_generation(o.kind());
        let uid = if o.meta().uid.is_empty() {
            self.rng.uuid()
        } else {
            o.meta().uid.clone()
        };
        let rv = self.next_rv();
        let m = o.meta_mut();
        m.uid = uid;
        m.resource_version = rv;
        m.creation_timestamp = Some(self.now.trunc_secs());
        m.generation = i64::from(has_generation);
        let o = Arc::new(o);
        self.store.put_arc(o.clone());
        Ok(o)
    }

    /// Loads an object exactly as written (scenario setup, `kubectl get -o yaml` imports):
    /// given uid, creationTimestamp and status are honoured; missing ones are filled in.
    ///
    /// # Errors
    /// Invalid (validation), AlreadyExists.
    pub fn load(&mut self, mut o: Object) -> Result<Object, ApiError> {
        o.set_type_meta();
        if let Some(e) = crate::api::sts_ds_defaults::decode_error(&o) {
            return Err(e);
        }
        let (_, plural, group, namespaced) = kind_info(o.kind()).expect("known kind");
        if namespaced && o.meta().namespace.is_empty() {
            o.meta_mut().namespace = "default".into();
        }
        crate::api::defaults::default_object(&mut o);
        if o.meta().uid.is_empty() && crate::api::batch_defaults::needs_uid_before_prepare(&o) {
            o.meta_mut().uid = self.rng.uuid();
        }
        crate::api::batch_defaults::prepare_for_load(&mut o);
        if o.meta().name.is_empty() && !o.meta().generate_name.is_empty() {
            let n = generate_name(&o.meta().generate_name, &mut self.rng);
            o.meta_mut().name = n;
        }
        let errs = crate::api::validation::validate_object_gated(&o, None, &self.gates);
        if !errs.is_empty() {
            return Err(Self::invalid(&o, errs));
        }
        let resource = if group.is_empty() {
            plural.to_string()
        } else {
            format!("{plural}.{group}")
        };
        if self.store.get_ref(&ObjectRef::of(&o)).is_some() {
            return Err(ApiError::already_exists(&resource, &o.meta().name));
        }
        if o.meta().uid.is_empty() {
            o.meta_mut().uid = self.rng.uuid();
        } else if self.store.get_by_uid(&o.meta().uid).is_some() {
            return Err(ApiError::already_exists(&resource, &o.meta().name));
        }
        if o.meta().creation_timestamp.is_none() {
            o.meta_mut().creation_timestamp = Some(self.now.trunc_secs());
        }
        if o.meta().generation == 0 && crate::api::object::kind_has_generation(o.kind()) {
            o.meta_mut().generation = 1;
        }
        // A numeric resourceVersion given by an import is kept; later writes get larger ones.
        match o.meta().resource_version.parse::<u64>() {
            Ok(rv) if rv > 0 => self.resource_version = self.resource_version.max(rv),
            _ => o.meta_mut().resource_version = self.next_rv(),
        }
        self.store.put(o.clone());
        Ok(o)
    }

    /// Replaces an object's spec and metadata (`PUT`). Status is kept from the stored object;
    /// generation is bumped when the spec changed. Removing the last finalizer of an object
    /// being deleted removes it.
    ///
    /// # Errors
    /// NotFound, Conflict (stale resourceVersion or uid), Invalid.
    pub fn update(&mut self, o: Object) -> Result<Object, ApiError> {
        self.update_inner(o, false).map(unwrap_shared)
    }

    /// [`ApiServer::update`] returning the stored object itself (no copy).
    ///
    /// # Errors
    /// As [`ApiServer::update`].
    pub fn update_shared(&mut self, o: Object) -> Result<Arc<Object>, ApiError> {
        self.update_inner(o, false)
    }

    /// Replaces an object's status (`PUT .../status`); spec and metadata are kept.
    ///
    /// # Errors
    /// NotFound, Conflict.
    pub fn update_status(&mut self, o: Object) -> Result<Object, ApiError> {
        self.update_inner(o, true).map(unwrap_shared)
    }

    /// [`ApiServer::update_status`] returning the stored object itself (no copy).
    ///
    /// # Errors
    /// As [`ApiServer::update_status`].
    pub fn update_status_shared(&mut self, o: Object) -> Result<Arc<Object>, ApiError> {
        self.update_inner(o, true)
    }

    /// Whether `o` equals `stored` but for `status` and `metadata.resourceVersion` (then set to
    /// the stored one). Every kind with a status has exactly apiVersion, kind, metadata, spec
    /// and status.
    fn only_status_differs(o: &mut Object, stored: &Object) -> bool {
        if matches!(o, Object::ControllerRevision(_)) || !o.spec_eq(stored) {
            return false;
        }
        if o.meta().resource_version != stored.meta().resource_version {
            o.meta_mut().resource_version = stored.meta().resource_version.clone();
        }
        o.meta() == stored.meta()
    }

    fn update_inner(&mut self, mut o: Object, status_only: bool) -> Result<Arc<Object>, ApiError> {
        self.last_warnings.clear();
        o.set_type_meta();
        let verb = if status_only {
            "update-status"
        } else {
            "update"
        };
        self.injected_fault(verb, o.kind())?;
        if let Some(e) = crate::api::sts_ds_defaults::decode_error(&o) {
            return Err(e);
        }
        let (_, plural, group, namespaced) = kind_info(o.kind()).expect("known kind");
        if namespaced && o.meta().namespace.is_empty() {
            o.meta_mut().namespace = "default".into();
        }
        // Printed only for an error.
        let resource = || {
            if group.is_empty() {
                plural.to_string()
            } else {
                format!("{plural}.{group}")
            }
        };
        // Looked up by borrowed parts (no key built for the usual write).
        let Some(old) = self
            .store
            .get_arc_by_parts(o.kind(), &o.meta().namespace, &o.meta().name)
        else {
            return Err(ApiError::not_found(&resource(), &o.meta().name));
        };
        let om = old.meta();
        let rv = &o.meta().resource_version;
        if !rv.is_empty() && *rv != om.resource_version {
            return Err(ApiError::conflict(
                &resource(),
                &o.meta().name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ));
        }
        if !o.meta().uid.is_empty() && o.meta().uid != om.uid {
            return Err(ApiError::conflict(
                &resource(),
                &o.meta().name,
                "Precondition failed: UID in precondition",
            ));
        }
        let mut new = if status_only && Self::only_status_differs(&mut o, &old) {
            // The request carries the stored spec and metadata (the usual controller write):
            // take it as is instead of copying the stored object.
            prepare_pod_status_update(&mut o, &old);
            crate::api::deployment_defaults::drop_disabled_status_fields(&mut o, &old, &self.gates);
            let errs =
                crate::api::validation::status::validate_status_update_gated(&o, &old, &self.gates);
            if !errs.is_empty() {
                return Err(Self::invalid(&o, errs));
            }
            o
        } else if status_only {
            // Keep spec and metadata; take status.
            let mut n = (*old).clone();
            crate::api::defaults::copy_status(&o, &mut n);
            crate::api::deployment_defaults::prepare_for_status_update(&o, &mut n);
            prepare_pod_status_update(&mut n, &old);
            crate::api::deployment_defaults::drop_disabled_status_fields(&mut n, &old, &self.gates);
            let errs =
                crate::api::validation::status::validate_status_update_gated(&n, &old, &self.gates);
            if !errs.is_empty() {
                return Err(Self::invalid(&n, errs));
            }
            n
        } else {
            crate::api::defaults::copy_status(&old, &mut o);
            crate::api::sts_ds_defaults::prepare_for_update(&mut o, &old);
            crate::api::defaults::default_object_for_update(&mut o, &old);
            crate::api::defaults::prepare_for_update_gated(&mut o, &old, &self.gates);
            // validate_object(&o, Some(&old)) without copying the request: prepare it in place
            // and put back an empty resourceVersion afterwards (an unconditional update).
            let rv_unset = o.meta().resource_version.is_empty();
            crate::api::validation::prepare_for_update_validation(&mut o, &old);
            let errs =
                crate::api::validation::validate_prepared_update_gated(&o, &old, &self.gates);
            if rv_unset {
                o.meta_mut().resource_version.clear();
            }
            if !errs.is_empty() {
                return Err(Self::invalid(&o, errs));
            }
            let m = o.meta_mut();
            m.uid = om.uid.clone();
            m.creation_timestamp = om.creation_timestamp;
            m.deletion_timestamp = om.deletion_timestamp;
            m.deletion_grace_period_seconds = om.deletion_grace_period_seconds;
            m.generation = om.generation;
            // `!apiequality.Semantic.DeepEqual(new.Spec, old.Spec)` in the update strategies.
            if crate::api::object::kind_has_generation(o.kind())
                && (!crate::api::semantic::spec_semantically_equal(&o, &old)
                    || crate::api::deployment_defaults::annotations_bump_generation(&o, &old))
            {
                o.meta_mut().generation += 1;
            }
            // `rest.BeforeUpdate`: `WarningsOnUpdate` on the prepared, validated object.
            self.last_warnings = crate::api::warnings::warnings_on_update(&o, &old, &self.gates);
            o
        };
        if new == *old {
            return Ok(old); // a no-op update does not bump resourceVersion
        }
        new.meta_mut().resource_version = self.next_rv();
        // Finalizers gone on an object being deleted: the server finishes the delete.
        if new.meta().deletion_timestamp.is_some() && new.meta().finalizers.is_empty() {
            let graceful_pod = matches!(&new, Object::Pod(_))
                && new.meta().deletion_grace_period_seconds.unwrap_or(0) > 0;
            if !graceful_pod {
                let new = Arc::new(new);
                self.store.put_arc(new.clone());
                self.store.remove(&ObjectRef::of(&new));
                return Ok(new);
            }
        }
        let new = Arc::new(new);
        self.store.put_arc(new.clone());
        Ok(new)
    }

    /// Deletes an object (`DELETE`) with graceful termination for pods and the propagation
    /// finalizers of the garbage collector.
    ///
    /// # Errors
    /// NotFound, Conflict (uid precondition).
    pub fn delete(
        &mut self,
        kind: &'static str,
        namespace: &str,
        name: &str,
        opts: &DeleteOptions,
    ) -> Result<Object, ApiError> {
        self.injected_fault("delete", kind)?;
        let (_, plural, group, namespaced) = kind_info(kind).expect("known kind");
        let resource = if group.is_empty() {
            plural.to_string()
        } else {
            format!("{plural}.{group}")
        };
        let ns = if namespaced { namespace } else { "" };
        let r = ObjectRef::new(kind, ns, name);
        let Some(mut o) = self.store.get_ref(&r).cloned() else {
            return Err(ApiError::not_found(&resource, name));
        };
        if let Some(uid) = &opts.uid {
            if *uid != o.meta().uid {
                return Err(ApiError::conflict(
                    &resource,
                    name,
                    &format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                        o.meta().uid
                    ),
                ));
            }
        }
        let now = self.now.trunc_secs();
        // `rest.BeforeDelete` (apiserver registry/rest/delete.go). A negative grace period in the
        // options counts as 1 s. Only pods have a graceful-delete strategy.
        let opt_grace = opts.grace_period_seconds.map(|g| if g < 0 { 1 } else { g });
        if o.meta()
            .deletion_grace_period_seconds
            .is_some_and(|g| g < 0)
        {
            o.meta_mut().deletion_grace_period_seconds = Some(1);
        }
        let mut graceful = false;
        if let Object::Pod(p) = &mut o {
            let m = &mut p.metadata;
            match (m.deletion_timestamp, m.deletion_grace_period_seconds) {
                // Gracefully deleted before without a grace period left: not graceful, go on
                // to the finalizers and the immediate deletion.
                (Some(_), None | Some(0)) => {}
                (Some(ts), Some(cur)) => match opt_grace {
                    // Only a shorter grace period may be given; the new deadline counts from
                    // the first request (deletionTimestamp − old grace + new grace).
                    Some(period) if period < cur => {
                        m.deletion_timestamp = Some(
                            ts - crate::api::Duration::from_secs(cur)
                                + crate::api::Duration::from_secs(period),
                        );
                        m.deletion_grace_period_seconds = Some(period);
                        graceful = true;
                    }
                    // Graceful deletion pending: nothing changes, not even the finalizers
                    // ("finalizers cannot be updated via DeleteOptions if a deletion is
                    // already pending").
                    _ => return Ok(o),
                },
                (None, _) => {
                    // The pod strategy's `CheckGracefulDelete`.
                    let mut period = opt_grace
                        .or(p.spec.termination_grace_period_seconds)
                        .unwrap_or(0);
                    if p.spec.node_name.is_empty()
                        || p.status.phase == "Succeeded"
                        || p.status.phase == "Failed"
                    {
                        period = 0;
                    }
                    if period < 0 {
                        period = 1;
                    }
                    let m = &mut p.metadata;
                    m.deletion_timestamp = Some(now + crate::api::Duration::from_secs(period));
                    m.deletion_grace_period_seconds = Some(period);
                    // The first graceful deletion bumps the generation (if set).
                    if m.generation > 0 {
                        m.generation += 1;
                    }
                    graceful = true;
                }
            }
        }
        // `deletionFinalizersForGarbageCollection` (apiserver registry/generic/registry/store.go):
        // an explicit policy decides; without one, a propagation finalizer already on the object
        // does; without either, the strategy's `DefaultGarbageCollectionPolicy`, which is
        // OrphanDependents for batch/v1 Jobs and v1 ReplicationControllers ("for back
        // compatibility", pkg/registry/batch/job and core/replicationcontroller strategy.go) and
        // background deletion for every other kind kubeplay serves. Both finalizers are removed
        // first and the decided one appended, so an explicit Background drops either.
        let (should_orphan, should_foreground) = match opts.propagation {
            Some(Propagation::Orphan) => (true, false),
            Some(Propagation::Foreground) => (false, true),
            Some(Propagation::Background) => (false, false),
            None => {
                let decided = o
                    .meta()
                    .finalizers
                    .iter()
                    .find(|f| *f == FINALIZER_ORPHAN || *f == FINALIZER_FOREGROUND);
                match decided.map(String::as_str) {
                    Some(FINALIZER_ORPHAN) => (true, false),
                    Some(_) => (false, true),
                    None => (matches!(kind, "Job" | "ReplicationController"), false),
                }
            }
        };
        let mut finalizers: Vec<String> = o
            .meta()
            .finalizers
            .iter()
            .filter(|f| *f != FINALIZER_ORPHAN && *f != FINALIZER_FOREGROUND)
            .cloned()
            .collect();
        if should_orphan {
            finalizers.push(FINALIZER_ORPHAN.into());
        }
        if should_foreground {
            finalizers.push(FINALIZER_FOREGROUND.into());
        }
        let same_set = {
            let old: std::collections::BTreeSet<&String> = o.meta().finalizers.iter().collect();
            let new: std::collections::BTreeSet<&String> = finalizers.iter().collect();
            old == new
        };
        if !same_set {
            o.meta_mut().finalizers = finalizers.into();
        }
        // `updateForGracefulDeletionAndFinalizers`: with finalizers pending the object stays,
        // marked as deleting; a graceful deletion with time left stays too; anything else is
        // deleted now.
        let pending_finalizers = !o.meta().finalizers.is_empty();
        if !graceful && !pending_finalizers {
            self.store.remove(&r);
            return Ok(o);
        }
        if !graceful {
            // `markAsDeleting`: the first deletion of an object without graceful deletion bumps
            // its generation (if set); deletionTimestamp is now (or kept if already earlier).
            let m = o.meta_mut();
            if m.deletion_timestamp.is_none() && m.generation > 0 {
                m.generation += 1;
            }
            if m.deletion_timestamp.is_none_or(|ts| ts > now) {
                m.deletion_timestamp = Some(now);
            }
            m.deletion_grace_period_seconds = Some(0);
        }
        let stays = pending_finalizers || o.meta().deletion_grace_period_seconds.unwrap_or(0) > 0;
        if !stays {
            self.store.remove(&r);
            return Ok(o);
        }
        let unchanged = self.store.get_ref(&r).is_some_and(|cur| *cur == o);
        if !unchanged {
            o.meta_mut().resource_version = self.next_rv();
            self.store.put(o.clone());
        }
        Ok(o)
    }

    /// `POST pods/<name>/binding` (BindingREST.Create → assignPod): sets `spec.nodeName` and the
    /// `PodScheduled=True` condition in one write.
    ///
    /// # Errors
    /// NotFound; Conflict when the uid no longer matches, the pod is already assigned, or it is
    /// being deleted (upstream's messages).
    pub fn bind(
        &mut self,
        namespace: &str,
        name: &str,
        uid: &str,
        node: &str,
    ) -> Result<Object, ApiError> {
        let r = ObjectRef::new("Pod", namespace, name);
        let Some(Object::Pod(mut p)) = self.store.get_ref(&r).cloned() else {
            return Err(ApiError::not_found("pods", name));
        };
        if !uid.is_empty() && p.metadata.uid != uid {
            return Err(ApiError::conflict(
                "pods",
                name,
                &format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    p.metadata.uid
                ),
            ));
        }
        if p.metadata.deletion_timestamp.is_some() {
            return Err(ApiError::conflict(
                "pods",
                name,
                &format!("pod {name} is being deleted, cannot be assigned to a host"),
            ));
        }
        if !p.spec.node_name.is_empty() {
            return Err(ApiError::conflict(
                "pods",
                name,
                &format!(
                    "pod {name} is already assigned to node {:?}",
                    p.spec.node_name
                ),
            ));
        }
        p.spec = self.bound_spec(&p.spec, node);
        let now = self.now;
        // `setPodNodeAndMetadata` writes the whole condition, without observedGeneration.
        p.set_condition_observed("PodScheduled", "True", "", "", now, 0);
        p.metadata.resource_version = self.next_rv();
        let o = Object::Pod(p);
        self.store.put(o.clone());
        Ok(o)
    }

    /// Records an Event on an object (`record.EventRecorder.Eventf`).
    pub fn record_event(
        &mut self,
        involved: &Object,
        type_: &str,
        reason: &str,
        message: &str,
        source: &str,
    ) {
        self.record_event_on(
            involved.kind(),
            involved.meta(),
            type_,
            reason,
            message,
            source,
        );
    }

    /// [`ApiServer::record_event`] for an object given by kind and metadata (no copy needed).
    pub fn record_event_on(
        &mut self,
        kind: &str,
        m: &crate::api::ObjectMeta,
        type_: &str,
        reason: &str,
        message: &str,
        source: &str,
    ) {
        self.record_event_from_host(kind, m, type_, reason, message, source, "", "");
    }

    /// [`ApiServer::record_event_on`] from a recorder whose `EventSource` has a `Host` (the
    /// kubelet's: its node name), about a part of the object (`involvedObject.fieldPath`).
    #[allow(clippy::too_many_arguments)]
    pub fn record_event_from_host(
        &mut self,
        kind: &str,
        m: &crate::api::ObjectMeta,
        type_: &str,
        reason: &str,
        message: &str,
        source: &str,
        host: &str,
        field_path: &str,
    ) {
        // Events about one object come in runs: its name and uid are shared with the
        // previous event's when they are the same.
        let (name, uid) = match self.events.last() {
            Some(prev) if prev.uid == m.uid.as_str() && prev.name == m.name.as_str() => {
                (prev.name.clone(), prev.uid.clone())
            }
            _ => (SharedStr::from(&m.name), SharedStr::from(&m.uid)),
        };
        // The interned strings too, field by field, when equal to the previous event's (one
        // string compare instead of a search of the interner's set).
        let prev = self.events.last();
        let i = &mut self.event_strings;
        let mut get = |prev: Option<&SharedStr>, s: &str| match prev {
            Some(p) if p.as_str() == s => p.clone(),
            _ => i.get(s),
        };
        let e = EventRecord {
            time: self.now,
            kind: get(prev.map(|p| &p.kind), kind),
            namespace: get(prev.map(|p| &p.namespace), &m.namespace),
            name,
            uid,
            type_: get(prev.map(|p| &p.type_), type_),
            reason: get(prev.map(|p| &p.reason), reason),
            message: message.into(),
            source: get(prev.map(|p| &p.source), source),
            host: get(prev.map(|p| &p.host), host),
            field_path: get(prev.map(|p| &p.field_path), field_path),
            count: 1,
        };
        self.events.push(e);
    }
}
