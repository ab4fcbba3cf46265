//! The Event table: `printEvent` (LAST SEEN TYPE REASON OBJECT MESSAGE; wide adds SUBOBJECT,
//! SOURCE, FIRST SEEN, COUNT and NAME).

use super::PrintOptions;
use crate::api::human_duration;
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

/// `formatEventSource` / `formatEventSourceComponentInstance` (printers.go): the component,
/// then `, host` when the source has one (`kubelet, node-1`).
pub fn format_event_source(component: &str, host: &str) -> String {
    if host.is_empty() {
        component.to_string()
    } else {
        format!("{component}, {host}")
    }
}

/// One row (cells in column order; the table drops wide-only cells).
pub fn row(e: &Event, opts: &PrintOptions) -> Row {
    Row {
        cells: vec![
            human_duration(opts.now - e.last),
            e.type_.clone(),
            e.reason.clone(),
            e.object(),
            e.field_path.clone(),
            format_event_source(&e.source, &e.host),
            e.message.trim().to_string(),
            human_duration(opts.now - e.first),
            e.count.to_string(),
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
