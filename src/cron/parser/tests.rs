use super::*;
use crate::cron::spec::{Schedule, SpecSchedule, DOM, DOW, HOURS, MINUTES, MONTHS, SECONDS};

fn b(min: u32, max: u32) -> Bounds {
    Bounds {
        min,
        max,
        names: &[],
    }
}

/// robfig's `secondParser`: `Second | Minute | Hour | Dom | Month | DowOptional | Descriptor`.
pub(crate) fn second_parser() -> Parser {
    Parser::new(SECOND | MINUTE | HOUR | DOM_FIELD | MONTH | DOW_OPTIONAL | DESCRIPTOR).unwrap()
}

// Port of TestRange (robfig/cron parser_test.go).
#[test]
fn test_range() {
    let cases: &[(&str, u32, u32, u64, &str)] = &[
        ("5", 0, 7, 1 << 5, ""),
        ("0", 0, 7, 1 << 0, ""),
        ("7", 0, 7, 1 << 7, ""),
        ("5-5", 0, 7, 1 << 5, ""),
        ("5-6", 0, 7, 1 << 5 | 1 << 6, ""),
        ("5-7", 0, 7, 1 << 5 | 1 << 6 | 1 << 7, ""),
        ("5-6/2", 0, 7, 1 << 5, ""),
        ("5-7/2", 0, 7, 1 << 5 | 1 << 7, ""),
        ("5-7/1", 0, 7, 1 << 5 | 1 << 6 | 1 << 7, ""),
        ("*", 1, 3, 1 << 1 | 1 << 2 | 1 << 3 | STAR_BIT, ""),
        ("*/2", 1, 3, 1 << 1 | 1 << 3, ""),
        ("5--5", 0, 0, 0, "too many hyphens"),
        ("jan-x", 0, 0, 0, "failed to parse int from"),
        ("2-x", 1, 5, 0, "failed to parse int from"),
        ("*/-12", 0, 0, 0, "negative number"),
        ("*//2", 0, 0, 0, "too many slashes"),
        ("1", 3, 5, 0, "below minimum"),
        ("6", 3, 5, 0, "above maximum"),
        ("5-3", 3, 5, 0, "beyond end of range"),
        ("*/0", 0, 0, 0, "should be a positive number"),
    ];
    for (expr, min, max, expected, err) in cases {
        let got = get_range(expr, &b(*min, *max));
        if err.is_empty() {
            assert_eq!(got, Ok(*expected), "{expr}");
        } else {
            let e = got.unwrap_err();
            assert!(e.contains(err), "{expr}: {e}");
        }
    }
    // The exact texts.
    assert_eq!(
        get_range("x", &MINUTES).unwrap_err(),
        "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"
    );
    assert_eq!(
        get_range("60", &MINUTES).unwrap_err(),
        "end of range (60) above maximum (59): 60"
    );
    assert_eq!(
        get_range("7", &DOW).unwrap_err(),
        "end of range (7) above maximum (6): 7"
    );
}

// Port of TestField.
#[test]
fn test_field() {
    let cases: &[(&str, u32, u32, u64)] = &[
        ("5", 1, 7, 1 << 5),
        ("5,6", 1, 7, 1 << 5 | 1 << 6),
        ("5,6,7", 1, 7, 1 << 5 | 1 << 6 | 1 << 7),
        ("1,5-7/2,3", 1, 7, 1 << 1 | 1 << 5 | 1 << 7 | 1 << 3),
    ];
    for (expr, min, max, expected) in cases {
        assert_eq!(get_field(expr, &b(*min, *max)), Ok(*expected), "{expr}");
    }
}

// Port of TestAll.
#[test]
fn test_all() {
    let cases: &[(Bounds, u64)] = &[
        (MINUTES, 0xfffffffffffffff),
        (HOURS, 0xffffff),
        (DOM, 0xfffffffe),
        (MONTHS, 0x1ffe),
        (DOW, 0x7f),
    ];
    for (r, expected) in cases {
        assert_eq!(all(r), expected | STAR_BIT);
    }
}

// Port of TestBits.
#[test]
fn test_bits() {
    for (min, max, step, expected) in [
        (0, 0, 1, 0x1),
        (1, 1, 1, 0x2),
        (1, 5, 2, 0x2a),
        (1, 4, 2, 0xa),
    ] {
        assert_eq!(get_bits(min, max, step), expected, "{min}-{max}/{step}");
    }
}

