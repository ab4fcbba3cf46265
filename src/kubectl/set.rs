//! `kubectl set image` and `kubectl set resources` (`pkg/cmd/set`): edit the pod template of
//! Deployments, ReplicaSets, ReplicationControllers, StatefulSets and DaemonSets (and the spec of
//! Pods) and write the change back, printing `<kind>/<name> image updated` / `resource requirements updated` for every
//! object that changed (nothing for one already as asked).

use super::args::{self, Flag, Parsed};
use super::describe::quantity_string;
use super::rollout::{infos, Target, CHANGE_CAUSE_ANNOTATION};
use super::{usage_error, DryRun, Input, Namespace, Out, DRY_RUN_FLAG};
use crate::api::{parse_quantity_milli, Container, Object, PodSpec, Quantity};
use crate::sim::Simulation;
use std::collections::BTreeMap;

/// `kubectl set` with no subcommand: cobra prints the help and kubectl exits 1.
const SET_HELP: &str = "Configure application resources.

 These commands help you make changes to existing application resources.

Available Commands:
  image            Update the image of a pod template
  resources        Update resource requests/limits on objects with pod templates

Usage:
  kubectl set SUBCOMMAND [options]

Use \"kubectl set <command> --help\" for more information about a given command.
Use \"kubectl options\" for a list of global command-line options (applies to all commands).";

/// The flags `set image` and `set resources` share.
const COMMON_FLAGS: [Flag; 13] = [
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::str("kustomize").short('k'),
    Flag::str("selector").short('l'),
    Flag::bool("all"),
    Flag::bool("local"),
    Flag::str("field-manager"),
    Flag::bool("record"),
    Flag::str("output").short('o'),
    Flag::bool("allow-missing-template-keys"),
    Flag::bool("show-managed-fields"),
    Flag::str("template"),
    DRY_RUN_FLAG,
];

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let Some((sub, rest)) = super::split_subcommand(words) else {
        return Err(super::group_without_subcommand(
            "kubectl set",
            words,
            SET_HELP,
        ));
    };
    match sub.as_str() {
        "image" => run_set(sim, &rest, input, out, Setter::Image),
        "resources" => run_set(sim, &rest, input, out, Setter::Resources),
        _ => {
            let mut all = vec![sub];
            all.extend(args::parse("kubectl set", &rest, &[])?.args);
            Err(usage_error(
                "kubectl set",
                &format!("unknown command {:?}", all.join(" ")),
            ))
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setter {
    Image,
    Resources,
}

/// `cmdutil.GetResourcesAndPairs`: resource arguments, then `KEY=VALUE` pairs.
///
/// # Errors
/// `all resources must be specified before image changes: <arg>`.
pub fn get_resources_and_pairs(
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
                    "all resources must be specified before {pair_type} changes: {s}"
                ))
            }
        }
    }
    Ok((resources, pairs))
}

/// `cmdutil.ParsePairs(pairs, "image", false)`: container name → image (the last one wins).
///
/// # Errors
/// `invalid image format: a, b`.
pub fn parse_image_pairs(pairs: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut invalid = vec![];
    for p in pairs {
        match p.split_once('=') {
            Some((k, v)) if !k.is_empty() => {
                out.insert(k.to_string(), v.to_string());
            }
            _ => invalid.push(p.as_str()),
        }
    }
    if !invalid.is_empty() {
        return Err(format!("invalid image format: {}", invalid.join(", ")));
    }
    Ok(out)
}

/// `populateResourceListV1`: `cpu=200m,memory=512Mi` → a resource list (canonical quantities).
///
/// # Errors
/// `Invalid argument syntax x, expected <resource>=<value>` or the quantity parser's message.
pub fn populate_resource_list(spec: &str) -> Result<BTreeMap<String, Quantity>, String> {
    let mut out = BTreeMap::new();
    if spec.is_empty() {
        return Ok(out);
    }
    for statement in spec.split(',') {
        let parts: Vec<&str> = statement.split('=').collect();
        if parts.len() != 2 {
            return Err(format!(
                "Invalid argument syntax {statement}, expected <resource>=<value>"
            ));
        }
        parse_quantity_milli(parts[1])?;
        // The quantity as kubectl serialises it (`Quantity.String()`).
        out.insert(
            parts[0].to_string(),
            Quantity(quantity_string(&Quantity(parts[1].to_string()))),
        );
    }
    Ok(out)
}

