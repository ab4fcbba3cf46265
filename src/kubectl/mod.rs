//! The kubectl subset: one parser and kubectl's printers, shared by the CLI, scenarios and page.
//!
//! [`execute`] runs one command line (with or without the leading `kubectl`) against a
//! [`Simulation`] and returns what kubectl would print — stdout and stderr interleaved as a
//! terminal shows them, without the final newline — as `Ok` when kubectl would exit 0 and
//! `Err` otherwise. Output and error texts follow kubectl 1.34 (`staging/src/k8s.io/kubectl`,
//! `cli-runtime` and the API server's table printers). Nothing here panics on any input.
//!
//! Commands: `get` (tables, `-o wide|yaml|json|name|jsonpath|custom-columns`, `--sort-by`),
//! `events` (`--for`, `--types`, `-A`, `-o json|yaml|name|jsonpath`; no `--watch`),
//! `describe`, `apply`, `create`, `delete`, `scale`, `label`, `annotate`, `cordon`,
//! `uncordon`, `drain`, `rollout status|history|undo|pause|resume|restart`,
//! `set image|resources`, `patch`. kubectl never blocks here: `delete` and `drain` report as kubectl does
//! once the API server has accepted the deletions (the simulation then runs the graceful
//! termination on its virtual clock), and `rollout status` prints the current status line once
//! (as `--watch=false` does) instead of watching.
//!
//! Layout: `args` (tokenizer, pflag rules), `resource` (the resource builder's argument
//! forms), one module per command (`rollout` and `set` hold their subcommands),
//! `printers/<kind>.rs` (one table per kind; add a kind there), `table` + `tabwriter`
//! (kubectl's column layout), `yaml` / `output` / `jsonpath` (generic printers), `events`
//! (Events from the event log), `merge` (client-side apply's patch).

pub mod args;
pub mod events;
pub mod files;
pub mod jsonpath;
pub mod output;
pub mod printers;
pub mod resource;
pub mod table;
pub mod tabwriter;
pub mod yaml;

mod apply;
mod autoscale;
mod create_cronjob;
mod create_deployment;
mod create_job;
mod delete;
mod describe;
mod drain;
mod events_cmd;
mod get;
mod label;
mod merge;
mod patch;
pub mod rollout;
mod run_pod;
mod scale;
mod set;

use crate::sim::Simulation;
use std::collections::BTreeMap;

/// What a command can read besides its arguments: standard input (`-f -`) and, where there is
/// no file system (the browser), files by path (`-f path`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Input<'a> {
    pub stdin: Option<&'a str>,
    pub files: Option<&'a BTreeMap<String, String>>,
    /// The file system `-f PATH` reads (the CLI's); without it, `files` stands for one.
    pub fs: Option<&'a dyn files::FileSystem>,
}

/// Runs one kubectl command line (without the leading `kubectl`) against the simulation and
/// returns what kubectl would print.
///
/// # Errors
/// kubectl's error text.
pub fn execute(sim: &mut Simulation, cmd: &str) -> Result<String, String> {
    execute_with(sim, cmd, Input::default())
}

/// Like [`execute`], with text for `-f -` (`apply -f -`, `create -f -`, `delete -f -`).
///
/// # Errors
/// kubectl's error text.
pub fn execute_with_input(
    sim: &mut Simulation,
    cmd: &str,
    stdin: Option<&str>,
) -> Result<String, String> {
    execute_with(
        sim,
        cmd,
        Input {
            stdin,
            ..Input::default()
        },
    )
}

/// Like [`execute`], with standard input and an in-memory map of files for `-f path`.
///
/// # Errors
/// kubectl's error text.
pub fn execute_with(sim: &mut Simulation, cmd: &str, input: Input) -> Result<String, String> {
    let mut out = Out::default();
    let res = run(sim, cmd, input, &mut out);
    if let Err(e) = res {
        out.fail(&e);
    }
    let text = out.text.trim_end_matches('\n').to_string();
    if out.failed {
        Err(text)
    } else {
        Ok(text)
    }
}

/// What a command wrote to each stream, as a shell sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Streams {
    /// Standard output.
    pub stdout: String,
    /// Standard error: warnings, notices such as `No resources found`, and errors
    /// (`error: ...`, `Error from server (...)`).
    pub stderr: String,
    /// kubectl would exit non-zero.
    pub failed: bool,
}

