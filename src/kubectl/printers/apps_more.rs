//! The StatefulSet, DaemonSet and ControllerRevision tables: `printStatefulSet` (READY as
//! ready/desired; wide CONTAINERS IMAGES), `printDaemonSet` (DESIRED CURRENT READY UP-TO-DATE
//! AVAILABLE NODE SELECTOR; wide CONTAINERS IMAGES SELECTOR) and `printControllerRevision`
//! (CONTROLLER as `kind.group/name`, REVISION).

use super::{
    format_label_selector, layout_container_cells, translate_timestamp_since, PrintOptions,
};
use crate::api::{labels_string, Object};
use crate::kubectl::table::Column;

pub const STATEFUL_SET_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Ready"),
    Column::std("Age"),
    Column::wide("Containers"),
    Column::wide("Images"),
];

pub const DAEMON_SET_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Desired"),
    Column::std("Current"),
    Column::std("Ready"),
    Column::std("Up-to-date"),
    Column::std("Available"),
    Column::std("Node Selector"),
    Column::std("Age"),
    Column::wide("Containers"),
    Column::wide("Images"),
    Column::wide("Selector"),
];

pub const CONTROLLER_REVISION_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Controller"),
    Column::std("Revision"),
    Column::std("Age"),
];

pub fn stateful_set_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::StatefulSet(s) = o else {
        return vec![];
    };
    let mut cells = vec![
        s.metadata.name.clone(),
        format!("{}/{}", s.status.ready_replicas, s.replicas()),
        translate_timestamp_since(s.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let (names, images) = layout_container_cells(&s.spec.template.spec.containers);
        cells.push(names);
        cells.push(images);
    }
    cells
}

pub fn daemon_set_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::DaemonSet(d) = o else {
        return vec![];
    };
    let st = &d.status;
    let mut cells = vec![
        d.metadata.name.clone(),
        st.desired_number_scheduled.to_string(),
        st.current_number_scheduled.to_string(),
        st.number_ready.to_string(),
        st.updated_number_scheduled.to_string(),
        st.number_available.to_string(),
        labels_string(&d.spec.template.spec.node_selector),
        translate_timestamp_since(d.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let (names, images) = layout_container_cells(&d.spec.template.spec.containers);
        cells.push(names);
        cells.push(images);
        cells.push(format_label_selector(d.spec.selector.as_ref()));
    }
    cells
}

/// `formatResourceName(gvk.GroupKind(), name, true)`: `kind.group/name` lower-cased (`kind/name`
/// for the core group).
pub fn format_controller_name(api_version: &str, kind: &str, name: &str) -> String {
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    if kind.is_empty() && group.is_empty() {
        return name.to_string();
    }
    let gk = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    format!("{}/{name}", gk.to_lowercase())
}

pub fn controller_revision_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::ControllerRevision(cr) = o else {
        return vec![];
    };
    let controller = cr
        .metadata
        .controller_ref()
        .map(|r| format_controller_name(&r.api_version, &r.kind, &r.name))
        .unwrap_or_else(|| "<none>".into());
    vec![
        cr.metadata.name.clone(),
        controller,
        cr.revision.to_string(),
        translate_timestamp_since(cr.metadata.creation_timestamp, opts.now),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        Container, ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetStatus, Duration,
        LabelSelector, ObjectMeta, OwnerReference, PodSpec, PodTemplateSpec, StatefulSet,
        StatefulSetSpec, StatefulSetStatus,
    };
    use crate::kubectl::printers::testutil::now;

    fn template() -> PodTemplateSpec {
        PodTemplateSpec {
            spec: std::sync::Arc::new(PodSpec {
                containers: vec![
                    Container {
                        name: "fake-container1".into(),
                        image: "fake-image1".into(),
                        ..Default::default()
                    },
                    Container {
                        name: "fake-container2".into(),
                        image: "fake-image2".into(),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn meta(name: &str) -> ObjectMeta {
        ObjectMeta {
            name: name.into(),
            creation_timestamp: Some(now() + Duration::from_millis(1900)),
            ..Default::default()
        }
    }

    /// Port of TestPrintStatefulSet (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_stateful_set() {
        let s = Object::StatefulSet(StatefulSet {
            metadata: meta("test1"),
            spec: (StatefulSetSpec {
                replicas: Some(5),
                template: std::sync::Arc::new(template()),
                ..Default::default()
            })
            .into(),
            status: (StatefulSetStatus {
                replicas: 5,
                ready_replicas: 2,
                ..Default::default()
            })
            .into(),
            ..Default::default()
        });
        let o = PrintOptions {
            wide: false,
            now: now(),
        };
        assert_eq!(stateful_set_row(&s, &o), ["test1", "2/5", "0s"]);
        assert_eq!(
            stateful_set_row(&s, &PrintOptions { wide: true, ..o }),
            [
                "test1",
                "2/5",
                "0s",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2"
            ]
        );
    }

    /// Port of TestPrintDaemonSet (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_daemon_set() {
        let d = Object::DaemonSet(DaemonSet {
            metadata: meta("test1"),
            spec: (DaemonSetSpec {
                template: std::sync::Arc::new(template()),
                selector: Some(LabelSelector::from_labels(
                    &[("foo".to_string(), "bar".to_string())]
                        .into_iter()
                        .collect(),
                )),
                ..Default::default()
            })
            .into(),
            status: (DaemonSetStatus {
                current_number_scheduled: 2,
                desired_number_scheduled: 3,
                number_ready: 1,
                updated_number_scheduled: 2,
                number_available: 0,
                ..Default::default()
            })
            .into(),
            ..Default::default()
        });
        let o = PrintOptions {
            wide: false,
            now: now(),
        };
        assert_eq!(
            daemon_set_row(&d, &o),
            ["test1", "3", "2", "1", "2", "0", "<none>", "0s"]
        );
        assert_eq!(
            daemon_set_row(&d, &PrintOptions { wide: true, ..o }),
            [
                "test1",
                "3",
                "2",
                "1",
                "2",
                "0",
                "<none>",
                "0s",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "foo=bar"
            ]
        );
    }

    /// Port of TestPrintControllerRevision (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_controller_revision() {
        let cr = |name: &str, owners: Vec<OwnerReference>, revision: i64| {
            let mut m = meta(name);
            m.owner_references = owners.into();
            Object::ControllerRevision(ControllerRevision {
                metadata: m,
                revision,
                ..Default::default()
            })
        };
        let o = PrintOptions {
            wide: false,
            now: now(),
        };
        let ds_owner = OwnerReference {
            controller: Some(true),
            api_version: "apps/v1".into(),
            kind: "DaemonSet".into(),
            name: "foo".into(),
            ..Default::default()
        };
        assert_eq!(
            controller_revision_row(&cr("test1", vec![ds_owner], 1), &o),
            ["test1", "daemonset.apps/foo", "1", "0s"]
        );
        let not_controller = OwnerReference {
            controller: Some(false),
            kind: "ABC".into(),
            name: "foo".into(),
            ..Default::default()
        };
        assert_eq!(
            controller_revision_row(&cr("test2", vec![not_controller], 2), &o),
            ["test2", "<none>", "2", "0s"]
        );
        assert_eq!(
            controller_revision_row(&cr("test3", vec![], 3), &o),
            ["test3", "<none>", "3", "0s"]
        );
    }
}