// Port of TestParseScheduleErrors.
#[test]
fn test_parse_schedule_errors() {
    for (expr, err) in [
        ("* 5 j * * *", "failed to parse int from"),
        ("@every Xm", "failed to parse duration"),
        ("@unrecognized", "unrecognized descriptor"),
        ("* * * *", "expected 5 to 6 fields"),
        ("", "empty spec string"),
    ] {
        let e = second_parser().parse(expr).unwrap_err();
        assert!(e.contains(err), "{expr}: {e}");
    }
}

fn every5min(loc: Option<Location>) -> Schedule {
    Schedule::Spec(SpecSchedule {
        second: 1,
        minute: 1 << 5,
        hour: all(&HOURS),
        dom: all(&DOM),
        month: all(&MONTHS),
        dow: all(&DOW),
        location: loc,
    })
}

fn midnight(loc: Option<Location>) -> Schedule {
    Schedule::Spec(SpecSchedule {
        second: 1,
        minute: 1,
        hour: 1,
        dom: all(&DOM),
        month: all(&MONTHS),
        dow: all(&DOW),
        location: loc,
    })
}

fn annual() -> Schedule {
    Schedule::Spec(SpecSchedule {
        second: 1 << SECONDS.min,
        minute: 1 << MINUTES.min,
        hour: 1 << HOURS.min,
        dom: 1 << DOM.min,
        month: 1 << MONTHS.min,
        dow: all(&DOW),
        location: None,
    })
}

// Port of TestParseSchedule.
#[test]
fn test_parse_schedule() {
    let tokyo = load_location("Asia/Tokyo").unwrap();
    let sp = second_parser();
    let cases: Vec<(Parser, &str, Schedule)> = vec![
        (sp, "0 5 * * * *", every5min(None)),
        (STANDARD, "5 * * * *", every5min(None)),
        (
            sp,
            "CRON_TZ=UTC  0 5 * * * *",
            every5min(Some(Location::Utc)),
        ),
        (
            STANDARD,
            "CRON_TZ=UTC  5 * * * *",
            every5min(Some(Location::Utc)),
        ),
        (
            sp,
            "CRON_TZ=Asia/Tokyo 0 5 * * * *",
            every5min(Some(tokyo.clone())),
        ),
        (sp, "@every 5m", Schedule::ConstantDelay { delay_secs: 300 }),
        (sp, "@midnight", midnight(None)),
        (sp, "TZ=UTC  @midnight", midnight(Some(Location::Utc))),
        (sp, "TZ=Asia/Tokyo @midnight", midnight(Some(tokyo))),
        (sp, "@yearly", annual()),
        (sp, "@annually", annual()),
        (
            sp,
            "* 5 * * * *",
            Schedule::Spec(SpecSchedule {
                second: all(&SECONDS),
                minute: 1 << 5,
                hour: all(&HOURS),
                dom: all(&DOM),
                month: all(&MONTHS),
                dow: all(&DOW),
                location: None,
            }),
        ),
    ];
    for (p, expr, expected) in cases {
        assert_eq!(p.parse(expr), Ok(expected), "{expr}");
    }
}

// Port of TestOptionalSecondSchedule.
#[test]
fn test_optional_second_schedule() {
    let p =
        Parser::new(SECOND_OPTIONAL | MINUTE | HOUR | DOM_FIELD | MONTH | DOW_FIELD | DESCRIPTOR)
            .unwrap();
    assert_eq!(p.parse("0 5 * * * *"), Ok(every5min(None)));
    assert_eq!(p.parse("5 * * * *"), Ok(every5min(None)));
    let Ok(Schedule::Spec(s)) = p.parse("5 5 * * * *") else {
        panic!("spec")
    };
    assert_eq!((s.second, s.minute), (1 << 5, 1 << 5));
}

