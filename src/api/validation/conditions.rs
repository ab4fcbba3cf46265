//! `metav1.Condition` validation (`ValidateConditions`, `ValidateCondition` in
//! k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).

use super::meta::validate_label_name;
use super::names::regex_error;
use super::{child, idx};
use crate::api::errors::FieldError;
use crate::api::Time;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// `metav1.Condition`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "crate::api::meta::is_zero_i64")]
    pub observed_generation: i64,
    #[serde(default)]
    pub last_transition_time: Option<Time>,
    pub reason: String,
    pub message: String,
}

const REASON_FMT: &str = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
const REASON_ERR_MSG: &str = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const MAX_REASON_LEN: usize = 1024;
const MAX_MESSAGE_LEN: usize = 32 * 1024;

/// `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`
fn is_valid_reason(r: &str) -> bool {
    let b = r.as_bytes();
    let mid = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b',' || c == b':';
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && (b.len() == 1
            || ((b[b.len() - 1].is_ascii_alphanumeric() || b[b.len() - 1] == b'_')
                && b.iter().all(|&c| mid(c))))
}

/// `ValidateCondition`: a label-name type, a True/False/Unknown status, a non-negative
/// observed generation, a transition time, a reason of the condition-reason form (at most
/// 1024 characters), a message of at most 32 KiB.
pub fn validate_condition(c: &Condition, path: &str) -> Vec<FieldError> {
    let mut errs = validate_label_name(&c.type_, &child(path, "type"));
    if !["True", "False", "Unknown"].contains(&c.status.as_str()) {
        errs.push(FieldError::not_supported(
            child(path, "status"),
            c.status.as_str(),
            &["False", "True", "Unknown"],
        ));
    }
    if c.observed_generation < 0 {
        errs.push(FieldError::invalid(
            child(path, "observedGeneration"),
            c.observed_generation,
            "must be greater than or equal to zero",
        ));
    }
    if c.last_transition_time.is_none() {
        errs.push(FieldError::required(child(path, "lastTransitionTime"), ""));
    }
    if c.reason.is_empty() {
        errs.push(FieldError::required(child(path, "reason"), ""));
    } else {
        if !is_valid_reason(&c.reason) {
            errs.push(FieldError::invalid(
                child(path, "reason"),
                c.reason.as_str(),
                regex_error(
                    REASON_ERR_MSG,
                    REASON_FMT,
                    &[
                        "my_name",
                        "MY_NAME",
                        "MyName",
                        "ReasonA,ReasonB",
                        "ReasonA:ReasonB",
                    ],
                ),
            ));
        }
        if c.reason.len() > MAX_REASON_LEN {
            errs.push(FieldError::too_long(child(path, "reason"), MAX_REASON_LEN));
        }
    }
    if c.message.len() > MAX_MESSAGE_LEN {
        errs.push(FieldError::too_long(
            child(path, "message"),
            MAX_MESSAGE_LEN,
        ));
    }
    errs
}

/// `ValidateConditions`: each condition valid, no type repeated.
pub fn validate_conditions(conditions: &[Condition], path: &str) -> Vec<FieldError> {
    let mut errs = vec![];
    let mut seen = BTreeSet::new();
    for (i, c) in conditions.iter().enumerate() {
        let p = idx(path, i);
        if !seen.insert(c.type_.as_str()) {
            errs.push(FieldError::duplicate(child(&p, "type"), c.type_.as_str()));
        }
        errs.extend(validate_condition(c, &p));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    fn cond(t: &str, reason: &str) -> Condition {
        Condition {
            type_: t.into(),
            reason: reason.into(),
            ..Default::default()
        }
    }

    // upstream: TestValidateConditions
    // (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation_test.go).
    #[test]
    fn validate_conditions_table() {
        let p = "status.conditions";
        let errs = strings(&validate_conditions(
            &[Condition {
                type_: ":invalid".into(),
                status: "unknown".into(),
                observed_generation: -1,
                last_transition_time: None,
                reason: "invalid;val".into(),
                message: String::new(),
            }],
            p,
        ));
        for needle in [
            r#"status.conditions[0].type: Invalid value: ":invalid": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"#,
            r#"status.conditions[0].status: Unsupported value: "unknown": supported values: "False", "True", "Unknown""#,
            "status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero",
            "status.conditions[0].lastTransitionTime: Required value",
            r#"status.conditions[0].reason: Invalid value: "invalid;val": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')"#,
        ] {
            assert!(errs.iter().any(|e| e == needle), "bunch-of-invalid-fields: missing {needle}\n{errs:?}");
        }
        // "duplicates"
        let errs = strings(&validate_conditions(
            &[cond("First", ""), cond("Second", ""), cond("First", "")],
            p,
        ));
        assert!(
            errs.iter()
                .any(|e| e == r#"status.conditions[2].type: Duplicate value: "First""#),
            "{errs:?}"
        );
        // "colon-allowed-in-reason", "comma-allowed-in-reason"
        for r in ["valid:val", "valid,val"] {
            let errs = strings(&validate_conditions(&[cond("First", r)], p));
            assert!(
                !errs
                    .iter()
                    .any(|e| e.starts_with("status.conditions[0].reason")),
                "{r}: {errs:?}"
            );
        }
        // "reason-does-not-end-in-delimiter"
        let errs = strings(&validate_conditions(&[cond("First", "valid,val:")], p));
        assert!(
            errs.iter().any(|e| e.starts_with(r#"status.conditions[0].reason: Invalid value: "valid,val:": a condition reason must start"#)),
            "{errs:?}"
        );
    }
}
