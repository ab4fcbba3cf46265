//! `kubectl create cronjob NAME --image=IMAGE --schedule=SCHEDULE [--restart=R] [-- COMMAND...]`
//! (`pkg/cmd/create/create_cronjob.go`): one container named after the CronJob, the job
//! template named after it too, restartPolicy `OnFailure` unless given.

use super::args::{self, Flag};
use super::{usage_error, DryRun, Namespace, Out, DRY_RUN_FLAG};
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

const CMD: &str = "kubectl create cronjob";

/// `createCronJob` as JSON: what kubectl sends (before the server's defaults).
pub fn create_cron_job(
    name: &str,
    image: &str,
    schedule: &str,
    restart: &str,
    command: &[String],
) -> Value {
    let mut c = json!({"name": name, "image": image, "resources": {}});
    if !command.is_empty() {
        c["command"] = json!(command);
    }
    json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": name},
        "spec": {
            "schedule": schedule,
            "jobTemplate": {
                "metadata": {"name": name},
                "spec": {"template": {"metadata": {}, "spec": {
                    "containers": [c],
                    "restartPolicy": restart,
                }}},
            },
        },
    })
}

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let flags = [
        Flag::str("image"),
        Flag::str("schedule"),
        Flag::str("restart"),
        DRY_RUN_FLAG,
        Flag::str("output").short('o'),
    ];
    let p = args::parse(CMD, words, &flags)?;
    // cobra checks required flags before `Complete` runs.
    let missing: Vec<String> = ["image", "schedule"]
        .iter()
        .filter(|f| !p.changed(f))
        .map(|f| format!("{f:?}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "error: required flag(s) {} not set",
            missing.join(", ")
        ));
    }
    let dry = DryRun::from(&p)?;
    let ns = Namespace::from(&p);
    let named = p.dash.unwrap_or(p.args.len());
    if named != 1 {
        return Err(usage_error(
            CMD,
            &format!("exactly one NAME is required, got {named}"),
        ));
    }
    let name = p.args[0].clone();
    let command = p.args[1..].to_vec();
    let mut restart = p.string("restart");
    if restart.is_empty() {
        restart = "OnFailure".into();
    }
    let v = create_cron_job(
        &name,
        &p.string("image"),
        &p.string("schedule"),
        &restart,
        &command,
    );
    let obj = Object::from_value(v).map_err(|e| format!("error: {e}"))?;
    super::create_job::create_generated(
        sim,
        out,
        &p,
        dry,
        &ns,
        obj,
        ("CronJob", "cronjob.batch"),
        |e| format!("error: failed to create cronjob: {e}"),
    )
}

#[cfg(test)]
#[path = "create_cronjob_tests.rs"]
mod tests;
