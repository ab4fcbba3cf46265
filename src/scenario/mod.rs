//! Scenarios: the cluster, gates, kubelet rules, initial objects and a timeline, in YAML or JSON.
//!
//! See `docs/scenarios.md` for the format. A plain manifest file (one or more documents, or a
//! `kind: List`) is also a scenario: its objects on the default three nodes.

pub mod builtin;
pub mod load;

use crate::api::{Duration, Node, NodeCondition, Object, ObjectMeta, Quantity, Taint, Time};
use crate::features::FeatureGates;
use crate::sim::{Simulation, TimelineAction};
use crate::world::{KubeletConfig, World};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub const SCENARIO_API_VERSION: &str = "kubeplay.dev/v1alpha1";

/// The default start of virtual time when a scenario gives none.
pub const DEFAULT_START: &str = "2025-01-01T00:00:00Z";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ScenarioMeta,
    /// Seed for generated names and uids.
    #[serde(default)]
    pub seed: u64,
    /// Wall-clock instant at t = 0 (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub feature_gates: BTreeMap<String, bool>,
    /// Nodes; when absent, three nodes `node-1`..`node-3` with 4 CPU, 8Gi, 110 pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<NodeSpecEntry>>,
    #[serde(default)]
    pub kubelet: KubeletConfig,
    /// Initial objects: manifests (a `kind: List` is expanded). Status, uid and
    /// creationTimestamp are honoured as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<Value>,
    /// More initial objects as a multi-document YAML string.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub manifests: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<TimelineEntry>,
    /// Synthetic load per workload (see [`load`]): the pods' CPU/memory usage over time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub load: Vec<load::WorkloadLoad>,
    /// How long `kubeplay run` simulates when `--until` is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScenarioMeta {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// One node, or `count` nodes named `<namePrefix><i>` (i from 1).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSpecEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    /// cpu, memory, pods (defaults 4, 8Gi, 110).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: BTreeMap<String, Quantity>,
    #[serde(default)]
    pub unschedulable: bool,
}

/// `at` (a duration from t = 0) plus exactly one action.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimelineEntry {
    pub at: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubectl: Option<String>,
    /// Manifests to `kubectl apply -f -` (one or more YAML documents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_fail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_recover: Option<String>,
    /// `stop` or `start`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller_manager: Option<String>,
}

/// An error loading a scenario, with where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    /// `file:line:column` or a field path such as `objects[2]`.
    pub location: String,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.location.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.location, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn err(location: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError {
        location: location.into(),
        message: message.into(),
    }
}

/// Parses YAML (one or more documents) or JSON into JSON values, one per document.
///
/// # Errors
/// The YAML parser's message with line and column.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, ScenarioError> {
    let mut out = vec![];
    for doc in serde_norway::Deserializer::from_str(text) {
        let v = Value::deserialize(doc).map_err(|e| {
            let loc = e
                .location()
                .map(|l| format!("line {}, column {}", l.line(), l.column()))
                .unwrap_or_default();
            let msg = e.to_string();
            let line = e.location().map_or(0, |l| l.line());
            err(loc, go_yaml_message(&msg, line))
        })?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Ok(out)
}

/// libyaml's parser problems (parser.c); every other problem comes from its scanner.
const PARSER_PROBLEMS: &[&str] = &[
    "did not find expected <document start>",
    "did not find expected node content",
    "did not find expected key",
    "did not find expected '-' indicator",
    "did not find expected ',' or ']'",
    "did not find expected ',' or '}'",
    "found duplicate %YAML directive",
    "found incompatible YAML document",
    "found duplicate %TAG directive",
    "found undefined tag handle",
];

/// sigs.k8s.io/yaml's wording for a YAML syntax error, `error converting YAML to JSON: yaml:
/// line N: PROBLEM`, from serde_norway's message (libyaml's problem, then `, CONTEXT` and
/// ` at line L column C`) and its 1-based line.
///
/// go-yaml's `parser.fail()` prints the 0-based `problem_mark.line`, plus one for scanner
/// errors only, and no line at all when that is zero; the context is not printed.
pub fn go_yaml_message(serde_msg: &str, line: usize) -> String {
    let problem = serde_msg.split(" at line ").next().unwrap_or(serde_msg);
    let problem = problem.split(", while ").next().unwrap_or(problem);
    let zero_based = line.saturating_sub(1);
    let shown = if PARSER_PROBLEMS.contains(&problem) {
        zero_based
    } else if zero_based == 0 {
        0
    } else {
        zero_based + 1
    };
    if shown == 0 {
        format!("error converting YAML to JSON: yaml: {problem}")
    } else {
        format!("error converting YAML to JSON: yaml: line {shown}: {problem}")
    }
}

