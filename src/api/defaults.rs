//! API-server defaulting (`pkg/apis/*/v1/defaults.go`), create/update strategies and the pod
//! admission defaults every cluster applies (DefaultTolerationSeconds, Priority, ServiceAccount).
//!
//! Defaults are what `kubectl get -o yaml` shows on a freshly created object: `dnsPolicy`,
//! `restartPolicy`, `schedulerName`, `securityContext: {}`, `terminationGracePeriodSeconds`,
//! per-container `imagePullPolicy`, `terminationMessagePath/Policy`, `resources: {}`, port
//! `protocol`, probe timings, volume modes, quantities in canonical form (`0.5` → `500m`).

use super::core::{Container, PodSpec, PodStatus, Quantity, ResourceRequirements};
use super::object::Object;
use super::validation::quantity::canonical_resource_quantity;
use crate::features::FeatureGates;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `v1.DefaultTerminationGracePeriodSeconds`.
pub const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: i64 = 30;
/// `v1.DefaultSchedulerName`.
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";
/// `v1.TerminationMessagePathDefault`.
pub const TERMINATION_MESSAGE_PATH_DEFAULT: &str = "/dev/termination-log";
pub use crate::admission::{
    DEFAULT_TOLERATION_SECONDS, TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE,
};

/// `PrepareForCreate` of each kind's REST strategy: a client cannot set status on create. For
/// pods the mutating admission plugins run here too (see [`admit_pod_create`]).
pub fn prepare_for_create(o: &mut Object) {
    prepare_for_create_gated(o, &FeatureGates::default());
}

/// [`prepare_for_create`] with the API server's feature gates (the strategies'
/// `dropDisabledFields` and the gated merges).
pub fn prepare_for_create_gated(o: &mut Object, gates: &FeatureGates) {
    // DropDisabledTemplateFields (each workload strategy's PrepareForCreate).
    if drops_pod_spec_fields(gates) {
        if let Some(spec) = template_spec_mut(o) {
            drop_disabled_pod_spec_fields(spec, None, gates);
        }
    }
    if let Object::StatefulSet(s) = o {
        drop_stateful_set_disabled_fields(s, None, gates);
    }
    match o {
        Object::Pod(p) => {
            drop_disabled_pod_spec_fields(&mut p.spec, None, gates);
            // MatchLabelKeysInPodAffinity (GA in 1.33): matchLabelKeys / mismatchLabelKeys
            // are merged into the pod (anti-)affinity label selectors.
            crate::api::validation::affinity::mutate_pod_affinity(p);
            // MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, on since 1.34):
            // topology spread matchLabelKeys are merged into the constraints' selectors.
            if p.spec
                .extra
                .get("topologySpreadConstraints")
                .and_then(serde_json::Value::as_array)
                .is_some_and(|cs| cs.iter().any(|c| c.get("matchLabelKeys").is_some()))
            {
                let labels = p.metadata.labels.clone();
                crate::api::validation::affinity::mutate_topology_spread_constraints(
                    &mut p.spec_mut().extra,
                    &labels,
                    gates,
                );
            }
            apply_to_shared_pod_spec(&mut p.spec, SpecStep::PodAdmission, admit_pod_create);
            p.status = (PodStatus {
                phase: "Pending".into(),
                ..Default::default()
            })
            .into();
            p.status.qos_class = qos_class(&p.spec).into();
        }
        Object::ReplicaSet(rs) => rs.status = Default::default(),
        Object::ReplicationController(rc) => rc.status = Default::default(),
        Object::Node(_) => {}
        Object::Deployment(d) => super::deployment_defaults::prepare_for_create(d),
        Object::Job(j) => super::batch_defaults::prepare_for_create_job(j),
        Object::CronJob(cj) => super::batch_defaults::prepare_for_create_cron_job(cj),
        Object::StatefulSet(_)
        | Object::DaemonSet(_)
        | Object::ControllerRevision(_)
        | Object::PersistentVolumeClaim(_)
        | Object::Service(_) => super::sts_ds_defaults::prepare_for_create(o),
        Object::HorizontalPodAutoscaler(h) => {
            h.status = Default::default();
            super::autoscaling_validation::drop_disabled_fields(h, None, gates);
        }
        // `podDisruptionBudgetStrategy.PrepareForCreate`: the status is cleared (generation 1 is
        // set with the other kinds').
        Object::PodDisruptionBudget(p) => p.status = Default::default(),
    }
}

