//! Controller-level checks from the fidelity audit of `sync.go` (`getNewReplicaSet`,
//! `SetNewReplicaSetAnnotations`), derived from upstream's code.

use super::*;

/// `getNewReplicaSet` → `SetNewReplicaSetAnnotations` → `copyDeploymentAnnotationsToReplicaSet`
/// skips a key when `rs.Annotations[k] == v`: an empty-valued deployment annotation never reaches
/// the new ReplicaSet (a missing key reads as `""`), while the others are copied and the
/// controller's own annotations are added.
#[test]
fn new_replica_set_lacks_empty_valued_deployment_annotations() {
    let mut fx = Fixture::new();
    let mut d = new_deployment("foo", 1, None, None, None, foo_bar());
    d.metadata.generation = 1;
    d.metadata
        .annotations
        .insert("kubernetes.io/change-cause".into(), "create".into());
    d.metadata.annotations.insert("note".into(), String::new());
    fx.put_d(&d);
    let _ = sync_deployment(&mut fx.ctx(), "default/foo");
    let rss: Vec<ReplicaSet> = fx
        .api
        .store
        .list::<ReplicaSet>(Some("default"))
        .cloned()
        .collect();
    assert_eq!(rss.len(), 1);
    let a = &rss[0].metadata.annotations;
    assert_eq!(a["kubernetes.io/change-cause"], "create");
    assert!(!a.contains_key("note"), "{a:?}");
    assert_eq!(a[REVISION_ANNOTATION], "1");
    assert_eq!(a[DESIRED_REPLICAS_ANNOTATION], "1");

    // Later syncs find nothing to copy: the ReplicaSet is not updated for the empty annotation.
    let _ = sync_deployment(&mut fx.ctx(), "default/foo");
    fx.actions.clear();
    sync_deployment(&mut fx.ctx(), "default/foo").unwrap();
    assert!(
        !fx.verbs().iter().any(|v| v.contains("ReplicaSet")),
        "{:?}",
        fx.verbs()
    );
    assert!(!fx
        .rs(&rss[0].metadata.name)
        .metadata
        .annotations
        .contains_key("note"));
}
