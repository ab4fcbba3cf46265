//! Service defaulting (`SetDefaults_Service`), the update strategy's
//! `dropTypeDependentFields`, and the validation checks that rely on those defaults, ported
//! from upstream's tests. Expected values are upstream's.

use super::sts_ds_defaults::{drop_type_dependent_fields, set_defaults_service};
use super::sts_ds_validation::{validate_service, validate_service_update};
use super::{IntOrString, Service};
use serde_json::{json, Value};

fn svc(v: Value) -> Service {
    serde_json::from_value(v).unwrap()
}

/// The defaulted Service, as `roundTrip` returns it.
fn round_trip(v: Value) -> Service {
    let mut s = svc(v);
    set_defaults_service(&mut s);
    s
}

fn extra<'a>(s: &'a Service, key: &str) -> Option<&'a Value> {
    s.spec.extra.get(key)
}

// upstream: TestSetDefaultService (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_service() {
    let s = round_trip(json!({}));
    assert_eq!(s.spec.session_affinity, "None");
    assert_eq!(extra(&s, "sessionAffinityConfig"), None);
    assert_eq!(s.spec.type_, "ClusterIP");
}

// upstream: TestSetDefaultServiceSessionAffinityConfig (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_service_session_affinity_config() {
    for (name, config) in [
        ("SessionAffinityConfig is empty", None),
        ("ClientIP is empty", Some(json!({"clientIP": null}))),
        (
            "TimeoutSeconds is empty",
            Some(json!({"clientIP": {"timeoutSeconds": null}})),
        ),
    ] {
        let mut v = json!({"spec": {"sessionAffinity": "ClientIP"}});
        if let Some(c) = config {
            v["spec"]["sessionAffinityConfig"] = c;
        }
        let s = round_trip(v);
        assert_eq!(
            extra(&s, "sessionAffinityConfig"),
            Some(&json!({"clientIP": {"timeoutSeconds": 10800}})),
            "{name}"
        );
    }
    // A timeout that is given stays.
    let s = round_trip(
        json!({"spec": {"sessionAffinity": "ClientIP", "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 60}}}}),
    );
    assert_eq!(
        extra(&s, "sessionAffinityConfig"),
        Some(&json!({"clientIP": {"timeoutSeconds": 60}}))
    );
}

// upstream: TestSetDefaultServiceTargetPort (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_service_target_port() {
    let s = round_trip(json!({"spec": {"ports": [{"port": 1234}]}}));
    assert_eq!(s.spec.ports[0].target_port, Some(IntOrString::Int(1234)));
    let s = round_trip(json!({"spec": {"ports": [{"port": 1234, "targetPort": 5678}]}}));
    assert_eq!(s.spec.ports[0].target_port, Some(IntOrString::Int(5678)));
}

// upstream: TestSetDefaultServicePort (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_service_port() {
    // Unchanged if set.
    let s = round_trip(json!({"spec": {"ports": [
        {"protocol": "UDP", "port": 9376, "targetPort": "p"},
        {"protocol": "UDP", "port": 8675, "targetPort": 309},
    ]}}));
    assert_eq!(s.spec.ports[0].protocol, "UDP");
    assert_eq!(
        s.spec.ports[0].target_port,
        Some(IntOrString::String("p".into()))
    );
    assert_eq!(s.spec.ports[1].protocol, "UDP");
    assert_eq!(s.spec.ports[1].target_port, Some(IntOrString::Int(309)));
    // Defaulted.
    let s = round_trip(json!({"spec": {"ports": [
        {"protocol": "", "port": 9376, "targetPort": ""},
        {"protocol": "", "port": 8675, "targetPort": 0},
    ]}}));
    assert_eq!(s.spec.ports[0].protocol, "TCP");
    assert_eq!(s.spec.ports[0].target_port, Some(IntOrString::Int(9376)));
    assert_eq!(s.spec.ports[1].protocol, "TCP");
    assert_eq!(s.spec.ports[1].target_port, Some(IntOrString::Int(8675)));
}

// upstream: TestSetDefaultServiceExternalTraffic (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_service_external_traffic() {
    let cases = [
        (json!({}), None),
        (json!({"spec": {"type": "NodePort"}}), Some("Cluster")),
        (json!({"spec": {"type": "LoadBalancer"}}), Some("Cluster")),
        (
            json!({"spec": {"type": "ClusterIP", "externalIPs": ["1.2.3.4"]}}),
            Some("Cluster"),
        ),
        (json!({"spec": {"type": "ClusterIP"}}), None),
        (json!({"spec": {"type": "ExternalName"}}), None),
    ];
    for (input, want) in cases {
        let s = round_trip(input.clone());
        assert_eq!(
            extra(&s, "externalTrafficPolicy").and_then(Value::as_str),
            want,
            "{input}"
        );
    }
    // A policy that is given stays.
    let s = round_trip(json!({"spec": {"type": "NodePort", "externalTrafficPolicy": "Local"}}));
    assert_eq!(extra(&s, "externalTrafficPolicy"), Some(&json!("Local")));
}

