//! String-format validators of `k8s.io/apimachinery/pkg/util/validation` (1.34 wording).
//!
//! Each `is_*` function returns upstream's list of messages (empty when valid). The regular
//! expressions are implemented by hand over bytes, as Go's `regexp` matches them: only ASCII
//! characters can ever match the character classes, and lengths are counted in bytes.

/// `MaxLenError` (util/validation in 1.34 still says "characters").
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `RegexError`: `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')`, with upstream's
/// doubled spaces between examples.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push('\'');
        s.push_str(e);
        s.push_str("', ");
    }
    s.push_str("regex used for validation is '");
    s.push_str(fmt);
    s.push_str("')");
    s
}

/// `EmptyError`.
pub fn empty_error() -> &'static str {
    "must be non-empty"
}

/// `InclusiveRangeError`.
pub fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

pub const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
pub const DNS1123_LABEL_ERR_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
pub const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
pub const DNS1123_SUBDOMAIN_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
pub const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
pub const DNS1035_LABEL_ERR_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
pub const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
pub const QUALIFIED_NAME_ERR_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
pub const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
pub const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
pub const LABEL_VALUE_ERR_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
fn matches_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && is_lower_alnum(b[0])
        && is_lower_alnum(b[b.len() - 1])
        && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
///
/// One pass over the bytes (every label non-empty, starting and ending alphanumeric): this runs
/// for every label key and name the API server validates.
fn matches_dns1123_subdomain(s: &str) -> bool {
    let mut prev = b'.'; // "at the start of a label"
    for &c in s.as_bytes() {
        match c {
            b'.' if !is_lower_alnum(prev) => return false,
            b'-' if prev == b'.' => return false,
            b'.' | b'-' => {}
            _ if !is_lower_alnum(c) => return false,
            _ => {}
        }
        prev = c;
    }
    is_lower_alnum(prev)
}

/// `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`
fn matches_qualified_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter().all(|&c| QUALIFIED_NAME_BYTES[usize::from(c)])
}

/// `[-A-Za-z0-9_.]`, by byte (one load a byte instead of four range tests: every label value
/// the API server validates goes through here).
const QUALIFIED_NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.';
        c += 1;
    }
    t
};

