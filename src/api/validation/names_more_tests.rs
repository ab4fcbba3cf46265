//! Ports of the remaining tables of staging/src/k8s.io/apimachinery/pkg/util/validation/
//! validation_test.go: TestIsInRange, TestIsValidGroupID, TestIsValidUserID,
//! TestIsHTTPHeaderName, TestIsValidPercent, TestIsConfigMapKey,
//! TestIsWildcardDNS1123Subdomain, TestIsFullyQualifiedDomainName, TestIsFullyQualifiedName,
//! TestIsDomainPrefixedPath, TestIsRelaxedEnvVarName, TestIsDNS1123SubdomainWithUnderscore and TestIsDomainPrefixedKey.

use super::*;
use crate::api::validation::names::{max_len_error, regex_error};

fn good_bad(good: &[&str], bad: &[&str], f: fn(&str) -> Vec<String>) {
    for v in good {
        assert!(f(v).is_empty(), "expected {v:?} to be valid: {:?}", f(v));
    }
    for v in bad {
        assert!(!f(v).is_empty(), "expected {v:?} to be invalid");
    }
}

fn good_bad_path(good: &[String], bad: &[String], f: fn(&str, &str) -> Vec<FieldError>) {
    for v in good {
        assert!(
            f("", v).is_empty(),
            "expected {v:?} to be valid: {:?}",
            f("", v)
        );
    }
    for v in bad {
        assert!(!f("", v).is_empty(), "expected {v:?} to be invalid");
    }
}

#[test]
fn is_in_range_table() {
    for (v, lo, hi) in [(1, 0, 10), (5, 5, 20), (25, 10, 25)] {
        assert!(is_in_range(v, lo, hi).is_empty());
    }
    for (v, lo, hi) in [(1, 2, 10), (5, -4, 2), (25, 100, 120)] {
        assert_eq!(
            is_in_range(v, lo, hi),
            [format!("must be between {lo} and {hi}, inclusive")]
        );
    }
}

#[test]
fn is_valid_group_and_user_id_tables() {
    for v in [0, 1, 1000, 65535, 2147483647] {
        assert!(is_valid_group_id(v).is_empty());
        assert!(is_valid_user_id(v).is_empty());
    }
    for v in [-1, -1003, 2147483648, 4147483647] {
        assert_eq!(
            is_valid_group_id(v),
            ["must be between 0 and 2147483647, inclusive"]
        );
        assert_eq!(
            is_valid_user_id(v),
            ["must be between 0 and 2147483647, inclusive"]
        );
    }
}

#[test]
fn is_http_header_name_table() {
    good_bad(
        &[
            "Accept-Encoding",
            "Host",
            "If-Modified-Since",
            "X-Forwarded-For",
            "a",
            "ab",
            "abc",
            "a1",
            "-a",
            "a-",
            "a-b",
            "a-1",
            "a--1--2--b",
            "--abc-123",
            "A",
            "AB",
            "AbC",
            "A1",
            "-A",
            "A-",
            "A-B",
            "A-1",
            "A--1--2--B",
            "--123-ABC",
        ],
        &[
            "Host:",
            "X-Forwarded-For:",
            "X-@Home",
            "",
            "_",
            "a_",
            "_a",
            "1_",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "#a#",
            "^",
            ",",
            ";",
            "=",
            "<",
            "?",
            "@",
            "{",
        ],
        is_http_header_name,
    );
    assert_eq!(
        is_http_header_name("_"),
        ["a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"]
    );
}

#[test]
fn is_valid_percent_table() {
    good_bad(
        &["0%", "00000%", "1%", "01%", "99%", "100%", "101%"],
        &[
            "", "0", "100", "0.0%", "99.9%", "hundred", " 1%", "1% ", "-0%", "-1%", "+1%",
        ],
        is_valid_percent,
    );
    assert_eq!(
        is_valid_percent("hundred"),
        ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]
    );
}

#[test]
fn is_config_map_key_table() {
    good_bad(
        &[
            "a",
            "good",
            "good-good",
            "still.good",
            "this.is.also.good",
            ".so.is.this",
            "THIS_IS_GOOD",
            "so_is_this_17",
        ],
        &[".", "..", "..bad", "b*d", "bad!&bad"],
        is_config_map_key,
    );
    assert_eq!(is_config_map_key(".."), ["must not be '..'"]);
    assert_eq!(is_config_map_key("..bad"), ["must not start with '..'"]);
}