// upstream: TestSetDefaultServiceInternalTrafficPolicy (pkg/apis/core/v1/defaults_test.go).
#[test]
fn set_default_service_internal_traffic_policy() {
    let cases = [
        (
            "must set default internalTrafficPolicy",
            json!({}),
            Some("Cluster"),
        ),
        (
            "must not set default internalTrafficPolicy when it's cluster",
            json!({"spec": {"internalTrafficPolicy": "Cluster"}}),
            Some("Cluster"),
        ),
        (
            "must not set default internalTrafficPolicy when type is ExternalName",
            json!({"spec": {"type": "ExternalName"}}),
            None,
        ),
        (
            "must not set default internalTrafficPolicy when it's local",
            json!({"spec": {"internalTrafficPolicy": "Local"}}),
            Some("Local"),
        ),
    ];
    for (name, input, want) in cases {
        let s = round_trip(input);
        assert_eq!(s.spec.internal_traffic_policy.as_deref(), want, "{name}");
    }
}

// SetDefaults_Service's allocateLoadBalancerNodePorts rule (pkg/apis/core/v1/defaults.go; no
// upstream table of its own): true for a LoadBalancer that leaves it unset, kept when given,
// never set on other types.
#[test]
fn set_default_service_allocate_load_balancer_node_ports() {
    let s = round_trip(json!({"spec": {"type": "LoadBalancer"}}));
    assert_eq!(
        extra(&s, "allocateLoadBalancerNodePorts"),
        Some(&json!(true))
    );
    let s = round_trip(
        json!({"spec": {"type": "LoadBalancer", "allocateLoadBalancerNodePorts": false}}),
    );
    assert_eq!(
        extra(&s, "allocateLoadBalancerNodePorts"),
        Some(&json!(false))
    );
    for t in ["ClusterIP", "NodePort", "ExternalName"] {
        let s = round_trip(json!({"spec": {"type": t}}));
        assert_eq!(extra(&s, "allocateLoadBalancerNodePorts"), None, "{t}");
    }
}

/// upstream's `makeValidService` (pkg/registry/core/service/strategy_test.go).
fn strategy_valid_service() -> Service {
    svc(json!({
        "metadata": {"name": "valid", "namespace": "default", "resourceVersion": "1"},
        "spec": {
            "selector": {"key": "val"},
            "sessionAffinity": "None",
            "type": "ClusterIP",
            "ports": [
                {"name": "p", "protocol": "TCP", "port": 8675, "targetPort": 8675},
                {"name": "q", "protocol": "TCP", "port": 309, "targetPort": 309},
            ],
            "clusterIP": "1.2.3.4",
            "clusterIPs": ["1.2.3.4", "5:6:7::8"],
            "ipFamilyPolicy": "PreferDualStack",
            "ipFamilies": ["IPv4", "IPv6"],
            "internalTrafficPolicy": "Cluster",
        }
    }))
}

type Tweak = fn(&mut Service);

fn custom(tweaks: &[Tweak]) -> Service {
    let mut s = strategy_valid_service();
    for t in tweaks {
        t(&mut s);
    }
    s
}

