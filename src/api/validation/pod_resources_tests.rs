//! Port of `TestValidatePodResourceConsistency` (pkg/apis/core/validation/validation_test.go,
//! repo kubernetes/kubernetes), plus rows for the aggregation of init and sidecar containers
//! (`resourcehelper.AggregateContainerRequests`) and the pod-level defaulting of `SetDefaults_Pod`
//! (`defaultPodRequests`, `defaultHugePagePodLimits`).

use super::pod_resources::{default_pod_level_resources, validate_pod_resource_consistency};
use crate::api::core::{Container, PodSpec, Quantity, ResourceRequirements};
use crate::api::errors::FieldErrorType;
use std::collections::BTreeMap;

fn list(items: &[(&str, &str)]) -> BTreeMap<String, Quantity> {
    items
        .iter()
        .map(|(k, v)| ((*k).to_string(), Quantity((*v).to_string())))
        .collect()
}

fn res(requests: &[(&str, &str)], limits: &[(&str, &str)]) -> ResourceRequirements {
    ResourceRequirements {
        requests: list(requests),
        limits: list(limits),
    }
}

fn ctr(name: &str, r: ResourceRequirements) -> Container {
    Container {
        name: name.into(),
        image: "image".into(),
        resources: Some(r),
        ..Default::default()
    }
}

fn pod(r: ResourceRequirements, containers: Vec<Container>) -> PodSpec {
    PodSpec {
        resources: Some(r),
        containers,
        ..Default::default()
    }
}

fn errs_of(spec: &PodSpec) -> Vec<(String, String, String)> {
    validate_pod_resource_consistency(spec, "resources")
        .into_iter()
        .map(|e| {
            assert!(matches!(e.type_, FieldErrorType::Invalid), "{e:?}");
            let v = e
                .value
                .as_ref()
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string();
            (e.field, v, e.detail)
        })
        .collect()
}

/// `TestValidatePodResourceConsistency`: every row of the upstream table.
#[test]
fn validate_pod_resource_consistency_rows() {
    let pod_req = || res(&[("cpu", "10"), ("memory", "10Mi")], &[]);
    // "aggregate container requests less than pod requests"
    let s = pod(
        pod_req(),
        vec![
            ctr("c1", res(&[("cpu", "5"), ("memory", "5Mi")], &[])),
            ctr("c2", res(&[("cpu", "4"), ("memory", "3Mi")], &[])),
        ],
    );
    assert!(errs_of(&s).is_empty());
    // "aggregate container requests equal to pod requests"
    let s = pod(
        pod_req(),
        vec![
            ctr("c1", res(&[("cpu", "5"), ("memory", "5Mi")], &[])),
            ctr("c2", res(&[("cpu", "5"), ("memory", "5Mi")], &[])),
        ],
    );
    assert!(errs_of(&s).is_empty());
    // "aggregate container requests greater than pod requests"
    let s = pod(
        pod_req(),
        vec![
            ctr("c1", res(&[("cpu", "6"), ("memory", "5Mi")], &[])),
            ctr("c2", res(&[("cpu", "8"), ("memory", "3Mi")], &[])),
        ],
    );
    assert_eq!(
        errs_of(&s),
        vec![(
            "resources.requests[cpu]".to_string(),
            "10".to_string(),
            "must be greater than or equal to aggregate container requests of 14".to_string()
        )]
    );
    let pod_lim = || res(&[], &[("cpu", "10"), ("memory", "10Mi")]);
    // "aggregate container limits greater than pod limits" (allowed: only each container's
    // limit is compared)
    let s = pod(
        pod_lim(),
        vec![
            ctr("c1", res(&[], &[("cpu", "5"), ("memory", "5Mi")])),
            ctr("c2", res(&[], &[("cpu", "6"), ("memory", "9Mi")])),
        ],
    );
    assert!(errs_of(&s).is_empty());
    // "indivdual container limits greater than pod limits"
    let s = pod(
        pod_lim(),
        vec![ctr("c1", res(&[], &[("cpu", "11"), ("memory", "12Mi")]))],
    );
    assert_eq!(
        errs_of(&s),
        vec![
            (
                "resources.containers[0][cpu].limits".to_string(),
                "11".to_string(),
                "must be less than or equal to pod limits of 10".to_string()
            ),
            (
                "resources.containers[0][memory].limits".to_string(),
                "12Mi".to_string(),
                "must be less than or equal to pod limits of 10Mi".to_string()
            ),
        ]
    );
}

