//! `kubectl rollout` (`pkg/cmd/rollout`, `pkg/polymorphichelpers`): status, history, undo,
//! pause, resume and restart for Deployments; status and restart for DaemonSets and StatefulSets.
//!
//! `rollout status` cannot block in a simulation: it prints the deployment's current status
//! line once and returns, which is what kubectl does with `--watch=false` (and what a watching
//! kubectl prints first). Its exit status follows kubectl: 0 unless the rollout exceeded its
//! progress deadline or the arguments are wrong. Run the simulation on and ask again to follow
//! a rollout.
//!
//! `rollout undo` is kubectl's client-side rollback (`DeploymentRollbacker`): it patches the
//! deployment's template from the ReplicaSet of the chosen revision and copies that
//! ReplicaSet's annotations (its `kubernetes.io/change-cause` among them). Modern kubectl never
//! asks the controller to roll back, so no `DeploymentRollback` event is emitted: that event only
//! comes from the legacy `deprecated.deployment.rollback.to` annotation, which the Deployment
//! controller still honours (see `controllers::deployment::rollback`).

use super::args::{self, Flag, Parsed};
use super::resource::{self, Item, Kind};
use super::{apply, usage_error, DryRun, Input, Namespace, Out, DRY_RUN_FLAG};
use crate::api::{Deployment, Object, PodTemplateSpec, ReplicaSet};
use crate::controllers::deployment::rollback::{deployment_revision, rollout_undo, UndoResult};
use crate::controllers::deployment::util::{
    cmp_replica_sets_by_creation_timestamp, equal_ignore_hash, get_deployment_condition,
    is_controlled_by, revision, DEPLOYMENT_PROGRESSING, TIMED_OUT_REASON,
};
use crate::sim::Simulation;
use crate::sort::CollectBTreeMap as _;
use std::collections::BTreeMap;

/// `kubernetes.io/change-cause`.
pub const CHANGE_CAUSE_ANNOTATION: &str = "kubernetes.io/change-cause";
/// The template annotation `rollout restart` sets.
pub const RESTARTED_AT_ANNOTATION: &str = "kubectl.kubernetes.io/restartedAt";

/// The `--filename` / `-R` / `-k` / `-l` flags every rollout subcommand has.
const RESOURCE_FLAGS: [Flag; 4] = [
    Flag::strings("filename").short('f'),
    Flag::bool("recursive").short('R'),
    Flag::str("kustomize").short('k'),
    Flag::str("selector").short('l'),
];

/// The printer flags (`genericclioptions.PrintFlags`).
const PRINT_FLAGS: [Flag; 4] = [
    Flag::str("output").short('o'),
    Flag::bool("allow-missing-template-keys"),
    Flag::bool("show-managed-fields"),
    Flag::str("template"),
];

fn flags(extra: &[Flag], print: bool) -> Vec<Flag> {
    let mut v: Vec<Flag> = RESOURCE_FLAGS.to_vec();
    if print {
        v.extend(PRINT_FLAGS);
    }
    v.extend_from_slice(extra);
    v
}

/// `kubectl rollout` with no subcommand: cobra prints the help and kubectl exits 1.
const ROLLOUT_HELP: &str = "Manage the rollout of one or many resources.

 Valid resource types include:

  *  deployments
  *  daemonsets
  *  statefulsets

Examples:
  # Rollback to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Check the rollout status of a daemonset
  kubectl rollout status daemonset/foo
  
  # Restart a deployment
  kubectl rollout restart deployment/abc
  
  # Restart deployments with the 'app=nginx' label
  kubectl rollout restart deployment --selector=app=nginx

Available Commands:
  history       View rollout history
  pause         Mark the provided resource as paused
  restart       Restart a resource
  resume        Resume a paused resource
  status        Show the status of the rollout
  undo          Undo a previous rollout

Usage:
  kubectl rollout SUBCOMMAND [options]

Use \"kubectl rollout <command> --help\" for more information about a given command.
Use \"kubectl options\" for a list of global command-line options (applies to all commands).";

