//! API warnings: what kube-apiserver returns in `Warning` headers on a create or update and
//! kubectl prints as `Warning: <text>` lines.
//!
//! [`get_warnings_for_pod`] / [`get_warnings_for_pod_template`] port `pkg/api/pod/warnings.go`
//! (`warningsForPodSpecAndMeta` and its helpers, with `pkg/api/node/util.go`'s deprecated node
//! labels and `pkg/api/persistentvolumeclaim/util.go`'s claim warnings);
//! [`warnings_on_create`] / [`warnings_on_update`] port the REST strategies' `WarningsOnCreate`
//! and `WarningsOnUpdate` of the kinds kubeplay serves (`pkg/registry/{apps,batch,core}/*/
//! strategy.go`, `pkg/api/job/warnings.go`, `pkg/api/service/warnings.go`). Pure functions:
//! the API server ([`crate::store::apiserver::ApiServer::last_warnings`]) calls them after
//! validation passed, as `rest.BeforeCreate` / `rest.BeforeUpdate` do.
//!
//! Fields kubeplay keeps verbatim (volumes, env, securityContext, ...) are read from the JSON
//! they were written as. Go maps (nodeSelector, annotations) are visited in key order here,
//! where upstream's order is random.

use super::core::{Container, ContainerPort, NodeSelectorRequirement, Pod, PodSpec};
use super::core::{PodTemplateSpec, Quantity};
use super::core_more::{PersistentVolumeClaim, PersistentVolumeClaimSpec, Service};
use super::errors::go_quote;
use super::meta::ObjectMeta;
use super::object::Object;
use super::validation::ip::{get_warnings_for_cidr, get_warnings_for_ip};
use super::validation::names::{is_dns1123_label, is_valid_label_value};
use super::validation::quantity::parse_quantity;
use crate::features::FeatureGates;
use serde_json::{Map, Value};
use std::sync::Arc;

/// `deprecatedNodeLabels` (pkg/api/node/util.go).
const DEPRECATED_NODE_LABELS: &[(&str, &str)] = &[
    (
        "beta.kubernetes.io/arch",
        r#"deprecated since v1.14; use "kubernetes.io/arch" instead"#,
    ),
    (
        "beta.kubernetes.io/os",
        r#"deprecated since v1.14; use "kubernetes.io/os" instead"#,
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        r#"deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
    ),
    (
        "failure-domain.beta.kubernetes.io/zone",
        r#"deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
    ),
    (
        "beta.kubernetes.io/instance-type",
        r#"deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
    ),
    ("app.kubernetes.io/created-by", "deprecated since v1.9"),
    (
        "scheduler.alpha.kubernetes.io/preferAvoidPods",
        "deprecated since v1.22; use Taints and Tolerations instead",
    ),
    (
        "node-role.kubernetes.io/master",
        r#"use "node-role.kubernetes.io/control-plane" instead"#,
    ),
];

/// `nodeapi.GetNodeLabelDeprecatedMessage`.
pub fn get_node_label_deprecated_message(key: &str) -> Option<&'static str> {
    DEPRECATED_NODE_LABELS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, m)| *m)
}

/// `deprecatedAnnotations` (pkg/api/pod/warnings.go); none of them has a prefix form in 1.35.
const DEPRECATED_ANNOTATIONS: &[(&str, &str)] = &[
    (
        "scheduler.alpha.kubernetes.io/critical-pod",
        r#"non-functional in v1.16+; use the "priorityClassName" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/unsafe-sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
];

const NULL_SELECTOR: &str = "a null labelSelector results in matching no pod";
const SECCOMP_MESSAGE: &str = r#"non-functional in v1.27+; use the "seccompProfile" field instead"#;
const SECCOMP_POD_ANNOTATION_KEY: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_ANNOTATION_KEY_PREFIX: &str =
    "container.seccomp.security.alpha.kubernetes.io/";
const DEPRECATED_APPARMOR_ANNOTATION_KEY_PREFIX: &str =
    "container.apparmor.security.beta.kubernetes.io/";

/// Appends one formatted warning (out of line: dozens of call sites share the formatting and
/// the vector growth).
#[inline(never)]
fn push_fmt(out: &mut Vec<String>, args: std::fmt::Arguments) {
    out.push(std::fmt::format(args));
}

/// `field.Path.Child` on an optional root (`nil` for a Pod, `spec.template` for a template).
fn child(root: Option<&str>, rest: &str) -> String {
    match root {
        Some(r) if !r.is_empty() => format!("{r}.{rest}"),
        _ => rest.to_string(),
    }
}

/// [`child`] printed only when a warning needs it (the path is not built on the common path
/// where nothing warns).
struct Child<'a>(Option<&'a str>, &'static str);

impl std::fmt::Display for Child<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(r) if !r.is_empty() => write!(f, "{r}.{}", self.1),
            _ => f.write_str(self.1),
        }
    }
}

/// A container's field path (`<spec>.initContainers[i]` / `<spec>.containers[i]`), printed only
/// when a warning needs it.
struct ContainerPath<'a> {
    spec_path: &'a str,
    list: &'static str,
    index: usize,
}

impl std::fmt::Display for ContainerPath<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}[{}]", self.spec_path, self.list, self.index)
    }
}

/// A JSON member that is present and not `null` (a set pointer in Go).
fn set<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

