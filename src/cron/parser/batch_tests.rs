//! `time.ParseDuration`'s error texts as the `@every` descriptor reports them.

use super::*;

// robfig/cron v3 `parseDescriptor`: `failed to parse duration %s: %s` around Go's
// `time.ParseDuration` error, whose quoting is the time package's own `quote`, not
// `strconv.Quote`: every byte of a non-ASCII or control character is `\xNN`, DEL is kept.
#[test]
fn every_duration_errors_use_the_time_package_quoting() {
    assert_eq!(
        parse_standard("@every 5é").unwrap_err(),
        "failed to parse duration @every 5é: time: unknown unit \"\\xc3\\xa9\" in duration \"5\\xc3\\xa9\""
    );
    assert_eq!(
        parse_go_duration("1\tm").unwrap_err(),
        "time: unknown unit \"\\x09m\" in duration \"1\\x09m\""
    );
    assert_eq!(
        parse_go_duration("x\u{7f}").unwrap_err(),
        "time: invalid duration \"x\u{7f}\""
    );
    assert_eq!(
        parse_go_duration("\"5").unwrap_err(),
        "time: invalid duration \"\\\"5\""
    );
    // `µs` (U+00B5) and `μs` (U+03BC) are units; `µ` alone is not.
    assert_eq!(parse_go_duration("3µs"), Ok(3_000));
    assert_eq!(parse_go_duration("3μs"), Ok(3_000));
    assert_eq!(
        parse_go_duration("3µ").unwrap_err(),
        "time: unknown unit \"\\xc2\\xb5\" in duration \"3\\xc2\\xb5\""
    );
}
