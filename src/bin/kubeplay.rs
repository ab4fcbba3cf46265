//! The `kubeplay` command line: run scenarios, explain scale-down decisions, list built-ins.

use kubeplay::api::Duration;
use kubeplay::scenario::{builtin, Scenario};
use kubeplay::sim::Simulation;
use kubeplay::trace::RunDocument;
use std::process::ExitCode;

const USAGE: &str = "kubeplay: Kubernetes workload controllers on a virtual clock

Usage:
  kubeplay run SCENARIO [--until DURATION] [--output events|table|json]
  kubeplay explain-scale-down SCENARIO --at DURATION rs/NAME|rc/NAME --replicas N [-n NAMESPACE]
  kubeplay scenarios                 list the built-in scenarios
  kubeplay kubectl SCENARIO --at DURATION -- KUBECTL ARGS...
  kubeplay import FILE|- [--now RFC3339]     kubectl get -o yaml/json output → scenario
  kubeplay export SCENARIO --to DIR          manifests + replay.sh for a real cluster
  kubeplay compare SCENARIO EVENTS.json [--objects DUMP] [--until DURATION]

SCENARIO is a file (scenario YAML/JSON, or plain manifests) or the name of a built-in scenario.
DURATION is virtual time since the start: 90s, 1m30s, 2h.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            if !e.is_empty() {
                eprintln!("{}", e.trim_end());
            }
            ExitCode::from(1)
        }
    }
}

/// Flags of the form `--name value` or `--name=value`, and positional arguments.
struct Args {
    positional: Vec<String>,
    flags: Vec<(String, String)>,
    rest: Vec<String>,
}

fn parse_args(args: &[String], value_flags: &[&str]) -> Result<Args, String> {
    let mut positional = vec![];
    let mut flags = vec![];
    let mut rest = vec![];
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            rest = args[i + 1..].to_vec();
            break;
        }
        if let Some(f) = a
            .strip_prefix("--")
            .or_else(|| a.strip_prefix('-').filter(|f| f.len() == 1))
        {
            let (name, val) = match f.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (f.to_string(), None),
            };
            if !value_flags.contains(&name.as_str()) {
                return Err(format!("error: unknown flag: {a}\n\n{USAGE}"));
            }
            let val = match val {
                Some(v) => v,
                None => {
                    i += 1;
                    args.get(i)
                        .cloned()
                        .ok_or_else(|| format!("error: flag needs an argument: {a}"))?
                }
            };
            flags.push((name, val));
        } else {
            positional.push(a.clone());
        }
        i += 1;
    }
    Ok(Args {
        positional,
        flags,
        rest,
    })
}

impl Args {
    fn flag(&self, names: &[&str]) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(n, _)| names.contains(&n.as_str()))
            .map(|(_, v)| v.as_str())
    }
}

fn load_scenario(arg: &str) -> Result<Scenario, String> {
    let (text, label) = match std::fs::read_to_string(arg) {
        Ok(t) => (t, arg.to_string()),
        Err(io) => match builtin::get(arg) {
            Some(t) => (t.to_string(), format!("builtin:{arg}")),
            None => return Err(format!("error: cannot read scenario {arg:?}: {io}")),
        },
    };
    Scenario::parse(&text).map_err(|e| format!("error: {label}: {e}"))
}

fn build(s: &Scenario) -> Result<Simulation, String> {
    s.build().map_err(|e| format!("error: {e}"))
}

fn parse_duration(flag: &str, v: &str) -> Result<Duration, String> {
    Duration::parse(v).map_err(|e| format!("error: --{flag}: {e}"))
}

/// kubectl ends what it prints with a newline; the library's output (also shown in the page's
/// console) may not.
fn with_final_newline(mut s: String) -> String {
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Whether kubectl arguments read standard input (`-f -`, `--filename=-`).
fn reads_stdin(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "-f" | "--filename") && words.get(i + 1).is_some_and(|n| n == "-")
            || matches!(w.as_str(), "-f-" | "-f=-" | "--filename=-")
    })
}

/// The real file system for `-f PATH`, with Go's error texts (`open p: permission denied`).
#[derive(Debug)]
struct OsFs;

/// Go's text for an I/O error of `op` on `path` (`*fs.PathError`): the errno text in lower
/// case, as Go's syscall table spells it.
fn go_path_error(op: &str, path: &str, e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let reason = match e.kind() {
        ErrorKind::NotFound => "no such file or directory".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::InvalidData => "invalid argument".to_string(),
        _ => {
            let t = e.to_string();
            let t = t.split(" (os error").next().unwrap_or(&t).to_string();
            let mut c = t.chars();
            c.next()
                .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        }
    };
    format!("{op} {path}: {reason}")
}

fn os_stat(
    op: &str,
    path: &str,
    m: std::io::Result<std::fs::Metadata>,
) -> kubeplay::kubectl::files::Stat {
    use kubeplay::kubectl::files::Stat;
    match m {
        Ok(m) if m.is_dir() => Stat::Dir,
        Ok(_) => Stat::File,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Stat::NotExist,
        Err(e) => Stat::Error(go_path_error(op, path, &e)),
    }
}

