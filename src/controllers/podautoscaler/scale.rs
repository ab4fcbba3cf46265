//! The `scale` subresource (`autoscaling/v1.Scale`) of Deployments, ReplicaSets,
//! ReplicationControllers and StatefulSets, as the HPA's scale client reads and writes it.

use crate::api::{
    ApiError, Deployment, Object, ReplicaSet, ReplicationController, Resource, StatefulSet,
};
use crate::controllers::Ctx;
use crate::store::Store;

/// A target's scale: `spec.replicas`, `status.replicas` and `status.selector` (the label
/// selector in its string form, empty when the target has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scale {
    pub kind: &'static str,
    pub namespace: String,
    pub name: String,
    pub spec_replicas: i32,
    pub status_replicas: i32,
    pub selector: String,
}

/// The API group a scalable kind is served from (`RESTMapper.RESTMappings`), or `None`.
pub fn group_of_scalable(kind: &str) -> Option<&'static str> {
    match kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" => Some("apps"),
        "ReplicationController" => Some(""),
        _ => None,
    }
}

/// `RESTMapper.RESTMappings(GroupKind)` for any kind kubeplay knows, else
/// `no matches for kind "K" in group "G"`.
///
/// # Errors
/// meta's `NoKindMatchError` text.
pub fn rest_mapping(group: &str, kind: &str) -> Result<&'static str, String> {
    crate::api::KINDS
        .iter()
        .find(|(k, _, _, g, _)| *k == kind && *g == group)
        .map(|(k, ..)| *k)
        .ok_or_else(|| {
            format!(
                "no matches for kind {} in group {}",
                crate::api::go_quote(kind),
                crate::api::go_quote(group)
            )
        })
}

fn selector_string(s: Option<&crate::api::LabelSelector>) -> String {
    s.map(|s| s.to_kubectl_string()).unwrap_or_default()
}

/// `scales.Get`: the scale of `kind` `namespace/name`.
///
/// # Errors
/// NotFound (`replicasets.apps "x" not found`); a kind without a scale subresource answers
/// `the server could not find the requested resource`.
pub fn get_scale(
    store: &Store,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Result<Scale, ApiError> {
    fn nf<T: Resource>(name: &str) -> ApiError {
        ApiError::not_found(&T::qualified_resource(), name)
    }
    let mk = |kind: &'static str, spec: Option<i32>, status: i32, selector: String| Scale {
        kind,
        namespace: namespace.to_string(),
        name: name.to_string(),
        spec_replicas: spec.unwrap_or(1),
        status_replicas: status,
        selector,
    };
    match kind {
        "Deployment" => {
            let d = store
                .get::<Deployment>(namespace, name)
                .ok_or_else(|| nf::<Deployment>(name))?;
            Ok(mk(
                "Deployment",
                d.spec.replicas,
                d.status.replicas,
                selector_string(d.spec.selector.as_ref()),
            ))
        }
        "ReplicaSet" => {
            let r = store
                .get::<ReplicaSet>(namespace, name)
                .ok_or_else(|| nf::<ReplicaSet>(name))?;
            Ok(mk(
                "ReplicaSet",
                r.spec.replicas,
                r.status.replicas,
                selector_string(r.spec.selector.as_ref()),
            ))
        }
        "StatefulSet" => {
            let s = store
                .get::<StatefulSet>(namespace, name)
                .ok_or_else(|| nf::<StatefulSet>(name))?;
            Ok(mk(
                "StatefulSet",
                s.spec.replicas,
                s.status.replicas,
                selector_string(s.spec.selector.as_ref()),
            ))
        }
        "ReplicationController" => {
            let r = store
                .get::<ReplicationController>(namespace, name)
                .ok_or_else(|| nf::<ReplicationController>(name))?;
            let sel: Vec<String> = r
                .spec
                .selector
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            Ok(mk(
                "ReplicationController",
                r.spec.replicas,
                r.status.replicas,
                sel.join(","),
            ))
        }
        _ => Err(not_found_plain(
            "the server could not find the requested resource",
        )),
    }
}

/// `scales.Update`: sets the target's `spec.replicas` (an `update` of the object, recorded).
///
/// # Errors
/// NotFound, Conflict, Invalid from the API server.
pub fn update_scale(
    ctx: &mut Ctx,
    kind: &str,
    namespace: &str,
    name: &str,
    replicas: i32,
) -> Result<(), ApiError> {
    let store = ctx.store();
    let obj: Option<Object> = match kind {
        "Deployment" => store
            .get::<Deployment>(namespace, name)
            .cloned()
            .map(|mut d| {
                d.spec.replicas = Some(replicas);
                d.into_object()
            }),
        "ReplicaSet" => store
            .get::<ReplicaSet>(namespace, name)
            .cloned()
            .map(|mut d| {
                d.spec.replicas = Some(replicas);
                d.into_object()
            }),
        "StatefulSet" => store
            .get::<StatefulSet>(namespace, name)
            .cloned()
            .map(|mut d| {
                d.spec.replicas = Some(replicas);
                d.into_object()
            }),
        "ReplicationController" => store
            .get::<ReplicationController>(namespace, name)
            .cloned()
            .map(|mut d| {
                d.spec.replicas = Some(replicas);
                d.into_object()
            }),
        _ => {
            return Err(not_found_plain(
                "the server could not find the requested resource",
            ))
        }
    };
    let Some(o) = obj else {
        return Err(get_scale(ctx.store(), kind, namespace, name)
            .err()
            .unwrap_or_else(|| {
                not_found_plain("the server could not find the requested resource")
            }));
    };
    ctx.update(o).map(|_| ())
}

/// A NotFound without a resource name (`the server could not find the requested resource`).
fn not_found_plain(msg: &str) -> ApiError {
    ApiError {
        reason: crate::api::Reason::NotFound,
        message: msg.into(),
        causes: vec![],
        kind: String::new(),
        name: String::new(),
    }
}
