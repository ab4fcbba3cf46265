//! Deployment defaulting (`pkg/apis/apps/v1/defaults.go`) and REST strategy hooks
//! (`pkg/registry/apps/deployment/strategy.go`).

use super::apps::{Deployment, RollingUpdateDeployment};
use super::intstr::IntOrString;
use super::object::Object;

pub const ROLLING_UPDATE: &str = "RollingUpdate";
pub const RECREATE: &str = "Recreate";

/// `SetDefaults_Deployment` plus the pod template defaults: replicas 1, strategy RollingUpdate
/// with maxUnavailable/maxSurge 25%, revisionHistoryLimit 10, progressDeadlineSeconds 600.
pub fn set_defaults_deployment(d: &mut Deployment) {
    if d.spec.replicas.is_none() {
        d.spec.replicas = Some(1);
    }
    let strategy = &mut d.spec.strategy;
    if strategy.type_.is_empty() {
        strategy.type_ = ROLLING_UPDATE.into();
    }
    if strategy.type_ == ROLLING_UPDATE {
        let ru = strategy
            .rolling_update
            .get_or_insert_with(RollingUpdateDeployment::default);
        if ru.max_unavailable.is_none() {
            ru.max_unavailable = Some(IntOrString::String("25%".into()));
        }
        if ru.max_surge.is_none() {
            ru.max_surge = Some(IntOrString::String("25%".into()));
        }
    }
    if d.spec.revision_history_limit.is_none() {
        d.spec.revision_history_limit = Some(10);
    }
    if d.spec.progress_deadline_seconds.is_none() {
        d.spec.progress_deadline_seconds = Some(600);
    }
    super::defaults::default_pod_spec(&mut d.spec.template.spec);
}

/// `deploymentStrategy.PrepareForCreate`: status is cleared (generation 1 is set by the server).
pub fn prepare_for_create(d: &mut Deployment) {
    d.status = Default::default();
}

/// `deploymentStrategy.PrepareForUpdate` bumps the generation on annotation changes too
/// ("annotations are copied from deployments to their replica sets"); the API server bumps it
/// for spec changes itself. True when `new` and `old` are Deployments with different annotations.
pub fn annotations_bump_generation(new: &Object, old: &Object) -> bool {
    match (new, old) {
        (Object::Deployment(n), Object::Deployment(o)) => {
            n.metadata.annotations != o.metadata.annotations
        }
        _ => false,
    }
}

/// `deploymentStatusStrategy.PrepareForUpdate` keeps spec and labels from the stored object but
/// takes the rest of the metadata from the request: the controller writes the
/// `deployment.kubernetes.io/revision` annotation through `UpdateStatus`. `stored` already holds
/// the stored object with the new status; this copies the request's annotations into it.
pub fn prepare_for_status_update(request: &Object, stored: &mut Object) {
    if let (Object::Deployment(r), Object::Deployment(s)) = (request, stored) {
        s.metadata.annotations = r.metadata.annotations.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Port of TestSetDefaultDeployment (pkg/apis/apps/v1/defaults_test.go).
    #[test]
    fn defaults() {
        let mut d = Deployment::default();
        set_defaults_deployment(&mut d);
        assert_eq!(d.spec.replicas, Some(1));
        assert_eq!(d.spec.strategy.type_, "RollingUpdate");
        let ru = d.spec.strategy.rolling_update.clone().unwrap();
        assert_eq!(ru.max_surge, Some(IntOrString::String("25%".into())));
        assert_eq!(ru.max_unavailable, Some(IntOrString::String("25%".into())));
        assert_eq!(d.spec.revision_history_limit, Some(10));
        assert_eq!(d.spec.progress_deadline_seconds, Some(600));
        assert_eq!(d.spec.template.spec.restart_policy, "Always");

        let mut d = Deployment::default();
        d.spec.replicas = Some(5);
        d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
            max_surge: Some(IntOrString::Int(1)),
            max_unavailable: None,
        });
        set_defaults_deployment(&mut d);
        let ru = d.spec.strategy.rolling_update.clone().unwrap();
        assert_eq!(ru.max_surge, Some(IntOrString::Int(1)));
        assert_eq!(ru.max_unavailable, Some(IntOrString::String("25%".into())));
        assert_eq!(d.spec.replicas, Some(5));

        // Recreate gets no rollingUpdate block.
        let mut d = Deployment::default();
        d.spec.strategy.type_ = "Recreate".into();
        d.spec.revision_history_limit = Some(0);
        d.spec.progress_deadline_seconds = Some(30);
        set_defaults_deployment(&mut d);
        assert!(d.spec.strategy.rolling_update.is_none());
        assert_eq!(d.spec.revision_history_limit, Some(0));
        assert_eq!(d.spec.progress_deadline_seconds, Some(30));
    }
}
