//! StatefulSet, DaemonSet and ControllerRevision validation (`pkg/apis/apps/validation/validation.go`
//! and the REST strategies' update rules), plus the PersistentVolumeClaim and Service rules
//! kubeplay needs (`pkg/apis/core/validation`), in Kubernetes' wording.

use super::apps_more::{
    ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetUpdateStrategy, RollingUpdateDaemonSet,
    RollingUpdateStatefulSetStrategy, StatefulSet, StatefulSetSpec, DELETE_PVC_RETENTION,
    ON_DELETE_STRATEGY, ORDERED_READY_POD_MANAGEMENT, PARALLEL_POD_MANAGEMENT,
    RETAIN_PVC_RETENTION, ROLLING_UPDATE_STRATEGY,
};
use super::core_more::{PersistentVolumeClaim, Service};
use super::deployment_validation::{
    get_int_or_percent_value, is_not_more_than_100_percent, validate_positive_int_or_percent,
};
use super::errors::{go_json, FieldError};
use super::intstr::IntOrString;
use super::meta::LabelSelector;
use super::validation::meta::{
    invalid_selector, label_selector_as_selector, validate_annotations, validate_label_selector,
    validate_labels, validate_nonnegative_field, validate_object_meta, validate_object_meta_update,
    FIELD_IMMUTABLE,
};
use super::validation::names::{
    is_dns1035_label, is_dns1123_label, is_dns1123_subdomain, is_qualified_name,
    is_valid_port_name, is_valid_port_num, name_is_dns_label, name_is_dns_subdomain,
};
use super::validation::pod::{
    pod_spec_diff, validate_pod_specific_annotations, validate_pod_template_spec,
    PodValidationOptions,
};
use super::validation::quantity::parse_quantity;
use serde_json::Value;

/// `ValidateServiceName` (`NameIsDNS1035Label`), with upstream's trailing-dash masking for
/// `generateName`.
pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix && name.len() > 1 && name.ends_with('-') {
        if let Some(head) = name.get(..name.len() - 2) {
            return is_dns1035_label(&format!("{head}a"));
        }
    }
    is_dns1035_label(name)
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The template labels as Go prints the map: `null` when absent, else sorted JSON.
fn template_labels_error(path: &str, labels: &super::meta::Labels) -> FieldError {
    if labels.is_empty() {
        FieldError::invalid(
            path,
            Value::Null,
            "`selector` does not match template `labels`",
        )
        .with_value_text("null")
    } else {
        let v = to_value(labels);
        let text = go_json(&v);
        FieldError::invalid(path, v, "`selector` does not match template `labels`")
            .with_value_text(text)
    }
}

// ---------------------------------------------------------------------------------------------
// StatefulSet
// ---------------------------------------------------------------------------------------------

/// `ValidateStatefulSetName`: a DNS label (the pods are named `<set>-<ordinal>`).
pub fn validate_stateful_set_name(name: &str, prefix: bool) -> Vec<String> {
    name_is_dns_label(name, prefix)
}

/// `ValidatePodTemplateSpecForStatefulSet`: the selector matches the template labels; template
/// labels, annotations and pod-specific annotations are valid. The pod spec itself is *not*
/// validated here, as upstream (its volume mounts may name claim templates, which the controller
/// only adds to each pod): a bad container spec surfaces as `FailedCreate` events.
pub fn validate_pod_template_spec_for_stateful_set(
    spec: &StatefulSetSpec,
    selector: &super::meta::Selector,
    path: &str,
) -> Vec<FieldError> {
    let t = &spec.template;
    let mut errs = vec![];
    if !selector.is_empty() && !selector.matches(&t.metadata.labels) {
        errs.push(template_labels_error(
            &format!("{path}.metadata.labels"),
            &t.metadata.labels,
        ));
    }
    errs.extend(validate_labels(
        &t.metadata.labels,
        &format!("{path}.labels"),
    ));
    errs.extend(validate_annotations(
        &t.metadata.annotations,
        &format!("{path}.annotations"),
    ));
    errs.extend(validate_pod_specific_annotations(
        &t.metadata.annotations,
        &t.spec,
        &format!("{path}.annotations"),
        PodValidationOptions::default(),
    ));
    errs
}

/// `ValidatePersistentVolumeClaimRetentionPolicyType`.
fn validate_retention_policy_type(policy: &str, path: &str) -> Vec<FieldError> {
    match policy {
        RETAIN_PVC_RETENTION | DELETE_PVC_RETENTION => vec![],
        _ => vec![FieldError::not_supported(
            path,
            policy,
            &[RETAIN_PVC_RETENTION, DELETE_PVC_RETENTION],
        )],
    }
}

/// `validateRollingUpdateStatefulSet`: partition ≥ 0; maxUnavailable a positive int or percent,
/// not 0, at most 100%.
pub fn validate_rolling_update_stateful_set(
    ru: &RollingUpdateStatefulSetStrategy,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = validate_nonnegative_field(
        i64::from(ru.partition.unwrap_or(0)),
        &format!("{path}.partition"),
    );
    if let Some(mu) = &ru.max_unavailable {
        let p = format!("{path}.maxUnavailable");
        errs.extend(validate_positive_int_or_percent(mu, &p));
        if get_int_or_percent_value(mu) == 0 {
            errs.push(FieldError::invalid(p.clone(), mu.clone(), "cannot be 0"));
        }
        errs.extend(is_not_more_than_100_percent(mu, &p));
    }
    errs
}

/// `ValidateStatefulSetSpec` (`spec.*` paths).
pub fn validate_stateful_set_spec(spec: &StatefulSetSpec) -> Vec<FieldError> {
    let mut errs = vec![];
    match spec.pod_management_policy.as_str() {
        "" => errs.push(FieldError::required("spec.podManagementPolicy", "")),
        ORDERED_READY_POD_MANAGEMENT | PARALLEL_POD_MANAGEMENT => {}
        other => errs.push(FieldError::invalid(
            "spec.podManagementPolicy",
            other,
            format!("must be '{ORDERED_READY_POD_MANAGEMENT}' or '{PARALLEL_POD_MANAGEMENT}'"),
        )),
    }
    let us = &spec.update_strategy;
    match us.type_.as_str() {
        "" => errs.push(FieldError::required("spec.updateStrategy", "")),
        ON_DELETE_STRATEGY => {
            if let Some(ru) = &us.rolling_update {
                errs.push(FieldError::invalid(
                    "spec.updateStrategy.rollingUpdate",
                    to_value(ru),
                    format!("only allowed for updateStrategy '{ROLLING_UPDATE_STRATEGY}'"),
                ));
            }
        }
        ROLLING_UPDATE_STRATEGY => {
            if let Some(ru) = &us.rolling_update {
                errs.extend(validate_rolling_update_stateful_set(
                    ru,
                    "spec.updateStrategy.rollingUpdate",
                ));
            }
        }
        _ => errs.push(FieldError::invalid(
            "spec.updateStrategy",
            to_value(us),
            format!("must be '{ROLLING_UPDATE_STRATEGY}' or '{ON_DELETE_STRATEGY}'"),
        )),
    }
    if let Some(p) = &spec.persistent_volume_claim_retention_policy {
        errs.extend(validate_retention_policy_type(
            &p.when_deleted,
            "spec.persistentVolumeClaimRetentionPolicy.whenDeleted",
        ));
        errs.extend(validate_retention_policy_type(
            &p.when_scaled,
            "spec.persistentVolumeClaimRetentionPolicy.whenScaled",
        ));
    }
    errs.extend(validate_nonnegative_field(
        i64::from(spec.replicas.unwrap_or(1)),
        "spec.replicas",
    ));
    errs.extend(validate_nonnegative_field(
        i64::from(spec.min_ready_seconds),
        "spec.minReadySeconds",
    ));
    if let Some(o) = &spec.ordinals {
        errs.extend(validate_nonnegative_field(
            i64::from(o.start),
            "spec.ordinals.start",
        ));
    }
    match &spec.selector {
        None => errs.push(FieldError::required("spec.selector", "")),
        Some(sel) => {
            errs.extend(validate_label_selector(sel, "spec.selector"));
            if sel.is_empty() {
                errs.push(invalid_selector(
                    "spec.selector",
                    sel,
                    "empty selector is invalid for statefulset",
                ));
            }
        }
    }
    match label_selector_as_selector(spec.selector.as_ref()) {
        Err(_) => errs.push(invalid_selector(
            "spec.selector",
            spec.selector.as_ref().unwrap_or(&LabelSelector::default()),
            "",
        )),
        Ok(selector) => errs.extend(validate_pod_template_spec_for_stateful_set(
            spec,
            &selector,
            "spec.template",
        )),
    }
    if spec.template.spec.restart_policy != "Always" {
        errs.push(FieldError::not_supported(
            "spec.template.spec.restartPolicy",
            spec.template.spec.restart_policy.as_str(),
            &["Always"],
        ));
    }
    if spec.template.spec.active_deadline_seconds.is_some() {
        errs.push(FieldError::forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            "activeDeadlineSeconds in StatefulSet is not Supported",
        ));
    }
    errs
}

