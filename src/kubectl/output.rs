//! `-o yaml|json|name` printing (cli-runtime's YAMLPrinter, JSONPrinter and NamePrinter), and
//! the List kubectl wraps several objects in.

use super::resource::{Item, Kind};
use super::yaml::to_yaml;
use crate::api::Object;
use serde_json::{json, Value};

/// The object's JSON as a client sees it (managedFields are hidden by default since 1.21).
pub fn object_value(o: &Object) -> Value {
    let mut v = serde_json::to_value(o).unwrap_or(Value::Null);
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    v
}

/// Go's `encoding/json` escaping of `<`, `>`, `&`, U+2028 and U+2029 (only ever inside strings).
pub fn go_json_escape(s: &str) -> String {
    s.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// `json.MarshalIndent(obj, "", "    ")` plus a newline.
pub fn to_json(v: &Value) -> String {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    if serde::Serialize::serialize(v, &mut ser).is_err() {
        return "{}\n".into();
    }
    let mut s = go_json_escape(&String::from_utf8_lossy(&buf));
    s.push('\n');
    s
}

/// Compact JSON as `json.Encoder.Encode` writes it (with its trailing newline).
pub fn to_compact_json(v: &Value) -> String {
    let mut s = go_json_escape(&serde_json::to_string(v).unwrap_or_default());
    s.push('\n');
    s
}

/// The `List` kubectl prints for zero or several objects.
pub fn list_value(items: Vec<Value>) -> Value {
    json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    })
}

/// `kind[.group]/name`, as the name printer writes it.
pub fn name_of(kind: Kind, name: &str) -> String {
    format!("{}/{name}", kind.kind_group())
}

/// Prints items with a generic printer (`yaml`, `json` or `name`): one object as itself when a
/// single item was named, otherwise a List.
pub fn print_generic(format: &str, items: &[(Kind, Item)], single: bool) -> String {
    if format == "name" {
        return items
            .iter()
            .map(|(k, i)| name_of(*k, i.name()) + "\n")
            .collect();
    }
    let v = if single && items.len() == 1 {
        items[0].1.to_value()
    } else {
        list_value(items.iter().map(|(_, i)| i.to_value()).collect())
    };
    print_value(format, &v)
}

/// Prints one value as yaml or json.
pub fn print_value(format: &str, v: &Value) -> String {
    if format == "json" {
        to_json(v)
    } else {
        to_yaml(v)
    }
}

/// The output formats kubeplay's `get` supports, for kubectl's `unable to match a printer`
/// error.
pub const GET_FORMATS: &[&str] = &["custom-columns", "json", "jsonpath", "name", "wide", "yaml"];

/// kubectl's error for an unsupported `-o` value.
pub fn no_printer(format: &str, allowed: &[&str]) -> String {
    let mut a = allowed.to_vec();
    crate::sort::sort(&mut a);
    format!(
        "error: unable to match a printer suitable for the output format {format:?}, allowed formats are: {}",
        a.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_like_go() {
        let v = json!({"b": [1, {"x": "<none>"}], "a": {}, "c": []});
        assert_eq!(
            to_json(&v),
            "{\n    \"a\": {},\n    \"b\": [\n        1,\n        {\n            \"x\": \"\\u003cnone\\u003e\"\n        }\n    ],\n    \"c\": []\n}\n"
        );
        assert_eq!(
            to_compact_json(&json!({"k": "a&b"})),
            "{\"k\":\"a\\u0026b\"}\n"
        );
    }

    #[test]
    fn unsupported_format_error() {
        assert_eq!(
            no_printer("go-template={{.x}}", GET_FORMATS),
            "error: unable to match a printer suitable for the output format \"go-template={{.x}}\", allowed formats are: custom-columns,json,jsonpath,name,wide,yaml"
        );
    }
}
