//! ObjectMeta, labels, annotations, owner references, finalizers and label selectors
//! (`apimachinery/pkg/api/validation` and `apis/meta/v1/validation`, plus core's finalizer rule).

use super::names::{is_qualified_name, is_valid_label_value, name_is_dns_label};
use super::{child, idx};
use crate::api::errors::{go_quote, write_go_json_string, FieldError};
use crate::api::meta::{
    LabelSelector, Labels, ObjectMeta, OwnerReference, Requirement, Selector, Shared,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// A `ValidateNameFunc`: `(name, prefix) -> messages`.
pub type NameFn = fn(&str, bool) -> Vec<String>;

/// `FieldImmutableErrorMsg`.
pub const FIELD_IMMUTABLE: &str = "field is immutable";
/// `IsNegativeErrorMsg`.
pub const IS_NEGATIVE: &str = "must be greater than or equal to 0";
/// `TotalAnnotationSizeLimitB`: 256 KiB.
pub const TOTAL_ANNOTATION_SIZE_LIMIT_B: usize = 256 * (1 << 10);

/// `ValidateNonnegativeField`.
pub fn validate_nonnegative_field(value: i64, path: &str) -> Vec<FieldError> {
    if value < 0 {
        vec![FieldError::invalid(path, value, IS_NEGATIVE)]
    } else {
        vec![]
    }
}

/// `ValidateLabelName`: the key must be a qualified name.
pub fn validate_label_name(name: &str, path: &str) -> Vec<FieldError> {
    is_qualified_name(name)
        .into_iter()
        .map(|m| FieldError::invalid(path, name, m))
        .collect()
}

thread_local! {
    /// The last few label keys found valid (`IsQualifiedName` reads nothing but the key): the
    /// same few keys (`app`, `batch.kubernetes.io/controller-uid`, `job-name`, ...) come back on
    /// every create of a workload's objects.
    static VALID_LABEL_KEYS: std::cell::RefCell<Vec<Box<str>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn known_valid_label_key(k: &str) -> bool {
    VALID_LABEL_KEYS.with_borrow(|keys| keys.iter().any(|x| **x == *k))
}

fn remember_valid_label_key(k: &str) {
    VALID_LABEL_KEYS.with_borrow_mut(|keys| {
        if keys.len() == 16 {
            keys.remove(0);
        }
        keys.push(k.into());
    });
}

/// `ValidateLabels`: every key a qualified name, every value a valid label value. Errors are
/// reported on the map's path (`metadata.labels`), in key order.
pub fn validate_labels(labels: &Labels, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    for (k, v) in labels {
        if !known_valid_label_key(k) {
            let key_errs = validate_label_name(k, path);
            if key_errs.is_empty() {
                remember_valid_label_key(k);
            }
            errs.extend(key_errs);
        }
        for m in is_valid_label_value(v) {
            errs.push(FieldError::invalid(path, v.as_str(), m));
        }
    }
    errs
}

/// `ValidateAnnotations`: keys are qualified names after lower-casing; keys and values together
/// may not exceed 256 KiB.
pub fn validate_annotations(annotations: &BTreeMap<String, String>, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    for k in annotations.keys() {
        let lowered;
        let key = if k.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
            lowered = k.to_lowercase();
            lowered.as_str()
        } else {
            k.as_str()
        };
        for m in is_qualified_name(key) {
            errs.push(FieldError::invalid(path, k.as_str(), m));
        }
    }
    let total: usize = annotations.iter().map(|(k, v)| k.len() + v.len()).sum();
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B {
        errs.push(FieldError::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
    }
    errs
}

/// `metav1.OwnerReference` as Go's `json.Marshal` writes it (fields in declaration order).
pub fn owner_reference_json(r: &OwnerReference) -> String {
    let mut s = String::from("{\"apiVersion\":");
    write_go_json_string(&r.api_version, &mut s);
    s.push_str(",\"kind\":");
    write_go_json_string(&r.kind, &mut s);
    s.push_str(",\"name\":");
    write_go_json_string(&r.name, &mut s);
    s.push_str(",\"uid\":");
    write_go_json_string(&r.uid, &mut s);
    if let Some(c) = r.controller {
        s.push_str(&format!(",\"controller\":{c}"));
    }
    if let Some(b) = r.block_owner_deletion {
        s.push_str(&format!(",\"blockOwnerDeletion\":{b}"));
    }
    s.push('}');
    s
}

/// `schema.FromAPIVersionAndKind`: (group, version).
fn parse_group_version(api_version: &str) -> (String, String) {
    if api_version.is_empty() || api_version == "/" {
        return (String::new(), String::new());
    }
    match api_version.matches('/').count() {
        0 => (String::new(), api_version.to_string()),
        1 => {
            let (g, v) = api_version.split_once('/').unwrap_or_default();
            (g.to_string(), v.to_string())
        }
        _ => (String::new(), String::new()),
    }
}

fn validate_owner_reference(r: &OwnerReference, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let (group, version) = parse_group_version(&r.api_version);
    if version.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "apiVersion"),
            r.api_version.as_str(),
            "version must not be empty",
        ));
    }
    if r.kind.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "kind"),
            r.kind.as_str(),
            "must not be empty",
        ));
    }
    if r.name.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "name"),
            r.name.as_str(),
            "must not be empty",
        ));
    }
    if r.uid.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "uid"),
            r.uid.as_str(),
            "must not be empty",
        ));
    }
    // BannedOwners: core/v1 Event.
    if group.is_empty() && version == "v1" && r.kind == "Event" {
        errs.push(
            FieldError::invalid(
                path,
                serde_json::to_value(r).unwrap_or_default(),
                format!(
                    "{group}/{version}, Kind={} is disallowed from being an owner",
                    r.kind
                ),
            )
            .with_value_text(owner_reference_json(r)),
        );
    }
    errs
}