// Port of TestNormalizeFields and TestNormalizeFields_Errors.
#[test]
fn test_normalize_fields() {
    let all6 = SECOND | MINUTE | HOUR | DOM_FIELD | MONTH | DOW_FIELD | DESCRIPTOR;
    let cases: Vec<(Vec<&str>, u32, Vec<&str>)> = vec![
        (
            vec!["0", "5", "*", "*", "*", "*"],
            all6,
            vec!["0", "5", "*", "*", "*", "*"],
        ),
        (
            vec!["0", "5", "*", "*", "*", "*"],
            SECOND_OPTIONAL | MINUTE | HOUR | DOM_FIELD | MONTH | DOW_FIELD | DESCRIPTOR,
            vec!["0", "5", "*", "*", "*", "*"],
        ),
        (
            vec!["5", "*", "*", "*", "*"],
            SECOND_OPTIONAL | MINUTE | HOUR | DOM_FIELD | MONTH | DOW_FIELD | DESCRIPTOR,
            vec!["0", "5", "*", "*", "*", "*"],
        ),
        (
            vec!["5", "15", "*"],
            HOUR | DOM_FIELD | MONTH,
            vec!["0", "0", "5", "15", "*", "*"],
        ),
        (
            vec!["5", "15", "*", "4"],
            HOUR | DOM_FIELD | MONTH | DOW_OPTIONAL,
            vec!["0", "0", "5", "15", "*", "4"],
        ),
        (
            vec!["5", "15", "*"],
            HOUR | DOM_FIELD | MONTH | DOW_OPTIONAL,
            vec!["0", "0", "5", "15", "*", "*"],
        ),
        (
            vec!["5", "15", "*"],
            SECOND_OPTIONAL | HOUR | DOM_FIELD | MONTH,
            vec!["0", "0", "5", "15", "*", "*"],
        ),
    ];
    for (input, options, expected) in cases {
        assert_eq!(
            normalize_fields(&input, options).unwrap(),
            expected,
            "{input:?}"
        );
    }
    for (input, options) in [
        (
            vec!["0", "5", "*", "*", "*", "*"],
            SECOND_OPTIONAL | MINUTE | HOUR | DOM_FIELD | MONTH | DOW_OPTIONAL,
        ),
        (vec!["0", "5", "*", "*"], SECOND_OPTIONAL | MINUTE | HOUR),
        (vec![], SECOND_OPTIONAL | MINUTE | HOUR),
        (vec!["*"], SECOND_OPTIONAL | MINUTE | HOUR),
    ] {
        assert!(normalize_fields(&input, options).is_err(), "{input:?}");
    }
}

// Port of TestStandardSpecSchedule and TestNoDescriptorParser.
#[test]
fn test_standard_spec_schedule() {
    assert_eq!(parse_standard("5 * * * *"), Ok(every5min(None)));
    assert_eq!(
        parse_standard("@every 5m"),
        Ok(Schedule::ConstantDelay { delay_secs: 300 })
    );
    assert!(parse_standard("5 j * * *")
        .unwrap_err()
        .contains("failed to parse int from"));
    assert_eq!(
        parse_standard("* * * *").unwrap_err(),
        "expected exactly 5 fields, found 4: [* * * *]"
    );
    let p = Parser::new(MINUTE | HOUR).unwrap();
    assert!(p.parse("@every 1m").is_err());
}

// Port of TestErrors and TestSlash0NoHang (spec_test.go), plus what Kubernetes' validation
// relies on: day-of-week 7, `L`, `W` and `#` are rejected.
#[test]
fn test_errors() {
    for spec in [
        "xyz",
        "60 0 * * *",
        "0 60 * * *",
        "0 0 * * XYZ",
        "0 0 * * 7",
        "0 0 L * *",
        "0 0 15W * *",
        "0 0 * * 5#3",
        "TZ=America/New_York 15/0 * * * *",
    ] {
        assert!(parse_standard(spec).is_err(), "{spec}");
    }
    assert_eq!(
        parse_standard("TZ=Nowhere/Land 0 * * * *").unwrap_err(),
        "provided bad location Nowhere/Land: unknown time zone Nowhere/Land"
    );
    // Macros, names and `?`.
    for ok in [
        "@yearly",
        "@annually",
        "@monthly",
        "@weekly",
        "@daily",
        "@midnight",
        "@hourly",
        "@every 1h30m",
        "0 0 13 * 5",
        "*/5 * * * ?",
        "0 9 * JAN-MAR mon-fri",
    ] {
        assert!(parse_standard(ok).is_ok(), "{ok}");
    }
}

#[test]
fn go_durations() {
    assert_eq!(parse_go_duration("1h30m"), Ok(5_400_000_000_000));
    assert_eq!(parse_go_duration("1.5s"), Ok(1_500_000_000));
    assert_eq!(parse_go_duration("0"), Ok(0));
    assert_eq!(parse_go_duration("-2m"), Ok(-120_000_000_000));
    assert_eq!(
        parse_go_duration("Xm").unwrap_err(),
        "time: invalid duration \"Xm\""
    );
    assert_eq!(
        parse_go_duration("5").unwrap_err(),
        "time: missing unit in duration \"5\""
    );
    assert_eq!(
        parse_go_duration("5q").unwrap_err(),
        "time: unknown unit \"q\" in duration \"5q\""
    );
    // Every: below a second is a second, fractions are dropped.
    assert_eq!(
        parse_standard("@every 500ms"),
        Ok(Schedule::ConstantDelay { delay_secs: 1 })
    );
    assert_eq!(
        parse_standard("@every 1.9s"),
        Ok(Schedule::ConstantDelay { delay_secs: 1 })
    );
}
