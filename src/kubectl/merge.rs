//! Client-side apply's three-way strategic merge (`strategicpatch.CreateThreeWayMergePatch`
//! and `StrategicMergePatch`), for the lists the core and apps types merge by key.
//!
//! The patch is the union of the deletions from the last-applied configuration to the new one
//! (fields the user removed) and the changes from the live object to the new configuration
//! (ignoring fields only the server set). Lists with a merge key (containers by `name`, ports
//! by `containerPort`, ...) are merged element by element; other lists are replaced. An empty
//! patch (`{}`) means `unchanged`.

use serde_json::{Map, Value};

/// The `patchMergeKey` of a list field, by field name (the core/apps schema).
pub fn merge_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets"
        | "resourceClaims" => "name",
        "ports" => "containerPort",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "hostAliases" => "ip",
        "conditions" => "type",
        "ownerReferences" => "uid",
        "topologySpreadConstraints" => "topologyKey",
        _ => return None,
    })
}

fn key_of<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_object().and_then(|m| m.get(key))
}

/// Changes needed to turn `current` into `modified`, ignoring fields absent from `modified`.
fn additions(current: &Map<String, Value>, modified: &Map<String, Value>) -> Map<String, Value> {
    let mut patch = Map::new();
    for (k, mv) in modified {
        match (current.get(k), mv) {
            (None, _) => {
                patch.insert(k.clone(), mv.clone());
            }
            (Some(Value::Object(c)), Value::Object(m)) => {
                let sub = additions(c, m);
                if !sub.is_empty() {
                    patch.insert(k.clone(), Value::Object(sub));
                }
            }
            (Some(Value::Array(c)), Value::Array(m)) => {
                if let Some(mk) = merge_key(k).filter(|mk| all_keyed(m, mk) && all_keyed(c, mk)) {
                    let mut items = vec![];
                    for me in m {
                        let key = key_of(me, mk);
                        match c.iter().find(|ce| key_of(ce, mk) == key) {
                            None => items.push(me.clone()),
                            Some(ce) => {
                                if let (Some(co), Some(mo)) = (ce.as_object(), me.as_object()) {
                                    let mut sub = additions(co, mo);
                                    if !sub.is_empty() {
                                        sub.insert(
                                            mk.to_string(),
                                            key.cloned().unwrap_or(Value::Null),
                                        );
                                        items.push(Value::Object(sub));
                                    }
                                }
                            }
                        }
                    }
                    if !items.is_empty() {
                        patch.insert(k.clone(), Value::Array(items));
                    }
                } else if c != m {
                    patch.insert(k.clone(), mv.clone());
                }
            }
            (Some(cv), _) => {
                if cv != mv {
                    patch.insert(k.clone(), mv.clone());
                }
            }
        }
    }
    patch
}

fn all_keyed(list: &[Value], key: &str) -> bool {
    list.iter().all(|e| key_of(e, key).is_some())
}

/// Fields (and keyed list elements) present in `original` but removed in `modified`.
fn deletions(original: &Map<String, Value>, modified: &Map<String, Value>) -> Map<String, Value> {
    let mut patch = Map::new();
    for (k, ov) in original {
        match (modified.get(k), ov) {
            (None, _) => {
                patch.insert(k.clone(), Value::Null);
            }
            (Some(Value::Object(m)), Value::Object(o)) => {
                let sub = deletions(o, m);
                if !sub.is_empty() {
                    patch.insert(k.clone(), Value::Object(sub));
                }
            }
            (Some(Value::Array(m)), Value::Array(o)) => {
                if let Some(mk) = merge_key(k).filter(|mk| all_keyed(m, mk) && all_keyed(o, mk)) {
                    let mut items = vec![];
                    for oe in o {
                        let key = key_of(oe, mk);
                        match m.iter().find(|me| key_of(me, mk) == key) {
                            None => {
                                let mut d = Map::new();
                                d.insert("$patch".into(), Value::from("delete"));
                                d.insert(mk.to_string(), key.cloned().unwrap_or(Value::Null));
                                items.push(Value::Object(d));
                            }
                            Some(me) => {
                                if let (Some(oo), Some(mo)) = (oe.as_object(), me.as_object()) {
                                    let mut sub = deletions(oo, mo);
                                    if !sub.is_empty() {
                                        sub.insert(
                                            mk.to_string(),
                                            key.cloned().unwrap_or(Value::Null),
                                        );
                                        items.push(Value::Object(sub));
                                    }
                                }
                            }
                        }
                    }
                    if !items.is_empty() {
                        patch.insert(k.clone(), Value::Array(items));
                    }
                }
            }
            _ => {}
        }
    }
    patch
}