fn array<'a>(m: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    m.get(key)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `value.MilliValue()%1000 != 0` → `value.String()`: the quantity when it has a fractional
/// byte value.
fn fractional(q: &Quantity) -> Option<String> {
    let p = parse_quantity(q.0.trim()).ok()?;
    (p.milli_value() % 1000 != 0).then(|| p.canonical())
}

fn fractional_warning(path: String, value: &str) -> String {
    format!(
        "{path}: fractional byte value {} is invalid, must be an integer",
        go_quote(value)
    )
}

/// Fractional memory / ephemeral-storage values in a resource list (JSON form: `overhead`).
fn fractional_json(list: Option<&Value>, name: &str, path: &str, out: &mut Vec<String>) {
    let Some(v) = list.and_then(|l| l.get(name)) else {
        return;
    };
    let q = match v {
        Value::String(s) => Quantity(s.clone()),
        Value::Number(n) => Quantity(n.to_string()),
        _ => return,
    };
    if let Some(s) = fractional(&q) {
        out.push(fractional_warning(format!("{path}[{name}]"), &s));
    }
}

/// `nodeapi.GetWarningsForNodeSelectorTerm`: deprecated keys, and (`check_label_value`, the
/// preferred terms) values that are not valid label values.
fn warnings_for_node_selector_term(
    exprs: &[NodeSelectorRequirement],
    check_label_value: bool,
    path: &str,
) -> Vec<String> {
    let mut warnings = vec![];
    for (i, e) in exprs.iter().enumerate() {
        if let Some(msg) = get_node_label_deprecated_message(&e.key) {
            push_fmt(
                &mut warnings,
                format_args!("{path}.matchExpressions[{i}].key: {} is {msg}", e.key),
            );
        }
        if check_label_value {
            for (j, value) in e.values.iter().enumerate() {
                for msg in is_valid_label_value(value) {
                    push_fmt(
                        &mut warnings,
                        format_args!(
                            "{path}.matchExpressions[{i}].values[{j}]: {value} is invalid, {msg}"
                        ),
                    );
                }
            }
        }
    }
    warnings
}

/// `GetWarningsForPod(ctx, pod, oldPod)`: the pod warnings with a nil field path.
pub fn get_warnings_for_pod(pod: &Pod, gates: &FeatureGates) -> Vec<String> {
    warnings_for_shared_pod_spec_and_meta(None, &pod.spec, &pod.metadata, gates)
}

/// `GetWarningsForPodTemplate(ctx, fieldPath, podTemplate, oldPodTemplate)`. The old template
/// is not consulted in 1.35.
pub fn get_warnings_for_pod_template(
    field_path: Option<&str>,
    template: &PodTemplateSpec,
    gates: &FeatureGates,
) -> Vec<String> {
    warnings_for_shared_pod_spec_and_meta(field_path, &template.spec, &template.metadata, gates)
}

/// A spec whose warnings were computed without annotations: the spec (held, so its contents
/// stay fixed and its address unique), the field path, the `GitRepoVolumeDriver` gate (the one
/// gate the warnings read) and the warnings.
type SpecWarnings = (Arc<PodSpec>, Option<String>, bool, Vec<String>);

thread_local! {
    /// The last few specs' warnings (see [`warnings_for_shared_pod_spec_and_meta`]).
    static SPEC_WARNINGS: std::cell::RefCell<Vec<SpecWarnings>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`warnings_for_pod_spec_and_meta`] for a shared spec, remembering the last few answers for
/// objects without annotations: a CronJob's template spec is shared by every Job and pod made
/// from it, and each create asks for the warnings again. Without annotations the warnings read
/// only the spec, the field path and one gate.
fn warnings_for_shared_pod_spec_and_meta(
    field_path: Option<&str>,
    spec: &Arc<PodSpec>,
    meta: &ObjectMeta,
    gates: &FeatureGates,
) -> Vec<String> {
    if !meta.annotations.is_empty() {
        return warnings_for_pod_spec_and_meta(field_path, spec, meta, gates);
    }
    let git_repo = gates.enabled("GitRepoVolumeDriver");
    let seen = SPEC_WARNINGS.with_borrow(|memo| {
        memo.iter()
            .find(|(s, p, g, _)| {
                Arc::ptr_eq(s, spec) && p.as_deref() == field_path && *g == git_repo
            })
            .map(|(_, _, _, w)| w.clone())
    });
    if let Some(w) = seen {
        return w;
    }
    let w = warnings_for_pod_spec_and_meta(field_path, spec, meta, gates);
    SPEC_WARNINGS.with_borrow_mut(|memo| {
        if memo.len() == 8 {
            memo.remove(0);
        }
        memo.push((
            spec.clone(),
            field_path.map(str::to_owned),
            git_repo,
            w.clone(),
        ));
    });
    w
}

/// A container as `pods.VisitContainersWithPath` hands it over (init containers first).
fn visit_containers<'a>(
    spec: &'a PodSpec,
    spec_path: &'a str,
) -> Vec<(ContainerPath<'a>, &'a Container)> {
    let mut v = Vec::with_capacity(spec.init_containers.len() + spec.containers.len());
    for (list, containers) in [
        ("initContainers", &spec.init_containers),
        ("containers", &spec.containers),
    ] {
        for (index, c) in containers.iter().enumerate() {
            let path = ContainerPath {
                spec_path,
                list,
                index,
            };
            v.push((path, c));
        }
    }
    // Ephemeral containers have no ports and cannot be set on create or by an update of the
    // pod (only through the ephemeralcontainers subresource, which kubeplay does not serve).
    v
}

