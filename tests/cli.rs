//! The `kubeplay` command line, run as a process: what a user's shell sees.

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
fn kubectl_get_prints_kubectl_columns_and_ends_with_a_newline() {
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--at",
        "5m",
        "--",
        "get",
        "cronjob",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        ["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST", "SCHEDULE", "AGE"]
    );
    assert!(lines[1].starts_with("hello "), "{out}");
    assert!(
        out.ends_with('\n'),
        "kubectl output ends with a newline: {out:?}"
    );

    let (out, _, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--at",
        "5m",
        "--",
        "get",
        "jobs",
    ]);
    assert!(ok);
    assert!(out.starts_with("NAME "), "{out}");
    // Three successful Jobs are kept (successfulJobsHistoryLimit 3) and all are Complete.
    assert_eq!(
        out.lines()
            .skip(1)
            .filter(|l| l.contains(" Complete "))
            .count(),
        3,
        "{out}"
    );
    assert!(out.ends_with('\n'));
}

#[test]
fn errors_go_to_stderr_with_a_non_zero_exit() {
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--at",
        "1m",
        "--",
        "get",
        "cronjob",
        "nope",
    ]);
    assert!(!ok, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("\"nope\" not found"), "{err}");

    let (_, err, ok) = kubeplay(&["run", "no-such-scenario"]);
    assert!(!ok);
    assert!(!err.trim().is_empty());
}

#[test]
fn no_resources_found_goes_to_stderr_as_kubectl_does() {
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--at",
        "1m",
        "--",
        "get",
        "pods",
        "-n",
        "kube-system",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "");
    assert_eq!(err, "No resources found in kube-system namespace.\n");

    let args = [
        "kubectl",
        "nginx-deployment",
        "--at",
        "1m",
        "--",
        "events",
        "--types",
        "Warning",
    ];
    let (out, err, ok) = kubeplay(&args);
    assert!(ok, "{err}");
    assert_eq!(
        (out.as_str(), err.as_str()),
        ("", "No events found in default namespace.\n")
    );
}

/// `kubeplay kubectl SCENARIO -- CMD -f PATH` reads the file from disk and `-f -` reads
/// standard input, as kubectl does; a missing path is kubectl's error.
#[test]
fn kubectl_reads_files_and_standard_input() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("kubeplay-cli-f-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("deploy.yaml");
    let manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx-deployment\n";
    std::fs::write(&path, manifest).unwrap();
    let p = path.to_str().unwrap();
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "nginx-deployment",
        "--at",
        "60s",
        "--",
        "get",
        "-f",
        p,
        "-o",
        "name",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "deployment.apps/nginx-deployment\n");

    let mut child = Command::new(env!("CARGO_BIN_EXE_kubeplay"))
        .args([
            "kubectl",
            "nginx-deployment",
            "--at",
            "60s",
            "--",
            "label",
            "-f",
            "-",
            "tier=web",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run kubeplay");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(manifest.as_bytes())
        .unwrap();
    let done = child.wait_with_output().unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert_eq!(
        String::from_utf8(done.stdout).unwrap(),
        "deployment.apps/nginx-deployment labeled\n"
    );

    let missing = dir.join("absent.yaml");
    let (_, err, ok) = kubeplay(&[
        "kubectl",
        "nginx-deployment",
        "--",
        "get",
        "-f",
        missing.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("does not exist"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

// Which stream each part of a partly failing command goes to, as a shell sees real kubectl
// (results on stdout, `Error from server (...)` on stderr, exit 1).

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

/// Each argument after `--` reaches kubectl as the one word the shell passed: a JSON patch keeps
/// its double quotes (they were stripped by the console tokenizer when the argument had no
/// space), so `kubectl patch -p '{"spec":{"replicas":2}}'` works as in a shell.
#[test]
fn kubectl_arguments_with_quotes_reach_kubectl_unchanged() {
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "deployment-rollover",
        "--at",
        "1m",
        "--",
        "patch",
        "deployment",
        "nginx-deployment",
        "-p",
        r#"{"spec":{"replicas":2}}"#,
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "deployment.apps/nginx-deployment patched\n");
    // A label value with a single quote is one word too (and invalid, as upstream says).
    let (_, err, ok) = kubeplay(&[
        "kubectl",
        "deployment-rollover",
        "--at",
        "1m",
        "--",
        "label",
        "deployment",
        "nginx-deployment",
        "it's=x",
    ]);
    assert!(!ok);
    assert!(err.contains("it's"), "{err}");
}

/// `-o jsonpath` writes to standard output (it went only to the page's console text), with no
/// newline of its own; the blank line between the tables of `get pods,deploy` too.
#[test]
fn kubectl_jsonpath_and_table_separators_reach_standard_output() {
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "deployment-rollover",
        "--at",
        "1m",
        "--",
        "get",
        "deploy",
        "nginx-deployment",
        "-o",
        r#"jsonpath={.metadata.name}{"\t"}{.spec.replicas}{"\n"}"#,
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "nginx-deployment\t5\n");
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "deployment-rollover",
        "--at",
        "1m",
        "--",
        "get",
        "pods,deploy",
    ]);
    assert!(ok, "{err}");
    let blank = out
        .lines()
        .position(str::is_empty)
        .expect("a blank line between tables");
    assert!(
        out.lines().nth(blank + 1).unwrap().starts_with("NAME "),
        "{out}"
    );
    assert!(
        out.lines()
            .nth(blank + 2)
            .unwrap()
            .starts_with("deployment.apps/nginx-deployment"),
        "{out}"
    );
}
