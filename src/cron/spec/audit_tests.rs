//! Fidelity audit of `SpecSchedule.Next` (robfig/cron v3 `spec.go`): hand-derived cases.

use crate::api::Time;
use crate::cron::parser::parse_standard;

fn t(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}

fn next(spec: &str, from: &str) -> Time {
    parse_standard(spec).unwrap().next(t(from))
}

// Feb 29: found within the five-year limit (`yearLimit := t.Year() + 5`); Feb 30 never matches
// and gives the zero time.
#[test]
fn leap_day_and_impossible_dates() {
    assert_eq!(
        next("0 0 29 2 *", "2024-03-01T00:00:00Z"),
        t("2028-02-29T00:00:00Z")
    );
    assert_eq!(
        next("0 0 29 2 *", "2028-02-29T00:00:00Z"),
        t("2032-02-29T00:00:00Z")
    );
    assert!(next("0 0 30 2 *", "2024-01-01T00:00:00Z").is_zero());
    assert!(next("0 0 31 4,6,9,11 *", "2024-01-01T00:00:00Z").is_zero());
}

// dayMatches: when neither field has the star bit, either one suffices (OR); `*/1` keeps the
// star bit (a step of 1 does not clear it) so the day of week alone decides, while `1-31` and
// `*/2` have no star bit.
#[test]
fn day_of_month_day_of_week_or_rule() {
    // 2024-01-01 was a Monday.
    // 13th or Friday: Friday Jan 5 comes first.
    assert_eq!(
        next("0 0 13 * 5", "2024-01-01T00:00:00Z"),
        t("2024-01-05T00:00:00Z")
    );
    // `*/1` in the day of month: Mondays only.
    assert_eq!(
        next("0 0 */1 * 1", "2024-01-01T00:00:00Z"),
        t("2024-01-08T00:00:00Z")
    );
    // `1-31`: every day (OR with the whole month).
    assert_eq!(
        next("0 0 1-31 * 1", "2024-01-01T00:00:00Z"),
        t("2024-01-02T00:00:00Z")
    );
    // `*/2` (odd days) or Monday: Jan 3 (odd), then Jan 5, Jan 7, Jan 8 (Monday).
    assert_eq!(
        next("0 0 */2 * 1", "2024-01-07T00:00:00Z"),
        t("2024-01-08T00:00:00Z")
    );
    // `?` is a star too.
    assert_eq!(
        next("0 0 ? * 1", "2024-01-01T00:00:00Z"),
        t("2024-01-08T00:00:00Z")
    );
}

// getRange: `N/step` means `N-max/step`; `*/step` with step > 1 from the minimum.
#[test]
fn steps() {
    // 50/20 in minutes: only 50.
    assert_eq!(
        next("50/20 * * * *", "2024-01-01T00:00:00Z"),
        t("2024-01-01T00:50:00Z")
    );
    assert_eq!(
        next("50/20 * * * *", "2024-01-01T00:50:00Z"),
        t("2024-01-01T01:50:00Z")
    );
    // Day of month */10: 1, 11, 21, 31.
    assert_eq!(
        next("0 0 */10 * *", "2024-01-21T00:00:00Z"),
        t("2024-01-31T00:00:00Z")
    );
    assert_eq!(
        next("0 0 */10 * *", "2024-01-31T00:00:00Z"),
        t("2024-02-01T00:00:00Z")
    );
}

// Errors of getRange, in robfig's check order: bounds, then inverted range, then the step.
#[test]
fn range_errors() {
    let e = |s: &str| parse_standard(s).unwrap_err();
    assert_eq!(
        e("5-3 * * * *"),
        "beginning of range (5) beyond end of range (3): 5-3"
    );
    assert_eq!(
        e("*/0 * * * *"),
        "step of range should be a positive number: */0"
    );
    assert_eq!(
        e("5-3/0 * * * *"),
        "beginning of range (5) beyond end of range (3): 5-3/0"
    );
    assert_eq!(e("0 0 * * 7"), "end of range (7) above maximum (6): 7");
    assert_eq!(
        e("0 0 0 * *"),
        "beginning of range (0) below minimum (1): 0"
    );
    assert_eq!(
        e("1-5/2-3 * * * *"),
        "failed to parse int from 2-3: strconv.Atoi: parsing \"2-3\": invalid syntax"
    );
    assert_eq!(
        e("-1 * * * *"),
        "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax"
    );
    assert_eq!(e("1/2/3 * * * *"), "too many slashes: 1/2/3");
    assert_eq!(e("1-2-3 * * * *"), "too many hyphens: 1-2-3");
    // `*-5` is a star: the part after the hyphen is never read.
    assert!(parse_standard("*-5 * * * *").is_ok());
    assert!(parse_standard("*-x * * * *").is_ok());
    // Month and weekday names, any case.
    assert!(parse_standard("0 0 * JAN-mar Sun,SAT").is_ok());
    assert_eq!(
        e("0 0 * * sunday"),
        "failed to parse int from sunday: strconv.Atoi: parsing \"sunday\": invalid syntax"
    );
    // Empty list items are skipped (strings.FieldsFunc).
    assert!(parse_standard("1,,2 * * * *").is_ok());
    assert_eq!(
        e("* * * *"),
        "expected exactly 5 fields, found 4: [* * * *]"
    );
}

// The DST gap: America/New_York skips 02:00-03:00 on 2024-03-10. `30 2 * * *` has no 02:30 that
// day; robfig's hour loop adds one hour at a time from midnight (00 -> 01 -> 03 EDT), so it
// lands on the next day's 02:30.
#[test]
fn dst_gap_skips_the_missing_hour() {
    assert_eq!(
        next("TZ=America/New_York 30 2 * * *", "2024-03-10T05:00:00Z"),
        // 2024-03-11 02:30 EDT = 06:30 UTC
        t("2024-03-11T06:30:00Z")
    );
    // DST end: 01:30 happens twice on 2024-11-03 (EDT then EST); from before the first, the first.
    assert_eq!(
        next("TZ=America/New_York 30 1 * * *", "2024-11-03T04:00:00Z"),
        t("2024-11-03T05:30:00Z")
    );
    // ... and then the repeated 01:30 (EST): the minute loop wraps at 01:59 EDT -> 01:00 EST
    // and keeps the hour, so the schedule fires twice that night.
    assert_eq!(
        next("TZ=America/New_York 30 1 * * *", "2024-11-03T05:30:00Z"),
        t("2024-11-03T06:30:00Z")
    );
}