fn host_port(p: &ContainerPort) -> i64 {
    p.extra.get("hostPort").and_then(Value::as_i64).unwrap_or(0)
}

fn host_ip(p: &ContainerPort) -> &str {
    p.extra.get("hostIP").and_then(Value::as_str).unwrap_or("")
}

/// Go's `%+v` of a `core.ContainerPort`.
fn format_container_port(p: &ContainerPort) -> String {
    format!(
        "{{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{}}}",
        p.name.as_deref().unwrap_or(""),
        host_port(p),
        p.container_port,
        p.protocol.as_deref().unwrap_or(""),
        host_ip(p)
    )
}

fn warnings_for_pod_spec_and_meta(
    field_path: Option<&str>,
    spec: &PodSpec,
    meta: &ObjectMeta,
    gates: &FeatureGates,
) -> Vec<String> {
    let mut warnings = vec![];
    let spec_path = child(field_path, "spec");
    let annotations_path = Child(field_path, "metadata.annotations");
    let annotations = &meta.annotations;

    // use of deprecated node labels in selectors/affinity/topology
    for k in spec.node_selector.keys() {
        if let Some(msg) = get_node_label_deprecated_message(k) {
            push_fmt(
                &mut warnings,
                format_args!("{spec_path}.nodeSelector[{k}]: {msg}"),
            );
        }
    }
    if let Some(n) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
    {
        if let Some(req) = &n.required_during_scheduling_ignored_during_execution {
            let term_path = format!("{spec_path}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
            for (i, term) in req.node_selector_terms.iter().enumerate() {
                warnings.extend(warnings_for_node_selector_term(
                    &term.match_expressions,
                    false,
                    &format!("{term_path}[{i}]"),
                ));
            }
        }
        let preferred_path = format!(
            "{spec_path}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution"
        );
        for (i, term) in array(&n.extra, "preferredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            let exprs: Vec<NodeSelectorRequirement> = term
                .get("preference")
                .map_or(&[][..], |p| value_array(p, "matchExpressions"))
                .iter()
                .map(|e| NodeSelectorRequirement {
                    key: str_of(e, "key").to_string(),
                    operator: String::new(),
                    values: value_array(e, "values")
                        .iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect(),
                })
                .collect();
            warnings.extend(warnings_for_node_selector_term(
                &exprs,
                true,
                &format!("{preferred_path}[{i}].preference"),
            ));
        }
    }
    for (i, t) in array(&spec.extra, "topologySpreadConstraints")
        .iter()
        .enumerate()
    {
        let key = str_of(t, "topologyKey");
        let path = format!("{spec_path}.topologySpreadConstraints[{i}]");
        if let Some(msg) = get_node_label_deprecated_message(key) {
            push_fmt(
                &mut warnings,
                format_args!("{path}.topologyKey: {key} is {msg}"),
            );
        }
        // warn if labelSelector is empty which is no-match.
        if t.get("labelSelector").is_none_or(Value::is_null) {
            push_fmt(
                &mut warnings,
                format_args!("{path}.labelSelector: {NULL_SELECTOR}"),
            );
        }
    }

    // use of deprecated annotations
    for (key, message) in DEPRECATED_ANNOTATIONS {
        if annotations.contains_key(*key) {
            push_fmt(
                &mut warnings,
                format_args!("{annotations_path}[{key}]: {message}"),
            );
        }
    }

    // deprecated and removed volume plugins
    let volumes = array(&spec.extra, "volumes");
    let git_repo_message = if gates.enabled("GitRepoVolumeDriver") {
        "deprecated in v1.11"
    } else {
        "deprecated in v1.11, and disabled by default in v1.33+"
    };
    for (i, v) in volumes.iter().enumerate() {
        let Some(v) = v.as_object() else { continue };
        let path = format!("{spec_path}.volumes[{i}]");
        // A volume has exactly one source, so the order among these does not matter.
        let deprecated: [(&str, &str, &str); 9] = [
            (
                "photonPersistentDisk",
                "photonPersistentDisk",
                "deprecated in v1.11, non-functional in v1.16+",
            ),
            ("gitRepo", "gitRepo", git_repo_message),
            (
                "scaleIO",
                "scaleIO",
                "deprecated in v1.16, non-functional in v1.22+",
            ),
            (
                "flocker",
                "flocker",
                "deprecated in v1.22, non-functional in v1.25+",
            ),
            (
                "storageos",
                "storageOS",
                "deprecated in v1.22, non-functional in v1.25+",
            ),
            (
                "quobyte",
                "quobyte",
                "deprecated in v1.22, non-functional in v1.25+",
            ),
            (
                "glusterfs",
                "glusterfs",
                "deprecated in v1.25, non-functional in v1.26+",
            ),
            (
                "cephfs",
                "cephfs",
                "deprecated in v1.28, non-functional in v1.31+",
            ),
            (
                "rbd",
                "rbd",
                "deprecated in v1.28, non-functional in v1.31+",
            ),
        ];
        for (json, field, msg) in deprecated {
            if set(v, json).is_some() {
                push_fmt(&mut warnings, format_args!("{path}.{field}: {msg}"));
            }
        }
        if let Some(tpl) = set(v, "ephemeral").and_then(|e| e.get("volumeClaimTemplate")) {
            if !tpl.is_null() {
                let resources = tpl.get("spec").and_then(|s| s.get("resources"));
                let base = format!("{path}.ephemeral.volumeClaimTemplate.spec.resources");
                for which in ["requests", "limits"] {
                    fractional_json(
                        resources.and_then(|r| r.get(which)),
                        "storage",
                        &format!("{base}.{which}"),
                        &mut warnings,
                    );
                }
            }
        }
    }

    warnings.extend(warnings_for_overlapping_virtual_paths(volumes));

    // duplicate hostAliases (#91670, #58477)
    let host_aliases = array(&spec.extra, "hostAliases");
    if host_aliases.len() > 1 {
        let mut items: Vec<&str> = vec![];
        for (i, item) in host_aliases.iter().enumerate() {
            let ip = str_of(item, "ip");
            if items.contains(&ip) {
                push_fmt(
                    &mut warnings,
                    format_args!(
                        "{spec_path}.hostAliases[{i}].ip: duplicate ip {}",
                        go_quote(ip)
                    ),
                );
            } else {
                items.push(ip);
            }
        }
    }
    // non-standard IP addresses (KEP-4858: warnings before stricter validation)
    if let Some(dns) = spec.extra.get("dnsConfig").and_then(Value::as_object) {
        for (i, ns) in array(dns, "nameservers").iter().enumerate() {
            if let Some(ns) = ns.as_str() {
                warnings.extend(get_warnings_for_ip(
                    &format!("{spec_path}.dnsConfig.nameservers[{i}]"),
                    ns,
                ));
            }
        }
    }
    for (i, item) in host_aliases.iter().enumerate() {
        warnings.extend(get_warnings_for_ip(
            &format!("{spec_path}.hostAliases[{i}].ip"),
            str_of(item, "ip"),
        ));
    }

    // duplicate imagePullSecrets (#91629, #58477)
    let pull_secrets = array(&spec.extra, "imagePullSecrets");
    if pull_secrets.len() > 1 {
        let mut items: Vec<&str> = vec![];
        for (i, item) in pull_secrets.iter().enumerate() {
            let name = str_of(item, "name");
            if items.contains(&name) {
                push_fmt(
                    &mut warnings,
                    format_args!(
                        "{spec_path}.imagePullSecrets[{i}].name: duplicate name {}",
                        go_quote(name)
                    ),
                );
            } else {
                items.push(name);
            }
        }
    }
    // imagePullSecrets with empty name (#99454#issuecomment-787838112)
    for (i, item) in pull_secrets.iter().enumerate() {
        if str_of(item, "name").is_empty() {
            push_fmt(
                &mut warnings,
                format_args!("{spec_path}.imagePullSecrets[{i}].name: invalid empty name \"\""),
            );
        }
    }

    // fractional memory/ephemeral-storage requests/limits (#79950, #49442, #18538)
    let overhead = spec.extra.get("overhead");
    let overhead_path = format!("{spec_path}.overhead");
    fractional_json(overhead, "memory", &overhead_path, &mut warnings);
    fractional_json(overhead, "ephemeral-storage", &overhead_path, &mut warnings);

    // use of pod seccomp annotation without accompanying field
    let pod_sc = spec.extra.get("securityContext");
    let pod_has = |field: &str| {
        pod_sc
            .and_then(|s| s.get(field))
            .is_some_and(|v| !v.is_null())
    };
    if !pod_has("seccompProfile") && annotations.contains_key(SECCOMP_POD_ANNOTATION_KEY) {
        push_fmt(
            &mut warnings,
            format_args!("{annotations_path}[{SECCOMP_POD_ANNOTATION_KEY}]: {SECCOMP_MESSAGE}"),
        );
    }
    let has_pod_apparmor_profile = pod_has("appArmorProfile");

    let containers = visit_containers(spec, &spec_path);
    for (p, c) in &containers {
        let sc = c.extra.get("securityContext");
        let c_has = |field: &str| sc.and_then(|s| s.get(field)).is_some_and(|v| !v.is_null());
        // use of container seccomp annotation without accompanying field
        if !annotations.is_empty() && !c_has("seccompProfile") {
            let key = format!("{SECCOMP_CONTAINER_ANNOTATION_KEY_PREFIX}{}", c.name);
            if annotations.contains_key(&key) {
                push_fmt(
                    &mut warnings,
                    format_args!("{annotations_path}[{key}]: {SECCOMP_MESSAGE}"),
                );
            }
        }
        // use of container AppArmor annotation without accompanying field (AppArmorFields is
        // GA); pod warnings come from `applyAppArmorVersionSkew` instead.
        let is_pod_template = field_path.is_some();
        if is_pod_template
            && !annotations.is_empty()
            && !(has_pod_apparmor_profile || c_has("appArmorProfile"))
        {
            let key = format!("{DEPRECATED_APPARMOR_ANNOTATION_KEY_PREFIX}{}", c.name);
            if annotations.contains_key(&key) {
                push_fmt(
                    &mut warnings,
                    format_args!(
                        r#"{annotations_path}[{key}]: deprecated since v1.30; use the "appArmorProfile" field instead"#
                    ),
                );
            }
        }

        // fractional memory/ephemeral-storage requests/limits (#79950, #49442, #18538)
        if let Some(r) = &c.resources {
            for (list, which, name) in [
                (&r.limits, "limits", "memory"),
                (&r.requests, "requests", "memory"),
                (&r.limits, "limits", "ephemeral-storage"),
                (&r.requests, "requests", "ephemeral-storage"),
            ] {
                if let Some(s) = list.get(name).and_then(fractional) {
                    warnings.push(fractional_warning(
                        format!("{p}.resources.{which}[{name}]"),
                        &s,
                    ));
                }
            }
        }

        // duplicate containers[*].env (#86163, #93266, #58477)
        let env = array(&c.extra, "env");
        if env.len() > 1 {
            let mut items: Vec<&str> = vec![];
            for (i, item) in env.iter().enumerate() {
                let name = str_of(item, "name");
                if items.contains(&name) {
                    // a previous value exists, but it might be OK
                    let reference = format!("$({name})");
                    let value = str_of(item, "value");
                    // if we are replacing it with a valueFrom, warn; if this is X="$(X)", warn;
                    // if the new value does not contain a reference to the old value, warn
                    let bad = item.get("valueFrom").is_some_and(|v| !v.is_null())
                        || value == reference
                        || !value.contains(&reference);
                    if bad {
                        push_fmt(&mut warnings, format_args!(
                            "{p}.env[{i}]: hides previous definition of {}, which may be dropped when using apply",
                            go_quote(name)
                        ));
                    }
                } else {
                    items.push(name);
                }
            }
        }
    }

    // Accumulate ports across all containers
    // (protocol+port key, field path, port), in visiting order; pods have few ports.
    let mut all_ports: Vec<(String, String, &ContainerPort)> = vec![];
    for (p, c) in &containers {
        for (i, port) in c.ports.iter().enumerate() {
            let path = format!("{p}.ports[{i}]");
            if !host_ip(port).is_empty() && host_port(port) == 0 {
                push_fmt(
                    &mut warnings,
                    format_args!(
                        "{path}: hostIP set without hostPort: {}",
                        format_container_port(port)
                    ),
                );
            }
            let k = format!(
                "{}/{}",
                port.container_port,
                port.protocol.as_deref().unwrap_or("")
            );
            // Someone else has this protocol+port, but it still might not be a conflict.
            for (_, other_path, other) in all_ports.iter().filter(|(ok, ..)| *ok == k) {
                let (a_ip, b_ip) = (host_ip(port), host_ip(other));
                let (a_port, b_port) = (host_port(port), host_port(other));
                let kind = if a_ip == b_ip && a_port == b_port {
                    // Exactly-equal is obvious.
                    "duplicate"
                } else if a_port == 0 || b_port == 0 {
                    // HostPort = 0 is redundant with any other value.
                    "overlapping"
                } else if a_port == b_port && (a_ip.is_empty() != b_ip.is_empty()) {
                    // Same HostPort, one HostIP unspecified: the behavior is undefined.
                    "dangerously ambiguous"
                } else {
                    continue;
                };
                push_fmt(
                    &mut warnings,
                    format_args!("{path}: {kind} port definition with {other_path}"),
                );
            }
            all_ports.push((k, path, port));
        }
    }

    // duplicate port names: services and probes resolve a name to the first port holding it
    let mut port_names: Vec<(&str, String)> = vec![];
    for (p, c) in &containers {
        for (i, port) in c.ports.iter().enumerate() {
            let Some(name) = port.name.as_deref().filter(|n| !n.is_empty()) else {
                continue;
            };
            let path = format!("{p}.ports[{i}]");
            match port_names.iter().find(|(n, _)| *n == name) {
                Some((_, other)) => push_fmt(&mut warnings, format_args!(
                    "{path}: duplicate port name {} with {other}, services and probes that select ports by name will use {other}",
                    go_quote(name)
                )),
                None => port_names.push((name, path)),
            }
        }
    }

    // warn if the terminationGracePeriodSeconds is negative.
    if spec.termination_grace_period_seconds.is_some_and(|s| s < 0) {
        push_fmt(&mut warnings, format_args!(
            "{spec_path}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
        ));
    }

    if let Some(a) = &spec.affinity {
        for kind in ["podAffinity", "podAntiAffinity"] {
            let Some(aff) = a.extra.get(kind).and_then(Value::as_object) else {
                continue;
            };
            let base = format!("{spec_path}.affinity.{kind}");
            for (list, term) in [
                ("requiredDuringSchedulingIgnoredDuringExecution", ""),
                (
                    "preferredDuringSchedulingIgnoredDuringExecution",
                    "podAffinityTerm",
                ),
            ] {
                for (i, t) in array(aff, list).iter().enumerate() {
                    let t = if term.is_empty() {
                        Some(t)
                    } else {
                        t.get(term)
                    };
                    if t.and_then(|t| t.get("labelSelector"))
                        .is_none_or(Value::is_null)
                    {
                        let dot = if term.is_empty() { "" } else { "." };
                        push_fmt(
                            &mut warnings,
                            format_args!(
                                "{base}.{list}[{i}]{dot}{term}.labelSelector: {NULL_SELECTOR}"
                            ),
                        );
                    }
                }
            }
        }
    }

    warnings
}

/// A path in a volume and where it came from (`pathAndSource`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathAndSource {
    pub path: String,
    pub source: String,
}