/// The pod template's spec of a workload (none for pods and template-less kinds).
fn template_spec(o: &Object) -> Option<&Arc<PodSpec>> {
    match o {
        Object::ReplicaSet(x) => Some(&x.spec.template.spec),
        Object::ReplicationController(x) => x.spec.template.as_ref().map(|t| &t.spec),
        Object::Deployment(x) => Some(&x.spec.template.spec),
        Object::DaemonSet(x) => Some(&x.spec.template.spec),
        Object::StatefulSet(x) => Some(&x.spec.template.spec),
        Object::Job(x) => Some(&x.spec.template.spec),
        Object::CronJob(x) => Some(&x.spec.job_template.spec.template.spec),
        _ => None,
    }
}

/// Whether a gate [`drop_disabled_pod_spec_fields`] reads is off (else templates are not
/// touched, so shared ones are not copied).
fn drops_pod_spec_fields(gates: &FeatureGates) -> bool {
    !gates.enabled("PodLevelResources") || !gates.enabled("MatchLabelKeysInPodTopologySpread")
}

/// [`template_spec`] for writing (copies a shared template first).
fn template_spec_mut(o: &mut Object) -> Option<&mut Arc<PodSpec>> {
    template_spec(o)?;
    match o {
        Object::ReplicaSet(x) => Some(&mut x.spec.template_mut().spec),
        Object::ReplicationController(x) => x.spec.template.as_mut().map(|t| &mut t.spec),
        Object::Deployment(x) => Some(&mut x.spec.template_mut().spec),
        Object::DaemonSet(x) => Some(&mut Arc::make_mut(&mut x.spec.template).spec),
        Object::StatefulSet(x) => Some(&mut Arc::make_mut(&mut x.spec.template).spec),
        Object::Job(x) => Some(&mut x.spec.template_mut().spec),
        Object::CronJob(x) => Some(&mut x.spec.job_template.spec.template_mut().spec),
        _ => None,
    }
}

/// The gated parts of `dropDisabledFields` (`pkg/api/pod/util.go`, for pods and pod templates)
/// that kubeplay models: `spec.resources` without `PodLevelResources`
/// (`dropDisabledPodLevelResources`) and topology spread `matchLabelKeys` without
/// `MatchLabelKeysInPodTopologySpread` (`dropDisabledMatchLabelKeysFieldInTopologySpread`), each
/// kept when the old spec already uses it. With the gates on nothing is touched (nor copied).
fn drop_disabled_pod_spec_fields(
    spec: &mut Arc<PodSpec>,
    old: Option<&PodSpec>,
    gates: &FeatureGates,
) {
    if !gates.enabled("PodLevelResources")
        && spec.resources.is_some()
        && old.is_none_or(|o| o.resources.is_none())
    {
        Arc::make_mut(spec).resources = None;
    }
    if !gates.enabled("MatchLabelKeysInPodTopologySpread")
        && crate::api::validation::affinity::match_label_keys_in_topology_spread_in_use(
            spec.extra.get("topologySpreadConstraints"),
        )
    {
        crate::api::validation::affinity::drop_disabled_match_label_keys_in_topology_spread(
            &mut Arc::make_mut(spec).extra,
            old.map(|o| &o.extra),
            gates,
        );
    }
}

/// The gated parts of the strategies' `PrepareForUpdate` (`dropDisabledFields` against the
/// stored object): a pod's `spec.resources` without `PodLevelResources`, its topology spread
/// `matchLabelKeys` without
/// `MatchLabelKeysInPodTopologySpread`, an HPA's `tolerance` without `HPAConfigurableTolerance`
/// — each kept when the stored object already uses it.
pub fn prepare_for_update_gated(new: &mut Object, old: &Object, gates: &FeatureGates) {
    // DropDisabledTemplateFields against the stored template.
    if drops_pod_spec_fields(gates) {
        let old_template = template_spec(old).cloned();
        if let Some(spec) = template_spec_mut(new) {
            drop_disabled_pod_spec_fields(spec, old_template.as_deref(), gates);
        }
    }
    match (new, old) {
        (Object::Pod(n), Object::Pod(o)) => {
            drop_disabled_pod_spec_fields(&mut n.spec, Some(&o.spec), gates);
        }
        (Object::HorizontalPodAutoscaler(n), Object::HorizontalPodAutoscaler(o)) => {
            super::autoscaling_validation::drop_disabled_fields(n, Some(o), gates);
        }
        (Object::StatefulSet(n), Object::StatefulSet(o)) => {
            drop_stateful_set_disabled_fields(n, Some(o), gates);
        }
        _ => {}
    }
}

