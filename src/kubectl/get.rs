//! `kubectl get` (`staging/src/k8s.io/kubectl/pkg/cmd/get/get.go`): tables per kind with
//! kubectl's grouping, separators and `No resources found`, or yaml/json/name output.

use super::args::{self, Flag};
use super::jsonpath;
use super::output::{self, GET_FORMATS};
use super::printers::{self, event, PrintOptions};
use super::resource::{self, Info, Item, Kind};
use super::table::{self, TableOptions};
use super::{Namespace, Out};
use crate::api::Object;
use crate::sim::Simulation;

const FLAGS: &[Flag] = &[
    Flag::str("output").short('o'),
    Flag::str("selector").short('l'),
    Flag::str("field-selector"),
    Flag::bool("all-namespaces").short('A'),
    Flag::bool("show-labels"),
    Flag::bool("show-kind"),
    Flag::bool("no-headers"),
    Flag::bool("ignore-not-found"),
    Flag::strings("label-columns").short('L'),
    Flag::bool("watch").short('w'),
    Flag::bool("watch-only"),
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::str("sort-by"),
    Flag::str("subresource"),
    Flag::str("allow-missing-template-keys").no_opt("true"),
];

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    input: super::Input,
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl get", words, FLAGS)?;
    let ns = Namespace::from(&p);
    if p.bool("watch") || p.bool("watch-only") {
        return Err(
            "error: kubeplay cannot watch: advance the simulation and run get again".into(),
        );
    }
    let files = p.strings("filename");
    if p.args.is_empty() && files.is_empty() {
        return Err(
            "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples".into(),
        );
    }
    // `GetOptions.Validate` names the whole --output value (`custom-columns=...`).
    let output_option = p.string("output");
    if p.bool("show-labels") && !output_option.is_empty() && output_option != "wide" {
        return Err(format!(
            "error: --show-labels option cannot be used with {output_option} printer"
        ));
    }
    if !p.strings("label-columns").is_empty() && output_option.starts_with("custom-columns") {
        return Err(format!(
            "error: --label-columns option cannot be used with {output_option} printer"
        ));
    }
    let format = p.string("output");
    let (format, template) = match format.split_once('=') {
        Some((f, t)) if f == "jsonpath" || f == "custom-columns" => (f.to_string(), t.to_string()),
        _ => (format.clone(), String::new()),
    };
    if !format.is_empty() && !GET_FORMATS.contains(&format.as_str()) {
        return Err(output::no_printer(&p.string("output"), GET_FORMATS));
    }
    if (format == "jsonpath" || format == "custom-columns") && template.is_empty() {
        return Err(if format == "jsonpath" {
            "error: template format specified but no template given".to_string()
        } else {
            "error: custom-columns format specified but no custom columns given".to_string()
        });
    }
    // `supportedSubresources`: `status` reads the object itself; `scale` reads the
    // autoscaling/v1 Scale of a Deployment, ReplicaSet, ReplicationController or StatefulSet.
    let subresource = p.string("subresource");
    if !subresource.is_empty() && !matches!(subresource.as_str(), "status" | "scale") {
        return Err(format!(
            "error: invalid subresource value: {subresource:?}. Must be one of [status scale]"
        ));
    }
    let all_ns = p.bool("all-namespaces");
    let (mut infos, mut errs, single) = if files.is_empty() {
        let req = resource::build(&p.args, true, p.str("selector"), false)?;
        let namespace = if all_ns { None } else { Some(ns.name.as_str()) };
        let (infos, errs) = resource::visit(sim, &req, namespace, &p.string("field-selector"));
        (infos, errs, req.single_item())
    } else {
        from_files(sim, &p.args, &files, p.bool("recursive"), input, &ns)?
    };
    let sort_by = p.string("sort-by");
    if !sort_by.is_empty() {
        sort_infos(&mut infos, &sort_by)?;
    }
    if p.bool("ignore-not-found") {
        errs.retain(|e| !e.starts_with("Error from server (NotFound)"));
    }
    let now = sim.now();
    if subresource == "scale" {
        return get_scale(
            infos, errs, single, &format, &template, &p, all_ns, now, out,
        );
    }

    if format == "jsonpath" || format == "custom-columns" {
        if single && !errs.is_empty() {
            return Err(errs.join("\n"));
        }
        let items: Vec<Item> = infos.into_iter().flat_map(|i| i.items).collect();
        if format == "jsonpath" {
            let v = if single && items.len() == 1 {
                items[0].to_value()
            } else {
                output::list_value(items.iter().map(Item::to_value).collect())
            };
            // The JSONPath printer writes no newline of its own.
            out.print_raw(&jsonpath::print_opts(
                &template,
                &v,
                allow_missing_keys(&p),
            )?);
        } else {
            let (table, err) = custom_columns(&template, &items, p.bool("no-headers"))?;
            out.print(&table);
            if let Some(e) = err {
                return Err(e);
            }
        }
        return finish(out, errs);
    }
    if matches!(format.as_str(), "yaml" | "json" | "name") {
        if single && !errs.is_empty() {
            return Err(errs.join("\n"));
        }
        let items: Vec<(Kind, Item)> = infos
            .into_iter()
            .flat_map(|i| {
                let k = i.kind;
                i.items.into_iter().map(move |it| (k, it))
            })
            .collect();
        if items.is_empty() && p.bool("ignore-not-found") {
            return finish(out, errs);
        }
        out.print(&output::print_generic(&format, &items, single));
        return finish(out, errs);
    }

    let opts = TableOptions {
        wide: format == "wide",
        no_headers: p.bool("no-headers"),
        with_namespace: all_ns,
        show_labels: p.bool("show-labels"),
        label_columns: p.strings("label-columns"),
        kind_prefix: None,
    };
    let with_kind = p.bool("show-kind") || multiple_kinds(&infos);
    let written = print_tables(&infos, &opts, with_kind, now, out);
    if !written && !p.bool("ignore-not-found") && errs.is_empty() {
        let all_namespaced = !all_ns && infos.iter().all(|i| i.kind.namespaced());
        if all_namespaced {
            out.eprint(&format!("No resources found in {} namespace.", ns.name));
        } else {
            out.eprint("No resources found");
        }
    }
    finish(out, errs)
}