/// `checkForOverlap`: the earlier paths that are the same file as `path` or a directory of it
/// (or a file in it), trailing slashes aside; empty paths overlap nothing.
pub fn check_for_overlap(
    check_paths: &[PathAndSource],
    path: &PathAndSource,
) -> Vec<PathAndSource> {
    let p = path.path.trim_end_matches('/');
    if p.is_empty() {
        return vec![];
    }
    check_paths
        .iter()
        .filter(|item| {
            let i = item.path.trim_end_matches('/');
            !i.is_empty()
                && (i == p
                    || p.strip_prefix(i).is_some_and(|r| r.starts_with('/'))
                    || i.strip_prefix(p).is_some_and(|r| r.starts_with('/')))
        })
        .cloned()
        .collect()
}

fn item_paths(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| str_of(i, "path").to_string())
        .collect()
}

/// The overlap warnings within one ConfigMap, Secret or DownwardAPI volume.
fn single_source_overlaps(paths: &[String], message: &str, out: &mut Vec<String>) {
    let mut seen: Vec<PathAndSource> = vec![];
    for p in paths {
        let cur = PathAndSource {
            path: p.clone(),
            source: String::new(),
        };
        for other in check_for_overlap(&seen, &cur) {
            push_fmt(
                out,
                format_args!(
                    "{message}: {} with {}",
                    go_quote(p.trim_end_matches('/')),
                    go_quote(&other.path)
                ),
            );
        }
        seen.push(cur);
    }
}

