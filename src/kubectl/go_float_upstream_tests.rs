//! Go's formatting of float64 values from unstructured content: `%v`/`%#v` (`fmt` uses
//! `strconv.FormatFloat(f, 'g', -1, 64)`; `%#v` sets `sharpV`, not `sharp`, so no decimal point
//! is forced), as kubectl's JSONPath printer, its error dump and custom columns print them.

use super::jsonpath::{go_float_g, go_sharp_v, text_of};
use serde_json::json;

// After go/src/strconv/ftoa.go (`%e` when exp < -4 || exp >= eprec, eprec 6 for the shortest
// format; two exponent digits at least), as TestFtoa checks its 'g' -1 rows.
#[test]
fn format_float_g_shortest() {
    for (f, want) in [
        (1.0, "1"),
        (0.1, "0.1"),
        (-0.5, "-0.5"),
        (100000.0, "100000"),
        (123456.0, "123456"),
        (1e6, "1e+06"),
        (1234567.0, "1.234567e+06"),
        (1e21, "1e+21"),
        (1e23, "1e+23"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1.5e-7, "1.5e-07"),
        (123.456, "123.456"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (0.0, "0"),
        (-0.0, "-0"),
    ] {
        assert_eq!(go_float_g(f), want, "{f:e}");
    }
}

#[test]
fn sharp_v_and_jsonpath_text_print_floats_as_go_does() {
    let v = json!({"a": 2.5, "b": 1.0, "c": 1e6, "d": 3});
    assert_eq!(
        go_sharp_v(&v),
        "map[string]interface {}{\"a\":2.5, \"b\":1, \"c\":1e+06, \"d\":3}"
    );
    assert_eq!(text_of(&json!(1e6)), "1e+06");
    assert_eq!(text_of(&json!(0.25)), "0.25");
    assert_eq!(text_of(&json!(7)), "7");
    // A number beyond int64 is a float64 in unstructured content.
    assert_eq!(
        text_of(&json!(18446744073709551615u64)),
        "1.8446744073709552e+19"
    );
}
