#![allow(clippy::type_complexity)]

use super::*;
use crate::api::batch::JobSpec;
use crate::api::Time;

const NO_INDEX: &str = "-";

/// `hollowPodsWithIndexPhase`.
fn hollow(descs: &[(&str, &str)]) -> Vec<Pod> {
    descs
        .iter()
        .enumerate()
        .map(|(i, (ix, phase))| {
            let mut p = Pod::default();
            p.metadata.name = format!("p{i}");
            p.metadata.uid = format!("uid-{i}");
            p.status.phase = phase.to_string();
            if *ix != NO_INDEX {
                p.metadata
                    .annotations
                    .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), ix.to_string());
            }
            p
        })
        .collect()
}

/// `toIndexPhases`.
fn to_index_phases(pods: &[&Pod]) -> Vec<(String, String)> {
    pods.iter()
        .map(|p| {
            (
                p.metadata
                    .annotations
                    .get(JOB_COMPLETION_INDEX_ANNOTATION)
                    .cloned()
                    .unwrap_or_else(|| NO_INDEX.into()),
                p.status.phase.clone(),
            )
        })
        .collect()
}

fn ip(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn job(completions: i32, completed: &str) -> Job {
    Job {
        spec: (JobSpec {
            completions: Some(completions),
            completion_mode: Some("Indexed".into()),
            ..Default::default()
        })
        .into(),
        status: (crate::api::batch::JobStatus {
            completed_indexes: completed.into(),
            ..Default::default()
        })
        .into(),
        ..Default::default()
    }
}

fn oi(p: &[(i64, i64)]) -> OrderedIntervals {
    OrderedIntervals::from_pairs(p)
}

// Port of TestCalculateSucceededIndexes (pkg/controller/job/indexed_job_utils_test.go).
#[test]
fn calculate_succeeded_indexes_table() {
    let cases: Vec<(
        &str,
        &str,
        Vec<(&str, &str)>,
        i32,
        Vec<(i64, i64)>,
        Vec<(i64, i64)>,
    )> = vec![
        (
            "one index",
            "",
            vec![("1", "Succeeded")],
            2,
            vec![],
            vec![(1, 1)],
        ),
        (
            "two separate",
            "",
            vec![
                ("2", "Failed"),
                ("5", "Succeeded"),
                ("5", "Succeeded"),
                ("10", "Failed"),
                ("10", "Succeeded"),
            ],
            11,
            vec![],
            vec![(5, 5), (10, 10)],
        ),
        (
            "two intervals",
            "",
            vec![
                ("0", "Running"),
                ("1", "Pending"),
                ("2", "Succeeded"),
                ("3", "Succeeded"),
                ("5", "Succeeded"),
                ("6", "Succeeded"),
                ("7", "Succeeded"),
            ],
            8,
            vec![],
            vec![(2, 3), (5, 7)],
        ),
        (
            "one index and one interval",
            "",
            vec![
                ("0", "Succeeded"),
                ("1", "Failed"),
                ("2", "Succeeded"),
                ("3", "Succeeded"),
                ("4", "Succeeded"),
                ("5", "Succeeded"),
                (NO_INDEX, "Succeeded"),
                ("-2", "Succeeded"),
            ],
            6,
            vec![],
            vec![(0, 0), (2, 5)],
        ),
        (
            "out of range",
            "",
            vec![
                ("0", "Succeeded"),
                ("1", "Succeeded"),
                ("2", "Succeeded"),
                ("3", "Failed"),
                ("4", "Succeeded"),
                ("5", "Succeeded"),
                (NO_INDEX, "Succeeded"),
                ("-2", "Succeeded"),
            ],
            5,
            vec![],
            vec![(0, 2), (4, 4)],
        ),
        (
            "prev interval out of range",
            "0-5,8-10",
            vec![],
            8,
            vec![(0, 5)],
            vec![(0, 5)],
        ),
        (
            "prev interval partially out of range",
            "0-5,8-10",
            vec![],
            10,
            vec![(0, 5), (8, 9)],
            vec![(0, 5), (8, 9)],
        ),
        (
            "prev and new separate",
            "0,4,5,10-12",
            vec![("2", "Succeeded"), ("7", "Succeeded"), ("8", "Succeeded")],
            13,
            vec![(0, 0), (4, 5), (10, 12)],
            vec![(0, 0), (2, 2), (4, 5), (7, 8), (10, 12)],
        ),
        (
            "prev between new",
            "3,4,6",
            vec![("2", "Succeeded"), ("7", "Succeeded"), ("8", "Succeeded")],
            9,
            vec![(3, 4), (6, 6)],
            vec![(2, 4), (6, 8)],
        ),
        (
            "new between prev",
            "2,7,8",
            vec![("3", "Succeeded"), ("4", "Succeeded"), ("6", "Succeeded")],
            9,
            vec![(2, 2), (7, 8)],
            vec![(2, 4), (6, 8)],
        ),
        (
            "new within prev",
            "2-7",
            vec![
                ("0", "Succeeded"),
                ("3", "Succeeded"),
                ("5", "Succeeded"),
                ("9", "Succeeded"),
            ],
            10,
            vec![(2, 7)],
            vec![(0, 0), (2, 7), (9, 9)],
        ),
        (
            "corrupted interval",
            "0,1-foo,bar",
            vec![("3", "Succeeded")],
            4,
            vec![(0, 0)],
            vec![(0, 0), (3, 3)],
        ),
    ];
    for (name, prev, pods, completions, want_status, want) in cases {
        let j = job(completions, prev);
        let mut ps = hollow(&pods);
        for p in ps.iter_mut() {
            p.metadata.finalizers.push(JOB_TRACKING_FINALIZER.into());
        }
        let refs: Vec<&Pod> = ps.iter().collect();
        let (got_status, got) = calculate_succeeded_indexes(&j, &refs);
        assert_eq!(got_status, oi(&want_status), "{name}");
        assert_eq!(got, oi(&want), "{name}");
    }
}

fn build_pod(index: &str, failure_count: &str, phase: &str, finalizer: bool) -> Pod {
    let mut p = Pod::default();
    p.status.phase = phase.into();
    p.metadata
        .annotations
        .insert(JOB_COMPLETION_INDEX_ANNOTATION.into(), index.into());
    p.metadata.annotations.insert(
        JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(),
        failure_count.into(),
    );
    if finalizer {
        p.metadata.finalizers.push(JOB_TRACKING_FINALIZER.into());
    }
    p
}

fn blpi_job(completions: i32, per_index: i32, failed: Option<&str>) -> Job {
    let mut j = job(completions, "");
    j.spec.backoff_limit_per_index = Some(per_index);
    j.status.failed_indexes = failed.map(String::from);
    j
}

// Port of TestIsIndexFailed and TestCalculateFailedIndexes.
#[test]
fn failed_indexes() {
    let g = JobGates::default();
    assert!(is_index_failed(
        &blpi_job(2, 0, None),
        &build_pod("0", "0", "Failed", true),
        &g
    ));
    assert!(is_index_failed(
        &blpi_job(2, 1, None),
        &build_pod("1", "1", "Failed", true),
        &g
    ));
    assert!(!is_index_failed(
        &blpi_job(2, 1, None),
        &build_pod("1", "0", "Failed", true),
        &g
    ));
    // Matching a FailIndex rule.
    let mut j = blpi_job(2, 1, None);
    j.spec.pod_failure_policy = Some(crate::api::batch::PodFailurePolicy {
        rules: vec![crate::api::batch::PodFailurePolicyRule {
            action: "FailIndex".into(),
            on_exit_codes: Some(crate::api::batch::PodFailurePolicyOnExitCodesRequirement {
                container_name: None,
                operator: "In".into(),
                values: vec![3],
            }),
            on_pod_conditions: vec![],
        }],
    });
    let mut p = build_pod("0", "0", "Failed", true);
    p.status.container_statuses = vec![crate::api::ContainerStatus {
        state: Some(crate::api::ContainerState {
            terminated: Some(crate::api::ContainerStateTerminated {
                exit_code: 3,
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    }];
    assert!(is_index_failed(&j, &p, &g));

    let cases: Vec<(&str, Job, Vec<Pod>, Vec<(i64, i64)>)> = vec![
        (
            "one new index failed",
            blpi_job(2, 1, None),
            vec![
                build_pod("0", "0", "Failed", true),
                build_pod("1", "1", "Failed", true),
            ],
            vec![(1, 1)],
        ),
        (
            "pod without finalizer is ignored",
            blpi_job(2, 0, None),
            vec![build_pod("0", "0", "Failed", false)],
            vec![],
        ),
        (
            "pod outside completions is ignored",
            blpi_job(2, 0, None),
            vec![build_pod("3", "0", "Failed", false)],
            vec![],
        ),
        (
            "extend the failed indexes",
            blpi_job(2, 0, Some("0")),
            vec![build_pod("1", "0", "Failed", true)],
            vec![(0, 1)],
        ),
        (
            "prev failed indexes empty",
            blpi_job(2, 0, Some("")),
            vec![build_pod("1", "0", "Failed", true)],
            vec![(1, 1)],
        ),
        (
            "prev failed indexes outside the completions",
            blpi_job(2, 0, Some("9")),
            vec![build_pod("1", "0", "Failed", true)],
            vec![(1, 1)],
        ),
    ];
    for (name, j, pods, want) in cases {
        let refs: Vec<&Pod> = pods.iter().collect();
        assert_eq!(calculate_failed_indexes(&j, &refs, &g), oi(&want), "{name}");
    }
}

// Port of TestGetPodsWithDelayedDeletionPerIndex.
#[test]
fn pods_with_delayed_deletion_per_index() {
    let g = JobGates::default();
    let now = Time::parse_rfc3339("2025-01-01T00:00:00Z").unwrap();
    let with_uid = |uid: &str, mut p: Pod| {
        p.metadata.uid = uid.into();
        p
    };
    let deleted_at = |mut p: Pod, t: Time| {
        p.metadata.deletion_timestamp = Some(t);
        p
    };
    let s = crate::api::Duration::from_secs;
    let cases: Vec<(&str, Job, Vec<Pod>, Vec<&str>, Vec<&str>)> = vec![
        (
            "failed pods are kept corresponding to non-failed indexes are kept",
            blpi_job(3, 1, None),
            vec![
                with_uid("a", build_pod("0", "0", "Failed", true)),
                with_uid("b", build_pod("1", "1", "Failed", true)),
                with_uid("c", build_pod("2", "0", "Failed", true)),
            ],
            vec![],
            vec!["a", "c"],
        ),
        (
            "failed pod without finalizer; the pod's deletion is not delayed as it already started",
            blpi_job(2, 0, None),
            vec![with_uid("a", build_pod("0", "0", "Failed", false))],
            vec![],
            vec![],
        ),
        (
            "failed pod with expected finalizer removal; the pod's deletion is not delayed as it already started",
            blpi_job(2, 0, None),
            vec![with_uid("a", build_pod("0", "0", "Failed", true))],
            vec!["a"],
            vec![],
        ),
        (
            "failed pod with index outside of completions; the pod's deletion is not delayed",
            blpi_job(2, 0, None),
            vec![with_uid("a", build_pod("4", "0", "Failed", true))],
            vec![],
            vec![],
        ),
        (
            "failed pod for active index; the pod's deletion is not delayed as it is already replaced",
            blpi_job(2, 1, None),
            vec![
                with_uid("a1", build_pod("0", "0", "Failed", true)),
                with_uid("a2", build_pod("0", "1", "Running", true)),
            ],
            vec![],
            vec![],
        ),
        (
            "failed pod for succeeded index; the pod's deletion is not delayed as it is already replaced",
            blpi_job(2, 1, None),
            vec![
                with_uid("a1", build_pod("0", "0", "Failed", true)),
                with_uid("a2", build_pod("0", "1", "Succeeded", true)),
            ],
            vec![],
            vec![],
        ),
        (
            "multiple failed pods for index with different failure count; only the pod with highest failure count is kept",
            blpi_job(2, 4, None),
            vec![
                with_uid("a1", build_pod("0", "0", "Failed", true)),
                with_uid("a3", build_pod("0", "2", "Failed", true)),
                with_uid("a2", build_pod("0", "1", "Failed", true)),
            ],
            vec![],
            vec!["a3"],
        ),
        (
            "multiple failed pods for index with different finish times; only the last failed pod is kept",
            blpi_job(2, 4, None),
            vec![
                with_uid("a1", deleted_at(build_pod("0", "1", "Failed", true), now - s(1))),
                with_uid("a3", deleted_at(build_pod("0", "1", "Failed", true), now)),
                with_uid("a2", deleted_at(build_pod("0", "1", "Failed", true), now - s(2))),
            ],
            vec![],
            vec!["a3"],
        ),
    ];
    for (name, j, pods, expected_rm, want) in cases {
        let refs: Vec<&Pod> = pods.iter().collect();
        let active: Vec<&Pod> = refs
            .iter()
            .copied()
            .filter(|p| crate::controllers::controller_utils::is_pod_active(p))
            .collect();
        let failed = calculate_failed_indexes(&j, &refs, &g);
        let (_, succeeded) = calculate_succeeded_indexes(&j, &refs);
        let valid: Vec<&Pod> = refs
            .iter()
            .copied()
            .filter(|p| {
                has_job_tracking_finalizer(p)
                    && !expected_rm.contains(&p.metadata.uid.as_str())
                    && get_completion_index(p) != UNKNOWN_COMPLETION_INDEX
                    && get_completion_index(p) < i64::from(j.spec.completions.unwrap())
            })
            .collect();
        let got = get_pods_with_delayed_deletion_per_index(
            &j,
            &valid,
            &active,
            &succeeded,
            Some(&failed),
            &g,
        );
        let mut uids: Vec<&str> = got.values().map(|p| p.metadata.uid.as_str()).collect();
        uids.sort();
        assert_eq!(uids, want, "{name}");
    }
}

// Port of TestGetNewIndexFailureCountValue.
#[test]
fn new_index_failure_counts() {
    let g = JobGates::default();
    let j = Job::default();
    assert_eq!(get_new_index_failure_counts(&j, None, &g), (0, 0));
    assert_eq!(
        get_new_index_failure_counts(&j, Some(&build_pod("0", "0", "Failed", true)), &g),
        (1, 0)
    );
    assert_eq!(
        get_new_index_failure_counts(&j, Some(&build_pod("0", "3", "Failed", true)), &g),
        (4, 0)
    );
    let mut j = Job::default();
    j.spec.pod_failure_policy = Some(crate::api::batch::PodFailurePolicy {
        rules: vec![crate::api::batch::PodFailurePolicyRule {
            action: "Ignore".into(),
            on_exit_codes: None,
            on_pod_conditions: vec![crate::api::batch::PodFailurePolicyOnPodConditionsPattern {
                type_: "DisruptionTarget".into(),
                status: "True".into(),
            }],
        }],
    });
    let mut p = build_pod("3", "3", "Failed", true);
    p.status.conditions = vec![crate::api::PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        ..Default::default()
    }];
    assert_eq!(get_new_index_failure_counts(&j, Some(&p), &g), (3, 1));
}

// Port of TestIntervalsHaveIndex.
#[test]
fn intervals_have_index() {
    let cases: Vec<(Vec<(i64, i64)>, i64, bool)> = vec![
        (vec![], 4, false),
        (vec![(2, 4), (5, 7)], 1, false),
        (vec![(2, 4), (6, 8)], 9, false),
        (vec![(2, 4), (6, 8)], 5, false),
        (vec![(2, 4), (6, 8)], 2, true),
        (vec![(2, 4), (6, 8)], 8, true),
    ];
    for (iv, ix, want) in cases {
        assert_eq!(oi(&iv).has(ix), want, "{iv:?} {ix}");
    }
}

// Port of TestFirstPendingIndexes.
#[test]
fn first_pending_indexes_table() {
    let cases: Vec<(
        &str,
        usize,
        i64,
        Vec<(&str, &str)>,
        Vec<(i64, i64)>,
        Option<Vec<(i64, i64)>>,
        Vec<i64>,
    )> = vec![
        (
            "cnt greater than completions",
            5,
            3,
            vec![],
            vec![],
            None,
            vec![0, 1, 2],
        ),
        (
            "cnt less than completions",
            2,
            5,
            vec![],
            vec![],
            None,
            vec![0, 1],
        ),
        (
            "first pods active",
            3,
            10,
            vec![("0", "Running"), ("1", "Pending")],
            vec![],
            None,
            vec![2, 3, 4],
        ),
        (
            "last pods active or succeeded",
            6,
            6,
            vec![("6", "Pending")],
            vec![(4, 5)],
            None,
            vec![0, 1, 2, 3],
        ),
        (
            "mixed",
            5,
            20,
            vec![
                ("3", "Pending"),
                ("5", "Running"),
                ("8", "Pending"),
                (NO_INDEX, "Running"),
                ("-3", "Running"),
            ],
            vec![(2, 4), (9, 9)],
            None,
            vec![0, 1, 6, 7, 10],
        ),
        (
            "with failed indexes",
            5,
            20,
            vec![("3", "Pending"), ("9", "Pending")],
            vec![(1, 1), (5, 5), (9, 9)],
            Some(vec![(2, 2), (6, 7)]),
            vec![0, 4, 8, 10, 11],
        ),
    ];
    for (name, cnt, completions, active, succeeded, failed, want) in cases {
        let pods = hollow(&active);
        let refs: Vec<&Pod> = pods.iter().collect();
        let failed = failed.map(|f| oi(&f));
        let got = first_pending_indexes(
            &refs,
            None,
            &oi(&succeeded),
            failed.as_ref(),
            cnt,
            completions,
        );
        assert_eq!(got, want, "{name}");
    }
}

// Port of TestAppendDuplicatedIndexPodsForRemoval.
#[test]
fn append_duplicated_index_pods_for_removal_table() {
    let cases: Vec<(
        &str,
        Vec<(&str, &str)>,
        Vec<(&str, &str)>,
        Vec<(&str, &str)>,
        i64,
    )> = vec![
        (
            "all unique",
            vec![
                (NO_INDEX, "Pending"),
                ("2", "Pending"),
                ("5", "Running"),
                ("6", "Running"),
            ],
            vec![(NO_INDEX, "Pending"), ("6", "Running")],
            vec![("2", "Pending"), ("5", "Running")],
            6,
        ),
        (
            "all with index",
            vec![
                ("5", "Pending"),
                ("0", "Running"),
                ("3", "Pending"),
                ("0", "Running"),
                ("3", "Running"),
                ("0", "Pending"),
                ("6", "Running"),
                ("6", "Pending"),
            ],
            vec![
                ("0", "Pending"),
                ("0", "Running"),
                ("3", "Pending"),
                ("6", "Running"),
                ("6", "Pending"),
            ],
            vec![("0", "Running"), ("3", "Running"), ("5", "Pending")],
            6,
        ),
        (
            "mixed",
            vec![
                (NO_INDEX, "Pending"),
                ("invalid", "Running"),
                ("-2", "Running"),
                ("0", "Pending"),
                ("1", "Pending"),
                ("1", "Pending"),
                ("1", "Running"),
            ],
            vec![
                (NO_INDEX, "Pending"),
                ("invalid", "Running"),
                ("-2", "Running"),
                ("1", "Pending"),
                ("1", "Pending"),
            ],
            vec![("0", "Pending"), ("1", "Running")],
            6,
        ),
    ];
    for (name, pods, want_rm, want_left, completions) in cases {
        let ps = hollow(&pods);
        let refs: Vec<&Pod> = ps.iter().collect();
        let (rm, left) = append_duplicated_index_pods_for_removal(&refs, completions);
        assert_eq!(to_index_phases(&rm), ip(&want_rm), "{name}: rm");
        assert_eq!(to_index_phases(&left), ip(&want_left), "{name}: left");
    }
}

// Port of TestPodGenerateNameWithIndex.
#[test]
fn pod_generate_name_with_index_table() {
    assert_eq!(
        pod_generate_name_with_index("indexed-job", 1),
        "indexed-job-1-"
    );
    assert_eq!(
        pod_generate_name_with_index(
            "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooo",
            1
        ),
        "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-"
    );
    assert_eq!(
        pod_generate_name_with_index(
            "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo",
            1
        ),
        "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-"
    );
}

// Port of TestGetIndexFailureCount.
#[test]
fn get_index_failure_count_table() {
    let with = |v: &str| {
        let mut p = Pod::default();
        p.metadata
            .annotations
            .insert(JOB_INDEX_FAILURE_COUNT_ANNOTATION.into(), v.into());
        p
    };
    assert_eq!(get_index_failure_count(&Pod::default()), 0);
    assert_eq!(get_index_failure_count(&with("2")), 2);
    assert_eq!(
        get_index_failure_count(&with(&i32::MAX.to_string())),
        i32::MAX
    );
    assert_eq!(
        get_index_failure_count(&with(&(i64::from(i32::MAX) + 1).to_string())),
        0
    );
    assert_eq!(get_index_failure_count(&with("-1")), 0);
    assert_eq!(get_index_failure_count(&with("xyz")), 0);
}

/// The interval string form and parsing (status.completedIndexes).
#[test]
fn interval_strings() {
    assert_eq!(oi(&[(0, 0), (2, 5), (7, 8)]).to_string(), "0,2-5,7,8");
    assert_eq!(
        parse_indexes_from_string("0,2-5,7,8", 10),
        oi(&[(0, 0), (2, 5), (7, 8)])
    );
    assert_eq!(parse_indexes_from_string("1,2,3", 10), oi(&[(1, 3)]));
    assert_eq!(oi(&[(1, 3)]).total(), 3);
}
