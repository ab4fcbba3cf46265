//! The remaining string and number checks of `k8s.io/apimachinery/pkg/util/validation`
//! (validation.go): ranges, Unix IDs, percents, HTTP header names, environment variable names,
//! ConfigMap keys, wildcard and underscore subdomains, fully qualified names and
//! domain-prefixed paths, with upstream's messages.

use super::names::{
    inclusive_range_error, is_dns1123_label, is_dns1123_subdomain, max_len_error, regex_error,
    DNS1123_SUBDOMAIN_MAX_LENGTH,
};
use crate::api::errors::FieldError;

/// `IsInRange`: `min <= value <= max`.
pub fn is_in_range(value: i64, min: i64, max: i64) -> Vec<String> {
    if (min..=max).contains(&value) {
        vec![]
    } else {
        vec![inclusive_range_error(min, max)]
    }
}

/// `IsValidGroupID`: a Unix GID, 0..=2147483647.
pub fn is_valid_group_id(gid: i64) -> Vec<String> {
    is_in_range(gid, 0, i64::from(i32::MAX))
}

/// `IsValidUserID`: a Unix UID, 0..=2147483647.
pub fn is_valid_user_id(uid: i64) -> Vec<String> {
    is_in_range(uid, 0, i64::from(i32::MAX))
}

const PERCENT_FMT: &str = "[0-9]+%";
const PERCENT_ERR_MSG: &str =
    "a valid percent string must be a numeric string followed by an ending '%'";

/// `IsValidPercent`: `^[0-9]+%$`.
pub fn is_valid_percent(percent: &str) -> Vec<String> {
    let ok = percent
        .strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
    if ok {
        vec![]
    } else {
        vec![regex_error(PERCENT_ERR_MSG, PERCENT_FMT, &["1%", "93%"])]
    }
}

const HTTP_HEADER_NAME_FMT: &str = "[-A-Za-z0-9]+";
const HTTP_HEADER_NAME_ERR_MSG: &str =
    "a valid HTTP header must consist of alphanumeric characters or '-'";

/// `IsHTTPHeaderName`: `^[-A-Za-z0-9]+$`.
pub fn is_http_header_name(value: &str) -> Vec<String> {
    if !value.is_empty()
        && value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-')
    {
        vec![]
    } else {
        vec![regex_error(
            HTTP_HEADER_NAME_ERR_MSG,
            HTTP_HEADER_NAME_FMT,
            &["X-Header-Name"],
        )]
    }
}

/// `hasChDirPrefix`.
fn has_chdir_prefix(value: &str) -> Vec<String> {
    if value == "." {
        vec!["must not be '.'".into()]
    } else if value == ".." {
        vec!["must not be '..'".into()]
    } else if value.starts_with("..") {
        vec!["must not start with '..'".into()]
    } else {
        vec![]
    }
}

const ENV_VAR_NAME_FMT: &str = "[-._a-zA-Z][-._a-zA-Z0-9]*";
const ENV_VAR_NAME_ERR_MSG: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const RELAXED_ENV_VAR_NAME_ERR_MSG: &str = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/// `IsEnvVarName`: `^[-._a-zA-Z][-._a-zA-Z0-9]*$`, not `.`, `..` or `..`-prefixed.
pub fn is_env_var_name(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let word = |c: u8| c.is_ascii_alphabetic() || c == b'-' || c == b'.' || c == b'_';
    let mut errs = vec![];
    if b.is_empty() || !word(b[0]) || !b.iter().all(|&c| word(c) || c.is_ascii_digit()) {
        errs.push(regex_error(
            ENV_VAR_NAME_ERR_MSG,
            ENV_VAR_NAME_FMT,
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        ));
    }
    errs.extend(has_chdir_prefix(value));
    errs
}

/// `IsRelaxedEnvVarName`: non-empty printable ASCII without `=`.
pub fn is_relaxed_env_var_name(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.is_empty() {
        errs.push("environment variable name must be non-empty".into());
    }
    if value.chars().any(|r| !(' '..='~').contains(&r) || r == '=') {
        errs.push(RELAXED_ENV_VAR_NAME_ERR_MSG.into());
    }
    errs
}

