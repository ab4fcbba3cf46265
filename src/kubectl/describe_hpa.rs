//! `kubectl describe hpa` (`HorizontalPodAutoscalerDescriber`, `describeHorizontalPodAutoscalerV2`
//! in describe.go).

use super::*;
use crate::api::autoscaling::{HorizontalPodAutoscaler, HpaScalingRules, MetricSpec, MetricStatus};
use crate::api::errors::go_quote;
use crate::kubectl::printers::autoscaling::{json_part, json_quantity, quantity_or_nil};

fn describe_scaling_rules(w: &mut Writer, rules: &HpaScalingRules) {
    if let Some(s) = rules.stabilization_window_seconds {
        w.w(2, &format!("Stabilization Window: {s} seconds\n"));
    }
    let policies = rules.policies.as_deref().unwrap_or_default();
    if !policies.is_empty() {
        // The select policy is printed with the policies, `Max` when unset.
        let select = rules.select_policy.as_deref().unwrap_or("Max");
        w.w(2, &format!("Select Policy: {select}\n"));
        w.w(2, "Policies:\n");
        for p in policies {
            w.w(
                3,
                &format!(
                    "- Type: {}\tValue: {}\tPeriod: {} seconds\n",
                    p.type_, p.value, p.period_seconds
                ),
            );
        }
    }
}

