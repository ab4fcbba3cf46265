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
    let mut job = if from.is_empty() {
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
    // Both builders set the namespace only when it was given (`EnforceNamespace`); the
    // client creates the Job in the current namespace either way.
    if !ns.explicit {
        job.metadata.namespace.clear();
    }
    let result = if dry == DryRun::Client {
        Object::Job(job)
    } else {
        job.metadata.namespace = ns.name.clone();
        super::server_write(sim, dry == DryRun::Server, out, |api| {
            api.create(Object::Job(job))
        })
        .map_err(|e| format!("error: failed to create job: {e}"))?
    };
    let output = p.string("output");
    if output.is_empty() {
        out.print(&format!(
            "job.batch/{} created{}",
            result.meta().name,
            dry.suffix()
        ));
    } else if output == "name" {
        out.print(&format!("job.batch/{}", result.meta().name));
    } else {
        let item = resource::Item::Obj(result);
        out.print(&super::output::print_generic(
            &output,
            &[(Kind::Obj("Job"), item)],
            true,
        ));
    }
    Ok(())
}
