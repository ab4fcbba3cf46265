//! The strategies' `WarningsOnCreate` / `WarningsOnUpdate` (pkg/registry/*/strategy.go) on
//! objects given as JSON, and `GetWarningsForService`.

use super::object::Object;
use super::warnings::{warnings_on_create, warnings_on_update};
use crate::features::FeatureGates;
use serde_json::json;

fn obj(v: serde_json::Value) -> Object {
    Object::from_value(v).unwrap()
}

fn with_generation(mut o: Object, g: i64) -> Object {
    o.meta_mut().generation = g;
    o
}

fn cronjob(schedule: &str, memory: &str) -> Object {
    obj(json!({
        "apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "cj"},
        "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": {"spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "c", "image": "busybox", "resources": {"requests": {"memory": memory}}}]
        }}}}}
    }))
}

/// `cronJobStrategy`: the job template's warnings under `spec.jobTemplate.spec`; on update only
/// when the generation moved, and the TZ-in-schedule warning (upstream's path `spec.spec.schedule`)
/// on every update.
#[test]
fn cronjob_warnings() {
    let g = FeatureGates::default();
    let frac = "spec.jobTemplate.spec.template.spec.containers[0].resources.requests[memory]: fractional byte value \"4m\" is invalid, must be an integer";
    assert_eq!(warnings_on_create(&cronjob("0 * * * *", "4m"), &g), [frac]);
    let tz = "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details";
    let old = with_generation(cronjob("CRON_TZ=UTC 0 * * * *", "4m"), 1);
    let same = with_generation(cronjob("CRON_TZ=UTC 0 * * * *", "4m"), 1);
    assert_eq!(warnings_on_update(&same, &old, &g), [tz]);
    let moved = with_generation(cronjob("CRON_TZ=UTC 0 * * * *", "4m"), 2);
    assert_eq!(warnings_on_update(&moved, &old, &g), [frac, tz]);
    let plain = with_generation(cronjob("0 * * * *", "4Mi"), 2);
    assert!(warnings_on_update(&plain, &old, &g).is_empty());
}

fn job(completions: i32, parallelism: i32, mode: &str) -> Object {
    obj(json!({
        "apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
        "spec": {"completions": completions, "parallelism": parallelism, "completionMode": mode,
            "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}
    }))
}

/// `job.WarningsForJobSpec`: Indexed Jobs above both soft limits (10^5 completions, 10^4
/// parallelism).
#[test]
fn indexed_job_soft_limits() {
    let g = FeatureGates::default();
    let w = "spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail";
    assert_eq!(
        warnings_on_create(&job(100_001, 10_001, "Indexed"), &g),
        [w]
    );
    assert!(warnings_on_create(&job(100_000, 10_001, "Indexed"), &g).is_empty());
    assert!(warnings_on_create(&job(100_001, 10_000, "Indexed"), &g).is_empty());
    assert!(warnings_on_create(&job(100_001, 10_001, "NonIndexed"), &g).is_empty());
    // On update only when the generation moved.
    let old = with_generation(job(100_001, 10_001, "Indexed"), 1);
    assert!(warnings_on_update(&old.clone(), &old, &g).is_empty());
    let new = with_generation(job(100_001, 10_001, "Indexed"), 2);
    assert_eq!(warnings_on_update(&new, &old, &g), [w]);
}

fn ds(image: &str) -> Object {
    obj(json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "d"},
        "spec": {"selector": {"matchLabels": {"app": "d"}}, "template": {
            "metadata": {"labels": {"app": "d"}},
            "spec": {"containers": [{"name": "c", "image": image, "ports": [{"containerPort": 80}, {"containerPort": 80}]}]}}}
    }))
}

/// `daemonSetStrategy.WarningsOnUpdate`: the template's warnings when the template changed
/// (its templateGeneration moved), not for other spec changes.
#[test]
fn daemonset_updates_warn_when_the_template_changes() {
    let g = FeatureGates::default();
    let w = "spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]";
    assert_eq!(warnings_on_create(&ds("nginx"), &g), [w]);
    let old = ds("nginx");
    let mut other_spec = ds("nginx");
    if let Object::DaemonSet(d) = &mut other_spec {
        d.spec.min_ready_seconds = 5;
    }
    let other_spec = with_generation(other_spec, 2);
    assert!(warnings_on_update(&other_spec, &old, &g).is_empty());
    assert_eq!(warnings_on_update(&ds("nginx:2"), &old, &g), [w]);
}

