//! Message-format checks of the HPA controller's helpers against the Go code they follow.

use super::scale::rest_mapping;

// The HPA's scale lookup fails with apimachinery's `NoKindMatchError` (no versions searched):
// `no matches for kind %q in group %q`. Go's `%q` escapes non-printable runes as `\x7f` /
// `\u200b`, where Rust's `{:?}` writes `\u{7f}` / `\u{200b}`. (A kind is only required to be a
// valid path segment, so such characters pass validation.)
#[test]
fn rest_mapping_no_match_quotes_as_go() {
    assert_eq!(rest_mapping("apps", "Deployment"), Ok("Deployment"));
    assert_eq!(
        rest_mapping("", "Foo\u{7f}").unwrap_err(),
        "no matches for kind \"Foo\\x7f\" in group \"\""
    );
    assert_eq!(
        rest_mapping("x\u{200b}", "K").unwrap_err(),
        "no matches for kind \"K\" in group \"x\\u200b\""
    );
}
