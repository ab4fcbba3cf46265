//! The JSONPath templates of `-o jsonpath=...`, `-o custom-columns=...` and `--sort-by`
//! (`k8s.io/client-go/util/jsonpath`), for the subset tutorials use: `.field`, `['field']`,
//! `[n]`, `[*]`, `[a:b]`, `..field`, `[?(@.f == "x")]`, `{range}`/`{end}`, string literals.
//! Missing keys print nothing, as with kubectl's default `--allow-missing-template-keys`.

use crate::api::parse_quantity_milli;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
enum Seg {
    Field(String),
    Wildcard,
    Recursive(String),
    Index(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Filter(Box<Path>, Op, Option<Value>),
    Union(Vec<Path>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Exists,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A parsed path: from the root (`$`, or the current object with `@`), then segments.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    segs: Vec<Seg>,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    Path(Path),
    Range(Path, Vec<Node>),
}

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    nodes: Vec<Node>,
}

fn parse_literal(s: &str) -> Result<String, String> {
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => return Err("unterminated escape".into()),
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

fn parse_value(s: &str) -> Option<Value> {
    let s = s.trim();
    if (s.starts_with('"') && s.ends_with('"') && s.len() >= 2)
        || (s.starts_with('\'') && s.ends_with('\'') && s.len() >= 2)
    {
        return Some(Value::from(&s[1..s.len() - 1]));
    }
    if let Ok(i) = s.parse::<i64>() {
        return Some(Value::from(i));
    }
    if let Ok(f) = s.parse::<f64>() {
        return serde_json::Number::from_f64(f).map(Value::Number);
    }
    match s {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// Parses a path such as `.items[*].metadata.name` or `@.status.phase`.
///
/// # Errors
/// A message naming the unparsable part.
pub fn parse_path(s: &str) -> Result<Path, String> {
    let s = s.trim();
    let s = s
        .strip_prefix('$')
        .or_else(|| s.strip_prefix('@'))
        .unwrap_or(s);
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut segs = vec![];
    let ident = |i: &mut usize| -> String {
        let start = *i;
        while *i < b.len() && !matches!(b[*i], '.' | '[') {
            *i += 1;
        }
        b[start..*i].iter().collect()
    };
    while i < b.len() {
        match b[i] {
            '.' => {
                if b.get(i + 1) == Some(&'.') {
                    // `...x` is `..` then `.x`; `....x` repeats the descent (parseRecursive).
                    i += 2 + usize::from(b.get(i + 2) == Some(&'.'));
                    if b.get(i) == Some(&'.') {
                        return Err("invalid multiple recursive descent".into());
                    }
                    let name = ident(&mut i);
                    segs.push(Seg::Recursive(name));
                } else {
                    i += 1;
                    let name = ident(&mut i);
                    match name.as_str() {
                        "" => {}
                        "*" => segs.push(Seg::Wildcard),
                        _ => segs.push(Seg::Field(name)),
                    }
                }
            }
            '[' => {
                // Find the matching bracket (filters may nest brackets and quotes).
                let mut depth = 0;
                let mut j = i;
                let mut quote: Option<char> = None;
                while j < b.len() {
                    let c = b[j];
                    match (quote, c) {
                        (Some(q), c) if c == q => quote = None,
                        (Some(_), _) => {}
                        (None, '\'' | '"') => quote = Some(c),
                        (None, '[') => depth += 1,
                        (None, ']') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= b.len() {
                    return Err(format!("unterminated array: {s}"));
                }
                let inner: String = b[i + 1..j].iter().collect();
                let inner = inner.trim();
                i = j + 1;
                if inner == "*" {
                    segs.push(Seg::Wildcard);
                } else if inner.is_empty() {
                    // `[]` is `[0]` (parseArray derives the end as start + 1).
                    segs.push(Seg::Index(0));
                } else if let Some(f) = inner.strip_prefix("?(").and_then(|x| x.strip_suffix(')')) {
                    let ops = [
                        ("==", Op::Eq),
                        ("!=", Op::Ne),
                        ("<=", Op::Le),
                        (">=", Op::Ge),
                        ("<", Op::Lt),
                        (">", Op::Gt),
                    ];
                    let mut seg = None;
                    for (tok, op) in ops {
                        if let Some((l, r)) = f.split_once(tok) {
                            let v = parse_value(r)
                                .ok_or_else(|| format!("unrecognized filter value: {r}"))?;
                            seg = Some(Seg::Filter(Box::new(parse_path(l)?), op, Some(v)));
                            break;
                        }
                    }
                    segs.push(seg.unwrap_or(Seg::Filter(
                        Box::new(parse_path(f)?),
                        Op::Exists,
                        None,
                    )));
                } else if inner.len() >= 2
                    && ((inner.starts_with('\'') && inner.ends_with('\''))
                        || (inner.starts_with('"') && inner.ends_with('"')))
                {
                    segs.push(Seg::Field(inner[1..inner.len() - 1].to_string()));
                } else if inner.contains(',') && !inner.starts_with('?') {
                    // A union: `[1,3,4]` or `['a','b']`.
                    let parts = inner
                        .split(',')
                        .map(|x| parse_path(&format!("[{}]", x.trim())));
                    segs.push(Seg::Union(parts.collect::<Result<_, _>>()?));
                } else if inner.contains(':') {
                    let num = |x: Option<&str>| -> Result<Option<i64>, String> {
                        let x = x.unwrap_or_default().trim();
                        if x.is_empty() {
                            Ok(None)
                        } else {
                            x.parse()
                                .map(Some)
                                .map_err(|_| format!("invalid array index {x}"))
                        }
                    };
                    let mut p = inner.split(':');
                    segs.push(Seg::Slice(num(p.next())?, num(p.next())?, num(p.next())?));
                } else {
                    let n: i64 = inner
                        .parse()
                        .map_err(|_| format!("invalid array index {inner}"))?;
                    segs.push(Seg::Index(n));
                }
            }
            _ => {
                let name = ident(&mut i);
                if name == "*" {
                    segs.push(Seg::Wildcard);
                } else if !name.is_empty() {
                    segs.push(Seg::Field(name));
                }
            }
        }
    }
    Ok(Path { segs })
}

/// Parses a template with `{...}` actions; text outside braces, a template without braces
/// included, prints as it is (jsonpath.Parse).
///
/// # Errors
/// Unbalanced braces, `{end}` without `{range}`, or a bad path.
/// The path after the `range` keyword of an action, if it is one. Upstream's parser reads
/// `range` as an identifier ended by any terminator (`isTerminator`: space, `.`, `[`, `$`, `@`
/// …), so `{range.items[*]}` is `{range .items[*]}`; a bare `{range}` ranges over the current
/// object.
fn range_keyword(action: &str) -> Option<&str> {
    let rest = action.strip_prefix("range")?;
    match rest.chars().next() {
        None => Some("@"),
        Some(c) if c.is_whitespace() || matches!(c, '.' | '[' | '$' | '@') => {
            let p = rest.trim_start();
            Some(if p.is_empty() { "@" } else { p })
        }
        Some(_) => None,
    }
}

pub fn parse(template: &str) -> Result<Template, String> {
    let mut stack: Vec<(Option<Path>, Vec<Node>)> = vec![(None, vec![])];
    let mut rest = template;
    while !rest.is_empty() {
        let Some(open) = rest.find('{') else {
            if let Some(top) = stack.last_mut() {
                top.1.push(Node::Text(rest.to_string()));
            }
            break;
        };
        if open > 0 {
            if let Some(top) = stack.last_mut() {
                top.1.push(Node::Text(rest[..open].to_string()));
            }
        }
        let after = &rest[open + 1..];
        // The action ends at the first '}' outside a string literal.
        let mut end = None;
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for (k, c) in after.char_indices() {
            match quote {
                Some(q) if c == q && prev != '\\' => quote = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None if c == '}' => {
                    end = Some(k);
                    break;
                }
                None => {}
            }
            prev = c;
        }
        let end = end.ok_or_else(|| format!("unclosed action in template {template:?}"))?;
        let action = after[..end].trim();
        rest = &after[end + 1..];
        if action == "end" {
            let (path, body) = stack.pop().unwrap_or((None, vec![]));
            let Some(path) = path else {
                return Err("not in range, nothing to end".into());
            };
            match stack.last_mut() {
                Some(top) => top.1.push(Node::Range(path, body)),
                None => return Err("not in range, nothing to end".into()),
            }
        } else if let Some(p) = range_keyword(action) {
            stack.push((Some(parse_path(p)?), vec![]));
        } else if action.len() >= 2 && (action.starts_with('"') && action.ends_with('"')) {
            let lit = parse_literal(action)?;
            if let Some(top) = stack.last_mut() {
                top.1.push(Node::Text(lit));
            }
        } else if let Some(top) = stack.last_mut() {
            top.1.push(Node::Path(parse_path(action)?));
        }
    }
    if stack.len() != 1 {
        return Err("unclosed range".into());
    }
    Ok(Template {
        nodes: stack.pop().map(|(_, n)| n).unwrap_or_default(),
    })
}

fn compare(a: &Value, op: Op, b: &Value) -> bool {
    use std::cmp::Ordering;
    let ord = match (a, b) {
        (Value::Number(x), Value::Number(y)) => x
            .as_f64()
            .zip(y.as_f64())
            .and_then(|(x, y)| x.partial_cmp(&y)),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (x, y) if x == y => Some(Ordering::Equal),
        _ => None,
    };
    match op {
        Op::Exists => true,
        Op::Eq => ord == Some(Ordering::Equal),
        Op::Ne => ord != Some(Ordering::Equal),
        Op::Lt => ord == Some(Ordering::Less),
        Op::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
        Op::Gt => ord == Some(Ordering::Greater),
        Op::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
    }
}

fn recurse<'a>(v: &'a Value, name: &str, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(m) => {
            if let Some(x) = m.get(name) {
                out.push(x);
            }
            for x in m.values() {
                recurse(x, name, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| recurse(x, name, out)),
        _ => {}
    }
}

/// Evaluates a path against a value.
pub fn eval<'a>(path: &Path, root: &'a Value) -> Vec<&'a Value> {
    eval_checked(path, root).unwrap_or_default()
}

/// `evalArray`'s bounds of `[start:end]` over `len` items (`derived`: the end of an index
/// `[n]`, which is `n+1`); `None` selects nothing.
fn slice_bounds(
    len: i64,
    start: Option<i64>,
    end: Option<i64>,
    derived: bool,
) -> Result<Option<(usize, usize)>, String> {
    let s = start.map_or(0, |s| if s < 0 { s + len } else { s });
    let e = end.map_or(len, |e| {
        if e < 0 || (e == 0 && derived) {
            e + len
        } else {
            e
        }
    });
    let oob = |i: i64| format!("array index out of bounds: index {i}, length {len}");
    if s == e {
        Ok(None)
    } else if !(0..len).contains(&s) {
        Err(oob(s))
    } else if !(0..=len).contains(&e) {
        Err(oob(e - 1))
    } else if s > e {
        Err(format!(
            "starting index {s} is greater than ending index {e}"
        ))
    } else {
        Ok(Some((s as usize, e as usize)))
    }
}

/// [`eval`] with upstream's execution errors: an index or slice out of bounds, a step below 1.
///
/// # Errors
/// `array index out of bounds: index 5, length 4` and the like, as `JSONPath.FindResults`.
pub fn eval_checked<'a>(path: &Path, root: &'a Value) -> Result<Vec<&'a Value>, String> {
    eval_opts(path, root, true)
}

/// [`eval_checked`] with client-go's `AllowMissingKeys`: when false, a field that none of the
/// current values has is the error `NAME is not found` (`evalField`).
///
/// # Errors
/// As [`eval_checked`], and missing keys when they are not allowed.
pub fn eval_opts<'a>(
    path: &Path,
    root: &'a Value,
    allow_missing_keys: bool,
) -> Result<Vec<&'a Value>, String> {
    let mut cur: Vec<&Value> = vec![root];
    for seg in &path.segs {
        let mut next = vec![];
        if let Seg::Field(f) = seg {
            if !allow_missing_keys && !cur.is_empty() && !cur.iter().any(|v| v.get(f).is_some()) {
                return Err(format!("{f} is not found"));
            }
        }
        for v in cur {
            match seg {
                Seg::Field(f) => {
                    if let Some(x) = v.get(f) {
                        next.push(x);
                    }
                }
                Seg::Wildcard => match v {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(m) => next.extend(m.values()),
                    _ => {}
                },
                Seg::Recursive(name) => recurse(v, name, &mut next),
                Seg::Index(n) => {
                    if let Value::Array(a) = v {
                        let b = slice_bounds(a.len() as i64, Some(*n), Some(n + 1), true)?;
                        next.extend(b.map(|(s, _)| &a[s]));
                    }
                }
                Seg::Slice(s, e, step) => {
                    if let Value::Array(a) = v {
                        if let Some((s, e)) = slice_bounds(a.len() as i64, *s, *e, false)? {
                            let step = usize::try_from(step.unwrap_or(1))
                                .ok()
                                .filter(|x| *x > 0)
                                .ok_or("step must be > 0")?;
                            next.extend(a[s..e].iter().step_by(step));
                        }
                    }
                }
                Seg::Union(paths) => {
                    for p in paths {
                        next.extend(eval_opts(p, v, allow_missing_keys)?);
                    }
                }
                Seg::Filter(p, op, val) => {
                    let items: Vec<&Value> = match v {
                        Value::Array(a) => a.iter().collect(),
                        other => vec![other],
                    };
                    for item in items {
                        let got = eval(p, item);
                        let keep = match (op, val) {
                            (Op::Exists, _) => !got.is_empty(),
                            (_, Some(want)) => got.iter().any(|g| compare(g, *op, want)),
                            _ => false,
                        };
                        if keep {
                            next.push(item);
                        }
                    }
                }
            }
        }
        cur = next;
    }
    Ok(cur)
}

