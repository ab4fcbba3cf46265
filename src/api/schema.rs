//! Strict decoding: unknown fields and wrong JSON types, worded as the apiserver's decoder words them.
//!
//! The apiserver decodes with `sigs.k8s.io/json` and, under `fieldValidation=Strict` (kubectl's
//! default `--validate=strict`), fails a request whose body names a field the Go type lacks:
//! `strict decoding error: unknown field "spec.replica"` (every unknown field, comma-separated,
//! paths with list indices). A value of the wrong JSON type fails first, with Go's
//! `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`
//! (the innermost struct's name, then the path without indices). The field tables come from
//! `schema_gen.rs`, generated from k8s-openapi by `scripts/gen-schema.py`.

use serde_json::Value;

/// One Go struct: its `pkg.Name` and JSON fields, sorted by name.
pub(crate) struct Ty {
    pub go: &'static str,
    pub fields: &'static [(&'static str, T)],
}

/// A field's Go type.
#[derive(Clone, Copy, Debug)]
pub(crate) enum T {
    Bool,
    I32,
    I64,
    Str,
    Quantity,
    IntOrString,
    Time,
    Any,
    Obj(usize),
    List(&'static T),
    Map(&'static T),
}

use super::schema_gen::{ROOTS, TYPES};

impl T {
    /// Go's `reflect.Type.String()` for the field.
    fn go_name(self) -> String {
        match self {
            T::Bool => "bool".into(),
            T::I32 => "int32".into(),
            T::I64 => "int64".into(),
            T::Str => "string".into(),
            T::Quantity => "resource.Quantity".into(),
            T::IntOrString => "intstr.IntOrString".into(),
            T::Time => "v1.Time".into(),
            T::Any => "interface {}".into(),
            T::Obj(i) => TYPES[i].go.into(),
            T::List(t) => format!("[]{}", t.go_name()),
            T::Map(t) => format!("map[string]{}", t.go_name()),
        }
    }
}

/// encoding/json's name for a JSON value's type in `cannot unmarshal X`.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

struct Walk {
    unknown: Vec<String>,
    type_error: Option<String>,
    tolerate_status: bool,
}

fn join(path: &str, f: &str) -> String {
    if path.is_empty() {
        f.to_string()
    } else {
        format!("{path}.{f}")
    }
}

impl Walk {
    fn mismatch(&mut self, v: &Value, strukt: &str, go_path: &str, t: T) {
        if self.type_error.is_none() {
            let short = strukt.rsplit('.').next().unwrap_or(strukt);
            self.type_error = Some(format!(
                "json: cannot unmarshal {} into Go struct field {short}.{go_path} of type {}",
                json_kind(v),
                t.go_name()
            ));
        }
    }

    /// Checks `v` against `t`; `strukt` is the struct holding the field, `go_path` the path
    /// without indices (for type errors) and `path` the path with indices (for unknown fields).
    fn value(&mut self, v: &Value, t: T, strukt: &str, go_path: &str, path: &str) {
        if v.is_null() {
            return; // Go leaves the zero value.
        }
        match t {
            T::Any => {}
            T::Bool => {
                if !v.is_boolean() {
                    self.mismatch(v, strukt, go_path, t);
                }
            }
            T::Str | T::Time => {
                if !v.is_string() {
                    self.mismatch(v, strukt, go_path, t);
                }
            }
            T::I32 | T::I64 => {
                let ok = match (v.as_i64(), t) {
                    (Some(n), T::I32) => i32::try_from(n).is_ok(),
                    (Some(_), _) => true,
                    _ => false,
                };
                if !ok {
                    if let Value::Number(n) = v {
                        // `json: cannot unmarshal number 1.5 into Go struct field ...`
                        if self.type_error.is_none() {
                            let short = strukt.rsplit('.').next().unwrap_or(strukt);
                            self.type_error = Some(format!(
                                "json: cannot unmarshal number {n} into Go struct field {short}.{go_path} of type {}",
                                t.go_name()
                            ));
                        }
                    } else {
                        self.mismatch(v, strukt, go_path, t);
                    }
                }
            }
            T::Quantity => {
                if !(v.is_string() || v.is_number()) && self.type_error.is_none() {
                    // Quantity.UnmarshalJSON parses the raw bytes.
                    self.type_error = Some("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into());
                }
            }
            T::IntOrString => {
                if !(v.is_string() || v.as_i64().is_some_and(|n| i32::try_from(n).is_ok()))
                    && self.type_error.is_none()
                {
                    // IntOrString.UnmarshalJSON decodes a non-string into its int32.
                    self.type_error = Some(format!(
                        "json: cannot unmarshal {} into Go value of type int32",
                        match v {
                            Value::Number(n) => format!("number {n}"),
                            _ => json_kind(v).to_string(),
                        }
                    ));
                }
            }
            T::List(inner) => match v {
                Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(x, *inner, strukt, go_path, &format!("{path}[{i}]"));
                    }
                }
                _ => self.mismatch(v, strukt, go_path, t),
            },
            T::Map(inner) => match v {
                Value::Object(m) => {
                    for (k, x) in m {
                        self.value(x, *inner, strukt, go_path, &join(path, k));
                    }
                }
                _ => self.mismatch(v, strukt, go_path, t),
            },
            T::Obj(i) => match v {
                Value::Object(_) => self.object(v, i, go_path, path, false),
                _ => self.mismatch(v, strukt, go_path, t),
            },
        }
    }

    fn object(&mut self, v: &Value, ty: usize, go_path: &str, path: &str, root: bool) {
        let Some(m) = v.as_object() else { return };
        let t = &TYPES[ty];
        // A full API type embeds TypeMeta (`json:",inline"`) wherever it appears, so a nested
        // one (a StatefulSet's volumeClaimTemplates are PersistentVolumeClaims, and
        // `kubectl get -o yaml` prints their apiVersion and kind) knows those fields too.
        let type_meta = root || ROOTS.iter().any(|(_, _, i)| *i == ty);
        for (k, x) in m {
            if type_meta && (k == "apiVersion" || k == "kind") {
                self.value(x, T::Str, t.go, k, k);
                continue;
            }
            if root && k == "status" && self.tolerate_status {
                continue;
            }
            match t.fields.binary_search_by(|(f, _)| f.cmp(&k.as_str())) {
                Ok(i) => {
                    let ft = t.fields[i].1;
                    self.value(x, ft, t.go, &join(go_path, k), &join(path, k));
                }
                Err(_) => self.unknown.push(join(path, k)),
            }
        }
    }
}

/// What the strict decoder found in one manifest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The first wrongly typed field, as Go's decoder words it (always fatal).
    pub type_error: Option<String>,
    /// Paths of unknown fields (`spec.template.spec.containers[0].imagePullPolic`).
    pub unknown: Vec<String>,
}