/// `pvcutil.GetWarningsForPersistentVolumeClaim` (the claim strategy) and the StatefulSet's
/// claim templates (`spec.volumeClaimTemplates[i]`, and `...[i].Spec` on update, as upstream
/// writes it).
#[test]
fn claim_warnings() {
    let g = FeatureGates::default();
    let pvc = obj(json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": "c", "annotations": {"volume.beta.kubernetes.io/storage-class": "x"}},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1500m"}}}
    }));
    assert_eq!(
        warnings_on_create(&pvc, &g),
        [
            "metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use \"storageClassName\" attribute instead",
            "spec.resources.requests[storage]: fractional byte value \"1500m\" is invalid, must be an integer",
        ]
    );
    let sts = obj(json!({
        "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "s"},
        "spec": {"selector": {"matchLabels": {"app": "s"}},
            "template": {"metadata": {"labels": {"app": "s"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}},
            "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1.5"}}}}]}
    }));
    assert_eq!(
        warnings_on_create(&sts, &g),
        ["spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value \"1500m\" is invalid, must be an integer"]
    );
    assert_eq!(
        warnings_on_update(&sts, &sts, &g),
        ["spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value \"1500m\" is invalid, must be an integer"]
    );
}

fn svc(v: serde_json::Value) -> Object {
    obj(
        json!({"apiVersion": "v1", "kind": "Service", "metadata": v["metadata"], "spec": v["spec"]}),
    )
}

// upstream: TestGetWarningsForService (pkg/api/service/warnings_test.go)
#[test]
fn test_get_warnings_for_service() {
    let g = FeatureGates::default();
    let new_mode = svc(
        json!({"metadata": {"name": "s", "annotations": {"service.kubernetes.io/topology-mode": "foo"}}, "spec": {}}),
    );
    assert!(warnings_on_create(&new_mode, &g).is_empty());
    let hints = svc(
        json!({"metadata": {"name": "s", "annotations": {"service.kubernetes.io/topology-aware-hints": "foo"}}, "spec": {}}),
    );
    assert_eq!(
        warnings_on_create(&hints, &g),
        ["annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead"]
    );
}

// upstream: TestGetWarningsForServiceClusterIPs (pkg/api/service/warnings_test.go), "Service
// with all IPs fields with errors", with the messages of today's `utilvalidation.GetWarningsForIP`
// / `GetWarningsForCIDR` (the stored test predates them) and the externalIPs deprecation.
#[test]
fn test_get_warnings_for_service_cluster_ips() {
    let g = FeatureGates::default();
    let s = svc(
        json!({"metadata": {"name": "svc-test", "namespace": "ns"}, "spec": {
            "type": "ClusterIP",
            "clusterIP": "2001:db8:0:0::2",
            "clusterIPs": ["2001:db8:0:0::2", "192.012.2.2"],
            "externalIPs": ["2001:db8:1:0::2", "10.012.2.2"],
            "loadBalancerIP": "10.001.1.1",
            "loadBalancerSourceRanges": ["2001:db8:1:0::/64", "10.012.2.0/24"],
        }}),
    );
    assert_eq!(
        warnings_on_create(&s, &g),
        [
            r#"spec.clusterIPs[0]: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")"#,
            r#"spec.clusterIPs[1]: non-standard IP address "192.012.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2""#,
            r#"spec.externalIPs[0]: IPv6 address "2001:db8:1:0::2" should be in RFC 5952 canonical format ("2001:db8:1::2")"#,
            r#"spec.externalIPs[1]: non-standard IP address "10.012.2.2" will be considered invalid in a future Kubernetes release: use "10.12.2.2""#,
            "spec.externalIPs is deprecated and may no longer be implemented in some clusters",
            r#"spec.loadBalancerIP: non-standard IP address "10.001.1.1" will be considered invalid in a future Kubernetes release: use "10.1.1.1""#,
            r#"spec.loadBalancerSourceRanges[0]: IPv6 CIDR value "2001:db8:1:0::/64" should be in RFC 5952 canonical format ("2001:db8:1::/64")"#,
            r#"spec.loadBalancerSourceRanges[1]: non-standard CIDR value "10.012.2.0/24" will be considered invalid in a future Kubernetes release: use "10.12.2.0/24""#,
        ]
    );
    // Headless: the ignored fields, and no IP warnings for clusterIPs.
    let headless = svc(json!({"metadata": {"name": "h"}, "spec": {
        "type": "ClusterIP", "clusterIP": "None", "clusterIPs": ["None"], "sessionAffinity": "ClientIP",
        "loadBalancerIP": "10.1.1.1", "externalName": "x.example.com", "trafficDistribution": "PreferClose",
    }}));
    assert_eq!(
        warnings_on_create(&headless, &g),
        [
            "spec.loadBalancerIP is ignored for headless services",
            "spec.SessionAffinity is ignored for headless services",
            "spec.externalName is ignored when spec.type is not \"ExternalName\"",
            "spec.trafficDistribution: \"PreferClose\" is deprecated; use \"PreferSameZone\"",
        ]
    );
}
