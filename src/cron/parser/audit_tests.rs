//! Fidelity audit of the cron parser against robfig/cron v3 (`parser.go`) and Go's
//! `time.ParseDuration` (which `@every` uses): hand-derived boundary cases.

use super::*;

// Go `time.ParseDuration`: the largest durations. `1<<63` nanoseconds only fits negated.
#[test]
fn parse_duration_bounds() {
    assert_eq!(
        parse_go_duration("9223372036854775807ns"),
        Ok(i128::from(i64::MAX))
    );
    assert_eq!(
        parse_go_duration("-9223372036854775808ns"),
        Ok(i128::from(i64::MIN))
    );
    assert_eq!(
        parse_go_duration("9223372036854775808ns").unwrap_err(),
        "time: invalid duration \"9223372036854775808ns\""
    );
    assert_eq!(
        parse_go_duration("2562047h47m16.854775807s"),
        Ok(i128::from(i64::MAX))
    );
    assert_eq!(
        parse_go_duration("2562047h47m16.854775808s").unwrap_err(),
        "time: invalid duration \"2562047h47m16.854775808s\""
    );
    // leadingInt overflows on the digits alone, whatever the unit.
    assert_eq!(
        parse_go_duration("99999999999999999999ns").unwrap_err(),
        "time: invalid duration \"99999999999999999999ns\""
    );
    // Leading zeros never overflow.
    assert_eq!(
        parse_go_duration("0000000000000000000000000001s"),
        Ok(1_000_000_000)
    );
    // "5.s" and ".5s" are fine, ".s" is not.
    assert_eq!(parse_go_duration("5.s"), Ok(5_000_000_000));
    assert_eq!(parse_go_duration(".5s"), Ok(500_000_000));
    assert_eq!(
        parse_go_duration(".s").unwrap_err(),
        "time: invalid duration \".s\""
    );
    assert_eq!(
        parse_go_duration("-").unwrap_err(),
        "time: invalid duration \"-\""
    );
}

// Go `leadingFraction`: digits beyond what fits in 63 bits are consumed and ignored (no error,
// no panic), and the fraction is scaled in float64: f=999999999999999999, scale=1e18,
// uint64(float64(f) * (3.6e12 / 1e18)) = 3600000000000.
#[test]
fn parse_duration_long_fractions() {
    assert_eq!(
        parse_go_duration("0.999999999999999999999999999999999999999h"),
        Ok(3_600_000_000_000)
    );
    // float64 scaling truncates below the exact value: 0.98049162107000 h is
    // 3529769835852 ns exactly, 3529769835851 in Go.
    assert_eq!(
        parse_go_duration("0.98049162107000h"),
        Ok(3_529_769_835_851)
    );
    // `@every` of a negative extreme is a valid duration, rounded up to one second.
    assert_eq!(
        parse_standard("@every -9223372036854775808ns"),
        Ok(Schedule::ConstantDelay { delay_secs: 1 })
    );
}