impl Report {
    /// The message under `fieldValidation=Strict`, or `None` when the manifest decodes.
    pub fn strict_error(&self) -> Option<String> {
        if let Some(e) = &self.type_error {
            return Some(e.clone());
        }
        if self.unknown.is_empty() {
            return None;
        }
        Some(format!(
            "strict decoding error: {}",
            self.unknown
                .iter()
                .map(|f| format!("unknown field {f:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// Walks a manifest of a known kind as the apiserver's strict decoder does. Unknown kinds
/// give an empty report (their decoding fails elsewhere).
///
/// With `tolerate_status`, the `status` stanza is not checked (objects imported from a real
/// cluster may carry status fields of newer versions).
pub fn check(kind: &str, v: &Value, tolerate_status: bool) -> Report {
    let Some(ty) = root_type(kind, v) else {
        return Report::default();
    };
    let mut w = Walk {
        unknown: vec![],
        type_error: None,
        tolerate_status,
    };
    w.object(v, ty, "", "", true);
    Report {
        type_error: w.type_error,
        unknown: w.unknown,
    }
}

/// The schema of `kind` in the manifest's apiVersion (autoscaling/v1 and v2 differ), or of the
/// kind's first listed version.
fn root_type(kind: &str, v: &Value) -> Option<usize> {
    let api = v.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    ROOTS
        .iter()
        .find(|(k, a, _)| *k == kind && *a == api)
        .or_else(|| ROOTS.iter().find(|(k, ..)| *k == kind))
        .map(|(_, _, ty)| *ty)
}

/// [`check`] under `fieldValidation=Strict`.
///
/// # Errors
/// The decoder's message: the first type error, or `strict decoding error: unknown field "a",
/// unknown field "b"`.
pub fn strict_check(kind: &str, v: &Value, tolerate_status: bool) -> Result<(), String> {
    match check(kind, v, tolerate_status).strict_error() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Drops the fields [`check`] reports as unknown (what the decoder does under
/// `fieldValidation=Ignore` or `Warn`), so they are not kept verbatim.
pub fn prune_unknown(kind: &str, v: &mut Value) {
    fn walk(v: &mut Value, t: T) {
        match (t, v) {
            (T::List(inner), Value::Array(items)) => items.iter_mut().for_each(|x| walk(x, *inner)),
            (T::Map(inner), Value::Object(m)) => m.values_mut().for_each(|x| walk(x, *inner)),
            (T::Obj(i), Value::Object(m)) => obj(m, i, false),
            _ => {}
        }
    }
    fn obj(m: &mut serde_json::Map<String, Value>, ty: usize, root: bool) {
        let fields = TYPES[ty].fields;
        let type_meta = root || ROOTS.iter().any(|(_, _, i)| *i == ty);
        m.retain(|k, _| {
            (type_meta && (k == "apiVersion" || k == "kind"))
                || fields.binary_search_by(|(f, _)| f.cmp(&k.as_str())).is_ok()
        });
        for (k, x) in m.iter_mut() {
            if let Ok(i) = fields.binary_search_by(|(f, _)| f.cmp(&k.as_str())) {
                walk(x, fields[i].1);
            }
        }
    }
    if let Some(ty) = root_type(kind, v) {
        if let Some(m) = v.as_object_mut() {
            obj(m, ty, true);
        }
    }
}

/// Every kind has a schema, and every field kubeplay's own types serialise is known to it.
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_has_a_schema() {
        for (k, api, ..) in crate::api::KINDS {
            assert!(
                ROOTS.iter().any(|(rk, ra, _)| rk == k && ra == api),
                "{k} has no schema"
            );
        }
        for t in TYPES {
            assert!(
                t.fields.windows(2).all(|w| w[0].0 < w[1].0),
                "{} unsorted",
                t.go
            );
        }
    }

    #[test]
    fn versions_and_nested_type_meta() {
        // autoscaling/v1 and v2 HPAs are checked against their own version's fields.
        let v1 = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "f"}, "spec": {"maxReplicas": 10, "targetCPUUtilizationPercentage": 50,
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "f"}}});
        assert_eq!(strict_check("HorizontalPodAutoscaler", &v1, false), Ok(()));
        let mut v2 = v1.clone();
        v2["apiVersion"] = json!("autoscaling/v2");
        assert_eq!(
            strict_check("HorizontalPodAutoscaler", &v2, false).unwrap_err(),
            "strict decoding error: unknown field \"spec.targetCPUUtilizationPercentage\""
        );
        // A StatefulSet's volumeClaimTemplates are PersistentVolumeClaims with TypeMeta, as
        // `kubectl get sts -o yaml` prints them; a pod template's metadata is not.
        let sts = json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "w"},
            "spec": {"template": {"kind": "PodTemplateSpec"}, "volumeClaimTemplates": [
                {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "www"}}]}});
        assert_eq!(
            strict_check("StatefulSet", &sts, false).unwrap_err(),
            "strict decoding error: unknown field \"spec.template.kind\""
        );
        let mut pruned = sts.clone();
        prune_unknown("StatefulSet", &mut pruned);
        assert!(pruned["spec"]["template"].get("kind").is_none());
        assert_eq!(
            pruned["spec"]["volumeClaimTemplates"][0]["kind"],
            "PersistentVolumeClaim"
        );
    }

    fn deploy(spec: Value) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": spec})
    }

    #[test]
    fn unknown_fields_are_named_with_indices() {
        let v = deploy(json!({"replica": 3, "template": {"spec": {"containers": [
            {"name": "a", "image": "x"}, {"name": "b", "imagePullPolic": "Always", "ports": [{"containerPortZ": 80}]}]}}}));
        assert_eq!(
            strict_check("Deployment", &v, false).unwrap_err(),
            "strict decoding error: unknown field \"spec.replica\", unknown field \"spec.template.spec.containers[1].imagePullPolic\", unknown field \"spec.template.spec.containers[1].ports[0].containerPortZ\""
        );
    }

    #[test]
    fn wrong_types_read_like_go() {
        let v = deploy(json!({"replicas": "3"}));
        assert_eq!(
            strict_check("Deployment", &v, false).unwrap_err(),
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        let v = deploy(json!({"template": {"spec": {"containers": {"name": "a"}}}}));
        assert_eq!(
            strict_check("Deployment", &v, false).unwrap_err(),
            "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container"
        );
        let v = deploy(json!({"template": {"metadata": {"labels": {"app": 1}}}}));
        assert_eq!(
            strict_check("Deployment", &v, false).unwrap_err(),
            "json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string"
        );
    }

    #[test]
    fn status_may_be_tolerated() {
        let v = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "a", "image": "x", "resources": {"limits": {"cpu": "1"}}}]},
            "status": {"fancyNewField": 1}});
        assert!(strict_check("Pod", &v, true).is_ok());
        let mut pruned = v.clone();
        prune_unknown("Pod", &mut pruned);
        assert_eq!(pruned["status"], json!({}));
        assert_eq!(pruned["spec"], v["spec"]);
        assert_eq!(
            strict_check("Pod", &v, false).unwrap_err(),
            "strict decoding error: unknown field \"status.fancyNewField\""
        );
    }
}
