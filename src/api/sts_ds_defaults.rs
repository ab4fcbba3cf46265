//! StatefulSet, DaemonSet, PersistentVolumeClaim and Service defaulting (`pkg/apis/apps/v1/defaults.go`,
//! `pkg/apis/core/v1/defaults.go`) and the REST strategies' create/update hooks
//! (`pkg/registry/apps/daemonset/strategy.go`, `pkg/registry/core/service/storage`).

use super::apps_more::{
    DaemonSet, RollingUpdateDaemonSet, RollingUpdateStatefulSetStrategy, StatefulSet,
    StatefulSetPersistentVolumeClaimRetentionPolicy, ORDERED_READY_POD_MANAGEMENT,
    RETAIN_PVC_RETENTION, ROLLING_UPDATE_STRATEGY,
};
use super::core_more::{PersistentVolumeClaim, PersistentVolumeClaimSpec, Service, CLAIM_PENDING};
use super::defaults::{default_pod_spec, default_resource_list};
use super::intstr::IntOrString;
use super::object::Object;
use serde_json::Value;

/// `appsv1.DeprecatedTemplateGeneration`: the v1 form of the internal `spec.templateGeneration`
/// of a DaemonSet (bumped by the API server whenever the pod template changes).
pub const DEPRECATED_TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

/// `SetDefaults_StatefulSet` plus the pod template and claim template defaults: replicas 1,
/// podManagementPolicy `OrderedReady`, updateStrategy `RollingUpdate` with partition 0 (when the
/// strategy type was defaulted or a `rollingUpdate` block is given), revisionHistoryLimit 10,
/// PVC retention `Retain`/`Retain`. `maxUnavailable` is defaulted to 1 only with the
/// MaxUnavailableStatefulSet gate, which is off in 1.34 (the API server's gates are the defaults).
pub fn set_defaults_stateful_set(s: &mut StatefulSet) {
    let spec = &mut s.spec;
    if spec.pod_management_policy.is_empty() {
        spec.pod_management_policy = ORDERED_READY_POD_MANAGEMENT.into();
    }
    if spec.update_strategy.type_.is_empty() {
        spec.update_strategy.type_ = ROLLING_UPDATE_STRATEGY.into();
        if spec.update_strategy.rolling_update.is_none() {
            spec.update_strategy.rolling_update = Some(RollingUpdateStatefulSetStrategy::default());
        }
    }
    if spec.update_strategy.type_ == ROLLING_UPDATE_STRATEGY {
        if let Some(ru) = spec.update_strategy.rolling_update.as_mut() {
            if ru.partition.is_none() {
                ru.partition = Some(0);
            }
            if crate::features::FeatureGates::default().enabled("MaxUnavailableStatefulSet")
                && ru.max_unavailable.is_none()
            {
                ru.max_unavailable = Some(IntOrString::Int(1));
            }
        }
    }
    let policy = spec
        .persistent_volume_claim_retention_policy
        .get_or_insert_with(StatefulSetPersistentVolumeClaimRetentionPolicy::default);
    if policy.when_deleted.is_empty() {
        policy.when_deleted = RETAIN_PVC_RETENTION.into();
    }
    if policy.when_scaled.is_empty() {
        policy.when_scaled = RETAIN_PVC_RETENTION.into();
    }
    if spec.replicas.is_none() {
        spec.replicas = Some(1);
    }
    if spec.revision_history_limit.is_none() {
        spec.revision_history_limit = Some(10);
    }
    super::defaults::default_template_spec(&mut spec.template);
    for claim in &mut spec.volume_claim_templates {
        // The API server writes the embedded claims with their type meta.
        claim.api_version = "v1".into();
        claim.kind = "PersistentVolumeClaim".into();
        set_defaults_persistent_volume_claim(claim);
    }
}

