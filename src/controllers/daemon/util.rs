//! DaemonSet helpers (`pkg/controller/daemon/util/daemonset_util.go`): the tolerations every
//! daemon pod gets, pod templates with the revision hash, node pinning through node affinity,
//! and the surge/unavailable arithmetic.

use crate::api::sts_ds_defaults::DEPRECATED_TEMPLATE_GENERATION;
use crate::api::{
    Affinity, DaemonSet, IntOrString, NodeAffinity, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, Pod, PodSpec, PodTemplateSpec, Toleration, ROLLING_UPDATE_STRATEGY,
};
use serde_json::Value;

/// `apps.DefaultDaemonSetUniqueLabelKey` (= `ControllerRevisionHashLabelKey`).
pub const DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY: &str = "controller-revision-hash";
/// `extensions.DaemonSetTemplateGenerationKey`.
pub const DAEMON_SET_TEMPLATE_GENERATION_KEY: &str = "pod-template-generation";
/// `metav1.ObjectNameField`: the field node affinity's `matchFields` selects on.
pub const NODE_FIELD_SELECTOR_KEY_NODE_NAME: &str = "metadata.name";

/// Taint keys the daemon tolerations name (`k8s.io/api/core/v1` well-known taints).
pub const TAINT_NODE_NOT_READY: &str = "node.kubernetes.io/not-ready";
pub const TAINT_NODE_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
pub const TAINT_NODE_DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
pub const TAINT_NODE_MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
pub const TAINT_NODE_PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
pub const TAINT_NODE_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
pub const TAINT_NODE_NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";

/// `Toleration.MatchToleration`: same key, operator, value and effect (tolerationSeconds is
/// ignored).
pub fn match_toleration(a: &Toleration, b: &Toleration) -> bool {
    a.key == b.key && a.operator == b.operator && a.value == b.value && a.effect == b.effect
}

/// `AddOrUpdateTolerationInPodSpec`: replace a matching toleration (unless identical) or append
/// it. Returns whether the spec changed.
pub fn add_or_update_toleration_in_pod_spec(spec: &mut PodSpec, t: &Toleration) -> bool {
    let mut updated = false;
    let mut out = Vec::with_capacity(spec.tolerations.len() + 1);
    for existing in &spec.tolerations {
        if match_toleration(t, existing) {
            if t == existing {
                return false;
            }
            out.push(t.clone());
            updated = true;
            continue;
        }
        out.push(existing.clone());
    }
    if !updated {
        out.push(t.clone());
    }
    spec.tolerations = out;
    true
}

fn exists(key: &str, effect: &str) -> Toleration {
    Toleration {
        key: key.into(),
        operator: "Exists".into(),
        effect: effect.into(),
        ..Default::default()
    }
}

/// `spec.hostNetwork` (kept in the pass-through map).
pub fn host_network(spec: &PodSpec) -> bool {
    spec.extra.get("hostNetwork").and_then(Value::as_bool) == Some(true)
}

/// `AddOrUpdateDaemonPodTolerations`: daemon pods survive node problems — not-ready and
/// unreachable `NoExecute` forever (no tolerationSeconds), disk/memory/PID pressure and
/// unschedulable `NoSchedule`, and network-unavailable `NoSchedule` for host-network pods.
pub fn add_or_update_daemon_pod_tolerations(spec: &mut PodSpec) {
    add_or_update_toleration_in_pod_spec(spec, &exists(TAINT_NODE_NOT_READY, "NoExecute"));
    add_or_update_toleration_in_pod_spec(spec, &exists(TAINT_NODE_UNREACHABLE, "NoExecute"));
    add_or_update_toleration_in_pod_spec(spec, &exists(TAINT_NODE_DISK_PRESSURE, "NoSchedule"));
    add_or_update_toleration_in_pod_spec(spec, &exists(TAINT_NODE_MEMORY_PRESSURE, "NoSchedule"));
    add_or_update_toleration_in_pod_spec(spec, &exists(TAINT_NODE_PID_PRESSURE, "NoSchedule"));
    add_or_update_toleration_in_pod_spec(spec, &exists(TAINT_NODE_UNSCHEDULABLE, "NoSchedule"));
    if host_network(spec) {
        add_or_update_toleration_in_pod_spec(
            spec,
            &exists(TAINT_NODE_NETWORK_UNAVAILABLE, "NoSchedule"),
        );
    }
}

/// `CreatePodTemplate`: the template with the daemon tolerations, the template-generation label
/// (when the DaemonSet has one) and the revision hash label.
pub fn create_pod_template(
    template: &PodTemplateSpec,
    generation: Option<i64>,
    hash: &str,
) -> PodTemplateSpec {
    let mut t = template.clone();
    add_or_update_daemon_pod_tolerations(t.spec_mut());
    if let Some(g) = generation {
        t.metadata
            .labels
            .insert(DAEMON_SET_TEMPLATE_GENERATION_KEY.into(), g.to_string());
    }
    if !hash.is_empty() {
        t.metadata
            .labels
            .insert(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY.into(), hash.into());
    }
    t
}

