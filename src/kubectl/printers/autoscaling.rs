//! The HorizontalPodAutoscaler table (`printHorizontalPodAutoscaler`, `formatHPAMetrics` in
//! `pkg/printers/internalversion/printers.go`).

use super::{translate_timestamp_since, PrintOptions};
use crate::api::autoscaling::{MetricSpec, MetricStatus};
use crate::api::Object;
use crate::kubectl::table::Column;

pub const HPA_COLUMNS: &[Column] = &[
    Column::name("Name"),
    Column::std("Reference"),
    Column::std("Targets"),
    Column::std("MinPods"),
    Column::std("MaxPods"),
    Column::std("Replicas"),
    Column::std("Age"),
];

fn raw_target(v: &Option<serde_json::Value>) -> String {
    let t = v.as_ref().and_then(|v| v.get("target"));
    t.and_then(|t| t.get("averageValue").or_else(|| t.get("value")))
        .map(|q| match q {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .unwrap_or_else(|| "<auto>".into())
}

/// `formatHPAMetrics`: `cpu: 73%/50%` per metric (`<unknown>` before a measurement), at most two
/// then `+ N more...`; `<none>` without metrics.
pub fn format_hpa_metrics(specs: &[MetricSpec], statuses: &[MetricStatus]) -> String {
    if specs.is_empty() {
        return "<none>".into();
    }
    let mut list = vec![];
    for (i, spec) in specs.iter().enumerate() {
        let st = statuses.get(i).and_then(|s| s.resource.as_ref());
        match (spec.type_.as_str(), &spec.resource) {
            ("Resource", Some(r)) => {
                if let Some(av) = &r.target.average_value {
                    let current = st
                        .and_then(|s| s.current.average_value.as_ref())
                        .map_or_else(|| "<unknown>".to_string(), |q| q.0.clone());
                    list.push(format!("{}: {current}/{}", r.name, av.0));
                } else {
                    let current = st
                        .and_then(|s| s.current.average_utilization)
                        .map_or_else(|| "<unknown>".to_string(), |u| format!("{u}%"));
                    let target = r
                        .target
                        .average_utilization
                        .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"));
                    list.push(format!("{}: {current}/{target}", r.name));
                }
            }
            ("Pods", _) => list.push(format!("<unknown>/{}", raw_target(&spec.pods))),
            ("Object", _) => list.push(format!("<unknown>/{}", raw_target(&spec.object))),
            ("External", _) => list.push(format!("<unknown>/{}", raw_target(&spec.external))),
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
