//! The cron spec parser of robfig/cron v3 (`parser.go`): fields, ranges, steps, names,
//! descriptors and `TZ=`/`CRON_TZ=` prefixes, with robfig's error messages.

use super::spec::{Schedule, SpecSchedule, DOM, DOW, HOURS, MINUTES, MONTHS, SECONDS, STAR_BIT};
use super::tz::{load_location, Location};

/// `ParseOption` flags.
pub const SECOND: u32 = 1 << 0;
pub const SECOND_OPTIONAL: u32 = 1 << 1;
pub const MINUTE: u32 = 1 << 2;
pub const HOUR: u32 = 1 << 3;
pub const DOM_FIELD: u32 = 1 << 4;
pub const MONTH: u32 = 1 << 5;
pub const DOW_FIELD: u32 = 1 << 6;
pub const DOW_OPTIONAL: u32 = 1 << 7;
pub const DESCRIPTOR: u32 = 1 << 8;

const PLACES: [u32; 6] = [SECOND, MINUTE, HOUR, DOM_FIELD, MONTH, DOW_FIELD];
const DEFAULTS: [&str; 6] = ["0", "0", "0", "*", "*", "*"];

/// The bounds of one field, with its names (`jan`, `mon`).
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub min: u32,
    pub max: u32,
    pub names: &'static [(&'static str, u32)],
}

/// A configurable parser (`cron.NewParser`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parser {
    options: u32,
}

/// The parser Kubernetes uses (`cron.ParseStandard`): minute, hour, day of month, month, day of
/// week, and descriptors.
pub const STANDARD: Parser = Parser {
    options: MINUTE | HOUR | DOM_FIELD | MONTH | DOW_FIELD | DESCRIPTOR,
};

