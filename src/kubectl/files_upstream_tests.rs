//! `-f PATH` through cli-runtime's resource builder (`builder.go` `FilenameParam`/`Path`,
//! `visitor.go` `ExpandPathsToFileVisitors`): directories, `-R`, glob patterns, and the
//! builder's error texts. A mock file system stands for the disk, with permission errors.

use super::files::{expand, FileSystem, MapFs, Source, Stat};
use super::testutil::sim;
use super::{execute_with, Input};
use std::collections::{BTreeMap, BTreeSet};

fn pod(name: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n  - name: c\n    image: busybox\n")
}

fn rc(name: &str) -> String {
    format!("{{\"apiVersion\":\"v1\",\"kind\":\"ReplicationController\",\"metadata\":{{\"name\":\"{name}\"}},\"spec\":{{\"replicas\":1,\"selector\":{{\"app\":\"{name}\"}},\"template\":{{\"metadata\":{{\"labels\":{{\"app\":\"{name}\"}}}},\"spec\":{{\"containers\":[{{\"name\":\"c\",\"image\":\"busybox\"}}]}}}}}}}}")
}

/// The in-memory map, plus paths that cannot be opened or stat'ed.
#[derive(Debug)]
struct Denied<'a> {
    map: MapFs<'a>,
    unreadable: BTreeSet<&'static str>,
    unstatable: BTreeSet<&'static str>,
}

impl FileSystem for Denied<'_> {
    fn stat(&self, path: &str) -> Stat {
        if self.unstatable.contains(path) {
            return Stat::Error(format!("stat {path}: permission denied"));
        }
        self.map.stat(path)
    }
    fn read_dir(&self, path: &str) -> Result<Vec<String>, String> {
        if self.unreadable.contains(path) {
            return Err(format!("open {path}: permission denied"));
        }
        self.map.read_dir(path)
    }
    fn read(&self, path: &str) -> Result<String, String> {
        if self.unreadable.contains(path) {
            return Err(format!("open {path}: permission denied"));
        }
        self.map.read(path)
    }
}

fn tree() -> BTreeMap<String, String> {
    BTreeMap::from([
        ("recursive/pod/busybox.json".into(), pod("busybox0")),
        ("recursive/pod/pod_1/busybox.json".into(), pod("busybox1")),
        ("recursive/rc/busybox.json".into(), rc("busybox0")),
        ("recursive/rc/rc_1/busybox.json".into(), rc("busybox1")),
        ("guestbook/redis-master.yaml".into(), pod("redis-master")),
        ("guestbook/redis-replica.yml".into(), pod("redis-replica")),
        ("guestbook/frontend.json".into(), pod("frontend")),
        ("guestbook/README.md".into(), "# not a manifest".into()),
        ("guestbook/notes.YAML".into(), "not: read".into()),
        ("oddly-named-file[x].yaml".into(), pod("oddly")),
        ("notes.txt".into(), pod("from-txt")),
        ("empty/README".into(), "x".into()),
        ("order/b/x.yaml".into(), pod("bx")),
        ("order/b.yaml".into(), pod("b")),
        ("order/a.yaml".into(), pod("a")),
    ])
}

fn paths(files: &[&str], recursive: bool) -> Result<(Vec<String>, bool), String> {
    let t = tree();
    let fs = MapFs(Some(&t));
    let files: Vec<String> = files.iter().map(|s| s.to_string()).collect();
    expand(&files, recursive, &fs).map(|e| {
        (
            e.sources
                .iter()
                .map(|s| match s {
                    Source::Stdin => "-".to_string(),
                    Source::Path(p) => p.clone(),
                })
                .collect(),
            e.single_item_implied,
        )
    })
}

fn kubectl(cmd: &str, fs: &dyn FileSystem) -> Result<String, String> {
    let mut sim = sim();
    execute_with(
        &mut sim,
        cmd,
        Input {
            stdin: None,
            files: None,
            fs: Some(fs),
        },
    )
}