/// `SetDefaults_DaemonSet` plus the pod template defaults: updateStrategy `RollingUpdate` with
/// maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10.
pub fn set_defaults_daemon_set(ds: &mut DaemonSet) {
    let strategy = &mut ds.spec.update_strategy;
    if strategy.type_.is_empty() {
        strategy.type_ = ROLLING_UPDATE_STRATEGY.into();
    }
    if strategy.type_ == ROLLING_UPDATE_STRATEGY {
        let ru = strategy
            .rolling_update
            .get_or_insert_with(RollingUpdateDaemonSet::default);
        if ru.max_unavailable.is_none() {
            ru.max_unavailable = Some(IntOrString::Int(1));
        }
        if ru.max_surge.is_none() {
            ru.max_surge = Some(IntOrString::Int(0));
        }
    }
    if ds.spec.revision_history_limit.is_none() {
        ds.spec.revision_history_limit = Some(10);
    }
    super::defaults::default_template_spec(&mut ds.spec.template);
}

/// `SetDefaults_PersistentVolumeClaimSpec`: volumeMode `Filesystem`; resource quantities in
/// canonical form.
pub fn set_defaults_persistent_volume_claim_spec(spec: &mut PersistentVolumeClaimSpec) {
    if spec.volume_mode.is_none() {
        spec.volume_mode = Some("Filesystem".into());
    }
    default_resource_list(&mut spec.resources.limits);
    default_resource_list(&mut spec.resources.requests);
}

/// `SetDefaults_PersistentVolumeClaim` (phase `Pending`) and its spec defaults.
pub fn set_defaults_persistent_volume_claim(pvc: &mut PersistentVolumeClaim) {
    if pvc.status.phase.is_empty() {
        pvc.status.phase = CLAIM_PENDING.into();
    }
    set_defaults_persistent_volume_claim_spec(&mut pvc.spec);
}

/// `service.ExternallyAccessible` (pkg/api/v1/service/util.go): a LoadBalancer or NodePort
/// Service, or a ClusterIP Service with external IPs.
pub fn service_externally_accessible(svc: &Service) -> bool {
    let spec = &svc.spec;
    match spec.type_.as_str() {
        "LoadBalancer" | "NodePort" => true,
        "ClusterIP" => spec
            .extra
            .get("externalIPs")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty()),
        _ => false,
    }
}

/// A field of `spec.extra` that is present and not `null` (a set pointer in Go).
fn extra_set<'a>(spec: &'a crate::api::ServiceSpec, key: &str) -> Option<&'a Value> {
    spec.extra.get(key).filter(|v| !v.is_null())
}

/// `SetDefaults_Service` (pkg/apis/core/v1/defaults.go): sessionAffinity `None` (whose
/// sessionAffinityConfig is dropped); for `ClientIP` a sessionAffinityConfig with
/// `clientIP.timeoutSeconds` 10800 unless one is given; type `ClusterIP`; port protocol `TCP`
/// and targetPort = port; externalTrafficPolicy `Cluster` for externally-accessible Services;
/// internalTrafficPolicy `Cluster` for ClusterIP, NodePort and LoadBalancer;
/// allocateLoadBalancerNodePorts `true` for LoadBalancer. Then the registry's address
/// allocation ([`allocate_service`]), which kubeplay runs with the defaults so that loaded and
/// created Services look alike.
pub fn set_defaults_service(svc: &mut Service) {
    let spec = &mut svc.spec;
    if spec.session_affinity.is_empty() {
        spec.session_affinity = "None".into();
    }
    if spec.session_affinity == "None" {
        spec.extra.remove("sessionAffinityConfig");
    }
    if spec.session_affinity == "ClientIP" {
        let has_timeout = extra_set(spec, "sessionAffinityConfig")
            .and_then(|c| c.get("clientIP"))
            .filter(|c| !c.is_null())
            .and_then(|c| c.get("timeoutSeconds"))
            .is_some_and(|t| !t.is_null());
        if !has_timeout {
            spec.extra.insert(
                "sessionAffinityConfig".into(),
                serde_json::json!({"clientIP": {"timeoutSeconds": DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS}}),
            );
        }
    }
    if spec.type_.is_empty() {
        spec.type_ = "ClusterIP".into();
    }
    for p in &mut spec.ports {
        if p.protocol.is_empty() {
            p.protocol = "TCP".into();
        }
        let unset = match &p.target_port {
            None => true,
            Some(IntOrString::Int(0)) => true,
            Some(IntOrString::String(s)) => s.is_empty(),
            _ => false,
        };
        if unset {
            p.target_port = Some(IntOrString::Int(p.port));
        }
    }
    if spec.internal_traffic_policy.is_none()
        && matches!(
            spec.type_.as_str(),
            "ClusterIP" | "NodePort" | "LoadBalancer"
        )
    {
        spec.internal_traffic_policy = Some("Cluster".into());
    }
    if service_externally_accessible(svc)
        && extra_set(&svc.spec, "externalTrafficPolicy")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        svc.spec
            .extra
            .insert("externalTrafficPolicy".into(), "Cluster".into());
    }
    if svc.spec.type_ == "LoadBalancer"
        && extra_set(&svc.spec, "allocateLoadBalancerNodePorts").is_none()
    {
        svc.spec
            .extra
            .insert("allocateLoadBalancerNodePorts".into(), true.into());
    }
    allocate_service(svc);
}

