//! ReplicaSet (`pkg/apis/apps/validation`) and ReplicationController (`pkg/apis/core/validation`)
//! validation, including the REST strategies' update rules.

use super::child;
use super::meta::{
    invalid_selector, label_selector_as_selector, validate_label_selector,
    validate_nonnegative_field, validate_object_meta, validate_object_meta_update, FIELD_IMMUTABLE,
};
use super::names::name_is_dns_subdomain;
use super::pod::{validate_pod_template_spec, PodValidationOptions};
use crate::api::apps::{
    ReplicaSet, ReplicaSetSpec, ReplicationController, ReplicationControllerSpec,
};
use crate::api::core::PodTemplateSpec;
use crate::api::errors::{go_json, FieldError};
use crate::api::meta::{LabelSelector, Selector};
use serde_json::Value;

/// The template labels as Go prints the map: `null` when absent (a nil map), else sorted JSON.
fn labels_value(t: &PodTemplateSpec) -> (Value, String) {
    if t.metadata.labels.is_empty() {
        (Value::Null, "null".into())
    } else {
        let v = serde_json::to_value(&t.metadata.labels).unwrap_or_default();
        let text = go_json(&v);
        (v, text)
    }
}

/// The checks shared by `ValidatePodTemplateSpecForReplicaSet` and `...ForRC`: selector matches
/// the template labels, the template is a valid pod template, restartPolicy is Always and
/// activeDeadlineSeconds is unset.
pub(crate) fn validate_template_for_controller(
    t: &PodTemplateSpec,
    selector: &Selector,
    path: &str,
    kind: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if !selector.is_empty() && !selector.matches(&t.metadata.labels) {
        let (v, text) = labels_value(t);
        errs.push(
            FieldError::invalid(
                child(&child(path, "metadata"), "labels"),
                v,
                "`selector` does not match template `labels`",
            )
            .with_value_text(text),
        );
    }
    errs.extend(validate_pod_template_spec(
        t,
        path,
        PodValidationOptions::default(),
    ));
    if t.spec.restart_policy != "Always" {
        errs.push(FieldError::not_supported(
            child(&child(path, "spec"), "restartPolicy"),
            t.spec.restart_policy.as_str(),
            &["Always"],
        ));
    }
    if t.spec.active_deadline_seconds.is_some() {
        errs.push(FieldError::forbidden(
            child(&child(path, "spec"), "activeDeadlineSeconds"),
            format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
    errs
}

/// `ValidateReplicaSetSpec`.
pub fn validate_replica_set_spec(spec: &ReplicaSetSpec, path: &str) -> Vec<FieldError> {
    let mut errs = validate_nonnegative_field(
        i64::from(spec.replicas.unwrap_or(1)),
        &child(path, "replicas"),
    );
    errs.extend(validate_nonnegative_field(
        i64::from(spec.min_ready_seconds),
        &child(path, "minReadySeconds"),
    ));
    let sel_path = child(path, "selector");
    match &spec.selector {
        None => errs.push(FieldError::required(sel_path.as_str(), "")),
        Some(sel) => {
            errs.extend(validate_label_selector(sel, &sel_path));
            if sel.is_empty() {
                errs.push(invalid_selector(
                    &sel_path,
                    sel,
                    "empty selector is invalid for deployment",
                ));
            }
        }
    }
    match label_selector_as_selector(spec.selector.as_ref()) {
        Err(_) => errs.push(invalid_selector(
            &sel_path,
            spec.selector.as_ref().unwrap_or(&LabelSelector::default()),
            "invalid label selector",
        )),
        Ok(selector) => errs.extend(validate_template_for_controller(
            &spec.template,
            &selector,
            &child(path, "template"),
            "ReplicaSet",
        )),
    }
    errs
}

/// `ValidateReplicaSet`.
pub fn validate_replica_set(rs: &ReplicaSet) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&rs.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_replica_set_spec(&rs.spec, "spec"));
    errs
}

/// `ValidateReplicaSetUpdate`: metadata update rules and a valid spec.
pub fn validate_replica_set_update(new: &ReplicaSet, old: &ReplicaSet) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_replica_set_spec(&new.spec, "spec"));
    errs
}