/// `ValidateStatefulSet`: object meta (the name must be a DNS label) and spec.
pub fn validate_stateful_set(s: &StatefulSet) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&s.metadata, true, validate_stateful_set_name, "metadata");
    errs.extend(validate_stateful_set_spec(&s.spec));
    errs
}

/// The message of the one forbidden-update error of a StatefulSet spec.
pub const STATEFULSET_FORBIDDEN_UPDATE: &str = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/// `ValidateStatefulSetUpdate`: metadata update rules, a valid spec (the name is not
/// re-validated), and only `replicas`, `ordinals`, `template`, `updateStrategy`,
/// `persistentVolumeClaimRetentionPolicy` and `minReadySeconds` may change.
/// `statefulSetStrategy.ValidateUpdate`: the checks below, then `AllowIndivisibleHugePagesValues` from the stored object
/// ([`crate::api::validation::pod::ratchet_indivisible_huge_pages`]).
pub fn validate_stateful_set_update(new: &StatefulSet, old: &StatefulSet) -> Vec<FieldError> {
    let mut errs = validate_stateful_set_update_before_ratchet(new, old);
    crate::api::validation::pod::ratchet_indivisible_huge_pages(&mut errs, &old.spec.template.spec);
    errs
}

fn validate_stateful_set_update_before_ratchet(
    new: &StatefulSet,
    old: &StatefulSet,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_stateful_set_spec(&new.spec));
    let mut clone = new.spec.clone();
    clone.replicas = old.spec.replicas;
    clone.template = old.spec.template.clone();
    clone.update_strategy = old.spec.update_strategy.clone();
    clone.min_ready_seconds = old.spec.min_ready_seconds;
    clone.ordinals = old.spec.ordinals.clone();
    clone.persistent_volume_claim_retention_policy =
        old.spec.persistent_volume_claim_retention_policy.clone();
    // Semantic.DeepEqual: an empty and an absent matchLabels/matchExpressions are equal.
    clone.selector = super::validation::workloads::normalized(&clone.selector);
    let mut old_spec = old.spec.clone();
    old_spec.selector = super::validation::workloads::normalized(&old_spec.selector);
    if clone != old_spec {
        errs.push(FieldError::forbidden("spec", STATEFULSET_FORBIDDEN_UPDATE));
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// DaemonSet
// ---------------------------------------------------------------------------------------------

/// `ValidateRollingUpdateDaemonSet`: both values positive ints or percents, at most 100%, and
/// exactly one of them non-zero.
pub fn validate_rolling_update_daemon_set(
    ru: &RollingUpdateDaemonSet,
    path: &str,
) -> Vec<FieldError> {
    let zero = IntOrString::Int(0);
    let mu = ru.max_unavailable.as_ref().unwrap_or(&zero);
    let ms = ru.max_surge.as_ref().unwrap_or(&zero);
    let mu_path = format!("{path}.maxUnavailable");
    let ms_path = format!("{path}.maxSurge");
    let mut errs = validate_positive_int_or_percent(mu, &mu_path);
    errs.extend(validate_positive_int_or_percent(ms, &ms_path));
    errs.extend(is_not_more_than_100_percent(mu, &mu_path));
    errs.extend(is_not_more_than_100_percent(ms, &ms_path));
    let has_unavailable = get_int_or_percent_value(mu) != 0;
    let has_surge = get_int_or_percent_value(ms) != 0;
    match (has_unavailable, has_surge) {
        (true, true) => errs.push(FieldError::invalid(
            ms_path,
            ms.clone(),
            "may not be set when maxUnavailable is non-zero",
        )),
        (false, false) => errs.push(FieldError::required(
            mu_path,
            "cannot be 0 when maxSurge is 0",
        )),
        _ => {}
    }
    errs
}

/// `ValidateDaemonSetUpdateStrategy`.
pub fn validate_daemon_set_update_strategy(
    s: &DaemonSetUpdateStrategy,
    path: &str,
) -> Vec<FieldError> {
    match s.type_.as_str() {
        ON_DELETE_STRATEGY => vec![],
        ROLLING_UPDATE_STRATEGY => match &s.rolling_update {
            None => vec![FieldError::required(format!("{path}.rollingUpdate"), "")],
            Some(ru) => validate_rolling_update_daemon_set(ru, &format!("{path}.rollingUpdate")),
        },
        _ => vec![FieldError::not_supported(
            path,
            to_value(s),
            &[ROLLING_UPDATE_STRATEGY, ON_DELETE_STRATEGY],
        )],
    }
}

/// `ValidateDaemonSetSpec` (`spec.*` paths) of a spec whose template generation is 0 (see
/// [`validate_daemon_set_spec_with_generation`]).
pub fn validate_daemon_set_spec(spec: &DaemonSetSpec) -> Vec<FieldError> {
    validate_daemon_set_spec_with_generation(spec, 0)
}

/// `ValidateDaemonSetSpec` (`spec.*` paths), with the internal `spec.templateGeneration` (apps/v1
/// keeps it in the `deprecated.daemonset.template.generation` annotation), which must not be
/// negative.
pub fn validate_daemon_set_spec_with_generation(
    spec: &DaemonSetSpec,
    template_generation: i64,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if let Some(sel) = &spec.selector {
        errs.extend(validate_label_selector(sel, "spec.selector"));
    }
    // A nil selector selects nothing, so it never matches the template labels.
    if let Ok(selector) = label_selector_as_selector(spec.selector.as_ref()) {
        if !selector.matches(&spec.template.metadata.labels) {
            errs.push(template_labels_error(
                "spec.template.metadata.labels",
                &spec.template.metadata.labels,
            ));
        }
    }
    if let Some(sel) = &spec.selector {
        if sel.is_empty() {
            errs.push(invalid_selector(
                "spec.selector",
                sel,
                "empty selector is invalid for daemonset",
            ));
        }
    }
    errs.extend(validate_pod_template_spec(
        &spec.template,
        "spec.template",
        PodValidationOptions::default(),
    ));
    if spec.template.spec.restart_policy != "Always" {
        errs.push(FieldError::not_supported(
            "spec.template.spec.restartPolicy",
            spec.template.spec.restart_policy.as_str(),
            &["Always"],
        ));
    }
    if spec.template.spec.active_deadline_seconds.is_some() {
        errs.push(FieldError::forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            "activeDeadlineSeconds in DaemonSet is not Supported",
        ));
    }
    errs.extend(validate_nonnegative_field(
        i64::from(spec.min_ready_seconds),
        "spec.minReadySeconds",
    ));
    errs.extend(validate_nonnegative_field(
        template_generation,
        "spec.templateGeneration",
    ));
    errs.extend(validate_daemon_set_update_strategy(
        &spec.update_strategy,
        "spec.updateStrategy",
    ));
    if let Some(r) = spec.revision_history_limit {
        errs.extend(validate_nonnegative_field(
            i64::from(r),
            "spec.revisionHistoryLimit",
        ));
    }
    errs
}

