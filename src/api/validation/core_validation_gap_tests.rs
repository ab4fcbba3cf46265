//! Ports of `pkg/apis/core/validation/validation_test.go` tables (repo kubernetes/kubernetes)
//! not ported before: `TestValidateOS`, `TestValidateWindowsSecurityContext`,
//! `TestValidateLinuxSecurityContext`,
//! `TestValidateWindowsPodSecurityContextSupplementalGroupsPolicy`,
//! `TestValidatePodCreateWithSchedulingGates`, `TestPVCVolumeMode` and
//! `TestVolumeAttributesClass`. Rows keep upstream's names; the checks compare error type, field
//! and (where upstream does) detail.

use super::pod::validate_pod_create;
use super::pod_spec_more::validate_os;
use crate::api::core::{Container, Pod, PodSpec};
use crate::api::errors::{FieldError, FieldErrorType};
use serde_json::{json, Value};

fn forbidden(errs: &[FieldError]) -> Vec<(String, String)> {
    errs.iter()
        .map(|e| {
            assert!(matches!(e.type_, FieldErrorType::Forbidden), "{e:?}");
            (e.field.clone(), e.detail.clone())
        })
        .collect()
}

fn container_with_sc(sc: Value) -> Container {
    let mut c = Container {
        name: "ctr".into(),
        image: "image".into(),
        ..Default::default()
    };
    c.extra.insert("securityContext".into(), sc);
    c
}

fn os_spec(os: Option<Value>, containers: Vec<Container>, extra: &[(&str, Value)]) -> PodSpec {
    let mut s = PodSpec {
        containers,
        ..Default::default()
    };
    if let Some(os) = os {
        s.extra.insert("os".into(), os);
    }
    for (k, v) in extra {
        s.extra.insert((*k).into(), v.clone());
    }
    s
}

/// `TestValidateOS`: nil OS and the two supported names pass; an empty name, an empty OS and an
/// unknown name fail.
#[test]
fn validate_os_rows() {
    for (name, os, ok) in [
        ("OS: nil", None, true),
        ("OS: empty", Some(json!({})), false),
        ("OS: linux", Some(json!({"name": "linux"})), true),
        ("OS: windows", Some(json!({"name": "windows"})), true),
        ("OS: dummyOS", Some(json!({"name": "dummyOS"})), false),
    ] {
        let mut errs = vec![];
        validate_os(&mut errs, &os_spec(os, vec![], &[]), "field");
        assert_eq!(errs.is_empty(), ok, "{name}: {errs:?}");
    }
    let mut errs = vec![];
    validate_os(
        &mut errs,
        &os_spec(Some(json!({"name": ""})), vec![], &[]),
        "field",
    );
    assert_eq!(errs.len(), 1);
    assert!(matches!(errs[0].type_, FieldErrorType::Required));
    assert_eq!(errs[0].field, "field.os.name");
}

/// `TestValidateWindowsSecurityContext`: a windows pod's container may not set seLinuxOptions,
/// seccompProfile or appArmorProfile ("cannot be set for a windows pod"); windowsOptions is fine.
#[test]
fn validate_windows_security_context_rows() {
    let win = Some(json!({"name": "windows"}));
    for (name, sc, field) in [
        (
            "pod with SELinux Options",
            json!({"seLinuxOptions": {"role": "dummyRole"}}),
            "seLinuxOptions",
        ),
        (
            "pod with SeccompProfile",
            json!({"seccompProfile": {"localhostProfile": "dummy", "type": "Localhost"}}),
            "seccompProfile",
        ),
        (
            "pod with AppArmorProfile",
            json!({"appArmorProfile": {"type": "RuntimeDefault"}}),
            "appArmorProfile",
        ),
    ] {
        let mut errs = vec![];
        validate_os(
            &mut errs,
            &os_spec(win.clone(), vec![container_with_sc(sc)], &[]),
            "field",
        );
        assert_eq!(
            forbidden(&errs),
            vec![(
                format!("field.containers[0].securityContext.{field}"),
                "cannot be set for a windows pod".to_string()
            )],
            "{name}"
        );
    }
    let mut errs = vec![];
    validate_os(
        &mut errs,
        &os_spec(
            win,
            vec![container_with_sc(
                json!({"windowsOptions": {"runAsUserName": "dummy"}}),
            )],
            &[],
        ),
        "field",
    );
    assert!(
        errs.is_empty(),
        "pod with WindowsOptions, no error: {errs:?}"
    );
}