/// Like [`execute_with`], with standard output and standard error apart (the CLI's view:
/// kubectl prints what succeeded to stdout and every error to stderr, then exits 1).
pub fn execute_streams(sim: &mut Simulation, cmd: &str, input: Input) -> Streams {
    let mut out = Out::default();
    if let Err(e) = run(sim, cmd, input, &mut out) {
        out.fail(&e);
    }
    Streams {
        stdout: out.stdout,
        stderr: out.stderr,
        failed: out.failed,
    }
}

/// The paths a command line reads with `-f` / `--filename` (not `-`), so a caller with a file
/// system (the CLI) can load them into [`Input::files`] before calling [`execute_with`].
pub fn referenced_files(cmd: &str) -> Vec<String> {
    let Ok(words) = args::tokenize(cmd) else {
        return vec![];
    };
    let mut out = vec![];
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        let value = if w == "-f" || w == "--filename" {
            i += 1;
            words.get(i).cloned()
        } else if let Some(v) = w.strip_prefix("--filename=") {
            Some(v.to_string())
        } else {
            w.strip_prefix("-f")
                .map(|v| v.strip_prefix('=').unwrap_or(v).to_string())
        };
        for f in value.iter().flat_map(|v| v.split(',')) {
            if !f.is_empty() && f != "-" && !out.iter().any(|o| o == f) {
                out.push(f.to_string());
            }
        }
        i += 1;
    }
    out
}

/// What a command has printed so far, and whether it failed.
#[derive(Debug, Default)]
pub(crate) struct Out {
    /// Everything printed, in order (the playground shows one stream).
    text: String,
    /// What kubectl writes to standard output (`o.Out`).
    stdout: String,
    /// What kubectl writes to standard error (`o.ErrOut`, warnings, errors).
    stderr: String,
    failed: bool,
    /// Server warnings already printed: kubectl's warning handler deduplicates them for the
    /// whole invocation (`rest.NewWarningWriter(..., WarningWriterOptions{Deduplicate: true})`).
    printed_warnings: Vec<String>,
}

impl Out {
    /// Appends text, making sure it ends a line.
    pub fn print(&mut self, s: &str) {
        self.write(s, false);
    }
    /// Appends text to standard output as it is, without ending a line (the JSONPath printer
    /// writes no newline of its own; a blank line between tables).
    pub fn print_raw(&mut self, s: &str) {
        self.text.push_str(s);
        self.stdout.push_str(s);
    }
    /// Appends text kubectl writes to standard error (`o.ErrOut`): notices such as
    /// `No resources found`, deprecation warnings, per-object errors.
    pub fn eprint(&mut self, s: &str) {
        self.write(s, true);
    }
    fn write(&mut self, s: &str, to_stderr: bool) {
        if s.is_empty() {
            return;
        }
        let stream = if to_stderr {
            &mut self.stderr
        } else {
            &mut self.stdout
        };
        for t in [&mut self.text, stream] {
            t.push_str(s);
            if !s.ends_with('\n') {
                t.push('\n');
            }
        }
    }
    /// kubectl's `WarningPrinter`: `Warning: ...` on standard error.
    pub fn warn(&mut self, msg: &str) {
        self.eprint(&format!("Warning: {msg}"));
    }
    /// The API server's warnings of the last request (`Warning` headers), as kubectl's
    /// warning handler prints them: `Warning: <text>`, each text once per command.
    pub fn server_warnings(&mut self, warnings: &[String]) {
        for w in warnings {
            if !self.printed_warnings.contains(w) {
                self.printed_warnings.push(w.clone());
                self.warn(w);
            }
        }
    }
    /// Prints an error line and marks the command as failed.
    pub fn fail(&mut self, msg: &str) {
        self.eprint(msg);
        self.failed = true;
    }
}

/// A write through the API server — on a copy of it for `--dry-run=server` — after which the
/// server's warnings are printed, as kubectl's warning handler does for every response.
pub(crate) fn server_write<T>(
    sim: &mut Simulation,
    dry_server: bool,
    out: &mut Out,
    write: impl FnOnce(&mut crate::store::apiserver::ApiServer) -> T,
) -> T {
    let mut copy;
    let api = if dry_server {
        copy = sim.api.clone();
        &mut copy
    } else {
        &mut sim.api
    };
    let result = write(api);
    out.server_warnings(&api.last_warnings);
    result
}

