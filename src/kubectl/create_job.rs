//! `kubectl create job NAME --from=cronjob/X` (`pkg/cmd/create/create_job.go`): a Job with the
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
    if p.args.len() != 1 {
        return Err(usage_error(
            CMD,
            &format!("exactly one NAME is required, got {}", p.args.len()),
        ));
    }
    let name = p.args[0].clone();
    let from = p.string("from");
    let image = p.string("image");
    if from.is_empty() && image.is_empty() {
        return Err("error: either --image or --from must be specified".into());
    }
    if !from.is_empty() && !image.is_empty() {
        return Err("error: --image and --from can't be used together".into());
    }
    if from.is_empty() {
        return Err("error: kubeplay's create job supports only --from=cronjob/NAME".into());
    }
    let req = resource::build(std::slice::from_ref(&from), false, None, false)?;
    let resource::Request::Named(v) = &req else {
        return Err("error: from must be an existing cronjob".into());
    };
    let (kind, cj_name) = (v[0].0, v[0].1.clone());
    if kind != Kind::Obj("CronJob") {
        return Err(format!("error: unknown object type {}", kind.kind_name()));
    }
    let item = resource::get(sim, kind, &ns.name, &cj_name)?;
    let resource::Item::Obj(Object::CronJob(cj)) = item else {
        return Err("error: from must be an existing cronjob".into());
    };
    let job = Object::Job(job_from_cron_job(&name, &ns.name, &cj));
    let result = match dry {
        DryRun::Client => job,
        DryRun::Server => sim
            .api
            .clone()
            .create(job)
            .map_err(|e| e.kubectl_message())?,
        DryRun::None => sim.api.create(job).map_err(|e| e.kubectl_message())?,
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