/// `AggregateContainerRequests`: sidecars add to the regular containers; a regular init
/// container needs its own request plus the sidecars started before it; the pod needs the
/// larger. A missing pod request compares as zero.
#[test]
fn aggregate_requests_count_init_and_sidecar_containers() {
    let mut sidecar = ctr("side", res(&[("cpu", "2")], &[]));
    sidecar.restart_policy = Some("Always".into());
    let mut s = pod(
        res(&[("cpu", "3")], &[]),
        vec![ctr("c1", res(&[("cpu", "1")], &[]))],
    );
    s.init_containers = vec![
        sidecar,
        ctr("init", res(&[("cpu", "2"), ("memory", "1Mi")], &[])),
    ];
    // regular 1 + sidecar 2 = 3; init 2 + sidecar 2 = 4 → 4 > 3. memory: 1Mi > 0.
    assert_eq!(
        errs_of(&s),
        vec![
            (
                "resources.requests[cpu]".to_string(),
                "3".to_string(),
                "must be greater than or equal to aggregate container requests of 4".to_string()
            ),
            (
                "resources.requests[memory]".to_string(),
                "0".to_string(),
                "must be greater than or equal to aggregate container requests of 1Mi".to_string()
            ),
        ]
    );
}

/// Since 1.34 resources the pod level does not support (extended resources, ephemeral-storage)
/// are left out of the comparison.
#[test]
fn unsupported_pod_level_resources_are_skipped() {
    let s = pod(
        res(&[("cpu", "1")], &[("cpu", "1")]),
        vec![ctr(
            "c1",
            res(
                &[
                    ("cpu", "1"),
                    ("example.com/gpu", "1"),
                    ("ephemeral-storage", "1Gi"),
                ],
                &[("example.com/gpu", "1")],
            ),
        )],
    );
    assert!(errs_of(&s).is_empty());
}

/// `defaultPodRequests`: with pod limits, unset pod requests of cpu/memory take the aggregate
/// container requests, other limited resources request their limit; the defaulted pod passes
/// the consistency check.
#[test]
fn pod_requests_default_from_containers_and_limits() {
    let mut s = pod(
        res(&[], &[("cpu", "10"), ("memory", "10Mi")]),
        vec![
            ctr("c1", res(&[("cpu", "2")], &[])),
            ctr("c2", res(&[("cpu", "500m")], &[])),
        ],
    );
    default_pod_level_resources(&mut s);
    let r = s.resources.clone().unwrap_or_default();
    assert_eq!(r.requests, list(&[("cpu", "2500m"), ("memory", "10Mi")]));
    assert!(errs_of(&s).is_empty());
    // Without pod limits nothing defaults.
    let mut s = pod(
        res(&[("memory", "1Mi")], &[]),
        vec![ctr("c1", res(&[("cpu", "2")], &[]))],
    );
    default_pod_level_resources(&mut s);
    assert_eq!(
        s.resources.clone().unwrap_or_default().requests,
        list(&[("memory", "1Mi")])
    );
}

/// `defaultHugePagePodLimits`: a hugepage size the containers limit and the pod neither requests
/// nor limits gets the aggregate as pod limit (and then, as a pod limit, the same request).
#[test]
fn pod_hugepage_limits_default_from_containers() {
    let mut s = pod(
        res(&[("cpu", "1")], &[]),
        vec![
            ctr("c1", res(&[], &[("hugepages-2Mi", "4Mi")])),
            ctr("c2", res(&[], &[("hugepages-2Mi", "2Mi")])),
        ],
    );
    default_pod_level_resources(&mut s);
    let r = s.resources.clone().unwrap_or_default();
    assert_eq!(r.limits, list(&[("hugepages-2Mi", "6Mi")]));
    assert_eq!(r.requests, list(&[("cpu", "1"), ("hugepages-2Mi", "6Mi")]));
}
