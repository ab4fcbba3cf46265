//! Time zones for cron schedules: IANA names resolved to POSIX TZ rules, and Go's `time.Date`
//! arithmetic (wall clock ↔ instant) in a zone.
//!
//! # Data and its size
//! [`super::tzdata`] pairs every IANA zone and link name (598 in tzdata 2025b) with the POSIX TZ
//! rule its TZif file ends with (95 distinct rules): about 19 KB of Rust source. Measured on the
//! release wasm32 build (opt-level z, LTO, before wasm-opt): 3,386,424 bytes with the table,
//! 3,368,555 with it cut to one zone, so the data costs about 17.5 KB. `chrono-tz` (full
//! transition history of every zone unless filtered at build time) and `jiff` with its bundled
//! database (the compiled TZif files) carry the whole history and were not measured here; they
//! are larger by construction, and the history only matters for instants in the past.
//!
//! # Deviation
//! Only the current rule of each zone is known, so instants before the zone's last rule change
//! use today's offsets (Go uses the historical transitions). Scenarios run in the present, where
//! both agree; a zone whose rule is a fixed offset but which still lists future transitions
//! explicitly (Africa/Casablanca's Ramadan changes) is treated as fixed.

use super::tzdata::{RULES, ZONES};
use crate::api::{civil_from_days, days_from_civil};

/// One rule of the POSIX TZ grammar `STDoff[DST[off][,start[/time],end[/time]]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PosixTz {
    pub std_abbr: String,
    /// Seconds east of UTC (the negation of the POSIX offset).
    pub std_offset: i64,
    pub dst: Option<Dst>,
}

/// The daylight-saving part of a [`PosixTz`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dst {
    pub abbr: String,
    /// Seconds east of UTC.
    pub offset: i64,
    pub start: TransitionRule,
    pub end: TransitionRule,
}

/// When a transition happens, in local time: a day rule and seconds after midnight (may be
/// negative or past 24 h, as POSIX allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransitionRule {
    pub day: DayRule,
    pub time: i64,
}

/// `Jn` (1..=365, February 29 never counted), `n` (0..=365, counted), `Mm.w.d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DayRule {
    Julian1(i64),
    Julian0(i64),
    MonthWeekDay { month: u32, week: u32, weekday: u32 },
}

/// Where wall-clock fields are evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Utc,
    /// A fixed offset in seconds east of UTC (used by tests that mimic Go's `time.Parse` zones).
    Fixed(i64),
    /// A named IANA zone and its rule.
    Zone {
        name: String,
        rule: PosixTz,
    },
}

impl Location {
    /// The name Go's `Location.String` reports.
    pub fn name(&self) -> String {
        match self {
            Location::Utc => "UTC".into(),
            Location::Fixed(o) => format!("{o:+}"),
            Location::Zone { name, .. } => name.clone(),
        }
    }
}

/// `time.LoadLocation`: `""` and `"UTC"` are UTC, `"Local"` is the controller's zone (UTC in
/// kubeplay, as kube-controller-manager usually runs in UTC), anything else must be an IANA name.
///
/// # Errors
/// Go's message: `unknown time zone <name>`.
pub fn load_location(name: &str) -> Result<Location, String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(Location::Utc);
    }
    match ZONES.binary_search_by(|(n, _)| n.cmp(&name)) {
        Ok(i) => {
            let rule = parse_posix_tz(RULES[ZONES[i].1 as usize])
                .ok_or_else(|| format!("unknown time zone {name}"))?;
            Ok(Location::Zone {
                name: name.to_string(),
                rule,
            })
        }
        Err(_) => Err(format!("unknown time zone {name}")),
    }
}

/// Every zone name [`load_location`] knows, sorted.
pub fn zone_names() -> impl Iterator<Item = &'static str> {
    ZONES.iter().map(|(n, _)| *n)
}

