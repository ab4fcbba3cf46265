//! Ports of the remaining Pod-table tests of `pkg/printers/internalversion/printers_test.go`
//! (repo kubernetes/kubernetes): lists of pods, `--show-labels`, `-L` label columns, and
//! `translateTimestampSince`.

use super::testutil::now;
use super::{pod, rows, translate_timestamp_since, PrintOptions};
use crate::api::{
    ContainerState, ContainerStateRunning, ContainerStatus, Duration, Object, ObjectMeta, Pod,
    PodSpec, PodStatus, Time,
};
use crate::kubectl::table::{render, row_cells, TableOptions};

fn running(ready: bool, restarts: i32) -> ContainerStatus {
    ContainerStatus {
        ready,
        restart_count: restarts,
        state: Some(ContainerState {
            running: Some(ContainerStateRunning::default()),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn pod(name: &str, labels: &[(&str, &str)], n: usize, statuses: Vec<ContainerStatus>) -> Object {
    Object::Pod(Pod {
        metadata: ObjectMeta {
            name: name.into(),
            labels: labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        },
        spec: std::sync::Arc::new(PodSpec {
            containers: (0..n).map(|_| Default::default()).collect(),
            ..Default::default()
        }),
        status: (PodStatus {
            phase: "podPhase".into(),
            container_statuses: statuses,
            ..Default::default()
        })
        .into(),
        ..Default::default()
    })
}

/// The upstream fixture "name, num of containers, restarts, container ready status": two
/// containers, one running and ready, three restarts each.
fn test1(labels: &[(&str, &str)]) -> Object {
    let not_ready = ContainerStatus {
        restart_count: 3,
        ..Default::default()
    };
    pod("test1", labels, 2, vec![running(true, 3), not_ready])
}

fn opts() -> PrintOptions {
    PrintOptions {
        wide: false,
        now: now(),
    }
}

// Upstream: TestPrintPodList (printers_test.go), its one row (a list of two pods).
#[test]
fn print_pod_list() {
    let a = pod("test1", &[], 2, vec![running(true, 3), running(true, 3)]);
    let b = pod("test2", &[], 1, vec![running(true, 1)]);
    let got: Vec<Vec<String>> = rows(&[&a, &b], &opts())
        .into_iter()
        .map(|r| r.cells[..5].to_vec())
        .collect();
    assert_eq!(
        got,
        [
            ["test1", "2/2", "podPhase", "6", "<unknown>"],
            ["test2", "1/1", "podPhase", "1", "<unknown>"],
        ]
    );
}

// Upstream: TestPrintPodShowLabels (printers_test.go), both rows: with `--show-labels` the
// labels are appended sorted by key (`COL2=zxc,col1=asd`), without it no column is added.
#[test]
fn print_pod_show_labels() {
    let cases = [
        (
            test1(&[("col1", "asd"), ("COL2", "zxc")]),
            true,
            vec![
                "test1",
                "1/2",
                "podPhase",
                "6",
                "<unknown>",
                "COL2=zxc,col1=asd",
            ],
        ),
        (
            test1(&[("col3", "asd"), ("COL4", "zxc")]),
            false,
            vec!["test1", "1/2", "podPhase", "6", "<unknown>"],
        ),
    ];
    for (o, show_labels, want) in cases {
        let r = &rows(&[&o], &opts())[0];
        let table = TableOptions {
            show_labels,
            ..Default::default()
        };
        assert_eq!(row_cells(pod::COLUMNS, r, &table), want);
    }
}

// Upstream: TestPrintPodWithLabels (printers_test.go), both rows: `-L col1 -L COL2` adds
// the upper-cased columns with the label values; without `-L` neither appears.
#[test]
fn print_pod_with_labels() {
    let o = test1(&[("col1", "asd"), ("COL2", "zxc")]);
    let r = rows(&[&o], &opts());
    let with = TableOptions {
        label_columns: vec!["col1".into(), "COL2".into()],
        ..Default::default()
    };
    let out = render(pod::COLUMNS, &r, &with);
    for s in ["COL1", "COL2", "asd", "zxc"] {
        assert!(out.contains(s), "{s} missing in\n{out}");
    }
    let out = render(pod::COLUMNS, &r, &TableOptions::default());
    for s in ["COL1", "COL2", "asd", "zxc"] {
        assert!(!out.contains(s), "{s} printed in\n{out}");
    }
}

// Upstream: TestTranslateTimestampSince (printers_test.go), all rows. Upstream's "now" is
// time.Now(); ours is the fixed test clock, 2025-01-10, so "10 years ago" is 2015-01-10.
#[test]
fn translate_timestamp_since_table() {
    let n = now();
    let secs = Duration::from_secs;
    let ms = |x: i64| Duration(x);
    let cases = [
        ("a while from now", Some(n + ms(2100)), "<invalid>"),
        ("almost now", Some(n + ms(1900)), "0s"),
        ("now", Some(n), "0s"),
        ("unknown", None, "<unknown>"),
        ("unknown (zero time)", Some(Time::ZERO), "<unknown>"),
        ("30 seconds ago", Some(n - secs(30)), "30s"),
        ("5 minutes ago", Some(n - secs(300)), "5m"),
        ("an hour ago", Some(n - secs(6000)), "100m"),
        ("2 days ago", Some(n - secs(2 * 86400)), "2d"),
        ("months ago", Some(n - secs(90 * 86400)), "90d"),
        (
            "10 years ago",
            Some(Time::parse_rfc3339("2015-01-10T00:00:00Z").unwrap()),
            "10y",
        ),
    ];
    for (name, t, want) in cases {
        assert_eq!(translate_timestamp_since(t, n), want, "{name}");
    }
}

// Not ported here: TestTranslateTimestampUntil — kubeplay has no translateTimestampUntil
// (upstream uses it only for columns of kinds kubeplay does not model).
