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
    /// The bad value exactly as Go renders it, when `value` cannot carry it: Go marshals a struct
    /// with its fields in declaration order, which a sorted `serde_json` map would reorder (see
    /// [`FieldError::with_value_text`]).
    pub value_text: Option<String>,
}

/// How `field.Error.ErrorBody` prints a bad value (apimachinery 1.34): strings with `%q`,
/// numbers and booleans with `%v`, anything else as its JSON encoding.
fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        Value::Null => "null".into(),
        Value::Bool(_) | Value::Number(_) => v.to_string(),
        other => go_json(other),
    }
}

/// Go's `strconv.Quote`: `\a \b \f \n \r \t \v`, `\xNN` for other ASCII controls, `\uNNNN` /
/// `\UNNNNNNNN` for non-printable runes, printable runes as they are.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if go_is_print(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `unicode.IsPrint` (letters, marks, numbers, punctuation, symbols and
/// the ASCII space) without the Unicode tables: controls, separators other than ' ', format
/// characters, surrogates, private use and noncharacters are not printable.
fn go_is_print(c: char) -> bool {
    let u = c as u32;
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F
        | 0x2028..=0x202E | 0x2060..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB
        | 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFFE | 0xFFFF
        | 0xF0000..=0x10FFFF)
        && (u & 0xFFFE) != 0xFFFE
}

/// Go's `json.Marshal` of a decoded JSON value: compact, object keys sorted (Go sorts map keys),
/// `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`-style sequences (HTML-safe encoding).
pub fn go_json(v: &Value) -> String {
    let mut out = String::new();
    write_go_json(v, &mut out);
    out
}

fn write_go_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_go_json_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            let mut keys: Vec<&String> = m.keys().collect();
            crate::sort::sort(&mut keys);
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_go_json_string(k, out);
                out.push(':');
                write_go_json(&m[k], out);
            }
            out.push('}');
        }
    }
}

/// A JSON string literal as Go's `encoding/json` writes it.
pub fn write_go_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl FieldError {
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Required,
            value: None,
            detail: detail.into(),
            value_text: None,
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
            value_text: None,
        }
    }
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Forbidden,
            value: None,
            detail: detail.into(),
            value_text: None,
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
            value_text: None,
        }
    }
    pub fn duplicate(field: impl Into<String>, value: impl Into<Value>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Duplicate,
            value: Some(value.into()),
            detail: String::new(),
            value_text: None,
        }
    }
    pub fn too_long(field: impl Into<String>, max: usize) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::TooLong(max),
            value: None,
            detail: String::new(),
            value_text: None,
        }
    }
    pub fn too_many(field: impl Into<String>, actual: usize, max: usize) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::TooMany(max),
            value: Some(Value::from(actual)),
            detail: String::new(),
            value_text: None,
        }
    }
}

impl FieldError {
    /// `field.NotFound`.
    pub fn not_found(field: impl Into<String>, value: impl Into<Value>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::NotFound,
            value: Some(value.into()),
            detail: String::new(),
            value_text: None,
        }
    }
    /// `field.InternalError`.
    pub fn internal(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Internal,
            value: None,
            detail: detail.into(),
            value_text: None,
        }
    }
    /// `field.Invalid(path, field.OmitValueType{}, detail)`: printed without a value
    /// (`spec.x: Invalid value: detail`).
    pub fn invalid_omit_value(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            type_: FieldErrorType::Invalid,
            value: None,
            detail: detail.into(),
            value_text: None,
        }
    }
    /// Sets the detail (upstream assigns `err.Detail` after `field.Duplicate`/`field.NotFound`).
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = detail.into();
        self
    }
    /// Overrides how the bad value is printed (a Go struct marshalled in field order).
    pub fn with_value_text(mut self, text: impl Into<String>) -> Self {
        self.value_text = Some(text.into());
        self
    }
}

impl fmt::Display for FieldError {
    /// Formats as `field.Error.Error()` does: `spec.replicas: Invalid value: -1: must be greater
    /// than or equal to 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self
            .value_text
            .clone()
            .or_else(|| self.value.as_ref().map(go_value));
        match &self.type_ {
            FieldErrorType::Required => write!(f, "{}: Required value", self.field)?,
            FieldErrorType::Invalid => match v {
                Some(v) => write!(f, "{}: Invalid value: {}", self.field, v)?,
                // field.OmitValueType: no value is printed.
                None => write!(f, "{}: Invalid value", self.field)?,
            },
            FieldErrorType::Unsupported(s) => {
                write!(
                    f,
                    "{}: Unsupported value: {}",
                    self.field,
                    v.unwrap_or_default()
                )?;
                if !s.is_empty() {
                    let q: Vec<String> = s.iter().map(|x| go_quote(x)).collect();
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
    /// 429 (`errors.NewTooManyRequests`), as a refused eviction.
    TooManyRequests,
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
    /// `NewGenerateNameConflict`: AlreadyExists (409) for a create whose generated names all
    /// collided, naming the last candidate.
    pub fn generate_name_conflict(resource: &str, name: &str) -> Self {
        ApiError {
            reason: Reason::AlreadyExists,
            message: format!(
                "{resource} {name:?} already exists, the server was not able to generate a unique name for the object"
            ),
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
    /// An `InternalError` status with this message (a generic client error in tests).
    pub fn internal_error(msg: impl Into<String>) -> Self {
        ApiError {
            reason: Reason::InternalError,
            message: msg.into(),
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