/// `selectString`: does `s` match `spec`, where `*` is a (non-greedy) wildcard?
pub fn select_string(s: &str, spec: &str) -> bool {
    if spec == "*" {
        return true;
    }
    if !spec.contains('*') {
        return s == spec;
    }
    // kubectl's own loop, quirks included (`strings.Index(s[pos:], part)` compared with pos).
    let parts: Vec<&str> = spec.split('*').collect();
    let mut pos = 0usize;
    for (i, part) in parts.iter().enumerate() {
        if part.is_empty() {
            continue;
        }
        let next = s.get(pos..).and_then(|rest| rest.find(part));
        let Some(next) = next else {
            return false;
        };
        if next < pos
            || (i == 0 && pos != 0)
            || (i == parts.len() - 1 && s.len() != part.len() + next)
        {
            return false;
        }
        pos = next;
    }
    true
}

/// `UpdatePodSpecForObject`: the pod spec of the kinds kubectl can edit.
///
/// # Errors
/// `the object is not a pod or does not have a pod template: *v1.Node`.
fn pod_spec_of(obj: &mut Object) -> Result<&mut PodSpec, String> {
    match obj {
        Object::Pod(p) => Ok(p.spec_mut()),
        Object::ReplicationController(rc) => Ok(rc
            .spec
            .template
            .get_or_insert_with(Default::default)
            .spec_mut()),
        Object::Deployment(d) => Ok(d.spec.template_mut().spec_mut()),
        Object::ReplicaSet(rs) => Ok(rs.spec.template_mut().spec_mut()),
        Object::StatefulSet(s) => Ok(s.spec.template_mut().spec_mut()),
        Object::DaemonSet(d) => Ok(d.spec.template_mut().spec_mut()),
        Object::Job(j) => Ok(j.spec.template_mut().spec_mut()),
        Object::CronJob(c) => Ok(c.spec.job_template.spec.template_mut().spec_mut()),
        #[allow(unreachable_patterns)]
        // `%T`: every kind kubeplay serves lives in a Go package named v1.
        other => Err(format!(
            "the object is not a pod or does not have a pod template: *v1.{}",
            other.kind()
        )),
    }
}

/// `setImage`: sets the image of the named container (all for `*`); true when one matched.
fn set_image(containers: &mut [Container], name: &str, image: &str) -> bool {
    let mut found = false;
    for c in containers.iter_mut() {
        if c.name == name || name == "*" {
            found = true;
            c.image = image.to_string();
        }
    }
    found
}

/// `parseCommandArguments` for `--record`: `kubectl <args> --flag=value ...`.
fn change_cause(sub: &str, p: &Parsed) -> String {
    let mut s = format!("kubectl set {sub}");
    for a in &p.args {
        s.push(' ');
        s.push_str(a);
    }
    for (name, value) in p.ordered() {
        s.push_str(&format!(" --{name}={value}"));
    }
    s
}