/// Expands `kind: List` (and `*List` kinds) into their items, keeping order.
pub fn expand_lists(docs: Vec<Value>) -> Vec<Value> {
    let mut out = vec![];
    for d in docs {
        let is_list = d
            .get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k == "List" || k.ends_with("List"))
            && d.get("items").is_some_and(Value::is_array);
        if is_list {
            if let Some(Value::Array(items)) = d.get("items").cloned() {
                out.extend(expand_lists(items));
            }
        } else {
            out.push(d);
        }
    }
    out
}

/// Decodes manifests into objects.
///
/// # Errors
/// kubectl-style decoding errors, naming the document.
pub fn decode_objects(docs: Vec<Value>, where_: &str) -> Result<Vec<Object>, ScenarioError> {
    expand_lists(docs)
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let name = v
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
            // Initial objects may come from a real cluster: their status is tolerated.
            crate::api::schema::strict_check(kind, &v, true)
                .and_then(|()| Object::from_value(v))
                .map_err(|e| {
                    let label = if name.is_empty() {
                        format!("{where_}[{i}]")
                    } else {
                        format!("{where_}[{i}] ({name})")
                    };
                    err(label, e)
                })
        })
        .collect()
}

impl Scenario {
    /// Parses a scenario file, or a plain manifest file as a scenario with default nodes.
    ///
    /// # Errors
    /// YAML/JSON syntax (with line and column), unknown fields, bad values.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let docs = parse_documents(text)?;
        let is_scenario =
            docs.len() == 1 && docs[0].get("kind").and_then(Value::as_str) == Some("Scenario");
        if is_scenario {
            let v = docs.into_iter().next().expect("one doc");
            let s: Scenario =
                crate::api::value_de::from_value(v).map_err(|e| err("scenario", e.to_string()))?;
            if !s.api_version.is_empty() && s.api_version != SCENARIO_API_VERSION {
                return Err(err(
                    "apiVersion",
                    format!("no matches for kind \"Scenario\" in version {:?} (expected {SCENARIO_API_VERSION})", s.api_version),
                ));
            }
            return Ok(s);
        }
        if docs.is_empty() {
            return Err(err("", "no objects passed to apply"));
        }
        Ok(Scenario {
            api_version: SCENARIO_API_VERSION.into(),
            kind: "Scenario".into(),
            objects: docs,
            ..Default::default()
        })
    }

    pub fn start_time(&self) -> Result<Time, ScenarioError> {
        Time::parse_rfc3339(self.start.as_deref().unwrap_or(DEFAULT_START))
            .map_err(|e| err("start", e))
    }

    /// The nodes this scenario creates.
    ///
    /// # Errors
    /// A node entry with neither name nor count, or too many nodes.
    pub fn node_objects(&self, now: Time) -> Result<Vec<Node>, ScenarioError> {
        let default = vec![NodeSpecEntry {
            count: Some(3),
            name_prefix: Some("node-".into()),
            ..Default::default()
        }];
        let entries = self.nodes.as_ref().unwrap_or(&default);
        let mut out = vec![];
        for (i, e) in entries.iter().enumerate() {
            let names: Vec<String> = match (&e.name, e.count) {
                (Some(n), None) => vec![n.clone()],
                (None, Some(c)) => {
                    if c > 100_000 {
                        return Err(err(format!("nodes[{i}].count"), "must be at most 100000"));
                    }
                    let p = e.name_prefix.clone().unwrap_or_else(|| "node-".into());
                    (1..=c).map(|k| format!("{p}{k}")).collect()
                }
                _ => return Err(err(format!("nodes[{i}]"), "give either name or count")),
            };
            for n in names {
                out.push(make_node(&n, e, now));
            }
        }
        Ok(out)
    }

    /// Every initial object (from `objects` and `manifests`).
    ///
    /// # Errors
    /// Decoding errors naming the document.
    pub fn initial_objects(&self) -> Result<Vec<Object>, ScenarioError> {
        let mut objs = decode_objects(self.objects.clone(), "objects")?;
        if !self.manifests.trim().is_empty() {
            let docs = parse_documents(&self.manifests)
                .map_err(|e| err(format!("manifests: {}", e.location), e.message))?;
            objs.extend(decode_objects(docs, "manifests")?);
        }
        Ok(objs)
    }

    /// The timeline as (offset from start, action).
    ///
    /// # Errors
    /// A bad duration or an entry with zero or several actions.
    pub fn timeline_actions(&self) -> Result<Vec<(Duration, TimelineAction)>, ScenarioError> {
        let mut out = vec![];
        for (i, t) in self.timeline.iter().enumerate() {
            let at = match &t.at {
                Value::String(s) => Duration::parse(s),
                Value::Number(n) => Duration::parse(&n.to_string()),
                other => Err(format!("invalid duration {other}")),
            }
            .map_err(|e| err(format!("timeline[{i}].at"), e))?;
            let mut acts = vec![];
            if let Some(k) = &t.kubectl {
                let k = k.trim();
                acts.push(TimelineAction::Kubectl(
                    k.strip_prefix("kubectl ").unwrap_or(k).to_string(),
                ));
            }
            if let Some(m) = &t.apply {
                acts.push(TimelineAction::KubectlWithInput(
                    "apply -f -".into(),
                    m.clone(),
                ));
            }
            if let Some(n) = &t.node_fail {
                acts.push(TimelineAction::NodeFail(n.clone()));
            }
            if let Some(n) = &t.node_recover {
                acts.push(TimelineAction::NodeRecover(n.clone()));
            }
            if let Some(c) = &t.controller_manager {
                acts.push(TimelineAction::ControllerManager(match c.as_str() {
                    "start" => true,
                    "stop" => false,
                    other => {
                        return Err(err(
                            format!("timeline[{i}].controllerManager"),
                            format!(
                            "Unsupported value: {other:?}: supported values: \"start\", \"stop\""
                        ),
                        ))
                    }
                }));
            }
            if acts.len() != 1 {
                return Err(err(
                    format!("timeline[{i}]"),
                    "give exactly one of kubectl, apply, nodeFail, nodeRecover, controllerManager",
                ));
            }
            out.push((at, acts.pop().expect("one")));
        }
        Ok(out)
    }

    /// Builds the simulation: nodes, objects, loops and the timeline.
    ///
    /// # Errors
    /// Anything wrong in the scenario, with its location.
    pub fn build(&self) -> Result<Simulation, ScenarioError> {
        let start = self.start_time()?;
        let gates =
            FeatureGates::from_map(&self.feature_gates).map_err(|e| err("featureGates", e))?;
        let world = World {
            kubelet: std::sync::Arc::new(self.kubelet.clone()),
            load: load::LoadModel {
                entries: self.load.clone(),
                start,
                seed: self.seed,
            },
            ..Default::default()
        };
        let mut sim = Simulation::new(self.seed, start, gates, world);
        for n in self.node_objects(start)? {
            let name = n.metadata.name.clone();
            sim.api
                .load(Object::Node(n))
                .map_err(|e| err(format!("nodes ({name})"), e.kubectl_message()))?;
        }
        for (i, o) in self.initial_objects()?.into_iter().enumerate() {
            let name = o.meta().name.clone();
            sim.api
                .load(o)
                .map_err(|e| err(format!("objects[{i}] ({name})"), e.kubectl_message()))?;
        }
        for (at, a) in self.timeline_actions()? {
            sim.schedule(start + at, a);
        }
        for l in crate::controllers::default_loops() {
            sim.add_loop(l);
        }
        Ok(sim)
    }

    /// How long to run by default: `duration`, or 10 minutes past the last timeline action.
    ///
    /// # Errors
    /// A bad `duration`.
    pub fn default_duration(&self) -> Result<Duration, ScenarioError> {
        if let Some(d) = &self.duration {
            return Duration::parse(d).map_err(|e| err("duration", e));
        }
        let last = self
            .timeline_actions()?
            .iter()
            .map(|(d, _)| *d)
            .max()
            .unwrap_or(Duration::ZERO);
        Ok(last + Duration::from_mins(10))
    }
}

