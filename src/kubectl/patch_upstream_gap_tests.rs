//! Ports of TestPatchObject, TestPatchObjectFromFile, TestPatchNoop,
//! TestPatchObjectFromFileOutput and TestPatchSubresource
//! (`staging/src/k8s.io/kubectl/pkg/cmd/patch/patch_test.go`, release-1.35), on upstream's
//! `frontend` Service and a pod.

use super::testutil::*;
use super::{execute, execute_with_input};
use crate::api::Pod;
use crate::sim::Simulation;

const SVC: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: frontend\n  labels:\n    name: frontend\nspec:\n  ports:\n  - port: 80\n  selector:\n    name: frontend\n";

fn fixture() -> Simulation {
    let mut s = sim();
    load_fixture(&mut s);
    execute_with_input(&mut s, "apply -f -", Some(SVC)).unwrap();
    s
}

/// TestPatchObject and TestPatchObjectFromFile.
#[test]
fn patch_object_and_from_file() {
    let mut s = fixture();
    assert_eq!(
        execute(
            &mut s,
            r#"patch services/frontend -p '{"spec":{"type":"NodePort"}}' -o name"#
        )
        .unwrap(),
        "service/frontend"
    );
    assert!(execute(&mut s, "get svc frontend")
        .unwrap()
        .contains("NodePort"));
    assert_eq!(
        execute_with_input(
            &mut s,
            r#"patch -f - -p '{"metadata":{"labels":{"post-patch":"post-patch-value"}}}' -o name"#,
            Some(SVC)
        )
        .unwrap(),
        "service/frontend"
    );
}

/// TestPatchNoop: `patched`, then `patched (no change)` when the patch changes nothing.
#[test]
fn patch_noop() {
    let mut s = fixture();
    let p = r#"patch services frontend -p '{"metadata":{"annotations":{"foo":"bar"}}}'"#;
    assert_eq!(execute(&mut s, p).unwrap(), "service/frontend patched");
    assert_eq!(
        execute(&mut s, p).unwrap(),
        "service/frontend patched (no change)"
    );
}

/// TestPatchObjectFromFileOutput: `-o yaml` prints the patched object.
#[test]
fn patch_object_from_file_output() {
    let mut s = fixture();
    let out = execute_with_input(
        &mut s,
        r#"patch -f - -p '{"metadata":{"labels":{"post-patch":"post-patch-value"}}}' -o yaml"#,
        Some(SVC),
    )
    .unwrap();
    assert!(out.contains("post-patch: post-patch-value"), "{out}");
    assert!(out.starts_with("apiVersion: v1\nkind: Service\n"), "{out}");
}

/// TestPatchSubresource: `--subresource=status` patches the pod's status.
#[test]
fn patch_subresource() {
    let mut s = fixture();
    let out = execute(
        &mut s,
        r#"patch pod/bare --subresource=status -p '{"status":{"phase":"Pending"}}' -o json"#,
    )
    .unwrap();
    assert!(out.contains("\"phase\": \"Pending\""), "{out}");
    let p = s.api.store.get::<Pod>("default", "bare").unwrap();
    assert_eq!(p.status.phase, "Pending");
}
