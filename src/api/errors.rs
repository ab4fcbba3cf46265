//! API errors in Kubernetes' own wording: `field.Error` lists and `StatusError`s.

use serde_json::Value;
use std::fmt;

/// `field.ErrorType`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldErrorType {
    Required,
    Invalid,
    Unsupported(Vec<String>),
    Forbidden,
    Duplicate,
    TooLong(usize),
    TooMany(usize),
    NotFound,
    Internal,
}

/// `field.Error`: a path, a type, the offending value and a detail.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub field: String,
    pub type_: FieldErrorType,
    pub value: Option<Value>,
    pub detail: String,
}

fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

impl FieldError {
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Required,
            value: None,
            detail: detail.into(),
        }
    }
    pub fn invalid(
        field: impl Into<String>,
        value: impl Into<Value>,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Invalid,
            value: Some(value.into()),
            detail: detail.into(),
        }
    }
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Forbidden,
            value: None,
            detail: detail.into(),
        }
    }
    pub fn not_supported(
        field: impl Into<String>,
        value: impl Into<Value>,
        supported: &[&str],
    ) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Unsupported(supported.iter().map(|s| s.to_string()).collect()),
            value: Some(value.into()),
            detail: String::new(),
        }
    }
    pub fn duplicate(field: impl Into<String>, value: impl Into<Value>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Duplicate,
            value: Some(value.into()),
            detail: String::new(),
        }
    }
    pub fn too_long(field: impl Into<String>, max: usize) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::TooLong(max),
            value: None,
            detail: String::new(),
        }
    }
    pub fn too_many(field: impl Into<String>, actual: usize, max: usize) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::TooMany(max),
            value: Some(Value::from(actual)),
            detail: String::new(),
        }
    }
}

impl fmt::Display for FieldError {
    /// Formats as `field.Error.Error()` does: `spec.replicas: Invalid value: -1: must be greater
    /// than or equal to 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.value.as_ref().map(go_value);
        match &self.type_ {
            FieldErrorType::Required => write!(f, "{}: Required value", self.field)?,
            FieldErrorType::Invalid => write!(
                f,
                "{}: Invalid value: {}",
                self.field,
                v.unwrap_or_default()
            )?,
            FieldErrorType::Unsupported(s) => {
                write!(
                    f,
                    "{}: Unsupported value: {}",
                    self.field,
                    v.unwrap_or_default()
                )?;
                if !s.is_empty() {
                    let q: Vec<String> = s.iter().map(|x| format!("{x:?}")).collect();
                    write!(f, ": supported values: {}", q.join(", "))?;
                }
            }
            FieldErrorType::Forbidden => write!(f, "{}: Forbidden", self.field)?,
            FieldErrorType::Duplicate => write!(
                f,
                "{}: Duplicate value: {}",
                self.field,
                v.unwrap_or_default()
            )?,
            FieldErrorType::TooLong(max) => write!(
                f,
                "{}: Too long: may not be more than {max} bytes",
                self.field
            )?,
            FieldErrorType::TooMany(max) => write!(
                f,
                "{}: Too many: {}: must have at most {max} items",
                self.field,
                v.unwrap_or_default()
            )?,
            FieldErrorType::NotFound => {
                write!(f, "{}: Not found: {}", self.field, v.unwrap_or_default())?
            }
            FieldErrorType::Internal => write!(f, "{}: Internal error", self.field)?,
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// `metav1.StatusReason` of an API error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    NotFound,
    AlreadyExists,
    Conflict,
    Invalid,
    BadRequest,
    Forbidden,
    InternalError,
}

/// A `StatusError` from the (simulated) API server.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    pub reason: Reason,
    pub message: String,
    pub causes: Vec<FieldError>,
    /// `details.kind` / `details.name` (set for Invalid).
    pub kind: String,
    pub name: String,
}

