//! `Time` (metav1.Time on the virtual clock) and `Duration`, with RFC 3339 and Go-style parsing.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An instant on the simulation clock: milliseconds since the Unix epoch.
///
/// Serialised as Kubernetes serialises `metav1.Time`: RFC 3339 in UTC with whole seconds
/// (`2025-01-01T00:00:00Z`). Objects only ever carry whole seconds (see [`Time::trunc_secs`]),
/// as the API server does; the clock itself runs in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub i64);

/// A span of virtual time in milliseconds (may be negative when subtracting instants).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(pub i64);

impl Duration {
    pub const ZERO: Duration = Duration(0);
    /// Go's `time.Duration(s) * time.Second`: nanoseconds in an int64 that wraps, here kept in
    /// milliseconds. Exact for any realistic value (|s| below about 292 years); a larger one
    /// (an API field such as `activeDeadlineSeconds` validated only as positive) wraps as it does
    /// in the controllers, e.g. `i64::MAX` seconds is −1 s.
    pub const fn from_secs(s: i64) -> Self {
        Duration(s.wrapping_mul(1_000_000_000) / 1_000_000)
    }
    pub const fn from_millis(ms: i64) -> Self {
        Duration(ms)
    }
    pub const fn from_mins(m: i64) -> Self {
        Duration(m * 60_000)
    }
    pub const fn as_millis(self) -> i64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// Parses `90s`, `1m30s`, `2h`, `500ms`, `1.5s`, `1d` (days are a kubeplay convenience) or a
    /// bare number of seconds.
    ///
    /// # Errors
    /// A message naming the input when it is not a duration.
    pub fn parse(s: &str) -> Result<Duration, String> {
        let t = s.trim();
        let bad = || format!("invalid duration {t:?}: expected e.g. 90s, 1m30s, 2h, 500ms");
        if t.is_empty() {
            return Err(bad());
        }
        if let Ok(n) = t.parse::<f64>() {
            if !n.is_finite() || n.abs() > 1e13 {
                return Err(bad());
            }
            return Ok(Duration((n * 1000.0).round() as i64));
        }
        let (neg, mut rest) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let mut total: f64 = 0.0;
        while !rest.is_empty() {
            let num_end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .ok_or_else(bad)?;
            if num_end == 0 {
                return Err(bad());
            }
            let n: f64 = rest[..num_end].parse().map_err(|_| bad())?;
            rest = &rest[num_end..];
            let unit_end = rest
                .find(|c: char| c.is_ascii_digit() || c == '.')
                .unwrap_or(rest.len());
            let mult = match &rest[..unit_end] {
                "ms" => 1.0,
                "s" => 1000.0,
                "m" => 60_000.0,
                "h" => 3_600_000.0,
                "d" => 86_400_000.0,
                _ => return Err(bad()),
            };
            total += n * mult;
            rest = &rest[unit_end..];
        }
        if total > 1e16 {
            return Err(bad());
        }
        let ms = total.round() as i64;
        Ok(Duration(if neg { -ms } else { ms }))
    }
}

impl fmt::Display for Duration {
    /// Go's `time.Duration` style: `1m30s`, `500ms`, `0s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ms = self.0;
        if ms == 0 {
            return f.write_str("0s");
        }
        if ms < 0 {
            f.write_str("-")?;
            ms = -ms;
        }
        if ms < 1000 {
            return write!(f, "{ms}ms");
        }
        let h = ms / 3_600_000;
        let m = (ms / 60_000) % 60;
        let s = (ms / 1000) % 60;
        let frac = ms % 1000;
        if h > 0 {
            write!(f, "{h}h{m}m")?;
        } else if m > 0 {
            write!(f, "{m}m")?;
        }
        if frac > 0 {
            let fs = format!("{frac:03}");
            write!(f, "{s}.{}s", fs.trim_end_matches('0'))
        } else {
            write!(f, "{s}s")
        }
    }
}