#[test]
fn is_wildcard_dns1123_subdomain_table() {
    good_bad(
        &["*.example.com", "*.bar.com", "*.foo.bar.com"],
        &["*.*.bar.com", "*.foo.*.com", "*bar.com", "f*.bar.com", "*"],
        is_wildcard_dns1123_subdomain,
    );
}

#[test]
fn is_fully_qualified_domain_name_table() {
    let good: Vec<String> = [
        "a.com",
        "k8s.io",
        "dev.k8s.io",
        "dev.k8s.io.",
        "foo.example.com",
        "this.is.a.really.long.fqdn",
        "bbc.co.uk",
        "10.0.0.1",
        "hyphens-are-good.k8s.io",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        format!("{}.k8s.io", "a".repeat(63)),
        format!(
            "{}.{}.{}.{}.k8s.io",
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(54)
        ),
    ])
    .collect();
    let bad: Vec<String> = [
        ".",
        "...",
        ".io",
        "com",
        ".com",
        "Dev.k8s.io",
        ".foo.example.com",
        "*.example.com",
        "*.bar.com",
        "*.foo.bar.com",
        "underscores_are_bad.k8s.io",
        "foo@bar.example.com",
        "http://foo.example.com",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        format!("{}.k8s.io", "a".repeat(64)),
        format!(
            "{}.{}.{}.{}.k8s.io",
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(55)
        ),
    ])
    .collect();
    good_bad_path(&good, &bad, is_fully_qualified_domain_name);
}

#[test]
fn is_fully_qualified_name_table() {
    let good: Vec<String> = [
        "dev.k8s.io",
        "foo.example.com",
        "this.is.a.really.long.fqdn",
        "bbc.co.uk",
        "10.0.0.1",
        "hyphens-are-good.k8s.io",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("{}.k8s.io", "a".repeat(246))])
    .collect();
    let bad: Vec<String> = [
        "...",
        "dev.k8s.io.",
        ".io",
        "Dev.k8s.io",
        "k8s.io",
        "*.example.com",
        "*.bar.com",
        "*.foo.bar.com",
        "underscores_are_bad.k8s.io",
        "foo@bar.example.com",
        "http://foo.example.com",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("{}.k8s.io", "a".repeat(247))])
    .collect();
    good_bad_path(&good, &bad, is_fully_qualified_name);
    // messageTests
    for (name, target, want) in [
        (
            "name needs to be fully qualified, i.e., contains at least 2 dots",
            "k8s.io",
            "should be a domain with at least three segments separated by dots",
        ),
        (
            "name should not include scheme",
            "http://foo.k8s.io",
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters",
        ),
        (
            "email should be invalid",
            "example@foo.k8s.io",
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters",
        ),
        ("name cannot be empty", "", "Required value"),
        (
            "name must conform to RFC 1123",
            "A.B.C",
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters",
        ),
    ] {
        let errs = is_fully_qualified_name("", target);
        assert!(
            errs.iter().any(|e| e.to_string().contains(want)),
            "{name}: {errs:?}"
        );
    }
}

#[test]
fn is_domain_prefixed_path_table() {
    let good: Vec<String> = [
        "a/b",
        "a/b/c/d",
        "a.com/foo",
        "a.b.c.d/foo",
        "k8s.io/foo/bar",
        "k8s.io/FOO/BAR",
        "dev.k8s.io/more/path",
        "this.is.a.really.long.fqdn/even/longer/path/just/because",
        "bbc.co.uk/path/goes/here",
        "10.0.0.1/foo",
        "hyphens-are-good.k8s.io/and-in-paths-too",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        format!("{}.k8s.io/a", "a".repeat(240)),
        format!("k8s.io/{}", "a".repeat(240)),
    ])
    .collect();
    let bad: Vec<String> = [
        ".",
        "...",
        "/b",
        "com",
        ".com",
        "a.b.c.d/foo?a=b",
        "a.b.c.d/foo#a",
        "Dev.k8s.io",
        ".foo.example.com",
        "*.example.com",
        "example.com/foo{}[]@^`",
        "underscores_are_bad.k8s.io",
        "underscores_are_bad.k8s.io/foo",
        "foo@bar.example.com",
        "foo@bar.example.com/foo",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("{}.k8s.io", "a".repeat(247))])
    .collect();
    good_bad_path(&good, &bad, is_domain_prefixed_path);
}

