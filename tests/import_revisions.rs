//! An imported StatefulSet keeps its ControllerRevision. The fixture's `db` revision was written
//! the way Kubernetes 1.33 and earlier wrote them (`creationTimestamp: null` in the template
//! metadata), which the 1.34+ encoding kubeplay uses no longer produces byte for byte. As in
//! kube-controller-manager 1.35 (StatefulSetSemanticRevisionComparison, kubernetes#135017;
//! ported in `stateful_set_compatibility_test.go`'s TestStatefulSetCompatibility), the revision
//! still describes the set, so no new revision and no rolling update follow. With the gate off
//! the controller behaves as 1.34.0 did (kubernetes#134773): a second revision and a rollout.

use kubeplay::api::{ControllerRevision, Duration, Pod, StatefulSet};
use kubeplay::interop::import::{import_cluster, ImportOptions};
use kubeplay::scenario::Scenario;
use kubeplay::sim::Simulation;

const DUMP: &str = include_str!("fixtures/cluster-dump.yaml");

fn imported(extra: &str) -> Simulation {
    let imp = import_cluster(DUMP, &ImportOptions::default()).expect("imports");
    let yaml = kubeplay::interop::import::to_yaml(&imp).unwrap() + extra;
    Scenario::parse(&yaml)
        .expect("the printed scenario parses")
        .build()
        .expect("builds")
}

fn db_revisions(sim: &Simulation) -> Vec<(String, i64)> {
    let mut r: Vec<(String, i64)> = sim
        .api
        .store
        .list::<ControllerRevision>(Some("default"))
        .filter(|r| r.metadata.name.starts_with("db-"))
        .map(|r| (r.metadata.name.clone(), r.revision))
        .collect();
    r.sort();
    r
}

fn db_pod_uids(sim: &Simulation) -> Vec<(String, String)> {
    let mut p: Vec<(String, String)> = sim
        .api
        .store
        .list::<Pod>(Some("default"))
        .filter(|p| p.metadata.name.starts_with("db-"))
        .map(|p| (p.metadata.name.clone(), p.metadata.uid.clone()))
        .collect();
    p.sort();
    p
}

#[test]
fn an_imported_1_33_revision_is_reused() {
    let mut sim = imported("");
    let before = db_pod_uids(&sim);
    assert_eq!(db_revisions(&sim), [("db-6c9f8d7b5d".to_string(), 1)]);
    let until = sim.now() + Duration::from_secs(300);
    sim.run_until(until).unwrap();
    assert_eq!(db_revisions(&sim), [("db-6c9f8d7b5d".to_string(), 1)]);
    assert_eq!(db_pod_uids(&sim), before, "no db pod replaced");
    let set = sim
        .api
        .store
        .get::<StatefulSet>("default", "db")
        .cloned()
        .unwrap();
    assert_eq!(set.status.update_revision, "db-6c9f8d7b5d");
    assert_eq!(set.status.current_revision, "db-6c9f8d7b5d");
}

#[test]
fn without_semantic_comparison_the_import_rolls() {
    let mut sim = imported("featureGates:\n  StatefulSetSemanticRevisionComparison: false\n");
    let before = db_pod_uids(&sim);
    let until = sim.now() + Duration::from_secs(300);
    sim.run_until(until).unwrap();
    let revisions = db_revisions(&sim);
    assert_eq!(revisions.len(), 2, "{revisions:?}");
    assert_eq!(revisions.iter().map(|r| r.1).max(), Some(2));
    let set = sim
        .api
        .store
        .get::<StatefulSet>("default", "db")
        .cloned()
        .unwrap();
    assert_ne!(set.status.update_revision, "db-6c9f8d7b5d");
    assert_ne!(
        db_pod_uids(&sim),
        before,
        "the rolling update replaced db pods"
    );
}
