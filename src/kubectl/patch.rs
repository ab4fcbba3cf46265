//! `kubectl patch` (`pkg/cmd/patch/patch.go`) with the API server's patch handler
//! (`apiserver/pkg/endpoints/handlers/patch.go`): strategic merge, JSON merge (RFC 7386) and
//! JSON patch (RFC 6902).
//!
//! The server side is applied here on the object's JSON: the patched JSON is decoded back into
//! the typed object (a decoding failure is the handler's `Invalid` on field `patch`), then sent
//! as an update, so defaulting, validation and "a no-op update keeps the resourceVersion" are the
//! API server's. kubectl prints `patched (no change)` when the object it read equals the one
//! the server returned (`didPatch := !reflect.DeepEqual(info.Object, patchedObj)`).

use super::args::{self, Flag};
use super::resource::{self, Item, Kind};
use super::{apply, DryRun, Input, Namespace, Out, DRY_RUN_FLAG};
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{Map, Value};

const FLAGS: &[Flag] = &[
    Flag::str("patch").short('p'),
    Flag::str("patch-file"),
    Flag::str("type"),
    Flag::str("output").short('o'),
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::bool("local"),
    Flag::str("field-manager"),
    Flag::str("subresource"),
    Flag::bool("record"),
    DRY_RUN_FLAG,
];

/// `--type` values (`patchTypes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    Json,
    Merge,
    Strategic,
}

impl PatchType {
    /// `--type` as `PatchOptions.Validate` reads it (case-insensitive).
    ///
    /// # Errors
    /// `--type must be one of [json merge strategic], not "x"`.
    pub fn parse(s: &str) -> Result<PatchType, String> {
        match s.to_ascii_lowercase().as_str() {
            "" | "strategic" => Ok(PatchType::Strategic),
            "merge" => Ok(PatchType::Merge),
            "json" => Ok(PatchType::Json),
            _ => Err(format!(
                "error: --type must be one of [json merge strategic], not {s:?}"
            )),
        }
    }
}

/// The message the handler's `NewGenericServerResponse(422, ...)` carries when a JSON patch
/// does not apply; kubectl prints `The request is invalid: ` before it.
pub const JSON_PATCH_FAILED: &str =
    "The request is invalid: the server rejected our request due to an error in our request";

/// RFC 7386 JSON merge patch (`jsonpatch.MergePatch`): objects merge recursively, `null`
/// removes a member, anything else (lists included) replaces the target.
pub fn merge_patch(target: &Value, patch: &Value) -> Value {
    let Value::Object(p) = patch else {
        return patch.clone();
    };
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    for (k, pv) in p {
        if pv.is_null() {
            out.remove(k);
        } else {
            let cur = out.get(k).cloned().unwrap_or(Value::Null);
            out.insert(k.clone(), merge_patch(&cur, pv));
        }
    }
    Value::Object(out)
}

/// Strategic merge patch for the kinds kubeplay stores: a JSON merge patch, except that lists
/// with a `patchMergeKey` (containers by `name`, ports by `containerPort`, ...) are merged
/// element by element and `$patch: delete` removes an element.
pub fn strategic_merge_patch(target: &Value, patch: &Value) -> Value {
    super::merge::apply_patch(target, patch)
}

/// Unescapes one JSON pointer token (`~1` → `/`, `~0` → `~`).
fn unescape(tok: &str) -> String {
    tok.replace("~1", "/").replace("~0", "~")
}

/// Splits a JSON pointer into its parent pointer tokens and last token.
fn split_pointer(path: &str) -> Result<(Vec<String>, String), String> {
    if path.is_empty() {
        return Ok((vec![], String::new()));
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!("Unable to find path: {path}"));
    };
    let mut toks: Vec<String> = rest.split('/').map(unescape).collect();
    let last = toks.pop().unwrap_or_default();
    Ok((toks, last))
}

/// The container a pointer's parent tokens name.
fn container<'a>(doc: &'a mut Value, toks: &[String], path: &str) -> Result<&'a mut Value, String> {
    let mut cur = doc;
    for t in toks {
        cur = match cur {
            Value::Object(m) => m.get_mut(t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| format!("doc is missing path: {path:?}: missing value"))?;
    }
    Ok(cur)
}