#[test]
fn is_relaxed_env_var_name_table() {
    let bad_ctl = format!("{}abc", char::from(1u8));
    let bad_hi = format!("{}abc", char::from_u32(130).unwrap_or('\u{82}'));
    let good = [
        "-", ":", "_", "+a", ">a", "<a", "a.", "a..", "*a", "%a", "?a", "a:a", "a_a", "aAz", "~a",
        "|a", "a0a", "a9", "/a", "a ", "#a", "0a", "0 a", "'a", "(a", "@a",
    ];
    for v in good {
        assert!(is_relaxed_env_var_name(v).is_empty(), "{v:?}");
    }
    for v in [
        "", "=", "a=", "1=a", "a=b", "#%=&&", &bad_ctl, &bad_hi, "Ç ç", "Ä ä", "Ñ ñ", "Ø ø",
    ] {
        assert!(!is_relaxed_env_var_name(v).is_empty(), "{v:?}");
    }
    assert_eq!(
        is_relaxed_env_var_name(""),
        ["environment variable name must be non-empty"]
    );
}

#[test]
fn is_dns1123_subdomain_with_underscore_table() {
    let err = || {
        regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
            "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*",
            &["example.com"],
        )
    };
    let too_long = format!("a.{}.com", "\0".repeat(251));
    let rows: Vec<(&str, &str, Vec<String>)> = vec![
        ("valid subdomain", "example.com", vec![]),
        ("valid subdomain with underscore", "_example.com", vec![]),
        (
            "valid subdomain with multiple segments",
            "sub._example.com",
            vec![],
        ),
        (
            "valid subdomain with hyphen",
            "sub-domain.example.com",
            vec![],
        ),
        (
            "valid subdomain with underscore in middle",
            "sub_domain.example.com",
            vec![],
        ),
        ("empty string", "", vec![err()]),
        ("invalid uppercase characters", "Example.com", vec![err()]),
        ("invalid starting character", "-example.com", vec![err()]),
        ("invalid ending character", "example.com-", vec![err()]),
        ("invalid characters", "example@.com", vec![err()]),
        (
            "too long subdomain",
            &too_long,
            vec![max_len_error(253), err()],
        ),
        ("multiple dots", "example..com", vec![err()]),
        ("underscore only", "_", vec![err()]),
    ];
    for (name, value, want) in rows {
        assert_eq!(is_dns1123_subdomain_with_underscore(value), want, "{name}");
    }
}

#[test]
fn is_env_var_name_rows() {
    // IsEnvVarName has no table of its own upstream; the chdir-prefix rule and the regex as
    // ValidateEnv's rows exercise them.
    assert!(is_env_var_name("my.env-name").is_empty());
    assert!(is_env_var_name("MY_ENV.NAME").is_empty());
    assert_eq!(is_env_var_name("..foo"), ["must not start with '..'"]);
    assert_eq!(is_env_var_name("1abc").len(), 1);
}

// TestIsDomainPrefixedKey.
#[test]
fn is_domain_prefixed_key_table() {
    let name_part = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let label_key = "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    let invalid = |v: &str, m: &str| vec![FieldError::invalid("test", v, m)];
    let rows: Vec<(&str, &str, Vec<FieldError>)> = vec![
        ("valid domain-prefixed key 1", "example.com/foo", vec![]),
        ("valid domain-prefixed key  2", "example/com", vec![]),
        (
            "invalid key 1",
            "example",
            invalid(
                "example",
                "must be a domain-prefixed key (such as \"acme.io/foo\")",
            ),
        ),
        (
            "invalid key 2",
            "example/foo/bar",
            invalid("example/foo/bar", label_key),
        ),
        (
            "invalid key 3",
            "/example/foo",
            invalid("/example/foo", label_key),
        ),
        ("invalid key 4", "", vec![FieldError::required("test", "")]),
        (
            "invalid key 5",
            "example.com/_e",
            invalid("example.com/_e", name_part),
        ),
        (
            "invalid key 6",
            "example.com/e_",
            invalid("example.com/e_", name_part),
        ),
        (
            "invalid key 7",
            "example.com/e?",
            invalid("example.com/e?", name_part),
        ),
        (
            "invalid key 8",
            "example.com/e_$",
            invalid("example.com/e_$", name_part),
        ),
    ];
    for (name, value, want) in rows {
        assert_eq!(is_domain_prefixed_key("test", value), want, "{name}");
    }
}
