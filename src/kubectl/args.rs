//! Command-line handling: shell-like tokenizing and a pflag-compatible flag parser.
//!
//! Flag errors are worded as cobra/pflag word them and wrapped the way kubectl's
//! `templater.FlagErrorFunc` does (`See 'kubectl get --help' for usage.`).

use std::collections::BTreeMap;

/// Splits a command line into words the way a POSIX shell would: whitespace separates words,
/// single quotes keep everything literally, double quotes allow `\"`, `\\`, `\$` and `` \` ``
/// escapes, and a backslash outside quotes escapes the next character.
///
/// # Errors
/// An unterminated quote or a trailing backslash.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut words = vec![];
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => {
                            return Err(
                                "error: unexpected EOF while looking for matching `''".into()
                            )
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek().copied() {
                            Some(n @ ('"' | '\\' | '$' | '`')) => {
                                chars.next();
                                cur.push(n);
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => cur.push('\\'),
                        },
                        Some(ch) => cur.push(ch),
                        None => {
                            return Err(
                                "error: unexpected EOF while looking for matching `\"'".into()
                            )
                        }
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(ch) => {
                    in_word = true;
                    cur.push(ch);
                }
                None => return Err("error: unexpected EOF after `\\'".into()),
            },
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// The type of a flag's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagKind {
    Bool,
    Str,
    Int,
    /// A `StringSlice`: repeatable, and comma-separated values are split.
    Strings,
}

/// One flag a command accepts.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    pub name: &'static str,
    pub short: Option<char>,
    pub kind: FlagKind,
    /// pflag's `NoOptDefVal`: the value used when the flag is given without `=value`.
    pub no_opt: Option<&'static str>,
}

impl Flag {
    pub const fn bool(name: &'static str) -> Flag {
        Flag {
            name,
            short: None,
            kind: FlagKind::Bool,
            no_opt: None,
        }
    }
    pub const fn str(name: &'static str) -> Flag {
        Flag {
            name,
            short: None,
            kind: FlagKind::Str,
            no_opt: None,
        }
    }
    pub const fn int(name: &'static str) -> Flag {
        Flag {
            name,
            short: None,
            kind: FlagKind::Int,
            no_opt: None,
        }
    }
    pub const fn strings(name: &'static str) -> Flag {
        Flag {
            name,
            short: None,
            kind: FlagKind::Strings,
            no_opt: None,
        }
    }
    pub const fn short(mut self, c: char) -> Flag {
        self.short = Some(c);
        self
    }
    pub const fn no_opt(mut self, v: &'static str) -> Flag {
        self.no_opt = Some(v);
        self
    }

    /// pflag's name in `invalid argument` errors: `-n, --namespace` or `--replicas`.
    fn display(&self) -> String {
        match self.short {
            Some(c) => format!("-{c}, --{}", self.name),
            None => format!("--{}", self.name),
        }
    }
}

/// kubectl's persistent flags, accepted by every command. Only `--namespace` has an effect.
pub const GLOBAL_FLAGS: &[Flag] = &[
    Flag::str("namespace").short('n'),
    Flag::str("context"),
    Flag::str("cluster"),
    Flag::str("user"),
    Flag::str("kubeconfig"),
    Flag::str("request-timeout"),
    Flag::str("v").short('v'),
    Flag::bool("warnings-as-errors"),
];

/// The result of parsing: positional arguments and flag values by flag name.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub args: Vec<String>,
    values: BTreeMap<&'static str, Vec<String>>,
    /// Every flag occurrence in command-line order, by long name (what pflag's `ParseAll`
    /// reports; `--record` writes it into the change-cause).
    order: Vec<(&'static str, String)>,
    /// cobra's `ArgsLenAtDash`: how many positional arguments came before `--`, if given.
    pub dash: Option<usize>,
}

