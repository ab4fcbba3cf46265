//! `kubectl apply -f` (client-side apply, `pkg/cmd/apply/apply.go`) and `kubectl create -f`
//! (`pkg/cmd/create/create.go`), and reading manifests from `-f FILE` / `-f -`.

use super::args::{self, Flag};
use super::merge;
use super::output;
use super::resource::Kind;
use super::{usage_error, DryRun, Input, Namespace, Out, DRY_RUN_FLAG};
use crate::api::{kind_info, ApiError, Object};
use crate::sim::Simulation;
use crate::store::ObjectRef;
use serde_json::{Map, Value};

/// `kubectl.kubernetes.io/last-applied-configuration`.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

const APPLY_FLAGS: &[Flag] = &[
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::str("output").short('o'),
    Flag::str("selector").short('l'),
    Flag::str("validate").no_opt("strict"),
    Flag::str("field-manager"),
    Flag::bool("server-side"),
    Flag::bool("force-conflicts"),
    Flag::bool("prune"),
    Flag::bool("overwrite"),
    Flag::bool("wait"),
    DRY_RUN_FLAG,
];

const CREATE_FLAGS: &[Flag] = &[
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::str("output").short('o'),
    Flag::str("selector").short('l'),
    Flag::str("validate").no_opt("strict"),
    Flag::bool("save-config"),
    Flag::str("field-manager"),
    DRY_RUN_FLAG,
];

/// One object read from a manifest: where it came from, its JSON as written (with the
/// namespace filled in) and the decoded object.
#[derive(Clone, Debug)]
pub(crate) struct Doc {
    pub source: String,
    pub value: Value,
    pub obj: Object,
}

/// Reads every object from the `-f` arguments (`-` is standard input; other paths come from
/// the caller's file map), filling in the namespace as the resource builder does.
/// Per-object problems are returned as errors next to the objects that decoded.
///
/// # Errors
/// A missing file or unparsable YAML, which stop kubectl before anything is sent.
pub(crate) fn read_objects(
    files: &[String],
    recursive: bool,
    input: Input,
    ns: &Namespace,
) -> Result<(Vec<Doc>, Vec<String>), String> {
    read_objects_implied(files, recursive, input, ns).map(|(d, e, _)| (d, e))
}

/// [`read_objects`], and whether the paths imply a single item (`singleItemImplied`: one
/// file, not standard input nor a directory of several).
pub(crate) fn read_objects_implied(
    files: &[String],
    recursive: bool,
    input: Input,
    ns: &Namespace,
) -> Result<(Vec<Doc>, Vec<String>, bool), String> {
    let map_fs = super::files::MapFs(input.files);
    let fs: &dyn super::files::FileSystem = match input.fs {
        Some(fs) => fs,
        None => &map_fs,
    };
    let expanded = super::files::expand(files, recursive, fs)?;
    let mut docs = vec![];
    let mut errs = vec![];
    for src in &expanded.sources {
        let (source, text) = match src {
            super::files::Source::Stdin => (
                "STDIN".to_string(),
                input.stdin.unwrap_or_default().to_string(),
            ),
            super::files::Source::Path(f) => match fs.read(f) {
                Ok(t) => (f.clone(), t),
                // FileVisitor.Visit: os.Open's error, for this file only.
                Err(e) => {
                    errs.push(format!("error: {e}"));
                    continue;
                }
            },
        };
        let values = crate::scenario::parse_documents(&text)
            .map_err(|e| format!("error: error parsing {source}: {}", e.message))?;
        for mut v in crate::scenario::expand_lists(values) {
            let kind = v
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let api = v
                .get("apiVersion")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let name = v
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if api.is_empty() || kind.is_empty() {
                let what = if api.is_empty() { "apiVersion" } else { "kind" };
                errs.push(format!("error: error validating {source:?}: error validating data: {what} not set; if you choose to ignore these errors, turn validation off with --validate=false"));
                continue;
            }
            let info = kind_info(&kind).filter(|(a, ..)| {
                *a == api || crate::api::autoscaling::is_served_alias(&kind, &api)
            });
            let Some((_, _, _, namespaced)) = info else {
                let obj_ns = v
                    .pointer("/metadata/namespace")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                errs.push(format!("error: resource mapping not found for name: {name:?} namespace: {obj_ns:?} from {source:?}: no matches for kind {kind:?} in version {api:?}\nensure CRDs are installed first"));
                continue;
            };
            if namespaced {
                let obj_ns = v
                    .pointer("/metadata/namespace")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                if obj_ns.is_empty() {
                    if let Some(m) = v.as_object_mut() {
                        let meta = m
                            .entry("metadata")
                            .or_insert_with(|| Value::Object(Map::new()));
                        if let Some(mm) = meta.as_object_mut() {
                            mm.insert("namespace".into(), Value::from(ns.name.clone()));
                        }
                    }
                } else if ns.explicit && obj_ns != ns.name {
                    return Err(format!("error: the namespace from the provided object {obj_ns:?} does not match the namespace {:?}. You must pass '--namespace={obj_ns}' to perform this operation.", ns.name));
                }
            }
            // JSON null means "unset" for maps and lists, as Go's decoder reads it.
            let mut decodable = v.clone();
            prune_nulls(&mut decodable);
            // Fields the Go types lack are not kept; `field_validation` reports them for
            // create/apply (other commands read only names).
            let type_error = crate::api::schema::check(&kind, &decodable, false).type_error;
            crate::api::schema::prune_unknown(&kind, &mut decodable);
            let decoded = match type_error {
                Some(e) => Err(e),
                None => Object::from_value(decodable),
            };
            match decoded {
                Ok(obj) => docs.push(Doc {
                    source: source.clone(),
                    value: v,
                    obj,
                }),
                Err(e) => {
                    let version = api.rsplit('/').next().unwrap_or(&api);
                    errs.push(format!("Error from server (BadRequest): error when creating {source:?}: {kind} in version {version:?} cannot be handled as a {kind}: {e}"));
                }
            }
        }
    }
    Ok((docs, errs, expanded.single_item_implied))
}

