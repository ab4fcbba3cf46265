//! `kubectl label` / `annotate` against upstream's pkg/cmd/label/label_test.go and
//! pkg/cmd/annotate/annotate_test.go (repo
//! kubernetes/kubernetes, staging/src/k8s.io/kubectl), run through the command.

use super::execute;
use super::testutil::{labels, load_pod, running_pod, sim};
use crate::sim::Simulation;

fn with_pod(ns: &str, name: &str, l: &[(&str, &str)]) -> Simulation {
    let mut sim = sim();
    let mut p = running_pod(name, ns, "node-1");
    p.metadata.labels = labels(l).into();
    load_pod(&mut sim, p);
    sim
}

// Upstream: TestRunLabelMsg (pkg/cmd/label/label_test.go): pod test/foo labelled
// existing=abc; each case's output (or error) as RunLabel prints it.
#[test]
fn run_label_msg() {
    let cases: [(&str, Result<&str, &str>); 9] = [
        ("pods/foo foo=bar", Ok("pod/foo labeled")),
        (
            "pods/foo existing=bar",
            Err("error: 'existing' already has a value (abc), and --overwrite is false"),
        ),
        ("pods/foo existing=bar --overwrite", Ok("pod/foo labeled")),
        ("pods/foo existing-", Ok("pod/foo unlabeled")),
        (
            "pods/foo foo-",
            Ok("label \"foo\" not found.\npod/foo not labeled"),
        ),
        (
            "pods/foo foo=bar --dry-run=server",
            Ok("pod/foo labeled (server dry run)"),
        ),
        (
            "pods/foo foo=bar --dry-run=client",
            Ok("pod/foo labeled (dry run)"),
        ),
        (
            "pods/foo existing- --dry-run=server",
            Ok("pod/foo unlabeled (server dry run)"),
        ),
        (
            "pods/foo existing- --dry-run=client",
            Ok("pod/foo unlabeled (dry run)"),
        ),
    ];
    for (args, want) in cases {
        let mut sim = with_pod("test", "foo", &[("existing", "abc")]);
        let got = execute(&mut sim, &format!("label -n test {args}"));
        assert_eq!(got, want.map(String::from).map_err(String::from), "{args}");
    }
}

// Upstream: TestLabelMsg (pkg/cmd/label/label_test.go, as of 1.35 / kubernetes#134849):
// `updateDataChangeMsg` over the keys `labelFunc` actually added and removed — "not labeled"
// for neither, "labeled" / "unlabeled" for one kind, "modified" for both; the last row's
// overwrite error.
#[test]
fn label_msg() {
    type Row<'a> = (&'a [(&'a str, &'a str)], &'a str, Result<&'a str, &'a str>);
    let rows: [Row; 8] = [
        (&[("a", "b")], "a=b", Ok("not labeled")),
        (&[], "a=b", Ok("labeled")),
        (&[("a", "b")], "a=c --overwrite", Ok("labeled")),
        (&[("a", "b")], "c=d", Ok("labeled")),
        (&[("a", "b")], "a-", Ok("unlabeled")),
        (&[("a", "b"), ("c", "d")], "e=f a-", Ok("modified")),
        (
            &[("status", "unhealthy")],
            "status=healthy --overwrite",
            Ok("labeled"),
        ),
        (
            &[("status", "unhealthy")],
            "status=healthy",
            Err("error: 'status' already has a value (unhealthy), and --overwrite is false"),
        ),
    ];
    for (have, args, want) in rows {
        let mut sim = with_pod("default", "p", have);
        let got = execute(&mut sim, &format!("label pod p {args}"));
        let want = want.map(|m| format!("pod/p {m}")).map_err(String::from);
        assert_eq!(got, want, "{have:?} {args}");
    }
}

