//! Row-level audit against `pkg/printers/internalversion/printers_test.go` (kubernetes/kubernetes):
//! rows added upstream after the earlier ports.

use super::testutil::now;
use super::{rows, PrintOptions};
use crate::api::{Duration, Object};
use serde_json::json;

// upstream: TestPrintJob (pkg/printers/internalversion/printers_test.go), row job10 added by
// kubernetes/kubernetes#132832 (1.34): a SuccessCriteriaMet=True condition (JobSuccessPolicy)
// names the STATUS while the Job waits for its Complete condition.
#[test]
fn print_job_success_criteria_met_row() {
    let job = |status: &str| {
        Object::from_value(json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "job10",
                "creationTimestamp": (now() + Duration::from_secs(1)).to_rfc3339()},
            "spec": {"template": {}},
            "status": {"succeeded": 0,
                "conditions": [{"type": "SuccessCriteriaMet", "status": status}]},
        }))
        .unwrap()
    };
    let job = job("True");
    let got = rows(
        &[&job],
        &PrintOptions {
            wide: false,
            now: now(),
        },
    );
    assert_eq!(
        got[0].cells,
        ["job10", "SuccessCriteriaMet", "0/1", "", "0s"],
    );
    // A False condition is not enough (hasJobCondition wants status True).
    let job = Object::from_value(json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "job10"},
        "spec": {"template": {}},
        "status": {"conditions": [{"type": "SuccessCriteriaMet", "status": "False"}]},
    }))
    .unwrap();
    let got = rows(
        &[&job],
        &PrintOptions {
            wide: false,
            now: now(),
        },
    );
    assert_eq!(got[0].cells[1], "Running");
}

// upstream: TestPrintEvent (pkg/printers/internalversion/printers_test.go), row 2 ("Basic event;
// generate options=Wide"): SUBOBJECT is involvedObject.fieldPath, SOURCE `component, host`.
// Rows 3-8 (eventTime, series, singleton count, reportingController) are in
// event_rows_tests.rs.
#[test]
fn print_event_wide_row_with_field_path() {
    use crate::kubectl::events::Event;
    use crate::kubectl::table::{row_cells, TableOptions};
    let e = Event {
        name: "event2".into(),
        namespace: "default".into(),
        involved_kind: "Deployment".into(),
        involved_name: "Deployment Name".into(),
        involved_namespace: "default".into(),
        involved_uid: String::new(),
        type_: "Warning".into(),
        reason: "Event Reason".into(),
        message: "Message Data".into(),
        source: "kubelet".into(),
        host: "Node1".into(),
        field_path: "spec.containers{foo}".into(),
        first: now() - Duration::from_secs(3 * 86400),
        last: now() - Duration::from_secs(2 * 86400),
        count: 6,
        event_time: None,
        series: None,
        reporting_controller: String::new(),
        reporting_instance: String::new(),
    };
    let r = super::event::row(
        &e,
        &PrintOptions {
            wide: true,
            now: now(),
        },
    );
    let wide = TableOptions {
        wide: true,
        ..Default::default()
    };
    assert_eq!(
        row_cells(super::event::COLUMNS, &r, &wide),
        [
            "2d",
            "Warning",
            "Event Reason",
            "deployment/Deployment Name",
            "spec.containers{foo}",
            "kubelet, Node1",
            "Message Data",
            "3d",
            "6",
            "event2"
        ]
    );
}

// upstream: TestPrintCronJobList (pkg/printers/internalversion/printers_test.go): one row per
// CronJob; TIMEZONE is spec.timeZone or <none>, LAST SCHEDULE the age of lastScheduleTime.
#[test]
fn print_cron_job_list() {
    let soon = (now() + Duration::from_secs(1)).to_rfc3339();
    let cj = |name: &str, schedule: &str, tz: Option<&str>, last: String| {
        let mut v = json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name, "creationTimestamp": soon},
            "spec": {"schedule": schedule, "suspend": false,
                "jobTemplate": {"spec": {"completions": 2,
                    "selector": {"matchLabels": {"a": "b"}}, "template": {}}}},
            "status": {"lastScheduleTime": last},
        });
        if let Some(tz) = tz {
            v["spec"]["timeZone"] = json!(tz);
        }
        Object::from_value(v).unwrap()
    };
    let c1 = cj("cronjob1", "0/5 * * * ?", Some("LOCAL"), soon.clone());
    let c2 = cj(
        "cronjob2",
        "4/5 1 1 1 ?",
        None,
        (now() - Duration::from_secs(20 * 60)).to_rfc3339(),
    );
    let got: Vec<Vec<String>> = rows(
        &[&c1, &c2],
        &PrintOptions {
            wide: false,
            now: now(),
        },
    )
    .into_iter()
    .map(|r| r.cells)
    .collect();
    assert_eq!(
        got,
        [
            ["cronjob1", "0/5 * * * ?", "LOCAL", "False", "0", "0s", "0s"],
            [
                "cronjob2",
                "4/5 1 1 1 ?",
                "<none>",
                "False",
                "0",
                "20m",
                "0s"
            ],
        ]
    );
}

// upstream: TestPrintCronJob (pkg/printers/internalversion/printers_test.go), rows cronjob2 and
// cronjob3 with upstream's own ages (created 5m ago; last scheduled 30s ago, or never).
#[test]
fn print_cron_job_age_rows() {
    let cj = |name: &str, last: Option<String>| {
        let mut v = json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name,
                "creationTimestamp": (now() - Duration::from_secs(300)).to_rfc3339()},
            "spec": {"schedule": "0/5 * * * ?", "suspend": false,
                "jobTemplate": {"spec": {"template": {}}}},
            "status": {},
        });
        if let Some(t) = last {
            v["status"]["lastScheduleTime"] = json!(t);
        }
        Object::from_value(v).unwrap()
    };
    let c2 = cj(
        "cronjob2",
        Some((now() - Duration::from_secs(30)).to_rfc3339()),
    );
    let c3 = cj("cronjob3", None);
    let got: Vec<Vec<String>> = rows(
        &[&c2, &c3],
        &PrintOptions {
            wide: false,
            now: now(),
        },
    )
    .into_iter()
    .map(|r| r.cells)
    .collect();
    assert_eq!(
        got,
        [
            [
                "cronjob2",
                "0/5 * * * ?",
                "<none>",
                "False",
                "0",
                "30s",
                "5m"
            ],
            [
                "cronjob3",
                "0/5 * * * ?",
                "<none>",
                "False",
                "0",
                "<none>",
                "5m"
            ],
        ]
    );
}
