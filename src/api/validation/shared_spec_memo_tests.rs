//! The shared-spec memos (`validate_shared_pod_spec`, `apply_to_shared_pod_spec`) must answer
//! exactly as the uncached functions: the same errors on every call, the pod's name still read
//! for `ephemeral` volumes, and one defaulted spec shared by the pods of a template.

use super::pod::{validate_pod_spec_with_name, validate_shared_pod_spec, PodValidationOptions};
use crate::api::core::{Container, PodSpec};
use serde_json::json;
use std::sync::Arc;

fn spec() -> PodSpec {
    let mut s = PodSpec {
        containers: vec![Container {
            name: "c".into(),
            image: "busybox".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    crate::api::defaults::default_pod_spec(&mut s);
    s
}

fn opts() -> PodValidationOptions {
    PodValidationOptions {
        resource_is_pod: true,
        ..Default::default()
    }
}

#[test]
fn errors_are_never_remembered() {
    let mut s = spec();
    s.termination_grace_period_seconds = None;
    let s = Arc::new(s);
    let want = validate_pod_spec_with_name(&s, None, "spec", opts());
    assert!(!want.is_empty());
    for _ in 0..3 {
        assert_eq!(validate_shared_pod_spec(&s, None, "spec", opts()), want);
    }
}

// validateVolumes: an `ephemeral` volume's claim is named `<pod>-<volume>`, so a spec valid for
// one pod name can be invalid for another; the memo keys such specs by name.
#[test]
fn ephemeral_volume_specs_are_checked_per_pod_name() {
    let mut s = spec();
    s.extra.insert(
        "volumes".into(),
        json!([{"name": "data", "ephemeral": {"volumeClaimTemplate": {"spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}}}]),
    );
    let s = Arc::new(s);
    assert!(validate_shared_pod_spec(&s, Some("short"), "spec", opts()).is_empty());
    let long = "p".repeat(250);
    let errs = validate_shared_pod_spec(&s, Some(&long), "spec", opts());
    assert_eq!(
        errs,
        validate_pod_spec_with_name(&s, Some(&long), "spec", opts())
    );
    assert!(!errs.is_empty());
    // Different options are a different question too.
    let template = PodValidationOptions::default();
    assert_eq!(
        validate_shared_pod_spec(&s, None, "spec", template),
        validate_pod_spec_with_name(&s, None, "spec", template)
    );
}

// Pods created through the API server from one shared template spec end up sharing one
// admitted, defaulted spec, equal to what defaulting a private copy gives.
#[test]
fn pods_of_one_template_share_one_defaulted_spec() {
    let template = Arc::new(spec());
    let mut a = template.clone();
    let mut b = template.clone();
    crate::api::defaults::default_shared_pod_spec(&mut a, true);
    crate::api::defaults::default_shared_pod_spec(&mut b, true);
    assert!(Arc::ptr_eq(&a, &b));
    assert!(
        !Arc::ptr_eq(&a, &template),
        "pod-only defaults changed the spec"
    );
    let mut private = PodSpec::clone(&template);
    crate::api::defaults::default_pod_spec(&mut private);
    crate::api::defaults::default_pod_only(&mut private);
    assert_eq!(*a, private);
    // A template default leaves an already defaulted shared spec in place.
    let mut t = template.clone();
    crate::api::defaults::default_shared_pod_spec(&mut t, false);
    assert!(Arc::ptr_eq(&t, &template));
}