fn array_index(tok: &str, len: usize, allow_end: bool) -> Result<usize, String> {
    if allow_end && tok == "-" {
        return Ok(len);
    }
    match tok.parse::<usize>() {
        Ok(i) if i < len || (allow_end && i == len) => Ok(i),
        _ => Err(format!(
            "Unable to access invalid index: {tok}: invalid index referenced"
        )),
    }
}

fn get_at(doc: &Value, path: &str) -> Result<Value, String> {
    if path.is_empty() {
        return Ok(doc.clone());
    }
    let (toks, last) = split_pointer(path)?;
    let mut d = doc.clone();
    let parent = container(&mut d, &toks, path)?;
    match parent {
        Value::Object(m) => m.get(&last).cloned(),
        Value::Array(a) => last.parse::<usize>().ok().and_then(|i| a.get(i).cloned()),
        _ => None,
    }
    .ok_or_else(|| format!("Unable to get nonexistent key: {last}: missing value"))
}

fn add_at(doc: &mut Value, path: &str, value: Value) -> Result<(), String> {
    if path.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (toks, last) = split_pointer(path)?;
    match container(doc, &toks, path)? {
        Value::Object(m) => {
            m.insert(last, value);
            Ok(())
        }
        Value::Array(a) => {
            let i = array_index(&last, a.len(), true)?;
            a.insert(i, value);
            Ok(())
        }
        _ => Err(format!(
            "add operation does not apply: doc is missing path: {path:?}: missing value"
        )),
    }
}

fn remove_at(doc: &mut Value, path: &str) -> Result<Value, String> {
    let (toks, last) = split_pointer(path)?;
    match container(doc, &toks, path)? {
        Value::Object(m) => m
            .remove(&last)
            .ok_or_else(|| format!("Unable to remove nonexistent key: {last}: missing value")),
        Value::Array(a) => {
            let i = array_index(&last, a.len(), false)?;
            Ok(a.remove(i))
        }
        _ => Err(format!(
            "remove operation does not apply: doc is missing path: {path:?}: missing value"
        )),
    }
}

/// RFC 6902 JSON patch (`jsonpatch.DecodePatch` + `Apply`): `add`, `remove`, `replace`,
/// `move`, `copy`, `test`, applied in order; the first failing operation fails the patch.
///
/// # Errors
/// `error decoding patch: ...` when `patch` is not a list of operations (the handler's
/// BadRequest), otherwise json-patch's message for the failing operation.
pub fn json_patch(doc: &Value, patch: &Value) -> Result<Value, JsonPatchError> {
    let Value::Array(ops) = patch else {
        return Err(JsonPatchError::Decode(format!(
            "error decoding patch: json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp",
            go_json_type(patch)
        )));
    };
    let mut out = doc.clone();
    for op in ops {
        let Value::Object(o) = op else {
            return Err(JsonPatchError::Decode(format!(
                "error decoding patch: json: cannot unmarshal {} into Go value of type handlers.jsonPatchOp",
                go_json_type(op)
            )));
        };
        let s = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        let path = s("path").unwrap_or_default();
        let value = || {
            o.get("value")
                .cloned()
                .ok_or_else(|| JsonPatchError::Apply("missing value".to_string()))
        };
        let apply = JsonPatchError::Apply;
        match s("op").unwrap_or_default().as_str() {
            "add" => add_at(&mut out, &path, value()?).map_err(apply)?,
            "remove" => {
                remove_at(&mut out, &path).map_err(apply)?;
            }
            "replace" => {
                remove_at(&mut out, &path).map_err(|_| {
                    apply(format!("replace operation does not apply: doc is missing key: {path}: missing value"))
                })?;
                add_at(&mut out, &path, value()?).map_err(apply)?;
            }
            "move" | "copy" => {
                let from = s("from").unwrap_or_default();
                let v = if s("op").as_deref() == Some("move") {
                    if path.starts_with(&format!("{from}/")) {
                        return Err(apply(format!("Unable to move {from} to {path}")));
                    }
                    remove_at(&mut out, &from).map_err(apply)?
                } else {
                    get_at(&out, &from).map_err(apply)?
                };
                add_at(&mut out, &path, v).map_err(apply)?;
            }
            "test" => {
                let want = value()?;
                if get_at(&out, &path).ok().as_ref() != Some(&want) {
                    return Err(apply(format!("testing value {path} failed: test failed")));
                }
            }
            other => return Err(apply(format!("Unexpected kind: {other}"))),
        }
    }
    Ok(out)
}