fn set_type_external_name(s: &mut Service) {
    s.spec.type_ = "ExternalName".into();
}
fn set_type_node_port(s: &mut Service) {
    s.spec.type_ = "NodePort".into();
}
fn set_type_cluster_ip(s: &mut Service) {
    s.spec.type_ = "ClusterIP".into();
}
fn set_type_load_balancer(s: &mut Service) {
    s.spec.type_ = "LoadBalancer".into();
}
fn clear_cluster_ips(s: &mut Service) {
    s.spec.cluster_ip.clear();
    s.spec.cluster_ips.clear();
}
fn change_cluster_ips(s: &mut Service) {
    s.spec.cluster_ip.push('0');
    s.spec.cluster_ips[0].push('0');
}
fn set_node_ports(s: &mut Service) {
    for (i, p) in s.spec.ports.iter_mut().enumerate() {
        p.node_port = 30000 + i as i32;
    }
}
fn change_node_ports(s: &mut Service) {
    for p in &mut s.spec.ports {
        p.node_port += 100;
    }
}
fn set_external_ips(s: &mut Service) {
    s.spec
        .extra
        .insert("externalIPs".into(), json!(["1.1.1.1"]));
}
fn clear_external_ips(s: &mut Service) {
    s.spec.extra.remove("externalIPs");
}
fn set_external_traffic_policy_cluster(s: &mut Service) {
    s.spec
        .extra
        .insert("externalTrafficPolicy".into(), json!("Cluster"));
}
fn clear_external_traffic_policy(s: &mut Service) {
    s.spec.extra.remove("externalTrafficPolicy");
}
fn clear_ip_families(s: &mut Service) {
    s.spec.ip_families.clear();
}
fn change_ip_families(s: &mut Service) {
    s.spec.ip_families[0] = s.spec.ip_families[1].clone();
}
fn clear_ip_family_policy(s: &mut Service) {
    s.spec.ip_family_policy = None;
}
fn change_ip_family_policy(s: &mut Service) {
    s.spec.ip_family_policy = Some("SingleStack".into());
}
fn add_port(s: &mut Service) {
    s.spec.ports.push(
        serde_json::from_value(
            json!({"name": "new", "protocol": "TCP", "port": 0, "targetPort": 0}),
        )
        .unwrap(),
    );
}
fn del_port(s: &mut Service) {
    s.spec.ports.pop();
}
fn change_port(s: &mut Service) {
    s.spec.ports[0].port += 100;
    s.spec.ports[0].protocol = "UDP".into();
}
fn set_hc_node_port(s: &mut Service) {
    s.spec
        .extra
        .insert("externalTrafficPolicy".into(), json!("Local"));
    s.spec
        .extra
        .insert("healthCheckNodePort".into(), json!(32000));
}
fn change_hc_node_port(s: &mut Service) {
    let n = s.spec.extra["healthCheckNodePort"].as_i64().unwrap();
    s.spec
        .extra
        .insert("healthCheckNodePort".into(), json!(n + 100));
}
fn set_allocate_true(s: &mut Service) {
    s.spec
        .extra
        .insert("allocateLoadBalancerNodePorts".into(), json!(true));
}
fn set_allocate_false(s: &mut Service) {
    s.spec
        .extra
        .insert("allocateLoadBalancerNodePorts".into(), json!(false));
}
fn clear_allocate(s: &mut Service) {
    s.spec.extra.remove("allocateLoadBalancerNodePorts");
}
fn set_lb_class(s: &mut Service) {
    s.spec.extra.insert(
        "loadBalancerClass".into(),
        json!("test-load-balancer-class"),
    );
}
fn clear_lb_class(s: &mut Service) {
    s.spec.extra.remove("loadBalancerClass");
}
fn change_lb_class(s: &mut Service) {
    s.spec.extra.insert(
        "loadBalancerClass".into(),
        json!("test-load-balancer-class-changed"),
    );
}

