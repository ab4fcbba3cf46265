//! Which stream kubectl writes each line to (what a shell sees): results on standard output;
//! warnings, notices (`No resources found`), flag deprecations and errors (`error: ...`,
//! `Error from server (...)`) on standard error, with a failing exit when an error was
//! printed. Stream choices follow kubectl's `o.Out` / `o.ErrOut` writes (pkg/cmd/get/get.go,
//! describe/describe.go, events/events.go, rollout/*.go, delete/delete_flags.go,
//! drain/drain.go, apply/apply.go) and cobra's deprecated-flag notice (`c.OutOrStderr()`).

use super::testutil::*;
use super::{execute_streams, execute_with_input, Input, Streams};

fn run(sim: &mut crate::sim::Simulation, cmd: &str) -> Streams {
    execute_streams(sim, cmd, Input::default())
}

const RS: &str = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx\n";

#[test]
fn a_partial_get_prints_what_it_found_on_stdout_and_the_error_on_stderr() {
    let mut sim = sim();
    execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap();
    let r = run(&mut sim, "get rs web nope -o name");
    assert_eq!(r.stdout, "replicaset.apps/web\n");
    assert_eq!(
        r.stderr,
        "Error from server (NotFound): replicasets.apps \"nope\" not found\n"
    );
    assert!(r.failed);
}

#[test]
fn usage_errors_are_on_stderr_and_fail() {
    let mut sim = sim();
    let r = run(&mut sim, "frobnicate pods");
    assert!(r.failed);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .starts_with("error: unknown command \"frobnicate\" for \"kubectl\""),
        "{}",
        r.stderr
    );
    let r = run(&mut sim, "get deploy nope");
    assert!(r.failed);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "Error from server (NotFound): deployments.apps \"nope\" not found\n"
    );
}

#[test]
fn notices_are_on_stderr_and_do_not_fail() {
    let mut sim = sim();
    for cmd in ["get pods", "describe pods"] {
        let r = run(&mut sim, cmd);
        assert_eq!(
            (r.stdout.as_str(), r.stderr.as_str(), r.failed),
            ("", "No resources found in default namespace.\n", false),
            "{cmd}"
        );
    }
    // delete.go writes its notice to o.Out.
    let r = run(&mut sim, "delete pods --all");
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.failed),
        ("No resources found\n", "", false)
    );
}

#[test]
fn deprecation_warnings_are_on_stderr() {
    let mut sim = sim();
    execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap();
    let r = run(&mut sim, "delete rs web --cascade=false");
    assert!(!r.failed, "{r:?}");
    assert_eq!(
        r.stderr,
        "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n"
    );
    assert_eq!(
        r.stdout,
        "replicaset.apps \"web\" deleted from default namespace\n"
    );
}
