//! The Event table: `printEvent` (LAST SEEN TYPE REASON OBJECT MESSAGE; wide adds SUBOBJECT,
//! SOURCE, FIRST SEEN, COUNT and NAME).

use super::PrintOptions;
use crate::api::{human_duration, Time};
use crate::kubectl::events::Event;
use crate::kubectl::table::{Column, Row};

pub const COLUMNS: &[Column] = &[
    Column::std("Last Seen"),
    Column::std("Type"),
    Column::std("Reason"),
    Column::std("Object"),
    Column::wide("Subobject"),
    Column::wide("Source"),
    Column::std("Message"),
    Column::wide("First Seen"),
    Column::wide("Count"),
    Column {
        name: "Name",
        wide: true,
        is_name: true,
    },
];

/// `formatEventSourceComponentInstance` (printers.go): the component, then `, instance` when
/// there is one (`kubelet, node-1`).
pub fn format_event_source(component: &str, host: &str) -> String {
    if host.is_empty() {
        component.to_string()
    } else {
        format!("{component}, {host}")
    }
}

/// `formatEventSource`: `source.component` (else `reportingComponent`), then `source.host` (else
/// `reportingInstance`).
fn event_source(e: &Event) -> String {
    let first_non_empty = |a: &str, b: &str| if a.is_empty() { b } else { a }.to_string();
    format_event_source(
        &first_non_empty(&e.source, &e.reporting_controller),
        &first_non_empty(&e.host, &e.reporting_instance),
    )
}

/// `translateTimestampSince` of a `metav1.Time` as the API serves it (whole seconds).
pub(crate) fn since(t: Time, now: Time) -> String {
    if t.is_zero() {
        "<unknown>".into()
    } else {
        human_duration(now - t.trunc_secs())
    }
}

/// `translateMicroTimestampSince` (`<unknown>` for an unset `eventTime`).
pub(crate) fn micro_since(t: Option<Time>, now: Time) -> String {
    match t {
        Some(t) if !t.is_zero() => human_duration(now - t),
        _ => "<unknown>".into(),
    }
}

/// One row (cells in column order; the table drops wide-only cells): `printEvent`. FIRST SEEN
/// falls back to `eventTime`, LAST SEEN to FIRST SEEN; a series gives LAST SEEN and COUNT; a
/// singleton event without a count counts 1.
pub fn row(e: &Event, opts: &PrintOptions) -> Row {
    let first_seen = if e.first.is_zero() {
        micro_since(e.event_time, opts.now)
    } else {
        since(e.first, opts.now)
    };
    let mut last_seen = if e.last.is_zero() {
        first_seen.clone()
    } else {
        since(e.last, opts.now)
    };
    let count = match e.series {
        Some((count, last_observed)) => {
            last_seen = micro_since(Some(last_observed), opts.now);
            count
        }
        None if e.count == 0 => 1,
        None => e.count,
    };
    Row {
        cells: vec![
            last_seen,
            e.type_.clone(),
            e.reason.clone(),
            e.object(),
            e.field_path.clone(),
            event_source(e),
            e.message.trim().to_string(),
            first_seen,
            count.to_string(),
            e.name.clone(),
        ],
        namespace: e.namespace.clone(),
        labels: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Duration;
    use crate::kubectl::printers::testutil::now;
    use crate::kubectl::table::{render, TableOptions};

    fn ev() -> Event {
        Event {
            name: "event1".into(),
            namespace: "default".into(),
            involved_kind: "Pod".into(),
            involved_name: "Pod Name".into(),
            involved_namespace: "default".into(),
            involved_uid: String::new(),
            type_: "Normal".into(),
            reason: "Event Reason".into(),
            message: "Message Data".into(),
            source: "kubelet".into(),
            host: String::new(),
            field_path: String::new(),
            first: now() - Duration::from_secs(3 * 86400),
            last: now() - Duration::from_secs(2 * 86400),
            count: 6,
            event_time: None,
            series: None,
            reporting_controller: String::new(),
            reporting_instance: String::new(),
        }
    }

    /// Port of TestPrintEvent (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_event() {
        let opts = PrintOptions {
            wide: false,
            now: now(),
        };
        let r = row(&ev(), &opts);
        assert_eq!(
            render(COLUMNS, std::slice::from_ref(&r), &TableOptions::default()),
            "LAST SEEN   TYPE     REASON         OBJECT         MESSAGE\n2d          Normal   Event Reason   pod/Pod Name   Message Data\n"
        );
        let wide = TableOptions {
            wide: true,
            ..Default::default()
        };
        assert_eq!(
            crate::kubectl::table::row_cells(COLUMNS, &r, &wide),
            [
                "2d",
                "Normal",
                "Event Reason",
                "pod/Pod Name",
                "",
                "kubelet",
                "Message Data",
                "3d",
                "6",
                "event1"
            ]
        );
        // With a host (`formatEventSource`), SOURCE is "component, host".
        let mut e = ev();
        e.host = "Node1".into();
        let r = row(&e, &opts);
        assert_eq!(
            crate::kubectl::table::row_cells(COLUMNS, &r, &wide)[5],
            "kubelet, Node1"
        );
    }
}
