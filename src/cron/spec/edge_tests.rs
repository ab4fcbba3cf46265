//! Hand-derived `SpecSchedule.Next` edge cases (robfig/cron v3 `spec.go`).

use crate::api::Time;
use crate::cron::parser::parse_standard;

fn t(s: &str) -> Time {
    Time::parse_rfc3339(s).unwrap()
}

fn next(spec: &str, from: &str) -> Time {
    parse_standard(spec).unwrap().next(t(from))
}

// `yearLimit := t.Year() + 5` with 2100 not a leap year: from March 2097 the next Feb 29 is in
// 2104, past the limit (2102), so Next gives the zero time; from March 2099 the limit is 2104
// and the date is found.
#[test]
fn leap_day_across_a_non_leap_century() {
    assert!(next("0 0 29 2 *", "2097-03-01T00:00:00Z").is_zero());
    assert!(next("0 0 29 2 *", "2098-03-01T00:00:00Z").is_zero());
    assert_eq!(
        next("0 0 29 2 *", "2099-03-01T00:00:00Z"),
        t("2104-02-29T00:00:00Z")
    );
}

// `?` is the star: "0 0 ? * 1" keeps the AND rule (Mondays only); "1-31" has no star bit, so
// with a day of week it is the OR rule (every day).
#[test]
fn question_mark_is_a_star_for_day_matching() {
    // 2024-01-02 was a Tuesday.
    assert_eq!(
        next("0 0 ? * 1", "2024-01-02T00:00:00Z"),
        t("2024-01-08T00:00:00Z")
    );
    assert_eq!(
        next("0 0 1-31 * 1", "2024-01-02T00:00:00Z"),
        t("2024-01-03T00:00:00Z")
    );
    // An empty field (`,`) sets no bit: nothing ever matches.
    assert!(next(", * * * *", "2024-01-02T00:00:00Z").is_zero());
}
