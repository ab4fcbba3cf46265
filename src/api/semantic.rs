//! `apiequality.Semantic.DeepEqual` for pod templates: Go's reflect `DeepEqual` as apimachinery
//! forks it (`third_party/forked/golang/reflect/deep_equal.go`: a nil and an empty slice or map
//! are equal) with the custom equalities of `pkg/api/equality/semantic.go` (a
//! `resource.Quantity` compares by value, so `1` equals `1000m`; `metav1.Time` by instant).
//!
//! kubeplay's types hold most of that by construction (a `Vec` or `BTreeMap` has no nil, a
//! `String` field absent from the JSON is `""` exactly like Go's), so [`semantic_equal`] first
//! tries plain `==` and only walks the two templates when that fails. The walk mirrors the Go
//! type of every modelled field:
//!
//! - Go pointers (`*int64`, `*bool`, `*string`, `*Affinity`, ...) are `Option`s compared
//!   exactly as to presence: a nil pointer never equals a pointer to a zero value.
//! - Go values that kubeplay keeps as `Option` for round-tripping equal their zero value when
//!   absent: `Container.resources` (a `ResourceRequirements` value, unlike the pointer
//!   `PodSpec.resources`) and `ContainerPort.name` / `protocol` (plain strings).
//! - Quantities compare by parsed value ([`parse_quantity`]); one that does not parse compares
//!   by its text.
//!
//! Fields kubeplay does not model sit verbatim in `extra` JSON maps, where the Go type of a
//! field is not carried by the value. The rules there, typed by the generated API schema
//! (`schema_gen.rs`, which knows struct / list / map / quantity but not pointer-ness):
//!
//! 1. `null`, an absent key and `[]` are equal everywhere (JSON `null` decodes to Go's zero value
//!    and every JSON array is a Go slice, where nil equals empty).
//! 2. `{}` equals an absent key only where the schema says the field is a Go map (`overhead`,
//!    `matchLabels`, ...) or for the few non-pointer struct fields listed in [`VALUE_FIELDS`]
//!    (`podAffinityTerm`, `preference`). Other objects are Go pointers to structs
//!    (`securityContext: {}`, `emptyDir: {}`): a non-nil pointer to an empty struct differs
//!    from nil, as in Go.
//! 3. `""`, `0` and `false` equal an absent key only for the plain (non-pointer) Go scalars
//!    listed in [`VALUE_FIELDS`] (`dnsPolicy`, `imagePullPolicy`, `hostNetwork`, a probe's
//!    `periodSeconds`, ...). Any other scalar is compared exactly, presence included: kubeplay
//!    cannot tell a `*bool` from a `bool` there, and treats the unknown ones as pointers (a
//!    difference then rolls out a new ReplicaSet, as plain equality always did).
//! 4. Quantity-typed fields (`overhead`, `emptyDir.sizeLimit`, ...) compare by value; objects,
//!    lists and maps recurse with these rules; other values compare exactly (`80` and `"80"`
//!    are different `IntOrString`s in Go too; timestamps compare as written).

use super::core::{
    Affinity, Container, ContainerPort, NodeAffinity, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, PodSpec, PodTemplateSpec, Quantity, ResourceRequirements, Toleration,
};
use super::meta::{Labels, ObjectMeta, OwnerReference};
use super::object::Object;
use super::schema::T;
use super::schema_gen::TYPES;
use super::validation::quantity::parse_quantity;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// `apiequality.Semantic.DeepEqual(a, b)` for two pod templates.
pub fn semantic_equal(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    a == b
        || (object_meta_equal(&a.metadata, &b.metadata, None) && pod_spec_equal(&a.spec, &b.spec))
}

/// [`semantic_equal`] on copies of the templates from which the label `ignored` was deleted, as
/// `EqualIgnoreHash` does with `pod-template-hash` — without copying them.
pub fn semantic_equal_ignoring_label(
    a: &PodTemplateSpec,
    b: &PodTemplateSpec,
    ignored: &str,
) -> bool {
    object_meta_equal(&a.metadata, &b.metadata, Some(ignored)) && pod_spec_equal(&a.spec, &b.spec)
}

