//! Runs every fuzz target's body (`kubeplay::fuzzing`) over the committed corpus in
//! fuzz/corpus/<target>/, so the targets are exercised on machines without cargo-fuzz.

use std::path::Path;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus for {target}");
    for f in files {
        let data = std::fs::read(&f).unwrap();
        let r = std::panic::catch_unwind(|| body(&data));
        assert!(r.is_ok(), "{target} panics on {}", f.display());
    }
}

#[test]
fn yaml_objects() {
    replay("yaml_objects", kubeplay::fuzzing::yaml_objects);
}

#[test]
fn scenario() {
    replay("scenario", kubeplay::fuzzing::scenario);
}

#[test]
fn share_link() {
    replay("share_link", kubeplay::fuzzing::share_link);
}

#[test]
fn kubectl() {
    replay("kubectl", kubeplay::fuzzing::kubectl);
}

#[test]
fn share_round_trip() {
    replay("share_round_trip", kubeplay::fuzzing::share_round_trip);
}
