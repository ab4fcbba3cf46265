//! Table printers, one per kind, ported from the API server's `pkg/printers/internalversion`.
//!
//! To add a kind: write `printers/<kind>.rs` with its `COLUMNS` and a `row` function and add it
//! to [`printer_for`]. Kinds without a printer get the server's default NAME / AGE table.

pub mod apps_more;
#[cfg(test)]
mod audit_tests;
pub mod autoscaling;
pub mod batch;
pub mod core_more;
pub mod deployment;
pub mod event;
#[cfg(test)]
mod event_rows_tests;
pub mod node;
#[cfg(test)]
mod node_rows_tests;
#[cfg(test)]
mod pdb_tests;
pub mod pod;
#[cfg(test)]
mod pod_list_tests;
pub mod policy;
pub mod replicaset;
#[cfg(test)]
mod upstream_more_tests;

use super::table::{Column, Row};
use crate::api::{human_duration, Object, Time};

/// What a row function needs besides the object.
#[derive(Clone, Copy, Debug)]
pub struct PrintOptions {
    pub wide: bool,
    pub now: Time,
}

/// A kind's table: its column definitions and the function producing one row's cells (all
/// columns, wide ones included; the table drops wide cells unless `-o wide`).
#[derive(Clone, Copy)]
pub struct Printer {
    pub columns: &'static [Column],
    pub row: fn(&Object, &PrintOptions) -> Vec<String>,
}

/// `objectMetaColumnDefinitions`: the table for kinds without a printer.
pub const DEFAULT_COLUMNS: &[Column] = &[Column::name("Name"), Column::std("Age")];

fn default_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    vec![
        o.meta().name.clone(),
        translate_timestamp_since(o.meta().creation_timestamp, opts.now),
    ]
}

/// The printer for a kind (by kind name, e.g. `ReplicaSet`).
pub fn printer_for(kind: &str) -> Printer {
    match kind {
        "Pod" => Printer {
            columns: pod::COLUMNS,
            row: pod::row,
        },
        "Node" => Printer {
            columns: node::COLUMNS,
            row: node::row,
        },
        "Deployment" => Printer {
            columns: deployment::COLUMNS,
            row: deployment::row,
        },
        "ReplicaSet" => Printer {
            columns: replicaset::COLUMNS,
            row: replicaset::row,
        },
        "ReplicationController" => Printer {
            columns: replicaset::RC_COLUMNS,
            row: replicaset::rc_row,
        },
        "Job" => Printer {
            columns: batch::JOB_COLUMNS,
            row: batch::job_row,
        },
        "CronJob" => Printer {
            columns: batch::CRON_JOB_COLUMNS,
            row: batch::cron_job_row,
        },
        "StatefulSet" => Printer {
            columns: apps_more::STATEFUL_SET_COLUMNS,
            row: apps_more::stateful_set_row,
        },
        "DaemonSet" => Printer {
            columns: apps_more::DAEMON_SET_COLUMNS,
            row: apps_more::daemon_set_row,
        },
        "ControllerRevision" => Printer {
            columns: apps_more::CONTROLLER_REVISION_COLUMNS,
            row: apps_more::controller_revision_row,
        },
        "PersistentVolumeClaim" => Printer {
            columns: core_more::PVC_COLUMNS,
            row: core_more::pvc_row,
        },
        "Service" => Printer {
            columns: core_more::SERVICE_COLUMNS,
            row: core_more::service_row,
        },
        "HorizontalPodAutoscaler" => Printer {
            columns: autoscaling::HPA_COLUMNS,
            row: autoscaling::hpa_row,
        },
        "PodDisruptionBudget" => Printer {
            columns: policy::PDB_COLUMNS,
            row: policy::pdb_row,
        },
        _ => Printer {
            columns: DEFAULT_COLUMNS,
            row: default_row,
        },
    }
}

/// Builds the rows of one kind's table.
pub fn rows(objects: &[&Object], opts: &PrintOptions) -> Vec<Row> {
    objects
        .iter()
        .map(|o| Row {
            cells: (printer_for(o.kind()).row)(o, opts),
            namespace: o.meta().namespace.clone(),
            labels: o.meta().labels.clone().into(),
        })
        .collect()
}

/// `translateTimestampSince`: `<unknown>` for a missing timestamp, else the human duration.
pub fn translate_timestamp_since(t: Option<Time>, now: Time) -> String {
    match t {
        None => "<unknown>".into(),
        Some(t) if t.is_zero() => "<unknown>".into(),
        Some(t) => human_duration(now - t),
    }
}

/// `layoutContainerCells`: container names and images joined with commas.
pub fn layout_container_cells(containers: &[crate::api::Container]) -> (String, String) {
    let names: Vec<&str> = containers.iter().map(|c| c.name.as_str()).collect();
    let images: Vec<&str> = containers.iter().map(|c| c.image.as_str()).collect();
    (names.join(","), images.join(","))
}

/// `metav1.FormatLabelSelector`: `<none>` for a missing or empty selector, `<error>` for one
/// that cannot be converted.
pub fn format_label_selector(s: Option<&crate::api::LabelSelector>) -> String {
    match s {
        None => "<none>".into(),
        Some(s) => match s.to_selector() {
            Err(_) => "<error>".into(),
            Ok(_) if s.is_empty() => "<none>".into(),
            Ok(_) => s.to_kubectl_string(),
        },
    }
}

/// `printBoolPtr`: `True` / `False`, `<unset>` for nil.
pub fn print_bool_ptr(b: Option<bool>) -> String {
    match b {
        None => "<unset>".into(),
        Some(true) => "True".into(),
        Some(false) => "False".into(),
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    use crate::api::Time;

    /// A fixed "now" for printer tests.
    pub fn now() -> Time {
        Time::parse_rfc3339("2025-01-10T00:00:00Z").unwrap()
    }
}