impl std::ops::Add<Duration> for Time {
    type Output = Time;
    fn add(self, d: Duration) -> Time {
        Time(self.0.saturating_add(d.0))
    }
}
impl std::ops::Sub<Duration> for Time {
    type Output = Time;
    fn sub(self, d: Duration) -> Time {
        Time(self.0.saturating_sub(d.0))
    }
}
impl std::ops::Sub<Time> for Time {
    type Output = Duration;
    fn sub(self, t: Time) -> Duration {
        Duration(self.0.saturating_sub(t.0))
    }
}
impl std::ops::Add for Duration {
    type Output = Duration;
    fn add(self, d: Duration) -> Duration {
        Duration(self.0.saturating_add(d.0))
    }
}

/// Days since 1970-01-01 → (year, month, day). Howard Hinnant's `civil_from_days`.
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month, day) → days since 1970-01-01. Howard Hinnant's `days_from_civil`.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

impl Time {
    /// The zero time (Go's `time.Time{}`), which kubeplay never uses as a real instant.
    pub const ZERO: Time = Time(i64::MIN);

    pub fn is_zero(self) -> bool {
        self == Time::ZERO
    }

    /// Whole seconds, as objects carry them.
    pub fn trunc_secs(self) -> Time {
        if self.is_zero() {
            return self;
        }
        Time(self.0.div_euclid(1000) * 1000)
    }

    pub fn unix_secs(self) -> i64 {
        self.0.div_euclid(1000)
    }

    pub fn from_unix_secs(s: i64) -> Time {
        Time(s * 1000)
    }

    /// `(year, month, day, hour, minute, second, weekday 0=Sunday)` in UTC.
    pub fn civil(self) -> (i64, u32, u32, u32, u32, u32, u32) {
        let secs = self.0.div_euclid(1000);
        let days = secs.div_euclid(86_400);
        let sod = secs.rem_euclid(86_400);
        let (y, mo, d) = civil_from_days(days);
        let wd = (days + 4).rem_euclid(7) as u32;
        (
            y,
            mo,
            d,
            (sod / 3600) as u32,
            ((sod / 60) % 60) as u32,
            (sod % 60) as u32,
            wd,
        )
    }

    /// RFC 3339 in UTC with whole seconds.
    pub fn to_rfc3339(self) -> String {
        let (y, mo, d, h, mi, s, _) = self.civil();
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
    }

    /// RFC 3339 with milliseconds (for event traces, like metav1.MicroTime).
    pub fn to_rfc3339_millis(self) -> String {
        let (y, mo, d, h, mi, s, _) = self.civil();
        let ms = self.0.rem_euclid(1000);
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{ms:03}Z")
    }

    /// Parses RFC 3339 (`2025-01-01T00:00:00Z`, fractional seconds and `±hh:mm` offsets accepted).
    ///
    /// # Errors
    /// A message naming the input when it is not an RFC 3339 timestamp.
    pub fn parse_rfc3339(s: &str) -> Result<Time, String> {
        let bad = || format!("parsing time {s:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse");
        let b = s.as_bytes();
        if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b't') {
            return Err(bad());
        }
        let num = |r: std::ops::Range<usize>| -> Result<i64, String> {
            let part = s.get(r).ok_or_else(bad)?;
            if !part.bytes().all(|c| c.is_ascii_digit()) {
                return Err(bad());
            }
            part.parse::<i64>().map_err(|_| bad())
        };
        let (y, mo, d, h, mi, se) = (
            num(0..4)?,
            num(5..7)?,
            num(8..10)?,
            num(11..13)?,
            num(14..16)?,
            num(17..19)?,
        );
        if b[13] != b':' || b[16] != b':' {
            return Err(bad());
        }
        if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
            return Err(bad());
        }
        let mut i = 19;
        let mut ms = 0i64;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == start {
                return Err(bad());
            }
            let frac = &s[start..i.min(start + 3)];
            ms = frac.parse::<i64>().map_err(|_| bad())? * 10i64.pow(3 - frac.len() as u32);
        }
        let offset_secs = match b.get(i) {
            Some(b'Z') | Some(b'z') if i + 1 == b.len() => 0,
            Some(c @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
                let oh = num(i + 1..i + 3)?;
                let om = num(i + 4..i + 6)?;
                let o = oh * 3600 + om * 60;
                if *c == b'+' {
                    o
                } else {
                    -o
                }
            }
            _ => return Err(bad()),
        };
        let days = days_from_civil(y, mo as u32, d as u32);
        let secs = days * 86_400 + h * 3600 + mi * 60 + se - offset_secs;
        Ok(Time(secs * 1000 + ms))
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Time::parse_rfc3339(&s).map_err(serde::de::Error::custom)
    }
}

