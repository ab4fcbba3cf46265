//! Ports of TestValidateServiceCreate rows (pkg/apis/core/validation/validation_test.go) that
//! the earlier port skipped: load-balancer source ranges (field and annotation), the client-IP
//! session affinity config, the topology annotations and trafficDistribution.

use crate::api::errors::FieldError;
use crate::api::sts_ds_validation::validate_service;
use crate::api::{IntOrString, ObjectMeta, Service, ServicePort, ServiceSpec};
use serde_json::json;
use std::collections::BTreeMap;

/// `makeValidService()`.
fn valid_service() -> Service {
    Service {
        metadata: ObjectMeta {
            name: "valid".into(),
            namespace: "valid".into(),
            resource_version: "1".into(),
            ..Default::default()
        },
        spec: ServiceSpec {
            selector: BTreeMap::from([("key".to_string(), "val".to_string())]),
            session_affinity: "None".into(),
            type_: "ClusterIP".into(),
            ports: vec![ServicePort {
                name: "p".into(),
                protocol: "TCP".into(),
                port: 8675,
                target_port: Some(IntOrString::Int(8675)),
                ..Default::default()
            }],
            internal_traffic_policy: Some("Cluster".into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn load_balancer(s: &mut Service) {
    s.spec.type_ = "LoadBalancer".into();
    s.spec
        .extra
        .insert("externalTrafficPolicy".into(), json!("Cluster"));
    s.spec
        .extra
        .insert("allocateLoadBalancerNodePorts".into(), json!(true));
}

fn errs(tweak: impl FnOnce(&mut Service)) -> Vec<String> {
    let mut s = valid_service();
    tweak(&mut s);
    validate_service(&s)
        .iter()
        .map(FieldError::to_string)
        .collect()
}

const LB_RANGES: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";

// Ported from TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go): the
// LoadBalancer source-range rows.
#[test]
fn validate_service_create_source_range_rows() {
    let annotation = |v: &'static str, lb: bool| {
        move |s: &mut Service| {
            if lb {
                load_balancer(s);
            }
            s.metadata.annotations.insert(LB_RANGES.into(), v.into());
        }
    };
    let field = |v: serde_json::Value, lb: bool| {
        move |s: &mut Service| {
            if lb {
                load_balancer(s);
            }
            s.spec.extra.insert("loadBalancerSourceRanges".into(), v);
        }
    };
    // "valid LoadBalancer source range annotation"
    assert!(errs(annotation("1.2.3.4/8,  5.6.7.8/16", true)).is_empty());
    // "empty LoadBalancer source range annotation"
    assert!(errs(annotation("", true)).is_empty());
    // "invalid LoadBalancer source range annotation (hostname)"
    assert_eq!(
        errs(annotation("foo.bar", true)),
        [format!("metadata.annotations[{LB_RANGES}]: Invalid value: \"foo.bar\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")]
    );
    // "invalid LoadBalancer source range annotation (invalid CIDR)"
    assert_eq!(
        errs(annotation("1.2.3.4/33", true)),
        [format!("metadata.annotations[{LB_RANGES}]: Invalid value: \"1.2.3.4/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")]
    );
    // "invalid source range for non LoadBalancer type service" (the field)
    assert_eq!(
        errs(field(json!(["1.2.3.4/8", "5.6.7.8/16"]), false)),
        ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]
    );
    // ... and the annotation.
    assert_eq!(
        errs(annotation("1.2.3.4/8", false)),
        [format!("metadata.annotations[{LB_RANGES}]: Forbidden: may only be used when `type` is 'LoadBalancer'")]
    );
    // "valid LoadBalancer source range"
    assert!(errs(field(json!(["1.2.3.4/8", "5.6.7.8/16"]), true)).is_empty());
    // "valid LoadBalancer source range with whitespace"
    assert!(errs(field(json!(["1.2.3.4/8  ", "  5.6.7.8/16"]), true)).is_empty());
    // "empty LoadBalancer source range"
    assert_eq!(
        errs(field(json!(["   "]), true)),
        ["spec.LoadBalancerSourceRanges[0]: Invalid value: \"\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"]
    );
    // "invalid LoadBalancer source range"
    assert_eq!(
        errs(field(json!(["foo.bar"]), true)),
        ["spec.LoadBalancerSourceRanges[0]: Invalid value: \"foo.bar\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"]
    );
    // A legacy field: bits beyond the prefix are accepted with StrictIPCIDRValidation off.
    assert!(errs(field(json!(["1.2.3.4/8"]), true)).is_empty());
    // The field wins over the annotation.
    assert!(errs(|s| {
        field(json!(["1.2.3.4/8"]), true)(s);
        s.metadata
            .annotations
            .insert(LB_RANGES.into(), "foo.bar".into());
    })
    .is_empty());
}

// Ported from TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go): the
// session-affinity config rows (validateClientIPAffinityConfig).
#[test]
fn validate_service_create_session_affinity_config_rows() {
    let client_ip = |config: serde_json::Value| {
        move |s: &mut Service| {
            s.spec.session_affinity = "ClientIP".into();
            s.spec.extra.insert("sessionAffinityConfig".into(), config);
        }
    };
    // "valid sessionAffinity ClientIP, sessionAffinityConfig.clientIP.timeoutSeconds field"
    for t in [1, 10800, 86400] {
        assert!(
            errs(client_ip(json!({"clientIP": {"timeoutSeconds": t}}))).is_empty(),
            "{t}"
        );
    }
    // "invalid sessionAffinity ClientIP, sessionAffinityConfig.clientIP.timeoutSeconds field"
    for t in [0, -1, 86401, 2 * 86400] {
        assert_eq!(
            errs(client_ip(json!({"clientIP": {"timeoutSeconds": t}}))),
            [format!("spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: {t}: must be greater than 0 and less than 86400")]
        );
    }
    // Missing pieces (defaulting fills them in on a real API server).
    let when = "Required value: when session affinity type is ClientIP";
    assert_eq!(
        errs(|s| s.spec.session_affinity = "ClientIP".into()),
        [format!("spec.sessionAffinityConfig: {when}")]
    );
    assert_eq!(
        errs(client_ip(json!({}))),
        [format!("spec.sessionAffinityConfig.clientIP: {when}")]
    );
    assert_eq!(
        errs(client_ip(json!({"clientIP": {}}))),
        [format!(
            "spec.sessionAffinityConfig.clientIP.timeoutSeconds: {when}"
        )]
    );
    // "invalid sessionAffinity None, sessionAffinityConfig.clientIP.timeoutSeconds field"
    assert_eq!(
        errs(|s| {
            s.spec.extra.insert(
                "sessionAffinityConfig".into(),
                json!({"clientIP": {"timeoutSeconds": 90}}),
            );
        }),
        ["spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None"]
    );
}

// Ported from TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go): the
// topology annotation rows.
#[test]
fn validate_service_create_topology_annotation_rows() {
    const HINTS: &str = "service.kubernetes.io/topology-aware-hints";
    const MODE: &str = "service.kubernetes.io/topology-mode";
    let annotate = |pairs: &'static [(&'static str, &'static str)]| {
        move |s: &mut Service| {
            for (k, v) in pairs {
                s.metadata.annotations.insert((*k).into(), (*v).into());
            }
        }
    };
    // "valid: topology aware hints annotation" / "valid: topology mode annotation" / both equal.
    assert!(errs(annotate(&[(HINTS, "Auto")])).is_empty());
    assert!(errs(annotate(&[(MODE, "Auto")])).is_empty());
    assert!(errs(annotate(&[(HINTS, "Auto"), (MODE, "Auto")])).is_empty());
    // "invalid: topology mode annotation does not match the deprecated one"
    assert_eq!(
        errs(annotate(&[(HINTS, "Auto"), (MODE, "auto")])),
        [format!("metadata.annotations[{MODE}]: Invalid value: \"auto\": must match annotations[{HINTS}] when both are specified")]
    );
}

// Ported from TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go): the
// trafficDistribution rows, with PreferSameTrafficDistribution on (1.35).
#[test]
fn validate_service_create_traffic_distribution_rows() {
    for v in ["PreferClose", "PreferSameZone", "PreferSameNode"] {
        assert!(
            errs(|s| {
                s.spec.extra.insert("trafficDistribution".into(), json!(v));
            })
            .is_empty(),
            "{v}"
        );
    }
    assert_eq!(
        errs(|s| {
            s.spec
                .extra
                .insert("trafficDistribution".into(), json!("Random"));
        }),
        ["spec.trafficDistribution: Unsupported value: \"Random\": supported values: \"PreferClose\", \"PreferSameZone\", \"PreferSameNode\""]
    );
}

// validateContainerResourceName (pkg/apis/core/validation/validation.go): the container check
// runs even after validateResourceName's qualified-name errors.
#[test]
fn container_resource_name_checks_continue_after_a_bad_qualified_name() {
    let errs = crate::api::validation::pod::validate_container_resource_name("a b", "x");
    let details: Vec<&str> = errs.iter().map(|e| e.detail.as_str()).collect();
    assert!(errs.len() >= 2, "{details:?}");
    assert_eq!(
        details.last(),
        Some(&"must be a standard resource for containers")
    );
    // A qualified name that is not standard: both of upstream's errors.
    let errs = crate::api::validation::pod::validate_container_resource_name("foo", "x");
    let details: Vec<&str> = errs.iter().map(|e| e.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "must be a standard resource type or fully qualified",
            "must be a standard resource for containers"
        ]
    );
}