/// `warningsForOverlappingVirtualPaths`: keys mapped onto the same path (or onto a file and a
/// directory of it) in one ConfigMap, Secret, DownwardAPI or projected volume.
fn warnings_for_overlapping_virtual_paths(volumes: &[Value]) -> Vec<String> {
    let mut warnings = vec![];
    for v in volumes {
        let name = go_quote(str_of(v, "name"));
        if let Some(cm) = v.get("configMap").filter(|c| c.get("items").is_some()) {
            let msg = format!(
                "volume {name} (ConfigMap {}): overlapping paths",
                go_quote(str_of(cm, "name"))
            );
            single_source_overlaps(&item_paths(value_array(cm, "items")), &msg, &mut warnings);
        }
        if let Some(s) = v.get("secret").filter(|c| c.get("items").is_some()) {
            let msg = format!(
                "volume {name} (Secret {}): overlapping paths",
                go_quote(str_of(s, "secretName"))
            );
            single_source_overlaps(&item_paths(value_array(s, "items")), &msg, &mut warnings);
        }
        if let Some(d) = v.get("downwardAPI").filter(|c| c.get("items").is_some()) {
            let msg = format!("volume {name} (DownwardAPI): overlapping paths");
            single_source_overlaps(&item_paths(value_array(d, "items")), &msg, &mut warnings);
        }
        let Some(projected) = v.get("projected").filter(|p| !p.is_null()) else {
            continue;
        };
        let mut all: Vec<PathAndSource> = vec![];
        for source in value_array(projected, "sources") {
            let Some(s) = source.as_object() else {
                continue;
            };
            if s.values().all(Value::is_null) {
                push_fmt(
                    &mut warnings,
                    format_args!("volume {name} (Projected) has no sources provided"),
                );
                continue;
            }
            let (paths, label) = if let Some(cm) = set(s, "configMap") {
                (
                    item_paths(value_array(cm, "items")),
                    format!("ConfigMap {}", go_quote(str_of(cm, "name"))),
                )
            } else if let Some(sec) = set(s, "secret") {
                (
                    item_paths(value_array(sec, "items")),
                    format!("Secret {}", go_quote(str_of(sec, "name"))),
                )
            } else if let Some(d) = set(s, "downwardAPI") {
                (item_paths(value_array(d, "items")), "DownwardAPI".into())
            } else if let Some(t) = set(s, "serviceAccountToken") {
                (
                    vec![str_of(t, "path").to_string()],
                    "ServiceAccountToken".into(),
                )
            } else if let Some(b) = set(s, "clusterTrustBundle") {
                let n = b
                    .get("name")
                    .and_then(Value::as_str)
                    .or_else(|| b.get("signerName").and_then(Value::as_str))
                    .unwrap_or("");
                (
                    vec![str_of(b, "path").to_string()],
                    format!("ClusterTrustBundle {}", go_quote(n)),
                )
            } else {
                continue;
            };
            for p in paths {
                let cur = PathAndSource {
                    path: p,
                    source: label.clone(),
                };
                for other in check_for_overlap(&all, &cur) {
                    push_fmt(
                        &mut warnings,
                        format_args!(
                            "volume {name} (Projected): overlapping paths: {} ({}) with {} ({})",
                            go_quote(cur.path.trim_end_matches('/')),
                            cur.source,
                            go_quote(&other.path),
                            other.source
                        ),
                    );
                }
                all.push(cur);
            }
        }
    }
    warnings
}

