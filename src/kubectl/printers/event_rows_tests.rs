//! upstream: TestPrintEvent (pkg/printers/internalversion/printers_test.go), rows 3-8: events
//! without firstTimestamp / lastTimestamp (eventTime instead), a series, a singleton without a
//! count, and an empty source with reportingController / reportingInstance. kubeplay's own
//! recorder never writes these (core/v1 `record.EventRecorder`: eventTime and series unset,
//! reportingComponent = source.component), but `printEvent` handles them and so does the port.

use super::event::{row, COLUMNS};
use super::testutil::now;
use super::PrintOptions;
use crate::api::{Duration, Time};
use crate::kubectl::events::Event;
use crate::kubectl::table::{row_cells, TableOptions};

fn days_ago(d: i64) -> Time {
    now() - Duration::from_secs(d * 86400)
}

/// The fixture shared by rows 3-8: a Warning about a Deployment's container from "kubelet" on
/// Node1, with no timestamps, count or series (each row sets its own).
fn base(name: &str) -> Event {
    Event {
        name: name.into(),
        namespace: "default".into(),
        involved_kind: "Deployment".into(),
        involved_name: "Deployment Name".into(),
        involved_namespace: String::new(),
        involved_uid: String::new(),
        type_: "Warning".into(),
        reason: "Event Reason".into(),
        message: "Message Data".into(),
        source: "kubelet".into(),
        host: "Node1".into(),
        field_path: "spec.containers{foo}".into(),
        first: Time::ZERO,
        last: Time::ZERO,
        count: 0,
        event_time: None,
        series: None,
        reporting_controller: String::new(),
        reporting_instance: String::new(),
    }
}

/// Wide cells: Last Seen, Type, Reason, Object, Subobject, Source, Message, First Seen, Count,
/// Name.
fn wide(e: &Event) -> Vec<String> {
    let r = row(
        e,
        &PrintOptions {
            wide: true,
            now: now(),
        },
    );
    row_cells(
        COLUMNS,
        &r,
        &TableOptions {
            wide: true,
            ..Default::default()
        },
    )
}

fn expect(last: &str, source: &str, count: &str, name: &str) -> Vec<String> {
    [
        last,
        "Warning",
        "Event Reason",
        "deployment/Deployment Name",
        "spec.containers{foo}",
        source,
        "Message Data",
        "3d",
        count,
        name,
    ]
    .map(String::from)
    .to_vec()
}

// Row 3, "Basic event, w/o FirstTimestamp set": FIRST SEEN from eventTime.
#[test]
fn print_event_without_first_timestamp() {
    let mut e = base("event3");
    e.event_time = Some(days_ago(3));
    e.last = days_ago(3);
    e.count = 1;
    assert_eq!(wide(&e), expect("3d", "kubelet, Node1", "1", "event3"));
}

// Row 4, "Basic event, w/o LastTimestamp set": LAST SEEN falls back to FIRST SEEN.
#[test]
fn print_event_without_last_timestamp() {
    let mut e = base("event4");
    e.event_time = Some(days_ago(3));
    e.first = days_ago(3);
    e.count = 1;
    assert_eq!(wide(&e), expect("3d", "kubelet, Node1", "1", "event4"));
}

// Row 5, "Basic event, w/o FirstTimestamp and LastTimestamp set": both from eventTime.
#[test]
fn print_event_without_first_and_last_timestamp() {
    let mut e = base("event5");
    e.event_time = Some(days_ago(3));
    e.count = 1;
    assert_eq!(wide(&e), expect("3d", "kubelet, Node1", "1", "event5"));
}

// Row 6, "Basic event serie, w/o FirstTimestamp, LastTimestamp and Count set": the series gives
// LAST SEEN (lastObservedTime) and COUNT.
#[test]
fn print_event_series() {
    let mut e = base("event6");
    e.event_time = Some(days_ago(3));
    e.series = Some((2, days_ago(2)));
    assert_eq!(wide(&e), expect("2d", "kubelet, Node1", "2", "event6"));
}

// Row 7, "Singleton event, w/o FirstTimestamp, LastTimestamp and Count set": COUNT 1.
#[test]
fn print_singleton_event_without_count() {
    let mut e = base("event7");
    e.event_time = Some(days_ago(3));
    assert_eq!(wide(&e), expect("3d", "kubelet, Node1", "1", "event7"));
}

// Row 8, "Basic event, with empty Source; generate options=Wide": SOURCE from
// reportingController and reportingInstance.
#[test]
fn print_event_with_empty_source() {
    let mut e = base("event2");
    e.source = String::new();
    e.host = String::new();
    e.reporting_controller = "kubelet".into();
    e.reporting_instance = "test".into();
    e.first = days_ago(3);
    e.last = days_ago(2);
    e.count = 6;
    assert_eq!(wide(&e), expect("2d", "kubelet, test", "6", "event2"));
}