/// One line of `describeHorizontalPodAutoscalerV2`'s Metrics section (`current / target`).
fn describe_metric(w: &mut Writer, spec: &MetricSpec, st: Option<&MetricStatus>) {
    let unknown = || "<unknown>".to_string();
    let metric_name = |v: Option<&serde_json::Value>| {
        v.and_then(|v| v.pointer("/metric/name"))
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    // `statuses[i].X.Current.<field>.String()` when `statuses[i].X` is set.
    let current = |s: Option<&serde_json::Value>, field: &str| {
        s.map(|s| quantity_or_nil(json_quantity(s.get("current"), field).as_ref()))
    };
    match spec.type_.as_str() {
        "External" => {
            let src = spec.external.as_ref();
            let target = json_part(src, "target");
            let status = st.and_then(|s| s.external.as_ref());
            let name = go_quote(&metric_name(src));
            if let Some(av) = json_quantity(target, "averageValue") {
                let cur = status
                    .and_then(|s| json_quantity(s.get("current"), "averageValue"))
                    .map_or_else(unknown, |q| quantity_string(&q));
                w.w(
                    1,
                    &format!(
                        "{name} (target average value):\t{cur} / {}\n",
                        quantity_string(&av)
                    ),
                );
            } else {
                let cur = current(status, "value").unwrap_or_else(unknown);
                let t = quantity_or_nil(json_quantity(target, "value").as_ref());
                w.w(1, &format!("{name} (target value):\t{cur} / {t}\n"));
            }
        }
        "Pods" => {
            let src = spec.pods.as_ref();
            let cur =
                current(st.and_then(|s| s.pods.as_ref()), "averageValue").unwrap_or_else(unknown);
            let t =
                quantity_or_nil(json_quantity(json_part(src, "target"), "averageValue").as_ref());
            w.w(
                1,
                &format!("{} on pods:\t{cur} / {t}\n", go_quote(&metric_name(src))),
            );
        }
        "Object" => {
            let src = spec.object.as_ref();
            let target = json_part(src, "target");
            let described = |f: &str| {
                src.and_then(|v| v.get("describedObject"))
                    .and_then(|d| d.get(f))
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            w.w(
                1,
                &format!(
                    "\"{}\" on {}/{} ",
                    metric_name(src),
                    described("kind"),
                    described("name")
                ),
            );
            let status = st.and_then(|s| s.object.as_ref());
            let average = target
                .and_then(|t| t.get("type"))
                .and_then(serde_json::Value::as_str)
                == Some("AverageValue");
            let (label, field) = if average {
                ("target average value", "averageValue")
            } else {
                ("target value", "value")
            };
            let cur = current(status, field).unwrap_or_else(unknown);
            let t = quantity_or_nil(json_quantity(target, field).as_ref());
            w.w(0, &format!("({label}):\t{cur} / {t}\n"));
        }
        "Resource" | "ContainerResource" => {
            let (head, target, status) = if spec.type_ == "Resource" {
                let r = spec.resource.clone().unwrap_or_default();
                let t = serde_json::to_value(&r.target).ok();
                let s = st
                    .and_then(|s| s.resource.as_ref())
                    .and_then(|s| serde_json::to_value(s).ok());
                (format!("resource {} on pods", r.name), t, s)
            } else {
                let c = spec.container_resource.as_ref();
                let field = |f: &str| {
                    c.and_then(|c| c.get(f))
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                let head = format!(
                    "resource {} of container \"{}\" on pods",
                    field("name"),
                    field("container")
                );
                let s = st.and_then(|s| s.container_resource.clone());
                (head, json_part(c, "target").cloned(), s)
            };
            w.w(1, &head);
            if let Some(av) = json_quantity(target.as_ref(), "averageValue") {
                let cur = current(status.as_ref(), "averageValue").unwrap_or_else(unknown);
                w.w(0, &format!(":\t{cur} / {}\n", quantity_string(&av)));
            } else {
                let cur_status = status.as_ref().and_then(|s| s.get("current"));
                let cur = cur_status
                    .and_then(|c| c.get("averageUtilization"))
                    .and_then(serde_json::Value::as_i64)
                    .map_or_else(unknown, |u| {
                        format!(
                            "{u}% ({})",
                            quantity_or_nil(json_quantity(cur_status, "averageValue").as_ref())
                        )
                    });
                let t = target
                    .as_ref()
                    .and_then(|t| t.get("averageUtilization"))
                    .and_then(serde_json::Value::as_i64)
                    .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"));
                w.w(1, &format!("(as a percentage of request):\t{cur} / {t}\n"));
            }
        }
        t => w.w(1, &format!("<unknown metric type {}>\n", go_quote(t))),
    }
}

pub(super) fn describe_hpa(
    sim: &Simulation,
    h: &HorizontalPodAutoscaler,
    show_events: bool,
) -> String {
    let mut w = Writer::new();
    let m = &h.metadata;
    w.w(0, &format!("Name:\t{}\n", m.name));
    w.w(0, &format!("Namespace:\t{}\n", m.namespace));
    print_labels_multiline(&mut w, "Labels", &m.labels);
    print_annotations_multiline(&mut w, "Annotations", &m.annotations);
    w.w(
        0,
        &format!(
            "CreationTimestamp:\t{}\n",
            time_or_zero(m.creation_timestamp)
        ),
    );
    let r = &h.spec.scale_target_ref;
    w.w(0, &format!("Reference:\t{}/{}\n", r.kind, r.name));
    w.w(0, "Metrics:\t( current / target )\n");
    for (i, spec) in h.spec.metrics.iter().enumerate() {
        describe_metric(&mut w, spec, h.status.current_metrics.get(i));
    }
    let min = h
        .spec
        .min_replicas
        .map_or_else(|| "<unset>".to_string(), |m| m.to_string());
    w.w(0, &format!("Min replicas:\t{min}\n"));
    w.w(0, &format!("Max replicas:\t{}\n", h.spec.max_replicas));
    if let Some(b) = &h.spec.behavior {
        w.w(0, "Behavior:\n");
        if let Some(up) = &b.scale_up {
            w.w(1, "Scale Up:\n");
            describe_scaling_rules(&mut w, up);
        }
        if let Some(down) = &b.scale_down {
            w.w(1, "Scale Down:\n");
            describe_scaling_rules(&mut w, down);
        }
    }
    w.w(
        0,
        &format!(
            "{} pods:\t{} current / {} desired\n",
            r.kind, h.status.current_replicas, h.status.desired_replicas
        ),
    );
    if !h.status.conditions.is_empty() {
        w.w(0, "Conditions:\n");
        w.w(1, "Type\tStatus\tReason\tMessage\n");
        w.w(1, "----\t------\t------\t-------\n");
        for c in &h.status.conditions {
            w.w(
                1,
                &format!("{}\t{}\t{}\t{}\n", c.type_, c.status, c.reason, c.message),
            );
        }
    }
    if show_events {
        let evs = events::for_object(
            &sim.api.events,
            "HorizontalPodAutoscaler",
            &m.namespace,
            &m.name,
            &m.uid,
        );
        describe_events(&mut w, &evs, sim.now());
    }
    w.finish()
}