fn value_array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

/// `pvcutil.GetWarningsForPersistentVolumeClaimSpec`: fractional storage requests and limits.
pub fn get_warnings_for_persistent_volume_claim_spec(
    path: &str,
    spec: &PersistentVolumeClaimSpec,
) -> Vec<String> {
    let mut warnings = vec![];
    for (list, which) in [
        (&spec.resources.requests, "requests"),
        (&spec.resources.limits, "limits"),
    ] {
        if let Some(s) = list.get("storage").and_then(fractional) {
            warnings.push(fractional_warning(
                format!("{path}.resources.{which}[storage]"),
                &s,
            ));
        }
    }
    warnings
}

/// `pvcutil.GetWarningsForPersistentVolumeClaim`.
pub fn get_warnings_for_persistent_volume_claim(pvc: &PersistentVolumeClaim) -> Vec<String> {
    let mut warnings = vec![];
    const BETA_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
    if pvc.metadata.annotations.contains_key(BETA_STORAGE_CLASS) {
        push_fmt(&mut warnings, format_args!(
            "metadata.annotations[{BETA_STORAGE_CLASS}]: deprecated since v1.8; use \"storageClassName\" attribute instead"
        ));
    }
    warnings.extend(get_warnings_for_persistent_volume_claim_spec(
        "spec", &pvc.spec,
    ));
    warnings
}