/// `GetTemplateGeneration`: the deprecated template-generation annotation.
///
/// # Errors
/// The annotation does not parse as an int64. Every caller then goes on without a generation
/// ("If the returned error is not nil we have a parse error. The controller handles this via
/// the hash."): no sync error, no event. The API server rejects such a DaemonSet anyway
/// ([`crate::api::sts_ds_defaults::decode_error`]).
pub fn get_template_generation(ds: &DaemonSet) -> Result<Option<i64>, String> {
    match ds.metadata.annotations.get(DEPRECATED_TEMPLATE_GENERATION) {
        None => Ok(None),
        Some(v) => crate::api::sts_ds_defaults::parse_int64(v).map(Some),
    }
}

/// `IsPodUpdated`: the pod carries the current hash, or the current template generation.
pub fn is_pod_updated(pod: &Pod, hash: &str, generation: Option<i64>) -> bool {
    let template_matches = generation.is_some_and(|g| {
        pod.metadata.labels.get(DAEMON_SET_TEMPLATE_GENERATION_KEY) == Some(&g.to_string())
    });
    let hash_matches = !hash.is_empty()
        && pod
            .metadata
            .labels
            .get(DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY)
            .map(String::as_str)
            == Some(hash);
    hash_matches || template_matches
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes exactly one
/// term with `matchFields: metadata.name In [node]` (preferred terms and other affinities stay).
pub fn replace_daemon_set_pod_node_name_node_affinity(
    affinity: Option<Affinity>,
    node_name: &str,
) -> Affinity {
    let term = NodeSelectorTerm {
        match_expressions: vec![],
        match_fields: vec![NodeSelectorRequirement {
            key: NODE_FIELD_SELECTOR_KEY_NODE_NAME.into(),
            operator: "In".into(),
            values: vec![node_name.into()],
        }],
    };
    let mut a = affinity.unwrap_or_default();
    let na = a.node_affinity.get_or_insert_with(NodeAffinity::default);
    match na
        .required_during_scheduling_ignored_during_execution
        .as_mut()
    {
        None => {
            na.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
                node_selector_terms: vec![term],
            })
        }
        Some(sel) => sel.node_selector_terms = vec![term],
    }
    a
}

/// `GetTargetNodeName`: `spec.nodeName`, else the node named by the pod's required node
/// affinity (`matchFields metadata.name In [one value]`).
///
/// # Errors
/// Upstream's messages when no node name can be found.
pub fn get_target_node_name(pod: &Pod) -> Result<String, String> {
    if !pod.spec.node_name.is_empty() {
        return Ok(pod.spec.node_name.clone());
    }
    let (ns, name) = (&pod.metadata.namespace, &pod.metadata.name);
    let Some(sel) = pod.spec.required_node_affinity() else {
        return Err(format!(
            "no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod {ns}/{name}"
        ));
    };
    if sel.node_selector_terms.is_empty() {
        return Err(format!(
            "no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod {ns}/{name}"
        ));
    }
    for term in &sel.node_selector_terms {
        for exp in &term.match_fields {
            if exp.key == NODE_FIELD_SELECTOR_KEY_NODE_NAME && exp.operator == "In" {
                if exp.values.len() != 1 {
                    return Err(format!(
                        "the matchFields value of '{NODE_FIELD_SELECTOR_KEY_NODE_NAME}' is not unique for pod {ns}/{name}"
                    ));
                }
                return Ok(exp.values[0].clone());
            }
        }
    }
    Err(format!("no node name found for pod {ns}/{name}"))
}

/// `SurgeCount`: 0 unless RollingUpdate with a maxSurge, else maxSurge scaled (rounding up)
/// against `number_to_schedule`.
///
/// # Errors
/// A malformed percentage.
pub fn surge_count(ds: &DaemonSet, number_to_schedule: i32) -> Result<i32, String> {
    let us = &ds.spec.update_strategy;
    if us.type_ != ROLLING_UPDATE_STRATEGY {
        return Ok(0);
    }
    match us
        .rolling_update
        .as_ref()
        .and_then(|r| r.max_surge.as_ref())
    {
        None => Ok(0),
        Some(v) => v.scaled_value(number_to_schedule, true),
    }
}

/// `UnavailableCount`: 0 unless RollingUpdate, else maxUnavailable scaled (rounding up).
///
/// # Errors
/// A malformed percentage, or `nil value for IntOrString` when maxUnavailable is unset.
pub fn unavailable_count(ds: &DaemonSet, number_to_schedule: i32) -> Result<i32, String> {
    let us = &ds.spec.update_strategy;
    if us.type_ != ROLLING_UPDATE_STRATEGY {
        return Ok(0);
    }
    let Some(r) = us.rolling_update.as_ref() else {
        return Ok(0);
    };
    crate::api::get_scaled_value_from_int_or_percent(
        r.max_unavailable.as_ref(),
        number_to_schedule,
        true,
    )
}

/// `AllowsSurge`: a positive surge out of one pod.
pub fn allows_surge(ds: &DaemonSet) -> bool {
    surge_count(ds, 1).is_ok_and(|s| s > 0)
}

/// An IntOrString for tests and builders.
pub fn int_or_percent(s: &str) -> IntOrString {
    match s.parse::<i32>() {
        Ok(i) => IntOrString::Int(i),
        Err(_) => IntOrString::String(s.into()),
    }
}
