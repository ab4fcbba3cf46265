//! `kubectl create deployment NAME --image=IMAGE [--replicas=N] [--port=P] [-- COMMAND...]`
//! (`pkg/cmd/create/create_deployment.go`): labels and selector `app: NAME`, one container per
//! image named after the image (`buildPodSpec`), `replicas` 1 unless given.

use super::args::{self, Flag};
use super::{usage_error, DryRun, Namespace, Out, DRY_RUN_FLAG};
use crate::api::Object;
use crate::sim::Simulation;
use serde_json::{json, Value};

const CMD: &str = "kubectl create deployment";

/// `buildPodSpec`'s container name for an image: the last path segment without its tag or
/// digest; `sanitizeAndUniquify` turns `_` and `.` into `-` and then appends `-` and the
/// five-character `suffix` (upstream: `utilrand.String(5)`), only for such names.
///
/// Concrete example: `registry.k8s.io/pause:3.10` → `pause`; `my_app.v2@sha256:…` →
/// `my-app-v2-<suffix>`.
pub fn container_name_for_image(image: &str, suffix: &str) -> String {
    let mut name = image.rsplit('/').next().unwrap_or(image);
    if let Some((n, _)) = name.split_once(':') {
        name = n;
    }
    if let Some((n, _)) = name.split_once('@') {
        name = n;
    }
    if name.contains(['_', '.']) {
        format!("{}-{suffix}", name.replace(['_', '.'], "-"))
    } else {
        name.to_string()
    }
}

/// `createDeployment` as JSON: what kubectl sends (before the server's defaults).
pub fn create_deployment(
    name: &str,
    images: &[(String, String)],
    command: &[String],
    replicas: i64,
    port: i64,
) -> Value {
    let mut containers: Vec<Value> = images
        .iter()
        .map(|(container, image)| {
            let mut c = json!({"name": container, "image": image, "resources": {}});
            if !command.is_empty() {
                c["command"] = json!(command);
            }
            c
        })
        .collect();
    if port >= 0 {
        if let Some(c) = containers.first_mut() {
            c["ports"] = json!([{"containerPort": port}]);
        }
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": containers},
            },
            "strategy": {},
        },
    })
}

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let flags = [
        Flag::strings("image"),
        Flag::int("port"),
        Flag::int("replicas").short('r'),
        DRY_RUN_FLAG,
        Flag::str("output").short('o'),
    ];
    let p = args::parse(CMD, words, &flags)?;
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
    // `--image` is a string slice: repeated and comma-separated values.
    let images: Vec<String> = p
        .strings("image")
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if images.is_empty() {
        // `cmd.MarkFlagRequired("image")`: cobra's message.
        return Err("error: required flag(s) \"image\" not set".into());
    }
    if images.len() > 1 && !command.is_empty() {
        return Err("error: cannot specify multiple --image options and command".into());
    }
    let images: Vec<(String, String)> = images
        .into_iter()
        .map(|image| {
            let suffix = if image.contains(['_', '.']) {
                sim.api.rng.name_suffix(5)
            } else {
                String::new()
            };
            (container_name_for_image(&image, &suffix), image)
        })
        .collect();
    let replicas = p.int("replicas", 1);
    let port = p.int("port", -1);
    let v = create_deployment(&name, &images, &command, replicas, port);
    let obj = Object::from_value(v).map_err(|e| format!("error: {e}"))?;
    super::create_job::create_generated(
        sim,
        out,
        &p,
        dry,
        &ns,
        obj,
        ("Deployment", "deployment.apps"),
        |e| format!("error: failed to create deployment: {e}"),
    )
}

#[cfg(test)]
#[path = "create_deployment_tests.rs"]
mod tests;