/// The namespace a command works in.
#[derive(Clone, Debug)]
pub(crate) struct Namespace {
    pub name: String,
    /// `-n` given explicitly (`enforceNamespace`).
    pub explicit: bool,
}

impl Namespace {
    fn from(p: &args::Parsed) -> Namespace {
        match p.str("namespace") {
            Some(n) if !n.is_empty() => Namespace {
                name: n.to_string(),
                explicit: true,
            },
            _ => Namespace {
                name: "default".into(),
                explicit: false,
            },
        }
    }
}

/// The commands kubeplay implements (for `unknown command` suggestions).
#[rustfmt::skip]
const COMMANDS: &[&str] = &[
    "annotate", "apply", "autoscale", "cordon", "create", "delete", "describe", "drain", "events",
    "get", "label", "patch", "rollout", "run", "scale", "set", "uncordon",
];

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// cobra's `unknown command` error with its `Did you mean this?` suggestions.
fn unknown_command(name: &str) -> String {
    let suggestions: Vec<&str> = COMMANDS
        .iter()
        .copied()
        .filter(|c| levenshtein(name, c) <= 2 || c.starts_with(name))
        .collect();
    let mut s = format!("error: unknown command {name:?} for \"kubectl\"");
    if !suggestions.is_empty() {
        s.push_str("\n\nDid you mean this?\n");
        for c in suggestions {
            s.push('\t');
            s.push_str(c);
            s.push('\n');
        }
    }
    s
}

/// Whether a kubectl persistent flag takes the next word as its value (`-n prod`).
fn global_flag_takes_value(w: &str) -> bool {
    matches!(
        w,
        "-n" | "--namespace"
            | "--context"
            | "--cluster"
            | "--user"
            | "--kubeconfig"
            | "--request-timeout"
            | "-v"
            | "--v"
    )
}

/// cobra's `Find`: the first word that is not a (global) flag is the (sub)command; returns it
/// and the other words in order, or `None` when there is none.
/// A command group (`kubectl rollout`, `kubectl set`) run without a subcommand, as cobra's
/// `DefaultSubCommandRun` answers: unknown flags are flag errors, stray arguments an unknown
/// command, otherwise the group's help (exit 1).
pub(crate) fn group_without_subcommand(cmd_path: &str, words: &[String], help: &str) -> String {
    match args::parse(cmd_path, words, &[]) {
        Err(e) => e,
        Ok(p) if !p.args.is_empty() => {
            usage_error(cmd_path, &format!("unknown command {:?}", p.args.join(" ")))
        }
        Ok(_) => help.to_string(),
    }
}

pub(crate) fn split_subcommand(words: &[String]) -> Option<(String, Vec<String>)> {
    let mut pos = 0;
    while pos < words.len() && words[pos].starts_with('-') && words[pos] != "--" {
        pos += if global_flag_takes_value(&words[pos]) {
            2
        } else {
            1
        };
    }
    if pos >= words.len() || words[pos] == "--" {
        return None;
    }
    let mut rest = words.to_vec();
    let name = rest.remove(pos);
    Some((name, rest))
}

fn run(sim: &mut Simulation, cmd: &str, input: Input, out: &mut Out) -> Result<(), String> {
    let mut words = args::tokenize(cmd)?;
    if words.first().map(String::as_str) == Some("kubectl") {
        words.remove(0);
    }
    // Global flags may come before the command name (`kubectl -n prod get pods`).
    let Some((name, rest)) = split_subcommand(&words) else {
        return Err(
            "error: no command given: kubeplay runs kubectl commands such as `get pods`".into(),
        );
    };
    match name.as_str() {
        "get" => get::run(sim, &rest, input, out),
        "events" => events_cmd::run(sim, &rest, out),
        "autoscale" => autoscale::run(sim, &rest, out),
        "describe" => describe::run(sim, &rest, out),
        "apply" => apply::run_apply(sim, &rest, input, out),
        "create" => match split_subcommand(&rest) {
            Some((sub, sub_rest)) if sub == "job" => create_job::run(sim, &sub_rest, out),
            Some((sub, sub_rest)) if sub == "cronjob" || sub == "cj" => {
                create_cronjob::run(sim, &sub_rest, out)
            }
            Some((sub, sub_rest)) if sub == "deployment" || sub == "deploy" => {
                create_deployment::run(sim, &sub_rest, out)
            }
            _ => apply::run_create(sim, &rest, input, out),
        },
        "delete" => delete::run(sim, &rest, input, out),
        "scale" => scale::run(sim, &rest, input, out),
        "label" => label::run(sim, &rest, label::Which::Label, input, out),
        "annotate" => label::run(sim, &rest, label::Which::Annotate, input, out),
        "cordon" => drain::run_cordon(sim, &rest, true, out),
        "uncordon" => drain::run_cordon(sim, &rest, false, out),
        "drain" => drain::run_drain(sim, &rest, out),
        "rollout" => rollout::run(sim, &rest, input, out),
        "set" => set::run(sim, &rest, input, out),
        "patch" => patch::run(sim, &rest, input, out),
        "run" => run_pod::run(sim, &rest, out),
        other => Err(unknown_command(other)),
    }
}