/// `serviceapi.GetWarningsForService` (pkg/api/service/warnings.go).
pub fn get_warnings_for_service(svc: &Service) -> Vec<String> {
    let mut warnings = vec![];
    let spec = &svc.spec;
    const DEPRECATED_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
    if svc.metadata.annotations.contains_key(DEPRECATED_HINTS) {
        push_fmt(&mut warnings, format_args!(
            "annotation {DEPRECATED_HINTS} is deprecated, please use service.kubernetes.io/topology-mode instead"
        ));
    }
    // `helper.IsServiceIPSet`: neither empty nor None.
    if !spec.cluster_ip.is_empty() && spec.cluster_ip != "None" {
        for (i, ip) in spec.cluster_ips.iter().enumerate() {
            warnings.extend(get_warnings_for_ip(&format!("spec.clusterIPs[{i}]"), ip));
        }
    }
    let headless = spec.type_ == "ClusterIP" && spec.cluster_ip == "None";
    let lb_ip = spec
        .extra
        .get("loadBalancerIP")
        .and_then(Value::as_str)
        .unwrap_or("");
    let external_ips: Vec<&str> = array(&spec.extra, "externalIPs")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if headless {
        if !lb_ip.is_empty() {
            warnings.push("spec.loadBalancerIP is ignored for headless services".into());
        }
        if !external_ips.is_empty() {
            warnings.push("spec.externalIPs is ignored for headless services".into());
        }
        if spec.session_affinity != "None" {
            warnings.push("spec.SessionAffinity is ignored for headless services".into());
        }
    }
    for (i, ip) in external_ips.iter().enumerate() {
        warnings.extend(get_warnings_for_ip(&format!("spec.externalIPs[{i}]"), ip));
    }
    if !external_ips.is_empty() && !headless && spec.type_ != "ExternalName" {
        warnings.push(
            "spec.externalIPs is deprecated and may no longer be implemented in some clusters"
                .into(),
        );
    }
    if !lb_ip.is_empty() {
        warnings.extend(get_warnings_for_ip("spec.loadBalancerIP", lb_ip));
    }
    for (i, cidr) in array(&spec.extra, "loadBalancerSourceRanges")
        .iter()
        .filter_map(Value::as_str)
        .enumerate()
    {
        warnings.extend(get_warnings_for_cidr(
            &format!("spec.loadBalancerSourceRanges[{i}]"),
            cidr,
        ));
    }
    if spec.type_ == "ExternalName" && !external_ips.is_empty() {
        warnings.push("spec.externalIPs is ignored when spec.type is \"ExternalName\"".into());
    }
    let external_name = spec
        .extra
        .get("externalName")
        .and_then(Value::as_str)
        .unwrap_or("");
    if spec.type_ != "ExternalName" && !external_name.is_empty() {
        warnings.push("spec.externalName is ignored when spec.type is not \"ExternalName\"".into());
    }
    if spec
        .extra
        .get("trafficDistribution")
        .and_then(Value::as_str)
        == Some("PreferClose")
    {
        warnings.push(
            "spec.trafficDistribution: \"PreferClose\" is deprecated; use \"PreferSameZone\""
                .into(),
        );
    }
    warnings
}

/// The `metadata.name` warning of the workload strategies (`IsDNS1123Label`, printed `%v`).
fn name_warning(name: &str, what: &str) -> Option<String> {
    let msgs = is_dns1123_label(name);
    (!msgs.is_empty()).then(|| {
        format!(
            "metadata.name: this is used in {what}, which can result in surprising behavior; a DNS label is recommended: [{}]",
            msgs.join(" ")
        )
    })
}

const POD_NAMES: &str = "Pod names and hostnames";

/// `job.WarningsForJobSpec` (pkg/api/job/warnings.go).
fn warnings_for_job_spec(
    path: &str,
    spec: &super::batch::JobSpec,
    gates: &FeatureGates,
) -> Vec<String> {
    const COMPLETIONS_SOFT_LIMIT: i32 = 100_000;
    const PARALLELISM_SOFT_LIMIT_FOR_UNLIMITED_COMPLETIONS: i32 = 10_000;
    let mut warnings = vec![];
    if spec.completion_mode.as_deref() == Some("Indexed")
        && spec.completions.unwrap_or(0) > COMPLETIONS_SOFT_LIMIT
        && spec.parallelism.unwrap_or(0) > PARALLELISM_SOFT_LIMIT_FOR_UNLIMITED_COMPLETIONS
    {
        push_fmt(&mut warnings, format_args!("{path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"));
    }
    warnings.extend(get_warnings_for_pod_template(
        Some(&format!("{path}.template")),
        &spec.template,
        gates,
    ));
    warnings
}