fn make_node(name: &str, e: &NodeSpecEntry, now: Time) -> Node {
    let mut capacity: BTreeMap<String, Quantity> = [
        ("cpu", "4"),
        ("memory", "8Gi"),
        ("pods", "110"),
        ("ephemeral-storage", "100Gi"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), Quantity(v.to_string())))
    .collect();
    for (k, v) in &e.capacity {
        capacity.insert(k.clone(), v.clone());
    }
    let mut labels: BTreeMap<String, String> = [
        ("kubernetes.io/hostname", name),
        ("kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("beta.kubernetes.io/arch", "amd64"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    labels.extend(e.labels.clone());
    let t = Some(now.trunc_secs());
    let cond = |ty: &str, status: &str, reason: &str, msg: &str| NodeCondition {
        type_: ty.into(),
        status: status.into(),
        last_heartbeat_time: t,
        last_transition_time: t,
        reason: reason.into(),
        message: msg.into(),
    };
    Node {
        api_version: "v1".into(),
        kind: "Node".into(),
        metadata: ObjectMeta {
            name: name.into(),
            labels: labels.into(),
            ..Default::default()
        },
        spec: crate::api::NodeSpec {
            unschedulable: e.unschedulable,
            taints: e.taints.clone(),
            ..Default::default()
        },
        status: crate::api::NodeStatus {
            allocatable: capacity.clone(),
            capacity,
            conditions: vec![
                cond(
                    "MemoryPressure",
                    "False",
                    "KubeletHasSufficientMemory",
                    "kubelet has sufficient memory available",
                ),
                cond(
                    "DiskPressure",
                    "False",
                    "KubeletHasNoDiskPressure",
                    "kubelet has no disk pressure",
                ),
                cond(
                    "PIDPressure",
                    "False",
                    "KubeletHasSufficientPID",
                    "kubelet has sufficient PID available",
                ),
                cond(
                    "Ready",
                    "True",
                    "KubeletReady",
                    "kubelet is posting ready status",
                ),
            ],
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_file_is_a_scenario() {
        let s = Scenario::parse(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: c\n    image: nginx\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: b}\n  spec: {containers: [{name: c, image: nginx}]}\n",
        )
        .unwrap();
        let objs = s.initial_objects().unwrap();
        assert_eq!(
            objs.iter()
                .map(|o| o.meta().name.as_str())
                .collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(s.node_objects(Time(0)).unwrap().len(), 3);
    }

    #[test]
    fn yaml_errors_read_like_kubectl() {
        // go-yaml's parser.fail(): scanner errors print the 1-based line, parser errors the
        // 0-based one, and none on the first line.
        let msg = |t: &str| parse_documents(t).unwrap_err().message;
        assert_eq!(
            msg("a: b\n c: d\n"),
            "error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context"
        );
        assert_eq!(
            msg("a:\n  - b\n c\n"),
            "error converting YAML to JSON: yaml: line 2: did not find expected key"
        );
        assert_eq!(
            msg("\tkey: v\n"),
            "error converting YAML to JSON: yaml: found character that cannot start any token"
        );
    }

    #[test]
    fn yaml_errors_have_a_line() {
        let e = Scenario::parse("kind: Scenario\nnodes: [\n  - a: b\n").unwrap_err();
        assert!(e.location.starts_with("line "), "{e}");
        let e = Scenario::parse("kind: Scenario\nbogus: 1\n").unwrap_err();
        assert!(e.message.contains("unknown field `bogus`"), "{e}");
    }

    #[test]
    fn timeline_entries_need_one_action() {
        let s = Scenario::parse("kind: Scenario\ntimeline:\n- at: 10s\n").unwrap();
        assert!(s
            .timeline_actions()
            .unwrap_err()
            .to_string()
            .contains("exactly one"));
        let s = Scenario::parse(
            "kind: Scenario\ntimeline:\n- at: 1m\n  kubectl: kubectl scale rs a --replicas=2\n",
        )
        .unwrap();
        assert_eq!(
            s.timeline_actions().unwrap(),
            vec![(
                Duration::from_secs(60),
                TimelineAction::Kubectl("scale rs a --replicas=2".into())
            )]
        );
    }
}
