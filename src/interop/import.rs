//! Import: `kubectl get nodes,pods,rs,deploy,sts,ds,jobs,cronjobs,controllerrevisions,pvc -A -o
//! yaml` output (or JSON, or multi-document YAML) → a frozen what-if scenario.
//!
//! The objects are kept exactly as dumped (uids, ownerReferences, resourceVersions, labels,
//! annotations, status with conditions); only `managedFields` are dropped. The virtual clock
//! starts at the dump's "now" — the latest timestamp found in it (typically a node heartbeat),
//! or `--now` — so every `creationTimestamp` keeps its age. The imported pods are frozen
//! (`kubelet.frozen` by uid): their status stays as dumped while pods created afterwards (by a
//! scale-up, a rollout, a CronJob) run normally. Nodes whose `Ready` condition is not `True`
//! fail at t = 0 so their kubelet stays silent.

use super::{ierr, InteropError};
use crate::api::{kind_info, Object, Time};
use crate::scenario::{
    parse_documents, NodeSpecEntry, Scenario, ScenarioMeta, TimelineEntry, SCENARIO_API_VERSION,
};
use crate::world::{KubeletConfig, PodMatch};
use serde_json::Value;
use std::collections::BTreeSet;

/// Import options.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// The instant the dump was taken (t = 0); default: the latest timestamp in the dump.
    pub now: Option<Time>,
    /// Scenario name (default `your-cluster`).
    pub name: Option<String>,
}

/// The result of an import: the scenario and what was left out (never silently).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub scenario: Scenario,
    /// One line per skipped item (`items[7]: kind ConfigMap is not simulated`).
    pub warnings: Vec<String>,
}

/// Order in which kinds are loaded (owners before dependents, as `kubectl apply` would).
pub const LOAD_ORDER: &[&str] = &[
    "Node",
    "PersistentVolumeClaim",
    "Service",
    "ControllerRevision",
    "Deployment",
    "ReplicaSet",
    "ReplicationController",
    "StatefulSet",
    "DaemonSet",
    "CronJob",
    "Job",
    "Pod",
];

/// One dumped object with the path it had in the input.
struct Item {
    path: String,
    value: Value,
}

/// Flattens documents and `kind: List`s into items named by their path (`items[3]`, or
/// `[1].items[3]` / `[2]` when there are several documents).
fn flatten(docs: Vec<Value>) -> Vec<Item> {
    let many = docs.len() > 1;
    let mut out = vec![];
    for (d, doc) in docs.into_iter().enumerate() {
        let base = if many {
            format!("[{d}]")
        } else {
            String::new()
        };
        flatten_into(doc, &base, &mut out);
    }
    out
}

fn flatten_into(v: Value, base: &str, out: &mut Vec<Item>) {
    let is_list = v
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k == "List" || k.ends_with("List"))
        && v.get("items").is_some_and(Value::is_array);
    if is_list {
        if let Some(Value::Array(items)) = v.get("items").cloned() {
            let sep = if base.is_empty() { "" } else { "." };
            for (i, x) in items.into_iter().enumerate() {
                flatten_into(x, &format!("{base}{sep}items[{i}]"), out);
            }
        }
    } else if let Value::Array(items) = v {
        // A bare JSON array of objects.
        for (i, x) in items.into_iter().enumerate() {
            flatten_into(x, &format!("{base}[{i}]"), out);
        }
    } else {
        let path = if base.is_empty() {
            "[0]".to_string()
        } else {
            base.to_string()
        };
        out.push(Item { path, value: v });
    }
}

/// Whether `s` looks like a Kubernetes timestamp (`2025-06-01T12:00:00Z`, optional fraction).
fn looks_like_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20
        && b.len() <= 40
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && s.ends_with('Z')
        && b[..4].iter().all(u8::is_ascii_digit)
}

/// The latest timestamp anywhere in `v` (creation times, conditions, heartbeats, ...).
pub fn latest_timestamp(v: &Value) -> Option<Time> {
    match v {
        Value::String(s) if looks_like_time(s) => Time::parse_rfc3339(s).ok(),
        Value::Array(a) => a.iter().filter_map(latest_timestamp).max(),
        Value::Object(m) => m.values().filter_map(latest_timestamp).max(),
        _ => None,
    }
}

