//! Hand-derived edge cases of `ValidateJob`, `ValidateJobUpdate` and `ValidateCronJobCreate` /
//! `ValidateCronJobUpdate` (pkg/apis/batch/validation/validation.go, repo kubernetes/kubernetes):
//! int32/int64 bounds, the Indexed limits (100000 parallelism, 100000 maxFailedIndexes, the
//! 10^5-completions soft limit with backoffLimitPerIndex), the pod-hostname check, managedBy,
//! podFailurePolicy / successPolicy boundaries, the 52-character CronJob name and TZ in schedules.
//! Every expectation is read off the upstream functions (error order = upstream's append order).

use super::*;
use crate::api::batch::{
    PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement,
    PodFailurePolicyOnPodConditionsPattern, PodFailurePolicyRule, SuccessPolicy, SuccessPolicyRule,
};
use crate::api::Object;

/// A Job `name` as the API server validates it on create (selector generated, defaulted).
fn job_named(name: &str) -> Job {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name, "namespace": "default", "uid": "1a2b3c"},
        "spec": {"template": {"spec": {"restartPolicy": "Never",
            "initContainers": [{"name": "init", "image": "image"}],
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

fn job() -> Job {
    job_named("myjob")
}

fn indexed(completions: i32) -> Job {
    let mut j = job();
    j.spec.completion_mode = Some("Indexed".into());
    j.spec.completions = Some(completions);
    j
}

fn errs(j: &Job) -> Vec<String> {
    validate_job(j, validation_options_for_job(None))
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn int32_and_int64_bounds_of_the_counters() {
    // NonIndexed Jobs have no upper limits.
    let mut j = job();
    j.spec.parallelism = Some(i32::MAX);
    j.spec.completions = Some(i32::MAX);
    j.spec.backoff_limit = Some(i32::MAX);
    j.spec.ttl_seconds_after_finished = Some(i32::MAX);
    j.spec.active_deadline_seconds = Some(i64::MAX);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));

    let mut j = job();
    j.spec.parallelism = Some(i32::MIN);
    j.spec.active_deadline_seconds = Some(i64::MIN);
    assert_eq!(
        errs(&j),
        [
            "spec.parallelism: Invalid value: -2147483648: must be greater than or equal to 0",
            "spec.activeDeadlineSeconds: Invalid value: -9223372036854775808: must be greater than or equal to 0",
        ]
    );

    // Indexed: the largest index is completions-1; "myjob-2147483646" is a DNS label.
    let j = indexed(i32::MAX);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));
    let mut j = indexed(i32::MAX);
    j.spec.parallelism = Some(i32::MAX);
    assert_eq!(
        errs(&j),
        ["spec.parallelism: Invalid value: 2147483647: must be less than or equal to 100000 when completion mode is Indexed"]
    );
    let mut j = indexed(2);
    j.spec.parallelism = Some(100_000);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));
}

#[test]
fn backoff_limit_per_index_and_max_failed_indexes_limits() {
    // The soft limit applies above 100000 completions only.
    let mut j = indexed(100_000);
    j.spec.backoff_limit_per_index = Some(1);
    j.spec.parallelism = Some(100_000);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));

    // ... and only with backoffLimitPerIndex.
    let mut j = indexed(100_001);
    j.spec.parallelism = Some(100_000);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));

    let mut j = indexed(100_001);
    j.spec.backoff_limit_per_index = Some(1);
    j.spec.max_failed_indexes = Some(10_000);
    j.spec.parallelism = Some(10_000);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));

    j.spec.parallelism = Some(10_001);
    assert_eq!(
        errs(&j),
        ["spec.parallelism: Invalid value: 10001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index"]
    );

    // maxFailedIndexes above both limits: both errors; above completions too: three.
    let mut j = indexed(100_001);
    j.spec.backoff_limit_per_index = Some(1);
    j.spec.max_failed_indexes = Some(100_001);
    assert_eq!(
        errs(&j),
        [
            "spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000",
            "spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index",
        ]
    );
    j.spec.max_failed_indexes = Some(100_002);
    assert_eq!(
        errs(&j),
        [
            "spec.maxFailedIndexes: Invalid value: 100002: must be less than or equal to completions",
            "spec.maxFailedIndexes: Invalid value: 100002: must be less than or equal to 100000",
            "spec.maxFailedIndexes: Invalid value: 100002: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index",
        ]
    );

    // The largest int32 completions with backoffLimitPerIndex and nothing else.
    let mut j = indexed(i32::MAX);
    j.spec.backoff_limit_per_index = Some(0);
    assert_eq!(
        errs(&j),
        ["spec.maxFailedIndexes: Required value: must be specified when completions is above 100000"]
    );

    // completions 0: maxFailedIndexes 1 exceeds it; no hostname check without indexes.
    let mut j = indexed(0);
    j.spec.backoff_limit_per_index = Some(0);
    j.spec.max_failed_indexes = Some(1);
    assert_eq!(
        errs(&j),
        ["spec.maxFailedIndexes: Invalid value: 1: must be less than or equal to completions"]
    );

    // NonIndexed with maxFailedIndexes and no backoffLimitPerIndex: the Required error first,
    // then the completion-mode error (the "<= completions" rule is Indexed-only).
    let mut j = job();
    j.spec.max_failed_indexes = Some(5);
    assert_eq!(
        errs(&j),
        [
            "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified",
            "spec.maxFailedIndexes: Invalid value: 5: requires indexed completion mode",
        ]
    );
    let mut j = job();
    j.spec.backoff_limit_per_index = Some(-1);
    j.spec.max_failed_indexes = Some(-1);
    assert_eq!(
        errs(&j),
        [
            "spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0",
            "spec.maxFailedIndexes: Invalid value: -1: must be greater than or equal to 0",
            "spec.backoffLimitPerIndex: Invalid value: -1: requires indexed completion mode",
            "spec.maxFailedIndexes: Invalid value: -1: requires indexed completion mode",
        ]
    );
}

