//! Small object builders shared by the unit tests (test builds only).

use crate::api::{Node, Pod, Taint, Toleration};
use crate::scheduler::NodeInfo;

/// A taint without `timeAdded`.
pub fn taint(key: &str, value: &str, effect: &str) -> Taint {
    Taint {
        key: key.into(),
        value: value.into(),
        effect: effect.into(),
        time_added: None,
    }
}

/// A toleration without `tolerationSeconds`.
pub fn tol(key: &str, operator: &str, value: &str, effect: &str) -> Toleration {
    tol_secs(key, operator, value, effect, None)
}

/// A toleration with `tolerationSeconds`.
pub fn tol_secs(
    key: &str,
    operator: &str,
    value: &str,
    effect: &str,
    secs: Option<i64>,
) -> Toleration {
    Toleration {
        key: key.into(),
        operator: operator.into(),
        value: value.into(),
        effect: effect.into(),
        toleration_seconds: secs,
    }
}

/// `cache.NewSnapshot(pods, nodes)`: one NodeInfo per node with the pods naming it.
pub fn snapshot<'a>(nodes: &[Node], pods: &'a [Pod]) -> Vec<NodeInfo<'a>> {
    nodes
        .iter()
        .map(|n| {
            let mut ni = NodeInfo::new(n);
            for p in pods.iter().filter(|p| p.spec.node_name == n.metadata.name) {
                ni.add_pod(p);
            }
            ni
        })
        .collect()
}

/// RFC 7386 JSON merge patch of `patch` into `base` (a `null` deletes the key): the tweak
/// helpers of the validation table ports build their rows with it.
pub fn merge_patch(base: &mut serde_json::Value, patch: serde_json::Value) {
    match (base, patch) {
        (serde_json::Value::Object(b), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    b.remove(&k);
                } else {
                    merge_patch(b.entry(k).or_insert(serde_json::Value::Null), v);
                }
            }
        }
        (b, p) => *b = p,
    }
}
