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
    super::defaults::default_template_spec(&mut d.spec.template);
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

/// `dropDisabledStatusFields` of the Deployment and ReplicaSet status strategies
/// (pkg/registry/apps/{deployment,replicaset}/strategy.go): without
/// DeploymentReplicaSetTerminatingReplicas a status write cannot add `status.terminatingReplicas`
/// (a stored value stays updatable). A ReplicationController's status has no such field.
pub fn drop_disabled_status_fields(
    new: &mut Object,
    old: &Object,
    gates: &crate::features::FeatureGates,
) {
    let gate = gates.enabled("DeploymentReplicaSetTerminatingReplicas");
    let drop = match (&*new, old) {
        (Object::Deployment(n), Object::Deployment(o)) => {
            !gate
                && o.status.terminating_replicas.is_none()
                && n.status.terminating_replicas.is_some()
        }
        (Object::ReplicaSet(n), Object::ReplicaSet(o)) => {
            !gate
                && o.status.terminating_replicas.is_none()
                && n.status.terminating_replicas.is_some()
        }
        (Object::ReplicationController(n), _) => n.status.terminating_replicas.is_some(),
        _ => false,
    };
    if drop {
        match new {
            Object::Deployment(n) => n.status.terminating_replicas = None,
            Object::ReplicaSet(n) => n.status.terminating_replicas = None,
            Object::ReplicationController(n) => n.status.terminating_replicas = None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Deployment JSON shape: a pasted manifest decodes, defaults as the API server does, and
    /// serialises with Kubernetes' field names and omissions — checked against k8s-openapi's
    /// `apps/v1.Deployment`, which must read it and write the very same JSON back.
    #[test]
    fn json_shape_matches_kubernetes() {
        let manifest = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels: {app: nginx}
spec:
  replicas: 3
  selector:
    matchLabels: {app: nginx}
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
"#;
        let v: serde_json::Value = serde_norway::from_str(manifest).unwrap();
        let mut o = Object::from_value(v).unwrap();
        crate::api::defaults::default_object(&mut o);
        let Object::Deployment(mut d) = o else {
            panic!("not a Deployment")
        };
        d.status.observed_generation = 1;
        d.status.replicas = 3;
        d.status.updated_replicas = 3;
        d.status.ready_replicas = 3;
        d.status.available_replicas = 3;
        d.status.conditions = vec![super::super::apps::DeploymentCondition {
            type_: "Available".into(),
            status: "True".into(),
            last_update_time: Some(crate::api::Time::from_unix_secs(1_735_689_600)),
            last_transition_time: Some(crate::api::Time::from_unix_secs(1_735_689_600)),
            reason: "MinimumReplicasAvailable".into(),
            message: "Deployment has minimum availability.".into(),
        }];
        let ours = serde_json::to_value(&d).unwrap();
        assert_eq!(
            ours["spec"]["strategy"],
            serde_json::json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
        );
        assert_eq!(ours["spec"]["revisionHistoryLimit"], 10);
        assert_eq!(ours["spec"]["progressDeadlineSeconds"], 600);
        assert!(ours["spec"].get("paused").is_none());
        assert!(ours["spec"].get("minReadySeconds").is_none());
        assert!(ours["status"].get("unavailableReplicas").is_none());
        assert!(ours["status"].get("collisionCount").is_none());
        assert!(ours["status"].get("terminatingReplicas").is_none());
        assert_eq!(
            ours["status"]["conditions"][0]["lastUpdateTime"],
            "2025-01-01T00:00:00Z"
        );

        let theirs: k8s_openapi::api::apps::v1::Deployment =
            serde_json::from_value(ours.clone()).unwrap();
        assert_eq!(serde_json::to_value(&theirs).unwrap(), ours);

        // And back: our decoder reads what k8s-openapi writes.
        let back: Deployment =
            serde_json::from_value(serde_json::to_value(&theirs).unwrap()).unwrap();
        assert_eq!(back, d);

        // An empty status and zero counters are omitted entirely.
        let mut z = d.clone();
        z.status = Default::default();
        assert_eq!(
            serde_json::to_value(&z).unwrap()["status"],
            serde_json::json!({})
        );
        // Integer maxSurge stays an integer.
        z.spec.strategy.rolling_update.as_mut().unwrap().max_surge = Some(IntOrString::Int(1));
        assert_eq!(
            serde_json::to_value(&z).unwrap()["spec"]["strategy"]["rollingUpdate"]["maxSurge"],
            1
        );
    }

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
