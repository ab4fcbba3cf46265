//! Node validation (`ValidateNode`, `ValidateNodeUpdate`, `validateNodeTaints`).

use super::ip::{cidr_is_ipv6, is_valid_cidr_for_legacy_field};
use super::meta::{
    validate_label_name, validate_object_meta, validate_object_meta_update, IS_NEGATIVE,
};
use super::names::{is_valid_label_value, name_is_dns_subdomain};
use super::pod::validate_taint_effect;
use super::quantity::parse_quantity;
use super::{child, idx};
use crate::api::core::{Node, Quantity, Taint};
use crate::api::errors::{write_go_json_string, FieldError};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Internal `core.Taint` as Go's `json.Marshal` prints it (no JSON tags: Go field names).
fn taint_go_json(t: &Taint) -> String {
    let mut s = String::from("{\"Key\":");
    write_go_json_string(&t.key, &mut s);
    s.push_str(",\"Value\":");
    write_go_json_string(&t.value, &mut s);
    s.push_str(",\"Effect\":");
    write_go_json_string(&t.effect, &mut s);
    s.push_str(",\"TimeAdded\":");
    match t.time_added {
        Some(ts) => write_go_json_string(&ts.to_rfc3339(), &mut s),
        None => s.push_str("null"),
    }
    s.push('}');
    s
}

/// `validateNodeTaints`: key a qualified name, value a label value, effect one of NoSchedule,
/// PreferNoSchedule, NoExecute, and each (key, effect) pair unique.
pub fn validate_node_taints(taints: &[Taint], path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let mut unique: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (i, t) in taints.iter().enumerate() {
        let p = idx(path, i);
        errs.extend(validate_label_name(&t.key, &child(&p, "key")));
        let msgs = is_valid_label_value(&t.value);
        if !msgs.is_empty() {
            errs.push(FieldError::invalid(
                child(&p, "value"),
                t.value.as_str(),
                msgs.join(";"),
            ));
        }
        errs.extend(validate_taint_effect(
            &t.effect,
            false,
            &child(&p, "effect"),
        ));
        if unique
            .get(t.effect.as_str())
            .is_some_and(|s| s.contains(t.key.as_str()))
        {
            errs.push(
                FieldError::duplicate(p.as_str(), serde_json::to_value(t).unwrap_or_default())
                    .with_value_text(taint_go_json(t))
                    .with_detail("taints must be unique by key and effect pair"),
            );
            continue;
        }
        unique.entry(&t.effect).or_default().insert(&t.key);
    }
    errs
}

/// `ValidateResourceQuantityValue` for node capacity/allocatable (`status.capacity.<name>`).
fn validate_resource_list(list: &BTreeMap<String, Quantity>, path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    for (name, q) in list {
        let p = child(path, name);
        match parse_quantity(q.0.trim()) {
            Ok(v) => {
                if v.nanos < 0 {
                    errs.push(FieldError::invalid(p.as_str(), v.canonical(), IS_NEGATIVE));
                }
                if super::pod::is_integer_resource_name(name) && v.milli_value() % 1000 != 0 {
                    errs.push(FieldError::invalid(
                        p.as_str(),
                        v.canonical(),
                        "must be an integer",
                    ));
                }
            }
            Err(m) => errs.push(FieldError::invalid(p, q.0.as_str(), m)),
        }
    }
    errs
}

/// `ValidateNodeResources`.
fn validate_node_resources(node: &Node) -> Vec<FieldError> {
    let mut errs = validate_resource_list(&node.status.capacity, "status.capacity");
    errs.extend(validate_resource_list(
        &node.status.allocatable,
        "status.allocatable",
    ));
    errs
}

/// `core.TaintsAnnotationKey`.
pub const TAINTS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/taints";
/// `core.PreferAvoidPodsAnnotationKey`.
pub const PREFER_AVOID_PODS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/preferAvoidPods";

