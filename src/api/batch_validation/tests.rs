use super::*;
use crate::api::batch::{PodFailurePolicy, SuccessPolicy};
use crate::api::{Container, Object};

fn valid_job() -> Job {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "myjob", "namespace": "default", "uid": "1a2b3c"},
        "spec": {"template": {"spec": {"restartPolicy": "OnFailure",
            "containers": [{"name": "abc", "image": "image"}]}}}
    });
    let mut o = Object::from_value(v).unwrap();
    crate::api::defaults::prepare_for_create(&mut o);
    crate::api::defaults::default_object(&mut o);
    let Object::Job(mut j) = o else {
        unreachable!()
    };
    j.metadata.resource_version = "1".into();
    j
}

fn texts(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

fn create_errs(j: &Job) -> Vec<String> {
    texts(&validate_job(j, validation_options_for_job(None)))
}

// Port of TestValidateJob (pkg/apis/batch/validation/validation_test.go): a defaulted Job with a
// generated selector is valid.
#[test]
fn valid_jobs() {
    let j = valid_job();
    assert!(create_errs(&j).is_empty(), "{:?}", create_errs(&j));
    let mut idx = valid_job();
    idx.spec.completion_mode = Some("Indexed".into());
    idx.spec.completions = Some(3);
    idx.spec.backoff_limit_per_index = Some(1);
    idx.spec.max_failed_indexes = Some(1);
    idx.spec.success_policy = Some(SuccessPolicy {
        rules: vec![SuccessPolicyRule {
            succeeded_indexes: Some("0-1".into()),
            succeeded_count: Some(1),
        }],
    });
    assert!(create_errs(&idx).is_empty(), "{:?}", create_errs(&idx));
}

// Error rows of TestValidateJob, with upstream's exact texts.
#[test]
fn invalid_jobs() {
    let mut j = valid_job();
    j.spec.template_mut().spec_mut().restart_policy = "Always".into();
    assert_eq!(
        create_errs(&j),
        ["spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""]
    );

    let mut j = valid_job();
    j.spec.parallelism = Some(-1);
    j.spec.completions = Some(-1);
    j.spec.active_deadline_seconds = Some(-1);
    j.spec.backoff_limit = Some(-1);
    j.spec.ttl_seconds_after_finished = Some(-1);
    assert_eq!(
        create_errs(&j),
        [
            "spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
            "spec.completions: Invalid value: -1: must be greater than or equal to 0",
            "spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
            "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
            "spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0",
        ]
    );

    let mut j = valid_job();
    j.spec.completion_mode = Some("Indexed".into());
    j.spec.completions = None;
    assert_eq!(
        create_errs(&j),
        ["spec.completions: Required value: when completion mode is Indexed"]
    );

    let mut j = valid_job();
    j.spec.backoff_limit_per_index = Some(1);
    assert_eq!(
        create_errs(&j),
        ["spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"]
    );

    let mut j = valid_job();
    j.spec.max_failed_indexes = Some(1);
    j.spec.completion_mode = Some("Indexed".into());
    assert_eq!(
        create_errs(&j),
        ["spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified"]
    );

    // The generated labels are checked.
    let mut j = valid_job();
    j.spec
        .template_mut()
        .metadata
        .labels
        .insert("controller-uid".into(), "other".into());
    let e = create_errs(&j);
    assert!(
        e[0].starts_with("spec.template.metadata.labels[controller-uid]: Invalid value: {")
            && e[0].ends_with(": must be '1a2b3c'"),
        "{e:?}"
    );

    let mut j = valid_job();
    j.metadata.name = "a".repeat(62);
    j.spec.completion_mode = Some("Indexed".into());
    j.spec.completions = Some(10);
    j.spec.selector = None;
    j.spec.manual_selector = Some(true);
    j.spec.selector = Some(crate::api::LabelSelector::from_labels(
        &j.spec.template.metadata.labels,
    ));
    let e = create_errs(&j);
    assert!(e.contains(&format!(
        "metadata.name: Invalid value: \"{}\": will not able to create pod with invalid DNS label: {}-9",
        "a".repeat(62),
        "a".repeat(62)
    )), "{e:?}");
}

// Rows of TestValidateJob for podFailurePolicy.
#[test]
fn pod_failure_policy_rules() {
    let mut j = valid_job();
    j.spec.template_mut().spec_mut().restart_policy = "Never".into();
    j.spec.pod_replacement_policy = Some("Failed".into());
    j.spec.pod_failure_policy = Some(PodFailurePolicy {
        rules: vec![
            PodFailurePolicyRule {
                action: "FailJob".into(),
                on_exit_codes: Some(PodFailurePolicyOnExitCodesRequirement {
                    container_name: Some("main".into()),
                    operator: "In".into(),
                    values: vec![0, 42, 42, 7],
                }),
                on_pod_conditions: vec![],
            },
            PodFailurePolicyRule {
                action: "".into(),
                on_exit_codes: None,
                on_pod_conditions: vec![],
            },
            PodFailurePolicyRule {
                action: "FailIndex".into(),
                on_exit_codes: None,
                on_pod_conditions: vec![PodFailurePolicyOnPodConditionsPattern {
                    type_: "DisruptionTarget".into(),
                    status: "Maybe".into(),
                }],
            },
        ],
    });
    assert_eq!(
        create_errs(&j),
        [
            "spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"main\": must be one of the container or initContainer names in the pod template",
            "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
            "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 42",
            "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,42,42,7]: must be ordered",
            "spec.podFailurePolicy.rules[1].action: Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]",
            "spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
            "spec.podFailurePolicy.rules[2].action: Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set",
            "spec.podFailurePolicy.rules[2].onPodConditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"",
        ]
    );
    // podFailurePolicy requires restartPolicy Never.
    let mut j = valid_job();
    j.spec.pod_failure_policy = Some(PodFailurePolicy {
        rules: vec![PodFailurePolicyRule {
            action: "Ignore".into(),
            on_exit_codes: None,
            on_pod_conditions: vec![PodFailurePolicyOnPodConditionsPattern {
                type_: "DisruptionTarget".into(),
                status: "True".into(),
            }],
        }],
    });
    j.spec.pod_replacement_policy = Some("Failed".into());
    assert_eq!(
        create_errs(&j),
        ["spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"]
    );
}

// Port of TestValidateJobUpdate rows: immutable fields.
#[test]
fn job_update_immutability() {
    let old = valid_job();
    let mut new = old.clone();
    new.spec.completions = Some(5);
    let e = texts(&validate_job_update(&new, &old));
    assert_eq!(
        e,
        ["spec.completions: Invalid value: 5: field is immutable"]
    );

    let mut new = old.clone();
    new.spec
        .template_mut()
        .spec_mut()
        .containers
        .push(Container {
            name: "two".into(),
            image: "x".into(),
            ..Default::default()
        });
    crate::api::defaults::default_pod_spec(new.spec.template_mut().spec_mut());
    let e = texts(&validate_job_update(&new, &old));
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("spec.template: Invalid value: {"));
    assert!(e[0].ends_with("field is immutable"));

    // Parallelism and suspend may change.
    let mut new = old.clone();
    new.spec.parallelism = Some(4);
    new.spec.suspend = Some(true);
    assert!(validate_job_update(&new, &old).is_empty());

    // Elastic Indexed Jobs: completions change with parallelism.
    let mut old_idx = old.clone();
    old_idx.spec.completion_mode = Some("Indexed".into());
    let mut new = old_idx.clone();
    new.spec.completions = Some(4);
    new.spec.parallelism = Some(4);
    assert!(validate_job_update(&new, &old_idx).is_empty());
    new.spec.parallelism = Some(3);
    assert_eq!(
        texts(&validate_job_update(&new, &old_idx)),
        ["spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism"]
    );

    // Mutable scheduling directives for suspended, never-started Jobs.
    let mut sus = old.clone();
    sus.spec.suspend = Some(true);
    let mut new = sus.clone();
    new.spec
        .template_mut()
        .spec_mut()
        .node_selector
        .insert("zone".into(), "a".into());
    assert!(validate_job_update(&new, &sus).is_empty());
    let mut started = sus.clone();
    started.status.start_time = Some(crate::api::Time(0));
    assert!(!validate_job_update(&new, &started).is_empty());
}

fn valid_cron_job() -> CronJob {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "mycronjob", "namespace": "default", "uid": "1a2b3c"},
        "spec": {"schedule": "* * * * ?", "jobTemplate": {"spec": {"template": {"spec": {
            "restartPolicy": "OnFailure", "containers": [{"name": "abc", "image": "image"}]}}}}}
    });
    let mut o = Object::from_value(v).unwrap();
    crate::api::defaults::default_object(&mut o);
    let Object::CronJob(mut c) = o else {
        unreachable!()
    };
    c.metadata.resource_version = "1".into();
    c
}

