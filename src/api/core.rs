//! `core/v1` types: Pod, PodTemplateSpec, Node, and the pieces of PodSpec the simulation uses.
//!
//! Fields kubeplay does not interpret (volumes, env, probes, ...) are kept in `extra` maps so a
//! pasted manifest round-trips unchanged.

use super::meta::{is_zero_i32, is_zero_i64, Labels, ObjectMeta, Shared};
use super::shared_str::SharedStr;
use super::time::Time;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Shared between versions of the pod (and with the template it came from): most writes
    /// change metadata or status only, so a new version copies a pointer, not the spec.
    /// Mutate through `Arc::make_mut` (copies only when shared).
    #[serde(default)]
    pub spec: Arc<PodSpec>,
    #[serde(default)]
    pub status: Shared<PodStatus>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Shared with the pods created from the template (see [`Pod::spec`]).
    #[serde(default)]
    pub spec: Arc<PodSpec>,
}

impl Pod {
    /// The spec for writing: copies it first if another version or template shares it.
    pub fn spec_mut(&mut self) -> &mut PodSpec {
        Arc::make_mut(&mut self.spec)
    }
}

impl PodTemplateSpec {
    /// The spec for writing: copies it first if a pod or another version shares it.
    pub fn spec_mut(&mut self) -> &mut PodSpec {
        Arc::make_mut(&mut self.spec)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    #[serde(default)]
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub restart_policy: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_selector: Labels,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub node_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Affinity>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scheduler_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hostname: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subdomain: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// Pod-level requests and limits (`spec.resources`, the `PodLevelResources` gate: beta and
    /// on by default since 1.34). Only the HPA reads them (`calculateRequests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
    /// Everything else PodSpec can hold (volumes, dnsPolicy, securityContext, ...), verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
    /// Init containers with `restartPolicy: Always` are sidecars.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    /// command, args, env, probes, volumeMounts, ... verbatim.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub container_port: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRequirements {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<String, Quantity>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, Quantity>,
}

/// A resource quantity as written (`100m`, `2`, `128Mi`, `1e3`). Numbers in YAML are accepted.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Quantity(pub String);

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Quantity(s)),
            Value::Number(n) => Ok(Quantity(n.to_string())),
            other => Err(serde::de::Error::custom(format!(
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', got {other}"
            ))),
        }
    }
}

impl Quantity {
    /// The value in thousandths of the unit (millicores for cpu, milli-bytes for memory), as
    /// `resource.Quantity.MilliValue()`; rounds up like upstream.
    ///
    /// # Errors
    /// Upstream's message for a malformed quantity.
    pub fn milli_value(&self) -> Result<i128, String> {
        parse_quantity_milli(&self.0)
    }
}