/// Server-side field validation as `kubectl create/apply --validate=MODE` requests it
/// (`fieldValidation` Strict, Warn or Ignore; `pkg/cmd/util/helpers.go` `GetValidationDirective`):
/// under Strict a manifest with unknown fields is refused with the decoder's message; under
/// Warn each unknown field is a warning; under Ignore they are dropped silently.
///
/// # Errors
/// An invalid `--validate` value.
fn field_validation(
    p: &args::Parsed,
    docs: Vec<Doc>,
    errs: &mut Vec<String>,
    out: &mut Out,
) -> Result<Vec<Doc>, String> {
    let mode = p.string("validate");
    let mode = match mode.to_ascii_lowercase().as_str() {
        "" | "strict" | "true" => "Strict",
        "warn" => "Warn",
        "ignore" | "false" => "Ignore",
        _ => {
            return Err(format!(
                "error: invalid - validate option {mode:?}; must be one of: strict (or true), warn, ignore (or false)"
            ))
        }
    };
    let mut kept = vec![];
    for doc in docs {
        let mut v = doc.value.clone();
        prune_nulls(&mut v);
        let kind = doc.obj.kind();
        let report = crate::api::schema::check(kind, &v, false);
        match (mode, report.strict_error()) {
            ("Strict", Some(e)) => {
                let version = crate::api::kind_info(kind)
                    .map(|(a, ..)| a.rsplit('/').next().unwrap_or(a).to_string())
                    .unwrap_or_default();
                errs.push(format!("Error from server (BadRequest): error when creating {:?}: {kind} in version {version:?} cannot be handled as a {kind}: {e}", doc.source));
            }
            ("Warn", _) => {
                for f in &report.unknown {
                    out.warn(&format!("unknown field {f:?}"));
                }
                kept.push(doc);
            }
            _ => kept.push(doc),
        }
    }
    Ok(kept)
}