/// `ValidateDaemonSet`: object meta (a DNS subdomain name) and spec.
pub fn validate_daemon_set(ds: &DaemonSet) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&ds.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_daemon_set_spec_with_generation(
        &ds.spec,
        crate::api::sts_ds_defaults::template_generation(ds),
    ));
    errs
}

/// `ValidateDaemonSetSpecUpdate`: the template generation (apps/v1 keeps it in the
/// `deprecated.daemonset.template.generation` annotation, the internal `spec.templateGeneration`)
/// is never decremented, and goes up exactly when the pod template changes.
pub fn validate_daemon_set_spec_update(new: &DaemonSet, old: &DaemonSet) -> Vec<FieldError> {
    let mut errs = vec![];
    let (ng, og) = (
        crate::api::sts_ds_defaults::template_generation(new),
        crate::api::sts_ds_defaults::template_generation(old),
    );
    if ng < og {
        errs.push(FieldError::invalid(
            "spec.templateGeneration",
            ng,
            "must not be decremented",
        ));
    }
    let template_updated = !crate::api::sts_ds_defaults::pod_templates_semantically_equal(
        &new.spec.template,
        &old.spec.template,
    );
    if ng == og && template_updated {
        errs.push(FieldError::invalid(
            "spec.templateGeneration",
            ng,
            "must be incremented upon template update",
        ));
    } else if ng > og && !template_updated {
        errs.push(FieldError::invalid(
            "spec.templateGeneration",
            ng,
            "must not be incremented without template update",
        ));
    }
    errs
}

/// `ValidateDaemonSetUpdate` (pkg/apis/apps/validation/validation.go): the metadata update rules,
/// [`validate_daemon_set_spec_update`] and the new spec.
pub fn validate_daemon_set_update(new: &DaemonSet, old: &DaemonSet) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_daemon_set_spec_update(new, old));
    errs.extend(validate_daemon_set_spec_with_generation(
        &new.spec,
        crate::api::sts_ds_defaults::template_generation(new),
    ));
    errs
}

/// `daemonSetStrategy.ValidateUpdate` for apps/v1 (pkg/registry/apps/daemonset/strategy.go):
/// `ValidateDaemonSet`, [`validate_daemon_set_update`] (so spec errors appear twice, as
/// upstream's) and the immutable selector. The template generation is the server's own, kept
/// consistent by [`crate::api::sts_ds_defaults::prepare_for_update`].
/// `daemonSetStrategy.ValidateUpdate`: the checks below, then `AllowIndivisibleHugePagesValues` from the stored object
/// ([`crate::api::validation::pod::ratchet_indivisible_huge_pages`]).
pub fn validate_daemon_set_strategy_update(new: &DaemonSet, old: &DaemonSet) -> Vec<FieldError> {
    let mut errs = validate_daemon_set_strategy_update_before_ratchet(new, old);
    crate::api::validation::pod::ratchet_indivisible_huge_pages(&mut errs, &old.spec.template.spec);
    errs
}

fn validate_daemon_set_strategy_update_before_ratchet(
    new: &DaemonSet,
    old: &DaemonSet,
) -> Vec<FieldError> {
    let mut errs = validate_daemon_set(new);
    errs.extend(validate_daemon_set_update(new, old));
    use super::validation::workloads::normalized;
    if normalized(&new.spec.selector) != normalized(&old.spec.selector) {
        errs.push(match &new.spec.selector {
            Some(sel) => invalid_selector("spec.selector", sel, FIELD_IMMUTABLE),
            None => FieldError::invalid("spec.selector", Value::Null, FIELD_IMMUTABLE),
        });
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// ControllerRevision
// ---------------------------------------------------------------------------------------------

/// `ValidateControllerRevision`: object meta (a DNS subdomain name), data present, revision ≥ 0.
pub fn validate_controller_revision(r: &ControllerRevision) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&r.metadata, true, name_is_dns_subdomain, "metadata");
    if r.data.is_none() {
        errs.push(FieldError::required("data", "data is mandatory"));
    }
    errs.extend(validate_nonnegative_field(r.revision, "revision"));
    errs
}

/// `ValidateControllerRevisionCreate`: [`validate_controller_revision`], and the data must be a
/// JSON object (TestValidateControllerRevision's "json bool/int/float/null/array/string" rows are
/// invalid, "json object" valid). The update path keeps the older rules (data present and
/// immutable), so a stored revision is never rejected by the object check. The wording of the
/// object error is kubeplay's; upstream's test checks only validity.
pub fn validate_controller_revision_create(r: &ControllerRevision) -> Vec<FieldError> {
    let mut errs = validate_controller_revision(r);
    if let Some(d) = &r.data {
        if !d.is_object() {
            errs.push(FieldError::invalid(
                "data",
                d.clone(),
                "data must be a valid JSON object",
            ));
        }
    }
    errs
}