// ---------------------------------------------------------------------------------------------
// POSIX TZ parsing
// ---------------------------------------------------------------------------------------------

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn name(&mut self) -> Option<String> {
        if self.eat(b'<') {
            let start = self.i;
            while self.peek()? != b'>' {
                self.i += 1;
            }
            let n = String::from_utf8_lossy(&self.s[start..self.i]).to_string();
            self.i += 1;
            return Some(n);
        }
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        (self.i - start >= 3).then(|| String::from_utf8_lossy(&self.s[start..self.i]).to_string())
    }
    fn num(&mut self) -> Option<i64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return None;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
    /// `[+-]hh[:mm[:ss]]` in seconds.
    fn hms(&mut self) -> Option<i64> {
        let neg = if self.eat(b'-') {
            true
        } else {
            self.eat(b'+');
            false
        };
        let mut v = self.num()? * 3600;
        if self.eat(b':') {
            v += self.num()? * 60;
            if self.eat(b':') {
                v += self.num()?;
            }
        }
        Some(if neg { -v } else { v })
    }
    fn rule(&mut self) -> Option<TransitionRule> {
        let day = if self.eat(b'M') {
            let month = self.num()? as u32;
            if !self.eat(b'.') {
                return None;
            }
            let week = self.num()? as u32;
            if !self.eat(b'.') {
                return None;
            }
            let weekday = self.num()? as u32;
            if !(1..=12).contains(&month) || !(1..=5).contains(&week) || weekday > 6 {
                return None;
            }
            DayRule::MonthWeekDay {
                month,
                week,
                weekday,
            }
        } else if self.eat(b'J') {
            DayRule::Julian1(self.num()?)
        } else {
            DayRule::Julian0(self.num()?)
        };
        let time = if self.eat(b'/') { self.hms()? } else { 7200 };
        Some(TransitionRule { day, time })
    }
}

/// Parses a POSIX TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`). A DST part without rules uses Go's
/// default `M3.2.0,M11.1.0`.
pub fn parse_posix_tz(s: &str) -> Option<PosixTz> {
    let mut c = Cursor {
        s: s.as_bytes(),
        i: 0,
    };
    let std_abbr = c.name()?;
    let std_offset = -c.hms()?;
    if c.peek().is_none() {
        return Some(PosixTz {
            std_abbr,
            std_offset,
            dst: None,
        });
    }
    let dst_abbr = c.name()?;
    let dst_offset = match c.peek() {
        Some(b',') | None => std_offset + 3600,
        _ => -c.hms()?,
    };
    let (start, end) = if c.eat(b',') {
        let a = c.rule()?;
        if !c.eat(b',') {
            return None;
        }
        (a, c.rule()?)
    } else {
        let m = |month, week| TransitionRule {
            day: DayRule::MonthWeekDay {
                month,
                week,
                weekday: 0,
            },
            time: 7200,
        };
        (m(3, 2), m(11, 1))
    };
    if c.peek().is_some() {
        return None;
    }
    Some(PosixTz {
        std_abbr,
        std_offset,
        dst: Some(Dst {
            abbr: dst_abbr,
            offset: dst_offset,
            start,
            end,
        }),
    })
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

/// Day of the year (0-based) a day rule falls on in `year`.
fn rule_yday(year: i64, r: DayRule) -> i64 {
    match r {
        DayRule::Julian1(n) => {
            let mut d = n - 1;
            if is_leap(year) && n >= 60 {
                d += 1;
            }
            d
        }
        DayRule::Julian0(n) => n,
        DayRule::MonthWeekDay {
            month,
            week,
            weekday,
        } => {
            let first = days_from_civil(year, month, 1);
            let year_start = days_from_civil(year, 1, 1);
            let wd_first = (first + 4).rem_euclid(7);
            let mut d = (i64::from(weekday) - wd_first).rem_euclid(7);
            let dim = days_in_month(year, month);
            d += 7 * (i64::from(week) - 1);
            while d >= dim {
                d -= 7;
            }
            first + d - year_start
        }
    }
}

/// Days in a month.
pub fn days_in_month(year: i64, month: u32) -> i64 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if is_leap(year) {
                29
            } else {
                28
            }
        }
    }
}

impl PosixTz {
    /// `(offset, start, end)`: the offset in effect at the Unix instant `utc` (seconds) and the
    /// instants bounding that period (`i64::MIN` / `i64::MAX` when unbounded), as Go's
    /// `Location.lookup` reports them.
    pub fn lookup(&self, utc: i64) -> (i64, i64, i64) {
        let Some(d) = &self.dst else {
            return (self.std_offset, i64::MIN, i64::MAX);
        };
        let (year, _, _) = civil_from_days(utc.div_euclid(86_400));
        // (instant, offset after it) for the neighbouring years, sorted.
        let mut ts = [(0i64, 0i64); 6];
        for (i, y) in (year - 1..=year + 1).enumerate() {
            let ys = days_from_civil(y, 1, 1) * 86_400;
            ts[2 * i] = (
                ys + rule_yday(y, d.start.day) * 86_400 + d.start.time - self.std_offset,
                d.offset,
            );
            ts[2 * i + 1] = (
                ys + rule_yday(y, d.end.day) * 86_400 + d.end.time - d.offset,
                self.std_offset,
            );
        }
        ts.sort_unstable();
        // Before the first transition the other offset applies.
        let before_first = if ts[0].1 == d.offset {
            self.std_offset
        } else {
            d.offset
        };
        let mut cur = (i64::MIN, before_first);
        for &(t, off) in &ts {
            if t > utc {
                return (cur.1, cur.0, t);
            }
            cur = (t, off);
        }
        (cur.1, cur.0, i64::MAX)
    }
}