pub(crate) fn run(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let Some((sub, rest)) = super::split_subcommand(words) else {
        return Err(super::group_without_subcommand(
            "kubectl rollout",
            words,
            ROLLOUT_HELP,
        ));
    };
    match sub.as_str() {
        "status" => run_status(sim, &rest, input, out),
        "history" => run_history(sim, &rest, input, out),
        "undo" => run_undo(sim, &rest, input, out),
        "pause" => run_patch(sim, &rest, input, out, Patcher::Pause),
        "resume" => run_patch(sim, &rest, input, out, Patcher::Resume),
        "restart" => run_patch(sim, &rest, input, out, Patcher::Restart),
        _ => {
            let mut all = vec![sub];
            all.extend(args::parse("kubectl rollout", &rest, &[])?.args);
            Err(usage_error(
                "kubectl rollout",
                &format!("unknown command {:?}", all.join(" ")),
            ))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// kubectl's deploymentutil (pkg/util/deployment)
// ---------------------------------------------------------------------------------------------

/// kubectl's `deploymentutil.GetAllReplicaSets`: the ReplicaSets of the deployment's namespace
/// its selector matches and it controls, sorted by creation (names break ties); the new one is
/// the oldest whose template equals the deployment's (ignoring `pod-template-hash`).
/// Returns (old ones with `spec.replicas != 0`, all old ones, the new one).
pub fn get_all_replica_sets(
    d: &Deployment,
    store: &crate::store::Store,
) -> (Vec<ReplicaSet>, Vec<ReplicaSet>, Option<ReplicaSet>) {
    let Some(Ok(sel)) = d.spec.selector.as_ref().map(|s| s.to_selector()) else {
        return (vec![], vec![], None);
    };
    let mut rss: Vec<ReplicaSet> = store
        .list::<ReplicaSet>(Some(&d.metadata.namespace))
        .filter(|rs| sel.matches(&rs.metadata.labels))
        .filter(|rs| is_controlled_by(&rs.metadata, &d.metadata.uid))
        .cloned()
        .collect();
    crate::sort::sort_by(&mut rss, cmp_replica_sets_by_creation_timestamp);
    let new_rs = rss
        .iter()
        .find(|rs| equal_ignore_hash(&rs.spec.template, &d.spec.template))
        .cloned();
    let mut required = vec![];
    let mut all_old = vec![];
    for rs in rss {
        if new_rs
            .as_ref()
            .is_some_and(|n| n.metadata.uid == rs.metadata.uid)
        {
            continue;
        }
        if rs.replicas() != 0 {
            required.push(rs.clone());
        }
        all_old.push(rs);
    }
    (required, all_old, new_rs)
}

/// All old ReplicaSets then the new one, as kubectl's history and rollback list them.
fn all_replica_sets(d: &Deployment, store: &crate::store::Store) -> Vec<ReplicaSet> {
    let (_, mut all, new_rs) = get_all_replica_sets(d, store);
    all.extend(new_rs);
    all
}

/// `GroupKind.String()`: `ReplicaSet.apps`, `Pod`.
fn group_kind(kind: Kind) -> String {
    if kind.group().is_empty() {
        kind.kind_name().to_string()
    } else {
        format!("{}.{}", kind.kind_name(), kind.group())
    }
}

/// `%v` of a `GroupKindElement` (no String method): `{apps ReplicaSet}`.
fn group_kind_element(kind: Kind) -> String {
    format!("{{{} {}}}", kind.group(), kind.kind_name())
}

/// Kinds `apps.GroupKindElement.Accept` knows (it fails on every other kind).
fn has_kind_visitor(kind: Kind) -> bool {
    matches!(
        kind.kind_name(),
        "DaemonSet"
            | "Deployment"
            | "Job"
            | "Pod"
            | "ReplicaSet"
            | "ReplicationController"
            | "StatefulSet"
            | "CronJob"
    ) && kind != Kind::Event
}

/// `cmdutil.CheckErr` on an aggregate of errors: a single one gets the `error: ` prefix unless
/// it has one or is a server error; several are printed one per line as they are.
fn check_err(errs: Vec<String>) -> Result<(), String> {
    match errs.len() {
        0 => Ok(()),
        1 => {
            let e = &errs[0];
            if e.starts_with("error: ") || e.starts_with("Error from server") {
                Err(e.clone())
            } else {
                Err(format!("error: {e}"))
            }
        }
        _ => Err(errs.join("\n")),
    }
}

/// One visited object: its kind, name and (for stored kinds) the object.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub kind: Kind,
    pub name: String,
    /// `None` for Events (they are not stored objects).
    pub obj: Option<Object>,
}

impl Target {
    fn deployment(&self) -> Option<&Deployment> {
        match &self.obj {
            Some(Object::Deployment(d)) => Some(d),
            _ => None,
        }
    }
}

/// The objects a command's arguments name (`ResourceTypeOrNameArgs(allowEmptySelector, ...)`,
/// `-l`, `-f`), with the errors met on the way (`ContinueOnError`, `Latest`, `Flatten`).
///
/// # Errors
/// The builder's errors (they stop the command before anything is visited).
pub(crate) fn infos(
    sim: &Simulation,
    p: &Parsed,
    resources: &[String],
    input: Input,
    ns: &Namespace,
    allow_empty_selector: bool,
) -> Result<(Vec<Target>, Vec<String>), String> {
    let files = p.strings("filename");
    let mut items = vec![];
    let mut errs = vec![];
    if !files.is_empty() {
        if !resources.is_empty() {
            return Err("error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well".into());
        }
        let (objs, e) = apply::read_objects(&files, p.bool("recursive"), input, ns)?;
        errs.extend(e);
        for doc in objs {
            let o = doc.obj;
            let kind = Kind::Obj(o.kind());
            match resource::get(sim, kind, &o.meta().namespace, &o.meta().name) {
                Ok(Item::Obj(live)) => items.push(Target {
                    kind,
                    name: live.meta().name.clone(),
                    obj: Some(live),
                }),
                Ok(Item::Event(_)) => {}
                Err(e) => errs.push(e),
            }
        }
        return Ok((items, errs));
    }
    let sel = p.str("selector").filter(|s| !s.is_empty());
    let req = resource::build(resources, allow_empty_selector, sel, false)?;
    let (found, e) = resource::visit(sim, &req, Some(ns.name.as_str()), "");
    errs.extend(e);
    for info in found {
        for it in info.items {
            let name = it.name().to_string();
            let obj = match it {
                Item::Obj(o) => Some(o),
                Item::Event(_) => None,
            };
            items.push(Target {
                kind: info.kind,
                name,
                obj,
            });
        }
    }
    Ok((items, errs))
}

/// `required resource not specified` when neither arguments nor files are given.
fn require_resources(p: &Parsed) -> Result<(), String> {
    if p.args.is_empty() && p.strings("filename").is_empty() && p.string("kustomize").is_empty() {
        return Err("error: required resource not specified".into());
    }
    Ok(())
}

/// The `-o` formats kubeplay prints for these commands.
fn check_output(p: &Parsed) -> Result<String, String> {
    let output = p.string("output");
    if !output.is_empty() && !matches!(output.as_str(), "name" | "yaml" | "json") {
        return Err(super::output::no_printer(
            &output,
            &["json", "name", "yaml"],
        ));
    }
    Ok(output)
}

/// The name printer with an operation, or the `-o` printer.
fn print_obj(out: &mut Out, output: &str, kind: Kind, obj: &Object, operation: &str) {
    match output {
        "name" => out.print(&super::output::name_of(kind, &obj.meta().name)),
        "yaml" | "json" => out.print(&super::output::print_value(
            output,
            &super::output::object_value(obj),
        )),
        _ => {
            let op = if operation.is_empty() {
                String::new()
            } else {
                format!(" {operation}")
            };
            out.print(&format!(
                "{}{op}",
                super::output::name_of(kind, &obj.meta().name)
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// rollout status
// ---------------------------------------------------------------------------------------------

/// `DeploymentStatusViewer.Status` (polymorphichelpers/rollout_status.go): the status line
/// (with its newline) and whether the rollout is done.
///
/// # Errors
/// `deployment "x" exceeded its progress deadline`, and the `--revision` mismatch errors.
pub fn deployment_status(d: &Deployment, pin_revision: i64) -> Result<(String, bool), String> {
    let name = &d.metadata.name;
    if pin_revision > 0 {
        let rev = revision(&d.metadata)
            .map_err(|e| format!("cannot get the revision of deployment {name:?}: {e}"))?;
        if pin_revision != rev {
            return Err(format!(
                "desired revision ({pin_revision}) is different from the running revision ({rev})"
            ));
        }
    }
    if d.metadata.generation <= d.status.observed_generation {
        if get_deployment_condition(&d.status, DEPLOYMENT_PROGRESSING)
            .is_some_and(|c| c.reason == TIMED_OUT_REASON)
        {
            return Err(format!(
                "deployment {name:?} exceeded its progress deadline"
            ));
        }
        let s = &d.status;
        if let Some(replicas) = d.spec.replicas {
            if s.updated_replicas < replicas {
                return Ok((format!("Waiting for deployment {name:?} rollout to finish: {} out of {replicas} new replicas have been updated...\n", s.updated_replicas), false));
            }
        }
        if s.replicas > s.updated_replicas {
            return Ok((
                format!(
                    "Waiting for deployment {name:?} rollout to finish: {} old replicas are pending termination...\n",
                    s.replicas - s.updated_replicas
                ),
                false,
            ));
        }
        if s.available_replicas < s.updated_replicas {
            return Ok((
                format!(
                    "Waiting for deployment {name:?} rollout to finish: {} of {} updated replicas are available...\n",
                    s.available_replicas, s.updated_replicas
                ),
                false,
            ));
        }
        return Ok((
            format!("deployment {name:?} successfully rolled out\n"),
            true,
        ));
    }
    Ok((
        "Waiting for deployment spec update to be observed...\n".into(),
        false,
    ))
}

/// `DaemonSetStatusViewer.Status` (the revision is ignored: DaemonSets have no history there).
///
/// # Errors
/// `rollout status is only available for RollingUpdate strategy type` for OnDelete.
pub fn daemon_set_status(d: &crate::api::DaemonSet) -> Result<(String, bool), String> {
    if d.spec.update_strategy.type_ != crate::api::ROLLING_UPDATE_STRATEGY {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let (name, s) = (&d.metadata.name, &d.status);
    if d.metadata.generation <= s.observed_generation {
        if s.updated_number_scheduled < s.desired_number_scheduled {
            return Ok((format!("Waiting for daemon set {name:?} rollout to finish: {} out of {} new pods have been updated...\n", s.updated_number_scheduled, s.desired_number_scheduled), false));
        }
        if s.number_available < s.desired_number_scheduled {
            return Ok((format!("Waiting for daemon set {name:?} rollout to finish: {} of {} updated pods are available...\n", s.number_available, s.desired_number_scheduled), false));
        }
        return Ok((
            format!("daemon set {name:?} successfully rolled out\n"),
            true,
        ));
    }
    Ok((
        "Waiting for daemon set spec update to be observed...\n".into(),
        false,
    ))
}

/// `StatefulSetStatusViewer.Status`. With the API's defaulting every RollingUpdate StatefulSet
/// has a `rollingUpdate` (partition 0), so kubectl reports `partitioned roll out complete`.
///
/// # Errors
/// `rollout status is only available for RollingUpdate strategy type` for OnDelete.
pub fn stateful_set_status(sts: &crate::api::StatefulSet) -> Result<(String, bool), String> {
    let us = &sts.spec.update_strategy;
    if us.type_ != crate::api::ROLLING_UPDATE_STRATEGY {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    let s = &sts.status;
    if s.observed_generation == 0 || sts.metadata.generation > s.observed_generation {
        return Ok((
            "Waiting for statefulset spec update to be observed...\n".into(),
            false,
        ));
    }
    if let Some(r) = sts.spec.replicas {
        if s.ready_replicas < r {
            return Ok((
                format!("Waiting for {} pods to be ready...\n", r - s.ready_replicas),
                false,
            ));
        }
    }
    if let Some(ru) = &us.rolling_update {
        if let (Some(r), Some(p)) = (sts.spec.replicas, ru.partition) {
            if s.updated_replicas < r - p {
                return Ok((format!("Waiting for partitioned roll out to finish: {} out of {} new pods have been updated...\n", s.updated_replicas, r - p), false));
            }
        }
        return Ok((
            format!(
                "partitioned roll out complete: {} new pods have been updated...\n",
                s.updated_replicas
            ),
            true,
        ));
    }
    if s.update_revision != s.current_revision {
        return Ok((
            format!(
                "waiting for statefulset rolling update to complete {} pods at revision {}...\n",
                s.updated_replicas, s.update_revision
            ),
            false,
        ));
    }
    Ok((
        format!(
            "statefulset rolling update complete {} pods at revision {}...\n",
            s.current_replicas, s.current_revision
        ),
        true,
    ))
}

fn run_status(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    const CMD: &str = "kubectl rollout status";
    let f = flags(
        &[
            Flag::bool("watch").short('w'),
            Flag::int("revision"),
            Flag::str("timeout"),
        ],
        false,
    );
    let p = args::parse(CMD, words, &f)?;
    if let Some(t) = p.str("timeout") {
        // pflag's DurationVar: `time.ParseDuration`, its error after pflag's `%q` of the value.
        if let Err(e) = crate::cron::parser::parse_go_duration(t) {
            return Err(format!(
                "error: invalid argument {} for \"--timeout\" flag: {e}\nSee '{CMD} --help' for usage.",
                crate::api::errors::go_quote(t)
            ));
        }
    }
    let ns = Namespace::from(&p);
    require_resources(&p)?;
    let pin = p.int("revision", 0);
    if pin < 0 {
        return Err(format!("error: revision must be a positive integer: {pin}"));
    }
    let (items, mut errs) = infos(sim, &p, &p.args, input, &ns, true)?;
    let found = !items.is_empty();
    for t in items {
        // `StatusViewerFor`: Deployments, DaemonSets and StatefulSets.
        // The first watch event is the current object: its status line is printed, and a
        // finished rollout (or `--watch=false`) ends the watch. A watching kubectl would go on
        // printing lines as the status changes; the simulation cannot block, so it stops here.
        let status = match &t.obj {
            Some(Object::Deployment(d)) => deployment_status(d, pin),
            Some(Object::DaemonSet(d)) => daemon_set_status(d),
            Some(Object::StatefulSet(s)) => stateful_set_status(s),
            _ => {
                errs.push(format!(
                    "no status viewer has been implemented for {}",
                    group_kind(t.kind)
                ));
                continue;
            }
        };
        match status {
            Ok((line, _done)) => out.print(&line),
            Err(e) => errs.push(e),
        }
    }
    if errs.is_empty() && !found {
        out.eprint(&format!("No resources found in {} namespace.", ns.name));
    }
    check_err(errs)
}

// ---------------------------------------------------------------------------------------------
// rollout history
// ---------------------------------------------------------------------------------------------

/// `DeploymentHistoryViewer.ViewHistory` over the deployment's ReplicaSets (old ones then the
/// new one, as `GetAllReplicaSets` returns them): the `REVISION  CHANGE-CAUSE` table, or for a
/// revision its pod template as `DescribePodTemplate` writes it (tabs kept: kubectl prints it
/// through a bare PrefixWriter). ReplicaSets whose revision does not parse are skipped (kubectl
/// logs a warning); those without one are revision 0.
///
/// # Errors
/// `unable to find the specified revision`.
pub fn view_history(rss: &[ReplicaSet], pin_revision: i64) -> Result<String, String> {
    let mut history: BTreeMap<i64, Box<PodTemplateSpec>> = BTreeMap::new();
    for rs in rss {
        let Ok(v) = revision(&rs.metadata) else {
            continue;
        };
        let mut t = crate::api::PodTemplateSpec::clone(&rs.spec.template);
        if let Some(cause) = rs
            .metadata
            .annotations
            .get(CHANGE_CAUSE_ANNOTATION)
            .filter(|c| !c.is_empty())
        {
            t.metadata
                .annotations
                .insert(CHANGE_CAUSE_ANNOTATION.into(), cause.clone());
        }
        history.insert(v, Box::new(t));
    }
    if history.is_empty() {
        return Ok("No rollout history found.".into());
    }
    if pin_revision > 0 {
        let t = history
            .get(&pin_revision)
            .ok_or("unable to find the specified revision")?;
        return Ok(super::describe::pod_template_text(t));
    }
    let mut table = String::from("REVISION\tCHANGE-CAUSE\n");
    for (r, t) in &history {
        let cause = t
            .metadata
            .annotations
            .get(CHANGE_CAUSE_ANNOTATION)
            .filter(|c| !c.is_empty())
            .map_or("<none>", String::as_str);
        table.push_str(&format!("{r}\t{cause}\n"));
    }
    // `tabbedString`: minwidth 0, tabwidth 8, padding 2.
    Ok(super::tabwriter::format(&table, 0, 2))
}

/// `DeploymentHistoryViewer.GetHistory`: the ReplicaSet of each revision.
fn get_history(rss: &[ReplicaSet]) -> BTreeMap<i64, Box<ReplicaSet>> {
    let mut m = BTreeMap::new();
    for rs in rss {
        if let Ok(v) = revision(&rs.metadata) {
            m.insert(v, Box::new(rs.clone()));
        }
    }
    m
}

/// `HistoryViewerFor`'s errors for kinds without history.
/// `statefulSetHistory` / `daemonSetHistory`: the ControllerRevisions matching the set's
/// selector and controlled by it (`controlledHistories`), for StatefulSets and DaemonSets.
fn set_histories(
    store: &crate::store::Store,
    obj: &Object,
) -> Option<Vec<crate::api::ControllerRevision>> {
    let selector = match obj {
        Object::StatefulSet(s) => s.spec.selector.clone(),
        Object::DaemonSet(d) => d.spec.selector.clone(),
        _ => return None,
    };
    let m = obj.meta();
    let sel = selector.unwrap_or_default().to_selector().ok();
    let mut out: Vec<crate::api::ControllerRevision> = store
        .list::<crate::api::ControllerRevision>(Some(&m.namespace))
        .filter(|cr| sel.as_ref().is_some_and(|s| s.matches(&cr.metadata.labels)))
        .filter(|cr| cr.metadata.controller_ref().is_some_and(|r| r.uid == m.uid))
        .cloned()
        .collect();
    crate::sort::sort_by(&mut out, |a, b| {
        a.revision
            .cmp(&b.revision)
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    Some(out)
}

/// The pod template a StatefulSet / DaemonSet revision restores: its data is a strategic merge
/// patch replacing `spec.template` (`$patch: replace`), so applying it yields that template.
fn revision_template(cr: &crate::api::ControllerRevision) -> Result<PodTemplateSpec, String> {
    let mut t = cr
        .data
        .as_ref()
        .and_then(|d| d.get("spec"))
        .and_then(|s| s.get("template"))
        .cloned()
        .ok_or_else(|| format!("unable to parse history {}", cr.metadata.name))?;
    if let Some(m) = t.as_object_mut() {
        m.remove("$patch");
    }
    crate::api::value_de::from_value(t)
        .map_err(|_| format!("unable to parse history {}", cr.metadata.name))
}

/// `printHistory` over ControllerRevisions.
///
/// # Errors
/// `unable to find the specified revision`, `unable to parse history NAME`.
pub fn view_set_history(
    history: &[crate::api::ControllerRevision],
    pin_revision: i64,
) -> Result<String, String> {
    let info: BTreeMap<i64, &crate::api::ControllerRevision> =
        history.iter().map(|h| (h.revision, h)).collect_btree_map();
    if info.is_empty() {
        return Ok("No rollout history found.".into());
    }
    if pin_revision > 0 {
        let h = info
            .get(&pin_revision)
            .ok_or("unable to find the specified revision")?;
        return Ok(super::describe::pod_template_text(&revision_template(h)?));
    }
    let mut table = String::from("REVISION\tCHANGE-CAUSE\n");
    for (r, h) in &info {
        let cause = h
            .metadata
            .annotations
            .get(CHANGE_CAUSE_ANNOTATION)
            .filter(|c| !c.is_empty())
            .map_or("<none>", String::as_str);
        table.push_str(&format!("{r}\t{cause}\n"));
    }
    Ok(super::tabwriter::format(&table, 0, 2))
}

/// `StatefulSetRollbacker` / `DaemonSetRollbacker`: the object with the chosen revision's
/// template, or the skip message.
///
/// # Errors
/// `no last revision to roll back to`, `unable to find specified revision N in history`.
fn set_rollback(
    obj: &Object,
    history: &[crate::api::ControllerRevision],
    to_revision: i64,
) -> Result<(PodTemplateSpec, Option<Object>), String> {
    let not_found = || format!("unable to find specified revision {to_revision} in history");
    if to_revision < 0 {
        return Err(not_found());
    }
    if to_revision == 0 && history.len() <= 1 {
        return Err("no last revision to roll back to".into());
    }
    // `findHistory`: the second-highest revision for 0.
    let to = if to_revision == 0 {
        history.get(history.len() - 2)
    } else {
        history.iter().find(|h| h.revision == to_revision)
    }
    .ok_or_else(not_found)?;
    let template = revision_template(to)?;
    let mut patched = obj.clone();
    let current = match &mut patched {
        Object::StatefulSet(s) => &mut s.spec.template,
        Object::DaemonSet(d) => &mut d.spec.template,
        _ => return Err(not_found()),
    };
    if **current == template {
        return Ok((template, None));
    }
    *current = std::sync::Arc::new(template.clone());
    Ok((template, Some(patched)))
}

fn history_viewer_error(kind: Kind) -> String {
    if has_kind_visitor(kind) {
        format!(
            "no history viewer has been implemented for {:?}",
            group_kind(kind)
        )
    } else {
        format!(
            "error retrieving history for {:?}, no visitor method exists for {}",
            group_kind(kind),
            group_kind_element(kind)
        )
    }
}

fn run_history(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let f = flags(&[Flag::int("revision")], true);
    let p = args::parse("kubectl rollout history", words, &f)?;
    let ns = Namespace::from(&p);
    let output = check_output(&p)?;
    require_resources(&p)?;
    let pin = p.int("revision", 0);
    if pin < 0 {
        return Err(format!("error: revision must be a positive integer: {pin}"));
    }
    let (items, mut errs) = infos(sim, &p, &p.args, input, &ns, true)?;
    let mut yaml_docs = 0;
    for t in items {
        if let Some(history) = t
            .obj
            .as_ref()
            .and_then(|o| set_histories(&sim.api.store, o))
        {
            // StatefulSets and DaemonSets: the ControllerRevision history.
            if !output.is_empty() {
                // `GetHistory`: per revision, the set with that revision's template applied
                // (`applyStatefulSetHistory` / `applyDaemonSetHistory`), through the -o printer.
                let obj = t.obj.as_ref().expect("a set history comes from an object");
                let mut by_revision: BTreeMap<i64, &crate::api::ControllerRevision> =
                    BTreeMap::new();
                for h in &history {
                    by_revision.insert(h.revision, h);
                }
                let chosen: Vec<&crate::api::ControllerRevision> = if pin > 0 {
                    match by_revision.get(&pin) {
                        Some(h) => vec![*h],
                        None => {
                            errs.push("unable to find the specified revision".into());
                            continue;
                        }
                    }
                } else {
                    by_revision.values().copied().collect()
                };
                for h in chosen {
                    let template = match revision_template(h) {
                        Ok(t) => t,
                        Err(e) => {
                            errs.push(e);
                            break;
                        }
                    };
                    let mut applied = obj.clone();
                    match &mut applied {
                        Object::StatefulSet(s) => s.spec.template = std::sync::Arc::new(template),
                        Object::DaemonSet(d) => d.spec.template = std::sync::Arc::new(template),
                        _ => {}
                    }
                    if output == "yaml" {
                        yaml_docs += 1;
                        if yaml_docs > 1 {
                            out.print("---");
                        }
                    }
                    print_obj(out, &output, t.kind, &applied, "");
                }
                continue;
            }
            match view_set_history(&history, pin) {
                Ok(text) => {
                    let with_revision = if pin > 0 {
                        format!("with revision #{pin}")
                    } else {
                        String::new()
                    };
                    out.print(&format!(
                        "{} {with_revision}\n{text}\n",
                        super::output::name_of(t.kind, &t.name)
                    ));
                }
                Err(e) => errs.push(e),
            }
            continue;
        }
        let Some(d) = t.deployment() else {
            errs.push(history_viewer_error(t.kind));
            continue;
        };
        let rss = all_replica_sets(d, &sim.api.store);
        if !output.is_empty() {
            // The ReplicaSets themselves, through the -o printer.
            let history = get_history(&rss);
            let chosen: Vec<&ReplicaSet> = if pin > 0 {
                match history.get(&pin) {
                    Some(rs) => vec![rs],
                    None => {
                        errs.push("unable to find the specified revision".into());
                        continue;
                    }
                }
            } else {
                history.values().map(|rs| &**rs).collect()
            };
            for rs in chosen {
                let o = Object::ReplicaSet(rs.clone());
                if output == "yaml" {
                    yaml_docs += 1;
                    if yaml_docs > 1 {
                        out.print("---");
                    }
                }
                print_obj(out, &output, Kind::Obj("ReplicaSet"), &o, "");
            }
            continue;
        }
        match view_history(&rss, pin) {
            Ok(text) => {
                let with_revision = if pin > 0 {
                    format!("with revision #{pin}")
                } else {
                    String::new()
                };
                // The name printer with operation "<withRevision>\n<history>": hence the
                // space after the name and the empty line at the end.
                out.print(&format!(
                    "{} {with_revision}\n{text}\n",
                    super::output::name_of(t.kind, &d.metadata.name)
                ));
            }
            Err(e) => errs.push(e),
        }
    }
    check_err(errs)
}

// ---------------------------------------------------------------------------------------------
// rollout undo
// ---------------------------------------------------------------------------------------------

fn run_undo(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
) -> Result<(), String> {
    let f = flags(&[Flag::int("to-revision"), DRY_RUN_FLAG], true);
    let p = args::parse("kubectl rollout undo", words, &f)?;
    let ns = Namespace::from(&p);
    let dry = DryRun::from(&p)?;
    let output = check_output(&p)?;
    require_resources(&p)?;
    let to_revision = p.int("to-revision", 0);
    let (items, mut errs) = infos(sim, &p, &p.args, input, &ns, true)?;
    for t in items {
        let kind = t.kind;
        if let Some(obj) = t.obj.as_ref() {
            if let Some(history) = set_histories(&sim.api.store, obj) {
                match set_rollback(obj, &history, to_revision) {
                    Err(e) => errs.push(e),
                    Ok((template, _)) if dry == DryRun::Client => {
                        let text = super::describe::pod_template_text(&template);
                        print_obj(
                            out,
                            &output,
                            kind,
                            obj,
                            &format!("will roll back to {text} (dry run)"),
                        );
                    }
                    Ok((_, None)) => print_obj(
                        out,
                        &output,
                        kind,
                        obj,
                        &format!(
                            "skipped rollback (current template already matches revision {to_revision})"
                        ),
                    ),
                    Ok((_, Some(patched))) => {
                        let res = super::server_write(sim, dry == DryRun::Server, out, |api| {
                            api.update(patched)
                        });
                        match res {
                            Ok(_) => print_obj(
                                out,
                                &output,
                                kind,
                                obj,
                                &format!("rolled back{}", dry.suffix()),
                            ),
                            Err(e) => errs.push(format!(
                                "failed restoring revision {to_revision}: {}",
                                e.message
                            )),
                        }
                    }
                }
                continue;
            }
        }
        let (Some(d), Some(obj)) = (t.deployment(), t.obj.as_ref()) else {
            // `RollbackerFor`.
            errs.push(if has_kind_visitor(kind) {
                format!(
                    "no rollbacker has been implemented for {:?}",
                    group_kind(kind)
                )
            } else {
                format!(
                    "error retrieving rollbacker for {:?}, no visitor method exists for {}",
                    group_kind(kind),
                    group_kind_element(kind)
                )
            });
            continue;
        };
        let rss = all_replica_sets(d, &sim.api.store);
        if dry == DryRun::Client {
            // kubectl prints the template it would restore as the "operation".
            let res = if to_revision < 0 {
                Err(format!(
                    "unable to find specified revision {to_revision} in history"
                ))
            } else {
                deployment_revision(d, &rss, to_revision)
            };
            match res {
                Ok(rs) => {
                    let text = super::describe::pod_template_text(&rs.spec.template);
                    print_obj(out, &output, kind, obj, &format!("{text} (dry run)"));
                }
                Err(e) => errs.push(e),
            }
            continue;
        }
        match rollout_undo(d, &rss, to_revision) {
            Err(e) => errs.push(e),
            Ok(UndoResult::Skipped(msg)) => print_obj(out, &output, kind, obj, &msg),
            Ok(UndoResult::RolledBack(patched)) => {
                // The JSON patch replacing /spec/template and /metadata/annotations.
                let patched = Object::Deployment(*patched);
                let res =
                    super::server_write(sim, dry == DryRun::Server, out, |api| api.update(patched));
                match res {
                    // kubectl prints the object it read before the patch.
                    Ok(_) => print_obj(
                        out,
                        &output,
                        kind,
                        obj,
                        &format!("rolled back{}", dry.suffix()),
                    ),
                    Err(e) => errs.push(format!(
                        "failed restoring revision {to_revision}: {}",
                        e.message
                    )),
                }
            }
        }
    }
    check_err(errs)
}

// ---------------------------------------------------------------------------------------------
// rollout pause / resume / restart
// ---------------------------------------------------------------------------------------------

/// The object mutators behind pause, resume and restart (`ObjectPauserFn`, `ObjectResumerFn`,
/// `ObjectRestarterFn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Patcher {
    Pause,
    Resume,
    Restart,
}

impl Patcher {
    fn name(self) -> &'static str {
        match self {
            Patcher::Pause => "pause",
            Patcher::Resume => "resume",
            Patcher::Restart => "restart",
        }
    }

    /// Mutates the object as kubectl's pauser/resumer/restarter do (`now` is the restart time).
    ///
    /// # Errors
    /// The helper's message, printed after `<resource> "<name>"`: `is already paused`,
    /// `is not paused`, `can't restart paused deployment ...`, `pausing is not supported`, ...
    pub fn mutate(self, obj: Option<&mut Object>, now: crate::api::Time) -> Result<(), String> {
        // `defaultObjectRestarter` also restarts DaemonSets and StatefulSets (no pause check).
        if self == Patcher::Restart {
            let template = match obj {
                Some(Object::DaemonSet(d)) => Some(d.spec.template_mut()),
                Some(Object::StatefulSet(s)) => Some(s.spec.template_mut()),
                _ => None,
            };
            if let Some(t) = template {
                t.metadata
                    .annotations
                    .insert(RESTARTED_AT_ANNOTATION.into(), now.to_rfc3339());
                return Ok(());
            }
        }
        let Some(Object::Deployment(d)) = obj else {
            return Err(match self {
                Patcher::Pause => "pausing is not supported",
                Patcher::Resume => "resuming is not supported",
                Patcher::Restart => "restarting is not supported",
            }
            .into());
        };
        match self {
            Patcher::Pause => {
                if d.spec.paused {
                    return Err("is already paused".into());
                }
                d.spec.paused = true;
            }
            Patcher::Resume => {
                if !d.spec.paused {
                    return Err("is not paused".into());
                }
                d.spec.paused = false;
            }
            Patcher::Restart => {
                if d.spec.paused {
                    return Err("can't restart paused deployment (run rollout resume first)".into());
                }
                // `time.Now().Format(time.RFC3339)`: the simulated now, in UTC.
                d.spec
                    .template_mut()
                    .metadata
                    .annotations
                    .insert(RESTARTED_AT_ANNOTATION.into(), now.to_rfc3339());
            }
        }
        Ok(())
    }
}

fn run_patch(
    sim: &mut Simulation,
    words: &[String],
    input: Input,
    out: &mut Out,
    patcher: Patcher,
) -> Result<(), String> {
    let cmd = format!("kubectl rollout {}", patcher.name());
    let f = flags(&[Flag::str("field-manager")], true);
    let p = args::parse(&cmd, words, &f)?;
    let ns = Namespace::from(&p);
    let output = check_output(&p)?;
    require_resources(&p)?;
    let (items, mut errs) = infos(sim, &p, &p.args, input, &ns, true)?;
    if items.is_empty() && errs.is_empty() {
        out.eprint(&format!("No resources found in {} namespace.", ns.name));
        return Ok(());
    }
    let now = sim.now();
    for t in items {
        let (kind, name) = (t.kind, t.name.clone());
        let mut changed = t.obj.clone();
        if let Err(e) = patcher.mutate(changed.as_mut(), now) {
            errs.push(format!("error: {} {name:?} {e}", kind.qualified_resource()));
            continue;
        }
        let (Some(obj), Some(changed)) = (t.obj, changed) else {
            continue;
        };
        if changed == obj {
            // An empty patch.
            match patcher {
                Patcher::Restart => errs.push(format!("failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another")),
                Patcher::Pause => print_obj(out, &output, kind, &obj, "already paused"),
                Patcher::Resume => print_obj(out, &output, kind, &obj, "already resumed"),
            }
            continue;
        }
        match super::server_write(sim, false, out, |api| api.update(changed)) {
            Ok(updated) => {
                let op = match patcher {
                    Patcher::Pause => "paused",
                    Patcher::Resume => "resumed",
                    Patcher::Restart => "restarted",
                };
                print_obj(out, &output, kind, &updated, op);
            }
            Err(e) => errs.push(format!("failed to patch: {}", e.message)),
        }
    }
    check_err(errs)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::testutil::labels;
    use super::super::{execute, execute_with_input};
    use super::*;
    use crate::api::{
        Container, DeploymentCondition, DeploymentSpec, DeploymentStatus, Duration, LabelSelector,
        ObjectMeta, OwnerReference, PodSpec, ReplicaSetSpec,
    };

    pub(crate) const NGINX: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels: {app: nginx}
  annotations:
    kubernetes.io/change-cause: kubectl apply --filename=nginx-deployment.yaml
spec:
  replicas: 3
  progressDeadlineSeconds: 120
  selector:
    matchLabels: {app: nginx}
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
";

    /// A cluster (the default nodes, all controllers) with `nginx-deployment` created at t=0; the kubelet
    /// cannot pull `nginx:1.161` (the docs' typo).
    pub(crate) fn cluster() -> Simulation {
        let s = crate::scenario::Scenario::parse(
            "kind: Scenario\nmetadata: {name: t}\nseed: 12\nkubelet:\n  rules:\n  - match: {image: \"nginx:1.161\"}\n    imagePullError: true\n",
        )
        .unwrap();
        let mut sim = s.build().unwrap();
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(NGINX)).unwrap(),
            "deployment.apps/nginx-deployment created"
        );
        sim
    }

    pub(crate) fn run_for(sim: &mut Simulation, secs: i64) {
        sim.run_for(Duration::from_secs(secs)).unwrap();
    }

    fn ok(sim: &mut Simulation, cmd: &str) -> String {
        execute(sim, cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }

    fn err(sim: &mut Simulation, cmd: &str) -> String {
        execute(sim, cmd).expect_err(cmd)
    }

    fn deployment(sim: &Simulation) -> Deployment {
        sim.api
            .store
            .get::<Deployment>("default", "nginx-deployment")
            .cloned()
            .unwrap()
    }

    /// Port of TestDeploymentStatusViewerStatus (pkg/polymorphichelpers/rollout_status_test.go).
    #[test]
    fn deployment_status_viewer_status() {
        // (generation, spec replicas, observedGeneration, replicas, updated, available,
        //  unavailable, message, done)
        type Case = (i64, i32, i64, i32, i32, i32, i32, &'static str, bool);
        let cases: &[Case] = &[
            (0, 1, 1, 1, 0, 1, 0, "Waiting for deployment \"foo\" rollout to finish: 0 out of 1 new replicas have been updated...\n", false),
            (1, 1, 1, 2, 1, 2, 0, "Waiting for deployment \"foo\" rollout to finish: 1 old replicas are pending termination...\n", false),
            (1, 2, 1, 2, 2, 1, 1, "Waiting for deployment \"foo\" rollout to finish: 1 of 2 updated replicas are available...\n", false),
            (1, 2, 1, 2, 2, 2, 0, "deployment \"foo\" successfully rolled out\n", true),
            (2, 2, 1, 2, 2, 2, 0, "Waiting for deployment spec update to be observed...\n", false),
        ];
        for &(generation, spec, observed, replicas, updated, available, unavailable, msg, done) in
            cases
        {
            let d = Deployment {
                metadata: ObjectMeta {
                    namespace: "bar".into(),
                    name: "foo".into(),
                    uid: "8764ae47-9092-11e4-8393-42010af018ff".into(),
                    generation,
                    ..Default::default()
                },
                spec: (DeploymentSpec {
                    replicas: Some(spec),
                    ..Default::default()
                })
                .into(),
                status: (DeploymentStatus {
                    observed_generation: observed,
                    replicas,
                    updated_replicas: updated,
                    available_replicas: available,
                    unavailable_replicas: unavailable,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            };
            assert_eq!(
                deployment_status(&d, 0),
                Ok((msg.to_string(), done)),
                "generation {generation}"
            );
        }
    }

    /// The progress deadline and `--revision` errors of `DeploymentStatusViewer.Status`.
    #[test]
    fn deployment_status_errors() {
        let mut d = Deployment {
            metadata: ObjectMeta {
                name: "foo".into(),
                generation: 2,
                annotations: labels(&[("deployment.kubernetes.io/revision", "3")]).into(),
                ..Default::default()
            },
            spec: (DeploymentSpec {
                replicas: Some(3),
                ..Default::default()
            })
            .into(),
            status: (DeploymentStatus {
                observed_generation: 2,
                replicas: 4,
                updated_replicas: 1,
                conditions: vec![DeploymentCondition {
                    type_: "Progressing".into(),
                    status: "False".into(),
                    reason: "ProgressDeadlineExceeded".into(),
                    ..Default::default()
                }],
                ..Default::default()
            })
            .into(),
            ..Default::default()
        };
        assert_eq!(
            deployment_status(&d, 0).unwrap_err(),
            "deployment \"foo\" exceeded its progress deadline"
        );
        assert_eq!(
            deployment_status(&d, 2).unwrap_err(),
            "desired revision (2) is different from the running revision (3)"
        );
        assert!(deployment_status(&d, 3).is_err());
        // A lagging observedGeneration hides the condition, as upstream checks it first.
        d.metadata.generation = 3;
        assert_eq!(
            deployment_status(&d, 3),
            Ok((
                "Waiting for deployment spec update to be observed...\n".into(),
                false
            ))
        );
        d.metadata
            .annotations
            .insert("deployment.kubernetes.io/revision".into(), "x".into());
        assert_eq!(
            deployment_status(&d, 1).unwrap_err(),
            "cannot get the revision of deployment \"foo\": strconv.ParseInt: parsing \"x\": invalid syntax"
        );
    }

    fn moons_rs(i: i64) -> ReplicaSet {
        let l = labels(&[("foo", "bar")]);
        let mut annotations = labels(&[("deployment.kubernetes.io/revision", &i.to_string())]);
        if i == 3 {
            annotations.insert(CHANGE_CAUSE_ANNOTATION.into(), "foo change cause".into());
        } else if i == 4 {
            annotations.insert(CHANGE_CAUSE_ANNOTATION.into(), "bar change cause".into());
        }
        ReplicaSet {
            metadata: ObjectMeta {
                name: format!("moons-{i}"),
                namespace: "default".into(),
                uid: format!("00000000-0000-0000-0000-00000000000{i}"),
                labels: l.clone().into(),
                annotations: annotations.into(),
                owner_references: vec![OwnerReference {
                    api_version: "apps/v1".into(),
                    kind: "Deployment".into(),
                    name: "moons".into(),
                    uid: "fc7e66ad-eacc-4413-8277-e22276eacce6".into(),
                    controller: Some(true),
                    block_owner_deletion: None,
                }]
                .into(),
                ..Default::default()
            },
            spec: (ReplicaSetSpec {
                replicas: Some(1),
                selector: Some(LabelSelector::from_labels(&l)),
                template: std::sync::Arc::new(PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels: l.into(),
                        ..Default::default()
                    },
                    spec: std::sync::Arc::new(PodSpec {
                        containers: vec![Container {
                            name: "test".into(),
                            image: format!("foo:{i}"),
                            ..Default::default()
                        }],
                        ..Default::default()
                    }),
                }),
                ..Default::default()
            })
            .into(),
            ..Default::default()
        }
    }

    /// Port of TestViewDeploymentHistory (pkg/polymorphichelpers/history_test.go).
    #[test]
    fn view_deployment_history() {
        let rss: Vec<ReplicaSet> = (1..5).map(moons_rs).collect();
        assert_eq!(
            view_history(&rss, 0).unwrap(),
            "REVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n3         foo change cause\n4         bar change cause\n"
        );
        assert_eq!(
            view_history(&rss, 3).unwrap(),
            "Pod Template:\n  Labels:\tfoo=bar\n  Annotations:\tkubernetes.io/change-cause: foo change cause\n  Containers:\n   test:\n    Image:\tfoo:3\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n"
        );
        let h = get_history(&rss);
        assert_eq!(h.len(), 4);
        assert_eq!(*h[&2], rss[1]);
        assert_eq!(
            view_history(&rss, 9).unwrap_err(),
            "unable to find the specified revision"
        );
        assert_eq!(view_history(&[], 0).unwrap(), "No rollout history found.");
        // A revision that does not parse is skipped; a missing one is revision 0.
        let mut odd = rss.clone();
        odd[0]
            .metadata
            .annotations
            .insert("deployment.kubernetes.io/revision".into(), "one".into());
        odd[1].metadata.annotations.clear();
        assert_eq!(
            view_history(&odd, 0).unwrap(),
            "REVISION  CHANGE-CAUSE\n0         <none>\n3         foo change cause\n4         bar change cause\n"
        );
    }

    /// The whole docs walkthrough through the controllers: update, stuck rollout, history,
    /// undo (with TestRolloutHistory's name-printer layout: a space after the name and an empty
    /// line at the end, which the final trim removes).
    #[test]
    fn rollback_walkthrough_through_the_controllers() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        assert_eq!(
            ok(&mut sim, "rollout status deployment/nginx-deployment"),
            "deployment \"nginx-deployment\" successfully rolled out"
        );
        assert_eq!(
            ok(&mut sim, "rollout history deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml"
        );
        assert_eq!(
            ok(
                &mut sim,
                "set image deployment/nginx-deployment nginx=nginx:1.16.1"
            ),
            "deployment.apps/nginx-deployment image updated"
        );
        // Nothing observed yet: the controller has not synced the new generation.
        assert_eq!(
            ok(&mut sim, "rollout status deploy nginx-deployment"),
            "Waiting for deployment spec update to be observed..."
        );
        run_for(&mut sim, 1);
        assert_eq!(
            ok(&mut sim, "rollout status deploy/nginx-deployment --watch=false"),
            "Waiting for deployment \"nginx-deployment\" rollout to finish: 1 out of 3 new replicas have been updated..."
        );
        ok(
            &mut sim,
            "annotate deployment/nginx-deployment kubernetes.io/change-cause=\"image updated to 1.16.1\"",
        );
        run_for(&mut sim, 60);
        ok(
            &mut sim,
            "set image deployment/nginx-deployment nginx=nginx:1.161",
        );
        ok(
            &mut sim,
            "annotate deployment/nginx-deployment kubernetes.io/change-cause=\"image updated to 1.161\" --overwrite",
        );
        run_for(&mut sim, 30);
        assert_eq!(
            ok(&mut sim, "rollout status deployment/nginx-deployment"),
            "Waiting for deployment \"nginx-deployment\" rollout to finish: 1 out of 3 new replicas have been updated..."
        );
        assert_eq!(
            ok(&mut sim, "rollout history deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml\n2         image updated to 1.16.1\n3         image updated to 1.161"
        );
        let rs2 = sim
            .api
            .store
            .list::<ReplicaSet>(Some("default"))
            .find(|rs| rs.spec.template.spec.containers[0].image == "nginx:1.16.1")
            .unwrap()
            .metadata
            .labels["pod-template-hash"]
            .clone();
        assert_eq!(
            ok(&mut sim, "rollout history deployment/nginx-deployment --revision=2"),
            format!("deployment.apps/nginx-deployment with revision #2\nPod Template:\n  Labels:\tapp=nginx\n\tpod-template-hash={rs2}\n  Annotations:\tkubernetes.io/change-cause: image updated to 1.16.1\n  Containers:\n   nginx:\n    Image:\tnginx:1.16.1\n    Port:\t80/TCP\n    Host Port:\t0/TCP\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>")
        );
        assert_eq!(
            err(
                &mut sim,
                "rollout history deployment/nginx-deployment --revision=7"
            ),
            "error: unable to find the specified revision"
        );
        // Past the 120s progress deadline.
        run_for(&mut sim, 120);
        assert_eq!(
            err(&mut sim, "rollout status deployment/nginx-deployment"),
            "error: deployment \"nginx-deployment\" exceeded its progress deadline"
        );

        // Undo to the previous revision: the template and change-cause of revision 2 come
        // back, the controller makes that ReplicaSet the new one as revision 4.
        let events_before = sim.api.events.len();
        assert_eq!(
            ok(&mut sim, "rollout undo deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment rolled back"
        );
        let d = deployment(&sim);
        assert_eq!(d.spec.template.spec.containers[0].image, "nginx:1.16.1");
        assert!(!d
            .spec
            .template
            .metadata
            .labels
            .contains_key("pod-template-hash"));
        assert_eq!(
            d.metadata.annotations[CHANGE_CAUSE_ANNOTATION],
            "image updated to 1.16.1"
        );
        assert_eq!(
            d.metadata.annotations["deployment.kubernetes.io/revision"],
            "3"
        );
        run_for(&mut sim, 60);
        // kubectl's client-side rollback: no DeploymentRollback event.
        assert!(!sim.api.events[events_before..]
            .iter()
            .any(|e| e.reason == "DeploymentRollback"));
        assert_eq!(
            ok(&mut sim, "rollout status deployment/nginx-deployment"),
            "deployment \"nginx-deployment\" successfully rolled out"
        );
        assert_eq!(
            ok(&mut sim, "rollout history deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml\n3         image updated to 1.161\n4         image updated to 1.16.1"
        );
        assert_eq!(
            ok(&mut sim, "get deploy -o wide"),
            "NAME               READY   UP-TO-DATE   AVAILABLE   AGE    CONTAINERS   IMAGES         SELECTOR\nnginx-deployment   3/3     3            3           5m1s   nginx        nginx:1.16.1   app=nginx"
        );
        assert_eq!(
            ok(&mut sim, "rollout undo deployment/nginx-deployment --to-revision=4"),
            "deployment.apps/nginx-deployment skipped rollback (current template already matches revision 4)"
        );
        assert_eq!(
            err(
                &mut sim,
                "rollout undo deployment/nginx-deployment --to-revision=9"
            ),
            "error: unable to find specified revision 9 in history"
        );
        assert_eq!(
            err(
                &mut sim,
                "rollout undo deployment/nginx-deployment --to-revision=-1"
            ),
            "error: unable to find specified revision -1 in history"
        );
        // Back to revision 1 by number.
        assert_eq!(
            ok(
                &mut sim,
                "rollout undo deployment/nginx-deployment --to-revision=1"
            ),
            "deployment.apps/nginx-deployment rolled back"
        );
        let d = deployment(&sim);
        assert_eq!(d.spec.template.spec.containers[0].image, "nginx:1.14.2");
        assert_eq!(
            d.metadata.annotations[CHANGE_CAUSE_ANNOTATION],
            "kubectl apply --filename=nginx-deployment.yaml"
        );
    }

    #[test]
    fn undo_dry_runs_and_errors() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        assert_eq!(
            err(&mut sim, "rollout undo deployment/nginx-deployment"),
            "error: no rollout history found for deployment \"nginx-deployment\""
        );
        ok(
            &mut sim,
            "set image deployment/nginx-deployment nginx=nginx:1.16.1",
        );
        run_for(&mut sim, 60);
        let before = deployment(&sim);
        // --dry-run=client prints the template it would restore as the operation.
        let hash1 = sim
            .api
            .store
            .list::<ReplicaSet>(Some("default"))
            .find(|rs| rs.spec.template.spec.containers[0].image == "nginx:1.14.2")
            .unwrap()
            .metadata
            .labels["pod-template-hash"]
            .clone();
        assert_eq!(
            ok(&mut sim, "rollout undo deployment/nginx-deployment --dry-run=client"),
            format!("deployment.apps/nginx-deployment Pod Template:\n  Labels:\tapp=nginx\n\tpod-template-hash={hash1}\n  Containers:\n   nginx:\n    Image:\tnginx:1.14.2\n    Port:\t80/TCP\n    Host Port:\t0/TCP\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n (dry run)")
        );
        assert_eq!(
            ok(
                &mut sim,
                "rollout undo deployment/nginx-deployment --dry-run=server"
            ),
            "deployment.apps/nginx-deployment rolled back (server dry run)"
        );
        assert_eq!(
            ok(&mut sim, "rollout undo deployment/nginx-deployment -o name"),
            "deployment.apps/nginx-deployment"
        );
        assert_ne!(deployment(&sim).spec.template, before.spec.template);
        // Paused: the revision is looked up first, then the pause refuses.
        ok(&mut sim, "rollout pause deployment/nginx-deployment");
        assert_eq!(
            err(&mut sim, "rollout undo deployment/nginx-deployment"),
            "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"
        );
        assert_eq!(
            err(
                &mut sim,
                "rollout undo deployment/nginx-deployment --to-revision=8"
            ),
            "error: unable to find specified revision 8 in history"
        );
        assert_eq!(
            err(&mut sim, "rollout undo rs/x"),
            "Error from server (NotFound): replicasets.apps \"x\" not found"
        );
        let rs = sim
            .api
            .store
            .list::<ReplicaSet>(Some("default"))
            .next()
            .unwrap()
            .metadata
            .name
            .clone();
        assert_eq!(
            err(&mut sim, &format!("rollout undo rs/{rs}")),
            "error: no rollbacker has been implemented for \"ReplicaSet.apps\""
        );
        assert_eq!(
            err(&mut sim, "rollout undo"),
            "error: required resource not specified"
        );
    }

    /// Port of TestRolloutPause (pkg/cmd/rollout/rollout_pause_test.go), with resume and the
    /// helpers' errors (objectpauser_test.go / objectresumer_test.go).
    #[test]
    fn pause_and_resume() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        assert_eq!(
            ok(&mut sim, "rollout pause deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment paused"
        );
        assert!(deployment(&sim).spec.paused);
        assert_eq!(
            err(&mut sim, "rollout pause deployment/nginx-deployment"),
            "error: deployments.apps \"nginx-deployment\" is already paused"
        );
        ok(
            &mut sim,
            "set image deployment/nginx-deployment nginx=nginx:1.16.1",
        );
        run_for(&mut sim, 30);
        assert_eq!(
            sim.api.store.list::<ReplicaSet>(Some("default")).count(),
            1,
            "no rollout while paused"
        );
        assert_eq!(
            err(&mut sim, "rollout restart deployment/nginx-deployment"),
            "error: deployments.apps \"nginx-deployment\" can't restart paused deployment (run rollout resume first)"
        );
        assert_eq!(
            ok(&mut sim, "rollout resume deploy/nginx-deployment"),
            "deployment.apps/nginx-deployment resumed"
        );
        assert_eq!(
            err(&mut sim, "rollout resume deployment/nginx-deployment"),
            "error: deployments.apps \"nginx-deployment\" is not paused"
        );
        run_for(&mut sim, 60);
        assert_eq!(sim.api.store.list::<ReplicaSet>(Some("default")).count(), 2);
        let rs = sim
            .api
            .store
            .list::<ReplicaSet>(Some("default"))
            .next()
            .unwrap()
            .metadata
            .name
            .clone();
        assert_eq!(
            err(&mut sim, &format!("rollout pause rs/{rs}")),
            format!("error: replicasets.apps {rs:?} pausing is not supported")
        );
        assert_eq!(
            err(&mut sim, "rollout pause deployment/nope"),
            "Error from server (NotFound): deployments.apps \"nope\" not found"
        );
        assert_eq!(
            ok(&mut sim, "rollout pause deploy/nginx-deployment -o name"),
            "deployment.apps/nginx-deployment"
        );
    }

    /// Ports of TestRolloutRestartOne, TestRolloutRestartError, TestRolloutRestartSelectorNone
    /// and TestRolloutRestartSelectorMany (pkg/cmd/rollout/rollout_restart_test.go).
    #[test]
    fn restart() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        assert_eq!(
            ok(&mut sim, "rollout restart deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment restarted"
        );
        let d = deployment(&sim);
        let at = sim.now().to_rfc3339();
        assert_eq!(
            d.spec.template.metadata.annotations[RESTARTED_AT_ANNOTATION],
            at
        );
        assert_eq!(at, "2025-01-01T00:00:30Z");
        // The same second again: an empty patch.
        assert_eq!(
            err(&mut sim, "rollout restart deployment/nginx-deployment"),
            "error: failed to create patch for nginx-deployment: if restart has already been triggered within the past second, please wait before attempting to trigger another"
        );
        run_for(&mut sim, 60);
        assert_eq!(
            sim.api.store.list::<ReplicaSet>(Some("default")).count(),
            2,
            "a restart is a rollout"
        );
        assert_eq!(
            ok(&mut sim, "rollout history deployment/nginx-deployment"),
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml\n2         kubectl apply --filename=nginx-deployment.yaml"
        );
        // Selectors: none matching, several matching.
        assert_eq!(
            ok(&mut sim, "rollout restart deployment --selector=app=none"),
            "No resources found in default namespace."
        );
        let second = NGINX.replace("name: nginx-deployment", "name: second");
        execute_with_input(&mut sim, "apply -f -", Some(&second)).unwrap();
        run_for(&mut sim, 5);
        assert_eq!(
            ok(&mut sim, "rollout restart deployment -l app=nginx"),
            "deployment.apps/nginx-deployment restarted\ndeployment.apps/second restarted"
        );
    }

    /// Ports of TestRolloutStatus, TestRolloutStatusWithSelector and TestRolloutStatusEmptyList
    /// (pkg/cmd/rollout/rollout_status_test.go), and the viewers' kind errors.
    #[test]
    fn status_forms_and_errors() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        assert_eq!(
            ok(&mut sim, "rollout status deployment -l app=nginx"),
            "deployment \"nginx-deployment\" successfully rolled out"
        );
        assert_eq!(
            ok(&mut sim, "rollout status deployment -n empty"),
            "No resources found in empty namespace."
        );
        assert_eq!(
            err(&mut sim, "rollout status"),
            "error: required resource not specified"
        );
        assert_eq!(
            err(
                &mut sim,
                "rollout status deploy/nginx-deployment --revision=-1"
            ),
            "error: revision must be a positive integer: -1"
        );
        assert_eq!(
            err(
                &mut sim,
                "rollout status deploy/nginx-deployment --revision=2"
            ),
            "error: desired revision (2) is different from the running revision (1)"
        );
        assert_eq!(
            ok(
                &mut sim,
                "rollout status deploy/nginx-deployment --revision=1 --timeout=5m"
            ),
            "deployment \"nginx-deployment\" successfully rolled out"
        );
        assert!(err(
            &mut sim,
            "rollout status deploy/nginx-deployment --timeout=soon"
        )
        .starts_with("error: invalid argument \"soon\" for \"--timeout\" flag: time: invalid duration \"soon\"\n"));
        // time.ParseDuration's own messages and quoting after pflag's `%q`.
        assert!(err(&mut sim, "rollout status deploy/nginx-deployment --timeout=5").starts_with(
            "error: invalid argument \"5\" for \"--timeout\" flag: time: missing unit in duration \"5\"\n"
        ));
        assert!(err(&mut sim, "rollout status deploy/nginx-deployment --timeout=5é").starts_with(
            "error: invalid argument \"5é\" for \"--timeout\" flag: time: unknown unit \"\\xc3\\xa9\" in duration \"5\\xc3\\xa9\"\n"
        ));
        assert_eq!(
            ok(
                &mut sim,
                "rollout status deploy/nginx-deployment --timeout=-1s"
            ),
            "deployment \"nginx-deployment\" successfully rolled out"
        );
        assert_eq!(
            err(&mut sim, "rollout status deploy/nope"),
            "Error from server (NotFound): deployments.apps \"nope\" not found"
        );
        let rs = sim
            .api
            .store
            .list::<ReplicaSet>(Some("default"))
            .next()
            .unwrap()
            .metadata
            .name
            .clone();
        assert_eq!(
            err(&mut sim, &format!("rollout status rs/{rs}")),
            "error: no status viewer has been implemented for ReplicaSet.apps"
        );
        assert_eq!(
            err(&mut sim, &format!("rollout history rs/{rs}")),
            "error: no history viewer has been implemented for \"ReplicaSet.apps\""
        );
        assert_eq!(
            err(&mut sim, "rollout history node/node-1"),
            "error: error retrieving history for \"Node\", no visitor method exists for { Node}"
        );
        // Several errors are listed one per line, as kubectl's aggregate prints them.
        assert_eq!(
            err(&mut sim, &format!("rollout status rs/{rs} deploy/nope")),
            "Error from server (NotFound): deployments.apps \"nope\" not found\nno status viewer has been implemented for ReplicaSet.apps"
        );
    }

    #[test]
    fn history_output_formats() {
        let mut sim = cluster();
        run_for(&mut sim, 30);
        ok(
            &mut sim,
            "set image deployment/nginx-deployment nginx=nginx:1.16.1",
        );
        run_for(&mut sim, 60);
        let mut rss: Vec<ReplicaSet> = sim
            .api
            .store
            .list::<ReplicaSet>(Some("default"))
            .cloned()
            .collect();
        crate::sort::sort_by_key(&mut rss, |rs| revision(&rs.metadata).unwrap());
        let names: Vec<String> = rss
            .iter()
            .map(|rs| format!("replicaset.apps/{}", rs.metadata.name))
            .collect();
        assert_eq!(
            ok(&mut sim, "rollout history deploy/nginx-deployment -o name"),
            names.join("\n")
        );
        assert_eq!(
            ok(
                &mut sim,
                "rollout history deploy/nginx-deployment -o name --revision=2"
            ),
            names[1]
        );
        let yaml = ok(&mut sim, "rollout history deploy/nginx-deployment -o yaml");
        assert_eq!(yaml.matches("\n---\n").count(), 1, "{yaml}");
        assert!(
            yaml.starts_with("apiVersion: apps/v1\nkind: ReplicaSet\n"),
            "{yaml}"
        );
        // Port of TestRolloutHistoryErrors.
        for o in ["yaml", "json"] {
            assert_eq!(
                err(
                    &mut sim,
                    &format!("rollout history deploy/nginx-deployment --revision=999 -o {o}")
                ),
                "error: unable to find the specified revision"
            );
        }
        assert!(
            err(&mut sim, "rollout history deploy/nginx-deployment -o wide")
                .starts_with("error: unable to match a printer")
        );
    }

    /// Runs a built-in scenario to its end; returns its kubectl log as (seconds, command
    /// without `kubectl `, output, ok).
    fn run_builtin(name: &str) -> Vec<(i64, String, String, bool)> {
        let s =
            crate::scenario::Scenario::parse(crate::scenario::builtin::get(name).unwrap()).unwrap();
        let mut sim = s.build().unwrap();
        let start = sim.now();
        sim.run_for(s.default_duration().unwrap()).unwrap();
        sim.log
            .iter()
            .filter_map(|e| {
                e.action.strip_prefix("kubectl ").map(|a| {
                    (
                        (e.time - start).as_secs_f64() as i64,
                        a.to_string(),
                        e.output.clone(),
                        e.ok,
                    )
                })
            })
            .collect()
    }

    fn entry<'a>(
        log: &'a [(i64, String, String, bool)],
        at: i64,
        cmd: &str,
    ) -> &'a (i64, String, String, bool) {
        log.iter()
            .find(|(t, a, ..)| *t == at && a == cmd)
            .unwrap_or_else(|| panic!("no `{cmd}` at {at}s in {log:#?}"))
    }

    /// Every kubectl command of the built-in Deployment scenarios succeeds, except those the
    /// walkthroughs show failing; the rollout commands print what kubectl prints.
    #[test]
    fn builtin_deployment_scenarios() {
        let expected_failures: &[(&str, &str)] = &[
            (
                "deployment-rollback",
                "rollout status deployment/nginx-deployment",
            ),
            (
                "deployment-rollback",
                "rollout undo deployment/nginx-deployment --to-revision=9",
            ),
            (
                "deployment-progress-deadline",
                "rollout status deployment/web",
            ),
        ];
        for name in [
            "nginx-deployment",
            "deployment-rollback",
            "deployment-rollover",
            "deployment-proportional-scaling",
            "deployment-pause-resume",
            "deployment-progress-deadline",
            "deployment-recreate",
        ] {
            let log = run_builtin(name);
            assert!(!log.is_empty(), "{name}");
            for (t, cmd, output, ok) in &log {
                let should_fail = expected_failures.contains(&(name, cmd.as_str()));
                assert_eq!(
                    *ok, !should_fail,
                    "{name} at {t}s: `{cmd}` printed\n{output}"
                );
            }
        }

        let log = run_builtin("nginx-deployment");
        for at in [21, 120] {
            assert_eq!(
                entry(&log, at, "rollout status deployment/nginx-deployment").2,
                "deployment \"nginx-deployment\" successfully rolled out"
            );
        }
        assert_eq!(
            entry(
                &log,
                60,
                "set image deployment/nginx-deployment nginx=nginx:1.16.1"
            )
            .2,
            "deployment.apps/nginx-deployment image updated"
        );
        assert_eq!(
            entry(&log, 122, "describe deployment nginx-deployment").2,
            "Name:                   nginx-deployment
Namespace:              default
CreationTimestamp:      Wed, 01 Jan 2025 00:00:00 +0000
Labels:                 app=nginx
Annotations:            deployment.kubernetes.io/revision: 2
Selector:               app=nginx
Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=nginx
  Containers:
   nginx:
    Image:         nginx:1.16.1
    Port:          80/TCP
    Host Port:     0/TCP
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   nginx-deployment-7f9b675c7b (3/3 replicas created)
Events:
  Type    Reason             Age   From                   Message
  ----    ------             ----  ----                   -------
  Normal  ScalingReplicaSet  2m2s  deployment-controller  Scaled up replica set nginx-deployment-fc78f5885 from 0 to 3
  Normal  ScalingReplicaSet  62s   deployment-controller  Scaled up replica set nginx-deployment-7f9b675c7b from 0 to 1
  Normal  ScalingReplicaSet  60s   deployment-controller  Scaled down replica set nginx-deployment-fc78f5885 from 3 to 2
  Normal  ScalingReplicaSet  60s   deployment-controller  Scaled up replica set nginx-deployment-7f9b675c7b from 1 to 2
  Normal  ScalingReplicaSet  58s   deployment-controller  Scaled down replica set nginx-deployment-fc78f5885 from 2 to 1
  Normal  ScalingReplicaSet  58s   deployment-controller  Scaled up replica set nginx-deployment-7f9b675c7b from 2 to 3
  Normal  ScalingReplicaSet  56s   deployment-controller  Scaled down replica set nginx-deployment-fc78f5885 from 1 to 0"
        );

        let log = run_builtin("deployment-rollback");
        assert_eq!(
            entry(&log, 240, "rollout status deployment/nginx-deployment").2,
            "error: deployment \"nginx-deployment\" exceeded its progress deadline"
        );
        let describe = &entry(&log, 241, "describe deployment nginx-deployment").2;
        for want in [
            "Replicas:               3 desired | 1 updated | 4 total | 3 available | 1 unavailable\n",
            "  Available      True    MinimumReplicasAvailable\n  Progressing    False   ProgressDeadlineExceeded\n",
            "OldReplicaSets:  nginx-deployment-7f9b675c7b (3/3 replicas created)\nNewReplicaSet:   nginx-deployment-6f4f985776 (1/1 replicas created)\n",
        ] {
            assert!(describe.contains(want), "{want:?} not in\n{describe}");
        }
        assert_eq!(
            entry(&log, 242, "rollout history deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml\n2         image updated to 1.16.1\n3         image updated to 1.161"
        );
        assert!(entry(
            &log,
            243,
            "rollout history deployment/nginx-deployment --revision=2"
        )
        .2
        .starts_with("deployment.apps/nginx-deployment with revision #2\nPod Template:\n  Labels:\tapp=nginx\n\tpod-template-hash=7f9b675c7b\n  Annotations:\tkubernetes.io/change-cause: image updated to 1.16.1\n"));
        assert_eq!(
            entry(&log, 250, "rollout undo deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment rolled back"
        );
        assert_eq!(
            entry(&log, 300, "get deployment nginx-deployment").2,
            "NAME               READY   UP-TO-DATE   AVAILABLE   AGE\nnginx-deployment   3/3     3            3           5m"
        );
        assert_eq!(
            entry(&log, 301, "rollout history deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         kubectl apply --filename=nginx-deployment.yaml\n3         image updated to 1.161\n4         image updated to 1.16.1"
        );
        assert_eq!(
            entry(
                &log,
                302,
                "rollout undo deployment/nginx-deployment --to-revision=9"
            )
            .2,
            "error: unable to find specified revision 9 in history"
        );

        let log = run_builtin("deployment-pause-resume");
        assert_eq!(
            entry(&log, 40, "rollout pause deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment paused"
        );
        assert_eq!(
            entry(&log, 51, "rollout history deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         <none>"
        );
        assert_eq!(
            entry(
                &log,
                60,
                "set resources deployment/nginx-deployment -c=nginx --limits=cpu=200m,memory=512Mi"
            )
            .2,
            "deployment.apps/nginx-deployment resource requirements updated"
        );
        let describe = &entry(&log, 70, "describe deployment nginx-deployment").2;
        for want in [
            "    Image:      nginx:1.16.1\n",
            "    Limits:\n      cpu:         200m\n      memory:      512Mi\n",
            "  Progressing    Unknown  DeploymentPaused\n",
            "OldReplicaSets:  nginx-deployment-649fdd54b8 (3/3 replicas created)\nNewReplicaSet:   <none>\n",
        ] {
            assert!(describe.contains(want), "{want:?} not in\n{describe}");
        }
        assert_eq!(
            entry(&log, 90, "rollout resume deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment resumed"
        );
        assert_eq!(
            entry(&log, 151, "rollout history deployment/nginx-deployment").2,
            "deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>"
        );

        let log = run_builtin("deployment-progress-deadline");
        assert_eq!(
            entry(&log, 150, "rollout status deployment/web").2,
            "error: deployment \"web\" exceeded its progress deadline"
        );

        // The docs' proportional scaling numbers: 8 old + 5 new, then +3 / +2 after scaling.
        let log = run_builtin("deployment-proportional-scaling");
        assert_eq!(
            entry(&log, 120, "scale deployment/nginx-deployment --replicas=15").2,
            "deployment.apps/nginx-deployment scaled"
        );
        let rs = &entry(&log, 122, "get rs").2;
        let desired: Vec<&str> = rs
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(desired, ["11", "7"], "{rs}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Random rollout and set command lines never panic.
        #[test]
        fn random_rollout_and_set_commands_never_panic(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "rollout", "status", "history", "undo", "pause", "resume", "restart", "set",
                "image", "resources", "deploy", "deployment/nginx-deployment", "nginx-deployment",
                "rs", "pods", "node/node-1", "--to-revision=1", "--to-revision=-3", "--revision=2",
                "--revision", "-w", "--watch=false", "nginx=nginx:2", "*=busybox", "x=", "=x",
                "a-", "-c", "nginx", "n*", "--limits=cpu=1", "--requests=memory=1Gi,cpu",
                "--limits=", "-o", "yaml", "name", "json", "--dry-run=client", "--dry-run=server",
                "--local", "-f", "-", "--record", "--all", "-l", "app=nginx", "-n", "other",
                "--timeout=1s",
            ]), 0..7)
        ) {
            let mut sim = cluster();
            run_for(&mut sim, 3);
            let line = words.join(" ");
            let _ = execute_with_input(&mut sim, &line, Some(NGINX));
            let _ = execute(&mut sim, "rollout history deploy/nginx-deployment --revision=1");
            let _ = execute(&mut sim, "describe deploy");
        }
    }

    #[test]
    fn subcommand_errors_and_help() {
        let mut sim = cluster();
        let help = err(&mut sim, "rollout");
        assert!(
            help.starts_with("Manage the rollout of one or many resources."),
            "{help}"
        );
        assert!(
            help.contains("\n  undo          Undo a previous rollout\n"),
            "{help}"
        );
        assert_eq!(
            err(&mut sim, "rollout frob deployment/x"),
            "error: unknown command \"frob deployment/x\"\nSee 'kubectl rollout -h' for help and examples"
        );
        assert_eq!(
            err(&mut sim, "rollout status deploy/x --bogus"),
            "error: unknown flag: --bogus\nSee 'kubectl rollout status --help' for usage."
        );
        assert_eq!(
            ok(
                &mut sim,
                "-n default rollout status deploy/nginx-deployment"
            ),
            "Waiting for deployment spec update to be observed..."
        );
    }
}

#[cfg(test)]
mod sts_ds_status_tests {
    use super::{daemon_set_status, stateful_set_status};
    use crate::api::{
        DaemonSet, DaemonSetStatus, ObjectMeta, RollingUpdateStatefulSetStrategy, StatefulSet,
        StatefulSetStatus, StatefulSetUpdateStrategy,
    };

    /// Port of TestDaemonSetStatusViewerStatus and
    /// TestDaemonSetStatusViewerStatusWithWrongUpdateStrategyType
    /// (kubectl/pkg/polymorphichelpers/rollout_status_test.go).
    #[test]
    fn daemon_set_status_viewer() {
        let ds = |generation: i64, updated: i32, desired: i32, available: i32| {
            let mut d = DaemonSet {
                metadata: ObjectMeta {
                    name: "foo".into(),
                    generation,
                    ..Default::default()
                },
                status: (DaemonSetStatus {
                    observed_generation: 1,
                    updated_number_scheduled: updated,
                    desired_number_scheduled: desired,
                    number_available: available,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            };
            d.spec.update_strategy.type_ = "RollingUpdate".into();
            d
        };
        let cases = [
            (ds(1, 0, 1, 0), "Waiting for daemon set \"foo\" rollout to finish: 0 out of 1 new pods have been updated...\n", false),
            (ds(1, 2, 2, 1), "Waiting for daemon set \"foo\" rollout to finish: 1 of 2 updated pods are available...\n", false),
            (ds(1, 2, 2, 2), "daemon set \"foo\" successfully rolled out\n", true),
            (ds(2, 2, 2, 2), "Waiting for daemon set spec update to be observed...\n", false),
        ];
        for (d, msg, done) in cases {
            assert_eq!(daemon_set_status(&d), Ok((msg.to_string(), done)));
        }
        let mut on_delete = ds(1, 2, 2, 2);
        on_delete.spec.update_strategy.type_ = "OnDelete".into();
        assert_eq!(
            daemon_set_status(&on_delete).unwrap_err(),
            "rollout status is only available for RollingUpdate strategy type"
        );
    }

    /// Port of TestStatefulSetStatusViewerStatus
    /// (kubectl/pkg/polymorphichelpers/rollout_status_test.go).
    #[test]
    fn stateful_set_status_viewer() {
        let sts = |strategy: &str,
                   partition: Option<i32>,
                   generation: i64,
                   observed: i64,
                   (ready, current, updated): (i32, i32, i32)| {
            StatefulSet {
                metadata: ObjectMeta {
                    name: "foo".into(),
                    generation,
                    ..Default::default()
                },
                spec: (crate::api::StatefulSetSpec {
                    replicas: Some(3),
                    update_strategy: StatefulSetUpdateStrategy {
                        type_: strategy.into(),
                        rolling_update: partition.map(|p| RollingUpdateStatefulSetStrategy {
                            partition: Some(p),
                            ..Default::default()
                        }),
                    },
                    ..Default::default()
                })
                .into(),
                status: (StatefulSetStatus {
                    observed_generation: observed,
                    replicas: 3,
                    ready_replicas: ready,
                    current_replicas: current,
                    updated_replicas: updated,
                    current_revision: "foo".into(),
                    update_revision: "foo".into(),
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            }
        };
        assert_eq!(
            stateful_set_status(&sts("OnDelete", None, 1, 1, (1, 0, 0))).unwrap_err(),
            "rollout status is only available for RollingUpdate strategy type"
        );
        let ok = |s: StatefulSet| stateful_set_status(&s).unwrap();
        assert_eq!(
            ok(sts("RollingUpdate", None, 2, 1, (3, 3, 0))),
            (
                "Waiting for statefulset spec update to be observed...\n".into(),
                false
            )
        );
        assert_eq!(
            ok(sts("RollingUpdate", None, 2, 2, (2, 3, 0))),
            ("Waiting for 1 pods to be ready...\n".into(), false)
        );
        assert_eq!(
            ok(sts("RollingUpdate", Some(2), 2, 2, (3, 2, 1))),
            (
                "partitioned roll out complete: 1 new pods have been updated...\n".into(),
                true
            )
        );
        assert_eq!(
            ok(sts("RollingUpdate", Some(2), 2, 2, (3, 3, 0))),
            ("Waiting for partitioned roll out to finish: 0 out of 1 new pods have been updated...\n".into(), false)
        );
        assert_eq!(
            ok(sts("RollingUpdate", None, 2, 2, (3, 3, 3))),
            (
                "statefulset rolling update complete 3 pods at revision foo...\n".into(),
                true
            )
        );
        let mut rolling = sts("RollingUpdate", None, 2, 2, (3, 2, 1));
        rolling.status.update_revision = "bar".into();
        assert_eq!(
            ok(rolling),
            (
                "waiting for statefulset rolling update to complete 1 pods at revision bar...\n"
                    .into(),
                false
            )
        );
    }
}

#[cfg(test)]
#[path = "rollout_upstream_more_tests.rs"]
mod upstream_more_tests;