/// `cron.ParseStandard`.
///
/// # Errors
/// robfig's message (`expected exactly 5 fields, found 4: [* * * *]`, `end of range (60) above
/// maximum (59): 60`, ...).
pub fn parse_standard(spec: &str) -> Result<Schedule, String> {
    // The CronJob controller parses its schedule on every sync; the last few results are kept
    // (parsing is pure, so a cached result is the parse itself).
    const KEEP: usize = 8;
    thread_local! {
        static RECENT: std::cell::RefCell<Vec<(String, Result<Schedule, String>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    RECENT.with(|recent| {
        let mut recent = recent.borrow_mut();
        if let Some((_, r)) = recent.iter().find(|(s, _)| s == spec) {
            return r.clone();
        }
        let r = STANDARD.parse(spec);
        if recent.len() == KEEP {
            let _evicted = recent.remove(0);
        }
        recent.push((spec.to_string(), r.clone()));
        r
    })
}

impl Parser {
    /// `NewParser`; `None` when more than one optional field is configured (robfig panics).
    pub fn new(options: u32) -> Option<Parser> {
        let optionals =
            u32::from(options & DOW_OPTIONAL != 0) + u32::from(options & SECOND_OPTIONAL != 0);
        (optionals <= 1).then_some(Parser { options })
    }

    /// `Parser.Parse`.
    ///
    /// # Errors
    /// robfig's messages.
    pub fn parse(&self, spec: &str) -> Result<Schedule, String> {
        if spec.is_empty() {
            return Err("empty spec string".into());
        }
        let mut spec = spec.to_string();
        let mut loc: Option<Location> = None;
        if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
            let eq = spec.find('=').unwrap_or(0);
            // Go slices spec[eq+1:i] with i = the first space; without one it panics. kubeplay
            // reports the zone as unknown instead.
            let Some(i) = spec.find(' ') else {
                let name = &spec[eq + 1..];
                return Err(format!(
                    "provided bad location {name}: unknown time zone {name}"
                ));
            };
            let name = &spec[eq + 1..i];
            match load_location(name) {
                Ok(l) => loc = Some(l),
                Err(e) => return Err(format!("provided bad location {name}: {e}")),
            }
            spec = spec[i..].trim().to_string();
        }
        if spec.starts_with('@') {
            if self.options & DESCRIPTOR == 0 {
                return Err(format!("parser does not accept descriptors: {spec}"));
            }
            return parse_descriptor(&spec, loc);
        }
        let fields: Vec<&str> = spec.split_whitespace().collect();
        let fields = normalize_fields(&fields, self.options)?;
        let f = |i: usize, b: &Bounds| get_field(&fields[i], b);
        Ok(Schedule::Spec(SpecSchedule {
            second: f(0, &SECONDS)?,
            minute: f(1, &MINUTES)?,
            hour: f(2, &HOURS)?,
            dom: f(3, &DOM)?,
            month: f(4, &MONTHS)?,
            dow: f(5, &DOW)?,
            location: loc,
        }))
    }
}

/// Go's `%s` of a `[]string`: `[a b c]`.
fn go_list(fields: &[&str]) -> String {
    format!("[{}]", fields.join(" "))
}

/// `normalizeFields`: checks the field count and fills in omitted fields with their defaults.
///
/// # Errors
/// `expected exactly 5 fields, found 4: [* * * *]`, `expected 5 to 6 fields, ...`.
pub fn normalize_fields(fields: &[&str], options: u32) -> Result<Vec<String>, String> {
    let mut options = options;
    let mut optionals = 0;
    if options & SECOND_OPTIONAL != 0 {
        options |= SECOND;
        optionals += 1;
    }
    if options & DOW_OPTIONAL != 0 {
        options |= DOW_FIELD;
        optionals += 1;
    }
    if optionals > 1 {
        return Err("multiple optionals may not be configured".into());
    }
    let max = PLACES.iter().filter(|p| options & **p != 0).count();
    let min = max - optionals;
    let count = fields.len();
    if count < min || count > max {
        if min == max {
            return Err(format!(
                "expected exactly {min} fields, found {count}: {}",
                go_list(fields)
            ));
        }
        return Err(format!(
            "expected {min} to {max} fields, found {count}: {}",
            go_list(fields)
        ));
    }
    let mut fields: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
    if min < max && fields.len() == min {
        if options & DOW_OPTIONAL != 0 {
            fields.push(DEFAULTS[5].into());
        } else if options & SECOND_OPTIONAL != 0 {
            fields.insert(0, DEFAULTS[0].into());
        } else {
            return Err("unknown optional field".into());
        }
    }
    let mut out: Vec<String> = DEFAULTS.iter().map(|s| s.to_string()).collect();
    let mut n = 0;
    for (i, place) in PLACES.iter().enumerate() {
        if options & place != 0 {
            out[i] = fields[n].clone();
            n += 1;
        }
    }
    Ok(out)
}

/// `getField`: the bits of a comma-separated list of ranges (empty items are skipped).
///
/// # Errors
/// The first range's error.
pub fn get_field(field: &str, r: &Bounds) -> Result<u64, String> {
    let mut bits = 0;
    for expr in field.split(',').filter(|e| !e.is_empty()) {
        bits |= get_range(expr, r)?;
    }
    Ok(bits)
}

/// `getRange`: `number | number "-" number [ "/" number ]`, `*` and `?` (the star bit), names.
///
/// # Errors
/// robfig's messages (`too many hyphens: 5--5`, `beginning of range (1) below minimum (3): 1`).
pub fn get_range(expr: &str, r: &Bounds) -> Result<u64, String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single_digit = low_and_high.len() == 1;
    let mut extra = 0u64;
    let (start, mut end);
    if low_and_high[0] == "*" || low_and_high[0] == "?" {
        start = u64::from(r.min);
        end = u64::from(r.max);
        extra = STAR_BIT;
    } else {
        start = parse_int_or_name(low_and_high[0], r.names)?;
        end = match low_and_high.len() {
            1 => start,
            2 => parse_int_or_name(low_and_high[1], r.names)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
    }
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_parse_int(range_and_step[1])?;
            // "N/step" means "N-max/step".
            if single_digit {
                end = u64::from(r.max);
            }
            if step > 1 {
                extra = 0;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < u64::from(r.min) {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            r.min
        ));
    }
    if end > u64::from(r.max) {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            r.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(get_bits(start as u32, end as u32, step) | extra)
}

fn parse_int_or_name(expr: &str, names: &[(&str, u32)]) -> Result<u64, String> {
    let lower = expr.to_ascii_lowercase();
    if let Some((_, v)) = names.iter().find(|(n, _)| *n == lower) {
        return Ok(u64::from(*v));
    }
    must_parse_int(expr)
}

/// Go's `strconv.Atoi` error text.
fn atoi(expr: &str) -> Result<i64, String> {
    let digits = expr.strip_prefix(['+', '-']).unwrap_or(expr);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.Atoi: parsing {}: invalid syntax",
            crate::api::go_quote(expr)
        ));
    }
    expr.parse::<i64>().map_err(|_| {
        format!(
            "strconv.Atoi: parsing {}: value out of range",
            crate::api::go_quote(expr)
        )
    })
}

/// `mustParseInt`: a non-negative integer.
fn must_parse_int(expr: &str) -> Result<u64, String> {
    let num = atoi(expr).map_err(|e| format!("failed to parse int from {expr}: {e}"))?;
    if num < 0 {
        return Err(format!("negative number ({num}) not allowed: {expr}"));
    }
    Ok(num as u64)
}

/// `getBits`: every `step`-th bit in `[min, max]`.
pub fn get_bits(min: u32, max: u32, step: u64) -> u64 {
    let mut bits = 0u64;
    let mut i = u64::from(min);
    while i <= u64::from(max) {
        bits |= 1 << i;
        i += step;
    }
    bits
}

/// `all`: every bit within the bounds, plus the star bit.
pub fn all(r: &Bounds) -> u64 {
    get_bits(r.min, r.max, 1) | STAR_BIT
}

