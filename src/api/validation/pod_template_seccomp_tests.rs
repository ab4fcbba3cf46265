//! upstream: TestValidatePodTemplateSpecSeccomp (pkg/apis/core/validation/validation_test.go),
//! every row, through `ValidatePodTemplateSpec` at `template` — plus the AppArmor twin
//! (hand-derived: ValidatePodTemplateSpec also runs
//! validateAppArmorAnnotationsAndFieldsMatchOnCreate on `<template>.spec`) and the path a
//! Deployment's template reports end to end.

use super::pod::{validate_pod_template_spec, PodValidationOptions};
use crate::api::core::PodTemplateSpec;
use serde_json::{json, Value};

/// `podtest.MakeContainer(name)`.
fn ctr(name: &str) -> Value {
    json!({"name": name, "image": "image", "imagePullPolicy": "IfNotPresent",
           "terminationMessagePolicy": "File"})
}

fn with_sc(mut c: Value, sc: Value) -> Value {
    c["securityContext"] = sc;
    c
}

/// `podtest.MakePodSpec(...)` under a template with the given annotations.
fn template(annotations: Value, spec_patch: Value) -> PodTemplateSpec {
    let mut spec = json!({
        "containers": [ctr("ctr")],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "terminationGracePeriodSeconds": 30,
    });
    if let (Some(s), Some(p)) = (spec.as_object_mut(), spec_patch.as_object()) {
        for (k, v) in p {
            s.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(json!({"metadata": {"annotations": annotations}, "spec": spec}))
        .expect("template")
}

fn validate(t: &PodTemplateSpec) -> Vec<String> {
    validate_pod_template_spec(t, "template", PodValidationOptions::default())
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn validate_pod_template_spec_seccomp_table() {
    let rd = json!({"seccompProfile": {"type": "RuntimeDefault"}});
    let rows: Vec<(&str, PodTemplateSpec, Vec<&str>)> = vec![
        (
            "seccomp field and container annotation must match",
            template(
                json!({"container.seccomp.security.alpha.kubernetes.io/test2": "unconfined"}),
                json!({"containers": [ctr("test1"), with_sc(ctr("test2"), rd.clone())]}),
            ),
            vec!["template.spec.containers[1].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"],
        ),
        (
            "seccomp field and pod annotation must match",
            template(
                json!({"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"}),
                json!({"securityContext": {"seccompProfile": {"type": "Unconfined"}}}),
            ),
            vec!["template.spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"],
        ),
        (
            "init seccomp field and container annotation must match",
            template(
                json!({"container.seccomp.security.alpha.kubernetes.io/init-test": "unconfined"}),
                json!({"initContainers": [with_sc(ctr("init-test"), rd.clone())]}),
            ),
            vec!["template.spec.initContainers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"],
        ),
    ];
    for (name, t, want) in rows {
        assert_eq!(validate(&t), want, "{name}");
    }
    // Matching values pass.
    assert!(validate(&template(
        json!({"container.seccomp.security.alpha.kubernetes.io/test2": "runtime/default"}),
        json!({"containers": [ctr("test1"), with_sc(ctr("test2"), rd)]}),
    ))
    .is_empty());
}

#[test]
fn pod_template_apparmor_annotation_must_match_field() {
    // validateAppArmorAnnotationsAndFieldsMatchOnCreate on the template's spec: the pod-level
    // profile applies to containers without their own.
    let t = template(
        json!({"container.apparmor.security.beta.kubernetes.io/ctr": "unconfined"}),
        json!({"securityContext": {"appArmorProfile": {"type": "RuntimeDefault"}}}),
    );
    assert_eq!(
        validate(&t),
        vec!["template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match"]
    );
    let t = template(
        json!({"container.apparmor.security.beta.kubernetes.io/ctr": "localhost/foo"}),
        json!({"containers": [with_sc(ctr("ctr"), json!({"appArmorProfile": {"type": "Localhost", "localhostProfile": "bar"}}))]}),
    );
    assert_eq!(
        validate(&t),
        vec!["template.spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match"]
    );
    // Windows pods skip the AppArmor comparison (validateWindows reports the field instead).
    let t = template(
        json!({"container.apparmor.security.beta.kubernetes.io/ctr": "unconfined"}),
        json!({"os": {"name": "windows"},
               "containers": [with_sc(ctr("ctr"), json!({"appArmorProfile": {"type": "RuntimeDefault"}}))]}),
    );
    assert!(!validate(&t)
        .iter()
        .any(|e| e.contains("apparmor type in annotation and field must match")));
}

#[test]
fn deployment_template_reports_seccomp_mismatch_under_spec_template() {
    use crate::api::validation::validate_object;
    let d = crate::api::object::Object::from_value(json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {
                    "labels": {"app": "web"},
                    "annotations": {"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"},
                },
                "spec": {
                    "securityContext": {"seccompProfile": {"type": "Unconfined"}},
                    "containers": [{"name": "c", "image": "nginx"}],
                },
            },
        },
    }))
    .expect("deployment");
    let errs: Vec<String> = validate_object(&d, None)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        errs.contains(&"spec.template.spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match".to_string()),
        "{errs:?}"
    );
}
