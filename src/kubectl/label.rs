//! `kubectl label` and `kubectl annotate` (`pkg/cmd/label/label.go`,
//! `pkg/cmd/annotate/annotate.go`): `key=value` pairs and `key-` removals, the `--overwrite`
//! rule with each command's own error text, `--list`, `-l`, `--all`.

use super::args::{self, Flag};
use super::resource::{self, Item, Kind};
use super::{DryRun, Namespace, Out, DRY_RUN_FLAG};
use crate::api::Object;
use crate::sim::Simulation;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    Label,
    Annotate,
}

const FLAGS: &[Flag] = &[
    Flag::bool("overwrite"),
    Flag::bool("list"),
    Flag::bool("all"),
    Flag::bool("all-namespaces").short('A'),
    Flag::str("selector").short('l'),
    Flag::str("field-selector"),
    Flag::str("resource-version"),
    Flag::strings("filename").short('f'),
    Flag::bool("local"),
    Flag::str("output").short('o'),
    Flag::bool("recursive").short('R'),
    Flag::str("field-manager"),
    DRY_RUN_FLAG,
];

/// `cmdutil.GetResourcesAndPairs`: resources first, then `k=v` / `k-` pairs.
fn resources_and_pairs(
    args: &[String],
    pair_type: &str,
) -> Result<(Vec<String>, Vec<String>), String> {
    let mut resources = vec![];
    let mut pairs = vec![];
    let mut found_pair = false;
    for s in args {
        let non_resource =
            (s.contains('=') && !s.starts_with('=')) || (s.ends_with('-') && s != "-");
        match (found_pair, non_resource) {
            (_, true) => {
                found_pair = true;
                pairs.push(s.clone());
            }
            (false, false) => resources.push(s.clone()),
            (true, false) => {
                return Err(format!(
                    "error: all resources must be specified before {pair_type} changes: {s}"
                ))
            }
        }
    }
    Ok((resources, pairs))
}

/// `validation.IsValidLabelValue`.
fn label_value_errors(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let b = v.as_bytes();
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let ok = b.is_empty()
        || (alnum(b[0])
            && alnum(b[b.len() - 1])
            && b.iter()
                .all(|c| alnum(*c) || matches!(c, b'-' | b'_' | b'.')));
    if !ok {
        errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".to_string());
    }
    errs
}

/// `parseLabels` (label.go).
fn parse_labels(spec: &[String]) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    let mut labels = BTreeMap::new();
    let mut remove = vec![];
    for s in spec {
        if s.contains('=') {
            let parts: Vec<&str> = s.split('=').collect();
            if parts.len() != 2 {
                return Err(format!("error: invalid label spec: {s}"));
            }
            let errs = label_value_errors(parts[1]);
            if !errs.is_empty() {
                return Err(format!(
                    "error: invalid label value: {s:?}: {}",
                    errs.join(";")
                ));
            }
            labels.insert(parts[0].to_string(), parts[1].to_string());
        } else if let Some(k) = s.strip_suffix('-') {
            remove.push(k.to_string());
        } else {
            return Err(format!("error: unknown label spec: {s}"));
        }
    }
    if remove.iter().any(|r| labels.contains_key(r)) {
        return Err("error: can not both modify and remove a label in the same command".into());
    }
    Ok((labels, remove))
}