/// `parseDescriptor`: `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`,
/// `@hourly`, `@every <duration>`.
///
/// # Errors
/// `unrecognized descriptor: @x`, `failed to parse duration @every x: time: invalid duration "x"`.
pub fn parse_descriptor(descriptor: &str, loc: Option<Location>) -> Result<Schedule, String> {
    let spec = |minute: u64, hour: u64, dom: u64, month: u64, dow: u64| {
        Schedule::Spec(SpecSchedule {
            second: 1 << SECONDS.min,
            minute,
            hour,
            dom,
            month,
            dow,
            location: loc.clone(),
        })
    };
    let first = |b: &Bounds| 1u64 << b.min;
    match descriptor {
        "@yearly" | "@annually" => {
            return Ok(spec(
                first(&MINUTES),
                first(&HOURS),
                first(&DOM),
                first(&MONTHS),
                all(&DOW),
            ))
        }
        "@monthly" => {
            return Ok(spec(
                first(&MINUTES),
                first(&HOURS),
                first(&DOM),
                all(&MONTHS),
                all(&DOW),
            ))
        }
        "@weekly" => {
            return Ok(spec(
                first(&MINUTES),
                first(&HOURS),
                all(&DOM),
                all(&MONTHS),
                first(&DOW),
            ))
        }
        "@daily" | "@midnight" => {
            return Ok(spec(
                first(&MINUTES),
                first(&HOURS),
                all(&DOM),
                all(&MONTHS),
                all(&DOW),
            ))
        }
        "@hourly" => {
            return Ok(spec(
                first(&MINUTES),
                all(&HOURS),
                all(&DOM),
                all(&MONTHS),
                all(&DOW),
            ))
        }
        _ => {}
    }
    if let Some(d) = descriptor.strip_prefix("@every ") {
        let nanos = parse_go_duration(d)
            .map_err(|e| format!("failed to parse duration {descriptor}: {e}"))?;
        return Ok(Schedule::every(nanos));
    }
    Err(format!("unrecognized descriptor: {descriptor}"))
}

/// The `time` package's own `quote` (not `strconv.Quote`): `"` and `\` are escaped, every byte
/// of a non-ASCII or control (below space) character is written as `\xNN`, and anything else
/// (DEL included) as is.
pub fn go_time_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if !c.is_ascii() || c < ' ' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// Go's `time.ParseDuration`, in nanoseconds (a line-by-line port: `leadingInt` overflow, the
/// fraction kept to what fits in 63 bits and scaled in `float64`, `-2^63` allowed).
///
/// # Errors
/// Go's messages: `time: invalid duration "x"`, `time: missing unit in duration "5"`,
/// `time: unknown unit "q" in duration "5q"` (quoted by [`go_time_quote`]).
pub fn parse_go_duration(s: &str) -> Result<i128, String> {
    const LIMIT: u64 = 1 << 63;
    let orig = go_time_quote(s);
    let invalid = || format!("time: invalid duration {orig}");
    let mut rest = s.as_bytes();
    let mut neg = false;
    if let Some((&c, r)) = rest.split_first() {
        if c == b'-' || c == b'+' {
            neg = c == b'-';
            rest = r;
        }
    }
    if rest == b"0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut d: u64 = 0;
    while let Some(&first) = rest.first() {
        // The next character must be [0-9.].
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(invalid());
        }
        // leadingInt: [0-9]*, overflow is an error.
        let mut v: u64 = 0;
        let mut i = 0;
        while let Some(&c) = rest.get(i).filter(|c| c.is_ascii_digit()) {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
            i += 1;
        }
        let pre = i > 0;
        rest = &rest[i..];
        // leadingFraction: (\.[0-9]*)?, digits past 63 bits are consumed and dropped.
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(r) = rest.strip_prefix(b".") {
            rest = r;
            let mut overflow = false;
            let mut i = 0;
            while let Some(&c) = rest.get(i).filter(|c| c.is_ascii_digit()) {
                i += 1;
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = i > 0;
            rest = &rest[i..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        // The unit: everything up to the next '.' or digit.
        let i = rest
            .iter()
            .position(|c| *c == b'.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        if i == 0 {
            return Err(format!("time: missing unit in duration {orig}"));
        }
        let unit_bytes = &rest[..i];
        rest = &rest[i..];
        let unit: u64 = match unit_bytes {
            b"ns" => 1,
            b"us" | [0xc2, 0xb5, b's'] | [0xce, 0xbc, b's'] => 1_000, // us, µs (U+00B5), μs (U+03BC)
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {orig}",
                    go_time_quote(&String::from_utf8_lossy(unit_bytes))
                ))
            }
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            // float64 is needed to be nanosecond accurate for fractions of hours.
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok(-i128::from(d));
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(i128::from(d))
}

#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
mod batch_tests;

#[cfg(test)]
mod audit_tests;
#[cfg(test)]
mod edge_tests;
