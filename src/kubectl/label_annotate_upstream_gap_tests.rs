//! Ports of TestLabelLocal, TestLabelMultipleObjects, TestLabelResourceVersion
//! (`staging/src/k8s.io/kubectl/pkg/cmd/label/label_test.go`) and TestAnnotateMultipleObjects,
//! TestAnnotateResourceVersion (`.../cmd/annotate/annotate_test.go`), release-1.35.

use super::testutil::*;
use super::{execute, execute_with_input};
use crate::api::Pod;
use crate::sim::Simulation;

const RC: &str = "apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: cassandra\nspec:\n  replicas: 1\n  selector:\n    name: cassandra\n  template:\n    metadata:\n      labels:\n        name: cassandra\n    spec:\n      containers:\n      - name: cassandra\n        image: cassandra\n";

fn fixture() -> Simulation {
    let mut s = sim();
    load_fixture(&mut s);
    s
}

fn rv(s: &Simulation, name: &str) -> String {
    s.api
        .store
        .get::<Pod>("default", name)
        .unwrap()
        .metadata
        .resource_version
        .clone()
}

/// TestLabelLocal (label_test.go): `--local -f` labels the file's object without a request.
#[test]
fn label_and_annotate_local() {
    let mut s = fixture();
    assert_eq!(
        execute_with_input(&mut s, "label --local -f - a=b", Some(RC)).unwrap(),
        "replicationcontroller/cassandra labeled"
    );
    assert_eq!(
        execute_with_input(&mut s, "annotate --local -f - a=b", Some(RC)).unwrap(),
        "replicationcontroller/cassandra annotated"
    );
    assert!(execute(&mut s, "get rc cassandra").is_err());
}

/// TestLabelMultipleObjects, TestAnnotateMultipleObjects: `--all` changes every object.
#[test]
fn label_and_annotate_multiple_objects() {
    let mut s = fixture();
    assert_eq!(
        execute(&mut s, "label pods --all a=b").unwrap(),
        "pod/bare labeled\npod/frontend-a labeled\npod/frontend-b labeled"
    );
    assert_eq!(
        execute(&mut s, "annotate pods --all a=b").unwrap(),
        "pod/bare annotated\npod/frontend-a annotated\npod/frontend-b annotated"
    );
    for n in ["bare", "frontend-a", "frontend-b"] {
        let p = s.api.store.get::<Pod>("default", n).unwrap();
        assert_eq!(p.metadata.labels.get("a").map(String::as_str), Some("b"));
        assert_eq!(
            p.metadata.annotations.get("a").map(String::as_str),
            Some("b")
        );
    }
}

/// TestLabelResourceVersion, TestAnnotateResourceVersion: `--resource-version` is a
/// precondition of the patch; a stale one conflicts.
#[test]
fn label_and_annotate_resource_version() {
    let mut s = fixture();
    let cur = rv(&s, "bare");
    assert_eq!(
        execute(
            &mut s,
            &format!("label pods/bare a=b --resource-version={cur}")
        )
        .unwrap(),
        "pod/bare labeled"
    );
    let cur = rv(&s, "bare");
    assert_eq!(
        execute(
            &mut s,
            &format!("annotate pods/bare a=b --resource-version={cur}")
        )
        .unwrap(),
        "pod/bare annotated"
    );
    let conflict = "Error from server (Conflict): Operation cannot be fulfilled on pods \"bare\": the object has been modified; please apply your changes to the latest version and try again";
    assert_eq!(
        execute(&mut s, "label pods/bare c=d --resource-version=1").unwrap_err(),
        conflict
    );
    assert_eq!(
        execute(&mut s, "annotate pods/bare c=d --resource-version=1").unwrap_err(),
        conflict
    );
}
