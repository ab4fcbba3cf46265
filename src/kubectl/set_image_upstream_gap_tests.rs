//! Port of TestImageLocal (`staging/src/k8s.io/kubectl/pkg/cmd/set/set_image_test.go`,
//! release-1.35): `set image --local -f` prints the changed object without a request.

use super::execute_with_input;
use super::testutil::*;

const RC: &str = "apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: cassandra\nspec:\n  replicas: 1\n  selector:\n    name: cassandra\n  template:\n    metadata:\n      labels:\n        name: cassandra\n    spec:\n      containers:\n      - name: cassandra\n        image: cassandra\n";

#[test]
fn image_local() {
    let mut s = sim();
    assert_eq!(
        execute_with_input(
            &mut s,
            "set image --local -f - cassandra=thingy -o name",
            Some(RC)
        )
        .unwrap(),
        "replicationcontroller/cassandra"
    );
    let out = execute_with_input(
        &mut s,
        "set image --local -f - cassandra=thingy -o yaml",
        Some(RC),
    )
    .unwrap();
    assert!(out.contains("image: thingy"), "{out}");
    assert!(super::execute(&mut s, "get rc cassandra").is_err());
}
