//! YAML output as kubectl writes it (`sigs.k8s.io/yaml` over go-yaml v2): block style, keys
//! sorted, sequences not indented under their key, strings quoted only when go-yaml would
//! resolve them to another type or the emitter cannot write them plain, literal blocks for
//! multi-line strings, and long scalars folded at column 80.

use serde_json::{Map, Value};

const BEST_WIDTH: usize = 80;
const BEST_INDENT: usize = 2;

/// Renders a JSON value as go-yaml v2 would (with a trailing newline).
pub fn to_yaml(v: &Value) -> String {
    let mut e = Emitter {
        out: String::new(),
        column: 0,
    };
    match v {
        Value::Object(m) if !m.is_empty() => e.mapping(m, 0, false),
        Value::Array(a) if !a.is_empty() => e.sequence(a, 0, false),
        other => e.scalar_value(other, 0, false),
    }
    if !e.out.ends_with('\n') {
        e.out.push('\n');
    }
    e.out
}

struct Emitter {
    out: String,
    column: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

impl Emitter {
    fn put(&mut self, s: &str) {
        for c in s.chars() {
            self.out.push(c);
            if c == '\n' {
                self.column = 0;
            } else {
                self.column += 1;
            }
        }
    }

    fn newline(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.put("\n");
        }
    }

    fn indent_to(&mut self, indent: usize) {
        self.newline();
        for _ in 0..indent {
            self.put(" ");
        }
    }

    /// Block mapping entries with keys at column `indent`; the first key follows the current
    /// position when `inline_first` (a mapping inside a sequence item).
    fn mapping(&mut self, m: &Map<String, Value>, indent: usize, inline_first: bool) {
        let mut keys: Vec<&String> = m.keys().collect();
        keys.sort_by(|a, b| key_cmp(a, b));
        for (i, k) in keys.into_iter().enumerate() {
            if !(i == 0 && inline_first) {
                self.indent_to(indent);
            }
            self.scalar_str(k, indent + BEST_INDENT, true);
            self.put(":");
            let v = &m[k];
            match v {
                Value::Object(c) if !c.is_empty() => self.mapping(c, indent + BEST_INDENT, false),
                // Sequences in a mapping are not indented ("indentless").
                Value::Array(a) if !a.is_empty() => self.sequence(a, indent, false),
                _ => {
                    self.put(" ");
                    self.scalar_value(v, indent + BEST_INDENT, false);
                }
            }
        }
    }

    fn sequence(&mut self, a: &[Value], indent: usize, inline_first: bool) {
        for (i, item) in a.iter().enumerate() {
            if !(i == 0 && inline_first) {
                self.indent_to(indent);
            }
            self.put("-");
            match item {
                Value::Object(c) if !c.is_empty() => {
                    self.put(" ");
                    self.mapping(c, indent + BEST_INDENT, true);
                }
                Value::Array(c) if !c.is_empty() => {
                    self.put(" ");
                    self.sequence(c, indent + BEST_INDENT, true);
                }
                _ => {
                    self.put(" ");
                    self.scalar_value(item, indent + BEST_INDENT, false);
                }
            }
        }
    }

    fn scalar_value(&mut self, v: &Value, indent: usize, key: bool) {
        match v {
            Value::Null => self.put("null"),
            Value::Bool(b) => self.put(if *b { "true" } else { "false" }),
            Value::Number(n) => self.put(&n.to_string()),
            Value::String(s) => self.scalar_str(s, indent, key),
            Value::Object(_) => self.put("{}"),
            Value::Array(_) => self.put("[]"),
        }
    }

    fn scalar_str(&mut self, s: &str, indent: usize, key: bool) {
        match select_style(s, key) {
            Style::Plain => self.write_plain(s, indent, !key),
            Style::Single => self.write_single(s, indent, !key),
            Style::Double => self.write_double(s, indent, !key),
            Style::Literal => self.write_literal(s, indent),
        }
    }

    fn write_indent(&mut self, indent: usize) {
        self.put("\n");
        for _ in 0..indent {
            self.put(" ");
        }
    }