fn annotations(sim: &Simulation, ns: &str, name: &str) -> Vec<(String, String)> {
    sim.api
        .store
        .get::<crate::api::Pod>(ns, name)
        .unwrap()
        .metadata
        .annotations
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

// Upstream: TestUpdateAnnotations (pkg/cmd/annotate/annotate_test.go), its rows without a
// resource version, through `kubectl annotate`: the annotations after the update, or the
// overwrite error.
#[test]
fn update_annotations() {
    type Row<'a> = (
        &'a [(&'a str, &'a str)],
        &'a str,
        Result<&'a [(&'a str, &'a str)], &'a str>,
    );
    let rows: [Row; 9] = [
        (&[("a", "b")], "a=b", Ok(&[("a", "b")])),
        (
            &[("a", "b")],
            "a=c",
            Err("error: --overwrite is false but found the following declared annotation(s): 'a' already has a value (b)"),
        ),
        (&[("a", "b")], "a=c --overwrite", Ok(&[("a", "c")])),
        (&[("a", "b")], "c=d", Ok(&[("a", "b"), ("c", "d")])),
        (&[("a", "b")], "a-", Ok(&[])),
        (&[("a", "b"), ("c", "d")], "e=f a-", Ok(&[("c", "d"), ("e", "f")])),
        (
            &[("a", "b"), ("c", "d")],
            "e=f g-",
            Ok(&[("a", "b"), ("c", "d"), ("e", "f")]),
        ),
        (&[("a", "b"), ("c", "d")], "e-", Ok(&[("a", "b"), ("c", "d")])),
        (&[], "a=b", Ok(&[("a", "b")])),
    ];
    for (have, args, want) in rows {
        let mut sim = sim();
        let mut p = running_pod("p", "default", "node-1");
        p.metadata.annotations = labels(have).into();
        load_pod(&mut sim, p);
        let got = execute(&mut sim, &format!("annotate pod p {args}"));
        match want {
            Ok(after) => {
                assert_eq!(got, Ok("pod/p annotated".into()), "{have:?} {args}");
                let after: Vec<(String, String)> = after
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                assert_eq!(annotations(&sim, "default", "p"), after, "{have:?} {args}");
            }
            Err(e) => assert_eq!(got, Err(e.into()), "{have:?} {args}"),
        }
    }
}

// Upstream: TestAnnotateObject (pkg/cmd/annotate/annotate_test.go): `pods/foo a=b c-`.
#[test]
fn annotate_object() {
    let mut sim = with_pod("test", "foo", &[]);
    assert_eq!(
        execute(&mut sim, "annotate -n test pods/foo a=b c-"),
        Ok("pod/foo annotated".into())
    );
    assert_eq!(
        annotations(&sim, "test", "foo"),
        [("a".to_string(), "b".to_string())]
    );
}

// Upstream: TestAnnotateLocal and TestAnnotateObjectFromFile
// (pkg/cmd/annotate/annotate_test.go) with testdata/controller.yaml: `--local a=b` annotates
// without the server; `a=b c-` annotates the live object named in the file.
#[test]
fn annotate_from_file() {
    use super::execute_with_input;
    use super::set_upstream_more_tests::CONTROLLER_YAML;
    let mut sim = sim();
    assert_eq!(
        execute_with_input(
            &mut sim,
            "annotate -n test -f - --local a=b",
            Some(CONTROLLER_YAML)
        ),
        Ok("replicationcontroller/cassandra annotated".into())
    );
    execute_with_input(&mut sim, "create -n test -f -", Some(CONTROLLER_YAML)).unwrap();
    assert_eq!(
        execute_with_input(
            &mut sim,
            "annotate -n test -f - a=b c-",
            Some(CONTROLLER_YAML)
        ),
        Ok("replicationcontroller/cassandra annotated".into())
    );
    let rc = sim
        .api
        .store
        .get::<crate::api::ReplicationController>("test", "cassandra")
        .unwrap()
        .clone();
    assert_eq!(
        rc.metadata.annotations.get("a").map(String::as_str),
        Some("b")
    );
    // The resource builder's FilenameParam with resource arguments.
    assert_eq!(
        execute_with_input(&mut sim, "label -n test -f - rc cassandra a=b", Some(CONTROLLER_YAML)),
        Err("error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into())
    );
}