/// `TestValidateLinuxSecurityContext`: a linux pod's container may not set windowsOptions.
#[test]
fn validate_linux_security_context_rows() {
    let linux = Some(json!({"name": "linux"}));
    let mut errs = vec![];
    validate_os(
        &mut errs,
        &os_spec(
            linux.clone(),
            vec![container_with_sc(
                json!({"windowsOptions": {"runAsUserName": "myUser"}}),
            )],
            &[],
        ),
        "field",
    );
    assert_eq!(
        forbidden(&errs),
        vec![(
            "field.containers[0].securityContext.windowsOptions".to_string(),
            "windows options cannot be set for a linux pod".to_string()
        )]
    );
    let mut errs = vec![];
    validate_os(
        &mut errs,
        &os_spec(
            linux,
            vec![container_with_sc(json!({
                "seLinuxOptions": {"role": "dummyRole"},
                "runAsUser": 1000,
                "seccompProfile": {"type": "RuntimeDefault"},
            }))],
            &[],
        ),
        "field",
    );
    assert!(errs.is_empty(), "valid SC, linux, no error: {errs:?}");
}

/// `TestValidateWindowsPodSecurityContextSupplementalGroupsPolicy`.
#[test]
fn validate_windows_pod_supplemental_groups_policy_rows() {
    let win = Some(json!({"name": "windows"}));
    for (name, sc) in [
        ("nil PodSecurityContext", None),
        ("empty PodSecurityContext", Some(json!({}))),
    ] {
        let extra: Vec<(&str, Value)> = sc.into_iter().map(|v| ("securityContext", v)).collect();
        let mut errs = vec![];
        validate_os(&mut errs, &os_spec(win.clone(), vec![], &extra), "spec");
        assert!(errs.is_empty(), "{name}: {errs:?}");
    }
    let mut errs = vec![];
    validate_os(
        &mut errs,
        &os_spec(
            win,
            vec![],
            &[(
                "securityContext",
                json!({"supplementalGroupsPolicy": "Merge"}),
            )],
        ),
        "spec",
    );
    assert_eq!(
        forbidden(&errs),
        vec![(
            "spec.securityContext.supplementalGroupsPolicy".to_string(),
            "cannot be set for a windows pod".to_string()
        )]
    );
}

fn gated_pod(node_name: Option<&str>) -> Pod {
    let mut spec = json!({
        "containers": [{"name": "con", "image": "image", "imagePullPolicy": "IfNotPresent",
            "terminationMessagePolicy": "File"}],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "terminationGracePeriodSeconds": 30,
        "schedulingGates": [{"name": "foo"}],
    });
    if let (Some(n), Some(m)) = (node_name, spec.as_object_mut()) {
        m.insert("nodeName".into(), json!(n));
    }
    serde_json::from_value(json!({
        "metadata": {"name": "pod", "namespace": "ns"},
        "spec": spec,
    }))
    .expect("pod decodes")
}

/// `TestValidatePodCreateWithSchedulingGates`: nodeName with scheduling gates is forbidden on
/// create; gates alone are fine.
#[test]
fn validate_pod_create_with_scheduling_gates_rows() {
    let errs = validate_pod_create(&gated_pod(Some("node")));
    assert_eq!(
        forbidden(&errs),
        vec![(
            "spec.nodeName".to_string(),
            "cannot be set until all schedulingGates have been cleared".to_string()
        )],
        "node name with non-empty gates"
    );
    let errs = validate_pod_create(&gated_pod(None));
    assert!(
        errs.is_empty(),
        "no node name with non-empty gates: {errs:?}"
    );
}

fn claim_spec_errs(extra: Value) -> Vec<FieldError> {
    let mut v = json!({
        "accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": "10Gi"}},
    });
    if let (Some(m), Some(e)) = (v.as_object_mut(), extra.as_object()) {
        m.extend(e.clone());
    }
    let spec: crate::api::core_more::PersistentVolumeClaimSpec =
        serde_json::from_value(v).expect("claim spec decodes");
    crate::api::sts_ds_validation::validate_persistent_volume_claim_spec(&spec, "spec")
}

/// `TestPVCVolumeMode`: Block, Filesystem and no mode are valid; an unknown or empty mode is not.
#[test]
fn pvc_volume_mode_rows() {
    for (name, mode, ok) in [
        ("valid block value", json!({"volumeMode": "Block"}), true),
        (
            "valid filesystem value",
            json!({"volumeMode": "Filesystem"}),
            true,
        ),
        ("valid nil value", json!({}), true),
        ("invalid block value", json!({"volumeMode": "fake"}), false),
        ("invalid empty value", json!({"volumeMode": ""}), false),
    ] {
        let errs = claim_spec_errs(mode);
        assert_eq!(errs.is_empty(), ok, "{name}: {errs:?}");
    }
}

/// `TestVolumeAttributesClass`: no class, an empty class and a DNS-subdomain class are valid.
#[test]
fn volume_attributes_class_rows() {
    for (name, vac, ok) in [
        ("default", json!({}), true),
        ("empty", json!({"volumeAttributesClassName": ""}), true),
        ("valid", json!({"volumeAttributesClassName": "foo"}), true),
        (
            "invalid",
            json!({"volumeAttributesClassName": "-invalid-"}),
            false,
        ),
    ] {
        let errs = claim_spec_errs(vac);
        assert_eq!(errs.is_empty(), ok, "{name}: {errs:?}");
    }
}