/// `IsDNS1123Label`.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            // A valid subdomain but not a label: it must be the dots.
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_ERR_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`.
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsDNS1035Label`.
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !(matches_dns1123_label(value) && value.as_bytes()[0].is_ascii_lowercase()) {
        errs.push(regex_error(
            DNS1035_LABEL_ERR_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsQualifiedName`: an optional DNS-subdomain prefix and `/`, then a name of at most 63
/// characters.
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = vec![];
    // Split at '/' without allocating: one part, two parts, or too many.
    let parts: (&str, Option<&str>, bool) = match value.split_once('/') {
        None => (value, None, false),
        Some((prefix, name)) => (prefix, Some(name), name.contains('/')),
    };
    let name = match parts {
        (name, None, _) => name,
        (prefix, Some(name), false) => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {}", empty_error()));
            } else {
                for msg in is_dns1123_subdomain(prefix) {
                    errs.push(format!("prefix part {msg}"));
                }
            }
            name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    QUALIFIED_NAME_ERR_MSG,
                    QUALIFIED_NAME_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {}", empty_error()));
    } else if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        errs.push(format!(
            "name part {}",
            max_len_error(QUALIFIED_NAME_MAX_LENGTH)
        ));
    }
    if !matches_qualified_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR_MSG,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`: empty, or a qualified-name-shaped string of at most 63 characters.
pub fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = vec![];
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(max_len_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !(value.is_empty() || matches_qualified_name(value)) {
        errs.push(regex_error(
            LABEL_VALUE_ERR_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPortNum`: 1..=65535.
pub fn is_valid_port_num(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        vec![]
    } else {
        vec![inclusive_range_error(1, 65535)]
    }
}

/// `IsValidPortName` (IANA_SVC_NAME): at most 15 of `[-a-z0-9]`, at least one letter, no `--`,
/// no leading or trailing `-`.
pub fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = vec![];
    let b = port.as_bytes();
    if b.len() > 15 {
        errs.push(max_len_error(15));
    }
    if b.is_empty() || !b.iter().all(|&c| is_lower_alnum(c) || c == b'-') {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !b.iter().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if !b.is_empty() && (b[0] == b'-' || b[b.len() - 1] == b'-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// `maskTrailingDash`: upstream replaces the *last two* characters with `a` when the name ends in
/// `-` (so `foo-` is checked as `foa`); mirrored exactly.
fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        // Byte slicing as Go does; fall back to the whole name if that would split a character.
        match name.get(..name.len() - 2) {
            Some(head) => [head, "a"].concat(),
            None => name.to_string(),
        }
    } else {
        name.to_string()
    }
}

/// `NameIsDNSSubdomain` (Pod, ReplicaSet, ReplicationController, Node names). `prefix` is true
/// for `generateName`, where a trailing dash is allowed.
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_subdomain(&mask_trailing_dash(name))
    } else {
        is_dns1123_subdomain(name)
    }
}

/// `NameIsDNSLabel` (namespace names).
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_label(&mask_trailing_dash(name))
    } else {
        is_dns1123_label(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass subdomain matcher agrees with the regex's definition (labels split at
    /// dots) on every string over an alphabet that exercises each branch.
    #[test]
    fn dns1123_subdomain_one_pass_matches_label_split() {
        let alphabet = [b'a', b'0', b'-', b'.', b'A', b'_'];
        let mut strings = vec![String::new()];
        for len in 1..=6 {
            let n = alphabet.len().pow(len);
            for mut i in 0..n {
                let mut s = String::new();
                for _ in 0..len {
                    s.push(alphabet[i % alphabet.len()] as char);
                    i /= alphabet.len();
                }
                strings.push(s);
            }
        }
        for s in strings {
            assert_eq!(
                matches_dns1123_subdomain(&s),
                s.split('.').all(matches_dns1123_label),
                "{s:?}"
            );
        }
    }

    // Port of TestIsDNS1123Label (apimachinery/pkg/util/validation/validation_test.go).
    #[test]
    fn dns1123_label() {
        let long63 = "a".repeat(63);
        for v in [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            long63.as_str(),
        ] {
            assert!(is_dns1123_label(v).is_empty(), "{v}");
        }
        let long64 = "a".repeat(64);
        for v in [
            "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_",
            "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ",
            " a", "a b", "1 ", " 1", "1 2", &long64,
        ] {
            assert!(!is_dns1123_label(v).is_empty(), "{v}");
        }
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            is_dns1123_label("A"),
            vec!["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
        );
        assert_eq!(
            is_dns1123_label(&long64),
            vec!["must be no more than 63 characters"]
        );
    }

    // Port of TestIsDNS1123Subdomain.
    #[test]
    fn dns1123_subdomain() {
        let long253 = "a".repeat(253);
        for v in [
            "a",
            "ab",
            "a-1",
            "a--1--2--b",
            "0",
            "1--a--b--2",
            "a.a",
            "a--1--2--b.a",
            "a.1",
            "0.a",
            "0.1",
            "1--a--b--2.1",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
            long253.as_str(),
        ] {
            assert!(is_dns1123_subdomain(v).is_empty(), "{v}");
        }
        let long254 = "a".repeat(254);
        for v in [
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a..b",
            "1.",
            ".1",
            "1..2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "A.a",
            "aB.a",
            "ab.A",
            "A1.a",
            "a1.A",
            "A.1",
            "aB.1",
            "A1.1",
            "1A.1",
            "0.A",
            "01.A",
            "012.A",
            "1A.a",
            "1a.A",
            "A.B.C.D.E",
            "AA.BB.CC.DD.EE",
            "a.B.c.d.e",
            "aa.bB.cc.dd.ee",
            "a@b",
            "a,b",
            "a_b",
            "a;b",
            "a:b",
            "a%b",
            "a?b",
            "a$b",
            &long254,
        ] {
            assert!(!is_dns1123_subdomain(v).is_empty(), "{v}");
        }
        assert_eq!(
            is_dns1123_subdomain("Web"),
            vec!["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert_eq!(is_dns1123_subdomain(&long254).len(), 1);
        assert_eq!(is_dns1123_subdomain(&format!("{long254}-")).len(), 2);
    }

    // Port of TestIsDNS1035Label.
    #[test]
    fn dns1035_label() {
        for v in ["a", "ab", "abc", "a1", "a-1", "a--1--2--b"] {
            assert!(is_dns1035_label(v).is_empty(), "{v}");
        }
        for v in [
            "0", "01", "1a", "1-a", "", "A", "-", "a-", "-a", "a_b", "a.b", " ",
        ] {
            assert!(!is_dns1035_label(v).is_empty(), "{v}");
        }
    }

    // Port of TestIsQualifiedName.
    #[test]
    fn qualified_name() {
        let long = format!("{}/{}", "a".repeat(253), "b".repeat(63));
        let a63 = "a".repeat(63);
        for v in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
            a63.as_str(),
            long.as_str(),
        ] {
            assert!(is_qualified_name(v).is_empty(), "{v}");
        }
        let a64 = "a".repeat(64);
        let long_prefix = format!("{}/abc", "a".repeat(254));
        for v in [
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            a64.as_str(),
            long_prefix.as_str(),
        ] {
            assert!(!is_qualified_name(v).is_empty(), "{v}");
        }
        assert_eq!(
            is_qualified_name("example.com/"),
            vec![
                "name part must be non-empty".to_string(),
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string()
            ]
        );
        assert_eq!(
            is_qualified_name("only/one/slash"),
            vec!["a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
        );
        assert_eq!(
            is_qualified_name("/simple"),
            vec!["prefix part must be non-empty"]
        );
        assert_eq!(
            is_qualified_name(&a64),
            vec!["name part must be no more than 63 characters"]
        );
    }

    // Port of TestIsValidLabelValue.
    #[test]
    fn label_value() {
        let a63 = "a".repeat(63);
        for v in [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "end-with-num-1",
            "1234",
            a63.as_str(),
            "",
        ] {
            assert!(is_valid_label_value(v).is_empty(), "{v}");
        }
        let a64 = "a".repeat(64);
        for v in [
            "nospecialchars%^=@",
            "Tama-nui-te-rā.is.Māori.sun",
            "\\backslashes\\are\\bad",
            "-starts-with-dash",
            "ends-with-dash-",
            ".starts.with.dot",
            "ends.with.dot.",
            a64.as_str(),
        ] {
            assert!(!is_valid_label_value(v).is_empty(), "{v}");
        }
    }

    // Port of TestIsValidPortName and TestIsValidPortNum.
    #[test]
    fn port_names_and_numbers() {
        for v in [
            "telnet",
            "re-mail-ck",
            "pop3",
            "a",
            "a-1",
            "1-a",
            "a-1-b-2-c",
            "1-a-2-b-3",
        ] {
            assert!(is_valid_port_name(v).is_empty(), "{v}");
        }
        let a16 = "a".repeat(16);
        for v in [
            "longerthan15characters",
            "",
            a16.as_str(),
            "12345",
            "1-2-3-4",
            "-begin",
            "end-",
            "two--hyphens",
            "whois++",
        ] {
            assert!(!is_valid_port_name(v).is_empty(), "{v}");
        }
        for p in [1, 2, 1000, 16384, 32768, 65535] {
            assert!(is_valid_port_num(p).is_empty());
        }
        for p in [0, -1, 65536, 100000] {
            assert_eq!(
                is_valid_port_num(p),
                vec!["must be between 1 and 65535, inclusive"]
            );
        }
    }

    // Port of TestValidateObjectMetaTrimsTrailingSlash (generateName "foo-" is a valid prefix).
    #[test]
    fn generate_name_prefix_mask() {
        assert!(name_is_dns_subdomain("foo-", true).is_empty());
        assert!(!name_is_dns_subdomain("foo-", false).is_empty());
        assert_eq!(mask_trailing_dash("ab-"), "aa");
        assert_eq!(mask_trailing_dash("-"), "-");
        // Multi-byte characters never panic.
        assert!(!name_is_dns_subdomain("é-", true).is_empty());
    }
}