/// The text jsonpath prints for one value (`PrintResults`): maps and lists as JSON, scalars
/// with `fmt.Fprint` (`evalToText`): strings raw, numbers as Go's `%v` of int64/float64.
pub fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => go_number(n),
        other => super::output::go_json_escape(&serde_json::to_string(other).unwrap_or_default()),
    }
}

fn exec(nodes: &[Node], cur: &Value, allow: bool, out: &mut String) -> Result<(), String> {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Path(p) => {
                let vals = eval_opts(p, cur, allow)?;
                let texts: Vec<String> = vals.iter().map(|v| text_of(v)).collect();
                out.push_str(&texts.join(" "));
            }
            Node::Range(p, body) => {
                for v in eval_opts(p, cur, allow)? {
                    exec(body, v, allow, out)?;
                }
            }
        }
    }
    Ok(())
}

impl Template {
    /// Executes the template against a value.
    ///
    /// # Errors
    /// An execution error of [`eval_checked`] (an index out of bounds…).
    pub fn execute(&self, v: &Value) -> Result<String, String> {
        self.execute_opts(v, true)
    }

    /// [`Self::execute`] with `--allow-missing-template-keys`.
    ///
    /// # Errors
    /// As [`Self::execute`], and `NAME is not found` when missing keys are not allowed.
    pub fn execute_opts(&self, v: &Value, allow_missing_keys: bool) -> Result<String, String> {
        let mut out = String::new();
        exec(&self.nodes, v, allow_missing_keys, &mut out)?;
        Ok(out)
    }
}

