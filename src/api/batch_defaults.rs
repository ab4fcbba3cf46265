//! Job and CronJob defaulting (`pkg/apis/batch/v1/defaults.go`) and the REST strategies'
//! create hooks (`pkg/registry/batch/job/strategy.go`: the generated selector and labels).

use super::batch::{
    CronJob, Job, JobSpec, CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL,
    LEGACY_JOB_NAME_LABEL, NON_INDEXED_COMPLETION,
};
use super::meta::LabelSelector;
use super::object::Object;

/// `SetDefaults_PodFailurePolicyOnPodConditionsPattern`: a pattern without status means `True`.
fn default_pod_failure_policy(spec: &mut JobSpec) {
    if let Some(p) = spec.pod_failure_policy.as_mut() {
        for r in p.rules.iter_mut() {
            for pat in r.on_pod_conditions.iter_mut() {
                if pat.status.is_empty() {
                    pat.status = "True".into();
                }
            }
        }
    }
}

/// `SetDefaults_Job` plus the nested pod template defaults:
/// * completions and parallelism 1 when both are unset; otherwise parallelism 1 when unset;
/// * backoffLimit 6, or MaxInt32 with backoffLimitPerIndex;
/// * the Job's labels are the template's labels when the Job has none;
/// * completionMode `NonIndexed`, suspend `false`, manualSelector `false`;
/// * podReplacementPolicy `Failed` with a podFailurePolicy, else `TerminatingOrFailed`
///   (JobPodReplacementPolicy is on by default).
pub fn set_defaults_job(j: &mut Job) {
    let s = &mut j.spec;
    if s.completions.is_none() && s.parallelism.is_none() {
        s.completions = Some(1);
        s.parallelism = Some(1);
    }
    if s.parallelism.is_none() {
        s.parallelism = Some(1);
    }
    if s.backoff_limit.is_none() {
        s.backoff_limit = Some(if s.backoff_limit_per_index.is_some() {
            i32::MAX
        } else {
            6
        });
    }
    if !s.template.metadata.labels.is_empty() && j.metadata.labels.is_empty() {
        j.metadata.labels = s.template.metadata.labels.clone();
    }
    let s = &mut j.spec;
    if s.completion_mode.is_none() {
        s.completion_mode = Some(NON_INDEXED_COMPLETION.into());
    }
    if s.suspend.is_none() {
        s.suspend = Some(false);
    }
    if s.pod_replacement_policy.is_none() {
        s.pod_replacement_policy = Some(
            if s.pod_failure_policy.is_some() {
                "Failed"
            } else {
                "TerminatingOrFailed"
            }
            .into(),
        );
    }
    if s.manual_selector.is_none() {
        s.manual_selector = Some(false);
    }
    default_pod_failure_policy(s);
    super::defaults::default_pod_spec(s.template_mut().spec_mut());
}

/// `SetDefaults_CronJob` plus the job template's nested defaults (the template's JobSpec itself is
/// not defaulted, as upstream): concurrencyPolicy `Allow`, suspend `false`, history limits 3 and 1.
pub fn set_defaults_cron_job(cj: &mut CronJob) {
    let s = &mut cj.spec;
    if s.concurrency_policy.is_empty() {
        s.concurrency_policy = "Allow".into();
    }
    if s.suspend.is_none() {
        s.suspend = Some(false);
    }
    if s.successful_jobs_history_limit.is_none() {
        s.successful_jobs_history_limit = Some(3);
    }
    if s.failed_jobs_history_limit.is_none() {
        s.failed_jobs_history_limit = Some(1);
    }
    default_pod_failure_policy(&mut s.job_template.spec);
    super::defaults::default_pod_spec(s.job_template.spec.template_mut().spec_mut());
}

/// `generateSelector`: the template gets `batch.kubernetes.io/job-name`, `job-name`,
/// `batch.kubernetes.io/controller-uid` and `controller-uid` labels (user-set values are kept and
/// left to validation), and the selector matches `batch.kubernetes.io/controller-uid=<uid>`.
pub fn generate_selector(j: &mut Job) {
    let name = j.metadata.name.clone();
    let uid = j.metadata.uid.clone();
    let labels = &mut j.spec.template_mut().metadata.labels;
    for k in [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL] {
        labels.entry(k.into()).or_insert_with(|| name.clone());
    }
    for k in [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL] {
        labels.entry(k.into()).or_insert_with(|| uid.clone());
    }
    let sel = j.spec.selector.get_or_insert_with(LabelSelector::default);
    sel.match_labels
        .get_or_insert_with(Default::default)
        .entry(CONTROLLER_UID_LABEL.into())
        .or_insert(uid);
}

/// `generateSelectorIfNeeded`: unless `manualSelector: true`.
pub fn generate_selector_if_needed(j: &mut Job) {
    if j.spec.manual_selector != Some(true) {
        generate_selector(j);
    }
}

/// `jobStrategy.PrepareForCreate`: the selector is generated (with the uid the API server already
/// assigned) and status is cleared. The Job's labels are defaulted from the user's template labels
/// first, as decoding does before the strategy runs.
pub fn prepare_for_create_job(j: &mut Job) {
    if !j.spec.template.metadata.labels.is_empty() && j.metadata.labels.is_empty() {
        j.metadata.labels = j.spec.template.metadata.labels.clone();
    }
    if j.spec.manual_selector.is_none() {
        j.spec.manual_selector = Some(false);
    }
    generate_selector_if_needed(j);
    j.status = Default::default();
}