// upstream: TestDropTypeDependentFields (pkg/registry/core/service/strategy_test.go), every
// row; the same fields are compared.
#[test]
fn drop_type_dependent_fields_table() {
    // (name, old Service, patch, expected Service)
    type Row = (&'static str, Vec<Tweak>, Vec<Tweak>, Vec<Tweak>);
    let rows: Vec<Row> = vec![
        ("don't clear clusterIP et al", vec![], vec![], vec![]),
        (
            "clear clusterIP et al",
            vec![],
            vec![set_type_external_name],
            vec![
                set_type_external_name,
                clear_cluster_ips,
                clear_ip_families,
                clear_ip_family_policy,
            ],
        ),
        (
            "don't clear changed clusterIP",
            vec![],
            vec![set_type_external_name, change_cluster_ips],
            vec![
                set_type_external_name,
                change_cluster_ips,
                clear_ip_families,
                clear_ip_family_policy,
            ],
        ),
        (
            "don't clear changed ipFamilies",
            vec![],
            vec![set_type_external_name, change_ip_families],
            vec![
                set_type_external_name,
                clear_cluster_ips,
                change_ip_families,
                clear_ip_family_policy,
            ],
        ),
        (
            "don't clear changed ipFamilyPolicy",
            vec![],
            vec![set_type_external_name, change_ip_family_policy],
            vec![
                set_type_external_name,
                clear_cluster_ips,
                clear_ip_families,
                change_ip_family_policy,
            ],
        ),
        (
            "don't clear nodePorts for type=NodePort",
            vec![set_type_node_port, set_node_ports],
            vec![],
            vec![set_type_node_port, set_node_ports],
        ),
        (
            "don't clear nodePorts for type=LoadBalancer",
            vec![set_type_load_balancer, set_node_ports],
            vec![],
            vec![set_type_load_balancer, set_node_ports],
        ),
        (
            "clear nodePorts",
            vec![set_type_load_balancer, set_node_ports],
            vec![set_type_cluster_ip],
            vec![],
        ),
        (
            "don't clear changed nodePorts",
            vec![set_type_load_balancer, set_node_ports],
            vec![set_type_cluster_ip, change_node_ports],
            vec![set_node_ports, change_node_ports],
        ),
        (
            "clear nodePorts when adding a port",
            vec![set_type_load_balancer, set_node_ports],
            vec![set_type_cluster_ip, add_port],
            vec![add_port],
        ),
        (
            "don't clear nodePorts when adding a port with NodePort",
            vec![set_type_load_balancer, set_node_ports],
            vec![set_type_cluster_ip, add_port, set_node_ports],
            vec![add_port, set_node_ports],
        ),
        (
            "clear nodePorts when removing a port",
            vec![set_type_load_balancer, set_node_ports],
            vec![set_type_cluster_ip, del_port],
            vec![del_port],
        ),
        (
            "clear nodePorts when changing a port",
            vec![set_type_load_balancer, set_node_ports],
            vec![set_type_cluster_ip, change_port],
            vec![change_port],
        ),
        (
            "don't clear healthCheckNodePort for type=LoadBalancer",
            vec![set_type_load_balancer, set_hc_node_port],
            vec![],
            vec![set_type_load_balancer, set_hc_node_port],
        ),
        (
            "clear healthCheckNodePort",
            vec![set_type_load_balancer, set_hc_node_port],
            vec![set_type_cluster_ip],
            vec![],
        ),
        (
            "don't clear changed healthCheckNodePort",
            vec![set_type_load_balancer, set_hc_node_port],
            vec![set_type_cluster_ip, change_hc_node_port],
            vec![
                set_hc_node_port,
                change_hc_node_port,
                clear_external_traffic_policy,
            ],
        ),
        (
            "clear allocatedLoadBalancerNodePorts true -> true",
            vec![set_type_load_balancer, set_allocate_true],
            vec![set_type_node_port],
            vec![set_type_node_port],
        ),
        (
            "clear allocatedLoadBalancerNodePorts false -> false",
            vec![set_type_load_balancer, set_allocate_false],
            vec![set_type_node_port],
            vec![set_type_node_port],
        ),
        (
            "set allocatedLoadBalancerNodePorts nil -> true",
            vec![set_type_load_balancer],
            vec![set_type_node_port, set_allocate_true],
            vec![set_type_node_port, set_allocate_true],
        ),
        (
            "set allocatedLoadBalancerNodePorts nil -> false",
            vec![set_type_load_balancer],
            vec![set_type_node_port, set_allocate_false],
            vec![set_type_node_port, set_allocate_false],
        ),
        (
            "set allocatedLoadBalancerNodePorts true -> nil",
            vec![set_type_load_balancer, set_allocate_true],
            vec![set_type_node_port, clear_allocate],
            vec![set_type_node_port],
        ),
        (
            "set allocatedLoadBalancerNodePorts false -> nil",
            vec![set_type_load_balancer, set_allocate_false],
            vec![set_type_node_port, clear_allocate],
            vec![set_type_node_port],
        ),
        (
            "set allocatedLoadBalancerNodePorts true -> false",
            vec![set_type_load_balancer, set_allocate_true],
            vec![set_type_node_port, set_allocate_false],
            vec![set_type_node_port, set_allocate_false],
        ),
        (
            "set allocatedLoadBalancerNodePorts false -> true",
            vec![set_type_load_balancer, set_allocate_false],
            vec![set_type_node_port, set_allocate_true],
            vec![set_type_node_port, set_allocate_true],
        ),
        (
            "clear loadBalancerClass when set Service type LoadBalancer -> non LoadBalancer",
            vec![set_type_load_balancer, set_lb_class],
            vec![set_type_cluster_ip],
            vec![set_type_cluster_ip, clear_lb_class],
        ),
        (
            "update loadBalancerClass load balancer class name",
            vec![set_type_load_balancer, set_lb_class],
            vec![change_lb_class],
            vec![set_type_load_balancer, change_lb_class],
        ),
        (
            "clear load balancer class name",
            vec![set_type_load_balancer, set_lb_class],
            vec![clear_lb_class],
            vec![set_type_load_balancer, clear_lb_class],
        ),
        (
            "change service type and load balancer class",
            vec![set_type_load_balancer, set_lb_class],
            vec![set_type_cluster_ip, change_lb_class],
            vec![set_type_cluster_ip, change_lb_class],
        ),
        (
            "change service type to load balancer and set load balancer class",
            vec![set_type_cluster_ip],
            vec![set_type_load_balancer, set_lb_class],
            vec![set_type_load_balancer, set_lb_class],
        ),
        (
            "don't clear load balancer class for Type=LoadBalancer",
            vec![set_type_load_balancer, set_lb_class],
            vec![],
            vec![set_type_load_balancer, set_lb_class],
        ),
        (
            "clear externalTrafficPolicy when removing externalIPs for Type=ClusterIP",
            vec![
                set_type_cluster_ip,
                set_external_ips,
                set_external_traffic_policy_cluster,
            ],
            vec![clear_external_ips],
            vec![set_type_cluster_ip, clear_external_traffic_policy],
        ),
    ];
    for (name, svc_tweaks, patch, expect_tweaks) in rows {
        let old = custom(&svc_tweaks);
        let mut result = old.clone();
        for t in &patch {
            t(&mut result);
        }
        drop_type_dependent_fields(&mut result, &old);
        let expect = custom(&expect_tweaks);
        let (r, e) = (&result.spec, &expect.spec);
        assert_eq!(r.cluster_ip, e.cluster_ip, "{name}: clusterIP");
        assert_eq!(r.cluster_ips, e.cluster_ips, "{name}: clusterIPs");
        assert_eq!(r.ip_families, e.ip_families, "{name}: ipFamilies");
        assert_eq!(
            r.ip_family_policy, e.ip_family_policy,
            "{name}: ipFamilyPolicy"
        );
        for (i, p) in r.ports.iter().enumerate() {
            assert_eq!(
                p.node_port, e.ports[i].node_port,
                "{name}: ports[{i}].nodePort"
            );
        }
        for key in [
            "healthCheckNodePort",
            "allocateLoadBalancerNodePorts",
            "loadBalancerClass",
            "externalTrafficPolicy",
        ] {
            assert_eq!(r.extra.get(key), e.extra.get(key), "{name}: {key}");
        }
    }
}

// PrepareForUpdate with defaulting, as a `kubectl edit` that changes a defaulted NodePort
// Service to ClusterIP sends it: the defaulted externalTrafficPolicy goes with the type, and
// the result validates (upstream: dropTypeDependentFields, then ValidateServiceUpdate).
#[test]
fn type_change_to_cluster_ip_drops_external_traffic_policy() {
    use super::object::Object;
    let mut old = round_trip(
        json!({"metadata": {"name": "web", "namespace": "default", "resourceVersion": "1"},
            "spec": {"type": "LoadBalancer", "selector": {"app": "web"}, "ports": [{"port": 80}]}}),
    );
    old.metadata.resource_version = "1".into();
    assert_eq!(
        extra(&old, "externalTrafficPolicy"),
        Some(&json!("Cluster"))
    );
    assert_eq!(
        extra(&old, "allocateLoadBalancerNodePorts"),
        Some(&json!(true))
    );
    let mut new = old.clone();
    new.spec.type_ = "ClusterIP".into();
    set_defaults_service(&mut new);
    let mut n = Object::Service(new);
    super::sts_ds_defaults::prepare_for_update(&mut n, &Object::Service(old.clone()));
    let Object::Service(new) = n else {
        unreachable!()
    };
    assert_eq!(extra(&new, "externalTrafficPolicy"), None);
    assert_eq!(extra(&new, "allocateLoadBalancerNodePorts"), None);
    assert_eq!(new.spec.internal_traffic_policy.as_deref(), Some("Cluster"));
    let errs = validate_service_update(&new, &old);
    assert!(errs.is_empty(), "{errs:?}");
}

/// upstream's `makeValidService` (pkg/apis/core/validation/validation_test.go).
fn validation_valid_service() -> Service {
    svc(json!({
        "metadata": {"name": "valid", "namespace": "valid", "resourceVersion": "1"},
        "spec": {
            "selector": {"key": "val"},
            "sessionAffinity": "None",
            "type": "ClusterIP",
            "ports": [{"name": "p", "protocol": "TCP", "port": 8675, "targetPort": 8675}],
            "internalTrafficPolicy": "Cluster",
        }
    }))
}

/// The errors `validateServiceExternalTrafficPolicy` contributes: those on its two fields.
fn external_traffic_errors(s: &Service) -> Vec<String> {
    validate_service(s)
        .iter()
        .filter(|e| {
            e.field == "spec.externalTrafficPolicy" || e.field == "spec.healthCheckNodePort"
        })
        .map(ToString::to_string)
        .collect()
}

// upstream: TestValidateServiceExternalTrafficPolicy (pkg/apis/core/validation/validation_test.go),
// every row. Upstream calls validateServiceExternalTrafficPolicy alone; here the errors of
// ValidateService on its two fields are counted.
#[test]
fn validate_service_external_traffic_policy_table() {
    let rows: Vec<(&str, Value, usize)> = vec![
        (
            "valid loadBalancer service with externalTrafficPolicy and healthCheckNodePort set",
            json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": true,
                "externalTrafficPolicy": "Local", "healthCheckNodePort": 34567}),
            0,
        ),
        (
            "valid nodePort service with externalTrafficPolicy set",
            json!({"type": "NodePort", "externalTrafficPolicy": "Local"}),
            0,
        ),
        (
            "valid clusterIP service with none of externalTrafficPolicy and healthCheckNodePort set",
            json!({"type": "ClusterIP"}),
            0,
        ),
        (
            "cannot set healthCheckNodePort field on loadBalancer service with externalTrafficPolicy!=Local",
            json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": true,
                "externalTrafficPolicy": "Cluster", "healthCheckNodePort": 34567}),
            1,
        ),
        (
            "cannot set healthCheckNodePort field on nodePort service",
            json!({"type": "NodePort", "externalTrafficPolicy": "Local", "healthCheckNodePort": 34567}),
            1,
        ),
        (
            "cannot set externalTrafficPolicy or healthCheckNodePort fields on clusterIP service",
            json!({"type": "ClusterIP", "externalTrafficPolicy": "Local", "healthCheckNodePort": 34567}),
            2,
        ),
        (
            "cannot set externalTrafficPolicy field on ExternalName service",
            json!({"type": "ExternalName", "externalTrafficPolicy": "Local"}),
            1,
        ),
        (
            "externalTrafficPolicy is required on NodePort service",
            json!({"type": "NodePort"}),
            1,
        ),
        (
            "externalTrafficPolicy is required on LoadBalancer service",
            json!({"type": "LoadBalancer"}),
            1,
        ),
        (
            "externalTrafficPolicy is required on ClusterIP service with externalIPs",
            json!({"type": "ClusterIP", "externalIPs": ["1.2.3,4"]}),
            1,
        ),
    ];
    for (name, tweak, want) in rows {
        let mut v = serde_json::to_value(validation_valid_service()).unwrap();
        for (k, x) in tweak.as_object().unwrap() {
            v["spec"][k] = x.clone();
        }
        let s = svc(v);
        let errs = external_traffic_errors(&s);
        assert_eq!(errs.len(), want, "{name}: {errs:?}");
    }
}