/// `util.GetModifiedConfiguration(obj, true, ...)`: the object with the last-applied
/// annotation set to its own compact JSON (without that annotation, `annotations: {}` kept).
pub(crate) fn with_last_applied(v: &Value) -> Value {
    let mut v = v.clone();
    let annotations = v
        .as_object_mut()
        .map(|m| {
            m.entry("metadata")
                .or_insert_with(|| Value::Object(Map::new()))
        })
        .and_then(Value::as_object_mut)
        .map(|meta| {
            meta.entry("annotations")
                .or_insert_with(|| Value::Object(Map::new()))
        });
    if let Some(Value::Object(a)) = annotations {
        a.remove(LAST_APPLIED);
    } else if let Some(a) = annotations {
        *a = Value::Object(Map::new());
    }
    let config = output::to_compact_json(&v);
    if let Some(a) = v
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.insert(LAST_APPLIED.into(), Value::from(config));
    }
    v
}

/// Decodes an object, dropping fields its Go type lacks (the apiserver never stores them).
fn decode_known(mut v: Value) -> Result<Object, String> {
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    crate::api::schema::prune_unknown(&kind, &mut v);
    Object::from_value(v)
}

/// `pruneNullsFromMap`.
fn prune_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(prune_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}

fn print_result(out: &mut Out, format: &str, kind: Kind, obj: &Object, op: &str, dry: DryRun) {
    match format {
        "name" => out.print(&output::name_of(kind, &obj.meta().name)),
        "yaml" | "json" => out.print(&output::print_value(format, &output::object_value(obj))),
        _ => out.print(&format!(
            "{} {op}{}",
            output::name_of(kind, &obj.meta().name),
            dry.suffix()
        )),
    }
}

/// `AddSourceToErr`: `error when <verb> "<source>": <message>` for API errors.
pub(crate) fn with_source(mut e: ApiError, verb: &str, source: &str) -> String {
    e.message = format!("error when {verb} {source:?}: {}", e.message);
    e.kubectl_message()
}

fn common(p: &args::Parsed, cmd: &str) -> Result<(DryRun, String), String> {
    let dry = DryRun::from(p)?;
    if !p.args.is_empty() {
        return Err(usage_error(
            &format!("kubectl {cmd}"),
            &format!("Unexpected args: [{}]", p.args.join(" ")),
        ));
    }
    if p.strings("filename").is_empty() {
        return Err("error: must specify one of -f and -k".into());
    }
    let format = p.string("output");
    if !format.is_empty() && !matches!(format.as_str(), "name" | "yaml" | "json") {
        return Err(output::no_printer(&format, &["json", "name", "yaml"]));
    }
    Ok((dry, format))
}

