//! Deployment validation (`pkg/apis/apps/validation/validation.go` ValidateDeployment*, and the
//! selector immutability check of `pkg/registry/apps/deployment/strategy.go`).
//!
//! Generic object-meta and pod-template validation (names, containers, ...) live in
//! [`crate::api::validation`]; this file holds the Deployment-specific rules.

use super::apps::{Deployment, DeploymentSpec, DeploymentStrategy, RollingUpdateDeployment};
use super::errors::FieldError;
use super::intstr::IntOrString;
use super::meta::LabelSelector;
use super::object::Object;
use serde_json::Value;

/// `validation.IsValidPercent`'s message (with `RegexError`'s exact punctuation, double space
/// included).
pub const PERCENT_ERR_MSG: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

const NONNEGATIVE: &str = "must be greater than or equal to 0";

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// `apivalidation.ValidateNonnegativeField`.
fn validate_nonnegative(v: i64, path: &str) -> Vec<FieldError> {
    if v < 0 {
        vec![FieldError::invalid(path, v, NONNEGATIVE)]
    } else {
        vec![]
    }
}

/// `validation.IsValidPercent`: `^[0-9]+%$`.
pub fn is_valid_percent(s: &str) -> bool {
    s.strip_suffix('%')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `ValidatePositiveIntOrPercent`: an int ≥ 0 or a `[0-9]+%` string.
pub fn validate_positive_int_or_percent(v: &IntOrString, path: &str) -> Vec<FieldError> {
    match v {
        IntOrString::String(s) if !is_valid_percent(s) => {
            vec![FieldError::invalid(path, v.clone(), PERCENT_ERR_MSG)]
        }
        IntOrString::String(_) => vec![],
        IntOrString::Int(i) => validate_nonnegative(i64::from(*i), path),
    }
}

/// `getPercentValue`: the number of a valid percent string.
fn get_percent_value(v: &IntOrString) -> Option<i64> {
    match v {
        IntOrString::String(s) if is_valid_percent(s) => {
            // `value, _ := strconv.Atoi(...)`: a digit string beyond int64 gives ErrRange with
            // the clamped math.MaxInt64, not 0.
            Some(super::intstr::go_atoi_value(
                s.strip_suffix('%').unwrap_or(s),
            ))
        }
        _ => None,
    }
}

/// `getIntOrPercentValue`: the percentage, or `IntValue()` (`strconv.Atoi` of a string, its
/// error ignored: 0 for a non-numeric string, clamped beyond int64).
pub fn get_int_or_percent_value(v: &IntOrString) -> i64 {
    match get_percent_value(v) {
        Some(p) => p,
        None => match v {
            IntOrString::Int(i) => i64::from(*i),
            IntOrString::String(s) => super::intstr::go_atoi_value(s),
        },
    }
}

/// `IsNotMoreThan100Percent`.
pub fn is_not_more_than_100_percent(v: &IntOrString, path: &str) -> Vec<FieldError> {
    match get_percent_value(v) {
        Some(p) if p > 100 => vec![FieldError::invalid(
            path,
            v.clone(),
            "must not be greater than 100%",
        )],
        _ => vec![],
    }
}

/// `ValidateRollingUpdateDeployment`. An unset value counts as `0` (the internal type holds a
/// zero `IntOrString`; defaulting fills both in before validation).
pub fn validate_rolling_update_deployment(
    ru: &RollingUpdateDeployment,
    path: &str,
) -> Vec<FieldError> {
    let zero = IntOrString::Int(0);
    let mu = ru.max_unavailable.as_ref().unwrap_or(&zero);
    let ms = ru.max_surge.as_ref().unwrap_or(&zero);
    let mu_path = format!("{path}.maxUnavailable");
    let mut errs = validate_positive_int_or_percent(mu, &mu_path);
    errs.extend(validate_positive_int_or_percent(
        ms,
        &format!("{path}.maxSurge"),
    ));
    if get_int_or_percent_value(mu) == 0 && get_int_or_percent_value(ms) == 0 {
        errs.push(FieldError::invalid(
            mu_path.clone(),
            mu.clone(),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    errs.extend(is_not_more_than_100_percent(mu, &mu_path));
    errs
}

/// `ValidateDeploymentStrategy`.
pub fn validate_deployment_strategy(s: &DeploymentStrategy, path: &str) -> Vec<FieldError> {
    match s.type_.as_str() {
        "Recreate" => match s.rolling_update {
            Some(_) => vec![FieldError::forbidden(
                format!("{path}.rollingUpdate"),
                "may not be specified when strategy `type` is 'Recreate'",
            )],
            None => vec![],
        },
        "RollingUpdate" => match &s.rolling_update {
            None => vec![FieldError::required(
                format!("{path}.rollingUpdate"),
                "this should be defaulted and never be nil",
            )],
            Some(ru) => validate_rolling_update_deployment(ru, &format!("{path}.rollingUpdate")),
        },
        _ => vec![FieldError::not_supported(
            path,
            to_value(s),
            &["Recreate", "RollingUpdate"],
        )],
    }
}

/// `ValidateDeploymentSpec` (`spec.*` paths).
pub fn validate_deployment_spec(spec: &DeploymentSpec) -> Vec<FieldError> {
    let mut errs = validate_nonnegative(i64::from(spec.replicas.unwrap_or(1)), "spec.replicas");
    match &spec.selector {
        None => errs.push(FieldError::required("spec.selector", "")),
        Some(sel) => {
            // Strict (`AllowInvalidLabelValueInSelector: false`): keys, values and operators.
            errs.extend(crate::api::validation::meta::validate_label_selector(
                sel,
                "spec.selector",
            ));
            if sel.is_empty() {
                errs.push(FieldError::invalid(
                    "spec.selector",
                    to_value(sel),
                    "empty selector is invalid for deployment",
                ));
            }
        }
    }
    // metav1.LabelSelectorAsSelector: nil selects nothing; an invalid key, value or operator is
    // an error.
    match crate::api::validation::meta::label_selector_as_selector(spec.selector.as_ref()) {
        Err(_) => errs.push(crate::api::validation::meta::invalid_selector(
            "spec.selector",
            spec.selector.as_ref().unwrap_or(&LabelSelector::default()),
            "invalid label selector",
        )),
        Ok(s) => errs.extend(
            crate::api::validation::workloads::validate_template_for_controller(
                &spec.template,
                &s,
                "spec.template",
                "ReplicaSet",
            ),
        ),
    }
    errs.extend(validate_deployment_strategy(
        &spec.strategy,
        "spec.strategy",
    ));
    errs.extend(validate_nonnegative(
        i64::from(spec.min_ready_seconds),
        "spec.minReadySeconds",
    ));
    if let Some(r) = spec.revision_history_limit {
        errs.extend(validate_nonnegative(
            i64::from(r),
            "spec.revisionHistoryLimit",
        ));
    }
    if let Some(p) = spec.progress_deadline_seconds {
        errs.extend(validate_nonnegative(
            i64::from(p),
            "spec.progressDeadlineSeconds",
        ));
        if p <= spec.min_ready_seconds {
            errs.push(FieldError::invalid(
                "spec.progressDeadlineSeconds",
                p,
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// `ValidateDeployment`: object meta and spec.
pub fn validate_deployment(d: &Deployment) -> Vec<FieldError> {
    let mut errs = crate::api::validation::meta::validate_object_meta(
        &d.metadata,
        true,
        crate::api::validation::names::name_is_dns_subdomain,
        "metadata",
    );
    errs.extend(validate_deployment_spec(&d.spec));
    errs
}

/// `ValidateDeploymentUpdate` (pkg/apis/apps/validation/validation.go): the metadata update
/// rules (`ValidateObjectMetaUpdate`) and the new spec. Unlike `ValidateDeployment` it does not
/// revalidate the object meta of the new object (a name that was valid when it was created stays
/// acceptable, and label/annotation errors are reported once, by the update rules).
pub fn validate_deployment_update(new: &Deployment, old: &Deployment) -> Vec<FieldError> {
    let mut errs = crate::api::validation::meta::validate_object_meta_update(
        &new.metadata,
        &old.metadata,
        "metadata",
    );
    errs.extend(validate_deployment_spec(&new.spec));
    errs
}

/// The Deployment REST strategy's `ValidateUpdate` for apps/v1 (pkg/registry/apps/deployment/
/// strategy.go): [`validate_deployment_update`], then `spec.selector` immutability
/// (`ValidateImmutableField`: `spec.selector: Invalid value: {...}: field is immutable`).
/// `deploymentStrategy.ValidateUpdate`: the checks below, then `AllowIndivisibleHugePagesValues` from the stored object
/// ([`crate::api::validation::pod::ratchet_indivisible_huge_pages`]).
pub fn validate_deployment_strategy_update(new: &Deployment, old: &Deployment) -> Vec<FieldError> {
    let mut errs = validate_deployment_strategy_update_before_ratchet(new, old);
    crate::api::validation::pod::ratchet_indivisible_huge_pages(&mut errs, &old.spec.template.spec);
    errs
}

fn validate_deployment_strategy_update_before_ratchet(
    new: &Deployment,
    old: &Deployment,
) -> Vec<FieldError> {
    let mut errs = validate_deployment_update(new, old);
    use crate::api::validation::workloads::normalized;
    if normalized(&new.spec.selector) != normalized(&old.spec.selector) {
        errs.push(match &new.spec.selector {
            Some(sel) => crate::api::validation::meta::invalid_selector(
                "spec.selector",
                sel,
                "field is immutable",
            ),
            None => FieldError::invalid("spec.selector", Value::Null, "field is immutable"),
        });
    }
    errs
}

/// The hook called by [`crate::api::validation::validate_object`].
pub fn validate_deployment_object(d: &Deployment, old: Option<&Object>) -> Vec<FieldError> {
    match old {
        Some(Object::Deployment(o)) => validate_deployment_strategy_update(d, o),
        _ => validate_deployment(d),
    }
}

#[cfg(test)]
mod upstream_tests2;

#[cfg(test)]
mod exact_rows_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Container, Labels};

    fn labels(kv: &[(&str, &str)]) -> Labels {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// A valid deployment as the API server sees it after defaulting.
    fn valid() -> Deployment {
        let mut d = Deployment::default();
        d.metadata.name = "abc".into();
        d.metadata.namespace = "default".into();
        d.spec.selector = Some(LabelSelector::from_labels(&labels(&[("name", "abc")])));
        d.spec.template_mut().metadata.labels = labels(&[("name", "abc")]).into();
        d.spec.template_mut().spec_mut().containers = vec![Container {
            name: "nginx".into(),
            image: "image".into(),
            ..Default::default()
        }];
        crate::api::deployment_defaults::set_defaults_deployment(&mut d);
        d
    }

    fn msgs(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    /// Port of TestValidateDeployment (pkg/apis/apps/validation/validation_test.go): the
    /// success case and the error cases, with the exact `field.Error` strings.
    #[test]
    #[allow(clippy::type_complexity)]
    fn validate_deployment_table() {
        assert!(validate_deployment(&valid()).is_empty());

        let cases: Vec<(&str, Box<dyn Fn(&mut Deployment)>, Vec<&str>)> = vec![
            (
                "missing selector",
                Box::new(|d| d.spec.selector = None),
                vec![
                    "spec.selector: Required value",
                    "spec.template.metadata.labels: Invalid value: {\"name\":\"abc\"}: `selector` does not match template `labels`",
                ],
            ),
            (
                "empty selector",
                Box::new(|d| d.spec.selector = Some(LabelSelector::default())),
                vec!["spec.selector: Invalid value: {}: empty selector is invalid for deployment"],
            ),
            (
                "selector does not match template labels",
                Box::new(|d| {
                    d.spec.selector =
                        Some(LabelSelector::from_labels(&labels(&[("name", "def")])))
                }),
                vec!["spec.template.metadata.labels: Invalid value: {\"name\":\"abc\"}: `selector` does not match template `labels`"],
            ),
            (
                "restartPolicy Never",
                Box::new(|d| d.spec.template_mut().spec_mut().restart_policy = "Never".into()),
                vec!["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""],
            ),
            (
                "negative replicas",
                Box::new(|d| d.spec.replicas = Some(-1)),
                vec!["spec.replicas: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                "rollingUpdate with Recreate",
                Box::new(|d| d.spec.strategy.type_ = "Recreate".into()),
                vec!["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
            ),
            (
                "maxSurge not a percent",
                Box::new(|d| {
                    d.spec.strategy.rolling_update.as_mut().unwrap().max_surge =
                        Some("20Percent".into())
                }),
                vec!["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"20Percent\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
            ),
            (
                "maxSurge with a space",
                Box::new(|d| {
                    d.spec.strategy.rolling_update.as_mut().unwrap().max_surge =
                        Some("20 %".into())
                }),
                vec!["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"20 %\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
            ),
            (
                "negative maxUnavailable",
                Box::new(|d| {
                    d.spec.strategy.rolling_update.as_mut().unwrap().max_unavailable =
                        Some(IntOrString::Int(-1))
                }),
                vec!["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                "maxUnavailable over 100%",
                Box::new(|d| {
                    d.spec.strategy.rolling_update.as_mut().unwrap().max_unavailable =
                        Some("110%".into())
                }),
                vec!["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%"],
            ),
            (
                "both zero",
                Box::new(|d| {
                    let ru = d.spec.strategy.rolling_update.as_mut().unwrap();
                    ru.max_unavailable = Some(IntOrString::Int(0));
                    ru.max_surge = Some("0%".into());
                }),
                vec!["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"],
            ),
            (
                "unknown strategy",
                Box::new(|d| {
                    d.spec.strategy = DeploymentStrategy {
                        type_: "Canary".into(),
                        rolling_update: None,
                    }
                }),
                vec!["spec.strategy: Unsupported value: {\"type\":\"Canary\"}: supported values: \"Recreate\", \"RollingUpdate\""],
            ),
            (
                "negative revisionHistoryLimit",
                Box::new(|d| d.spec.revision_history_limit = Some(-2)),
                vec!["spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0"],
            ),
            (
                "progressDeadlineSeconds equal to minReadySeconds",
                Box::new(|d| {
                    d.spec.min_ready_seconds = 30;
                    d.spec.progress_deadline_seconds = Some(30);
                }),
                vec!["spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds"],
            ),
            (
                "negative minReadySeconds",
                Box::new(|d| d.spec.min_ready_seconds = -1),
                vec!["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                "bad selector operator",
                Box::new(|d| {
                    d.spec.selector.as_mut().unwrap().match_expressions =
                        Some(vec![crate::api::LabelSelectorRequirement {
                            key: "name".into(),
                            operator: "Equals".into(),
                            values: Some(vec!["abc".into()]),
                        }])
                }),
                vec![
                    "spec.selector.matchExpressions[0].operator: Invalid value: \"Equals\": not a valid selector operator",
                    "spec.selector: Invalid value: {\"matchLabels\":{\"name\":\"abc\"},\"matchExpressions\":[{\"key\":\"name\",\"operator\":\"Equals\",\"values\":[\"abc\"]}]}: invalid label selector",
                ],
            ),
        ];
        for (name, mutate, want) in cases {
            let mut d = valid();
            mutate(&mut d);
            assert_eq!(msgs(&validate_deployment(&d)), want, "{name}");
        }
    }

    /// Port of TestValidateDeploymentUpdate and the strategy's selector immutability
    /// (pkg/registry/apps/deployment/strategy_test.go TestSelectorImmutability).
    #[test]
    fn selector_is_immutable() {
        let mut old = valid();
        old.metadata.resource_version = "1".into();
        let mut new = old.clone();
        new.spec.replicas = Some(3);
        assert_eq!(
            msgs(&validate_deployment_update(&new, &old)),
            Vec::<String>::new()
        );
        new.spec.selector = Some(LabelSelector::from_labels(&labels(&[("name", "def")])));
        new.spec.template_mut().metadata.labels = labels(&[("name", "def")]).into();
        assert_eq!(
            msgs(&validate_deployment_update(&new, &old)),
            Vec::<String>::new()
        );
        assert_eq!(
            msgs(&validate_deployment_strategy_update(&new, &old)),
            vec!["spec.selector: Invalid value: {\"matchLabels\":{\"name\":\"def\"}}: field is immutable"]
        );
        let o = Object::Deployment(old.clone());
        assert_eq!(validate_deployment_object(&new, Some(&o)).len(), 1);
        assert!(validate_deployment_object(&old, None).is_empty());
    }

    #[test]
    fn percent_syntax() {
        for ok in ["0%", "25%", "100%", "007%"] {
            assert!(is_valid_percent(ok), "{ok}");
        }
        for bad in ["%", "25", "-1%", "+1%", "1.5%", "25 %", ""] {
            assert!(!is_valid_percent(bad), "{bad}");
        }
    }
}
