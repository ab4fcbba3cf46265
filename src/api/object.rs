//! `Object`: any supported kind, with `Resource` for typed access and decoding by apiVersion/kind.

use super::apps::{Deployment, ReplicaSet, ReplicationController};
use super::apps_more::{ControllerRevision, DaemonSet, StatefulSet};
use super::autoscaling::HorizontalPodAutoscaler;
use super::batch::{CronJob, Job};
use super::core::{Node, Pod};
use super::core_more::{PersistentVolumeClaim, Service};
use super::meta::ObjectMeta;
use super::policy::PodDisruptionBudget;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// A kind kubeplay stores. Implemented by every top-level API type.
pub trait Resource: Clone + Serialize + DeserializeOwned + std::fmt::Debug + 'static {
    const KIND: &'static str;
    /// `apps/v1`, `v1`, ...
    const API_VERSION: &'static str;
    /// Lower-case plural resource name (`replicasets`).
    const PLURAL: &'static str;
    /// API group (`apps`, or `""` for core).
    const GROUP: &'static str;
    const NAMESPACED: bool;
    fn meta(&self) -> &ObjectMeta;
    fn meta_mut(&mut self) -> &mut ObjectMeta;
    fn into_object(self) -> Object;
    fn from_object(o: &Object) -> Option<&Self>;
    fn from_object_mut(o: &mut Object) -> Option<&mut Self>;
    /// `replicasets.apps` as API errors name the resource.
    fn qualified_resource() -> String {
        if Self::GROUP.is_empty() {
            Self::PLURAL.to_string()
        } else {
            format!("{}.{}", Self::PLURAL, Self::GROUP)
        }
    }
}

macro_rules! spec_field_eq {
    (ControllerRevision, $a:ident, $b:ident) => {{
        let _ = ($a, $b);
        true
    }};
    ($v:ident, $a:ident, $b:ident) => {
        $a.spec == $b.spec
    };
}

