//! What the playground shows of each HorizontalPodAutoscaler: spec, status, the target's replicas,
//! the stabilization window and the synthetic load driving it (pure, serialisable).

use super::horizontal::DEFAULT_DOWNSCALE_STABILISATION_WINDOW;
use super::scale::{get_scale, rest_mapping};
use crate::api::autoscaling::HorizontalPodAutoscaler;
use crate::api::{Duration, Selector};
use crate::sim::Simulation;
use serde::Serialize;

/// One metric: target and current (utilization in percent, or average value in milli-units).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricView {
    pub name: String,
    pub target_utilization: Option<i32>,
    pub current_utilization: Option<i32>,
    pub target_average_milli: Option<i64>,
    pub current_average_milli: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionView {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
}

/// An HPA as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutoscalerView {
    pub namespace: String,
    pub name: String,
    pub target_kind: String,
    pub target_name: String,
    pub min_replicas: i32,
    pub max_replicas: i32,
    /// The target's `spec.replicas` now (`None` when the scale cannot be read).
    pub target_replicas: Option<i32>,
    pub current_replicas: i32,
    pub desired_replicas: i32,
    /// Seconds since the start of the last rescale.
    pub last_scale_time: Option<f64>,
    /// The scale-down stabilization window in seconds (behavior's, or the controller's 300).
    pub scale_down_window_seconds: f64,
    pub scale_up_window_seconds: f64,
    pub metrics: Vec<MetricView>,
    pub conditions: Vec<ConditionView>,
    /// Total CPU demand of the load entry covering the target's pods, now (milli-cores).
    pub load_cpu_milli: Option<f64>,
    /// Index of that load entry in the scenario's `load:` list.
    pub load_index: Option<usize>,
}

fn view(sim: &Simulation, h: &HorizontalPodAutoscaler) -> AutoscalerView {
    let store = &sim.api.store;
    let r = &h.spec.scale_target_ref;
    let group = r.api_version.split_once('/').map(|(g, _)| g).unwrap_or("");
    let scale = rest_mapping(group, &r.kind)
        .ok()
        .and_then(|k| get_scale(store, k, &h.metadata.namespace, &r.name).ok());
    let load = &sim.world.load;
    // The first load entry whose pods the target selects (same namespace, a pod in common, or
    // the same workload named).
    let load_index = scale.as_ref().and_then(|s| {
        let sel = Selector::parse(&s.selector).ok()?;
        load.entries.iter().position(|e| {
            e.namespace.as_deref().unwrap_or("default") == h.metadata.namespace
                && (e.workload.as_deref().is_some_and(|w| {
                    w.split_once('/').is_some_and(|(k, n)| {
                        crate::api::resolve_kind(k) == Some(s.kind) && n == s.name
                    })
                }) || e.selector(store).is_some_and(|es| {
                    store
                        .list::<crate::api::Pod>(Some(&h.metadata.namespace))
                        .any(|p| sel.matches(&p.metadata.labels) && es.matches(&p.metadata.labels))
                }))
        })
    });
    let t = sim.now() - load.start;
    let load_cpu_milli = load_index
        .and_then(|i| load.entries[i].cpu.as_ref())
        .map(|c| c.value_at(t));
    let behavior = h.spec.behavior.as_ref();
    let down = behavior
        .and_then(|b| b.scale_down.as_ref())
        .and_then(|r| r.stabilization_window_seconds)
        .map_or(
            DEFAULT_DOWNSCALE_STABILISATION_WINDOW.as_secs_f64(),
            f64::from,
        );
    let up = behavior
        .and_then(|b| b.scale_up.as_ref())
        .and_then(|r| r.stabilization_window_seconds)
        .map_or(0.0, f64::from);
    let metrics = h
        .spec
        .metrics
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let res = m.resource.as_ref()?;
            let cur = h
                .status
                .current_metrics
                .get(i)
                .and_then(|s| s.resource.as_ref());
            Some(MetricView {
                name: res.name.clone(),
                target_utilization: res.target.average_utilization,
                current_utilization: cur.and_then(|c| c.current.average_utilization),
                target_average_milli: res
                    .target
                    .average_value
                    .as_ref()
                    .map(|q| crate::scenario::load::milli(q) as i64),
                current_average_milli: cur
                    .and_then(|c| c.current.average_value.as_ref())
                    .map(|q| crate::scenario::load::milli(q) as i64),
            })
        })
        .collect();
    AutoscalerView {
        namespace: h.metadata.namespace.clone(),
        name: h.metadata.name.clone(),
        target_kind: r.kind.clone(),
        target_name: r.name.clone(),
        min_replicas: h.spec.min_replicas.unwrap_or(1),
        max_replicas: h.spec.max_replicas,
        target_replicas: scale.map(|s| s.spec_replicas),
        current_replicas: h.status.current_replicas,
        desired_replicas: h.status.desired_replicas,
        last_scale_time: h
            .status
            .last_scale_time
            .map(|t| (t - sim.start).as_secs_f64()),
        scale_down_window_seconds: down,
        scale_up_window_seconds: up,
        metrics,
        conditions: h
            .status
            .conditions
            .iter()
            .map(|c| ConditionView {
                type_: c.type_.clone(),
                status: c.status.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
            })
            .collect(),
        load_cpu_milli,
        load_index,
    }
}

/// Every HPA, ordered by namespace and name.
pub fn autoscaler_views(sim: &Simulation) -> Vec<AutoscalerView> {
    let mut out: Vec<AutoscalerView> = sim
        .api
        .store
        .list::<HorizontalPodAutoscaler>(None)
        .map(|h| view(sim, h))
        .collect();
    crate::sort::sort_by(&mut out, |a, b| {
        a.namespace.cmp(&b.namespace).then(a.name.cmp(&b.name))
    });
    out
}

/// The CPU demand curve of load entry `index` over `[0, until]`: `[seconds, milli-cores]`
/// pairs, at most ~600 points (at least one per 15 s sync period when that fits).
pub fn load_series(sim: &Simulation, index: usize, until: Duration) -> Vec<(f64, f64)> {
    let step = Duration::from_millis((until.as_millis() / 600).max(15_000));
    sim.world.load.series(index, "cpu", until, step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{builtin, Scenario};

    #[test]
    fn views_follow_the_builtin_scenario() {
        let s = Scenario::parse(builtin::get("hpa-frontend").unwrap()).unwrap();
        let mut sim = s.build().unwrap();
        sim.run_for(Duration::from_secs(4 * 60)).unwrap();
        let v = autoscaler_views(&sim);
        assert_eq!(v.len(), 1);
        let f = &v[0];
        assert_eq!(
            (f.target_kind.as_str(), f.target_replicas),
            ("ReplicaSet", Some(10))
        );
        assert_eq!(f.scale_down_window_seconds, 300.0);
        assert_eq!(f.load_index, Some(0));
        assert_eq!(f.load_cpu_milli, Some(2400.0));
        assert_eq!(f.metrics[0].target_utilization, Some(50));
        assert_eq!(f.metrics[0].current_utilization, Some(120));
        let series = load_series(&sim, 0, Duration::from_secs(18 * 60));
        assert_eq!(series.first(), Some(&(0.0, 240.0)));
        assert!(series.iter().any(|(t, v)| *t == 180.0 && *v == 2400.0));
        assert!(load_series(&sim, 5, Duration::from_secs(60)).is_empty());
    }
}