// upstream: TestPathBuilderWithMultiple (staging/src/k8s.io/cli-runtime/pkg/resource/builder_test.go):
// with -R a directory's subdirectories are walked, each directory's files in name order before
// the next entry; objects get the default namespace.
#[test]
fn path_builder_with_multiple() {
    assert_eq!(
        paths(&["recursive/pod"], true).unwrap().0,
        [
            "recursive/pod/busybox.json",
            "recursive/pod/pod_1/busybox.json"
        ]
    );
    assert_eq!(
        paths(&["recursive/rc"], true).unwrap().0,
        [
            "recursive/rc/busybox.json",
            "recursive/rc/rc_1/busybox.json"
        ]
    );
    // Without -R only the directory's own files.
    assert_eq!(
        paths(&["recursive/rc"], false).unwrap(),
        (vec!["recursive/rc/busybox.json".to_string()], true)
    );
    let t = tree();
    let fs = MapFs(Some(&t));
    assert_eq!(
        kubectl("create -R -f recursive/rc -o name", &fs).unwrap(),
        "replicationcontroller/busybox0\nreplicationcontroller/busybox1"
    );
    let out = kubectl("create -f recursive/pod --recursive -o yaml", &fs).unwrap();
    assert_eq!(out.matches("  namespace: default\n").count(), 2, "{out}");
}

// filepath.Walk visits `b/x.yaml` (inside directory `b`) before `b.yaml`: names are sorted per
// directory, not as whole paths.
#[test]
fn walk_order_is_per_directory() {
    assert_eq!(
        paths(&["order"], true).unwrap().0,
        ["order/a.yaml", "order/b/x.yaml", "order/b.yaml"]
    );
    assert_eq!(
        paths(&["./order/"], false).unwrap().0,
        ["order/a.yaml", "order/b.yaml"]
    );
}

// upstream: TestDirectoryBuilder (staging/src/k8s.io/cli-runtime/pkg/resource/builder_test.go):
// a directory of several files is not a single item; only .json/.yaml/.yml files are read
// (extensions are case-sensitive).
#[test]
fn directory_builder() {
    assert_eq!(
        paths(&["guestbook"], false).unwrap(),
        (
            vec![
                "guestbook/frontend.json".to_string(),
                "guestbook/redis-master.yaml".to_string(),
                "guestbook/redis-replica.yml".to_string(),
            ],
            false
        )
    );
    let t = tree();
    let fs = MapFs(Some(&t));
    assert_eq!(
        kubectl("create -f guestbook -o name", &fs).unwrap(),
        "pod/frontend\npod/redis-master\npod/redis-replica"
    );
}

// upstream: TestPathBuilderAndVersionedObjectNotDefaulted (builder_test.go): one file is a
// single item, whatever its extension when named explicitly.
#[test]
fn explicit_file_is_single_item_whatever_its_extension() {
    assert_eq!(
        paths(&["notes.txt"], false).unwrap(),
        (vec!["notes.txt".to_string()], true)
    );
    assert_eq!(
        paths(&["-"], false).unwrap(),
        (vec!["-".to_string()], false)
    );
    assert!(!paths(&["notes.txt", "recursive/rc"], false).unwrap().1);
}

// upstream: TestFilePatternBuilderWhenFileLiteralExists (builder_test.go): a path that exists is
// not a pattern.
#[test]
fn file_pattern_builder_when_file_literal_exists() {
    assert_eq!(
        paths(&["oddly-named-file[x].yaml"], false).unwrap(),
        (vec!["oddly-named-file[x].yaml".to_string()], true)
    );
}

// upstream: TestFilePatternBuilder (builder_test.go): a path that does not exist is a glob.
#[test]
fn file_pattern_builder() {
    assert_eq!(
        paths(&["guestbook/redis-*.y*"], false).unwrap(),
        (
            vec![
                "guestbook/redis-master.yaml".to_string(),
                "guestbook/redis-replica.yml".to_string(),
            ],
            false
        )
    );
    assert_eq!(
        paths(&["recursive/*/busybox.json"], false).unwrap().0,
        ["recursive/pod/busybox.json", "recursive/rc/busybox.json"]
    );
    assert_eq!(
        paths(&["guestbook/[fr]?*.json"], false).unwrap().0,
        ["guestbook/frontend.json"]
    );
}