/// Parses a Kubernetes quantity into thousandths (`"100m"` → 100, `"2"` → 2000, `"1Ki"` → 1_024_000).
///
/// # Errors
/// `quantities must match the regular expression ...` as the API server words it.
pub fn parse_quantity_milli(s: &str) -> Result<i128, String> {
    let err = || {
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
            .to_string()
    };
    let s = s.trim();
    let num_end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(num_end);
    if num.is_empty() || num == "+" || num == "-" {
        return Err(err());
    }
    let (neg, digits) = match num.as_bytes()[0] {
        b'-' => (true, &num[1..]),
        b'+' => (false, &num[1..]),
        _ => (false, num),
    };
    if digits.is_empty() || digits.matches('.').count() > 1 || digits.contains(['+', '-']) {
        return Err(err());
    }
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
    // value = int.frac × 10^exp10 × 2^exp2, scaled by 1000 for milli.
    let (exp10, exp2): (i32, u32) = match suffix {
        "" => (0, 0),
        "n" => (-9, 0),
        "u" => (-6, 0),
        "m" => (-3, 0),
        "k" => (3, 0),
        "M" => (6, 0),
        "G" => (9, 0),
        "T" => (12, 0),
        "P" => (15, 0),
        "E" => (18, 0),
        "Ki" => (0, 10),
        "Mi" => (0, 20),
        "Gi" => (0, 30),
        "Ti" => (0, 40),
        "Pi" => (0, 50),
        "Ei" => (0, 60),
        e if e.starts_with(['e', 'E']) => {
            let x: i32 = e[1..].parse().map_err(|_| err())?;
            if !(-30..=30).contains(&x) {
                return Err(err());
            }
            (x, 0)
        }
        _ => return Err(err()),
    };
    let mantissa: i128 = format!("{int_part}{frac_part}")
        .parse::<i128>()
        .map_err(|_| err())?;
    let mut scale10 = exp10 + 3 - frac_part.len() as i32;
    let mut v = mantissa.checked_mul(1i128 << exp2).ok_or_else(err)?;
    while scale10 > 0 {
        v = v.checked_mul(10).ok_or_else(err)?;
        scale10 -= 1;
    }
    let mut rounded_up = false;
    while scale10 < 0 {
        if v % 10 != 0 {
            rounded_up = true;
        }
        v /= 10;
        scale10 += 1;
    }
    if rounded_up {
        v += 1;
    }
    Ok(if neg { -v } else { v })
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Affinity {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<NodeAffinity>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeAffinity {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelector {
    #[serde(default)]
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorRequirement {
    pub key: String,
    pub operator: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub operator: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub effect: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// `Toleration.ToleratesTaint` (core/v1 helper): empty effect matches all effects; empty key
    /// with `Exists` matches every taint; operator `Exists` ignores the value; `Equal` (or empty)
    /// compares it.
    pub fn tolerates(&self, t: &Taint) -> bool {
        if !self.effect.is_empty() && self.effect != t.effect {
            return false;
        }
        if !self.key.is_empty() && self.key != t.key {
            return false;
        }
        match self.operator.as_str() {
            "Exists" => true,
            "" | "Equal" => self.value == t.value,
            _ => false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    pub key: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    pub effect: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_added: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<PodCondition>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(rename = "hostIP", default, skip_serializing_if = "String::is_empty")]
    pub host_ip: String,
    #[serde(rename = "podIP", default, skip_serializing_if = "String::is_empty")]
    pub pod_ip: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_container_statuses: Vec<ContainerStatus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub container_statuses: Vec<ContainerStatus>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub qos_class: String,
    /// The pod's `metadata.generation` the kubelet last reported on
    /// (PodObservedGenerationTracking, GA in 1.35); 0 when not set.
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub observed_generation: i64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodCondition {
    #[serde(rename = "type")]
    pub type_: String,
    /// The pod's `metadata.generation` the writer of the condition had seen
    /// (PodObservedGenerationTracking, GA in 1.35); 0 when not set.
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub observed_generation: i64,
    pub status: String,
    /// Written as `null` when unset, as the API server does (a non-pointer `metav1.Time` with
    /// `omitempty`): `kubectl get pod -o yaml` shows `lastProbeTime: null`.
    #[serde(default)]
    pub last_probe_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: String,
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub restart_count: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<ContainerState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_state: Option<ContainerState>,
    #[serde(default)]
    pub image: String,
    /// Always written, as upstream (`json:"imageID"`, no omitempty).
    #[serde(rename = "imageID", default)]
    pub image_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<ContainerStateWaiting>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<ContainerStateRunning>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminated: Option<ContainerStateTerminated>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateWaiting {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateRunning {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    pub exit_code: i32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: NodeSpec,
    #[serde(default)]
    pub status: NodeStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    #[serde(default, skip_serializing_if = "super::meta::is_false")]
    pub unschedulable: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: BTreeMap<String, Quantity>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allocatable: BTreeMap<String, Quantity>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<NodeCondition>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_heartbeat_time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// A recorded `core/v1` Event (kubeplay keeps one record per emission, plus a count).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventRecord {
    /// Virtual time of the emission, in milliseconds (trace order).
    pub time: Time,
    pub kind: SharedStr,
    pub namespace: SharedStr,
    pub name: SharedStr,
    #[serde(default, skip_serializing_if = "str::is_empty")]
    pub uid: SharedStr,
    #[serde(rename = "type")]
    pub type_: SharedStr,
    pub reason: SharedStr,
    pub message: String,
    /// The reporting component (`replicaset-controller`, `default-scheduler`, `kubelet`, ...).
    pub source: SharedStr,
    /// `source.host`: the node of a kubelet's recorder (`EventSource{Component: "kubelet",
    /// Host: nodeName}`); empty for the control plane's recorders.
    #[serde(default, skip_serializing_if = "str::is_empty")]
    pub host: SharedStr,
    /// `involvedObject.fieldPath`: the container a kubelet event is about
    /// (`spec.containers{nginx}`); empty for events about a whole object.
    #[serde(default, skip_serializing_if = "str::is_empty")]
    pub field_path: SharedStr,
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub count: i32,
}

impl PodSpec {
    /// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`, if set.
    pub fn required_node_affinity(&self) -> Option<&NodeSelector> {
        self.affinity
            .as_ref()?
            .node_affinity
            .as_ref()?
            .required_during_scheduling_ignored_during_execution
            .as_ref()
    }
}

impl Pod {
    pub fn condition(&self, t: &str) -> Option<&PodCondition> {
        self.status.conditions.iter().find(|c| c.type_ == t)
    }

    /// Sets a condition, keeping `lastTransitionTime` when the status is unchanged.
    pub fn set_condition(&mut self, t: &str, status: &str, reason: &str, message: &str, now: Time) {
        let kept = self
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == t)
            .map_or(0, |c| c.observed_generation);
        self.set_condition_observed(t, status, reason, message, now, kept);
    }

    /// [`Pod::set_condition`] as upstream's `UpdatePodCondition` with a condition carrying
    /// `observedGeneration` (the writers that compute it with
    /// `CalculatePodConditionObservedGeneration`: the pod's generation, the gate being GA).
    pub fn set_condition_observed(
        &mut self,
        t: &str,
        status: &str,
        reason: &str,
        message: &str,
        now: Time,
        observed_generation: i64,
    ) {
        let now = now.trunc_secs();
        if let Some(c) = self.status.conditions.iter_mut().find(|c| c.type_ == t) {
            if c.status != status {
                c.last_transition_time = Some(now);
            }
            c.status = status.into();
            c.reason = reason.into();
            c.message = message.into();
            c.observed_generation = observed_generation;
        } else {
            self.status.conditions.push(PodCondition {
                type_: t.into(),
                observed_generation,
                status: status.into(),
                last_probe_time: None,
                last_transition_time: Some(now),
                reason: reason.into(),
                message: message.into(),
            });
        }
    }

    /// Sum of container requests for a resource, in thousandths (`cpu` → millicores). Init
    /// containers count as the scheduler counts them: max(sum(regular), max(init)) (sidecars are
    /// added to both, as upstream's `PodRequests`).
    pub fn request_milli(&self, resource: &str) -> i128 {
        let req = |c: &Container| {
            c.resources
                .as_ref()
                .and_then(|r| r.requests.get(resource).or_else(|| r.limits.get(resource)))
                .and_then(|q| q.milli_value().ok())
                .unwrap_or(0)
        };
        let mut sum: i128 = self.spec.containers.iter().map(req).sum();
        let mut sidecars = 0i128;
        let mut init_max = 0i128;
        for c in &self.spec.init_containers {
            if c.restart_policy.as_deref() == Some("Always") {
                sidecars += req(c);
            } else {
                init_max = init_max.max(req(c) + sidecars);
            }
        }
        sum += sidecars;
        sum.max(init_max)
    }
}

impl Node {
    pub fn condition(&self, t: &str) -> Option<&NodeCondition> {
        self.status.conditions.iter().find(|c| c.type_ == t)
    }

    /// `Ready=True`.
    pub fn is_ready(&self) -> bool {
        self.condition("Ready").is_some_and(|c| c.status == "True")
    }

    /// Allocatable (falling back to capacity) for a resource, in thousandths.
    pub fn allocatable_milli(&self, resource: &str) -> Option<i128> {
        self.status
            .allocatable
            .get(resource)
            .or_else(|| self.status.capacity.get(resource))
            .and_then(|q| q.milli_value().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_fixtures::{taint, tol_secs as tol};

    /// Rows from k8s.io/apimachinery/pkg/api/resource TestQuantityParse / MilliValue.
    #[test]
    fn quantities() {
        let cases = [
            ("100m", 100),
            ("1", 1000),
            ("0.5", 500),
            ("2k", 2_000_000),
            ("1Ki", 1_024_000),
            ("128Mi", 128 * 1024 * 1024 * 1000),
            ("1e3", 1_000_000),
            ("1n", 1),
            ("-1", -1000),
            ("1.5Gi", 1_610_612_736_000),
        ];
        for (s, want) in cases {
            assert_eq!(parse_quantity_milli(s), Ok(want), "{s}");
        }
        for bad in ["", "abc", "1.2.3", "1Qi", "--1", "m"] {
            assert!(parse_quantity_milli(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn toleration_matching() {
        let t = Taint {
            key: "node.kubernetes.io/unreachable".into(),
            value: String::new(),
            effect: "NoExecute".into(),
            time_added: None,
        };
        let exists = Toleration {
            key: "node.kubernetes.io/unreachable".into(),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            ..Default::default()
        };
        assert!(exists.tolerates(&t));
        let wildcard = Toleration {
            operator: "Exists".into(),
            ..Default::default()
        };
        assert!(wildcard.tolerates(&t));
        let wrong_effect = Toleration {
            effect: "NoSchedule".into(),
            ..exists.clone()
        };
        assert!(!wrong_effect.tolerates(&t));
        let equal = Toleration {
            key: "dedicated".into(),
            value: "gpu".into(),
            ..Default::default()
        };
        assert!(equal.tolerates(&Taint {
            key: "dedicated".into(),
            value: "gpu".into(),
            effect: "NoSchedule".into(),
            time_added: None
        }));
    }

    // Port of TestTolerationToleratesTaint (staging/src/k8s.io/api/core/v1/toleration_test.go).
    // The Lt/Gt rows need TaintTolerationComparisonOperators, alpha and off by default in 1.35;
    // not modelled.
    #[test]
    fn test_toleration_tolerates_taint() {
        let rows = [
            (
                "same key and effect, Exists, taint has no value",
                tol("foo", "Exists", "", "NoSchedule", None),
                taint("foo", "", "NoSchedule"),
                true,
            ),
            (
                "same key and effect, Exists, taint has some value",
                tol("foo", "Exists", "", "NoSchedule", None),
                taint("foo", "bar", "NoSchedule"),
                true,
            ),
            (
                "same effect, empty key and Exists matches all taints",
                tol("", "Exists", "", "NoSchedule", None),
                taint("foo", "bar", "NoSchedule"),
                true,
            ),
            (
                "same key, effect and value, Equal",
                tol("foo", "Equal", "bar", "NoSchedule", None),
                taint("foo", "bar", "NoSchedule"),
                true,
            ),
            (
                "same key and effect, different values, Equal",
                tol("foo", "Equal", "value1", "NoSchedule", None),
                taint("foo", "value2", "NoSchedule"),
                false,
            ),
            (
                "same key and value, different effects, Equal",
                tol("foo", "Equal", "bar", "NoSchedule", None),
                taint("foo", "bar", "NoExecute"),
                false,
            ),
        ];
        for (desc, t, taint, want) in rows {
            assert_eq!(t.tolerates(&taint), want, "{desc}");
        }
    }

    // Port of TestMatchToleration (staging/src/k8s.io/api/core/v1/toleration_test.go):
    // `Toleration.MatchToleration` is `daemon::util::match_toleration` here.
    #[test]
    fn test_match_toleration() {
        use crate::controllers::daemon::util::match_toleration;
        let base = tol("foo", "Exists", "bar", "NoSchedule", None);
        let rows = [
            (
                "same key, operator, value, effect",
                base.clone(),
                base.clone(),
                true,
            ),
            (
                "different key",
                base.clone(),
                tol("different-key", "Exists", "bar", "NoSchedule", None),
                false,
            ),
            (
                "different operator",
                base.clone(),
                tol("foo", "different-operator", "bar", "NoSchedule", None),
                false,
            ),
            (
                "different value",
                base.clone(),
                tol("foo", "Exists", "different-value", "NoSchedule", None),
                false,
            ),
            (
                "different effect",
                base.clone(),
                tol("foo", "Exists", "bar", "PreferNoSchedule", None),
                false,
            ),
            (
                "different tolerationSeconds still match",
                tol("foo", "Exists", "bar", "NoSchedule", Some(5)),
                tol("foo", "Exists", "bar", "NoSchedule", Some(3)),
                true,
            ),
        ];
        for (desc, a, b, want) in rows {
            assert_eq!(match_toleration(&a, &b), want, "{desc}");
        }
    }
}