/// `dropStatefulSetDisabledFields` (pkg/registry/apps/statefulset/strategy.go), run by the
/// strategy's `PrepareForCreate` (no old object) and `PrepareForUpdate`: without the
/// `MaxUnavailableStatefulSet` gate, `spec.updateStrategy.rollingUpdate.maxUnavailable` is
/// dropped unless the stored set already uses it (`maxUnavailableInUse`). (Its other two rules
/// are for gates that are GA and locked on: `StatefulSetMinReadySeconds`,
/// `StatefulSetAutoDeletePVC`.)
pub(crate) fn drop_stateful_set_disabled_fields(
    new: &mut crate::api::apps_more::StatefulSet,
    old: Option<&crate::api::apps_more::StatefulSet>,
    gates: &FeatureGates,
) {
    let max_unavailable_in_use = old.is_some_and(|o| {
        o.spec
            .update_strategy
            .rolling_update
            .as_ref()
            .is_some_and(|ru| ru.max_unavailable.is_some())
    });
    if !gates.enabled("MaxUnavailableStatefulSet") && !max_unavailable_in_use {
        if let Some(ru) = new.spec.update_strategy.rolling_update.as_mut() {
            ru.max_unavailable = None;
        }
    }
}

/// The default mutating admission plugins a pod passes on create:
/// * DefaultTolerationSeconds: tolerate `not-ready` and `unreachable` NoExecute taints for 300 s
///   unless the pod already tolerates them;
/// * Priority: with no `priorityClassName` (and no global default class) `priority: 0` and
///   `preemptionPolicy: PreemptLowerPriority`; the two built-in system classes get their values;
/// * ServiceAccount: `serviceAccountName: default` (the token volume is not modelled).
pub fn admit_pod_create(spec: &mut PodSpec) {
    crate::admission::default_toleration_seconds_spec(spec);
    let class = spec
        .extra
        .get("priorityClassName")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let priority = match class.as_str() {
        "" => Some(0),
        "system-node-critical" => Some(2_000_001_000),
        "system-cluster-critical" => Some(2_000_000_000),
        // kubeplay has no PriorityClass objects; upstream would look the class up.
        _ => None,
    };
    if let Some(p) = priority {
        if spec.priority.is_none() {
            spec.priority = Some(p);
        }
        spec.extra
            .entry("preemptionPolicy")
            .or_insert_with(|| "PreemptLowerPriority".into());
    }
    let sa = spec
        .extra
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or("default")
        .to_string();
    spec.extra
        .insert("serviceAccountName".into(), Value::String(sa.clone()));
    // The deprecated field mirrors it in v1 output.
    spec.extra
        .insert("serviceAccount".into(), Value::String(sa));
}

/// Copies `status` of `from` into `to` (same kind); used by update strategies.
pub fn copy_status(from: &Object, to: &mut Object) {
    match (from, to) {
        (Object::Pod(a), Object::Pod(b)) => b.status = a.status.clone(),
        (Object::Node(a), Object::Node(b)) => b.status = a.status.clone(),
        (Object::ReplicaSet(a), Object::ReplicaSet(b)) => b.status = a.status.clone(),
        (Object::ReplicationController(a), Object::ReplicationController(b)) => {
            b.status = a.status.clone()
        }
        (Object::Deployment(a), Object::Deployment(b)) => b.status = a.status.clone(),
        (Object::Job(a), Object::Job(b)) => b.status = a.status.clone(),
        (Object::CronJob(a), Object::CronJob(b)) => b.status = a.status.clone(),
        (Object::StatefulSet(a), Object::StatefulSet(b)) => b.status = a.status.clone(),
        (Object::DaemonSet(a), Object::DaemonSet(b)) => b.status = a.status.clone(),
        (Object::PersistentVolumeClaim(a), Object::PersistentVolumeClaim(b)) => {
            b.status = a.status.clone()
        }
        (Object::Service(a), Object::Service(b)) => b.status = a.status.clone(),
        (Object::HorizontalPodAutoscaler(a), Object::HorizontalPodAutoscaler(b)) => {
            b.status = a.status.clone()
        }
        (Object::PodDisruptionBudget(a), Object::PodDisruptionBudget(b)) => {
            b.status = a.status.clone()
        }
        _ => {}
    }
}

/// The tag `parsers.ParseImageName` reports: the explicit tag, `latest` when there is neither a
/// tag nor a digest, empty for a digest-only or unparseable reference (docker reference grammar:
/// `[domain[:port]/]path[:tag][@algo:hex]`, lower-case repository, tag `[\w][\w.-]{0,127}`).
pub fn image_tag(image: &str) -> String {
    parse_image_tag(image).unwrap_or_default()
}