    fn write_plain(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for i in 0..chars.len() {
            let c = chars[i];
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_space {
                    self.write_indent(indent);
                } else {
                    self.put(" ");
                }
                spaces = true;
            } else {
                self.out.push(c);
                self.column += 1;
                spaces = false;
            }
        }
    }

    fn write_single(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put("'");
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for i in 0..chars.len() {
            let c = chars[i];
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                    && !next_space
                {
                    self.write_indent(indent);
                } else {
                    self.put(" ");
                }
                spaces = true;
            } else {
                if c == '\'' {
                    self.put("'");
                }
                self.out.push(c);
                self.column += 1;
                spaces = false;
            }
        }
        self.put("'");
    }

    fn write_double(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.put("\"");
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for i in 0..chars.len() {
            let c = chars[i];
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                {
                    self.write_indent(indent);
                    if chars.get(i + 1) == Some(&' ') {
                        self.put("\\");
                    }
                } else {
                    self.put(" ");
                }
                spaces = true;
                continue;
            }
            spaces = false;
            let esc = match c {
                '\0' => Some("\\0".to_string()),
                '\x07' => Some("\\a".into()),
                '\x08' => Some("\\b".into()),
                '\t' => Some("\\t".into()),
                '\n' => Some("\\n".into()),
                '\x0b' => Some("\\v".into()),
                '\x0c' => Some("\\f".into()),
                '\r' => Some("\\r".into()),
                '\x1b' => Some("\\e".into()),
                '"' => Some("\\\"".into()),
                '\\' => Some("\\\\".into()),
                '\u{85}' => Some("\\N".into()),
                '\u{a0}' => Some("\\_".into()),
                '\u{2028}' => Some("\\L".into()),
                '\u{2029}' => Some("\\P".into()),
                c if !is_printable(c) || c == '\u{feff}' => {
                    let n = c as u32;
                    Some(if n <= 0xff {
                        format!("\\x{n:02X}")
                    } else if n <= 0xffff {
                        format!("\\u{n:04X}")
                    } else {
                        format!("\\U{n:08X}")
                    })
                }
                _ => None,
            };
            match esc {
                Some(e) => self.put(&e),
                None => {
                    self.out.push(c);
                    self.column += 1;
                }
            }
        }
        self.put("\"");
    }

    fn write_literal(&mut self, s: &str, indent: usize) {
        self.put("|");
        if s.starts_with([' ', '\n']) {
            self.put(&BEST_INDENT.to_string());
        }
        let chomp = if !s.ends_with('\n') {
            "-"
        } else if s.len() == 1 || s[..s.len() - 1].ends_with('\n') {
            "+"
        } else {
            ""
        };
        self.put(chomp);
        let body = s.strip_suffix('\n').unwrap_or(s);
        for line in body.split('\n') {
            self.put("\n");
            if !line.is_empty() {
                for _ in 0..indent {
                    self.put(" ");
                }
                self.put(line);
            }
        }
        if chomp == "+" {
            // Keep the trailing line breaks: one was stripped above.
            self.put("\n");
        }
    }
}

/// go-yaml's `is_printable` for the characters that can appear in JSON strings.
fn is_printable(c: char) -> bool {
    let n = c as u32;
    n == 0x0a
        || (0x20..=0x7e).contains(&n)
        || n == 0x85
        || (0xa0..=0xd7ff).contains(&n)
        || ((0xe000..=0xfffd).contains(&n) && n != 0xfeff)
        || (0x10000..=0x10ffff).contains(&n)
}

/// Whether go-yaml's `resolve` would read `s`, unquoted, as something other than a string
/// (null, bool, int, float, timestamp), or `isBase60Float` matches.
fn resolves_to_non_string(s: &str) -> bool {
    const SPECIAL: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no",
        "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null",
        "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF", "<<",
    ];
    if SPECIAL.contains(&s) {
        return true;
    }
    let Some(first) = s.chars().next() else {
        return true;
    };
    match first {
        '.' => s.parse::<f64>().is_ok() && !s.contains(['i', 'I', 'n', 'N']),
        '+' | '-' | '0'..='9' => {
            if is_timestamp(s) {
                return true;
            }
            let plain: String = s.chars().filter(|c| *c != '_').collect();
            if super::args::parse_int(&plain).is_ok() {
                return true;
            }
            let unsigned = plain.trim_start_matches(['+', '-']);
            if is_yaml_float(&plain) || unsigned.starts_with("0b") {
                return true;
            }
            is_base60_float(s)
        }
        _ => false,
    }
}

/// `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (main, frac) = match s.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (s, None),
    };
    if let Some(f) = frac {
        if !f.chars().all(|c| c.is_ascii_digit() || c == '_') {
            return false;
        }
    }
    let mut parts = main.split(':');
    let head = parts.next().unwrap_or_default();
    if !head.starts_with(|c: char| c.is_ascii_digit())
        || !head.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return false;
    }
    let mut n = 0;
    for p in parts {
        n += 1;
        let ok = match p.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    n > 0
}

