//! The remembered warnings of a shared pod spec answer only for the same spec, field path and
//! gate, and never for an object with annotations.

use super::core::{Pod, PodTemplateSpec};
use super::warnings::{get_warnings_for_pod, get_warnings_for_pod_template};
use crate::features::FeatureGates;

fn tpl(json: &str) -> PodTemplateSpec {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("bad template {json}: {e}"))
}

fn gates(git_repo: bool) -> FeatureGates {
    let mut g = FeatureGates::default();
    g.set("GitRepoVolumeDriver", git_repo);
    g
}

#[test]
fn remembered_warnings_follow_path_gate_and_annotations() {
    let t = tpl(
        r#"{"spec":{"imagePullSecrets":[{"name":""}],"volumes":[{"name":"g","gitRepo":{"repository":"r"}}]}}"#,
    );
    let on = gates(true);
    let off = gates(false);
    let first = get_warnings_for_pod_template(None, &t, &on);
    assert!(first.contains(&r#"spec.imagePullSecrets[0].name: invalid empty name """#.to_string()));
    // Asked again: the same answer.
    assert_eq!(get_warnings_for_pod_template(None, &t, &on), first);
    // Same spec under another field path.
    let nested = get_warnings_for_pod_template(Some("spec.template"), &t, &on);
    assert!(nested
        .contains(&r#"spec.template.spec.imagePullSecrets[0].name: invalid empty name """#.into()));
    // Same spec, the gitRepo gate off: another message for the volume.
    let gate_off = get_warnings_for_pod_template(None, &t, &off);
    assert_ne!(gate_off, first);
    // Same spec, now with a pod seccomp annotation: its warning is added.
    let mut annotated = Pod {
        metadata: t.metadata.clone(),
        spec: t.spec.clone(),
        ..Pod::default()
    };
    annotated.metadata.annotations.insert(
        "seccomp.security.alpha.kubernetes.io/pod".into(),
        "runtime/default".into(),
    );
    let with_annotation = get_warnings_for_pod(&annotated, &on);
    assert_eq!(
        with_annotation.len(),
        first.len() + 1,
        "{with_annotation:?}"
    );
}
