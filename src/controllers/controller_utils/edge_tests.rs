//! Hand-derived edge cases of `controller_utils.go` helpers, worked out from the upstream code.

use super::*;

fn cost(v: &str) -> Result<i32, String> {
    let mut m = BTreeMap::new();
    m.insert(POD_DELETION_COST_ANNOTATION.to_string(), v.to_string());
    get_deletion_cost_from_pod_annotations(&m)
}

/// `GetDeletionCostFromPodAnnotations` (pkg/apis/core/helper): `validFirstDigit` rejects an
/// empty value, a leading `+` and a leading zero other than "0" itself with
/// `invalid value "<v>"`; a leading `-` passes it, so "-05" is −5 and "-0" is 0; the rest is
/// `strconv.ParseInt(v, 10, 32)`, whose errors say `invalid syntax` or `value out of range`.
#[test]
fn deletion_cost_forms() {
    assert_eq!(
        get_deletion_cost_from_pod_annotations(&BTreeMap::new()),
        Ok(0)
    );
    assert_eq!(cost("0"), Ok(0));
    assert_eq!(cost("-05"), Ok(-5));
    assert_eq!(cost("-0"), Ok(0));
    assert_eq!(cost("2147483647"), Ok(i32::MAX));
    assert_eq!(cost("-2147483648"), Ok(i32::MIN));
    for v in ["", "+1", "00", "007", " 1", "a"] {
        assert_eq!(cost(v), Err(format!("invalid value {v:?}")), "{v:?}");
    }
    assert_eq!(
        cost("2147483648"),
        Err("strconv.ParseInt: parsing \"2147483648\": value out of range".to_string())
    );
    assert_eq!(
        cost("-2147483649"),
        Err("strconv.ParseInt: parsing \"-2147483649\": value out of range".to_string())
    );
    for v in ["-", "1.5", "1e3", "-+1", "12a"] {
        assert_eq!(
            cost(v),
            Err(format!("strconv.ParseInt: parsing {v:?}: invalid syntax")),
            "{v:?}"
        );
    }
}

/// `afterOrZero`: a zero time counts as "after" (its pod is deleted first) only when it is the
/// first argument; two zero times → true.
#[test]
fn after_or_zero_cases() {
    let t1 = Time::from_unix_secs(100);
    let t2 = Time::from_unix_secs(200);
    assert!(after_or_zero(Time::ZERO, t1));
    assert!(!after_or_zero(t1, Time::ZERO));
    assert!(after_or_zero(Time::ZERO, Time::ZERO));
    assert!(after_or_zero(t2, t1));
    assert!(!after_or_zero(t1, t2));
    assert!(!after_or_zero(t1, t1));
}

/// `podPhaseToOrdinal` is a map with Pending 0, Unknown 1, Running 2: any other phase reads the
/// zero value, 0.
#[test]
fn phase_ordinals() {
    for (phase, want) in [
        ("Pending", 0),
        ("Unknown", 1),
        ("Running", 2),
        ("", 0),
        ("Succeeded", 0),
        ("Failed", 0),
        ("running", 0),
    ] {
        assert_eq!(phase_ordinal(phase), want, "{phase:?}");
    }
}

/// `logarithmicRankDiff`: buckets are `int64(math.Log2(float64(now − t)))` in nanoseconds, −1
/// for `now − t <= 0`. 1 s = 1e9 ns lies in [2^29, 2^30) → 29; 2 s → 30; 3 s → 31 (2^31 ≈
/// 2.147e9 ≤ 3e9 < 2^32).
#[test]
fn log2_buckets() {
    let now = Time::from_unix_secs(1_000);
    assert_eq!(log2_bucket(Time::from_unix_secs(999), now), 29);
    assert_eq!(log2_bucket(Time::from_unix_secs(998), now), 30);
    assert_eq!(log2_bucket(Time::from_unix_secs(997), now), 31);
    assert_eq!(log2_bucket(now, now), -1);
    assert_eq!(log2_bucket(Time::from_unix_secs(1_001), now), -1);
    assert_eq!(
        logarithmic_rank_diff(Time::from_unix_secs(999), Time::from_unix_secs(997), now),
        -2
    );
}
