//! `kubectl create job NAME --image=IMAGE [-- COMMAND...]` and `kubectl create job NAME
//! --from=cronjob/X` (`pkg/cmd/create/create_job.go`): a one-container Job, or a Job with the
//! CronJob's job template, the `cronjob.kubernetes.io/instantiate: manual` annotation and a
//! controller reference to the CronJob (without blockOwnerDeletion, as kubectl sets it).

use super::args::{self, Flag};
use super::resource::{self, Kind};
use super::{usage_error, DryRun, Namespace, Out, DRY_RUN_FLAG};
use crate::api::{CronJob, Job, Object, ObjectMeta, OwnerReference};
use crate::sim::Simulation;

const CMD: &str = "kubectl create job";

/// `createJobFromCronJob`.
pub fn job_from_cron_job(name: &str, namespace: &str, cj: &CronJob) -> Job {
    let mut annotations = std::collections::BTreeMap::new();
    annotations.insert(
        "cronjob.kubernetes.io/instantiate".to_string(),
        "manual".to_string(),
    );
    for (k, v) in &cj.spec.job_template.metadata.annotations {
        annotations.insert(k.clone(), v.clone());
    }
    Job {
        api_version: "batch/v1".into(),
        kind: "Job".into(),
        metadata: ObjectMeta {
            name: name.into(),
            namespace: namespace.into(),
            annotations: annotations.into(),
            labels: cj.spec.job_template.metadata.labels.clone(),
            owner_references: vec![OwnerReference {
                api_version: "batch/v1".into(),
                kind: "CronJob".into(),
                name: cj.metadata.name.clone(),
                uid: cj.metadata.uid.clone(),
                controller: Some(true),
                block_owner_deletion: None,
            }]
            .into(),
            ..Default::default()
        },
        spec: cj.spec.job_template.spec.clone().into(),
        ..Default::default()
    }
}

/// `createJob`: one container named after the Job, restartPolicy Never.
pub fn create_job(name: &str, image: &str, command: Vec<String>) -> Job {
    // A typed `corev1.Container`: its `resources` struct always marshals (`resources: {}`).
    let mut c = crate::api::Container {
        name: name.into(),
        image: image.into(),
        resources: Some(Default::default()),
        ..Default::default()
    };
    if !command.is_empty() {
        c.extra.insert("command".into(), command.into());
    }
    let mut job = Job {
        api_version: "batch/v1".into(),
        kind: "Job".into(),
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        ..Default::default()
    };
    let spec = job.spec.template_mut().spec_mut();
    spec.containers = vec![c];
    spec.restart_policy = "Never".into();
    job
}

pub(crate) fn run(sim: &mut Simulation, words: &[String], out: &mut Out) -> Result<(), String> {
    let flags = [
        Flag::str("from"),
        Flag::str("image"),
        DRY_RUN_FLAG,
        Flag::str("output").short('o'),
    ];
    let p = args::parse(CMD, words, &flags)?;
    let dry = DryRun::from(&p)?;
    let ns = Namespace::from(&p);
    // `NameFromCommandArgs`: the arguments before `--` name the Job; the rest is its command.
    let named = p.dash.unwrap_or(p.args.len());
    if named != 1 {
        return Err(usage_error(
            CMD,
            &format!("exactly one NAME is required, got {named}"),
        ));
    }
    let name = p.args[0].clone();
    let command = p.args[1..].to_vec();
    let from = p.string("from");
    let image = p.string("image");
    // `Validate`.
    if from.is_empty() == image.is_empty() {
        return Err("error: either --image or --from must be specified".into());
    }
    if !command.is_empty() && !from.is_empty() {
        return Err("error: cannot specify --from and command".into());
    }
    let job = if from.is_empty() {
        create_job(&name, &image, command)
    } else {
        let req = resource::build(std::slice::from_ref(&from), false, None, false)?;
        let resource::Request::Named(v) = &req else {
            return Err("error: from must be an existing cronjob".into());
        };
        let (kind, cj_name) = (v[0].0, v[0].1.clone());
        let item = resource::get(sim, kind, &ns.name, &cj_name)?;
        let resource::Item::Obj(Object::CronJob(cj)) = item else {
            // `fmt.Errorf("unknown object type %T", obj)`: the Go type of the object read.
            let version = kind.api_version().rsplit('/').next().unwrap_or_default();
            return Err(format!(
                "error: unknown object type *{version}.{}",
                kind.kind_name()
            ));
        };
        job_from_cron_job(&name, &ns.name, &cj)
    };
    create_generated(
        sim,
        out,
        &p,
        dry,
        &ns,
        Object::Job(job),
        ("Job", "job.batch"),
        |e| format!("error: failed to create job: {e}"),
    )
}

/// The common tail of kubectl's generator commands (`create job`, `create deployment`,
/// `create cronjob`, `run`): the object carries the namespace only when `-n` was given
/// (`EnforceNamespace`) and is created in the current namespace either way, unless
/// `--dry-run=client`; then `<resource>/<name> created`, or the `-o` format. `on_err` wraps
/// the server's error as each command does.
#[allow(clippy::too_many_arguments)] // one call per command, each argument its own
pub(crate) fn create_generated(
    sim: &mut Simulation,
    out: &mut Out,
    p: &args::Parsed,
    dry: DryRun,
    ns: &Namespace,
    mut obj: Object,
    (kind, resource): (&'static str, &str),
    on_err: impl FnOnce(crate::api::ApiError) -> String,
) -> Result<(), String> {
    obj.meta_mut().namespace = if ns.explicit || dry != DryRun::Client {
        ns.name.clone()
    } else {
        String::new()
    };
    let result = if dry == DryRun::Client {
        obj
    } else {
        super::server_write(sim, dry == DryRun::Server, out, |api| api.create(obj))
            .map_err(on_err)?
    };
    let output = p.string("output");
    if output.is_empty() {
        out.print(&format!(
            "{resource}/{} created{}",
            result.meta().name,
            dry.suffix()
        ));
    } else if output == "name" {
        out.print(&format!("{resource}/{}", result.meta().name));
    } else {
        let item = resource::Item::Obj(result);
        out.print(&super::output::print_generic(
            &output,
            &[(Kind::Obj(kind), item)],
            true,
        ));
    }
    Ok(())
}
