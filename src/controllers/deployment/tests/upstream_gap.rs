//! Upstream deployment tests that had not been ported yet (the "apps" gap list), against the
//! same fixture as the other controller-level ports.

use super::*;

/// Port of TestSyncDeploymentDeletionRace (pkg/controller/deployment/deployment_controller_test.go).
/// The lister says the deployment is not being deleted, the live GET says it is; the recheck
/// only runs when a matching orphan exists. Upstream expects the sync to fail with only the GET
/// (no adoption patch). kubeplay has one store, so the lister's stale copy is the `Deployment`
/// value handed to `get_replica_sets_for_deployment` (what `syncDeployment` passes on), while
/// the store holds the deleted one.
#[test]
fn test_sync_deployment_deletion_race() {
    let mut fx = Fixture::new();
    let d = new_deployment("foo", 1, None, None, None, foo_bar());
    // Bare client says it IS deleted. This should be presumed more up-to-date.
    let mut d2 = d.clone();
    d2.metadata.deletion_timestamp = Some(ts("2016-05-20T02:59:00Z"));
    d2.metadata.finalizers = vec!["foregroundDeletion".to_string()].into();
    fx.put_d(&d2);
    // The recheck is only triggered if a matching orphan exists.
    let mut orphan = new_replica_set(&d, "rs1", 1);
    orphan.metadata.owner_references.clear();
    fx.put_rs(&orphan);
    // Lister (cache) says NOT deleted: the `d` this sync started from.
    let err = get_replica_sets_for_deployment(&mut fx.ctx(), &d).unwrap_err();
    assert_eq!(
        err.message,
        "can't adopt ReplicaSet default/rs1 (uid-rs1): default/foo has just been deleted at \
         2016-05-20 02:59:00 +0000 UTC"
    );
    // Sync fails (and is retried) without adopting: no patch was sent.
    assert!(fx.verbs().is_empty(), "{:?}", fx.verbs());
    assert!(fx.rs("rs1").metadata.owner_references.is_empty());
    // ClaimReplicaSets aggregates the error of every ReplicaSet it could not claim.
    let mut orphan2 = new_replica_set(&d, "rs2", 1);
    orphan2.metadata.owner_references.clear();
    fx.put_rs(&orphan2);
    let err = get_replica_sets_for_deployment(&mut fx.ctx(), &d).unwrap_err();
    assert!(
        err.message
            .starts_with("[can't adopt ReplicaSet default/rs1 (uid-rs1): ")
            && err
                .message
                .contains(", can't adopt ReplicaSet default/rs2 (uid-rs2): "),
        "{}",
        err.message
    );
    // Once the cache catches up, the deleted deployment adopts nothing and the sync succeeds.
    assert_eq!(
        get_replica_sets_for_deployment(&mut fx.ctx(), &d2).map(|v| v.len()),
        Ok(0)
    );
}

/// The same recheck when the live object is gone or was recreated (`canAdoptFunc` in
/// getReplicaSetsForDeployment): the wrapped error is no longer a NotFound, so the sync fails
/// rather than dropping the orphan silently.
#[test]
fn adoption_recheck_of_a_gone_or_recreated_deployment_fails_the_sync() {
    let mut fx = Fixture::new();
    let d = new_deployment("foo", 1, None, None, None, foo_bar());
    let mut orphan = new_replica_set(&d, "rs1", 1);
    orphan.metadata.owner_references.clear();
    fx.put_rs(&orphan);
    let err = get_replica_sets_for_deployment(&mut fx.ctx(), &d).unwrap_err();
    assert_eq!(
        err.message,
        "can't adopt ReplicaSet default/rs1 (uid-rs1): can't recheck DeletionTimestamp: \
         deployments.apps \"foo\" not found"
    );
    assert!(!err.is_not_found());
    let mut recreated = d.clone();
    recreated.metadata.uid = "uid-foo-2".into();
    fx.put_d(&recreated);
    let err = get_replica_sets_for_deployment(&mut fx.ctx(), &d).unwrap_err();
    assert_eq!(
        err.message,
        "can't adopt ReplicaSet default/rs1 (uid-rs1): can't recheck DeletionTimestamp: original \
         Deployment default/foo is gone: got uid uid-foo-2, wanted uid-foo"
    );
    assert!(fx.verbs().is_empty());
}

/// Port of TestPodTemplateSpecHashFnv (pkg/controller/deployment/util/hash_test.go): 1000
/// templates that differ only in the image version hash without a collision (the FNV-32a hash
/// `ComputeHash` uses; upstream's sibling TestPodTemplateSpecHash showed adler32 colliding).
#[test]
fn test_pod_template_spec_hash_fnv() {
    const POD_SPEC: &str = r#"{
        "metadata": {"creationTimestamp": null, "labels": {"app": "cats"}},
        "spec": {
            "containers": [{
                "name": "cats",
                "image": "registry/test/cats:v0.@@VERSION@@.0",
                "ports": [{"name": "http", "containerPort": 9077, "protocol": "TCP"}],
                "env": [
                    {"name": "DEPLOYMENT_ENVIRONMENT", "value": "cats-stubbed-functional"},
                    {"name": "APP_NAME", "value": "cats"}
                ],
                "resources": {
                    "limits": {"cpu": "1", "memory": "1Gi"},
                    "requests": {"cpu": "1", "memory": "1Gi"}
                },
                "livenessProbe": {
                    "httpGet": {"path": "/private/status", "port": 9077, "scheme": "HTTP"},
                    "initialDelaySeconds": 30, "timeoutSeconds": 1, "periodSeconds": 10,
                    "successThreshold": 1, "failureThreshold": 3
                },
                "readinessProbe": {
                    "httpGet": {"path": "/private/status", "port": 9077, "scheme": "HTTP"},
                    "initialDelaySeconds": 1, "timeoutSeconds": 1, "periodSeconds": 10,
                    "successThreshold": 1, "failureThreshold": 3
                },
                "terminationMessagePath": "/dev/termination-log",
                "imagePullPolicy": "IfNotPresent"
            }],
            "restartPolicy": "Always",
            "terminationGracePeriodSeconds": 30,
            "dnsPolicy": "ClusterFirst",
            "securityContext": {}
        }
    }"#;
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    for i in 0..1000 {
        let json = POD_SPEC.replacen("@@VERSION@@", &i.to_string(), 1);
        let spec: crate::api::PodTemplateSpec = serde_json::from_str(&json).unwrap();
        assert_eq!(
            spec.spec.containers[0].image,
            format!("registry/test/cats:v0.{i}.0")
        );
        let hash = compute_hash(&spec, None);
        if let Some(old) = seen.insert(hash, i) {
            panic!("Hash collision, old: {old} new: {i}");
        }
    }
}