/// `cmdutil.ParsePairs(..., "annotation", true)` and `validateAnnotations`.
fn parse_annotations(spec: &[String]) -> Result<(BTreeMap<String, String>, Vec<String>), String> {
    let mut pairs = BTreeMap::new();
    let mut remove = vec![];
    let mut invalid = vec![];
    for s in spec {
        if s.contains('=') && !s.starts_with('=') {
            let (k, v) = s.split_once('=').unwrap_or((s, ""));
            pairs.insert(k.to_string(), v.to_string());
        } else if s.ends_with('-') && s != "-" {
            remove.push(s[..s.len() - 1].to_string());
        } else {
            invalid.push(s.clone());
        }
    }
    if !invalid.is_empty() {
        return Err(format!(
            "error: invalid annotation format: {}",
            invalid.join(", ")
        ));
    }
    let both: Vec<&str> = remove
        .iter()
        .filter(|r| pairs.contains_key(*r))
        .map(String::as_str)
        .collect();
    if !both.is_empty() {
        return Err(format!(
            "error: can not both modify and remove the following annotation(s) in the same command: {}",
            both.join(", ")
        ));
    }
    Ok((pairs, remove))
}

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    which: Which,
    input: super::Input,
    out: &mut Out,
) -> Result<(), String> {
    let (cmd, noun) = match which {
        Which::Label => ("kubectl label", "label"),
        Which::Annotate => ("kubectl annotate", "annotation"),
    };
    let p = args::parse(cmd, words, FLAGS)?;
    let ns = Namespace::from(&p);
    let dry = DryRun::from(&p)?;
    let (resources, pairs) = resources_and_pairs(&p.args, noun)?;
    let (new, remove) = match which {
        Which::Label => parse_labels(&pairs)?,
        Which::Annotate => parse_annotations(&pairs)?,
    };
    let output = p.string("output");
    let list = p.bool("list");
    if list && !output.is_empty() {
        return Err("error: --list and --output may not be specified together".into());
    }
    if !output.is_empty() && !matches!(output.as_str(), "name" | "yaml" | "json") {
        return Err(super::output::no_printer(
            &output,
            &["json", "name", "yaml"],
        ));
    }
    let selector = p.string("selector");
    if p.bool("all") && !selector.is_empty() {
        return Err("error: cannot set --all and --selector at the same time".into());
    }
    let files = p.strings("filename");
    if resources.is_empty() && files.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    }
    if new.is_empty() && remove.is_empty() && !list {
        return Err(format!("error: at least one {noun} update is required"));
    }
    let sel = if selector.is_empty() {
        None
    } else {
        Some(selector.as_str())
    };
    let overwrite = p.bool("overwrite");
    let local = p.bool("local");
    if !files.is_empty() {
        if !resources.is_empty() {
            return Err("error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into());
        }
        // `-f`: the objects in the files, as read (`--local`) or as the server has them.
        let (docs, errs) = super::apply::read_objects(&files, p.bool("recursive"), input, &ns)?;
        for doc in docs {
            let kind = Kind::Obj(doc.obj.kind());
            let obj = if local {
                doc.obj
            } else {
                match resource::get(sim, kind, &doc.obj.meta().namespace, &doc.obj.meta().name)? {
                    Item::Obj(o) => o,
                    _ => continue,
                }
            };
            let rv = p.string("resource-version");
            let opts = (
                overwrite,
                list,
                true,
                dry,
                output.as_str(),
                rv.as_str(),
                local,
            );
            apply_one(sim, kind, obj, which, &new, &remove, opts, out)?;
        }
        return if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.join("\n"))
        };
    }
    let req = resource::build(&resources, p.bool("all"), sel, false)?;
    let single = req.single_item();
    let namespace = if p.bool("all-namespaces") {
        None
    } else {
        Some(ns.name.as_str())
    };
    let (infos, errs) = resource::visit(sim, &req, namespace, &p.string("field-selector"));
    if !p.string("resource-version").is_empty() && !single {
        return Err("error: --resource-version may only be used with a single resource".into());
    }
    for info in infos {
        for item in info.items {
            let Item::Obj(obj) = item else {
                return Err("Error from server (MethodNotAllowed): the server does not allow this method on the requested resource".into());
            };
            let kind = info.kind;
            let rv = p.string("resource-version");
            let opts = (
                overwrite,
                list,
                single,
                dry,
                output.as_str(),
                rv.as_str(),
                local,
            );
            apply_one(sim, kind, obj, which, &new, &remove, opts, out)?;
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

/// (overwrite, list, single, dry run, output, resource version, local)
type ApplyOpts<'a> = (bool, bool, bool, DryRun, &'a str, &'a str, bool);

#[allow(clippy::too_many_arguments)]
fn apply_one(
    sim: &mut Simulation,
    kind: Kind,
    obj: Object,
    which: Which,
    new: &BTreeMap<String, String>,
    remove: &[String],
    opts: ApplyOpts,
    out: &mut Out,
) -> Result<(), String> {
    let (overwrite, list, single, dry, output, resource_version, local) = opts;
    let name = obj.meta().name.clone();
    let current = match which {
        Which::Label => obj.meta().labels.clone(),
        Which::Annotate => obj.meta().annotations.clone(),
    };
    if which == Which::Label && !list && dry != DryRun::Client {
        for r in remove {
            if !current.contains_key(r) {
                out.print(&format!("label {r:?} not found."));
            }
        }
    }
    if !overwrite {
        match which {
            Which::Label => {
                let errs: Vec<String> = new
                    .iter()
                    .filter_map(|(k, v)| {
                        current.get(k).filter(|c| *c != v).map(|c| {
                            format!(
                                "error: '{k}' already has a value ({c}), and --overwrite is false"
                            )
                        })
                    })
                    .collect();
                if !errs.is_empty() {
                    return Err(errs.join("\n"));
                }
            }
            Which::Annotate => {
                let found: Vec<String> = new
                    .iter()
                    .filter(|(k, _)| k.as_str() != "kubernetes.io/change-cause")
                    .filter_map(|(k, v)| {
                        current
                            .get(k)
                            .filter(|c| *c != v)
                            .map(|c| format!("'{k}' already has a value ({c})"))
                    })
                    .collect();
                if !found.is_empty() {
                    return Err(format!(
                        "error: --overwrite is false but found the following declared annotation(s): {}",
                        found.join("; ")
                    ));
                }
            }
        }
    }
    let mut updated = obj.clone();
    // `labelFunc` (1.35, kubernetes#134849): the keys actually added (new or changed value)
    // and actually removed decide the message, and a label change with neither is not sent.
    let (mut added, mut removed) = (0, 0);
    {
        let m = updated.meta_mut();
        let map = match which {
            Which::Label => &mut m.labels,
            Which::Annotate => &mut m.annotations,
        };
        for (k, v) in new {
            if map.get(k) != Some(v) {
                map.insert(k.clone(), v.clone());
                added += 1;
            }
        }
        for r in remove {
            if map.remove(r).is_some() {
                removed += 1;
            }
        }
        if !resource_version.is_empty() {
            m.resource_version = resource_version.to_string();
        }
    }
    let changed = match which {
        Which::Label => added + removed > 0,
        Which::Annotate => updated != obj,
    };
    let msg = match which {
        Which::Label if added > 0 && removed > 0 => "modified",
        Which::Label if added > 0 => "labeled",
        Which::Label if removed > 0 => "unlabeled",
        Which::Label => "not labeled",
        Which::Annotate => "annotated",
    };
    let result = if local || list || dry == DryRun::Client || !changed {
        updated
    } else {
        super::server_write(sim, dry == DryRun::Server, out, |api| api.update(updated))
            .map_err(|e| e.kubectl_message())?
    };
    if list {
        let map = match which {
            Which::Label => result.meta().labels.clone(),
            Which::Annotate => result.meta().annotations.clone(),
        };
        let indent = if single { "" } else { " " };
        if !single {
            out.print(&format!(
                "Listing {}s for {}.{}/{}:",
                match which {
                    Which::Label => "label",
                    Which::Annotate => "annotation",
                },
                kind.kind_name(),
                kind.group(),
                name
            ));
        }
        for (k, v) in map {
            out.print(&format!("{indent}{k}={v}"));
        }
        return Ok(());
    }
    match output {
        "name" => out.print(&super::output::name_of(kind, &name)),
        "yaml" | "json" => out.print(&super::output::print_value(
            output,
            &super::output::object_value(&result),
        )),
        _ => out.print(&format!(
            "{} {msg}{}",
            super::output::name_of(kind, &name),
            dry.suffix()
        )),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::execute;
    use super::super::testutil::*;
    use crate::api::{Node, Pod};

    fn pod_labels(sim: &crate::sim::Simulation, name: &str) -> Vec<(String, String)> {
        sim.api
            .store
            .get::<Pod>("default", name)
            .unwrap()
            .metadata
            .labels
            .clone()
            .into_iter()
            .collect()
    }

    /// The overwrite rule and messages of label.go (`validateNoOverwrites`,
    /// `updateDataChangeMsg`); cf. TestLabelFunc in label_test.go.
    #[test]
    fn label_overwrite_rules() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "label pod bare tier=db").unwrap(),
            "pod/bare labeled"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare app=cache").unwrap_err(),
            "error: 'app' already has a value (db), and --overwrite is false"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare app=db").unwrap(),
            "pod/bare not labeled"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare app=cache --overwrite").unwrap(),
            "pod/bare labeled"
        );
        assert_eq!(
            pod_labels(&sim, "bare"),
            [
                ("app".to_string(), "cache".to_string()),
                ("tier".into(), "db".into())
            ]
        );
        assert_eq!(
            execute(&mut sim, "label pod bare tier-").unwrap(),
            "pod/bare unlabeled"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare tier-").unwrap(),
            "label \"tier\" not found.\npod/bare not labeled"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare app=x tier=y").unwrap_err(),
            "error: 'app' already has a value (cache), and --overwrite is false"
        );
    }

    #[test]
    fn label_selectors_and_errors() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "label pods -l app=web track=stable").unwrap(),
            "pod/frontend-a labeled\npod/frontend-b labeled"
        );
        assert_eq!(
            execute(&mut sim, "label pods --all env=dev").unwrap(),
            "pod/bare labeled\npod/frontend-a labeled\npod/frontend-b labeled"
        );
        assert_eq!(
            execute(&mut sim, "label node node-1 disk=ssd").unwrap(),
            "node/node-1 labeled"
        );
        assert_eq!(
            sim.api
                .store
                .get::<Node>("", "node-1")
                .unwrap()
                .metadata
                .labels["disk"],
            "ssd"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare").unwrap_err(),
            "error: at least one label update is required"
        );
        assert_eq!(
            execute(&mut sim, "label app=x").unwrap_err(),
            "error: one or more resources must be specified as <resource> <name> or <resource>/<name>"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare a=b c").unwrap_err(),
            "error: all resources must be specified before label changes: c"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare a=b=c").unwrap_err(),
            "error: invalid label spec: a=b=c"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare a=b a-").unwrap_err(),
            "error: can not both modify and remove a label in the same command"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare 'a=b c'").unwrap_err(),
            "error: invalid label value: \"a=b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
        );
        assert_eq!(
            execute(&mut sim, "label pod nope a=b").unwrap_err(),
            "Error from server (NotFound): pods \"nope\" not found"
        );
        assert_eq!(
            execute(&mut sim, "label pod bare --list").unwrap(),
            "app=db\nenv=dev"
        );
    }

    /// annotate.go's own overwrite message (`validateNoAnnotationOverwrites`).
    #[test]
    fn annotate_rules() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "annotate pod bare description='my pod'").unwrap(),
            "pod/bare annotated"
        );
        assert_eq!(
            sim.api
                .store
                .get::<Pod>("default", "bare")
                .unwrap()
                .metadata
                .annotations["description"],
            "my pod"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare description=other").unwrap_err(),
            "error: --overwrite is false but found the following declared annotation(s): 'description' already has a value (my pod)"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare description=other --overwrite").unwrap(),
            "pod/bare annotated"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare kubernetes.io/change-cause=x").unwrap(),
            "pod/bare annotated"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare kubernetes.io/change-cause=y").unwrap(),
            "pod/bare annotated"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare description-").unwrap(),
            "pod/bare annotated"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare a=1 a-").unwrap_err(),
            "error: can not both modify and remove the following annotation(s) in the same command: a"
        );
        assert_eq!(
            execute(&mut sim, "annotate pod bare").unwrap_err(),
            "error: at least one annotation update is required"
        );
        assert_eq!(
            execute(&mut sim, "annotate pods --all -l a=b x=y").unwrap_err(),
            "error: cannot set --all and --selector at the same time"
        );
    }

    type Strs<'a> = &'a [&'a str];
    type Pairs<'a> = &'a [(&'a str, &'a str)];

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn map(pairs: &[(&str, &str)]) -> std::collections::BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    // Upstream: TestParseLabels (staging/src/k8s.io/kubectl/pkg/cmd/label/label_test.go),
    // all seven rows.
    #[test]
    fn parse_labels_table() {
        let ok: [(Strs, Pairs, Strs); 4] = [
            (&["a=b", "c=d"], &[("a", "b"), ("c", "d")], &[]),
            (&[], &[], &[]),
            (&["a=b", "c=d", "e-"], &[("a", "b"), ("c", "d")], &["e"]),
            (&["a="], &[("a", "")], &[]),
        ];
        for (spec, labels, remove) in ok {
            assert_eq!(
                super::parse_labels(&strings(spec)),
                Ok((map(labels), strings(remove))),
                "{spec:?}"
            );
        }
        for spec in [&["ab", "c=d"][..], &["a=b", "c=d", "a-"], &["a=%^$"]] {
            assert!(super::parse_labels(&strings(spec)).is_err(), "{spec:?}");
        }
    }

    // Upstream: TestValidateLabels (label_test.go), all four rows, through `kubectl label`
    // (validateNoOverwrites runs when --overwrite is not given).
    #[test]
    fn validate_labels_table() {
        let cases: [(&str, Pairs, &str, bool); 4] = [
            ("one shared", &[("a", "b"), ("c", "d")], "a=c d=b", true),
            ("second shared", &[("a", "b"), ("c", "d")], "b=d c=a", true),
            ("no overlap", &[("a", "b"), ("c", "d")], "b=a d=c", false),
            ("no labels", &[], "b=a d=c", false),
        ];
        for (name, existing, args, expect_err) in cases {
            let mut sim = sim();
            let mut p = running_pod("p", "default", "node-1");
            p.metadata.labels = map(existing).into();
            load_pod(&mut sim, p);
            let res = execute(&mut sim, &format!("label pod p {args}"));
            assert_eq!(res.is_err(), expect_err, "{name}: {res:?}");
        }
    }

    // Upstream: TestParseAnnotations (staging/src/k8s.io/kubectl/pkg/cmd/annotate/
    // annotate_test.go), all nine rows. Upstream's error values are printed by kubectl with
    // an "error: " prefix, which our errors already carry.
    #[test]
    fn parse_annotations_table() {
        let url = "https://test.com/index.htm?id=123#u=user-name";
        let json = r#"'{"kind":"SerializedReference","apiVersion":"v1","reference":{"kind":"ReplicationController","namespace":"default","name":"my-nginx","uid":"c544ee78-2665-11e5-8051-42010af0c213","apiVersion":"v1","resourceVersion":"61368"}}'"#;
        let special = [
            format!("url={url}"),
            format!("fake.kubernetes.io/annotation={json}"),
        ];
        assert_eq!(
            super::parse_annotations(&special),
            Ok((
                map(&[("url", url), ("fake.kubernetes.io/annotation", json)]),
                vec![]
            )),
            "add annotations with special characters"
        );
        let ok: [(Strs, Pairs, Strs); 4] = [
            (&["a=b", "c=d"], &[("a", "b"), ("c", "d")], &[]),
            (&[], &[], &[]),
            (&["a=b", "c=d", "e-"], &[("a", "b"), ("c", "d")], &["e"]),
            (&["a="], &[("a", "")], &[]),
        ];
        for (spec, pairs, remove) in ok {
            assert_eq!(
                super::parse_annotations(&strings(spec)),
                Ok((map(pairs), strings(remove))),
                "{spec:?}"
            );
        }
        let bad: [(&[&str], &str); 4] = [
            (&["ab", "c=d"], "invalid annotation format: ab"),
            (&["ab", "a="], "invalid annotation format: ab"),
            (&["-"], "invalid annotation format: -"),
            (&["=bar"], "invalid annotation format: =bar"),
        ];
        for (spec, err) in bad {
            assert_eq!(
                super::parse_annotations(&strings(spec)),
                Err(format!("error: {err}")),
                "{spec:?}"
            );
        }
    }

    // Upstream: TestValidateAnnotations (annotate_test.go), both rows, through
    // parse_annotations (which runs validateAnnotations).
    #[test]
    fn validate_annotations_table() {
        let cases: [(&[&str], &str); 2] = [
            (
                &["a=b", "c=d", "a-"],
                "can not both modify and remove the following annotation(s) in the same command: a",
            ),
            (
                &["a=b", "c=d", "a-", "c-"],
                "can not both modify and remove the following annotation(s) in the same command: a, c",
            ),
        ];
        for (spec, err) in cases {
            assert_eq!(
                super::parse_annotations(&strings(spec)),
                Err(format!("error: {err}")),
                "{spec:?}"
            );
        }
    }

    // Upstream: TestLabelErrors (label_test.go), all eight cases, through `kubectl label`.
    #[test]
    fn label_errors() {
        let cases = [
            ("no args", "", "one or more resources must be specified"),
            (
                "not enough labels",
                "pods",
                "at least one label update is required",
            ),
            (
                "wrong labels",
                "pods -",
                "at least one label update is required",
            ),
            (
                "wrong labels 2",
                "pods =bar",
                "at least one label update is required",
            ),
            (
                "no resources",
                "pods-",
                "one or more resources must be specified",
            ),
            (
                "no resources 2",
                "pods=bar",
                "one or more resources must be specified",
            ),
            (
                "resources but no selectors",
                "pods app=bar",
                "resource(s) were provided, but no name was specified",
            ),
            (
                "multiple resources but no selectors",
                "pods,deployments app=bar",
                "resource(s) were provided, but no name was specified",
            ),
        ];
        for (name, args, want) in cases {
            let mut sim = sim();
            let err = execute(&mut sim, &format!("label {args}")).unwrap_err();
            assert!(err.contains(want), "{name}: {err}");
        }
    }

    // Upstream: TestAnnotateErrors (annotate_test.go), all six cases, through
    // `kubectl annotate`.
    #[test]
    fn annotate_errors() {
        let cases = [
            ("no args", "", "one or more resources must be specified"),
            (
                "not enough annotations",
                "pods",
                "at least one annotation update is required",
            ),
            (
                "wrong annotations",
                "pods -",
                "at least one annotation update is required",
            ),
            (
                "wrong annotations 2",
                "pods =bar",
                "at least one annotation update is required",
            ),
            (
                "no resources remove annotations",
                "pods-",
                "one or more resources must be specified",
            ),
            (
                "no resources add annotations",
                "pods=bar",
                "one or more resources must be specified",
            ),
        ];
        for (name, args, want) in cases {
            let mut sim = sim();
            let err = execute(&mut sim, &format!("annotate {args}")).unwrap_err();
            assert!(err.contains(want), "{name}: {err}");
        }
    }

    // Upstream: TestValidateAnnotationOverwrites (annotate_test.go), all four rows, through
    // `kubectl annotate` without --overwrite.
    #[test]
    fn validate_annotation_overwrites() {
        let cases: [(&str, Pairs, &str, bool); 4] = [
            (
                "share first annotation",
                &[("a", "A"), ("b", "B")],
                "a=a c=C",
                true,
            ),
            (
                "share second annotation",
                &[("a", "A"), ("c", "C")],
                "b=B c=c",
                true,
            ),
            ("no overlap", &[("a", "A"), ("c", "C")], "b=B d=D", false),
            ("no annotations", &[], "a=A b=B", false),
        ];
        for (name, existing, args, expect_err) in cases {
            let mut sim = sim();
            let mut p = running_pod("p", "default", "node-1");
            p.metadata.annotations = map(existing).into();
            load_pod(&mut sim, p);
            let res = execute(&mut sim, &format!("annotate pod p {args}"));
            assert_eq!(res.is_err(), expect_err, "{name}: {res:?}");
        }
    }
}