/// `v1.DefaultClientIPServiceAffinitySeconds` (3 hours).
pub const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS: i32 = 10800;

/// The Service strategy's `dropTypeDependentFields` (pkg/registry/core/service/strategy.go),
/// run by `PrepareForUpdate`: when the new type no longer uses a field the old one did, and
/// the update left that field as it was, it is wiped (cluster IPs and families, node ports, the
/// health-check node port, allocateLoadBalancerNodePorts, loadBalancerClass,
/// externalTrafficPolicy); the load-balancer status goes for any type but LoadBalancer.
pub fn drop_type_dependent_fields(new: &mut Service, old: &Service) {
    let needs_cluster_ip = |s: &Service| s.spec.type_ != "ExternalName";
    if needs_cluster_ip(old) && !needs_cluster_ip(new) {
        if old.spec.cluster_ip == new.spec.cluster_ip
            && old.spec.cluster_ips == new.spec.cluster_ips
        {
            new.spec.cluster_ip.clear();
            new.spec.cluster_ips.clear();
        }
        if old.spec.ip_families == new.spec.ip_families {
            new.spec.ip_families.clear();
        }
        if old.spec.ip_family_policy.as_deref().unwrap_or_default()
            == new.spec.ip_family_policy.as_deref().unwrap_or_default()
        {
            new.spec.ip_family_policy = None;
        }
    }
    let needs_node_port =
        |s: &Service| matches!(s.spec.type_.as_str(), "NodePort" | "LoadBalancer");
    if needs_node_port(old) && !needs_node_port(new) {
        // sameNodePorts: no net-new node port.
        let old_ports: std::collections::BTreeSet<i32> = old
            .spec
            .ports
            .iter()
            .map(|p| p.node_port)
            .filter(|&n| n != 0)
            .collect();
        if new
            .spec
            .ports
            .iter()
            .all(|p| p.node_port == 0 || old_ports.contains(&p.node_port))
        {
            for p in &mut new.spec.ports {
                p.node_port = 0;
            }
        }
    }
    let etp = |s: &Service| {
        extra_set(&s.spec, "externalTrafficPolicy")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let hcnp = |s: &Service| {
        extra_set(&s.spec, "healthCheckNodePort")
            .and_then(Value::as_i64)
            .unwrap_or(0)
    };
    let needs_hc = |s: &Service| s.spec.type_ == "LoadBalancer" && etp(s) == "Local";
    if needs_hc(old) && !needs_hc(new) && hcnp(old) == hcnp(new) {
        new.spec.extra.remove("healthCheckNodePort");
    }
    if old.spec.type_ == "LoadBalancer" && new.spec.type_ != "LoadBalancer" {
        let (o, n) = (
            extra_set(&old.spec, "allocateLoadBalancerNodePorts"),
            extra_set(&new.spec, "allocateLoadBalancerNodePorts"),
        );
        if o.is_some() && o == n {
            new.spec.extra.remove("allocateLoadBalancerNodePorts");
        }
        let class = |s: &Service| extra_set(&s.spec, "loadBalancerClass").cloned();
        if class(old) == class(new) {
            new.spec.extra.remove("loadBalancerClass");
        }
    }
    if service_externally_accessible(old)
        && !service_externally_accessible(new)
        && etp(old) == etp(new)
    {
        new.spec.extra.remove("externalTrafficPolicy");
    }
    if new.spec.type_ != "LoadBalancer" {
        new.status.load_balancer.clear();
    }
}

/// The Service registry's IP allocation on create (`pkg/registry/core/service/storage`):
/// `clusterIPs` mirrors `clusterIP`; a Service is single-stack IPv4 (the cluster's one family),
/// except that a headless Service without a selector is `RequireDualStack` with both families;
/// a ClusterIP Service without an address gets one from the service CIDR `10.96.0.0/12`.
///
/// kubeplay has no allocator state: the address is derived from a hash of namespace/name
/// (deterministic; collisions are possible but harmless here, nothing routes traffic).
pub fn allocate_service(svc: &mut Service) {
    let spec = &mut svc.spec;
    if spec.type_ == "ExternalName" {
        return;
    }
    // The strategy's normalizeClusterIPs: a Service that gives only `clusterIPs` takes its
    // first entry as `clusterIP`.
    if spec.cluster_ip.is_empty() && !spec.cluster_ips.is_empty() {
        spec.cluster_ip = spec.cluster_ips[0].clone();
    }
    if spec.cluster_ip.is_empty() {
        let key = format!("{}/{}", svc.metadata.namespace, svc.metadata.name);
        let mut h: u32 = 2_166_136_261;
        for b in key.bytes() {
            h ^= u32::from(b);
            h = h.wrapping_mul(16_777_619);
        }
        // 10.96.0.0/12 minus the network address and 10.96.0.1 (the kubernetes Service).
        let offset = 2 + h % ((1 << 20) - 3);
        let ip = (10u32 << 24) | (96 << 16) | offset;
        spec.cluster_ip = format!(
            "{}.{}.{}.{}",
            ip >> 24,
            (ip >> 16) & 0xff,
            (ip >> 8) & 0xff,
            ip & 0xff
        );
    }
    if spec.cluster_ips.is_empty() {
        spec.cluster_ips = vec![spec.cluster_ip.clone()];
    }
    // initIPFamilyFields (pkg/registry/core/service/storage/alloc.go): a headless Service
    // without a selector defaults to RequireDualStack and, unless single-stack, lists both
    // families even on a single-stack cluster; any other Service defaults to SingleStack.
    let headless_selectorless = spec.cluster_ip == "None" && spec.selector.is_empty();
    if spec.ip_family_policy.is_none() {
        spec.ip_family_policy = Some(
            if headless_selectorless {
                "RequireDualStack"
            } else {
                "SingleStack"
            }
            .into(),
        );
    }
    if spec.ip_families.is_empty() {
        spec.ip_families = vec!["IPv4".into()];
    }
    if headless_selectorless
        && spec.ip_families.len() < 2
        && spec.ip_family_policy.as_deref() != Some("SingleStack")
    {
        let alt = if spec.ip_families[0] == "IPv4" {
            "IPv6"
        } else {
            "IPv4"
        };
        spec.ip_families.push(alt.into());
    }
}

/// The template generation a DaemonSet's annotation records (0 when absent; the API server
/// never stores one that does not parse, see [`decode_error`]).
pub fn template_generation(ds: &DaemonSet) -> i64 {
    ds.metadata
        .annotations
        .get(DEPRECATED_TEMPLATE_GENERATION)
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(0)
}

/// `strconv.ParseInt(v, 10, 64)`, with Go's error text.
///
/// # Errors
/// `strconv.ParseInt: parsing "v": invalid syntax` or `... value out of range`.
pub fn parse_int64(v: &str) -> Result<i64, String> {
    use std::num::IntErrorKind;
    v.parse::<i64>().map_err(|e| {
        let why = match e.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => "value out of range",
            _ => "invalid syntax",
        };
        format!("strconv.ParseInt: parsing {v:?}: {why}")
    })
}

