//! The ReplicaSet and ReplicationController tables: `printReplicaSet` and
//! `printReplicationController` (DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR).

use super::{layout_container_cells, translate_timestamp_since, PrintOptions};
use crate::api::{labels_string, Object};
use crate::kubectl::table::Column;

pub const COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Desired"),
    Column::std("Current"),
    Column::std("Ready"),
    Column::std("Age"),
    Column::wide("Containers"),
    Column::wide("Images"),
    Column::wide("Selector"),
];

/// The ReplicationController columns are the same.
pub const RC_COLUMNS: &[Column] = COLUMNS;

pub fn row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::ReplicaSet(rs) = o else {
        return vec![];
    };
    let mut cells = vec![
        rs.metadata.name.clone(),
        rs.replicas().to_string(),
        rs.status.replicas.to_string(),
        rs.status.ready_replicas.to_string(),
        translate_timestamp_since(rs.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let (names, images) = layout_container_cells(&rs.spec.template.spec.containers);
        cells.push(names);
        cells.push(images);
        cells.push(
            rs.spec
                .selector
                .as_ref()
                .map(|s| s.to_kubectl_string())
                .unwrap_or_else(|| "<none>".into()),
        );
    }
    cells
}

pub fn rc_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::ReplicationController(rc) = o else {
        return vec![];
    };
    let mut cells = vec![
        rc.metadata.name.clone(),
        rc.replicas().to_string(),
        rc.status.replicas.to_string(),
        rc.status.ready_replicas.to_string(),
        translate_timestamp_since(rc.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let containers = rc
            .spec
            .template
            .as_ref()
            .map(|t| t.spec.containers.clone())
            .unwrap_or_default();
        let (names, images) = layout_container_cells(&containers);
        cells.push(names);
        cells.push(images);
        cells.push(labels_string(&rc.spec.selector));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        Container, Duration, LabelSelector, ObjectMeta, PodSpec, PodTemplateSpec, ReplicaSet,
        ReplicaSetSpec, ReplicaSetStatus, ReplicationController, ReplicationControllerSpec,
    };
    use crate::kubectl::printers::testutil::now;

    fn containers() -> Vec<Container> {
        vec![
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
        ]
    }

    /// Port of TestPrintReplicaSet (pkg/printers/internalversion/printers_test.go): a
    /// creation time 1.9s in the future prints as 0s.
    #[test]
    fn print_replica_set() {
        let rs = ReplicaSet {
            metadata: ObjectMeta {
                name: "test1".into(),
                creation_timestamp: Some(now() + Duration::from_millis(1900)),
                ..Default::default()
            },
            spec: (ReplicaSetSpec {
                replicas: Some(5),
                selector: Some(LabelSelector::from_labels(
                    &[("foo".to_string(), "bar".to_string())]
                        .into_iter()
                        .collect(),
                )),
                template: std::sync::Arc::new(PodTemplateSpec {
                    spec: std::sync::Arc::new(PodSpec {
                        containers: containers(),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            })
            .into(),
            status: (ReplicaSetStatus {
                replicas: 5,
                ready_replicas: 2,
                ..Default::default()
            })
            .into(),
            ..Default::default()
        };
        let o = Object::ReplicaSet(rs);
        let opts = PrintOptions {
            wide: false,
            now: now(),
        };
        assert_eq!(row(&o, &opts), ["test1", "5", "5", "2", "0s"]);
        let wide = PrintOptions { wide: true, ..opts };
        assert_eq!(
            row(&o, &wide),
            [
                "test1",
                "5",
                "5",
                "2",
                "0s",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "foo=bar"
            ]
        );
    }

    #[test]
    fn print_replication_controller() {
        let rc = ReplicationController {
            metadata: ObjectMeta {
                name: "nginx".into(),
                creation_timestamp: Some(now() - Duration::from_secs(3 * 3600 + 60)),
                ..Default::default()
            },
            spec: ReplicationControllerSpec {
                replicas: Some(3),
                selector: [("app".to_string(), "nginx".to_string())]
                    .into_iter()
                    .collect(),
                template: Some(PodTemplateSpec {
                    spec: std::sync::Arc::new(PodSpec {
                        containers: containers(),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            },
            status: ReplicaSetStatus {
                replicas: 3,
                ready_replicas: 1,
                ..Default::default()
            },
            ..Default::default()
        };
        let o = Object::ReplicationController(rc);
        let opts = PrintOptions {
            wide: true,
            now: now(),
        };
        assert_eq!(
            rc_row(&o, &opts),
            [
                "nginx",
                "3",
                "3",
                "1",
                "3h1m",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "app=nginx"
            ]
        );
    }
}