fn describe(v: &Value) -> String {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    let ns = v
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    match (kind.is_empty(), ns.is_empty()) {
        (true, _) => String::new(),
        (false, true) => format!(" ({kind} {name})"),
        (false, false) => format!(" ({kind} {ns}/{name})"),
    }
}

/// Imports a cluster dump into a scenario.
///
/// # Errors
/// YAML/JSON syntax (with line and column), an item without kind/apiVersion, an object
/// kubeplay cannot decode or that fails validation — each naming the item's path.
pub fn import_cluster(text: &str, opts: &ImportOptions) -> Result<Imported, InteropError> {
    let docs = parse_documents(text).map_err(|e| ierr(e.location, e.message))?;
    let items = flatten(docs);
    if items.is_empty() {
        return Err(ierr("", "no objects passed to import"));
    }
    let mut warnings = vec![];
    // (load rank, input index, path, value)
    let mut kept: Vec<(usize, usize, String, Value)> = vec![];
    for (i, Item { path, mut value }) in items.into_iter().enumerate() {
        if !value.is_object() {
            return Err(ierr(path, "expected an object"));
        }
        if let Some(m) = value.get_mut("metadata").and_then(Value::as_object_mut) {
            m.remove("managedFields");
        }
        let kind = value
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if kind.is_empty() {
            return Err(ierr(path, "Object 'Kind' is missing in object"));
        }
        if kind_info(&kind).is_none() {
            warnings.push(format!(
                "{path}{}: kind {kind} is not simulated, skipped",
                describe(&value)
            ));
            continue;
        }
        // A dump from a newer cluster may carry fields this API version lacks: they are
        // dropped with a warning (a scenario is decoded strictly), never an error. Status is
        // kept whole, as scenarios tolerate it.
        let status = value.as_object_mut().and_then(|m| m.remove("status"));
        let unknown = crate::api::schema::check(&kind, &value, false).unknown;
        if !unknown.is_empty() {
            crate::api::schema::prune_unknown(&kind, &mut value);
            warnings.push(format!(
                "{path}{}: unknown fields dropped: {}",
                describe(&value),
                unknown.join(", ")
            ));
        }
        if let (Some(st), Some(m)) = (status, value.as_object_mut()) {
            m.insert("status".into(), st);
        }
        // Decode now so errors name the item.
        Object::from_value(value.clone())
            .map_err(|e| ierr(format!("{path}{}", describe(&value)), e))?;
        let rank = LOAD_ORDER
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(LOAD_ORDER.len());
        kept.push((rank, i, path, value));
    }
    if kept.is_empty() {
        return Err(ierr(
            "",
            format!(
                "no objects kubeplay simulates in the input ({} skipped)",
                warnings.len()
            ),
        ));
    }
    crate::sort::sort_by_key(&mut kept, |(r, i, _, _)| (*r, *i));

    let now = match opts.now {
        Some(t) => t,
        None => kept
            .iter()
            .filter_map(|(_, _, _, v)| latest_timestamp(v))
            .max()
            .unwrap_or_else(|| {
                Time::parse_rfc3339(crate::scenario::DEFAULT_START).expect("valid default")
            }),
    };

    let mut node_names = BTreeSet::new();
    let mut wanted_nodes = BTreeSet::new();
    let mut frozen = vec![];
    let mut timeline = vec![];
    let mut counts: Vec<(String, usize)> = vec![];
    for (_, _, _, v) in &kept {
        let kind = v["kind"].as_str().unwrap_or("");
        match counts.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((kind.to_string(), 1)),
        }
        let name = v
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        if kind == "Node" {
            node_names.insert(name.to_string());
            if !node_ready(v) {
                timeline.push(TimelineEntry {
                    at: Value::from("0s"),
                    node_fail: Some(name.to_string()),
                    ..Default::default()
                });
            }
        }
        if kind == "Pod" {
            if let Some(uid) = v.pointer("/metadata/uid").and_then(Value::as_str) {
                frozen.push(PodMatch {
                    uid: Some(uid.to_string()),
                    ..Default::default()
                });
            }
            if let Some(n) = v.pointer("/spec/nodeName").and_then(Value::as_str) {
                if !n.is_empty() {
                    wanted_nodes.insert(n.to_string());
                }
            }
        }
    }
    // Pods on nodes the dump does not contain still need those nodes.
    let nodes: Vec<NodeSpecEntry> = wanted_nodes
        .difference(&node_names)
        .map(|n| NodeSpecEntry {
            name: Some(n.clone()),
            ..Default::default()
        })
        .collect();
    if !nodes.is_empty() {
        warnings.push(format!(
            "nodes not in the dump, created with default capacity: {}",
            nodes
                .iter()
                .filter_map(|n| n.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let summary = counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let scenario = Scenario {
        api_version: SCENARIO_API_VERSION.into(),
        kind: "Scenario".into(),
        metadata: ScenarioMeta {
            name: opts.name.clone().unwrap_or_else(|| "your-cluster".into()),
            description: format!(
                "Imported cluster state at {}: {summary}. The imported pods are frozen as dumped; \
                 act with kubectl (scale, set image, create job --from=cronjob/...) to see what \
                 the controllers would do.",
                now.to_rfc3339()
            ),
        },
        seed: 1,
        start: Some(now.to_rfc3339()),
        nodes: if node_names.is_empty() && nodes.is_empty() {
            warnings.push("no nodes in the dump: using the default three nodes".into());
            None
        } else {
            Some(nodes)
        },
        kubelet: KubeletConfig {
            frozen,
            ..Default::default()
        },
        objects: kept.iter().map(|(_, _, _, v)| v.clone()).collect(),
        timeline,
        ..Default::default()
    };
    // Load it once so validation errors name the dump's item, not the scenario's.
    if let Err(e) = scenario.build() {
        let path = e
            .location
            .strip_prefix("objects[")
            .and_then(|r| r.split(']').next())
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| kept.get(i))
            .map(|(_, _, p, v)| format!("{p}{}", describe(v)))
            .unwrap_or(e.location.clone());
        return Err(ierr(path, e.message));
    }
    Ok(Imported { scenario, warnings })
}

/// Whether a dumped node's `Ready` condition is `True` (a node without conditions counts as
/// ready: the kubelet will report it).
fn node_ready(v: &Value) -> bool {
    match v.pointer("/status/conditions").and_then(Value::as_array) {
        Some(cs) => cs
            .iter()
            .find(|c| c["type"] == "Ready")
            .is_none_or(|c| c["status"] == "True"),
        None => true,
    }
}

/// The scenario as YAML, with a comment header (and the warnings as comments).
///
/// # Errors
/// Serialization failures (not expected).
pub fn to_yaml(imported: &Imported) -> Result<String, InteropError> {
    let body = serde_norway::to_string(&imported.scenario).map_err(|e| ierr("", e.to_string()))?;
    let mut out = String::from(
        "# Imported by `kubeplay import`: the cluster's objects exactly as dumped, frozen at t = 0.\n",
    );
    for w in &imported.warnings {
        out.push_str(&format!("# warning: {w}\n"));
    }
    out.push_str(&body);
    Ok(out)
}

/// `kubeplay import`: text → scenario YAML.
///
/// # Errors
/// See [`import_cluster`].
pub fn import_to_yaml(text: &str, opts: &ImportOptions) -> Result<String, InteropError> {
    to_yaml(&import_cluster(text, opts)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: default\n  uid: u-1\n  resourceVersion: \"77\"\n  creationTimestamp: \"2025-03-01T10:00:00Z\"\n  managedFields: [{manager: kubectl}]\nspec:\n  nodeName: w-1\n  containers: [{name: c, image: nginx}]\nstatus:\n  phase: Pending\n";

    #[test]
    fn paths_name_documents_and_list_items() {
        let docs = parse_documents(
            "apiVersion: v1\nkind: List\nitems:\n- {kind: A}\n- {kind: B}\n---\nkind: C\n",
        )
        .unwrap();
        let paths: Vec<String> = flatten(docs).into_iter().map(|i| i.path).collect();
        assert_eq!(paths, ["[0].items[0]", "[0].items[1]", "[1]"]);
        let one = parse_documents("{\"kind\": \"List\", \"items\": [{\"kind\": \"A\"}]}").unwrap();
        assert_eq!(flatten(one)[0].path, "items[0]");
    }

    #[test]
    fn the_clock_starts_at_the_latest_timestamp() {
        let v: Value = serde_json::json!({"a": "2025-03-01T10:00:00Z",
            "b": [{"t": "2025-03-01T10:05:00.123456Z"}], "c": "2025-13-99 not a time"});
        assert_eq!(
            latest_timestamp(&v),
            Some(Time::parse_rfc3339("2025-03-01T10:05:00.123456Z").unwrap())
        );
        let imp = import_cluster(POD, &ImportOptions::default()).unwrap();
        assert_eq!(imp.scenario.start.as_deref(), Some("2025-03-01T10:00:00Z"));
        let now = Time::parse_rfc3339("2025-03-01T11:00:00Z").unwrap();
        let imp = import_cluster(
            POD,
            &ImportOptions {
                now: Some(now),
                name: Some("x".into()),
            },
        )
        .unwrap();
        assert_eq!(imp.scenario.start.as_deref(), Some("2025-03-01T11:00:00Z"));
        assert_eq!(imp.scenario.metadata.name, "x");
    }

    #[test]
    fn pods_are_frozen_by_uid_and_missing_nodes_are_created() {
        let imp = import_cluster(POD, &ImportOptions::default()).unwrap();
        let s = &imp.scenario;
        assert_eq!(s.kubelet.frozen.len(), 1);
        assert_eq!(s.kubelet.frozen[0].uid.as_deref(), Some("u-1"));
        assert_eq!(s.nodes.as_ref().unwrap()[0].name.as_deref(), Some("w-1"));
        assert_eq!(imp.warnings.len(), 1, "{:?}", imp.warnings);
        assert!(s.objects[0]["metadata"].get("managedFields").is_none());
        // Pending stays Pending: the kubelet leaves a frozen pod alone.
        let mut sim = s.build().unwrap();
        sim.run_for(crate::api::Duration::from_mins(5)).unwrap();
        let p = sim
            .api
            .store
            .get::<crate::api::Pod>("default", "a")
            .unwrap();
        assert_eq!(p.status.phase, "Pending");
        assert_eq!(p.metadata.resource_version, "77");
    }

    #[test]
    fn not_ready_nodes_fail_at_start() {
        let node = "kind: Node\napiVersion: v1\nmetadata: {name: n1}\nstatus:\n  conditions:\n  - {type: Ready, status: Unknown, reason: NodeStatusUnknown}\n";
        let imp = import_cluster(node, &ImportOptions::default()).unwrap();
        assert_eq!(imp.scenario.timeline.len(), 1);
        assert_eq!(imp.scenario.timeline[0].node_fail.as_deref(), Some("n1"));
    }

    #[test]
    fn fields_unknown_to_this_api_version_are_dropped_with_a_warning() {
        let text = POD.replace("spec:\n", "spec:\n  futureField: 1\n");
        let imp = import_cluster(&text, &ImportOptions::default()).expect("imports");
        let w: Vec<&String> = imp
            .warnings
            .iter()
            .filter(|w| w.contains("unknown"))
            .collect();
        assert_eq!(w.len(), 1, "{:?}", imp.warnings);
        assert!(
            w[0].contains("unknown fields dropped: spec.futureField"),
            "{}",
            w[0]
        );
        let s = &imp.scenario;
        assert!(s.objects[0]["spec"].get("futureField").is_none());
        assert_eq!(s.objects[0]["status"]["phase"], "Pending");
    }

    #[test]
    fn nothing_to_import_is_an_error() {
        let e = import_cluster(
            "kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\n",
            &ImportOptions::default(),
        )
        .unwrap_err();
        assert!(e.message.contains("no objects"), "{e}");
        let deploy_only = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: nginx}]}\n";
        let imp = import_cluster(deploy_only, &ImportOptions::default()).unwrap();
        assert_eq!(imp.scenario.nodes, None);
        assert_eq!(
            imp.warnings,
            ["no nodes in the dump: using the default three nodes"]
        );
        let e = import_cluster("", &ImportOptions::default()).unwrap_err();
        assert!(e.message.contains("no objects"), "{e}");
        let e = import_cluster("- 1\n", &ImportOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "[0]: expected an object");
    }
}