/// A selector with empty `matchLabels` / `matchExpressions` dropped, for semantic equality:
/// `apiequality.Semantic.DeepEqual` (behind `ValidateImmutableField` and the declarative
/// `+k8s:immutable`) holds an empty and a nil map or slice equal.
pub(crate) fn normalized(sel: &Option<LabelSelector>) -> Option<LabelSelector> {
    sel.as_ref().map(|s| LabelSelector {
        match_labels: s.match_labels.clone().filter(|m| !m.is_empty()),
        match_expressions: s.match_expressions.clone().filter(|m| !m.is_empty()),
    })
}

/// The ReplicaSet REST strategy's `ValidateUpdate` (apps/v1): `ValidateReplicaSet`, then
/// `ValidateReplicaSetUpdate`, then `spec.selector` immutability.
/// `rsStrategy.ValidateUpdate`: the checks below, then `AllowIndivisibleHugePagesValues` from the stored object
/// ([`crate::api::validation::pod::ratchet_indivisible_huge_pages`]).
pub fn validate_replica_set_strategy_update(new: &ReplicaSet, old: &ReplicaSet) -> Vec<FieldError> {
    let mut errs = validate_replica_set_strategy_update_before_ratchet(new, old);
    crate::api::validation::pod::ratchet_indivisible_huge_pages(&mut errs, &old.spec.template.spec);
    errs
}

fn validate_replica_set_strategy_update_before_ratchet(
    new: &ReplicaSet,
    old: &ReplicaSet,
) -> Vec<FieldError> {
    let mut errs = validate_replica_set(new);
    errs.extend(validate_replica_set_update(new, old));
    if normalized(&new.spec.selector) != normalized(&old.spec.selector) {
        let err = match &new.spec.selector {
            Some(sel) => invalid_selector("spec.selector", sel, FIELD_IMMUTABLE),
            None => FieldError::invalid("spec.selector", Value::Null, FIELD_IMMUTABLE),
        };
        errs.push(err);
    }
    errs
}

/// `ValidateReplicationControllerSpec`.
pub fn validate_replication_controller_spec(
    spec: &ReplicationControllerSpec,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = validate_nonnegative_field(
        i64::from(spec.min_ready_seconds),
        &child(path, "minReadySeconds"),
    );
    if spec.selector.is_empty() {
        errs.push(FieldError::required(child(path, "selector"), ""));
    }
    // The internal type's `replicas` is a pointer (1.33): unset is Required. Defaulting sets it
    // to 1 before the API server validates, so only a direct call can see it unset.
    match spec.replicas {
        None => errs.push(FieldError::required(child(path, "replicas"), "")),
        Some(r) => errs.extend(validate_nonnegative_field(
            i64::from(r),
            &child(path, "replicas"),
        )),
    }
    match &spec.template {
        None => errs.push(FieldError::required(child(path, "template"), "")),
        Some(t) => errs.extend(validate_template_for_controller(
            t,
            &Selector::from_map(&spec.selector),
            &child(path, "template"),
            "ReplicationController",
        )),
    }
    errs
}

/// `ValidateReplicationController`.
pub fn validate_replication_controller(rc: &ReplicationController) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&rc.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_replication_controller_spec(&rc.spec, "spec"));
    errs
}

/// `ValidateReplicationControllerUpdate`.
pub fn validate_replication_controller_update(
    new: &ReplicationController,
    old: &ReplicationController,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_replication_controller_spec(&new.spec, "spec"));
    errs
}

/// The ReplicationController REST strategy's `ValidateUpdate`.
pub fn validate_replication_controller_strategy_update(
    new: &ReplicationController,
    old: &ReplicationController,
) -> Vec<FieldError> {
    let mut errs = validate_replication_controller(new);
    errs.extend(validate_replication_controller_update(new, old));
    // AllowIndivisibleHugePagesValues from the stored template.
    if let Some(t) = &old.spec.template {
        super::pod::ratchet_indivisible_huge_pages(&mut errs, &t.spec);
    }
    errs
}

#[cfg(test)]
mod upstream_tests2;

#[cfg(test)]
mod rs_declarative_tests;

