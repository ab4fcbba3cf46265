//! `kubectl delete` (`pkg/cmd/delete/delete.go`): by name, `-l`, `--all` or `-f`, with
//! `--cascade`, `--grace-period`, `--now` and `--force` mapped onto `DeleteOptions`.

use super::args::{self, Flag};
use super::resource::{self, Kind, Request};
use super::{apply, DryRun, Input, Namespace, Out, DRY_RUN_FLAG};
use crate::sim::Simulation;
use crate::store::apiserver::{DeleteOptions, Propagation};

const FLAGS: &[Flag] = &[
    Flag::strings("filename").short('f'),
    Flag::str("selector").short('l'),
    Flag::str("field-selector"),
    Flag::bool("all"),
    Flag::bool("all-namespaces").short('A'),
    Flag::str("cascade").no_opt("background"),
    Flag::int("grace-period"),
    Flag::bool("now"),
    Flag::bool("force"),
    Flag::bool("wait"),
    Flag::str("timeout"),
    Flag::bool("ignore-not-found"),
    Flag::str("output").short('o'),
    Flag::bool("recursive").short('R'),
    DRY_RUN_FLAG,
];

/// `parseCascadingFlag` (`delete_flags.go`), with its deprecation warnings for booleans.
pub(crate) fn parse_cascade(v: &str, out: &mut Out) -> Result<Propagation, String> {
    match super::args::parse_bool(v) {
        Some(true) => {
            out.eprint(&format!("warning: --cascade={v} is deprecated (boolean value) and can be replaced with --cascade=background."));
            Ok(Propagation::Background)
        }
        Some(false) => {
            out.eprint(&format!("warning: --cascade={v} is deprecated (boolean value) and can be replaced with --cascade=orphan."));
            Ok(Propagation::Orphan)
        }
        None => match v {
            "orphan" => Ok(Propagation::Orphan),
            "foreground" => Ok(Propagation::Foreground),
            "background" => Ok(Propagation::Background),
            _ => Err(format!(
                "error: invalid cascade value ({v}). Must be \"background\", \"foreground\", or \"orphan\""
            )),
        },
    }
}

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let p = args::parse("kubectl delete", words, FLAGS)?;
    let ns = Namespace::from(&p);
    let cascade = parse_cascade(p.str("cascade").unwrap_or("background"), out)?;
    let dry = DryRun::from(&p)?;
    let selector = p.string("selector");
    let all = p.bool("all");
    let ignore_not_found = if p.changed("ignore-not-found") {
        p.bool("ignore-not-found")
    } else {
        all || !selector.is_empty() || !p.string("field-selector").is_empty()
    };
    // Complete: --now means a grace period of 1; --grace-period=0 without --force means 1;
    // --force without a grace period means 0.
    let mut grace = p.int("grace-period", -1);
    let force = p.bool("force");
    if p.bool("now") {
        if grace != -1 {
            return Err("error: --now and --grace-period cannot be specified together".into());
        }
        grace = 1;
    }
    if grace == 0 && !force {
        grace = 1;
    }
    if force && grace < 0 {
        grace = 0;
    }
    // Validate.
    let output = p.string("output");
    if !output.is_empty() && output != "name" {
        return Err(format!(
            "error: unexpected -o output mode: {output}. We only support '-o name'"
        ));
    }
    if all && !selector.is_empty() {
        return Err("error: cannot set --all and --selector at the same time".into());
    }
    if grace == 0 && force {
        out.warn("Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.");
    } else if grace > 0 && force {
        return Err(
            "error: --force and --grace-period greater than 0 cannot be specified together".into(),
        );
    }

    // The objects to delete, in visiting order.
    // (kind, namespace, name, the file it came from for `-f`)
    let mut targets: Vec<(Kind, String, String, Option<String>)> = vec![];
    let mut errs: Vec<String> = vec![];
    let files = p.strings("filename");
    if !files.is_empty() {
        if !p.args.is_empty() {
            return Err("error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into());
        }
        let (objs, decode_errs) = apply::read_objects(&files, p.bool("recursive"), input, &ns)?;
        for doc in objs {
            let o = doc.obj;
            let kind = Kind::Obj(o.kind());
            let (ns, name) = (o.meta().namespace.clone(), o.meta().name.clone());
            targets.push((kind, ns, name, Some(doc.source)));
        }
        errs.extend(decode_errs);
    } else {
        let sel = if selector.is_empty() {
            None
        } else {
            Some(selector.as_str())
        };
        let req = resource::build(&p.args, false, sel, all)?;
        let namespace = if p.bool("all-namespaces") {
            None
        } else {
            Some(ns.name.as_str())
        };
        match &req {
            Request::Named(v) => {
                for (k, n) in v {
                    let tns = if k.namespaced() {
                        ns.name.clone()
                    } else {
                        String::new()
                    };
                    targets.push((*k, tns, n.clone(), None));
                }
            }
            Request::Selector { .. } => {
                let (infos, e) = resource::visit(sim, &req, namespace, &p.string("field-selector"));
                errs.extend(e);
                for info in infos {
                    for item in info.items {
                        targets.push((
                            info.kind,
                            item.namespace().to_string(),
                            item.name().to_string(),
                            None,
                        ));
                    }
                }
            }
        }
    }

    let opts = DeleteOptions {
        grace_period_seconds: if grace >= 0 { Some(grace) } else { None },
        propagation: Some(cascade),
        uid: None,
    };
    let mut found = 0;
    let mut warned_cluster_scope = !ns.explicit || p.bool("all-namespaces");
    for (kind, tns, name, source) in targets {
        let Kind::Obj(k) = kind else {
            errs.push("Error from server (MethodNotAllowed): the server does not allow this method on the requested resource".into());
            continue;
        };
        // `DeleteResult`: a client dry run prints what it visited without asking the server
        // (names are not looked up: `RequireObject(false)`).
        if dry != DryRun::Client {
            let res = if dry == DryRun::Server {
                let mut api = sim.api.clone();
                api.delete(k, &tns, &name, &opts).map(|_| ())
            } else {
                sim.api.delete(k, &tns, &name, &opts).map(|_| ())
            };
            if let Err(e) = res {
                if e.is_not_found() && ignore_not_found {
                    // Visited (`found++`) before the delete failed; the error is then
                    // filtered out (`IgnoreErrors(errors.IsNotFound)`): no "No resources found".
                    found += 1;
                    continue;
                }
                // `deleteResource`: `cmdutil.AddSourceToErr("deleting", info.Source, err)`.
                errs.push(match &source {
                    Some(src) => apply::with_source(e, "deleting", src),
                    None => e.kubectl_message(),
                });
                continue;
            }
        }
        found += 1;
        if !warned_cluster_scope && !kind.namespaced() {
            out.warn("deleting cluster-scoped resources, not scoped to the provided namespace");
            warned_cluster_scope = true;
        }
        out.print(&deleted_line(
            kind,
            &tns,
            &name,
            grace,
            dry,
            output == "name",
        ));
    }
    if found == 0 && errs.is_empty() {
        out.print("No resources found");
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

/// `DeleteOptions.PrintObj`: `pod "x" deleted from default namespace`.
fn deleted_line(kind: Kind, ns: &str, name: &str, grace: i64, dry: DryRun, short: bool) -> String {
    let kind_str = kind.kind_group();
    if short {
        return format!("{kind_str}/{name}");
    }
    let mut op = if grace == 0 {
        "force deleted"
    } else {
        "deleted"
    }
    .to_string();
    if kind.namespaced() {
        op = format!("{op} from {ns} namespace");
    }
    op.push_str(dry.suffix());
    format!("{kind_str} \"{name}\" {op}")
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::super::{execute, execute_with_input};
    use crate::api::{Object, Pod, ReplicaSet};
    use crate::store::apiserver::{FINALIZER_FOREGROUND, FINALIZER_ORPHAN};

    fn rs(sim: &crate::sim::Simulation) -> Option<ReplicaSet> {
        sim.api
            .store
            .get::<ReplicaSet>("default", "frontend")
            .cloned()
    }

    #[test]
    fn delete_pod_gracefully() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "delete pod bare").unwrap(),
            "pod \"bare\" deleted from default namespace"
        );
        let p = sim.api.store.get::<Pod>("default", "bare").unwrap();
        assert_eq!(p.metadata.deletion_grace_period_seconds, Some(30));
        assert_eq!(
            p.metadata.deletion_timestamp,
            Some(now() + crate::api::Duration::from_secs(30))
        );
        // --now is a grace period of 1 second.
        assert_eq!(
            execute(&mut sim, "delete po frontend-a --now").unwrap(),
            "pod \"frontend-a\" deleted from default namespace"
        );
        let p = sim.api.store.get::<Pod>("default", "frontend-a").unwrap();
        assert_eq!(p.metadata.deletion_grace_period_seconds, Some(1));
    }

    #[test]
    fn force_delete_warns_and_removes() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "delete pod bare --force --grace-period=0").unwrap(),
            "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\npod \"bare\" force deleted from default namespace"
        );
        assert!(sim.api.store.get::<Pod>("default", "bare").is_none());
        assert_eq!(
            execute(&mut sim, "delete pod frontend-a --force --grace-period=5").unwrap_err(),
            "error: --force and --grace-period greater than 0 cannot be specified together"
        );
        assert_eq!(
            execute(&mut sim, "delete pod frontend-a --now --grace-period=5").unwrap_err(),
            "error: --now and --grace-period cannot be specified together"
        );
    }

    #[test]
    fn cascade_options_set_finalizers() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "delete rs frontend --cascade=foreground").unwrap(),
            "replicaset.apps \"frontend\" deleted from default namespace"
        );
        let r = rs(&sim).unwrap();
        assert_eq!(*r.metadata.finalizers, [FINALIZER_FOREGROUND]);
        assert!(r.metadata.deletion_timestamp.is_some());

        let mut sim = super::super::testutil::sim();
        load_fixture(&mut sim);
        execute(&mut sim, "delete rs/frontend --cascade=orphan").unwrap();
        assert_eq!(*rs(&sim).unwrap().metadata.finalizers, [FINALIZER_ORPHAN]);

        let mut sim = super::super::testutil::sim();
        load_fixture(&mut sim);
        execute(&mut sim, "delete rs frontend").unwrap();
        assert!(
            rs(&sim).is_none(),
            "background deletion removes the owner at once"
        );

        let mut sim = super::super::testutil::sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "delete rs frontend --cascade=false").unwrap(),
            "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\nreplicaset.apps \"frontend\" deleted from default namespace"
        );
        assert_eq!(*rs(&sim).unwrap().metadata.finalizers, [FINALIZER_ORPHAN]);
        assert_eq!(
            execute(&mut sim, "delete rs frontend --cascade=sideways").unwrap_err(),
            "error: invalid cascade value (sideways). Must be \"background\", \"foreground\", or \"orphan\""
        );
    }

    #[test]
    fn selectors_all_and_errors() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "delete pods -l app=web --grace-period=0 --force").unwrap(),
            "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\npod \"frontend-a\" force deleted from default namespace\npod \"frontend-b\" force deleted from default namespace"
        );
        assert_eq!(
            execute(&mut sim, "delete pods -l app=web").unwrap(),
            "No resources found"
        );
        assert_eq!(
            execute(&mut sim, "delete pods").unwrap_err(),
            "error: resource(s) were provided, but no name was specified"
        );
        assert_eq!(
            execute(&mut sim, "delete pod nope").unwrap_err(),
            "Error from server (NotFound): pods \"nope\" not found"
        );
        assert_eq!(
            execute(&mut sim, "delete pod nope --ignore-not-found").unwrap(),
            ""
        );
        assert!(execute(&mut sim, "delete")
            .unwrap_err()
            .starts_with("error: You must provide one or more resources by argument or filename."));
        assert_eq!(
            execute(&mut sim, "delete pods --all -l a=b").unwrap_err(),
            "error: cannot set --all and --selector at the same time"
        );
        assert_eq!(
            execute(&mut sim, "delete pods --all -o name").unwrap(),
            "pod/bare"
        );
        assert_eq!(
            execute(&mut sim, "delete node node-2 -n default").unwrap(),
            "Warning: deleting cluster-scoped resources, not scoped to the provided namespace\nnode \"node-2\" deleted"
        );
    }

    #[test]
    fn dry_runs_change_nothing() {
        let mut sim = sim();
        load_fixture(&mut sim);
        assert_eq!(
            execute(&mut sim, "delete rs frontend --dry-run=client").unwrap(),
            "replicaset.apps \"frontend\" deleted from default namespace (dry run)"
        );
        assert_eq!(
            execute(&mut sim, "delete rs frontend --dry-run=server").unwrap(),
            "replicaset.apps \"frontend\" deleted from default namespace (server dry run)"
        );
        assert!(rs(&sim).is_some());
        assert_eq!(
            execute(&mut sim, "delete rs frontend --dry-run").unwrap_err(),
            "error: --dry-run flag without a value was specified. A value must be set, one of: \"none\", \"server\", or \"client\""
        );
    }

    #[test]
    fn delete_from_stdin() {
        let mut sim = sim();
        load_fixture(&mut sim);
        let manifest = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: frontend\n";
        assert_eq!(
            execute_with_input(&mut sim, "delete -f -", Some(manifest)).unwrap(),
            "replicaset.apps \"frontend\" deleted from default namespace"
        );
        assert!(sim
            .api
            .store
            .get_ref(&crate::store::ObjectRef::of(&Object::ReplicaSet(
                Default::default()
            )))
            .is_none());
    }
}