/// kubectl's `cmdutil.UsageErrorf`.
pub(crate) fn usage_error(cmd_path: &str, msg: &str) -> String {
    format!("error: {msg}\nSee '{cmd_path} -h' for help and examples")
}

/// `--dry-run` as `cmdutil.GetDryRunStrategy` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DryRun {
    None,
    Client,
    Server,
}

impl DryRun {
    pub fn from(p: &args::Parsed) -> Result<DryRun, String> {
        match p.str("dry-run") {
            None | Some("none") => Ok(DryRun::None),
            Some("client") => Ok(DryRun::Client),
            Some("server") => Ok(DryRun::Server),
            Some("unchanged") => Err("error: --dry-run flag without a value was specified. A value must be set, one of: \"none\", \"server\", or \"client\"".into()),
            Some(v) => Err(format!("error: Invalid dry-run value ({v}). Must be \"none\", \"server\", or \"client\".")),
        }
    }
    /// The suffix the name printer adds (`(dry run)`, `(server dry run)`).
    pub fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
}

/// The `--dry-run` flag (`NoOptDefVal` "unchanged").
pub(crate) const DRY_RUN_FLAG: args::Flag = args::Flag::str("dry-run").no_opt("unchanged");

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod create_job_upstream_tests;
#[cfg(test)]
mod customcolumn_upstream_gap_tests;
#[cfg(test)]
mod delete_upstream_gap_tests;
#[cfg(test)]
mod delete_upstream_more_tests;
#[cfg(test)]
mod describe_pdb_tests;
#[cfg(test)]
mod describe_tests;
#[cfg(test)]
mod describe_upstream_more_tests;
#[cfg(test)]
mod drain_pdb_tests;
#[cfg(test)]
mod drain_upstream_gap_tests;
#[cfg(test)]
mod e2e_workloads;
#[cfg(test)]
mod fidelity_sweep_tests;
#[cfg(test)]
mod files_upstream_tests;
#[cfg(test)]
mod get_filename_tests;
#[cfg(test)]
mod get_upstream_gap_tests;
#[cfg(test)]
mod go_float_upstream_tests;
#[cfg(test)]
mod jsonpath_missing_keys_tests;
#[cfg(test)]
mod jsonpath_upstream_gap_tests;
#[cfg(test)]
mod kubectl_audit_tests;
#[cfg(test)]
mod label_annotate_upstream_gap_tests;
#[cfg(test)]
mod label_upstream_more_tests;
#[cfg(test)]
mod patch_upstream_gap_tests;
#[cfg(test)]
mod qos_upstream_gap_tests;
#[cfg(test)]
mod rollback_upstream_tests;
#[cfg(test)]
mod rollout_status_upstream_gap_tests;
#[cfg(test)]
mod server_warnings_tests;
#[cfg(test)]
mod set_image_upstream_gap_tests;
#[cfg(test)]
mod set_upstream_more_tests;
#[cfg(test)]
mod sort_by_index_tests;
#[cfg(test)]
mod sorter_upstream_gap_tests;
#[cfg(test)]
mod streams_tests;
#[cfg(test)]
mod tableprinter_upstream_gap_tests;

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    #[test]
    fn unknown_commands_and_suggestions() {
        let mut sim = sim();
        assert_eq!(
            execute(&mut sim, "frobnicate").unwrap_err(),
            "error: unknown command \"frobnicate\" for \"kubectl\""
        );
        assert_eq!(
            execute(&mut sim, "gte pods").unwrap_err(),
            "error: unknown command \"gte\" for \"kubectl\"\n\nDid you mean this?\n\tget"
        );
        assert!(execute(&mut sim, "").is_err());
        assert!(execute(&mut sim, "kubectl").is_err());
    }

    #[test]
    fn files_a_command_reads() {
        assert_eq!(
            referenced_files(
                "apply -f a.yaml -f - --filename=b.yaml,c.yaml -fd.yaml -f=e.yaml -n x"
            ),
            ["a.yaml", "b.yaml", "c.yaml", "d.yaml", "e.yaml"]
        );
        assert!(referenced_files("get pods").is_empty());
        assert!(referenced_files("apply -f 'unterminated").is_empty());
    }

    #[test]
    fn leading_kubectl_and_global_flags() {
        let mut sim = sim();
        load_pod(&mut sim, running_pod("web-1", "prod", "node-1"));
        let a = execute(&mut sim, "kubectl -n prod get pods -o name").unwrap();
        let b = execute(&mut sim, "get pods -o name --namespace=prod").unwrap();
        assert_eq!(a, "pod/web-1");
        assert_eq!(a, b);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// No command line, however odd, makes kubectl panic.
        #[test]
        fn random_command_lines_never_panic(line in "[ -~]{0,60}") {
            let mut sim = sim();
            load_fixture(&mut sim);
            let _ = execute(&mut sim, &line);
        }

        /// Unicode anywhere (quotes, flags, names, annotation values) does not panic either.
        #[test]
        fn unicode_command_lines_never_panic(
            cmd in proptest::sample::select(vec![
                "get pods ", "annotate pod bare ", "label pod bare ", "get pod ", "describe pod ",
                "delete pod ", "scale rs frontend --replicas=", "get pods -l ", "drain ",
                "apply -f - ", "get ev ", "cordon ",
            ]),
            tail in "\\PC{0,40}",
        ) {
            let mut sim = sim();
            load_fixture(&mut sim);
            let _ = execute_with_input(&mut sim, &format!("{cmd}{tail}"), Some(&tail));
            let _ = execute(&mut sim, "get pods -o yaml");
            let _ = execute(&mut sim, "describe pods");
        }

        /// Random combinations of real commands, kinds, names and flags never panic either.
        #[test]
        fn random_kubectl_like_commands_never_panic(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "get", "describe", "delete", "scale", "label", "annotate", "cordon", "uncordon",
                "drain", "apply", "create", "pods", "po", "rs", "rc", "nodes", "no", "ev", "all",
                "frontend", "frontend-a", "node-1", "node-2", "x", "rs/frontend", "pod/frontend-a",
                "-o", "yaml", "json", "wide", "name", "-n", "default", "-A", "-l", "app=web",
                "tier in (a,b)", "--replicas=0", "--replicas=3", "--current-replicas=2",
                "--cascade=orphan", "--cascade=foreground", "--cascade", "--grace-period=0",
                "--force", "--now", "--all", "--overwrite", "app=db", "app-", "--show-labels",
                "--ignore-daemonsets", "--delete-emptydir-data", "-f", "-", "--dry-run=client",
                "--dry-run=server", "--list", "-L", "app", "--field-selector", "spec.nodeName=node-1",
                "jsonpath={.items[*].metadata.name}", "jsonpath={range .items[*]}{.x}{end}",
                "custom-columns=A:.metadata.name,B:.spec", "--sort-by=.metadata.name", "{", "[",
                "'", "\"", "=", ",", "/",
            ]), 0..8)
        ) {
            let mut sim = sim();
            load_fixture(&mut sim);
            let line = words.join(" ");
            let _ = execute_with_input(&mut sim, &line, Some("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx}]}\n"));
        }
    }
}