/// Decoding a request body into the internal version fails for a DaemonSet whose
/// `deprecated.daemonset.template.generation` annotation is not an int64:
/// `Convert_v1_DaemonSet_To_apps_DaemonSet` (pkg/apis/apps/v1/conversion.go) returns the
/// `strconv.ParseInt` error, and the handler answers BadRequest
/// (`transformDecodeError`: `DaemonSet in version "v1" cannot be handled as a DaemonSet: ...`)
/// before any strategy runs — on create, update and status update alike.
pub fn decode_error(o: &Object) -> Option<crate::api::ApiError> {
    let Object::DaemonSet(ds) = o else {
        return None;
    };
    let v = ds
        .metadata
        .annotations
        .get(DEPRECATED_TEMPLATE_GENERATION)?;
    parse_int64(v).err().map(|e| {
        crate::api::ApiError::bad_request(format!(
            "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: {e}"
        ))
    })
}

/// `apiequality.Semantic.DeepEqual` on pod templates ([`crate::api::semantic::semantic_equal`]):
/// a template that only gains `imagePullSecrets: []` is unchanged, an empty object (a non-nil
/// pointer to an empty struct) still counts.
pub fn pod_templates_semantically_equal(
    a: &crate::api::PodTemplateSpec,
    b: &crate::api::PodTemplateSpec,
) -> bool {
    crate::api::semantic::semantic_equal(a, b)
}