/// `ValidateControllerRevisionUpdate`: data is immutable.
pub fn validate_controller_revision_update(
    new: &ControllerRevision,
    old: &ControllerRevision,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_controller_revision(new));
    if new.data != old.data {
        errs.push(FieldError::invalid(
            "data",
            new.data.clone().unwrap_or(Value::Null),
            FIELD_IMMUTABLE,
        ));
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// PersistentVolumeClaim
// ---------------------------------------------------------------------------------------------

const ACCESS_MODES: &[&str] = &[
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];

/// `ValidatePersistentVolumeClaimSpec` (the parts kubeplay models): at least one supported
/// access mode (`ReadWriteOncePod` alone), a valid selector, a positive storage request, a
/// DNS-subdomain storage class, a supported volume mode.
pub fn validate_persistent_volume_claim_spec(
    spec: &super::core_more::PersistentVolumeClaimSpec,
    path: &str,
) -> Vec<FieldError> {
    validate_persistent_volume_claim_spec_opts(spec, path, false)
}

/// `allowInvalidAPIGroupInDataSourceOrRef` (`ValidationOptionsForPersistentVolumeClaim`): the
/// old claim's dataSource or dataSourceRef already had an apiGroup that is not a DNS subdomain,
/// so an update may keep it.
pub fn allow_invalid_api_group_in_data_source_or_ref(
    spec: &super::core_more::PersistentVolumeClaimSpec,
) -> bool {
    ["dataSource", "dataSourceRef"].iter().any(|k| {
        spec.extra
            .get(*k)
            .and_then(|v| v.get("apiGroup"))
            .and_then(Value::as_str)
            .is_some_and(|g| !is_dns1123_subdomain(g).is_empty())
    })
}

/// `ValidatePersistentVolumeClaimSpec` with `AllowInvalidAPIGroupInDataSourceOrRef`.
pub fn validate_persistent_volume_claim_spec_opts(
    spec: &super::core_more::PersistentVolumeClaimSpec,
    path: &str,
    allow_invalid_api_group: bool,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if spec.access_modes.is_empty() {
        errs.push(FieldError::required(
            format!("{path}.accessModes"),
            "at least 1 access mode is required",
        ));
    }
    // `selector` is kept verbatim; one that does not decode is rejected by the API server
    // before validation runs.
    if let Some(sel) = spec
        .extra
        .get("selector")
        .filter(|v| !v.is_null())
        .and_then(|v| crate::api::value_de::from_value::<LabelSelector>(v.clone()).ok())
    {
        errs.extend(validate_label_selector(&sel, &format!("{path}.selector")));
    }
    let (mut rwop, mut other) = (false, false);
    for m in &spec.access_modes {
        if !ACCESS_MODES.contains(&m.as_str()) {
            errs.push(FieldError::not_supported(
                format!("{path}.accessModes"),
                m.as_str(),
                ACCESS_MODES,
            ));
        } else if m == "ReadWriteOncePod" {
            rwop = true;
        } else {
            other = true;
        }
    }
    if rwop && other {
        errs.push(FieldError::forbidden(
            format!("{path}.accessModes"),
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    let storage_path = format!("{path}.resources[storage]");
    match spec.resources.requests.get("storage") {
        None => errs.push(FieldError::required(storage_path, "")),
        Some(q) => match parse_quantity(q.0.trim()) {
            // `ValidatePositiveQuantityValue` (which also covers the non-negative check).
            Ok(v) if v.nanos <= 0 => errs.push(FieldError::invalid(
                storage_path,
                v.canonical(),
                "must be greater than zero",
            )),
            Ok(_) => {}
            Err(m) => errs.push(FieldError::invalid(storage_path, q.0.as_str(), m)),
        },
    }
    if let Some(class) = spec.storage_class_name.as_deref().filter(|c| !c.is_empty()) {
        for m in name_is_dns_subdomain(class, false) {
            errs.push(FieldError::invalid(
                format!("{path}.storageClassName"),
                class,
                m,
            ));
        }
    }
    if spec
        .volume_mode
        .as_deref()
        .is_some_and(|m| m != "Block" && m != "Filesystem")
    {
        errs.push(FieldError::not_supported(
            format!("{path}.volumeMode"),
            spec.volume_mode.clone().unwrap_or_default(),
            &["Block", "Filesystem"],
        ));
    }
    let data_source = spec.extra.get("dataSource").filter(|v| !v.is_null());
    let data_source_ref = spec.extra.get("dataSourceRef").filter(|v| !v.is_null());
    if let Some(ds) = data_source {
        errs.extend(validate_data_source(
            ds,
            &format!("{path}.dataSource"),
            false,
            allow_invalid_api_group,
        ));
    }
    if let Some(dsr) = data_source_ref {
        errs.extend(validate_data_source(
            dsr,
            &format!("{path}.dataSourceRef"),
            true,
            allow_invalid_api_group,
        ));
    }
    let ref_namespace = data_source_ref
        .and_then(|r| r.get("namespace"))
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty());
    // Upstream passes the `*field.Path` itself as the bad value, which `field.Error` prints
    // with `%#v` (including a pointer address that varies per process; a fixed one is shown).
    let path_value = || {
        "field.Path{name:\"dataSource\", index:\"\", parent:(*field.Path)(0xc000000000)}"
            .to_string()
    };
    if ref_namespace.is_some() {
        if data_source.is_some() {
            errs.push(
                FieldError::invalid(
                    path,
                    Value::Null,
                    "may not be specified when dataSourceRef.namespace is specified",
                )
                .with_value_text(path_value()),
            );
        }
    } else if let (Some(ds), Some(dsr)) = (data_source, data_source_ref) {
        // `isDataSourceEqualDataSourceRef`: apiGroup (nil and "" differ), kind and name.
        let same = ds.get("apiGroup") == dsr.get("apiGroup")
            && ds.get("kind") == dsr.get("kind")
            && ds.get("name") == dsr.get("name");
        if !same {
            errs.push(
                FieldError::invalid(path, Value::Null, "must match dataSourceRef")
                    .with_value_text(path_value()),
            );
        }
    }
    // VolumeAttributesClass is GA (on) in 1.35: a non-empty class name is a DNS subdomain.
    if let Some(vac) = spec
        .extra
        .get("volumeAttributesClassName")
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
    {
        for m in name_is_dns_subdomain(vac, false) {
            errs.push(FieldError::invalid(
                format!("{path}.volumeAttributesClassName"),
                vac,
                m,
            ));
        }
    }
    errs
}

/// `validateDataSource` / `validateDataSourceRef` (`is_ref`) of a claim spec: name and kind
/// required, the core group only for `PersistentVolumeClaim`, a DNS-subdomain apiGroup (unless
/// `allowInvalidAPIGroupInDataSourceOrRef`), and for a ref a DNS-label namespace.
pub fn validate_data_source(
    source: &Value,
    path: &str,
    is_ref: bool,
    allow_invalid_api_group: bool,
) -> Vec<FieldError> {
    let mut errs = vec![];
    let text = |key: &str| source.get(key).and_then(Value::as_str).unwrap_or("");
    if text("name").is_empty() {
        errs.push(FieldError::required(format!("{path}.name"), ""));
    }
    let kind = text("kind");
    if kind.is_empty() {
        errs.push(FieldError::required(format!("{path}.kind"), ""));
    }
    let api_group = text("apiGroup");
    if api_group.is_empty() && kind != "PersistentVolumeClaim" {
        errs.push(FieldError::invalid(
            path,
            kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !api_group.is_empty() && !allow_invalid_api_group {
        for m in is_dns1123_subdomain(api_group) {
            errs.push(FieldError::invalid(
                format!("{path}.apiGroup"),
                api_group,
                m,
            ));
        }
    }
    if is_ref {
        let ns = text("namespace");
        if !ns.is_empty() {
            for m in name_is_dns_label(ns, false) {
                errs.push(FieldError::invalid(format!("{path}.namespace"), ns, m));
            }
        }
    }
    errs
}

/// `ValidatePersistentVolumeClaim`.
pub fn validate_persistent_volume_claim(pvc: &PersistentVolumeClaim) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&pvc.metadata, true, name_is_dns_subdomain, "metadata");
    errs.extend(validate_persistent_volume_claim_spec(&pvc.spec, "spec"));
    errs
}

/// `core.BetaStorageClassAnnotation`.
const BETA_STORAGE_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// `validateStorageClassUpgradeFromAnnotation`: the old claim named its class only in the beta
/// annotation, and the new one moves that same class into the spec.
fn storage_class_upgrade_from_annotation(
    old: &PersistentVolumeClaim,
    new: &PersistentVolumeClaim,
) -> bool {
    let Some(old_sc) = old.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION) else {
        return false;
    };
    old.spec.storage_class_name.is_none()
        && new.spec.storage_class_name.as_ref() == Some(old_sc)
        && new
            .metadata
            .annotations
            .get(BETA_STORAGE_CLASS_ANNOTATION)
            .is_none_or(|a| a == old_sc)
}

/// `validateStorageClassUpgradeFromNil`: a claim without a class may gain one (the one in its
/// beta annotation, when it has one).
fn storage_class_upgrade_from_nil(
    old: &PersistentVolumeClaim,
    new: &PersistentVolumeClaim,
) -> bool {
    let Some(new_sc) = &new.spec.storage_class_name else {
        return false;
    };
    old.spec.storage_class_name.is_none()
        && old
            .metadata
            .annotations
            .get(BETA_STORAGE_CLASS_ANNOTATION)
            .is_none_or(|a| a == new_sc)
}

/// A storage quantity in nanos (`resource.Quantity` comparison); a missing or unparsable one
/// counts as zero, as Go's zero `Quantity` does.
fn storage_nanos(list: &std::collections::BTreeMap<String, super::Quantity>) -> i128 {
    list.get("storage")
        .and_then(|q| parse_quantity(q.0.trim()).ok())
        .map_or(0, |q| q.nanos)
}

/// `apiequality.Semantic.DeepEqual` compares quantities by value, not spelling.
fn canonical_requests(spec: &mut super::core_more::PersistentVolumeClaimSpec) {
    for list in [&mut spec.resources.requests, &mut spec.resources.limits] {
        for q in list.values_mut() {
            if let Ok(p) = parse_quantity(q.0.trim()) {
                q.0 = p.canonical();
            }
        }
    }
}

/// `ValidatePersistentVolumeClaimUpdate`: the spec is immutable except for a bound claim's
/// storage request (which may shrink only while it stays above `status.capacity`:
/// RecoverVolumeExpansionFailure is GA), a `volumeName` set once, a storage class moved from
/// the beta annotation or added to a claim without one, and `volumeAttributesClassName`.
pub fn validate_persistent_volume_claim_update(
    new: &PersistentVolumeClaim,
    old: &PersistentVolumeClaim,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    // `ValidatePersistentVolumeClaim(newPvc, opts)` with the options of the old claim.
    errs.extend(validate_object_meta(
        &new.metadata,
        true,
        name_is_dns_subdomain,
        "metadata",
    ));
    errs.extend(validate_persistent_volume_claim_spec_opts(
        &new.spec,
        "spec",
        allow_invalid_api_group_in_data_source_or_ref(&old.spec),
    ));
    let mut new_clone = new.spec.clone();
    let mut old_clone = old.spec.clone();
    // The binder fills in volumeName once.
    if old.spec.volume_name.is_empty() {
        old_clone.volume_name = new_clone.volume_name.clone();
    }
    if storage_class_upgrade_from_annotation(old, new) {
        new_clone.storage_class_name = None;
    } else {
        let new_ann = new.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION);
        let old_ann = old.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION);
        if new_ann.map_or("", String::as_str) != old_ann.map_or("", String::as_str) {
            errs.push(FieldError::invalid(
                format!("metadata.annotations.{BETA_STORAGE_CLASS_ANNOTATION}"),
                new_ann.map_or("", String::as_str),
                FIELD_IMMUTABLE,
            ));
        }
        if storage_class_upgrade_from_nil(old, new) {
            new_clone.storage_class_name = old_clone.storage_class_name.clone();
        }
    }
    if new.status.phase == "Bound" && !new_clone.resources.requests.is_empty() {
        new_clone.resources.requests.insert(
            "storage".into(),
            old.spec
                .resources
                .requests
                .get("storage")
                .cloned()
                .unwrap_or_else(|| super::Quantity("0".into())),
        );
    }
    match old_clone.extra.get("volumeAttributesClassName") {
        Some(v) => {
            new_clone
                .extra
                .insert("volumeAttributesClassName".into(), v.clone());
        }
        None => {
            new_clone.extra.remove("volumeAttributesClassName");
        }
    }
    canonical_requests(&mut new_clone);
    canonical_requests(&mut old_clone);
    if new_clone != old_clone {
        errs.push(FieldError::forbidden(
            "spec",
            format!(
                "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n{}",
                pod_spec_diff(&to_value(&old_clone), &to_value(&new_clone))
                    .replace("core.PodSpec", "core.PersistentVolumeClaimSpec")
            ),
        ));
    }
    let new_size = storage_nanos(&new.spec.resources.requests);
    if new_size < storage_nanos(&old.spec.resources.requests)
        && new_size <= storage_nanos(&old.status.capacity)
    {
        errs.push(FieldError::forbidden(
            "spec.resources.requests.storage",
            "field can not be less than status.capacity",
        ));
    }
    if new.spec.volume_mode != old.spec.volume_mode {
        errs.push(FieldError::invalid(
            "volumeMode",
            new.spec
                .volume_mode
                .clone()
                .map_or(Value::Null, Value::String),
            FIELD_IMMUTABLE,
        ));
    }
    let (old_vac, new_vac) = (
        old.spec.extra.get("volumeAttributesClassName"),
        new.spec.extra.get("volumeAttributesClassName"),
    );
    if old_vac.is_some_and(|v| !v.is_null()) && old_vac != new_vac {
        match new_vac.filter(|v| !v.is_null()) {
            None => errs.push(FieldError::forbidden(
                "spec.volumeAttributesClassName",
                "update from non-nil value to nil is forbidden",
            )),
            Some(v) if v.as_str() == Some("") => errs.push(FieldError::forbidden(
                "spec.volumeAttributesClassName",
                "update from non-nil value to an empty string is forbidden",
            )),
            Some(_) => {}
        }
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// Service
// ---------------------------------------------------------------------------------------------

/// `isHeadlessService`, on `clusterIPs` as the strategies sync it from `clusterIP`.
fn service_cluster_ips(svc: &Service) -> Vec<String> {
    if svc.spec.cluster_ips.is_empty() && !svc.spec.cluster_ip.is_empty() {
        vec![svc.spec.cluster_ip.clone()]
    } else {
        svc.spec.cluster_ips.clone()
    }
}

fn is_headless_service(svc: &Service) -> bool {
    let ips = service_cluster_ips(svc);
    ips.len() == 1 && ips[0] == "None"
}

/// `ValidateServiceClusterIPsRelatedFields`: `clusterIP` and `clusterIPs[0]` agree, supported
/// and unique IP families, a supported family policy, valid addresses (`None` alone), at most
/// two of them, one per family, each of the family `ipFamilies` gives.
fn validate_service_cluster_ips_related_fields(svc: &Service) -> Vec<FieldError> {
    let spec = &svc.spec;
    if spec.type_ == "ExternalName" {
        return vec![];
    }
    let mut errs = vec![];
    let ips = || Value::from(spec.cluster_ips.clone());
    if !spec.cluster_ip.is_empty() {
        if spec.cluster_ips.is_empty() {
            errs.push(FieldError::required("spec.clusterIPs", ""));
        } else if spec.cluster_ips[0] != spec.cluster_ip {
            errs.push(FieldError::invalid(
                "spec.clusterIPs",
                ips(),
                "first value must match `clusterIP`",
            ));
        }
    } else if !spec.cluster_ips.is_empty() {
        errs.push(FieldError::invalid(
            "spec.clusterIPs",
            ips(),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, f) in spec.ip_families.iter().enumerate() {
        if f != "IPv4" && f != "IPv6" {
            errs.push(FieldError::not_supported(
                format!("spec.ipFamilies[{i}]"),
                f.as_str(),
                &["IPv4", "IPv6"],
            ));
        }
        if !seen.insert(f.as_str()) {
            errs.push(FieldError::duplicate(
                format!("spec.ipFamilies[{i}]"),
                f.as_str(),
            ));
        }
    }
    if let Some(p) = &spec.ip_family_policy {
        if !["PreferDualStack", "RequireDualStack", "SingleStack"].contains(&p.as_str()) {
            errs.push(FieldError::not_supported(
                "spec.ipFamilyPolicy",
                p.as_str(),
                &["PreferDualStack", "RequireDualStack", "SingleStack"],
            ));
        }
    }
    // Upstream checks the addresses with IsValidIPForLegacyField; kubeplay takes the
    // non-strict parse (StrictIPCIDRValidation off).
    let mut has_invalid_ips = false;
    for (i, ip) in spec.cluster_ips.iter().enumerate() {
        if i == 0 && ip == "None" {
            if spec.cluster_ips.len() > 1 {
                has_invalid_ips = true;
                errs.push(FieldError::invalid(
                    "spec.clusterIPs",
                    ips(),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        let e = crate::api::validation::ip::is_valid_ip_for_legacy_field(
            &format!("spec.clusterIPs[{i}]"),
            ip,
            false,
            &[],
        );
        has_invalid_ips |= !e.is_empty();
        errs.extend(e);
    }
    if spec.cluster_ips.len() > 2 {
        errs.push(FieldError::invalid(
            "spec.clusterIPs",
            ips(),
            "may only hold up to 2 values",
        ));
    }
    if has_invalid_ips {
        return errs;
    }
    let is_v6 = |ip: &str| crate::api::validation::ip::ip_is_ipv6(ip).unwrap_or(false);
    if spec.cluster_ips.len() > 1 {
        let v6 = spec.cluster_ips.iter().filter(|ip| is_v6(ip)).count();
        if v6 == 0 || v6 == spec.cluster_ips.len() {
            errs.push(FieldError::invalid(
                "spec.clusterIPs",
                ips(),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    if !is_headless_service(svc) && !spec.cluster_ips.is_empty() {
        for (i, ip) in spec.cluster_ips.iter().enumerate() {
            let Some(family) = spec.ip_families.get(i) else {
                break;
            };
            if family == "IPv4" && is_v6(ip) {
                errs.push(FieldError::invalid(
                    format!("spec.clusterIPs[{i}]"),
                    ip.as_str(),
                    format!("expected an IPv4 value as indicated by `ipFamilies[{i}]`"),
                ));
            }
            if family == "IPv6" && !is_v6(ip) {
                errs.push(FieldError::invalid(
                    format!("spec.clusterIPs[{i}]"),
                    ip.as_str(),
                    format!("expected an IPv6 value as indicated by `ipFamilies[{i}]`"),
                ));
            }
        }
    }
    errs
}

/// `validateUpgradeDowngradeClusterIPs`.
fn validate_upgrade_downgrade_cluster_ips(old: &Service, new: &Service) -> Vec<FieldError> {
    let mut errs = vec![];
    if new.spec.type_ == "ExternalName" || old.spec.type_ == "ExternalName" {
        return errs;
    }
    if is_headless_service(old) && is_headless_service(new) {
        return errs;
    }
    let (o, n) = (service_cluster_ips(old), service_cluster_ips(new));
    let bad = || Value::from(n.clone());
    if o.len() == n.len() {
        for (i, ip) in o.iter().enumerate() {
            if *ip != n[i] {
                errs.push(FieldError::invalid(
                    format!("spec.clusterIPs[{i}]"),
                    bad(),
                    "may not change once set",
                ));
            }
        }
    } else if o.len() > n.len() {
        if n.is_empty() {
            errs.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                bad(),
                "primary clusterIP can not be unset",
            ));
        }
        if !n.is_empty() && n[0] != o[0] {
            errs.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                bad(),
                "may not change once set",
            ));
        }
        if n.len() == 1 && new.spec.ip_family_policy.as_deref() != Some("SingleStack") {
            errs.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                new.spec
                    .ip_family_policy
                    .clone()
                    .map_or(Value::Null, Value::String),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if !o.is_empty() && n[0] != o[0] {
        errs.push(FieldError::invalid(
            "spec.clusterIPs[0]",
            bad(),
            "may not change once set",
        ));
    }
    errs
}

/// `validateServicePort`.
fn validate_service_port(
    p: &super::ServicePort,
    require_name: bool,
    names: &mut std::collections::BTreeSet<String>,
    path: &str,
) -> Vec<FieldError> {
    let mut errs = vec![];
    if require_name && p.name.is_empty() {
        errs.push(FieldError::required(format!("{path}.name"), ""));
    } else if !p.name.is_empty() {
        for m in is_dns1123_label(&p.name) {
            errs.push(FieldError::invalid(
                format!("{path}.name"),
                p.name.as_str(),
                m,
            ));
        }
        if !names.insert(p.name.clone()) {
            errs.push(FieldError::duplicate(
                format!("{path}.name"),
                p.name.as_str(),
            ));
        }
    }
    for m in is_valid_port_num(i64::from(p.port)) {
        errs.push(FieldError::invalid(format!("{path}.port"), p.port, m));
    }
    if p.protocol.is_empty() {
        errs.push(FieldError::required(format!("{path}.protocol"), ""));
    } else if !["TCP", "UDP", "SCTP"].contains(&p.protocol.as_str()) {
        errs.push(FieldError::not_supported(
            format!("{path}.protocol"),
            p.protocol.as_str(),
            &["SCTP", "TCP", "UDP"],
        ));
    }
    // `ValidatePortNumOrName`; defaulting always sets targetPort (to `port`).
    match &p.target_port {
        Some(IntOrString::Int(n)) => {
            for m in is_valid_port_num(i64::from(*n)) {
                errs.push(FieldError::invalid(format!("{path}.targetPort"), *n, m));
            }
        }
        Some(IntOrString::String(n)) => {
            for m in is_valid_port_name(n) {
                errs.push(FieldError::invalid(
                    format!("{path}.targetPort"),
                    n.as_str(),
                    m,
                ));
            }
        }
        None => {}
    }
    if let Some(ap) = p.extra.get("appProtocol").and_then(Value::as_str) {
        for m in is_qualified_name(ap) {
            errs.push(FieldError::invalid(format!("{path}.appProtocol"), ap, m));
        }
    }
    errs
}

/// `core.ServicePort` with only `protocol` and `port` (or `nodePort`) set, as `json.Marshal`
/// prints the internal type (Go field names, declaration order).
fn service_port_key_json(protocol: &str, port: i32, node_port: i32) -> String {
    let mut proto = String::new();
    crate::api::errors::write_go_json_string(protocol, &mut proto);
    format!(
        r#"{{"Name":"","Protocol":{proto},"AppProtocol":null,"Port":{port},"TargetPort":0,"NodePort":{node_port}}}"#
    )
}

/// `ValidateService` (the parts kubeplay models): a DNS-1035 name; ports (required unless
/// headless or ExternalName), their names, numbers, protocols, target ports and app protocols;
/// the per-type rules (no headless NodePort or LoadBalancer, ExternalName's name and absent
/// addresses); selector labels; session affinity;
/// the type; node ports only off ClusterIP and unique; unique (protocol, port) pairs; the
/// allocateLoadBalancerNodePorts (required on, and only on, LoadBalancer); the load-balancer
/// class; the external traffic policy and health-check node port; the internal traffic policy.
/// Also the topology annotations, the client-IP affinity config, the load-balancer source ranges
/// and trafficDistribution.
pub fn validate_service(svc: &Service) -> Vec<FieldError> {
    let mut errs = validate_object_meta(&svc.metadata, true, name_is_dns1035_label, "metadata");
    // The topology annotations: the current one must agree with the deprecated one when both
    // are set.
    let ann = &svc.metadata.annotations;
    if let (Some(hints), Some(mode)) = (ann.get(TOPOLOGY_AWARE_HINTS), ann.get(TOPOLOGY_MODE)) {
        if hints != mode {
            errs.push(FieldError::invalid(
                format!("metadata.annotations[{TOPOLOGY_MODE}]"),
                mode.as_str(),
                format!("must match annotations[{TOPOLOGY_AWARE_HINTS}] when both are specified"),
            ));
        }
    }
    let spec = &svc.spec;
    let headless = is_headless_service(svc);
    if spec.ports.is_empty() && !headless && spec.type_ != "ExternalName" {
        errs.push(FieldError::required("spec.ports", ""));
    }
    let first_cluster_ip = || service_cluster_ips(svc).swap_remove(0);
    match spec.type_.as_str() {
        // (Port 10250, the kubelet's, may be exposed: upstream lifted that limitation.)
        "LoadBalancer" if headless => errs.push(FieldError::invalid(
            "spec.clusterIPs[0]",
            first_cluster_ip(),
            "may not be set to 'None' for LoadBalancer services",
        )),
        "NodePort" if headless => errs.push(FieldError::invalid(
            "spec.clusterIPs[0]",
            first_cluster_ip(),
            "may not be set to 'None' for NodePort services",
        )),
        "ExternalName" => {
            if !spec.cluster_ips.is_empty() {
                errs.push(FieldError::forbidden(
                    "spec.clusterIPs",
                    "may not be set for ExternalName services",
                ));
            }
            if !spec.ip_families.is_empty() {
                errs.push(FieldError::forbidden(
                    "spec.ipFamilies",
                    "may not be set for ExternalName services",
                ));
            }
            if spec.ip_family_policy.is_some() {
                errs.push(FieldError::forbidden(
                    "spec.ipFamilyPolicy",
                    "may not be set for ExternalName services",
                ));
            }
            let name = spec
                .extra
                .get("externalName")
                .and_then(Value::as_str)
                .unwrap_or_default();
            // The value (a CNAME) may have a trailing dot.
            let cname = name.strip_suffix('.').unwrap_or(name);
            if cname.is_empty() {
                errs.push(FieldError::required("spec.externalName", ""));
            } else {
                for m in is_dns1123_subdomain(cname) {
                    errs.push(FieldError::invalid("spec.externalName", cname, m));
                }
            }
        }
        _ => {}
    }
    let mut names = std::collections::BTreeSet::new();
    for (i, p) in spec.ports.iter().enumerate() {
        errs.extend(validate_service_port(
            p,
            spec.ports.len() > 1,
            &mut names,
            &format!("spec.ports[{i}]"),
        ));
    }
    errs.extend(validate_labels(&spec.selector, "spec.selector"));
    match spec.session_affinity.as_str() {
        "" => errs.push(FieldError::required("spec.sessionAffinity", "")),
        "None" => {
            if spec
                .extra
                .get("sessionAffinityConfig")
                .is_some_and(|v| !v.is_null())
            {
                errs.push(FieldError::forbidden(
                    "spec.sessionAffinityConfig",
                    "must not be set when session affinity is None",
                ));
            }
        }
        "ClientIP" => errs.extend(validate_client_ip_affinity_config(
            spec.extra
                .get("sessionAffinityConfig")
                .filter(|v| !v.is_null()),
        )),
        other => errs.push(FieldError::not_supported(
            "spec.sessionAffinity",
            other,
            &["ClientIP", "None"],
        )),
    }
    errs.extend(validate_service_cluster_ips_related_fields(svc));
    // External IPs: valid (legacy-field parse, StrictIPCIDRValidation off) and not special.
    if let Some(ips) = spec.extra.get("externalIPs").and_then(Value::as_array) {
        for (i, ip) in ips.iter().enumerate() {
            let ip = ip.as_str().unwrap_or_default();
            let path = format!("spec.externalIPs[{i}]");
            let e = crate::api::validation::ip::is_valid_ip_for_legacy_field(&path, ip, false, &[]);
            if e.is_empty() {
                errs.extend(crate::api::validation::ip::validate_non_special_ip(
                    ip, &path,
                ));
            } else {
                errs.extend(e);
            }
        }
    }
    if spec.type_.is_empty() {
        errs.push(FieldError::required("spec.type", ""));
    } else if !["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]
        .contains(&spec.type_.as_str())
    {
        errs.push(FieldError::not_supported(
            "spec.type",
            spec.type_.as_str(),
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        ));
    }
    if spec.type_ == "ClusterIP" {
        for (i, p) in spec.ports.iter().enumerate() {
            if p.node_port != 0 {
                errs.push(FieldError::forbidden(
                    format!("spec.ports[{i}].nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    let mut node_ports = std::collections::BTreeSet::new();
    for (i, p) in spec.ports.iter().enumerate() {
        if p.node_port != 0 && !node_ports.insert((p.protocol.as_str(), p.node_port)) {
            errs.push(FieldError::duplicate(
                format!("spec.ports[{i}].nodePort"),
                p.node_port,
            ));
        }
    }
    let mut ports = std::collections::BTreeSet::new();
    for (i, p) in spec.ports.iter().enumerate() {
        if !ports.insert((p.protocol.as_str(), p.port)) {
            errs.push(
                FieldError::duplicate(format!("spec.ports[{i}]"), Value::Null)
                    .with_value_text(service_port_key_json(&p.protocol, p.port, 0)),
            );
        }
    }
    errs.extend(validate_load_balancer_source_ranges(svc));
    let allocate_set = spec
        .extra
        .get("allocateLoadBalancerNodePorts")
        .is_some_and(|v| !v.is_null());
    if allocate_set && spec.type_ != "LoadBalancer" {
        errs.push(FieldError::forbidden(
            "spec.allocateLoadBalancerNodePorts",
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if spec.type_ == "LoadBalancer" && !allocate_set {
        // Upstream's path really is the root `allocateLoadBalancerNodePorts`.
        errs.push(FieldError::required("allocateLoadBalancerNodePorts", ""));
    }
    errs.extend(validate_load_balancer_class(None, svc));
    errs.extend(validate_service_external_traffic_policy(svc));
    match spec.internal_traffic_policy.as_deref() {
        None if matches!(
            spec.type_.as_str(),
            "ClusterIP" | "NodePort" | "LoadBalancer"
        ) =>
        {
            errs.push(FieldError::required("spec.internalTrafficPolicy", ""));
        }
        Some(p) if p != "Cluster" && p != "Local" => errs.push(FieldError::not_supported(
            "spec.internalTrafficPolicy",
            p,
            &["Cluster", "Local"],
        )),
        _ => {}
    }
    // validateServiceTrafficDistribution, PreferSameTrafficDistribution on (1.35).
    if let Some(td) = spec
        .extra
        .get("trafficDistribution")
        .filter(|v| !v.is_null())
    {
        let td = td.as_str().map_or_else(|| td.to_string(), str::to_string);
        const SUPPORTED: [&str; 3] = ["PreferClose", "PreferSameZone", "PreferSameNode"];
        if !SUPPORTED.contains(&td.as_str()) {
            errs.push(FieldError::not_supported(
                "spec.trafficDistribution",
                td.as_str(),
                &SUPPORTED,
            ));
        }
    }
    errs
}

/// `core.DeprecatedAnnotationTopologyAwareHints`.
const TOPOLOGY_AWARE_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
/// `core.AnnotationTopologyMode`.
const TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";
/// `core.AnnotationLoadBalancerSourceRangesKey`.
const LOAD_BALANCER_SOURCE_RANGES: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";
/// `core.MaxClientIPServiceAffinitySeconds`.
const MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS: i64 = 86400;

/// `validateClientIPAffinityConfig` (session affinity `ClientIP`): the config, its `clientIP`
/// and `timeoutSeconds` are required (defaulting fills them in), and the timeout is in
/// (0, 86400].
fn validate_client_ip_affinity_config(config: Option<&Value>) -> Vec<FieldError> {
    const WHEN: &str = "when session affinity type is ClientIP";
    let path = "spec.sessionAffinityConfig";
    let Some(config) = config else {
        return vec![FieldError::required(path, WHEN)];
    };
    let Some(client_ip) = config.get("clientIP").filter(|v| !v.is_null()) else {
        return vec![FieldError::required(format!("{path}.clientIP"), WHEN)];
    };
    let timeout_path = format!("{path}.clientIP.timeoutSeconds");
    let Some(timeout) = client_ip.get("timeoutSeconds").filter(|v| !v.is_null()) else {
        return vec![FieldError::required(timeout_path, WHEN)];
    };
    let t = timeout.as_i64().unwrap_or(0);
    if t <= 0 || t > MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS {
        return vec![FieldError::invalid(
            timeout_path,
            timeout.clone(),
            format!(
                "must be greater than 0 and less than {MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS}"
            ),
        )];
    }
    vec![]
}

/// `ValidateService`'s source-range rules: `spec.loadBalancerSourceRanges` (reported, as
/// upstream does, under `spec.LoadBalancerSourceRanges`), or else the
/// `service.beta.kubernetes.io/load-balancer-source-ranges` annotation, only on LoadBalancer
/// Services, each value (space-trimmed) a CIDR (`IsValidCIDRForLegacyField`, not strict).
fn validate_load_balancer_source_ranges(svc: &Service) -> Vec<FieldError> {
    use crate::api::validation::ip::is_valid_cidr_for_legacy_field;
    const ONLY_LB: &str = "may only be used when `type` is 'LoadBalancer'";
    let mut errs = vec![];
    let ranges = svc
        .spec
        .extra
        .get("loadBalancerSourceRanges")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty());
    if let Some(ranges) = ranges {
        let path = "spec.LoadBalancerSourceRanges";
        if svc.spec.type_ != "LoadBalancer" {
            errs.push(FieldError::forbidden(path, ONLY_LB));
        }
        for (i, v) in ranges.iter().enumerate() {
            let v = v.as_str().unwrap_or_default().trim();
            errs.extend(is_valid_cidr_for_legacy_field(
                &format!("{path}[{i}]"),
                v,
                false,
                &[],
            ));
        }
    } else if let Some(val) = svc.metadata.annotations.get(LOAD_BALANCER_SOURCE_RANGES) {
        let path = format!("metadata.annotations[{LOAD_BALANCER_SOURCE_RANGES}]");
        if svc.spec.type_ != "LoadBalancer" {
            errs.push(FieldError::forbidden(path.as_str(), ONLY_LB));
        }
        let val = val.trim();
        if !val.is_empty() {
            for v in val.split(',') {
                errs.extend(is_valid_cidr_for_legacy_field(&path, v.trim(), false, &[]));
            }
        }
    }
    errs
}

/// `validateServiceExternalTrafficPolicy`: only externally-accessible Services carry an
/// externalTrafficPolicy, and they must (`Cluster` or `Local`); healthCheckNodePort only on a
/// LoadBalancer with policy `Local`, and a valid port number there.
///
/// Departure: upstream also requires healthCheckNodePort on such a Service, which its
/// allocator (run before validation) always fills in; kubeplay allocates no node ports, so an
/// unset one is accepted.
fn validate_service_external_traffic_policy(svc: &Service) -> Vec<FieldError> {
    let mut errs = vec![];
    let spec = &svc.spec;
    let etp = spec
        .extra
        .get("externalTrafficPolicy")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !crate::api::sts_ds_defaults::service_externally_accessible(svc) {
        if !etp.is_empty() {
            errs.push(FieldError::invalid(
                "spec.externalTrafficPolicy",
                etp,
                "may only be set for externally-accessible services",
            ));
        }
    } else if etp.is_empty() {
        errs.push(FieldError::required("spec.externalTrafficPolicy", ""));
    } else if etp != "Cluster" && etp != "Local" {
        errs.push(FieldError::not_supported(
            "spec.externalTrafficPolicy",
            etp,
            &["Cluster", "Local"],
        ));
    }
    let hcnp = spec
        .extra
        .get("healthCheckNodePort")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    if !(spec.type_ == "LoadBalancer" && etp == "Local") {
        if hcnp != 0 {
            errs.push(FieldError::invalid(
                "spec.healthCheckNodePort",
                hcnp,
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if hcnp != 0 {
        for m in is_valid_port_num(hcnp) {
            errs.push(FieldError::invalid("spec.healthCheckNodePort", hcnp, m));
        }
    }
    errs
}

/// `validateUpgradeDowngradeIPFamilies` (upstream's paths and bad values kept, including
/// `ipFamilies[0]` for any changed family and `clusterIPs` as the value of some errors).
fn validate_upgrade_downgrade_ip_families(old: &Service, new: &Service) -> Vec<FieldError> {
    let mut errs = vec![];
    if new.spec.type_ == "ExternalName" || old.spec.type_ == "ExternalName" {
        return errs;
    }
    let (old_headless, new_headless) = (is_headless_service(old), is_headless_service(new));
    if old_headless != new_headless || new_headless {
        return errs;
    }
    let (o, n) = (&old.spec.ip_families, &new.spec.ip_families);
    let families = || Value::from(n.clone());
    let ips = || Value::from(service_cluster_ips(new));
    if o.len() == n.len() {
        for (i, f) in o.iter().enumerate() {
            if *f != n[i] {
                errs.push(FieldError::invalid(
                    "spec.ipFamilies[0]",
                    families(),
                    "may not change once set",
                ));
            }
        }
    } else if o.len() > n.len() {
        if service_cluster_ips(new).is_empty() {
            errs.push(FieldError::invalid(
                "spec.ipFamilies[0]",
                families(),
                "primary ipFamily can not be unset",
            ));
        }
        if !n.is_empty() && n[0] != o[0] {
            errs.push(FieldError::invalid(
                "spec.ipFamilies[0]",
                ips(),
                "may not change once set",
            ));
        }
        if n.len() == 1 && new.spec.ip_family_policy.as_deref() != Some("SingleStack") {
            errs.push(FieldError::invalid(
                "spec.ipFamilyPolicy",
                new.spec
                    .ip_family_policy
                    .clone()
                    .map_or(Value::Null, Value::String),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !o.is_empty() && !n.is_empty() && n[0] != o[0] {
        errs.push(FieldError::invalid(
            "spec.ipFamilies[0]",
            ips(),
            "may not change once set",
        ));
    }
    errs
}

/// `validateLoadBalancerClassField`: immutable between LoadBalancer Services, a qualified name,
/// and only on LoadBalancer Services.
fn validate_load_balancer_class(old: Option<&Service>, svc: &Service) -> Vec<FieldError> {
    let mut errs = vec![];
    let class = |s: &Service| {
        s.spec
            .extra
            .get("loadBalancerClass")
            .filter(|v| !v.is_null())
            .cloned()
    };
    let is_lb = |s: &Service| s.spec.type_ == "LoadBalancer";
    if let Some(old) = old {
        if is_lb(old) && is_lb(svc) && class(old) != class(svc) {
            errs.push(FieldError::invalid(
                "spec.loadBalancerClass",
                class(svc).unwrap_or(Value::Null),
                "may not change once set",
            ));
        }
    }
    match class(svc) {
        Some(c) if is_lb(svc) => {
            let c = c.as_str().unwrap_or_default().to_string();
            for m in is_qualified_name(&c) {
                errs.push(FieldError::invalid("spec.loadBalancerClass", c.as_str(), m));
            }
        }
        Some(_) => errs.push(FieldError::forbidden(
            "spec.loadBalancerClass",
            "may only be used when `type` is 'LoadBalancer'",
        )),
        None => {}
    }
    errs
}

/// `ValidateServiceUpdate`: the primary cluster IP may not change or be unset once allocated
/// (ExternalName Services and headless-to-headless updates excepted), then [`validate_service`].
/// IP families follow the same rule (`validateUpgradeDowngradeIPFamilies`) and a load
/// balancer's class may not change.
pub fn validate_service_update(new: &Service, old: &Service) -> Vec<FieldError> {
    let mut errs = validate_object_meta_update(&new.metadata, &old.metadata, "metadata");
    errs.extend(validate_upgrade_downgrade_cluster_ips(old, new));
    errs.extend(validate_upgrade_downgrade_ip_families(old, new));
    errs.extend(validate_load_balancer_class(Some(old), new));
    // validateServiceExternalTrafficFieldsUpdate: the health-check node port is immutable
    // while both sides need one.
    let needs_hc = |s: &Service| {
        s.spec.type_ == "LoadBalancer"
            && s.spec
                .extra
                .get("externalTrafficPolicy")
                .and_then(Value::as_str)
                == Some("Local")
    };
    let hcnp = |s: &Service| {
        s.spec
            .extra
            .get("healthCheckNodePort")
            .and_then(Value::as_i64)
            .unwrap_or(0)
    };
    if needs_hc(old) && needs_hc(new) && hcnp(old) != hcnp(new) {
        errs.push(FieldError::forbidden(
            "spec.healthCheckNodePort",
            "field is immutable",
        ));
    }
    errs.extend(validate_service(new));
    errs
}

#[cfg(test)]
mod data_source_tests;
#[cfg(test)]
mod exact_rows_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod upstream_tests2;