/// `get -f FILE...` (`FilenameParam`): each object of the files as the server has it, in file
/// order, and the NotFound errors of those it does not have. A single file path implies a
/// single item (`singleItemImplied`: with -o yaml|json one object prints as itself, not as a
/// List, and any error is printed alone); standard input does not.
fn from_files(
    sim: &Simulation,
    args: &[String],
    files: &[String],
    recursive: bool,
    input: super::Input,
    ns: &Namespace,
) -> Result<(Vec<Info>, Vec<String>, bool), String> {
    if !args.is_empty() {
        return Err("error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into());
    }
    let (docs, mut errs, single_file) =
        super::apply::read_objects_implied(files, recursive, input, ns)?;
    let mut infos = vec![];
    for doc in docs {
        let kind = Kind::Obj(doc.obj.kind());
        let meta = doc.obj.meta();
        match resource::get(sim, kind, &meta.namespace, &meta.name) {
            Ok(item) => infos.push(Info {
                kind,
                items: vec![item],
            }),
            Err(e) => errs.push(e),
        }
    }
    Ok((infos, errs, single_file))
}

/// The autoscaling/v1 `Scale` the scale subresource of `o` serves (`scaleFromDeployment` and
/// its ReplicaSet / ReplicationController / StatefulSet twins): name, namespace, uid,
/// resourceVersion and creationTimestamp of the object, `spec.replicas` (omitted when 0) and
/// `status.replicas` with the selector as a string. `None` for kinds without the subresource.
fn scale_value(o: &Object) -> Option<serde_json::Value> {
    use serde_json::{json, Map, Value};
    let (desired, current, selector) = match o {
        Object::Deployment(d) => (
            d.spec.replicas.unwrap_or(1),
            d.status.replicas,
            d.spec.selector.as_ref().map(|s| s.to_kubectl_string()),
        ),
        Object::ReplicaSet(rs) => (
            rs.spec.replicas.unwrap_or(1),
            rs.status.replicas,
            rs.spec.selector.as_ref().map(|s| s.to_kubectl_string()),
        ),
        Object::ReplicationController(rc) => (
            rc.spec.replicas.unwrap_or(1),
            rc.status.replicas,
            Some(
                rc.spec
                    .selector
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
        ),
        Object::StatefulSet(ss) => (
            ss.spec.replicas.unwrap_or(1),
            ss.status.replicas,
            ss.spec.selector.as_ref().map(|s| s.to_kubectl_string()),
        ),
        _ => return None,
    };
    let full = output::object_value(o);
    let mut meta = Map::new();
    for key in [
        "creationTimestamp",
        "name",
        "namespace",
        "resourceVersion",
        "uid",
    ] {
        if let Some(v) = full["metadata"].get(key) {
            meta.insert(key.into(), v.clone());
        }
    }
    let mut spec = Map::new();
    if desired != 0 {
        spec.insert("replicas".into(), json!(desired));
    }
    let mut status = Map::new();
    status.insert("replicas".into(), json!(current));
    if let Some(sel) = selector.filter(|s| !s.is_empty()) {
        status.insert("selector".into(), json!(sel));
    }
    Some(json!({
        "apiVersion": "autoscaling/v1",
        "kind": "Scale",
        "metadata": Value::Object(meta),
        "spec": Value::Object(spec),
        "status": Value::Object(status),
    }))
}

/// `kubectl get --subresource=scale`: the Scale objects, as a table (`NAME DESIRED AVAILABLE
/// AGE`, the server's scale columns) or yaml/json/jsonpath/name. A kind without the
/// subresource is the server's 404.
#[allow(clippy::too_many_arguments)]
fn get_scale(
    infos: Vec<Info>,
    mut errs: Vec<String>,
    single: bool,
    format: &str,
    template: &str,
    p: &args::Parsed,
    all_ns: bool,
    now: crate::api::Time,
    out: &mut Out,
) -> Result<(), String> {
    let mut scales = vec![];
    for info in infos {
        for it in info.items {
            let Item::Obj(o) = it else { continue };
            match scale_value(&o) {
                Some(v) => scales.push((o, v)),
                None => {
                    let e = "Error from server (NotFound): the server could not find the requested resource";
                    if !errs.iter().any(|x| x == e) {
                        errs.push(e.into());
                    }
                }
            }
        }
    }
    match format {
        "jsonpath" | "yaml" | "json" | "name" => {
            if single && !errs.is_empty() {
                return Err(errs.join("\n"));
            }
            if format == "name" {
                for (o, _) in &scales {
                    out.print(&format!("scale.autoscaling/{}", o.meta().name));
                }
                return finish(out, errs);
            }
            let v = if single && scales.len() == 1 {
                scales[0].1.clone()
            } else {
                output::list_value(scales.iter().map(|(_, v)| v.clone()).collect())
            };
            if format == "jsonpath" {
                out.print_raw(&jsonpath::print_opts(template, &v, allow_missing_keys(p))?);
            } else {
                out.print(&output::print_value(format, &v));
            }
        }
        _ => {
            const COLS: &[table::Column] = &[
                table::Column::name("Name"),
                table::Column::std("Desired"),
                table::Column::std("Available"),
                table::Column::std("Age"),
            ];
            let rows: Vec<table::Row> = scales
                .iter()
                .map(|(o, v)| table::Row {
                    cells: vec![
                        o.meta().name.clone(),
                        v["spec"]["replicas"].as_i64().unwrap_or(0).to_string(),
                        v["status"]["replicas"].as_i64().unwrap_or(0).to_string(),
                        printers::translate_timestamp_since(o.meta().creation_timestamp, now),
                    ],
                    namespace: o.meta().namespace.clone(),
                    labels: Default::default(),
                })
                .collect();
            if !rows.is_empty() {
                let opts = TableOptions {
                    wide: format == "wide",
                    no_headers: p.bool("no-headers"),
                    with_namespace: all_ns,
                    ..Default::default()
                };
                let text = if opts.no_headers {
                    table::layout(&table::raw_lines(COLS, &rows, &opts, false))
                } else {
                    table::render(COLS, &rows, &opts)
                };
                out.print(text.trim_end_matches('\n'));
            }
        }
    }
    finish(out, errs)
}

fn finish(_out: &mut Out, errs: Vec<String>) -> Result<(), String> {
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

/// `--allow-missing-template-keys` (default true).
fn allow_missing_keys(p: &args::Parsed) -> bool {
    p.str("allow-missing-template-keys")
        .map(|v| !matches!(v.to_ascii_lowercase().as_str(), "false" | "f" | "0"))
        .unwrap_or(true)
}

/// `--sort-by`: orders each result's items by the field (kubectl's `RuntimeSorter`).
fn sort_infos(infos: &mut [Info], field: &str) -> Result<(), String> {
    let path = jsonpath::relaxed_path(field).map_err(|e| format!("error: {e}"))?;
    let relaxed = {
        let t = field.trim();
        let inner = t
            .strip_prefix('{')
            .and_then(|x| x.strip_suffix('}'))
            .unwrap_or(t);
        if inner.starts_with('.') {
            format!("{{{inner}}}")
        } else {
            format!("{{.{inner}}}")
        }
    };
    // SortObjects looks for the field in the objects in order until one has it; a jsonpath
    // execution error on the way (an index out of bounds) is the command's error.
    let count: usize = infos.iter().map(|i| i.items.len()).sum();
    'found: for info in infos.iter().filter(|_| count > 1) {
        for it in &info.items {
            let v = it.to_value();
            let found = jsonpath::eval_checked(&path, &v).map_err(|e| format!("error: {e}"))?;
            if !found.is_empty() {
                break 'found;
            }
        }
    }
    let mut any = false;
    let mut total = 0;
    for info in infos.iter_mut() {
        let mut keyed: Vec<(Option<serde_json::Value>, Item)> = info
            .items
            .drain(..)
            .map(|it| {
                let v = it.to_value();
                let k = jsonpath::eval(&path, &v).first().map(|x| (*x).clone());
                (k, it)
            })
            .collect();
        total += keyed.len();
        any |= keyed.iter().any(|(k, _)| k.is_some());
        keyed.sort_by(|a, b| jsonpath::sort_cmp(a.0.as_ref(), b.0.as_ref()));
        info.items = keyed.into_iter().map(|(_, it)| it).collect();
    }
    if total > 1 && !any {
        return Err(format!(
            "error: couldn't find any field with path {relaxed:?} in the list of objects"
        ));
    }
    Ok(())
}

/// `fmt.Sprint` of an unstructured value, as custom columns print cells: `map[k:v ...]` with
/// sorted keys, `[a b]`, `<nil>`.
fn go_sprint(v: &serde_json::Value) -> String {
    use serde_json::Value;
    let join = |it: Vec<String>| it.join(" ");
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", join(a.iter().map(go_sprint).collect())),
        Value::Object(m) => format!(
            "map[{}]",
            join(
                m.iter()
                    .map(|(k, x)| format!("{k}:{}", go_sprint(x)))
                    .collect()
            )
        ),
        Value::Number(n) => jsonpath::go_number(n),
        Value::Bool(b) => b.to_string(),
    }
}

/// `-o custom-columns=HEADER:path,...` (`CustomColumnsPrinter`).
/// The table, and the error that stopped it (printed after the rows before the failing object,
/// as `printOneObject` returns it).
fn custom_columns(
    spec: &str,
    items: &[Item],
    no_headers: bool,
) -> Result<(String, Option<String>), String> {
    let mut cols = vec![];
    for part in spec.split(',') {
        let Some((h, path)) = part.split_once(':') else {
            return Err(format!(
                "error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            ));
        };
        // An empty path is an empty template (RelaxedJSONPathExpression): `<none>`.
        let path = match path {
            "" => None,
            _ => Some(jsonpath::relaxed_path(path).map_err(|e| format!("error: {e}"))?),
        };
        cols.push((h.to_string(), path));
    }
    let mut raw = String::new();
    if !no_headers {
        raw.push_str(
            &cols
                .iter()
                .map(|(h, _)| h.as_str())
                .collect::<Vec<_>>()
                .join("\t"),
        );
        raw.push('\n');
    }
    let mut err = None;
    'items: for it in items {
        let v = it.to_value();
        let mut cells = vec![];
        for (_, p) in &cols {
            let vals = match p.as_ref().map(|p| jsonpath::eval_checked(p, &v)) {
                Some(Err(e)) => {
                    err = Some(format!("error: {e}"));
                    break 'items;
                }
                Some(Ok(vals)) => vals,
                None => vec![],
            };
            cells.push(if vals.is_empty() {
                "<none>".to_string()
            } else {
                vals.iter()
                    .map(|x| table::escape_terminal(&go_sprint(x)))
                    .collect::<Vec<_>>()
                    .join(",")
            });
        }
        raw.push_str(&cells.join("\t"));
        raw.push('\n');
    }
    Ok((table::layout(&raw), err))
}

/// `multipleGVKsRequested`.
fn multiple_kinds(infos: &[Info]) -> bool {
    infos.len() >= 2 && infos.iter().any(|i| i.kind != infos[0].kind)
}

/// Prints infos as tables: one table per run of the same kind, a blank line between tables
/// once something was written, headers only before the first non-empty part of a table.
/// Returns whether anything was written.
pub(crate) fn print_tables(
    infos: &[Info],
    opts: &TableOptions,
    with_kind: bool,
    now: crate::api::Time,
    out: &mut Out,
) -> bool {
    let popts = PrintOptions {
        wide: opts.wide,
        now,
    };
    let mut written = false;
    let mut separator_ready = false;
    let mut last: Option<Kind> = None;
    let mut pending = String::new();
    let mut printed_headers = false;
    let flush =
        |pending: &mut String, separator_ready: &mut bool, written: &mut bool, out: &mut Out| {
            let s = table::layout(pending);
            pending.clear();
            if !s.is_empty() {
                if *separator_ready {
                    out.print_raw("\n");
                    *separator_ready = false;
                }
                out.print(&s);
                *written = true;
            }
        };
    for info in infos {
        if last != Some(info.kind) {
            flush(&mut pending, &mut separator_ready, &mut written, out);
            if last.is_some() && !opts.no_headers && written {
                separator_ready = true;
            }
            printed_headers = false;
            last = Some(info.kind);
        }
        let mut o = opts.clone();
        o.with_namespace = opts.with_namespace && info.kind.namespaced();
        if with_kind {
            o.kind_prefix = Some(info.kind.kind_group());
        }
        let (columns, rows) = match info.kind {
            Kind::Event => (
                event::COLUMNS,
                info.items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Event(e) => Some(event::row(e, &popts)),
                        Item::Obj(_) => None,
                    })
                    .collect(),
            ),
            Kind::Obj(k) => {
                let objs: Vec<&Object> = info
                    .items
                    .iter()
                    .filter_map(|i| match i {
                        Item::Obj(o) => Some(o),
                        Item::Event(_) => None,
                    })
                    .collect();
                (
                    printers::printer_for(k).columns,
                    printers::rows(&objs, &popts),
                )
            }
        };
        if rows.is_empty() {
            continue;
        }
        pending.push_str(&table::raw_lines(columns, &rows, &o, !printed_headers));
        printed_headers = true;
    }
    flush(&mut pending, &mut separator_ready, &mut written, out);
    written
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::testutil::*;
    use crate::api::Object;

    fn get(sim: &mut crate::sim::Simulation, cmd: &str) -> String {
        execute(sim, cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }

    #[test]
    fn pods_table() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            get(&mut sim, "get pods"),
            "NAME         READY   STATUS    RESTARTS   AGE\nbare         1/1     Running   0          5m\nfrontend-a   1/1     Running   0          5m\nfrontend-b   1/1     Running   0          5m"
        );
        assert_eq!(
            get(&mut sim, "get po -o wide -l app=web"),
            "NAME         READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES\nfrontend-a   1/1     Running   0          5m    10.244.1.5   node-1   <none>           <none>\nfrontend-b   1/1     Running   0          5m    10.244.1.5   node-1   <none>           <none>"
        );
        assert_eq!(
            get(&mut sim, "get pod bare --show-labels"),
            "NAME   READY   STATUS    RESTARTS   AGE   LABELS\nbare   1/1     Running   0          5m    app=db"
        );
        assert_eq!(
            get(
                &mut sim,
                "get pods --field-selector spec.nodeName=node-2 -o name"
            ),
            "pod/bare"
        );
        assert_eq!(
            get(
                &mut sim,
                "get pods --field-selector spec.host=node-2 -o name"
            ),
            "pod/bare"
        );
    }

    #[test]
    fn events_field_selector() {
        let yaml = crate::scenario::builtin::BUILTIN
            .iter()
            .find(|(n, _)| *n == "nginx-deployment")
            .map(|(_, y)| *y)
            .unwrap();
        let mut sim = crate::scenario::Scenario::parse(yaml)
            .unwrap()
            .build()
            .unwrap();
        sim.run_for(crate::api::Duration::parse("60s").unwrap())
            .unwrap();
        let out = get(
            &mut sim,
            "get events --field-selector reason=ScalingReplicaSet -o name",
        );
        assert!(!out.is_empty());
        assert!(
            out.lines()
                .all(|l| l.starts_with("event/nginx-deployment.")),
            "{out}"
        );
        let sched = get(
            &mut sim,
            "get events --field-selector involvedObject.kind=Pod,reason!=Scheduled -o name",
        );
        let all_pod = get(
            &mut sim,
            "get events --field-selector involvedObject.kind=Pod -o name",
        );
        assert!(sched.lines().count() < all_pod.lines().count());
        assert_eq!(
            execute(&mut sim, "get events --field-selector message=x").unwrap_err(),
            "Error from server (BadRequest): Unable to find \"/v1, Resource=events\" that match label selector \"\", field selector \"message=x\": field label not supported: message"
        );
    }

    #[test]
    fn all_namespaces_and_empty() {
        let mut sim = sim();
        load_fixture(&mut sim);
        load_pod(&mut sim, running_pod("api", "prod", "node-2"));
        assert_eq!(
            get(&mut sim, "get pods -A -l app=web"),
            "NAMESPACE   NAME         READY   STATUS    RESTARTS   AGE\ndefault     frontend-a   1/1     Running   0          5m\ndefault     frontend-b   1/1     Running   0          5m\nprod        api          1/1     Running   0          5m"
        );
        assert_eq!(
            get(&mut sim, "get pods -n staging"),
            "No resources found in staging namespace."
        );
        assert_eq!(
            get(&mut sim, "get rc"),
            "No resources found in default namespace."
        );
        assert_eq!(
            get(&mut sim, "get pods -A -l app=none"),
            "No resources found"
        );
        assert_eq!(
            get(&mut sim, "get nodes -l missing=x"),
            "No resources found"
        );
    }

    #[test]
    fn nodes_table() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let mut n = node("node-3", false, 3 * 86400 + 7200);
        n.spec.unschedulable = true;
        sim.api.load(Object::Node(n)).unwrap();
        assert_eq!(
            get(&mut sim, "get nodes"),
            "NAME     STATUS                        ROLES    AGE    VERSION\nnode-1   Ready                         <none>   24h    v1.34.0\nnode-2   Ready                         <none>   24h    v1.34.0\nnode-3   NotReady,SchedulingDisabled   <none>   3d2h   v1.34.0"
        );
    }

    #[test]
    fn replicasets_and_all() {
        let mut sim = sim();
        load_fixture(&mut sim);
        sim.api
            .load(Object::ReplicationController(replication_controller(
                "nginx", 3,
            )))
            .unwrap();
        assert_eq!(
            get(&mut sim, "get rs -o wide"),
            "NAME       DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR\nfrontend   2         2         2       10m   nginx        nginx:1.27   app=web"
        );
        assert_eq!(
            get(&mut sim, "get all"),
            "NAME             READY   STATUS    RESTARTS   AGE
pod/bare         1/1     Running   0          5m
pod/frontend-a   1/1     Running   0          5m
pod/frontend-b   1/1     Running   0          5m

NAME                          DESIRED   CURRENT   READY   AGE
replicationcontroller/nginx   3         3         3       60m

NAME                       DESIRED   CURRENT   READY   AGE
replicaset.apps/frontend   2         2         2       10m"
        );
        // Several names of one kind share one header; rs/x form works too.
        assert_eq!(
            get(&mut sim, "get pod frontend-a frontend-b"),
            "NAME         READY   STATUS    RESTARTS   AGE\nfrontend-a   1/1     Running   0          5m\nfrontend-b   1/1     Running   0          5m"
        );
        assert_eq!(
            get(&mut sim, "get rs/frontend pod/bare -o name"),
            "replicaset.apps/frontend\npod/bare"
        );
    }

    #[test]
    fn not_found_and_partial_results() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "get rs x").unwrap_err(),
            "Error from server (NotFound): replicasets.apps \"x\" not found"
        );
        assert_eq!(
            execute(&mut sim, "get pods bare nope").unwrap_err(),
            "NAME   READY   STATUS    RESTARTS   AGE\nbare   1/1     Running   0          5m\nError from server (NotFound): pods \"nope\" not found"
        );
        assert_eq!(get(&mut sim, "get pods nope --ignore-not-found"), "");
        assert_eq!(
            execute(&mut sim, "get foo").unwrap_err(),
            "error: the server doesn't have a resource type \"foo\""
        );
        assert_eq!(
            execute(&mut sim, "get ingresses").unwrap_err(),
            "error: the server doesn't have a resource type \"ingresses\""
        );
        assert!(execute(&mut sim, "get")
            .unwrap_err()
            .starts_with("You must specify the type of resource to get."));
        assert_eq!(
            execute(&mut sim, "get pods -o go-template={{.items}}").unwrap_err(),
            "error: unable to match a printer suitable for the output format \"go-template={{.items}}\", allowed formats are: custom-columns,json,jsonpath,name,wide,yaml"
        );
        assert_eq!(
            execute(&mut sim, "get pods -o yaml --show-labels").unwrap_err(),
            "error: --show-labels option cannot be used with yaml printer"
        );
        assert_eq!(
            execute(&mut sim, "get pods --bogus").unwrap_err(),
            "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage."
        );
        assert!(execute(&mut sim, "get pods -l 'a b'")
            .unwrap_err()
            .starts_with("Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" that match label selector \"a b\", field selector \"\": unable to parse requirement"));
    }

    #[test]
    fn yaml_json_and_lists() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let y = get(&mut sim, "get pod bare -o yaml");
        assert!(
            y.starts_with("apiVersion: v1\nkind: Pod\nmetadata:\n"),
            "{y}"
        );
        assert!(y.contains("\n  name: bare\n  namespace: default\n"), "{y}");
        assert!(
            y.contains("\n  creationTimestamp: \"2025-01-01T00:55:00Z\"\n"),
            "{y}"
        );
        assert!(y.contains("\n  phase: Running\n"), "{y}");
        let list = get(&mut sim, "get pods -l app=web -o yaml");
        assert!(list.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n"));
        assert!(
            list.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\""),
            "{list}"
        );
        assert_eq!(
            get(&mut sim, "get pods -l app=none -o yaml"),
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\""
        );
        let j = get(&mut sim, "get node node-1 -o json");
        assert!(
            j.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Node\",\n"),
            "{j}"
        );
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["metadata"]["name"], "node-1");
        assert_eq!(
            get(&mut sim, "get pods -o name"),
            "pod/bare\npod/frontend-a\npod/frontend-b"
        );
        assert_eq!(
            execute(&mut sim, "get pod nope -o yaml").unwrap_err(),
            "Error from server (NotFound): pods \"nope\" not found"
        );
    }

    #[test]
    fn jsonpath_custom_columns_and_sort_by() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            get(&mut sim, "get pods -o jsonpath='{.items[*].metadata.name}'"),
            "bare frontend-a frontend-b"
        );
        assert_eq!(
            get(
                &mut sim,
                r#"get pods -l app=web -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\n"}{end}'"#
            ),
            "frontend-a\tnode-1\nfrontend-b\tnode-1"
        );
        assert_eq!(
            get(&mut sim, "get rs frontend -o jsonpath={.spec.replicas}"),
            "2"
        );
        assert_eq!(
            get(&mut sim, "get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,OWNER:.metadata.ownerReferences[0].name"),
            "NAME         NODE     OWNER\nbare         node-2   <none>\nfrontend-a   node-1   frontend\nfrontend-b   node-1   frontend"
        );
        assert_eq!(
            get(&mut sim, "get pods --sort-by=.spec.nodeName -o name"),
            "pod/frontend-a\npod/frontend-b\npod/bare"
        );
        assert_eq!(
            get(&mut sim, "get pods --sort-by={.metadata.name} --no-headers -o custom-columns=N:metadata.name"),
            "bare\nfrontend-a\nfrontend-b"
        );
        assert_eq!(
            execute(&mut sim, "get pods --sort-by=.foo").unwrap_err(),
            "error: couldn't find any field with path \"{.foo}\" in the list of objects"
        );
        assert_eq!(
            execute(&mut sim, "get pods -o jsonpath").unwrap_err(),
            "error: template format specified but no template given"
        );
        assert_eq!(
            execute(&mut sim, "get pods -o custom-columns=NAME").unwrap_err(),
            "error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"
        );
    }

    #[test]
    fn events_table() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let rs = sim
            .api
            .store
            .get_ref(&crate::store::ObjectRef::new(
                "ReplicaSet",
                "default",
                "frontend",
            ))
            .cloned()
            .unwrap();
        sim.api.now = ago(120);
        sim.api.record_event(
            &rs,
            "Normal",
            "SuccessfulCreate",
            "Created pod: frontend-a",
            "replicaset-controller",
        );
        let node = sim
            .api
            .store
            .get_ref(&crate::store::ObjectRef::new("Node", "", "node-2"))
            .cloned()
            .unwrap();
        sim.api.now = ago(30);
        sim.api.record_event(
            &node,
            "Normal",
            "NodeNotReady",
            "Node node-2 status is now: NodeNotReady",
            "node-controller",
        );
        sim.api.now = now();
        assert_eq!(
            get(&mut sim, "get events"),
            "LAST SEEN   TYPE     REASON             OBJECT                MESSAGE\n2m          Normal   SuccessfulCreate   replicaset/frontend   Created pod: frontend-a\n30s         Normal   NodeNotReady       node/node-2           Node node-2 status is now: NodeNotReady"
        );
        assert!(get(&mut sim, "get ev -o yaml").contains("reason: SuccessfulCreate"));
    }
}
