//! Schedules and their activation times: robfig/cron v3 `spec.go` (`SpecSchedule.Next`, the
//! day-of-month / day-of-week OR rule, the five-year search limit) and `constantdelay.go`.

use super::parser::Bounds;
use super::tz::Location;
use crate::api::Time;

/// Set on a field written as `*` or `?` (a step > 1 clears it again).
pub const STAR_BIT: u64 = 1 << 63;

pub const SECONDS: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
pub const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
pub const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
pub const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
pub const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
/// Day of week: 0 (Sunday) to 6 — robfig rejects 7.
pub const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

/// A crontab schedule as bit sets (`SpecSchedule`). `location: None` is Go's `time.Local`: the
/// zone of the time passed to `next` (UTC for the CronJob controller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecSchedule {
    pub second: u64,
    pub minute: u64,
    pub hour: u64,
    pub dom: u64,
    pub month: u64,
    pub dow: u64,
    pub location: Option<Location>,
}

/// A parsed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    Spec(SpecSchedule),
    /// `@every <d>`: `ConstantDelaySchedule`, whole seconds, at least one.
    ConstantDelay {
        delay_secs: i64,
    },
}

impl Schedule {
    /// `cron.Every(d)`: below one second becomes one second; sub-second parts are dropped.
    pub fn every(nanos: i128) -> Schedule {
        let secs = if nanos < 1_000_000_000 {
            1
        } else {
            (nanos / 1_000_000_000) as i64
        };
        Schedule::ConstantDelay { delay_secs: secs }
    }

    /// `Schedule.Next(t)` with `t` in UTC: the first activation strictly after `t` (whole
    /// seconds), or [`Time::ZERO`] when none exists within five years.
    pub fn next(&self, t: Time) -> Time {
        self.next_in(t, &Location::Utc)
    }

    /// `Next` for a `t` whose Go location is `local` (only matters for schedules without a zone).
    pub fn next_in(&self, t: Time, local: &Location) -> Time {
        if t.is_zero() {
            return Time::ZERO;
        }
        match self {
            Schedule::ConstantDelay { delay_secs } => {
                // t + delay - t.Nanosecond()
                Time(t.0.div_euclid(1000) * 1000 + delay_secs * 1000)
            }
            Schedule::Spec(s) => s.next(t, local),
        }
    }

    /// The schedule's own zone (`TZ=`), if any.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Schedule::Spec(s) => s.location.as_ref(),
            Schedule::ConstantDelay { .. } => None,
        }
    }
}

/// The last wall-clock breakdown computed in [`SpecSchedule::next`], by instant.
struct CivilMemo<'a> {
    loc: &'a Location,
    t: i64,
    c: super::tz::Civil,
}

impl CivilMemo<'_> {
    fn at(&mut self, t: i64) -> super::tz::Civil {
        if t != self.t {
            self.t = t;
            self.c = self.loc.civil(t);
        }
        self.c
    }
}

fn bit(v: u32) -> u64 {
    1u64 << v
}

impl SpecSchedule {
    /// robfig's `SpecSchedule.Next`, field by field with wrap-around, in the schedule's zone.
    pub fn next(&self, t: Time, local: &Location) -> Time {
        let loc = self.location.as_ref().unwrap_or(local);
        // Start at the earliest possible time (the upcoming second).
        let mut t = t.0.div_euclid(1000) + 1;
        let mut added = false;
        // The loop asks for the wall clock of the same instant many times: compute it once.
        let mut m = CivilMemo {
            loc,
            t,
            c: loc.civil(t),
        };
        let year_limit = m.at(t).year + 5;
        'wrap: loop {
            let c = m.at(t);
            if c.year > year_limit {
                return Time::ZERO;
            }
            // Month.
            while bit(m.at(t).month) & self.month == 0 {
                if !added {
                    added = true;
                    let c = m.at(t);
                    t = loc.date(c.year, i64::from(c.month), 1, 0, 0, 0);
                }
                t = loc.add_date(t, 0, 1, 0);
                if m.at(t).month == 1 {
                    continue 'wrap;
                }
            }
            // Day (midnight may not exist with DST: notice the hour and correct it).
            while !self.day_matches(&m.at(t)) {
                if !added {
                    added = true;
                    let c = m.at(t);
                    t = loc.date(c.year, i64::from(c.month), i64::from(c.day), 0, 0, 0);
                }
                t = loc.add_date(t, 0, 0, 1);
                let h = i64::from(m.at(t).hour);
                if h != 0 {
                    if h > 12 {
                        t += (24 - h) * 3600;
                    } else {
                        t -= h * 3600;
                    }
                }
                if m.at(t).day == 1 {
                    continue 'wrap;
                }
            }
            // Hour.
            while bit(m.at(t).hour) & self.hour == 0 {
                if !added {
                    added = true;
                    let c = m.at(t);
                    t = loc.date(
                        c.year,
                        i64::from(c.month),
                        i64::from(c.day),
                        i64::from(c.hour),
                        0,
                        0,
                    );
                }
                t += 3600;
                if m.at(t).hour == 0 {
                    continue 'wrap;
                }
            }
            // Minute.
            while bit(m.at(t).minute) & self.minute == 0 {
                if !added {
                    added = true;
                    t = t.div_euclid(60) * 60;
                }
                t += 60;
                if m.at(t).minute == 0 {
                    continue 'wrap;
                }
            }
            // Second. robfig adds one second at a time; when the zone's offset is a whole number
            // of minutes for the rest of this minute (every zone today), the wall-clock second
            // advances with `t`, so the loop can jump straight to the next matching second, or
            // to the next minute (second 0, which wraps as the loop would).
            let s0 = m.at(t).second;
            if bit(s0) & self.second == 0 {
                added = true;
                let next_min = t + 60 - i64::from(s0);
                if loc.offset_at(t) % 60 == 0 && loc.offset_at(next_min) == loc.offset_at(t) {
                    match (s0 + 1..60).find(|s| bit(*s) & self.second != 0) {
                        Some(s) => t += i64::from(s - s0),
                        None => {
                            t = next_min;
                            continue 'wrap;
                        }
                    }
                } else {
                    while bit(m.at(t).second) & self.second == 0 {
                        t += 1;
                        if m.at(t).second == 0 {
                            continue 'wrap;
                        }
                    }
                }
            }
            return Time::from_unix_secs(t);
        }
    }

    /// `dayMatches`: both restrictions must hold when either field is a star; when both are
    /// restricted, either one suffices.
    pub fn day_matches(&self, c: &super::tz::Civil) -> bool {
        let dom_match = bit(c.day) & self.dom != 0;
        let dow_match = bit(c.weekday) & self.dow != 0;
        if self.dom & STAR_BIT != 0 || self.dow & STAR_BIT != 0 {
            dom_match && dow_match
        } else {
            dom_match || dow_match
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod audit_tests;
#[cfg(test)]
mod edge_tests;
