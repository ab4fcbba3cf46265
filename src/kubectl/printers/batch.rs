//! The Job and CronJob tables: `printJob` (STATUS COMPLETIONS DURATION; wide CONTAINERS IMAGES
//! SELECTOR) and `printCronJob` (SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE).

use super::{
    format_label_selector, layout_container_cells, print_bool_ptr, translate_timestamp_since,
    PrintOptions,
};
use crate::api::{human_duration, Job, JobCondition, Object};
use crate::kubectl::table::Column;

pub const JOB_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Status"),
    Column::std("Completions"),
    Column::std("Duration"),
    Column::std("Age"),
    Column::wide("Containers"),
    Column::wide("Images"),
    Column::wide("Selector"),
];

pub const CRON_JOB_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Schedule"),
    Column::std("Timezone"),
    Column::std("Suspend"),
    Column::std("Active"),
    Column::std("Last Schedule"),
    Column::std("Age"),
    Column::wide("Containers"),
    Column::wide("Images"),
    Column::wide("Selector"),
];

/// `hasJobCondition`: the first condition of the type decides (status `True`).
fn has_job_condition(conditions: &[JobCondition], type_: &str) -> bool {
    conditions
        .iter()
        .find(|c| c.type_ == type_)
        .is_some_and(|c| c.status == "True")
}

/// The STATUS cell of `printJob`.
pub fn job_status(j: &Job) -> &'static str {
    let c = &j.status.conditions;
    if has_job_condition(c, "Complete") {
        "Complete"
    } else if has_job_condition(c, "Failed") {
        "Failed"
    } else if j.metadata.deletion_timestamp.is_some() {
        "Terminating"
    } else if has_job_condition(c, "Suspended") {
        "Suspended"
    } else if has_job_condition(c, "FailureTarget") {
        "FailureTarget"
    } else if has_job_condition(c, "SuccessCriteriaMet") {
        // kubernetes/kubernetes#132832 (1.34): the interim success condition has its own STATUS.
        "SuccessCriteriaMet"
    } else {
        "Running"
    }
}

/// The COMPLETIONS cell of `printJob`: `succeeded/completions`, or `n/1 of parallelism` for a
/// work-queue Job with parallelism above one.
pub fn job_completions(j: &Job) -> String {
    match j.spec.completions {
        Some(c) => format!("{}/{c}", j.status.succeeded),
        None => {
            let parallelism = j.spec.parallelism.unwrap_or(0);
            if parallelism > 1 {
                format!("{}/1 of {parallelism}", j.status.succeeded)
            } else {
                format!("{}/1", j.status.succeeded)
            }
        }
    }
}

pub fn job_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::Job(j) = o else {
        return vec![];
    };
    let duration = match (j.status.start_time, j.status.completion_time) {
        (None, _) => String::new(),
        (Some(s), None) => human_duration(opts.now - s),
        (Some(s), Some(c)) => human_duration(c - s),
    };
    let mut cells = vec![
        j.metadata.name.clone(),
        job_status(j).to_string(),
        job_completions(j),
        duration,
        translate_timestamp_since(j.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let (names, images) = layout_container_cells(&j.spec.template.spec.containers);
        cells.push(names);
        cells.push(images);
        cells.push(format_label_selector(j.spec.selector.as_ref()));
    }
    cells
}