impl Location {
    /// Go's `loc.lookup(sec)`: (offset east in seconds, period start, period end).
    pub fn lookup(&self, utc: i64) -> (i64, i64, i64) {
        match self {
            Location::Utc => (0, i64::MIN, i64::MAX),
            Location::Fixed(o) => (*o, i64::MIN, i64::MAX),
            Location::Zone { rule, .. } => rule.lookup(utc),
        }
    }

    /// Seconds east of UTC at the instant `utc`.
    pub fn offset_at(&self, utc: i64) -> i64 {
        self.lookup(utc).0
    }

    /// The zone abbreviation at `utc` (`CET`, `EDT`, `UTC`).
    pub fn abbreviation_at(&self, utc: i64) -> String {
        match self {
            Location::Utc => "UTC".into(),
            Location::Fixed(_) => String::new(),
            Location::Zone { rule, .. } => {
                let off = rule.lookup(utc).0;
                match &rule.dst {
                    Some(d) if off == d.offset && off != rule.std_offset => d.abbr.clone(),
                    _ => rule.std_abbr.clone(),
                }
            }
        }
    }

    /// Wall-clock fields of the Unix instant `utc` in this zone.
    pub fn civil(&self, utc: i64) -> Civil {
        Civil::of(utc + self.offset_at(utc))
    }

    /// Go's `time.Date(year, month, day, hour, min, sec, 0, loc)`: fields are normalised (month
    /// 13 is January of the next year, day 32 rolls over, ...); a wall time that does not exist
    /// or exists twice (DST) is resolved as Go does it.
    pub fn date(&self, year: i64, month: i64, day: i64, hour: i64, min: i64, sec: i64) -> i64 {
        let m0 = month - 1;
        let y = year + m0.div_euclid(12);
        let m = m0.rem_euclid(12) + 1;
        let days = days_from_civil(y, m as u32, 1) + day - 1;
        let unix = days * 86_400 + hour * 3600 + min * 60 + sec;
        let (mut offset, start, end) = self.lookup(unix);
        if offset != 0 {
            let utc = unix - offset;
            if utc < start || utc >= end {
                offset = self.lookup(utc).0;
            }
            return unix - offset;
        }
        unix
    }

    /// Go's `t.AddDate(years, months, days)` on the wall clock of this zone.
    pub fn add_date(&self, utc: i64, years: i64, months: i64, days: i64) -> i64 {
        let c = self.civil(utc);
        self.date(
            c.year + years,
            i64::from(c.month) + months,
            i64::from(c.day) + days,
            i64::from(c.hour),
            i64::from(c.minute),
            i64::from(c.second),
        )
    }

    /// RFC 3339 of the Unix instant in this zone (`2025-03-01T09:30:00+01:00`, `...Z` for UTC
    /// offsets of zero), as Go's `Format(time.RFC3339)`.
    pub fn rfc3339(&self, utc: i64) -> String {
        // Written digit by digit (the formatting machinery cost ≈ 3,000 instructions a call;
        // every CronJob activation prints one): `{:04}` for the year, `{:02}` for the rest.
        use std::fmt::Write;
        let off = self.offset_at(utc);
        let c = Civil::of(utc + off);
        let mut s = String::with_capacity(25);
        if (0..=9999).contains(&c.year) {
            let y = c.year as u32;
            push_02(&mut s, y / 100);
            push_02(&mut s, y % 100);
        } else {
            let _ = write!(s, "{:04}", c.year);
        }
        s.push('-');
        push_02(&mut s, c.month);
        s.push('-');
        push_02(&mut s, c.day);
        s.push('T');
        push_02(&mut s, c.hour);
        s.push(':');
        push_02(&mut s, c.minute);
        s.push(':');
        push_02(&mut s, c.second);
        if off == 0 {
            s.push('Z');
        } else {
            let a = off.abs();
            s.push(if off < 0 { '-' } else { '+' });
            let (h, m) = (a / 3600, (a / 60) % 60);
            if h < 100 {
                push_02(&mut s, h as u32);
            } else {
                let _ = write!(s, "{h:02}");
            }
            s.push(':');
            push_02(&mut s, m as u32);
        }
        s
    }
}

/// `{:02}` of `v` appended to `s`.
fn push_02(s: &mut String, v: u32) {
    if v < 100 {
        s.push(char::from(b'0' + (v / 10) as u8));
        s.push(char::from(b'0' + (v % 10) as u8));
    } else {
        use std::fmt::Write;
        let _ = write!(s, "{v}");
    }
}

