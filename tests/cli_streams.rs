//! `kubeplay kubectl`: which stream each part of a partly failing command goes to, as a shell
//! sees real kubectl (results on stdout, `Error from server (...)` on stderr, exit 1).

use std::process::Command;

fn kubeplay(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_kubeplay"))
        .args(args)
        .output()
        .expect("run kubeplay");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn a_partly_failing_get_splits_results_and_errors() {
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--at",
        "1m",
        "--",
        "get",
        "cronjob",
        "hello",
        "nope",
        "-o",
        "name",
    ]);
    assert!(!ok);
    assert_eq!(out, "cronjob.batch/hello\n");
    assert_eq!(
        err,
        "Error from server (NotFound): cronjobs.batch \"nope\" not found\n"
    );
}

#[test]
fn an_unknown_kubectl_command_is_a_usage_error_on_stderr() {
    let (out, err, ok) = kubeplay(&["kubectl", "cronjob-hello", "--", "frobnicate"]);
    assert!(!ok);
    assert_eq!(out, "");
    assert!(
        err.starts_with("error: unknown command \"frobnicate\" for \"kubectl\""),
        "{err}"
    );
}