/// go-yaml's `parseTimestamp`: `2006-1-2T15:4:5.999999999Z07:00`, `2006-1-2t...`,
/// `2006-1-2 15:4:5.999999999` and `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let rest = &s[5..];
    let num = |t: &str, max_len: usize| -> Option<u32> {
        if t.is_empty() || t.len() > max_len || !t.bytes().all(|c| c.is_ascii_digit()) {
            None
        } else {
            t.parse().ok()
        }
    };
    let (date, time) = match rest.find(['T', 't', ' ']) {
        Some(p) => (&rest[..p], Some((&rest[p..p + 1], &rest[p + 1..]))),
        None => (rest, None),
    };
    let mut dp = date.split('-');
    let (Some(mo), Some(d), None) = (dp.next(), dp.next(), dp.next()) else {
        return false;
    };
    match (num(mo, 2), num(d, 2)) {
        (Some(m), Some(d)) if (1..=12).contains(&m) && (1..=31).contains(&d) => {}
        _ => return false,
    }
    let Some((sep, t)) = time else {
        return true;
    };
    // Time part: h:m:s, optional fraction, then a zone (required for the T layouts).
    let zone_at = t.find(['Z', '+', '-']).unwrap_or(t.len());
    let (clock, zone) = t.split_at(zone_at);
    let (hms, frac) = match clock.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (clock, None),
    };
    if let Some(f) = frac {
        if f.is_empty() || !f.bytes().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    let mut tp = hms.split(':');
    let (Some(h), Some(mi), Some(se), None) = (tp.next(), tp.next(), tp.next(), tp.next()) else {
        return false;
    };
    match (num(h, 2), num(mi, 2), num(se, 2)) {
        (Some(h), Some(mi), Some(se)) if h < 24 && mi < 60 && se < 60 => {}
        _ => return false,
    }
    if sep == " " {
        return zone.is_empty();
    }
    match zone {
        "Z" => true,
        z if z.is_ascii() && z.len() == 6 && (z.starts_with('+') || z.starts_with('-')) => {
            let (zh, zm) = (&z[1..3], &z[4..6]);
            &z[3..4] == ":" && num(zh, 2).is_some() && num(zm, 2).is_some()
        }
        _ => false,
    }
}

/// go-yaml's style choice for a string (encoder `stringv`, then `yaml_emitter_select_scalar_style`
/// with the analysis of `yaml_emitter_analyze_scalar`).
fn select_style(s: &str, key: bool) -> Style {
    let can_use_plain = !resolves_to_non_string(s) && !is_base60_float(s);
    let mut style = if s.contains('\n') {
        Style::Literal
    } else if can_use_plain {
        Style::Plain
    } else {
        Style::Double
    };
    let a = analyze(s);
    if style == Style::Plain && (!a.block_plain_allowed || (s.is_empty() && key)) {
        style = Style::Single;
    }
    if style == Style::Single && !a.single_quoted_allowed {
        style = Style::Double;
    }
    if style == Style::Literal && (!a.block_allowed || key) {
        style = Style::Double;
    }
    style
}