impl Parsed {
    /// Whether the flag appeared on the command line.
    pub fn changed(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }
    /// The last value of a string flag.
    pub fn str(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .and_then(|v| v.last())
            .map(String::as_str)
    }
    /// A string flag, or `""`.
    pub fn string(&self, name: &str) -> String {
        self.str(name).unwrap_or_default().to_string()
    }
    /// A bool flag (validated during parsing).
    pub fn bool(&self, name: &str) -> bool {
        self.str(name)
            .map(|v| parse_bool(v).unwrap_or(false))
            .unwrap_or(false)
    }
    /// An int flag (validated during parsing), or `default`.
    pub fn int(&self, name: &str, default: i64) -> i64 {
        self.str(name)
            .and_then(|v| parse_int(v).ok())
            .unwrap_or(default)
    }
    /// Every value of a repeatable flag.
    pub fn strings(&self, name: &str) -> Vec<String> {
        self.values.get(name).cloned().unwrap_or_default()
    }
    /// Every flag occurrence in command-line order: (long name, value as given).
    pub fn ordered(&self) -> &[(&'static str, String)] {
        &self.order
    }
}

/// Go's `strconv.ParseBool`.
pub fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Go's `strconv.ParseInt(s, 0, 64)` (base prefixes `0x`, `0o`, `0b`, leading-zero octal, and
/// underscores between digits), with Go's error text.
///
/// # Errors
/// `strconv.ParseInt: parsing "x": invalid syntax` or `... value out of range`.
pub fn parse_int(s: &str) -> Result<i64, String> {
    let syntax = || format!("strconv.ParseInt: parsing {s:?}: invalid syntax");
    let range = || format!("strconv.ParseInt: parsing {s:?}: value out of range");
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() {
        return Err(syntax());
    }
    let lower = body.to_ascii_lowercase();
    let (base, digits, prefixed) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d.to_string(), true)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d.to_string(), true)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d.to_string(), true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower[1..].to_string(), true)
    } else {
        (10, lower.clone(), false)
    };
    if digits.contains('_') {
        // Underscores may only separate digits (and follow a base prefix).
        let ok = !digits.ends_with('_')
            && !digits.contains("__")
            && (prefixed || !digits.starts_with('_'));
        if !ok {
            return Err(syntax());
        }
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    if clean.is_empty() {
        return Err(syntax());
    }
    let mut v: i128 = 0;
    for c in clean.chars() {
        let d = c.to_digit(base).ok_or_else(syntax)? as i128;
        v = v * base as i128 + d;
        if v > i64::MAX as i128 + 1 {
            return Err(range());
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).map_err(|_| range())
}

fn flag_error(cmd_path: &str, msg: String) -> String {
    format!("error: {msg}\nSee '{cmd_path} --help' for usage.")
}

fn validate(cmd_path: &str, f: &Flag, v: &str) -> Result<(), String> {
    match f.kind {
        FlagKind::Bool => parse_bool(v).map(|_| ()).ok_or_else(|| {
            flag_error(
                cmd_path,
                format!(
                    "invalid argument {v:?} for {:?} flag: strconv.ParseBool: parsing {v:?}: invalid syntax",
                    f.display()
                ),
            )
        }),
        FlagKind::Int => parse_int(v).map(|_| ()).map_err(|e| {
            flag_error(
                cmd_path,
                format!("invalid argument {v:?} for {:?} flag: {e}", f.display()),
            )
        }),
        _ => Ok(()),
    }
}

fn store(out: &mut Parsed, f: &Flag, v: &str) {
    out.order.push((f.name, v.to_string()));
    let e = out.values.entry(f.name).or_default();
    if f.kind == FlagKind::Strings {
        e.extend(v.split(',').filter(|s| !s.is_empty()).map(str::to_string));
    } else {
        e.push(v.to_string());
    }
}

/// Parses `tokens` against `flags` (plus [`GLOBAL_FLAGS`]) the way pflag does with interspersed
/// arguments: `--name=v`, `--name v`, `-n v`, `-nv`, `-n=v`, grouped boolean shorthands, and
/// `--` ending flag parsing.
///
/// # Errors
/// pflag's messages (`unknown flag: --foo`, `flag needs an argument: --namespace`,
/// `invalid argument ...`) wrapped as kubectl prints them.
pub fn parse(cmd_path: &str, tokens: &[String], flags: &[Flag]) -> Result<Parsed, String> {
    let all: Vec<&Flag> = flags.iter().chain(GLOBAL_FLAGS.iter()).collect();
    let by_name = |n: &str| all.iter().find(|f| f.name == n).copied();
    let by_short = |c: char| all.iter().find(|f| f.short == Some(c)).copied();
    let mut out = Parsed::default();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        i += 1;
        if t == "--" {
            out.dash = Some(out.args.len());
            out.args.extend(tokens[i..].iter().cloned());
            break;
        }
        if let Some(body) = t.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            if name.is_empty() || name.starts_with('-') || name.starts_with('=') {
                return Err(flag_error(cmd_path, format!("bad flag syntax: {t}")));
            }
            let Some(f) = by_name(name) else {
                return Err(flag_error(cmd_path, format!("unknown flag: --{name}")));
            };
            let value = match (inline, f.kind, f.no_opt) {
                (Some(v), _, _) => v.to_string(),
                (None, FlagKind::Bool, _) => "true".into(),
                (None, _, Some(d)) => d.to_string(),
                (None, _, None) => {
                    if i < tokens.len() {
                        i += 1;
                        tokens[i - 1].clone()
                    } else {
                        return Err(flag_error(
                            cmd_path,
                            format!("flag needs an argument: --{name}"),
                        ));
                    }
                }
            };
            validate(cmd_path, f, &value)?;
            store(&mut out, f, &value);
            continue;
        }
        if t.len() > 1 && t.starts_with('-') {
            let shorts: Vec<char> = t[1..].chars().collect();
            let mut j = 0;
            while j < shorts.len() {
                let c = shorts[j];
                let Some(f) = by_short(c) else {
                    return Err(flag_error(
                        cmd_path,
                        format!("unknown shorthand flag: {c:?} in {t}"),
                    ));
                };
                let rest: String = shorts[j + 1..].iter().collect();
                let value = if let Some(v) = rest.strip_prefix('=') {
                    j = shorts.len();
                    v.to_string()
                } else if f.kind == FlagKind::Bool {
                    j += 1;
                    "true".into()
                } else if let Some(d) = f.no_opt {
                    j += 1;
                    d.to_string()
                } else if !rest.is_empty() {
                    j = shorts.len();
                    rest
                } else if i < tokens.len() {
                    j += 1;
                    i += 1;
                    tokens[i - 1].clone()
                } else {
                    return Err(flag_error(
                        cmd_path,
                        format!("flag needs an argument: {c:?} in {t}"),
                    ));
                };
                validate(cmd_path, f, &value)?;
                store(&mut out, f, &value);
            }
            continue;
        }
        out.args.push(t.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        tokenize(s).unwrap()
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(
            toks(r#"label pod x 'a=b c' "d=\"e\"" f\ g"#),
            ["label", "pod", "x", "a=b c", "d=\"e\"", "f g"]
        );
        assert_eq!(toks("  get   pods  "), ["get", "pods"]);
        assert_eq!(
            toks("annotate po x note=''"),
            ["annotate", "po", "x", "note="]
        );
        assert_eq!(toks(r#""a\nb""#), [r"a\nb"]);
        assert!(tokenize("get 'pods").is_err());
        assert!(tokenize("get \"pods").is_err());
        assert!(tokenize("get pods\\").is_err());
    }

    const FLAGS: &[Flag] = &[
        Flag::str("output").short('o'),
        Flag::bool("all-namespaces").short('A'),
        Flag::bool("show-labels"),
        Flag::int("replicas"),
        Flag::strings("filename").short('f'),
        Flag::str("cascade").no_opt("background"),
    ];

    fn p(s: &str) -> Result<Parsed, String> {
        parse("kubectl get", &toks(s), FLAGS)
    }

    #[test]
    fn long_and_short_forms() {
        let r = p("pods -o wide -n kube-system --show-labels x").unwrap();
        assert_eq!(r.args, ["pods", "x"]);
        assert_eq!(r.str("output"), Some("wide"));
        assert_eq!(r.str("namespace"), Some("kube-system"));
        assert!(r.bool("show-labels"));
        let r = p("pods -owide -nfoo --replicas=3 -A").unwrap();
        assert_eq!(r.str("output"), Some("wide"));
        assert_eq!(r.str("namespace"), Some("foo"));
        assert_eq!(r.int("replicas", -1), 3);
        assert!(r.bool("all-namespaces"));
        let r = p("-n=bar -f a.yaml,b.yaml -f c.yaml -- -x").unwrap();
        assert_eq!(r.str("namespace"), Some("bar"));
        assert_eq!(r.strings("filename"), ["a.yaml", "b.yaml", "c.yaml"]);
        assert_eq!(r.args, ["-x"]);
        let r = p("--show-labels=false --cascade orphan").unwrap();
        assert!(!r.bool("show-labels"));
        assert_eq!(r.str("cascade"), Some("background"));
        assert_eq!(r.args, ["orphan"]);
        assert_eq!(r.int("replicas", -1), -1);
    }

    #[test]
    fn pflag_errors() {
        assert_eq!(
            p("pods --foo").unwrap_err(),
            "error: unknown flag: --foo\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            p("pods -x").unwrap_err(),
            "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            p("pods -o").unwrap_err(),
            "error: flag needs an argument: 'o' in -o\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            p("pods --output").unwrap_err(),
            "error: flag needs an argument: --output\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            p("--replicas=abc").unwrap_err(),
            "error: invalid argument \"abc\" for \"--replicas\" flag: strconv.ParseInt: parsing \"abc\": invalid syntax\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            p("-A=maybe").unwrap_err(),
            "error: invalid argument \"maybe\" for \"-A, --all-namespaces\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax\nSee 'kubectl get --help' for usage."
        );
    }

    /// Rows from Go's strconv TestParseInt64Base (base 0).
    #[test]
    fn go_parse_int() {
        assert_eq!(parse_int("0x10"), Ok(16));
        assert_eq!(parse_int("010"), Ok(8));
        assert_eq!(parse_int("0b101"), Ok(5));
        assert_eq!(parse_int("-12"), Ok(-12));
        assert_eq!(parse_int("1_000"), Ok(1000));
        assert!(parse_int("1__0").is_err());
        assert_eq!(parse_int("0x_1f"), Ok(31));
        assert!(parse_int("9223372036854775808")
            .unwrap_err()
            .ends_with("value out of range"));
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        assert!(parse_int("").is_err());
        assert!(parse_int("+").is_err());
        assert!(parse_int("08").is_err());
    }
}
