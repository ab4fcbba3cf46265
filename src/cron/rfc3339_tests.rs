//! `Location::rfc3339` writes its digits by hand: it must print exactly what the `format!`
//! rendering it replaced printed (Go's `Format(time.RFC3339)`), for UTC and offset zones,
//! across years, months, days and times of day.

use super::tz::{load_location, Civil, Location};

/// The former implementation, kept here as the reference.
fn rfc3339_by_format(loc: &Location, utc: i64) -> String {
    let off = loc.offset_at(utc);
    let c = Civil::of(utc + off);
    let zone = if off == 0 {
        "Z".to_string()
    } else {
        let a = off.abs();
        format!(
            "{}{:02}:{:02}",
            if off < 0 { '-' } else { '+' },
            a / 3600,
            (a / 60) % 60
        )
    };
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{zone}",
        c.year, c.month, c.day, c.hour, c.minute, c.second
    )
}

#[test]
fn rfc3339_matches_the_format_rendering() {
    let zones = [
        "UTC",
        "America/New_York",
        "Asia/Kolkata",
        "Asia/Tehran",
        "Pacific/Chatham",
        "America/St_Johns",
    ];
    for name in zones {
        let loc = load_location(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        // From year 1 (negative Unix seconds) to past 2100, in uneven steps that hit every
        // second, minute and hour value over the run.
        let mut t: i64 = -62_135_596_800;
        while t < 4_200_000_000 {
            assert_eq!(loc.rfc3339(t), rfc3339_by_format(&loc, t), "{name} at {t}");
            t += 7_777_777 + 3_607;
        }
        for t in [
            0,
            59,
            3_599,
            86_399,
            951_782_400,
            1_709_251_199,
            1_709_251_200,
        ] {
            assert_eq!(loc.rfc3339(t), rfc3339_by_format(&loc, t), "{name} at {t}");
        }
    }
}