/// `ValidateNodeSpecificAnnotations`: taints serialized in the taints annotation are valid
/// taints; each preferAvoidPods entry names a controller. An annotation that is not valid JSON
/// is reported with the decoder's message (worded by serde, not by Go's encoding/json).
pub fn validate_node_specific_annotations(
    annotations: &BTreeMap<String, String>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if let Some(raw) = annotations.get(TAINTS_ANNOTATION).filter(|v| !v.is_empty()) {
        match serde_json::from_str::<Vec<Taint>>(raw) {
            Err(e) => errs.push(FieldError::invalid(path, TAINTS_ANNOTATION, e.to_string())),
            Ok(taints) if !taints.is_empty() => {
                errs.extend(validate_node_taints(
                    &taints,
                    &child(path, TAINTS_ANNOTATION),
                ));
            }
            Ok(_) => {}
        }
    }
    if let Some(raw) = annotations
        .get(PREFER_AVOID_PODS_ANNOTATION)
        .filter(|v| !v.is_empty())
    {
        match serde_json::from_str::<Value>(raw) {
            Err(e) => errs.push(FieldError::invalid(
                child(path, "AvoidPods"),
                PREFER_AVOID_PODS_ANNOTATION,
                e.to_string(),
            )),
            Ok(v) => {
                let entries = v
                    .get("preferAvoidPods")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for (i, entry) in entries.iter().enumerate() {
                    // `validatePreferAvoidPodsEntry`.
                    let p = idx(&child(path, PREFER_AVOID_PODS_ANNOTATION), i);
                    match entry
                        .get("podSignature")
                        .and_then(|s| s.get("podController"))
                        .filter(|c| !c.is_null())
                    {
                        None => errs.push(FieldError::required(child(&p, "PodSignature"), "")),
                        Some(c) => {
                            // Upstream dereferences `controller` (a missing one panics there).
                            if c.get("controller").and_then(Value::as_bool) != Some(true) {
                                errs.push(FieldError::invalid(
                                    child(&p, "PodSignature.PodController.Controller"),
                                    false,
                                    "must point to a controller",
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    errs
}

/// `ValidateNode`. Upstream reports spec taints under `metadata.taints` (its field path starts
/// from `metadata`); kept as is.
pub fn validate_node(node: &Node) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&node.metadata, false, name_is_dns_subdomain, "metadata");
    errs.extend(validate_node_specific_annotations(
        &node.metadata.annotations,
        "metadata.annotations",
    ));
    if !node.spec.taints.is_empty() {
        errs.extend(validate_node_taints(&node.spec.taints, "metadata.taints"));
    }
    errs.extend(validate_node_resources(node));
    let cidrs = string_list(node.spec.extra.get("podCIDRs"));
    if !cidrs.is_empty() {
        // Upstream checks these with IsValidCIDRForLegacyField; kubeplay takes the non-strict
        // parse (StrictIPCIDRValidation off).
        for (i, c) in cidrs.iter().enumerate() {
            errs.extend(is_valid_cidr_for_legacy_field(
                &idx("spec.podCIDRs", i),
                c,
                false,
                &[],
            ));
        }
        if cidrs.len() > 1 {
            // `netutils.IsDualStackCIDRStrings` (skipped, as its error text is not modelled,
            // when an entry does not parse: that entry is reported above).
            let families: Option<Vec<bool>> = cidrs.iter().map(|c| cidr_is_ipv6(c)).collect();
            if let Some(f) = families {
                let dual = f.iter().any(|&v6| v6) && f.iter().any(|&v6| !v6);
                if !dual || cidrs.len() > 2 {
                    errs.push(FieldError::invalid(
                        "spec.podCIDRs",
                        Value::from(cidrs.clone()),
                        "may specify no more than one CIDR for each IP family",
                    ));
                }
            }
            let mut seen = BTreeSet::new();
            for (i, c) in cidrs.iter().enumerate() {
                if !seen.insert(c.as_str()) {
                    errs.push(FieldError::duplicate(idx("spec.podCIDRs", i), c.as_str()));
                }
            }
        }
    }
    errs
}

fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// `ValidateNodeUpdate`: metadata rules, resources, no duplicate addresses, podCIDRs and
/// providerID fixed once set, externalID fixed, taints valid.
pub fn validate_node_update(new: &Node, old: &Node) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_node_specific_annotations(
        &new.metadata.annotations,
        "metadata.annotations",
    ));
    errs.extend(validate_node_resources(new));
    let mut seen = BTreeSet::new();
    if let Some(addrs) = new.status.extra.get("addresses").and_then(Value::as_array) {
        for (i, a) in addrs.iter().enumerate() {
            let t = a.get("type").and_then(Value::as_str).unwrap_or("");
            let ad = a.get("address").and_then(Value::as_str).unwrap_or("");
            if !seen.insert((t.to_string(), ad.to_string())) {
                let mut text = String::from("{\"Type\":");
                write_go_json_string(t, &mut text);
                text.push_str(",\"Address\":");
                write_go_json_string(ad, &mut text);
                text.push('}');
                errs.push(
                    FieldError::duplicate(idx("status.addresses", i), a.clone())
                        .with_value_text(text),
                );
            }
        }
    }
    let old_cidrs = string_list(old.spec.extra.get("podCIDRs"));
    if !old_cidrs.is_empty() {
        let new_cidrs = string_list(new.spec.extra.get("podCIDRs"));
        let msg = "node updates may not change podCIDR except from \"\" to valid";
        if old_cidrs.len() != new_cidrs.len() {
            errs.push(FieldError::forbidden("spec.podCIDRs", msg));
        } else {
            for (o, n) in old_cidrs.iter().zip(&new_cidrs) {
                if o != n {
                    errs.push(FieldError::forbidden("spec.podCIDRs", msg));
                }
            }
        }
    }
    let provider = |n: &Node| {
        n.spec
            .extra
            .get("providerID")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if !provider(old).is_empty() && provider(old) != provider(new) {
        errs.push(FieldError::forbidden(
            "spec.providerID",
            "node updates may not change providerID except from \"\" to valid",
        ));
    }
    if !new.spec.taints.is_empty() {
        errs.extend(validate_node_taints(&new.spec.taints, "metadata.taints"));
    }
    if new.spec.extra.get("externalID") != old.spec.extra.get("externalID") {
        errs.push(FieldError::forbidden(
            "spec.externalID",
            "may not be updated",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::core::NodeSpec;
    use crate::api::ObjectMeta;
    use crate::test_fixtures::taint;

    fn node(taints: Vec<Taint>) -> Node {
        Node {
            metadata: ObjectMeta {
                name: "node-1".into(),
                ..Default::default()
            },
            spec: NodeSpec {
                taints,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn strs(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    // Port of the taint rows of TestValidateNode (pkg/apis/core/validation/validation_test.go):
    // "invalid-taint-key", "missing-taint-effect", "invalid-taint-effect", "duplicated-taints-with-same-key-effect",
    // "invalid-taint-value".
    #[test]
    fn taint_rows() {
        assert!(validate_node(&node(vec![
            taint("GPU", "true", "NoSchedule"),
            taint("dedicated", "foo", "NoExecute"),
            taint("dedicated", "bar", "NoSchedule"),
        ]))
        .is_empty());
        let cases = [
            (
                vec![taint("NoUppercaseOrSpecialCharsLike=Equals", "bar", "NoSchedule")],
                vec!["metadata.taints[0].key: Invalid value: \"NoUppercaseOrSpecialCharsLike=Equals\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"],
            ),
            (
                vec![taint("dedicated", "special-user-3", "")],
                vec!["metadata.taints[0].effect: Required value"],
            ),
            (
                vec![taint("dedicated", "special-user-3", "NoScheduleNoAdmit")],
                vec!["metadata.taints[0].effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""],
            ),
            (
                vec![
                    taint("dedicated", "special-user-1", "NoSchedule"),
                    taint("dedicated", "special-user-2", "NoSchedule"),
                ],
                vec!["metadata.taints[1]: Duplicate value: {\"Key\":\"dedicated\",\"Value\":\"special-user-2\",\"Effect\":\"NoSchedule\",\"TimeAdded\":null}: taints must be unique by key and effect pair"],
            ),
            (
                vec![taint("dedicated", "some\\bad\\value", "NoSchedule")],
                vec!["metadata.taints[0].value: Invalid value: \"some\\\\bad\\\\value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
            ),
        ];
        for (taints, want) in cases {
            assert_eq!(strs(&validate_node(&node(taints))), want);
        }
    }

    // Port of TestValidateNode name/namespace rows and ValidateNodeResources.
    #[test]
    fn node_meta_and_resources() {
        let mut n = node(vec![]);
        n.metadata.name = "Node_1".into();
        n.metadata.namespace = "default".into();
        n.status
            .capacity
            .insert("cpu".into(), Quantity("-1".into()));
        n.status
            .capacity
            .insert("example.com/gpu".into(), Quantity("500m".into()));
        n.status
            .allocatable
            .insert("memory".into(), Quantity("lots".into()));
        assert_eq!(
            strs(&validate_node(&n)),
            vec![
                "metadata.name: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "metadata.namespace: Forbidden: not allowed on this type",
                "status.capacity.cpu: Invalid value: \"-1\": must be greater than or equal to 0",
                "status.capacity.example.com/gpu: Invalid value: \"500m\": must be an integer",
                "status.allocatable.memory: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ]
        );
    }

    // Port of TestValidateNodeUpdate rows (podCIDRs, providerID, taints).
    #[test]
    fn node_update_rows() {
        let mut old = node(vec![]);
        old.metadata.resource_version = "1".into();
        old.spec
            .extra
            .insert("podCIDRs".into(), serde_json::json!(["10.0.0.0/24"]));
        old.spec
            .extra
            .insert("providerID".into(), "provider:///node-1".into());
        let mut new = old.clone();
        new.spec.unschedulable = true;
        new.spec.taints = vec![taint("a", "", "NoExecute")];
        assert!(validate_node_update(&new, &old).is_empty());
        new.spec
            .extra
            .insert("podCIDRs".into(), serde_json::json!(["10.0.1.0/24"]));
        new.spec
            .extra
            .insert("providerID".into(), "provider:///other".into());
        new.spec.taints.push(taint("a", "x", "NoExecute"));
        assert_eq!(
            strs(&validate_node_update(&new, &old)),
            vec![
                "spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid",
                "spec.providerID: Forbidden: node updates may not change providerID except from \"\" to valid",
                "metadata.taints[1]: Duplicate value: {\"Key\":\"a\",\"Value\":\"x\",\"Effect\":\"NoExecute\",\"TimeAdded\":null}: taints must be unique by key and effect pair",
            ]
        );
    }
}

#[cfg(test)]
#[path = "node_upstream_tests.rs"]
mod upstream_tests;
