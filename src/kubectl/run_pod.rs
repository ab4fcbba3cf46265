//! `kubectl run NAME --image=IMAGE [--restart=R] [--labels=K=V,...] [--port=P] [--env=K=V]
//! [--command] [-- ARGS...]` (`pkg/cmd/run/run.go` with the `BasicPod` generator of
//! `pkg/generate/versioned/run.go`): one pod, label `run: NAME` unless `--labels` is given, one
//! container named NAME, `dnsPolicy: ClusterFirst`, restartPolicy `Always` unless given.
//! Attaching (`-i`, `-t`, `--attach`, `--rm`) is refused: kubeplay has no container streams.

use super::args::{self, Flag};
use super::{usage_error, DryRun, Namespace, Out, DRY_RUN_FLAG};
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Map, Value};

const CMD: &str = "kubectl run";

/// `BasicPod.StructuredGenerate` as JSON: what kubectl sends (before the server's defaults).
/// `args` become the container's `command` with `--command`, its `args` otherwise.
#[allow(clippy::too_many_arguments)] // the generator's parameters, as upstream's map holds them
pub fn basic_pod(
    name: &str,
    image: &str,
    labels: &[(String, String)],
    restart: &str,
    port: Option<i64>,
    env: &[(String, String)],
    args: &[String],
    command: bool,
) -> Value {
    let mut c = json!({"name": name, "image": image, "resources": {}});
    if !args.is_empty() {
        c[if command { "command" } else { "args" }] = json!(args);
    }
    if let Some(p) = port {
        c["ports"] = json!([{"containerPort": p}]);
    }
    if !env.is_empty() {
        c["env"] = env
            .iter()
            .map(|(k, v)| json!({"name": k, "value": v}))
            .collect();
    }
    let labels: Map<String, Value> = if labels.is_empty() {
        std::iter::once(("run".to_string(), json!(name))).collect()
    } else {
        labels.iter().map(|(k, v)| (k.clone(), json!(v))).collect()
    };
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "containers": [c],
            "dnsPolicy": "ClusterFirst",
            "restartPolicy": restart,
        },
    })
}

/// `generate.ParseLabels` / env `K=V` pairs: comma-separated `key=value`.
fn pairs(what: &str, raw: &[String], split_commas: bool) -> Result<Vec<(String, String)>, String> {
    let mut out = vec![];
    for v in raw {
        let parts: Vec<&str> = if split_commas {
            v.split(',').collect()
        } else {
            vec![v.as_str()]
        };
        for part in parts {
            match part.split_once('=') {
                Some((k, val)) if !k.is_empty() => out.push((k.to_string(), val.to_string())),
                _ => return Err(format!("error: invalid {what}: {part:?}")),
            }
        }
    }
    Ok(out)
}

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let flags = [
        Flag::str("image"),
        Flag::str("restart"),
        Flag::str("labels").short('l'),
        Flag::int("port"),
        Flag::strings("env"),
        Flag::bool("command"),
        Flag::bool("stdin").short('i'),
        Flag::bool("tty").short('t'),
        Flag::bool("attach"),
        Flag::bool("rm"),
        DRY_RUN_FLAG,
        Flag::str("output").short('o'),
    ];
    let p = args::parse(CMD, words, &flags)?;
    if !p.changed("image") {
        return Err("error: required flag(s) \"image\" not set".into());
    }
    let dry = DryRun::from(&p)?;
    let ns = Namespace::from(&p);
    if p.args.is_empty() || p.dash == Some(0) {
        return Err(usage_error(CMD, "NAME is required for run"));
    }
    if ["stdin", "tty", "attach", "rm"].iter().any(|f| p.bool(f)) {
        return Err(
            "error: kubeplay cannot attach to a container (no container streams): run without -i, -t, --attach and --rm"
                .into(),
        );
    }
    let name = p.args[0].clone();
    let rest = p.args[1..].to_vec();
    let restart = match p.str("restart").unwrap_or("Always") {
        r @ ("Always" | "OnFailure" | "Never") => r.to_string(),
        other => return Err(format!("error: invalid restart policy: {other}")),
    };
    let labels = match p.str("labels") {
        Some(l) if !l.is_empty() => pairs("label spec", &[l.to_string()], true)?,
        _ => vec![],
    };
    let env = pairs("env", &p.strings("env"), false)?;
    let port = p
        .changed("port")
        .then(|| p.int("port", -1))
        .filter(|&v| v >= 0);
    let v = basic_pod(
        &name,
        &p.string("image"),
        &labels,
        &restart,
        port,
        &env,
        &rest,
        p.bool("command"),
    );
    let obj = Object::from_value(v).map_err(|e| format!("error: {e}"))?;
    super::create_job::create_generated(sim, out, &p, dry, &ns, obj, ("Pod", "pod"), |e| {
        e.kubectl_message()
    })
}

#[cfg(test)]
#[path = "run_pod_tests.rs"]
mod tests;
