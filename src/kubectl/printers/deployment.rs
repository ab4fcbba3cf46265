//! The Deployment table: `printDeployment` (READY as ready/desired, UP-TO-DATE, AVAILABLE;
//! wide CONTAINERS IMAGES SELECTOR).

use super::{layout_container_cells, translate_timestamp_since, PrintOptions};
use crate::api::Object;
use crate::kubectl::table::Column;

pub const COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Ready"),
    Column::std("Up-to-date"),
    Column::std("Available"),
    Column::std("Age"),
    Column::wide("Containers"),
    Column::wide("Images"),
    Column::wide("Selector"),
];

pub fn row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::Deployment(d) = o else {
        return vec![];
    };
    let mut cells = vec![
        d.metadata.name.clone(),
        format!("{}/{}", d.status.ready_replicas, d.replicas()),
        d.status.updated_replicas.to_string(),
        d.status.available_replicas.to_string(),
        translate_timestamp_since(d.metadata.creation_timestamp, opts.now),
    ];
    if opts.wide {
        let (names, images) = layout_container_cells(&d.spec.template.spec.containers);
        // `LabelSelectorAsSelector(...).String()`: empty for an empty selector, and
        // `<invalid>` when it cannot be converted.
        let selector = match d.spec.selector.as_ref().map(|s| (s, s.to_selector())) {
            None => String::new(),
            Some((_, Err(_))) => "<invalid>".into(),
            Some((s, Ok(_))) if s.is_empty() => String::new(),
            Some((s, Ok(_))) => s.to_kubectl_string(),
        };
        cells.push(names);
        cells.push(images);
        cells.push(selector);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{
        Container, Deployment, DeploymentSpec, DeploymentStatus, Duration, LabelSelector,
        ObjectMeta, PodSpec, PodTemplateSpec,
    };
    use crate::kubectl::printers::testutil::now;

    /// Port of TestPrintDeployment (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn print_deployment() {
        let d = Deployment {
            metadata: ObjectMeta {
                name: "test1".into(),
                creation_timestamp: Some(now() + Duration::from_millis(1900)),
                ..Default::default()
            },
            spec: (DeploymentSpec {
                replicas: Some(5),
                template: std::sync::Arc::new(PodTemplateSpec {
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
                }),
                selector: Some(LabelSelector::from_labels(
                    &[("foo".to_string(), "bar".to_string())]
                        .into_iter()
                        .collect(),
                )),
                ..Default::default()
            })
            .into(),
            status: (DeploymentStatus {
                replicas: 10,
                updated_replicas: 2,
                available_replicas: 1,
                unavailable_replicas: 4,
                ..Default::default()
            })
            .into(),
            ..Default::default()
        };
        let o = Object::Deployment(d);
        let opts = PrintOptions {
            wide: false,
            now: now(),
        };
        assert_eq!(row(&o, &opts), ["test1", "0/5", "2", "1", "0s"]);
        assert_eq!(
            row(&o, &PrintOptions { wide: true, ..opts }),
            [
                "test1",
                "0/5",
                "2",
                "1",
                "0s",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "foo=bar"
            ]
        );
    }
}
