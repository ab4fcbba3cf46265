//! Hand-derived edge cases of robfig/cron v3 `parser.go` (`getRange`, `getField`,
//! `mustParseInt`, `parseDescriptor`), each worked out from the Go source line by line.

use super::*;
use crate::cron::spec::{Schedule, SpecSchedule, STAR_BIT};

fn spec(s: &str) -> SpecSchedule {
    match parse_standard(s) {
        Ok(Schedule::Spec(sp)) => sp,
        other => panic!("{s}: {other:?}"),
    }
}

fn bits(v: &[u32]) -> u64 {
    v.iter().fold(0, |b, i| b | (1u64 << i))
}

// getRange: a `*`/`?` low side ignores whatever follows the hyphen (`*-5` is every minute);
// strconv.Atoi accepts a leading `+`; getField's strings.FieldsFunc drops empty list items, so
// `1,,2` is {1,2} and `,` sets no bit at all.
#[test]
fn ranges_accepted_by_go() {
    assert_eq!(
        spec("*-5 * * * *").minute,
        bits(&(0..60).collect::<Vec<_>>()) | STAR_BIT
    );
    assert_eq!(
        spec("?-5 * * * *").minute,
        bits(&(0..60).collect::<Vec<_>>()) | STAR_BIT
    );
    assert_eq!(spec("+5 * * * *").minute, bits(&[5]));
    assert_eq!(spec("05 * * * *").minute, bits(&[5]));
    assert_eq!(spec("1,,2 * * * *").minute, bits(&[1, 2]));
    assert_eq!(spec(", * * * *").minute, 0);
    // "N/step" means "N-max/step"; a step of 1 keeps the star bit only for `*`.
    assert_eq!(spec("50/5 * * * *").minute, bits(&[50, 55]));
    assert_eq!(spec("*/1 * * * *").minute & STAR_BIT, STAR_BIT);
    assert_eq!(spec("*/2 * * * *").minute & STAR_BIT, 0);
    assert_eq!(spec("0-59/1 * * * *").minute & STAR_BIT, 0);
    // Names are case-insensitive, also as range ends.
    assert_eq!(spec("0 0 * JAN-mar *").month, bits(&[1, 2, 3]));
    assert_eq!(spec("0 0 * * SUN-sat/3").dow, bits(&[0, 3, 6]));
    // A huge step just sets the first bit.
    assert_eq!(spec("7/9223372036854775807 * * * *").minute, bits(&[7]));
}

#[test]
fn range_errors_in_go_order() {
    let err = |s: &str| parse_standard(s).unwrap_err();
    assert_eq!(
        err("5- * * * *"),
        "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax"
    );
    assert_eq!(
        err("-1 * * * *"),
        "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax"
    );
    assert_eq!(err("*/-1 * * * *"), "negative number (-1) not allowed: -1");
    assert_eq!(
        err("*/0 * * * *"),
        "step of range should be a positive number: */0"
    );
    assert_eq!(
        err("5/0 * * * *"),
        "step of range should be a positive number: 5/0"
    );
    // The single value becomes `60-59` before the bounds checks.
    assert_eq!(
        err("60/0 * * * *"),
        "beginning of range (60) beyond end of range (59): 60/0"
    );
    assert_eq!(err("1-2/3/4 * * * *"), "too many slashes: 1-2/3/4");
    assert_eq!(
        err("a-b/3/4 * * * *"),
        "failed to parse int from a: strconv.Atoi: parsing \"a\": invalid syntax"
    );
    assert_eq!(err("1-2-3 * * * *"), "too many hyphens: 1-2-3");
    assert_eq!(err("* * * * 7"), "end of range (7) above maximum (6): 7");
    assert_eq!(
        err("* * 0 * *"),
        "beginning of range (0) below minimum (1): 0"
    );
    assert_eq!(
        err("* * * 0 *"),
        "beginning of range (0) below minimum (1): 0"
    );
    assert_eq!(
        err("5-3 * * * *"),
        "beginning of range (5) beyond end of range (3): 5-3"
    );
    assert_eq!(
        err("9223372036854775808 * * * *"),
        "failed to parse int from 9223372036854775808: strconv.Atoi: parsing \"9223372036854775808\": value out of range"
    );
    assert_eq!(
        err("99999999999 * * * *"),
        "end of range (99999999999) above maximum (59): 99999999999"
    );
    assert_eq!(
        err("L * * * *"),
        "failed to parse int from L: strconv.Atoi: parsing \"L\": invalid syntax"
    );
    // The first bad field wins (second, minute, hour, dom, month, dow).
    assert_eq!(
        err("x * * * y"),
        "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"
    );
}

// Parse: descriptors only when the spec starts with `@` (no trimming); fields are counted after
// strings.Fields.
#[test]
fn descriptors_and_field_counts() {
    let err = |s: &str| parse_standard(s).unwrap_err();
    assert_eq!(err("@yearly "), "unrecognized descriptor: @yearly ");
    assert_eq!(err("@DAILY"), "unrecognized descriptor: @DAILY");
    assert_eq!(err("@every"), "unrecognized descriptor: @every");
    assert_eq!(
        err(" @daily"),
        "expected exactly 5 fields, found 1: [@daily]"
    );
    assert_eq!(
        err("@every "),
        "failed to parse duration @every : time: invalid duration \"\""
    );
    assert_eq!(
        err("@every  1h"),
        "failed to parse duration @every  1h: time: invalid duration \" 1h\""
    );
    assert_eq!(
        err("* * * * * *"),
        "expected exactly 5 fields, found 6: [* * * * * *]"
    );
    assert_eq!(err(""), "empty spec string");
    assert_eq!(err("   "), "expected exactly 5 fields, found 0: []");
    assert!(parse_standard(" \t* * *\n* *  ").is_ok());
    // Every(d): under a second becomes a second, fractions are dropped; negatives and zero too.
    for (s, want) in [
        ("@every 1.5s", 1),
        ("@every -1h", 1),
        ("@every 0", 1),
        ("@every 999ms", 1),
        ("@every 90m", 5400),
        ("@every 1h0.9s", 3600),
    ] {
        assert_eq!(
            parse_standard(s),
            Ok(Schedule::ConstantDelay { delay_secs: want }),
            "{s}"
        );
    }
    // TZ= / CRON_TZ= prefixes; `TZ=` (empty name) is UTC for time.LoadLocation.
    assert!(parse_standard("TZ=America/New_York 0 9 * * *").is_ok());
    assert!(parse_standard("CRON_TZ=UTC @daily").is_ok());
    assert!(parse_standard("TZ= 0 9 * * *").is_ok());
    assert_eq!(
        err("TZ=Mars/Base 0 9 * * *"),
        "provided bad location Mars/Base: unknown time zone Mars/Base"
    );
    assert_eq!(
        err("TZ=UTC  0 9 * *"),
        "expected exactly 5 fields, found 4: [0 9 * *]"
    );
}
