//! `value_de::from_value` against `serde_json::from_value`: the same values and error texts,
//! except that an array is not accepted for a struct.

use super::value_de::from_value;
use crate::api::{Deployment, IntOrString, LabelSelector, Pod};
use serde_json::{json, Value};

fn same<T>(v: Value)
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let ours = from_value::<T>(v.clone()).map(|t| serde_json::to_value(t).unwrap());
    let theirs = serde_json::from_value::<T>(v).map(|t| serde_json::to_value(t).unwrap());
    match (ours, theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("ours {a:?}, serde_json {b:?}"),
    }
}

#[test]
fn decodes_objects_as_serde_json_does() {
    same::<Deployment>(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}, "annotations": {"a": "b"}},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
                {"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}},
                 "ports": [{"containerPort": 80}], "env": [{"name": "X", "value": "1"}]}],
                "affinity": {"podAntiAffinity": {}}, "tolerations": [{"key": "k", "operator": "Exists"}]}}}
    }));
    same::<Pod>(json!({"metadata": {"name": "p"}, "spec": {"containers": [], "nodeName": null}}));
    same::<IntOrString>(json!("25%"));
    same::<IntOrString>(json!(3));
}

#[test]
fn wrong_types_fail_with_serde_json_s_message() {
    same::<Deployment>(json!({"spec": {"replicas": "three"}}));
    same::<Deployment>(json!({"spec": {"replicas": -1.5}}));
    same::<Deployment>(json!({"metadata": {"labels": {"a": 1}}}));
    same::<Deployment>(json!({"spec": {"template": {"spec": {"containers": {"name": "c"}}}}}));
    same::<Deployment>(json!({"spec": "x"}));
    same::<LabelSelector>(json!(true));
    same::<IntOrString>(json!([1]));
}

#[test]
fn an_array_is_not_a_struct() {
    // serde_json would fill the struct's fields by position; the apiserver (Go's encoding/json)
    // refuses an array for an object.
    let v = json!({"spec": {"strategy": ["Recreate"]}});
    let err = from_value::<Deployment>(v).unwrap_err().to_string();
    assert_eq!(
        err,
        "invalid type: sequence, expected struct DeploymentStrategy"
    );
}