/// The recorder's own events (client-go `generateEvent`): reportingComponent and
/// reportingInstance copy source.component and source.host; eventTime stays null.
#[test]
fn recorded_events_copy_the_source_into_the_reporting_fields() {
    use crate::api::EventRecord;
    let rec = |source: &str, host: &str| EventRecord {
        time: Time::from_unix_secs(100),
        kind: "Pod".into(),
        namespace: "default".into(),
        name: "p".into(),
        uid: String::new().into(),
        type_: "Normal".into(),
        reason: "Scheduled".into(),
        message: "m".into(),
        source: source.into(),
        host: host.into(),
        field_path: String::new().into(),
        count: 1,
    };
    let evs = crate::kubectl::events::aggregate(&[
        rec("default-scheduler", ""),
        rec("kubelet", "node-1"),
    ]);
    let by = |c: &str| {
        evs.iter()
            .find(|e| e.source == c)
            .map(Event::to_value)
            .unwrap()
    };
    let v = by("default-scheduler");
    assert_eq!(v["reportingComponent"], "default-scheduler");
    assert_eq!(v["reportingInstance"], "");
    assert!(v["eventTime"].is_null());
    assert!(v.get("series").is_none());
    assert_eq!(
        v["source"],
        serde_json::json!({"component": "default-scheduler"})
    );
    let v = by("kubelet");
    assert_eq!(v["reportingComponent"], "kubelet");
    assert_eq!(v["reportingInstance"], "node-1");
    assert_eq!(
        v["source"],
        serde_json::json!({"component": "kubelet", "host": "node-1"})
    );
}

/// LAST SEEN / FIRST SEEN count from the whole seconds the API stores (metav1.Time): an event
/// emitted at 10.7 s is 60 s old at 70.2 s, not 59 s.
#[test]
fn event_ages_count_from_whole_seconds() {
    let mut e = base("e");
    e.first = Time(10_700);
    e.last = Time(10_700);
    e.count = 1;
    let r = row(
        &e,
        &PrintOptions {
            wide: true,
            now: Time(70_200),
        },
    );
    assert_eq!(r.cells[0], "60s");
    assert_eq!(r.cells[7], "60s");
}

// upstream: TestTableRowDeepCopyShouldNotPanic (printers_test.go): every printer gives a row
// for an empty object. For an empty Event, printEvent's fallbacks give `<unknown>` ages and
// a count of 1.
#[test]
fn empty_objects_print_a_row() {
    let e = Event {
        name: String::new(),
        namespace: String::new(),
        involved_kind: String::new(),
        involved_name: String::new(),
        involved_namespace: String::new(),
        involved_uid: String::new(),
        type_: String::new(),
        reason: String::new(),
        message: String::new(),
        source: String::new(),
        host: String::new(),
        field_path: String::new(),
        first: Time::ZERO,
        last: Time::ZERO,
        count: 0,
        event_time: None,
        series: None,
        reporting_controller: String::new(),
        reporting_instance: String::new(),
    };
    assert_eq!(
        wide(&e),
        ["<unknown>", "", "", "", "", "", "", "<unknown>", "1", ""]
    );
    for kind in [
        "Pod",
        "Node",
        "Deployment",
        "ReplicaSet",
        "ReplicationController",
        "StatefulSet",
        "DaemonSet",
        "ControllerRevision",
        "Job",
        "CronJob",
        "HorizontalPodAutoscaler",
    ] {
        let (api_version, ..) = crate::api::kind_info(kind).unwrap();
        let o = crate::api::Object::from_value(serde_json::json!({
            "apiVersion": api_version, "kind": kind, "metadata": {},
        }))
        .unwrap_or_else(|e| panic!("{kind}: {e}"));
        for w in [false, true] {
            let rows = super::rows(
                &[&o],
                &PrintOptions {
                    wide: w,
                    now: now(),
                },
            );
            assert_eq!(rows.len(), 1, "{kind}");
            assert!(!rows[0].cells.is_empty(), "{kind}");
        }
    }
}

/// `DescribeEvents` sorts with `SortableEvents` (kubectl/pkg/util/event): by the whole-second
/// lastTimestamp the API serves; events in the same second stay in list (name) order, so an
/// event first seen earlier in that second comes first even if it was seen again later in it.
#[test]
fn describe_orders_events_by_whole_second_last_timestamp() {
    use crate::api::EventRecord;
    let rec = |ms: i64, reason: &str| EventRecord {
        time: Time(ms),
        kind: "ReplicaSet".into(),
        namespace: "default".into(),
        name: "web".into(),
        uid: String::new().into(),
        type_: "Normal".into(),
        reason: reason.into(),
        message: reason.into(),
        source: "replicaset-controller".into(),
        host: String::new().into(),
        field_path: String::new().into(),
        count: 1,
    };
    let recs = [
        rec(10_100, "A"),
        rec(10_500, "B"),
        rec(10_900, "A"),
        rec(11_000, "C"),
    ];
    let evs = crate::kubectl::events::for_object(&recs, "ReplicaSet", "default", "web", "");
    let order: Vec<(&str, i32)> = evs.iter().map(|e| (e.reason.as_str(), e.count)).collect();
    assert_eq!(order, [("A", 2), ("B", 1), ("C", 1)]);
}
