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
    super::defaults::default_template_spec(&mut s.template);
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
    super::defaults::default_template_spec(&mut s.job_template.spec.template);
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
            j.spec.pod_failure_policy.clone().unwrap().rules[0].on_pod_conditions[0].status,
            "True"
        );
        // Labels from the template when the Job has none; kept otherwise.
        let mut j = job();
        j.spec.template_mut().metadata.labels = Labels::from([("app".into(), "pi".into())]).into();
        set_defaults_job(&mut j);
        assert_eq!(j.metadata.labels["app"], "pi");
    }

    // Upstream: TestSetDefaultJob (pkg/apis/batch/v1/defaults_test.go), every row. JobPodReplacementPolicy
    // is GA (locked on) in 1.35, so the rows upstream ran with the gate off expect the defaulted
    // podReplacementPolicy here (TerminatingOrFailed, or Failed with a podFailurePolicy). Compared
    // as upstream: suspend, completions, parallelism, backoffLimit, podFailurePolicy, the Job's
    // labels equal to the template's (expectLabels), completionMode, podReplacementPolicy and
    // manualSelector.
    #[test]
    fn set_default_job_table() {
        use serde_json::json;
        let tmpl = json!({"metadata": {"labels": {"default": "default"}}});
        let with = |extra: serde_json::Value| {
            let mut spec = json!({"template": tmpl});
            for (k, v) in extra.as_object().unwrap() {
                spec[k] = v.clone();
            }
            spec
        };
        // (name, job labels, original spec, expected spec, expectLabels)
        let pfp_in = json!({"rules": [
            {"action": "FailJob", "onPodConditions": [
                {"type": "DisruptionTarget", "status": "True"},
                {"type": "MemoryLimitExceeded", "status": "False"},
                {"type": "DiskLimitExceeded"}]},
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}},
            {"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget"}]}]});
        let pfp_out = json!({"rules": [
            {"action": "FailJob", "onPodConditions": [
                {"type": "DisruptionTarget", "status": "True"},
                {"type": "MemoryLimitExceeded", "status": "False"},
                {"type": "DiskLimitExceeded", "status": "True"}]},
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}},
            {"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]});
        let pfp_exit = json!({"rules": [
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}]});
        let defaults = |extra: serde_json::Value| {
            let mut spec = json!({
                "completions": 1, "parallelism": 1, "backoffLimit": 6,
                "completionMode": "NonIndexed", "suspend": false,
                "podReplacementPolicy": "TerminatingOrFailed", "manualSelector": false});
            for (k, v) in extra.as_object().unwrap() {
                if v.is_null() {
                    spec.as_object_mut().unwrap().remove(k);
                } else {
                    spec[k] = v.clone();
                }
            }
            spec
        };
        let no_labels = json!({});
        let my_labels = json!({"mylabel": "myvalue"});
        let rows: Vec<(&str, &serde_json::Value, serde_json::Value, serde_json::Value, bool)> = vec![
            (
                "Pod failure policy with some field values unspecified -> set default values",
                &no_labels,
                with(json!({"podFailurePolicy": pfp_in})),
                defaults(json!({"podFailurePolicy": pfp_out, "podReplacementPolicy": "Failed"})),
                true,
            ),
            (
                "Pod failure policy and defaulting for pod replacement policy",
                &no_labels,
                with(json!({"podFailurePolicy": pfp_exit})),
                defaults(json!({"podFailurePolicy": pfp_exit, "podReplacementPolicy": "Failed"})),
                true,
            ),
            (
                "All unspecified and podReplacementPolicyEnabled -> sets all to default values",
                &no_labels,
                with(json!({})),
                defaults(json!({})),
                true,
            ),
            (
                "All unspecified -> sets all to default values",
                &no_labels,
                with(json!({})),
                defaults(json!({})),
                true,
            ),
            (
                "All unspecified, suspend job enabled -> sets all to default values",
                &no_labels,
                with(json!({})),
                defaults(json!({})),
                true,
            ),
            (
                "suspend set, everything else is defaulted",
                &no_labels,
                with(json!({"suspend": true})),
                defaults(json!({"suspend": true})),
                true,
            ),
            (
                "All unspecified -> all pointers are defaulted and no default labels",
                &my_labels,
                with(json!({})),
                defaults(json!({})),
                false,
            ),
            (
                "WQ: Parallelism explicitly 0 and completions unset -> BackoffLimit is defaulted",
                &no_labels,
                with(json!({"parallelism": 0})),
                defaults(json!({"parallelism": 0, "completions": null})),
                true,
            ),
            (
                "WQ: Parallelism explicitly 2 and completions unset -> BackoffLimit is defaulted",
                &no_labels,
                with(json!({"parallelism": 2})),
                defaults(json!({"parallelism": 2, "completions": null})),
                true,
            ),
            (
                "Completions explicitly 2 and others unset -> parallelism and BackoffLimit are defaulted",
                &no_labels,
                with(json!({"completions": 2})),
                defaults(json!({"completions": 2})),
                true,
            ),
            (
                "BackoffLimit explicitly 5 and others unset -> parallelism and completions are defaulted",
                &no_labels,
                with(json!({"backoffLimit": 5})),
                defaults(json!({"backoffLimit": 5})),
                true,
            ),
            (
                "All set -> no change",
                &no_labels,
                with(json!({"completions": 8, "parallelism": 9, "backoffLimit": 10,
                    "completionMode": "NonIndexed", "suspend": false,
                    "podReplacementPolicy": "TerminatingOrFailed", "manualSelector": false})),
                defaults(json!({"completions": 8, "parallelism": 9, "backoffLimit": 10})),
                true,
            ),
            (
                "All set, flipped -> no change",
                &no_labels,
                with(json!({"completions": 11, "parallelism": 10, "backoffLimit": 9,
                    "completionMode": "Indexed", "suspend": true,
                    "podReplacementPolicy": "Failed", "manualSelector": true})),
                defaults(json!({"completions": 11, "parallelism": 10, "backoffLimit": 9,
                    "completionMode": "Indexed", "suspend": true,
                    "podReplacementPolicy": "Failed", "manualSelector": true})),
                true,
            ),
            (
                "BackoffLimitPerIndex specified, but no BackoffLimit -> default BackoffLimit to max int32",
                &no_labels,
                with(json!({"completions": 11, "parallelism": 10, "backoffLimitPerIndex": 1,
                    "completionMode": "Indexed", "suspend": true, "manualSelector": false})),
                defaults(json!({"completions": 11, "parallelism": 10, "backoffLimit": i32::MAX,
                    "backoffLimitPerIndex": 1, "completionMode": "Indexed", "suspend": true})),
                true,
            ),
            (
                "BackoffLimitPerIndex and BackoffLimit specified -> no change",
                &no_labels,
                with(json!({"completions": 11, "parallelism": 10, "backoffLimit": 3,
                    "backoffLimitPerIndex": 1, "completionMode": "Indexed", "suspend": true,
                    "manualSelector": true})),
                defaults(json!({"completions": 11, "parallelism": 10, "backoffLimit": 3,
                    "backoffLimitPerIndex": 1, "completionMode": "Indexed", "suspend": true,
                    "manualSelector": true})),
                true,
            ),
        ];
        for (name, labels, original, expected, expect_labels) in rows {
            let mut j: Job = serde_json::from_value(json!({
                "metadata": {"labels": labels}, "spec": original
            }))
            .unwrap();
            let want: JobSpec = serde_json::from_value(expected).unwrap();
            set_defaults_job(&mut j);
            let s = &j.spec;
            assert_eq!(s.suspend, want.suspend, "{name}: suspend");
            assert_eq!(s.completions, want.completions, "{name}: completions");
            assert_eq!(s.parallelism, want.parallelism, "{name}: parallelism");
            assert_eq!(s.backoff_limit, want.backoff_limit, "{name}: backoffLimit");
            assert_eq!(
                serde_json::to_value(&s.pod_failure_policy).unwrap(),
                serde_json::to_value(&want.pod_failure_policy).unwrap(),
                "{name}: podFailurePolicy"
            );
            assert_eq!(
                j.metadata.labels == s.template.metadata.labels,
                expect_labels,
                "{name}: labels"
            );
            assert_eq!(
                s.completion_mode, want.completion_mode,
                "{name}: completionMode"
            );
            assert_eq!(
                s.pod_replacement_policy, want.pod_replacement_policy,
                "{name}: podReplacementPolicy"
            );
            assert_eq!(
                s.manual_selector, want.manual_selector,
                "{name}: manualSelector"
            );
        }
    }

    // Upstream: TestSetDefaultCronJob (pkg/apis/batch/v1/defaults_test.go), both rows.
    #[test]
    fn set_default_cron_job_table() {
        // "empty batchv1.CronJob should default batchv1.ConcurrencyPolicy and Suspend"
        let mut cj = CronJob::default();
        set_defaults_cron_job(&mut cj);
        let s = &cj.spec;
        assert_eq!(
            (
                s.concurrency_policy.as_str(),
                s.suspend,
                s.successful_jobs_history_limit,
                s.failed_jobs_history_limit
            ),
            ("Allow", Some(false), Some(3), Some(1))
        );
        // "set fields should not be defaulted"
        let mut cj = CronJob::default();
        cj.spec.concurrency_policy = "Forbid".into();
        cj.spec.suspend = Some(true);
        cj.spec.successful_jobs_history_limit = Some(5);
        cj.spec.failed_jobs_history_limit = Some(5);
        set_defaults_cron_job(&mut cj);
        let s = &cj.spec;
        assert_eq!(
            (
                s.concurrency_policy.as_str(),
                s.suspend,
                s.successful_jobs_history_limit,
                s.failed_jobs_history_limit
            ),
            ("Forbid", Some(true), Some(5), Some(5))
        );
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
            j.spec.selector.clone().unwrap().match_labels.unwrap(),
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