/// kubectl's `-o jsonpath=TEMPLATE` output (`JSONPathPrinter.PrintObj`): the template's text, or
/// its error with the template and the object (printed as Go's `%#v` of the unstructured
/// content). `JSONPath.Execute` finds every result before printing, so an error prints nothing
/// else.
///
/// # Errors
/// The template does not parse, or its execution fails.
pub fn print(template: &str, v: &Value) -> Result<String, String> {
    print_opts(template, v, true)
}

/// [`print`] with `--allow-missing-template-keys` (`JSONPathPrinter.AllowMissingKeys`).
///
/// # Errors
/// As [`print`]; with missing keys not allowed, `NAME is not found` in the execution error.
pub fn print_opts(template: &str, v: &Value, allow_missing_keys: bool) -> Result<String, String> {
    let t =
        parse(template).map_err(|e| format!("error: error parsing jsonpath {template}, {e}"))?;
    t.execute_opts(v, allow_missing_keys).map_err(|e| {
        format!(
            "error: error executing jsonpath {}: Error executing template: {e}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{template}\n\tobject given to jsonpath engine was:\n\t\t{}\n\n",
            crate::api::errors::go_quote(template),
            go_sharp_v(v)
        )
    })
}

/// Go's `%#v` of a decoded JSON value held in an `interface{}` (unstructured content: integers
/// as int64, maps with sorted keys).
pub fn go_sharp_v(v: &Value) -> String {
    let join = |parts: Vec<String>| parts.join(", ");
    match v {
        Value::Null => "interface {}(nil)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => go_number(n),
        Value::String(s) => crate::api::errors::go_quote(s),
        Value::Array(a) => format!(
            "[]interface {{}}{{{}}}",
            join(a.iter().map(go_sharp_v).collect())
        ),
        Value::Object(m) => format!(
            "map[string]interface {{}}{{{}}}",
            join(
                m.iter()
                    .map(|(k, v)| format!("{}:{}", crate::api::errors::go_quote(k), go_sharp_v(v)))
                    .collect()
            )
        ),
    }
}