fn is_path_component(s: &str) -> bool {
    // [a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*
    let b = s.as_bytes();
    if b.is_empty() || !(b[0].is_ascii_lowercase() || b[0].is_ascii_digit()) {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() || b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && matches!(b[i], b'.' | b'_' | b'-') {
            i += 1;
        }
        let sep = &s[start..i];
        let ok = sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|c| c == b'-');
        if !ok || i >= b.len() || !(b[i].is_ascii_lowercase() || b[i].is_ascii_digit()) {
            return false;
        }
    }
    true
}

fn is_domain(s: &str) -> bool {
    let (host, port) = if s.starts_with('[') {
        let Some(end) = s.find(']') else {
            return false;
        };
        let rest = &s[end + 1..];
        let port = match rest.strip_prefix(':') {
            Some(p) => Some(p),
            None if rest.is_empty() => None,
            None => return false,
        };
        let inner = &s[1..end];
        if inner.is_empty() || !inner.bytes().all(|c| c.is_ascii_hexdigit() || c == b':') {
            return false;
        }
        ("ipv6", port)
    } else {
        match s.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (s, None),
        }
    };
    if let Some(p) = port {
        if p.is_empty() || !p.bytes().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    !host.is_empty()
        && host.split('.').all(|c| {
            let b = c.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter().all(|x| x.is_ascii_alphanumeric() || *x == b'-')
        })
}

fn parse_image_tag(image: &str) -> Option<String> {
    if image.len() == 64
        && image
            .bytes()
            .all(|c| matches!(c, b'a'..=b'f' | b'0'..=b'9'))
    {
        return None;
    }
    let (name_tag, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    if let Some(d) = digest {
        let (algo, hex) = d.split_once(':')?;
        let algo_ok = !algo.is_empty()
            && algo.as_bytes()[0].is_ascii_alphabetic()
            && algo.split(['-', '_', '+', '.']).all(|p| {
                !p.is_empty()
                    && p.as_bytes()[0].is_ascii_alphabetic()
                    && p.bytes().all(|c| c.is_ascii_alphanumeric())
            });
        if !algo_ok || hex.len() < 32 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
    }
    let last_slash = name_tag.rfind('/').map_or(0, |i| i + 1);
    let (name, tag) = match name_tag[last_slash..].rfind(':') {
        Some(i) => (
            &name_tag[..last_slash + i],
            Some(&name_tag[last_slash + i + 1..]),
        ),
        None => (name_tag, None),
    };
    if let Some(t) = tag {
        let b = t.as_bytes();
        let ok = !b.is_empty()
            && b.len() <= 128
            && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'));
        if !ok {
            return None;
        }
    }
    // splitDockerDomain
    let (domain, remote) = match name.split_once('/') {
        Some((d, r)) if d.contains(['.', ':']) || d == "localhost" || d.to_lowercase() != d => {
            (Some(d), r)
        }
        _ => (None, name),
    };
    if let Some(d) = domain {
        if !is_domain(d) {
            return None;
        }
    }
    if remote.to_lowercase() != remote || !remote.split('/').all(is_path_component) {
        return None;
    }
    let full_len = domain.map_or("docker.io/".len(), |d| d.len() + 1) + remote.len();
    if full_len > 255 {
        return None;
    }
    Some(match (tag, digest) {
        (Some(t), _) => t.to_string(),
        (None, None) => "latest".to_string(),
        (None, Some(_)) => String::new(),
    })
}

/// `SetDefaults_ResourceList`: quantities rounded up to milli precision and stored in canonical
/// form; unparseable ones are left for validation to report.
pub fn default_resource_list(list: &mut BTreeMap<String, Quantity>) {
    for q in list.values_mut() {
        if let Some(c) = canonical_resource_quantity(&q.0) {
            q.0 = c;
        }
    }
}

fn set_default(m: &mut Map<String, Value>, k: &str, v: Value) {
    let missing = match m.get(k) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(Value::Number(n)) => n.as_i64() == Some(0),
        _ => false,
    };
    if missing {
        m.insert(k.to_string(), v);
    }
}

/// `SetDefaults_HTTPGetAction` inside a handler object.
fn default_handler(h: &mut Value) {
    if let Some(g) = h.get_mut("httpGet").and_then(Value::as_object_mut) {
        set_default(g, "path", "/".into());
        set_default(g, "scheme", "HTTP".into());
    }
}

