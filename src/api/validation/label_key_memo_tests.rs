//! `validate_labels` with its remembered valid keys and the byte table of the qualified-name
//! matcher give the same answers as before.

use super::meta::validate_labels;
use super::names::{is_qualified_name, is_valid_label_value};
use crate::api::meta::Labels;

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Every byte in every position of a short value: the table accepts what the four range tests
/// accepted (`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`).
#[test]
fn label_values_by_byte_match_the_character_class() {
    for c in 0u8..=255 {
        let class = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.';
        let Ok(s) = std::str::from_utf8(&[b'a', c, b'z']).map(str::to_owned) else {
            // Not UTF-8 alone: never a valid value.
            let s = format!("a{}z", char::from(c));
            assert!(!is_valid_label_value(&s).is_empty(), "{c}");
            continue;
        };
        assert_eq!(is_valid_label_value(&s).is_empty(), class(c), "{c}");
        let alone = String::from(char::from(c));
        assert_eq!(
            is_valid_label_value(&alone).is_empty(),
            c.is_ascii_alphanumeric(),
            "{c}"
        );
    }
}

/// A key found valid once is not re-checked, and an invalid key is reported every time (even
/// next to remembered ones).
#[test]
fn remembered_keys_do_not_hide_errors() {
    let good = labels(&[("app", "web"), ("batch.kubernetes.io/job-name", "pi")]);
    assert!(validate_labels(&good, "metadata.labels").is_empty());
    assert!(validate_labels(&good, "metadata.labels").is_empty());
    let bad = labels(&[("app", "web"), ("-bad", "x"), ("a/b/c", "y")]);
    for _ in 0..2 {
        let errs = validate_labels(&bad, "metadata.labels");
        let expected: usize = ["-bad", "a/b/c"]
            .iter()
            .map(|k| is_qualified_name(k).len())
            .sum();
        assert_eq!(errs.len(), expected, "{errs:?}");
        assert!(expected >= 2);
    }
    // More keys than the memo holds, then the first again.
    for i in 0..40 {
        let many = labels(&[(&format!("k{i}"), "v")]);
        assert!(validate_labels(&many, "metadata.labels").is_empty());
    }
    assert!(validate_labels(&good, "metadata.labels").is_empty());
    assert_eq!(validate_labels(&bad, "metadata.labels").len(), 2);
}