// upstream: TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go), the row
// "Use AllocateLoadBalancerNodePorts when type is not LoadBalancer" (numErrs 1), and the
// messages of both allocateLoadBalancerNodePorts checks (ValidateService).
#[test]
fn validate_service_allocate_load_balancer_node_ports() {
    let mut s = validation_valid_service();
    s.spec
        .extra
        .insert("allocateLoadBalancerNodePorts".into(), json!(true));
    let errs: Vec<String> = validate_service(&s)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'"]
    );
    let mut s = validation_valid_service();
    s.spec.type_ = "LoadBalancer".into();
    s.spec
        .extra
        .insert("externalTrafficPolicy".into(), json!("Cluster"));
    let errs: Vec<String> = validate_service(&s)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(errs, ["allocateLoadBalancerNodePorts: Required value"]);
}

// validateServiceExternalTrafficFieldsUpdate (pkg/apis/core/validation/validation.go): the
// health-check node port may not change while both sides need one; it may when the old
// Service did not.
#[test]
fn validate_service_update_health_check_node_port_immutable() {
    let lb_local = |hcnp: i64| {
        let mut s = validation_valid_service();
        s.spec.type_ = "LoadBalancer".into();
        s.spec
            .extra
            .insert("allocateLoadBalancerNodePorts".into(), json!(true));
        s.spec
            .extra
            .insert("externalTrafficPolicy".into(), json!("Local"));
        s.spec
            .extra
            .insert("healthCheckNodePort".into(), json!(hcnp));
        s
    };
    let errs: Vec<String> = validate_service_update(&lb_local(31001), &lb_local(31000))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        ["spec.healthCheckNodePort: Forbidden: field is immutable"]
    );
    let mut old = lb_local(31000);
    old.spec
        .extra
        .insert("externalTrafficPolicy".into(), json!("Cluster"));
    old.spec.extra.remove("healthCheckNodePort");
    assert!(validate_service_update(&lb_local(31001), &old).is_empty());
}