#[test]
fn indexed_pod_hostname_must_be_a_dns_label() {
    // 60 + "-99" = 63 characters: fine; 60 + "-999" = 64: refused.
    let name = "a".repeat(60);
    let mut j = job_named(&name);
    j.spec.completion_mode = Some("Indexed".into());
    j.spec.completions = Some(100);
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));
    j.spec.completions = Some(1000);
    assert_eq!(
        errs(&j),
        [format!(
            "metadata.name: Invalid value: \"{name}\": will not able to create pod with invalid DNS label: {name}-999"
        )]
    );
    // A dotted name is a valid Job name (DNS subdomain) but not a hostname prefix.
    let mut j = job_named("a.b");
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));
    j.spec.completion_mode = Some("Indexed".into());
    j.spec.completions = Some(1);
    assert_eq!(
        errs(&j),
        ["metadata.name: Invalid value: \"a.b\": will not able to create pod with invalid DNS label: a.b-0"]
    );
}

#[test]
fn managed_by_values() {
    let with = |m: &str| {
        let mut j = job();
        j.spec.managed_by = Some(m.into());
        errs(&j)
    };
    assert!(with("kubernetes.io/job-controller").is_empty());
    // 63 bytes is the limit.
    let ok = format!("example.com/{}", "a".repeat(51));
    assert_eq!(ok.len(), 63);
    assert!(with(&ok).is_empty());
    assert_eq!(
        with(&format!("{ok}a")),
        ["spec.managedBy: Too long: may not be more than 63 bytes"]
    );
    assert_eq!(with(""), ["spec.managedBy: Required value"]);
    for bad in ["example.com/", "/foo", "foo"] {
        assert_eq!(
            with(bad),
            [format!("spec.managedBy: Invalid value: \"{bad}\": must be a domain-prefixed path (such as \"acme.io/foo\")")]
        );
    }
    // The host part is a DNS subdomain; the path part matches httpPathFmt.
    assert_eq!(
        with("Example.com/foo"),
        ["spec.managedBy: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
    assert_eq!(
        with("example.com/a b"),
        ["spec.managedBy: Invalid value: \"a b\": must be a valid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"]
    );
}

fn exit_codes(op: &str, values: Vec<i32>, container: Option<&str>) -> PodFailurePolicyRule {
    PodFailurePolicyRule {
        action: "FailJob".into(),
        on_exit_codes: Some(PodFailurePolicyOnExitCodesRequirement {
            container_name: container.map(Into::into),
            operator: op.into(),
            values,
        }),
        on_pod_conditions: vec![],
    }
}

#[test]
fn pod_failure_policy_boundaries() {
    let with = |rules: Vec<PodFailurePolicyRule>| {
        let mut j = job();
        // As SetDefaults_Job picks it for a Job with a podFailurePolicy.
        j.spec.pod_replacement_policy = Some("Failed".into());
        j.spec.pod_failure_policy = Some(PodFailurePolicy { rules });
        errs(&j)
    };
    // 20 rules, 255 exit codes and 20 condition patterns are the maxima.
    let rules: Vec<_> = (1..=20).map(|i| exit_codes("In", vec![i], None)).collect();
    assert_eq!(with(rules), Vec::<String>::new());
    assert!(with(vec![exit_codes("In", (1..=255).collect(), None)]).is_empty());
    let patterns: Vec<_> = (0..20)
        .map(|i| PodFailurePolicyOnPodConditionsPattern {
            type_: format!("CustomType_{i}"),
            status: "True".into(),
        })
        .collect();
    assert!(with(vec![PodFailurePolicyRule {
        action: "Ignore".into(),
        on_exit_codes: None,
        on_pod_conditions: patterns,
    }])
    .is_empty());
    // An init container's name may be referenced; 0 is allowed with NotIn; negative exit codes
    // are not checked.
    assert!(with(vec![exit_codes("In", vec![1], Some("init"))]).is_empty());
    assert!(with(vec![exit_codes("NotIn", vec![0], None)]).is_empty());
    assert!(with(vec![exit_codes("In", vec![-1], None)]).is_empty());
    // A duplicate out of order: the Duplicate error and the ordering error.
    assert_eq!(
        with(vec![exit_codes("In", vec![3, 1, 3], None)]),
        [
            "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3",
            "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,1,3]: must be ordered",
        ]
    );
    // FailIndex on an Indexed Job with backoffLimitPerIndex is valid.
    let mut j = indexed(3);
    j.spec.backoff_limit_per_index = Some(1);
    let mut r = exit_codes("In", vec![1], None);
    r.action = "FailIndex".into();
    j.spec.pod_replacement_policy = Some("Failed".into());
    j.spec.pod_failure_policy = Some(PodFailurePolicy { rules: vec![r] });
    assert!(errs(&j).is_empty(), "{:?}", errs(&j));
}

#[test]
fn success_policy_edge_values() {
    let with = |indexes: Option<&str>, count: Option<i32>| {
        let mut j = indexed(5);
        j.spec.success_policy = Some(SuccessPolicy {
            rules: vec![SuccessPolicyRule {
                succeeded_indexes: indexes.map(Into::into),
                succeeded_count: count,
            }],
        });
        errs(&j)
    };
    // succeededCount 0 passes both checks; Go's Atoi takes "+1" and "01".
    assert!(with(None, Some(0)).is_empty());
    assert!(with(Some("+1"), None).is_empty());
    assert!(with(Some("01-04"), Some(4)).is_empty());
    // An empty succeededIndexes names no index, so any positive count exceeds it.
    assert_eq!(
        with(Some(""), Some(1)),
        ["spec.successPolicy.rules[0].succeededCount: Invalid value: 1: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)"]
    );
    let parse = |s: &str, what: &str| {
        [format!(
            "spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"{s}\": error parsing succeededIndexes: {what}"
        )]
    };
    assert_eq!(
        with(Some("0,,2"), None),
        parse("0,,2", "cannot convert string to integer for index: \"\"")
    );
    assert_eq!(
        with(Some("-1"), None),
        parse("-1", "cannot convert string to integer for index: \"\"")
    );
    assert_eq!(
        with(Some(" 1"), None),
        parse(" 1", "cannot convert string to integer for index: \" 1\"")
    );
    assert_eq!(
        with(Some("99999999999999999999"), None),
        parse(
            "99999999999999999999",
            "cannot convert string to integer for index: \"99999999999999999999\""
        )
    );
    assert_eq!(
        with(Some("2,2"), None),
        parse("2,2", "non-increasing order, previous: 2, current: 2")
    );
    // A count above completions and above the named indexes: both errors.
    assert_eq!(
        with(Some("0-1"), Some(6)),
        [
            "spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)",
            "spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)",
        ]
    );
}

#[test]
fn elastic_indexed_job_completions_updates() {
    let mut old = indexed(3);
    old.spec.parallelism = Some(3);
    let upd = |f: &dyn Fn(&mut Job)| {
        let mut new = old.clone();
        f(&mut new);
        validate_job_update(&new, &old)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    // Scaling down in tandem is allowed.
    assert!(upd(&|j| {
        j.spec.completions = Some(2);
        j.spec.parallelism = Some(2);
    })
    .is_empty());
    // Dropping completions: validateCompletions adds nothing; the Required error of
    // validateJobSpec comes twice, as the strategy's ValidateUpdate runs ValidateJob and then
    // ValidateJobUpdate, which validates the spec again.
    assert_eq!(
        upd(&|j| j.spec.completions = None),
        [
            "spec.completions: Required value: when completion mode is Indexed",
            "spec.completions: Required value: when completion mode is Indexed",
        ]
    );
    // Completions alone: the tandem error.
    assert_eq!(
        upd(&|j| j.spec.completions = Some(4)),
        ["spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism"]
    );
}

fn cron_job_named(name: &str, schedule: &str) -> CronJob {
    let v = serde_json::json!({
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": name, "namespace": "default", "uid": "1a2b3c"},
        "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": {"spec": {
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

fn cron_errs(c: &CronJob) -> Vec<String> {
    validate_cron_job_create(c)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn cron_job_name_length_boundary() {
    let name52 = "a".repeat(52);
    assert!(cron_errs(&cron_job_named(&name52, "0 * * * *")).is_empty());
    let name53 = "a".repeat(53);
    assert_eq!(
        cron_errs(&cron_job_named(&name53, "0 * * * *")),
        [format!(
            "metadata.name: Invalid value: \"{name53}\": must be no more than 52 characters"
        )]
    );
    // The limit is not checked on update.
    let c = cron_job_named(&name53, "0 * * * *");
    assert!(validate_cron_job_update(&c, &c).is_empty());
}

#[test]
fn cron_job_schedule_with_tz_prefix_and_deadlines() {
    let tz_err = |s: &str| {
        format!("spec.schedule: Invalid value: \"{s}\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
    };
    // A parsable zone prefix: only the TZ rule fires.
    let s = "CRON_TZ=Europe/Rome 0 * * * *";
    assert_eq!(cron_errs(&cron_job_named("cj", s)), [tz_err(s)]);
    // An unknown zone: robfig's parse error first, then the TZ rule.
    let s = "TZ=Bad/Zone 0 * * * *";
    assert_eq!(
        cron_errs(&cron_job_named("cj", s)),
        [
            format!("spec.schedule: Invalid value: \"{s}\": provided bad location Bad/Zone: unknown time zone Bad/Zone"),
            tz_err(s),
        ]
    );
    // "TZ" anywhere in the schedule counts (strings.Contains).
    let s = "0 0 * * MON TZ";
    assert_eq!(
        cron_errs(&cron_job_named("cj", s)),
        [
            format!("spec.schedule: Invalid value: \"{s}\": expected exactly 5 fields, found 6: [0 0 * * MON TZ]"),
            tz_err(s),
        ]
    );
    // startingDeadlineSeconds: 0 is valid, the int64 minimum is not.
    let mut c = cron_job_named("cj", "0 * * * *");
    c.spec.starting_deadline_seconds = Some(0);
    assert!(cron_errs(&c).is_empty());
    c.spec.starting_deadline_seconds = Some(i64::MIN);
    assert_eq!(
        cron_errs(&c),
        ["spec.startingDeadlineSeconds: Invalid value: -9223372036854775808: must be greater than or equal to 0"]
    );
    // History limits: 0 is valid.
    let mut c = cron_job_named("cj", "0 * * * *");
    c.spec.successful_jobs_history_limit = Some(0);
    c.spec.failed_jobs_history_limit = Some(0);
    assert!(cron_errs(&c).is_empty());
}

#[test]
fn cron_job_time_zone_name_components() {
    let with = |tz: &str| {
        let mut c = cron_job_named("cj", "0 * * * *");
        c.spec.time_zone = Some(tz.into());
        cron_errs(&c)
    };
    // Three components, a 14-character component, '+' and digits are accepted.
    assert!(with("America/Argentina/Buenos_Aires").is_empty());
    assert!(with("America/Argentina/ComodRivadavia").is_empty());
    assert!(with("Etc/GMT+5").is_empty());
    // A 15-character component, '//', a leading '-' or a '..' component: unknown before lookup.
    for tz in [
        "America/Abcdefghijklmno",
        "Europe//Rome",
        "-Europe/Rome",
        "Europe/..",
    ] {
        assert_eq!(
            with(tz),
            [format!(
                "spec.timeZone: Invalid value: \"{tz}\": unknown time zone {tz}"
            )]
        );
    }
    // "local" in any case is refused; Go's LoadLocation("local") then fails too (only "Local"
    // and "" name the local zone there), so lower case gives two errors.
    assert_eq!(
        with("Local"),
        ["spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"]
    );
    assert_eq!(
        with("local"),
        [
            "spec.timeZone: Invalid value: \"local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
            "spec.timeZone: Invalid value: \"local\": unknown time zone local",
        ]
    );
}
