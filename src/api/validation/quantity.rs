//! Exact `resource.Quantity` parsing and canonical printing (`Quantity.String()`), as the API
//! server stores and prints quantities (`0.5` → `500m`, `1024Mi` → `1Gi`, `1000` → `1k`).
//!
//! Values are held exactly as an `i128` count of nano-units (upstream's finest precision; finer
//! inputs are rounded up to 1n like `ParseQuantity`). Inputs whose magnitude does not fit
//! (above ~1.7e29 units) are rejected with upstream's numeric-part error instead of being
//! carried as arbitrary-precision decimals.

/// `ErrFormatWrong`.
pub const ERR_FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// `ErrNumeric`.
pub const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";
/// `ErrSuffix`.
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";

const NANO: i128 = 1_000_000_000;

/// `resource.Format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantityFormat {
    DecimalSI,
    BinarySI,
    DecimalExponent,
}

/// A parsed quantity: its exact value in nano-units, its format and, when upstream's fast path
/// keeps the input verbatim, the string it prints as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedQuantity {
    pub nanos: i128,
    pub format: QuantityFormat,
    /// `q.s`: set when the input is already canonical (upstream then prints it unchanged).
    kept: Option<String>,
    /// The int64 fast path's scale (power of ten of the last digit), `None` on the slow path.
    fast_scale: Option<i32>,
}

struct Pieces<'a> {
    positive: bool,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

