//! The HorizontalPodAutoscaler table (`printHorizontalPodAutoscaler`, `formatHPAMetrics` in
//! `pkg/printers/internalversion/printers.go`).

use super::{translate_timestamp_since, PrintOptions};
use crate::api::autoscaling::{MetricSpec, MetricStatus};
use crate::api::{Object, Quantity};
use crate::kubectl::describe::quantity_string;
use crate::kubectl::table::Column;
use serde_json::Value;

pub const HPA_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Reference"),
    Column::std("Targets"),
    Column::std("MinPods"),
    Column::std("MaxPods"),
    Column::std("Replicas"),
    Column::std("Age"),
];

/// `Quantity.String()` of an optional quantity: `<nil>` for a nil pointer, as Go prints one.
pub(crate) fn quantity_or_nil(q: Option<&Quantity>) -> String {
    q.map_or_else(|| "<nil>".to_string(), quantity_string)
}

/// The quantity at `field` of a metric target or value status kept as JSON (`target`,
/// `current`), if set.
pub(crate) fn json_quantity(v: Option<&Value>, field: &str) -> Option<Quantity> {
    v?.get(field)
        .and_then(Value::as_str)
        .map(|s| Quantity(s.to_string()))
}

/// A metric source or status kept as JSON: its `target` / `current` object.
pub(crate) fn json_part<'a>(v: Option<&'a Value>, part: &str) -> Option<&'a Value> {
    v?.get(part)
}

/// The `current: target` pair of a resource or container-resource metric.
fn resource_metric(
    name: &str,
    target_average: Option<Quantity>,
    target_utilization: Option<i64>,
    status_current: Option<&Value>,
    status_set: bool,
) -> String {
    if let Some(av) = target_average {
        let current = if status_set {
            quantity_or_nil(json_quantity(status_current, "averageValue").as_ref())
        } else {
            "<unknown>".into()
        };
        return format!("{name}: {current}/{}", quantity_string(&av));
    }
    let current = status_current
        .filter(|_| status_set)
        .and_then(|c| c.get("averageUtilization"))
        .and_then(Value::as_i64)
        .map_or_else(|| "<unknown>".to_string(), |u| format!("{u}%"));
    let target = target_utilization.map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"));
    format!("{name}: {current}/{target}")
}