/// `apiequality.Semantic.DeepEqual(new.Spec, old.Spec)`, as the update strategies of the
/// workload kinds decide whether to bump `metadata.generation` (`rsStrategy.PrepareForUpdate`,
/// `deploymentStrategy.PrepareForUpdate`, `daemonSetStrategy.PrepareForUpdate`, ...): plain
/// equality of the specs, or plain equality of everything but the pod template and
/// [`semantic_equal`] templates. (Fields outside the pod template are compared plainly.)
pub fn spec_semantically_equal(a: &Object, b: &Object) -> bool {
    macro_rules! with_template {
        ($x:expr, $y:expr) => {{
            let mut s = (*$x.spec).clone();
            s.template = $y.spec.template.clone();
            s == *$y.spec && semantic_equal(&$x.spec.template, &$y.spec.template)
        }};
    }
    if a.spec_eq(b) {
        return true;
    }
    match (a, b) {
        (Object::Deployment(x), Object::Deployment(y)) => with_template!(x, y),
        (Object::ReplicaSet(x), Object::ReplicaSet(y)) => with_template!(x, y),
        (Object::StatefulSet(x), Object::StatefulSet(y)) => with_template!(x, y),
        (Object::DaemonSet(x), Object::DaemonSet(y)) => with_template!(x, y),
        (Object::Job(x), Object::Job(y)) => with_template!(x, y),
        (Object::ReplicationController(x), Object::ReplicationController(y)) => {
            match (&x.spec.template, &y.spec.template) {
                (Some(tx), Some(ty)) => {
                    let mut s = x.spec.clone();
                    s.template.clone_from(&y.spec.template);
                    s == y.spec && semantic_equal(tx, ty)
                }
                _ => false,
            }
        }
        (Object::CronJob(x), Object::CronJob(y)) => {
            let mut s = (*x.spec).clone();
            s.job_template.spec.template = y.spec.job_template.spec.template.clone();
            s == *y.spec
                && semantic_equal(
                    &x.spec.job_template.spec.template,
                    &y.spec.job_template.spec.template,
                )
        }
        _ => false,
    }
}

/// Semantic equality of two pod specs: the same `Arc` or plain-equal first, the walk after.
pub fn pod_spec_equal(a: &Arc<PodSpec>, b: &Arc<PodSpec>) -> bool {
    Arc::ptr_eq(a, b) || **a == **b || a.sem(b)
}

/// Semantic equality of object metadata, optionally ignoring one label.
fn object_meta_equal(a: &ObjectMeta, b: &ObjectMeta, ignored_label: Option<&str>) -> bool {
    let ObjectMeta {
        name,
        generate_name,
        namespace,
        uid,
        resource_version,
        generation,
        creation_timestamp,
        deletion_timestamp,
        deletion_grace_period_seconds,
        labels,
        annotations,
        owner_references,
        finalizers,
        managed_fields,
    } = a;
    let labels_equal = match ignored_label {
        None => *labels == b.labels,
        Some(k) => labels_equal_ignoring(labels, &b.labels, k),
    };
    labels_equal
        && *name == b.name
        && *generate_name == b.generate_name
        && *namespace == b.namespace
        && *uid == b.uid
        && *resource_version == b.resource_version
        && *generation == b.generation
        // Instants (`metav1.Time` compares by `UTC()`); absent is Go's zero time, which no
        // written timestamp equals.
        && *creation_timestamp == b.creation_timestamp
        && *deletion_timestamp == b.deletion_timestamp
        && *deletion_grace_period_seconds == b.deletion_grace_period_seconds
        && *annotations == b.annotations
        && owner_references.sem(&b.owner_references)
        && *finalizers == b.finalizers
        // []ManagedFieldsEntry: nil equals empty.
        && value_equal(managed_fields.as_ref(), b.managed_fields.as_ref(), None, Field::Unknown)
}

/// Two label maps are equal once `ignored` is deleted from both.
fn labels_equal_ignoring(a: &Labels, b: &Labels, ignored: &str) -> bool {
    a.iter()
        .filter(|(k, _)| *k != ignored)
        .eq(b.iter().filter(|(k, _)| *k != ignored))
}

