//! A tiny volume binder: every PersistentVolumeClaim is provisioned and bound shortly after it
//! is created, as a dynamic provisioner plus the PV controller's binder would do.
//!
//! kubeplay has no PersistentVolumes or StorageClasses: a pending claim gets `spec.volumeName:
//! pvc-<uid>` (the name dynamic provisioners give their volumes), the binder's annotations, and
//! `status.phase: Bound` with the requested capacity and access modes, [`PROVISIONING_DELAY`]
//! after it appeared. A claim naming a StorageClass that does not exist binds anyway (a real
//! cluster would leave it Pending).

use crate::api::{ApiError, Duration, Object, PersistentVolumeClaim, Time, CLAIM_BOUND};
use crate::controllers::into_owned;
use crate::controllers::{Controller, Ctx};
use crate::queue::WorkQueue;
use crate::store::{Change, Store};

/// The component name.
pub const NAME: &str = "persistentvolume-binder-controller";

/// How long provisioning and binding take after a claim is created.
pub const PROVISIONING_DELAY: Duration = Duration::from_secs(1);

/// `pv.kubernetes.io/bind-completed` and `pv.kubernetes.io/bound-by-controller`.
pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
pub const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";

/// The binder loop.
#[derive(Clone, Debug, Default)]
pub struct VolumeBinder;

fn needs_binding(c: &PersistentVolumeClaim) -> bool {
    c.metadata.deletion_timestamp.is_none() && !c.is_bound()
}

impl VolumeBinder {
    pub fn new() -> Self {
        VolumeBinder
    }

    /// Binds one claim: the volume name and annotations (an update), then the status.
    ///
    /// # Errors
    /// The API server's error.
    pub fn sync_claim(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        let (ns, name) = key.split_once('/').unwrap_or(("", key));
        let Some(c) = ctx.store().get::<PersistentVolumeClaim>(ns, name).cloned() else {
            return Ok(());
        };
        if !needs_binding(&c) {
            return Ok(());
        }
        let created = c.metadata.creation_timestamp.unwrap_or(ctx.now());
        let due = created + PROVISIONING_DELAY;
        if due > ctx.now() {
            ctx.requeue_after(key, due - ctx.now());
            return Ok(());
        }
        let mut c = c;
        if c.spec.volume_name.is_empty() {
            c.spec.volume_name = format!("pvc-{}", c.metadata.uid);
            c.metadata
                .annotations
                .insert(ANN_BIND_COMPLETED.into(), "yes".into());
            c.metadata
                .annotations
                .insert(ANN_BOUND_BY_CONTROLLER.into(), "yes".into());
            c.metadata.resource_version.clear();
            c = match into_owned(ctx.update(Object::PersistentVolumeClaim(c))?) {
                Object::PersistentVolumeClaim(x) => x,
                _ => return Ok(()),
            };
        }
        c.status.phase = CLAIM_BOUND.into();
        c.status.access_modes = c.spec.access_modes.clone();
        if let Some(q) = c.spec.resources.requests.get("storage") {
            c.status.capacity.insert("storage".into(), q.clone());
        }
        c.metadata.resource_version.clear();
        ctx.update_status(Object::PersistentVolumeClaim(c))?;
        Ok(())
    }
}

impl Controller for VolumeBinder {
    fn name(&self) -> &'static str {
        NAME
    }

    fn watch(&mut self, change: &Change, _store: &Store, queue: &mut WorkQueue, now: Time) {
        if let Some(Object::PersistentVolumeClaim(c)) = change.new_obj() {
            if needs_binding(c) {
                let created = c.metadata.creation_timestamp.unwrap_or(now);
                let due = created + PROVISIONING_DELAY;
                queue.add_after(&c.metadata.key(), due - now, now);
            }
        }
    }

    fn sync(&mut self, key: &str, ctx: &mut Ctx) -> Result<(), ApiError> {
        self.sync_claim(key, ctx)
    }

    fn resync_all(&mut self, store: &Store, queue: &mut WorkQueue) {
        for c in store.list::<PersistentVolumeClaim>(None) {
            if needs_binding(c) {
                queue.add_owned(c.metadata.key());
            }
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureGates;
    use crate::sim::Simulation;
    use crate::world::World;

    #[test]
    fn a_claim_is_bound_after_the_provisioning_delay() {
        let start = Time::from_unix_secs(1_735_689_600);
        let mut sim = Simulation::new(1, start, FeatureGates::default(), World::default());
        sim.add_loop(Box::new(VolumeBinder::new()));
        let pvc: PersistentVolumeClaim = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "www-web-0", "namespace": "default"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
        }))
        .unwrap();
        sim.api.create(Object::PersistentVolumeClaim(pvc)).unwrap();
        sim.settle().unwrap();
        let get = |sim: &Simulation| {
            sim.api
                .store
                .get::<PersistentVolumeClaim>("default", "www-web-0")
                .cloned()
                .unwrap()
        };
        assert_eq!(get(&sim).status.phase, "Pending");
        sim.run_for(Duration::from_millis(999)).unwrap();
        assert_eq!(get(&sim).status.phase, "Pending");
        sim.run_for(Duration::from_millis(1)).unwrap();
        let c = get(&sim);
        assert_eq!(c.status.phase, "Bound");
        assert_eq!(c.spec.volume_name, format!("pvc-{}", c.metadata.uid));
        assert_eq!(c.status.capacity["storage"].0, "1Gi");
        assert_eq!(c.status.access_modes, vec!["ReadWriteOnce".to_string()]);
        assert_eq!(c.metadata.annotations[ANN_BIND_COMPLETED], "yes");
    }
}
