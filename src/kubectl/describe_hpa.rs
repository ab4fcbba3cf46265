//! `kubectl describe hpa` (`HorizontalPodAutoscalerDescriber`, `describeHorizontalPodAutoscalerV2`
//! in describe.go).

use super::*;
use crate::api::autoscaling::{HorizontalPodAutoscaler, HpaScalingRules};

fn describe_scaling_rules(w: &mut Writer, rules: &HpaScalingRules) {
    if let Some(s) = rules.stabilization_window_seconds {
        w.w(2, &format!("Stabilization Window: {s} seconds\n"));
    }
    if let Some(p) = &rules.select_policy {
        w.w(2, &format!("Select Policy: {p}\n"));
    }
    let policies = rules.policies.as_deref().unwrap_or_default();
    if !policies.is_empty() {
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
        let st = h
            .status
            .current_metrics
            .get(i)
            .and_then(|s| s.resource.as_ref());
        match (spec.type_.as_str(), &spec.resource) {
            ("Resource", Some(res)) => {
                if let Some(av) = &res.target.average_value {
                    let current = st
                        .and_then(|s| s.current.average_value.as_ref())
                        .map_or_else(|| "<unknown>".to_string(), |q| q.0.clone());
                    w.w(
                        1,
                        &format!("resource {} on pods:\t{current} / {}\n", res.name, av.0),
                    );
                } else {
                    let current = match st {
                        Some(s) if s.current.average_utilization.is_some() => format!(
                            "{}% ({})",
                            s.current.average_utilization.unwrap_or(0),
                            s.current
                                .average_value
                                .as_ref()
                                .map_or("0", |q| q.0.as_str())
                        ),
                        _ => "<unknown>".into(),
                    };
                    let target = res
                        .target
                        .average_utilization
                        .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"));
                    w.w(
                        1,
                        &format!(
                            "resource {} on pods  (as a percentage of request):\t{current} / {target}\n",
                            res.name
                        ),
                    );
                }
            }
            (t, _) => w.w(1, &format!("\"{t}\" metric:\t<unknown> / <unknown>\n")),
        }
    }
    if let Some(min) = h.spec.min_replicas {
        w.w(0, &format!("Min replicas:\t{min}\n"));
    }
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