/// Semantic equality of a modelled Go type.
trait Sem {
    fn sem(&self, other: &Self) -> bool;
}

macro_rules! plain_sem {
    ($($t:ty),*) => {$(
        impl Sem for $t {
            fn sem(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}
plain_sem!(String, i32, i64, bool, NodeSelectorRequirement, Toleration);

/// A Go slice: nil and empty are equal (a `Vec` has no nil), then element by element.
impl<T: Sem> Sem for Vec<T> {
    fn sem(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.sem(b))
    }
}

/// A Go pointer: nil equals only nil.
impl<T: Sem> Sem for Option<T> {
    fn sem(&self, other: &Self) -> bool {
        match (self, other) {
            (None, None) => true,
            (Some(a), Some(b)) => a.sem(b),
            _ => false,
        }
    }
}

/// A Go map: the same keys, semantically equal values.
impl<V: Sem> Sem for BTreeMap<String, V> {
    fn sem(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|w| v.sem(w)))
    }
}

impl<T: Sem + Clone> Sem for super::meta::Shared<T> {
    fn sem(&self, other: &Self) -> bool {
        (**self).sem(&**other)
    }
}

/// `func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 }`.
impl Sem for Quantity {
    fn sem(&self, other: &Self) -> bool {
        quantity_text_equal(&self.0, &other.0)
    }
}

fn quantity_text_equal(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (parse_quantity(a.trim()), parse_quantity(b.trim())) {
        (Ok(x), Ok(y)) => x.nanos == y.nanos,
        _ => false,
    }
}

impl Sem for OwnerReference {
    fn sem(&self, other: &Self) -> bool {
        self == other
    }
}

impl Sem for ResourceRequirements {
    fn sem(&self, other: &Self) -> bool {
        let ResourceRequirements { requests, limits } = self;
        requests.sem(&other.requests) && limits.sem(&other.limits)
    }
}

static NO_RESOURCES: ResourceRequirements = ResourceRequirements {
    requests: BTreeMap::new(),
    limits: BTreeMap::new(),
};

impl Sem for PodSpec {
    fn sem(&self, other: &Self) -> bool {
        let PodSpec {
            init_containers,
            containers,
            restart_policy,
            termination_grace_period_seconds,
            active_deadline_seconds,
            node_selector,
            node_name,
            affinity,
            tolerations,
            scheduler_name,
            hostname,
            subdomain,
            priority,
            resources,
            extra,
        } = self;
        containers.sem(&other.containers)
            && init_containers.sem(&other.init_containers)
            && restart_policy.sem(&other.restart_policy)
            && termination_grace_period_seconds.sem(&other.termination_grace_period_seconds)
            && active_deadline_seconds.sem(&other.active_deadline_seconds)
            && node_selector.sem(&other.node_selector)
            && node_name.sem(&other.node_name)
            && affinity.sem(&other.affinity)
            && tolerations.sem(&other.tolerations)
            && scheduler_name.sem(&other.scheduler_name)
            && hostname.sem(&other.hostname)
            && subdomain.sem(&other.subdomain)
            && priority.sem(&other.priority)
            // `*ResourceRequirements` at pod level.
            && resources.sem(&other.resources)
            && extra_equal(extra, &other.extra, Root::PodSpec)
    }
}

impl Sem for Container {
    fn sem(&self, other: &Self) -> bool {
        let Container {
            name,
            image,
            resources,
            restart_policy,
            ports,
            extra,
        } = self;
        name.sem(&other.name)
            && image.sem(&other.image)
            // A `ResourceRequirements` value in Go: absent is the zero value.
            && resources
                .as_ref()
                .unwrap_or(&NO_RESOURCES)
                .sem(other.resources.as_ref().unwrap_or(&NO_RESOURCES))
            // `*ContainerRestartPolicy`.
            && restart_policy.sem(&other.restart_policy)
            && ports.sem(&other.ports)
            && extra_equal(extra, &other.extra, Root::Container)
    }
}

impl Sem for ContainerPort {
    fn sem(&self, other: &Self) -> bool {
        let ContainerPort {
            name,
            container_port,
            protocol,
            extra,
        } = self;
        // `Name string`, `Protocol Protocol`: plain strings in Go.
        name.as_deref().unwrap_or("") == other.name.as_deref().unwrap_or("")
            && *container_port == other.container_port
            && protocol.as_deref().unwrap_or("") == other.protocol.as_deref().unwrap_or("")
            && extra_equal(extra, &other.extra, Root::ContainerPort)
    }
}

impl Sem for Affinity {
    fn sem(&self, other: &Self) -> bool {
        let Affinity {
            node_affinity,
            extra,
        } = self;
        node_affinity.sem(&other.node_affinity) && extra_equal(extra, &other.extra, Root::Affinity)
    }
}

impl Sem for NodeAffinity {
    fn sem(&self, other: &Self) -> bool {
        let NodeAffinity {
            required_during_scheduling_ignored_during_execution: required,
            extra,
        } = self;
        required.sem(&other.required_during_scheduling_ignored_during_execution)
            && extra_equal(extra, &other.extra, Root::NodeAffinity)
    }
}

impl Sem for NodeSelector {
    fn sem(&self, other: &Self) -> bool {
        self.node_selector_terms.sem(&other.node_selector_terms)
    }
}

impl Sem for NodeSelectorTerm {
    fn sem(&self, other: &Self) -> bool {
        self.match_expressions.sem(&other.match_expressions)
            && self.match_fields.sem(&other.match_fields)
    }
}

// ---------------------------------------------------------------------------------------------
// `extra` JSON values
// ---------------------------------------------------------------------------------------------

/// The modelled Go structs whose `extra` map holds the rest of their fields.
#[derive(Clone, Copy)]
enum Root {
    PodSpec,
    Container,
    ContainerPort,
    Affinity,
    NodeAffinity,
}

/// Index into the schema's `TYPES` of a Go type, by its `pkg.Name`.
fn type_index(go: &str) -> Option<usize> {
    TYPES.iter().position(|t| t.go == go)
}

fn root_type(r: Root) -> Option<usize> {
    static ROOTS: OnceLock<[Option<usize>; 5]> = OnceLock::new();
    let roots = ROOTS.get_or_init(|| {
        [
            type_index("v1.PodSpec"),
            type_index("v1.Container"),
            type_index("v1.ContainerPort"),
            type_index("v1.Affinity"),
            type_index("v1.NodeAffinity"),
        ]
    });
    roots[r as usize]
}

/// Fields of unmodelled Go structs that are values, not pointers, so that an absent key equals
/// the zero value (`""`, `0`, `false`, or an empty struct): `(struct, json field)`, from
/// `k8s.io/api/core/v1/types.go`. Every other scalar or struct field is taken as a pointer.
pub const VALUE_FIELDS: &[(&str, &str)] = &[
    ("v1.PodSpec", "dnsPolicy"),
    ("v1.PodSpec", "hostIPC"),
    ("v1.PodSpec", "hostNetwork"),
    ("v1.PodSpec", "hostPID"),
    ("v1.PodSpec", "priorityClassName"),
    ("v1.PodSpec", "serviceAccount"),
    ("v1.PodSpec", "serviceAccountName"),
    ("v1.Container", "imagePullPolicy"),
    ("v1.Container", "stdin"),
    ("v1.Container", "stdinOnce"),
    ("v1.Container", "terminationMessagePath"),
    ("v1.Container", "terminationMessagePolicy"),
    ("v1.Container", "tty"),
    ("v1.Container", "workingDir"),
    ("v1.ContainerPort", "hostIP"),
    ("v1.ContainerPort", "hostPort"),
    ("v1.EnvVar", "value"),
    ("v1.Probe", "failureThreshold"),
    ("v1.Probe", "initialDelaySeconds"),
    ("v1.Probe", "periodSeconds"),
    ("v1.Probe", "successThreshold"),
    ("v1.Probe", "timeoutSeconds"),
    ("v1.VolumeMount", "readOnly"),
    ("v1.VolumeMount", "subPath"),
    ("v1.VolumeMount", "subPathExpr"),
    ("v1.PreferredSchedulingTerm", "preference"),
    ("v1.WeightedPodAffinityTerm", "podAffinityTerm"),
];

/// What is known of one JSON field's Go type.
#[derive(Clone, Copy)]
enum Field {
    /// Not in the schema (or an `interface{}`): only rule 1 applies.
    Unknown,
    /// A pointer (or a field whose pointer-ness is unknown).
    Pointer,
    /// A Go value: absent equals its zero value.
    Value,
}

fn field_of(ty: Option<usize>, key: &str) -> (Option<T>, Field) {
    let Some(i) = ty else {
        return (None, Field::Unknown);
    };
    let t = &TYPES[i];
    match t.fields.binary_search_by(|(f, _)| f.cmp(&key)) {
        Ok(j) => {
            let kind = if VALUE_FIELDS.iter().any(|(s, f)| *s == t.go && *f == key) {
                Field::Value
            } else {
                Field::Pointer
            };
            (Some(t.fields[j].1), kind)
        }
        Err(_) => (None, Field::Unknown),
    }
}

fn extra_equal(a: &Map<String, Value>, b: &Map<String, Value>, root: Root) -> bool {
    a == b || object_equal(a, b, root_type(root))
}

/// Two JSON objects of Go struct `ty` (unknown: `None`), key by key.
fn object_equal(a: &Map<String, Value>, b: &Map<String, Value>, ty: Option<usize>) -> bool {
    let keys_of_a = a.iter().all(|(k, x)| {
        let (t, f) = field_of(ty, k);
        value_equal(Some(x), b.get(k), t, f)
    });
    keys_of_a
        && b.iter().filter(|(k, _)| !a.contains_key(*k)).all(|(k, y)| {
            let (t, f) = field_of(ty, k);
            value_equal(None, Some(y), t, f)
        })
}

/// Whether a present value counts as an absent field of this type (rules 1–3).
fn absent_like(v: &Value, t: Option<T>, f: Field) -> bool {
    match v {
        Value::Null => true,
        Value::Array(xs) => xs.is_empty(),
        Value::Object(m) => match t {
            Some(T::Map(_)) => m.is_empty(),
            Some(T::Obj(i)) if matches!(f, Field::Value) => object_equal(m, &Map::new(), Some(i)),
            _ => false,
        },
        Value::String(s) => matches!(f, Field::Value) && s.is_empty(),
        Value::Bool(x) => matches!(f, Field::Value) && !x,
        Value::Number(n) => matches!(f, Field::Value) && n.as_f64() == Some(0.0),
    }
}

fn value_equal(a: Option<&Value>, b: Option<&Value>, t: Option<T>, f: Field) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), None) | (None, Some(x)) => absent_like(x, t, f),
        (Some(x), Some(y)) => {
            if x == y {
                return true;
            }
            let (ax, ay) = (absent_like(x, t, f), absent_like(y, t, f));
            if ax || ay {
                return ax && ay;
            }
            present_equal(x, y, t)
        }
    }
}

fn present_equal(x: &Value, y: &Value, t: Option<T>) -> bool {
    match (t, x, y) {
        (Some(T::Quantity), _, _) => match (quantity_text(x), quantity_text(y)) {
            (Some(a), Some(b)) => quantity_text_equal(&a, &b),
            _ => x == y,
        },
        (Some(T::Obj(i)), Value::Object(a), Value::Object(b)) => object_equal(a, b, Some(i)),
        (Some(T::Map(inner)), Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter().all(|(k, v)| {
                    b.get(k).is_some_and(|w| {
                        value_equal(Some(v), Some(w), Some(*inner), Field::Pointer)
                    })
                })
        }
        (Some(T::List(inner)), Value::Array(a), Value::Array(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(v, w)| value_equal(Some(v), Some(w), Some(*inner), Field::Pointer))
        }
        (None | Some(T::Any), Value::Object(a), Value::Object(b)) => object_equal(a, b, None),
        (None | Some(T::Any), Value::Array(a), Value::Array(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(v, w)| value_equal(Some(v), Some(w), None, Field::Unknown))
        }
        _ => x == y,
    }
}

fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
#[path = "semantic_tests.rs"]
mod tests;