/// Broken-down wall-clock time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// 0 = Sunday.
    pub weekday: u32,
}

impl Civil {
    /// The fields of `local` seconds since the epoch taken as UTC.
    pub fn of(local: i64) -> Civil {
        let days = local.div_euclid(86_400);
        let sod = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: (sod / 3600) as u32,
            minute: ((sod / 60) % 60) as u32,
            second: (sod % 60) as u32,
            weekday: (days + 4).rem_euclid(7) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Time;

    fn at(s: &str) -> i64 {
        Time::parse_rfc3339(s).unwrap().unix_secs()
    }

    #[test]
    fn posix_rules_parse() {
        let ny = parse_posix_tz("EST5EDT,M3.2.0,M11.1.0").unwrap();
        assert_eq!(ny.std_offset, -5 * 3600);
        assert_eq!(ny.dst.as_ref().unwrap().offset, -4 * 3600);
        let tehran = parse_posix_tz("<+0330>-3:30").unwrap();
        assert_eq!(tehran.std_offset, 3 * 3600 + 1800);
        assert!(tehran.dst.is_none());
        let godthab = parse_posix_tz("<-02>2<-01>,M3.5.0/-1,M10.5.0/0").unwrap();
        assert_eq!(godthab.dst.unwrap().start.time, -3600);
        assert!(parse_posix_tz("EST").is_none(), "an offset is required");
        // Every rule of the bundled table parses.
        for r in RULES {
            assert!(parse_posix_tz(r).is_some(), "{r}");
        }
    }

    #[test]
    fn load_location_names() {
        assert_eq!(load_location("").unwrap(), Location::Utc);
        assert_eq!(load_location("UTC").unwrap(), Location::Utc);
        assert!(matches!(
            load_location("Europe/Rome"),
            Ok(Location::Zone { .. })
        ));
        assert!(matches!(
            load_location("US/Eastern"),
            Ok(Location::Zone { .. })
        ));
        assert_eq!(
            load_location("Mars/Olympus_Mons").unwrap_err(),
            "unknown time zone Mars/Olympus_Mons"
        );
        assert!(zone_names().count() > 500);
    }

    #[test]
    fn new_york_transitions_2025() {
        let ny = load_location("America/New_York").unwrap();
        // Spring forward on 9 March 2025 at 07:00 UTC, fall back on 2 November at 06:00 UTC.
        assert_eq!(ny.offset_at(at("2025-03-09T06:59:59Z")), -5 * 3600);
        assert_eq!(ny.offset_at(at("2025-03-09T07:00:00Z")), -4 * 3600);
        assert_eq!(ny.offset_at(at("2025-11-02T05:59:59Z")), -4 * 3600);
        assert_eq!(ny.offset_at(at("2025-11-02T06:00:00Z")), -5 * 3600);
        assert_eq!(ny.abbreviation_at(at("2025-07-01T00:00:00Z")), "EDT");
        // Southern hemisphere: Sydney is on daylight time in January.
        let syd = load_location("Australia/Sydney").unwrap();
        assert_eq!(syd.offset_at(at("2025-01-15T00:00:00Z")), 11 * 3600);
        assert_eq!(syd.offset_at(at("2025-07-15T00:00:00Z")), 10 * 3600);
    }

    /// Go's `time.Date` in a DST gap and overlap (America/New_York, 2012).
    #[test]
    fn date_in_gap_and_overlap() {
        let ny = load_location("America/New_York").unwrap();
        // 02:30 does not exist on 11 March 2012: Go resolves it to 01:30 EST.
        assert_eq!(
            ny.date(2012, 3, 11, 2, 30, 0),
            at("2012-03-11T01:30:00-05:00")
        );
        // 01:30 exists twice on 4 November 2012: Go picks the first (EDT).
        assert_eq!(
            ny.date(2012, 11, 4, 1, 30, 0),
            at("2012-11-04T01:30:00-04:00")
        );
        // Normalisation: month 13 and day 32.
        assert_eq!(
            Location::Utc.date(2024, 13, 32, 0, 0, 0),
            at("2025-02-01T00:00:00Z")
        );
        assert_eq!(
            Location::Utc.add_date(at("2025-01-31T10:00:00Z"), 0, 1, 0),
            at("2025-03-03T10:00:00Z")
        );
        let rome = load_location("Europe/Rome").unwrap();
        assert_eq!(
            rome.rfc3339(at("2016-05-19T10:00:00Z")),
            "2016-05-19T12:00:00+02:00"
        );
        assert_eq!(
            Location::Utc.rfc3339(at("2016-05-19T10:00:00Z")),
            "2016-05-19T10:00:00Z"
        );
    }
}