/// `parseQuantityString`.
fn split_quantity(s: &str) -> Result<Pieces<'_>, &'static str> {
    let b = s.as_bytes();
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    if pos < end {
        match b[0] {
            b'-' => {
                positive = false;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
    }
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok(Pieces {
            positive,
            num: "0",
            denom: "",
            suffix: "",
        });
    }
    let start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    let mut num = &s[start..pos];
    if num.is_empty() {
        num = "0";
    }
    let mut denom = "";
    if pos < end && b[pos] == b'.' {
        pos += 1;
        let ds = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        denom = &s[ds..pos];
    }
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && (b[pos] == b'-' || b[pos] == b'+') {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos < end {
        return Err(ERR_FORMAT_WRONG);
    }
    Ok(Pieces {
        positive,
        num,
        denom,
        suffix: &s[suffix_start..],
    })
}

/// `suffixer.interpret`: (base, exponent, format).
fn interpret_suffix(suffix: &str) -> Option<(u32, i32, QuantityFormat)> {
    use QuantityFormat::*;
    let dec = |e| Some((10, e, DecimalSI));
    let bin = |e| Some((2, e, BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        s if s.len() > 1 && (s.starts_with('e') || s.starts_with('E')) => {
            let e: i64 = s[1..].parse().ok()?;
            let e = i32::try_from(e).ok()?;
            Some((10, e, DecimalExponent))
        }
        _ => None,
    }
}

fn pow10(e: u32) -> Option<i128> {
    10i128.checked_pow(e)
}

/// Divides a non-negative `v` by `10^e`, rounding up (inf.RoundUp on a magnitude).
fn div_pow10_round_up(v: i128, e: u32) -> i128 {
    match pow10(e) {
        Some(d) => v / d + i128::from(v % d != 0),
        None => i128::from(v != 0),
    }
}

/// `resource.ParseQuantity`.
///
/// # Errors
/// Upstream's `ErrFormatWrong`, `ErrSuffix` or `ErrNumeric` message.
pub fn parse_quantity(s: &str) -> Result<ParsedQuantity, &'static str> {
    if s.is_empty() {
        return Err(ERR_FORMAT_WRONG);
    }
    if s == "0" {
        return Ok(ParsedQuantity {
            nanos: 0,
            format: QuantityFormat::DecimalSI,
            kept: Some(s.to_string()),
            fast_scale: Some(0),
        });
    }
    let p = split_quantity(s)?;
    let (base, exponent, format) = interpret_suffix(p.suffix).ok_or(ERR_SUFFIX)?;
    let shifted = format!("{}{}", p.num, p.denom);
    let digits: i128 = shifted.parse().map_err(|_| ERR_NUMERIC)?;
    let denom_len = p.denom.len() as i64;

    // Exact magnitude in nano-units, rounded up below 1n.
    let mut nanos: i128 = if base == 10 {
        let e = i64::from(exponent) - denom_len + 9;
        if e >= 0 {
            let m = pow10(u32::try_from(e).map_err(|_| ERR_NUMERIC)?).ok_or(ERR_NUMERIC)?;
            digits.checked_mul(m).ok_or(ERR_NUMERIC)?
        } else {
            div_pow10_round_up(digits, u32::try_from(-e).unwrap_or(u32::MAX))
        }
    } else {
        let two = 1i128
            .checked_shl(u32::try_from(exponent).map_err(|_| ERR_NUMERIC)?)
            .ok_or(ERR_NUMERIC)?;
        let scaled = digits
            .checked_mul(two)
            .and_then(|v| v.checked_mul(NANO))
            .ok_or(ERR_NUMERIC)?;
        div_pow10_round_up(scaled, u32::try_from(denom_len).unwrap_or(u32::MAX))
    };
    if format == QuantityFormat::BinarySI {
        // `maxAllowed` caps binary quantities at MaxInt64 units.
        let cap = i128::from(i64::MAX) * NANO;
        if nanos > cap {
            nanos = cap;
        }
    }
    if !p.positive {
        nanos = -nanos;
    }

    // The int64 fast path, which keeps an already-canonical input string verbatim.
    let mut kept = None;
    let mut fast_scale = None;
    let total_digits = (p.num.len() + p.denom.len()) as i64;
    let (precision, scale) = match format {
        QuantityFormat::BinarySI => {
            if exponent >= 0 && p.denom.is_empty() {
                (
                    15 - p.num.len() as i64 - (exponent as f32 * 3.0 / 10.0) as i64 - 1,
                    0i64,
                )
            } else {
                (-1, 0)
            }
        }
        _ => (18 - total_digits, i64::from(exponent) - denom_len),
    };
    if precision >= 0 && scale >= -9 {
        if let Ok(value) = shifted.parse::<i64>() {
            let mantissa: i64 = if format == QuantityFormat::BinarySI {
                1i64.checked_shl(exponent as u32).unwrap_or(0)
            } else {
                1
            };
            if value.checked_mul(mantissa).is_some() && mantissa != 0 {
                fast_scale = Some(scale as i32);
                let canonical_input = match format {
                    QuantityFormat::BinarySI => exponent % 10 == 0 && (value & 0x07) != 0,
                    _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
                };
                if canonical_input {
                    kept = Some(s.to_string());
                }
            }
        }
    }
    Ok(ParsedQuantity {
        nanos,
        format,
        kept,
        fast_scale,
    })
}

fn remove_factors(mut v: i128, base: i128) -> (i128, i32) {
    let neg = v < 0;
    if neg {
        v = -v;
    }
    let mut times = 0;
    while v >= base && v % base == 0 {
        v /= base;
        times += 1;
    }
    (if neg { -v } else { v }, times)
}

fn decimal_suffix(exp: i32, format: QuantityFormat) -> String {
    if format == QuantityFormat::DecimalExponent {
        return if exp == 0 {
            String::new()
        } else {
            format!("e{exp}")
        };
    }
    match exp {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        // 0, and (as upstream's suffix table) no suffix for exponents outside it.
        _ => "",
    }
    .to_string()
}

/// `AsCanonicalBytes` + the decimal suffix: strip factors of ten, then lower the exponent to a
/// multiple of three.
fn canonical_decimal(nanos: i128, format: QuantityFormat) -> String {
    let (mut m, times) = remove_factors(nanos, 10);
    let mut exp = times - 9;
    match exp % 3 {
        1 | -2 => {
            m *= 10;
            exp -= 1;
        }
        2 | -1 => {
            m *= 100;
            exp -= 2;
        }
        _ => {}
    }
    format!("{m}{}", decimal_suffix(exp, format))
}

impl ParsedQuantity {
    /// `Quantity.String()`.
    pub fn canonical(&self) -> String {
        if let Some(k) = &self.kept {
            return k.clone();
        }
        if self.nanos == 0 {
            return "0".into();
        }
        match self.format {
            QuantityFormat::BinarySI
                if self.nanos.abs() >= 1024 * NANO && self.nanos % NANO == 0 =>
            {
                let (amount, times) = remove_factors(self.nanos / NANO, 1024);
                let suffix = match times {
                    0 => "",
                    1 => "Ki",
                    2 => "Mi",
                    3 => "Gi",
                    4 => "Ti",
                    5 => "Pi",
                    6 => "Ei",
                    _ => "",
                };
                format!("{amount}{suffix}")
            }
            QuantityFormat::BinarySI => canonical_decimal(self.nanos, QuantityFormat::DecimalSI),
            f => canonical_decimal(self.nanos, f),
        }
    }

    /// `Quantity.RoundUp(resource.Milli)` as `SetDefaults_ResourceList` applies it: values finer
    /// than 1m are rounded up and lose their verbatim string.
    pub fn round_up_milli(&self) -> ParsedQuantity {
        if matches!(self.fast_scale, Some(s) if s >= -3) {
            return self.clone();
        }
        let unit = 1_000_000i128; // 1m in nano-units
        let q = self.nanos / unit;
        let rem = self.nanos % unit;
        // Go's int64 path truncates then adds one when a remainder is left.
        let nanos = (q + i128::from(rem != 0)) * unit;
        ParsedQuantity {
            nanos,
            format: self.format,
            kept: None,
            fast_scale: Some(-3),
        }
    }

    /// `Quantity.Add`: the exact sum, printed canonically (the verbatim string is dropped); the
    /// format is the receiver's unless the receiver is zero.
    pub fn add(&self, other: &ParsedQuantity) -> ParsedQuantity {
        ParsedQuantity {
            nanos: self.nanos + other.nanos,
            format: if self.nanos == 0 {
                other.format
            } else {
                self.format
            },
            kept: None,
            fast_scale: None,
        }
    }

    /// The zero `Quantity` (prints `0`).
    pub fn zero() -> ParsedQuantity {
        ParsedQuantity {
            nanos: 0,
            format: QuantityFormat::DecimalSI,
            kept: None,
            fast_scale: None,
        }
    }

    /// `MilliValue()`: rounded up to the next milli-unit.
    pub fn milli_value(&self) -> i128 {
        let unit = 1_000_000i128;
        let q = self.nanos.div_euclid(unit);
        if self.nanos.rem_euclid(unit) != 0 {
            q + 1
        } else {
            q
        }
    }
}

/// The string the API server stores for a quantity after `SetDefaults_ResourceList`, or `None`
/// when the input does not parse (validation reports it).
pub fn canonical_resource_quantity(s: &str) -> Option<String> {
    parse_quantity(s.trim())
        .ok()
        .map(|q| q.round_up_milli().canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        parse_quantity(s).unwrap().canonical()
    }

    // Rows from TestQuantityParse / TestQuantityString (apimachinery/pkg/api/resource/quantity_test.go).
    #[test]
    fn canonical_strings() {
        let cases = [
            ("0", "0"),
            ("0.5", "500m"),
            ("1", "1"),
            ("1000", "1k"),
            ("1000m", "1"),
            ("1500m", "1500m"),
            ("1.5", "1500m"),
            ("100m", "100m"),
            ("2000m", "2"),
            ("1024Mi", "1Gi"),
            ("1Ki", "1Ki"),
            ("100Mi", "100Mi"),
            ("512", "512"),
            ("1.5Gi", "1536Mi"),
            ("1e3", "1e3"),
            ("1e6", "1e6"),
            ("1E6", "1E6"),
            ("10e3", "10e3"),
            ("100e3", "100e3"),
            ("1000e3", "1e6"),
            ("1M", "1M"),
            ("1000k", "1M"),
            ("1n", "1n"),
            ("0.1n", "1n"),
            ("1.1n", "2n"),
            ("-1", "-1"),
            ("-1.5", "-1500m"),
            ("128974848", "128974848"),
            ("129e6", "129e6"),
            ("123Mi", "123Mi"),
            ("1024", "1024"),
            ("2048Ki", "2Mi"),
            (".5", "500m"),
            // Upstream keeps an already-canonical int64 input verbatim, trailing dot included.
            ("1.", "1."),
        ];
        for (input, want) in cases {
            assert_eq!(canon(input), want, "{input}");
        }
        for bad in ["", "abc", "1.2.3", "1Qi", "--1", "1e", "1ee3", "1 Gi"] {
            assert!(parse_quantity(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_quantity("abc"), Err(ERR_FORMAT_WRONG));
        assert_eq!(parse_quantity("1Qi"), Err(ERR_FORMAT_WRONG));
        assert_eq!(parse_quantity("1e"), Err(ERR_SUFFIX));
        assert_eq!(parse_quantity("1ee3"), Err(ERR_SUFFIX));
    }

    // SetDefaults_ResourceList rounds to milli scale (TestSetDefaultResourceRequirements rows).
    #[test]
    fn round_up_to_milli() {
        assert_eq!(canonical_resource_quantity("1n").unwrap(), "1m");
        assert_eq!(canonical_resource_quantity("1001u").unwrap(), "2m");
        assert_eq!(canonical_resource_quantity("100m").unwrap(), "100m");
        assert_eq!(canonical_resource_quantity("0.5").unwrap(), "500m");
        assert_eq!(canonical_resource_quantity("1Gi").unwrap(), "1Gi");
        assert!(canonical_resource_quantity("x").is_none());
    }

    #[test]
    fn values_and_comparisons() {
        assert_eq!(parse_quantity("100m").unwrap().milli_value(), 100);
        assert_eq!(parse_quantity("1Ki").unwrap().milli_value(), 1_024_000);
        assert_eq!(parse_quantity("1n").unwrap().milli_value(), 1);
        assert!(parse_quantity("2").unwrap().nanos > parse_quantity("1500m").unwrap().nanos);
        // Huge inputs do not panic.
        assert!(parse_quantity(&"9".repeat(60)).is_err());
        assert!(parse_quantity("1e999999999999").is_err());
        assert!(parse_quantity("1e-999999").is_ok());
        let _ = parse_quantity("99999999999999999999Ei");
        // A bare suffix parses as zero, as upstream's parser allows.
        assert_eq!(parse_quantity("m").unwrap().nanos, 0);
    }
}