/// `cronJobStrategy.PrepareForCreate`: status is cleared.
pub fn prepare_for_create_cron_job(cj: &mut CronJob) {
    cj.status = Default::default();
}

/// Kinds whose create strategy needs the uid (Jobs: the generated selector names it). The API
/// server assigns it before `PrepareForCreate` for these.
pub fn needs_uid_before_prepare(o: &Object) -> bool {
    matches!(o, Object::Job(_))
}

/// Loading a hand-written Job (scenario objects): a Job without a selector gets the generated one,
/// as if it had been created through the API. Objects carrying a selector are kept as written.
pub fn prepare_for_load(o: &mut Object) {
    if let Object::Job(j) = o {
        if j.spec.selector.is_none() {
            generate_selector_if_needed(j);
            if j.metadata.labels.is_empty() {
                j.metadata.labels = j.spec.template.metadata.labels.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Container, Labels};

    fn job() -> Job {
        let mut j = Job::default();
        j.metadata.name = "pi".into();
        j.metadata.uid = "u-1".into();
        j.spec.template_mut().spec_mut().containers = vec![Container {
            name: "pi".into(),
            image: "perl:5.34.0".into(),
            ..Default::default()
        }];
        j.spec.template_mut().spec_mut().restart_policy = "Never".into();
        j
    }

    /// Port of TestSetDefaultJob (pkg/apis/batch/v1/defaults_test.go), main rows.
    #[test]
    fn set_default_job() {
        // Both unset: 1 and 1.
        let mut j = job();
        set_defaults_job(&mut j);
        assert_eq!((j.spec.completions, j.spec.parallelism), (Some(1), Some(1)));
        assert_eq!(j.spec.backoff_limit, Some(6));
        assert_eq!(j.spec.completion_mode.as_deref(), Some("NonIndexed"));
        assert_eq!(j.spec.suspend, Some(false));
        assert_eq!(j.spec.manual_selector, Some(false));
        assert_eq!(
            j.spec.pod_replacement_policy.as_deref(),
            Some("TerminatingOrFailed")
        );
        // Only completions: parallelism 1, completions kept.
        let mut j = job();
        j.spec.completions = Some(5);
        set_defaults_job(&mut j);
        assert_eq!((j.spec.completions, j.spec.parallelism), (Some(5), Some(1)));
        // Only parallelism: completions stays nil (a work queue).
        let mut j = job();
        j.spec.parallelism = Some(3);
        set_defaults_job(&mut j);
        assert_eq!((j.spec.completions, j.spec.parallelism), (None, Some(3)));
        // backoffLimitPerIndex: backoffLimit MaxInt32.
        let mut j = job();
        j.spec.backoff_limit_per_index = Some(1);
        set_defaults_job(&mut j);
        assert_eq!(j.spec.backoff_limit, Some(i32::MAX));
        // podFailurePolicy: Failed replacement policy, pattern status True.
        let mut j = job();
        j.spec.pod_failure_policy = Some(crate::api::batch::PodFailurePolicy {
            rules: vec![crate::api::batch::PodFailurePolicyRule {
                action: "Ignore".into(),
                on_exit_codes: None,
                on_pod_conditions: vec![
                    crate::api::batch::PodFailurePolicyOnPodConditionsPattern {
                        type_: "DisruptionTarget".into(),
                        status: String::new(),
                    },
                ],
            }],
        });
        set_defaults_job(&mut j);
        assert_eq!(j.spec.pod_replacement_policy.as_deref(), Some("Failed"));
        assert_eq!(
            j.spec.pod_failure_policy.unwrap().rules[0].on_pod_conditions[0].status,
            "True"
        );
        // Labels from the template when the Job has none; kept otherwise.
        let mut j = job();
        j.spec.template_mut().metadata.labels = Labels::from([("app".into(), "pi".into())]);
        set_defaults_job(&mut j);
        assert_eq!(j.metadata.labels["app"], "pi");
    }

    /// Port of TestJobStrategy_PrepareForCreate's selector generation
    /// (pkg/registry/batch/job/strategy_test.go).
    #[test]
    fn generated_selector_and_labels() {
        let mut j = job();
        prepare_for_create_job(&mut j);
        let l = &j.spec.template.metadata.labels;
        assert_eq!(l["batch.kubernetes.io/controller-uid"], "u-1");
        assert_eq!(l["controller-uid"], "u-1");
        assert_eq!(l["batch.kubernetes.io/job-name"], "pi");
        assert_eq!(l["job-name"], "pi");
        assert_eq!(
            j.spec.selector.unwrap().match_labels.unwrap(),
            Labels::from([("batch.kubernetes.io/controller-uid".into(), "u-1".into())])
        );
        // manualSelector: nothing generated.
        let mut j = job();
        j.spec.manual_selector = Some(true);
        prepare_for_create_job(&mut j);
        assert!(j.spec.selector.is_none());
    }

    #[test]
    fn cron_job_defaults() {
        let mut cj = CronJob::default();
        set_defaults_cron_job(&mut cj);
        assert_eq!(cj.spec.concurrency_policy, "Allow");
        assert_eq!(cj.spec.suspend, Some(false));
        assert_eq!(cj.spec.successful_jobs_history_limit, Some(3));
        assert_eq!(cj.spec.failed_jobs_history_limit, Some(1));
        // The template's JobSpec is not defaulted; its pod spec is.
        assert_eq!(cj.spec.job_template.spec.parallelism, None);
        assert_eq!(
            cj.spec.job_template.spec.template.spec.scheduler_name,
            "default-scheduler"
        );
    }
}
