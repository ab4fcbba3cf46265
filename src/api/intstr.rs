//! `intstr.IntOrString`: a JSON number or string (`maxSurge: 1` or `maxSurge: "25%"`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::fmt;

/// `k8s.io/apimachinery/pkg/util/intstr.IntOrString`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntOrString {
    Int(i32),
    String(String),
}

impl Default for IntOrString {
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl fmt::Display for IntOrString {
    /// `IntOrString.String()`: the number or the string as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl From<i32> for IntOrString {
    fn from(i: i32) -> Self {
        IntOrString::Int(i)
    }
}

impl From<&str> for IntOrString {
    fn from(s: &str) -> Self {
        IntOrString::String(s.to_string())
    }
}

impl From<IntOrString> for Value {
    fn from(v: IntOrString) -> Value {
        match v {
            IntOrString::Int(i) => Value::from(i),
            IntOrString::String(s) => Value::from(s),
        }
    }
}

impl Serialize for IntOrString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(i) => s.serialize_i32(*i),
            IntOrString::String(v) => s.serialize_str(v),
        }
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    /// `IntOrString.UnmarshalJSON`: a quoted value is a string, anything else must be an int32.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(IntOrString::String(s)),
            Value::Number(n) => n
                .as_i64()
                .and_then(|i| i32::try_from(i).ok())
                .map(IntOrString::Int)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "json: cannot unmarshal number {n} into Go value of type int32"
                    ))
                }),
            other => Err(serde::de::Error::custom(format!(
                "json: cannot unmarshal {other} into Go value of type intstr.IntOrString"
            ))),
        }
    }
}

impl IntOrString {
    /// `intstr.GetScaledValueFromIntOrPercent`: an int as is; `"N%"` scaled against `total`,
    /// rounded up (`ceil`) or down (`floor`) on float64 as upstream does.
    ///
    /// Concrete example: `"25%"` of 10 is 3 rounded up and 2 rounded down; `"39%"` of 10 is 4/3.
    ///
    /// # Errors
    /// `invalid value for IntOrString: invalid type: string is not a percentage` for a string
    /// without `%`, or `invalid value for IntOrString: invalid value "x%": ...` when the number
    /// does not parse.
    pub fn scaled_value(&self, total: i32, round_up: bool) -> Result<i32, String> {
        match self {
            IntOrString::Int(i) => Ok(*i),
            IntOrString::String(s) => {
                let Some(num) = s.strip_suffix('%') else {
                    return Err(
                        "invalid value for IntOrString: invalid type: string is not a percentage"
                            .into(),
                    );
                };
                let v: i64 = go_atoi(num).map_err(|why| {
                    format!(
                        "invalid value for IntOrString: invalid value {s:?}: strconv.Atoi: parsing {num:?}: {why}"
                    )
                })?;
                let x = v as f64 * f64::from(total) / 100.0;
                let r = if round_up { x.ceil() } else { x.floor() };
                Ok(go_float_to_int(r) as i32)
            }
        }
    }
}

/// Go's `int(f)` for a float64 on amd64 (`CVTTSD2SQ`): truncation toward zero, and the "integer
/// indefinite" value `math.MinInt64` for NaN or anything outside the int64 range (Rust's `as`
/// saturates instead). `GetScaledValueFromIntOrPercent` then goes through `int32(...)`, so a
/// percentage huge enough to overflow int64 (e.g. maxSurge `"999999999999%"` of 2147483647
/// replicas) scales to 0 as on a real (amd64) cluster, not to −1.
fn go_float_to_int(f: f64) -> i64 {
    // 2^63 is exactly representable; anything at or above it (or below −2^63) is out of range.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() || !(-LIMIT..LIMIT).contains(&f) {
        return i64::MIN;
    }
    f as i64
}

/// `strconv.Atoi` (64-bit `int`): optional sign then decimal digits only; the error is Go's
/// `invalid syntax` or, for digits beyond the int64 range, `value out of range`.
fn go_atoi(s: &str) -> Result<i64, &'static str> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("invalid syntax");
    }
    s.parse::<i64>().map_err(|_| "value out of range")
}

/// The value of Go's `v, _ := strconv.Atoi(s)` (64-bit `int`): 0 on a syntax error, and on a
/// range error the clamped `math.MaxInt64` / `math.MinInt64` that `ParseInt` returns with it
/// (apps validation's `getPercentValue` and `IntOrString.IntValue` ignore the error).
pub fn go_atoi_value(s: &str) -> i64 {
    match go_atoi(s) {
        Ok(v) => v,
        Err("value out of range") if s.starts_with('-') => i64::MIN,
        Err("value out of range") => i64::MAX,
        Err(_) => 0,
    }
}

/// `intstr.GetScaledValueFromIntOrPercent` on an optional value (`nil` is an error upstream).
///
/// # Errors
/// `nil value for IntOrString`, or see [`IntOrString::scaled_value`].
pub fn get_scaled_value_from_int_or_percent(
    v: Option<&IntOrString>,
    total: i32,
    round_up: bool,
) -> Result<i32, String> {
    match v {
        None => Err("nil value for IntOrString".into()),
        Some(v) => v.scaled_value(total, round_up),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Port of TestGetScaledValueFromIntOrPercent (apimachinery/pkg/util/intstr/intstr_test.go).
    #[test]
    fn scaled_values() {
        let cases: &[(IntOrString, i32, bool, Option<i32>)] = &[
            (IntOrString::Int(123), 0, false, Some(123)),
            ("90%".into(), 100, true, Some(90)),
            ("90%".into(), 95, true, Some(86)),
            ("90%".into(), 95, false, Some(85)),
            ("%".into(), 0, false, None),
            ("#%".into(), 0, false, None),
            ("90".into(), 100, false, None),
        ];
        for (v, total, up, want) in cases {
            let got = v.scaled_value(*total, *up).ok();
            assert_eq!(got, *want, "{v} of {total} (round up {up})");
        }
        assert!(get_scaled_value_from_int_or_percent(None, 10, true).is_err());
    }

    /// strconv.Atoi's two failure messages, as GetScaledValueFromIntOrPercent wraps them.
    #[test]
    fn scaled_value_error_messages() {
        let big = IntOrString::from("99999999999999999999%");
        assert_eq!(
            big.scaled_value(10, true).unwrap_err(),
            "invalid value for IntOrString: invalid value \"99999999999999999999%\": \
             strconv.Atoi: parsing \"99999999999999999999\": value out of range"
        );
        let bad = IntOrString::from("5.5%");
        assert_eq!(
            bad.scaled_value(10, true).unwrap_err(),
            "invalid value for IntOrString: invalid value \"5.5%\": strconv.Atoi: parsing \"5.5\": \
             invalid syntax"
        );
        // Within int64 but beyond int32: Go's 64-bit int parses it.
        assert!(IntOrString::from("3000000000%")
            .scaled_value(0, true)
            .is_ok());
    }

    #[test]
    fn json_shape() {
        let v: IntOrString = serde_json::from_str("1").unwrap();
        assert_eq!(v, IntOrString::Int(1));
        let v: IntOrString = serde_json::from_str("\"25%\"").unwrap();
        assert_eq!(v, IntOrString::String("25%".into()));
        assert!(serde_json::from_str::<IntOrString>("1.5").is_err());
        assert_eq!(serde_json::to_string(&IntOrString::Int(3)).unwrap(), "3");
        assert_eq!(
            serde_json::to_string(&IntOrString::from("25%")).unwrap(),
            "\"25%\""
        );
    }
}