/// kubectl against the full simulation (controllers, scheduler, kubelets) and its timeline.
#[cfg(test)]
mod e2e {
    use super::{execute, execute_with_input};
    use crate::api::Duration;

    const RS: &str = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: frontend\nspec:\n  replicas: 3\n  selector:\n    matchLabels: {tier: frontend}\n  template:\n    metadata:\n      labels: {tier: frontend}\n    spec:\n      containers:\n      - name: php\n        image: nginx\n";

    fn cluster() -> crate::sim::Simulation {
        crate::scenario::Scenario::parse("kind: Scenario\nmetadata: {name: e2e}\n")
            .unwrap()
            .build()
            .unwrap()
    }

    #[test]
    fn apply_scale_drain_through_the_controllers() {
        let mut sim = cluster();
        assert_eq!(
            execute_with_input(&mut sim, "apply -f -", Some(RS)).unwrap(),
            "replicaset.apps/frontend created"
        );
        sim.run_for(Duration::from_secs(30)).unwrap();
        assert_eq!(
            execute(&mut sim, "get rs").unwrap(),
            "NAME       DESIRED   CURRENT   READY   AGE\nfrontend   3         3         3       30s"
        );
        let pods = execute(&mut sim, "get pods --no-headers").unwrap();
        assert_eq!(pods.lines().count(), 3, "{pods}");
        assert!(
            pods.lines()
                .all(|l| l.split_whitespace().collect::<Vec<_>>()[1..4] == ["1/1", "Running", "0"]),
            "{pods}"
        );
        // Pod events come in emission order: scheduled before the kubelet pulls.
        let evs = execute(&mut sim, "get events").unwrap();
        let sched = evs.find("Scheduled").unwrap();
        let pull = evs.find("Pulling").unwrap();
        assert!(sched < pull, "{evs}");
        assert!(execute(&mut sim, "describe rs frontend")
            .unwrap()
            .contains("Pods Status:  3 Running / 0 Waiting / 0 Succeeded / 0 Failed"));

        assert_eq!(
            execute(&mut sim, "scale rs frontend --replicas=1").unwrap(),
            "replicaset.apps/frontend scaled"
        );
        sim.run_for(Duration::from_secs(60)).unwrap();
        assert_eq!(
            execute(&mut sim, "get pods -o name")
                .unwrap()
                .lines()
                .count(),
            1
        );

        // Drain the node running the survivor: the pod is evicted and replaced elsewhere.
        let node = execute(&mut sim, "get pods -o wide --no-headers")
            .unwrap()
            .split_whitespace()
            .nth(6)
            .unwrap()
            .to_string();
        let out = execute(&mut sim, &format!("drain {node}")).unwrap();
        assert!(
            out.starts_with(&format!(
                "node/{node} cordoned\nevicting pod default/frontend-"
            )),
            "{out}"
        );
        assert!(
            out.ends_with(&format!(" evicted\nnode/{node} drained")),
            "{out}"
        );
        sim.run_for(Duration::from_secs(60)).unwrap();
        let wide = execute(&mut sim, "get pods -o wide --no-headers").unwrap();
        assert_eq!(wide.lines().count(), 1, "{wide}");
        assert!(
            !wide.contains(&node),
            "the replacement avoids the cordoned node: {wide}"
        );
        assert!(execute(&mut sim, "get nodes")
            .unwrap()
            .contains(&format!("{node}   Ready,SchedulingDisabled")));
    }