// upstream: TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go), the rows
// after "valid port type=LoadBalancer" that the new defaults and checks make portable: the
// ExternalName and None-ClusterIP rows, the ESIPP section, the None-affinity config row, and
// the allocateLoadBalancerNodePorts and LoadBalancerClass rows at the end. Skipped: the
// load-balancer source range rows, "invalid timeoutSeconds field" (not validated by kubeplay),
// and the cluster IP / IP family rows (ported in src/api/validation/core_ports_tests2.rs).
#[test]
fn validate_service_create_traffic_policy_rows() {
    let lb = json!({"type": "LoadBalancer", "externalTrafficPolicy": "Cluster",
        "allocateLoadBalancerNodePorts": true});
    let with = |base: &Value, more: Value| {
        let mut v = base.clone();
        for (k, x) in more.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let rows: Vec<(&str, Value, usize)> = vec![
        (
            "valid ExternalName",
            json!({"type": "ExternalName", "externalName": "foo.bar.example.com"}),
            0,
        ),
        (
            "valid ExternalName (trailing dot)",
            json!({"type": "ExternalName", "externalName": "foo.bar.example.com."}),
            0,
        ),
        (
            "invalid ExternalName clusterIP (valid IP)",
            json!({"type": "ExternalName", "clusterIP": "1.2.3.4", "clusterIPs": ["1.2.3.4"],
                "externalName": "foo.bar.example.com"}),
            1,
        ),
        (
            "invalid ExternalName clusterIP (None)",
            json!({"type": "ExternalName", "clusterIP": "None", "clusterIPs": ["None"],
                "externalName": "foo.bar.example.com"}),
            1,
        ),
        (
            "invalid ExternalName (not a DNS name)",
            json!({"type": "ExternalName", "externalName": "-123"}),
            1,
        ),
        (
            "LoadBalancer type cannot have None ClusterIP",
            with(&lb, json!({"clusterIP": "None", "clusterIPs": ["None"]})),
            1,
        ),
        (
            "invalid node port with clusterIP None",
            json!({"type": "NodePort", "externalTrafficPolicy": "Cluster",
                "ports": [{"name": "p", "protocol": "TCP", "port": 8675, "targetPort": 8675},
                          {"name": "q", "protocol": "TCP", "port": 1, "nodePort": 1, "targetPort": 1}],
                "clusterIP": "None", "clusterIPs": ["None"]}),
            1,
        ),
        (
            "invalid externalTraffic field",
            json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": true,
                "externalTrafficPolicy": "invalid"}),
            1,
        ),
        (
            "nil internalTraffic field when feature gate is on",
            json!({"internalTrafficPolicy": null}),
            1,
        ),
        (
            "internalTrafficPolicy field nil when type is ExternalName",
            json!({"internalTrafficPolicy": null, "type": "ExternalName",
                "externalName": "foo.bar.com"}),
            0,
        ),
        (
            "internalTrafficPolicy field is set when type is ExternalName",
            json!({"internalTrafficPolicy": "Cluster", "type": "ExternalName",
                "externalName": "foo.bar.com"}),
            0,
        ),
        (
            "invalid internalTraffic field",
            json!({"internalTrafficPolicy": "invalid"}),
            1,
        ),
        (
            "internalTrafficPolicy field set to Cluster",
            json!({"internalTrafficPolicy": "Cluster"}),
            0,
        ),
        (
            "internalTrafficPolicy field set to Local",
            json!({"internalTrafficPolicy": "Local"}),
            0,
        ),
        (
            "negative healthCheckNodePort field",
            json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": true,
                "externalTrafficPolicy": "Local", "healthCheckNodePort": -1}),
            1,
        ),
        (
            "negative healthCheckNodePort field (31100)",
            json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": true,
                "externalTrafficPolicy": "Local", "healthCheckNodePort": 31100}),
            0,
        ),
        (
            "sessionAffinityConfig can't be set when session affinity is None",
            with(
                &lb,
                json!({"sessionAffinity": "None",
                    "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 90}}}),
            ),
            1,
        ),
        (
            "Use AllocateLoadBalancerNodePorts when type is not LoadBalancer",
            json!({"allocateLoadBalancerNodePorts": true}),
            1,
        ),
        (
            "valid LoadBalancerClass when type is LoadBalancer",
            with(
                &lb,
                json!({"loadBalancerClass": "test.com/test-load-balancer-class"}),
            ),
            0,
        ),
        (
            "invalid LoadBalancerClass",
            with(&lb, json!({"loadBalancerClass": "Bad/LoadBalancerClass"})),
            1,
        ),
        (
            "invalid: set LoadBalancerClass when type is not LoadBalancer",
            json!({"type": "ClusterIP", "loadBalancerClass": "test.com/test-load-balancer-class"}),
            1,
        ),
    ];
    for (name, tweak, want) in rows {
        let mut v = serde_json::to_value(validation_valid_service()).unwrap();
        for (k, x) in tweak.as_object().unwrap() {
            v["spec"][k] = x.clone();
        }
        let s = svc(v);
        let errs: Vec<String> = validate_service(&s)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(errs.len(), want, "{name}: {errs:?}");
    }
}