impl ApiError {
    /// `pods "x" not found` (resource is `plural[.group]`).
    pub fn not_found(resource: &str, name: &str) -> Self {
        ApiError {
            reason: Reason::NotFound,
            message: format!("{resource} {name:?} not found"),
            causes: vec![],
            kind: String::new(),
            name: String::new(),
        }
    }
    pub fn already_exists(resource: &str, name: &str) -> Self {
        ApiError {
            reason: Reason::AlreadyExists,
            message: format!("{resource} {name:?} already exists"),
            causes: vec![],
            kind: String::new(),
            name: String::new(),
        }
    }
    pub fn conflict(resource: &str, name: &str, why: &str) -> Self {
        ApiError {
            reason: Reason::Conflict,
            message: format!("Operation cannot be fulfilled on {resource} {name:?}: {why}"),
            causes: vec![],
            kind: String::new(),
            name: String::new(),
        }
    }
    pub fn bad_request(msg: impl Into<String>) -> Self {
        ApiError {
            reason: Reason::BadRequest,
            message: msg.into(),
            causes: vec![],
            kind: String::new(),
            name: String::new(),
        }
    }
    pub fn forbidden(msg: impl Into<String>) -> Self {
        ApiError {
            reason: Reason::Forbidden,
            message: msg.into(),
            causes: vec![],
            kind: String::new(),
            name: String::new(),
        }
    }
    /// `errors.NewInvalid`: `Kind.group "name" is invalid: [e1, e2]` (the API server's message);
    /// kubectl prints it differently, see [`ApiError::kubectl_message`].
    pub fn invalid(kind: &str, group: &str, name: &str, errs: Vec<FieldError>) -> Self {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        let joined = if list.len() == 1 {
            list[0].clone()
        } else {
            format!("[{}]", list.join(", "))
        };
        let qualified = if group.is_empty() {
            kind.to_string()
        } else {
            format!("{kind}.{group}")
        };
        ApiError {
            reason: Reason::Invalid,
            message: format!("{qualified} {name:?} is invalid: {joined}"),
            causes: errs,
            kind: kind.into(),
            name: name.into(),
        }
    }

    pub fn is_not_found(&self) -> bool {
        self.reason == Reason::NotFound
    }
    pub fn is_already_exists(&self) -> bool {
        self.reason == Reason::AlreadyExists
    }

    /// The text kubectl prints for this error: `Error from server (NotFound): pods "x" not found`,
    /// or for Invalid the header line and one `* field: ...` line per cause.
    pub fn kubectl_message(&self) -> String {
        match self.reason {
            Reason::Invalid => {
                let prefix = format!("The {} {:?} is invalid: ", self.kind, self.name);
                match self.causes.len() {
                    0 => format!("{prefix}{}", self.message),
                    1 => format!("{prefix}{}", self.causes[0]),
                    _ => {
                        let lines: Vec<String> =
                            self.causes.iter().map(|c| format!("* {c}")).collect();
                        format!("{prefix}\n{}", lines.join("\n"))
                    }
                }
            }
            ref r => format!("Error from server ({r:?}): {}", self.message),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ApiError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats from k8s.io/apimachinery/pkg/util/validation/field TestMakeFuncs / TestErrorUsefulMessage.
    #[test]
    fn field_error_formats() {
        assert_eq!(
            FieldError::required("spec.selector", "").to_string(),
            "spec.selector: Required value"
        );
        assert_eq!(
            FieldError::invalid("spec.replicas", -1, "must be greater than or equal to 0")
                .to_string(),
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(
            FieldError::not_supported("spec.template.spec.restartPolicy", "Never", &["Always"]).to_string(),
            "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""
        );
        assert_eq!(
            FieldError::too_long("metadata.name", 253).to_string(),
            "metadata.name: Too long: may not be more than 253 bytes"
        );
        let e = ApiError::invalid(
            "ReplicaSet",
            "apps",
            "web",
            vec![
                FieldError::required("spec.selector", ""),
                FieldError::invalid("spec.replicas", -1, "must be greater than or equal to 0"),
            ],
        );
        assert_eq!(
            e.kubectl_message(),
            "The ReplicaSet \"web\" is invalid: \n* spec.selector: Required value\n* spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert!(e
            .message
            .starts_with("ReplicaSet.apps \"web\" is invalid: [spec.selector: Required value, "));
        assert_eq!(
            ApiError::not_found("pods", "x").kubectl_message(),
            "Error from server (NotFound): pods \"x\" not found"
        );
    }
}
