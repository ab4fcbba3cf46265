//! Ports of the availability-check tests of pkg/controller/controller_utils_test.go
//! (`nextPodAvailabilityCheck`, `findMinNextPodAvailabilitySimpleCheck`,
//! `FindMinNextPodAvailabilityCheck`, Kubernetes 1.34+).

use super::*;
use crate::api::PodCondition;

/// A row of TestFindMinNextPodAvailabilitySimpleCheck: name, pods, minReadySeconds and the
/// expected (duration, pod name).
type SimpleCheckRow<'a> = (&'a str, Vec<Pod>, i32, Option<(Duration, &'a str)>);

fn now() -> Time {
    Time::parse_rfc3339("2025-06-01T12:00:00Z").unwrap()
}

/// A pod with a Ready condition of the given status whose lastTransitionTime is `before` seconds
/// before `now` (upstream's `newPodWithReadyCond` / `pod(name, ready, beforeSec)` helpers).
fn pod_ready_since(name: &str, ready: bool, before_secs: i64, now: Time) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.status.conditions = vec![PodCondition {
        type_: "Ready".into(),
        status: if ready { "True" } else { "False" }.into(),
        last_transition_time: Some(now - Duration::from_secs(before_secs)),
        ..Default::default()
    }];
    p
}

// Ported from TestNextPodAvailabilityCheck (pkg/controller/controller_utils_test.go), every row.
#[test]
fn next_pod_availability_check_upstream_table() {
    let now = now();
    let mut zero_ltt = pod_ready_since("p", true, 0, now);
    zero_ltt.status.conditions[0].last_transition_time = None;
    let rows: Vec<(&str, Pod, i32, Option<Duration>)> = vec![
        ("not ready", pod_ready_since("p", false, 0, now), 0, None),
        (
            "no minReadySeconds defined",
            pod_ready_since("p", true, 0, now),
            0,
            None,
        ),
        ("lastTransitionTime is zero", zero_ltt, 1, None),
        (
            "just became ready - available in 1s",
            pod_ready_since("p", true, 0, now),
            1,
            Some(Duration::from_secs(1)),
        ),
        (
            "ready for 20s - available in 10s",
            pod_ready_since("p", true, 20, now),
            30,
            Some(Duration::from_secs(10)),
        ),
        ("available", pod_ready_since("p", true, 51, now), 50, None),
    ];
    for (name, pod, mrs, want) in rows {
        assert_eq!(next_pod_availability_check(&pod, mrs, now), want, "{name}");
    }
    // A pod whose readiness reaches minReadySeconds exactly now is available: no check.
    let exact = pod_ready_since("p", true, 50, now);
    assert_eq!(next_pod_availability_check(&exact, 50, now), None);
}

// Ported from TestFindMinNextPodAvailabilitySimpleCheck (pkg/controller/controller_utils_test.go),
// every row: both the simple check (duration and the pod it found) and the public
// FindMinNextPodAvailabilityCheck evaluated at the same instant.
#[test]
fn find_min_next_pod_availability_simple_check_upstream_table() {
    let now = now();
    let p = |name: &str, ready: bool, before: i64| pod_ready_since(name, ready, before, now);
    let rows: Vec<SimpleCheckRow> = vec![
        ("no pods", vec![], 0, None),
        (
            "unready pods",
            vec![p("pod1", false, 0), p("pod2", false, 0)],
            0,
            None,
        ),
        (
            "ready pods with no minReadySeconds",
            vec![p("pod1", true, 0), p("pod2", true, 0)],
            0,
            None,
        ),
        (
            "unready and ready pods should find min next availability check",
            vec![
                p("pod1", false, 0),
                p("pod2", true, 2),
                p("pod3", true, 0),
                p("pod4", true, 4),
                p("pod5", false, 0),
            ],
            10,
            Some((Duration::from_secs(6), "pod4")),
        ),
        (
            "unready and available pods do not require min next availability check",
            vec![
                p("pod1", false, 0),
                p("pod2", true, 15),
                p("pod3", true, 11),
                p("pod4", true, 10),
                p("pod5", false, 0),
            ],
            10,
            None,
        ),
    ];
    for (name, pods, mrs, want) in rows {
        let got = find_min_next_pod_availability_simple_check(&pods, mrs, now)
            .map(|(d, pod)| (d, pod.metadata.name.as_str()));
        assert_eq!(got, want, "{name}");
        assert_eq!(
            find_min_next_pod_availability_check(&pods, mrs, now),
            want.map(|(d, _)| d),
            "{name} (public check)"
        );
    }
    // Ties keep the first pod found.
    let tied = vec![p("first", true, 3), p("second", true, 3)];
    let (d, pod) = find_min_next_pod_availability_simple_check(&tied, 10, now).unwrap();
    assert_eq!(
        (d, pod.metadata.name.as_str()),
        (Duration::from_secs(7), "first")
    );
}

// Ported from TestFindMinNextPodAvailability (pkg/controller/controller_utils_test.go), every
// row: the owner's status was evaluated at `now`, the check is computed
// statusEvaluationDelaySeconds later.
#[test]
fn find_min_next_pod_availability_upstream_table() {
    let now = now();
    let p = |name: &str, ready: bool, before: i64| pod_ready_since(name, ready, before, now);
    let pods = vec![
        p("pod1", false, 0),
        p("pod2", true, 2),
        p("pod3", true, 0),
        p("pod4", true, 4),
        p("pod5", false, 0),
    ];
    let rows = [
        (
            "unready and ready pods should find min next availability check considering status evaluation/update delay",
            2,
            Some(Duration::from_secs(4)),
        ),
        (
            "unready and ready pods should find min next availability check even if the status evaluation delay is longer than minReadySeconds",
            7,
            Some(Duration::ZERO),
        ),
    ];
    for (name, delay, want) in rows {
        let later = now + Duration::from_secs(delay);
        assert_eq!(
            find_min_next_pod_availability_check_since(&pods, 10, now, later),
            want,
            "{name}"
        );
    }
    // Nothing to wait for at evaluation time: no check, however late the clock is read.
    let available = vec![p("pod1", true, 20)];
    assert_eq!(
        find_min_next_pod_availability_check_since(
            &available,
            10,
            now,
            now + Duration::from_secs(1)
        ),
        None
    );
}