impl kubeplay::kubectl::files::FileSystem for OsFs {
    fn stat(&self, path: &str) -> kubeplay::kubectl::files::Stat {
        os_stat("stat", path, std::fs::metadata(path))
    }
    fn lstat(&self, path: &str) -> kubeplay::kubectl::files::Stat {
        os_stat("lstat", path, std::fs::symlink_metadata(path))
    }
    fn read_dir(&self, path: &str) -> Result<Vec<String>, String> {
        let rd = std::fs::read_dir(path).map_err(|e| go_path_error("open", path, &e))?;
        let mut names = vec![];
        for entry in rd {
            let entry = entry.map_err(|e| go_path_error("readdirent", path, &e))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        Ok(names)
    }
    fn read(&self, path: &str) -> Result<String, String> {
        let bytes = std::fs::read(path).map_err(|e| {
            let op = if e.kind() == std::io::ErrorKind::IsADirectory {
                "read"
            } else {
                "open"
            };
            go_path_error(op, path, &e)
        })?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

fn kubectl_or_err(sim: &mut Simulation, cmd: &str) -> String {
    match kubeplay::kubectl::execute(sim, cmd) {
        Ok(s) => with_final_newline(s),
        Err(e) => format!("{e}\n"),
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let Some(cmd) = args.first() else {
        return Err(USAGE.into());
    };
    match cmd.as_str() {
        "-h" | "--help" | "help" => Ok(format!("{USAGE}\n")),
        "scenarios" => {
            let mut out = String::new();
            for (name, text) in builtin::BUILTIN {
                let desc = Scenario::parse(text)
                    .map(|s| s.metadata.description)
                    .unwrap_or_default();
                out.push_str(&format!(
                    "{name:<28} {}\n",
                    desc.split(". ").next().unwrap_or("")
                ));
            }
            Ok(out)
        }
        "run" => {
            let a = parse_args(&args[1..], &["until", "output", "o"])?;
            let [file] = a.positional.as_slice() else {
                return Err(format!("error: run takes exactly one SCENARIO\n\n{USAGE}"));
            };
            let s = load_scenario(file)?;
            let until = match a.flag(&["until"]) {
                Some(v) => parse_duration("until", v)?,
                None => s.default_duration().map_err(|e| format!("error: {e}"))?,
            };
            let mut sim = build(&s)?;
            let end = sim.start + until;
            sim.run_until(end).map_err(|e| format!("error: {e}"))?;
            match a.flag(&["output", "o"]).unwrap_or("events") {
                "events" => Ok(kubeplay::trace::render_trace(&sim)),
                "json" => {
                    let doc = RunDocument::of(&sim);
                    serde_json::to_string_pretty(&doc).map(|s| s + "\n").map_err(|e| format!("error: {e}"))
                }
                "table" => {
                    let mut out = String::new();
                    for q in ["get nodes", "get rs,rc -A", "get pods -A -o wide"] {
                        out.push_str(&format!("$ kubectl {q}\n"));
                        out.push_str(&kubectl_or_err(&mut sim, q));
                        out.push('\n');
                    }
                    Ok(out)
                }
                other => Err(format!(
                    "error: unable to match a printer suitable for the output format {other:?}, allowed formats are: events,json,table"
                )),
            }
        }
        "kubectl" => {
            let a = parse_args(&args[1..], &["at"])?;
            let [file] = a.positional.as_slice() else {
                return Err(format!(
                    "error: kubectl takes exactly one SCENARIO\n\n{USAGE}"
                ));
            };
            let s = load_scenario(file)?;
            let at = parse_duration("at", a.flag(&["at"]).unwrap_or("0s"))?;
            let mut sim = build(&s)?;
            let end = sim.start + at;
            sim.run_until(end).map_err(|e| format!("error: {e}"))?;
            // Each argument the shell handed us is one word: quote it so the console's
            // tokenizer gives it back unchanged (quotes in `-p '{"spec":…}'` included).
            let line = a
                .rest
                .iter()
                .map(|x| kubeplay::interop::export::shell_quote(x))
                .collect::<Vec<_>>()
                .join(" ");
            let stdin = if reads_stdin(&a.rest) {
                let mut t = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut t)
                    .map_err(|e| format!("error: reading standard input: {e}"))?;
                Some(t)
            } else {
                None
            };
            let input = kubeplay::kubectl::Input {
                stdin: stdin.as_deref(),
                files: None,
                fs: Some(&OsFs),
            };
            // kubectl writes results to standard output and warnings, notices ("No resources
            // found") and errors to standard error, then exits 1 if anything failed.
            let res = kubeplay::kubectl::execute_streams(&mut sim, &line, input);
            let trimmed = |s: String| with_final_newline(s.trim_end_matches('\n').to_string());
            let stdout = trimmed(res.stdout);
            if !res.stderr.is_empty() {
                eprint!("{}", trimmed(res.stderr));
            }
            if res.failed {
                print!("{stdout}");
                return Err(String::new());
            }
            Ok(stdout)
        }
        "explain-scale-down" => {
            let a = parse_args(&args[1..], &["at", "replicas", "n", "namespace"])?;
            let [file, target] = a.positional.as_slice() else {
                return Err(format!(
                    "error: explain-scale-down takes SCENARIO and rs/NAME\n\n{USAGE}"
                ));
            };
            let s = load_scenario(file)?;
            let at = parse_duration("at", a.flag(&["at"]).unwrap_or("0s"))?;
            let replicas: i32 = a
                .flag(&["replicas"])
                .ok_or("error: required flag(s) \"replicas\" not set")?
                .parse()
                .map_err(|_| "error: --replicas must be a non-negative integer".to_string())?;
            if replicas < 0 {
                return Err("error: --replicas must be a non-negative integer".into());
            }
            let ns = a.flag(&["n", "namespace"]).unwrap_or("default");
            let mut sim = build(&s)?;
            let end = sim.start + at;
            sim.run_until(end).map_err(|e| format!("error: {e}"))?;
            explain(&sim, ns, target, replicas)
        }
        "import" | "export" | "compare" => interop(cmd, &args[1..]),
        other => Err(format!(
            "error: unknown command {other:?} for \"kubeplay\"\n\n{USAGE}"
        )),
    }
}

fn explain(sim: &Simulation, ns: &str, target: &str, replicas: i32) -> Result<String, String> {
    let (kind, name) = target
        .split_once('/')
        .ok_or_else(|| format!("error: expected rs/NAME or rc/NAME, got {target:?}"))?;
    let gates = kubeplay::controllers::controller_utils::ScaleDownGates::from_gates(sim.gates());
    kubeplay::controllers::replicaset::explain::explain_scale_down_in_store(
        &sim.api.store,
        kind,
        ns,
        name,
        replicas,
        sim.now(),
        gates,
    )
    .map(|e| e.to_string())
    .map_err(|e| e.kubectl_message())
}

/// `import`, `export` and `compare` (see `kubeplay::interop`).
fn interop(cmd: &str, args: &[String]) -> Result<String, String> {
    use kubeplay::interop::{compare, export, import};
    let read = |f: &str| -> Result<String, String> {
        if f == "-" {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                .map_err(|e| format!("error: reading standard input: {e}"))?;
            return Ok(s);
        }
        std::fs::read_to_string(f).map_err(|e| format!("error: cannot read {f:?}: {e}"))
    };
    match cmd {
        "import" => {
            let a = parse_args(args, &["now", "name"])?;
            let [file] = a.positional.as_slice() else {
                return Err(format!(
                    "error: import takes exactly one FILE (or -)\n\n{USAGE}"
                ));
            };
            let now = match a.flag(&["now"]) {
                Some(t) => Some(
                    kubeplay::api::Time::parse_rfc3339(t)
                        .map_err(|e| format!("error: --now: {e}"))?,
                ),
                None => None,
            };
            let opts = import::ImportOptions {
                now,
                name: a.flag(&["name"]).map(String::from),
            };
            let imported = import::import_cluster(&read(file)?, &opts)
                .map_err(|e| format!("error: {file}: {e}"))?;
            for w in &imported.warnings {
                eprintln!("warning: {w}");
            }
            import::to_yaml(&imported).map_err(|e| format!("error: {e}"))
        }
        "export" => {
            let a = parse_args(args, &["to"])?;
            let [file] = a.positional.as_slice() else {
                return Err(format!(
                    "error: export takes exactly one SCENARIO\n\n{USAGE}"
                ));
            };
            let dir = a
                .flag(&["to"])
                .ok_or("error: required flag(s) \"to\" not set")?;
            let s = load_scenario(file)?;
            let files = export::export_scenario(&s).map_err(|e| format!("error: {e}"))?;
            let mut out = String::new();
            for (rel, text) in &files {
                let path = std::path::Path::new(dir).join(rel);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("error: cannot create {}: {e}", parent.display()))?;
                }
                std::fs::write(&path, text)
                    .map_err(|e| format!("error: cannot write {}: {e}", path.display()))?;
                #[cfg(unix)]
                if rel.ends_with(".sh") {
                    use std::os::unix::fs::PermissionsExt;
                    let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
                }
                out.push_str(&format!("wrote {}\n", path.display()));
            }
            Ok(out)
        }
        _ => {
            let a = parse_args(args, &["objects", "until"])?;
            let [file, events] = a.positional.as_slice() else {
                return Err(format!(
                    "error: compare takes SCENARIO and EVENTS.json\n\n{USAGE}"
                ));
            };
            let s = load_scenario(file)?;
            let until = match a.flag(&["until"]) {
                Some(v) => Some(parse_duration("until", v)?),
                None => None,
            };
            let objects = match a.flag(&["objects"]) {
                Some(f) => Some(read(f)?),
                None => None,
            };
            let report = compare::compare_run(&s, until, &read(events)?, objects.as_deref())
                .map_err(|e| format!("error: {e}"))?;
            let text = compare::render(&report);
            if report.diverges() {
                // Printed, then a non-zero exit.
                print!("{text}");
                return Err("error: the real run and kubeplay diverge".into());
            }
            Ok(text)
        }
    }
}