    #[test]
    fn timeline_commands_are_logged_with_kubectl_output() {
        let s = crate::scenario::Scenario::parse(&format!(
            "kind: Scenario\nmetadata: {{name: t}}\ntimeline:\n- at: 0s\n  apply: |\n{}\n- at: 10s\n  kubectl: kubectl scale rs frontend --current-replicas=2 --replicas=5\n- at: 20s\n  kubectl: kubectl scale rs/frontend --replicas=5\n- at: 30s\n  kubectl: get rs frontend -o name\n",
            RS.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
        ))
        .unwrap();
        let mut sim = s.build().unwrap();
        sim.run_for(Duration::from_secs(40)).unwrap();
        let log: Vec<(String, String, bool)> = sim
            .log
            .iter()
            .map(|e| (e.action.clone(), e.output.clone(), e.ok))
            .collect();
        assert_eq!(
            log,
            [
                (
                    "kubectl apply -f -".to_string(),
                    "replicaset.apps/frontend created".to_string(),
                    true
                ),
                (
                    "kubectl scale rs frontend --current-replicas=2 --replicas=5".into(),
                    "error: Expected replicas to be 2, was 3".into(),
                    false
                ),
                (
                    "kubectl scale rs/frontend --replicas=5".into(),
                    "replicaset.apps/frontend scaled".into(),
                    true
                ),
                (
                    "kubectl get rs frontend -o name".into(),
                    "replicaset.apps/frontend".into(),
                    true
                ),
            ]
        );
    }
}