/// `ValidateOwnerReferences`: each reference complete, at most one with `controller: true`.
pub fn validate_owner_references(refs: &[OwnerReference], path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    // The first controller reference, printed (`kind/name`) only for the error.
    let mut first_controller: Option<&OwnerReference> = None;
    for r in refs {
        errs.extend(validate_owner_reference(r, path));
        if r.controller == Some(true) {
            if let Some(first) = first_controller {
                let first_controller = format!("{}/{}", first.kind, first.name);
                let cur = format!("{}/{}", r.kind, r.name);
                let text = format!(
                    "[{}]",
                    refs.iter()
                        .map(owner_reference_json)
                        .collect::<Vec<_>>()
                        .join(",")
                );
                errs.push(
                    FieldError::invalid(
                        path,
                        serde_json::to_value(refs).unwrap_or_default(),
                        format!("Only one reference can have Controller set to true. Found \"true\" in references for {first_controller} and {cur}"),
                    )
                    .with_value_text(text),
                );
            } else {
                first_controller = Some(r);
            }
        }
    }
    errs
}

/// `ValidateFinalizers` (apimachinery): qualified names, and not both `orphan` and
/// `foregroundDeletion`.
pub fn validate_finalizers(finalizers: &[String], path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    for f in finalizers {
        for m in is_qualified_name(f) {
            errs.push(FieldError::invalid(path, f.as_str(), m));
        }
    }
    let has = |x: &str| finalizers.iter().any(|f| f == x);
    if has("orphan") && has("foregroundDeletion") {
        errs.push(FieldError::invalid(
            path,
            Value::from(finalizers.to_vec()),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// core's `validateKubeFinalizerName`: an unqualified finalizer must be a standard one.
fn validate_kube_finalizer_name(f: &str, path: &str) -> Vec<FieldError> {
    let standard = ["kubernetes", "orphan", "foregroundDeletion"];
    if !f.contains('/') && !standard.contains(&f) {
        return vec![FieldError::invalid(
            path,
            f,
            "name is neither a standard finalizer name nor is it fully qualified",
        )];
    }
    vec![]
}

/// `ValidateObjectMeta` as core calls it: `generateName` (as a prefix), `name`, namespace
/// presence and format, generation, labels, annotations, owner references, finalizers.
pub fn validate_object_meta(
    meta: &ObjectMeta,
    namespaced: bool,
    name_fn: NameFn,
    path: &str,
) -> Vec<FieldError> {
    validate_object_meta_since(meta, None, namespaced, name_fn, path)
}

/// [`validate_object_meta`] of an update's new metadata, given the stored `old` metadata:
/// the same errors, without re-checking labels, annotations, owner references or finalizers
/// still shared with the stored version (see `validate_object_meta_common_since`).
pub fn validate_object_meta_since(
    meta: &ObjectMeta,
    old: Option<&ObjectMeta>,
    namespaced: bool,
    name_fn: NameFn,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if !meta.generate_name.is_empty() {
        for m in name_fn(&meta.generate_name, true) {
            errs.push(FieldError::invalid(
                child(path, "generateName"),
                meta.generate_name.as_str(),
                m,
            ));
        }
    }
    if meta.name.is_empty() {
        errs.push(FieldError::required(
            child(path, "name"),
            "name or generateName is required",
        ));
    } else {
        for m in name_fn(&meta.name, false) {
            errs.push(FieldError::invalid(
                child(path, "name"),
                meta.name.as_str(),
                m,
            ));
        }
    }
    validate_object_meta_common_since(meta, old, namespaced, path, &mut errs);
    if !old.is_some_and(|o| Shared::ptr_eq(&o.finalizers, &meta.finalizers)) {
        for (i, f) in meta.finalizers.iter().enumerate() {
            errs.extend(validate_kube_finalizer_name(
                f,
                &idx(&child(path, "finalizers"), i),
            ));
        }
    }
    errs
}

/// What `ValidateObjectMeta` and `ValidateObjectMetaWithOpts` share after the name
/// (`validateObjectMetaAccessorWithOptsCommon`): namespace, generation, labels, annotations,
/// owner references and finalizers.
fn validate_object_meta_common(
    meta: &ObjectMeta,
    namespaced: bool,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    validate_object_meta_common_since(meta, None, namespaced, path, errs);
}

/// [`validate_object_meta_common`] for an update from `old`: labels, annotations, owner
/// references and finalizers still shared with the stored version (not written since) are
/// not checked again — they passed these same checks, which take no options, when stored.
fn validate_object_meta_common_since(
    meta: &ObjectMeta,
    old: Option<&ObjectMeta>,
    namespaced: bool,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let unchanged = |f: &dyn Fn(&ObjectMeta) -> bool| old.is_some_and(f);
    if namespaced {
        if meta.namespace.is_empty() {
            errs.push(FieldError::required(child(path, "namespace"), ""));
        } else {
            for m in name_is_dns_label(&meta.namespace, false) {
                errs.push(FieldError::invalid(
                    child(path, "namespace"),
                    meta.namespace.as_str(),
                    m,
                ));
            }
        }
    } else if !meta.namespace.is_empty() {
        errs.push(FieldError::forbidden(
            child(path, "namespace"),
            "not allowed on this type",
        ));
    }
    if meta.generation < 0 {
        // (The path is built only for the error.)
        errs.extend(validate_nonnegative_field(
            meta.generation,
            &child(path, "generation"),
        ));
    }
    if !unchanged(&|o| Shared::ptr_eq(&o.labels, &meta.labels)) {
        errs.extend(validate_labels(&meta.labels, &child(path, "labels")));
    }
    if !unchanged(&|o| Shared::ptr_eq(&o.annotations, &meta.annotations)) {
        errs.extend(validate_annotations(
            &meta.annotations,
            &child(path, "annotations"),
        ));
    }
    if !unchanged(&|o| Shared::ptr_eq(&o.owner_references, &meta.owner_references)) {
        errs.extend(validate_owner_references(
            &meta.owner_references,
            &child(path, "ownerReferences"),
        ));
    }
    if !unchanged(&|o| Shared::ptr_eq(&o.finalizers, &meta.finalizers)) {
        errs.extend(validate_finalizers(
            &meta.finalizers,
            &child(path, "finalizers"),
        ));
    }
}

/// `ValidateObjectMetaWithOpts` (apimachinery): the name is checked by `name_fn` (given the
/// name's field path and value) after name generation, so `generateName` itself is not
/// validated (a `generateName` without a generated name is an internal error); then the
/// namespace, generation, labels, annotations, owner references and finalizers as
/// `validateObjectMetaAccessorWithOptsCommon` does.
pub fn validate_object_meta_with_opts(
    meta: &ObjectMeta,
    namespaced: bool,
    name_fn: &dyn Fn(&str, &str) -> Vec<FieldError>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let name_path = child(path, "name");
    if !meta.generate_name.is_empty() && meta.name.is_empty() {
        errs.push(FieldError::internal(
            name_path.as_str(),
            format!(
                "generateName was specified ({}), but no name was generated",
                crate::api::errors::go_quote(&meta.generate_name)
            ),
        ));
    }
    if meta.name.is_empty() {
        errs.push(FieldError::required(
            name_path,
            "name or generateName is required",
        ));
    } else {
        errs.extend(name_fn(&name_path, &meta.name));
    }
    validate_object_meta_common(meta, namespaced, path, &mut errs);
    errs
}

fn opt_time(t: &Option<crate::api::Time>) -> Value {
    t.map(|t| Value::String(t.to_rfc3339()))
        .unwrap_or(Value::Null)
}

/// Whether two times differ as the API renders them (whole seconds, RFC 3339).
fn opt_time_ne(a: &Option<crate::api::Time>, b: &Option<crate::api::Time>) -> bool {
    a != b && opt_time(a) != opt_time(b)
}

/// `ValidateObjectMetaUpdate` as core calls it. `resourceVersion` must be set (the API server
/// fills it in for unconditional updates before validating), generation may not decrease,
/// name, namespace, uid, creationTimestamp and the deletion fields are immutable, no finalizer
/// may be added once deletion started.
pub fn validate_object_meta_update(
    new: &ObjectMeta,
    old: &ObjectMeta,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if old.deletion_timestamp.is_some() {
        let old_set: BTreeSet<&String> = old.finalizers.iter().collect();
        let extra: BTreeSet<&String> = new
            .finalizers
            .iter()
            .filter(|f| !old_set.contains(f))
            .collect();
        if !extra.is_empty() {
            let list: Vec<String> = extra.iter().map(|f| go_quote(f)).collect();
            errs.push(FieldError::forbidden(
                child(path, "finalizers"),
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    list.join(", ")
                ),
            ));
        }
    }
    if new.resource_version.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "resourceVersion"),
            "",
            "must be specified for an update",
        ));
    }
    if new.generation < old.generation {
        errs.push(FieldError::invalid(
            child(path, "generation"),
            new.generation,
            "must not be decremented",
        ));
    }
    // Values and paths are built only for a field that changed.
    let mut immutable_field = |changed: bool, field: &str, value: &dyn Fn() -> Value| {
        if changed {
            errs.push(FieldError::invalid(
                child(path, field),
                value(),
                FIELD_IMMUTABLE,
            ));
        }
    };
    immutable_field(new.name != old.name, "name", &|| {
        Value::from(new.name.as_str())
    });
    immutable_field(new.namespace != old.namespace, "namespace", &|| {
        Value::from(new.namespace.as_str())
    });
    immutable_field(new.uid != old.uid, "uid", &|| Value::from(new.uid.as_str()));
    immutable_field(
        opt_time_ne(&new.creation_timestamp, &old.creation_timestamp),
        "creationTimestamp",
        &|| opt_time(&new.creation_timestamp),
    );
    immutable_field(
        opt_time_ne(&new.deletion_timestamp, &old.deletion_timestamp),
        "deletionTimestamp",
        &|| opt_time(&new.deletion_timestamp),
    );
    immutable_field(
        new.deletion_grace_period_seconds != old.deletion_grace_period_seconds,
        "deletionGracePeriodSeconds",
        &|| {
            new.deletion_grace_period_seconds
                .map(Value::from)
                .unwrap_or(Value::Null)
        },
    );
    errs.extend(validate_labels(&new.labels, &child(path, "labels")));
    errs.extend(validate_annotations(
        &new.annotations,
        &child(path, "annotations"),
    ));
    errs.extend(validate_owner_references(
        &new.owner_references,
        &child(path, "ownerReferences"),
    ));
    for (i, f) in new.finalizers.iter().enumerate() {
        errs.extend(validate_kube_finalizer_name(
            f,
            &idx(&child(path, "finalizers"), i),
        ));
    }
    errs
}

