//! Hand-derived edge cases of `pkg/controller/cronjob/utils.go`.

use super::*;

// getTimeHashInMinutes is `scheduledTime.Unix() / 60`: Go's int64 division truncates toward
// zero, so a pre-epoch instant that is not on a whole minute rounds up (toward zero), not down.
#[test]
fn time_hash_in_minutes_truncates_toward_zero() {
    let h = |s: i64| get_time_hash_in_minutes(Time::from_unix_secs(s));
    assert_eq!(h(0), 0);
    assert_eq!(h(59), 0);
    assert_eq!(h(60), 1);
    assert_eq!(h(1_463_652_000), 24_394_200);
    assert_eq!(h(-1), 0);
    assert_eq!(h(-59), 0);
    assert_eq!(h(-60), -1);
    assert_eq!(h(-61), -1);
    assert_eq!(h(-119), -1);
    assert_eq!(h(-120), -2);
}