/// `ResourceList` equality as `apiequality.Semantic` compares quantities (by value).
fn same_quantity(a: &Quantity, b: &Quantity) -> bool {
    match (parse_quantity_milli(&a.0), parse_quantity_milli(&b.0)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Sets limits/requests on one container as `set resources` does (keys given replace those
/// there, the others stay). True when something changed.
fn set_container_resources(
    c: &mut Container,
    limits: &BTreeMap<String, Quantity>,
    requests: &BTreeMap<String, Quantity>,
) -> bool {
    let r = c.resources.get_or_insert_with(Default::default);
    let mut changed = false;
    for (list, new) in [(&mut r.limits, limits), (&mut r.requests, requests)] {
        for (k, q) in new {
            if !list.get(k).is_some_and(|old| same_quantity(old, q)) {
                list.insert(k.clone(), q.clone());
                changed = true;
            }
        }
    }
    if r.limits.is_empty() && r.requests.is_empty() {
        c.resources = None;
    }
    changed
}

fn run_set(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
    setter: Setter,
) -> Result<(), String> {
    let (sub, cmd) = match setter {
        Setter::Image => ("image", "kubectl set image"),
        Setter::Resources => ("resources", "kubectl set resources"),
    };
    let mut flags: Vec<Flag> = COMMON_FLAGS.to_vec();
    if setter == Setter::Resources {
        flags.extend([
            Flag::str("containers").short('c'),
            Flag::str("limits"),
            Flag::str("requests"),
        ]);
    }
    let p = args::parse(cmd, words, &flags)?;
    if p.changed("record") {
        out.eprint("Flag --record has been deprecated, --record will be removed in the future");
    }
    let ns = Namespace::from(&p);
    let dry = DryRun::from(&p)?;
    let output = p.string("output");
    if !output.is_empty() && !matches!(output.as_str(), "name" | "yaml" | "json") {
        return Err(super::output::no_printer(
            &output,
            &["json", "name", "yaml"],
        ));
    }
    let local = p.bool("local");
    let all = p.bool("all");
    let selector = p.string("selector");
    let record = p.bool("record");

    // Complete: the pairs, then the objects.
    let (resources, images) = match setter {
        Setter::Image => {
            let (r, pairs) =
                get_resources_and_pairs(&p.args, "image").map_err(|e| format!("error: {e}"))?;
            (
                r,
                parse_image_pairs(&pairs).map_err(|e| format!("error: {e}"))?,
            )
        }
        Setter::Resources => (p.args.clone(), BTreeMap::new()),
    };
    let (targets, fetch_errs) = if local {
        if !resources.is_empty() {
            return Err("error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'".into());
        }
        // Local objects from the files, unchanged on the server.
        let (docs, e) =
            super::apply::read_objects(&p.strings("filename"), p.bool("recursive"), input, &ns)?;
        let t = docs
            .into_iter()
            .map(|d| Target {
                kind: super::resource::Kind::Obj(d.obj.kind()),
                name: d.obj.meta().name.clone(),
                obj: Some(d.obj),
            })
            .collect();
        (t, e)
    } else {
        infos(sim, &p, &resources, input, &ns, all)?
    };
    if !fetch_errs.is_empty() {
        return Err(fetch_errs.join("\n"));
    }

    // Validate.
    let mut limits = BTreeMap::new();
    let mut requests = BTreeMap::new();
    match setter {
        Setter::Image => {
            let mut errs = vec![];
            if all && !selector.is_empty() {
                errs.push("cannot set --all and --selector at the same time".to_string());
            }
            if resources.is_empty() && p.strings("filename").is_empty() {
                errs.push("one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
            }
            if images.is_empty() {
                errs.push("at least one image update is required".into());
            } else if images.len() > 1 && images.contains_key("*") {
                errs.push("all containers are already specified by *, but saw more than one container_name=container_image pairs".into());
            }
            if local && dry == DryRun::Server {
                errs.push(
                    "cannot specify --local and --dry-run=server - did you mean --dry-run=client?"
                        .into(),
                );
            }
            match errs.len() {
                0 => {}
                1 => return Err(format!("error: {}", errs[0])),
                _ => return Err(errs.join("\n")),
            }
        }
        Setter::Resources => {
            if local && dry == DryRun::Server {
                return Err("error: cannot specify --local and --dry-run=server - did you mean --dry-run=client?".into());
            }
            if all && !selector.is_empty() {
                return Err("error: cannot set --all and --selector at the same time".into());
            }
            let (l, r) = (p.string("limits"), p.string("requests"));
            if l.is_empty() && r.is_empty() {
                return Err("error: you must specify an update to requests or limits (in the form of --requests/--limits)".into());
            }
            limits = populate_resource_list(&l).map_err(|e| format!("error: {e}"))?;
            requests = populate_resource_list(&r).map_err(|e| format!("error: {e}"))?;
        }
    }
    let container_selector = p.str("containers").unwrap_or("*").to_string();

    // Run.
    let mut errs: Vec<String> = vec![];
    let operation = match setter {
        Setter::Image => "image updated",
        Setter::Resources => "resource requirements updated",
    };
    for t in targets {
        let Some(before) = t.obj.clone() else {
            errs.push(format!(
                "error: {}/{} the object is not a pod or does not have a pod template: *v1.Event\n",
                t.kind.plural(),
                t.name
            ));
            continue;
        };
        let mut after = before.clone();
        let spec = match pod_spec_of(&mut after) {
            Ok(s) => s,
            Err(e) => {
                // `info.ObjectName()` is `<resource>/<name>`; kubectl keeps the newline.
                errs.push(format!("error: {}/{} {e}\n", t.kind.plural(), t.name));
                continue;
            }
        };
        let mut transformed = true;
        match setter {
            Setter::Image => {
                for (name, image) in &images {
                    let init = set_image(&mut spec.init_containers, name, image);
                    let main = set_image(&mut spec.containers, name, image);
                    if !init && !main {
                        errs.push(format!("error: unable to find container named {name:?}"));
                    }
                }
            }
            Setter::Resources => {
                let mut selected: Vec<&mut Container> = spec
                    .containers
                    .iter_mut()
                    .filter(|c| select_string(&c.name, &container_selector))
                    .collect();
                selected.extend(
                    spec.init_containers
                        .iter_mut()
                        .filter(|c| select_string(&c.name, &container_selector)),
                );
                if selected.is_empty() {
                    errs.push(format!(
                        "error: unable to find container named {container_selector}"
                    ));
                    transformed = false;
                }
                for c in selected {
                    set_container_resources(c, &limits, &requests);
                }
            }
        }
        if !transformed {
            continue;
        }
        if record {
            after
                .meta_mut()
                .annotations
                .insert(CHANGE_CAUSE_ANNOTATION.into(), change_cause(sub, &p));
        }
        if after == before {
            // An empty patch: nothing printed.
            continue;
        }
        let name = super::output::name_of(t.kind, &t.name);
        if local || dry == DryRun::Client {
            print_result(out, &output, &name, &after, operation, dry);
            continue;
        }
        let res = super::server_write(sim, dry == DryRun::Server, out, |api| api.update(after));
        match res {
            Ok(actual) => print_result(out, &output, &name, &actual, operation, dry),
            Err(e) => errs.push(match setter {
                Setter::Image => format!(
                    "failed to patch image update to pod template: {}",
                    e.message
                ),
                Setter::Resources => format!(
                    "failed to patch resources update to pod template {}",
                    e.message
                ),
            }),
        }
    }
    match errs.len() {
        0 => Ok(()),
        1 if !errs[0].starts_with("error: ") => Err(format!("error: {}", errs[0])),
        _ => Err(errs
            .iter()
            .map(|e| e.trim_end_matches('\n'))
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

fn print_result(out: &mut Out, output: &str, name: &str, obj: &Object, op: &str, dry: DryRun) {
    match output {
        "name" => out.print(name),
        "yaml" | "json" => out.print(&super::output::print_value(
            output,
            &super::output::object_value(obj),
        )),
        _ => out.print(&format!("{name} {op}{}", dry.suffix())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::rollout::tests::{cluster, run_for, NGINX};
    use super::super::testutil::{self, load_fixture};
    use super::super::{execute, execute_with_input};
    use super::*;
    use crate::api::{Deployment, Pod, ReplicaSet};

    fn ok(sim: &mut Simulation, cmd: &str) -> String {
        execute(sim, cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }

    fn err(sim: &mut Simulation, cmd: &str) -> String {
        execute(sim, cmd).expect_err(cmd)
    }

    fn deployment(sim: &Simulation, name: &str) -> Deployment {
        sim.api
            .store
            .get::<Deployment>("default", name)
            .cloned()
            .unwrap()
    }

    fn images(d: &Deployment) -> Vec<String> {
        d.spec
            .template
            .spec
            .containers
            .iter()
            .map(|c| c.image.clone())
            .collect()
    }

    const TWO: &str = "apiVersion: apps/v1
kind: Deployment
metadata: {name: two}
spec:
  replicas: 1
  selector: {matchLabels: {app: two}}
  template:
    metadata: {labels: {app: two}}
    spec:
      initContainers:
      - {name: init, image: busybox}
      containers:
      - {name: web, image: nginx}
      - {name: sidecar, image: envoy}
";

    #[test]
    fn pairs_and_quantities() {
        let a = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            get_resources_and_pairs(&a("deployment/x nginx=nginx:1 c-"), "image").unwrap(),
            (a("deployment/x"), a("nginx=nginx:1 c-"))
        );
        assert_eq!(
            get_resources_and_pairs(&a("deployment nginx=nginx:1 x"), "image").unwrap_err(),
            "all resources must be specified before image changes: x"
        );
        assert_eq!(
            parse_image_pairs(&a("a=1 b=2 a=3")).unwrap(),
            [("a".to_string(), "3".to_string()), ("b".into(), "2".into())]
                .into_iter()
                .collect::<BTreeMap<_, _>>()
        );
        assert_eq!(
            parse_image_pairs(&a("a- b=2 c-")).unwrap_err(),
            "invalid image format: a-, c-"
        );
        let l = populate_resource_list("cpu=200m,memory=512Mi,ephemeral-storage=0.5").unwrap();
        assert_eq!(l["cpu"], Quantity("200m".into()));
        assert_eq!(l["memory"], Quantity("512Mi".into()));
        assert_eq!(l["ephemeral-storage"], Quantity("500m".into()));
        assert!(populate_resource_list("").unwrap().is_empty());
        assert_eq!(
            populate_resource_list("cpu").unwrap_err(),
            "Invalid argument syntax cpu, expected <resource>=<value>"
        );
        assert_eq!(
            populate_resource_list("cpu=a=b").unwrap_err(),
            "Invalid argument syntax cpu=a=b, expected <resource>=<value>"
        );
        assert!(populate_resource_list("cpu=lots")
            .unwrap_err()
            .starts_with("quantities must match the regular expression"));
    }

    /// `selectString` (pkg/cmd/set/helper.go), quirks included.
    #[test]
    fn container_selection() {
        assert!(select_string("nginx", "*"));
        assert!(select_string("nginx", "nginx"));
        assert!(!select_string("nginx", "ngin"));
        assert!(select_string("nginx", "ng*"));
        assert!(select_string("nginx", "*nx"));
        assert!(!select_string("nginx", "*ng"));
        assert!(!select_string("web", "ng*"));
    }

    /// Port of TestSetImageValidation (pkg/cmd/set/set_image_test.go), through the command.
    #[test]
    fn set_image_validation() {
        let mut sim = cluster();
        assert!(err(&mut sim, "set image")
            .starts_with("error: You must provide one or more resources by argument or filename."));
        assert_eq!(
            err(&mut sim, "set image deployment/nginx-deployment"),
            "error: at least one image update is required"
        );
        assert_eq!(
            err(&mut sim, "set image deployment/nginx-deployment test=test *=test"),
            "error: all containers are already specified by *, but saw more than one container_name=container_image pairs"
        );
        assert_eq!(
            err(&mut sim, "set image deployment -l app=nginx --all nginx=x"),
            "error: cannot set --all and --selector at the same time"
        );
        assert_eq!(
            err(&mut sim, "set image deployment nginx=x"),
            "error: resource(s) were provided, but no name was specified"
        );
        assert_eq!(
            err(&mut sim, "set image deployment/nope nginx=x"),
            "Error from server (NotFound): deployments.apps \"nope\" not found"
        );
        assert_eq!(
            err(
                &mut sim,
                "set image deployment/nginx-deployment nginx=x other"
            ),
            "error: all resources must be specified before image changes: other"
        );
        assert_eq!(
            err(&mut sim, "set image deployment/nginx-deployment nginx- "),
            "error: invalid image format: nginx-"
        );
        assert!(err(
            &mut sim,
            "set image deployment/nginx-deployment nginx=x --local"
        )
        .starts_with("error: you must specify resources by --filename when --local is set."));
        assert_eq!(
            images(&deployment(&sim, "nginx-deployment")),
            ["nginx:1.14.2"]
        );
    }

    #[test]
    fn set_image_forms() {
        let mut sim = cluster();
        execute_with_input(&mut sim, "apply -f -", Some(TWO)).unwrap();
        run_for(&mut sim, 30);
        // TYPE NAME form, and an image already set prints nothing.
        assert_eq!(
            ok(
                &mut sim,
                "set image deployment nginx-deployment nginx=nginx:1.16.1"
            ),
            "deployment.apps/nginx-deployment image updated"
        );
        assert_eq!(
            ok(
                &mut sim,
                "set image deployment nginx-deployment nginx=nginx:1.16.1"
            ),
            ""
        );
        let g = deployment(&sim, "nginx-deployment").metadata.generation;
        assert_eq!(g, 2);
        // `*` sets every container, init containers included.
        assert_eq!(
            ok(&mut sim, "set image deploy/two *=nginx:1.27"),
            "deployment.apps/two image updated"
        );
        let two = deployment(&sim, "two");
        assert_eq!(images(&two), ["nginx:1.27", "nginx:1.27"]);
        assert_eq!(
            two.spec.template.spec.init_containers[0].image,
            "nginx:1.27"
        );
        // Several pairs; an unknown container is an error after the update is printed.
        assert_eq!(
            err(&mut sim, "set image deploy/two web=a:1 sidecar=b:1 y=c:1"),
            "deployment.apps/two image updated\nerror: unable to find container named \"y\""
        );
        assert_eq!(images(&deployment(&sim, "two")), ["a:1", "b:1"]);
        assert_eq!(
            err(&mut sim, "set image deploy/two y=c:1"),
            "error: unable to find container named \"y\""
        );
        // Printers and dry runs.
        assert_eq!(
            ok(&mut sim, "set image deploy/two web=a:2 -o name"),
            "deployment.apps/two"
        );
        assert_eq!(
            ok(&mut sim, "set image deploy/two web=a:3 --dry-run=client"),
            "deployment.apps/two image updated (dry run)"
        );
        assert_eq!(
            ok(&mut sim, "set image deploy/two web=a:3 --dry-run=server"),
            "deployment.apps/two image updated (server dry run)"
        );
        assert_eq!(images(&deployment(&sim, "two")), ["a:2", "b:1"]);
        // --all and -l select every deployment.
        assert_eq!(
            ok(&mut sim, "set image deployments --all *=busybox"),
            "deployment.apps/nginx-deployment image updated\ndeployment.apps/two image updated"
        );
        // A kind without a pod template.
        assert_eq!(
            err(&mut sim, "set image node/node-1 a=b"),
            "error: nodes/node-1 the object is not a pod or does not have a pod template: *v1.Node"
        );
    }

    /// `--record` writes the command line into the change-cause, which the rollout history shows
    /// (the docs' older walkthrough).
    #[test]
    fn record_sets_the_change_cause() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        assert_eq!(
            ok(
                &mut sim,
                "set image deployment/nginx-deployment nginx=nginx:1.16.1 --record"
            ),
            "Flag --record has been deprecated, --record will be removed in the future\ndeployment.apps/nginx-deployment image updated"
        );
        let cause =
            "kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1 --record=true";
        assert_eq!(
            deployment(&sim, "nginx-deployment").metadata.annotations[CHANGE_CAUSE_ANNOTATION],
            cause
        );
        run_for(&mut sim, 60);
        assert_eq!(
            ok(&mut sim, "rollout history deployment/nginx-deployment"),
            format!("deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml\n2         {cause}")
        );
    }

    /// ReplicaSets, ReplicationControllers and Pods are edited in place (port of
    /// TestSetImageRemote's kinds, pkg/cmd/set/set_image_test.go).
    #[test]
    fn set_image_on_other_kinds() {
        let mut sim = testutil::sim();
        load_fixture(&mut sim);
        sim.api
            .load(Object::ReplicationController(
                testutil::replication_controller("rc", 1),
            ))
            .unwrap();
        assert_eq!(
            ok(&mut sim, "set image rs/frontend nginx=nginx:1.28"),
            "replicaset.apps/frontend image updated"
        );
        assert_eq!(
            sim.api
                .store
                .get::<ReplicaSet>("default", "frontend")
                .unwrap()
                .spec
                .template
                .spec
                .containers[0]
                .image,
            "nginx:1.28"
        );
        assert_eq!(
            ok(&mut sim, "set image rc rc nginx=nginx:1.28"),
            "replicationcontroller/rc image updated"
        );
        assert_eq!(
            ok(&mut sim, "set image pod/bare nginx=nginx:1.28"),
            "pod/bare image updated"
        );
        assert_eq!(
            sim.api
                .store
                .get::<Pod>("default", "bare")
                .unwrap()
                .spec
                .containers[0]
                .image,
            "nginx:1.28"
        );
        // --local with -f prints without touching the server.
        let out = execute_with_input(
            &mut sim,
            "set image -f - nginx=nginx:9 --local -o yaml",
            Some(NGINX),
        )
        .unwrap();
        assert!(out.contains("image: nginx:9"), "{out}");
        assert!(sim
            .api
            .store
            .get::<Deployment>("default", "nginx-deployment")
            .is_none());
    }

    #[test]
    fn set_resources() {
        let mut sim = cluster();
        execute_with_input(&mut sim, "apply -f -", Some(TWO)).unwrap();
        run_for(&mut sim, 30);
        assert_eq!(
            ok(
                &mut sim,
                "set resources deployment/nginx-deployment -c=nginx --limits=cpu=200m,memory=512Mi"
            ),
            "deployment.apps/nginx-deployment resource requirements updated"
        );
        let r = deployment(&sim, "nginx-deployment")
            .spec
            .template
            .spec
            .containers[0]
            .resources
            .clone()
            .unwrap();
        assert_eq!(r.limits["cpu"], Quantity("200m".into()));
        assert_eq!(r.limits["memory"], Quantity("512Mi".into()));
        assert!(r.requests.is_empty());
        // Same values (even written differently): no change, nothing printed.
        assert_eq!(
            ok(
                &mut sim,
                "set resources deployment/nginx-deployment --limits=cpu=0.2,memory=512Mi"
            ),
            ""
        );
        // Every container by default (init containers too); wildcards.
        assert_eq!(
            ok(
                &mut sim,
                "set resources deploy two --requests=cpu=100m,memory=256Mi"
            ),
            "deployment.apps/two resource requirements updated"
        );
        let two = deployment(&sim, "two");
        for c in two
            .spec
            .template
            .spec
            .containers
            .iter()
            .chain(&two.spec.template.spec.init_containers)
        {
            let r = c.resources.as_ref().unwrap();
            assert_eq!(r.requests["memory"], Quantity("256Mi".into()), "{}", c.name);
        }
        assert_eq!(
            ok(
                &mut sim,
                "set resources deploy two -c 'side*' --limits=cpu=1"
            ),
            "deployment.apps/two resource requirements updated"
        );
        let two = deployment(&sim, "two");
        assert!(two.spec.template.spec.containers[0]
            .resources
            .as_ref()
            .unwrap()
            .limits
            .is_empty());
        assert_eq!(
            two.spec.template.spec.containers[1]
                .resources
                .as_ref()
                .unwrap()
                .limits["cpu"],
            Quantity("1".into())
        );
        // Errors.
        assert_eq!(
            err(&mut sim, "set resources deploy two -c nope --limits=cpu=1"),
            "error: unable to find container named nope"
        );
        assert_eq!(
            err(&mut sim, "set resources deploy two"),
            "error: you must specify an update to requests or limits (in the form of --requests/--limits)"
        );
        assert_eq!(
            err(&mut sim, "set resources deploy two --limits=cpu"),
            "error: Invalid argument syntax cpu, expected <resource>=<value>"
        );
        assert_eq!(
            err(&mut sim, "set resources deploy two --limits=cpu=x"),
            "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
        // The template change rolls the deployment out: both edits came at the same instant,
        // so the controller saw one new template (one new revision).
        run_for(&mut sim, 60);
        assert_eq!(
            ok(&mut sim, "rollout history deploy/two"),
            "deployment.apps/two \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>"
        );
    }

    const WEB_AND_AGENT: &str = "apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 3
  serviceName: nginx
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - {name: nginx, image: registry.k8s.io/nginx-slim:0.24}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - {name: agent, image: agent:1}
";

    fn sts_ds_cluster() -> Simulation {
        let mut sim = cluster();
        execute_with_input(&mut sim, "apply -f -", Some(WEB_AND_AGENT)).unwrap();
        run_for(&mut sim, 120);
        sim
    }

    /// The controller-revision-hash of every live pod whose name starts with `prefix`.
    fn pod_revisions(sim: &Simulation, prefix: &str) -> Vec<(String, String)> {
        sim.api
            .store
            .list::<Pod>(Some("default"))
            .filter(|p| p.metadata.name.starts_with(prefix))
            .filter(|p| p.metadata.deletion_timestamp.is_none())
            .map(|p| {
                (
                    p.metadata.name.clone(),
                    p.metadata.labels["controller-revision-hash"].clone(),
                )
            })
            .collect()
    }

    /// `UpdatePodSpecForObject` covers StatefulSets and DaemonSets (`*appsv1.StatefulSet`,
    /// `*appsv1.DaemonSet`): the edit rolls them out like a Deployment's.
    #[test]
    fn set_image_on_statefulsets_and_daemonsets() {
        use crate::api::{DaemonSet, StatefulSet};
        let mut sim = sts_ds_cluster();
        let before = pod_revisions(&sim, "web-");
        assert_eq!(before.len(), 3, "{before:?}");
        assert_eq!(
            ok(
                &mut sim,
                "set image statefulset/web nginx=registry.k8s.io/nginx-slim:0.25"
            ),
            "statefulset.apps/web image updated"
        );
        // Already as asked: nothing printed.
        assert_eq!(
            ok(
                &mut sim,
                "set image sts web nginx=registry.k8s.io/nginx-slim:0.25"
            ),
            ""
        );
        assert_eq!(
            err(&mut sim, "set image sts/web nope=x"),
            "error: unable to find container named \"nope\""
        );
        assert_eq!(
            err(&mut sim, "set image sts/nope nginx=x"),
            "Error from server (NotFound): statefulsets.apps \"nope\" not found"
        );
        assert_eq!(
            ok(&mut sim, "set image ds/agent agent=agent:2"),
            "daemonset.apps/agent image updated"
        );
        assert_eq!(
            ok(
                &mut sim,
                "set image daemonset agent *=agent:2 --dry-run=client"
            ),
            ""
        );
        // The rolling updates: every web pod and every agent pod ends on the update revision.
        run_for(&mut sim, 300);
        let sts = sim
            .api
            .store
            .get::<StatefulSet>("default", "web")
            .cloned()
            .unwrap();
        assert_eq!(
            sts.spec.template.spec.containers[0].image,
            "registry.k8s.io/nginx-slim:0.25"
        );
        assert_ne!(sts.status.update_revision, "");
        assert_eq!(sts.status.current_revision, sts.status.update_revision);
        let after = pod_revisions(&sim, "web-");
        assert_eq!(after.len(), 3);
        // A StatefulSet pod's controller-revision-hash is the full revision name.
        let update_hash = sts.status.update_revision.clone();
        for ((name, old), (_, new)) in before.iter().zip(&after) {
            assert_ne!(old, new, "{name}");
            assert_eq!(*new, update_hash, "{name}");
        }
        let ds = sim
            .api
            .store
            .get::<DaemonSet>("default", "agent")
            .cloned()
            .unwrap();
        assert_eq!(ds.spec.template.spec.containers[0].image, "agent:2");
        assert!(ds.status.desired_number_scheduled > 0);
        assert_eq!(
            ds.status.updated_number_scheduled,
            ds.status.desired_number_scheduled
        );
        for p in sim.api.store.list::<Pod>(Some("default")) {
            if p.metadata.name.starts_with("agent-") && p.metadata.deletion_timestamp.is_none() {
                assert_eq!(p.spec.containers[0].image, "agent:2", "{}", p.metadata.name);
            }
        }
    }

    #[test]
    fn set_resources_on_statefulsets_and_daemonsets() {
        use crate::api::{DaemonSet, StatefulSet};
        let mut sim = sts_ds_cluster();
        assert_eq!(
            ok(
                &mut sim,
                "set resources sts/web --requests=cpu=100m --limits=memory=64Mi"
            ),
            "statefulset.apps/web resource requirements updated"
        );
        assert_eq!(
            ok(
                &mut sim,
                "set resources daemonset/agent -c agent --requests=cpu=50m -o name"
            ),
            "daemonset.apps/agent"
        );
        assert_eq!(
            err(&mut sim, "set resources ds/agent -c nope --requests=cpu=1"),
            "error: unable to find container named nope"
        );
        let sts = sim.api.store.get::<StatefulSet>("default", "web").unwrap();
        let r = sts.spec.template.spec.containers[0]
            .resources
            .clone()
            .unwrap();
        assert_eq!(r.requests["cpu"], Quantity("100m".into()));
        assert_eq!(r.limits["memory"], Quantity("64Mi".into()));
        let ds = sim.api.store.get::<DaemonSet>("default", "agent").unwrap();
        let r = ds.spec.template.spec.containers[0]
            .resources
            .clone()
            .unwrap();
        assert_eq!(r.requests["cpu"], Quantity("50m".into()));
        // A new revision is rolled out: web-2 is replaced first (highest ordinal).
        let web2 = pod_revisions(&sim, "web-2");
        run_for(&mut sim, 300);
        let sts = sim.api.store.get::<StatefulSet>("default", "web").unwrap();
        assert_eq!(sts.status.current_revision, sts.status.update_revision);
        assert_eq!(sts.status.updated_replicas, 3);
        assert_ne!(pod_revisions(&sim, "web-2"), web2);
    }

    #[test]
    fn set_subcommands() {
        let mut sim = cluster();
        let help = err(&mut sim, "set");
        assert!(
            help.starts_with("Configure application resources."),
            "{help}"
        );
        assert_eq!(
            err(&mut sim, "set frob x"),
            "error: unknown command \"frob x\"\nSee 'kubectl set -h' for help and examples"
        );
    }
}