macro_rules! kinds {
    ($( $variant:ident => $ty:ty, $api:literal, $plural:literal, $group:literal, $namespaced:literal; )*) => {
        /// Any stored object.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Object {
            $( $variant($ty), )*
        }

        impl Object {
            /// Whether two objects have the same `spec` (both of the same kind); objects without
            /// a spec (ControllerRevision) compare equal. The API server bumps
            /// `metadata.generation` when this is false.
            pub fn spec_eq(&self, other: &Object) -> bool {
                match (self, other) {
                    $( (Object::$variant(a), Object::$variant(b)) => spec_field_eq!($variant, a, b), )*
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }
        }

        /// Every kind kubeplay knows: (kind, apiVersion, plural, group, namespaced).
        pub const KINDS: &[(&str, &str, &str, &str, bool)] = &[
            $( (stringify!($variant), $api, $plural, $group, $namespaced), )*
        ];

        $(
        impl Resource for $ty {
            const KIND: &'static str = stringify!($variant);
            const API_VERSION: &'static str = $api;
            const PLURAL: &'static str = $plural;
            const GROUP: &'static str = $group;
            const NAMESPACED: bool = $namespaced;
            fn meta(&self) -> &ObjectMeta { &self.metadata }
            fn meta_mut(&mut self) -> &mut ObjectMeta { &mut self.metadata }
            fn into_object(self) -> Object { Object::$variant(self) }
            fn from_object(o: &Object) -> Option<&Self> {
                match o { Object::$variant(x) => Some(x), #[allow(unreachable_patterns)] _ => None }
            }
            fn from_object_mut(o: &mut Object) -> Option<&mut Self> {
                match o { Object::$variant(x) => Some(x), #[allow(unreachable_patterns)] _ => None }
            }
        }
        )*

        impl Object {
            pub fn kind(&self) -> &'static str {
                match self { $( Object::$variant(_) => stringify!($variant), )* }
            }
            pub fn meta(&self) -> &ObjectMeta {
                match self { $( Object::$variant(x) => &x.metadata, )* }
            }
            pub fn meta_mut(&mut self) -> &mut ObjectMeta {
                match self { $( Object::$variant(x) => &mut x.metadata, )* }
            }
            /// Sets `apiVersion` and `kind` to the canonical values.
            pub fn set_type_meta(&mut self) {
                // Assigned only when different: every write passes here with the fields set.
                match self { $( Object::$variant(x) => {
                    if x.api_version != $api { x.api_version = $api.into(); }
                    if x.kind != stringify!($variant) { x.kind = stringify!($variant).into(); }
                } )* }
            }
            /// Decodes one object from JSON by its `apiVersion` and `kind`.
            ///
            /// # Errors
            /// kubectl's wording for a missing or unknown kind, or the decoder's message.
            pub fn from_value(v: Value) -> Result<Object, String> {
                let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
                let mut api = v.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_string();
                // autoscaling/v1 HPAs are served converted to autoscaling/v2.
                let from_v1 = kind == "HorizontalPodAutoscaler" && api == super::autoscaling::AUTOSCALING_V1;
                let v = if from_v1 {
                    api = "autoscaling/v2".into();
                    super::autoscaling::convert_v1_to_v2(v)
                } else {
                    v
                };
                if kind.is_empty() {
                    return Err("Object 'Kind' is missing in object".into());
                }
                if api.is_empty() {
                    return Err(format!("Object 'apiVersion' is missing in object of kind {kind:?}"));
                }
                match kind.as_str() {
                    $( stringify!($variant) => {
                        if api != $api {
                            return Err(format!("no matches for kind {kind:?} in version {api:?}"));
                        }
                        let mut o: $ty = crate::api::value_de::from_value(v).map_err(|e| e.to_string())?;
                        o.api_version = $api.into();
                        o.kind = kind.clone();
                        let mut o = Object::$variant(o);
                        // The autoscaling/v2 conversion drops the round-trip annotations
                        // (`DropRoundTripHorizontalPodAutoscalerAnnotations`). The v1 conversion
                        // reads them into the spec first, which kubeplay does not model: a v1
                        // object keeps them as written.
                        if let (Object::HorizontalPodAutoscaler(h), false) = (&mut o, from_v1) {
                            super::autoscaling::drop_round_trip_annotations(h);
                        }
                        Ok(o)
                    } )*
                    _ => Err(format!("no matches for kind {kind:?} in version {api:?}")),
                }
            }
        }
    };
}

kinds! {
    Pod => Pod, "v1", "pods", "", true;
    Node => Node, "v1", "nodes", "", false;
    ReplicaSet => ReplicaSet, "apps/v1", "replicasets", "apps", true;
    ReplicationController => ReplicationController, "v1", "replicationcontrollers", "", true;
    Deployment => Deployment, "apps/v1", "deployments", "apps", true;
    Job => Job, "batch/v1", "jobs", "batch", true;
    CronJob => CronJob, "batch/v1", "cronjobs", "batch", true;
    StatefulSet => StatefulSet, "apps/v1", "statefulsets", "apps", true;
    DaemonSet => DaemonSet, "apps/v1", "daemonsets", "apps", true;
    ControllerRevision => ControllerRevision, "apps/v1", "controllerrevisions", "apps", true;
    PersistentVolumeClaim => PersistentVolumeClaim, "v1", "persistentvolumeclaims", "", true;
    Service => Service, "v1", "services", "", true;
    HorizontalPodAutoscaler => HorizontalPodAutoscaler, "autoscaling/v2", "horizontalpodautoscalers", "autoscaling", true;
    PodDisruptionBudget => PodDisruptionBudget, "policy/v1", "poddisruptionbudgets", "policy", true;
}

/// Whether kube-apiserver keeps `metadata.generation` for the kind: the REST strategies that set
/// it to 1 on create and bump it when the spec changes (the workloads, and Pod since 1.33).
/// Nodes, Services, PersistentVolumeClaims and ControllerRevisions have none (their strategies
/// never set it, so it stays 0 and is not printed); neither has the HorizontalPodAutoscaler in
/// 1.35 (its strategy sets one only behind the `HPAGeneration` gate of kubernetes#138228, alpha
/// and off, after 1.35).
pub fn kind_has_generation(kind: &str) -> bool {
    !matches!(
        kind,
        "Node"
            | "Service"
            | "PersistentVolumeClaim"
            | "ControllerRevision"
            | "HorizontalPodAutoscaler"
    )
}

/// Looks a kind up by kind name, plural, singular or kubectl short name (`rs`, `po`, `rc`, `no`,
/// `sts`, `ds`, `pvc`, `svc`, `pdb`).
pub fn resolve_kind(s: &str) -> Option<&'static str> {
    let l = s.to_ascii_lowercase();
    let l = l.split('.').next().unwrap_or_default().to_string();
    let short: &[(&str, &str)] = &[
        ("po", "Pod"),
        ("no", "Node"),
        ("rs", "ReplicaSet"),
        ("rc", "ReplicationController"),
        ("deploy", "Deployment"),
        ("sts", "StatefulSet"),
        ("ds", "DaemonSet"),
        ("cj", "CronJob"),
        ("hpa", "HorizontalPodAutoscaler"),
        ("pdb", "PodDisruptionBudget"),
        ("pvc", "PersistentVolumeClaim"),
        ("svc", "Service"),
        ("ev", "Event"),
    ];
    for (k, _, plural, _, _) in KINDS {
        if l == k.to_ascii_lowercase() || l == *plural {
            return Some(k);
        }
    }
    short
        .iter()
        .find(|(s, _)| *s == l)
        .and_then(|(_, k)| KINDS.iter().find(|(kk, ..)| kk == k).map(|(k, ..)| *k))
}

/// (apiVersion, plural, group, namespaced) for a kind name.
pub fn kind_info(kind: &str) -> Option<(&'static str, &'static str, &'static str, bool)> {
    KINDS
        .iter()
        .find(|(k, ..)| *k == kind)
        .map(|(_, a, p, g, n)| (*a, *p, *g, *n))
}