/// `SetDefaults_Probe` plus its handler; a gRPC action's `service` defaults to `""` (the
/// `+default=""` marker of `GRPCAction.Service`, a pointer: only an absent one is set).
fn default_probe(p: &mut Value) {
    if let Some(m) = p.as_object_mut() {
        set_default(m, "timeoutSeconds", 1.into());
        set_default(m, "periodSeconds", 10.into());
        set_default(m, "successThreshold", 1.into());
        set_default(m, "failureThreshold", 3.into());
        if let Some(g) = m.get_mut("grpc").and_then(Value::as_object_mut) {
            if g.get("service").is_none_or(Value::is_null) {
                g.insert("service".into(), "".into());
            }
        }
    }
    default_handler(p);
}

/// `SetDefaults_ObjectFieldSelector` for env vars.
fn default_env(extra: &mut Map<String, Value>) {
    if let Some(env) = extra.get_mut("env").and_then(Value::as_array_mut) {
        for e in env {
            if let Some(f) = e
                .pointer_mut("/valueFrom/fieldRef")
                .and_then(Value::as_object_mut)
            {
                set_default(f, "apiVersion", "v1".into());
            }
        }
    }
}

/// `SetDefaults_Container`, `SetDefaults_ContainerPort`, `SetDefaults_Probe`, resource lists.
pub fn default_container(c: &mut Container) {
    let policy_set = c
        .extra
        .get("imagePullPolicy")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty());
    if !policy_set {
        let policy = if image_tag(&c.image) == "latest" {
            "Always"
        } else {
            "IfNotPresent"
        };
        c.extra.insert("imagePullPolicy".into(), policy.into());
    }
    set_default(
        &mut c.extra,
        "terminationMessagePath",
        TERMINATION_MESSAGE_PATH_DEFAULT.into(),
    );
    set_default(&mut c.extra, "terminationMessagePolicy", "File".into());
    for p in c.ports.iter_mut() {
        if p.protocol.as_deref().unwrap_or("").is_empty() {
            p.protocol = Some("TCP".into());
        }
    }
    let r = c
        .resources
        .get_or_insert_with(ResourceRequirements::default);
    default_resource_list(&mut r.limits);
    default_resource_list(&mut r.requests);
    for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = c.extra.get_mut(probe).filter(|v| v.is_object()) {
            default_probe(p);
        }
    }
    if let Some(l) = c.extra.get_mut("lifecycle").and_then(Value::as_object_mut) {
        for h in ["postStart", "preStop"] {
            if let Some(h) = l.get_mut(h) {
                default_handler(h);
            }
        }
    }
    default_env(&mut c.extra);
}

/// `SetDefaults_ObjectFieldSelector` for the `fieldRef`s of downward API volume files.
fn default_field_ref_api_versions(items: &mut [Value]) {
    for item in items {
        if let Some(f) = item.get_mut("fieldRef").and_then(Value::as_object_mut) {
            set_default(f, "apiVersion", "v1".into());
        }
    }
}