// upstream: TestErrorFilePatternBuilder (builder_test.go).
#[test]
fn error_file_pattern_builder() {
    assert_eq!(
        paths(&["[a-z*.yaml"], false).unwrap_err(),
        "error: pattern \"[a-z*.yaml\" is not valid: syntax error in pattern"
    );
    assert_eq!(
        paths(&["guestbook/notexist.yaml"], false).unwrap_err(),
        "error: the path \"guestbook/notexist.yaml\" does not exist"
    );
    assert_eq!(
        paths(&["_does_not_exist_/*.yaml"], false).unwrap_err(),
        "error: the path \"_does_not_exist_/*.yaml\" does not exist"
    );
}

// Builder.Path: a path whose files all have other extensions; several errors are printed one a
// line without the `error: ` prefix (cmdutil.checkErr → MultipleErrors("", errs)); a later good
// path does not rescue the command.
#[test]
fn builder_errors_are_aggregated() {
    assert_eq!(
        paths(&["empty"], false).unwrap_err(),
        "error: error reading [empty]: recognized file extensions are [.json .yaml .yml]"
    );
    // Once a file was found, a later path without manifests is no error.
    assert!(paths(&["notes.txt", "empty"], false).is_ok());
    assert_eq!(
        paths(&["nope.yaml", "notes.txt", "nada"], false).unwrap_err(),
        "the path \"nope.yaml\" does not exist\nthe path \"nada\" does not exist"
    );
    assert_eq!(
        paths(&["-", "-"], false).unwrap_err(),
        "error: standard input cannot be used for multiple arguments"
    );
    let t = tree();
    let fs = MapFs(Some(&t));
    assert_eq!(
        kubectl("apply -f notes.txt -f nope.yaml", &fs).unwrap_err(),
        "error: the path \"nope.yaml\" does not exist"
    );
    assert_eq!(
        kubectl("get -f nope.yaml,nada.yaml", &fs).unwrap_err(),
        "the path \"nope.yaml\" does not exist\nthe path \"nada.yaml\" does not exist"
    );
}

// Builder.Path and FileVisitor.Visit with permission errors: a path that cannot be stat'ed, a
// directory (even a subdirectory skipped without -R, as filepath.Walk reads its names before the
// WalkFunc can skip it) that cannot be listed, and a file that cannot be opened (an error of
// that file; the other files are still applied, as the eager visitor continues).
#[test]
fn permission_errors() {
    let t = tree();
    let fs = Denied {
        map: MapFs(Some(&t)),
        unreadable: BTreeSet::from(["recursive/pod/pod_1", "guestbook/frontend.json"]),
        unstatable: BTreeSet::from(["secret.yaml"]),
    };
    assert_eq!(
        kubectl("apply -f secret.yaml", &fs).unwrap_err(),
        "error: the path \"secret.yaml\" cannot be accessed: stat secret.yaml: permission denied"
    );
    assert_eq!(
        kubectl("apply -f recursive/pod", &fs).unwrap_err(),
        "error: error reading \"recursive/pod\": open recursive/pod/pod_1: permission denied"
    );
    assert_eq!(
        kubectl("create -f guestbook -o name", &fs).unwrap_err(),
        "pod/redis-master\npod/redis-replica\nerror: open guestbook/frontend.json: permission denied"
    );
}

// get -f DIR -o yaml: several files print as a List, one file of one object as itself.
#[test]
fn get_directory_prints_a_list() {
    let t = tree();
    let fs = MapFs(Some(&t));
    let mut sim = sim();
    let input = Input {
        stdin: None,
        files: None,
        fs: Some(&fs),
    };
    execute_with(&mut sim, "create -f guestbook", input).unwrap();
    execute_with(&mut sim, "create -f recursive/pod -R", input).unwrap();
    let out = execute_with(&mut sim, "get -f guestbook -o yaml", input).unwrap();
    assert!(out.starts_with("apiVersion: v1\nitems:\n"), "{out}");
    let out = execute_with(&mut sim, "get -f recursive/pod -o yaml", input).unwrap();
    assert!(out.starts_with("apiVersion: v1\nkind: Pod\n"), "{out}");
    let out = execute_with(&mut sim, "get -f recursive/pod -R -o name", input).unwrap();
    assert_eq!(out, "pod/busybox0\npod/busybox1");
}