fn statefulset_tail(s: &super::apps_more::StatefulSet, vct_child: &str, out: &mut Vec<String>) {
    for (i, pvc) in s.spec.volume_claim_templates.iter().enumerate() {
        out.extend(get_warnings_for_persistent_volume_claim_spec(
            &format!("spec.volumeClaimTemplates[{i}]{vct_child}"),
            &pvc.spec,
        ));
    }
    if s.spec.revision_history_limit.is_some_and(|l| l < 0) {
        out.push("spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended".into());
    }
}

const TEMPLATE: Option<&str> = Some("spec.template");

/// The kind's `WarningsOnCreate`, on the object as validated (defaulted, name generated).
pub fn warnings_on_create(o: &Object, gates: &FeatureGates) -> Vec<String> {
    let name = &o.meta().name;
    let mut w: Vec<String> = vec![];
    match o {
        Object::Pod(p) => {
            w.extend(name_warning(name, "the Pod's hostname"));
            w.extend(get_warnings_for_pod(p, gates));
        }
        Object::Deployment(d) => {
            w.extend(name_warning(name, POD_NAMES));
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &d.spec.template,
                gates,
            ));
        }
        Object::ReplicaSet(r) => {
            w.extend(name_warning(name, POD_NAMES));
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &r.spec.template,
                gates,
            ));
        }
        Object::ReplicationController(r) => {
            w.extend(name_warning(name, POD_NAMES));
            if let Some(t) = &r.spec.template {
                w.extend(get_warnings_for_pod_template(TEMPLATE, t, gates));
            }
        }
        Object::DaemonSet(d) => {
            w.extend(name_warning(name, POD_NAMES));
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &d.spec.template,
                gates,
            ));
        }
        Object::StatefulSet(s) => {
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &s.spec.template,
                gates,
            ));
            statefulset_tail(s, "", &mut w);
        }
        Object::Job(j) => {
            w.extend(name_warning(name, POD_NAMES));
            w.extend(warnings_for_job_spec("spec", &j.spec, gates));
        }
        Object::CronJob(c) => {
            w.extend(name_warning(name, POD_NAMES));
            w.extend(warnings_for_job_spec(
                "spec.jobTemplate.spec",
                &c.spec.job_template.spec,
                gates,
            ));
        }
        Object::Service(s) => w.extend(get_warnings_for_service(s)),
        Object::PersistentVolumeClaim(c) => w.extend(get_warnings_for_persistent_volume_claim(c)),
        _ => {}
    }
    w
}

/// The kind's `WarningsOnUpdate` (the main resource, not `/status`), on the new object after
/// `PrepareForUpdate` (its generation bumped or not) and the stored one. Most kinds warn about
/// the pod template only when the generation moved; pods do not warn on update at all.
pub fn warnings_on_update(new: &Object, old: &Object, gates: &FeatureGates) -> Vec<String> {
    let moved = new.meta().generation != old.meta().generation;
    let mut w: Vec<String> = vec![];
    match (new, old) {
        (Object::Deployment(d), _) if moved => {
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &d.spec.template,
                gates,
            ));
        }
        (Object::ReplicaSet(r), _) if moved => {
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &r.spec.template,
                gates,
            ));
        }
        // `rcStrategy.WarningsOnUpdate` hands the OLD template to GetWarningsForPodTemplate
        // (its arguments are swapped upstream), so the warnings describe the stored template.
        (Object::ReplicationController(_), Object::ReplicationController(o)) if moved => {
            if let Some(t) = &o.spec.template {
                w.extend(get_warnings_for_pod_template(TEMPLATE, t, gates));
            }
        }
        // `daemonSetStrategy.WarningsOnUpdate`: when the template changed (templateGeneration).
        (Object::DaemonSet(d), Object::DaemonSet(o))
            if !super::semantic::semantic_equal(&d.spec.template, &o.spec.template) =>
        {
            w.extend(get_warnings_for_pod_template(
                TEMPLATE,
                &d.spec.template,
                gates,
            ));
        }
        (Object::StatefulSet(s), _) => {
            if moved {
                w.extend(get_warnings_for_pod_template(
                    TEMPLATE,
                    &s.spec.template,
                    gates,
                ));
            }
            // upstream's path names the field `Spec` here (`.Index(i).Child("Spec")`).
            statefulset_tail(s, ".Spec", &mut w);
        }
        (Object::Job(j), _) if moved => {
            w.extend(warnings_for_job_spec("spec", &j.spec, gates));
        }
        (Object::CronJob(c), _) => {
            if moved {
                w.extend(warnings_for_job_spec(
                    "spec.jobTemplate.spec",
                    &c.spec.job_template.spec,
                    gates,
                ));
            }
            if c.spec.schedule.contains("TZ") {
                // upstream's path is `spec.spec.schedule` (field.NewPath("spec", "spec", ...)).
                w.push("cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".into());
            }
        }
        (Object::Service(s), _) => w.extend(get_warnings_for_service(s)),
        (Object::PersistentVolumeClaim(c), _) => {
            w.extend(get_warnings_for_persistent_volume_claim(c));
        }
        _ => {}
    }
    w
}