/// Why a JSON patch failed: it could not be decoded (BadRequest) or did not apply (422).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonPatchError {
    Decode(String),
    Apply(String),
}

/// Go's `encoding/json` name for a JSON value's type, as in `cannot unmarshal X into ...`.
fn go_json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Go's `fmt.Sprintf("%+v", map)` of a decoded JSON value (`map[spec:map[suspend:true]]`),
/// the value the handler reports when a strategic patch's result does not decode.
pub fn go_value_string(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(go_value_string).collect::<Vec<_>>().join(" ")
        ),
        Value::Object(m) => format!(
            "map[{}]",
            m.iter()
                .map(|(k, v)| format!("{k}:{}", go_value_string(v)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// Applies a patch to an object as the API server's patch handler does, returning the typed
/// result (not yet stored).
///
/// # Errors
/// kubectl's text for the server's error.
pub fn patch_object(obj: &Object, pt: PatchType, patch: &Value) -> Result<Object, String> {
    let current = super::output::object_value(obj);
    let patched = match pt {
        PatchType::Json => match json_patch(&current, patch) {
            Ok(v) => v,
            Err(JsonPatchError::Decode(m)) => {
                return Err(format!("Error from server (BadRequest): {m}"))
            }
            Err(JsonPatchError::Apply(_)) => return Err(JSON_PATCH_FAILED.into()),
        },
        PatchType::Merge | PatchType::Strategic => {
            if !patch.is_object() {
                let prefix = if pt == PatchType::Merge {
                    "error decoding patch: "
                } else {
                    ""
                };
                return Err(format!(
                    "Error from server (BadRequest): {prefix}json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                    go_json_type(patch)
                ));
            }
            if pt == PatchType::Merge {
                merge_patch(&current, patch)
            } else {
                strategic_merge_patch(&current, patch)
            }
        }
    };
    let invalid = |e: String| {
        let shown = if pt == PatchType::Strategic {
            go_value_string(patch)
        } else {
            super::output::to_compact_json(&patched)
        };
        format!("The request is invalid: patch: Invalid value: {shown:?}: {e}")
    };
    // The handler decodes into the kind of the URL: apiVersion/kind in the result must match.
    let api = patched
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let kind = patched
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if api != current["apiVersion"] || kind != current["kind"] {
        return Err(invalid(format!(
            "no kind {kind:?} is registered for version {api:?}"
        )));
    }
    let new = Object::from_value(patched.clone()).map_err(invalid)?;
    // checkName (handlers/rest.go).
    let (name, ns) = (&obj.meta().name, &obj.meta().namespace);
    if new.meta().name != *name {
        return Err(format!(
            "Error from server (BadRequest): the name of the object ({}) does not match the name on the URL ({name})",
            new.meta().name
        ));
    }
    if !new.meta().namespace.is_empty() && new.meta().namespace != *ns {
        return Err(format!(
            "Error from server (BadRequest): the namespace of the object ({}) does not match the namespace on the URL ({ns})",
            new.meta().namespace
        ));
    }
    Ok(new)
}

/// kubectl's `yaml.ToJSON` on the patch text (JSON is YAML).
fn parse_patch(text: &str) -> Result<Value, String> {
    let v: Value = serde_norway::from_str(text)
        .map_err(|e| format!("error: unable to parse {text:?}: yaml: {e}"))?;
    Ok(v)
}

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl patch", words, FLAGS)?;
    let ns = Namespace::from(&p);
    let dry = DryRun::from(&p)?;
    let patch_text = p.string("patch");
    let patch_file = p.string("patch-file");
    let local = p.bool("local");
    if !patch_text.is_empty() && !patch_file.is_empty() {
        return Err("error: cannot specify --patch and --patch-file together".into());
    }
    if patch_text.is_empty() && patch_file.is_empty() {
        return Err(
            "error: must specify --patch or --patch-file containing the contents of the patch"
                .into(),
        );
    }
    if local && !p.args.is_empty() {
        return Err("error: cannot specify --local and server resources".into());
    }
    if local && dry == DryRun::Server {
        return Err(
            "error: cannot specify --local and --dry-run=server - did you mean --dry-run=client?"
                .into(),
        );
    }
    let pt = PatchType::parse(&p.string("type"))?;
    // `supportedSubresources`: the status subresource writes the status only (the server keeps
    // spec and metadata); the scale subresource's `spec.replicas` is the object's own, so a
    // scale patch is applied to the object.
    let subresource = p.string("subresource");
    if !subresource.is_empty() && !matches!(subresource.as_str(), "status" | "scale") {
        return Err(format!(
            "error: invalid subresource value: {subresource:?}. Must be one of [status scale]"
        ));
    }
    let status = subresource == "status";
    let output = p.string("output");
    if !output.is_empty() && !matches!(output.as_str(), "name" | "yaml" | "json") {
        return Err(super::output::no_printer(
            &output,
            &["json", "name", "yaml"],
        ));
    }
    let text = if patch_file.is_empty() {
        patch_text
    } else {
        match input.files.and_then(|m| m.get(&patch_file)) {
            Some(t) => t.clone(),
            None => {
                return Err(format!(
                    "error: unable to read patch file: open {patch_file}: no such file or directory"
                ))
            }
        }
    };
    let patch = parse_patch(&text)?;

    let mut items: Vec<(Kind, Object)> = vec![];
    let mut errs: Vec<String> = vec![];
    let files = p.strings("filename");
    if !files.is_empty() {
        let (objs, e) = apply::read_objects(&files, p.bool("recursive"), input, &ns)?;
        errs.extend(e);
        for doc in objs {
            let o = doc.obj;
            let kind = Kind::Obj(o.kind());
            if local {
                items.push((kind, o));
                continue;
            }
            match resource::get(sim, kind, &o.meta().namespace, &o.meta().name) {
                Ok(Item::Obj(live)) => items.push((kind, live)),
                Ok(Item::Event(_)) => {}
                Err(e) => errs.push(e),
            }
        }
    } else {
        if local {
            return Err("error: must specify a file when using --local".into());
        }
        let req = resource::build(&p.args, false, None, false)?;
        let (infos, e) = resource::visit(sim, &req, Some(ns.name.as_str()), "");
        errs.extend(e);
        for info in infos {
            for it in info.items {
                match it {
                    Item::Obj(o) => items.push((info.kind, o)),
                    Item::Event(ev) => errs.push(format!(
                        "error: kubeplay cannot patch events (event {:?})",
                        ev.name
                    )),
                }
            }
        }
    }
    for (kind, obj) in &items {
        let result = match patch_object(obj, pt, &patch) {
            Ok(new) if local || dry == DryRun::Client => Ok(new),
            Ok(new) => {
                let res = super::server_write(sim, dry == DryRun::Server, out, |api| {
                    if status {
                        api.update_status(new)
                    } else {
                        api.update(new)
                    }
                });
                res.map_err(|e| e.kubectl_message())
            }
            Err(e) => Err(e),
        };
        let patched = match result {
            Ok(o) => o,
            Err(e) => {
                errs.push(e);
                continue;
            }
        };
        let did_patch = patched != *obj;
        let name = &obj.meta().name;
        match output.as_str() {
            "name" => out.print(&super::output::name_of(*kind, name)),
            "yaml" | "json" => out.print(&super::output::print_value(
                &output,
                &super::output::object_value(&patched),
            )),
            _ => out.print(&format!(
                "{} {}{}",
                super::output::name_of(*kind, name),
                if did_patch {
                    "patched"
                } else {
                    "patched (no change)"
                },
                dry.suffix()
            )),
        }
    }
    if !errs.is_empty() {
        return Err(errs.join("\n"));
    }
    if items.is_empty() {
        return Err("error: no objects passed to patch".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::e2e_workloads::cluster;
    use super::super::{execute, execute_with_input};
    use super::*;
    use crate::api::{CronJob, Duration, Job};
    use serde_json::json;

    // RFC 7386 appendix A examples (the table `jsonpatch.MergePatch` is tested against).
    #[test]
    fn rfc7386_examples() {
        let cases = [
            (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
            (
                json!({"a": "b"}),
                json!({"b": "c"}),
                json!({"a": "b", "b": "c"}),
            ),
            (json!({"a": "b"}), json!({"a": null}), json!({})),
            (
                json!({"a": "b", "b": "c"}),
                json!({"a": null}),
                json!({"b": "c"}),
            ),
            (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
            (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
            (
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}}),
                json!({"a": {"b": "d"}}),
            ),
            (
                json!({"a": [{"b": "c"}]}),
                json!({"a": [1]}),
                json!({"a": [1]}),
            ),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a": "b"}), json!(["c"]), json!(["c"])),
            (json!({"a": "foo"}), json!(null), json!(null)),
            (json!({"a": "foo"}), json!("bar"), json!("bar")),
            (
                json!({"e": null}),
                json!({"a": 1}),
                json!({"e": null, "a": 1}),
            ),
            (
                json!([1, 2]),
                json!({"a": "b", "c": null}),
                json!({"a": "b"}),
            ),
            (
                json!({}),
                json!({"a": {"bb": {"ccc": null}}}),
                json!({"a": {"bb": {}}}),
            ),
        ];
        for (target, patch, want) in cases {
            assert_eq!(merge_patch(&target, &patch), want, "{target} + {patch}");
        }
    }

    // RFC 6902 appendix A examples.
    #[test]
    fn rfc6902_examples() {
        let ok = |doc: Value, patch: Value, want: Value| {
            assert_eq!(json_patch(&doc, &patch), Ok(want), "{patch}");
        };
        ok(
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/baz", "value": "qux"}]),
            json!({"baz": "qux", "foo": "bar"}),
        );
        ok(
            json!({"foo": ["bar", "baz"]}),
            json!([{"op": "add", "path": "/foo/1", "value": "qux"}]),
            json!({"foo": ["bar", "qux", "baz"]}),
        );
        ok(
            json!({"baz": "qux", "foo": "bar"}),
            json!([{"op": "remove", "path": "/baz"}]),
            json!({"foo": "bar"}),
        );
        ok(
            json!({"foo": ["bar", "qux", "baz"]}),
            json!([{"op": "remove", "path": "/foo/1"}]),
            json!({"foo": ["bar", "baz"]}),
        );
        ok(
            json!({"baz": "qux", "foo": "bar"}),
            json!([{"op": "replace", "path": "/baz", "value": "boo"}]),
            json!({"baz": "boo", "foo": "bar"}),
        );
        ok(
            json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}),
            json!([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]),
            json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}),
        );
        ok(
            json!({"foo": ["all", "grass", "cows", "eat"]}),
            json!([{"op": "move", "from": "/foo/1", "path": "/foo/3"}]),
            json!({"foo": ["all", "cows", "eat", "grass"]}),
        );
        ok(
            json!({"baz": "qux", "foo": ["a", 2, "c"]}),
            json!([{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}]),
            json!({"baz": "qux", "foo": ["a", 2, "c"]}),
        );
        ok(
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/child", "value": {"grandchild": {}}}]),
            json!({"foo": "bar", "child": {"grandchild": {}}}),
        );
        ok(
            json!({"foo": ["bar"]}),
            json!([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]),
            json!({"foo": ["bar", ["abc", "def"]]}),
        );
        ok(
            json!({"/": 9, "~1": 10}),
            json!([{"op": "test", "path": "/~01", "value": 10}]),
            json!({"/": 9, "~1": 10}),
        );
        ok(
            json!({"a": 1}),
            json!([{"op": "copy", "from": "/a", "path": "/b"}]),
            json!({"a": 1, "b": 1}),
        );
        // Failures: test mismatch, missing target, bad index, parent missing.
        let bad = |doc: Value, patch: Value| {
            assert!(
                matches!(json_patch(&doc, &patch), Err(JsonPatchError::Apply(_))),
                "{patch}"
            )
        };
        bad(
            json!({"baz": "qux"}),
            json!([{"op": "test", "path": "/baz", "value": "bar"}]),
        );
        bad(
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/baz/bat", "value": "qux"}]),
        );
        bad(
            json!({"foo": "bar"}),
            json!([{"op": "remove", "path": "/nope"}]),
        );
        bad(
            json!({"foo": "bar"}),
            json!([{"op": "replace", "path": "/nope", "value": 1}]),
        );
        bad(
            json!({"foo": [1]}),
            json!([{"op": "add", "path": "/foo/5", "value": 1}]),
        );
        bad(json!({"foo": 1}), json!([{"op": "frob", "path": "/foo"}]));
        assert!(matches!(
            json_patch(&json!({}), &json!({"op": "add"})),
            Err(JsonPatchError::Decode(_))
        ));
    }

    #[test]
    fn strategic_merges_containers_by_name() {
        let live = json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}], "tolerations": [{"key": "k"}]}}}});
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "b", "image": "z"}], "tolerations": [{"key": "j"}]}}}});
        assert_eq!(
            strategic_merge_patch(&live, &patch),
            json!({"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "z"}], "tolerations": [{"key": "j"}]}}}})
        );
        // A merge patch replaces the list instead.
        assert_eq!(
            merge_patch(&live, &patch)["spec"]["template"]["spec"]["containers"],
            json!([{"name": "b", "image": "z"}])
        );
    }

    #[test]
    fn go_map_formatting() {
        assert_eq!(
            go_value_string(&json!({"spec": {"suspend": "yes", "x": [1, null]}})),
            "map[spec:map[suspend:yes x:[1 <nil>]]]"
        );
    }

    const HELLO: &str = "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: hello\nspec:\n  schedule: \"* * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: hello\n            image: busybox:1.28\n            imagePullPolicy: IfNotPresent\n          restartPolicy: OnFailure\n";

    fn cronjob(sim: &Simulation) -> CronJob {
        sim.api
            .store
            .get::<CronJob>("default", "hello")
            .unwrap()
            .clone()
    }

    /// The common use: suspend a CronJob with a strategic patch; no Job is created
    /// while suspended; patching the same value again is `(no change)`.
    #[test]
    fn patch_suspends_a_cronjob_in_the_simulation() {
        let mut sim = cluster();
        execute_with_input(&mut sim, "apply -f -", Some(HELLO)).unwrap();
        sim.run_for(Duration::from_secs(130)).unwrap();
        let jobs_before = sim.api.store.list::<Job>(None).count();
        assert!(jobs_before >= 2, "{jobs_before}");
        let rv = cronjob(&sim).metadata.resource_version.clone();
        assert_eq!(
            execute(
                &mut sim,
                "patch cronjob hello -p '{\"spec\":{\"suspend\":true}}'"
            ),
            Ok("cronjob.batch/hello patched".into())
        );
        assert_eq!(cronjob(&sim).spec.suspend, Some(true));
        assert_ne!(cronjob(&sim).metadata.resource_version, rv);
        assert_eq!(
            execute(
                &mut sim,
                "patch cronjobs.batch/hello -p 'spec: {suspend: true}'"
            ),
            Ok("cronjob.batch/hello patched (no change)".into())
        );
        let created = |sim: &Simulation| {
            sim.api
                .events
                .iter()
                .filter(|e| e.reason == "SuccessfulCreate" && e.message.starts_with("Created job"))
                .count()
        };
        let n = created(&sim);
        sim.run_for(Duration::from_secs(300)).unwrap();
        assert_eq!(created(&sim), n, "a suspended CronJob starts no Job");
        // Merge patch back; then JSON patch changes the schedule.
        assert_eq!(
            execute(
                &mut sim,
                "patch cj hello --type=merge -p '{\"spec\":{\"suspend\":false}}'"
            ),
            Ok("cronjob.batch/hello patched".into())
        );
        assert_eq!(
            execute(&mut sim, "patch cj hello --type json -p '[{\"op\":\"replace\",\"path\":\"/spec/schedule\",\"value\":\"*/5 * * * *\"}]'"),
            Ok("cronjob.batch/hello patched".into())
        );
        assert_eq!(cronjob(&sim).spec.schedule, "*/5 * * * *");
        sim.run_for(Duration::from_secs(600)).unwrap();
        assert!(created(&sim) > n, "resumed");
    }

    #[test]
    fn patch_errors_in_kubectl_wording() {
        let mut sim = cluster();
        execute_with_input(&mut sim, "apply -f -", Some(HELLO)).unwrap();
        let err = |sim: &mut Simulation, c: &str| execute(sim, c).unwrap_err();
        assert_eq!(
            err(
                &mut sim,
                "patch cronjob x -p '{\"spec\":{\"suspend\":true}}'"
            ),
            "Error from server (NotFound): cronjobs.batch \"x\" not found"
        );
        assert_eq!(
            err(&mut sim, "patch frob x -p '{}'"),
            "error: the server doesn't have a resource type \"frob\""
        );
        assert_eq!(
            err(&mut sim, "patch cronjob hello"),
            "error: must specify --patch or --patch-file containing the contents of the patch"
        );
        assert_eq!(
            err(&mut sim, "patch cronjob hello -p '{}' --type=apply"),
            "error: --type must be one of [json merge strategic], not \"apply\""
        );
        assert!(err(&mut sim, "patch cronjob hello -p '{\"spec\":'")
            .starts_with("error: unable to parse \"{\\\"spec\\\":\": yaml: "));
        // Validation by the API server, in Kubernetes' format.
        assert_eq!(
            err(&mut sim, "patch cronjob hello -p '{\"spec\":{\"schedule\":\"61 * * * *\"}}'"),
            "The CronJob \"hello\" is invalid: spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61"
        );
        assert_eq!(
            err(&mut sim, "patch cronjob hello --type=json -p '[{\"op\":\"test\",\"path\":\"/spec/suspend\",\"value\":true}]'"),
            JSON_PATCH_FAILED
        );
        assert_eq!(
            err(&mut sim, "patch cronjob hello --type=json -p '{\"op\":\"add\"}'"),
            "Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
        );
        assert!(err(
            &mut sim,
            "patch cronjob hello -p '{\"spec\":{\"suspend\":\"yes\"}}'"
        )
        .starts_with(
            "The request is invalid: patch: Invalid value: \"map[spec:map[suspend:yes]]\": "
        ));
        assert_eq!(
            err(&mut sim, "patch cronjob hello -p '{\"metadata\":{\"name\":\"other\"}}'"),
            "Error from server (BadRequest): the name of the object (other) does not match the name on the URL (hello)"
        );
        assert_eq!(
            cronjob(&sim).spec.suspend,
            Some(false),
            "nothing was changed"
        );
        // Dry run: printed, not stored.
        assert_eq!(
            execute(
                &mut sim,
                "patch cronjob hello -p '{\"spec\":{\"suspend\":true}}' --dry-run=server"
            ),
            Ok("cronjob.batch/hello patched (server dry run)".into())
        );
        assert_eq!(cronjob(&sim).spec.suspend, Some(false));
        // -n: other namespace.
        assert_eq!(
            err(&mut sim, "patch cronjob hello -n prod -p '{}'"),
            "Error from server (NotFound): cronjobs.batch \"hello\" not found"
        );
        // Container lists merge by name (strategic default).
        execute(&mut sim, "patch cronjob hello -p '{\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"hello\",\"image\":\"busybox:1.36\"}]}}}}}}'").unwrap();
        let c = &cronjob(&sim)
            .spec
            .job_template
            .spec
            .template
            .spec
            .containers;
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].image, "busybox:1.36");
        assert_eq!(
            serde_json::to_value(&c[0]).unwrap()["imagePullPolicy"],
            "IfNotPresent",
            "other fields kept"
        );
    }
}