/// `ValidateLabelSelector` with `AllowInvalidLabelValueInSelector: false` (the strict mode
/// ReplicaSet, Deployment, StatefulSet and DaemonSet use).
pub fn validate_label_selector(sel: &LabelSelector, path: &str) -> Vec<FieldError> {
    validate_label_selector_with_options(Some(sel), false, path)
}

/// `unversionedvalidation.ValidateLabelSelector` with its `AllowInvalidLabelValueInSelector`
/// option (values are not checked when it is set). `None` (a nil selector) is valid.
pub fn validate_label_selector_with_options(
    sel: Option<&LabelSelector>,
    allow_invalid_label_value_in_selector: bool,
    path: &str,
) -> Vec<FieldError> {
    let Some(sel) = sel else {
        return vec![];
    };
    let mut errs = vec![];
    if let Some(ml) = &sel.match_labels {
        errs.extend(validate_labels(ml, &child(path, "matchLabels")));
    }
    for (i, e) in sel.match_expressions.iter().flatten().enumerate() {
        let p = idx(&child(path, "matchExpressions"), i);
        let values = e.values.clone().unwrap_or_default();
        match e.operator.as_str() {
            "In" | "NotIn" => {
                if values.is_empty() {
                    errs.push(FieldError::required(
                        child(&p, "values"),
                        "must be specified when `operator` is 'In' or 'NotIn'",
                    ));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !values.is_empty() {
                    errs.push(FieldError::forbidden(
                        child(&p, "values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            op => errs.push(FieldError::invalid(
                child(&p, "operator"),
                op,
                "not a valid selector operator",
            )),
        }
        errs.extend(validate_label_name(&e.key, &child(&p, "key")));
        if !allow_invalid_label_value_in_selector {
            for (vi, v) in values.iter().enumerate() {
                for m in is_valid_label_value(v) {
                    errs.push(FieldError::invalid(
                        idx(&child(&p, "values"), vi),
                        v.as_str(),
                        m,
                    ));
                }
            }
        }
    }
    errs
}

/// `labels.NewRequirement`'s checks, as the aggregated message `LabelSelectorAsSelector` returns.
fn check_requirement(key_: &str, op: &str, vals: &[String]) -> Result<(), String> {
    let mut msgs: Vec<String> = vec![];
    for m in is_qualified_name(key_) {
        msgs.push(format!("key: Invalid value: {}: {m}", go_quote(key_)));
    }
    let vals_json = || crate::api::errors::go_json(&Value::from(vals.to_vec()));
    match op {
        "in" | "notin" if vals.is_empty() => msgs.push(format!(
            "values: Invalid value: {}: for 'in', 'notin' operators, values set can't be empty",
            vals_json()
        )),
        "=" if vals.len() != 1 => msgs.push(format!(
            "values: Invalid value: {}: exact-match compatibility requires one single value",
            vals_json()
        )),
        "exists" | "!" if !vals.is_empty() => msgs.push(format!(
            "values: Invalid value: {}: values set must be empty for exists and does not exist",
            vals_json()
        )),
        _ => {}
    }
    for (i, v) in vals.iter().enumerate() {
        let errs = is_valid_label_value(v);
        if !errs.is_empty() {
            msgs.push(format!(
                "values[{i}]: Invalid value: {}: {}",
                go_quote(v),
                errs.join("; ")
            ));
        }
    }
    match msgs.len() {
        0 => Ok(()),
        1 => Err(msgs.remove(0)),
        _ => Err(format!("[{}]", msgs.join(", "))),
    }
}

/// `metav1.LabelSelectorAsSelector` with upstream's requirement validation: `None` selects
/// nothing, an empty selector everything; an invalid key, value or operator is an error.
///
/// # Errors
/// The aggregated requirement error (its text is not part of any API message).
pub fn label_selector_as_selector(sel: Option<&LabelSelector>) -> Result<Selector, String> {
    let Some(sel) = sel else {
        return Ok(Selector::Nothing);
    };
    if sel.is_empty() {
        return Ok(Selector::everything());
    }
    let mut reqs = vec![];
    for (k, v) in sel.match_labels.iter().flatten() {
        check_requirement(k, "=", std::slice::from_ref(v))?;
        reqs.push(Requirement::In(k.clone(), vec![v.clone()]));
    }
    for e in sel.match_expressions.iter().flatten() {
        let vals = e.values.clone().unwrap_or_default();
        let (op, r) = match e.operator.as_str() {
            "In" => ("in", Requirement::In(e.key.clone(), vals.clone())),
            "NotIn" => ("notin", Requirement::NotIn(e.key.clone(), vals.clone())),
            "Exists" => ("exists", Requirement::Exists(e.key.clone())),
            "DoesNotExist" => ("!", Requirement::DoesNotExist(e.key.clone())),
            op => {
                return Err(format!(
                    "{} is not a valid label selector operator",
                    go_quote(op)
                ))
            }
        };
        check_requirement(&e.key, op, &vals)?;
        reqs.push(r);
    }
    Ok(Selector::Requirements(reqs))
}

/// The JSON Go prints for a `*metav1.LabelSelector` (matchLabels, then matchExpressions with
/// key, operator, values).
pub fn label_selector_json(sel: &LabelSelector) -> String {
    let mut s = String::from("{");
    let mut first = true;
    if let Some(ml) = sel.match_labels.as_ref().filter(|m| !m.is_empty()) {
        s.push_str("\"matchLabels\":");
        s.push_str(&crate::api::errors::go_json(
            &serde_json::to_value(ml).unwrap_or_default(),
        ));
        first = false;
    }
    if let Some(me) = sel.match_expressions.as_ref().filter(|m| !m.is_empty()) {
        if !first {
            s.push(',');
        }
        s.push_str("\"matchExpressions\":[");
        for (i, e) in me.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"key\":");
            write_go_json_string(&e.key, &mut s);
            s.push_str(",\"operator\":");
            write_go_json_string(&e.operator, &mut s);
            if let Some(v) = e.values.as_ref().filter(|v| !v.is_empty()) {
                s.push_str(",\"values\":");
                s.push_str(&crate::api::errors::go_json(&Value::from(v.clone())));
            }
            s.push('}');
        }
        s.push(']');
    }
    s.push('}');
    s
}

/// A `field.Invalid` whose bad value is a label selector.
pub fn invalid_selector(path: &str, sel: &LabelSelector, detail: &str) -> FieldError {
    FieldError::invalid(path, serde_json::to_value(sel).unwrap_or_default(), detail)
        .with_value_text(label_selector_json(sel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::meta::LabelSelectorRequirement;
    use crate::api::Time;

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn strs(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    fn ok_name(_: &str, _: bool) -> Vec<String> {
        vec![]
    }

    // Port of TestValidateLabels (apimachinery/pkg/apis/meta/v1/validation/validation_test.go).
    #[test]
    fn labels_rows() {
        for (k, v) in [
            ("simple", "bar"),
            ("now-with-dashes", "bar"),
            ("1-starts-with-num", "bar"),
            ("1234", "bar"),
            ("simple/simple", "bar"),
            ("now-with-dashes/simple", "bar"),
            ("now-with-dashes/now-with-dashes", "bar"),
            ("now.with.dots/simple", "bar"),
            ("now-with.dashes-and.dots/simple", "bar"),
            ("1-num.2-num/3-num", "bar"),
            ("1234/5678", "bar"),
            ("1.2.3.4/5678", "bar"),
            ("UpperCaseAreOK123", "bar"),
            ("goodvalue", "123_-.BaR"),
        ] {
            assert!(
                validate_labels(&labels(&[(k, v)]), "field").is_empty(),
                "{k}"
            );
        }
        let long = "a".repeat(254);
        for (k, want) in [
            ("nospecialchars^=@", "name part must consist of"),
            ("cantendwithadash-", "name part must consist of"),
            ("only/one/slash", "a valid label key must consist of"),
            (long.as_str(), "must be no more than"),
        ] {
            let errs = validate_labels(&labels(&[(k, "bar")]), "field");
            assert_eq!(errs.len(), 1, "{k}");
            assert!(errs[0].detail.contains(want), "{}", errs[0].detail);
        }
        let long_v = "a".repeat(64);
        for (v, want) in [
            (long_v.as_str(), "must be no more than"),
            (
                "some\\bad\\value",
                "a valid label must be an empty string or consist of",
            ),
            (
                "bad,value",
                "a valid label must be an empty string or consist of",
            ),
            (
                "?#$notsogood",
                "a valid label must be an empty string or consist of",
            ),
        ] {
            let errs = validate_labels(&labels(&[("k", v)]), "field");
            assert_eq!(errs.len(), 1, "{v}");
            assert!(errs[0].detail.contains(want), "{}", errs[0].detail);
        }
        assert_eq!(
            strs(&validate_labels(&labels(&[("k", "bad,value")]), "metadata.labels")),
            vec!["metadata.labels: Invalid value: \"bad,value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
        );
    }

    // Port of TestValidateAnnotations (apimachinery/pkg/api/validation/objectmeta_test.go).
    #[test]
    fn annotations_rows() {
        let half = TOTAL_ANNOTATION_SIZE_LIMIT_B / 2;
        let ok: Vec<BTreeMap<String, String>> = vec![
            labels(&[("simple", "bar")]),
            labels(&[("1.2.3.4/5678", "bar")]),
            labels(&[("UpperCase123", "bar")]),
            labels(&[("a", &"b".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_B - 1))]),
            labels(&[("a", &"b".repeat(half - 1)), ("c", &"d".repeat(half - 1))]),
        ];
        for a in &ok {
            assert!(validate_annotations(a, "field").is_empty());
        }
        for (k, want) in [
            ("nospecialchars^=@", "name part must consist of"),
            ("cantendwithadash-", "name part must consist of"),
            ("only/one/slash", "a valid label key must consist of"),
        ] {
            let errs = validate_annotations(&labels(&[(k, "bar")]), "field");
            assert_eq!(errs.len(), 1);
            assert!(errs[0].detail.contains(want));
        }
        for a in [
            labels(&[("a", &"b".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_B))]),
            labels(&[("a", &"b".repeat(half)), ("c", &"d".repeat(half))]),
        ] {
            assert_eq!(
                strs(&validate_annotations(&a, "metadata.annotations")),
                vec!["metadata.annotations: Too long: may not be more than 262144 bytes"]
            );
        }
        // The key is checked lower-cased but printed as written.
        assert!(validate_annotations(&labels(&[("Example.COM/Key", "v")]), "f").is_empty());
    }

    // Port of TestValidateObjectMetaNamespaces and TestValidateObjectMetaCustomName.
    #[test]
    fn object_meta_namespace_and_names() {
        let m = ObjectMeta {
            name: "test".into(),
            namespace: "foo.bar".into(),
            ..Default::default()
        };
        let errs = validate_object_meta(&m, true, ok_name, "field");
        assert_eq!(errs.len(), 1);
        assert!(errs[0].to_string().contains("Invalid value: \"foo.bar\""));
        let m = ObjectMeta {
            name: "test".into(),
            namespace: format!("{}A", "a".repeat(63)),
            ..Default::default()
        };
        assert_eq!(validate_object_meta(&m, true, ok_name, "field").len(), 2);
        let m = ObjectMeta {
            name: "test".into(),
            namespace: "x".into(),
            ..Default::default()
        };
        assert_eq!(
            strs(&validate_object_meta(&m, false, ok_name, "metadata")),
            vec!["metadata.namespace: Forbidden: not allowed on this type"]
        );
        fn custom(s: &str, _: bool) -> Vec<String> {
            if s == "test" {
                vec![]
            } else {
                vec!["name-gen".into()]
            }
        }
        let m = ObjectMeta {
            name: "test".into(),
            generate_name: "foo".into(),
            ..Default::default()
        };
        assert_eq!(
            strs(&validate_object_meta(&m, false, custom, "field")),
            vec!["field.generateName: Invalid value: \"foo\": name-gen"]
        );
    }

    fn oref(kind: &str, uid: &str, controller: Option<bool>) -> OwnerReference {
        OwnerReference {
            api_version: "customresourceVersion".into(),
            kind: kind.into(),
            name: "name".into(),
            uid: uid.into(),
            controller,
            block_owner_deletion: None,
        }
    }

    // Port of TestValidateObjectMetaOwnerReferences.
    #[test]
    fn owner_references_rows() {
        assert!(
            validate_owner_references(&[oref("customresourceKind", "1", None)], "f").is_empty()
        );
        let event = OwnerReference {
            api_version: "v1".into(),
            kind: "Event".into(),
            name: "name".into(),
            uid: "1".into(),
            ..Default::default()
        };
        assert_eq!(
            strs(&validate_owner_references(&[event], "metadata.ownerReferences")),
            vec!["metadata.ownerReferences: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"name\",\"uid\":\"1\"}: /v1, Kind=Event is disallowed from being an owner"]
        );
        let one = [
            oref("customresourceKind", "1", Some(false)),
            oref("customresourceKind", "2", Some(true)),
            oref("customresourceKind", "3", Some(false)),
            oref("customresourceKind", "4", None),
        ];
        assert!(validate_owner_references(&one, "f").is_empty());
        let two = [
            oref("customresourceKind1", "1", Some(false)),
            oref("customresourceKind2", "2", Some(true)),
            oref("customresourceKind3", "3", Some(true)),
        ];
        assert_eq!(
            strs(&validate_owner_references(&two, "metadata.ownerReferences")),
            vec!["metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"customresourceVersion\",\"kind\":\"customresourceKind1\",\"name\":\"name\",\"uid\":\"1\",\"controller\":false},{\"apiVersion\":\"customresourceVersion\",\"kind\":\"customresourceKind2\",\"name\":\"name\",\"uid\":\"2\",\"controller\":true},{\"apiVersion\":\"customresourceVersion\",\"kind\":\"customresourceKind3\",\"name\":\"name\",\"uid\":\"3\",\"controller\":true}]: Only one reference can have Controller set to true. Found \"true\" in references for customresourceKind2/name and customresourceKind3/name"]
        );
        let empty = OwnerReference::default();
        assert_eq!(
            strs(&validate_owner_references(&[empty], "metadata.ownerReferences")),
            vec![
                "metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
                "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty",
                "metadata.ownerReferences.name: Invalid value: \"\": must not be empty",
                "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty",
            ]
        );
    }

    // Port of TestValidateFinalizersPreventConflictingFinalizers and core's finalizer rule.
    #[test]
    fn finalizers_rows() {
        let m = ObjectMeta {
            name: "test".into(),
            finalizers: vec!["orphan".into(), "foregroundDeletion".into()].into(),
            ..Default::default()
        };
        assert_eq!(
            strs(&validate_object_meta(&m, false, ok_name, "metadata")),
            vec!["metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set"]
        );
        let m = ObjectMeta {
            name: "test".into(),
            finalizers: vec!["custom".into(), "example.com/ok".into(), "bad/".into()].into(),
            ..Default::default()
        };
        assert_eq!(
            strs(&validate_object_meta(&m, false, ok_name, "metadata")),
            vec![
                "metadata.finalizers: Invalid value: \"bad/\": name part must be non-empty".to_string(),
                "metadata.finalizers: Invalid value: \"bad/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string(),
                "metadata.finalizers[0]: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified".to_string(),
            ]
        );
    }

    fn rv(m: ObjectMeta) -> ObjectMeta {
        ObjectMeta {
            name: "test".into(),
            resource_version: "1".into(),
            ..m
        }
    }

    // Port of TestValidateFinalizersUpdate.
    #[test]
    fn finalizers_update_rows() {
        let deleting = Some(Time::from_unix_secs(0));
        let meta = |f: &[&str], del: Option<Time>| {
            rv(ObjectMeta {
                deletion_timestamp: del,
                finalizers: f.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            })
        };
        let e = validate_object_meta_update(
            &meta(&["x/a", "y/b"], deleting),
            &meta(&["x/a"], deleting),
            "field",
        );
        assert_eq!(
            strs(&e),
            vec!["field.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"y/b\"}"]
        );
        let e = validate_object_meta_update(
            &meta(&["x/b"], deleting),
            &meta(&["x/a"], deleting),
            "field",
        );
        assert!(e[0].to_string().contains("x/b"));
        assert!(validate_object_meta_update(
            &meta(&["x/a"], deleting),
            &meta(&["x/a", "y/b"], deleting),
            "field"
        )
        .is_empty());
        assert!(validate_object_meta_update(
            &meta(&["x/a", "y/b"], None),
            &meta(&["x/a"], None),
            "field"
        )
        .is_empty());
    }

    // Port of TestValidateObjectMetaUpdatePreventsDeletionFieldMutation, TestObjectMetaGenerationUpdate
    // and TestValidateObjectMetaUpdateIgnoresCreationTimestamp.
    #[test]
    fn meta_update_immutables() {
        let now = Some(Time::from_unix_secs(1000));
        let later = Some(Time::from_unix_secs(2000));
        let cases: Vec<(ObjectMeta, ObjectMeta, Vec<&str>)> = vec![
            (rv(ObjectMeta::default()), rv(ObjectMeta::default()), vec![]),
            (
                rv(ObjectMeta {
                    deletion_timestamp: now,
                    deletion_grace_period_seconds: Some(30),
                    ..Default::default()
                }),
                rv(ObjectMeta {
                    deletion_timestamp: now,
                    deletion_grace_period_seconds: Some(30),
                    ..Default::default()
                }),
                vec![],
            ),
            (
                rv(ObjectMeta::default()),
                rv(ObjectMeta {
                    deletion_timestamp: now,
                    ..Default::default()
                }),
                vec!["field.deletionTimestamp: Invalid value: \"1970-01-01T00:16:40Z\": field is immutable"],
            ),
            (
                rv(ObjectMeta {
                    deletion_timestamp: now,
                    ..Default::default()
                }),
                rv(ObjectMeta::default()),
                vec!["field.deletionTimestamp: Invalid value: null: field is immutable"],
            ),
            (
                rv(ObjectMeta {
                    deletion_timestamp: now,
                    ..Default::default()
                }),
                rv(ObjectMeta {
                    deletion_timestamp: later,
                    ..Default::default()
                }),
                vec!["field.deletionTimestamp: Invalid value: \"1970-01-01T00:33:20Z\": field is immutable"],
            ),
            (
                rv(ObjectMeta::default()),
                rv(ObjectMeta {
                    deletion_grace_period_seconds: Some(30),
                    ..Default::default()
                }),
                vec!["field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"],
            ),
            (
                rv(ObjectMeta {
                    deletion_grace_period_seconds: Some(30),
                    ..Default::default()
                }),
                rv(ObjectMeta::default()),
                vec!["field.deletionGracePeriodSeconds: Invalid value: null: field is immutable"],
            ),
            (
                rv(ObjectMeta {
                    generation: 5,
                    ..Default::default()
                }),
                rv(ObjectMeta {
                    generation: 4,
                    ..Default::default()
                }),
                vec!["field.generation: Invalid value: 4: must not be decremented"],
            ),
            (
                rv(ObjectMeta {
                    creation_timestamp: Some(Time::from_unix_secs(10)),
                    ..Default::default()
                }),
                rv(ObjectMeta::default()),
                vec!["field.creationTimestamp: Invalid value: null: field is immutable"],
            ),
        ];
        for (old, new, want) in cases {
            assert_eq!(
                strs(&validate_object_meta_update(&new, &old, "field")),
                want
            );
        }
        let old = rv(ObjectMeta {
            namespace: "default".into(),
            uid: "u1".into(),
            ..Default::default()
        });
        let new = ObjectMeta {
            name: "other".into(),
            namespace: "kube-system".into(),
            uid: "u2".into(),
            resource_version: String::new(),
            ..Default::default()
        };
        assert_eq!(
            strs(&validate_object_meta_update(&new, &old, "metadata")),
            vec![
                "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
                "metadata.name: Invalid value: \"other\": field is immutable",
                "metadata.namespace: Invalid value: \"kube-system\": field is immutable",
                "metadata.uid: Invalid value: \"u2\": field is immutable",
            ]
        );
    }

    fn req(k: &str, op: &str, vals: Option<&[&str]>) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: k.into(),
            operator: op.into(),
            values: vals.map(|v| v.iter().map(|s| s.to_string()).collect()),
        }
    }

    // Port of TestLabelSelectorMatchExpression plus the operator/values rules of
    // ValidateLabelSelectorRequirement.
    #[test]
    fn label_selector_rows() {
        let sel = |r: LabelSelectorRequirement| LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![r]),
        };
        assert!(
            validate_label_selector(&sel(req("key", "In", Some(&["value"]))), "labelSelector")
                .is_empty()
        );
        let cases = [
            (
                req("-key", "In", Some(&["value"])),
                "labelSelector.matchExpressions[0].key: Invalid value: \"-key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ),
            (
                req("key", "abc", Some(&["value"])),
                "labelSelector.matchExpressions[0].operator: Invalid value: \"abc\": not a valid selector operator",
            ),
            (
                req("key", "In", Some(&["-value"])),
                "labelSelector.matchExpressions[0].values[0]: Invalid value: \"-value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ),
            (
                req("key", "NotIn", None),
                "labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
            ),
            (
                req("key", "Exists", Some(&["x"])),
                "labelSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
        ];
        for (r, want) in cases {
            let s = sel(r);
            assert_eq!(
                strs(&validate_label_selector(&s, "labelSelector")),
                vec![want]
            );
            // Every selector that fails validation also fails conversion.
            assert!(label_selector_as_selector(Some(&s)).is_err());
        }
    }

    #[test]
    fn selector_conversion() {
        assert_eq!(label_selector_as_selector(None), Ok(Selector::Nothing));
        assert!(label_selector_as_selector(Some(&LabelSelector::default()))
            .unwrap()
            .is_empty());
        let s = LabelSelector {
            match_labels: Some(labels(&[("app", "web")])),
            match_expressions: Some(vec![req("tier", "NotIn", Some(&["db"]))]),
        };
        let sel = label_selector_as_selector(Some(&s)).unwrap();
        assert!(sel.matches(&labels(&[("app", "web")])));
        assert!(!sel.matches(&labels(&[("app", "web"), ("tier", "db")])));
        let bad =
            LabelSelector::from_labels(&labels(&[("NoUppercaseOrSpecialCharsLike=Equals", "b")]));
        assert!(label_selector_as_selector(Some(&bad)).is_err());
        assert_eq!(
            label_selector_json(&s),
            "{\"matchLabels\":{\"app\":\"web\"},\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"NotIn\",\"values\":[\"db\"]}]}"
        );
        assert_eq!(label_selector_json(&LabelSelector::default()), "{}");
    }

    /// An update's metadata: maps written since the stored version are checked as on create;
    /// maps still shared with it are not checked again.
    #[test]
    fn object_meta_since_checks_only_what_was_written() {
        let stored = ObjectMeta {
            name: "p".into(),
            namespace: "default".into(),
            labels: Labels::from([("app".to_string(), "web".to_string())]).into(),
            finalizers: vec!["batch.kubernetes.io/job-tracking".to_string()].into(),
            ..Default::default()
        };
        let name_fn: NameFn = super::super::names::name_is_dns_subdomain;
        // Same maps: no errors, as on create.
        let update = stored.clone();
        assert!(
            validate_object_meta_since(&update, Some(&stored), true, name_fn, "metadata")
                .is_empty()
        );
        // A label written since is validated, with create's message.
        let mut bad = stored.clone();
        bad.labels.insert("app".into(), "-web".into());
        let since = validate_object_meta_since(&bad, Some(&stored), true, name_fn, "metadata");
        let full = validate_object_meta(&bad, true, name_fn, "metadata");
        assert_eq!(since.len(), 1);
        assert_eq!(since[0].to_string(), full[0].to_string());
        assert!(since[0]
            .to_string()
            .starts_with("metadata.labels: Invalid value: \"-web\""));
        // A finalizer list written since is validated too.
        let mut fin = stored.clone();
        fin.finalizers.push("not a finalizer".into());
        let since = validate_object_meta_since(&fin, Some(&stored), true, name_fn, "metadata");
        assert_eq!(
            since.iter().map(ToString::to_string).collect::<Vec<_>>(),
            validate_object_meta(&fin, true, name_fn, "metadata")
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
        assert!(!since.is_empty());
    }
}