/// Merges two patches (deletions first, then additions win on conflicts).
fn merge_patches(a: Map<String, Value>, b: Map<String, Value>) -> Map<String, Value> {
    let mut out = a;
    for (k, bv) in b {
        let merged = match (out.remove(&k), bv) {
            (Some(Value::Object(x)), Value::Object(y)) => Value::Object(merge_patches(x, y)),
            (Some(Value::Array(mut x)), Value::Array(y)) if merge_key(&k).is_some() => {
                let mk = merge_key(&k).unwrap_or("name");
                for ye in y {
                    let key = key_of(&ye, mk).cloned();
                    match x.iter_mut().find(|xe| key_of(xe, mk).cloned() == key) {
                        Some(xe) => {
                            if let (Some(xo), Some(yo)) =
                                (xe.as_object().cloned(), ye.as_object().cloned())
                            {
                                *xe = Value::Object(merge_patches(xo, yo));
                            }
                        }
                        None => x.push(ye),
                    }
                }
                Value::Array(x)
            }
            (_, bv) => bv,
        };
        out.insert(k, merged);
    }
    out
}

/// The three-way patch; `original` is the last-applied configuration, if any.
pub fn three_way_patch(original: Option<&Value>, modified: &Value, current: &Value) -> Value {
    let empty = Map::new();
    let m = modified.as_object().unwrap_or(&empty);
    let c = current.as_object().unwrap_or(&empty);
    let del = original
        .and_then(Value::as_object)
        .map(|o| deletions(o, m))
        .unwrap_or_default();
    Value::Object(merge_patches(del, additions(c, m)))
}

/// Applies a strategic merge patch: `null` deletes, maps merge, keyed lists merge by key
/// (`$patch: delete` removes an element), other lists are replaced.
pub fn apply_patch(current: &Value, patch: &Value) -> Value {
    match (current, patch) {
        (Value::Object(c), Value::Object(p)) => {
            let mut out = c.clone();
            for (k, pv) in p {
                if pv.is_null() {
                    out.remove(k);
                    continue;
                }
                let merged = match (out.get(k), pv) {
                    (Some(cv @ Value::Object(_)), Value::Object(_)) => apply_patch(cv, pv),
                    (Some(Value::Array(cl)), Value::Array(pl)) if merge_key(k).is_some() => {
                        let mk = merge_key(k).unwrap_or("name");
                        let mut list = cl.clone();
                        for pe in pl {
                            let key = key_of(pe, mk).cloned();
                            let delete =
                                key_of(pe, "$patch").and_then(Value::as_str) == Some("delete");
                            let pos = list.iter().position(|e| key_of(e, mk).cloned() == key);
                            match (pos, delete) {
                                (Some(i), true) => {
                                    list.remove(i);
                                }
                                (None, true) => {}
                                (Some(i), false) => list[i] = apply_patch(&list[i], pe),
                                (None, false) => list.push(strip_directives(pe)),
                            }
                        }
                        Value::Array(list)
                    }
                    _ => strip_directives(pv),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        _ => strip_directives(patch),
    }
}

fn strip_directives(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, v)| !k.starts_with('$') && !v.is_null())
                .map(|(k, v)| (k.clone(), strip_directives(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip_directives).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unchanged_config_gives_an_empty_patch() {
        let cfg = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "c", "image": "nginx"}]}}}});
        let live = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "c", "image": "nginx", "imagePullPolicy": "Always"}], "dnsPolicy": "ClusterFirst"}}}, "status": {"replicas": 3}});
        assert_eq!(three_way_patch(Some(&cfg), &cfg, &live), json!({}));
    }

    #[test]
    fn changes_and_removals() {
        let orig = json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "c", "image": "nginx"}, {"name": "side", "image": "busybox"}]}}}});
        let new = json!({"metadata": {"labels": {"a": "1"}}, "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}}});
        let live = json!({"metadata": {"labels": {"a": "1", "b": "2", "server": "x"}}, "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "c", "image": "nginx", "imagePullPolicy": "Always"}, {"name": "side", "image": "busybox"}]}}}});
        let patch = three_way_patch(Some(&orig), &new, &live);
        assert_eq!(
            patch,
            json!({"metadata": {"labels": {"b": null}}, "spec": {"replicas": 5, "template": {"spec": {"containers": [{"$patch": "delete", "name": "side"}, {"name": "c", "image": "nginx:1.27"}]}}}})
        );
        assert_eq!(
            apply_patch(&live, &patch),
            json!({"metadata": {"labels": {"a": "1", "server": "x"}}, "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "c", "image": "nginx:1.27", "imagePullPolicy": "Always"}]}}}})
        );
    }

    #[test]
    fn unkeyed_lists_are_replaced() {
        let orig = json!({"spec": {"tolerations": [{"key": "a"}]}});
        let new = json!({"spec": {"tolerations": [{"key": "b"}]}});
        let patch = three_way_patch(Some(&orig), &new, &orig);
        assert_eq!(patch, json!({"spec": {"tolerations": [{"key": "b"}]}}));
        assert_eq!(apply_patch(&orig, &patch), new);
    }
}