pub fn cron_job_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::CronJob(cj) = o else {
        return vec![];
    };
    let last = match cj.status.last_schedule_time {
        None => "<none>".to_string(),
        Some(t) => translate_timestamp_since(Some(t), opts.now),
    };
    let mut cells = vec![
        cj.metadata.name.clone(),
        cj.spec.schedule.clone(),
        cj.spec.time_zone.clone().unwrap_or_else(|| "<none>".into()),
        print_bool_ptr(cj.spec.suspend),
        cj.status.active.len().to_string(),
        last,
        translate_timestamp_since(cj.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let spec = &cj.spec.job_template.spec;
        let (names, images) = layout_container_cells(&spec.template.spec.containers);
        cells.push(names);
        cells.push(images);
        cells.push(format_label_selector(spec.selector.as_ref()));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        Container, CronJob, CronJobSpec, CronJobStatus, Duration, JobSpec, JobStatus,
        JobTemplateSpec, LabelSelector, ObjectMeta, ObjectReference, PodSpec, PodTemplateSpec,
        Time,
    };
    use crate::kubectl::printers::testutil::now;

    fn opts(wide: bool) -> PrintOptions {
        PrintOptions { wide, now: now() }
    }

    fn sel(k: &str, v: &str) -> Option<LabelSelector> {
        Some(LabelSelector::from_labels(
            &[(k.to_string(), v.to_string())].into_iter().collect(),
        ))
    }

    fn job_containers() -> PodTemplateSpec {
        PodTemplateSpec {
            spec: std::sync::Arc::new(PodSpec {
                containers: vec![
                    Container {
                        name: "fake-job-container1".into(),
                        image: "fake-job-image1".into(),
                        ..Default::default()
                    },
                    Container {
                        name: "fake-job-container2".into(),
                        image: "fake-job-image2".into(),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn job(name: &str, created: Time, spec: JobSpec, status: JobStatus) -> Object {
        Object::Job(Job {
            metadata: ObjectMeta {
                name: name.into(),
                creation_timestamp: Some(created),
                ..Default::default()
            },
            spec: spec.into(),
            status: status.into(),
            ..Default::default()
        })
    }

    fn cond(type_: &str, status: &str) -> JobCondition {
        JobCondition {
            type_: type_.into(),
            status: status.into(),
            ..Default::default()
        }
    }

    /// Port of TestPrintJob (pkg/printers/internalversion/printers_test.go), with the STATUS
    /// column of current releases.
    #[test]
    fn print_job() {
        let soon = now() + Duration::from_millis(1900);
        let ten_years = now() - Duration::from_secs(10 * 365 * 86400 + 3 * 86400);
        let j1 = job(
            "job1",
            soon,
            JobSpec {
                completions: Some(2),
                template: std::sync::Arc::new(job_containers()),
                selector: sel("job-label", "job-label-value"),
                ..Default::default()
            },
            JobStatus {
                succeeded: 1,
                ..Default::default()
            },
        );
        assert_eq!(
            job_row(&j1, &opts(false)),
            ["job1", "Running", "1/2", "", "0s"]
        );
        assert_eq!(
            job_row(&j1, &opts(true)),
            [
                "job1",
                "Running",
                "1/2",
                "",
                "0s",
                "fake-job-container1,fake-job-container2",
                "fake-job-image1,fake-job-image2",
                "job-label=job-label-value"
            ]
        );
        let j2 = job("job2", ten_years, JobSpec::default(), JobStatus::default());
        assert_eq!(
            job_row(&j2, &opts(false)),
            ["job2", "Running", "0/1", "", "10y"]
        );
        let j3 = job(
            "job3",
            ten_years,
            JobSpec::default(),
            JobStatus {
                start_time: Some(now() + Duration::from_secs(60)),
                completion_time: Some(now() + Duration::from_secs(31 * 60)),
                ..Default::default()
            },
        );
        assert_eq!(
            job_row(&j3, &opts(false)),
            ["job3", "Running", "0/1", "30m", "10y"]
        );
        let j4 = job(
            "job4",
            ten_years,
            JobSpec::default(),
            JobStatus {
                start_time: Some(now() - Duration::from_secs(20 * 60)),
                ..Default::default()
            },
        );
        assert_eq!(
            job_row(&j4, &opts(false)),
            ["job4", "Running", "0/1", "20m", "10y"]
        );
        // Work queue with parallelism, and the status precedence.
        let mut j5 = job(
            "job5",
            ten_years,
            JobSpec {
                parallelism: Some(3),
                ..Default::default()
            },
            JobStatus {
                succeeded: 1,
                conditions: vec![cond("Suspended", "True"), cond("Complete", "False")],
                ..Default::default()
            },
        );
        assert_eq!(job_row(&j5, &opts(false))[1..3], ["Suspended", "1/1 of 3"]);
        if let Object::Job(j) = &mut j5 {
            j.metadata.deletion_timestamp = Some(now());
        }
        assert_eq!(job_row(&j5, &opts(false))[1], "Terminating");
        if let Object::Job(j) = &mut j5 {
            j.status.conditions = vec![cond("FailureTarget", "True"), cond("Failed", "True")];
        }
        assert_eq!(job_row(&j5, &opts(false))[1], "Failed");
        if let Object::Job(j) = &mut j5 {
            j.metadata.deletion_timestamp = None;
            j.status.conditions = vec![cond("FailureTarget", "True")];
        }
        assert_eq!(job_row(&j5, &opts(false))[1], "FailureTarget");
    }

    /// Port of TestPrintCronJob (pkg/printers/internalversion/printers_test.go), with the
    /// TIMEZONE column of current releases.
    #[test]
    fn print_cron_job() {
        let cj = |name: &str, created: Time, last: Option<Time>, tz: Option<&str>| {
            Object::CronJob(CronJob {
                metadata: ObjectMeta {
                    name: name.into(),
                    creation_timestamp: Some(created),
                    ..Default::default()
                },
                spec: (CronJobSpec {
                    schedule: "0/5 * * * ?".into(),
                    time_zone: tz.map(str::to_string),
                    suspend: Some(false),
                    job_template: Box::new(JobTemplateSpec {
                        spec: JobSpec {
                            template: std::sync::Arc::new(job_containers()),
                            selector: sel("a", "b"),
                            ..Default::default()
                        },
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .into(),
                status: (CronJobStatus {
                    last_schedule_time: last,
                    ..Default::default()
                })
                .into(),
                ..Default::default()
            })
        };
        let soon = now() + Duration::from_millis(1900);
        let c1 = cj("cronjob1", soon, Some(soon), None);
        assert_eq!(
            cron_job_row(&c1, &opts(false)),
            [
                "cronjob1",
                "0/5 * * * ?",
                "<none>",
                "False",
                "0",
                "0s",
                "0s"
            ]
        );
        assert_eq!(
            cron_job_row(&c1, &opts(true)),
            [
                "cronjob1",
                "0/5 * * * ?",
                "<none>",
                "False",
                "0",
                "0s",
                "0s",
                "fake-job-container1,fake-job-container2",
                "fake-job-image1,fake-job-image2",
                "a=b"
            ]
        );
        let c2 = cj(
            "cronjob2",
            now() - Duration::from_secs(3 * 60),
            Some(now() - Duration::from_secs(30)),
            Some("Europe/Berlin"),
        );
        assert_eq!(
            cron_job_row(&c2, &opts(false)),
            [
                "cronjob2",
                "0/5 * * * ?",
                "Europe/Berlin",
                "False",
                "0",
                "30s",
                "3m"
            ]
        );
        let mut c3 = cj("cronjob3", now() - Duration::from_secs(3 * 60), None, None);
        if let Object::CronJob(c) = &mut c3 {
            c.spec.suspend = None;
            c.status.active = vec![ObjectReference::default(), ObjectReference::default()];
        }
        assert_eq!(
            cron_job_row(&c3, &opts(false)),
            [
                "cronjob3",
                "0/5 * * * ?",
                "<none>",
                "<unset>",
                "2",
                "<none>",
                "3m"
            ]
        );
    }
}