/// `SetDefaults_Volume` and the volume-source defaults (`defaultMode: 420`, hostPath `type: ""`,
/// projected service-account tokens valid one hour).
fn default_volumes(extra: &mut Map<String, Value>) {
    let Some(vols) = extra.get_mut("volumes").and_then(Value::as_array_mut) else {
        return;
    };
    for v in vols {
        let Some(m) = v.as_object_mut() else { continue };
        if m.keys().all(|k| k == "name") {
            m.insert("emptyDir".into(), Value::Object(Map::new()));
        }
        for src in ["secret", "configMap", "downwardAPI", "projected"] {
            if let Some(s) = m.get_mut(src).and_then(Value::as_object_mut) {
                if s.get("defaultMode").is_none_or(Value::is_null) {
                    s.insert("defaultMode".into(), 420.into());
                }
            }
        }
        if let Some(h) = m.get_mut("hostPath").and_then(Value::as_object_mut) {
            h.entry("type").or_insert_with(|| "".into());
        }
        // SetDefaults_ObjectFieldSelector inside downward API volume files (plain and projected).
        if let Some(items) = m
            .get_mut("downwardAPI")
            .and_then(|d| d.get_mut("items"))
            .and_then(Value::as_array_mut)
        {
            default_field_ref_api_versions(items);
        }
        if let Some(srcs) = m
            .get_mut("projected")
            .and_then(|p| p.get_mut("sources"))
            .and_then(Value::as_array_mut)
        {
            for s in srcs {
                if let Some(items) = s
                    .get_mut("downwardAPI")
                    .and_then(|d| d.get_mut("items"))
                    .and_then(Value::as_array_mut)
                {
                    default_field_ref_api_versions(items);
                }
            }
        }
        // SetDefaults_ImageVolumeSource: the pull policy follows the reference's tag, as a
        // container's imagePullPolicy does.
        if let Some(img) = m.get_mut("image").and_then(Value::as_object_mut) {
            let unset = img
                .get("pullPolicy")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty);
            if unset {
                let reference = img.get("reference").and_then(Value::as_str).unwrap_or("");
                let policy = if image_tag(reference) == "latest" {
                    "Always"
                } else {
                    "IfNotPresent"
                };
                img.insert("pullPolicy".into(), policy.into());
            }
        }
        // SetDefaults_RBDVolumeSource, SetDefaults_ISCSIVolumeSource,
        // SetDefaults_ScaleIOVolumeSource: empty strings take the defaults.
        for (src, defaults) in [
            (
                "rbd",
                &[
                    ("pool", "rbd"),
                    ("user", "admin"),
                    ("keyring", "/etc/ceph/keyring"),
                ][..],
            ),
            ("iscsi", &[("iscsiInterface", "default")][..]),
            (
                "scaleIO",
                &[("storageMode", "ThinProvisioned"), ("fsType", "xfs")][..],
            ),
        ] {
            if let Some(o) = m.get_mut(src).and_then(Value::as_object_mut) {
                for (k, v) in defaults {
                    set_default(o, k, (*v).into());
                }
            }
        }
        // SetDefaults_PersistentVolumeClaimSpec and SetDefaults_ResourceList on a generic
        // ephemeral volume's claim template.
        if let Some(spec) = m
            .get_mut("ephemeral")
            .and_then(|e| e.get_mut("volumeClaimTemplate"))
            .and_then(|t| t.get_mut("spec"))
            .and_then(Value::as_object_mut)
        {
            if spec.get("volumeMode").is_none_or(Value::is_null) {
                spec.insert("volumeMode".into(), "Filesystem".into());
            }
            for list in ["limits", "requests"] {
                if let Some(l) = spec
                    .get_mut("resources")
                    .and_then(|r| r.get_mut(list))
                    .and_then(Value::as_object_mut)
                {
                    for q in l.values_mut() {
                        if let Some(c) = q.as_str().and_then(canonical_resource_quantity) {
                            *q = c.into();
                        }
                    }
                }
            }
        }
        // SetDefaults_AzureDiskVolumeSource.
        if let Some(a) = m.get_mut("azureDisk").and_then(Value::as_object_mut) {
            for (k, v) in [
                ("cachingMode", Value::from("ReadWrite")),
                ("kind", Value::from("Shared")),
                ("fsType", Value::from("ext4")),
                ("readOnly", Value::from(false)),
            ] {
                if a.get(k).is_none_or(Value::is_null) {
                    a.insert(k.into(), v);
                }
            }
        }
        if let Some(srcs) = m
            .get_mut("projected")
            .and_then(|p| p.get_mut("sources"))
            .and_then(Value::as_array_mut)
        {
            for s in srcs {
                if let Some(t) = s
                    .get_mut("serviceAccountToken")
                    .and_then(Value::as_object_mut)
                {
                    set_default(t, "expirationSeconds", 3600.into());
                }
            }
        }
    }
}

/// `SetDefaults_PodSpec` and the defaults of everything a PodSpec contains (containers, init
/// containers, ephemeral containers, volumes).
pub fn default_pod_spec(s: &mut PodSpec) {
    set_default(&mut s.extra, "dnsPolicy", "ClusterFirst".into());
    if s.restart_policy.is_empty() {
        s.restart_policy = "Always".into();
    }
    if s.extra.get("securityContext").is_none_or(Value::is_null) {
        s.extra
            .insert("securityContext".into(), Value::Object(Map::new()));
    }
    if s.termination_grace_period_seconds.is_none() {
        s.termination_grace_period_seconds = Some(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    }
    if s.scheduler_name.is_empty() {
        s.scheduler_name = DEFAULT_SCHEDULER_NAME.into();
    }
    for c in s.containers.iter_mut().chain(s.init_containers.iter_mut()) {
        default_container(c);
    }
    if let Some(ecs) = s
        .extra
        .get_mut("ephemeralContainers")
        .and_then(Value::as_array_mut)
    {
        for ec in ecs.iter_mut() {
            if let Ok(mut c) = crate::api::value_de::from_value::<Container>(ec.clone()) {
                default_container(&mut c);
                if let Ok(v) = serde_json::to_value(&c) {
                    *ec = v;
                }
            }
        }
    }
    default_volumes(&mut s.extra);
}

/// `SetDefaults_Pod` (pods only, not templates): requests default to limits, pod-level requests
/// and hugepage limits default from the containers', service links on,
/// host-network ports default their hostPort.
pub fn default_pod_only(s: &mut PodSpec) {
    for c in s.containers.iter_mut().chain(s.init_containers.iter_mut()) {
        if let Some(r) = c.resources.as_mut() {
            for (k, v) in r.limits.clone() {
                r.requests.entry(k).or_insert(v);
            }
        }
    }
    super::validation::pod_resources::default_pod_level_resources(s);
    s.extra
        .entry("enableServiceLinks")
        .or_insert(Value::Bool(true));
    if s.extra
        .get("hostNetwork")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        for c in s.containers.iter_mut().chain(s.init_containers.iter_mut()) {
            for p in c.ports.iter_mut() {
                let hp = p.extra.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
                if hp == 0 {
                    p.extra.insert("hostPort".into(), p.container_port.into());
                }
            }
        }
    }
}