// upstream: TestCreateInitIPFields (pkg/registry/core/service/storage/storage_test.go), the
// "singlestack:v4" HeadlessSelectorless rows that succeed: a headless Service without a
// selector defaults to RequireDualStack and, unless SingleStack, lists both families even on a
// single-stack cluster.
#[test]
fn create_init_ip_fields_headless_selectorless() {
    // (name, ipFamilyPolicy, ipFamilies, expected policy, expected families)
    type Row = (
        &'static str,
        Option<&'static str>,
        &'static [&'static str],
        &'static str,
        &'static [&'static str],
    );
    let rows: [Row; 12] = [
        (
            "Policy:unset_Families:unset",
            None,
            &[],
            "RequireDualStack",
            &["IPv4", "IPv6"],
        ),
        (
            "Policy:unset_Families:v4",
            None,
            &["IPv4"],
            "RequireDualStack",
            &["IPv4", "IPv6"],
        ),
        (
            "Policy:unset_Families:v6",
            None,
            &["IPv6"],
            "RequireDualStack",
            &["IPv6", "IPv4"],
        ),
        (
            "Policy:unset_Families:v4v6",
            None,
            &["IPv4", "IPv6"],
            "RequireDualStack",
            &["IPv4", "IPv6"],
        ),
        (
            "Policy:unset_Families:v6v4",
            None,
            &["IPv6", "IPv4"],
            "RequireDualStack",
            &["IPv6", "IPv4"],
        ),
        (
            "Policy:SingleStack_Families:unset",
            Some("SingleStack"),
            &[],
            "SingleStack",
            &["IPv4"],
        ),
        (
            "Policy:SingleStack_Families:v4",
            Some("SingleStack"),
            &["IPv4"],
            "SingleStack",
            &["IPv4"],
        ),
        (
            "Policy:SingleStack_Families:v6",
            Some("SingleStack"),
            &["IPv6"],
            "SingleStack",
            &["IPv6"],
        ),
        (
            "Policy:PreferDualStack_Families:unset",
            Some("PreferDualStack"),
            &[],
            "PreferDualStack",
            &["IPv4", "IPv6"],
        ),
        (
            "Policy:PreferDualStack_Families:v6",
            Some("PreferDualStack"),
            &["IPv6"],
            "PreferDualStack",
            &["IPv6", "IPv4"],
        ),
        (
            "Policy:RequireDualStack_Families:unset",
            Some("RequireDualStack"),
            &[],
            "RequireDualStack",
            &["IPv4", "IPv6"],
        ),
        (
            "Policy:RequireDualStack_Families:v6v4",
            Some("RequireDualStack"),
            &["IPv6", "IPv4"],
            "RequireDualStack",
            &["IPv6", "IPv4"],
        ),
    ];
    for (name, policy, families, want_policy, want_families) in rows {
        let mut v = json!({"metadata": {"name": "foo", "namespace": "default"},
            "spec": {"clusterIP": "None", "clusterIPs": ["None"],
                "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}],
                "ipFamilies": families}});
        if let Some(p) = policy {
            v["spec"]["ipFamilyPolicy"] = json!(p);
        }
        let s = round_trip(v);
        assert_eq!(
            s.spec.ip_family_policy.as_deref(),
            Some(want_policy),
            "{name}"
        );
        assert_eq!(s.spec.ip_families, want_families, "{name}");
        assert_eq!(s.spec.cluster_ips, ["None"], "{name}");
    }
    // With a selector a headless Service stays single-stack (initIPFamilyFields: SingleStack
    // unless headless and selectorless, then the cluster's default family).
    let s = round_trip(json!({"spec": {"clusterIP": "None", "selector": {"k": "v"},
        "ports": [{"port": 80}]}}));
    assert_eq!(s.spec.ip_family_policy.as_deref(), Some("SingleStack"));
    assert_eq!(s.spec.ip_families, ["IPv4"]);
}