struct Analysis {
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis {
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = s.chars().collect();
    let mut block_indicators = s.starts_with("---") || s.starts_with("...");
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break, mut previous_space, mut previous_break) =
        (false, false, false, false);
    let mut line_breaks = false;
    let mut special = false;
    let mut preceded_by_whitespace = true;
    let blank =
        |c: Option<&char>| matches!(c, None | Some(' ') | Some('\t') | Some('\n') | Some('\r'));
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = blank(chars.get(i + 1));
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        // Line breaks other than '\n' are written escaped (double-quoted), as are
        // characters YAML cannot print.
        if !is_printable(c) || matches!(c, '\u{feff}' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            special = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == chars.len() {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if c == '\n' || c == '\r' || c == '\u{85}' || c == '\u{2028}' || c == '\u{2029}' {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == chars.len() {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = blank(Some(&c));
    }
    let mut a = Analysis {
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// go-yaml v2's key order (`keyList.Less`): digit runs compare numerically, and non-letters
/// sort before letters.
fn key_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i].cmp(&br[i]);
        }
        if al || bl {
            return if bl {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let (mut an, mut bn): (u128, u128) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .saturating_mul(10)
                .saturating_add(ar[ai] as u128 - '0' as u128);
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .saturating_mul(10)
                .saturating_add(br[bi] as u128 - '0' as u128);
            bi += 1;
        }
        if an != bn {
            return an.cmp(&bn);
        }
        if ai != bi {
            return ai.cmp(&bi);
        }
        return ar[i].cmp(&br[i]);
    }
    ar.len().cmp(&br.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubectl_style_document() {
        let v = json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "web",
                "labels": {"app": "web", "tier": ""},
                "resourceVersion": "42",
                "creationTimestamp": "2025-01-01T00:00:00Z",
                "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"a\":1}\n"}
            },
            "spec": {
                "containers": [{"name": "c", "image": "nginx:1.27", "ports": [{"containerPort": 80}], "args": ["--port", "true", "*"]}],
                "nodeSelector": {},
                "tolerations": []
            },
            "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True", "lastProbeTime": null}]}
        });
        assert_eq!(
            to_yaml(&v),
            "apiVersion: v1
kind: Pod
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {\"a\":1}
  creationTimestamp: \"2025-01-01T00:00:00Z\"
  labels:
    app: web
    tier: \"\"
  name: web
  resourceVersion: \"42\"
spec:
  containers:
  - args:
    - --port
    - \"true\"
    - '*'
    image: nginx:1.27
    name: c
    ports:
    - containerPort: 80
  nodeSelector: {}
  tolerations: []
status:
  conditions:
  - lastProbeTime: null
    status: \"True\"
    type: Ready
  phase: Running
"
        );
    }

    #[test]
    fn quoting_rules() {
        let y = |s: &str| to_yaml(&json!({ "k": s }));
        assert_eq!(y("plain text"), "k: plain text\n");
        assert_eq!(y("123"), "k: \"123\"\n");
        assert_eq!(y("0x1F"), "k: \"0x1F\"\n");
        assert_eq!(y("1.5"), "k: \"1.5\"\n");
        assert_eq!(y("1e3"), "k: \"1e3\"\n");
        assert_eq!(y("yes"), "k: \"yes\"\n");
        assert_eq!(y("null"), "k: \"null\"\n");
        assert_eq!(y("2025-01-01"), "k: \"2025-01-01\"\n");
        assert_eq!(y("1:20"), "k: \"1:20\"\n");
        assert_eq!(y("a: b"), "k: 'a: b'\n");
        assert_eq!(y("it's"), "k: it's\n");
        assert_eq!(y("- x"), "k: '- x'\n");
        assert_eq!(y(" lead"), "k: ' lead'\n");
        assert_eq!(y("tab\there"), "k: \"tab\\there\"\n");
        assert_eq!(y("a #b"), "k: 'a #b'\n");
        assert_eq!(y("100m"), "k: 100m\n");
        assert_eq!(y("1234-abc"), "k: 1234-abc\n");
        assert_eq!(y("two\nlines"), "k: |-\n  two\n  lines\n");
        assert_eq!(y("end\n\n"), "k: |+\n  end\n\n");
    }

    #[test]
    fn long_strings_fold_at_80_columns() {
        let msg = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
        let v = json!({"status": {"conditions": [{"message": msg}]}});
        assert_eq!(
            to_yaml(&v),
            "status:\n  conditions:\n  - message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n      available: 3 No preemption victims found for incoming pod.'\n"
        );
    }

    #[test]
    fn go_yaml_key_order() {
        let mut keys = vec!["b", "a10", "a9", "a_b", "aB", "A"];
        keys.sort_by(|a, b| key_cmp(a, b));
        assert_eq!(keys, ["A", "a_b", "a9", "a10", "aB", "b"]);
    }

    fn arb_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            "\\PC{0,30}".prop_map(Value::from),
            "[ -~]{0,120}".prop_map(Value::from),
            proptest::sample::select(vec![
                "",
                "true",
                "no",
                "~",
                "123",
                "0x1f",
                "1e3",
                ".5",
                "1:20",
                "2025-01-01",
                "- a",
                "a: b",
                " x",
                "x ",
                "#",
                "a #b",
                "'q'",
                "\"q\"",
                "tab\tx",
                "line\nbreak",
                "trailing\n",
                "two\n\n",
                "\nlead",
                "cr\rx",
                "crlf\r\n",
                "nul\u{0}",
                "é ü",
                "---",
                "...",
                "*a",
                "&a",
                "!t",
                "%p",
                "@x",
                "`x",
                "|",
                ">",
                "{",
                "[",
                "?",
                "? x",
                ": y",
                "-",
                "a\u{2028}b",
                "\u{feff}bom",
            ])
            .prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::btree_map("\\PC{0,12}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// Whatever we print parses back to the same value (keys, quoting, folding, blocks).
        #[test]
        fn yaml_round_trips(v in arb_json()) {
            let doc = json!({"root": v});
            let text = to_yaml(&doc);
            let back = crate::scenario::parse_documents(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            proptest::prop_assert_eq!(back.len(), 1);
            proptest::prop_assert_eq!(&back[0], &doc, "{}", text);
        }
    }

    #[test]
    fn empty_list_document() {
        let v = json!({"apiVersion": "v1", "items": [], "kind": "List", "metadata": {"resourceVersion": ""}});
        assert_eq!(
            to_yaml(&v),
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
    }
}