/// `formatHPAMetrics` (pkg/printers/internalversion/printers.go): one `current/target` per
/// metric (`<unknown>` before a measurement; ` (avg)` for average-value External and Object
/// targets; `name: ` before Resource and ContainerResource ones), at most two then
/// `+ N more...`; `<none>` without metrics.
pub fn format_hpa_metrics(specs: &[MetricSpec], statuses: &[MetricStatus]) -> String {
    if specs.is_empty() {
        return "<none>".into();
    }
    let mut list = vec![];
    for (i, spec) in specs.iter().enumerate() {
        let st = statuses.get(i);
        // `statuses[i].X.Current` when `statuses[i].X` is set.
        let status_of = |f: fn(&MetricStatus) -> Option<&Value>| st.and_then(f);
        let cur = |f: fn(&MetricStatus) -> Option<&Value>, field: &str| {
            status_of(f).map(|s| quantity_or_nil(json_quantity(s.get("current"), field).as_ref()))
        };
        let unknown = || "<unknown>".to_string();
        match spec.type_.as_str() {
            "External" => {
                let target = json_part(spec.external.as_ref(), "target");
                if let Some(av) = json_quantity(target, "averageValue") {
                    let current = status_of(|s| s.external.as_ref())
                        .and_then(|s| json_quantity(s.get("current"), "averageValue"))
                        .map_or_else(unknown, |q| quantity_string(&q));
                    list.push(format!("{current}/{} (avg)", quantity_string(&av)));
                } else {
                    let current = cur(|s| s.external.as_ref(), "value").unwrap_or_else(unknown);
                    let t = quantity_or_nil(json_quantity(target, "value").as_ref());
                    list.push(format!("{current}/{t}"));
                }
            }
            "Pods" => {
                let target = json_part(spec.pods.as_ref(), "target");
                let current = cur(|s| s.pods.as_ref(), "averageValue").unwrap_or_else(unknown);
                let t = quantity_or_nil(json_quantity(target, "averageValue").as_ref());
                list.push(format!("{current}/{t}"));
            }
            "Object" => {
                let target = json_part(spec.object.as_ref(), "target");
                if let Some(av) = json_quantity(target, "averageValue") {
                    let current = status_of(|s| s.object.as_ref())
                        .and_then(|s| json_quantity(s.get("current"), "averageValue"))
                        .map_or_else(unknown, |q| quantity_string(&q));
                    list.push(format!("{current}/{} (avg)", quantity_string(&av)));
                } else {
                    let current = cur(|s| s.object.as_ref(), "value").unwrap_or_else(unknown);
                    let t = quantity_or_nil(json_quantity(target, "value").as_ref());
                    list.push(format!("{current}/{t}"));
                }
            }
            "Resource" => {
                let r = spec.resource.clone().unwrap_or_default();
                let s = st.and_then(|s| s.resource.as_ref());
                let current = s.map(|s| serde_json::to_value(&s.current).unwrap_or_default());
                list.push(resource_metric(
                    &r.name,
                    r.target.average_value,
                    r.target.average_utilization.map(i64::from),
                    current.as_ref(),
                    s.is_some(),
                ));
            }
            "ContainerResource" => {
                let c = spec.container_resource.as_ref();
                let name = c
                    .and_then(|c| c.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let target = json_part(c, "target");
                let s = status_of(|s| s.container_resource.as_ref());
                list.push(resource_metric(
                    name,
                    json_quantity(target, "averageValue"),
                    target
                        .and_then(|t| t.get("averageUtilization"))
                        .and_then(Value::as_i64),
                    s.and_then(|s| s.get("current")),
                    s.is_some(),
                ));
            }
            _ => list.push("<unknown type>".into()),
        }
    }
    let max = 2;
    let count = list.len();
    if count > max {
        list.truncate(max);
        return format!("{} + {} more...", list.join(", "), count - max);
    }
    list.join(", ")
}

pub fn hpa_row(o: &Object, opts: &PrintOptions) -> Vec<String> {
    let Object::HorizontalPodAutoscaler(h) = o else {
        return vec![];
    };
    let r = &h.spec.scale_target_ref;
    vec![
        h.metadata.name.clone(),
        format!("{}/{}", r.kind, r.name),
        format_hpa_metrics(&h.spec.metrics, &h.status.current_metrics),
        h.spec
            .min_replicas
            .map_or_else(|| "<unset>".to_string(), |m| m.to_string()),
        h.spec.max_replicas.to_string(),
        h.status.current_replicas.to_string(),
        translate_timestamp_since(h.metadata.creation_timestamp, opts.now),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::autoscaling::*;

    fn cpu(target: i32) -> MetricSpec {
        MetricSpec {
            type_: "Resource".into(),
            resource: Some(ResourceMetricSource {
                name: "cpu".into(),
                target: MetricTarget {
                    type_: "Utilization".into(),
                    average_utilization: Some(target),
                    ..Default::default()
                },
            }),
            ..Default::default()
        }
    }

    // Port of the HPA cases of TestPrintHPA (pkg/printers/internalversion/printers_test.go).
    #[test]
    fn targets_column() {
        assert_eq!(format_hpa_metrics(&[], &[]), "<none>");
        assert_eq!(format_hpa_metrics(&[cpu(50)], &[]), "cpu: <unknown>/50%");
        let st = MetricStatus {
            type_: "Resource".into(),
            resource: Some(ResourceMetricStatus {
                name: "cpu".into(),
                current: MetricValueStatus {
                    average_utilization: Some(73),
                    ..Default::default()
                },
            }),
            ..Default::default()
        };
        assert_eq!(
            format_hpa_metrics(&[cpu(50)], std::slice::from_ref(&st)),
            "cpu: 73%/50%"
        );
        assert_eq!(
            format_hpa_metrics(&[cpu(50), cpu(60), cpu(70)], &[st]),
            "cpu: 73%/50%, cpu: <unknown>/60% + 1 more..."
        );
    }
}