const CONFIG_MAP_KEY_FMT: &str = "[-._a-zA-Z0-9]+";
const CONFIG_MAP_KEY_ERR_MSG: &str =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/// `IsConfigMapKey`: at most 253 of `[-._a-zA-Z0-9]`, not `.`, `..` or `..`-prefixed.
pub fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if value.is_empty()
        || !value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'.' || c == b'_')
    {
        errs.push(regex_error(
            CONFIG_MAP_KEY_ERR_MSG,
            CONFIG_MAP_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(has_chdir_prefix(value));
    errs
}

fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
fn matches_subdomain(s: &str) -> bool {
    s.split('.').all(|l| {
        let b = l.as_bytes();
        !b.is_empty()
            && lower_alnum(b[0])
            && lower_alnum(b[b.len() - 1])
            && b.iter().all(|&c| lower_alnum(c) || c == b'-')
    })
}

const WILDCARD_FMT: &str = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_ERR_MSG: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

/// `IsWildcardDNS1123Subdomain`: `*.` followed by a DNS-1123 subdomain.
pub fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !value.strip_prefix("*.").is_some_and(matches_subdomain) {
        errs.push(regex_error(
            WILDCARD_ERR_MSG,
            WILDCARD_FMT,
            &["*.example.com"],
        ));
    }
    errs
}

const SUBDOMAIN_UNDERSCORE_FMT: &str =
    "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*";
const SUBDOMAIN_UNDERSCORE_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";

/// `IsDNS1123SubdomainWithUnderscore`: a DNS-1123 subdomain whose labels may start with `_`
/// and contain `_`.
pub fn is_dns1123_subdomain_with_underscore(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    let ok = value.split('.').all(|l| {
        let b = l.strip_prefix('_').unwrap_or(l).as_bytes();
        !b.is_empty()
            && lower_alnum(b[0])
            && lower_alnum(b[b.len() - 1])
            && b.iter().all(|&c| lower_alnum(c) || c == b'-' || c == b'_')
    });
    if !ok {
        errs.push(regex_error(
            SUBDOMAIN_UNDERSCORE_ERR_MSG,
            SUBDOMAIN_UNDERSCORE_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsFullyQualifiedName`: a DNS-1123 subdomain of at least three dot-separated segments.
pub fn is_fully_qualified_name(path: &str, name: &str) -> Vec<FieldError> {
    if name.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let errs = is_dns1123_subdomain(name);
    if !errs.is_empty() {
        return vec![FieldError::invalid(path, name, errs.join(","))];
    }
    if name.split('.').count() < 3 {
        return vec![FieldError::invalid(
            path,
            name,
            "should be a domain with at least three segments separated by dots",
        )];
    }
    vec![]
}

/// `IsFullyQualifiedDomainName`: a DNS-1123 subdomain (a trailing dot allowed) of at least two
/// segments, each a DNS-1123 label.
pub fn is_fully_qualified_domain_name(path: &str, name: &str) -> Vec<FieldError> {
    if name.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    let errs = is_dns1123_subdomain(name);
    if !errs.is_empty() {
        return vec![FieldError::invalid(path, name, errs.join(","))];
    }
    if name.split('.').count() < 2 {
        return vec![FieldError::invalid(
            path,
            name,
            "should be a domain with at least two segments separated by dots",
        )];
    }
    for label in name.split('.') {
        let errs = is_dns1123_label(label);
        if !errs.is_empty() {
            return vec![FieldError::invalid(path, label, errs.join(","))];
        }
    }
    vec![]
}

const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/// `IsDomainPrefixedPath`: a DNS-1123 subdomain, `/`, then an RFC 3986 path.
pub fn is_domain_prefixed_path(path: &str, dp_path: &str) -> Vec<FieldError> {
    if dp_path.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let Some((host, p)) = dp_path
        .split_once('/')
        .filter(|(h, p)| !h.is_empty() && !p.is_empty())
    else {
        return vec![FieldError::invalid(
            path,
            dp_path,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        )];
    };
    let mut errs: Vec<FieldError> = is_dns1123_subdomain(host)
        .into_iter()
        .map(|m| FieldError::invalid(path, host, m))
        .collect();
    let path_char = |c: u8| c.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&c);
    if !p.bytes().all(path_char) {
        errs.push(FieldError::invalid(
            path,
            p,
            regex_error("Invalid path", HTTP_PATH_FMT, &[]),
        ));
    }
    errs
}

/// `IsDomainPrefixedKey`: a qualified name (label key) with exactly one `/`.
pub fn is_domain_prefixed_key(path: &str, key: &str) -> Vec<FieldError> {
    if key.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let errs: Vec<FieldError> = super::names::is_qualified_name(key)
        .into_iter()
        .map(|m| FieldError::invalid(path, key, m))
        .collect();
    if !errs.is_empty() {
        return errs;
    }
    if key.split('/').count() != 2 {
        return vec![FieldError::invalid(
            path,
            key,
            "must be a domain-prefixed key (such as \"acme.io/foo\")",
        )];
    }
    vec![]
}

#[cfg(test)]
#[path = "names_more_tests.rs"]
mod tests;