fn set_template_generation(ds: &mut DaemonSet, g: i64) {
    ds.metadata
        .annotations
        .insert(DEPRECATED_TEMPLATE_GENERATION.into(), g.to_string());
}

/// `PrepareForCreate` of the kinds in this module: status is cleared; a DaemonSet starts at
/// template generation 1.
pub fn prepare_for_create(o: &mut Object) {
    match o {
        Object::StatefulSet(s) => s.status = Default::default(),
        Object::DaemonSet(ds) => {
            ds.status = Default::default();
            set_template_generation(ds, 1);
        }
        Object::PersistentVolumeClaim(pvc) => pvc.status = Default::default(),
        Object::Service(svc) => svc.status = Default::default(),
        _ => {}
    }
}

/// `PrepareForUpdate` hooks that need the stored object, run on the request before defaulting:
/// a DaemonSet's template generation is the server's, bumped by one when the (defaulted) pod
/// template changes (`daemonSetStrategy.PrepareForUpdate`); a Service keeps its allocated
/// addresses when the request leaves them out.
pub fn prepare_for_update(new: &mut Object, old: &Object) {
    match (new, old) {
        (Object::DaemonSet(n), Object::DaemonSet(o)) => {
            let mut g = template_generation(o);
            let mut template = crate::api::PodTemplateSpec::clone(&n.spec.template);
            default_pod_spec(template.spec_mut());
            // `!apiequality.Semantic.DeepEqual(new.Spec.Template, old.Spec.Template)`.
            if !pod_templates_semantically_equal(&template, &o.spec.template) {
                g += 1;
            }
            if g > 0 {
                set_template_generation(n, g);
            } else {
                n.metadata
                    .annotations
                    .remove(DEPRECATED_TEMPLATE_GENERATION);
            }
        }
        (Object::Service(n), Object::Service(o)) => {
            drop_type_dependent_fields(n, o);
            // patchAllocatedValues (pkg/registry/core/service/storage/storage.go): only between
            // types that both use a cluster IP.
            if n.spec.type_ == "ExternalName" || o.spec.type_ == "ExternalName" {
                return;
            }
            if n.spec.cluster_ip.is_empty() {
                n.spec.cluster_ip = o.spec.cluster_ip.clone();
            }
            if n.spec.cluster_ips.is_empty() {
                n.spec.cluster_ips = o.spec.cluster_ips.clone();
            }
            if n.spec.ip_families.is_empty() {
                n.spec.ip_families = o.spec.ip_families.clone();
            }
            if n.spec.ip_family_policy.is_none() {
                n.spec.ip_family_policy = o.spec.ip_family_policy.clone();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::apps_more::{ON_DELETE_STRATEGY, PARALLEL_POD_MANAGEMENT};

    fn sts(json: serde_json::Value) -> StatefulSet {
        serde_json::from_value(json).unwrap()
    }

    // Port of TestSetDefaultStatefulSet (pkg/apis/apps/v1/defaults_test.go), the rows that do
    // not depend on gates being switched.
    #[test]
    fn stateful_set_defaults() {
        let mut s =
            sts(serde_json::json!({"spec": {"template": {"metadata": {"labels": {"a": "b"}}}}}));
        set_defaults_stateful_set(&mut s);
        assert_eq!(s.spec.replicas, Some(1));
        assert_eq!(s.spec.pod_management_policy, "OrderedReady");
        assert_eq!(s.spec.update_strategy.type_, "RollingUpdate");
        assert_eq!(
            s.spec.update_strategy.rolling_update,
            Some(RollingUpdateStatefulSetStrategy {
                partition: Some(0),
                max_unavailable: None
            })
        );
        assert_eq!(s.spec.revision_history_limit, Some(10));
        let p = s
            .spec
            .persistent_volume_claim_retention_policy
            .clone()
            .unwrap();
        assert_eq!(
            (p.when_deleted.as_str(), p.when_scaled.as_str()),
            ("Retain", "Retain")
        );
        assert_eq!(s.spec.template.spec.restart_policy, "Always");

        // An explicit RollingUpdate type without a rollingUpdate block stays without one.
        let mut s = sts(serde_json::json!({"spec": {"updateStrategy": {"type": "RollingUpdate"}}}));
        set_defaults_stateful_set(&mut s);
        assert_eq!(s.spec.update_strategy.rolling_update, None);

        // OnDelete gets no partition; Parallel and explicit values are kept.
        let mut s = sts(serde_json::json!({"spec": {
            "replicas": 3, "podManagementPolicy": "Parallel", "revisionHistoryLimit": 2,
            "updateStrategy": {"type": "OnDelete"},
            "persistentVolumeClaimRetentionPolicy": {"whenScaled": "Delete"}}}));
        set_defaults_stateful_set(&mut s);
        assert_eq!(s.spec.replicas, Some(3));
        assert_eq!(s.spec.pod_management_policy, PARALLEL_POD_MANAGEMENT);
        assert_eq!(s.spec.update_strategy.type_, ON_DELETE_STRATEGY);
        assert_eq!(s.spec.update_strategy.rolling_update, None);
        assert_eq!(s.spec.revision_history_limit, Some(2));
        let p = s
            .spec
            .persistent_volume_claim_retention_policy
            .clone()
            .unwrap();
        assert_eq!(
            (p.when_deleted.as_str(), p.when_scaled.as_str()),
            ("Retain", "Delete")
        );

        // Partition given: kept.
        let mut s = sts(
            serde_json::json!({"spec": {"updateStrategy": {"rollingUpdate": {"partition": 2}}}}),
        );
        set_defaults_stateful_set(&mut s);
        assert_eq!(
            s.spec
                .update_strategy
                .rolling_update
                .clone()
                .unwrap()
                .partition,
            Some(2)
        );
    }

    #[test]
    fn claim_templates_are_defaulted() {
        let mut s = sts(serde_json::json!({"spec": {"volumeClaimTemplates": [
            {"metadata": {"name": "www"}, "spec": {"accessModes": ["ReadWriteOnce"],
             "resources": {"requests": {"storage": "1Gi"}}}}]}}));
        set_defaults_stateful_set(&mut s);
        let c = &s.spec.volume_claim_templates[0];
        assert_eq!(c.spec.volume_mode.as_deref(), Some("Filesystem"));
        assert_eq!(c.status.phase, "Pending");
    }

    // Port of TestSetDefaultDaemonSetSpec (pkg/apis/apps/v1/defaults_test.go).
    #[test]
    fn daemon_set_defaults() {
        let mut ds: DaemonSet = serde_json::from_value(serde_json::json!({"spec": {}})).unwrap();
        set_defaults_daemon_set(&mut ds);
        let ru = ds.spec.update_strategy.rolling_update.clone().unwrap();
        assert_eq!(ds.spec.update_strategy.type_, "RollingUpdate");
        assert_eq!(ru.max_unavailable, Some(IntOrString::Int(1)));
        assert_eq!(ru.max_surge, Some(IntOrString::Int(0)));
        assert_eq!(ds.spec.revision_history_limit, Some(10));

        let mut ds: DaemonSet = serde_json::from_value(
            serde_json::json!({"spec": {"updateStrategy": {"type": "OnDelete"}, "revisionHistoryLimit": 1}}),
        )
        .unwrap();
        set_defaults_daemon_set(&mut ds);
        assert_eq!(ds.spec.update_strategy.rolling_update, None);
        assert_eq!(ds.spec.revision_history_limit, Some(1));

        let mut ds: DaemonSet = serde_json::from_value(
            serde_json::json!({"spec": {"updateStrategy": {"rollingUpdate": {"maxSurge": "25%"}}}}),
        )
        .unwrap();
        set_defaults_daemon_set(&mut ds);
        let ru = ds.spec.update_strategy.rolling_update.clone().unwrap();
        assert_eq!(ru.max_surge, Some(IntOrString::String("25%".into())));
        assert_eq!(ru.max_unavailable, Some(IntOrString::Int(1)));
    }

    #[test]
    fn daemon_set_template_generation_follows_the_template() {
        let mut o = Object::DaemonSet(DaemonSet::default());
        prepare_for_create(&mut o);
        crate::api::defaults::default_object(&mut o);
        let Object::DaemonSet(created) = o.clone() else {
            unreachable!()
        };
        assert_eq!(template_generation(&created), 1);
        // A spec change outside the template keeps the generation; a client cannot set it.
        let mut same = created.clone();
        same.spec.min_ready_seconds = 5;
        same.metadata
            .annotations
            .insert(DEPRECATED_TEMPLATE_GENERATION.into(), "9".into());
        let mut n = Object::DaemonSet(same);
        prepare_for_update(&mut n, &o);
        let Object::DaemonSet(n) = n else {
            unreachable!()
        };
        assert_eq!(template_generation(&n), 1);
        let mut changed = created.clone();
        changed
            .spec
            .template_mut()
            .metadata
            .labels
            .insert("v".into(), "2".into());
        let mut n = Object::DaemonSet(changed);
        prepare_for_update(&mut n, &o);
        let Object::DaemonSet(n) = n else {
            unreachable!()
        };
        assert_eq!(template_generation(&n), 2);
    }

    /// `Convert_v1_DaemonSet_To_apps_DaemonSet` fails on an annotation that is not an int64, so
    /// the API server answers BadRequest to create, update and status update
    /// (`transformDecodeError`), and never stores one.
    #[test]
    fn daemon_set_unparseable_template_generation_is_a_bad_request() {
        use crate::api::{ApiError, Reason};
        let ds = |generation: Option<&str>| {
            let mut v = serde_json::json!({
                "apiVersion": "apps/v1", "kind": "DaemonSet",
                "metadata": {"name": "ds", "namespace": "default"},
                "spec": {"selector": {"matchLabels": {"app": "d"}},
                         "template": {"metadata": {"labels": {"app": "d"}},
                                      "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
            if let Some(g) = generation {
                v["metadata"]["annotations"] =
                    serde_json::json!({DEPRECATED_TEMPLATE_GENERATION: g});
            }
            Object::DaemonSet(serde_json::from_value(v).unwrap())
        };
        let bad = |e: ApiError, v: &str, why: &str| {
            assert_eq!(e.reason, Reason::BadRequest);
            assert_eq!(
                e.message,
                format!(
                    "DaemonSet in version \"v1\" cannot be handled as a DaemonSet: \
                     strconv.ParseInt: parsing {v:?}: {why}"
                )
            );
        };
        let mut api = crate::store::apiserver::ApiServer::new(1, crate::api::Time(0));
        bad(
            api.create(ds(Some("abc"))).unwrap_err(),
            "abc",
            "invalid syntax",
        );
        bad(api.load(ds(Some(""))).unwrap_err(), "", "invalid syntax");
        assert!(api.store.get::<DaemonSet>("default", "ds").is_none());
        // A parseable one is the server's to set: 1 on create.
        let Object::DaemonSet(created) = api.create(ds(Some("7"))).unwrap() else {
            unreachable!()
        };
        assert_eq!(template_generation(&created), 1);
        for (v, why) in [
            ("x1", "invalid syntax"),
            ("99999999999999999999", "value out of range"),
        ] {
            let mut d = created.clone();
            d.metadata
                .annotations
                .insert(DEPRECATED_TEMPLATE_GENERATION.into(), v.into());
            bad(
                api.update(Object::DaemonSet(d.clone())).unwrap_err(),
                v,
                why,
            );
            bad(api.update_status(Object::DaemonSet(d)).unwrap_err(), v, why);
        }
        let stored = api.store.get::<DaemonSet>("default", "ds").unwrap();
        assert_eq!(template_generation(stored), 1);
        // `-5` and `+5` parse (strconv.ParseInt takes a sign): no decode error.
        let mut d = created.clone();
        d.metadata
            .annotations
            .insert(DEPRECATED_TEMPLATE_GENERATION.into(), "+5".into());
        assert!(decode_error(&Object::DaemonSet(d)).is_none());
    }

    /// `daemonSetStrategy.PrepareForUpdate` bumps the generation only when
    /// `apiequality.Semantic.DeepEqual` says the template changed: an added empty list is not a
    /// change.
    #[test]
    fn daemon_set_template_generation_ignores_semantically_equal_templates() {
        let mut o = Object::DaemonSet(DaemonSet::default());
        prepare_for_create(&mut o);
        let Object::DaemonSet(mut created) = o.clone() else {
            unreachable!()
        };
        created.spec.template_mut().spec_mut().containers = vec![crate::api::Container {
            name: "c".into(),
            ..Default::default()
        }];
        let mut o = Object::DaemonSet(created);
        crate::api::defaults::default_object(&mut o);
        let Object::DaemonSet(created) = o.clone() else {
            unreachable!()
        };
        let mut same = created.clone();
        let spec = same.spec.template_mut().spec_mut();
        spec.extra.insert("volumes".into(), serde_json::json!([]));
        spec.containers[0]
            .extra
            .insert("env".into(), serde_json::json!([]));
        let mut n = Object::DaemonSet(same);
        prepare_for_update(&mut n, &o);
        let Object::DaemonSet(n) = n else {
            unreachable!()
        };
        assert_eq!(template_generation(&n), 1);
    }

    // Rows of TestSetDefaultService (pkg/apis/core/v1/defaults_test.go).
    #[test]
    fn service_defaults_and_headless_allocation() {
        let mut svc: Service = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "nginx", "namespace": "default"},
            "spec": {"clusterIP": "None", "selector": {"app": "nginx"},
                     "ports": [{"port": 80, "name": "web"}]}}))
        .unwrap();
        let mut s = svc.clone();
        set_defaults_service(&mut s);
        assert_eq!(s.spec.type_, "ClusterIP");
        assert_eq!(s.spec.session_affinity, "None");
        assert_eq!(s.spec.ports[0].protocol, "TCP");
        assert_eq!(s.spec.ports[0].target_port, Some(IntOrString::Int(80)));
        assert_eq!(s.spec.cluster_ips, vec!["None".to_string()]);
        assert_eq!(s.spec.internal_traffic_policy.as_deref(), Some("Cluster"));
        assert!(s.is_headless());
        // A ClusterIP Service gets a stable address in 10.96.0.0/12.
        svc.spec.cluster_ip.clear();
        let mut a = svc.clone();
        allocate_service(&mut a);
        let mut b = svc.clone();
        allocate_service(&mut b);
        assert_eq!(a.spec.cluster_ip, b.spec.cluster_ip);
        assert!(
            a.spec.cluster_ip.starts_with("10."),
            "{}",
            a.spec.cluster_ip
        );
        let second: u32 = a
            .spec
            .cluster_ip
            .split('.')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        assert!((96..112).contains(&second));
    }
}

#[cfg(test)]
mod strategy_upstream_tests;

#[cfg(test)]
mod strategy_upstream_gap_tests;