// Port of TestValidateCronJob (error cases) and TestValidateCronJobScheduleTZ.
#[test]
fn cron_job_validation() {
    assert!(validate_cron_job_create(&valid_cron_job()).is_empty());
    let err = |f: &dyn Fn(&mut CronJob)| {
        let mut c = valid_cron_job();
        f(&mut c);
        texts(&validate_cron_job_create(&c))
    };
    assert_eq!(
        err(&|c| c.spec.schedule = "error".into()),
        ["spec.schedule: Invalid value: \"error\": expected exactly 5 fields, found 1: [error]"]
    );
    assert_eq!(
        err(&|c| c.spec.schedule = String::new()),
        ["spec.schedule: Required value"]
    );
    assert_eq!(
        err(&|c| c.spec.schedule = "0 0 * * 7".into()),
        ["spec.schedule: Invalid value: \"0 0 * * 7\": end of range (7) above maximum (6): 7"]
    );
    assert_eq!(
        err(&|c| c.spec.schedule = "TZ=UTC 0 * * * *".into()),
        ["spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"]
    );
    assert_eq!(
        err(&|c| c.spec.time_zone = Some("Europe/Nowhere".into())),
        ["spec.timeZone: Invalid value: \"Europe/Nowhere\": unknown time zone Europe/Nowhere"]
    );
    assert_eq!(
        err(&|c| c.spec.time_zone = Some(String::new())),
        ["spec.timeZone: Invalid value: \"\": timeZone must be nil or non-empty string"]
    );
    assert_eq!(
        err(&|c| c.spec.time_zone = Some("Local".into())),
        ["spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"]
    );
    assert_eq!(
        err(&|c| c.spec.time_zone = Some("../etc/passwd".into())),
        ["spec.timeZone: Invalid value: \"../etc/passwd\": unknown time zone ../etc/passwd"]
    );
    assert!(err(&|c| c.spec.time_zone = Some("America/New_York".into())).is_empty());
    assert_eq!(
        err(&|c| c.spec.starting_deadline_seconds = Some(-1)),
        ["spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        err(&|c| c.spec.concurrency_policy = "Sometimes".into()),
        ["spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\""]
    );
    assert_eq!(
        err(&|c| c.metadata.name = "a".repeat(53)),
        [format!(
            "metadata.name: Invalid value: \"{}\": must be no more than 52 characters",
            "a".repeat(53)
        )]
    );
    assert!(err(&|c| c.metadata.name = "a".repeat(52)).is_empty());
    assert_eq!(
        err(&|c| c.spec.job_template.spec.manual_selector = Some(true)),
        ["spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\""]
    );
    assert_eq!(
        err(&|c| c.spec.job_template.spec.template_mut().spec_mut().restart_policy = "Always".into()),
        ["spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""]
    );
    // Updates: a schedule that already used TZ may keep it, but not together with timeZone.
    let mut old = valid_cron_job();
    old.spec.schedule = "TZ=UTC 0 * * * *".into();
    let mut new = old.clone();
    new.spec.schedule = "TZ=UTC 5 * * * *".into();
    assert!(validate_cron_job_update(&new, &old).is_empty());
    new.spec.time_zone = Some("UTC".into());
    assert_eq!(
        texts(&validate_cron_job_update(&new, &old)),
        ["spec.schedule: Invalid value: \"TZ=UTC 5 * * * *\": cannot use both timeZone field and TZ or CRON_TZ in schedule"]
    );
    // Long names stay updatable.
    let mut long = valid_cron_job();
    long.metadata.name = "a".repeat(60);
    assert!(validate_cron_job_update(&long, &long.clone()).is_empty());
}

// Port of TestValidateIndexesFormat-style rows (validateIndexesFormat, parseIndexInterval).
#[test]
fn indexes_format() {
    assert_eq!(validate_indexes_format("0,2-4,6", 7), Ok(5));
    assert_eq!(validate_indexes_format("", 3), Ok(0));
    assert_eq!(
        validate_indexes_format("0,5", 5).unwrap_err(),
        "too large index: \"5\""
    );
    assert_eq!(
        validate_indexes_format("3-1", 5).unwrap_err(),
        "non-increasing order, previous: 3, current: 1"
    );
    assert_eq!(
        validate_indexes_format("2,1", 5).unwrap_err(),
        "non-increasing order, previous: 2, current: 1"
    );
    assert_eq!(
        validate_indexes_format("1-2-3", 5).unwrap_err(),
        "the fragment \"1-2-3\" violates the requirement that an index interval can have at most two parts separated by '-'"
    );
    assert_eq!(
        validate_indexes_format("a", 5).unwrap_err(),
        "cannot convert string to integer for index: \"a\""
    );
}

// Port of TestValidateJobUpdateStatus (pkg/apis/batch/validation/validation_test.go), the rows
// with zero JobStatusValidationOptions (the options-gated rules are not modelled). The API
// server's status check (`validate_status`) runs upstream's `validateJobStatus`; errors are
// compared by type and field, as upstream ignores value and detail.
#[test]
fn validate_job_update_status() {
    use crate::api::batch::{JobStatus, UncountedTerminatedPods};
    use crate::api::errors::FieldErrorType;
    use crate::api::validation::status::validate_status;
    let status = |active, succeeded, failed, ready, terminating| JobStatus {
        active,
        succeeded,
        failed,
        ready,
        terminating,
        ..Default::default()
    };
    let uids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    type Want = Vec<(FieldErrorType, &'static str)>;
    let rows: Vec<(&str, JobStatus, Want)> = vec![
        ("valid", status(2, 3, 4, Some(1), Some(4)), vec![]),
        (
            "nil ready and terminating",
            status(2, 3, 4, None, None),
            vec![],
        ),
        (
            "negative counts",
            status(-1, -2, -3, Some(-1), Some(-2)),
            vec![
                (FieldErrorType::Invalid, "status.active"),
                (FieldErrorType::Invalid, "status.succeeded"),
                (FieldErrorType::Invalid, "status.failed"),
                (FieldErrorType::Invalid, "status.ready"),
                (FieldErrorType::Invalid, "status.terminating"),
            ],
        ),
        (
            "empty and duplicated uncounted pods",
            JobStatus {
                uncounted_terminated_pods: Some(UncountedTerminatedPods {
                    succeeded: uids(&["a", "b", "c", "a", ""]),
                    failed: uids(&["c", "d", "e", "d", ""]),
                }),
                ..Default::default()
            },
            vec![
                (
                    FieldErrorType::Duplicate,
                    "status.uncountedTerminatedPods.succeeded[3]",
                ),
                (
                    FieldErrorType::Invalid,
                    "status.uncountedTerminatedPods.succeeded[4]",
                ),
                (
                    FieldErrorType::Duplicate,
                    "status.uncountedTerminatedPods.failed[0]",
                ),
                (
                    FieldErrorType::Duplicate,
                    "status.uncountedTerminatedPods.failed[3]",
                ),
                (
                    FieldErrorType::Invalid,
                    "status.uncountedTerminatedPods.failed[4]",
                ),
            ],
        ),
    ];
    for (name, st, want) in rows {
        let mut j = valid_job();
        j.metadata.name = "abc".into();
        j.status = st;
        let got: Vec<(FieldErrorType, String)> = validate_status(&Object::Job(j))
            .into_iter()
            .map(|e| (e.type_, e.field))
            .collect();
        let want: Vec<(FieldErrorType, String)> =
            want.into_iter().map(|(t, f)| (t, f.to_string())).collect();
        assert_eq!(got, want, "{name}");
    }
}
