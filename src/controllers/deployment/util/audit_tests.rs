//! Fidelity audit of `deployment_util.go` edge cases (Go map zero values, int32 conversions).

use super::*;

fn deployment(replicas: i32) -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = "web".into();
    d.spec.replicas = Some(replicas);
    d
}

fn rs(replicas: i32) -> ReplicaSet {
    let mut rs = ReplicaSet::default();
    rs.metadata.name = "web-abc".into();
    rs.spec.replicas = Some(replicas);
    rs
}

/// `copyDeploymentAnnotationsToReplicaSet` skips a key when `rs.Annotations[k] == v`; a key the
/// replica set lacks reads as `""` (Go's map zero value), so a deployment annotation with an
/// empty value is never copied onto a replica set that does not have it.
#[test]
fn empty_deployment_annotation_is_not_copied() {
    let mut d = deployment(1);
    d.metadata.annotations.insert("note".into(), String::new());
    d.metadata
        .annotations
        .insert("kubernetes.io/change-cause".into(), "edit".into());
    let mut r = rs(1);
    assert!(copy_deployment_annotations_to_replica_set(&d, &mut r));
    assert!(!r.metadata.annotations.contains_key("note"));
    assert_eq!(r.metadata.annotations["kubernetes.io/change-cause"], "edit");

    // Only the empty annotation: nothing changes.
    let mut d = deployment(1);
    d.metadata.annotations.insert("note".into(), String::new());
    let mut r = rs(1);
    assert!(!copy_deployment_annotations_to_replica_set(&d, &mut r));
    assert!(r.metadata.annotations.is_empty());

    // A replica set that has the key with another value gets the empty value.
    let mut r = rs(1);
    r.metadata.annotations.insert("note".into(), "x".into());
    assert!(copy_deployment_annotations_to_replica_set(&d, &mut r));
    assert_eq!(r.metadata.annotations["note"], "");
}

/// The same rule through `SetNewReplicaSetAnnotations` for a replica set about to be created.
#[test]
fn new_replica_set_does_not_get_empty_annotations() {
    let mut d = deployment(3);
    d.metadata.annotations.insert("note".into(), String::new());
    let mut r = rs(0);
    assert!(set_new_replica_set_annotations(
        &d, &mut r, "1", false, 2000
    ));
    assert!(!r.metadata.annotations.contains_key("note"));
    assert_eq!(r.metadata.annotations[REVISION_ANNOTATION], "1");
}

/// `SetDeploymentRevision` compares `deployment.Annotations[RevisionAnnotation] != revision`:
/// an empty revision on a deployment without the annotation changes nothing.
#[test]
fn set_deployment_revision_empty_on_missing_annotation() {
    let mut d = deployment(1);
    assert!(!set_deployment_revision(&mut d, ""));
    assert!(!d.metadata.annotations.contains_key(REVISION_ANNOTATION));
    assert!(set_deployment_revision(&mut d, "2"));
    assert!(!set_deployment_revision(&mut d, "2"));
}

/// `IsSaturated` converts the desired-replicas annotation with `strconv.Atoi` (64-bit `int`) and
/// compares `int32(desired)`: the conversion keeps the low 32 bits, so 2^32 + 3 reads as 3.
#[test]
fn is_saturated_truncates_desired_to_int32() {
    let d = deployment(3);
    let mut r = rs(3);
    r.status.available_replicas = 3;
    r.metadata
        .annotations
        .insert(DESIRED_REPLICAS_ANNOTATION.into(), "4294967299".into());
    assert!(is_saturated(&d, Some(&r)));
    // "+3" is accepted by Atoi.
    r.metadata
        .annotations
        .insert(DESIRED_REPLICAS_ANNOTATION.into(), "+3".into());
    assert!(is_saturated(&d, Some(&r)));
    // Beyond int64: Atoi fails.
    r.metadata.annotations.insert(
        DESIRED_REPLICAS_ANNOTATION.into(),
        "99999999999999999999".into(),
    );
    assert!(!is_saturated(&d, Some(&r)));
    // Present but empty: Atoi("") fails.
    r.metadata
        .annotations
        .insert(DESIRED_REPLICAS_ANNOTATION.into(), String::new());
    assert!(!is_saturated(&d, Some(&r)));
}