/// `qos.ComputePodQOS` over regular and init containers (cpu and memory only, zero quantities
/// ignored): BestEffort without any request or limit; Guaranteed when every container limits both
/// cpu and memory and the summed requests equal the summed limits; Burstable otherwise. Missing
/// requests count as their limits, as pod defaulting sets them before upstream computes the class.
pub fn qos_class(s: &PodSpec) -> &'static str {
    use super::validation::quantity::parse_quantity;
    let nanos = |q: Option<&Quantity>| {
        q.and_then(|q| parse_quantity(q.0.trim()).ok())
            .map(|q| q.nanos)
    };
    let mut requests: BTreeMap<&str, i128> = BTreeMap::new();
    let mut limits: BTreeMap<&str, i128> = BTreeMap::new();
    let mut guaranteed = true;
    for c in s.containers.iter().chain(s.init_containers.iter()) {
        let r = c.resources.as_ref();
        let mut limits_found = 0;
        for res in ["cpu", "memory"] {
            let lim = nanos(r.and_then(|r| r.limits.get(res)));
            let req = nanos(r.and_then(|r| r.requests.get(res))).or(lim);
            if let Some(q) = req.filter(|q| *q > 0) {
                *requests.entry(res).or_default() += q;
            }
            if let Some(q) = lim.filter(|q| *q > 0) {
                limits_found += 1;
                *limits.entry(res).or_default() += q;
            }
        }
        if limits_found < 2 {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed && requests.iter().any(|(k, v)| limits.get(k) != Some(v)) {
        guaranteed = false;
    }
    if guaranteed && requests.len() == limits.len() {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Runs defaulting on a shared pod spec, copying it only when defaulting changes something.
/// Defaulting is idempotent, so an update that resends a stored (already defaulted) spec — a
/// finalizer removal, a label change — keeps sharing it, and the pointer-equality fast paths of
/// update validation and object comparison stay open. With `for_pod` it also applies the pod-only
/// defaults of `SetDefaults_Pod`. A shared spec defaulted recently is not copied again: the
/// earlier result is reused (see `DEFAULTED_SPECS`).
pub fn default_shared_pod_spec(spec: &mut Arc<PodSpec>, for_pod: bool) {
    let step = if for_pod {
        SpecStep::PodDefaults
    } else {
        SpecStep::TemplateDefaults
    };
    apply_to_shared_pod_spec(spec, step, |s| {
        default_pod_spec(s);
        if for_pod {
            default_pod_only(s);
        }
    });
}

/// The pure steps [`apply_to_shared_pod_spec`] remembers results of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SpecStep {
    TemplateDefaults,
    PodDefaults,
    PodAdmission,
}

/// Applies `f` (the pure function `step` names) to a spec, copying a shared spec only when `f`
/// changes it, and reusing the result of a recent call on the same shared spec.
fn apply_to_shared_pod_spec(spec: &mut Arc<PodSpec>, step: SpecStep, f: impl Fn(&mut PodSpec)) {
    if let Some(s) = Arc::get_mut(spec) {
        f(s);
        return;
    }
    let known = DEFAULTED_SPECS.with_borrow(|memo| {
        memo.iter()
            .find(|(p, input, _)| *p == step && Arc::ptr_eq(input, spec))
            .map(|(_, _, output)| output.clone())
    });
    if let Some(output) = known {
        *spec = output;
        return;
    }
    let mut copy = PodSpec::clone(spec);
    f(&mut copy);
    let output = if copy != **spec {
        Arc::new(copy)
    } else {
        spec.clone()
    };
    DEFAULTED_SPECS.with_borrow_mut(|memo| {
        if memo.len() == 8 {
            memo.remove(0);
        }
        memo.push((step, spec.clone(), output.clone()));
    });
    *spec = output;
}

/// A step applied to a shared spec earlier: (the step, the input, the result).
type DefaultedSpec = (SpecStep, Arc<PodSpec>, Arc<PodSpec>);

thread_local! {
    /// The last few shared specs [`apply_to_shared_pod_spec`] worked on. Holding the input `Arc`
    /// keeps its contents fixed (a shared `Arc` is copied before any write) and its address
    /// unique, so the same pointer means the same spec and the same result: every pod made
    /// from one template then shares one defaulted spec.
    static DEFAULTED_SPECS: std::cell::RefCell<Vec<DefaultedSpec>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `SetDefaults_PodSpec` on a template's spec, leaving the template (and the spec it may
/// share with the object it came from) in place when the spec is already defaulted.
pub fn default_template_spec(t: &mut Arc<super::core::PodTemplateSpec>) {
    let mut spec = t.spec.clone();
    default_shared_pod_spec(&mut spec, false);
    if !Arc::ptr_eq(&spec, &t.spec) {
        Arc::make_mut(t).spec = spec;
    }
}

/// `status.qosClass` from the spec when the request left it empty.
fn default_qos_class(p: &mut super::core::Pod) {
    if p.status.qos_class.is_empty() {
        p.status.qos_class = qos_class(&p.spec).into();
    }
}

/// [`default_object`] for an update of `old`. A pod that resends the stored spec (the same
/// shared pointer: a finalizer removal, a label or annotation change) skips spec defaulting —
/// the stored spec was defaulted when it was written, as upstream's storage applies defaults on
/// every read, and defaulting is idempotent.
pub fn default_object_for_update(o: &mut Object, old: &Object) {
    if let (Object::Pod(p), Object::Pod(q)) = (&mut *o, old) {
        if Arc::ptr_eq(&p.spec, &q.spec) {
            default_qos_class(p);
            return;
        }
    }
    default_object(o);
}

/// Applies the API defaults of the object's kind.
pub fn default_object(o: &mut Object) {
    match o {
        Object::Pod(p) => {
            default_shared_pod_spec(&mut p.spec, true);
            default_qos_class(p);
        }
        Object::Node(n) => {
            // SetDefaults_NodeStatus: allocatable defaults to capacity.
            if n.status.allocatable.is_empty() && !n.status.capacity.is_empty() {
                n.status.allocatable = n.status.capacity.clone();
            }
            default_resource_list(&mut n.status.capacity);
            default_resource_list(&mut n.status.allocatable);
        }
        Object::ReplicaSet(rs) => {
            // SetDefaults_ReplicaSet (apps/v1).
            if rs.spec.replicas.is_none() {
                rs.spec.replicas = Some(1);
            }
            default_template_spec(&mut rs.spec.template);
        }
        Object::ReplicationController(rc) => {
            // SetDefaults_ReplicationController: selector and labels from the template labels.
            if let Some(t) = &rc.spec.template {
                if rc.spec.selector.is_empty() {
                    rc.spec.selector = t.metadata.labels.clone().into();
                }
                if rc.metadata.labels.is_empty() {
                    rc.metadata.labels = t.metadata.labels.clone();
                }
            }
            if rc.spec.replicas.is_none() {
                rc.spec.replicas = Some(1);
            }
            if let Some(t) = &mut rc.spec.template {
                default_pod_spec(t.spec_mut());
            }
        }
        Object::Deployment(d) => super::deployment_defaults::set_defaults_deployment(d),
        Object::Job(j) => super::batch_defaults::set_defaults_job(j),
        Object::CronJob(cj) => super::batch_defaults::set_defaults_cron_job(cj),
        Object::StatefulSet(s) => super::sts_ds_defaults::set_defaults_stateful_set(s),
        Object::DaemonSet(ds) => super::sts_ds_defaults::set_defaults_daemon_set(ds),
        Object::ControllerRevision(_) => {}
        Object::PersistentVolumeClaim(pvc) => {
            super::sts_ds_defaults::set_defaults_persistent_volume_claim(pvc)
        }
        Object::Service(svc) => super::sts_ds_defaults::set_defaults_service(svc),
        Object::HorizontalPodAutoscaler(h) => {
            super::autoscaling::set_defaults_horizontal_pod_autoscaler(h)
        }
        // policy/v1 has no defaulting (`unhealthyPodEvictionPolicy` stays unset).
        Object::PodDisruptionBudget(_) => {}
    }
}

#[cfg(test)]
mod tests;