/// kubectl's `duration.HumanDuration` (the AGE column): `45s`, `5m10s`, `3h`, `2d5h`, `3y`.
pub fn human_duration(d: Duration) -> String {
    let secs = d.0 / 1000;
    if secs < -1 {
        return "<invalid>".into();
    } else if secs < 0 {
        return "0s".into();
    } else if secs < 60 * 2 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        let s = secs % 60;
        if s == 0 {
            return format!("{minutes}m");
        }
        return format!("{minutes}m{s}s");
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        if m == 0 {
            return format!("{hours}h");
        }
        return format!("{hours}h{m}m");
    } else if hours < 48 {
        return format!("{hours}h");
    } else if hours < 24 * 8 {
        let h = hours % 24;
        if h == 0 {
            return format!("{}d", hours / 24);
        }
        return format!("{}d{h}h", hours / 24);
    } else if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        if dy == 0 {
            return format!("{}y", hours / 24 / 365);
        }
        return format!("{}y{dy}d", hours / 24 / 365);
    }
    format!("{}y", hours / 24 / 365)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_secs_is_go_duration_seconds() {
        assert_eq!(Duration::from_secs(90), Duration(90_000));
        assert_eq!(Duration::from_secs(-3), Duration(-3_000));
        // time.Duration(math.MaxInt64) * time.Second == -1s in Go (int64 nanoseconds wrap).
        assert_eq!(Duration::from_secs(i64::MAX), Duration(-1_000));
        // The largest whole number of seconds that does not wrap, and the first that does.
        assert_eq!(
            Duration::from_secs(9_223_372_036),
            Duration(9_223_372_036_000)
        );
        assert!(Duration::from_secs(9_223_372_037).0 < 0);
    }

    #[test]
    fn rfc3339_round_trip() {
        let t = Time::parse_rfc3339("2025-03-01T08:29:00Z").unwrap();
        assert_eq!(t.to_rfc3339(), "2025-03-01T08:29:00Z");
        let t2 = Time::parse_rfc3339("2025-03-01T10:29:00+02:00").unwrap();
        assert_eq!(t, t2);
        assert_eq!(
            Time::parse_rfc3339("2025-03-01T08:29:00.250Z").unwrap().0 - t.0,
            250
        );
        assert!(Time::parse_rfc3339("2025-13-01T00:00:00Z").is_err());
        assert!(Time::parse_rfc3339("yesterday").is_err());
        assert_eq!(Time(0).civil().6, 4, "1970-01-01 was a Thursday");
    }

    #[test]
    fn durations() {
        assert_eq!(Duration::parse("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(Duration::parse("500ms").unwrap(), Duration(500));
        assert_eq!(Duration::parse("2").unwrap(), Duration::from_secs(2));
        assert_eq!(Duration::parse("1.5s").unwrap(), Duration(1500));
        assert!(Duration::parse("5 parsecs").is_err());
        assert!(Duration::parse("").is_err());
        assert_eq!(Duration::from_secs(90).to_string(), "1m30s");
        assert_eq!(Duration(1500).to_string(), "1.5s");
        assert_eq!(Duration::from_secs(7200).to_string(), "2h0m0s");
    }

    const S: i64 = 1000;
    const M: i64 = 60 * S;
    const H: i64 = 60 * M;
    const D: i64 = 24 * H;
    const Y: i64 = 365 * D;

    fn hd(ms: i64) -> String {
        human_duration(Duration(ms))
    }

    // Upstream: TestHumanDuration (staging/src/k8s.io/apimachinery/pkg/util/duration/duration_test.go),
    // all ten rows.
    #[test]
    fn human_duration_upstream_table() {
        let cases = [
            (S, "1s"),
            (70 * S, "70s"),
            (190 * S, "3m10s"),
            (70 * M, "70m"),
            (47 * H, "47h"),
            (49 * H, "2d1h"),
            ((8 * 24 + 2) * H, "8d"),
            (367 * D, "367d"),
            (2 * Y + 25 * H, "2y1d"),
            (8 * Y + 2 * H, "8y"),
        ];
        for (ms, want) in cases {
            assert_eq!(hd(ms), want, "{ms}ms");
        }
    }

    // Upstream: TestHumanDurationBoundaries (same file). Our Duration has millisecond
    // resolution, so the row `-2*time.Second + 1` (one nanosecond above -2s) is ported as
    // -2s + 1ms: both truncate to -1 whole seconds and print "0s".
    #[test]
    fn human_duration_boundaries() {
        let cases = [
            (-2 * S, "<invalid>"),
            (-2 * S + 1, "0s"),
            (0, "0s"),
            (S - 1, "0s"),
            (2 * M - 1, "119s"),
            (2 * M, "2m"),
            (2 * M + S, "2m1s"),
            (10 * M - 1, "9m59s"),
            (10 * M, "10m"),
            (10 * M + S, "10m"),
            (3 * H - 1, "179m"),
            (3 * H, "3h"),
            (3 * H + M, "3h1m"),
            (8 * H - 1, "7h59m"),
            (8 * H, "8h"),
            (8 * H + 59 * M, "8h"),
            (2 * D - 1, "47h"),
            (2 * D, "2d"),
            (2 * D + H, "2d1h"),
            (8 * D - 1, "7d23h"),
            (8 * D, "8d"),
            (8 * D + 23 * H, "8d"),
            (2 * Y - 1, "729d"),
            (2 * Y, "2y"),
            (2 * Y + 23 * H, "2y"),
            (2 * Y + 23 * H + 59 * M, "2y"),
            (2 * Y + D - 1, "2y"),
            (2 * Y + D, "2y1d"),
            (3 * Y, "3y"),
            (4 * Y, "4y"),
            (5 * Y, "5y"),
            (6 * Y, "6y"),
            (7 * Y, "7y"),
            (8 * Y - 1, "7y364d"),
            (8 * Y, "8y"),
            (8 * Y + 364 * D, "8y"),
            (9 * Y, "9y"),
        ];
        for (ms, want) in cases {
            assert_eq!(hd(ms), want, "{ms}ms");
        }
    }
    // Not ported: TestShortHumanDurationBoundaries — kubeplay has no ShortHumanDuration
    // (none of the modelled kubectl outputs use it).

    /// Port of k8s.io/apimachinery/pkg/util/duration TestHumanDuration (selected rows).
    #[test]
    fn human_duration_table() {
        let cases = [
            (1, "1s"),
            (119, "119s"),
            (120, "2m"),
            (121, "2m1s"),
            (600, "10m"),
            (3 * 3600 - 1, "179m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 60, "3h1m"),
            (8 * 3600, "8h"),
            (47 * 3600 + 59 * 60, "47h"),
            (48 * 3600, "2d"),
            (48 * 3600 + 3600, "2d1h"),
            (8 * 24 * 3600, "8d"),
            (2 * 365 * 24 * 3600, "2y"),
            (2 * 365 * 24 * 3600 + 24 * 3600, "2y1d"),
            (8 * 365 * 24 * 3600, "8y"),
        ];
        for (secs, want) in cases {
            assert_eq!(human_duration(Duration::from_secs(secs)), want, "{secs}");
        }
    }
}