/// A JSON number as Go prints it from unstructured content (`%v` and `%#v` alike): an int64
/// as an integer, anything else as a float64 with `strconv.FormatFloat(f, 'g', -1, 64)`.
pub fn go_number(n: &serde_json::Number) -> String {
    match n.as_i64() {
        Some(i) if !n.is_f64() => i.to_string(),
        _ => go_float_g(n.as_f64().unwrap_or(0.0)),
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)`: the shortest digits that round-trip, in `%e` form
/// (`1e+06`, `1.5e-07`, at least two exponent digits) when the exponent is below -4 or at
/// least 6 (the shortest format's `eprec`), else in `%f` form.
pub fn go_float_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    // Rust's `{:e}` is the shortest round-trip representation: `-1.5e-7`, `1e6`.
    let e = format!("{f:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if neg { "-" } else { "" };
    if f == 0.0 {
        return format!("{sign}0");
    }
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{frac}e{esign}{:02}", exp.unsigned_abs());
    }
    // %f with exactly the significant digits.
    let dp = exp + 1; // digits before the decimal point
    let nd = digits.len() as i32;
    let body = if dp <= 0 {
        format!("0.{}{}", "0".repeat(dp.unsigned_abs() as usize), digits)
    } else if dp >= nd {
        format!("{digits}{}", "0".repeat((dp - nd) as usize))
    } else {
        let (a, b) = digits.split_at(dp as usize);
        format!("{a}.{b}")
    };
    format!("{sign}{body}")
}

/// `RelaxedJSONPathExpression`: `.a.b`, `a.b` and `{.a.b}` all name the same path.
///
/// # Errors
/// A path that is not a single simple expression.
pub fn relaxed_path(s: &str) -> Result<Path, String> {
    let t = s.trim();
    let inner = t
        .strip_prefix('{')
        .and_then(|x| x.strip_suffix('}'))
        .unwrap_or(t);
    if inner.contains(['{', '}']) {
        return Err("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".to_string());
    }
    let inner = if inner.starts_with('.')
        || inner.starts_with('[')
        || inner.starts_with('$')
        || inner.starts_with('@')
    {
        inner.to_string()
    } else {
        format!(".{inner}")
    };
    parse_path(&inner)
}

/// Orders values as kubectl's sorter does for the kinds of fields objects carry: missing
/// first, then numbers numerically, strings (RFC 3339 times included) lexically.
pub fn sort_cmp(a: Option<&Value>, b: Option<&Value>) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x
            .as_f64()
            .zip(y.as_f64())
            .and_then(|(x, y)| x.partial_cmp(&y))
            .unwrap_or(Ordering::Equal),
        // Two quantities compare as quantities (sorter.go isLess), other strings lexically.
        (Some(Value::String(x)), Some(Value::String(y))) => {
            match (parse_quantity_milli(x), parse_quantity_milli(y)) {
                (Ok(a), Ok(b)) => a.cmp(&b),
                _ => x.cmp(y),
            }
        }
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x.cmp(y),
        (Some(x), Some(y)) => text_of(x).cmp(&text_of(y)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list() -> Value {
        json!({"kind": "List", "items": [
            {"metadata": {"name": "a", "labels": {"app": "web"}}, "status": {"phase": "Running", "containerStatuses": [{"restartCount": 2}]}, "spec": {"nodeName": "n1"}},
            {"metadata": {"name": "b"}, "status": {"phase": "Pending"}},
        ]})
    }

    fn run(t: &str) -> String {
        parse(t).unwrap().execute(&list()).unwrap()
    }

    /// Cases in the style of client-go's jsonpath_test.go (TestJSONInput, TestKubernetes).
    #[test]
    fn templates() {
        assert_eq!(run("{.items[*].metadata.name}"), "a b");
        // Text outside braces is literal (jsonpath.Parse), a path without braces included.
        assert_eq!(run(".items[0].metadata.name"), ".items[0].metadata.name");
        assert_eq!(run("{.items[-1].metadata.name}"), "b");
        assert_eq!(run("{.items[0:1].metadata.name}"), "a");
        assert_eq!(
            run("{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}"),
            "a\tRunning\nb\tPending\n"
        );
        assert_eq!(
            run("{.items[?(@.status.phase==\"Pending\")].metadata.name}"),
            "b"
        );
        assert_eq!(run("{.items[?(@.metadata.labels.app)].metadata.name}"), "a");
        assert_eq!(run("{..restartCount}"), "2");
        assert_eq!(run("{.items[0].metadata.labels}"), "{\"app\":\"web\"}");
        assert_eq!(run("{.items[0].metadata['name']}"), "a");
        assert_eq!(
            run("name={.items[1].metadata.name} missing={.items[1].spec.nodeName}."),
            "name=b missing=."
        );
        // The keyword needs no space before a path (upstream's identifier ends at `.`).
        assert_eq!(
            run("{range.items[*]}{.metadata.name}{\"\\n\"}{end}"),
            "a\nb\n"
        );
        assert_eq!(run("{range@.items[*]}[{.metadata.name}]{end}"), "[a][b]");
        assert!(parse("{rangex .items[*]}{end}").is_err());
        assert!(parse("{range .items[*]}{.x}").is_err());
        assert!(parse("{.items[0}").is_err());
        assert!(parse("{end}").is_err());
    }

    #[test]
    fn relaxed_paths_and_sorting() {
        let v = list();
        for p in ["metadata.name", ".metadata.name", "{.metadata.name}"] {
            assert_eq!(
                eval(&relaxed_path(p).unwrap(), &v["items"][0]),
                vec![&json!("a")]
            );
        }
        assert!(relaxed_path("{.a}{.b}").is_err());
        assert_eq!(
            sort_cmp(Some(&json!(2)), Some(&json!(10))),
            std::cmp::Ordering::Less
        );
        assert_eq!(sort_cmp(None, Some(&json!("a"))), std::cmp::Ordering::Less);
    }

    // JSONPathPrinter.PrintObj (cli-runtime printers/jsonpath.go) on an execution error: nothing
    // printed, and the error names the template and dumps the object as Go's `%#v`.
    #[test]
    fn print_reports_execution_errors_as_kubectl() {
        let v = json!({"items": [{"a": 1, "b": "x"}], "n": null, "t": true, "f": 1.5});
        assert_eq!(print("{.items[0].b}", &v), Ok("x".into()));
        let err = print("{.items[3]}", &v).unwrap_err();
        assert_eq!(
            err,
            "error: error executing jsonpath \"{.items[3]}\": Error executing template: array index out of bounds: index 3, length 1. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{.items[3]}\n\tobject given to jsonpath engine was:\n\t\tmap[string]interface {}{\"f\":1.5, \"items\":[]interface {}{map[string]interface {}{\"a\":1, \"b\":\"x\"}}, \"n\":interface {}(nil), \"t\":true}\n\n"
        );
        // An error inside a range body fails the whole template.
        assert!(print(
            "{range .items[*]}{.c[2]}{end}",
            &json!({"items": [{"c": [1]}]})
        )
        .is_err());
        assert!(print("{.items[", &v)
            .unwrap_err()
            .starts_with("error: error parsing jsonpath {.items[, "));
    }
}