#[cfg(test)]
mod rc_declarative_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::core::{Container, PodSpec};
    use crate::api::meta::{Labels, ObjectMeta};

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// `podtest.MakePodSpec()` after defaulting: one container `ctr` running `image`.
    fn pod_spec() -> PodSpec {
        let mut s = PodSpec {
            containers: vec![Container {
                name: "ctr".into(),
                image: "image".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        crate::api::defaults::default_pod_spec(&mut s);
        s
    }

    fn template(l: &[(&str, &str)]) -> PodTemplateSpec {
        PodTemplateSpec {
            metadata: ObjectMeta {
                labels: labels(l).into(),
                ..Default::default()
            },
            spec: std::sync::Arc::new(pod_spec()),
        }
    }

    fn rs(
        name: &str,
        ns: &str,
        replicas: i32,
        sel: Option<Labels>,
        t: PodTemplateSpec,
    ) -> ReplicaSet {
        ReplicaSet {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: ns.into(),
                resource_version: "1".into(),
                ..Default::default()
            },
            spec: (ReplicaSetSpec {
                replicas: Some(replicas),
                min_ready_seconds: 0,
                selector: sel.map(|l| LabelSelector::from_labels(&l)),
                template: std::sync::Arc::new(t),
            })
            .into(),
            ..Default::default()
        }
    }

    fn strs(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    const INVALID_KEY: &str = "NoUppercaseOrSpecialCharsLike=Equals";
    const KEY_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    // Port of TestValidateReplicaSet (pkg/apis/apps/validation/validation_test.go).
    #[test]
    fn replica_set_rows() {
        let valid = || Some(labels(&[("a", "b")]));
        for r in [
            rs("abc", "default", 0, valid(), template(&[("a", "b")])),
            rs("abc-123", "default", 1, valid(), template(&[("a", "b")])),
        ] {
            assert!(
                validate_replica_set(&r).is_empty(),
                "{:?}",
                strs(&validate_replica_set(&r))
            );
        }
        let mut on_failure = template(&[("a", "b")]);
        on_failure.spec_mut().restart_policy = "OnFailure".into();
        let mut never = template(&[("a", "b")]);
        never.spec_mut().restart_policy = "Never".into();
        let mut no_containers = template(&[("a", "b")]);
        no_containers.spec_mut().containers.clear();
        let mut invalid_label = rs("abc-123", "default", 0, valid(), template(&[("a", "b")]));
        invalid_label.metadata.labels = labels(&[(INVALID_KEY, "bar")]).into();
        let mut invalid_annotation = rs("abc-123", "default", 0, valid(), template(&[("a", "b")]));
        invalid_annotation.metadata.annotations = labels(&[(INVALID_KEY, "bar")]).into();
        let cases: Vec<(&str, ReplicaSet, Vec<String>)> = vec![
            (
                "zero-length ID",
                rs("", "default", 0, valid(), template(&[("a", "b")])),
                vec!["metadata.name: Required value: name or generateName is required".into()],
            ),
            (
                "missing-namespace",
                rs("abc-123", "", 0, valid(), template(&[("a", "b")])),
                vec!["metadata.namespace: Required value".into()],
            ),
            (
                "empty selector",
                rs("abc", "default", 0, None, template(&[("a", "b")])),
                vec![
                    "spec.selector: Required value".into(),
                    "spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`".into(),
                ],
            ),
            (
                "selector_doesnt_match",
                rs("abc", "default", 0, Some(labels(&[("foo", "bar")])), template(&[("a", "b")])),
                vec!["spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`".into()],
            ),
            (
                "invalid manifest",
                rs("abc", "default", 0, valid(), no_containers),
                vec!["spec.template.spec.containers: Required value".into()],
            ),
            (
                "negative_replicas",
                rs("abc", "default", -1, valid(), template(&[("a", "b")])),
                vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0".into()],
            ),
            (
                "invalid_label",
                invalid_label,
                vec![format!("metadata.labels: Invalid value: \"{INVALID_KEY}\": {KEY_MSG}")],
            ),
            (
                "invalid_annotation",
                invalid_annotation,
                vec![format!("metadata.annotations: Invalid value: \"{INVALID_KEY}\": {}", KEY_MSG)],
            ),
            (
                "invalid restart policy 1",
                rs("abc-123", "default", 0, valid(), on_failure),
                vec!["spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"".into()],
            ),
            (
                "invalid restart policy 2",
                rs("abc-123", "default", 0, valid(), never),
                vec!["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"".into()],
            ),
        ];
        for (name, r, want) in cases {
            assert_eq!(strs(&validate_replica_set(&r)), want, "{name}");
        }
        // "invalid_label 2": invalid metadata and template labels, no selector.
        let mut r = rs(
            "abc-123",
            "default",
            0,
            None,
            template(&[(INVALID_KEY, "b")]),
        );
        r.metadata.labels = labels(&[(INVALID_KEY, "bar")]).into();
        assert_eq!(
            strs(&validate_replica_set(&r)),
            vec![
                format!("metadata.labels: Invalid value: \"{INVALID_KEY}\": {KEY_MSG}"),
                "spec.selector: Required value".into(),
                format!("spec.template.metadata.labels: Invalid value: {{\"{INVALID_KEY}\":\"b\"}}: `selector` does not match template `labels`"),
                format!("spec.template.labels: Invalid value: \"{INVALID_KEY}\": {KEY_MSG}"),
            ]
        );
    }

    #[test]
    fn replica_set_selector_rules() {
        let r = rs(
            "abc",
            "default",
            1,
            Some(Labels::new()),
            template(&[("a", "b")]),
        );
        assert_eq!(
            strs(&validate_replica_set(&r)),
            vec!["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
        );
        let mut r = rs(
            "abc",
            "default",
            1,
            Some(labels(&[("a", "b")])),
            template(&[("a", "b")]),
        );
        r.spec.min_ready_seconds = -5;
        r.spec.template_mut().spec_mut().active_deadline_seconds = Some(10);
        assert_eq!(
            strs(&validate_replica_set(&r)),
            vec![
                "spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0",
                "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported",
            ]
        );
        let r = rs(
            "abc",
            "default",
            1,
            Some(labels(&[("a", "b")])),
            template(&[]),
        );
        assert_eq!(
            strs(&validate_replica_set(&r)),
            vec!["spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`"]
        );
    }

    // Port of TestValidateReplicaSetUpdate.
    #[test]
    fn replica_set_update_rows() {
        let valid = || Some(labels(&[("a", "b")]));
        let old = rs("abc", "default", 0, valid(), template(&[("a", "b")]));
        let new = rs("abc", "default", 3, valid(), template(&[("a", "b")]));
        assert!(validate_replica_set_update(&new, &old).is_empty());

        // "invalid selector": old has an empty name, the new selector key is invalid.
        let old_unnamed = rs("", "default", 0, valid(), template(&[("a", "b")]));
        let new = rs(
            "abc",
            "default",
            2,
            Some(labels(&[(INVALID_KEY, "b")])),
            template(&[("a", "b")]),
        );
        let errs = validate_replica_set_update(&new, &old_unnamed);
        assert_eq!(
            strs(&errs),
            vec![
                "metadata.name: Invalid value: \"abc\": field is immutable".to_string(),
                format!("spec.selector.matchLabels: Invalid value: \"{INVALID_KEY}\": {KEY_MSG}"),
                format!("spec.selector: Invalid value: {{\"matchLabels\":{{\"{INVALID_KEY}\":\"b\"}}}}: invalid label selector"),
            ]
        );
        // "invalid pod": template labels invalid and no containers: 4 errors.
        let mut bad = template(&[(INVALID_KEY, "b")]);
        bad.spec_mut().containers.clear();
        let new = rs("abc", "default", 2, valid(), bad);
        assert_eq!(validate_replica_set_update(&new, &old_unnamed).len(), 4);
        // "negative replicas".
        let new = rs("abc", "default", -1, valid(), template(&[("a", "b")]));
        assert_eq!(
            strs(&validate_replica_set_update(&new, &old)),
            vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]
        );
    }

    #[test]
    fn replica_set_selector_is_immutable() {
        let old = rs(
            "abc",
            "default",
            1,
            Some(labels(&[("a", "b")])),
            template(&[("a", "b"), ("c", "d")]),
        );
        let new = rs(
            "abc",
            "default",
            1,
            Some(labels(&[("a", "b"), ("c", "d")])),
            template(&[("a", "b"), ("c", "d")]),
        );
        assert_eq!(
            strs(&validate_replica_set_strategy_update(&new, &old)),
            vec!["spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\",\"c\":\"d\"}}: field is immutable"]
        );
        // An equivalent selector (empty expressions list vs none) is not a change.
        let mut same = old.clone();
        same.spec.selector.as_mut().unwrap().match_expressions = Some(vec![]);
        assert!(validate_replica_set_strategy_update(&same, &old).is_empty());
    }

    fn rc(
        name: &str,
        replicas: i32,
        sel: Labels,
        t: Option<PodTemplateSpec>,
    ) -> ReplicationController {
        ReplicationController {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: "default".into(),
                resource_version: "1".into(),
                ..Default::default()
            },
            spec: ReplicationControllerSpec {
                replicas: Some(replicas),
                min_ready_seconds: 0,
                selector: sel,
                template: t,
            },
            ..Default::default()
        }
    }

    // Port of TestValidateReplicationController (pkg/apis/core/validation/validation_test.go).
    #[test]
    fn replication_controller_rows() {
        let valid = || labels(&[("a", "b")]);
        assert!(validate_replication_controller(&rc(
            "abc",
            1,
            valid(),
            Some(template(&[("a", "b")]))
        ))
        .is_empty());
        let mut on_failure = template(&[("a", "b")]);
        on_failure.spec_mut().restart_policy = "OnFailure".into();
        let mut deadline = template(&[("a", "b")]);
        deadline.spec_mut().active_deadline_seconds = Some(5);
        let cases: Vec<(&str, ReplicationController, Vec<&str>)> = vec![
            (
                "zero-length ID",
                rc("", 1, valid(), Some(template(&[("a", "b")]))),
                vec!["metadata.name: Required value: name or generateName is required"],
            ),
            (
                "empty selector",
                rc("abc", 1, Labels::new(), Some(template(&[("a", "b")]))),
                vec!["spec.selector: Required value"],
            ),
            (
                "selector_doesnt_match",
                rc("abc", 1, labels(&[("foo", "bar")]), Some(template(&[("a", "b")]))),
                vec!["spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`"],
            ),
            (
                "invalid manifest",
                rc("abc", 1, valid(), None),
                vec!["spec.template: Required value"],
            ),
            (
                "negative_replicas",
                rc("abc", -1, valid(), Some(template(&[("a", "b")]))),
                vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                "invalid restart policy",
                rc("abc", 1, valid(), Some(on_failure)),
                vec!["spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""],
            ),
            (
                "activeDeadlineSeconds",
                rc("abc", 1, valid(), Some(deadline)),
                vec!["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported"],
            ),
        ];
        for (name, r, want) in cases {
            assert_eq!(strs(&validate_replication_controller(&r)), want, "{name}");
        }
    }

    // Port of TestValidateReplicationControllerUpdate.
    #[test]
    fn replication_controller_update_rows() {
        let valid = || labels(&[("a", "b")]);
        let old = rc("abc", 1, valid(), Some(template(&[("a", "b")])));
        let new = rc("abc", 3, valid(), Some(template(&[("a", "b")])));
        assert!(validate_replication_controller_strategy_update(&new, &old).is_empty());
        // RC selectors stay mutable (unlike apps/v1 ReplicaSets).
        let new = rc(
            "abc",
            3,
            labels(&[("a", "b")]),
            Some(template(&[("a", "b"), ("c", "d")])),
        );
        assert!(validate_replication_controller_strategy_update(&new, &old).is_empty());
        let new = rc("abc", -1, valid(), Some(template(&[("a", "b")])));
        assert_eq!(
            strs(&validate_replication_controller_update(&new, &old)),
            vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]
        );
        let mut bad = template(&[(INVALID_KEY, "b")]);
        bad.spec_mut().containers.clear();
        let new = rc("abc", 2, valid(), Some(bad));
        assert_eq!(
            strs(&validate_replication_controller_update(&new, &old)),
            vec![
                format!("spec.template.metadata.labels: Invalid value: {{\"{INVALID_KEY}\":\"b\"}}: `selector` does not match template `labels`"),
                format!("spec.template.labels: Invalid value: \"{INVALID_KEY}\": {KEY_MSG}"),
                "spec.template.spec.containers: Required value".to_string(),
            ]
        );
    }
}