pub(crate) fn run_apply(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl apply", words, APPLY_FLAGS)?;
    if p.bool("server-side") {
        return Err(
            "error: kubeplay implements client-side apply only (drop --server-side)".into(),
        );
    }
    if p.bool("prune") {
        return Err("error: kubeplay does not implement --prune".into());
    }
    let (dry, format) = common(&p, "apply")?;
    let ns = Namespace::from(&p);
    let (docs, mut errs) = read_objects(&p.strings("filename"), p.bool("recursive"), input, &ns)?;
    let docs = field_validation(&p, docs, &mut errs, out)?;
    if docs.is_empty() && errs.is_empty() {
        return Err("error: no objects passed to apply".into());
    }
    let selector =
        crate::api::Selector::parse(&p.string("selector")).map_err(|e| format!("error: {e}"))?;
    let mut api_clone = (dry == DryRun::Server).then(|| sim.api.clone());
    for doc in docs {
        if !selector.matches(&doc.obj.meta().labels) {
            continue;
        }
        let kind = Kind::Obj(doc.obj.kind());
        let meta = doc.obj.meta();
        if meta.name.is_empty() && !meta.generate_name.is_empty() {
            errs.push(format!(
                "error: from {}: cannot use generate name with apply",
                meta.generate_name
            ));
            continue;
        }
        let api = match api_clone.as_mut() {
            Some(a) => a,
            None => &mut sim.api,
        };
        let modified = with_last_applied(&doc.value);
        let live = api.store.get_ref(&ObjectRef::of(&doc.obj)).cloned();
        let Some(live) = live else {
            let mut create = modified.clone();
            prune_nulls(&mut create);
            let obj = match decode_known(create) {
                Ok(o) => o,
                Err(e) => {
                    errs.push(format!("error: {e}"));
                    continue;
                }
            };
            let result = if dry == DryRun::Client {
                obj
            } else {
                let created = api.create(obj);
                out.server_warnings(&api.last_warnings);
                match created {
                    Ok(o) => o,
                    Err(e) => {
                        errs.push(with_source(e, "creating", &doc.source));
                        continue;
                    }
                }
            };
            print_result(out, &format, kind, &result, "created", dry);
            continue;
        };
        if dry == DryRun::Client {
            print_result(out, &format, kind, &live, "configured", dry);
            continue;
        }
        if !live.meta().annotations.contains_key(LAST_APPLIED) {
            out.eprint(&format!("Warning: resource {}/{} is missing the {LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.", kind.plural(), live.meta().name));
        }
        let original: Option<Value> = live
            .meta()
            .annotations
            .get(LAST_APPLIED)
            .and_then(|s| serde_json::from_str(s).ok());
        let current = output::object_value(&live);
        let patch = merge::three_way_patch(original.as_ref(), &modified, &current);
        if patch.as_object().is_some_and(Map::is_empty) {
            print_result(out, &format, kind, &live, "unchanged", dry);
            continue;
        }
        let patched = merge::apply_patch(&current, &patch);
        let obj = match decode_known(patched) {
            Ok(o) => o,
            Err(e) => {
                errs.push(format!("error: {e}"));
                continue;
            }
        };
        let updated = api.update(obj);
        out.server_warnings(&api.last_warnings);
        match updated {
            Ok(result) => print_result(out, &format, kind, &result, "configured", dry),
            Err(e) => {
                let patch_text = output::to_compact_json(&patch);
                let gv = if kind.api_version().contains('/') {
                    kind.api_version().to_string()
                } else {
                    format!("/{}", kind.api_version())
                };
                let info = format!(
                    "Resource: {:?}, GroupVersionKind: {:?}\nName: {:?}, Namespace: {:?}",
                    kind.gvr(),
                    format!("{gv}, Kind={}", kind.kind_name()),
                    live.meta().name,
                    live.meta().namespace
                );
                errs.push(with_source(
                    e,
                    &format!(
                        "applying patch:\n{}\nto:\n{info}\nfor:",
                        patch_text.trim_end()
                    ),
                    &doc.source,
                ));
            }
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

pub(crate) fn run_create(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl create", words, CREATE_FLAGS)?;
    let (dry, format) = common(&p, "create")?;
    let ns = Namespace::from(&p);
    let (docs, mut errs) = read_objects(&p.strings("filename"), p.bool("recursive"), input, &ns)?;
    let docs = field_validation(&p, docs, &mut errs, out)?;
    let selector =
        crate::api::Selector::parse(&p.string("selector")).map_err(|e| format!("error: {e}"))?;
    let mut count = 0;
    let mut api_clone = (dry == DryRun::Server).then(|| sim.api.clone());
    for doc in docs {
        if !selector.matches(&doc.obj.meta().labels) {
            continue;
        }
        let kind = Kind::Obj(doc.obj.kind());
        // `CreateOrUpdateAnnotation`: --save-config writes the annotation; otherwise an
        // existing one is refreshed.
        let has = doc
            .value
            .pointer(&format!(
                "/metadata/annotations/{}",
                LAST_APPLIED.replace('/', "~1")
            ))
            .is_some();
        let value = if p.bool("save-config") || has {
            with_last_applied(&doc.value)
        } else {
            doc.value.clone()
        };
        let obj = match decode_known(value) {
            Ok(o) => o,
            Err(e) => {
                errs.push(format!("error: {e}"));
                continue;
            }
        };
        let api = match api_clone.as_mut() {
            Some(a) => a,
            None => &mut sim.api,
        };
        let result = if dry == DryRun::Client {
            obj
        } else {
            let created = api.create(obj);
            out.server_warnings(&api.last_warnings);
            match created {
                Ok(o) => o,
                Err(e) => {
                    errs.push(with_source(e, "creating", &doc.source));
                    continue;
                }
            }
        };
        count += 1;
        print_result(out, &format, kind, &result, "created", dry);
    }
    if count == 0 && errs.is_empty() {
        return Err("error: no objects passed to create".into());
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{execute, execute_with, execute_with_input, Input};
    use super::LAST_APPLIED;
    use crate::api::{Pod, ReplicaSet};
    use std::collections::BTreeMap;

    const RS: &str = "apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: frontend
  labels:
    app: guestbook
spec:
  replicas: 3
  selector:
    matchLabels:
      tier: frontend
  template:
    metadata:
      labels:
        tier: frontend
    spec:
      containers:
      - name: php-redis
        image: us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5
";

    fn rs(sim: &crate::sim::Simulation) -> ReplicaSet {
        sim.api
            .store
            .get::<ReplicaSet>("default", "frontend")
            .unwrap()
            .clone()
    }

    #[test]
    fn apply_created_unchanged_configured() {
        let mut sim = sim();
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap(),
            "replicaset.apps/frontend created"
        );
        let r = rs(&sim);
        assert_eq!(r.spec.replicas, Some(3));
        assert_eq!(
            r.metadata.annotations[LAST_APPLIED],
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"guestbook\"},\"name\":\"frontend\",\"namespace\":\"default\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"tier\":\"frontend\"}},\"template\":{\"metadata\":{\"labels\":{\"tier\":\"frontend\"}},\"spec\":{\"containers\":[{\"image\":\"us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5\",\"name\":\"php-redis\"}]}}}}\n"
        );
        let rv = r.metadata.resource_version.clone();
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap(),
            "replicaset.apps/frontend unchanged"
        );
        assert_eq!(rs(&sim).metadata.resource_version, rv);
        let scaled = RS
            .replace("replicas: 3", "replicas: 5")
            .replace("    app: guestbook\n", "");
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(&scaled)).unwrap(),
            "replicaset.apps/frontend configured"
        );
        let r = rs(&sim);
        assert_eq!(r.spec.replicas, Some(5));
        assert!(
            r.metadata.labels.is_empty(),
            "a label removed from the file is removed"
        );
        assert_eq!(r.metadata.generation, 2);
    }

    #[test]
    fn apply_keeps_fields_set_by_others() {
        let mut sim = sim();
        execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap();
        execute(&mut sim, "label rs frontend team=web").unwrap();
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap(),
            "replicaset.apps/frontend unchanged"
        );
        assert_eq!(rs(&sim).metadata.labels["team"], "web");
    }

    #[test]
    fn apply_to_an_object_created_without_apply_warns() {
        let mut sim = sim();
        assert_eq!(
            execute_with_input(&mut sim, "create -f -", Some(RS)).unwrap(),
            "replicaset.apps/frontend created"
        );
        assert!(!rs(&sim).metadata.annotations.contains_key(LAST_APPLIED));
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap(),
            "Warning: resource replicasets/frontend is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\nreplicaset.apps/frontend configured"
        );
        assert!(rs(&sim).metadata.annotations.contains_key(LAST_APPLIED));
    }

    #[test]
    fn create_errors_and_files() {
        let mut sim = sim();
        let mut files = BTreeMap::new();
        files.insert("rs.yaml".to_string(), RS.to_string());
        let input = Input {
            stdin: None,
            files: Some(&files),
            fs: None,
        };
        assert_eq!(
            execute_with(&mut sim, "create -f rs.yaml", input).unwrap(),
            "replicaset.apps/frontend created"
        );
        assert_eq!(
            execute_with(&mut sim, "create -f rs.yaml", input).unwrap_err(),
            "Error from server (AlreadyExists): error when creating \"rs.yaml\": replicasets.apps \"frontend\" already exists"
        );
        assert_eq!(
            execute_with(&mut sim, "apply -f missing.yaml", input).unwrap_err(),
            "error: the path \"missing.yaml\" does not exist"
        );
        assert_eq!(
            execute(&mut sim, "create").unwrap_err(),
            "error: must specify one of -f and -k"
        );
        assert_eq!(
            execute(&mut sim, "apply -f - x").unwrap_err(),
            "error: Unexpected args: [x]\nSee 'kubectl apply -h' for help and examples"
        );
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some("")).unwrap_err(),
            "error: no objects passed to apply"
        );
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some("apiVersion: apps/v1beta1\nkind: Deployment\nmetadata:\n  name: web\n")).unwrap_err(),
            "error: resource mapping not found for name: \"web\" namespace: \"\" from \"STDIN\": no matches for kind \"Deployment\" in version \"apps/v1beta1\"\nensure CRDs are installed first"
        );
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some("kind: Pod\nmetadata:\n  name: p\n")).unwrap_err(),
            "error: error validating \"STDIN\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false"
        );
        assert!(execute_with_input(&mut sim, "apply -f -", Some("a: [b\n"))
            .unwrap_err()
            .starts_with("error: error parsing STDIN: error converting YAML to JSON: yaml: "));
        assert_eq!(
            execute_with_input(&mut sim, "apply -n prod -f -", Some("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: dev\nspec:\n  containers:\n  - name: c\n    image: nginx\n")).unwrap_err(),
            "error: the namespace from the provided object \"dev\" does not match the namespace \"prod\". You must pass '--namespace=dev' to perform this operation."
        );
    }

    #[test]
    fn strict_field_validation() {
        // Wording of the apiserver's strict decoder (`fieldValidation=Strict`, kubectl's default
        // `--validate=strict`), as test/integration/apiserver/field_validation_test.go expects.
        let mut sim = sim();
        let dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replica: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n        imagePullPolic: Always\n";
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(dep)).unwrap_err(),
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\", unknown field \"spec.template.spec.containers[0].imagePullPolic\""
        );
        assert_eq!(
            execute_with_input(&mut sim, "create -f -", Some(dep)).unwrap_err(),
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\", unknown field \"spec.template.spec.containers[0].imagePullPolic\""
        );
        assert!(sim
            .api
            .store
            .list::<crate::api::Deployment>(None)
            .next()
            .is_none());
        let typed = dep.replace("replica: 3", "replicas: \"3\"");
        assert_eq!(
            execute_with_input(&mut sim, "apply --validate=false -f -", Some(&typed)).unwrap_err(),
            "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
        );
        assert_eq!(
            execute_with_input(&mut sim, "apply --validate=warn -f -", Some(dep)).unwrap(),
            "Warning: unknown field \"spec.replica\"\nWarning: unknown field \"spec.template.spec.containers[0].imagePullPolic\"\ndeployment.apps/web created"
        );
        // The unknown container field is dropped, not kept verbatim.
        let d = sim
            .api
            .store
            .list::<crate::api::Deployment>(Some("default"))
            .next()
            .unwrap()
            .clone();
        assert!(!d.spec.template.spec.containers[0]
            .extra
            .contains_key("imagePullPolic"));
        assert_eq!(
            execute_with_input(&mut sim, "apply --validate=maybe -f -", Some(dep)).unwrap_err(),
            "error: invalid - validate option \"maybe\"; must be one of: strict (or true), warn, ignore (or false)"
        );
    }

    #[test]
    fn create_with_generate_name_and_invalid_objects() {
        let mut sim = sim();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\nspec:\n  containers:\n  - name: c\n    image: nginx\n";
        let out = execute_with_input(&mut sim, "create -f -", Some(pod)).unwrap();
        assert!(
            out.starts_with("pod/web-") && out.ends_with(" created"),
            "{out}"
        );
        assert_eq!(sim.api.store.list::<Pod>(Some("default")).count(), 1);
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(pod)).unwrap_err(),
            "error: from web-: cannot use generate name with apply"
        );
        let bad = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: bad\nspec:\n  template:\n    metadata:\n      labels: {a: b}\n";
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(bad)).unwrap_err(),
            "The ReplicaSet \"bad\" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`\n* spec.template.spec.containers: Required value"
        );
    }

    #[test]
    fn multi_document_and_lists_with_dry_run() {
        let mut sim = sim();
        let two = format!(
            "{RS}---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {{name: solo}}\n  spec: {{containers: [{{name: c, image: nginx}}]}}\n"
        );
        assert_eq!(
            execute_with_input(&mut sim, "apply -f - --dry-run=server", Some(&two)).unwrap(),
            "replicaset.apps/frontend created (server dry run)\npod/solo created (server dry run)"
        );
        assert!(sim.api.store.is_empty());
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(&two)).unwrap(),
            "replicaset.apps/frontend created\npod/solo created"
        );
        assert_eq!(
            execute_with_input(&mut sim, "apply -f - -o name", Some(&two)).unwrap(),
            "replicaset.apps/frontend\npod/solo"
        );
    }
}
