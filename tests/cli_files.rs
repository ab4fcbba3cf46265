//! `kubeplay kubectl ... -f DIR` on the real file system, as cli-runtime's resource builder
//! reads it (`builder.go` `Path`, `visitor.go` `ExpandPathsToFileVisitors`).

use std::path::PathBuf;
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

fn rs(name: &str) -> String {
    format!("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n")
}

/// A fresh directory tree under the system temporary directory.
fn tree(tag: &str) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("kubeplay-cli-files-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("m/sub")).unwrap();
    std::fs::create_dir_all(root.join("empty")).unwrap();
    // Multi-document YAML and a kind: List, read through the directory.
    std::fs::write(
        root.join("m/b.yaml"),
        format!("{}---\n{}", rs("b1"), rs("b2")),
    )
    .unwrap();
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
        serde_json::to_value(serde_yaml_like(&rs("a1"))).unwrap()
    ]});
    std::fs::write(root.join("m/a.json"), list.to_string()).unwrap();
    std::fs::write(root.join("m/c.yml"), rs("c")).unwrap();
    std::fs::write(root.join("m/notes.txt"), rs("txt")).unwrap();
    std::fs::write(root.join("m/sub/d.yaml"), rs("d")).unwrap();
    std::fs::write(root.join("empty/README"), "not a manifest").unwrap();
    root
}

/// The ReplicaSet of [`rs`] as JSON (built by hand: the test has no YAML parser).
fn serde_yaml_like(y: &str) -> serde_json::Value {
    let name = y
        .lines()
        .find_map(|l| l.strip_prefix("  name: "))
        .unwrap_or_default();
    serde_json::json!({
        "apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": name},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
          "template": {"metadata": {"labels": {"app": name}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}
    })
}

#[test]
fn apply_reads_a_directory_in_name_order_and_recurses_only_with_r() {
    let root = tree("apply");
    let dir = root.join("m");
    let dir = dir.to_str().unwrap();
    let (out, err, ok) = kubeplay(&["kubectl", "cronjob-hello", "--", "apply", "-f", dir]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "replicaset.apps/a1 created\nreplicaset.apps/b1 created\nreplicaset.apps/b2 created\nreplicaset.apps/c created\n"
    );
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--",
        "apply",
        "-R",
        "-f",
        dir,
        "-o",
        "name",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "replicaset.apps/a1\nreplicaset.apps/b1\nreplicaset.apps/b2\nreplicaset.apps/c\nreplicaset.apps/d\n"
    );
    // A file named explicitly is read whatever its extension; `-f a,b` is two paths.
    let txt = root.join("m/notes.txt");
    let c = root.join("m/c.yml");
    let both = format!("{},{}", txt.to_str().unwrap(), c.to_str().unwrap());
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--",
        "create",
        "-f",
        &both,
        "-o",
        "name",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "replicaset.apps/txt\nreplicaset.apps/c\n");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn missing_and_empty_paths_give_the_builder_errors() {
    let root = tree("errors");
    let missing = root.join("nope.yaml");
    let missing = missing.to_str().unwrap();
    let (out, err, ok) = kubeplay(&["kubectl", "cronjob-hello", "--", "get", "-f", missing]);
    assert!(!ok && out.is_empty(), "{out}");
    assert_eq!(
        err,
        format!("error: the path \"{missing}\" does not exist\n")
    );

    let empty = root.join("empty");
    let empty = empty.to_str().unwrap();
    let (_, err, ok) = kubeplay(&["kubectl", "cronjob-hello", "--", "apply", "-f", empty]);
    assert!(!ok);
    assert_eq!(
        err,
        format!(
            "error: error reading [{empty}]: recognized file extensions are [.json .yaml .yml]\n"
        )
    );

    // Two bad paths: both messages, one a line, without the `error: ` prefix.
    let (_, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--",
        "delete",
        "-f",
        missing,
        "-f",
        "nada",
    ]);
    assert!(!ok);
    assert_eq!(
        err,
        format!("the path \"{missing}\" does not exist\nthe path \"nada\" does not exist\n")
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn unreadable_files_report_the_open_error() {
    use std::os::unix::fs::PermissionsExt;
    let root = tree("perm");
    let locked = root.join("m/c.yml");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_ok() {
        // Running as root: permissions are not enforced.
        let _ = std::fs::remove_dir_all(&root);
        return;
    }
    let (out, err, ok) = kubeplay(&[
        "kubectl",
        "cronjob-hello",
        "--",
        "create",
        "-f",
        root.join("m").to_str().unwrap(),
        "-o",
        "name",
    ]);
    assert!(!ok);
    // The other files are still created (the eager visitor continues); kubeplay's CLI prints a
    // failed command's whole output on standard error.
    let all = out + &err;
    assert!(
        all.starts_with("replicaset.apps/a1\nreplicaset.apps/b1\nreplicaset.apps/b2\n"),
        "{all}"
    );
    assert!(
        all.ends_with(&format!(
            "error: open {}: permission denied\n",
            locked.display()
        )),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
